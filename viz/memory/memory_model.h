// The memory-hierarchy view's numbers, apart from any drawing: what each level of the chosen GPU
// holds and how fast it answers (each figure with its source), where the current instruction's
// sectors were served, the whole launch's bytes per level beside a session's measured bytes, and
// the latency-hiding timeline of one SM. Qt-free and unit-tested; MemoryScene only draws these.
#pragma once

#include "gpu/gpu_preset.h"
#include "launch/launch_geometry.h"
#include "sim/block_recording.h"
#include "sim/sim_stats.h"
#include "sim/simulator.h"
#include "sim/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

// One level of the hierarchy as the view labels it. Every figure says where it comes from.
struct MemoryLevelFacts {
    std::string name;      // "Registers", "L1 / shared memory", "L2", "DRAM (HBM)"
    std::string capacity;  // "256 KB per SM (shared memory up to 228 KB of it)"
    std::string latency;   // "30 cycles in the model; about 29-30 measured on Hopper [2]"
    std::string bandwidth; // "128 B per cycle per SM (33.4 TB/s for 132 SMs at 1980 MHz)"
    // From the session's measured memory ladder (its hierarchy record), "" without one:
    std::string measured;       // "shared 30 cycles (15 ns); L1 hit 33 cycles (17 ns) [5]", or "not measured"
    std::string measuredMethod; // how each figure was taken, one line per level (shown on hover)
};

// The facts for `preset`; `session` (optional) adds what its device and ceilings measured, and the
// latencies and bandwidths its hierarchy record measured on that GPU.
std::vector<MemoryLevelFacts> memoryLevelFacts(const gpu::GpuPreset& preset, const session::Session* session);
// True when `session` has a measured memory ladder: the facts table then shows "measured on your GPU".
bool hasMeasuredLadder(const session::Session* session);
// The sources the facts cite, numbered as the facts cite them ("[1] ...").
const std::vector<std::string>& memoryFactSources();

// Where the timing model served one sector of a global access.
enum class SectorLevel : std::uint8_t { L1, L2, Dram, Unknown };
const char* sectorLevelName(SectorLevel level); // "L1 hit", "L2", "DRAM", "not timed"
// One entry per sector of `access` in ascending address order (its `sectors` of them): loads hit in
// L1, in L2 or come from DRAM; stores stop at L2, atomics are done in L2 and read DRAM on a miss.
// Unknown past the 64th sector, for
// shared accesses, and when the timing model did not run.
std::vector<SectorLevel> sectorLevels(const sim::RecordedAccess& access);

// The whole launch's global-memory traffic per level: what the simulator's model says, and what a
// profile session measured for the same kernel at the same launch (the ncu metrics named).
struct MemoryFlow {
    double requestedBytes = 0; // bytes the lanes asked for
    double l1Bytes = 0;        // sectors through L1 x 32 (l1tex__t_bytes.sum)
    bool l1Known = true;       // false: the session did not measure l1tex__t_bytes.sum (not in the headline set)
    double l2Bytes = 0;        // L1 load misses, stores and atomics x 32 (lts__t_bytes.sum)
    double dramBytes = 0;      // L2 load misses and every stored sector (dram__bytes_read + _write)
    std::optional<double> l1HitRate, l2HitRate; // 0..1, global-load sectors; none without timing
    bool timed = false;        // the cache figures come from the timing model
};
MemoryFlow simulatedFlow(const sim::KernelStats& stats);

struct MeasuredFlow {
    std::optional<MemoryFlow> flow; // none when the session cannot be compared
    std::string note;               // where it was measured, or why it is not shown
};
// The session's measurement of kernel `kernelId` if it ran with the same grid, block and argument
// specs; otherwise `note` says what differs.
MeasuredFlow measuredFlow(const session::Session& session, const std::string& kernelId, const launch::Dim3& grid,
                          const launch::Dim3& block, const std::vector<std::string>& argSpecs);

// Latency hiding on one SM: its traced blocks' warps by cycles, each span an issue or a stall.
struct TimelineSpan {
    std::uint64_t begin = 0, end = 0; // cycles [begin, end)
    std::uint8_t stall = 0;           // sim::StallReason; None (0) is an issue
};
struct TimelineRow {
    std::uint32_t block = 0;
    std::uint16_t warp = 0;
    std::vector<TimelineSpan> spans;
};
struct LatencyTimeline {
    std::uint16_t sm = 0;
    std::vector<TimelineRow> rows;      // by block, then warp
    std::uint64_t cycles = 0;           // the last cycle any row reaches
    std::uint64_t issued = 0;           // warp-instructions issued
    std::uint64_t stallCycles[7] = {};  // warp-cycles waited, per sim::StallReason
    int schedulers = 4;
    bool truncated = false;             // the trace reached its cap: later issues are missing
    // Issue slots used: issued / (schedulers x cycles), 0..1.
    double issueSlotShare() const;
};
LatencyTimeline latencyTimeline(const sim::Trace& trace, std::uint16_t sm, int schedulers);

// The timeline's trace cap: 40 bytes per warp-instruction, so 16 MB at most.
inline constexpr std::uint64_t kTimelineMaxEvents = 400'000;

// Asks the simulation of `request` (options.recordBlock set) to trace the timeline's blocks: those
// timelineBlocks() gives for the recorded block, as many as the preset holds at once on one SM.
void requestTimelineTrace(sim::LaunchRequest& request);

// The blocks to trace for the timeline: the first `residentBlocks` that the simulator places on the
// SM holding `linearBlock` (block b runs on SM b mod SMs).
std::vector<std::uint64_t> timelineBlocks(std::uint64_t linearBlock, std::uint64_t blockCount, int smCount,
                                          int residentBlocks);

} // namespace warpscope::viz
