#include "placement/placement_scene.h"

#include "canvas/scene_style.h"
#include "util/parse.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace warpscope::viz {
namespace {

constexpr double kStripHeight = 74.0;    // the wave strip under the SM grid, logical px

std::string percentText(double fraction)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.1f %%", fraction * 100.0);
    return text;
}

// Dark text on a light fill, light text on a dark one (Rec. 601 luma).
ImU32 textOn(ImU32 fill)
{
    const double luma = 0.299 * ((fill >> IM_COL32_R_SHIFT) & 0xff) + 0.587 * ((fill >> IM_COL32_G_SHIFT) & 0xff) +
                        0.114 * ((fill >> IM_COL32_B_SHIFT) & 0xff);
    return luma > 140.0 ? IM_COL32(16, 18, 24, 255) : style::kText;
}

} // namespace

PlacementScene::PlacementScene()
{
    setPlacement({{528, 1, 1}, {512, 1, 1}}, 132, 4, "H100 SXM (sm_90)", "");
}

void PlacementScene::setPlacement(const launch::LaunchShape& shape, int smCount, int blocksPerSm,
                                  std::string gpuLabel, std::string occupancyNote)
{
    m_shape = shape;
    m_plan = launch::planWaves(shape.blockCount(), smCount, blocksPerSm);
    m_layout = m_layoutWidth > 0 ? PlacementLayout::fitting(smCount, std::max(1, blocksPerSm), m_layoutWidth, m_layoutHeight)
                                 : PlacementLayout(smCount, std::max(1, blocksPerSm));
    m_gpuLabel = std::move(gpuLabel);
    m_occupancyNote = std::move(occupancyNote);
    m_wave = std::clamp<long long>(m_wave, 0, std::max<long long>(0, m_plan.waves - 1));
    resetView();
}

void PlacementScene::setWave(long long wave)
{
    m_wave = std::clamp<long long>(wave, 0, std::max<long long>(0, m_plan.waves - 1));
    m_waveClock = 0.0;
}

void PlacementScene::draw(const SceneFrame& frame)
{
    // Playing walks the waves once and stops on the last (the tail, which is the point): a finite
    // animation, so a window left playing goes idle.
    if (m_playing && m_plan.waves > 0) {
        m_waveClock += frame.deltaTime;
        if (m_waveClock >= m_secondsPerWave) {
            m_waveClock = 0.0;
            m_wave = std::min<long long>(m_wave + 1, m_plan.waves - 1);
        }
        if (m_wave >= m_plan.waves - 1)
            m_playing = false;
    }
    // Under the overlay, as tall as it was last frame: it never covers an SM, and its text is never cut.
    const double top = std::min(m_topBand, frame.viewport.h * 0.45);
    Rect smArea = frame.viewport;
    smArea.y += top;
    smArea.h = std::max(40.0, frame.viewport.h - kStripHeight - top);
    m_smArea = smArea;
    // The SMs' row labels ("SM 24") sit left of the grid; the slots get the rest, as large as the
    // area allows (PlacementLayout::fitting picks the slot and SM columns).
    Rect gridArea = smArea;
    const double labelWidth = ImGui::CalcTextSize("SM 000").x + 8.0;
    gridArea.x += labelWidth;
    gridArea.w = std::max(40.0, gridArea.w - labelWidth);
    constexpr double kMargin = 24.0; // CanvasScene::fitIfPending's, on each side
    const double width = gridArea.w - 2 * kMargin, height = gridArea.h - 2 * kMargin;
    if (m_autoFitOnResize && (std::abs(width - m_layoutWidth) > 2.0 || std::abs(height - m_layoutHeight) > 2.0)) {
        m_layoutWidth = width;
        m_layoutHeight = height;
        m_layout = PlacementLayout::fitting(m_plan.smCount, std::max(1, m_plan.blocksPerSm), width, height);
        m_fitPending = true;
    }
    fitIfPending(m_layout.bounds(), gridArea);
    if (m_plan.runnable())
        drawSms(frame);
    drawWaveStrip(frame, {frame.viewport.x + 12, frame.viewport.bottom() - kStripHeight + 8,
                          frame.viewport.w - 24, kStripHeight - 16});
    drawOverlay(frame);
}

