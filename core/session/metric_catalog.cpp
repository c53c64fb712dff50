#include "session/metric_catalog.h"

#include "session/session.h"
#include "util/input_error.h"

#include <cmath>
#include <cstdio>

namespace warpscope::session {

const std::vector<MetricInfo>& metricCatalog()
{
    using namespace metric;
    // Explanations follow the Nsight Compute Kernel Profiling Guide's metric descriptions.
    static const std::vector<MetricInfo> catalog = {
        {kDuration, "Kernel duration", "GPU time from the kernel's start to its end, as the profiler measured it (clocks locked as CUPTI sets them).", "ns", true},
        {kWarpsActive, "Achieved occupancy", "Average active warps per SM cycle as a share of the SM's maximum: what occupancy the kernel really reached.", "%", true},
        {kDramRead, "DRAM bytes read", "Bytes read from device memory (HBM/GDDR) into L2.", "bytes", true},
        {kDramWrite, "DRAM bytes written", "Bytes written from L2 back to device memory.", "bytes", true},
        {kDramThroughputPct, "DRAM throughput", "Device-memory traffic as a share of its peak over the kernel's duration.", "%", true},
        {kGlobalLoadRequests, "Global load requests", "Warp-level global load instructions sent to L1 (one per warp instruction).", "requests", true},
        {kGlobalLoadSectors, "Global load sectors", "32-byte sectors those loads touched; 4 per request is perfectly coalesced 4-byte access.", "sectors", true},
        {kGlobalStoreRequests, "Global store requests", "Warp-level global store instructions sent to L1.", "requests", true},
        {kGlobalStoreSectors, "Global store sectors", "32-byte sectors those stores touched.", "sectors", true},
        {kSharedLoadConflicts, "Shared load bank conflicts", "Extra shared-memory wavefronts loads needed because lanes hit the same bank at different addresses.", "conflicts", true},
        {kSharedStoreConflicts, "Shared store bank conflicts", "Extra shared-memory wavefronts stores needed because of bank conflicts.", "conflicts", true},
        {kSharedLoadWavefronts, "Shared load wavefronts", "Passes through the shared-memory banks that loads needed; one per instruction when conflict-free.", "wavefronts", true},
        {kSharedStoreWavefronts, "Shared store wavefronts", "Passes through the shared-memory banks that stores needed.", "wavefronts", true},
        {kBranchUniformPct, "Branch uniformity", "Share of branch instructions where every active thread of the warp went the same way (100% = no divergence).", "%", true},
        {kFadd, "FP32 adds", "Thread-level FADD instructions executed with a true predicate.", "instructions", true},
        {kFmul, "FP32 multiplies", "Thread-level FMUL instructions executed with a true predicate.", "instructions", true},
        {kFfma, "FP32 fused multiply-adds", "Thread-level FFMA instructions executed with a true predicate (2 FLOP each).", "instructions", true},
        {kL1HitRate, "L1 hit rate", "Share of sector lookups in L1/TEX that hit.", "%", true},
        {kL2HitRate, "L2 hit rate", "Share of sector lookups in L2 that hit.", "%", true},
        {kSmThroughputPct, "SM throughput", "The busiest SM pipeline or unit as a share of its peak: how close the kernel came to the compute limit.", "%", true},
        {kSmClock, "SM clock", "SM cycles per second during the kernel (the clock the profiler ran at).", "Hz", true},
        {kDramClock, "DRAM clock", "Device-memory cycles per second during the kernel.", "Hz", true},
        {kDramBytesPeak, "DRAM peak bytes per cycle", "The most bytes device memory can move per DRAM cycle; times the DRAM clock gives peak bandwidth.", "bytes/cycle", true},
        {kFfmaPeak, "FFMA peak per cycle", "The most FFMA thread instructions the GPU can issue per SM cycle; times 2 and the SM clock gives peak FP32 FLOP/s.", "inst/cycle", true},
        {kDramBytesPerSecond, "DRAM bandwidth achieved", "Bytes read and written to device memory per second of kernel time.", "bytes/s", true},
        {kL2BytesPerSecond, "L2 bandwidth achieved", "Bytes moved through L2 per second of kernel time.", "bytes/s", true},
        {kL2Bytes, "L2 bytes", "Bytes moved through L2 (requests from L1 and other clients).", "bytes", true},
        {kL1Bytes, "L1 bytes", "Bytes moved through L1/TEX: the hierarchical roofline's L1 traffic.", "bytes", true},
        {kL1BytesPeak, "L1 peak bytes per cycle", "The most bytes all SMs' L1/TEX units can move per L1 cycle; times the L1 clock gives the L1 roof.", "bytes/cycle", true},
        {kL1Clock, "L1 clock", "L1/TEX cycles per second during the kernel.", "Hz", true},
        {kL2BytesPeak, "L2 peak bytes per cycle", "The most bytes all L2 slices can move per L2 cycle; times the L2 clock gives the L2 roof.", "bytes/cycle", true},
        {kL2Clock, "L2 clock", "L2 cycles per second during the kernel.", "Hz", true},
        {kDramBytes, "DRAM bytes", "Bytes read plus written to device memory.", "bytes", false},
        {"smsp__inst_executed.sum", "Warp instructions", "Warp-level SASS instructions executed.", "instructions", false},
        {"smsp__thread_inst_executed.sum", "Thread instructions", "Thread-level SASS instructions executed (active, predicated-on lanes).", "instructions", false},
        {"sm__cycles_elapsed.avg", "SM cycles elapsed", "SM cycles from the kernel's start to its end, averaged over SMs.", "cycles", false},
        {"smsp__cycles_active.avg", "Sub-partition active cycles", "Cycles in which a scheduler had at least one warp resident.", "cycles", false},
        {"sm__warps_launched.sum", "Warps launched", "Warps the kernel launched across all SMs.", "warps", false},
        // The warp states (WarpStateStats): the timing model's stall shares are compared with these
        // (session/stall_comparison.h). Full set only: they cost replay passes.
        {"smsp__average_warp_latency_issue_stalled_selected.ratio", "Warp state: selected", "Warp cycles per issued instruction spent issuing: the cycle the scheduler picked the warp (no stall).", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio", "Stall: long scoreboard", "Warp cycles per issued instruction spent waiting for a result from L1TEX: global, local, texture or surface memory.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio", "Stall: short scoreboard", "Warp cycles per issued instruction spent waiting for a result from the MIO unit: shared memory or special-function instructions.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_wait.ratio", "Stall: wait", "Warp cycles per issued instruction spent in fixed waits ptxas placed for fixed-latency results.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_lg_throttle.ratio", "Stall: LG throttle", "Warp cycles per issued instruction spent waiting for room in the load/store unit's local and global queue.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_mio_throttle.ratio", "Stall: MIO throttle", "Warp cycles per issued instruction spent waiting for room in the MIO queue (shared memory, special functions).", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_barrier.ratio", "Stall: barrier", "Warp cycles per issued instruction spent at a block barrier waiting for the block's other warps.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_not_selected.ratio", "Stall: not selected", "Warp cycles per issued instruction spent ready while the scheduler picked another warp.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio", "Stall: math pipe throttle", "Warp cycles per issued instruction spent waiting for a busy arithmetic pipe.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_branch_resolving.ratio", "Stall: branch resolving", "Warp cycles per issued instruction spent waiting for a branch target.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_no_instruction.ratio", "Stall: no instruction", "Warp cycles per issued instruction spent waiting for the next instruction to be fetched.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio", "Stall: dispatch", "Warp cycles per issued instruction in which a picked instruction could not be dispatched.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_drain.ratio", "Stall: drain", "Warp cycles per issued instruction spent after EXIT waiting for memory writes to drain.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_imc_miss.ratio", "Stall: IMC miss", "Warp cycles per issued instruction spent waiting for the immediate-constant cache.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_membar.ratio", "Stall: memory barrier", "Warp cycles per issued instruction spent at a memory fence.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_misc.ratio", "Stall: misc", "Warp cycles per issued instruction stalled for ncu's other reasons.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_sleeping.ratio", "Stall: sleeping", "Warp cycles per issued instruction spent asleep or with every thread waiting.", "cycles/inst", false},
        {"smsp__average_warp_latency_issue_stalled_tex_throttle.ratio", "Stall: TEX throttle", "Warp cycles per issued instruction spent waiting for room in the texture unit's queue.", "cycles/inst", false},
    };
    return catalog;
}

const MetricInfo* findMetric(std::string_view name)
{
    for (const MetricInfo& info : metricCatalog())
        if (info.name == name)
            return &info;
    return nullptr;
}

std::vector<std::string> resolveMetricSet(std::string_view spec)
{
    std::vector<std::string> names;
    if (spec == "headline" || spec == "full") {
        for (const MetricInfo& info : metricCatalog())
            if (info.headline || spec == "full")
                names.emplace_back(info.name);
        return names;
    }
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t comma = spec.find(',', start);
        if (comma == std::string_view::npos)
            comma = spec.size();
        std::string_view name = spec.substr(start, comma - start);
        while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        if (name.empty())
            throw InputError("--metrics: empty metric name in '" + std::string(spec) +
                             "' (allowed: headline, full, or metric names separated by commas)");
        for (char c : name) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
            if (!ok)
                throw InputError("--metrics: '" + std::string(name) +
                                 "' is not a metric name (letters, digits, '_' and '.' only, as in dram__bytes_read.sum)");
        }
        bool seen = false;
        for (const std::string& existing : names)
            seen = seen || existing == name;
        if (!seen)
            names.emplace_back(name);
        start = comma + 1;
    }
    return names;
}

