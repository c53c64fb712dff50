#include "profile/profile_bandwidth_panel.h"

#include "common/export_actions.h"
#include "common/scroll_page.h"
#include "profile/profile_format.h"
#include "session/metric_catalog.h"
#include "session/session.h"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {
namespace {

using namespace profile;

double nan() { return std::nan(""); }

// Nsight Compute's speed-of-light rule calls throughput below 60 % of peak a sign of latency
// problems and above 80 % heavy use of that unit; the sentences follow those two thresholds.
constexpr double kLowShare = 0.60;
constexpr double kHighShare = 0.80;

QString dramMeaning(double share, double durationNs, double theoretical)
{
    const QString percent = formatPercent(share * 100.0);
    QString text;
    if (share > 1.0)
        text = QObject::tr("%1 of the measured peak: faster than the copy kernel that measured it, which is a "
                           "practical peak, not the hardware's limit (the theoretical peak is %2).")
                   .arg(percent, formatBytesPerSecond(theoretical));
    else if (share >= kHighShare)
        text = QObject::tr("%1 of the measured peak: the kernel is memory-bound, moving data about as fast as this "
                           "GPU can. To go faster it must move fewer bytes (coalesced access, reuse through shared "
                           "memory or L2, smaller types).")
                   .arg(percent);
    else if (share >= kLowShare)
        text = QObject::tr("%1 of the measured peak: device memory is busy but not saturated; more bytes in flight "
                           "(more warps, wider or more independent loads) could close the gap.")
                   .arg(percent);
    else
        text = QObject::tr("%1 of the measured peak: DRAM is not what limits this kernel. Below 60 % of peak "
                           "usually means latency (too few memory requests in flight) or another limit such as "
                           "compute, divergence or too small a launch.")
                   .arg(percent);
    // A launch of a few microseconds is dominated by its ramp-up and tail, whatever its access pattern.
    if (!std::isnan(durationNs) && durationNs < 10000.0)
        text += QObject::tr(" It ran only %1, so ramp-up and tail weigh heavily in that figure.").arg(formatDurationNs(durationNs));
    return text;
}

// The bar: caption above, a track with the achieved fill, the measured peak (solid), the
// theoretical peak (dashed) and the baseline (hollow tick).
class BandwidthBarWidget : public QWidget {
public:
    // The bar alone: its caption is a word-wrapped label above it (a caption painted here was cut
    // mid-word in a narrow dock).
    BandwidthBarWidget(const BandwidthBar& bar, QWidget* parent) : QWidget(parent), m_bar(bar)
    {
        setMinimumHeight(kBarHeight);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setToolTip(profile::plainToolTip(bar.caption));
    }
    QSize sizeHint() const override { return {400, kBarHeight}; }
    QSize minimumSizeHint() const override { return {120, kBarHeight}; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        const QPalette& pal = palette();
        const QColor text = pal.color(QPalette::Text);
        const QRectF track(1, 5, width() - 2, 12);
        QColor trackColour = text;
        trackColour.setAlphaF(0.10);
        painter.setPen(Qt::NoPen);
        painter.setBrush(trackColour);
        painter.drawRoundedRect(track, 3, 3);
        double scale = std::max({m_bar.reference, m_bar.theoretical, std::isnan(m_bar.achieved) ? 0.0 : m_bar.achieved,
                                 std::isnan(m_bar.baseline) ? 0.0 : m_bar.baseline});
        if (scale <= 0)
            return;
        scale *= 1.03;
        auto xOf = [&](double value) { return track.left() + track.width() * std::clamp(value / scale, 0.0, 1.0); };
        if (!std::isnan(m_bar.achieved)) {
            QColor fill = pal.color(QPalette::Highlight);
            if (m_bar.level != QLatin1String("DRAM"))
                fill = fill.darker(130);
            painter.setBrush(fill);
            painter.drawRoundedRect(QRectF(track.left(), track.top(), xOf(m_bar.achieved) - track.left(), track.height()), 3, 3);
        }
        auto marker = [&](double value, Qt::PenStyle style, qreal widthPx) {
            if (value <= 0 || std::isnan(value))
                return;
            QPen pen(text, widthPx, style);
            if (style == Qt::CustomDashLine)
                pen.setDashPattern({2, 2});
            painter.setPen(pen);
            const double x = xOf(value);
            painter.drawLine(QPointF(x, track.top() - 4), QPointF(x, track.bottom() + 4));
        };
        marker(m_bar.reference, Qt::SolidLine, 2.0);
        marker(m_bar.theoretical, Qt::CustomDashLine, 1.5);
        if (!std::isnan(m_bar.baseline) && m_bar.baseline > 0) {
            const double x = xOf(m_bar.baseline);
            QPainterPath tick;
            tick.moveTo(x - 5, track.bottom() + 5);
            tick.lineTo(x + 5, track.bottom() + 5);
            tick.lineTo(x, track.bottom() - 1);
            tick.closeSubpath();
            painter.setPen(QPen(text, 1.2));
            painter.setBrush(Qt::NoBrush);
            painter.drawPath(tick);
        }
    }

private:
    static constexpr int kBarHeight = 22; // the 12-pixel track and the markers 4 pixels past it
    BandwidthBar m_bar;
};

} // namespace

