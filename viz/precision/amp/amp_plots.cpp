#include "precision/amp/amp_plots.h"

#include "numerics/number_format.h"
#include "precision/amp/amp_panel.h"
#include "common/plot_style.h"
#include "precision/precision_lab_style.h"

#include <QResizeEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace warpscope::viz {

using numerics::AmpMode;
using numerics::AmpResult;
using numerics::Format;
using numerics::GradientHistogram;

namespace {

// Okabe and Ito's colour-blind-safe palette ("Color Universal Design", 2008), one colour per mode;
// a lighter variant where the background is dark, a darker orange where it is light (for contrast).
// The two curves that overlap most, FP16 with dynamic scaling and BF16, are blue and orange, the
// pair that stays apart in every common colour vision (green and blue did not read apart); FP32,
// the reference, stays neutral, a wide pale band under the others.
QColor modeColour(AmpMode mode, bool dark)
{
    switch (mode) {
    case AmpMode::FP32: return dark ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x40, 0x40, 0x40); // the reference: neutral
    case AmpMode::FP16: return dark ? QColor(0x3c, 0xd1, 0xa4) : QColor(0x00, 0x9e, 0x73);       // bluish green
    case AmpMode::FP16Static: return dark ? QColor(0xe6, 0x9a, 0xcf) : QColor(0xcc, 0x79, 0xa7); // reddish purple
    case AmpMode::FP16Dynamic: return dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2); // blue
    case AmpMode::BF16: return dark ? QColor(0xe6, 0xa8, 0x17) : QColor(0xb3, 0x74, 0x00);       // orange
    }
    return Qt::gray;
}

double finiteOrNan(float value) { return std::isfinite(value) ? value : std::numeric_limits<double>::quiet_NaN(); }

} // namespace

QColor ampModeColor(AmpMode mode, const QPalette& palette) { return modeColour(mode, isDarkPalette(palette)); }

QString ampShortLabel(const AmpResult& run)
{
    switch (run.config.mode) {
    case AmpMode::FP32: return QStringLiteral("FP32");
    case AmpMode::FP16: return QStringLiteral("FP16");
    case AmpMode::FP16Static: return QStringLiteral("FP16 static %1").arg(scaleText(run.config.staticScale));
    case AmpMode::FP16Dynamic: return QStringLiteral("FP16 dynamic");
    case AmpMode::BF16: return QStringLiteral("BF16");
    }
    return {};
}

QString ampRunLabel(const AmpResult& run)
{
    const AmpMode mode = run.config.mode;
    if (mode != AmpMode::FP16Static)
        return QString::fromUtf8(numerics::ampModeInfo(mode).name.data(), static_cast<int>(numerics::ampModeInfo(mode).name.size()));
    return QStringLiteral("FP16, static loss scale %1").arg(scaleText(run.config.staticScale));
}

QVector<double> PowerOfTwoTicker::createTickVector(double, const QCPRange& range)
{
    QVector<double> ticks;
    if (!(range.lower > 0) || !(range.upper > range.lower))
        return ticks;
    const int first = static_cast<int>(std::ceil(std::log2(range.lower) - 1e-9));
    const int last = static_cast<int>(std::floor(std::log2(range.upper) + 1e-9));
    int step = 64;
    for (int candidate : {1, 2, 4, 5, 8, 10, 16, 20, 32, 40, 64})
        if ((last - first) / candidate + 1 <= m_targetTicks) {
            step = candidate;
            break;
        }
    int k = first;
    while (k % step != 0)
        ++k;
    for (; k <= last; k += step)
        ticks.push_back(std::ldexp(1.0, k));
    return ticks;
}

QString PowerOfTwoTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return powerOfTwoText(static_cast<int>(std::lround(std::log2(tick))));
}

// --- loss

