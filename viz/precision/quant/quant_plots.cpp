#include "precision/quant/quant_plots.h"

#include "numerics/number_format.h"
#include "common/plot_style.h"
#include "precision/precision_lab_style.h"
#include "precision/quant/quant_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpscope::viz {

using numerics::Calibrator;
using numerics::Format;
using numerics::QuantScheme;

namespace {

QString formatLabel(Format format)
{
    switch (format) {
    case Format::INT8: return QStringLiteral("INT8");
    case Format::INT4: return QStringLiteral("INT4");
    case Format::FP8E4M3: return QStringLiteral("FP8 E4M3");
    case Format::FP8E5M2: return QStringLiteral("FP8 E5M2");
    default: break;
    }
    const std::string_view name = numerics::formatInfo(format).name;
    return QString::fromUtf8(name.data(), static_cast<int>(name.size()));
}

QString calibratorLabel(Calibrator calibrator)
{
    switch (calibrator) {
    case Calibrator::Max: return QStringLiteral("max");
    case Calibrator::Percentile: return QStringLiteral("percentile");
    case Calibrator::Mse: return QStringLiteral("MSE-optimal");
    case Calibrator::Entropy: return QStringLiteral("entropy (KL)");
    }
    return {};
}

// Okabe and Ito's palette again, one colour per calibrator.
QColor calibratorColour(Calibrator calibrator, bool dark)
{
    switch (calibrator) {
    case Calibrator::Max: return dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    case Calibrator::Percentile: return dark ? QColor(0xff, 0x8c, 0x4a) : QColor(0xd5, 0x5e, 0x00);
    case Calibrator::Mse: return dark ? QColor(0x3c, 0xd1, 0xa4) : QColor(0x00, 0x9e, 0x73);
    case Calibrator::Entropy: return dark ? QColor(0xe6, 0x9a, 0xcf) : QColor(0xcc, 0x79, 0xa7);
    }
    return Qt::gray;
}

// A histogram as a filled staircase: each bin's count from its left edge to the next.
// On a log axis empty bins become gaps (NaN): log 0 has no place on it.
void setHistogramData(QCPGraph* graph, const numerics::Histogram* histogram, bool log)
{
    QVector<double> keys, values;
    if (histogram != nullptr && !histogram->counts.empty()) {
        for (std::size_t k = 0; k < histogram->counts.size(); ++k) {
            keys.push_back(histogram->edges[k]);
            const auto count = static_cast<double>(histogram->counts[k]);
            values.push_back(log && count == 0 ? std::numeric_limits<double>::quiet_NaN() : count);
        }
        keys.push_back(histogram->edges.back());
        values.push_back(values.back());
    }
    graph->setData(keys, values, true);
}

double tallest(const numerics::Histogram& histogram)
{
    double most = 1;
    for (std::uint64_t count : histogram.counts)
        most = std::max(most, static_cast<double>(count));
    return most;
}

QString number(double value) { return QString::number(value, 'g', 4); }

// Counts are never negative: a linear count axis that reaches below 0 (for the grid's strip) labels
// only its counts.
class CountTicker : public QCPAxisTicker {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override
    {
        QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](double tick) { return tick < 0; }), ticks.end());
        return ticks;
    }
};

// Counts on a linear axis from 0, or on a log axis from half a value (so single values show). With
// `strip`, the axis reaches a little further down for the grid's levels to be drawn under the counts.
void setCountAxis(QCPAxis* axis, bool log, double tallest, bool strip = false)
{
    if (log) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setRange(strip ? 0.5 / std::pow(2.0 * tallest, 0.12) : 0.5, tallest * 2.0);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<CountTicker>::create());
        axis->setRange(strip ? -tallest * 0.09 : 0, tallest * 1.08);
    }
}

} // namespace

// --- values, grid and clip

