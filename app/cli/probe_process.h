// Runs warpscope-probe (or ssh running it on another machine) for `warpscope profile`, from an
// argument list and never through a local shell, and hands its stdout to the caller line by line
// as it arrives. POSIX, Qt-free.
//
// - Hang timeout: a probe that writes nothing for that long is stopped.
// - SIGINT and SIGTERM sent to warpscope are passed on, so Ctrl+C cancels the probe as its own
//   SIGTERM does (it finishes the current step, writes its end record and exits 4).
// - Stopping is SIGTERM to the probe's process group, then SIGKILL after a grace period; what was
//   read before stays with the caller.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::cli {

struct ProbeProcessResult {
    bool started = false;
    std::string startError;    // when !started: why (strerror of posix_spawnp)
    int waitStatus = 0;        // as waitpid gives it
    bool hung = false;         // it wrote nothing for the hang timeout and was stopped
    int passedOnSignal = 0;    // SIGINT or SIGTERM that warpscope received and passed on, else 0
};

// `argv[0]` is looked up on PATH when it has no '/'. `onLine` gets each stdout line without its
// newline (and a last line without one). Blocks until the process has exited.
ProbeProcessResult runProbeProcess(const std::vector<std::string>& argv, int hangTimeoutMs, int graceMs,
                                   const std::function<void(std::string_view line)>& onLine);

} // namespace warpscope::cli
