// Statistics the simulator always collects for the whole grid: per instruction (indexed like the
// function's instructions), and their sums for the kernel and per CUDA source line.
#pragma once

#include "ptx/ptx_ir.h"
#include "sim/timing_model.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpscope::sim {

struct InstructionCounters {
    std::uint64_t warpExecutions = 0;   // times a warp issued it (guarded-off lanes included)
    std::uint64_t threadExecutions = 0; // active lanes whose guard was true
    std::uint64_t globalRequests = 0;
    std::uint64_t globalSectors = 0;
    std::uint64_t globalLines = 0;
    std::uint64_t bytesRequested = 0;
    std::uint64_t bytesMoved = 0;
    std::uint64_t sharedRequests = 0;
    std::uint64_t sharedWavefronts = 0;
    std::uint64_t sharedBankConflicts = 0;
    std::uint32_t maxConflictDegree = 0;
    std::uint64_t branchesUniform = 0;
    std::uint64_t branchesDivergent = 0;

    void add(const InstructionCounters& other)
    {
        warpExecutions += other.warpExecutions;
        threadExecutions += other.threadExecutions;
        globalRequests += other.globalRequests;
        globalSectors += other.globalSectors;
        globalLines += other.globalLines;
        bytesRequested += other.bytesRequested;
        bytesMoved += other.bytesMoved;
        sharedRequests += other.sharedRequests;
        sharedWavefronts += other.sharedWavefronts;
        sharedBankConflicts += other.sharedBankConflicts;
        maxConflictDegree = std::max(maxConflictDegree, other.maxConflictDegree);
        branchesUniform += other.branchesUniform;
        branchesDivergent += other.branchesDivergent;
    }
};

struct GlobalMemoryStats {
    std::uint64_t loadRequests = 0, loadSectors = 0, storeRequests = 0, storeSectors = 0;
    std::uint64_t atomicRequests = 0, atomicSectors = 0;
    std::uint64_t bytesRequested = 0, bytesMoved = 0;
};

struct SharedMemoryStats {
    std::uint64_t loadRequests = 0, storeRequests = 0, atomicRequests = 0;
    std::uint64_t loadWavefronts = 0, storeWavefronts = 0, atomicWavefronts = 0;
    std::uint64_t bankConflicts = 0;
    std::uint32_t maxConflictDegree = 0;
};

struct LineStats {
    std::string file;
    std::int32_t line = 0;
    InstructionCounters counters;
};

// The timing model's results for the whole launch (a model: see timing_model.h).
struct TimingSummary {
    bool available = false;          // false when timing was off, capped, cancelled or unfinished
    std::uint64_t cycles = 0;        // the slowest SM's
    int residentBlocksPerSm = 0;
    int registersPerThread = 0;      // the assumption behind residentBlocksPerSm
    std::uint64_t l1BytesPerSm = 0;  // L1 left by the shared-memory carveout
    std::uint64_t l1Hits = 0, l1Misses = 0, l2Hits = 0, l2Misses = 0; // global-load sectors
    std::uint64_t dramBytes = 0;
    StallCycles stalls;
    // A sample of blocks (SimOptions::sampleBlocks): the busiest SM's share of the grid is replayed
    // from sampled blocks, and its cycles scaled by the waves it needs (see simulator.h).
    bool scaledFromSample = false;
    std::uint64_t replayedBlocks = 0; // blocks replayed on the one modelled SM
    std::uint64_t blocksPerSm = 0;    // blocks the busiest SM runs in the whole grid
    double waveScale = 1;             // cycles = the replay's cycles x waveScale
};

struct KernelStats {
    std::uint64_t warpInstructions = 0;
    std::uint64_t threadInstructions = 0;
    std::uint64_t blocksSimulated = 0;
    std::uint64_t warpsSimulated = 0;
    std::uint64_t blocksInGrid = 0;      // the launch's blocks
    bool scaledFromSample = false;       // SimOptions::sampleBlocks: counts scaled by blocksInGrid / blocksSimulated
    GlobalMemoryStats global;
    SharedMemoryStats shared;
    std::uint64_t branchesUniform = 0;
    std::uint64_t branchesDivergent = 0;
    std::uint64_t barriers = 0;          // bar.sync completions, per block
    std::uint64_t cyclesEstimate = 0;    // from the timing model (a model, not a measurement)
    TimingSummary timing;
    std::vector<InstructionCounters> perInstruction;

    // uniform / (uniform + divergent); 1 when the kernel has no branches (as ncu reports 100%).
    double branchEfficiency() const
    {
        const std::uint64_t total = branchesUniform + branchesDivergent;
        return total == 0 ? 1.0 : static_cast<double>(branchesUniform) / static_cast<double>(total);
    }
    // Per CUDA source line, in file then line order; instructions without line info are skipped.
    std::vector<LineStats> perSourceLine(const ptx::Module& module, const ptx::Function& function) const;
};

} // namespace warpscope::sim
