#include "sim/kernel_time.h"

#include "util/parse.h"

#include <cstdio>

namespace warpscope::sim {

KernelTime kernelTime(const KernelStats& stats, const gpu::GpuPreset& preset, std::uint64_t bufferBytes)
{
    KernelTime time;
    const TimingSummary& timing = stats.timing;
    if (!timing.available || preset.timing.coreClockMHz <= 0)
        return time;
    time.available = true;
    time.cycles = timing.cycles;
    time.overheadNs = preset.timing.launchOverheadNs;
    time.nanoseconds = time.overheadNs + static_cast<double>(timing.cycles) / preset.timing.coreClockMHz * 1e3;
    if (timing.scaledFromSample) {
        char waves[64];
        std::snprintf(waves, sizeof waves, "%.4g", timing.waveScale);
        time.method = "scaled from " + withThousands(static_cast<std::int64_t>(stats.blocksSimulated)) + " of " +
                      withThousands(static_cast<std::int64_t>(stats.blocksInGrid)) + " blocks: " +
                      withThousands(static_cast<std::int64_t>(timing.replayedBlocks)) +
                      " sampled blocks replayed on one SM, times " + waves + " for the " +
                      withThousands(static_cast<std::int64_t>(timing.blocksPerSm)) +
                      " blocks the busiest SM runs (whole waves of " + std::to_string(timing.residentBlocksPerSm) + ")";
        time.blindSpots.push_back("scaled from a sample of blocks");
    } else {
        time.method = "every block simulated";
    }
    // Same-address atomics queue in the model (one update per address per clock at L2, lanes of a
    // warp one after another in shared memory), but that rate is assumed, not measured.
    if (stats.global.atomicRequests > 0)
        time.blindSpots.push_back("global atomics (contention assumed, not measured)");
    if (stats.shared.atomicRequests > 0)
        time.blindSpots.push_back("shared atomics (contention assumed, not measured)");
    if (bufferBytes > 0 && bufferBytes <= preset.timing.l2Bytes)
        time.blindSpots.push_back("L2-resident working set");
    if (time.overheadNs > 0.5 * time.nanoseconds)
        time.blindSpots.push_back("launch overhead dominates");
    return time;
}

} // namespace warpscope::sim
