#include "execution/execution_scene.h"

#include "canvas/scene_style.h"
#include "execution/lane_cells.h"
#include "launch/launch_geometry.h"
#include "memory/memory_model.h"
#include "sim/block_recording.h"
#include "sim/fragment_tiles.h"
#include "sim/hazards.h"
#include "sim/memory_analysis.h"
#include "sim/timing_model.h"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cfloat>
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

constexpr ImU32 kExecuting = kLaneExecuting;
constexpr ImU32 kGuardedOff = IM_COL32(46, 110, 70, 255);  // on the path, guard false
constexpr ImU32 kOnPath = kLaneOnPath;
constexpr ImU32 kDiverged = IM_COL32(88, 88, 98, 255);     // waiting on the stack for the other side
constexpr ImU32 kExited = IM_COL32(34, 34, 38, 255);
constexpr ImU32 kBarrier = IM_COL32(224, 168, 56, 255);
constexpr ImU32 kConflict = IM_COL32(232, 96, 80, 255);
constexpr ImU32 kOutOfBounds = IM_COL32(214, 48, 96, 255); // a lane whose bytes no allocation holds
constexpr ImU32 kChangedRow = IM_COL32(120, 96, 24, 110);

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
        m_warpMasks.clear();
        m_stackMasks.clear();
        ImGui::TextWrapped("%s", m_hint.c_str());
        ImGui::End();
        return;
    }
    const Stepper& stepper = *m_stepper;
    const StepperRun& run = stepper.run();
    const float width = ImGui::GetContentRegionAvail().x;
    m_laneRows.clear();
    m_laneInspection.clear();
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
    drawGridWait();

    drawWarps(width);
    ImGui::Separator();
    if (m_fragments.draw(stepper, width)) // at a Tensor Core step, its tiles come before the rest
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
    // Each row: the warp's label, its 32 lanes, its path mask in hex and its status. Lanes narrow to
    // 7 px to keep the status word in a panel beside the listings at 1280 wide; only where even that
    // does not fit is the status left to the label's tooltip (the lanes' colours say it too).
    const float maskWidth = style::textWidth("0x00000000") + 10.0f; // digits are the font's widest hex characters
    const float statusWidth = style::textWidth("at barrier") + 6.0f;
    const float room = width - imStyle.ScrollbarSize - 4.0f;
    const float labelWidth = style::textWidth("W31 pc 9999") + 8.0f;
    const float lanesX = labelWidth + 6.0f;
    const bool statusShown = room - lanesX - maskWidth - statusWidth >= 32.0f * 7.0f;
    const float cell = std::clamp((room - lanesX - maskWidth - (statusShown ? statusWidth : 0.0f)) / 32.0f, 4.0f, 16.0f);
    style::textDisabledWrapped("Warps of the block: lanes 0..31, left to right, and the path mask in hex (bit i is lane i)");
    reachLine();
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float rowHeight = std::max(cell + 3.0f, ImGui::GetTextLineHeightWithSpacing());
    const float rowPitch = rowHeight - 2.0f + imStyle.ItemSpacing.y; // a row's selectable and the gap below it
    const std::int32_t warps = stepper.warpCount();
    // Tall blocks (32 warps) scroll inside their own region; up to 9 warps show whole.
    const float regionHeight = static_cast<float>(std::min(warps, 9)) * rowPitch - imStyle.ItemSpacing.y + 2.0f;
    m_warpMasks.assign(static_cast<std::size_t>(std::max(warps, 0)), std::string());
    ImGui::BeginChild("##warps", ImVec2(0, regionHeight), false);
    for (std::int32_t w = 0; w < warps; ++w) {
        const sim::WarpSnapshot warp = stepper.replay().warp(w);
        const bool issuing = current && static_cast<std::int32_t>(current->warp) == w;
        const char* status = warp.status == sim::WarpStatus::Exited      ? "exited"
                             : warp.status == sim::WarpStatus::AtBarrier ? "at barrier"
                             : issuing                                    ? "issuing"
                                                                          : "ready";
        char label[64];
        if (warp.pc >= 0)
            std::snprintf(label, sizeof label, "W%-2d pc %d##warp%d", w, warp.pc, w);
        else
            std::snprintf(label, sizeof label, "W%-2d##warp%d", w, w);
        const ImVec2 rowStart = ImGui::GetCursorScreenPos();
        if (ImGui::Selectable(label, w == selected, 0, ImVec2(labelWidth, rowHeight - 2.0f)) && onWarpClicked)
            onWarpClicked(w);
        const std::string mask = warp.status == sim::WarpStatus::Exited ? std::string("exited")
                                                                         : laneMaskHex(warp.activeMask & ~warp.exitedMask);
        m_warpMasks[static_cast<std::size_t>(w)] = mask;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("warp %d: %s, path mask %s (%d lanes)", w, status, mask.c_str(),
                              std::popcount(warp.activeMask & ~warp.exitedMask));
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
        const float textY = rowStart.y + (rowHeight - 2.0f - ImGui::GetTextLineHeight()) / 2.0f;
        const float maskX = origin.x + 32.0f * cell + 6.0f;
        list->AddText(ImVec2(maskX, textY), issuing ? style::kText : style::kTextDim, mask.c_str());
        if (statusShown && warp.status != sim::WarpStatus::Exited)
            list->AddText(ImVec2(maskX + maskWidth, textY), style::kTextDim, status);
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
    // The two masks of the lessons for the instruction about to issue (05-stepping, 08-divergence).
    m_issueMasks.clear();
    if (current) {
        char masks[160];
        std::snprintf(masks, sizeof masks, "W%u issues pc %d: path mask %s, active mask %s (guard true: %d lane%s)",
                      current->warp, current->pc, laneMaskHex(current->activeMask).c_str(),
                      laneMaskHex(current->executedMask).c_str(), std::popcount(current->executedMask),
                      std::popcount(current->executedMask) == 1 ? "" : "s");
        m_issueMasks = masks;
        ImGui::TextWrapped("%s", masks);
        reachLine();
    }
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
    const bool independent = drawLanePcs();
    if (independent)
        ImGui::TextWrapped("The group's reconvergence stack (top first)");
    else
        ImGui::TextWrapped("Warp %d reconvergence stack (top first)", warp); // in lines where the column is narrow
    reach(ImGui::GetItemRectMax().x);
    m_stackMasks.clear();
    if (snapshot.stack.empty()) {
        ImGui::TextDisabled("empty: every lane has exited");
        return;
    }
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ptx::Function& function = *stepper.run().function;
    // Each entry's mask in hex as the lessons' tables write it, and as 32 cells that shrink to the
    // column (down to 4 px each). Where that does not fit beside pc and rejoin (the column beside the
    // memory access at 1280 px), each entry is a line of text with its mask under it, instead of a
    // table cut at the column's edge.
    const float avail = ImGui::GetContentRegionAvail().x;
    const float hexWidth = style::textWidth("0x00000000");
    const float used = ImGui::CalcTextSize("> 0000").x + ImGui::CalcTextSize("rejoins at").x + hexWidth +
                       8 * ImGui::GetStyle().CellPadding.x;
    const float maskCell = std::clamp(std::floor((avail - used) / 32.0f), 4.0f, 6.0f);
    if (used + 32 * maskCell > avail) {
        for (std::size_t i = snapshot.stack.size(); i-- > 0;) {
            const sim::StackEntry& entry = snapshot.stack[i];
            const std::string mask = laneMaskHex(entry.mask);
            m_stackMasks.push_back(mask);
            const std::string rejoin = entry.reconvergePc < 0 ? std::string("exit") : std::to_string(entry.reconvergePc);
            ImGui::TextWrapped("%spc %d, rejoins at %s", i + 1 == snapshot.stack.size() ? "> " : "", entry.pc, rejoin.c_str());
            reach(ImGui::GetItemRectMax().x);
            if (ImGui::IsItemHovered() && entry.pc >= 0 && static_cast<std::size_t>(entry.pc) < function.instructions.size())
                style::wrappedTooltip(function.instructions[static_cast<std::size_t>(entry.pc)].text.c_str());
            ImGui::TextUnformatted(mask.c_str());
            reach(ImGui::GetItemRectMax().x);
            // The cells beside the hex where 3 px cells fit there, else under it.
            ImGui::SameLine();
            float cell = std::clamp(std::floor(ImGui::GetContentRegionAvail().x / 32.0f), 0.0f, 6.0f);
            if (cell < 3.0f) {
                ImGui::NewLine();
                cell = std::clamp(std::floor(avail / 32.0f), 3.0f, 6.0f);
            }
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float top = p.y + std::max(0.0f, (ImGui::GetTextLineHeight() - cell) / 2.0f);
            drawMaskCells(list, ImVec2(p.x, top), cell, entry.mask, kOnPath, kLaneOff);
            ImGui::Dummy(ImVec2(32 * cell, std::max(cell + 2, ImGui::GetTextLineHeight())));
            reach(ImGui::GetItemRectMax().x);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("mask (lane 0 left) %s: %d lanes", mask.c_str(), std::popcount(entry.mask));
        }
    } else if (ImGui::BeginTable("##stack", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("pc");
        ImGui::TableSetupColumn("rejoins at");
        ImGui::TableSetupColumn("mask");
        ImGui::TableSetupColumn(used + std::max(32 * maskCell, ImGui::CalcTextSize("lane 0 left").x) <= avail ? "lane 0 left" : "");
        ImGui::TableHeadersRow();
        for (std::size_t i = snapshot.stack.size(); i-- > 0;) {
            const sim::StackEntry& entry = snapshot.stack[i];
            const std::string mask = laneMaskHex(entry.mask);
            m_stackMasks.push_back(mask);
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
            ImGui::TextUnformatted(mask.c_str());
            ImGui::TableSetColumnIndex(3);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            drawMaskCells(list, ImVec2(p.x, p.y + 2), maskCell, entry.mask, kOnPath, kLaneOff);
            reach(p.x + 32 * maskCell); // the table clips what runs past the column: the cells' own edge
            ImGui::Dummy(ImVec2(32 * maskCell, 10));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s: %d lanes", mask.c_str(), std::popcount(entry.mask));
        }
        ImGui::EndTable();
    }
    if (const sim::RecordedStep* step = stepper.current(); step && static_cast<std::int32_t>(step->warp) == warp) {
        // Wrapped: the column beside the memory access is narrow at 1280 and 1366 px.
        const auto colouredLine = [](ImVec4 colour, const char* text) {
            ImGui::PushStyleColor(ImGuiCol_Text, colour);
            ImGui::TextWrapped("%s", text);
            ImGui::PopStyleColor();
        };
        if (step->has(sim::StepFlag::Diverged))
            colouredLine(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "This branch diverges: the stack grows.");
        else if (step->has(sim::StepFlag::Reconverged))
            colouredLine(ImVec4(0.5f, 0.85f, 0.6f, 1.0f), "After this instruction, paths rejoin: the stack shrinks.");
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
    if (const std::string gpu = sim::hazardOnTheGpu(hazard.kind); !gpu.empty())
        ImGui::TextWrapped("%s.", gpu.c_str());
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

// Each phase: its lanes, a line from each lane to the bank it hits, the banks numbered 0-31 and
// under each bank the distinct words it serves, one row per wavefront (sharedBankGrid). Hovering a
// lane follows it: lane -> byte offset -> bank -> wavefront.
void ExecutionScene::drawSharedAccess(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedAccess& recorded = stepper.recording().accesses[static_cast<std::size_t>(stepper.current()->access)];
    // A scalar load ptxas merges with its neighbours is drawn as the wide load the hardware makes.
    const sim::RecordedAccess access = sim::hardwareAccess(recorded);
    const char* kind = access.isAtomic ? "atomic" : access.isStore ? "store" : "load";
    // A matrix instruction is several requests, which the plain caption's numbers do not add up to.
    if (const std::string matrix = sim::tensor::matrixAccessCaption(*stepper.currentInstruction(), recorded); !matrix.empty())
        ImGui::TextWrapped("%s", matrix.c_str());
    else if (recorded.mergedMember)
        ImGui::TextWrapped("Shared load: %d lanes x %u bytes. ptxas merges it into one LDS.%u with the group's first load, "
                           "%u bytes before it, which counts the wavefronts: this one adds none. Drawn: the %u-byte load.",
                           std::popcount(recorded.laneMask), recorded.bytesPerLane, recorded.mergedBytesPerLane * 8,
                           recorded.mergedOffset, recorded.mergedBytesPerLane);
    else if (recorded.mergedBytesPerLane > 0)
        ImGui::TextWrapped("Shared load: %d lanes x %u bytes, which ptxas merges with the loads after it into one LDS.%u "
                           "(%u bytes per lane): %u wavefront%s, %u bank conflict%s for the group. Drawn: that load.",
                           std::popcount(recorded.laneMask), recorded.bytesPerLane, recorded.mergedBytesPerLane * 8,
                           recorded.mergedBytesPerLane, recorded.wavefronts, recorded.wavefronts == 1 ? "" : "s",
                           recorded.bankConflicts, recorded.bankConflicts == 1 ? "" : "s");
    else
        ImGui::TextWrapped("Shared %s: %d lanes x %u bytes, %u wavefront%s, %u bank conflict%s", kind,
                       std::popcount(access.laneMask), access.bytesPerLane, access.wavefronts,
                       access.wavefronts == 1 ? "" : "s", access.bankConflicts, access.bankConflicts == 1 ? "" : "s");
    const std::vector<SharedPhase> phases = sharedBankGrid(access);
    const float cell = std::clamp((width - 8.0f) / 32.0f, 5.0f, 14.0f);
    ImDrawList* list = ImGui::GetWindowDrawList();
    ImFont* font = ImGui::GetFont();
    // Bank numbers in one row where two digits fit in a cell, else even banks above odd ones.
    const float numberSize = std::min(ImGui::GetFontSize(), 11.0f);
    const bool oneRow = font->CalcTextSizeA(numberSize, FLT_MAX, 0.0f, "31").x <= cell - 1.0f;
    const float numbersHeight = (oneRow ? 1.0f : 2.0f) * numberSize + 2.0f;
    const float wireHeight = 26.0f;
    int hoveredLane = -1;
    for (const SharedPhase& phase : phases) {
        const std::uint32_t lanes = phase.lastLane - phase.firstLane + 1;
        const float laneCell = 32.0f * cell / static_cast<float>(lanes);
        const std::size_t phaseIndex = static_cast<std::size_t>(&phase - phases.data());
        if (phase.sharesPrevious)
            ImGui::TextDisabled("phase %zu: lanes %u..%u, the same words as the phase before: served by its wavefronts (a model: "
                                "measured on an H200's LDS.128)",
                                phaseIndex, phase.firstLane, phase.lastLane);
        else if (phases.size() > 1)
            ImGui::TextDisabled("phase %zu: lanes %u..%u", phaseIndex, phase.firstLane, phase.lastLane);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        m_laneRows.push_back({phase.firstLane, lanes, origin.x, origin.y, laneCell});
        const float banksTop = origin.y + laneCell + wireHeight + numbersHeight;
        const float rows = static_cast<float>(std::clamp<std::uint32_t>(phase.wavefronts, 1, 32));
        // Which lane the pointer is on, and the banks of its words.
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int under = ImGui::IsWindowHovered() && mouse.y >= origin.y && mouse.y < origin.y + laneCell
                              ? laneAtX(mouse.x, origin.x, laneCell, static_cast<int>(lanes))
                              : -1;
        const int hovered = under < 0 ? -1 : static_cast<int>(phase.firstLane) + under;
        std::uint32_t hoveredBanks = 0;
        for (std::uint32_t lane = phase.firstLane; lane <= phase.lastLane; ++lane) {
            const bool active = (access.laneMask >> lane) & 1u;
            const ImVec2 a(origin.x + static_cast<float>(lane - phase.firstLane) * laneCell, origin.y);
            const ImVec2 b(a.x + laneCell - 1.0f, a.y + laneCell - 1.0f);
            list->AddRectFilled(a, b, active ? kOnPath : kLaneOff);
            if (!active)
                continue;
            const bool isHovered = static_cast<int>(lane) == hovered;
            for (std::uint32_t w = 0; w < std::max<std::uint32_t>(1, access.bytesPerLane / 4); ++w) {
                const std::uint32_t bank = static_cast<std::uint32_t>((access.addresses[lane] / 4 + w) % 32);
                if (isHovered)
                    hoveredBanks |= 1u << bank;
                const float bx = origin.x + (static_cast<float>(bank) + 0.5f) * cell;
                list->AddLine(ImVec2((a.x + b.x) / 2, b.y + 1), ImVec2(bx, origin.y + laneCell + wireHeight),
                              isHovered ? style::kHover : IM_COL32(150, 200, 160, 110), isHovered ? 2.0f : 1.0f);
            }
            if (isHovered)
                list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), style::kHover, 0.0f, 0, 2.0f);
        }
        for (std::uint32_t bank = 0; bank < 32; ++bank) {
            const float x = origin.x + static_cast<float>(bank) * cell;
            char number[4];
            std::snprintf(number, sizeof number, "%u", bank);
            const float numberWidth = font->CalcTextSizeA(numberSize, FLT_MAX, 0.0f, number).x;
            const float numberY = banksTop - numbersHeight + (oneRow || bank % 2 == 0 ? 0.0f : numberSize);
            list->AddText(font, numberSize, ImVec2(x + (cell - numberWidth) / 2.0f, numberY),
                          (hoveredBanks >> bank) & 1u ? style::kHover : style::kTextDim, number);
            list->AddRect(ImVec2(x, banksTop), ImVec2(x + cell - 1, banksTop + rows * cell), IM_COL32(70, 74, 86, 255));
            const std::vector<BankWord>& words = phase.banks[bank];
            for (std::size_t row = 0; row < words.size() && row < 32; ++row) {
                const ImVec2 a(x + 1, banksTop + static_cast<float>(row) * cell + 1);
                const ImVec2 b(x + cell - 2, a.y + cell - 2);
                list->AddRectFilled(a, b, words.size() > 1 ? kConflict : kExecuting);
                if (hovered >= 0 && (words[row].lanes >> hovered) & 1u)
                    list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), style::kHover, 0.0f, 0, 2.0f);
                if (hovered < 0 && ImGui::IsMouseHoveringRect(a, b)) {
                    std::string who;
                    for (int lane = 0; lane < 32; ++lane)
                        if ((words[row].lanes >> lane) & 1u)
                            who += (who.empty() ? "" : ", ") + std::to_string(lane);
                    ImGui::SetTooltip("bank %u, wavefront %zu: the word at byte %llu, for lane%s %s%s", bank,
                                      phase.firstWavefront + row + 1, static_cast<unsigned long long>(words[row].word * 4),
                                      std::popcount(words[row].lanes) > 1 ? "s" : "", who.c_str(),
                                      std::popcount(words[row].lanes) > 1 ? " (one word: a broadcast)" : "");
                }
            }
        }
        if (hovered >= 0)
            hoveredLane = hovered;
        ImGui::Dummy(ImVec2(32 * cell, banksTop - origin.y + rows * cell + 2));
    }
    if (hoveredLane >= 0) {
        m_laneInspection = describeSharedLane(static_cast<std::uint32_t>(hoveredLane),
                                              inspectSharedLane(access, static_cast<std::uint32_t>(hoveredLane)));
        style::wrappedTooltip(m_laneInspection.c_str());
    }
    style::textDisabledWrapped("Top: the lanes, each wired to the bank its word is in. Columns: the 32 banks; each "
                               "row is a wavefront. Red: a bank serving several different words, one per wavefront "
                               "(a bank conflict). Hover a lane to follow it.");
}