DerivedMetrics deriveMetrics(const MetricsRecord& record)
{
    const double nan = std::nan("");
    auto get = [&](const char* name) {
        auto it = record.values.find(name);
        return it == record.values.end() ? nan : it->second;
    };
    using namespace metric;
    DerivedMetrics d;
    d.durationSeconds = get(kDuration) * 1e-9;
    d.dramBytes = get(kDramRead) + get(kDramWrite);
    d.fp32Flops = get(kFadd) + get(kFmul) + 2.0 * get(kFfma);
    d.arithmeticIntensity = d.dramBytes > 0 ? d.fp32Flops / d.dramBytes : nan;
    d.achievedFlopsPerSecond = d.durationSeconds > 0 ? d.fp32Flops / d.durationSeconds : nan;
    d.achievedDramBytesPerSecond = get(kDramBytesPerSecond);
    if (std::isnan(d.achievedDramBytesPerSecond) && d.durationSeconds > 0)
        d.achievedDramBytesPerSecond = d.dramBytes / d.durationSeconds;
    d.achievedL2BytesPerSecond = get(kL2BytesPerSecond);
    if (std::isnan(d.achievedL2BytesPerSecond) && d.durationSeconds > 0)
        d.achievedL2BytesPerSecond = get(kL2Bytes) / d.durationSeconds;
    d.peakFp32FlopsPerSecond = 2.0 * get(kFfmaPeak) * get(kSmClock);
    d.peakDramBytesPerSecond = get(kDramBytesPeak) * get(kDramClock);
    const double loadRequests = get(kGlobalLoadRequests);
    const double storeRequests = get(kGlobalStoreRequests);
    d.globalLoadSectorsPerRequest = loadRequests > 0 ? get(kGlobalLoadSectors) / loadRequests : nan;
    d.globalStoreSectorsPerRequest = storeRequests > 0 ? get(kGlobalStoreSectors) / storeRequests : nan;
    d.sharedBankConflicts = get(kSharedLoadConflicts) + get(kSharedStoreConflicts);
    return d;
}

} // namespace warpscope::session

