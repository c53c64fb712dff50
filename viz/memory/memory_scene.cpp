#include "memory/memory_scene.h"

#include "canvas/scene_style.h"
#include "launch/launch_geometry.h"
#include "session/session.h"
#include "sim/timing_model.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::viz {

namespace {

constexpr ImU32 kL1Hit = IM_COL32(92, 200, 120, 255);
constexpr ImU32 kL2 = IM_COL32(224, 168, 56, 255);
constexpr ImU32 kDram = IM_COL32(232, 96, 80, 255);
constexpr ImU32 kUntimed = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kShared = IM_COL32(170, 120, 230, 255);
constexpr ImU32 kBoxFill = IM_COL32(38, 44, 56, 255);
constexpr ImU32 kBoxActive = IM_COL32(52, 64, 84, 255);
constexpr ImU32 kArrow = IM_COL32(120, 130, 150, 255);

ImU32 levelColour(SectorLevel level)
{
    switch (level) {
    case SectorLevel::L1: return kL1Hit;
    case SectorLevel::L2: return kL2;
    case SectorLevel::Dram: return kDram;
    case SectorLevel::Unknown: return kUntimed;
    }
    return kUntimed;
}

// The timeline's colour for an issue (0) or a stall reason.
ImU32 timelineColour(std::uint8_t stall)
{
    switch (static_cast<sim::StallReason>(stall)) {
    case sim::StallReason::None: return IM_COL32(92, 200, 120, 255);
    case sim::StallReason::GlobalMemory: return IM_COL32(232, 96, 80, 255);
    case sim::StallReason::SharedMemory: return IM_COL32(170, 120, 230, 255);
    case sim::StallReason::Execution: return IM_COL32(90, 150, 220, 255);
    case sim::StallReason::LoadStoreUnit: return IM_COL32(240, 200, 90, 255);
    case sim::StallReason::Barrier: return IM_COL32(200, 130, 60, 255);
    case sim::StallReason::NotSelected: return IM_COL32(78, 82, 94, 255);
    }
    return IM_COL32(78, 82, 94, 255);
}

const char* timelineLabel(std::uint8_t stall)
{
    switch (static_cast<sim::StallReason>(stall)) {
    case sim::StallReason::None: return "issue";
    case sim::StallReason::GlobalMemory: return "global memory";
    case sim::StallReason::SharedMemory: return "shared memory";
    case sim::StallReason::Execution: return "dependency";
    case sim::StallReason::LoadStoreUnit: return "load/store unit";
    case sim::StallReason::Barrier: return "barrier";
    case sim::StallReason::NotSelected: return "ready, not selected";
    }
    return "?";
}

std::string bytesShort(double bytes)
{
    char text[48];
    if (bytes >= 1e9)
        std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        std::snprintf(text, sizeof text, "%.2f MB", bytes / 1e6);
    else if (bytes >= 1e3)
        std::snprintf(text, sizeof text, "%.1f KB", bytes / 1e3);
    else
        std::snprintf(text, sizeof text, "%.0f B", bytes);
    return text;
}

struct Box {
    ImVec2 a, b;
    ImVec2 centre() const { return ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2); }
};

// A level's box with a title and up to two facts, each wrapped at the box's width (a narrow panel
// puts L2 and DRAM side by side); clipped to the box as a last resort (the full facts are in the
// table).
void drawBox(ImDrawList* list, const Box& box, ImU32 fill, const char* title, const char* line1, const char* line2)
{
    list->AddRectFilled(box.a, box.b, fill, 4.0f);
    list->AddRect(box.a, box.b, style::kBlockBorder, 4.0f);
    list->PushClipRect(box.a, ImVec2(box.b.x - 3, box.b.y), true);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float wrap = box.b.x - box.a.x - 10.0f;
    float y = box.a.y + 4;
    for (const auto& [text, colour] : {std::pair{title, style::kText}, std::pair{line1, style::kTextDim}, std::pair{line2, style::kTextDim}}) {
        if (text == nullptr)
            continue;
        list->AddText(font, size, ImVec2(box.a.x + 6, y), colour, text, nullptr, wrap);
        y += font->CalcTextSizeA(size, FLT_MAX, wrap, text).y;
    }
    list->PopClipRect();
}

