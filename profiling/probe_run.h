// warpscope-probe's two commands: list the GPUs, and profile kernels into a session stream.
#pragma once

#include "probe_options.h"

#include <atomic>
#include <iosfwd>

namespace warpscope::probe {

// Set by the SIGTERM/SIGINT handler; the probe stops after its current step (exit 4).
extern std::atomic<bool> g_cancelRequested;

int runProbe(const ProbeOptions& options, std::ostream& err);
int listDevices(const ProbeOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::probe
