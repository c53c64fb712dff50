// What one warp-wide memory instruction costs, from the addresses of its active lanes. Pure
// functions, unit-tested against hand-worked answers.
//
// Global memory (the L1TEX view, as Nsight Compute counts it): one request per warp instruction;
// the sectors are the distinct 32-byte blocks any active lane's bytes fall in; lines are the
// distinct 128-byte blocks. Bytes moved = sectors x 32.
//
// Shared memory: 32 banks, each 4 bytes wide; bank = (byte address / 4) mod 32. Accesses of 8 bytes
// per lane are served in two phases (half-warps), 16 bytes per lane in four (quarter-warps). In a
// phase, a bank must serve every distinct 4-byte word its lanes touch, one per wavefront; lanes
// reading the same word share it (broadcast). The phase's conflict degree is the largest number of
// distinct words in one bank; its wavefronts equal that degree. Bank conflicts = wavefronts beyond
// one per phase, which is what ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared counters count.
// At 16 bytes per lane, the second quarter-warp of a half-warp that reads exactly the words of the
// first shares its wavefronts (measured on an H200: memory_analysis.cpp) and is not a phase of its own.
#pragma once

#include <cstdint>
#include <span>

namespace warpscope::sim {

struct LaneAccess { // no default initialisers: the simulator fills arrays of these per instruction
    std::uint64_t address;
    std::uint32_t lane;
};

struct GlobalAccessCost {
    std::uint32_t requests = 0;
    std::uint32_t sectors = 0;
    std::uint32_t lines = 0;
    std::uint64_t bytesRequested = 0;
    std::uint64_t bytesMoved = 0;
};

struct SharedAccessCost {
    std::uint32_t phases = 0;
    std::uint32_t wavefronts = 0;
    std::uint32_t conflictDegree = 0; // the largest over phases (1 = conflict-free)
    std::uint32_t bankConflicts = 0;  // wavefronts - phases
};

// `accesses` are the active lanes' start addresses; every lane accesses `bytesPerLane` bytes.
// With `sectorsOut`, the distinct 32-byte sectors (their start addresses) are also listed there,
// ascending, the first `capacity` of them (cost.sectors in all).
GlobalAccessCost analyzeGlobalAccess(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane,
                                     std::uint64_t* sectorsOut = nullptr, std::uint32_t capacity = 0);
SharedAccessCost analyzeSharedAccess(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane);

// The distinct 32-byte sectors (their start addresses) an access touches, ascending; at most
// `capacity` listed, the count returned.
std::uint32_t collectSectors(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane,
                             std::uint64_t* sectorsOut, std::uint32_t capacity);

} // namespace warpscope::sim