// Whether a box `width` wide shows each of `lines` on one line.
bool linesFit(float width, std::initializer_list<const char*> lines)
{
    for (const char* line : lines)
        if (ImGui::CalcTextSize(line).x + 12.0f > width)
            return false;
    return true;
}

void arrow(ImDrawList* list, ImVec2 from, ImVec2 to)
{
    list->AddLine(from, to, kArrow, 2.0f);
    const float dx = to.x - from.x, dy = to.y - from.y;
    const float length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
    const ImVec2 u(dx / length, dy / length), n(-u.y, u.x);
    list->AddTriangleFilled(to, ImVec2(to.x - u.x * 8 + n.x * 4, to.y - u.y * 8 + n.y * 4),
                            ImVec2(to.x - u.x * 8 - n.x * 4, to.y - u.y * 8 - n.y * 4), kArrow);
}

// A point along the polyline `points` at fraction `t` (0..1) of its length.
ImVec2 along(const std::vector<ImVec2>& points, float t)
{
    if (points.size() < 2)
        return points.empty() ? ImVec2(0, 0) : points.front();
    float total = 0;
    for (std::size_t i = 1; i < points.size(); ++i)
        total += std::hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
    float left = std::clamp(t, 0.0f, 1.0f) * total;
    for (std::size_t i = 1; i < points.size(); ++i) {
        const float segment = std::hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
        if (left <= segment && segment > 0) {
            const float f = left / segment;
            return ImVec2(points[i - 1].x + (points[i].x - points[i - 1].x) * f, points[i - 1].y + (points[i].y - points[i - 1].y) * f);
        }
        left -= segment;
    }
    return points.back();
}

} // namespace

void MemoryScene::setStepper(const Stepper* stepper)
{
    m_stepper = stepper;
    update();
}

void MemoryScene::setSession(const session::Session* session)
{
    m_session = session;
    update();
}

void MemoryScene::update()
{
    m_measured.reset();
    m_facts.clear();
    if (!m_stepper)
        return;
    const StepperRun& run = m_stepper->run();
    m_facts = memoryLevelFacts(run.preset, m_session);
    if (m_session)
        m_measured = measuredFlow(*m_session, run.kernelName, run.grid, run.block, run.argSpecs);
}

bool MemoryScene::animating() const
{
    return m_animating;
}

std::string MemoryScene::packetSummary() const
{
    if (!m_stepper)
        return {};
    const sim::RecordedStep* step = m_stepper->current();
    if (!step || step->access < 0)
        return "No memory access at this step: F8 goes to the next one.";
    const sim::RecordedAccess& access = m_stepper->recording().accesses[static_cast<std::size_t>(step->access)];
    char text[240];
    if (access.space == ptx::Space::Shared) {
        std::snprintf(text, sizeof text, "shared %s: %u wavefront%s (%u bank conflict%s), served by the SM's shared memory",
                      access.isStore ? "store" : "load", access.wavefronts, access.wavefronts == 1 ? "" : "s",
                      access.bankConflicts, access.bankConflicts == 1 ? "" : "s");
        return text;
    }
    if (access.space != ptx::Space::Global)
        return "a local or parameter access: not drawn as sectors";
    const char* kind = access.isAtomic ? "atomic" : access.isStore ? "store" : "load";
    if (!access.timed) {
        std::snprintf(text, sizeof text, "global %s: %u sector%s; the timing model did not run, so no cache levels", kind,
                      access.sectors, access.sectors == 1 ? "" : "s");
        return text;
    }
    if (access.isStore)
        std::snprintf(text, sizeof text, "global store: %u sector%s written to L2, which writes them back to DRAM later "
                      "(timing model; stores do not allocate in L1)", access.sectors, access.sectors == 1 ? "" : "s");
    else if (access.isAtomic)
        std::snprintf(text, sizeof text, "global atomic: %u sector%s done in L2: %u hit, %u read from DRAM (timing model)",
                      access.sectors, access.sectors == 1 ? "" : "s", access.l2Sectors, access.dramSectors);
    else
        std::snprintf(text, sizeof text, "global load: %u sector%s: %u hit L1, %u hit L2, %u from DRAM (timing model)",
                      access.sectors, access.sectors == 1 ? "" : "s", access.l1Sectors, access.l2Sectors, access.dramSectors);
    return text;
}

