#include "hierarchy/hierarchy_scene.h"

#include "canvas/scene_style.h"
#include "util/parse.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace warpscope::viz {

using launch::LaunchLimits;
using launch::ThreadCoordinates;

namespace {

constexpr double kLaneDetailPixels = 3.0;  // lane cells drawn from this size up
constexpr double kWarpDetailPixels = 1.2;  // warp bars from this size up
constexpr std::int64_t kMaxTiledBlocks = 40000; // beyond: whole rows instead of tiles

} // namespace

HierarchyScene::HierarchyScene()
{
    setLaunch({{4, 2, 1}, {96, 1, 1}});
}

void HierarchyScene::setLaunch(const launch::LaunchShape& shape)
{
    m_shape = shape;
    m_layout = HierarchyLayout(m_shape, m_layoutAspect);
    m_hovered.reset();
    m_selected.reset();
    resetView();
}

HierarchyDetail HierarchyScene::detailFor(double lanePixels, std::int64_t visibleBlocks)
{
    if (lanePixels >= kLaneDetailPixels)
        return HierarchyDetail::Lanes;
    if (lanePixels >= kWarpDetailPixels)
        return HierarchyDetail::Warps;
    return visibleBlocks > kMaxTiledBlocks ? HierarchyDetail::Rows : HierarchyDetail::Blocks;
}

std::optional<ThreadCoordinates> HierarchyScene::threadAt(Point screen) const
{
    const HierarchyHit hit = m_layout.hitTest(m_view.toWorld(screen));
    if (hit.block < 0 || hit.warp < 0 || hit.lane < 0)
        return std::nullopt;
    return launch::coordinatesOf(m_shape, hit.block, hit.warp, hit.lane);
}

void HierarchyScene::click(Point screen)
{
    m_selected = threadAt(screen);
    if (onSelectionChanged)
        onSelectionChanged(m_selected);
}

Rect HierarchyScene::figureArea(const Rect& viewport) const
{
    // Between the launch overlay (top) and the legend (bottom), as tall as they were last frame.
    Rect area = viewport;
    const double top = std::min(m_topBand, viewport.h * 0.45), bottom = std::min(m_bottomBand, viewport.h * 0.25);
    area.y += top;
    area.h = std::max(40.0, viewport.h - top - bottom);
    return area;
}

void HierarchyScene::draw(const SceneFrame& frame)
{
    // The figure is fitted between the overlays, so they never cover the blocks they describe.
    const Rect area = figureArea(frame.viewport);
    m_figureArea = area;
    // A 1-D grid wraps to the area's shape: re-lay it out when a fit is due and the shape changed.
    const double aspect = area.h > 0 ? area.w / area.h : 1.6;
    if (m_autoFitOnResize && std::abs(aspect - m_layoutAspect) > 0.05 && area.w > 0) {
        m_layoutAspect = aspect;
        m_layout = HierarchyLayout(m_shape, m_layoutAspect);
        m_fitPending = true;
    }
    fitIfPending(m_layout.bounds(), area);
    m_stats = {};

    const Rect world = m_view.toWorld(frame.viewport);
    const HierarchyLayout::Range rows = m_layout.visibleRows(world);
    const HierarchyLayout::Range columns = m_layout.visibleColumns(world);
    const std::int64_t visible = std::max<std::int64_t>(0, rows.last - rows.first + 1) *
                                 std::max<std::int64_t>(0, columns.last - columns.first + 1);
    m_stats.detail = detailFor(m_layout.metrics().lane * m_view.scale(), visible);

    // Hover: only the lane under a pointer that ImGui does not own.
    m_hovered.reset();
    m_hoveredBlock = -1;
    m_hoveredWarp = -1;
    if (frame.mouseFree) {
        const HierarchyHit hit = m_layout.hitTest(m_view.toWorld(frame.mouse));
        m_hoveredBlock = hit.block;
        m_hoveredWarp = hit.warp;
        if (hit.block >= 0 && hit.warp >= 0 && hit.lane >= 0 && m_stats.detail == HierarchyDetail::Lanes)
            m_hovered = launch::coordinatesOf(m_shape, hit.block, hit.warp, hit.lane);
    }

    if (m_stats.detail == HierarchyDetail::Rows)
        drawRows(frame, rows);
    else
        drawBlocks(frame, rows, columns);

    drawOverlay(frame);
    drawLegend(frame);
    if (m_hovered)
        drawTooltip(*m_hovered);
    else if (frame.mouseFree && m_hoveredBlock >= 0 && m_stats.detail != HierarchyDetail::Lanes) {
        ImGui::BeginTooltip();
        const launch::Dim3 index = launch::indexFromLinear(m_hoveredBlock, m_shape.grid);
        ImGui::Text("blockIdx %s  (block %s of %s)", launch::formatIndex(index).c_str(),
                    withThousands(m_hoveredBlock).c_str(), withThousands(m_shape.blockCount()).c_str());
        if (m_hoveredWarp >= 0)
            ImGui::Text("warp %d of %d", m_hoveredWarp, m_shape.warpsPerBlock());
        ImGui::TextDisabled("zoom in (wheel or +) to see lanes");
        ImGui::EndTooltip();
    }
}

