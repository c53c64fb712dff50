// The preset the probe predicts with, from the device record alone (no CUDA calls, so it is tested
// without a GPU): the session machinery's choice (session::sessionPreset), so the probe's predictions
// and a later `session validate-timing` model the same GPU.
#pragma once

#include "session/session.h"
#include "session/session_preset.h"

namespace warpscope::probe {

// The built-in preset closest to `device` (by name: "NVIDIA H200" -> H200 SXM; else the newest not
// newer than its compute capability) with the record's limits, clock and L2, and the DRAM bandwidth
// measured by `ceilings`' device-to-device copy when given and measured, else 2 x memory clock x bus
// width. `dramSource` says which.
session::SessionPreset presetFromRecord(const session::DeviceRecord& device,
                                        const session::CeilingsRecord* ceilings = nullptr);

} // namespace warpscope::probe
