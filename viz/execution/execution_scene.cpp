#include "execution/execution_scene.h"

#include "canvas/scene_style.h"
#include "launch/launch_geometry.h"
#include "sim/memory_analysis.h"
#include "sim/timing_model.h"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope::viz {

namespace {

constexpr ImU32 kExecuting = IM_COL32(92, 200, 120, 255);  // on the path, guard true: runs this instruction
constexpr ImU32 kGuardedOff = IM_COL32(46, 110, 70, 255);  // on the path, guard false
constexpr ImU32 kOnPath = IM_COL32(66, 135, 200, 255);     // active, not the warp about to issue
constexpr ImU32 kDiverged = IM_COL32(88, 88, 98, 255);     // waiting on the stack for the other side
constexpr ImU32 kExited = IM_COL32(34, 34, 38, 255);
constexpr ImU32 kBarrier = IM_COL32(224, 168, 56, 255);
constexpr ImU32 kConflict = IM_COL32(232, 96, 80, 255);
constexpr ImU32 kChangedRow = IM_COL32(120, 96, 24, 110);

std::string hex32(std::uint32_t value)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

// 32 small squares, lane 0 on the left, filled where `mask` has the lane.
void drawMaskCells(ImDrawList* list, ImVec2 origin, float cell, std::uint32_t mask, ImU32 on, ImU32 off)
{
    for (int lane = 0; lane < 32; ++lane) {
        const ImVec2 a(origin.x + static_cast<float>(lane) * cell, origin.y);
        list->AddRectFilled(a, ImVec2(a.x + cell - 1.0f, a.y + cell - 1.0f), ((mask >> lane) & 1u) ? on : off);
    }
}

const char* stallName(std::uint8_t reason)
{
    return sim::stallReasonName(static_cast<sim::StallReason>(reason));
}

} // namespace