void HierarchyScene::drawRows(const SceneFrame& frame, const HierarchyLayout::Range& rows)
{
    // Sub-pixel tiles: one strip per block row, sampled so at most ~2 strips per pixel are drawn.
    ImDrawList* list = frame.draw;
    const double rowPixels = (m_layout.blockHeight() + m_layout.metrics().blockGap) * m_view.scale();
    const std::int64_t step = std::max<std::int64_t>(1, static_cast<std::int64_t>(0.5 / std::max(rowPixels, 1e-12)));
    const Rect full = m_layout.bounds();
    for (std::int64_t row = rows.first; row <= rows.last; row += step) {
        const double top = m_layout.rowTop(row);
        Rect strip{full.x, top, full.w, m_layout.blockHeight()};
        if (m_layout.wrapped() && row == m_layout.rows() - 1) {
            const std::int64_t inLastRow = m_shape.blockCount() - row * m_layout.columns();
            strip.w = inLastRow * (m_layout.blockWidth() + m_layout.metrics().blockGap);
        }
        Rect screen = m_view.toScreen(strip);
        screen.h = std::max(screen.h * step, 1.0);
        // Keep coordinates near the viewport: strips of huge grids are far wider than float range.
        const double left = std::max(screen.x, frame.viewport.x - 1.0);
        const double right = std::min(screen.right(), frame.viewport.right() + 1.0);
        if (right <= left)
            continue;
        screen.x = left;
        screen.w = right - left;
        style::fillRect(list, screen, style::kWarpOdd);
        ++m_stats.blocksDrawn;
    }
}

