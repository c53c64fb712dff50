// Hazards the simulator finds while running a kernel, each with where it happened (block, thread,
// lane, instruction, source line) and what it touched (address, buffer). Identical hazards (same
// kind at the same instruction) are counted once; the occurrence kept is the first block's (then
// the first warp's; within a warp the earliest), whatever order the host threads ran the blocks in.
#pragma once

#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::sim {

enum class HazardKind : std::uint8_t {
    OutOfBoundsGlobal,       // a lane's access is outside every allocation
    OutOfBoundsShared,       // outside the block's shared memory (static + dynamic)
    OutOfBoundsLocal,        // outside the thread's local memory
    SharedRace,              // two threads touch one shared word, one writes, no barrier between
    BarrierDivergence,       // bar.sync reached by part of a warp, or by some warps while others exit
    UninitializedSharedRead, // a shared word read before any thread of the block wrote it
    WarpSyncMismatch,        // shfl/vote/bar.warp.sync whose member mask leaves out an active lane
    ShflInactiveSource,      // a shuffle reads a lane that is inactive or not in the member mask
    DivisionByZero,          // integer division or remainder by zero (the result is undefined)
    MisalignedAccess,        // an address not a multiple of the access size
    AsyncCopyInFlight,       // shared memory read or written while a cp.async into it has not landed
    MbarrierMisuse,          // an mbarrier used before init, or initialised with a count out of range
    MbarrierDeadlock,        // every warp of the block waits on mbarrier phases that cannot complete
    WarpLivelock,            // lanes spin waiting for lanes of their warp that the warp model never runs
};

const char* hazardKindName(HazardKind kind); // "shared_race"

struct Hazard {
    HazardKind kind = HazardKind::OutOfBoundsGlobal;
    std::string kernel;
    launch::Dim3 block;   // blockIdx
    launch::Dim3 thread;  // threadIdx
    std::int32_t warp = 0;
    std::int32_t lane = 0;
    std::int32_t pc = 0;       // instruction index
    std::int32_t ptxLine = 0;
    ptx::SourceLocation source;
    std::string sourceFile;    // from the module's .file table, empty when unknown
    std::uint64_t address = 0;
    std::string buffer;        // the allocation or variable involved, when known
    std::string message;       // one sentence a learner can act on
    std::uint64_t occurrences = 1;
    std::int64_t otherThread = -1; // SharedRace: the block's linear thread that made the earlier access
    bool otherWrote = false;       // SharedRace: that access was a write (else a read)
    // Warp-level hazards (shuffles, warp syncs, barriers): every lane of the warp involved, and the
    // lanes on the other side (a shuffle's source lanes, the lanes a barrier or sync waited for).
    std::uint32_t lanes = 0;
    std::uint32_t otherLanes = 0;
};

// "lane 5", "lanes 0-3, 8, 10-12": a lane mask for a sentence.
std::string describeLanes(std::uint32_t mask);

// One line per hazard, as `warpscope sim` prints it in its summary and on standard error with --dump:
// "shfl_inactive_source at PTX line 212 (reduce.cu:17), block 0 thread 0 (warp 0 lane 0): <message>
// [1,024 times]" (the place in brackets when the PTX has line information; the count when above one),
// then hazardOnTheGpu's sentences where the kind has them.
std::string describeHazard(const Hazard& hazard);

// What a GPU does where the simulator can only pick a value, when the PTX does not decide it: for a
// shuffle that reads a lane not executing it, the value depends on ptxas's register allocation, so a
// GPU may well give the intended result and a passing test proves nothing. Empty for other kinds.
std::string hazardOnTheGpu(HazardKind kind);

// The lanes of one warp-wide access that fell outside their memory, gathered while the instruction
// runs so that it is reported once, naming every lane; the report names the lowest address (for
// an access past the end, the element nearest to it).
class OutOfBoundsLanes {
public:
    void add(std::uint32_t lane, std::uint64_t address, std::uint32_t bytes);
    bool empty() const { return m_accesses == 0; }
    std::uint32_t lanes() const { return m_lanes; }
    std::uint32_t lowestLane() const { return m_lowestLane; }
    std::uint64_t lowestAddress() const { return m_lowestAddress; }
    std::uint32_t lowestBytes() const { return m_lowestBytes; } // that access's size
    std::uint64_t accesses() const { return m_accesses; }       // lane accesses (a lane may make several)
    void clear() { *this = OutOfBoundsLanes{}; }

private:
    std::uint32_t m_lanes = 0;
    std::uint32_t m_lowestLane = 0;
    std::uint64_t m_lowestAddress = 0;
    std::uint32_t m_lowestBytes = 0;
    std::uint64_t m_accesses = 0;
};

class HazardLog {
public:
    explicit HazardLog(std::size_t maxDistinct = 64) : m_maxDistinct(maxDistinct) {}
    // Records a hazard; thread-safe.
    void report(Hazard hazard);
    std::vector<Hazard> hazards() const; // by kind, then pc
    bool empty() const;

private:
    mutable std::mutex m_mutex;
    std::size_t m_maxDistinct;
    std::map<std::pair<int, int>, Hazard> m_hazards; // (kind, pc) -> first occurrence + count
};

} // namespace warpscope::sim
