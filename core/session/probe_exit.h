// warpscope-probe's exit codes, shared by the probe, `warpscope profile` and the app
// (profiling/README.md documents them).
#pragma once

namespace warpscope::session {

enum class ProbeExit : int {
    Ok = 0,        // measured; every output check passed
    Failure = 1,   // a kernel faulted or could not be loaded, CUPTI failed, or an output differed from its reference
    BadInput = 2,  // a flag, value, kernel, file or argument spec was wrong (one line on stderr)
    NoGpu = 3,     // no NVIDIA driver, no GPU, a GPU older than 7.5, or a driver older than the toolkit
    Cancelled = 4, // stopped by SIGTERM or SIGINT after the current step
};

} // namespace warpscope::session
