// The stepper's instrument panel on the canvas (Dear ImGui): the block's warps as rows of 32 lanes
// (executing, on the path, diverged off it, exited, waiting at a barrier), the selected warp's
// reconvergence stack, masks in hex as the lessons write them, its registers per lane in a table
// (changed ones highlighted; typed, hex, int or float), and the current instruction's memory access:
// shared memory as lanes -> 32 numbered bank columns, a row per wavefront, or global memory as
// lanes -> 32-byte sectors -> 128-byte lines, out-of-bounds lanes marked; hovering a lane follows
// it. At a hazard, the access that raised it beside the one it conflicts with, and why it is a bug.
// When the kernel prints, the lines the block's threads printed so far, by block and thread.
#pragma once

#include "canvas/canvas_scene.h"
#include "execution/fragment_panel.h"
#include "execution/stepper.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::viz {

class ExecutionScene : public CanvasScene {
public:
    void setStepper(const Stepper* stepper) { m_stepper = stepper; } // not owned; null shows a hint
    void setHint(std::string hint) { m_hint = std::move(hint); }     // shown when there is no stepper
    void setRegisterFormat(RegisterFormat format) { m_format = format; }
    RegisterFormat registerFormat() const { return m_format; }

    std::function<void(std::int32_t warp)> onWarpClicked;           // a warp row was clicked

    void draw(const SceneFrame& frame) override;
    bool animating() const override { return m_fragments.animating(); } // the fragment view's walk along k

    // At the last frame: the reconvergence stack's column width and how far past its right edge the
    // stack's header, lines or mask cells ran (0 when they fit; < 0 before a stack was drawn).
    float lastStackColumnWidth() const { return m_stackWidth; }
    float lastStackOverflow() const { return m_stackOverflow; }
    // At the last frame: how far the page's text lines (the header, the warp legend, the printf and
    // register captions) ran past the panel's right edge; 0 when they fit, < 0 before a frame.
    float lastLineOverflow() const { return m_lineOverflow; }
    // At the last frame, for tests: the masks shown in hex, each warp row's (its path mask, or
    // "exited") and each stack entry's (top first); the lane inspector's text under the pointer
    // ("" when none); and where the memory access's rows of lane cells were (one per phase), to
    // aim the pointer.
    struct LaneRow {
        std::uint32_t firstLane = 0, lanes = 32;
        float left = 0, top = 0, cell = 0; // screen px; each lane's cell is `cell` wide and tall
    };
    const std::vector<std::string>& lastWarpMasks() const { return m_warpMasks; }
    const std::vector<std::string>& lastStackMasks() const { return m_stackMasks; }
    // Under independent thread scheduling, the selected warp's lanes by pc: "> pc 12  0x0000ffff"
    // per pc, ">" on those the scheduler issues next (empty under the stack model).
    const std::vector<std::string>& lastLanePcs() const { return m_lanePcs; }
    const std::string& lastLaneInspection() const { return m_laneInspection; }
    const std::string& lastIssueMasks() const { return m_issueMasks; } // "W1 issues pc 19: path mask ..."
    const std::vector<LaneRow>& lastAccessLaneRows() const { return m_laneRows; }
    // At the last frame: how many lanes' register columns were wholly in view (of 32).
    int lastRegisterLanesShown() const { return m_registerLanesShown; }
    // The fragment view (Tensor Core steps), for tests and for choosing what it shows.
    FragmentPanel& fragments() { return m_fragments; }
    const FragmentPanel& fragments() const { return m_fragments; }

private:
    void drawWarps(float width);
    void drawHazard();
    void drawStack();
    void drawAccess(float width);
    void drawSharedAccess(float width);
    void drawGlobalAccess(float width);
    void drawRegisters();
    void drawPrintf();
    bool drawLanePcs();  // execution_scene_schedule.cpp: false under the stack model
    void drawGridWait(); // execution_scene_schedule.cpp
    void reachLine(); // records how far the last item ran past the page's right edge

    std::vector<std::string> m_lanePcs;
    const Stepper* m_stepper = nullptr;
    std::string m_hint = "Choose a kernel and press Run (Ctrl+Shift+R) to record a block.";
    RegisterFormat m_format = RegisterFormat::Short; // narrow columns: more lanes in view
    float m_stackWidth = -1.0f;
    float m_stackOverflow = -1.0f;
    float m_lineRight = 0.0f; // the page's right edge, screen x
    int m_registerLanesShown = 0;
    float m_lineOverflow = -1.0f;
    std::size_t m_printfShown = 0; // printf lines shown at the last frame (to scroll to new ones)
    std::vector<std::string> m_warpMasks, m_stackMasks;
    std::string m_laneInspection, m_issueMasks;
    std::vector<LaneRow> m_laneRows;
    FragmentPanel m_fragments; // wmma, mma and ldmatrix steps: their tiles of decoded values
};

} // namespace warpscope::viz
