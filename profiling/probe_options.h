// warpscope-probe's command line (hand-parsed: the probe builds with only CMake, a C++ compiler,
// the CUDA toolkit and the header-only JSON library, so no CLI11).
#pragma once

#include <string>
#include <vector>

namespace warpscope::probe {

// Exit codes, each with the message a user sees (profiling/README.md documents them).
enum class ProbeExit : int {
    Ok = 0,          // measured; every check passed
    Failure = 1,     // a kernel faulted, could not be loaded, or its outputs did not match the reference
    BadInput = 2,    // a flag, value, kernel or file was wrong (one line on stderr)
    NoGpu = 3,       // no NVIDIA driver, no GPU, an unsupported GPU, or a driver older than the toolkit
    Cancelled = 4,   // stopped by SIGTERM or SIGINT after the current step
};

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
    std::string kernel, grid, block, smem;
    std::vector<std::string> args;
    std::vector<std::string> targets; // demo ids, ladder:NAME, FILE.cu, FILE.ptx
};

// Throws InputError naming the flag and what is allowed.
ProbeOptions parseProbeOptions(int argc, char** argv);
std::string probeUsage();

} // namespace warpscope::probe
