#include "profile/profile_format.h"

#include "session/metric_catalog.h"
#include "session/session.h"

#include <QLocale>
#include <QTextDocument>

#include <algorithm>

#include <cmath>

namespace warpscope::viz::profile {
namespace {

// Digit grouping as the rest of the app writes it ("1,024"), whatever the system locale.
const QLocale& grouping()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

// `value` with `digits` significant digits, grouped: 2039.4 -> "2,039", 1.5 -> "1.50".
QString significant(double value, int digits)
{
    if (value == 0)
        return QStringLiteral("0");
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const int decimals = std::max(0, digits - 1 - magnitude);
    return grouping().toString(value, 'f', decimals);
}

double roundSignificant(double value, int digits)
{
    if (value == 0)
        return 0;
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const double factor = std::pow(10.0, digits - 1 - magnitude);
    return std::round(value * factor) / factor;
}

QString scaled(double value, const char* const* prefixes, int count, double step, int digits, const QString& unit)
{
    int index = 0;
    double scaledValue = value;
    while (index + 1 < count && std::fabs(scaledValue) >= step) {
        scaledValue /= step;
        ++index;
    }
    // Rounding can carry into the next prefix (999.7 ns shows as "1.00 µs", not "1,000 ns").
    const double rounded = roundSignificant(scaledValue, digits);
    if (index + 1 < count && std::fabs(rounded) >= step) {
        scaledValue = rounded / step;
        ++index;
    }
    return significant(scaledValue, digits) + QLatin1Char(' ') + QString::fromUtf8(prefixes[index]) + unit;
}

bool isIntegral(double value) { return std::fabs(value) < 9.0e15 && value == std::floor(value); }

} // namespace

QString normalizedUnit(const QString& unit)
{
    const QString u = unit.trimmed().toLower();
    if (u == QLatin1String("ns") || u == QLatin1String("nsecond") || u == QLatin1String("nseconds"))
        return QStringLiteral("ns");
    if (u == QLatin1String("%") || u == QLatin1String("percent") || u == QLatin1String("pct"))
        return QStringLiteral("%");
    if (u == QLatin1String("bytes") || u == QLatin1String("byte"))
        return QStringLiteral("bytes");
    if (u == QLatin1String("bytes/s") || u == QLatin1String("byte/second") || u == QLatin1String("bytes/second"))
        return QStringLiteral("bytes/s");
    if (u == QLatin1String("hz") || u == QLatin1String("cycle/second") || u == QLatin1String("cycles/second"))
        return QStringLiteral("Hz");
    if (u == QLatin1String("byte/cycle") || u == QLatin1String("bytes/cycle"))
        return QStringLiteral("bytes/cycle");
    if (u == QLatin1String("sector")) return QStringLiteral("sectors");
    if (u == QLatin1String("request")) return QStringLiteral("requests");
    if (u == QLatin1String("inst") || u == QLatin1String("instruction")) return QStringLiteral("instructions");
    if (u == QLatin1String("warp")) return QStringLiteral("warps");
    if (u == QLatin1String("cycle")) return QStringLiteral("cycles");
    if (u == QLatin1String("wavefront")) return QStringLiteral("wavefronts");
    return unit.trimmed();
}

QString formatDurationNs(double nanoseconds)
{
    if (std::isnan(nanoseconds))
        return QStringLiteral("n/a");
    static const char* const units[] = {"ns", "µs", "ms", "s"};
    return scaled(nanoseconds, units, 4, 1000.0, 3, QString());
}

QString formatBytes(double bytes)
{
    if (std::isnan(bytes))
        return QStringLiteral("n/a");
    if (std::fabs(bytes) < 1000.0)
        return significant(bytes, isIntegral(bytes) ? 1 : 3) + QStringLiteral(" B");
    static const char* const prefixes[] = {"", "K", "M", "G", "T", "P"};
    return scaled(bytes, prefixes, 6, 1000.0, 3, QStringLiteral("B"));
}

QString formatBytesPerSecond(double bytesPerSecond)
{
    if (std::isnan(bytesPerSecond))
        return QStringLiteral("n/a");
    // GB/s all the way up (no TB/s), so a kernel's figure reads against the ceilings directly.
    if (std::fabs(bytesPerSecond) >= 1.0e12)
        return grouping().toString(bytesPerSecond / 1.0e9, 'f', 0) + QStringLiteral(" GB/s");
    static const char* const prefixes[] = {"", "K", "M", "G"};
    return scaled(bytesPerSecond, prefixes, 4, 1000.0, 3, QStringLiteral("B/s"));
}

QString formatFlopsPerSecond(double flopsPerSecond)
{
    if (std::isnan(flopsPerSecond))
        return QStringLiteral("n/a");
    static const char* const prefixes[] = {"", "K", "M", "G", "T", "P"};
    return scaled(flopsPerSecond, prefixes, 6, 1000.0, 3, QStringLiteral("FLOP/s"));
}

QString formatHertz(double hertz)
{
    if (std::isnan(hertz))
        return QStringLiteral("n/a");
    static const char* const prefixes[] = {"", "K", "M", "G"};
    return scaled(hertz, prefixes, 4, 1000.0, 3, QStringLiteral("Hz"));
}

QString formatCount(double count)
{
    if (std::isnan(count))
        return QStringLiteral("n/a");
    if (std::fabs(count) < 10000.0)
        return isIntegral(count) ? grouping().toString(count, 'f', 0) : significant(count, 3);
    static const char* const prefixes[] = {"", "K", "M", "G", "T", "P"};
    return scaled(count, prefixes, 6, 1000.0, 4, QString()).trimmed();
}

bool hitRateOutOfRange(const QString& metric, double percent)
{
    const bool hitRate = metric == QLatin1String(session::metric::kL2HitRate) || metric == QLatin1String(session::metric::kL1HitRate);
    return hitRate && !std::isnan(percent) && (percent > 100.0 || percent < 0.0);
}

QString hitRateOutOfRangeNote(double percent)
{
    return percent > 100.0 ? QStringLiteral("above 100 %: not a share; hits and lookups were counted in different replay passes")
                           : QStringLiteral("below 0 %: not a share; hits and lookups were counted in different replay passes");
}

QString hitRateOutOfRangeExplanation(const QString& metric, double percent, double durationNs, int passes)
{
    const bool l2 = metric == QLatin1String(session::metric::kL2HitRate);
    QString text = QStringLiteral("ncu reported %1 for %2, which no share of lookups can be: hits and lookups are counted by "
                                  "separate counters, which ncu may collect in separate replays of the kernel")
                       .arg(formatPercent(percent), metric);
    if (passes > 1)
        text += QStringLiteral(" (this one was replayed %1 times)").arg(passes);
    text += QStringLiteral(". NVIDIA's answer for such values: the metric could not be collected accurately. It happens when "
                           "the kernel is too small to fill the GPU, generally under about 20 µs, or its blocks do "
                           "uneven work, so each replay spreads the work differently");
    if (!std::isnan(durationNs) && durationNs > 0)
        text += QStringLiteral(" (this kernel ran %1)").arg(formatDurationNs(durationNs));
    if (l2)
        text += QStringLiteral("; and the L2 serves every client of the GPU, so copy engines or the display working during "
                               "a replay add hits and lookups this kernel did not make");
    text += QStringLiteral(". Profile a launch large enough to fill the GPU for a rate that means something (the recorded "
                           "GPU-sized sessions stay within 0-100 %). Source: NVIDIA Developer Forums, “Weird Number for "
                           "L2 Cache Hitrate”, %1")
                .arg(QLatin1String(kHitRateSource));
    return text;
}

QString formatPercent(double percent)
{
    if (std::isnan(percent))
        return QStringLiteral("n/a");
    return grouping().toString(percent, 'f', 1) + QStringLiteral(" %");
}

QString formatRatio(double value)
{
    if (std::isnan(value) || std::isinf(value))
        return QStringLiteral("n/a");
    return grouping().toString(value, 'f', 2);
}

QString formatMetricValue(double value, const QString& unit)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    const QString u = normalizedUnit(unit);
    if (u == QLatin1String("ns"))
        return formatDurationNs(value);
    if (u == QLatin1String("%"))
        return formatPercent(value);
    if (u == QLatin1String("bytes"))
        return formatBytes(value);
    if (u == QLatin1String("bytes/s"))
        return formatBytesPerSecond(value);
    if (u == QLatin1String("Hz"))
        return formatHertz(value);
    if (u == QLatin1String("bytes/cycle") || u == QLatin1String("inst/cycle"))
        return (isIntegral(value) ? grouping().toString(value, 'f', 0) : significant(value, 4)) + QLatin1Char(' ') + u;
    const QString number = formatCount(value);
    return u.isEmpty() ? number : number + QLatin1Char(' ') + u;
}

