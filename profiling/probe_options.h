// warpscope-probe's command line (hand-parsed: the probe builds with only CMake, a C++ compiler,
// the CUDA toolkit and the header-only JSON library, so no CLI11).
#pragma once

#include "session/probe_exit.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::probe {

using session::ProbeExit; // the exit codes, core/session/probe_exit.h

struct ProbeOptions {
    bool listDevices = false;       // --devices
    bool json = false;              // --json (with --devices)
    bool help = false;
    bool version = false;
    int device = 0;                 // --device N
    std::string metrics = "headline";
    int runs = 5;                   // timed runs per kernel
    std::string out;                // --out FILE (default stdout)
    bool ceilings = true;           // --no-ceilings
    bool counters = true;           // --no-counters: Activity timings only
    bool hierarchy = true;          // --no-hierarchy: skip the memory ladder (latency and bandwidth per level)
    std::string size = "gpu";       // --size gpu|sim: which of a demo manifest's launch sizes
    std::string cacheControl = "all"; // --cache-control all|none: flush L2 before every timed run and replay pass
    std::uint64_t sampleBlocks = 0; // --sample-blocks N: blocks the prediction simulates; 0 = automatic
    std::string compute;            // --compute compute_XX: NVRTC's virtual architecture for FILE.cu (compute_75 when empty)
    bool cooperative = false;       // --cooperative: cuLaunchCooperativeKernel, for kernels that call grid.sync()
    std::string kernel, grid, block, smem;
    std::vector<std::string> args;
    std::vector<std::string> targets; // demo ids, ladder:NAME, FILE.cu, FILE.ptx
};

// The blocks the prediction simulates when --sample-blocks is 0: every block of a grid of up to
// kAutoSampleBlocks, otherwise a sample (the first, the last and evenly spread ones) of as many as
// the simulator runs in about kAutoSampleSeconds on this machine, from kMinAutoSampleBlocks up to
// kAutoSampleBlocks.
inline constexpr std::uint64_t kAutoSampleBlocks = 256;
inline constexpr std::uint64_t kMinAutoSampleBlocks = 16;
inline constexpr double kAutoSampleSeconds = 20.0;

// That choice for a grid of `blocks` whose full simulation would take `secondsForAll` (0: not
// known, then kAutoSampleBlocks); 0 means every block.
std::uint64_t autoSampleBlocks(std::uint64_t blocks, double secondsForAll);

// The one-line refusal when PTX compiled for `compute` (compute_XX) cannot run on a device of compute
// capability major.minor (it needs XX / 10 . XX % 10 or newer), else empty. An empty `compute` (the
// default, compute_75) always fits: the probe refuses devices older than 7.5 anyway.
std::string computeTooNewForDevice(const std::string& compute, int device, const std::string& deviceName, int major,
                                   int minor);

// Throws InputError naming the flag and what is allowed.
ProbeOptions parseProbeOptions(int argc, char** argv);
std::string probeUsage();

} // namespace warpscope::probe