namespace warpscope::session {

namespace {

std::string fixed(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// Three significant digits, at least none after the point.
std::string significant(double value)
{
    const double magnitude = std::abs(value);
    return fixed(value, magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2);
}

} // namespace

std::string formatMetricValue(double value, std::string_view unit)
{
    if (std::isnan(value))
        return "n/a";
    const double magnitude = std::abs(value);
    if (unit == "ns" || unit == "nsecond") {
        if (magnitude >= 1e9) return significant(value / 1e9) + " s";
        if (magnitude >= 1e6) return significant(value / 1e6) + " ms";
        if (magnitude >= 1e3) return significant(value / 1e3) + " us";
        return significant(value) + " ns";
    }
    if (unit == "%" || unit == "percent")
        return fixed(value, 1) + " %";
    if (unit == "FLOP/s") {
        if (magnitude >= 1e12) return significant(value / 1e12) + " TFLOP/s";
        if (magnitude >= 1e9) return significant(value / 1e9) + " GFLOP/s";
        return significant(value / 1e6) + " MFLOP/s";
    }
    if (unit == "bytes/s" || unit == "byte/second")
        return significant(value / 1e9) + " GB/s";
    if (unit == "Hz" || unit == "cycle/second" || unit == "cycle/nsecond")
        return unit == "cycle/nsecond" ? significant(value) + " GHz" : significant(value / 1e6) + " MHz";
    if (unit == "bytes" || unit == "byte") {
        if (magnitude >= 1e9) return significant(value / 1e9) + " GB";
        if (magnitude >= 1e6) return significant(value / 1e6) + " MB";
        if (magnitude >= 1e3) return significant(value / 1e3) + " KB";
        return fixed(value, 0) + " B";
    }
    std::string suffix = unit.empty() ? std::string() : " " + std::string(unit);
    if (magnitude >= 1e9) return significant(value / 1e9) + " G" + suffix;
    if (magnitude >= 1e6) return significant(value / 1e6) + " M" + suffix;
    if (magnitude >= 1e4) return significant(value / 1e3) + " K" + suffix;
    if (value == std::floor(value)) return fixed(value, 0) + suffix;
    return significant(value) + suffix;
}

} // namespace warpscope::session