QuantValuePlot::QuantValuePlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("quantValuePlot"));
    setMinimumSize(300, 230);
    m_title = addFigureTitle(this, tr("Values, grid and clip range"));
    xAxis->setLabel(tr("value x (the strip under the counts: one tick per grid level)"));
    yAxis->setLabel(tr("values per bin"));
    m_values = addGraph();
    m_values->setName(tr("values"));
    m_values->setLineStyle(QCPGraph::lsStepLeft);
    m_grid = addGraph();
    m_grid->setName(tr("grid levels"));
    m_grid->setLineStyle(QCPGraph::lsImpulse);
    m_clipLow = new QCPItemStraightLine(this);
    m_clipHigh = new QCPItemStraightLine(this);
    m_clipLowText = new QCPItemText(this);
    m_clipHighText = new QCPItemText(this);
    for (QCPItemText* text : {m_clipLowText, m_clipHighText}) {
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->setPadding(QMargins(3, 1, 3, 1));
    }
    placeLegendBelow(this); // inside, it covered the distribution's shoulder and a clip label
    legend->setVisible(true);
    axisRect()->setMinimumMargins(QMargins(0, 0, 14, 0));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    connect(this, &QCustomPlot::afterLayout, this, &QuantValuePlot::placeClipLabels);
    restyle();
    setResult(nullptr);
}

