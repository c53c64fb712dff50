// Little's law for memory: to keep a memory system busy, the bytes in flight must equal its
// bandwidth times its latency (Little, "A Proof for the Queuing Formula L = lambda W", 1961; applied
// to GPUs in Volkov, "Understanding Latency Hiding on GPUs", PhD thesis, UC Berkeley, 2016). The
// numbers come from a GPU preset: its DRAM bandwidth (datasheet) and the timing model's DRAM latency
// (cycles, from published microbenchmarks) at its boost clock.
#pragma once

#include "gpu/gpu_preset.h"

namespace warpscope::perf {

struct BytesInFlight {
    double bandwidthBytesPerSecond = 0; // what must be sustained
    double latencySeconds = 0;          // how long each byte is in flight
    double bytesInFlight = 0;           // bandwidth x latency, the whole GPU
    double bytesInFlightPerSm = 0;      // divided over the SMs
    double warpLoadsInFlightPerSm = 0;  // per SM, in warp-wide loads of `bytesPerWarpLoad`
    double loadsPerWarp = 0;            // the same per resident warp at full occupancy
};

// `bytesPerWarpLoad`: bytes one warp-wide load instruction brings (128 for 32 lanes x 4 bytes).
// Throws InputError when bytesPerWarpLoad is not positive.
BytesInFlight bytesInFlight(const gpu::GpuPreset& preset, double bytesPerWarpLoad = 128.0);

// The same from explicit numbers: bandwidth in bytes/s, latency in seconds, SMs, resident warps per SM.
BytesInFlight bytesInFlight(double bandwidthBytesPerSecond, double latencySeconds, int smCount, int warpsPerSm,
                            double bytesPerWarpLoad);

} // namespace warpscope::perf
