#include "session/roofline.h"

#include "session/metric_catalog.h"
#include "session/session.h"
#include "sim/kernel_args.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::session {

namespace {

// L1 bytes per cycle per SM when the session lacks l1tex__t_bytes.sum.peak_sustained: 32 shared
// memory banks of 4 bytes each per clock (CUDA C++ Programming Guide, shared memory of compute
// capability 5.x and later), and L1 and shared memory are one data array from compute capability
// 7.0 on. Luo et al. measured 125.8 B/cycle/SM for L1 on the H800 (arXiv:2501.12084, Table 5); the
// simulator's presets use the same 128 (core/gpu/gpu_preset.h, l1SectorsPerCycle x 32).
constexpr double kL1BytesPerCyclePerSm = 128.0;

std::optional<double> value(const MetricsRecord& record, const char* name)
{
    auto it = record.values.find(name);
    if (it == record.values.end() || !std::isfinite(it->second))
        return std::nullopt;
    return it->second;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// The median over the session's kernels of `perCycle` x `perSecond`, where both were measured and
// positive. These are properties of the GPU, the same for every kernel but for clock jitter; the
// median keeps one odd kernel from moving the roof.
std::optional<double> medianProduct(const Session& session, const char* perCycle, const char* perSecond, std::size_t& kernels)
{
    std::vector<double> products;
    for (const MetricsRecord& m : session.metrics) {
        const auto a = value(m, perCycle), b = value(m, perSecond);
        if (a && b && *a > 0 && *b > 0)
            products.push_back(*a * *b);
    }
    kernels = products.size();
    if (products.empty())
        return std::nullopt;
    return median(products);
}

std::string number(double value, const char* format)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string kernelCount(std::size_t n) { return std::to_string(n) + (n == 1 ? " kernel" : " kernels"); }

std::vector<std::string> kernelIds(const Session& session)
{
    std::vector<std::string> ids;
    auto add = [&](const std::string& id) {
        if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    };
    for (const KernelRecord& k : session.kernels)
        add(k.id);
    for (const MetricsRecord& m : session.metrics) // a damaged stream may lack the kernel record
        add(m.kernel);
    return ids;
}

std::optional<double> levelBytes(const MetricsRecord& m, MemoryLevel level)
{
    using namespace metric;
    switch (level) {
    case MemoryLevel::L1:
        return value(m, kL1Bytes);
    case MemoryLevel::L2:
        return value(m, kL2Bytes);
    case MemoryLevel::Dram: {
        const auto read = value(m, kDramRead), write = value(m, kDramWrite);
        if (read && write)
            return *read + *write;
        return value(m, kDramBytes); // the full set's sum, when only it was asked for
    }
    }
    return std::nullopt;
}

} // namespace

std::string_view levelName(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1: return "L1";
    case MemoryLevel::L2: return "L2";
    case MemoryLevel::Dram: return "DRAM";
    }
    return "";
}

std::string_view levelKey(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1: return "l1";
    case MemoryLevel::L2: return "l2";
    case MemoryLevel::Dram: return "dram";
    }
    return "";
}

std::string_view gapCode(RooflineGap gap)
{
    switch (gap) {
    case RooflineGap::None: return "";
    case RooflineGap::NoMetrics: return "no_metrics";
    case RooflineGap::FlopsNotMeasured: return "flop_not_measured";
    case RooflineGap::ZeroFlops: return "zero_flop";
    case RooflineGap::DurationNotMeasured: return "duration_not_measured";
    case RooflineGap::BytesNotMeasured: return "bytes_not_measured";
    case RooflineGap::ZeroBytes: return "zero_bytes";
    }
    return "";
}

std::string gapSummary(RooflineGap gap, MemoryLevel level)
{
    const std::string name(levelName(level));
    switch (gap) {
    case RooflineGap::None: return "";
    case RooflineGap::NoMetrics: return "no counters";
    case RooflineGap::FlopsNotMeasured: return "FLOP not measured";
    case RooflineGap::ZeroFlops: return "0 FP32 FLOP";
    case RooflineGap::DurationNotMeasured: return "no duration";
    case RooflineGap::BytesNotMeasured: return name + " bytes not measured";
    case RooflineGap::ZeroBytes: return "no " + name + " bytes";
    }
    return "";
}