AmpLossPlot::AmpLossPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("ampLossPlot"));
    setMinimumSize(300, 230);
    m_title = addFigureTitle(this, tr("Training loss per step (cross-entropy)"));
    xAxis->setLabel(tr("step"));
    yAxis->setLabel(tr("batch loss, log scale")); // short: the axis is shorter with the legend under it
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setSubTickCount(8);
    yAxis->setTicker(ticker);
    yAxis->setNumberFormat(QStringLiteral("g"));
    placeLegendBelow(this); // inside, it covered the curves
    legend->setVisible(true);
    axisRect()->setMinimumMargins(QMargins(0, 0, 14, 0));
    m_note = addFigureNote(this);
    restyle();
    setRuns(nullptr);
}

QCPGraph* AmpLossPlot::graphFor(AmpMode mode) const
{
    const auto it = m_graphs.find(mode);
    return it == m_graphs.end() ? nullptr : it->second;
}

void AmpLossPlot::setRuns(const std::shared_ptr<const AmpRunSet>& runs)
{
    m_runs = runs;
    clearGraphs();
    m_graphs.clear();
    double low = std::numeric_limits<double>::infinity(), high = 0;
    int steps = 1;
    if (runs) {
        // FP32 first, as a wide pale band under the others: the reference stays visible around the
        // curves that follow it closely, instead of being hidden under them (or hiding them).
        std::vector<const AmpResult*> order;
        for (const AmpResult& run : runs->runs)
            if (run.config.mode == AmpMode::FP32)
                order.push_back(&run);
        for (const AmpResult& run : runs->runs)
            if (run.config.mode != AmpMode::FP32)
                order.push_back(&run);
        for (const AmpResult* runPointer : order) {
            const AmpResult& run = *runPointer;
            QCPGraph* graph = addGraph();
            graph->setName(ampRunLabel(run));
            QVector<double> keys, values;
            keys.reserve(static_cast<int>(run.steps.size()));
            values.reserve(static_cast<int>(run.steps.size()));
            for (std::size_t i = 0; i < run.steps.size(); ++i) {
                const double loss = finiteOrNan(run.steps[i].loss);
                keys.push_back(static_cast<double>(i));
                values.push_back(loss);
                if (loss > 0) {
                    low = std::min(low, loss);
                    high = std::max(high, loss);
                }
            }
            graph->setData(keys, values, true);
            m_graphs[run.config.mode] = graph;
            steps = std::max(steps, static_cast<int>(run.steps.size()));
        }
        // The legend in the order the modes were asked for.
        legend->clearItems();
        for (const AmpResult& run : runs->runs)
            graphFor(run.config.mode)->addToLegend();
    }
    const bool empty = m_graphs.empty();
    m_note->setVisible(empty);
    setWrappedFigureNote(m_note, m_running ? tr("Training\u2026 the loss curves appear when the run ends.")
                                           : tr("Tick the modes to compare and press Run."));
    setLegendBelowShown(this, !empty);
    fitLegendColumns(this);
    xAxis->setRange(0, std::max(1, steps - 1));
    if (high > 0)
        yAxis->setRange(low / 1.3, high * 1.3);
    else
        yAxis->setRange(0.01, 10);
    restyle();
    replot();
}

void AmpLossPlot::restyle()
{
    styleFigure(this, m_title, false, true);
    styleFigureNote(m_note, palette());
    for (const auto& [mode, graph] : m_graphs)
        graph->setPen(mode == AmpMode::FP32 ? QPen(withAlpha(ampModeColor(mode, palette()), 0.4), 3.2)
                                            : QPen(withAlpha(ampModeColor(mode, palette()), 0.9), 1.1));
}

// --- loss scale

AmpScalePlot::AmpScalePlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("ampScalePlot"));
    setMinimumSize(300, 230);
    m_title = addFigureTitle(this, tr("Loss scale per step (skipped steps marked)"));
    xAxis->setLabel(tr("step"));
    yAxis->setLabel(tr("loss scale, log₂"));
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<PowerOfTwoTicker>::create(6));
    placeLegendBelow(this);
    legend->setVisible(true);
    axisRect()->setMinimumMargins(QMargins(0, 0, 14, 0));
    m_note = addFigureNote(this);
    restyle();
    setRuns(nullptr);
}

