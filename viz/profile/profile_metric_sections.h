// The metrics table's sections: every row (an Activity value, a catalogued metric or any name ncu
// knows) falls into time, memory, compute or occupancy by what it measures, read from its key; the
// replay pass count and "no metrics" go under the profiler. Plain functions, tested through the table.
#pragma once

#include <QString>

namespace warpscope::viz::profile {

enum class MetricSection { Time, Memory, Compute, Occupancy, Other, Profiler };

inline constexpr MetricSection kMetricSections[] = {MetricSection::Time,      MetricSection::Memory, MetricSection::Compute,
                                                    MetricSection::Occupancy, MetricSection::Other,  MetricSection::Profiler};

MetricSection metricSection(const QString& key); // a metric name or a table row key ("activity:duration")
QString sectionTitle(MetricSection section);     // "Memory"
QString sectionKey(MetricSection section);       // "memory", for row keys and tests
QString sectionExplanation(MetricSection section);

} // namespace warpscope::viz::profile
