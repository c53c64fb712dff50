// Hardware counters through CUPTI's Range Profiler (cupti_range_profiler.h, with the host-side
// metric evaluation of cupti_profiler_host.h): auto ranges, kernel replay, one range per launch.
// Not the event/metric API (gone in CUDA 13) nor the deprecated cuptiProfilerBeginSession family.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object; // cupti_profiler_host.h

namespace warpscope::probe {

// Counter access refused (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, ncu's ERR_NVGPUCTRPERM).
class CountersNotPermitted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// How to allow counter access, for the user (one paragraph).
std::string counterPermissionHelp();

struct RangeMeasurement {
    std::map<std::string, double> values;
    std::size_t rangesDropped = 0;
    std::string replay = "kernel";     // "kernel" (CUPTI replays) or "user" (the probe replays each pass)
};

class RangeProfiler {
public:
    // Builds the configuration for `metrics` on the device. Metrics the chip does not know are
    // left out and listed by unavailable(). Throws CountersNotPermitted or CuptiError.
    RangeProfiler(CUcontext context, int deviceOrdinal, const std::vector<std::string>& metrics);
    ~RangeProfiler();
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    const std::string& chipName() const { return m_chip; }
    std::size_t passes() const { return m_passes; }
    const std::vector<std::string>& metrics() const { return m_metrics; }
    const std::vector<std::string>& unavailable() const { return m_unavailable; }
    const std::map<std::string, std::string>& units() const { return m_units; } // CUPTI's dimension units

    // Runs `launch` (one kernel launch, synchronised) under the profiler. Without `beforePass`,
    // CUPTI replays the kernel once per pass (kernel replay), restoring device memory between
    // passes. With it, the probe replays (user replay): before each pass `beforePass` restores the
    // inputs and flushes L2, then `launch` runs; `replay` is "user" or "kernel" afterwards.
    RangeMeasurement measure(const std::function<void()>& launch, const std::function<void()>& beforePass = {});

private:
    void initializeHost();
    void deinitializeHost();
    bool tryAddMetrics(const std::vector<std::string>& metrics);
    CUcontext m_context = nullptr;
    std::string m_chip;
    std::vector<std::uint8_t> m_availability;
    std::vector<std::uint8_t> m_config;
    std::vector<std::string> m_metrics, m_unavailable;
    std::map<std::string, std::string> m_units;
    std::size_t m_passes = 0;
    ::CUpti_Profiler_Host_Object* m_host = nullptr;
};

} // namespace warpscope::probe