std::vector<BandwidthKernel> bandwidthModel(const session::Session& current, const session::Session* baseline)
{
    using namespace session::metric;
    const double measured = current.ceilings ? current.ceilings->measuredDramGBps * 1e9 : 0.0;
    const double theoretical = current.ceilings ? current.ceilings->theoreticalDramGBps * 1e9 : 0.0;
    std::vector<BandwidthKernel> kernels;
    for (const std::string& id : sessionKernelIds(current)) {
        BandwidthKernel kernel;
        kernel.kernel = id;
        kernel.label = kernelLabel(current, id);
        const session::MetricsRecord* metrics = current.metricsFor(id);
        if (metrics == nullptr) {
            kernel.meaning = noMetricsReason(current, id);
            kernels.push_back(kernel);
            continue;
        }
        const session::DerivedMetrics derived = session::deriveMetrics(*metrics);
        const session::MetricsRecord* baselineMetrics = baseline ? baseline->metricsFor(id) : nullptr;
        session::DerivedMetrics baselineDerived{};
        if (baselineMetrics != nullptr)
            baselineDerived = session::deriveMetrics(*baselineMetrics);
        auto metric = [](const session::MetricsRecord* record, const char* name) {
            if (record == nullptr)
                return nan();
            auto it = record->values.find(name);
            return it == record->values.end() ? nan() : it->second;
        };
        // L2 bandwidth: the rate metric, else bytes over the duration.
        auto l2Rate = [&](const session::MetricsRecord* record, const session::DerivedMetrics& d) {
            double rate = d.achievedL2BytesPerSecond;
            if (std::isnan(rate) && d.durationSeconds > 0)
                rate = metric(record, kL2Bytes) / d.durationSeconds;
            return rate;
        };
        auto withBaseline = [&](QString caption, double now, double before) {
            if (!std::isnan(before))
                caption += QObject::tr("   (baseline %1, %2)").arg(formatBytesPerSecond(before), formatChange(now, before));
            return caption;
        };

        BandwidthBar dram;
        dram.level = QStringLiteral("DRAM");
        dram.achieved = derived.achievedDramBytesPerSecond;
        dram.reference = measured;
        dram.theoretical = theoretical;
        dram.baseline = baselineMetrics ? baselineDerived.achievedDramBytesPerSecond : nan();
        if (std::isnan(dram.achieved))
            dram.caption = QObject::tr("DRAM: not measured");
        else if (measured > 0)
            dram.caption = QObject::tr("DRAM: %1 = %2 of the measured %3")
                               .arg(formatBytesPerSecond(dram.achieved), formatPercent(dram.achieved / measured * 100.0),
                                    formatBytesPerSecond(measured));
        else
            dram.caption = QObject::tr("DRAM: %1 (no measured peak in this session)").arg(formatBytesPerSecond(dram.achieved));
        dram.caption = withBaseline(dram.caption, dram.achieved, dram.baseline);
        kernel.bars.push_back(dram);

        BandwidthBar l2;
        l2.level = QStringLiteral("L2");
        l2.achieved = l2Rate(metrics, derived);
        l2.reference = measured;
        l2.baseline = baselineMetrics ? l2Rate(baselineMetrics, baselineDerived) : nan();
        const double hitRate = metric(metrics, kL2HitRate);
        if (std::isnan(l2.achieved)) {
            l2.caption = QObject::tr("L2: not measured");
        } else {
            l2.caption = QObject::tr("L2: %1").arg(formatBytesPerSecond(l2.achieved));
            if (measured > 0)
                l2.caption += QObject::tr(" = %1\u00d7 the measured DRAM peak").arg(formatRatio(l2.achieved / measured));
            if (hitRateOutOfRange(QLatin1String(kL2HitRate), hitRate))
                l2.caption += QObject::tr(", L2 hit rate %1 as ncu reported it (not a share: counted across replay passes, "
                                          "see the Metrics tab)")
                                  .arg(formatPercent(hitRate));
            else if (!std::isnan(hitRate))
                l2.caption += QObject::tr(", L2 hit rate %1").arg(formatPercent(hitRate));
        }
        l2.caption = withBaseline(l2.caption, l2.achieved, l2.baseline);
        if (!std::isnan(l2.achieved))
            kernel.bars.push_back(l2); // an empty bar would only repeat "not measured"

        if (std::isnan(dram.achieved))
            kernel.meaning = QObject::tr("The DRAM byte counters were not measured for this kernel.");
        else if (measured > 0)
            kernel.meaning = dramMeaning(dram.achieved / measured, metric(metrics, kDuration), theoretical);
        else
            kernel.meaning = QObject::tr("No measured DRAM peak in this session: the ratio cannot be given.");
        if (std::isnan(l2.achieved))
            kernel.meaning += QObject::tr(" L2 bandwidth was not measured (%1 or %2).")
                                  .arg(QLatin1String(kL2BytesPerSecond), QLatin1String(kL2Bytes));
        const double l2Bytes = metric(metrics, kL2Bytes);
        if (!std::isnan(l2Bytes) && derived.dramBytes > 0 && l2Bytes > derived.dramBytes)
            kernel.meaning += QObject::tr(" L2 moved %1\u00d7 the DRAM bytes: data was reused from L2 instead of being "
                                          "fetched again from DRAM.")
                                  .arg(formatRatio(l2Bytes / derived.dramBytes));
        kernels.push_back(kernel);
    }
    return kernels;
}