void MemoryScene::draw(const SceneFrame& frame)
{
    m_animating = false;
    if (!style::beginPanelWindow("##memory", frame.viewport)) {
        ImGui::End();
        return;
    }
    if (!m_stepper) {
        ImGui::TextWrapped("Choose a kernel and press Run (Ctrl+Shift+R): this view shows where its memory traffic goes, "
                           "level by level, and how the SM hides the latency.");
        ImGui::End();
        return;
    }
    const StepperRun& run = m_stepper->run();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::TextWrapped("%s  block %s  on the %s preset (%s)", run.kernelName.c_str(), launch::formatIndex(run.blockIndex).c_str(),
                       std::string(run.preset.name).c_str(), std::string(run.preset.arch).c_str());
    m_lineOverflow = 0.0f;
    drawDiagram(width, frame.time);
    ImGui::TextWrapped("%s", packetSummary().c_str());
    ImGui::Separator();
    drawFlow(width);
    ImGui::Separator();
    drawTimeline(width);
    if (ImGui::CollapsingHeader("Capacity, latency and bandwidth of each level, with sources", ImGuiTreeNodeFlags_DefaultOpen))
        drawFacts();
    ImGui::End();
}

void MemoryScene::drawDiagram(float width, double time)
{
    const StepperRun& run = m_stepper->run();
    const gpu::TimingParameters& t = run.preset.timing;
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // Wide: L2 and DRAM in a column right of the SM. Narrow: side by side under it.
    const bool narrow = width < 560.0f;
    const float smWidth = narrow ? std::max(300.0f, width - 8.0f) : width * 0.6f;
    const float gap = 44.0f;
    const float rightWidth = std::max(160.0f, width - smWidth - gap - 8.0f);

    const sim::RecordedStep* step = m_stepper->current();
    const int partitions = std::max(1, t.schedulersPerSm);
    const int activePartition = step ? static_cast<int>(step->warp) % partitions : -1;
    char regs[64];
    std::snprintf(regs, sizeof regs, "%d K regs", run.preset.registersPerSm / partitions / 1024);
    // The sub-partitions in one row, or in two when their names would not fit side by side.
    const float partitionGap = 8.0f;
    const auto partitionWidthFor = [&](int columns) {
        return (smWidth - partitionGap * static_cast<float>(columns + 1)) / static_cast<float>(columns);
    };
    const bool twoRows = partitions % 2 == 0 && partitions > 2 &&
                         !linesFit(partitionWidthFor(partitions), {"SMSP 0", "scheduler", regs});
    m_twoRows = twoRows;
    const int columns = twoRows ? partitions / 2 : partitions;
    const float partitionWidth = partitionWidthFor(columns);
    const float partitionHeight = 66.0f;
    const float partitionsBottom = 26.0f + (twoRows ? 2.0f * partitionHeight + partitionGap : partitionHeight);
    const float l1Top = partitionsBottom + 38.0f;
    const float smHeight = l1Top + 106.0f;
    const float height = narrow ? smHeight + 40.0f + 100.0f : smHeight;

    // The SM and its sub-partitions.
    const Box sm{origin, ImVec2(origin.x + smWidth, origin.y + smHeight)};
    char title[96];
    std::snprintf(title, sizeof title, "SM (one of %d)", run.preset.smCount);
    list->AddRect(sm.a, sm.b, style::kBlockBorder, 6.0f, 0, 1.5f);
    list->AddText(ImVec2(sm.a.x + 8, sm.a.y + 4), style::kText, title);
    std::vector<Box> partitionBoxes;
    for (int p = 0; p < partitions; ++p) {
        const float x = sm.a.x + partitionGap + static_cast<float>(p % columns) * (partitionWidth + partitionGap);
        const float y = sm.a.y + 26.0f + static_cast<float>(p / columns) * (partitionHeight + partitionGap);
        const Box box{ImVec2(x, y), ImVec2(x + partitionWidth, y + partitionHeight)};
        char name[32];
        std::snprintf(name, sizeof name, "SMSP %d", p);
        drawBox(list, box, p == activePartition ? kBoxActive : kBoxFill, name, "scheduler", regs);
        if (p == activePartition)
            list->AddRect(box.a, box.b, style::kSelected, 4.0f, 0, 2.0f);
        partitionBoxes.push_back(box);
    }
    const Box l1{ImVec2(sm.a.x + partitionGap, sm.a.y + l1Top), ImVec2(sm.b.x - partitionGap, sm.b.y - 10)};
    char l1Line[96], l1Latency[96];
    std::snprintf(l1Line, sizeof l1Line, "%zu KB: up to %zu KB shared, rest L1", t.l1PoolBytes / 1024,
                  run.preset.sharedPerSm / 1024);
    std::snprintf(l1Latency, sizeof l1Latency, "shared %d, L1 hit %d cycles (model)", t.sharedLatency, t.l1HitLatency);
    drawBox(list, l1, kBoxFill, "L1 / shared memory", l1Line, l1Latency);
    for (std::size_t p = 0; p < partitionBoxes.size(); ++p) {
        const Box& box = partitionBoxes[p];
        const int column = static_cast<int>(p) % columns;
        if (twoRows && static_cast<int>(p) < columns) {
            // The upper row reaches L1 through the gap beside it, past the lower row's boxes.
            const bool left = column < columns / 2;
            const float side = left ? box.a.x - partitionGap / 2.0f : box.b.x + partitionGap / 2.0f;
            list->AddLine(ImVec2(left ? box.a.x : box.b.x, box.centre().y), ImVec2(side, box.centre().y), kArrow, 2.0f);
            arrow(list, ImVec2(side, box.centre().y), ImVec2(side, l1.a.y - 2));
            continue;
        }
        arrow(list, ImVec2(box.centre().x, box.b.y + 2), ImVec2(box.centre().x, l1.a.y - 2));
    }

    const float rx = sm.b.x + gap;
    const float halfWidth = (smWidth - gap) / 2.0f;
    const Box l2 = narrow ? Box{ImVec2(origin.x, sm.b.y + 40), ImVec2(origin.x + halfWidth, sm.b.y + 140)}
                          : Box{ImVec2(rx, origin.y), ImVec2(rx + rightWidth, origin.y + 100)};
    char l2Line[96], l2Latency[64];
    std::snprintf(l2Line, sizeof l2Line, "%zu MB, shared by %d SMs", t.l2Bytes >> 20, run.preset.smCount);
    std::snprintf(l2Latency, sizeof l2Latency, "hit %d cycles (model)", t.l2HitLatency);
    drawBox(list, l2, kBoxFill, "L2", l2Line, l2Latency);
    const Box dram = narrow ? Box{ImVec2(l2.b.x + gap, l2.a.y), ImVec2(sm.b.x, l2.b.y)}
                            : Box{ImVec2(rx, origin.y + 136), ImVec2(rx + rightWidth, origin.y + smHeight)};
    char dramLine[96], dramLatency[64];
    std::snprintf(dramLine, sizeof dramLine, "%.0f GB/s peak", t.dramBandwidthGBps);
    std::snprintf(dramLatency, sizeof dramLatency, "%d cycles (model)", t.dramLatency);
    drawBox(list, dram, kBoxFill, "DRAM (HBM)", dramLine, dramLatency);
    // Where traffic leaves L1 for L2, and L2 for DRAM.
    const ImVec2 l1Exit = narrow ? ImVec2(l2.centre().x, sm.b.y) : ImVec2(l1.b.x, l1.centre().y);
    const ImVec2 l2Entry = narrow ? ImVec2(l2.centre().x, l2.a.y) : ImVec2(l2.a.x, l2.centre().y + 20);
    const ImVec2 l2Exit = narrow ? ImVec2(l2.b.x, l2.centre().y) : ImVec2(l2.centre().x, l2.b.y);
    const ImVec2 dramEntry = narrow ? ImVec2(dram.a.x, dram.centre().y) : ImVec2(dram.centre().x, dram.a.y);
    if (narrow)
        list->AddLine(ImVec2(l2.centre().x, l1.b.y), ImVec2(l2.centre().x, sm.b.y), kArrow, 2.0f);
    arrow(list, narrow ? l1Exit : ImVec2(l1Exit.x + 2, l1Exit.y), ImVec2(l2Entry.x - (narrow ? 0 : 2), l2Entry.y - (narrow ? 2 : 0)));
    arrow(list, l2Exit, dramEntry);

    // The current instruction's packets: sectors (global) or wavefronts (shared).
    if (step && step->access >= 0 && activePartition >= 0) {
        const sim::RecordedAccess& access = m_stepper->recording().accesses[static_cast<std::size_t>(step->access)];
        const ImVec2 start(partitionBoxes[static_cast<std::size_t>(activePartition)].centre().x,
                           partitionBoxes[static_cast<std::size_t>(activePartition)].b.y);
        struct Packet {
            ImU32 colour;
            std::vector<ImVec2> path;
            const Box* rest;
        };
        std::vector<Packet> packets;
        const ImVec2 l1Point(l1.centre().x, l1.a.y + 10);
        const ImVec2 l2Point(l2.centre().x, l2.centre().y + 20);
        const ImVec2 dramPoint(dram.centre().x, dram.centre().y + 10);
        if (access.space == ptx::Space::Shared) {
            for (std::uint32_t w = 0; w < std::min<std::uint32_t>(access.wavefronts, 64); ++w)
                packets.push_back({kShared, {start, l1Point}, &l1});
        } else if (access.space == ptx::Space::Global) {
            for (SectorLevel level : sectorLevels(access)) {
                std::vector<ImVec2> path{start, l1Point};
                const Box* rest = &l1;
                if (level == SectorLevel::L2 || level == SectorLevel::Dram) {
                    path.push_back(narrow ? ImVec2(l2.centre().x, l1.b.y) : l1Exit);
                    if (narrow)
                        path.push_back(l1Exit);
                    path.push_back(l2Point);
                    rest = &l2;
                }
                if (level == SectorLevel::Dram) {
                    path.push_back(dramPoint);
                    rest = &dram;
                }
                packets.push_back({levelColour(level), std::move(path), rest});
            }
        }
        // The packets travel once, from the first frame that shows this step; then only their
        // resting places are drawn and the canvas stops repainting (an idle window costs nothing).
        const std::size_t stepIndex = m_stepper->currentIndex().value_or(0);
        if (m_packetRecording != &m_stepper->recording() || m_packetStep != stepIndex) {
            m_packetRecording = &m_stepper->recording();
            m_packetStep = stepIndex;
            m_packetStart = time;
        }
        const double elapsed = time - m_packetStart;
        // Where each packet rests: a row of squares along the bottom of the level that served it.
        std::vector<int> restCount(3, 0);
        for (std::size_t i = 0; i < packets.size(); ++i) {
            const Packet& packet = packets[i];
            const int restIndex = packet.rest == &l1 ? 0 : packet.rest == &l2 ? 1 : 2;
            const int n = restCount[static_cast<std::size_t>(restIndex)]++;
            const float perRow = std::max(1.0f, std::floor((packet.rest->b.x - packet.rest->a.x - 12) / 10.0f));
            const float col = std::fmod(static_cast<float>(n), perRow), row = std::floor(static_cast<float>(n) / perRow);
            const ImVec2 restAt(packet.rest->a.x + 6 + col * 10, packet.rest->b.y - 14 - row * 10);
            list->AddRectFilled(restAt, ImVec2(restAt.x + 8, restAt.y + 8), packet.colour, 1.5f);
            // In flight: each packet leaves a little after the one before it.
            const float t = static_cast<float>(packetProgress(elapsed, i));
            if (t > 0.0f && t < 1.0f) {
                const ImVec2 p = along(packet.path, t);
                list->AddRectFilled(ImVec2(p.x - 4, p.y - 4), ImVec2(p.x + 4, p.y + 4), packet.colour, 1.5f);
            }
        }
        m_animating = elapsed < packetAnimationSeconds(packets.size());
    }
    ImGui::Dummy(ImVec2(width, height + 6));
    // The legend, wrapping where the panel is narrow.
    const ImU32 colours[] = {kL1Hit, kL2, kDram, kShared};
    const char* names[] = {"sector hit in L1", "sector served by L2", "sector from DRAM", "shared-memory wavefront"};
    for (int i = 0; i < 4; ++i) {
        if (i > 0)
            style::sameLineIfFits(12.0f + ImGui::GetStyle().ItemSpacing.x + style::textWidth(names[i]));
        const ImVec2 at = ImGui::GetCursorScreenPos();
        list->AddRectFilled(ImVec2(at.x, at.y + 4), ImVec2(at.x + 9, at.y + 13), colours[i], 1.5f);
        ImGui::Dummy(ImVec2(12, 14));
        ImGui::SameLine();
        ImGui::TextUnformatted(names[i]);
        m_lineOverflow = std::max(m_lineOverflow, ImGui::GetItemRectMax().x - (origin.x + width));
    }
}

