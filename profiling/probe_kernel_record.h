// The kernel record the probe writes for each target: what ran, from which source, at which launch
// size and cache control, and for which virtual architecture its PTX was compiled. No CUDA calls, so
// the unit tests build records without a GPU.
#pragma once

#include "kernel_target.h"
#include "probe_options.h"
#include "session/session.h"

#include <string>

namespace warpscope::probe {

// The virtual architecture of a target's PTX: a .cu file's is what NVRTC compiled it for (--compute,
// else NVRTC's default compute_75); a demo kernel's is the build's (its PTX's `.target sm_75` is
// compute_75 PTX); a .ptx file's is "" (nothing was compiled: its own .target line says what it needs).
std::string compiledCompute(const kernels::ResolvedTarget& target, const ProbeOptions& options);

// The record for `target`, resolved from `options` (its size and overrides).
session::KernelRecord probeKernelRecord(const kernels::ResolvedTarget& target, const ProbeOptions& options);

} // namespace warpscope::probe