void PlacementScene::drawSms(const SceneFrame& frame)
{
    ImDrawList* list = frame.draw;
    ImFont* font = ImGui::GetFont();
    const bool lastWave = m_wave == m_plan.waves - 1;
    PlacementHit hover;
    if (frame.mouseFree)
        hover = m_layout.hitTest(m_view.toWorld(frame.mouse));

    for (int sm = 0; sm < m_plan.smCount; ++sm) {
        const Rect tile = m_view.toScreen(m_layout.smRect(sm));
        if (!tile.intersects(frame.viewport))
            continue;
        style::fillRect(list, tile, style::kBlockFill, 2.0f);
        style::strokeRect(list, tile, sm == hover.sm ? style::kHover : style::kBlockBorder, 1.0f, 2.0f);
        // The first SM of each row names the row, left of it.
        if (sm % m_layout.smColumns() == 0 && tile.h >= 10.0) {
            const std::string label = "SM " + std::to_string(sm);
            const float size = static_cast<float>(std::min(14.0, std::max(10.0, tile.h * 0.6)));
            const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, label.c_str());
            list->AddText(font, size, ImVec2(static_cast<float>(tile.x - 6.0) - extent.x, static_cast<float>(tile.y + (tile.h - extent.y) / 2)),
                          sm == hover.sm ? style::kHover : style::kTextDim, label.c_str());
        }
        if (sm == hover.sm && hover.slot < 0)
            ImGui::SetTooltip("SM %d: %d resident block slots", sm, m_plan.blocksPerSm);
        for (int slot = 0; slot < m_plan.blocksPerSm; ++slot) {
            const Rect cell = m_view.toScreen(m_layout.slotRect(sm, slot));
            // Inverse of placeBlock: index in the wave = slot * SMs + sm.
            const long long block = m_wave * m_plan.slotsPerWave + static_cast<long long>(slot) * m_plan.smCount + sm;
            if (block < m_plan.totalBlocks) {
                style::fillRect(list, cell, style::waveColour(m_wave));
            } else {
                // An empty slot: in the tail wave it is capacity the launch leaves unused.
                style::strokeRect(list, cell, lastWave ? style::kTailDim : style::kIdleMark, 1.0f);
            }
            if (sm == hover.sm && slot == hover.slot) {
                style::strokeRect(list, cell, style::kHover, 2.0f, 1.5f);
                ImGui::BeginTooltip();
                ImGui::Text("SM %d, resident slot %d of %d, wave %s", sm, slot, m_plan.blocksPerSm,
                            withThousands(m_wave + 1).c_str());
                if (block < m_plan.totalBlocks) {
                    const launch::Dim3 index = launch::indexFromLinear(block, m_shape.grid);
                    ImGui::Text("block %s  blockIdx (%lld, %lld, %lld)", withThousands(block).c_str(),
                                static_cast<long long>(index.x), static_cast<long long>(index.y),
                                static_cast<long long>(index.z));
                } else {
                    ImGui::TextColored(ImVec4(0.91f, 0.38f, 0.31f, 1.0f), "empty: no block left for this slot");
                }
                ImGui::EndTooltip();
            }
        }
    }
}

void PlacementScene::drawWaveStrip(const SceneFrame& frame, const Rect& strip)
{
    ImDrawList* list = frame.draw;
    ImFont* font = ImGui::GetFont();
    const float fontSize = ImGui::GetFontSize();
    list->AddText(font, fontSize, ImVec2(static_cast<float>(strip.x), static_cast<float>(strip.y)), style::kTextDim,
                  "Waves (bar height = share of the SMs' resident slots used)");
    if (!m_plan.runnable())
        return;
    const Rect bars{strip.x, strip.y + fontSize + 4, strip.w, strip.h - fontSize - 4};
    const double perWave = bars.w / static_cast<double>(m_plan.waves);
    // With more waves than pixels, draw every k-th wave; the tail is always drawn.
    const long long step = std::max<long long>(1, static_cast<long long>(std::ceil(2.0 / perWave)));
    for (long long wave = 0; wave < m_plan.waves; wave += step) {
        const bool tail = wave == m_plan.waves - 1;
        const double used = tail ? m_plan.tailUtilization : 1.0;
        const Rect slotArea{bars.x + wave * perWave, bars.y, std::max(1.0, perWave * step - (perWave > 4 ? 2 : 0)), bars.h};
        style::strokeRect(list, slotArea, style::kBlockBorder);
        const double height = std::max(2.0, bars.h * used); // a 1-block tail must stay visible
        const Rect filled{slotArea.x, slotArea.bottom() - height, slotArea.w, height};
        const ImU32 fill = tail && m_plan.tailBlocks < m_plan.slotsPerWave ? style::kTail : style::waveColour(wave);
        style::fillRect(list, filled, fill);
        if (wave <= m_wave && m_wave < wave + step)
            style::strokeRect(list, slotArea, style::kHover, 2.0f);
        if (step == 1 && slotArea.w >= 120.0) {
            const std::string label = "wave " + withThousands(wave + 1) + ": " +
                                      withThousands(tail ? m_plan.tailBlocks : m_plan.slotsPerWave) + " / " +
                                      withThousands(m_plan.slotsPerWave) + " slots";
            // On the bar's fill when it reaches the label, in a colour that stands out from it.
            const bool onFill = filled.y <= slotArea.y + 3;
            list->AddText(font, fontSize, ImVec2(static_cast<float>(slotArea.x + 4), static_cast<float>(slotArea.y + 3)),
                          onFill ? textOn(fill) : style::kText, label.c_str());
        }
    }
    if (m_plan.waves > 1 && step > 1) {
        const Rect tailArea{bars.x + (m_plan.waves - 1) * perWave, bars.y, std::max(2.0, perWave), bars.h};
        style::fillRect(list, {tailArea.x, tailArea.bottom() - bars.h * m_plan.tailUtilization, tailArea.w,
                               bars.h * m_plan.tailUtilization}, style::kTail);
    }
}

