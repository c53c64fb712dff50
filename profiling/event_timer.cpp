#include "event_timer.h"

#include <algorithm>
#include <limits>

namespace warpscope::probe {

EventTimer::EventTimer(const DriverApi& d) : m_d(d)
{
    WS_CU(d.cuEventCreate(&m_start, CU_EVENT_DEFAULT));
    try {
        WS_CU(d.cuEventCreate(&m_stop, CU_EVENT_DEFAULT));
    } catch (...) {
        d.cuEventDestroy(m_start);
        throw;
    }
}

EventTimer::~EventTimer()
{
    m_d.cuEventDestroy(m_start);
    m_d.cuEventDestroy(m_stop);
}

float EventTimer::milliseconds(const std::function<void()>& work)
{
    WS_CU(m_d.cuEventRecord(m_start, nullptr));
    work();
    WS_CU(m_d.cuEventRecord(m_stop, nullptr));
    WS_CU(m_d.cuEventSynchronize(m_stop));
    float ms = 0;
    WS_CU(m_d.cuEventElapsedTime(&ms, m_start, m_stop));
    return ms;
}

float bestMilliseconds(const DriverApi& d, int runs, const std::function<void()>& work,
                       const std::function<void()>& beforeEach)
{
    EventTimer timer(d);
    work();
    WS_CU(d.cuCtxSynchronize());
    float best = std::numeric_limits<float>::max();
    for (int run = 0; run < runs; ++run) {
        if (beforeEach)
            beforeEach();
        best = std::min(best, timer.milliseconds(work));
    }
    return best;
}

} // namespace warpscope::probe
