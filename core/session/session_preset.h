// The GPU a session measured, as a preset for the simulator: predictions compared with a session's
// measurements must model that GPU (its SMs, clock, L2, memory bandwidth), not a default one.
#pragma once

#include "gpu/gpu_preset.h"

#include <string>

namespace warpscope::session {

struct Session;

struct SessionPreset {
    gpu::GpuPreset preset;
    bool fromDevice = false;   // false: the session has no device record; `preset` is the H100 SXM default
    std::string dramSource;    // where the timing model's DRAM bandwidth comes from, one phrase
    std::string atomicSource;  // where its same-address atomic rate comes from: empty for the preset's assumption
};

// The built-in preset closest to the session's device (by name: "NVIDIA H200" -> H200 SXM; else the
// newest architecture not newer than its compute capability), with every number the device record
// holds put in: SM count, per-SM limits, clock, L2 size, and the DRAM bandwidth measured by the
// ceilings' device-to-device copy (or, without it, 2 x memory clock x bus width). The strings live
// for the life of the program.
SessionPreset sessionPreset(const Session& session);

} // namespace warpscope::session
