// The memory ladder measured on the user's GPU: pointer-chase latency for shared memory, an L1
// hit, an L2 hit, DRAM and a TLB miss, and read bandwidth for shared memory, L1, L2 and DRAM
// (memory_ladder_kernels.h says how). Needs the probe's context current.
#pragma once

#include "driver_api.h"
#include "session/session.h"

#include <functional>

namespace warpscope::probe {

// `flushL2` empties L2 (the probe's cache control) before each cold measurement. Throws DriverError.
session::HierarchyRecord measureHierarchy(const DriverApi& d, const session::DeviceRecord& device,
                                          const std::function<void()>& flushL2);

} // namespace warpscope::probe
