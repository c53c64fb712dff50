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

#include <array>
#include <cstddef>
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

// ---- One lane of the current access, as the stepper's figures show it on hover ----

// "0x55555555": a lane mask as the lessons write it (bit i is lane i).
std::string laneMaskHex(std::uint32_t mask);

// The cell (0..cells-1) under screen x in a row of `cells` cells `cell` px wide from `left`; -1
// outside it. A row of lanes is 32 cells; a phase of 8-byte lanes, 16.
int laneAtX(double x, double left, double cell, int cells = 32);

// Shared memory as the bank grid draws it. Lanes are served in phases (32 lanes up to 4 bytes each,
// half-warps for 8, quarter-warps for 16, as sim/memory_analysis.h counts them); in a phase each bank
// serves its distinct 4-byte words one per wavefront. The grid lists a bank's words by address, so
// its k-th word is drawn in the phase's k-th wavefront row. (Which word a real bank serves first is
// not documented; the count is what the hardware's counters give.)
struct BankWord {
    std::uint64_t word = 0;  // byte offset / 4
    std::uint32_t lanes = 0; // the lanes that touch it (several: a broadcast)
};
struct SharedPhase {
    std::uint32_t firstLane = 0, lastLane = 31;
    std::uint32_t wavefronts = 0;     // the most distinct words in one of its banks; 0 without lanes
    std::uint32_t firstWavefront = 0; // 0-based over the whole access: the earlier phases' wavefronts
    // 16 bytes per lane: this quarter-warp reads exactly the words the quarter-warp before it read, so
    // it rides on that one's wavefronts (wavefronts 0, firstWavefront the other's), as
    // sim::analyzeSharedAccess counts it.
    bool sharesPrevious = false;
    std::array<std::vector<BankWord>, 32> banks;
};
std::vector<SharedPhase> sharedBankGrid(const sim::RecordedAccess& access);

struct SharedLaneWord {
    std::uint32_t bank = 0;
    std::uint32_t wavefront = 0; // 1-based over the whole access
    bool broadcast = false;      // other lanes read the same word in the same wavefront
};
struct SharedLaneInspection {
    bool active = false;
    std::uint64_t address = 0;           // byte offset in the block's shared memory
    std::uint32_t bytes = 0;
    std::uint32_t wavefronts = 0;        // the whole access's
    std::vector<SharedLaneWord> words;   // one per 4-byte word the lane touches
};
SharedLaneInspection inspectSharedLane(const sim::RecordedAccess& access, std::uint32_t lane);
// "lane 5 → byte 20 (0x14) → bank 5 → wavefront 1 of 1"
std::string describeSharedLane(std::uint32_t lane, const SharedLaneInspection& inspection);

// Global memory: lane -> its address -> the 32-byte sector its first byte falls in (numbered among
// the access's sectors, ascending, with the level that served it) -> that sector's 128-byte line.
struct GlobalLaneInspection {
    bool active = false;
    bool outOfBounds = false;     // no allocation holds the lane's bytes (an out-of-bounds hazard)
    std::uint64_t address = 0;
    std::uint32_t bytes = 0;
    std::uint64_t sector = 0;     // start address
    std::uint32_t sectorIndex = 0, sectors = 0;
    std::uint32_t sectorSpan = 1; // sectors the lane's bytes cover (2 only for a misaligned access)
    std::uint64_t line = 0;       // start address
    std::uint32_t lineIndex = 0, lines = 0;
    SectorLevel level = SectorLevel::Unknown;
};
// `outOfBoundsLanes`: from outOfBoundsLanes() below.
GlobalLaneInspection inspectGlobalLane(const sim::RecordedAccess& access, std::uint32_t lane, std::uint32_t outOfBoundsLanes);
// "lane 8 → 0x7f0000000fa0 → sector 5 of 8 (0x7f0000000fa0, from DRAM) → line 2 of 3 (0x7f0000000f80)"
std::string describeGlobalLane(std::uint32_t lane, const GlobalLaneInspection& inspection);
// The lanes whose global access at recorded step `step` fell outside every allocation: the
// out-of-bounds hazards the recording holds for that step.
std::uint32_t outOfBoundsLanes(const sim::BlockRecording& recording, std::size_t step);

// The memory view's packets travel once per step, then rest where they were served: packet i leaves
// i x kPacketStaggerSeconds after the step is first drawn and takes kPacketTripSeconds.
inline constexpr double kPacketTripSeconds = 1.5;
inline constexpr double kPacketStaggerSeconds = 0.024;
// When the last of `packets` arrives (0 for none): the animation's length, after which the view is still.
double packetAnimationSeconds(std::size_t packets);
// How far packet `index` is along its path `elapsed` seconds after the step was first drawn, 0..1.
double packetProgress(double elapsed, std::size_t index);

} // namespace warpscope::viz