QCPGraph* AmpScalePlot::scaleGraphFor(AmpMode mode) const
{
    const auto it = m_scaleGraphs.find(mode);
    return it == m_scaleGraphs.end() ? nullptr : it->second;
}

QCPGraph* AmpScalePlot::skippedGraphFor(AmpMode mode) const
{
    const auto it = m_skippedGraphs.find(mode);
    return it == m_skippedGraphs.end() ? nullptr : it->second;
}

QString AmpScalePlot::noteText() const
{
    return m_note->visible() ? m_note->property("unwrappedText").toString() : QString();
}

void AmpScalePlot::setRuns(const std::shared_ptr<const AmpRunSet>& runs)
{
    m_runs = runs;
    clearGraphs();
    m_scaleGraphs.clear();
    m_skippedGraphs.clear();
    double low = std::numeric_limits<double>::infinity(), high = 0;
    int steps = 1;
    QStringList unscaled;
    if (runs) {
        for (const AmpResult& run : runs->runs) {
            steps = std::max(steps, static_cast<int>(run.steps.size()));
            const AmpMode mode = run.config.mode;
            if (mode != AmpMode::FP16Static && mode != AmpMode::FP16Dynamic) {
                unscaled << ampRunLabel(run);
                continue;
            }
            QCPGraph* scale = addGraph();
            scale->setName(ampRunLabel(run));
            scale->setLineStyle(QCPGraph::lsStepLeft);
            QCPGraph* skipped = addGraph();
            skipped->setLineStyle(QCPGraph::lsNone);
            QVector<double> keys, values, skippedKeys, skippedValues;
            for (std::size_t i = 0; i < run.steps.size(); ++i) {
                const double value = run.steps[i].scale;
                keys.push_back(static_cast<double>(i));
                values.push_back(value);
                low = std::min(low, value);
                high = std::max(high, value);
                if (run.steps[i].skipped) {
                    skippedKeys.push_back(static_cast<double>(i));
                    skippedValues.push_back(value);
                }
            }
            scale->setData(keys, values, true);
            skipped->setData(skippedKeys, skippedValues, true);
            skipped->setName(tr("%n skipped step(s): inf/NaN gradients", nullptr, skippedKeys.size()));
            if (skippedKeys.isEmpty())
                skipped->removeFromLegend();
            m_scaleGraphs[mode] = scale;
            m_skippedGraphs[mode] = skipped;
        }
    }
    const bool none = m_scaleGraphs.empty();
    setLegendBelowShown(this, !none);
    fitLegendColumns(this);
    if (!runs && m_running)
        setWrappedFigureNote(m_note, tr("Training\u2026 the loss scale of FP16 with static or dynamic scaling appears when "
                                        "the run ends."));
    else if (!runs)
        setWrappedFigureNote(m_note, tr("The loss scale of FP16 with static or dynamic scaling appears here after a Run."));
    else if (none)
        setWrappedFigureNote(m_note, tr("None of the modes run scales the loss:\n%1 keep a scale of 1.").arg(unscaled.join(QStringLiteral(", "))));
    m_note->setVisible(!runs || none);
    xAxis->setRange(0, std::max(1, steps - 1));
    if (high > 0)
        yAxis->setRange(low / 2.5, high * 2.5);
    else
        yAxis->setRange(0.5, 131072);
    restyle();
    replot();
}

void AmpScalePlot::restyle()
{
    styleFigure(this, m_title, false, true);
    styleFigureNote(m_note, palette());
    const QColor marker = warningColour(palette());
    for (const auto& [mode, graph] : m_scaleGraphs)
        graph->setPen(QPen(ampModeColor(mode, palette()), 1.6));
    for (const auto& [mode, graph] : m_skippedGraphs) {
        graph->setPen(QPen(marker, 1.6));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(marker, 1.8), Qt::NoBrush, 8));
    }
}

// --- gradient histogram

