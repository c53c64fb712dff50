#include "profile/profile_roofline_plot.h"
#include "common/export_actions.h"
#include "common/plot_style.h"

#include "profile/profile_format.h"
#include "profile/profile_roofline_table.h"
#include "session/session.h"
#include "session/sgemm_reference.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QFontMetricsF>
#include <QLabel>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::viz {
namespace {

using namespace profile;
using session::MemoryLevel;

// One colour and one marker per level, so the levels stay apart in grey print too.
QColor levelColour(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1: return QColor(QStringLiteral("#2ca02c"));
    case MemoryLevel::L2: return QColor(QStringLiteral("#e07b00"));
    case MemoryLevel::Dram: return QColor(QStringLiteral("#1f77b4"));
    }
    return {};
}

QCPScatterStyle::ScatterShape levelShape(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1: return QCPScatterStyle::ssTriangle;
    case MemoryLevel::L2: return QCPScatterStyle::ssSquare;
    case MemoryLevel::Dram: return QCPScatterStyle::ssDisc;
    }
    return QCPScatterStyle::ssDisc;
}

QString levelText(MemoryLevel level) { return QString::fromLatin1(session::levelName(level).data()); }

// cuBLAS's line: a colour no level uses.
QColor sgemmColour() { return QColor(QStringLiteral("#8e44ad")); }

// Red, apart from the levels' green, orange and blue and from SGEMM's purple; lighter on a dark background.
QColor warmCachesColour(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(QStringLiteral("#ff6b6b")) : QColor(QStringLiteral("#d62728"));
}

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

// Where a bandwidth roof meets the compute roof its kind ends at: measured with measured, peak with
// peak, either with the other when its own is missing.
double computeFor(const session::RooflineRoofs& roofs, bool measured)
{
    if (measured)
        return roofs.measuredFlopsPerSecond > 0 ? roofs.measuredFlopsPerSecond : roofs.peakFlopsPerSecond;
    return roofs.peakFlopsPerSecond > 0 ? roofs.peakFlopsPerSecond : roofs.measuredFlopsPerSecond;
}

double bandwidthOf(const session::LevelRoofs& roofs, bool measured)
{
    return measured ? roofs.measured.bytesPerSecond : roofs.peak.bytesPerSecond;
}

// The level a kernel is labelled at: its rightmost point, where the label has the most room.
const session::LevelPoint* labelPoint(const session::KernelRoofline& k)
{
    const session::LevelPoint* best = nullptr;
    for (const session::LevelPoint& p : k.levels)
        if (p.plotted() && (best == nullptr || p.intensity > best->intensity))
            best = &p;
    return best;
}

} // namespace

