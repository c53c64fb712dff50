// The parts of the Execution view's page that say how the block and its warps were scheduled: in a
// cooperative launch, where the block waited at a grid barrier for the other blocks.
#include "execution/execution_scene.h"

#include "canvas/scene_style.h"
#include "sim/block_recording.h"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace warpscope::viz {

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