std::string gapExplanation(RooflineGap gap, MemoryLevel level)
{
    const std::string name(levelName(level));
    switch (gap) {
    case RooflineGap::None: return "";
    case RooflineGap::NoMetrics: return "The session has no counter metrics for this kernel, so no FLOP count and no bytes.";
    case RooflineGap::FlopsNotMeasured: return "The FP32 instruction counters (fadd, fmul, ffma) were not measured.";
    case RooflineGap::ZeroFlops:
        return "It executed no FP32 FLOP (fadd, fmul, ffma), so its FP32 intensity is 0, which a log axis cannot show: "
               "it moves data, or computes in units this roofline does not count (integers, half precision, Tensor "
               "Cores). Its bandwidth and share of the roof are still given.";
    case RooflineGap::DurationNotMeasured: return "Its duration (gpu__time_duration.sum) was not measured.";
    case RooflineGap::BytesNotMeasured:
        return "The " + name + " byte counter was not measured in this session" +
               (level == MemoryLevel::L1 ? " (l1tex__t_bytes.sum joined the headline set later)." : ".");
    case RooflineGap::ZeroBytes:
        return "No bytes moved at " + name + " (the level above served them all), so its intensity per " + name +
               " byte is unbounded.";
    }
    return "";
}

bool KernelRoofline::plottedAnywhere() const
{
    return std::any_of(levels.begin(), levels.end(), [](const LevelPoint& p) { return p.plotted(); });
}

double compulsoryBytes(const KernelRecord& kernel, const PredictionRecord* prediction)
{
    std::vector<sim::ArgSpec> specs;
    try {
        for (const std::string& text : kernel.args)
            specs.push_back(sim::parseArgSpec(text));
    } catch (const InputError&) {
        return kNotMeasured;
    }
    // The integer scalars first: a length may name any of them ("n*stride"), and one scalar another.
    std::map<std::string, std::int64_t, std::less<>> scalars;
    for (bool progress = true; progress;) {
        progress = false;
        for (const sim::ArgSpec& spec : specs) {
            if (spec.isBuffer || sim::isFloatElement(spec.type) || scalars.count(spec.name) > 0)
                continue;
            try {
                scalars[spec.name] = sim::evaluateExpression(spec.expression, scalars, spec.name);
                progress = true;
            } catch (const InputError&) {
                // names a scalar not evaluated yet: the next pass
            }
        }
    }
    double bytes = 0;
    bool anyBuffer = false;
    for (const sim::ArgSpec& spec : specs) {
        if (!spec.isBuffer)
            continue;
        try {
            const std::int64_t count = sim::evaluateExpression(spec.expression, scalars, spec.name);
            if (count < 0)
                return kNotMeasured;
            bytes += static_cast<double>(count) * sim::elementBytes(spec.type);
            anyBuffer = true;
        } catch (const InputError&) {
            return kNotMeasured;
        }
    }
    if (!anyBuffer)
        return kNotMeasured;
    if (prediction != nullptr) {
        const double sectorBytes = 32.0 * static_cast<double>(prediction->globalLoadSectors + prediction->globalStoreSectors);
        if (sectorBytes > 0)
            bytes = std::min(bytes, sectorBytes);
    }
    return bytes;
}

bool KernelRoofline::warmCaches() const
{
    const LevelPoint& dram = at(MemoryLevel::Dram);
    return dram.plotted() && compulsoryBytes > 0 && dram.bytes < compulsoryBytes;
}

double KernelRoofline::coldIntensity() const { return compulsoryBytes > 0 ? fp32Flops / compulsoryBytes : kNotMeasured; }

std::string warmCachesExplanation(const KernelRoofline& kernel)
{
    if (!kernel.warmCaches())
        return "";
    const LevelPoint& dram = kernel.at(MemoryLevel::Dram);
    return "DRAM moved " + withThousands(static_cast<std::int64_t>(dram.bytes)) + " B, less than the " +
           withThousands(static_cast<std::int64_t>(kernel.compulsoryBytes)) +
           " B its buffers hold, each read or written at least once: warm caches served the rest (data an earlier run "
           "left in L2, or writes still in L2 when the kernel ended). With cold caches it would sit at " +
           number(kernel.coldIntensity(), "%.3g") + " FLOP/B, not " + number(dram.intensity, "%.3g") + ".";
}

