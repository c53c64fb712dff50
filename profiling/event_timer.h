// CUDA events around work on the legacy default stream: the probe's one way of timing with events.
// The ceilings, the cuBLAS reference, the memory ladder's bandwidths and the kernel timing under
// another profiler (when CUPTI refuses a second subscriber) all use it.
#pragma once

#include "driver_api.h"

#include <functional>

namespace warpscope::probe {

// Two events, created together and destroyed together (also when a driver call throws).
class EventTimer {
public:
    explicit EventTimer(const DriverApi& d);
    ~EventTimer();
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    // Milliseconds between an event recorded before `work` and one recorded after it; waits for the
    // second. `work` must enqueue on the legacy default stream (kernel launches with stream 0,
    // cuMemcpy*, cuBLAS without a stream set).
    float milliseconds(const std::function<void()>& work);

private:
    const DriverApi& m_d;
    CUevent m_start = nullptr;
    CUevent m_stop = nullptr;
};

// The shortest of `runs` timings of `work`, each after `beforeEach` (untimed; may be empty), such
// as an L2 flush. One untimed run of `work` comes first, so that no timed run pays for module
// loading, JIT or clocks ramping up.
float bestMilliseconds(const DriverApi& d, int runs, const std::function<void()>& work,
                       const std::function<void()>& beforeEach = {});

} // namespace warpscope::probe