void ExecutionScene::draw(const SceneFrame& frame)
{
    if (!style::beginPanelWindow("##execution", frame.viewport)) {
        ImGui::End();
        return;
    }
    if (!m_stepper) {
        ImGui::TextWrapped("%s", m_hint.c_str());
        ImGui::End();
        return;
    }
    const Stepper& stepper = *m_stepper;
    const StepperRun& run = stepper.run();
    const float width = ImGui::GetContentRegionAvail().x;
    m_lineRight = ImGui::GetCursorScreenPos().x + width;
    m_lineOverflow = 0.0f;
    ImGui::Text("%s  block %s  step %zu of %zu", run.kernelName.c_str(), launch::formatIndex(run.blockIndex).c_str(),
                stepper.position(), stepper.size());
    reachLine();
    if (const sim::RecordedStep* step = stepper.current(); step && (step->cycle > 0 || step->stallCycles > 0)) {
        char timing[160];
        std::snprintf(timing, sizeof timing, "issue cycle %llu (timing model), waited %u: %s",
                      static_cast<unsigned long long>(step->cycle), step->stallCycles, stallName(step->stallReason));
        style::sameLineIfFits(style::textWidth(timing));
        style::textDisabledWrapped(timing);
        reachLine();
    }
    if (stepper.recording().truncated)
        ImGui::TextColored(ImVec4(0.95f, 0.65f, 0.25f, 1.0f), "The recording reached its size limit: later steps are missing.");

    drawWarps(width);
    ImGui::Separator();
    if (stepper.currentHazard()) {
        drawHazard();
        ImGui::Separator();
    }
    if (ImGui::BeginTable("##stack_and_access", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("stack", ImGuiTableColumnFlags_WidthStretch, 0.42f);
        ImGui::TableSetupColumn("access", ImGuiTableColumnFlags_WidthStretch, 0.58f);
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        drawStack();
        ImGui::TableSetColumnIndex(1);
        drawAccess(ImGui::GetContentRegionAvail().x);
        ImGui::EndTable();
    }
    if (!stepper.recording().printfs.empty()) {
        ImGui::Separator();
        drawPrintf();
    }
    ImGui::Separator();
    drawRegisters();
    ImGui::End();
}

void ExecutionScene::reachLine()
{
    m_lineOverflow = std::max(m_lineOverflow, ImGui::GetItemRectMax().x - m_lineRight);
}

void ExecutionScene::drawWarps(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedStep* current = stepper.current();
    const std::int32_t selected = stepper.selectedWarp();
    const ImGuiStyle& imStyle = ImGui::GetStyle();
    // Each row: the warp's label, then its 32 lanes in what is left beside the region's scroll bar.
    const float labelWidth = style::textWidth("W31 pc 9999  at barrier") + 8.0f;
    const float lanesX = labelWidth + 6.0f;
    const float cell = std::clamp((width - lanesX - imStyle.ScrollbarSize - 4.0f) / 32.0f, 4.0f, 16.0f);
    style::textDisabledWrapped("Warps of the block: lanes 0..31, left to right");
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float rowHeight = std::max(cell + 3.0f, ImGui::GetTextLineHeightWithSpacing());
    const float rowPitch = rowHeight - 2.0f + imStyle.ItemSpacing.y; // a row's selectable and the gap below it
    const std::int32_t warps = stepper.warpCount();
    // Tall blocks (32 warps) scroll inside their own region; up to 9 warps show whole.
    const float regionHeight = static_cast<float>(std::min(warps, 9)) * rowPitch - imStyle.ItemSpacing.y + 2.0f;
    ImGui::BeginChild("##warps", ImVec2(0, regionHeight), false);
    for (std::int32_t w = 0; w < warps; ++w) {
        const sim::WarpSnapshot warp = stepper.replay().warp(w);
        const bool issuing = current && static_cast<std::int32_t>(current->warp) == w;
        const char* status = warp.status == sim::WarpStatus::Exited      ? "exited"
                             : warp.status == sim::WarpStatus::AtBarrier ? "at barrier"
                             : issuing                                    ? "issuing"
                                                                          : "ready";
        char label[96];
        if (warp.pc >= 0)
            std::snprintf(label, sizeof label, "W%-2d pc %-4d %s##warp%d", w, warp.pc, status, w);
        else
            std::snprintf(label, sizeof label, "W%-2d          %s##warp%d", w, status, w);
        const ImVec2 rowStart = ImGui::GetCursorScreenPos();
        if (ImGui::Selectable(label, w == selected, 0, ImVec2(labelWidth, rowHeight - 2.0f)) && onWarpClicked)
            onWarpClicked(w);
        const ImVec2 origin(rowStart.x + lanesX, rowStart.y + std::max(0.0f, (rowHeight - 2.0f - cell) / 2.0f));
        const std::uint32_t executing = issuing ? current->executedMask : 0;
        for (int lane = 0; lane < 32; ++lane) {
            const std::uint32_t bit = 1u << lane;
            const ImVec2 a(origin.x + static_cast<float>(lane) * cell, origin.y);
            const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
            if (!(warp.existMask & bit)) {
                list->AddRect(a, b, style::kIdleMark);
                continue;
            }
            ImU32 colour = kDiverged;
            if (warp.exitedMask & bit)
                colour = kExited;
            else if (warp.status == sim::WarpStatus::AtBarrier)
                colour = kBarrier;
            else if (warp.activeMask & bit)
                colour = issuing ? ((executing & bit) ? kExecuting : kGuardedOff) : kOnPath;
            list->AddRectFilled(a, b, colour);
            if (ImGui::IsMouseHoveringRect(a, b)) {
                const char* what = colour == kExecuting     ? "runs the current instruction"
                                    : colour == kGuardedOff ? "on the path, but its guard predicate is false"
                                    : colour == kOnPath     ? "on the warp's current path"
                                    : colour == kBarrier    ? "waiting at __syncthreads()"
                                    : colour == kExited     ? "exited"
                                                            : "diverged: waits on the stack for the other side";
                ImGui::SetTooltip("warp %d lane %d (thread %d of the block): %s", w, lane, w * 32 + lane, what);
            }
        }
    }
    ImGui::EndChild();
    // Legend.
    bool first = true;
    const auto legend = [&](ImU32 colour, const char* text) {
        if (!first)
            style::sameLineIfFits(12.0f + ImGui::GetStyle().ItemSpacing.x + style::textWidth(text));
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        list->AddRectFilled(ImVec2(p.x, p.y + 3), ImVec2(p.x + 10, p.y + 13), colour);
        ImGui::Dummy(ImVec2(12, 14));
        ImGui::SameLine();
        ImGui::TextDisabled("%s", text);
        reachLine();
    };
    list = ImGui::GetWindowDrawList();
    legend(kExecuting, "executes");
    legend(kGuardedOff, "guard false");
    legend(kOnPath, "on path");
    legend(kDiverged, "diverged");
    legend(kBarrier, "at barrier");
    legend(kExited, "exited");
}

void ExecutionScene::drawStack()
{
    const Stepper& stepper = *m_stepper;
    const std::int32_t warp = stepper.selectedWarp();
    const sim::WarpSnapshot snapshot = stepper.replay().warp(warp);
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    m_stackWidth = ImGui::GetContentRegionAvail().x;
    m_stackOverflow = 0.0f;
    auto reach = [&](float x) { m_stackOverflow = std::max(m_stackOverflow, x - right); };
    ImGui::TextWrapped("Warp %d reconvergence stack (top first)", warp); // in lines where the column is narrow
    reach(ImGui::GetItemRectMax().x);
    if (snapshot.stack.empty()) {
        ImGui::TextDisabled("empty: every lane has exited");
        return;
    }
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ptx::Function& function = *stepper.run().function;
    // The mask's 32 cells shrink to the column (down to 4 px each); where even that does not fit
    // beside pc and rejoin (the column beside the memory access at 1280 px), each entry is a line of
    // text with its mask under it, instead of a table cut at the column's edge.
    const float avail = ImGui::GetContentRegionAvail().x;
    const float used = ImGui::CalcTextSize("> 0000").x + ImGui::CalcTextSize("rejoins at").x + 6 * ImGui::GetStyle().CellPadding.x;
    const float maskCell = std::clamp(std::floor((avail - used) / 32.0f), 4.0f, 6.0f);
    if (used + 32 * maskCell > avail) {
        const float cell = std::clamp(std::floor(avail / 32.0f), 3.0f, 6.0f);
        for (std::size_t i = snapshot.stack.size(); i-- > 0;) {
            const sim::StackEntry& entry = snapshot.stack[i];
            const std::string rejoin = entry.reconvergePc < 0 ? std::string("exit") : std::to_string(entry.reconvergePc);
            ImGui::TextWrapped("%spc %d, rejoins at %s", i + 1 == snapshot.stack.size() ? "> " : "", entry.pc, rejoin.c_str());
            reach(ImGui::GetItemRectMax().x);
            if (ImGui::IsItemHovered() && entry.pc >= 0 && static_cast<std::size_t>(entry.pc) < function.instructions.size())
                style::wrappedTooltip(function.instructions[static_cast<std::size_t>(entry.pc)].text.c_str());
            const ImVec2 p = ImGui::GetCursorScreenPos();
            drawMaskCells(list, p, cell, entry.mask, kOnPath, IM_COL32(50, 50, 58, 255));
            ImGui::Dummy(ImVec2(32 * cell, cell + 2));
            reach(ImGui::GetItemRectMax().x);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("mask (lane 0 left) %s: %d lanes", hex32(entry.mask).c_str(), std::popcount(entry.mask));
        }
    } else if (ImGui::BeginTable("##stack", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("pc");
        ImGui::TableSetupColumn("rejoins at");
        ImGui::TableSetupColumn(used + std::max(32 * maskCell, ImGui::CalcTextSize("mask (lane 0 left)").x) <= avail ? "mask (lane 0 left)" : "mask");
        ImGui::TableHeadersRow();
        for (std::size_t i = snapshot.stack.size(); i-- > 0;) {
            const sim::StackEntry& entry = snapshot.stack[i];
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::Text("%s%d", i + 1 == snapshot.stack.size() ? "> " : "  ", entry.pc);
            if (ImGui::IsItemHovered() && entry.pc >= 0 && static_cast<std::size_t>(entry.pc) < function.instructions.size())
                style::wrappedTooltip(function.instructions[static_cast<std::size_t>(entry.pc)].text.c_str());
            ImGui::TableSetColumnIndex(1);
            if (entry.reconvergePc < 0)
                ImGui::TextDisabled("exit");
            else
                ImGui::Text("%d", entry.reconvergePc);
            ImGui::TableSetColumnIndex(2);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            drawMaskCells(list, ImVec2(p.x, p.y + 2), maskCell, entry.mask, kOnPath, IM_COL32(50, 50, 58, 255));
            reach(p.x + 32 * maskCell); // the table clips what runs past the column: the cells' own edge
            ImGui::Dummy(ImVec2(32 * maskCell, 10));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s: %d lanes", hex32(entry.mask).c_str(), std::popcount(entry.mask));
        }
        ImGui::EndTable();
    }
    if (const sim::RecordedStep* step = stepper.current(); step && static_cast<std::int32_t>(step->warp) == warp) {
        if (step->has(sim::StepFlag::Diverged))
            ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "This branch diverges: the stack grows.");
        else if (step->has(sim::StepFlag::Reconverged))
            ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.6f, 1.0f), "After this instruction, paths rejoin: the stack shrinks.");
    }
}