void QuantValuePlot::placeClipLabels()
{
    // Inside the clip range when both labels fit between the lines, else outside them.
    const double low = m_clipLow->point1->coords().x(), high = m_clipHigh->point1->coords().x();
    const QFontMetrics metrics(m_clipLowText->font());
    const double room = xAxis->coordToPixel(high) - xAxis->coordToPixel(low);
    const double needed = metrics.horizontalAdvance(m_clipLowText->text()) + metrics.horizontalAdvance(m_clipHighText->text()) + 24;
    const bool inside = room > needed;
    m_clipLowText->setPositionAlignment((inside ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    m_clipHighText->setPositionAlignment((inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
}

void QuantValuePlot::setResult(const QuantLabResult* result)
{
    if (result == nullptr) {
        setHistogramData(m_values, nullptr, false);
        m_grid->setData(QVector<double>{}, QVector<double>{});
        for (QCPAbstractItem* item : {static_cast<QCPAbstractItem*>(m_clipLow), static_cast<QCPAbstractItem*>(m_clipHigh),
                                      static_cast<QCPAbstractItem*>(m_clipLowText), static_cast<QCPAbstractItem*>(m_clipHighText)})
            item->setVisible(false);
        replot();
        return;
    }
    const numerics::QuantPlotData& plot = result->plot;
    setHistogramData(m_values, &plot.values, m_log);
    // One thin tick per level in a strip under the counts, never over them: INT4's 16 levels stand
    // apart; INT8's 255 and FP8's 253 become a density strip that is darkest where the levels crowd.
    const double height = tallest(plot.values);
    setCountAxis(yAxis, m_log, height, true);
    const double tick = m_log ? yAxis->range().lower * std::pow(0.5 / yAxis->range().lower, 0.8) : -height * 0.075;
    QVector<double> keys(plot.grid.begin(), plot.grid.end());
    QVector<double> values(keys.size(), tick);
    m_grid->setData(keys, values, true);
    m_grid->setName(tr("grid: %n level(s)", nullptr, static_cast<int>(plot.grid.size())));
    m_clipLow->point1->setCoords(plot.clipLow, 0);
    m_clipLow->point2->setCoords(plot.clipLow, 1);
    m_clipHigh->point1->setCoords(plot.clipHigh, 0);
    m_clipHigh->point2->setCoords(plot.clipHigh, 1);
    m_clipLowText->setText(tr("clip %1").arg(number(plot.clipLow)));
    m_clipHighText->setText(tr("clip %1").arg(number(plot.clipHigh)));
    m_clipLowText->position->setCoords(plot.clipLow, 0.3);
    m_clipHighText->position->setCoords(plot.clipHigh, 0.3);
    for (QCPAbstractItem* item : {static_cast<QCPAbstractItem*>(m_clipLow), static_cast<QCPAbstractItem*>(m_clipHigh),
                                  static_cast<QCPAbstractItem*>(m_clipLowText), static_cast<QCPAbstractItem*>(m_clipHighText)})
        item->setVisible(true);
    const std::size_t slices = result->result.slices.size();
    const QString where = slices > 1 ? tr("slice %1 of %2").arg(plot.slice + 1).arg(slices) : tr("the tensor");
    m_title->setText(tr("Values of %1 on the %2 grid").arg(where, formatLabel(result->request.config.format)));
    const double low = plot.values.edges.front(), high = plot.values.edges.back();
    const double margin = (high - low) * 0.04;
    xAxis->setRange(low - margin, high + margin);
    placeClipLabels();
    replot();
}

void QuantValuePlot::restyle()
{
    styleFigure(this, m_title, false, false);
    const QPalette& pal = palette();
    const bool dark = isDarkPalette(pal);
    const QColor values = dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    m_values->setPen(QPen(values, 1.2));
    m_values->setBrush(withAlpha(values, 0.28));
    const QColor grid = dark ? QColor(0xff, 0x8c, 0x4a) : QColor(0xd5, 0x5e, 0x00);
    m_grid->setPen(QPen(withAlpha(grid, 0.7), 0.8));
    const QColor clip = warningColour(pal);
    for (QCPItemStraightLine* line : {m_clipLow, m_clipHigh})
        line->setPen(QPen(clip, 1.6, Qt::DashLine));
    for (QCPItemText* text : {m_clipLowText, m_clipHighText}) {
        text->setColor(clip);
        text->setFont(plotFont(font(), true));
        text->setBrush(withAlpha(pal.color(QPalette::Base), 0.85));
    }
}

// --- errors

QuantErrorPlot::QuantErrorPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("quantErrorPlot"));
    setMinimumSize(300, 230);
    m_title = addFigureTitle(this, tr("Quantization error x' − x"));
    xAxis->setLabel(tr("error x' − x (all values)"));
    yAxis->setLabel(tr("values per bin"));
    m_errors = addGraph();
    m_errors->setLineStyle(QCPGraph::lsStepLeft);
    for (auto*& line : m_halfStep)
        line = new QCPItemStraightLine(this);
    m_halfStepText = new QCPItemText(this);
    m_halfStepText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_halfStepText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop); // the top left: errors pile up at 0
    m_halfStepText->setPadding(QMargins(3, 1, 3, 1));
    axisRect()->setMinimumMargins(QMargins(0, 0, 14, 0));
    restyle();
    setResult(nullptr);
}

void QuantErrorPlot::setResult(const QuantLabResult* result)
{
    const numerics::Histogram* errors = result != nullptr ? &result->plot.errors : nullptr;
    setHistogramData(m_errors, errors, m_log);
    // Inside the clip range an integer grid rounds to within half a step (scale / 2) of x.
    const bool integer = result != nullptr && !numerics::formatInfo(result->request.config.format).isFloat;
    const double half = integer ? result->result.slices.at(result->plot.slice).params.scale / 2 : 0;
    m_halfStep[0]->point1->setCoords(-half, 0);
    m_halfStep[0]->point2->setCoords(-half, 1);
    m_halfStep[1]->point1->setCoords(half, 0);
    m_halfStep[1]->point2->setCoords(half, 1);
    for (auto* line : m_halfStep)
        line->setVisible(integer);
    m_halfStepText->setVisible(integer);
    m_halfStepText->setText(tr("dashed: ± scale/2 = ±%1").arg(number(half)));
    m_halfStepText->position->setCoords(0.01, 0.02);
    if (errors != nullptr) {
        const double low = errors->edges.front(), high = errors->edges.back();
        const double margin = std::max((high - low) * 0.04, 1e-12);
        xAxis->setRange(low - margin, high + margin);
        setCountAxis(yAxis, m_log, tallest(*errors));
        const numerics::QuantStats& stats = result->result.stats;
        m_title->setText(tr("Error x' − x: max |error| %1, %n clipped", nullptr, static_cast<int>(stats.clipped))
                             .arg(number(stats.maxAbsError)));
    } else {
        m_title->setText(tr("Quantization error x' − x"));
    }
    replot();
}

void QuantErrorPlot::restyle()
{
    styleFigure(this, m_title, false, false);
    const QPalette& pal = palette();
    const QColor colour = isDarkPalette(pal) ? QColor(0xe6, 0x9a, 0xcf) : QColor(0xa0, 0x4a, 0x80);
    m_errors->setPen(QPen(colour, 1.2));
    m_errors->setBrush(withAlpha(colour, 0.25));
    const QColor text = pal.color(QPalette::Text);
    for (auto* line : m_halfStep)
        line->setPen(QPen(withAlpha(text, 0.6), 1.1, Qt::DashLine));
    m_halfStepText->setColor(text);
    m_halfStepText->setFont(plotFont(font()));
    m_halfStepText->setBrush(withAlpha(pal.color(QPalette::Base), 0.85));
}

// --- SQNR by format and calibrator

QuantSqnrPlot::QuantSqnrPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("quantSqnrPlot"));
    setMinimumSize(300, 240);
    m_title = addFigureTitle(this, tr("SQNR by format and calibrator"));
    yAxis->setLabel(tr("SQNR (dB)"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t f = 0; f < std::size(numerics::kQuantTargets); ++f)
        ticker->addTick(static_cast<double>(f + 1), formatLabel(numerics::kQuantTargets[f]));
    xAxis->setTicker(ticker);
    xAxis->grid()->setVisible(false);
    xAxis->setRange(0.45, static_cast<double>(std::size(numerics::kQuantTargets)) + 0.55);
    for (Calibrator calibrator : numerics::kCalibrators) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(calibratorLabel(calibrator));
        bars->setWidth(0.19);
        m_bars.push_back(bars);
    }
    // The legend in a row of its own under the axes, so it never covers a bar.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setVisible(true);
    m_selected = new QCPItemText(this);
    m_selected->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_selected->setPadding(QMargins(2, 0, 2, 2));
    restyle();
    setResult(nullptr);
}

