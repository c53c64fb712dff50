// The timing model's duration of a whole launch, in nanoseconds, with how it was obtained and the
// model's known blind spots for this kernel: what `sim`, `session validate-timing` and the profile's
// predicted-vs-measured rows show beside a measured time. A model, not a measurement.
#pragma once

#include "gpu/gpu_preset.h"
#include "sim/sim_stats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {

struct KernelTime {
    bool available = false;
    double nanoseconds = 0;        // launch overhead + cycles at the preset's clock
    double overheadNs = 0;         // of which launch and drain (TimingParameters::launchOverheadNs)
    std::uint64_t cycles = 0;
    std::string method;            // "every block simulated", "scaled from 256 of 1,048,576 blocks: ..."
    std::vector<std::string> blindSpots; // short keys' phrases: "global atomics", "L2-resident working set", ...
};

// `bufferBytes`: the launch's buffers together (its working set at most).
KernelTime kernelTime(const KernelStats& stats, const gpu::GpuPreset& preset, std::uint64_t bufferBytes);

} // namespace warpscope::sim
