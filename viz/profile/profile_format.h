// Text for measured values in the profile views: human-scaled units (µs, GB/s, %, K/M), the change
// against a baseline, the colours that mark agreement, and the per-kernel facts every view names
// the same way. Plain functions, tested without drawing.
#pragma once

#include "session/prediction_comparison.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <string>
#include <vector>

namespace warpscope::session {
struct ErrorRecord;
struct MetricsRecord;
struct Session;
} // namespace warpscope::session

namespace warpscope::viz::profile {

// A unit as the catalog spells it ("ns", "bytes/s", "%", "sectors", ...); CUPTI's dimension units
// ("nsecond", "byte/second", "percent", "sector", ...) are mapped to the same spellings.
QString normalizedUnit(const QString& unit);

QString formatDurationNs(double nanoseconds);          // "812 ns", "1.50 µs", "15.2 ms"
QString formatBytes(double bytes);                     // decimal, as ncu: "512 B", "8.39 MB"
QString formatBytesPerSecond(double bytesPerSecond);   // "812 GB/s", "2,039 GB/s", "35.2 MB/s"
QString formatFlopsPerSecond(double flopsPerSecond);   // "12.3 TFLOP/s", "850 GFLOP/s"
QString formatHertz(double hertz);                     // "1.98 GHz", "877 MHz"
QString formatCount(double count);                     // "9,999", "65.54 K", "1.049 M", "2.5"
QString formatPercent(double percent);                 // "87.5 %" (the argument is already in %)
QString formatRatio(double value);                     // "4.00" (sectors per request and the like)
// A value in `unit` (catalog or CUPTI spelling), human-scaled; "n/a" for NaN.
QString formatMetricValue(double value, const QString& unit);
// The exact value for a tooltip: "1,048,576 sectors", "1500 ns".
QString formatExactValue(double value, const QString& unit);
// Relative change from `baseline` to `current`: "+12.5 %", "−3.0 %", "0 %"; "from 0" when the
// baseline is 0 and the value is not.
QString formatChange(double current, double baseline);

// The unit a metric's value is in: the catalog's when the metric is catalogued, else the one
// CUPTI reported in the record, else empty.
QString metricUnit(const session::MetricsRecord& record, const QString& name);

// CUDA's integer versions (cuDriverGetVersion, CUDA_VERSION): 13000 -> "13.0", 12040 -> "12.4".
QString cudaVersionText(int version);

// How far a measurement is from a prediction (relative to the prediction), as the prediction table
// colours it: within 2 % agrees, within 10 % is close, further apart differs. Explained: they differ
// for a reason the row states (PTX against SASS, theoretical against achieved): a neutral colour.
// The comparison itself is core/session/prediction_comparison.h's, shared with the command line.
using Agreement = session::Agreement;
using session::agreementOf;
QColor agreementColor(Agreement agreement, const QPalette& palette);

// The kernels a session names, in stream order: its kernel records, then any id that only other
// records name (a damaged stream).
std::vector<std::string> sessionKernelIds(const session::Session& session);
// "reduce_sequential — 3. Sequential addressing" (the id alone when there is no title).
QString kernelLabel(const session::Session& session, const std::string& kernel);
// Why a kernel has no counter metrics, from the session's error records and device record.
QString noMetricsReason(const session::Session& session, const std::string& kernel);
// The error record with `code` (session-wide or for any kernel), or null.
const session::ErrorRecord* findError(const session::Session& session, const std::string& code);

// ncu's sector hit rates (lts__t_sector_hit_rate.pct, l1tex__t_sector_hit_rate.pct) divide hits by
// lookups counted in separate replay passes; a value outside 0..100 % is an artefact of that, not a
// share. NVIDIA's answer on its forum: the counters were not collected accurately, as happens when
// the kernel is too small to fill the GPU (under about 20 µs) or its blocks do uneven work, so each
// pass spreads the work differently, and, for L2, when other engines use the L2 in the passes.
inline constexpr const char* kHitRateSource = "https://forums.developer.nvidia.com/t/weird-number-for-l2-cache-hitrate/120341/2";
bool hitRateOutOfRange(const QString& metric, double percent); // a sector hit rate outside 0..100 %
// One line under the value: "above 100 %: hits and lookups were counted in different replay passes".
QString hitRateOutOfRangeNote(double percent);
// The whole explanation with this kernel's duration and pass count (NaN / 0 when unknown) and the source.
QString hitRateOutOfRangeExplanation(const QString& metric, double percent, double durationNs, int passes);

// A tooltip that shows `text` exactly as written. Qt shows a tooltip as rich text when it looks like
// HTML (Qt::mightBeRichText: a known tag, or "&lt;", before the first line break), so a name from a
// session such as "<b>x</b>" would be rendered as markup; such text is escaped into a paragraph.
QString plainToolTip(const QString& text);

// A value the session's file did not record (an imported ncu CSV, an older session) reads as unknown,
// never as a measured 0: a dash, with this tooltip.
inline constexpr char kNotRecordedToolTip[] = "Not recorded: the file did not record this value (it was not measured as 0)";
QString notRecordedHtml(); // the dash, with the tooltip as an HTML title

} // namespace warpscope::viz::profile