void HierarchyScene::drawBlocks(const SceneFrame& frame, const HierarchyLayout::Range& rows,
                                const HierarchyLayout::Range& columns)
{
    ImDrawList* list = frame.draw;
    const double scale = m_view.scale();
    const HierarchyDetail detail = m_stats.detail;
    const int warps = m_shape.warpsPerBlock();
    const int lastLanes = m_shape.lanesInLastWarp();
    ImFont* font = ImGui::GetFont();

    for (std::int64_t row = rows.first; row <= rows.last; ++row) {
        for (std::int64_t column = columns.first; column <= columns.last; ++column) {
            const auto block = m_layout.blockAt(row, column);
            if (!block)
                continue;
            const Rect blockScreen = m_view.toScreen(m_layout.blockRect(*block));
            ++m_stats.blocksDrawn;
            if (detail == HierarchyDetail::Blocks) {
                style::fillRect(list, blockScreen, *block == m_hoveredBlock ? style::kHover : style::kWarpEven);
                continue;
            }
            const bool blockHovered = *block == m_hoveredBlock;
            style::fillRect(list, blockScreen, style::kBlockFill, 3.0f);
            style::strokeRect(list, blockScreen, blockHovered ? style::kHover : style::kBlockBorder, 1.0f, 3.0f);
            if (m_layout.metrics().blockHeader * scale >= 11.0) {
                const float size = static_cast<float>(std::min(m_layout.metrics().blockHeader * scale * 0.75, 15.0));
                const std::string label = "block " + launch::formatIndex(launch::indexFromLinear(*block, m_shape.grid));
                list->AddText(font, size,
                              ImVec2(static_cast<float>(blockScreen.x + 4), static_cast<float>(blockScreen.y + 2)),
                              style::kTextDim, label.c_str());
            }
            for (int warp = 0; warp < warps; ++warp) {
                const Rect warpScreen = m_view.toScreen(m_layout.warpRect(*block, warp));
                if (warpScreen.bottom() < frame.viewport.y || warpScreen.y > frame.viewport.bottom())
                    continue;
                ++m_stats.warpsDrawn;
                const int activeLanes = warp == warps - 1 ? lastLanes : LaunchLimits::warpSize;
                const ImU32 warpColour = warp % 2 == 0 ? style::kWarpEven : style::kWarpOdd;
                if (detail == HierarchyDetail::Warps) {
                    Rect active = warpScreen;
                    active.w = warpScreen.w * activeLanes / LaunchLimits::warpSize;
                    style::fillRect(list, active, warpColour);
                    if (activeLanes < LaunchLimits::warpSize) {
                        Rect idle{active.right(), warpScreen.y, warpScreen.w - active.w, warpScreen.h};
                        style::fillRect(list, idle, style::kIdleLane);
                    }
                    continue;
                }
                const ImU32 altColour = warp % 2 == 0 ? style::kWarpEvenAlt : style::kWarpOddAlt;
                const double lanePitch = (m_layout.metrics().lane + m_layout.metrics().laneGap) * m_view.scale();
                for (int lane = 0; lane < LaunchLimits::warpSize; ++lane) {
                    // Whole pixels, every lane as wide as the next at any zoom.
                    const Rect laneScreen = snapLaneToPixels(m_view.toScreen(m_layout.laneRect(*block, warp, lane)), lanePitch);
                    if (laneScreen.right() < frame.viewport.x || laneScreen.x > frame.viewport.right())
                        continue;
                    ++m_stats.lanesDrawn;
                    if (lane >= activeLanes) {
                        style::fillRect(list, laneScreen, style::kIdleLane);
                        list->AddLine(ImVec2(static_cast<float>(laneScreen.x), static_cast<float>(laneScreen.bottom())),
                                      ImVec2(static_cast<float>(laneScreen.right()), static_cast<float>(laneScreen.y)),
                                      style::kIdleMark);
                        continue;
                    }
                    // Alternate the shade with threadIdx.y + threadIdx.z, so rows of a 2-D or 3-D
                    // block show where they fall inside a warp.
                    const std::int64_t thread = static_cast<std::int64_t>(warp) * LaunchLimits::warpSize + lane;
                    const launch::Dim3 t = launch::indexFromLinear(thread, m_shape.block);
                    ImU32 colour = (t.y + t.z) % 2 == 0 ? warpColour : altColour;
                    if (m_hovered && m_hovered->blockLinear == *block && m_hovered->warpInBlock == warp)
                        colour = m_hovered->lane == lane ? style::kHover : colour;
                    style::fillRect(list, laneScreen, colour, laneScreen.w > 8 ? 1.5f : 0.0f);
                    if (m_selected && m_selected->blockLinear == *block && m_selected->warpInBlock == warp &&
                        m_selected->lane == lane)
                        style::strokeRect(list, laneScreen, style::kSelected, 2.0f);
                    if (laneScreen.w >= 22.0) {
                        char text[8];
                        std::snprintf(text, sizeof text, "%d", lane);
                        const float size = static_cast<float>(std::min(laneScreen.w * 0.45, 15.0));
                        list->AddText(font, size,
                                      ImVec2(static_cast<float>(laneScreen.x + 2), static_cast<float>(laneScreen.y + 1)),
                                      IM_COL32(12, 16, 24, 220), text);
                    }
                }
                if (m_hovered && m_hovered->blockLinear == *block && m_hovered->warpInBlock == warp)
                    style::strokeRect(list, warpScreen, style::kHover, 1.5f);
            }
        }
    }
}

