// Blocks placed onto SMs wave by wave. A MODEL, labelled as such in the app: NVIDIA does not document
// the order in which the block scheduler hands blocks to SMs. We assume every block takes the same
// time, a wave holds (SMs x resident blocks per SM) blocks, and block i of a wave goes to SM
// (i mod SMs), filling the SMs breadth-first, one resident slot at a time.
#pragma once

#include <cstdint>

namespace warpscope::launch {

struct WavePlan {
    std::int64_t totalBlocks = 0;
    int smCount = 0;
    int blocksPerSm = 0;           // from occupancy
    std::int64_t slotsPerWave = 0; // smCount * blocksPerSm
    std::int64_t waves = 0;        // ceil(totalBlocks / slotsPerWave)
    std::int64_t tailBlocks = 0;   // blocks in the last wave (== slotsPerWave when it is full)
    double tailUtilization = 0.0;  // tailBlocks / slotsPerWave
    double averageUtilization = 0.0; // totalBlocks / (waves * slotsPerWave)
    bool runnable() const { return blocksPerSm > 0 && totalBlocks > 0; }
};

struct BlockSlot {
    std::int64_t wave = 0;
    int sm = 0;
    int slot = 0; // resident slot on that SM, 0..blocksPerSm-1
};

WavePlan planWaves(std::int64_t totalBlocks, int smCount, int blocksPerSm);
BlockSlot placeBlock(const WavePlan& plan, std::int64_t blockLinear);

} // namespace warpscope::launch