ProfileRooflinePlot::ProfileRooflinePlot(QWidget* parent) : QWidget(parent)
{
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("rooflinePlot"));
    installFigureExport(m_plot, QStringLiteral("roofline"));
    m_plot->setMinimumHeight(280);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogTicker(false)));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogTicker(true)));
    m_plot->xAxis->setLabel(tr("Arithmetic intensity (FP32 FLOP per byte moved at each level)"));
    m_plot->yAxis->setLabel(tr("Achieved FP32 FLOP/s"));
    // Ladder lines under the points, so a line never hides a marker.
    m_plot->addLayer(QStringLiteral("ladders"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);

    m_computeRoofs[1] = m_plot->addGraph();
    m_computeRoofs[1]->setName(tr("Peak roofs (dashed)"));
    m_computeRoofs[0] = m_plot->addGraph();
    m_computeRoofs[0]->setName(tr("Measured roofs (solid)"));
    for (MemoryLevel level : session::kMemoryLevels)
        for (int kind = 1; kind >= 0; --kind)
            m_slopes[index(level)][kind] = m_plot->addGraph();
    m_sgemmReference = m_plot->addGraph();
    m_sgemmReference->setName(tr("cuBLAS SGEMM (matmul reference, dotted)"));
    for (MemoryLevel level : session::kMemoryLevels) {
        QCPGraph* baseline = m_plot->addGraph();
        baseline->setName(tr("Baseline kernels (hollow)"));
        baseline->setLineStyle(QCPGraph::lsNone);
        m_baselinePoints[index(level)] = baseline;
    }
    for (MemoryLevel level : session::kMemoryLevels) {
        QCPGraph* points = m_plot->addGraph();
        points->setName(tr("Kernels at %1").arg(levelText(level)));
        points->setLineStyle(QCPGraph::lsNone);
        m_points[index(level)] = points;
    }

    m_warmPoints = m_plot->addGraph();
    m_warmPoints->setName(tr("DRAM below compulsory bytes: warm caches (ringed)"));
    m_warmPoints->setLineStyle(QCPGraph::lsNone);

    // Room for the last x tick label ("10000") at the right edge.
    m_plot->axisRect()->setMinimumMargins(QMargins(0, 0, 28, 0));
    // The legend in a band above the axes, three entries a row: inside, it covered the roofs'
    // upper left, where the L1 roof runs.
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->axisRect()->insetLayout()->simplify();
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowSpacing(2);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setMargins(QMargins(6, 2, 6, 2));
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setColumnSpacing(14);
    connect(m_plot, &QCustomPlot::afterLayout, this, &ProfileRooflinePlot::placeLabels);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ProfileRooflinePlot::hover);

    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("rooflineNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new ProfileRooflineTable;
    auto* below = new QWidget;
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->setSpacing(4);
    belowLayout->addWidget(m_note);
    belowLayout->addWidget(m_table, 1);
    m_splitter = new QSplitter(Qt::Vertical);
    auto* splitter = m_splitter;
    splitter->setObjectName(QStringLiteral("rooflineSplitter"));
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_plot);
    splitter->addWidget(below);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);
    applyStyle();
    setSession(session::Session{}, nullptr);
}

QCPCurve* ProfileRooflinePlot::ladderCurve(const QString& ladder, MemoryLevel level) const
{
    auto it = m_ladderCurves.find({ladder, index(level)});
    return it == m_ladderCurves.end() ? nullptr : it->second;
}

QStringList ProfileRooflinePlot::ladders() const
{
    QStringList names;
    for (const auto& [key, curve] : m_ladderCurves)
        if (!names.contains(key.first))
            names << key.first;
    return names;
}

QString ProfileRooflinePlot::noteText() const { return m_note->text(); }

void ProfileRooflinePlot::setSession(const session::Session& current, const session::Session* baseline)
{
    m_kernels = session::kernelRooflines(current);
    m_baselineKernels = baseline ? session::kernelRooflines(*baseline) : std::vector<session::KernelRoofline>{};
    m_roofs = session::rooflineRoofs(current);
    const session::SgemmReference reference = session::sgemmReference(current);
    m_sgemmFlopsPerSecond = reference.measured ? reference.flopsPerSecond : 0.0;
    m_sgemmN = reference.n;
    m_table->setModel(current, m_kernels, m_roofs);
    m_table->setVisible(!m_kernels.empty());
    m_note->setText(buildNote());
    fitNote();
    QStringList sources;
    auto source = [&](const QString& roof, const std::string& text) {
        if (!text.empty())
            sources << QStringLiteral("<b>%1</b>: %2").arg(roof, QString::fromStdString(text).toHtmlEscaped());
    };
    source(tr("FP32 measured"), m_roofs.measuredFlopsSource);
    source(tr("FP32 peak"), m_roofs.peakFlopsSource);
    for (MemoryLevel level : session::kMemoryLevels) {
        source(tr("%1 measured").arg(levelText(level)), m_roofs.at(level).measured.source);
        source(tr("%1 peak").arg(levelText(level)), m_roofs.at(level).peak.source);
    }
    m_note->setToolTip(sources.join(QStringLiteral("<br>")));
    rebuild();
}