QString formatExactValue(double value, const QString& unit)
{
    if (std::isnan(value))
        return QStringLiteral("not measured");
    const QString number = isIntegral(value) ? grouping().toString(value, 'f', 0)
                                             : QString::number(value, 'g', 10);
    const QString u = normalizedUnit(unit);
    return u.isEmpty() ? number : number + QLatin1Char(' ') + u;
}

QString formatChange(double current, double baseline)
{
    if (std::isnan(current) || std::isnan(baseline))
        return QStringLiteral("n/a");
    if (baseline == 0)
        return current == 0 ? QStringLiteral("0 %") : QStringLiteral("from 0");
    const double change = (current - baseline) / std::fabs(baseline) * 100.0;
    if (std::fabs(change) < 0.05)
        return QStringLiteral("0 %");
    const QString magnitude = grouping().toString(std::fabs(change), 'f', 1);
    return (change > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + magnitude + QStringLiteral(" %");
}

QString metricUnit(const session::MetricsRecord& record, const QString& name)
{
    const std::string key = name.toStdString();
    if (const session::MetricInfo* info = session::findMetric(key))
        return QString::fromUtf8(info->unit.data(), static_cast<qsizetype>(info->unit.size()));
    if (auto it = record.units.find(key); it != record.units.end())
        return normalizedUnit(QString::fromStdString(it->second));
    return {};
}

QString cudaVersionText(int version)
{
    if (version <= 0)
        return QStringLiteral("unknown");
    return QStringLiteral("%1.%2").arg(version / 1000).arg((version % 1000) / 10);
}

QColor agreementColor(Agreement agreement, const QPalette& palette)
{
    QColor tint;
    switch (agreement) {
    case Agreement::Agrees: tint = QColor(0x2e, 0x9e, 0x4f); break;
    case Agreement::Close: tint = QColor(0xe0, 0xa0, 0x1a); break;
    case Agreement::Differs: tint = QColor(0xd6, 0x3a, 0x3a); break;
    case Agreement::Explained: tint = QColor(0x5b, 0x7f, 0xb0); break; // slate blue: neither good nor bad
    case Agreement::NotComparable: return {};
    }
    // A tint mixed into the table's base colour: readable text in light and dark themes alike.
    const QColor base = palette.color(QPalette::Base);
    const double share = 0.35;
    return QColor::fromRgbF(base.redF() * (1 - share) + tint.redF() * share,
                            base.greenF() * (1 - share) + tint.greenF() * share,
                            base.blueF() * (1 - share) + tint.blueF() * share);
}

std::vector<std::string> sessionKernelIds(const session::Session& session) { return session.kernelIds(); }

QString kernelLabel(const session::Session& session, const std::string& kernel)
{
    const QString id = QString::fromStdString(kernel);
    const session::KernelRecord* record = session.findKernel(kernel);
    if (record == nullptr || record->title.empty() || record->title == kernel)
        return id;
    return id + QStringLiteral(" \u2014 ") + QString::fromStdString(record->title);
}

const session::ErrorRecord* findError(const session::Session& session, const std::string& code)
{
    for (const session::ErrorRecord& error : session.errors)
        if (error.code == code)
            return &error;
    return nullptr;
}

QString noMetricsReason(const session::Session& session, const std::string& kernel)
{
    if (findError(session, "counters_not_permitted") != nullptr ||
        (!session.devices.empty() && !session.devices.front().countersAllowed))
        return QStringLiteral("GPU performance counters are not permitted for this user, so only CUPTI Activity "
                              "timings were taken (see the message above the views).");
    for (const session::ErrorRecord& error : session.errors)
        if (error.kernel == kernel)
            return QStringLiteral("The probe reported an error for this kernel (%1): %2")
                .arg(QString::fromStdString(error.code), QString::fromStdString(error.message));
    if (!session.end)
        return QStringLiteral("No metrics record for this kernel: the stream has no end record, so the probe is "
                              "still running or stopped before this kernel's counter passes.");
    return QStringLiteral("The session has no metrics record for this kernel.");
}

QString plainToolTip(const QString& text)
{
    return Qt::mightBeRichText(text) ? Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal) : text;
}

QString notRecordedHtml()
{
    return QStringLiteral("<span title='%1'>\u2014</span>").arg(QString::fromLatin1(kNotRecordedToolTip).toHtmlEscaped());
}

} // namespace warpscope::viz::profile
