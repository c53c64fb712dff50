#include "profile/profile_roofline_plot.h"
#include "common/plot_style.h"

#include "profile/profile_format.h"
#include "session/metric_catalog.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {
namespace {

using namespace profile;

const char* const kLadderColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

// Log-axis tick labels people read: "0.01", "10" for intensity; "10 G", "1 T" for FLOP/s.
class LogTicker : public QCPAxisTickerLog {
public:
    explicit LogTicker(bool siPrefixes) : m_siPrefixes(siPrefixes) {}

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        if (!m_siPrefixes)
            return QString::number(tick, 'g', 6); // 0.01 ... 100000, never "1e+03"
        static const char* const prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
        int index = 0;
        double value = tick;
        while (index < 6 && value >= 999.5) {
            value /= 1000.0;
            ++index;
        }
        return QString::number(value, 'g', 3) + (index > 0 ? QStringLiteral(" ") + QLatin1String(prefixes[index]) : QString());
    }

private:
    bool m_siPrefixes;
};

double decadeBelow(double value, double margin) { return std::pow(10.0, std::floor(std::log10(value) - margin)); }
double decadeAbove(double value, double margin) { return std::pow(10.0, std::ceil(std::log10(value) + margin)); }

QString ladderColour(int index) { return QLatin1String(kLadderColours[index % 6]); }

} // namespace

std::vector<RooflinePoint> rooflinePoints(const session::Session& session)
{
    std::vector<RooflinePoint> points;
    for (const std::string& id : sessionKernelIds(session)) {
        RooflinePoint point;
        point.kernel = id;
        if (const session::KernelRecord* kernel = session.findKernel(id)) {
            point.ladder = kernel->ladder;
            point.rung = kernel->ladderRung;
        }
        const session::MetricsRecord* metrics = session.metricsFor(id);
        if (metrics == nullptr) {
            point.notPlottedReason = QStringLiteral("no counter metrics, so no FLOP count or DRAM bytes");
            points.push_back(point);
            continue;
        }
        const session::DerivedMetrics derived = session::deriveMetrics(*metrics);
        point.intensity = derived.arithmeticIntensity;
        point.flopsPerSecond = derived.achievedFlopsPerSecond;
        point.dramBytesPerSecond = derived.achievedDramBytesPerSecond;
        if (std::isnan(derived.fp32Flops))
            point.notPlottedReason = QStringLiteral("the FP32 instruction counters were not measured");
        else if (derived.fp32Flops == 0)
            point.notPlottedReason = QStringLiteral(
                "0 FP32 FLOP: it only moves data, so its arithmetic intensity is 0, which a log axis cannot show; "
                "its DRAM bandwidth (%1) is in the Bandwidth tab")
                                         .arg(formatBytesPerSecond(derived.achievedDramBytesPerSecond));
        else if (std::isnan(derived.dramBytes))
            point.notPlottedReason = QStringLiteral("the DRAM byte counters were not measured");
        else if (derived.dramBytes == 0)
            point.notPlottedReason = QStringLiteral(
                "no DRAM traffic was measured (its data came from L2), so its intensity per DRAM byte is "
                "unbounded; it did %1 FP32 FLOP")
                                         .arg(formatCount(derived.fp32Flops));
        else if (!(derived.durationSeconds > 0))
            point.notPlottedReason = QStringLiteral("its duration was not measured");
        else
            point.plotted = true;
        points.push_back(point);
    }
    return points;
}

RooflineCeilings rooflineCeilings(const session::Session& session)
{
    RooflineCeilings ceilings;
    if (!session.ceilings)
        return ceilings;
    ceilings.measuredBytesPerSecond = session.ceilings->measuredDramGBps * 1e9;
    ceilings.measuredFlopsPerSecond = session.ceilings->measuredFp32Gflops * 1e9;
    ceilings.theoreticalBytesPerSecond = session.ceilings->theoreticalDramGBps * 1e9;
    ceilings.theoreticalFlopsPerSecond = session.ceilings->theoreticalFp32Gflops * 1e9;
    return ceilings;
}