// One line on the roofs (measured / peak per level), then one short line per roof that is missing.
QString ProfileRooflinePlot::buildNote() const
{
    auto pair = [](double measured, double peak, QString (*format)(double)) {
        return (measured > 0 ? format(measured) : QStringLiteral("\u2014")) + QStringLiteral(" / ") +
               (peak > 0 ? format(peak) : QStringLiteral("\u2014"));
    };
    QStringList roofs;
    roofs << tr("FP32 %1").arg(pair(m_roofs.measuredFlopsPerSecond, m_roofs.peakFlopsPerSecond, formatFlopsPerSecond));
    QStringList missing;
    for (MemoryLevel level : session::kMemoryLevels) {
        const session::LevelRoofs& r = m_roofs.at(level);
        if (!r.missing.empty()) {
            roofs << tr("%1 none").arg(levelText(level));
            missing << QString::fromStdString(r.missing).toHtmlEscaped();
        } else {
            roofs << tr("%1 %2").arg(levelText(level), pair(r.measured.bytesPerSecond, r.peak.bytesPerSecond, formatBytesPerSecond));
        }
    }
    const session::LevelRoofs& l1 = m_roofs.at(MemoryLevel::L1);
    if (l1.missing.empty() && l1.peak.source.rfind("from the device", 0) == 0)
        missing << tr("L1 peak from the device's attributes (SMs \u00d7 128 bytes/cycle \u00d7 peak clock), not measured.");
    QStringList lines;
    lines << tr("<b>Roofs</b>, measured (solid) / peak (dashed): ") + roofs.join(QStringLiteral(" \u00b7 ")) +
                 tr(". Hover here for their sources, a point for its numbers.");
    if (m_sgemmFlopsPerSecond > 0)
        lines << tr("<b>cuBLAS SGEMM</b> at n = %1, %2 (dotted): the matmul ladder's reference rung; each rung's share of it "
                    "is in the table.")
                     .arg(QString::number(m_sgemmN), formatFlopsPerSecond(m_sgemmFlopsPerSecond));
    QStringList warm;
    for (const session::KernelRoofline& k : m_kernels)
        if (k.warmCaches())
            warm << QString::fromStdString(k.kernel).toHtmlEscaped();
    if (!warm.isEmpty())
        lines << tr("<b>Warm caches</b> (ringed): %1 moved fewer DRAM bytes than %2 buffers hold, each read or written at "
                    "least once; L2 served the rest, so %3 right of where a cold run would be (the dotted arrow). Hover "
                    "for the numbers.")
                     .arg(warm.join(QStringLiteral(", ")), warm.size() == 1 ? tr("its") : tr("their"),
                          warm.size() == 1 ? tr("its point sits") : tr("their points sit"));
    for (const QString& line : missing)
        lines << line;
    if (m_kernels.empty())
        lines << tr("No kernels in this session yet.");
    return lines.join(QStringLiteral("<br>"));
}

QString ProfileRooflinePlot::hoverText(const QString& kernel, MemoryLevel level) const
{
    for (const session::KernelRoofline& k : m_kernels) {
        if (QString::fromStdString(k.kernel) != kernel)
            continue;
        const session::LevelPoint& p = k.at(level);
        if (!p.plotted())
            return {};
        const QString name = levelText(level);
        QString text = QStringLiteral("<b>%1</b>").arg(kernel.toHtmlEscaped());
        if (!k.ladder.empty())
            text += tr(" (%1 ladder, rung %2)").arg(QString::fromStdString(k.ladder).toHtmlEscaped(), QString::number(k.rung));
        text += tr("<br><b>%1</b>: %2 FLOP per %1 byte (%3 moved)")
                    .arg(name, QString::number(p.intensity, 'g', 3), formatBytes(p.bytes));
        text += tr("<br>%1 FP32, %2 %3").arg(formatFlopsPerSecond(k.flopsPerSecond), name, formatBytesPerSecond(p.bytesPerSecond));
        const double share = session::shareOfRoof(k, level, m_roofs);
        const session::LevelRoofs& roof = m_roofs.at(level);
        if (!std::isnan(share))
            text += tr("<br>%1 of the %2 %3 roof at this intensity")
                        .arg(formatPercent(share * 100.0), roof.measured.bytesPerSecond > 0 ? tr("measured") : tr("peak"), name);
        else
            text += tr("<br>no %1 roof in this session to compare with").arg(name);
        if (level == MemoryLevel::Dram && k.warmCaches())
            text += tr("<br><b>Warm caches</b>: ") + QString::fromStdString(session::warmCachesExplanation(k)).toHtmlEscaped();
        return text;
    }
    return {};
}

