// The two measured ceilings of the roofline: device-to-device copy bandwidth (bytes read + written
// per second) and FP32 FMA throughput, each the best of several timed runs (CUDA events).
#pragma once

#include "driver_api.h"
#include "session/session.h"

namespace warpscope::probe {

// Fills the measured fields of `ceilings` (the theoretical ones are left as they are).
void measureCeilings(const DriverApi& driver, const session::DeviceRecord& device, session::CeilingsRecord& ceilings);

} // namespace warpscope::probe