QCPBars* QuantSqnrPlot::barsFor(Calibrator calibrator) const
{
    for (std::size_t c = 0; c < std::size(numerics::kCalibrators); ++c)
        if (numerics::kCalibrators[c] == calibrator)
            return m_bars[c];
    return nullptr;
}

void QuantSqnrPlot::setResult(const QuantLabResult* result)
{
    double high = 1, low = 0;
    m_selected->setVisible(false);
    for (std::size_t c = 0; c < m_bars.size(); ++c) {
        QVector<double> keys, values;
        if (result != nullptr && result->sqnr) {
            for (const numerics::SqnrTableCell& cell : *result->sqnr) {
                if (cell.config.calibrator != numerics::kCalibrators[c])
                    continue;
                const auto f = std::find(std::begin(numerics::kQuantTargets), std::end(numerics::kQuantTargets), cell.config.format) -
                               std::begin(numerics::kQuantTargets);
                const double key = static_cast<double>(f + 1) + (static_cast<double>(c) - 1.5) * 0.2;
                if (!std::isfinite(cell.stats.sqnrDb))
                    continue; // +inf (nothing lost) or NaN (all zeros): no bar
                keys.push_back(key);
                values.push_back(cell.stats.sqnrDb);
                high = std::max(high, cell.stats.sqnrDb);
                low = std::min(low, cell.stats.sqnrDb);
                const numerics::QuantConfig& chosen = result->request.config;
                if (cell.config.format == chosen.format && cell.config.calibrator == chosen.calibrator) {
                    m_selected->position->setCoords(key, cell.stats.sqnrDb);
                    m_selected->setText(QStringLiteral("▼ %1").arg(cell.stats.sqnrDb, 0, 'f', 1));
                    m_selected->setVisible(true);
                }
            }
        }
        m_bars[c]->setData(keys, values, true);
    }
    yAxis->setRange(low < 0 ? low * 1.1 : 0, high * 1.14);
    if (result != nullptr) {
        const numerics::QuantConfig& base = result->request.config;
        m_title->setText(tr("SQNR by format and calibrator: %1, %2")
                             .arg(QString::fromStdString(std::string(numerics::schemeKey(base.scheme))),
                                  QString::fromStdString(numerics::granularityText(base))));
        yAxis->setLabel(base.scheme == QuantScheme::Asymmetric ? tr("SQNR (dB), higher is better; FP8 symmetric")
                                                               : tr("SQNR (dB), higher is better"));
    }
    replot();
}

void QuantSqnrPlot::restyle()
{
    styleFigure(this, m_title, false, false);
    const bool dark = isDarkPalette(palette());
    for (std::size_t c = 0; c < m_bars.size(); ++c) {
        const QColor colour = calibratorColour(numerics::kCalibrators[c], dark);
        m_bars[c]->setPen(QPen(colour.darker(dark ? 100 : 120), 1));
        m_bars[c]->setBrush(withAlpha(colour, 0.85));
    }
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    m_selected->setColor(palette().color(QPalette::Text));
    m_selected->setFont(plotFont(font(), true));
}

void QuantValuePlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

void QuantErrorPlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

void QuantSqnrPlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

} // namespace warpscope::viz
