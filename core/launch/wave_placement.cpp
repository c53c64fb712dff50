#include "launch/wave_placement.h"

namespace warpscope::launch {

WavePlan planWaves(std::int64_t totalBlocks, int smCount, int blocksPerSm)
{
    WavePlan plan;
    plan.totalBlocks = totalBlocks;
    plan.smCount = smCount;
    plan.blocksPerSm = blocksPerSm;
    if (!plan.runnable() || smCount <= 0)
        return plan;
    plan.slotsPerWave = static_cast<std::int64_t>(smCount) * blocksPerSm;
    plan.waves = (totalBlocks + plan.slotsPerWave - 1) / plan.slotsPerWave;
    plan.tailBlocks = totalBlocks - (plan.waves - 1) * plan.slotsPerWave;
    plan.tailUtilization = static_cast<double>(plan.tailBlocks) / plan.slotsPerWave;
    plan.averageUtilization = static_cast<double>(totalBlocks) / (plan.waves * plan.slotsPerWave);
    return plan;
}

BlockSlot placeBlock(const WavePlan& plan, std::int64_t blockLinear)
{
    BlockSlot slot;
    if (plan.slotsPerWave == 0)
        return slot;
    slot.wave = blockLinear / plan.slotsPerWave;
    const std::int64_t inWave = blockLinear % plan.slotsPerWave;
    slot.sm = static_cast<int>(inWave % plan.smCount);
    slot.slot = static_cast<int>(inWave / plan.smCount);
    return slot;
}

} // namespace warpscope::launch
