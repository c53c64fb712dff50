// The Execution view's lane colours and its row of 32 lane cells, shared by the page's parts
// (execution_scene.cpp, execution_scene_schedule.cpp).
#pragma once

#include <imgui.h>

#include <cstdint>

namespace warpscope::viz {

inline constexpr ImU32 kLaneExecuting = IM_COL32(92, 200, 120, 255); // on the path, guard true: runs this instruction
inline constexpr ImU32 kLaneOnPath = IM_COL32(66, 135, 200, 255);    // active, not the warp about to issue
inline constexpr ImU32 kLaneOff = IM_COL32(50, 50, 58, 255);         // not in the mask

// 32 small squares, lane 0 on the left, filled with `on` where `mask` has the lane (`emphasised`
// where `emphasis` has it too) and `off` elsewhere.
inline void drawMaskCells(ImDrawList* list, ImVec2 origin, float cell, std::uint32_t mask, ImU32 on, ImU32 off,
                          std::uint32_t emphasis = 0, ImU32 emphasised = 0)
{
    for (int lane = 0; lane < 32; ++lane) {
        const ImVec2 a(origin.x + static_cast<float>(lane) * cell, origin.y);
        const ImU32 colour = !((mask >> lane) & 1u) ? off : ((emphasis >> lane) & 1u) ? emphasised : on;
        list->AddRectFilled(a, ImVec2(a.x + cell - 1.0f, a.y + cell - 1.0f), colour);
    }
}

} // namespace warpscope::viz