// The hazard at this step: its access beside the earlier one it conflicts with (for races).
void ExecutionScene::drawHazard()
{
    const Stepper& stepper = *m_stepper;
    const sim::Hazard& hazard = stepper.currentHazard()->hazard;
    const ptx::Function& function = *stepper.run().function;
    ImGui::TextColored(ImVec4(0.91f, 0.38f, 0.31f, 1.0f), "Hazard: %s", sim::hazardKindName(hazard.kind));
    ImGui::SameLine();
    ImGui::TextWrapped("%s", hazard.message.c_str());
    const auto other = stepper.conflictingAccess();
    auto describe = [&](std::size_t position, std::int32_t warp, std::int32_t lane, std::uint64_t address, const char* what) {
        const sim::RecordedStep& step = stepper.recording().steps[position];
        const ptx::Instruction& in = function.instructions[static_cast<std::size_t>(step.pc)];
        ImGui::TextDisabled("%s", what);
        ImGui::TextWrapped("step %zu: warp %d, lane %d (thread %d)", position, warp, lane, warp * 32 + lane);
        ImGui::TextWrapped("%s", in.text.c_str());
        if (in.source.line > 0)
            ImGui::Text("source line %d, offset 0x%llx", in.source.line, static_cast<unsigned long long>(address));
        else
            ImGui::Text("offset 0x%llx", static_cast<unsigned long long>(address));
    };
    if (ImGui::BeginTable("##hazard", other ? 2 : 1, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        describe(*stepper.currentIndex(), hazard.warp, hazard.lane, hazard.address, "This access");
        if (other) {
            ImGui::TableSetColumnIndex(1);
            describe(other->position, other->warp, other->lane, other->address,
                     other->isStore ? "conflicts with this earlier write" : "conflicts with this earlier read");
        }
        ImGui::EndTable();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Why it is a bug: %s", hazardWhy(hazard.kind));
    ImGui::PopStyleColor();
}

void ExecutionScene::drawAccess(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedStep* step = stepper.current();
    if (!step || step->access < 0) {
        // Wrapped to the column: beside the stack, at 1280 px, it is about 190 px wide.
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("No memory access at this step.");
        ImGui::TextWrapped("F8 goes to the next load or store.");
        ImGui::PopStyleColor();
        return;
    }
    const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(step->access)];
    if (access.space == ptx::Space::Shared)
        drawSharedAccess(width);
    else if (access.space == ptx::Space::Global)
        drawGlobalAccess(width);
    else
        ImGui::Text("%s access, %u bytes per lane", ptx::spaceName(access.space), access.bytesPerLane);
}

// 32 bank columns; each distinct word a bank must serve is one row (one wavefront of that phase).
void ExecutionScene::drawSharedAccess(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(stepper.current()->access)];
    const char* kind = access.isAtomic ? "atomic" : access.isStore ? "store" : "load";
    ImGui::Text("Shared %s: %d lanes x %u bytes", kind, std::popcount(access.laneMask), access.bytesPerLane);
    ImGui::Text("%u wavefront%s, %u bank conflict%s", access.wavefronts, access.wavefronts == 1 ? "" : "s",
                access.bankConflicts, access.bankConflicts == 1 ? "" : "s");
    // Phases: 8-byte lanes are served by half-warps, 16-byte lanes by quarter-warps.
    const std::uint32_t phases = access.bytesPerLane >= 16 ? 4 : access.bytesPerLane >= 8 ? 2 : 1;
    const std::uint32_t lanesPerPhase = 32 / phases;
    const float cell = std::clamp((width - 8.0f) / 32.0f, 5.0f, 14.0f);
    ImDrawList* list = ImGui::GetWindowDrawList();
    for (std::uint32_t phase = 0; phase < phases; ++phase) {
        // bank -> distinct words -> lanes asking for each
        std::map<std::uint32_t, std::map<std::uint64_t, std::vector<int>>> banks;
        for (std::uint32_t lane = phase * lanesPerPhase; lane < (phase + 1) * lanesPerPhase; ++lane) {
            if (!((access.laneMask >> lane) & 1u))
                continue;
            for (std::uint32_t byte = 0; byte < access.bytesPerLane; byte += 4) {
                const std::uint64_t word = (access.addresses[lane] + byte) / 4;
                banks[static_cast<std::uint32_t>(word % 32)][word].push_back(static_cast<int>(lane));
            }
        }
        std::size_t depth = 1;
        for (const auto& [bank, words] : banks)
            depth = std::max(depth, words.size());
        if (phases > 1)
            ImGui::TextDisabled("phase %u: lanes %u..%u", phase, phase * lanesPerPhase, (phase + 1) * lanesPerPhase - 1);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const float rows = static_cast<float>(std::min<std::size_t>(depth, 32));
        for (std::uint32_t bank = 0; bank < 32; ++bank) {
            const float x = origin.x + static_cast<float>(bank) * cell;
            list->AddRect(ImVec2(x, origin.y), ImVec2(x + cell - 1, origin.y + rows * cell), IM_COL32(70, 74, 86, 255));
            auto found = banks.find(bank);
            if (found == banks.end())
                continue;
            const bool conflicted = found->second.size() > 1;
            std::size_t row = 0;
            for (const auto& [word, lanes] : found->second) {
                if (row >= 32)
                    break;
                const ImVec2 a(x + 1, origin.y + static_cast<float>(row) * cell + 1);
                const ImVec2 b(x + cell - 2, a.y + cell - 2);
                list->AddRectFilled(a, b, conflicted ? kConflict : kExecuting);
                if (ImGui::IsMouseHoveringRect(a, b)) {
                    std::string who;
                    for (int lane : lanes)
                        who += (who.empty() ? "" : ", ") + std::to_string(lane);
                    ImGui::SetTooltip("bank %u, word at byte %llu: lane%s %s%s", bank,
                                      static_cast<unsigned long long>(word * 4), lanes.size() > 1 ? "s" : "", who.c_str(),
                                      lanes.size() > 1 ? " (one word: a broadcast)" : "");
                }
                ++row;
            }
        }
        ImGui::Dummy(ImVec2(32 * cell, rows * cell + 2));
    }
    ImGui::TextDisabled("Columns are the 32 banks; each row is a wavefront. Red: a bank serving");
    ImGui::TextDisabled("several different words, one per wavefront (a bank conflict).");
}