double roofAt(double intensity, double bytesPerSecond, double flopsPerSecond)
{
    if (bytesPerSecond > 0 && flopsPerSecond > 0)
        return std::min(intensity * bytesPerSecond, flopsPerSecond);
    if (bytesPerSecond > 0)
        return intensity * bytesPerSecond;
    return flopsPerSecond > 0 ? flopsPerSecond : 0.0;
}

ProfileRooflinePlot::ProfileRooflinePlot(QWidget* parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("rooflinePlot"));
    m_plot->setMinimumHeight(280);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogTicker(false)));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogTicker(true)));
    m_plot->xAxis->setLabel(tr("Arithmetic intensity (FP32 FLOP per DRAM byte)"));
    m_plot->yAxis->setLabel(tr("Achieved FP32 FLOP/s"));

    m_theoreticalRoof = m_plot->addGraph();
    m_theoreticalRoof->setName(tr("Theoretical roof (device attributes)"));
    m_measuredRoof = m_plot->addGraph();
    m_measuredRoof->setName(tr("Measured roof (this GPU)"));
    m_baselinePoints = m_plot->addGraph();
    m_baselinePoints->setName(tr("Baseline kernels"));
    m_baselinePoints->setLineStyle(QCPGraph::lsNone);
    m_points = m_plot->addGraph();
    m_points->setName(tr("Kernels"));
    m_points->setLineStyle(QCPGraph::lsNone);

    // Room for the last x tick label ("10000") at the right edge.
    m_plot->axisRect()->setMinimumMargins(QMargins(0, 0, 28, 0));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    connect(m_plot, &QCustomPlot::afterLayout, this, &ProfileRooflinePlot::placeCeilingLabels);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ProfileRooflinePlot::hover);

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("rooflineNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_note);
    applyStyle();
    setSession(session::Session{}, nullptr);
}

QCPCurve* ProfileRooflinePlot::ladderCurve(const QString& ladder) const
{
    auto it = m_ladderCurves.find(ladder);
    return it == m_ladderCurves.end() ? nullptr : it->second;
}

QStringList ProfileRooflinePlot::ladders() const
{
    QStringList names;
    for (const auto& [name, curve] : m_ladderCurves)
        names << name;
    return names;
}

QString ProfileRooflinePlot::noteText() const { return m_note->text(); }

void ProfileRooflinePlot::setSession(const session::Session& current, const session::Session* baseline)
{
    m_model = rooflinePoints(current);
    m_baselineModel = baseline ? rooflinePoints(*baseline) : std::vector<RooflinePoint>{};
    m_ceilings = rooflineCeilings(current);

    QStringList notes;
    if (current.ceilings) {
        const session::CeilingsRecord& c = *current.ceilings;
        notes << tr("Solid roofs: measured on this GPU: DRAM %1 (%2), FP32 %3 (%4).")
                     .arg(formatBytesPerSecond(m_ceilings.measuredBytesPerSecond),
                          QString::fromStdString(c.measuredDramMethod).toHtmlEscaped(),
                          formatFlopsPerSecond(m_ceilings.measuredFlopsPerSecond),
                          QString::fromStdString(c.measuredFp32Method).toHtmlEscaped());
        notes << tr("Dashed: theoretical from the device's attributes: DRAM %1, FP32 %2 (%3).")
                     .arg(formatBytesPerSecond(m_ceilings.theoreticalBytesPerSecond),
                          formatFlopsPerSecond(m_ceilings.theoreticalFlopsPerSecond),
                          QString::fromStdString(c.theoreticalSource).toHtmlEscaped());
    } else {
        notes << tr("This session has no ceilings record, so no roofs are drawn.");
    }
    QStringList missing;
    for (const RooflinePoint& point : m_model)
        if (!point.plotted)
            missing << QStringLiteral("<b>%1</b>: %2").arg(QString::fromStdString(point.kernel).toHtmlEscaped(),
                                                           point.notPlottedReason.toHtmlEscaped());
    if (!missing.isEmpty())
        notes << tr("Not on the plot: ") + missing.join(QStringLiteral("; ")) + QLatin1Char('.');
    if (m_model.empty())
        notes << tr("No kernels in this session yet.");
    m_note->setText(notes.join(QStringLiteral("<br>")));
    rebuild();
}