void MemoryScene::drawFacts()
{
    // With a measured memory ladder in the open session, its figures sit beside the published ones.
    const bool measured = hasMeasuredLadder(m_session);
    if (ImGui::BeginTable("##facts", measured ? 5 : 4, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("Level", ImGuiTableColumnFlags_WidthStretch, measured ? 0.6f : 0.7f);
        ImGui::TableSetupColumn("Capacity", ImGuiTableColumnFlags_WidthStretch, measured ? 1.2f : 1.3f);
        ImGui::TableSetupColumn("Latency", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn("Bandwidth", ImGuiTableColumnFlags_WidthStretch, measured ? 1.2f : 1.3f);
        if (measured)
            ImGui::TableSetupColumn("Measured on your GPU", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableHeadersRow();
        for (const MemoryLevelFacts& level : m_facts) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextWrapped("%s", level.name.c_str());
            ImGui::TableSetColumnIndex(1);
            ImGui::TextWrapped("%s", level.capacity.c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextWrapped("%s", level.latency.c_str());
            ImGui::TableSetColumnIndex(3);
            ImGui::TextWrapped("%s", level.bandwidth.c_str());
            if (measured) {
                ImGui::TableSetColumnIndex(4);
                ImGui::TextWrapped("%s", level.measured.c_str());
                if (!level.measuredMethod.empty() && ImGui::IsItemHovered())
                    style::wrappedTooltip(level.measuredMethod.c_str());
            }
        }
        ImGui::EndTable();
    }
    for (const std::string& source : memoryFactSources()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", source.c_str());
        ImGui::PopStyleColor();
    }
}

void MemoryScene::drawFlow(float width)
{
    const StepperRun& run = m_stepper->run();
    const MemoryFlow model = simulatedFlow(run.stats);
    const MemoryFlow* measured = m_measured && m_measured->flow ? &*m_measured->flow : nullptr;
    ImGui::TextWrapped("Global-memory bytes per level, whole launch (grid %s, block %s)", launch::formatIndex(run.grid).c_str(),
                       launch::formatIndex(run.block).c_str());
    double top = std::max({model.requestedBytes, model.l1Bytes, model.l2Bytes, model.dramBytes, 1.0});
    if (measured)
        top = std::max({top, measured->l1Bytes, measured->l2Bytes, measured->dramBytes});
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float figureHeight = 158.0f;
    const bool sideBySide = measured && width >= 700.0f; // else the measured flow goes under the model's
    const float figureWidth = sideBySide ? (width - 16.0f) / 2.0f : width;
    const ImVec2 origin = ImGui::GetCursorScreenPos();

    // Sankey-like: one bar per level, its height the bytes that reach it, bands between them.
    auto drawOne = [&](const MemoryFlow& flow, float x0, float y0, const char* title, bool hasRequested) {
        list->AddText(ImVec2(x0, y0), style::kText, title);
        const double values[4] = {flow.requestedBytes, flow.l1Bytes, flow.l2Bytes, flow.dramBytes};
        const char* names[4] = {"lanes asked", "L1", "L2", "DRAM"};
        const ImU32 colours[4] = {IM_COL32(120, 170, 230, 255), kL1Hit, kL2, kDram};
        const float barWidth = 14.0f;
        const float labelRoom = 78.0f; // the last column's labels
        const float columnGap = std::max(84.0f, (figureWidth - labelRoom) / 3.0f);
        const float topY = y0 + 22.0f, fullHeight = 80.0f, baseY = topY + fullHeight;
        float previousX = -1, previousH = 0;
        ImU32 previousColour = 0;
        for (int i = 0; i < 4; ++i) {
            const float x = x0 + static_cast<float>(i) * columnGap;
            const bool shown = (i > 0 || hasRequested) && (i != 1 || flow.l1Known);
            const float h = shown ? static_cast<float>(values[i] / top) * fullHeight : 0.0f;
            if (previousX >= 0 && h > 0) { // what goes on from the previous level
                const ImU32 band = (previousColour & 0x00ffffffu) | (70u << 24);
                list->AddQuadFilled(ImVec2(previousX + barWidth, topY), ImVec2(x, topY), ImVec2(x, topY + h),
                                    ImVec2(previousX + barWidth, topY + std::min(previousH, h)), band);
            }
            if (shown) {
                list->AddRectFilled(ImVec2(x, topY), ImVec2(x + barWidth, topY + std::max(h, 1.0f)), colours[i]);
                list->AddRect(ImVec2(x, topY), ImVec2(x + barWidth, baseY), IM_COL32(110, 118, 134, 160));
                previousX = x;
                previousH = h;
                previousColour = colours[i];
            }
            list->AddText(ImVec2(x, baseY + 4), style::kText, names[i]);
            const std::string amount = shown ? bytesShort(values[i]) : std::string("not measured");
            list->AddText(ImVec2(x, baseY + 18), style::kTextDim, amount.c_str());
            const std::optional<double>& rate = i == 1 ? flow.l1HitRate : i == 2 ? flow.l2HitRate : std::optional<double>();
            if (rate) {
                char text[32];
                std::snprintf(text, sizeof text, "%.0f%% hits", 100.0 * *rate);
                list->AddText(ImVec2(x, baseY + 32), style::kTextDim, text);
            }
        }
    };
    drawOne(model, origin.x, origin.y,
            model.timed ? "Simulator (timing model, cold caches)" : "Simulator (no timing: no cache figures)", true);
    if (measured && sideBySide)
        drawOne(*measured, origin.x + figureWidth + 16.0f, origin.y, "Measured (profile session)", false);
    else if (measured)
        drawOne(*measured, origin.x, origin.y + figureHeight, "Measured (profile session)", false);
    ImGui::Dummy(ImVec2(width, measured && !sideBySide ? 2.0f * figureHeight : figureHeight));
    if (m_measured)
        ImGui::TextWrapped("%s", m_measured->note.c_str());
    else
        ImGui::TextDisabled("Open a profile session that measured this kernel to compare (Profile dock).");
}

void MemoryScene::drawTimeline(float width)
{
    if (m_stepper->run().timeline.rows.empty()) {
        ImGui::TextDisabled("No latency-hiding timeline: the timing model did not run for this launch.");
        return;
    }
    const LatencyTimeline& timeline = m_stepper->run().timeline;
    std::uint32_t blocks = 0;
    for (std::size_t i = 0; i < timeline.rows.size(); ++i)
        if (i == 0 || timeline.rows[i].block != timeline.rows[i - 1].block)
            ++blocks;
    const int fit = m_stepper->run().stats.timing.residentBlocksPerSm;
    ImGui::Text("Latency hiding on SM %u: %u block%s resident, %zu warps, %llu cycles (timing model)", timeline.sm, blocks,
                blocks == 1 ? "" : "s", timeline.rows.size(), static_cast<unsigned long long>(timeline.cycles));
    // Which launch: the one stepped above, not another panel's.
    const StepperRun& run = m_stepper->run();
    const std::string launchText = "The stepped launch: " + run.kernelName + ", grid (" + launch::formatDim3(run.grid) +
                                   ") x block (" + launch::formatDim3(run.block) + "), " + std::to_string(run.registersPerThread) +
                                   (run.ptxas && run.ptxas->registers == run.registersPerThread
                                        ? " registers per thread (ptxas's count)"
                                        : run.ptxas ? " registers per thread (the occupancy explorer's, not ptxas's)"
                                                    : " registers per thread (assumed: no ptxas report)") +
                                   ", on the " + std::string(run.preset.name) + " preset.";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", launchText.c_str());
    ImGui::PopStyleColor();
    if (timeline.truncated)
        ImGui::TextColored(ImVec4(0.95f, 0.65f, 0.25f, 1.0f), "The timeline's trace reached its cap of %llu "
                           "warp-instructions: later issues are missing.",
                           static_cast<unsigned long long>(kTimelineMaxEvents));
    else if (fit > 0 && blocks < static_cast<std::uint32_t>(fit))
        ImGui::TextDisabled("%d blocks would fit on the SM; this launch gives it only %u (blocks go to SM b mod %d).", fit,
                            blocks, m_stepper->run().preset.smCount);
    ImGui::TextWrapped("Each row is a warp; each cycle it issues (green) or waits, coloured by why. The warps shown "
                       "used %.0f%% of the %d schedulers' issue slots over these cycles (blocks that start after them "
                       "are not drawn). More resident warps (a smaller block, fewer registers) give a scheduler more "
                       "chances to find a ready warp: for a 1-D kernel whose shared memory does not depend on its block "
                       "size, the occupancy explorer's block size and registers re-run this launch while this tab is shown.",
                       100.0 * timeline.issueSlotShare(), timeline.schedulers);
    // The legend, with each reason's share of the warps' waiting.
    std::uint64_t waited = 0;
    for (std::uint64_t cycles : timeline.stallCycles)
        waited += cycles;
    for (std::uint8_t kind = 0; kind < 7; ++kind) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + 4), ImVec2(at.x + 9, at.y + 13), timelineColour(kind));
        ImGui::Dummy(ImVec2(12, 14));
        ImGui::SameLine();
        if (kind == 0)
            ImGui::Text("%s", timelineLabel(kind));
        else
            ImGui::Text("%s %.0f%%", timelineLabel(kind),
                        waited ? 100.0 * static_cast<double>(timeline.stallCycles[kind]) / static_cast<double>(waited) : 0.0);
        if (kind < 6) { // the next entry on this line if it fits
            ImGui::SameLine(0, 14);
            if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(timelineLabel(kind + 1)).x + 60.0f)
                ImGui::NewLine();
        }
    }

    const float labelWidth = 86.0f;
    const float plotWidth = std::max(50.0f, width - labelWidth - 16.0f);
    const float rowHeight = timeline.rows.size() > 48 ? 5.0f : 9.0f;
    const double perPixel = static_cast<double>(timeline.cycles) / static_cast<double>(plotWidth);
    const float regionHeight = std::min(static_cast<float>(timeline.rows.size()) * rowHeight + 24.0f, 330.0f);
    ImGui::BeginChild("##timeline", ImVec2(0, regionHeight), false);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0)); // rows exactly rowHeight apart
    ImDrawList* list = ImGui::GetWindowDrawList();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(timeline.rows.size()), rowHeight);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const TimelineRow& row = timeline.rows[static_cast<std::size_t>(r)];
            const ImVec2 at = ImGui::GetCursorScreenPos();
            if (row.warp == 0 || rowHeight >= 9.0f) { // small rows: one label per block
                char label[32];
                std::snprintf(label, sizeof label, "b%u w%u", row.block, row.warp);
                list->AddText(ImGui::GetFont(), rowHeight >= 9.0f ? 11.0f : 10.0f, ImVec2(at.x, at.y - 1), style::kTextDim, label);
            }
            // One pixel column at a time: an issue wins over any wait in the same pixel.
            const float x0 = at.x + labelWidth;
            int runStart = -1;
            std::uint8_t runKind = 255;
            auto flush = [&](int end) {
                if (runStart >= 0 && runKind != 255)
                    list->AddRectFilled(ImVec2(x0 + static_cast<float>(runStart), at.y),
                                        ImVec2(x0 + static_cast<float>(end), at.y + rowHeight - 1.0f), timelineColour(runKind));
            };
            std::size_t s = 0;
            const int pixels = static_cast<int>(plotWidth);
            for (int px = 0; px < pixels; ++px) {
                const double c0 = px * perPixel, c1 = (px + 1) * perPixel;
                std::uint8_t kind = 255;
                double longest = 0;
                while (s < row.spans.size() && static_cast<double>(row.spans[s].end) <= c0)
                    ++s;
                for (std::size_t k = s; k < row.spans.size() && static_cast<double>(row.spans[k].begin) < c1; ++k) {
                    const TimelineSpan& span = row.spans[k];
                    if (span.stall == 0) {
                        kind = 0;
                        break;
                    }
                    const double overlap = std::min<double>(static_cast<double>(span.end), c1) -
                                           std::max<double>(static_cast<double>(span.begin), c0);
                    if (overlap > longest) {
                        longest = overlap;
                        kind = span.stall;
                    }
                }
                if (kind != runKind) {
                    flush(px);
                    runStart = px;
                    runKind = kind;
                }
            }
            flush(pixels);
            ImGui::Dummy(ImVec2(labelWidth + plotWidth, rowHeight));
        }
    }
    clipper.End();
    ImGui::PopStyleVar();
    ImGui::EndChild();
    char axis[96];
    std::snprintf(axis, sizeof axis, "cycle 0 .. %llu", static_cast<unsigned long long>(timeline.cycles));
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + labelWidth);
    ImGui::TextDisabled("%s", axis);
}

} // namespace warpscope::viz