// Lanes -> the 32-byte sectors their bytes fall in -> the 128-byte lines those sectors belong to.
void ExecutionScene::drawGlobalAccess(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(stepper.current()->access)];
    const char* kind = access.isAtomic ? "atomic" : access.isStore ? "store" : "load";
    ImGui::Text("Global %s: %d lanes x %u bytes, %u request%s", kind, std::popcount(access.laneMask), access.bytesPerLane,
                access.requests, access.requests == 1 ? "" : "s");
    const double used = access.bytesMoved ? 100.0 * static_cast<double>(access.bytesRequested) / static_cast<double>(access.bytesMoved) : 0;
    ImGui::Text("%u sectors in %u line%s: %llu bytes used of %llu moved (%.0f%%)", access.sectors, access.lines,
                access.lines == 1 ? "" : "s", static_cast<unsigned long long>(access.bytesRequested),
                static_cast<unsigned long long>(access.bytesMoved), used);
    std::vector<sim::LaneAccess> lanes;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((access.laneMask >> lane) & 1u)
            lanes.push_back({access.addresses[lane], lane});
    std::uint64_t sectors[128];
    const std::uint32_t sectorCount = sim::collectSectors(lanes, access.bytesPerLane, sectors, 128);
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float laneCell = std::clamp((width - 8.0f) / 32.0f, 5.0f, 14.0f);
    const float sectorWidth = std::clamp((width - 8.0f) / static_cast<float>(std::max<std::uint32_t>(sectorCount, 1)), 3.0f, 40.0f);
    const float laneY = origin.y, sectorY = origin.y + 70.0f, lineY = origin.y + 100.0f;
    // Sectors and their lines.
    std::set<std::uint64_t> lines;
    for (std::uint32_t s = 0; s < sectorCount; ++s) {
        const float x = origin.x + static_cast<float>(s) * sectorWidth;
        const ImVec2 a(x, sectorY), b(x + sectorWidth - 2, sectorY + 16);
        list->AddRectFilled(a, b, IM_COL32(66, 135, 200, 255));
        if (ImGui::IsMouseHoveringRect(a, b))
            ImGui::SetTooltip("sector at 0x%llx (32 bytes)", static_cast<unsigned long long>(sectors[s]));
        lines.insert(sectors[s] / 128);
    }
    // Each line under the run of its sectors.
    std::uint32_t first = 0;
    for (std::uint32_t s = 1; s <= sectorCount; ++s) {
        if (s < sectorCount && sectors[s] / 128 == sectors[first] / 128)
            continue;
        const float x0 = origin.x + static_cast<float>(first) * sectorWidth;
        const float x1 = origin.x + static_cast<float>(s) * sectorWidth - 2;
        const ImVec2 a(x0, lineY), b(x1, lineY + 12);
        list->AddRectFilled(a, b, IM_COL32(120, 96, 200, 255));
        if (ImGui::IsMouseHoveringRect(a, b))
            ImGui::SetTooltip("128-byte line at 0x%llx: %u of its 4 sectors", static_cast<unsigned long long>(sectors[first] / 128 * 128),
                              s - first);
        first = s;
    }
    // Lanes, with a line from each to the sector of its first byte.
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        const ImVec2 a(origin.x + static_cast<float>(lane) * laneCell, laneY);
        const ImVec2 b(a.x + laneCell - 1, a.y + laneCell - 1);
        const bool active = (access.laneMask >> lane) & 1u;
        list->AddRectFilled(a, b, active ? kExecuting : IM_COL32(50, 50, 58, 255));
        if (!active)
            continue;
        const std::uint64_t sector = access.addresses[lane] / 32 * 32;
        const auto* found = std::lower_bound(sectors, sectors + sectorCount, sector);
        if (found != sectors + sectorCount) {
            const float sx = origin.x + (static_cast<float>(found - sectors) + 0.5f) * sectorWidth;
            list->AddLine(ImVec2((a.x + b.x) / 2, b.y), ImVec2(sx, sectorY), IM_COL32(150, 200, 160, 120));
        }
        if (ImGui::IsMouseHoveringRect(a, b))
            ImGui::SetTooltip("lane %u: address 0x%llx (%u bytes)", lane, static_cast<unsigned long long>(access.addresses[lane]),
                              access.bytesPerLane);
    }
    list->AddText(ImVec2(origin.x, laneY + laneCell + 2), style::kTextDim, "lanes");
    list->AddText(ImVec2(origin.x, sectorY - 16), style::kTextDim, "32-byte sectors");
    list->AddText(ImVec2(origin.x, lineY + 13), style::kTextDim, "128-byte lines");
    ImGui::Dummy(ImVec2(width, 130));
}