void ProfileRooflinePlot::rebuild()
{
    m_plot->clearItems();
    for (auto& [name, curve] : m_ladderCurves)
        m_plot->removePlottable(curve);
    m_ladderCurves.clear();
    m_ceilingLabels.clear();

    // Axis ranges: whole decades around the points and the ridge points, at least three decades of FLOP/s.
    std::vector<double> xs, ys;
    for (const auto* model : {&m_model, &m_baselineModel})
        for (const RooflinePoint& p : *model)
            if (p.plotted) {
                xs.push_back(p.intensity);
                ys.push_back(p.flopsPerSecond);
            }
    const RooflineCeilings& c = m_ceilings;
    if (c.measuredBytesPerSecond > 0 && c.measuredFlopsPerSecond > 0)
        xs.push_back(c.measuredFlopsPerSecond / c.measuredBytesPerSecond);
    if (c.theoreticalBytesPerSecond > 0 && c.theoreticalFlopsPerSecond > 0)
        xs.push_back(c.theoreticalFlopsPerSecond / c.theoreticalBytesPerSecond);
    double yTop = 0;
    for (double y : ys)
        yTop = std::max(yTop, y);
    yTop = std::max({yTop, c.measuredFlopsPerSecond, c.theoreticalFlopsPerSecond});
    const double xLow = xs.empty() ? 0.01 : decadeBelow(*std::min_element(xs.begin(), xs.end()), 0.3);
    const double xHigh = xs.empty() ? 100.0 : decadeAbove(*std::max_element(xs.begin(), xs.end()), 0.3);
    if (yTop <= 0)
        yTop = 1e12;
    double yBottom = yTop / 1e3;
    for (double y : ys)
        yBottom = std::min(yBottom, y);
    m_plot->xAxis->setRange(xLow, xHigh);
    m_plot->yAxis->setRange(decadeBelow(yBottom, 0.3), decadeAbove(yTop, 0.15));

    auto roofData = [&](QCPGraph* graph, double bandwidth, double compute) {
        QVector<double> x, y;
        if (bandwidth > 0 || compute > 0) {
            std::vector<double> at = {xLow, xHigh};
            if (bandwidth > 0 && compute > 0)
                at.insert(at.begin() + 1, std::clamp(compute / bandwidth, xLow, xHigh));
            for (double xi : at) {
                x << xi;
                y << roofAt(xi, bandwidth, compute);
            }
        }
        graph->setData(x, y, true);
    };
    roofData(m_measuredRoof, c.measuredBytesPerSecond, c.measuredFlopsPerSecond);
    roofData(m_theoreticalRoof, c.theoreticalBytesPerSecond, c.theoreticalFlopsPerSecond);
    m_measuredRoof->setVisible(!m_measuredRoof->data()->isEmpty());
    m_theoreticalRoof->setVisible(!m_theoreticalRoof->data()->isEmpty());

    // Ceiling labels: the memory roof's label follows its slope (set once the layout is known).
    const QColor text = palette().color(QPalette::Text);
    const QColor muted = palette().color(QPalette::PlaceholderText);
    auto addLabel = [&](const QString& label, double bandwidth, double compute, bool theoretical) {
        if (compute > 0) {
            auto* item = new QCPItemText(m_plot);
            item->setText(label.arg(formatFlopsPerSecond(compute)));
            item->setFont(plotFont(font(), !theoretical));
            item->setColor(theoretical ? muted : text);
            item->position->setCoords(xHigh / 1.15, compute);
            item->setPositionAlignment(Qt::AlignRight | (theoretical ? Qt::AlignBottom : Qt::AlignTop));
            item->setClipToAxisRect(true);
        }
        if (bandwidth > 0) {
            const double ridge = compute > 0 ? compute / bandwidth : xHigh;
            const double yLow = m_plot->yAxis->range().lower;
            const double x0 = std::max(xLow * 1.3, yLow * 2.5 / bandwidth);
            if (x0 * 4 < ridge) {
                auto* item = new QCPItemText(m_plot);
                item->setText(QStringLiteral("DRAM %1 (%2)").arg(formatBytesPerSecond(bandwidth),
                                                                theoretical ? tr("theoretical") : tr("measured")));
                item->setFont(plotFont(font(), !theoretical));
                item->setColor(theoretical ? muted : text);
                item->position->setCoords(x0, x0 * bandwidth);
                item->setPositionAlignment(Qt::AlignLeft | (theoretical ? Qt::AlignBottom : Qt::AlignTop));
                item->setClipToAxisRect(true);
                m_ceilingLabels.push_back({item, x0, x0 * 4, bandwidth, 0});
            }
        }
    };
    addLabel(tr("FP32 %1 (measured)"), c.measuredBytesPerSecond, c.measuredFlopsPerSecond, false);
    addLabel(tr("FP32 %1 (theoretical)"), c.theoreticalBytesPerSecond, c.theoreticalFlopsPerSecond, true);

    // Kernel points, labelled; ladders joined in rung order (a curve keeps that order, a graph would sort by x).
    QVector<double> px, py;
    std::map<std::string, std::vector<const RooflinePoint*>> ladders;
    int labelIndex = 0;
    for (const RooflinePoint& p : m_model) {
        if (!p.plotted)
            continue;
        px << p.intensity;
        py << p.flopsPerSecond;
        if (!p.ladder.empty())
            ladders[p.ladder].push_back(&p);
        auto* label = new QCPItemText(m_plot);
        label->setText(QString::fromStdString(p.kernel));
        label->setFont(plotFont(font()));
        label->setColor(text);
        label->position->setCoords(p.intensity, p.flopsPerSecond);
        label->setPositionAlignment(Qt::AlignLeft | (labelIndex++ % 2 == 0 ? Qt::AlignBottom : Qt::AlignTop));
        label->setPadding(QMargins(6, 2, 2, 2));
        label->setClipToAxisRect(false);
    }
    m_points->setData(px, py);
    int ladderIndex = 0;
    for (auto& [ladder, rungs] : ladders) {
        std::stable_sort(rungs.begin(), rungs.end(), [](const RooflinePoint* a, const RooflinePoint* b) { return a->rung < b->rung; });
        if (rungs.size() < 2)
            continue;
        auto* curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
        const QString name = QString::fromStdString(ladder);
        curve->setName(tr("%1 ladder (rung order)").arg(name));
        QVector<double> t, x, y;
        for (const RooflinePoint* p : rungs) {
            t << p->rung;
            x << p->intensity;
            y << p->flopsPerSecond;
        }
        curve->setData(t, x, y);
        const QColor colour(ladderColour(ladderIndex++));
        curve->setPen(QPen(colour, 1.8));
        curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 8));
        m_ladderCurves[name] = curve;
    }

    // The baseline's kernels, hollow, each joined to the same kernel now by an arrow.
    QVector<double> bx, by;
    for (const RooflinePoint& b : m_baselineModel) {
        if (!b.plotted)
            continue;
        bx << b.intensity;
        by << b.flopsPerSecond;
        for (const RooflinePoint& p : m_model)
            if (p.plotted && p.kernel == b.kernel && (p.intensity != b.intensity || p.flopsPerSecond != b.flopsPerSecond)) {
                auto* arrow = new QCPItemLine(m_plot);
                arrow->start->setCoords(b.intensity, b.flopsPerSecond);
                arrow->end->setCoords(p.intensity, p.flopsPerSecond);
                arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
                arrow->setPen(QPen(muted, 1));
            }
    }
    m_baselinePoints->setData(bx, by);
    m_baselinePoints->setVisible(!bx.isEmpty());
    m_baselinePoints->removeFromLegend();
    if (!bx.isEmpty())
        m_baselinePoints->addToLegend();
    applyStyle();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ProfileRooflinePlot::placeCeilingLabels()
{
    for (const CeilingLabel& label : m_ceilingLabels) {
        const double x0 = m_plot->xAxis->coordToPixel(label.x0);
        const double y0 = m_plot->yAxis->coordToPixel(label.x0 * label.bytesPerSecond);
        const double x1 = m_plot->xAxis->coordToPixel(label.x1);
        const double y1 = m_plot->yAxis->coordToPixel(label.x1 * label.bytesPerSecond);
        label.item->setRotation(std::atan2(y1 - y0, x1 - x0) * 180.0 / M_PI);
    }
}