void ProfileRooflinePlot::rebuild()
{
    m_plot->clearItems();
    for (auto& [key, curve] : m_ladderCurves)
        m_plot->removePlottable(curve);
    m_ladderCurves.clear();
    m_slopeLabels.clear();
    m_kernelLabels.clear();
    m_warmArrows.clear();
    setAxisRanges();
    drawRoofs();
    drawPoints();
    drawBaseline();
    applyStyle();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// Whole decades around the points and the ridges, at least three decades of FLOP/s.
void ProfileRooflinePlot::setAxisRanges()
{
    std::vector<double> xs, ys;
    for (const auto* model : {&m_kernels, &m_baselineKernels})
        for (const session::KernelRoofline& k : *model)
            for (const session::LevelPoint& p : k.levels)
                if (p.plotted()) {
                    xs.push_back(p.intensity);
                    ys.push_back(k.flopsPerSecond);
                }
    for (const session::KernelRoofline& k : m_kernels)
        if (k.warmCaches())
            xs.push_back(k.coldIntensity()); // the arrow's head stays in view
    for (MemoryLevel level : session::kMemoryLevels)
        for (bool measured : {true, false}) {
            const double bandwidth = bandwidthOf(m_roofs.at(level), measured), compute = computeFor(m_roofs, measured);
            if (bandwidth > 0 && compute > 0) {
                xs.push_back(compute / bandwidth);
                xs.push_back(compute / bandwidth / 10.0); // a decade of each slope stays in view, with room for its label
            }
        }
    double yTop = std::max({m_roofs.measuredFlopsPerSecond, m_roofs.peakFlopsPerSecond, m_sgemmFlopsPerSecond});
    for (double y : ys)
        yTop = std::max(yTop, y);
    m_xLow = xs.empty() ? 0.01 : decadeBelow(*std::min_element(xs.begin(), xs.end()), 0.3);
    m_xHigh = xs.empty() ? 100.0 : decadeAbove(*std::max_element(xs.begin(), xs.end()), 0.3);
    if (yTop <= 0)
        yTop = 1e12;
    double yBottom = yTop / 1e3;
    for (double y : ys)
        yBottom = std::min(yBottom, y);
    m_plot->xAxis->setRange(m_xLow, m_xHigh);
    // Headroom over the FP32 roofs for their labels: 0.4 of a decade, not a whole one.
    m_plot->yAxis->setRange(decadeBelow(yBottom, 0.3), yTop * 2.5);
}

void ProfileRooflinePlot::drawRoofs()
{
    const double xLow = m_xLow, xHigh = m_xHigh;
    const double yLow = m_plot->yAxis->range().lower;
    const QColor text = palette().color(QPalette::Text);
    const QColor muted = palette().color(QPalette::PlaceholderText);

    // Each bandwidth roof rises to the compute roof of its kind; the flat roofs start at the
    // leftmost ridge, so the drawn roof is min(intensity x bandwidth, compute) at every x.
    std::array<double, 2> leftmostRidge{xHigh, xHigh};
    for (MemoryLevel level : session::kMemoryLevels) {
        for (int kind = 0; kind < 2; ++kind) {
            const bool measured = kind == 0;
            QCPGraph* slope = m_slopes[index(level)][kind];
            const double bandwidth = bandwidthOf(m_roofs.at(level), measured);
            const double compute = computeFor(m_roofs, measured);
            QVector<double> x, y;
            if (bandwidth > 0) {
                const double ridge = compute > 0 ? std::clamp(compute / bandwidth, xLow, xHigh) : xHigh;
                x << xLow << ridge;
                y << xLow * bandwidth << ridge * bandwidth;
                for (int c = 0; c < 2; ++c)
                    if (computeFor(m_roofs, c == 0) == compute)
                        leftmostRidge[c] = std::min(leftmostRidge[c], ridge);
                // The label follows the slope near its foot (its angle is set once the layout is known).
                // L2's labels sit further along their slope than L1's and DRAM's, so labels of
                // neighbouring roofs (one below its line, the next above its own) do not meet.
                const double foot = std::max(xLow * 1.3, yLow * 2.5 / bandwidth);
                const double x0 = level == MemoryLevel::L2 && foot * 12 < ridge ? foot * 3 : foot;
                if (x0 * 4 < ridge) {
                    auto* item = new QCPItemText(m_plot);
                    item->setText(QStringLiteral("%1 %2 (%3)").arg(levelText(level), formatBytesPerSecond(bandwidth),
                                                                  measured ? tr("measured") : tr("peak")));
                    item->setFont(plotFont(font(), measured));
                    item->setColor(levelColour(level));
                    item->position->setCoords(x0, x0 * bandwidth);
                    item->setPositionAlignment(Qt::AlignLeft | (measured ? Qt::AlignTop : Qt::AlignBottom));
                    item->setClipToAxisRect(true);
                    m_slopeLabels.push_back({item, x0, x0 * 4, bandwidth});
                }
            }
            slope->setData(x, y, true);
            slope->setVisible(!x.isEmpty());
        }
    }
    for (int kind = 0; kind < 2; ++kind) {
        const bool measured = kind == 0;
        const double compute = measured ? m_roofs.measuredFlopsPerSecond : m_roofs.peakFlopsPerSecond;
        QVector<double> x, y;
        if (compute > 0) {
            x << (leftmostRidge[kind] < xHigh ? leftmostRidge[kind] : xLow) << xHigh;
            y << compute << compute;
            auto* item = new QCPItemText(m_plot);
            item->setText(tr("FP32 %1 (%2)").arg(formatFlopsPerSecond(compute), measured ? tr("measured") : tr("peak")));
            item->setFont(plotFont(font(), measured));
            item->setColor(measured ? text : muted);
            item->position->setCoords(xHigh / 1.15, compute);
            item->setPositionAlignment(Qt::AlignRight | (measured ? Qt::AlignTop : Qt::AlignBottom));
            item->setClipToAxisRect(true);
        }
        m_computeRoofs[kind]->setData(x, y, true);
        m_computeRoofs[kind]->setVisible(!x.isEmpty());
    }
    // The matmul ladder's reference: where a rung would be level with cuBLAS, whatever its intensity.
    QVector<double> x, y;
    if (m_sgemmFlopsPerSecond > 0) {
        x << xLow << xHigh;
        y << m_sgemmFlopsPerSecond << m_sgemmFlopsPerSecond;
        auto* item = new QCPItemText(m_plot);
        item->setText(tr("cuBLAS SGEMM, n = %1: %2").arg(QString::number(m_sgemmN), formatFlopsPerSecond(m_sgemmFlopsPerSecond)));
        item->setFont(plotFont(font()));
        item->setColor(sgemmColour());
        item->position->setCoords(xLow * 1.3, m_sgemmFlopsPerSecond);
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        item->setClipToAxisRect(true);
    }
    m_sgemmReference->setData(x, y, true);
    m_sgemmReference->setVisible(!x.isEmpty());
}

// The kernels' points per level, each kernel named once (at its rightmost point); ladders joined in
// rung order at every level (a curve keeps that order, a graph would sort by x).
void ProfileRooflinePlot::drawPoints()
{
    const QColor text = palette().color(QPalette::Text);
    QColor leaderColour = palette().color(QPalette::PlaceholderText);
    leaderColour.setAlphaF(0.6);
    for (MemoryLevel level : session::kMemoryLevels) {
        QVector<double> px, py;
        std::map<std::string, std::vector<const session::KernelRoofline*>> ladders;
        for (const session::KernelRoofline& k : m_kernels) {
            const session::LevelPoint& p = k.at(level);
            if (!p.plotted())
                continue;
            px << p.intensity;
            py << k.flopsPerSecond;
            if (!k.ladder.empty())
                ladders[k.ladder].push_back(&k);
        }
        m_points[index(level)]->setData(px, py);
        for (auto& [ladder, rungs] : ladders) {
            std::stable_sort(rungs.begin(), rungs.end(), [](const auto* a, const auto* b) { return a->rung < b->rung; });
            if (rungs.size() < 2)
                continue;
            auto* curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
            curve->setLayer(QStringLiteral("ladders"));
            const QString name = QString::fromStdString(ladder);
            curve->setName(tr("%1 ladder at %2 (rung order)").arg(name, levelText(level)));
            QVector<double> t, x, y;
            for (const session::KernelRoofline* k : rungs) {
                t << k->rung;
                x << k->at(level).intensity;
                y << k->flopsPerSecond;
            }
            curve->setData(t, x, y);
            QColor colour = levelColour(level);
            colour.setAlphaF(0.55);
            curve->setPen(QPen(colour, 1.4));
            curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
            m_ladderCurves[{name, index(level)}] = curve;
        }
    }
    // Warm caches: a ring around the DRAM point and a dotted arrow left to the cold run's intensity,
    // at the same FLOP/s (what the kernel did is the same; only the bytes DRAM had to move differ).
    QVector<double> wx, wy;
    for (const session::KernelRoofline& k : m_kernels) {
        if (!k.warmCaches())
            continue;
        wx << k.at(MemoryLevel::Dram).intensity;
        wy << k.flopsPerSecond;
        auto* arrow = new QCPItemLine(m_plot);
        arrow->start->setCoords(k.at(MemoryLevel::Dram).intensity, k.flopsPerSecond);
        arrow->end->setCoords(k.coldIntensity(), k.flopsPerSecond);
        arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
        m_warmArrows.push_back(arrow);
    }
    m_warmPoints->setData(wx, wy);
    for (const session::KernelRoofline& k : m_kernels) {
        const session::LevelPoint* at = labelPoint(k);
        if (at == nullptr)
            continue;
        KernelLabel label;
        label.kernel = QString::fromStdString(k.kernel);
        label.x = at->intensity;
        label.y = k.flopsPerSecond;
        label.item = new QCPItemText(m_plot);
        label.item->setText(label.kernel);
        label.item->setFont(plotFont(font()));
        label.item->setColor(text);
        label.item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label.item->setPadding(QMargins(7, 1, 2, 1));
        label.item->setClipToAxisRect(false);
        label.item->position->setCoords(label.x, label.y);
        label.leader = new QCPItemLine(m_plot);
        label.leader->setPen(QPen(leaderColour, 1));
        label.leader->setVisible(false);
        m_kernelLabels.push_back(label);
    }
}

// The baseline's kernels, hollow, each joined to the same kernel now by an arrow, at every level.
void ProfileRooflinePlot::drawBaseline()
{
    const QColor muted = palette().color(QPalette::PlaceholderText);
    bool any = false;
    for (MemoryLevel level : session::kMemoryLevels) {
        QVector<double> bx, by;
        for (const session::KernelRoofline& b : m_baselineKernels) {
            const session::LevelPoint& was = b.at(level);
            if (!was.plotted())
                continue;
            bx << was.intensity;
            by << b.flopsPerSecond;
            for (const session::KernelRoofline& k : m_kernels) {
                const session::LevelPoint& now = k.at(level);
                if (k.kernel != b.kernel || !now.plotted() || (now.intensity == was.intensity && k.flopsPerSecond == b.flopsPerSecond))
                    continue;
                auto* arrow = new QCPItemLine(m_plot);
                arrow->start->setCoords(was.intensity, b.flopsPerSecond);
                arrow->end->setCoords(now.intensity, k.flopsPerSecond);
                arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
                arrow->setPen(QPen(muted, 1));
            }
        }
        QCPGraph* graph = m_baselinePoints[index(level)];
        graph->setData(bx, by);
        graph->setVisible(!bx.isEmpty());
        graph->removeFromLegend();
        if (!bx.isEmpty() && !any)
            graph->addToLegend(); // one legend entry for the hollow points of every level
        any = any || !bx.isEmpty();
    }
}

std::vector<QRectF> ProfileRooflinePlot::markerBoxes() const
{
    std::vector<QRectF> boxes;
    for (MemoryLevel level : session::kMemoryLevels) {
        const double size = m_points[index(level)]->scatterStyle().size() + 2;
        for (const session::KernelRoofline& k : m_kernels)
            if (k.at(level).plotted()) {
                const QPointF at(m_plot->xAxis->coordToPixel(k.at(level).intensity), m_plot->yAxis->coordToPixel(k.flopsPerSecond));
                boxes.emplace_back(at.x() - size / 2, at.y() - size / 2, size, size);
            }
    }
    return boxes;
}

std::vector<std::pair<QString, QRectF>> ProfileRooflinePlot::kernelLabelBoxes() const
{
    std::vector<std::pair<QString, QRectF>> boxes;
    for (const KernelLabel& label : m_kernelLabels)
        boxes.emplace_back(label.kernel, QRectF(label.item->topLeft->pixelPosition(), label.item->bottomRight->pixelPosition()));
    return boxes;
}

// Once the layout is known: slope labels turn to their roof's angle; kernel labels are spread so
// none covers another, with a thin line back to the point when one had to move.
void ProfileRooflinePlot::placeLabels()
{
    for (const SlopeLabel& label : m_slopeLabels) {
        const double x0 = m_plot->xAxis->coordToPixel(label.x0);
        const double y0 = m_plot->yAxis->coordToPixel(label.x0 * label.bytesPerSecond);
        const double x1 = m_plot->xAxis->coordToPixel(label.x1);
        const double y1 = m_plot->yAxis->coordToPixel(label.x1 * label.bytesPerSecond);
        label.item->setRotation(std::atan2(y1 - y0, x1 - x0) * 180.0 / M_PI);
    }
    // The boxes are the labels' text, without the left padding that keeps the text off its own
    // point: so a label may start beside its own marker, but is pushed off every other one.
    std::vector<QRectF> natural;
    for (const KernelLabel& label : m_kernelLabels) {
        const QFontMetricsF metrics(label.item->font());
        const QMargins pad = label.item->padding();
        const QSizeF size(metrics.horizontalAdvance(label.kernel) + pad.right(), metrics.height() + pad.top() + pad.bottom());
        const QPointF at(m_plot->xAxis->coordToPixel(label.x), m_plot->yAxis->coordToPixel(label.y));
        natural.emplace_back(QPointF(at.x() + pad.left(), at.y() - size.height() / 2), size);
    }
    const std::vector<QRectF> placed = spreadLabels(natural, m_plot->axisRect()->rect().bottom(), markerBoxes());
    for (std::size_t i = 0; i < m_kernelLabels.size(); ++i) {
        KernelLabel& label = m_kernelLabels[i];
        label.item->position->setPixelPosition(QPointF(placed[i].left() - label.item->padding().left(), placed[i].center().y()));
        const bool moved = std::fabs(placed[i].top() - natural[i].top()) > 3.0;
        label.leader->setVisible(moved);
        if (moved) {
            label.leader->start->setCoords(label.x, label.y);
            label.leader->end->setPixelPosition(QPointF(placed[i].left() - 2, placed[i].center().y()));
        }
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
    QColor faint = text;
    faint.setAlphaF(0.45);
    m_computeRoofs[0]->setPen(QPen(roof, 2.2));
    m_computeRoofs[1]->setPen(QPen(faint, 1.4, Qt::DashLine));
    m_sgemmReference->setPen(QPen(sgemmColour(), 1.6, Qt::DotLine));
    for (MemoryLevel level : session::kMemoryLevels) {
        const QColor colour = levelColour(level);
        m_slopes[index(level)][0]->setPen(QPen(colour, 2.2));
        QColor dashed = colour;
        dashed.setAlphaF(0.75);
        m_slopes[index(level)][1]->setPen(QPen(dashed, 1.4, Qt::DashLine));
        const double size = level == MemoryLevel::L1 ? 9 : 8;
        m_points[index(level)]->setScatterStyle(QCPScatterStyle(levelShape(level), colour, colour, size));
        QColor hollow = colour;
        hollow.setAlphaF(0.7);
        const QCPScatterStyle::ScatterShape outline = level == MemoryLevel::Dram ? QCPScatterStyle::ssCircle : levelShape(level);
        m_baselinePoints[index(level)]->setScatterStyle(QCPScatterStyle(outline, QPen(hollow, 1.5), Qt::NoBrush, size + 1));
    }
    const QColor warm = warmCachesColour(pal);
    m_warmPoints->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(warm, 2), Qt::NoBrush, 17));
    for (QCPItemLine* arrow : m_warmArrows)
        arrow->setPen(QPen(warm, 1.3, Qt::DotLine));
    m_plot->legend->clear();
    m_plot->legend->setFont(plotFont(font()));
    m_plot->legend->setTextColor(text);
    QColor legendBackground = pal.color(QPalette::Base);
    legendBackground.setAlphaF(0.85);
    m_plot->legend->setBrush(legendBackground);
    m_plot->legend->setBorderPen(QPen(faint, 1));
    // The roofs' kinds, then one entry per level that has points, then the baseline.
    for (int kind = 0; kind < 2; ++kind)
        if (!m_computeRoofs[kind]->data()->isEmpty())
            m_computeRoofs[kind]->addToLegend();
    if (!m_sgemmReference->data()->isEmpty())
        m_sgemmReference->addToLegend();
    for (MemoryLevel level : session::kMemoryLevels)
        if (!m_points[index(level)]->data()->isEmpty())
            m_points[index(level)]->addToLegend();
    if (!m_warmPoints->data()->isEmpty())
        m_warmPoints->addToLegend();
    for (MemoryLevel level : session::kMemoryLevels)
        if (!m_baselinePoints[index(level)]->data()->isEmpty()) {
            m_baselinePoints[index(level)]->addToLegend();
            break;
        }
}