// Lanes -> the 32-byte sectors their bytes fall in -> the 128-byte lines those sectors belong to.
// Lanes outside every allocation (the step's out-of-bounds hazards) are marked; hovering a lane
// follows it: lane -> address -> sector -> line.
void ExecutionScene::drawGlobalAccess(float width)
{
    const Stepper& stepper = *m_stepper;
    const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(stepper.current()->access)];
    const std::uint32_t outOfBounds = outOfBoundsLanes(stepper.recording(), *stepper.currentIndex()) & access.laneMask;
    const char* kind = access.isAtomic ? "atomic" : access.isStore ? "store" : "load";
    if (const std::string matrix = sim::tensor::matrixAccessCaption(*stepper.currentInstruction(), access); !matrix.empty())
        ImGui::TextWrapped("%s", matrix.c_str());
    else
        ImGui::TextWrapped("Global %s: %d lane%s x %u bytes, %u request%s", kind, std::popcount(access.laneMask),
                       std::popcount(access.laneMask) == 1 ? "" : "s", access.bytesPerLane, access.requests,
                       access.requests == 1 ? "" : "s");
    const double used = access.bytesMoved ? 100.0 * static_cast<double>(access.bytesRequested) / static_cast<double>(access.bytesMoved) : 0;
    ImGui::TextWrapped("%u sector%s in %u line%s: %llu bytes used of %llu moved (%.0f%%)", access.sectors,
                       access.sectors == 1 ? "" : "s", access.lines, access.lines == 1 ? "" : "s", static_cast<unsigned long long>(access.bytesRequested),
                       static_cast<unsigned long long>(access.bytesMoved), used);
    if (outOfBounds)
        ImGui::TextColored(ImVec4(0.91f, 0.38f, 0.31f, 1.0f), "%d lanes out of bounds (%s)", std::popcount(outOfBounds),
                           laneMaskHex(outOfBounds).c_str());
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
    m_laneRows.push_back({0, 32, origin.x, laneY, laneCell});
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int hovered = ImGui::IsWindowHovered() && mouse.y >= laneY && mouse.y < laneY + laneCell
                            ? laneAtX(mouse.x, origin.x, laneCell)
                            : -1;
    const GlobalLaneInspection inspection =
        hovered >= 0 ? inspectGlobalLane(access, static_cast<std::uint32_t>(hovered), outOfBounds) : GlobalLaneInspection();
    // Sectors and their lines.
    for (std::uint32_t s = 0; s < sectorCount; ++s) {
        const float x = origin.x + static_cast<float>(s) * sectorWidth;
        const ImVec2 a(x, sectorY), b(x + sectorWidth - 2, sectorY + 16);
        list->AddRectFilled(a, b, IM_COL32(66, 135, 200, 255));
        if (inspection.active && s >= inspection.sectorIndex && s < inspection.sectorIndex + inspection.sectorSpan)
            list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), style::kHover, 0.0f, 0, 2.0f);
        if (hovered < 0 && ImGui::IsMouseHoveringRect(a, b))
            ImGui::SetTooltip("sector %u of %u at 0x%llx (32 bytes)", s + 1, sectorCount, static_cast<unsigned long long>(sectors[s]));
    }
    // Each line under the run of its sectors.
    std::uint32_t first = 0, line = 0;
    for (std::uint32_t s = 1; s <= sectorCount; ++s) {
        if (s < sectorCount && sectors[s] / 128 == sectors[first] / 128)
            continue;
        const float x0 = origin.x + static_cast<float>(first) * sectorWidth;
        const float x1 = origin.x + static_cast<float>(s) * sectorWidth - 2;
        const ImVec2 a(x0, lineY), b(x1, lineY + 12);
        list->AddRectFilled(a, b, IM_COL32(120, 96, 200, 255));
        if (inspection.active && line == inspection.lineIndex)
            list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), style::kHover, 0.0f, 0, 2.0f);
        if (hovered < 0 && ImGui::IsMouseHoveringRect(a, b))
            ImGui::SetTooltip("128-byte line at 0x%llx: %u of its 4 sectors", static_cast<unsigned long long>(sectors[first] / 128 * 128),
                              s - first);
        first = s;
        ++line;
    }
    // Lanes, with a line from each to the sector of its first byte.
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        const ImVec2 a(origin.x + static_cast<float>(lane) * laneCell, laneY);
        const ImVec2 b(a.x + laneCell - 1, a.y + laneCell - 1);
        const bool active = (access.laneMask >> lane) & 1u;
        const bool outside = (outOfBounds >> lane) & 1u;
        list->AddRectFilled(a, b, outside ? kOutOfBounds : active ? kExecuting : kLaneOff);
        if (!active)
            continue;
        const bool isHovered = static_cast<int>(lane) == hovered;
        const std::uint64_t sector = access.addresses[lane] / 32 * 32;
        const auto* found = std::lower_bound(sectors, sectors + sectorCount, sector);
        if (found != sectors + sectorCount) {
            const float sx = origin.x + (static_cast<float>(found - sectors) + 0.5f) * sectorWidth;
            list->AddLine(ImVec2((a.x + b.x) / 2, b.y), ImVec2(sx, sectorY),
                          isHovered ? style::kHover : outside ? IM_COL32(232, 96, 80, 150) : IM_COL32(150, 200, 160, 120),
                          isHovered ? 2.0f : 1.0f);
        }
        if (isHovered)
            list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), style::kHover, 0.0f, 0, 2.0f);
    }
    if (hovered >= 0) {
        m_laneInspection = describeGlobalLane(static_cast<std::uint32_t>(hovered), inspection);
        style::wrappedTooltip(m_laneInspection.c_str());
    }
    list->AddText(ImVec2(origin.x, laneY + laneCell + 2), style::kTextDim, outOfBounds ? "lanes (red: out of bounds)" : "lanes");
    list->AddText(ImVec2(origin.x, sectorY - 16), style::kTextDim, "32-byte sectors");
    list->AddText(ImVec2(origin.x, lineY + 13), style::kTextDim, "128-byte lines");
    ImGui::Dummy(ImVec2(width, 130));
    style::textDisabledWrapped("Hover a lane to follow it to its sector and line.");
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
    // The combo's order: short first, the default.
    static constexpr RegisterFormat kFormats[] = {RegisterFormat::Short, RegisterFormat::Typed, RegisterFormat::Hex,
                                                  RegisterFormat::Int,   RegisterFormat::Float, RegisterFormat::Half,
                                                  RegisterFormat::BFloat16};
    int format = static_cast<int>(std::find(std::begin(kFormats), std::end(kFormats), m_format) - std::begin(kFormats));
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("bf16 pairs").x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Combo("##format", &format, "short\0as typed\0hex\0int\0float\0f16 pairs\0bf16 pairs\0"))
        m_format = kFormats[std::clamp(format, 0, 6)];
    if (ImGui::IsItemHovered())
        style::wrappedTooltip("How each lane's value is shown. short: as typed, floats to 4 significant digits, so more "
                              "lanes fit side by side (hover a value for the exact one and its bits). f16 and bf16 "
                              "pairs read a 32-bit register as two 16-bit values, low half first: the packed pairs of "
                              "f16x2 arithmetic and of wmma and mma fragments (a 16-bit register as one value).");
    const char* highlighted = "highlighted: written by the warp's last instruction";
    style::sameLineIfFits(style::textWidth(highlighted));
    style::textDisabledWrapped(highlighted);
    reachLine();
    const std::vector<std::int32_t> written = stepper.lastWrittenRegisters();
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    // Narrow cells (the column borders separate the lanes), so that more of the 32 lanes fit beside
    // each other on a laptop screen; the register's type and each value's bits are on hover.
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(2.0f, 1.0f));
    const bool table = ImGui::BeginTable("##registers", 33, flags, ImVec2(0, std::max(120.0f, ImGui::GetContentRegionAvail().y)));
    ImGui::PopStyleVar();
    if (!table)
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("reg");
    char header[16];
    for (int lane = 0; lane < 32; ++lane) {
        std::snprintf(header, sizeof header, "%d", lane);
        ImGui::TableSetupColumn(header);
    }
    // The header row by hand, to learn which lanes' columns are wholly in view.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const float viewRight = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    float frozenRight = 0;
    m_registerLanesShown = 0;
    for (int column = 0; column < 33; ++column) {
        if (!ImGui::TableSetColumnIndex(column))
            continue; // scrolled out of sight
        ImGui::TableHeader(ImGui::TableGetColumnName(column));
        if (column == 0) {
            frozenRight = ImGui::GetItemRectMax().x;
            if (ImGui::IsItemHovered())
                style::wrappedTooltip("Each PTX register of the kernel, one row; a column per lane of the warp. Hover a "
                                      "register for its type, a value for its bits. Predicates read T (true) or F; an \"as typed\" "
                                      "address into a buffer argument reads as the element it points at (in[32]).");
        } else if (ImGui::GetItemRectMin().x >= frozenRight - 1.0f && ImGui::GetItemRectMax().x <= viewRight + 0.5f) {
            ++m_registerLanesShown;
        }
    }
    for (std::size_t r = 0; r < function.registers.size(); ++r) {
        const ptx::RegisterInfo& info = function.registers[r];
        ImGui::TableNextRow();
        const bool changed = std::find(written.begin(), written.end(), static_cast<std::int32_t>(r)) != written.end();
        if (changed)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kChangedRow);
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(info.name.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s .%s%s", info.name.c_str(), ptx::typeName(info.type),
                              info.type == ptx::Type::Pred ? ": T is true, F is false" : "");
        const std::uint64_t* lanes = stepper.replay().registers(warp, static_cast<std::int32_t>(r));
        // Addresses as "buffer+offset" (the bits are on hover).
        const bool pointerSized = ptx::typeBits(info.type) == 64 && !ptx::isFloat(info.type);
        for (int lane = 0; lane < 32; ++lane) {
            if (!ImGui::TableSetColumnIndex(lane + 1) || !((snapshot.existMask >> lane) & 1u))
                continue;
            std::string text;
            if ((m_format == RegisterFormat::Typed || m_format == RegisterFormat::Short) && pointerSized)
                text = bufferAddressText(lanes[lane], stepper.run().buffers);
            if (text.empty())
                text = formatRegisterValue(lanes[lane], info.type, m_format);
            if ((snapshot.activeMask >> lane) & 1u)
                ImGui::TextUnformatted(text.c_str());
            else
                ImGui::TextDisabled("%s", text.c_str());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("warp %d lane %d (thread %d): %s .%s = %s (bits %s)%s", warp, lane, warp * 32 + lane,
                                  info.name.c_str(), ptx::typeName(info.type),
                                  formatRegisterValue(lanes[lane], info.type, RegisterFormat::Typed).c_str(),
                                  formatRegisterValue(lanes[lane], info.type, RegisterFormat::Hex).c_str(),
                                  (snapshot.activeMask >> lane) & 1u ? "" : ", lane not on the warp's path");
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