void ProfileRooflinePlot::applyStyle()
{
    const QPalette& pal = palette();
    m_plot->setBackground(pal.brush(QPalette::Base));
    m_plot->axisRect()->setBackground(pal.brush(QPalette::Base));
    styleAxis(m_plot->xAxis, pal, font(), true);
    styleAxis(m_plot->yAxis, pal, font(), true);
    const QColor text = pal.color(QPalette::Text);
    QColor roof = text;
    roof.setAlphaF(0.85);
    QColor theoretical = text;
    theoretical.setAlphaF(0.45);
    m_measuredRoof->setPen(QPen(roof, 2.2));
    m_theoreticalRoof->setPen(QPen(theoretical, 1.4, Qt::DashLine));
    const QColor accent = pal.color(QPalette::Highlight);
    m_points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, accent, accent, 8));
    m_baselinePoints->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(theoretical, 1.5), Qt::NoBrush, 9));
    m_plot->legend->setFont(plotFont(font()));
    m_plot->legend->setTextColor(text);
    QColor legendBackground = pal.color(QPalette::Base);
    legendBackground.setAlphaF(0.85);
    m_plot->legend->setBrush(legendBackground);
    m_plot->legend->setBorderPen(QPen(theoretical, 1));
}

void ProfileRooflinePlot::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_note != nullptr)
        rebuild();
}