void PlacementScene::drawOverlay(const SceneFrame& frame)
{
    ImGui::SetNextWindowPos(ImVec2(static_cast<float>(frame.viewport.x + 10), static_cast<float>(frame.viewport.y + 10)),
                            ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.9f);
    // As wide as the canvas and as tall as its lines: they wrap to the width, and the SMs are laid out
    // below whatever height that takes (m_topBand).
    const float wrapWidth = static_cast<float>(std::max(180.0, frame.viewport.w - 40.0));
    ImGui::SetNextWindowSizeConstraints(ImVec2(wrapWidth + 20.0f, 0),
                                        ImVec2(wrapWidth + 20.0f, static_cast<float>(frame.viewport.h * 0.45)));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoTitleBar;
    const bool open = ImGui::Begin("Placement##placement", nullptr, flags);
    if (open)
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrapWidth);
    if (open && !m_plan.runnable()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.91f, 0.38f, 0.31f, 1.0f));
        ImGui::TextWrapped("%s: this launch cannot run (0 blocks fit on an SM).", m_gpuLabel.c_str());
        ImGui::PopStyleColor();
        ImGui::TextWrapped("%s", m_occupancyNote.c_str());
    } else if (open) {
        style::textWrappedAtSpaces(m_gpuLabel + ": " + withThousands(m_plan.totalBlocks) + " blocks / (" +
                                       std::to_string(m_plan.smCount) + " SMs x " + std::to_string(m_plan.blocksPerSm) +
                                       " resident blocks = " + withThousands(m_plan.slotsPerWave) + " slots) = " +
                                       withThousands(m_plan.waves) + (m_plan.waves == 1 ? " wave" : " waves"),
                                   wrapWidth);
        if (m_plan.tailBlocks == m_plan.slotsPerWave) {
            ImGui::Text("Every wave is full: no tail effect.");
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.55f, 0.45f, 1.0f));
            ImGui::TextWrapped("Tail wave: %s of %s slots used (%s); all waves together use %s of the slots.",
                               withThousands(m_plan.tailBlocks).c_str(), withThousands(m_plan.slotsPerWave).c_str(),
                               percentText(m_plan.tailUtilization).c_str(), percentText(m_plan.averageUtilization).c_str());
            ImGui::PopStyleColor();
        }
        if (ImGui::Button(m_playing ? "Pause" : "Play")) {
            if (!m_playing && m_wave >= m_plan.waves - 1)
                setWave(0); // from the first wave again
            m_playing = !m_playing;
        }
        ImGui::SameLine();
        // 64-bit slider: the largest grids have more than 2^31 waves.
        ImS64 wave = m_wave + 1;
        const ImS64 first = 1;
        const ImS64 last = std::max<ImS64>(1, m_plan.waves);
        ImGui::SetNextItemWidth(220.0f);
        if (ImGui::SliderScalar("wave", ImGuiDataType_S64, &wave, &first, &last, "%lld"))
            setWave(wave - 1);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        style::textWrappedAtSpaces("Model: every block takes equal time; NVIDIA does not document the block scheduler's "
                                   "order. Blocks per SM from occupancy: " + m_occupancyNote, wrapWidth);
        ImGui::PopStyleColor();
    }
    if (open)
        ImGui::PopTextWrapPos();
    m_overlayBottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    m_overlayClipped = ImGui::GetScrollMaxY() > 0.5f;
    const double band = m_overlayBottom - frame.viewport.y + 8.0;
    m_bandMoved = std::abs(band - m_topBand) > 0.5;
    m_topBand = band;
    ImGui::End();
}

} // namespace warpscope::viz
