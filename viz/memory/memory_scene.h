// The memory-hierarchy view on the canvas (Dear ImGui), beside the stepper: one SM (its four
// sub-partitions with their schedulers and register files, the L1/shared-memory pool), the L2 and
// the DRAM, each labelled with capacity, latency and bandwidth and their sources (memory_model.h);
// the current instruction's sectors as packets travelling from the lanes to the level that served
// them (L1 hit, L2, DRAM, from the timing model's caches), or its shared-memory wavefronts; the
// whole launch's bytes per level as a flow, beside a session's measured bytes; and the latency-
// hiding timeline of the recorded block's SM: warps by cycles, each cycle an issue or a stall.
#pragma once

#include "canvas/canvas_scene.h"
#include "execution/stepper.h"
#include "memory/memory_model.h"

#include <cstddef>
#include <optional>
#include <string>

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

class MemoryScene : public CanvasScene {
public:
    // Not owned; null shows the hint. Call again after a new run (the timeline is rebuilt).
    void setStepper(const Stepper* stepper);
    // The open profile session, if any (not owned): its device and measured bytes are shown.
    void setSession(const session::Session* session);

    void draw(const SceneFrame& frame) override;
    bool animating() const override;

    // What the view shows, for tests and the status line.
    const LatencyTimeline* timeline() const { return m_stepper ? &m_stepper->run().timeline : nullptr; }
    const std::optional<MeasuredFlow>& measured() const { return m_measured; }
    std::string packetSummary() const; // "4 sectors: 0 L1 hits, 0 in L2, 4 from DRAM (timing model)"
    // At the last frame: how far the diagram's legend ran past the panel's right edge (0 when it
    // fits), and whether the sub-partitions were laid out in two rows to keep their names whole.
    float lastLineOverflow() const { return m_lineOverflow; }
    bool partitionsInTwoRows() const { return m_twoRows; }

private:
    void drawDiagram(float width, double time);
    void drawFacts();
    void drawFlow(float width);
    void drawTimeline(float width);
    void update(); // the facts and the measured flow, from the run and the session

    const Stepper* m_stepper = nullptr;
    const session::Session* m_session = nullptr;
    std::vector<MemoryLevelFacts> m_facts; // for the run's preset and the session, made when either changes
    std::optional<MeasuredFlow> m_measured;
    bool m_animating = false;
    // The step whose packets travel: they leave when it is first drawn, arrive once and rest.
    const void* m_packetRecording = nullptr;
    std::size_t m_packetStep = 0;
    double m_packetStart = 0.0;
    float m_lineOverflow = -1.0f;
    bool m_twoRows = false;
};

} // namespace warpscope::viz