AmpHistogramPlot::AmpHistogramPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("ampHistogramPlot"));
    setMinimumSize(300, 270);
    m_title = addFigureTitle(this, tr("Gradient magnitudes"));
    xAxis->setLabel(tr("|gradient| (weights, biases), log₂ bins; dashed: FP16 range")); // short: the figure can be 400 px
    yAxis->setLabel(tr("elements"));
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<PowerOfTwoTicker>::create(8));
    // The legend in a row under the axes: the landmark labels keep the plot's top.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setVisible(true);
    axisRect()->setMinimumMargins(QMargins(0, 0, 14, 0));

    m_underflowZone = new QCPItemRect(this);
    m_subnormalZone = new QCPItemRect(this);
    for (QCPItemRect* zone : {m_underflowZone, m_subnormalZone}) {
        zone->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        zone->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        zone->setPen(Qt::NoPen);
        zone->setLayer(QStringLiteral("background"));
    }
    m_exact = addGraph();
    m_exact->setLineStyle(QCPGraph::lsStepLeft);
    m_scaled = addGraph();
    m_scaled->setLineStyle(QCPGraph::lsStepLeft);

    // FP16's range, from number_format (IEEE 754 binary16): 2^-24, 2^-14, 65504.
    const struct {
        double value;
        QString label;
    } landmarks[] = {
        {numerics::minSubnormal(Format::FP16), tr("%1 smallest subnormal").arg(powerOfTwoText(-24))},
        {numerics::minNormal(Format::FP16), tr("%1 smallest normal").arg(powerOfTwoText(-14))},
        {numerics::maxFinite(Format::FP16), tr("65504 largest")},
    };
    for (const auto& [value, label] : landmarks) {
        HistogramLandmark landmark;
        landmark.value = value;
        landmark.label = label;
        landmark.line = new QCPItemStraightLine(this);
        landmark.line->point1->setCoords(value, 0);
        landmark.line->point2->setCoords(value, 1);
        landmark.text = new QCPItemText(this);
        landmark.text->setText(label);
        landmark.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        landmark.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        landmark.text->position->setCoords(value, 0.02);
        // Rotated to run up the line's right side (the largest value's: its left), ending near the top.
        landmark.text->setRotation(-90);
        landmark.text->setPositionAlignment(Qt::AlignRight | (value == numerics::maxFinite(Format::FP16) ? Qt::AlignBottom : Qt::AlignTop));
        landmark.text->setPadding(QMargins(3, 1, 3, 2));
        m_landmarks.push_back(landmark);
    }
    restyle();
    setHistogram(nullptr, 0, true, true);
}

void AmpHistogramPlot::setHistogram(const AmpResult* run, int index, bool showExact, bool showScaled)
{
    const bool have = run != nullptr && index >= 0 && index < static_cast<int>(run->histograms.size());
    m_mode = have ? run->config.mode : numerics::AmpMode::FP32;
    restyle();
    const int bins = GradientHistogram::binCount();
    auto fill = [&](QCPGraph* graph, const std::vector<std::uint32_t>* counts) {
        QVector<double> keys, values;
        if (counts != nullptr) {
            for (int bin = 0; bin < bins; ++bin) {
                keys.push_back(GradientHistogram::binLow(bin));
                values.push_back((*counts)[static_cast<std::size_t>(bin)]);
            }
            keys.push_back(GradientHistogram::binLow(bins)); // closes the last step
            values.push_back(values.back());
        }
        graph->setData(keys, values, true);
    };
    if (!have) {
        fill(m_exact, nullptr);
        fill(m_scaled, nullptr);
        m_title->setText(tr("Gradient magnitudes (after a Run)"));
        xAxis->setRange(std::ldexp(1.0, -40), std::ldexp(1.0, 20));
        yAxis->setRange(0, 10);
        m_exact->removeFromLegend();
        m_scaled->removeFromLegend();
        replot();
        return;
    }
    const GradientHistogram& h = run->histograms[static_cast<std::size_t>(index)];
    const bool scaled = h.scale != 1.0f;
    fill(m_exact, showExact ? &h.exact : nullptr);
    fill(m_scaled, showScaled && scaled ? &h.scaled : nullptr);
    m_exact->setName(tr("|g| (FP32 shadow backward)"));
    m_scaled->setName(tr("|g| × scale %1 (what FP16 holds)").arg(scaleText(h.scale)));
    legend->clearItems();
    if (showExact)
        m_exact->addToLegend();
    if (showScaled && scaled)
        m_scaled->addToLegend();
    legend->setVisible(legend->itemCount() > 0);
    m_title->setText(tr("Gradients at step %1: %2").arg(h.step).arg(ampShortLabel(*run)));

    // The x range holds every histogram of the run (scrubbing does not move it) and FP16's landmarks.
    int first = GradientHistogram::binOf(numerics::minSubnormal(Format::FP16)) - 2;
    int last = GradientHistogram::binOf(numerics::maxFinite(Format::FP16)) + 2;
    double tallest = 1;
    for (const GradientHistogram& each : run->histograms)
        for (const auto* counts : {&each.exact, &each.scaled})
            for (int bin = 0; bin < bins; ++bin)
                if ((*counts)[static_cast<std::size_t>(bin)] > 0) {
                    first = std::min(first, bin - 1);
                    last = std::max(last, bin + 1);
                    if ((counts == &each.exact && showExact) || (counts == &each.scaled && showScaled && each.scale != 1.0f))
                        tallest = std::max(tallest, static_cast<double>((*counts)[static_cast<std::size_t>(bin)]));
                }
    first = std::max(first, 0);
    last = std::min(last, bins);
    xAxis->setRange(GradientHistogram::binLow(first), GradientHistogram::binLow(last + 1));
    yAxis->setRange(0, tallest * 1.08);
    placeLandmarkLabels();
    replot();
}

