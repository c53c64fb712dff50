// The metrics Warpscope asks CUPTI's Range Profiler for: the ncu name, a plain-language name, a
// one-line explanation, the unit, and which set ("headline" or "full") includes it. The app's
// metrics table, `warpscope profile --metrics` and the probe all read this one list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {

struct MetricInfo {
    std::string_view name;        // as ncu and CUPTI spell it
    std::string_view title;       // plain language, "Global load sectors"
    std::string_view explanation; // one line, shown on hover
    std::string_view unit;        // "ns", "bytes", "%", "sectors", "requests", "Hz", "per cycle", ...
    bool headline = false;        // in the default set (otherwise "full" only)
};

const std::vector<MetricInfo>& metricCatalog();
const MetricInfo* findMetric(std::string_view name);

// "headline", "full", or a comma-separated list of metric names (any name CUPTI knows; names not
// in the catalog are allowed and shown by their ncu name). Throws InputError for an empty list or
// a name with characters a metric name cannot have.
std::vector<std::string> resolveMetricSet(std::string_view spec);

// The metric names a roofline needs (peaks and clocks), always added to the headline set.
namespace metric {
inline constexpr const char* kDuration = "gpu__time_duration.sum";
inline constexpr const char* kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kDramRead = "dram__bytes_read.sum";
inline constexpr const char* kDramWrite = "dram__bytes_write.sum";
inline constexpr const char* kDramThroughputPct = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* kBranchUniformPct = "smsp__sass_average_branch_targets_threads_uniform.pct";
inline constexpr const char* kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr const char* kL1HitRate = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
inline constexpr const char* kSmThroughputPct = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* kSmClock = "sm__cycles_elapsed.avg.per_second";
inline constexpr const char* kDramClock = "dram__cycles_elapsed.avg.per_second";
inline constexpr const char* kDramBytesPeak = "dram__bytes.sum.peak_sustained";
inline constexpr const char* kFfmaPeak = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained";
inline constexpr const char* kDramBytesPerSecond = "dram__bytes.sum.per_second";
inline constexpr const char* kL2BytesPerSecond = "lts__t_bytes.sum.per_second";
inline constexpr const char* kL2Bytes = "lts__t_bytes.sum";
// The hierarchical roofline's L1 and L2 inputs: bytes per level and each level's peak bytes per
// cycle and clock (core/session/roofline.h). Constants for the GPU, so they cost no replay pass.
inline constexpr const char* kL1Bytes = "l1tex__t_bytes.sum";
inline constexpr const char* kL1BytesPeak = "l1tex__t_bytes.sum.peak_sustained";
inline constexpr const char* kL1Clock = "l1tex__cycles_elapsed.avg.per_second";
inline constexpr const char* kL2BytesPeak = "lts__t_bytes.sum.peak_sustained";
inline constexpr const char* kL2Clock = "lts__cycles_elapsed.avg.per_second";
inline constexpr const char* kDramBytes = "dram__bytes.sum";
} // namespace metric

// Derived quantities, computed the way ncu's roofline and memory sections compute them; NaN where
// an input was not measured. SI units (seconds, bytes/s, FLOP/s).
struct DerivedMetrics {
    double durationSeconds = 0;
    double dramBytes = 0;             // read + write
    double fp32Flops = 0;             // fadd + fmul + 2 x ffma
    double arithmeticIntensity = 0;   // FLOP per DRAM byte
    double achievedFlopsPerSecond = 0;
    double achievedDramBytesPerSecond = 0;
    double achievedL2BytesPerSecond = 0;
    double peakFp32FlopsPerSecond = 0; // 2 x FFMA peak per cycle x SM clock (0 if not measured)
    double peakDramBytesPerSecond = 0; // DRAM bytes peak per cycle x DRAM clock
    double globalLoadSectorsPerRequest = 0;
    double globalStoreSectorsPerRequest = 0;
    double sharedBankConflicts = 0;    // ld + st
};

struct MetricsRecord;
DerivedMetrics deriveMetrics(const MetricsRecord& record);

} // namespace warpscope::session

namespace warpscope::session {

// A value with its unit for people: "1.25 ms", "812.4 GB/s", "93.1 %", "4.19 M sectors".
// `unit` is the catalog's ("ns", "bytes", "bytes/s", "%", "Hz", ...) or CUPTI's dimension unit.
std::string formatMetricValue(double value, std::string_view unit);

} // namespace warpscope::session