void ExecutionScene::drawPrintf()
{
    const Stepper& stepper = *m_stepper;
    const sim::BlockRecording& recording = stepper.recording();
    const std::size_t shown = stepper.printfLinesSoFar();
    const std::optional<std::size_t> last = stepper.lastStepOfSelectedWarp();
    ImGui::Text("printf: %zu of the block's %zu lines so far", shown, recording.printfs.size());
    char highlighted[96];
    std::snprintf(highlighted, sizeof highlighted, "highlighted: printed by warp %d's last instruction", stepper.selectedWarp());
    style::sameLineIfFits(style::textWidth(highlighted));
    style::textDisabledWrapped(highlighted);
    reachLine();
    const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
    const float rows = static_cast<float>(std::clamp<std::size_t>(shown, 1, 5));
    ImGui::BeginChild("##printf", ImVec2(0, rows * lineHeight + 8.0f), true);
    if (shown == 0)
        ImGui::TextDisabled("nothing printed yet");
    const std::string block = launch::formatIndex(stepper.run().blockIndex);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(shown));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const sim::RecordedPrintf& line = recording.printfs[static_cast<std::size_t>(i)];
            std::string text = line.text;
            if (text.ends_with('\n'))
                text.pop_back();
            for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 2))
                text.replace(at, 1, "\\n"); // one row per call
            const std::string row = "block " + block + " thread " + launch::formatIndex(line.thread) + " (warp " +
                                    std::to_string(line.warp) + " lane " + std::to_string(line.lane) + "): " + text;
            if (last && line.step == *last)
                ImGui::TextColored(ImVec4(0.95f, 0.80f, 0.35f, 1.0f), "%s", row.c_str());
            else
                ImGui::TextUnformatted(row.c_str());
        }
    }
    if (shown != m_printfShown) { // follow the newest line as stepping prints more
        ImGui::SetScrollHereY(1.0f);
        m_printfShown = shown;
    }
    ImGui::EndChild();
}