void HierarchyScene::drawOverlay(const SceneFrame& frame)
{
    ImGui::SetNextWindowPos(ImVec2(static_cast<float>(frame.viewport.x + 10), static_cast<float>(frame.viewport.y + 10)),
                            ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.88f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                   ImGuiWindowFlags_NoMove;
    // Never wider than the canvas: long lines wrap instead of running past its edge.
    const float wrapWidth = static_cast<float>(std::clamp(frame.viewport.w - 40.0, 160.0, 460.0));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(wrapWidth + 20.0f, static_cast<float>(frame.viewport.h * 0.45)));
    const bool open = ImGui::Begin("Launch##hierarchy", nullptr, flags);
    if (open) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrapWidth);
        ImGui::TextWrapped("grid %s x block %s", launch::formatIndex(m_shape.grid).c_str(), launch::formatIndex(m_shape.block).c_str());
        ImGui::TextWrapped("%s blocks  |  %s warps  |  %s threads", withThousands(m_shape.blockCount()).c_str(),
                           withThousandsBig(m_shape.warpCount()).c_str(), withThousandsBig(m_shape.threadCount()).c_str());
        const int idle = m_shape.idleLanesPerBlock();
        if (idle > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.75f, 0.35f, 1.0f));
            ImGui::TextWrapped("last warp of each block: %d of 32 lanes active, %d idle", 32 - idle, idle);
            ImGui::PopStyleColor();
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("every warp is full (block size is a multiple of 32)");
            ImGui::PopStyleColor();
        }
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        if (m_layout.wrapped())
            ImGui::TextWrapped("1-D grid wrapped into rows of %s blocks", withThousands(m_layout.columns()).c_str());
        ImGui::Separator();
        const char* level = "lanes";
        switch (m_stats.detail) {
        case HierarchyDetail::Rows: level = "block rows"; break;
        case HierarchyDetail::Blocks: level = "blocks"; break;
        case HierarchyDetail::Warps: level = "warps"; break;
        case HierarchyDetail::Lanes: level = "lanes"; break;
        }
        ImGui::TextWrapped("detail: %s   wheel/+/-: zoom   drag: pan   0: fit", level);
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
    }
    // The band the figure keeps clear of: down to the window's bottom edge (its title bar when folded).
    m_overlayBottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    m_topBand = m_overlayBottom - frame.viewport.y + 8.0;
    ImGui::End();
}

void HierarchyScene::drawLegend(const SceneFrame& frame)
{
    // What the colours mean, in a strip at the bottom left: one line on a wide canvas, three on a narrow one.
    const bool oneLine = frame.viewport.w >= 820.0;
    ImGui::SetNextWindowPos(ImVec2(static_cast<float>(frame.viewport.x + 10), static_cast<float>(frame.viewport.bottom() - 8)),
                            ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.88f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoInputs;
    if (ImGui::Begin("Legend##hierarchy", nullptr, flags)) {
        const ImVec2 swatch(16.0f, 11.0f);
        auto colourBox = [&](const char* id, ImU32 colour) {
            ImGui::ColorButton(id, ImGui::ColorConvertU32ToFloat4(colour),
                               ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker | ImGuiColorEditFlags_NoDragDrop, swatch);
        };
        auto next = [&] {
            if (oneLine)
                ImGui::SameLine(0.0f, 18.0f);
        };
        colourBox("##warp", style::kWarpEven);
        ImGui::SameLine(0.0f, 3.0f);
        colourBox("##warpOdd", style::kWarpOdd);
        ImGui::SameLine();
        ImGui::TextUnformatted("a row in a block: one warp, 32 lanes");
        next();
        colourBox("##shadeEven", style::kWarpEven);
        ImGui::SameLine(0.0f, 3.0f);
        colourBox("##shadeOdd", style::kWarpEvenAlt);
        ImGui::SameLine();
        ImGui::TextUnformatted("lane shade: threadIdx.y + z even / odd");
        next();
        colourBox("##idle", style::kIdleLane);
        ImGui::SameLine();
        ImGui::TextUnformatted("idle lane: no thread, still in the warp");
    }
    m_bottomBand = frame.viewport.bottom() - ImGui::GetWindowPos().y + 8.0;
    ImGui::End();
}

void HierarchyScene::drawTooltip(const ThreadCoordinates& c)
{
    ImGui::BeginTooltip();
    if (c.idle) {
        ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.35f, 1.0f), "idle lane %d of warp %d", c.lane, c.warpInBlock);
        ImGui::Text("blockIdx %s", launch::formatIndex(c.blockIdx).c_str());
        ImGui::TextWrapped("No thread: the block has %s threads, so its last warp is partial. "
                           "The lane still occupies the warp's slot.",
                           withThousands(m_shape.threadsPerBlock()).c_str());
    } else {
        ImGui::Text("blockIdx   %s", launch::formatIndex(c.blockIdx).c_str());
        ImGui::Text("threadIdx  %s", launch::formatIndex(c.threadIdx).c_str());
        ImGui::Separator();
        ImGui::Text("global linear thread id  %s", withThousandsBig(c.globalLinear).c_str());
        ImGui::Text("thread in block          %s", withThousands(c.threadInBlock).c_str());
        ImGui::Text("warp id (in block)       %d", c.warpInBlock);
        ImGui::Text("lane id                  %d", c.lane);
        ImGui::TextDisabled("global id = block %s x %s threads + %s", withThousands(c.blockLinear).c_str(),
                            withThousands(m_shape.threadsPerBlock()).c_str(), withThousands(c.threadInBlock).c_str());
    }
    ImGui::EndTooltip();
}

} // namespace warpscope::viz
