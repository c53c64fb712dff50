// The execution trace: one compact event per warp instruction of the traced blocks, in the order the
// simulator issued them, so the viz can step, play and scrub through a kernel. Memory instructions
// carry the lanes' addresses and what they cost. The full grid is never traced by default: a trace
// costs sizeof(TraceEvent) (32 bytes) per warp instruction plus sizeof(TraceMemoryAccess) (280
// bytes) per memory instruction, so it is capped at TraceRequest::maxEvents.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace warpscope::sim {

inline constexpr std::uint32_t kTraceFormatVersion = 1;

struct TraceRequest {
    std::vector<std::uint64_t> blocks;        // linear block indices to trace
    std::uint64_t maxEvents = 4'000'000;      // about 128 MB of events at most, plus memory records
};

enum class TraceEventKind : std::uint8_t { Issue, BarrierWait, BarrierRelease, Exit };

struct TraceEvent {
    std::uint64_t step = 0;          // issue order within the trace (the timing model adds cycles)
    std::uint32_t block = 0;         // linear block index
    std::uint16_t warp = 0;          // warp within the block
    TraceEventKind kind = TraceEventKind::Issue;
    std::uint8_t conflictDegree = 0; // shared memory instructions
    std::int32_t pc = 0;             // instruction index
    std::uint32_t activeMask = 0;    // lanes active on the warp's current path
    std::uint32_t executedMask = 0;  // active lanes whose guard predicate was true
    std::int32_t memory = -1;        // index into Trace::memory, -1 for none
};
static_assert(sizeof(TraceEvent) == 32);

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
