// The parts of the Execution view's page that say how the block and its warps were scheduled: under
// independent thread scheduling, which pc each lane of a warp runs next and which lanes issue next;
// in a cooperative launch, where the block waited at a grid barrier for the other blocks.
#include "execution/execution_scene.h"

#include "canvas/scene_style.h"
#include "execution/lane_cells.h"
#include "sim/block_recording.h"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace warpscope::viz {

bool ExecutionScene::drawLanePcs()
{
    m_lanePcs.clear();
    const Stepper& stepper = *m_stepper;
    const std::int32_t warp = stepper.selectedWarp();
    const std::optional<sim::LaneSchedule> schedule = sim::laneScheduleAt(stepper.recording(), stepper.position(), warp);
    if (!schedule)
        return false;
    if (schedule->groups == 1)
        ImGui::TextWrapped("Warp %d, independent thread scheduling: its lanes run together, as one group", warp);
    else
        ImGui::TextWrapped("Warp %d, independent thread scheduling: %u groups of lanes, each at its own pc", warp,
                           schedule->groups);
    // Lanes by the pc they run next, in pc order; exited lanes (and lanes with no thread) last.
    std::map<std::int32_t, std::uint32_t> lanesAt;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        lanesAt[schedule->pc[lane]] |= 1u << lane;
    const ptx::Function& function = *stepper.run().function;
    // The lane cells beside each line where 4 px cells fit there, else on a line of their own.
    const float avail = ImGui::GetContentRegionAvail().x;
    const float beside = std::floor((avail - style::textWidth("> pc 0000  0x00000000  ")) / 32.0f);
    const bool ownLine = beside < 4.0f;
    const float cell = std::clamp(ownLine ? std::floor(avail / 32.0f) : beside, 3.0f, 6.0f);
    ImDrawList* list = ImGui::GetWindowDrawList();
    for (const auto& [pc, lanes] : lanesAt) {
        if (pc < 0)
            continue;
        const bool next = (lanes & schedule->nextGroup) != 0;
        char line[64];
        std::snprintf(line, sizeof line, "%s pc %d  0x%08x", next ? ">" : " ", pc, lanes);
        m_lanePcs.push_back(line);
        ImGui::TextUnformatted(line);
        if (ImGui::IsItemHovered() && static_cast<std::size_t>(pc) < function.instructions.size())
            style::wrappedTooltip(function.instructions[static_cast<std::size_t>(pc)].text.c_str());
        if (!ownLine)
            ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float top = p.y + std::max(0.0f, (ImGui::GetTextLineHeight() - cell) / 2.0f);
        drawMaskCells(list, ImVec2(p.x, top), cell, lanes, kLaneOnPath, kLaneOff, schedule->nextGroup, kLaneExecuting);
        ImGui::Dummy(ImVec2(32 * cell, ownLine ? cell + 2.0f : ImGui::GetTextLineHeight()));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%d lane%s at pc %d%s", std::popcount(lanes), std::popcount(lanes) == 1 ? "" : "s", pc,
                              next ? ": the scheduler issues these next" : ": waiting for their turn");
    }
    if (const auto exited = lanesAt.find(-1); exited != lanesAt.end() && exited->second != 0)
        ImGui::TextDisabled("  exited (or no thread): 0x%08x", exited->second);
    style::textDisabledWrapped(schedule->nextGroup == 0
                                   ? "The warp issues nothing more."
                                   : "> and green: the lanes the scheduler issues next (its turn order: core/sim/"
                                     "its_scheduler.h). Each group keeps its own reconvergence stack; below, the stack "
                                     "of the group that issued last.");
    return true;
}

void ExecutionScene::drawGridWait()
{
    const Stepper& stepper = *m_stepper;
    const std::vector<sim::RecordedGridWait>& waits = stepper.recording().gridWaits;
    const auto wait = std::find_if(waits.begin(), waits.end(),
                                   [&](const sim::RecordedGridWait& w) { return w.step == stepper.position(); });
    if (wait == waits.end())
        return;
    // Block numbers as the launch writes them: linear indices are what the simulator keeps.
    std::string others;
    const std::size_t shown = std::min<std::size_t>(wait->notArrived.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
        others += (i ? ", " : "") + std::to_string(wait->notArrived[i]);
    if (wait->notArrived.size() > shown)
        others += ", ...";
    ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "This block waits here at grid barrier %u (grid.sync()):",
                       wait->barrier);
    reachLine();
    style::textDisabledWrapped(
        (std::to_string(wait->arrived) + " of " + std::to_string(wait->blocks) +
         " blocks have arrived; the block goes on when all have. Still on their way (linear block numbers): " + others +
         ". A cooperative launch keeps every block resident so that this wait can end.")
            .c_str());
}

} // namespace warpscope::viz
