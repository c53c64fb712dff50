#include "profile/profile_metric_sections.h"

#include "profile/profile_metrics_table.h"

namespace warpscope::viz::profile {

MetricSection metricSection(const QString& key)
{
    using Table = ProfileMetricsTable;
    if (key == QLatin1String(Table::kActivityDuration))
        return MetricSection::Time;
    // Registers and shared memory per block are what the occupancy calculator takes.
    if (key == QLatin1String(Table::kActivityRegisters) || key == QLatin1String(Table::kActivityStaticShared) ||
        key == QLatin1String(Table::kActivityDynamicShared))
        return MetricSection::Occupancy;
    if (key == QLatin1String(Table::kActivityLocal))
        return MetricSection::Memory;
    if (key == QLatin1String(Table::kReplayPasses) || key == QLatin1String(Table::kNoMetrics))
        return MetricSection::Profiler;
    // ncu names read unit__counter.rollup: the unit says most (Kernel Profiling Guide, Metrics Structure).
    if (key.startsWith(QLatin1String("gpu__time")) || key.contains(QLatin1String("cycles_elapsed")) ||
        key.contains(QLatin1String("cycles_active")))
        return MetricSection::Time;
    if (key.startsWith(QLatin1String("sm__warps_active")) || key.startsWith(QLatin1String("sm__warps_launched")) ||
        key.startsWith(QLatin1String("sm__maximum_warps")) || key.startsWith(QLatin1String("launch__occupancy")) ||
        key.startsWith(QLatin1String("achieved_occupancy")))
        return MetricSection::Occupancy;
    if (key.startsWith(QLatin1String("dram__")) || key.startsWith(QLatin1String("lts__")) ||
        key.startsWith(QLatin1String("l1tex__")) || key.startsWith(QLatin1String("fbpa__")) ||
        key.startsWith(QLatin1String("lrc__")))
        return MetricSection::Memory;
    if (key.startsWith(QLatin1String("sm__")) || key.startsWith(QLatin1String("smsp__")))
        return MetricSection::Compute;
    return MetricSection::Other;
}

QString sectionTitle(MetricSection section)
{
    switch (section) {
    case MetricSection::Time: return QStringLiteral("Time and clocks");
    case MetricSection::Memory: return QStringLiteral("Memory");
    case MetricSection::Compute: return QStringLiteral("Compute");
    case MetricSection::Occupancy: return QStringLiteral("Occupancy");
    case MetricSection::Other: return QStringLiteral("Other");
    case MetricSection::Profiler: return QStringLiteral("Profiler");
    }
    return {};
}

QString sectionKey(MetricSection section)
{
    switch (section) {
    case MetricSection::Time: return QStringLiteral("time");
    case MetricSection::Memory: return QStringLiteral("memory");
    case MetricSection::Compute: return QStringLiteral("compute");
    case MetricSection::Occupancy: return QStringLiteral("occupancy");
    case MetricSection::Other: return QStringLiteral("other");
    case MetricSection::Profiler: return QStringLiteral("profiler");
    }
    return {};
}

QString sectionExplanation(MetricSection section)
{
    switch (section) {
    case MetricSection::Time: return QStringLiteral("How long the kernel ran, in time and in cycles, and the clocks it ran at.");
    case MetricSection::Memory:
        return QStringLiteral("Traffic through L1/TEX, L2 and device memory: bytes, sectors per request, bank conflicts, hit "
                              "rates, bandwidth and its peaks.");
    case MetricSection::Compute:
        return QStringLiteral("Instructions executed, FP32 work, branch uniformity and how busy the SM's pipelines were.");
    case MetricSection::Occupancy:
        return QStringLiteral("What limits how many warps fit on an SM (registers, shared memory per block) and how many "
                              "were active.");
    case MetricSection::Other: return QStringLiteral("Metrics whose name does not say which part of the GPU they measure.");
    case MetricSection::Profiler: return QStringLiteral("How the counters were collected.");
    }
    return {};
}

} // namespace warpscope::viz::profile