std::vector<KernelRoofline> kernelRooflines(const Session& session)
{
    std::vector<KernelRoofline> kernels;
    for (const std::string& id : kernelIds(session)) {
        KernelRoofline k;
        k.kernel = id;
        if (const KernelRecord* record = session.findKernel(id)) {
            k.ladder = record->ladder;
            k.rung = record->ladderRung;
            k.compulsoryBytes = compulsoryBytes(*record, session.predictionFor(id));
        }
        const MetricsRecord* metrics = session.metricsFor(id);
        if (metrics == nullptr) {
            for (LevelPoint& p : k.levels)
                p.gap = RooflineGap::NoMetrics;
            kernels.push_back(std::move(k));
            continue;
        }
        // FLOP and duration as deriveMetrics (and ncu's roofline) count them: fadd + fmul + 2 x ffma.
        const DerivedMetrics derived = deriveMetrics(*metrics);
        k.fp32Flops = derived.fp32Flops;
        k.durationSeconds = derived.durationSeconds > 0 ? derived.durationSeconds : kNotMeasured;
        k.flopsPerSecond = k.fp32Flops / k.durationSeconds; // NaN when either is missing
        RooflineGap kernelGap = RooflineGap::None;
        if (std::isnan(k.fp32Flops))
            kernelGap = RooflineGap::FlopsNotMeasured;
        else if (k.fp32Flops == 0)
            kernelGap = RooflineGap::ZeroFlops;
        else if (std::isnan(k.durationSeconds))
            kernelGap = RooflineGap::DurationNotMeasured;
        for (MemoryLevel level : kMemoryLevels) {
            LevelPoint& p = k.levels[static_cast<int>(level)];
            if (const auto bytes = levelBytes(*metrics, level)) {
                p.bytes = *bytes;
                p.bytesPerSecond = p.bytes / k.durationSeconds;
                if (!std::isnan(k.fp32Flops))
                    p.intensity = p.bytes > 0 ? k.fp32Flops / p.bytes : (k.fp32Flops > 0 ? INFINITY : kNotMeasured);
            }
            if (kernelGap != RooflineGap::None)
                p.gap = kernelGap;
            else if (std::isnan(p.bytes))
                p.gap = RooflineGap::BytesNotMeasured;
            else if (!(p.bytes > 0))
                p.gap = RooflineGap::ZeroBytes;
        }
        kernels.push_back(std::move(k));
    }
    return kernels;
}

