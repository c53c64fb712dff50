#include "perf/littles_law.h"

#include "util/input_error.h"

#include <string>

namespace warpscope::perf {

BytesInFlight bytesInFlight(double bandwidthBytesPerSecond, double latencySeconds, int smCount, int warpsPerSm,
                            double bytesPerWarpLoad)
{
    if (!(bandwidthBytesPerSecond > 0) || !(latencySeconds > 0))
        throw InputError("bandwidth and latency must be positive");
    if (smCount < 1 || warpsPerSm < 1)
        throw InputError("SMs and warps per SM must be at least 1");
    if (!(bytesPerWarpLoad > 0))
        throw InputError("bytes per warp load must be positive (allowed: > 0, e.g. 128)");
    BytesInFlight result;
    result.bandwidthBytesPerSecond = bandwidthBytesPerSecond;
    result.latencySeconds = latencySeconds;
    result.bytesInFlight = bandwidthBytesPerSecond * latencySeconds;
    result.bytesInFlightPerSm = result.bytesInFlight / smCount;
    result.warpLoadsInFlightPerSm = result.bytesInFlightPerSm / bytesPerWarpLoad;
    result.loadsPerWarp = result.warpLoadsInFlightPerSm / warpsPerSm;
    return result;
}

BytesInFlight bytesInFlight(const gpu::GpuPreset& preset, double bytesPerWarpLoad)
{
    const double latency = preset.timing.dramLatency / (preset.timing.coreClockMHz * 1e6);
    return bytesInFlight(gpu::peakDramBytesPerSecond(preset), latency, preset.smCount, preset.maxWarpsPerSm(),
                         bytesPerWarpLoad);
}

} // namespace warpscope::perf