void ProfileRooflinePlot::hover(QMouseEvent* event)
{
    const QPointF at = event->position();
    const RooflinePoint* nearest = nullptr;
    double best = 12.0 * 12.0;
    for (const RooflinePoint& p : m_model) {
        if (!p.plotted)
            continue;
        const double dx = m_plot->xAxis->coordToPixel(p.intensity) - at.x();
        const double dy = m_plot->yAxis->coordToPixel(p.flopsPerSecond) - at.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = &p;
        }
    }
    if (nearest == nullptr) {
        QToolTip::hideText();
        return;
    }
    QString text = tr("<b>%1</b><br>%2 FLOP per DRAM byte<br>%3 FP32, DRAM %4")
                       .arg(QString::fromStdString(nearest->kernel).toHtmlEscaped(), formatRatio(nearest->intensity),
                            formatFlopsPerSecond(nearest->flopsPerSecond), formatBytesPerSecond(nearest->dramBytesPerSecond));
    const double roof = roofAt(nearest->intensity, m_ceilings.measuredBytesPerSecond, m_ceilings.measuredFlopsPerSecond);
    if (roof > 0)
        text += tr("<br>%1 of the measured roof at this intensity").arg(formatPercent(nearest->flopsPerSecond / roof * 100.0));
    QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

} // namespace warpscope::viz