RooflineRoofs rooflineRoofs(const Session& session)
{
    using namespace metric;
    RooflineRoofs roofs;
    const DeviceRecord* device = session.devices.empty() ? nullptr : &session.devices.front();
    LevelRoofs& l1 = roofs.levels[static_cast<int>(MemoryLevel::L1)];
    LevelRoofs& l2 = roofs.levels[static_cast<int>(MemoryLevel::L2)];
    LevelRoofs& dram = roofs.levels[static_cast<int>(MemoryLevel::Dram)];
    std::size_t n = 0;

    // FP32 and DRAM: the probe's measured ceilings and the values from the device's attributes, as
    // the single-level roofline always drew them.
    if (session.ceilings) {
        const CeilingsRecord& c = *session.ceilings;
        roofs.measuredFlopsPerSecond = c.measuredFp32Gflops * 1e9;
        roofs.measuredFlopsSource = c.measuredFp32Method;
        roofs.peakFlopsPerSecond = c.theoreticalFp32Gflops * 1e9;
        roofs.peakFlopsSource = c.theoreticalSource;
        dram.measured = {c.measuredDramGBps * 1e9, c.measuredDramMethod};
        dram.peak = {c.theoreticalDramGBps * 1e9, c.theoreticalSource};
    }
    if (!(roofs.peakFlopsPerSecond > 0))
        if (const auto peak = medianProduct(session, kFfmaPeak, kSmClock, n)) {
            roofs.peakFlopsPerSecond = 2.0 * *peak;
            roofs.peakFlopsSource = "2 x " + std::string(kFfmaPeak) + " x " + kSmClock + ", median of " + kernelCount(n);
        }
    if (!(dram.peak.bytesPerSecond > 0))
        if (const auto peak = medianProduct(session, kDramBytesPeak, kDramClock, n))
            dram.peak = {*peak, std::string(kDramBytesPeak) + " x " + kDramClock + ", median of " + kernelCount(n)};

    // L1 and L2: Nsight Compute's hierarchical roofline takes each level's peak as
    // <unit>__t_bytes.sum.peak_sustained x <unit>__cycles_elapsed.avg.per_second. A metric names its
    // rollup first and its submetric last: .sum adds every instance of the unit (all SMs' L1TEX, all
    // L2 slices), .peak_sustained is the most that sum can move per cycle of the unit's clock, so the
    // product is already the whole GPU's bytes/s, with no SM-count factor (Nsight Compute Kernel
    // Profiling Guide, "Metrics Structure"; the same products are the L1 and L2 roofs of NERSC's
    // roofline-on-nvidia-gpus scripts that go with Yang et al. 2020). Our recorded H200 sessions show
    // the rollup: sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained = 16,896 = 132 SMs
    // x 128 FP32 lanes.
    if (const auto peak = medianProduct(session, kL1BytesPeak, kL1Clock, n))
        l1.peak = {*peak, std::string(kL1BytesPeak) + " x " + kL1Clock + " (Nsight Compute's L1 peak), median of " + kernelCount(n)};
    else if (device != nullptr && device->computeMajor >= 7 && device->smCount > 0 && device->coreClockKHz > 0)
        l1.peak = {kL1BytesPerCyclePerSm * device->smCount * device->coreClockKHz * 1e3,
                   "from the device's attributes: " + std::to_string(device->smCount) + " SMs x 128 bytes/cycle x " +
                       number(device->coreClockKHz / 1e3, "%.0f") +
                       " MHz peak clock (32 banks x 4 bytes per clock, CUDA C++ Programming Guide; Luo et al. "
                       "measured 125.8 on the H800)"};
    if (const auto peak = medianProduct(session, kL2BytesPeak, kL2Clock, n))
        l2.peak = {*peak, std::string(kL2BytesPeak) + " x " + kL2Clock + " (Nsight Compute's L2 peak), median of " + kernelCount(n)};
    // Measured L1 and L2 roofs: the probe's memory ladder reads from each level with every SM full
    // (profiling/hierarchy.cpp), the whole GPU's bytes/s, as the DRAM copy is DRAM's.
    if (session.hierarchy)
        for (MemoryLevel level : {MemoryLevel::L1, MemoryLevel::L2})
            if (const HierarchyLevel* measured = session.hierarchy->find(levelKey(level)); measured && measured->bandwidthGBps > 0)
                roofs.levels[static_cast<int>(level)].measured = {measured->bandwidthGBps * 1e9,
                                                                  "the probe's memory ladder on this GPU: " + measured->method};
    if (!(l1.reference() > 0))
        l1.missing = "No L1 roof: the session has no " + std::string(kL1BytesPeak) +
                     ", no measured L1 bandwidth, and no device of compute capability 7.0 or later.";
    if (!(l2.reference() > 0))
        l2.missing = "No L2 roof: this session lacks " + std::string(kL2BytesPeak) + " and " + kL2Clock +
                     " and a measured L2 bandwidth (profile again with this build); its L2 points are still plotted.";
    if (!(dram.reference() > 0))
        dram.missing = "No DRAM roof: the session has no ceilings record and no " + std::string(kDramBytesPeak) + ".";
    return roofs;
}

double roofAt(double intensity, double bytesPerSecond, double flopsPerSecond)
{
    if (bytesPerSecond > 0 && flopsPerSecond > 0)
        return std::min(intensity * bytesPerSecond, flopsPerSecond);
    if (bytesPerSecond > 0)
        return intensity * bytesPerSecond;
    return flopsPerSecond > 0 ? flopsPerSecond : 0.0;
}

double shareOfRoof(const KernelRoofline& kernel, MemoryLevel level, const RooflineRoofs& roofs)
{
    const LevelPoint& p = kernel.at(level);
    const double bandwidth = roofs.at(level).reference();
    const double compute = roofs.referenceFlopsPerSecond();
    // No traffic at this level (infinite intensity): the level does not bound the kernel at all.
    if (!(bandwidth > 0) || std::isnan(p.intensity) || std::isinf(p.intensity))
        return kNotMeasured;
    const bool underTheSlope = !(compute > 0) || p.intensity * bandwidth <= compute;
    // Under the slope, FLOP/s over (intensity x bandwidth) is bytes/s over bandwidth.
    return underTheSlope ? p.bytesPerSecond / bandwidth : kernel.flopsPerSecond / compute;
}

} // namespace warpscope::session