void AmpHistogramPlot::placeLandmarkLabels()
{
    const double left = xAxis->range().lower, right = xAxis->range().upper;
    m_underflowZone->topLeft->setCoords(left, 0);
    m_underflowZone->bottomRight->setCoords(numerics::minSubnormal(Format::FP16), 1);
    m_subnormalZone->topLeft->setCoords(numerics::minSubnormal(Format::FP16), 0);
    m_subnormalZone->bottomRight->setCoords(numerics::minNormal(Format::FP16), 1);
    for (HistogramLandmark& landmark : m_landmarks) {
        const bool inside = landmark.value > left && landmark.value < right;
        landmark.line->setVisible(inside);
        landmark.text->setVisible(inside);
    }
}

void AmpHistogramPlot::restyle()
{
    styleFigure(this, m_title, true, false);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    const QPalette& pal = palette();
    const bool dark = isDarkPalette(pal);
    const QColor exact = ampModeColor(m_mode, pal);
    const QColor scaled = pal.color(QPalette::Text);
    m_exact->setPen(QPen(exact, 1.4));
    m_exact->setBrush(withAlpha(exact, 0.35));
    m_scaled->setPen(QPen(withAlpha(scaled, 0.85), 1.4, Qt::DashLine));
    m_scaled->setBrush(Qt::NoBrush);
    const QColor warn = warningColour(pal);
    m_underflowZone->setBrush(withAlpha(warn, dark ? 0.16 : 0.09));
    m_subnormalZone->setBrush(withAlpha(warn, dark ? 0.07 : 0.04));
    const QColor text = pal.color(QPalette::Text);
    for (HistogramLandmark& landmark : m_landmarks) {
        landmark.line->setPen(QPen(withAlpha(text, 0.75), 1.2, Qt::DashLine));
        landmark.text->setColor(text);
        landmark.text->setFont(plotFont(font()));
        landmark.text->setBrush(withAlpha(pal.color(QPalette::Base), 0.65));
    }
}

void AmpLossPlot::setRunning(bool running)
{
    m_running = running;
    if (!m_runs)
        setRuns(nullptr); // the empty figure says a run is under way, or how to start one
}

void AmpScalePlot::setRunning(bool running)
{
    m_running = running;
    if (!m_runs)
        setRuns(nullptr);
}

void AmpLossPlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitLegendColumns(this);
    rewrapFigureNote(m_note);
}

void AmpScalePlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitLegendColumns(this);
    rewrapFigureNote(m_note);
}

void AmpLossPlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

void AmpScalePlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

void AmpHistogramPlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

} // namespace warpscope::viz