void ProfileRooflinePlot::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // At first the plot gets two thirds of the height; after that the user's split is kept.
    if (!m_splitSet && height() > 0) {
        m_splitSet = true;
        const int total = m_splitter->height();
        m_splitter->setSizes({total * 2 / 3, total - total * 2 / 3});
    }
}

void ProfileRooflinePlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitNote();
}

void ProfileRooflinePlot::fitNote()
{
    // A word-wrapped label does not tell the splitter how tall it gets at its width: without this the
    // note's last line ("No L2 roof: ... (profile again") was cut off at 1280 x 800.
    QWidget* below = m_note->parentWidget();
    if (below == nullptr)
        return;
    // The note is as wide as the splitter, which is this widget less its layout's margins (known here
    // before the splitter itself is resized).
    const QMargins margins = layout() != nullptr ? layout()->contentsMargins() : QMargins();
    const int noteWidth = width() - margins.left() - margins.right();
    const int table = !m_table->isHidden() ? std::max(m_table->minimumSizeHint().height(), 3 * fontMetrics().height() + 24) : 0;
    const int note = m_note->heightForWidth(std::max(100, noteWidth));
    m_note->setMinimumHeight(note);
    below->setMinimumHeight(note + 4 + table); // the whole note, and the table's header and a few rows
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
    const session::KernelRoofline* nearest = nullptr;
    MemoryLevel nearestLevel = MemoryLevel::Dram;
    double best = 12.0 * 12.0;
    for (const session::KernelRoofline& k : m_kernels)
        for (MemoryLevel level : session::kMemoryLevels) {
            const session::LevelPoint& p = k.at(level);
            if (!p.plotted())
                continue;
            const double dx = m_plot->xAxis->coordToPixel(p.intensity) - at.x();
            const double dy = m_plot->yAxis->coordToPixel(k.flopsPerSecond) - at.y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                nearest = &k;
                nearestLevel = level;
            }
        }
    if (nearest == nullptr) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), hoverText(QString::fromStdString(nearest->kernel), nearestLevel), m_plot);
}

} // namespace warpscope::viz
