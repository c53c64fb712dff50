// The execution trace: one compact event per warp instruction of the traced blocks, in the order the
// simulator issued them, so the viz can step, play and scrub through a kernel. Memory instructions
// carry the lanes' addresses and what they cost. The full grid is never traced by default: a trace
// costs sizeof(TraceEvent) (40 bytes) per warp instruction plus sizeof(TraceMemoryAccess) (264
// bytes) per memory instruction, so it is capped at TraceRequest::maxEvents.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace warpscope::sim {

inline constexpr std::uint32_t kTraceFormatVersion = 1;

struct TraceRequest {
    std::vector<std::uint64_t> blocks;        // linear block indices to trace
    std::uint64_t maxEvents = 4'000'000;      // 160 MB of events at most, plus memory records
};

enum class TraceEventKind : std::uint8_t { Issue, BarrierRelease, Exit };

struct TraceEvent {
    std::uint64_t cycle = 0;         // the timing model's issue cycle (a model, not a measurement)
    std::uint32_t block = 0;         // linear block index
    std::uint16_t warp = 0;          // warp within the block
    std::uint16_t sm = 0;            // the SM the timing model placed the block on
    std::int32_t pc = 0;             // instruction index
    std::uint32_t activeMask = 0;    // lanes active on the warp's current path
    std::uint32_t executedMask = 0;  // active lanes whose guard predicate was true
    std::int32_t memory = -1;        // index into Trace::memory, -1 for none
    std::uint32_t stallCycles = 0;   // cycles the warp waited before this issue
    TraceEventKind kind = TraceEventKind::Issue;
    std::uint8_t conflictDegree = 0; // shared memory instructions
    std::uint8_t stallReason = 0;    // sim::StallReason of the longest part of that wait
    std::uint8_t reserved = 0;
};
static_assert(sizeof(TraceEvent) == 40);

struct TraceMemoryAccess {
    std::array<std::uint64_t, 32> addresses{}; // per lane (0 for lanes that did not access)
    std::uint16_t sectors = 0;                 // global: distinct 32-byte sectors
    std::uint16_t wavefronts = 0;              // shared
    std::uint16_t bytesPerLane = 0;
    std::uint8_t space = 0;                    // ptx::Space
    std::uint8_t isStore = 0;
};

struct Trace {
    std::uint32_t version = kTraceFormatVersion;
    std::vector<TraceEvent> events;
    std::vector<TraceMemoryAccess> memory;
    bool truncated = false; // maxEvents was reached
};

} // namespace warpscope::sim