void ExecutionScene::drawRegisters()
{
    const Stepper& stepper = *m_stepper;
    const std::int32_t warp = stepper.selectedWarp();
    const ptx::Function& function = *stepper.run().function;
    const sim::WarpSnapshot snapshot = stepper.replay().warp(warp);
    ImGui::Text("Warp %d registers per lane", warp);
    ImGui::SameLine();
    int format = static_cast<int>(m_format);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("bf16 pairs").x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Combo("##format", &format, "as typed\0hex\0int\0float\0f16 pairs\0bf16 pairs\0"))
        m_format = static_cast<RegisterFormat>(format);
    if (ImGui::IsItemHovered())
        style::wrappedTooltip("How each lane's value is shown. f16 and bf16 pairs read a 32-bit register as two 16-bit "
                              "values, low half first: the packed pairs of f16x2 arithmetic and of wmma and mma "
                              "fragments (a 16-bit register as one value).");
    const char* highlighted = "highlighted: written by the warp's last instruction";
    style::sameLineIfFits(style::textWidth(highlighted));
    style::textDisabledWrapped(highlighted);
    reachLine();
    const std::vector<std::int32_t> written = stepper.lastWrittenRegisters();
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##registers", 33, flags, ImVec2(0, std::max(120.0f, ImGui::GetContentRegionAvail().y))))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("register");
    char header[16];
    for (int lane = 0; lane < 32; ++lane) {
        std::snprintf(header, sizeof header, "%d", lane);
        ImGui::TableSetupColumn(header);
    }
    ImGui::TableHeadersRow();
    for (std::size_t r = 0; r < function.registers.size(); ++r) {
        const ptx::RegisterInfo& info = function.registers[r];
        ImGui::TableNextRow();
        const bool changed = std::find(written.begin(), written.end(), static_cast<std::int32_t>(r)) != written.end();
        if (changed)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kChangedRow);
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%s .%s", info.name.c_str(), ptx::typeName(info.type));
        const std::uint64_t* lanes = stepper.replay().registers(warp, static_cast<std::int32_t>(r));
        for (int lane = 0; lane < 32; ++lane) {
            ImGui::TableSetColumnIndex(lane + 1);
            if (!((snapshot.existMask >> lane) & 1u))
                continue;
            const std::string text = formatRegisterValue(lanes[lane], info.type, m_format);
            if ((snapshot.activeMask >> lane) & 1u)
                ImGui::TextUnformatted(text.c_str());
            else
                ImGui::TextDisabled("%s", text.c_str());
        }
    }
    // The carry flag of add.cc, addc and the other extended-precision forms: per thread state
    // outside the register file, shown when the kernel has an instruction that writes or reads it.
    if (stepper.usesCarryFlag()) {
        ImGui::TableNextRow();
        if (snapshot.carryWrittenByLast)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kChangedRow);
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted("CC.CF carry");
        if (ImGui::IsItemHovered())
            style::wrappedTooltip("Each thread's carry flag: written by instructions with .cc (add.cc, addc.cc, sub.cc, "
                                  "mad.cc, ...) and read by addc, subc and madc. It lives outside the registers and "
                                  "keeps its value across other instructions.");
        for (int lane = 0; lane < 32; ++lane) {
            ImGui::TableSetColumnIndex(lane + 1);
            if (!((snapshot.existMask >> lane) & 1u))
                continue;
            const char* text = (snapshot.carryFlags >> lane) & 1u ? "1" : "0";
            if ((snapshot.activeMask >> lane) & 1u)
                ImGui::TextUnformatted(text);
            else
                ImGui::TextDisabled("%s", text);
        }
    }
    ImGui::EndTable();
}

} // namespace warpscope::viz