ProfileBandwidthPanel::ProfileBandwidthPanel(QWidget* parent) : QWidget(parent)
{
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("bandwidthHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_rows = new QWidget;
    m_rowsLayout = new QVBoxLayout(m_rows);
    installFigureExport(m_rows, QStringLiteral("bandwidth"));
    m_rowsLayout->setContentsMargins(8, 4, 8, 8);
    m_rowsLayout->setSpacing(4);
    QScrollArea* scroll = framelessScrollArea(m_rows, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(scroll, 1);
    setSession(session::Session{}, nullptr);
}

QString ProfileBandwidthPanel::headerText() const { return m_header->text(); }

void ProfileBandwidthPanel::setSession(const session::Session& current, const session::Session* baseline)
{
    m_model = bandwidthModel(current, baseline);
    if (current.ceilings) {
        const session::CeilingsRecord& c = *current.ceilings;
        m_header->setText(tr("Bars are drawn against the DRAM bandwidth <b>measured</b> on this GPU: %1 (%2), the "
                             "solid mark. Dashed: the theoretical %3 (%4). The probe measures no L2 ceiling, so the "
                             "L2 bar is drawn against the same DRAM peak.%5")
                              .arg(formatBytesPerSecond(c.measuredDramGBps * 1e9),
                                   QString::fromStdString(c.measuredDramMethod).toHtmlEscaped(),
                                   formatBytesPerSecond(c.theoreticalDramGBps * 1e9),
                                   QString::fromStdString(c.theoreticalSource).toHtmlEscaped(),
                                   baseline ? tr(" Hollow triangles: the baseline session.") : QString()));
    } else {
        m_header->setText(tr("This session has no ceilings record: achieved bandwidth is shown without a peak."));
    }

    while (QLayoutItem* item = m_rowsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QColor muted = palette().color(QPalette::PlaceholderText);
    for (const BandwidthKernel& kernel : m_model) {
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(kernel.label.toHtmlEscaped()), m_rows);
        title->setObjectName(QStringLiteral("bandwidthKernelTitle"));
        title->setTextFormat(Qt::RichText);
        title->setContentsMargins(0, 8, 0, 0);
        title->setWordWrap(true);
        m_rowsLayout->addWidget(title);
        for (const BandwidthBar& bar : kernel.bars) {
            auto* caption = new QLabel(bar.caption, m_rows);
            caption->setObjectName(QStringLiteral("bandwidthCaption"));
            caption->setTextFormat(Qt::PlainText);
            caption->setWordWrap(true);
            m_rowsLayout->addWidget(caption);
            m_rowsLayout->addWidget(new BandwidthBarWidget(bar, m_rows));
        }
        auto* meaning = new QLabel(kernel.meaning, m_rows);
        meaning->setObjectName(QStringLiteral("bandwidthMeaning"));
        meaning->setTextFormat(Qt::PlainText); // it may quote the session's error message
        meaning->setWordWrap(true);
        meaning->setStyleSheet(QStringLiteral("color: %1;").arg(muted.name()));
        m_rowsLayout->addWidget(meaning);
    }
    if (m_model.empty())
        m_rowsLayout->addWidget(new QLabel(tr("No kernels in this session yet."), m_rows));
    m_rowsLayout->addStretch(1);
}

} // namespace warpscope::viz
