// The occupancy explorer's results: the inputs checked and computed, the summary, limiters and
// explanation, the four plots' data, their style, and what hovering a point says. Its widgets are
// built and arranged in occupancy_panel_layout.cpp.
#include "occupancy/occupancy_panel.h"
#include "occupancy/occupancy_panel_support.h"
#include "common/plot_style.h"
#include "common/validated_field.h"

#include "gpu/gpu_preset.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpscope::viz {

using occupancy_panel_support::carveoutText;
using occupancy_panel_support::fixedTicker;
using occupancy_panel_support::pointUnderMouse;
using occupancy_panel_support::toQString;

namespace {

using occupancy::OccupancyInput;
using occupancy::SweepPoint;

constexpr int kSharedSweepStep = 512; // bytes between points of the shared memory plot

// "75 %", "66.67 %", "37.5 %", as the core's explanation writes it.
QString formatPercent(double fraction)
{
    QString text = QString::number(fraction * 100.0, 'f', 2);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QStringLiteral(" %");
}

QString plural(int count, const char* one, const char* many)
{
    return QString::number(count) + QLatin1Char(' ') + QLatin1String(count == 1 ? one : many);
}

// The inputs a sweep depends on, as text; the caller zeroes the fields the sweep varies.
QString sweepKey(const QString& arch, const OccupancyInput& input)
{
    return arch + QString::asprintf("|%d|%d|%zu|%zu|%d|%d", input.threadsPerBlock, input.registersPerThread,
                                    input.staticSharedBytes, input.dynamicSharedBytes,
                                    input.carveoutPercent, input.barriersPerBlock);
}

QColor errorColor(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b)
                                                             : QColor(0xc6, 0x28, 0x28);
}

bool insideAxisRect(QCustomPlot* plot, QMouseEvent* event)
{
    return plot->axisRect()->rect().contains(event->position().toPoint());
}

} // namespace

// Shared with occupancy_panel_layout.cpp (occupancy_panel_support.h).
namespace occupancy_panel_support {

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString carveoutText(std::int64_t percent) { return percent < 0 ? QStringLiteral("default") : QString::number(percent); }

QSharedPointer<QCPAxisTickerFixed> fixedTicker(double step)
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(step);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

// The sweep point nearest to the mouse along x; nullptr when outside the axis rect or empty.
const SweepPoint* pointUnderMouse(QCustomPlot* plot, const std::vector<SweepPoint>& points,
                                  double xScale, QMouseEvent* event)
{
    if (points.empty() || !insideAxisRect(plot, event))
        return nullptr;
    const double x = plot->xAxis->pixelToCoord(event->position().x()) * xScale;
    const auto after = std::lower_bound(points.begin(), points.end(), x,
                                        [](const SweepPoint& p, double value) { return p.x < value; });
    if (after == points.begin())
        return &*after;
    if (after == points.end())
        return &points.back();
    const auto before = std::prev(after);
    return (x - before->x) <= (after->x - x) ? &*before : &*after;
}

} // namespace occupancy_panel_support

void OccupancyPanel::setInputs(const QString& arch, const occupancy::OccupancyInput& input)
{
    const auto preset = gpu::findPreset(arch.toStdString());
    m_arch = preset ? toQString(preset->arch) : arch;
    m_input = input;
    syncControlsFromInput();
    recompute();
}

QString OccupancyPanel::arch() const { return m_arch; }

void OccupancyPanel::setLaunchNote(const QString& note)
{
    m_launchNote->setText(note);
    m_launchNote->setVisible(!note.isEmpty());
}

QString OccupancyPanel::launchNote() const { return m_launchNote->text(); }

void OccupancyPanel::setPtxasCounts(std::optional<PtxasCounts> counts)
{
    m_ptxasCounts = std::move(counts);
    updatePtxasNote();
}

QString OccupancyPanel::ptxasNote() const { return m_ptxasNote->isHidden() ? QString() : m_ptxasNote->text(); }

void OccupancyPanel::updatePtxasNote()
{
    if (!m_ptxasCounts) {
        m_ptxasNote->hide();
        return;
    }
    const PtxasCounts& counts = *m_ptxasCounts;
    QString note;
    if (counts.registers < 0) {
        note = tr("No ptxas report for %1 (%2): the registers per thread are an assumption, not what the GPU allocates.")
                   .arg(counts.kernel, counts.problem);
    } else {
        const QString ptxas = tr("%1 registers per thread (%2) and %3 of static shared memory")
                                  .arg(counts.registers)
                                  .arg(counts.spills, QString::fromStdString(formatBytes(counts.staticSharedBytes)));
        // Occupancy is only as right as its inputs: say when they are no longer what ptxas reported.
        if (m_arch == counts.arch && m_input.registersPerThread == counts.registers &&
            m_input.staticSharedBytes == counts.staticSharedBytes)
            note = tr("ptxas's counts for %1 on %2: %3 (ptxas -v).").arg(counts.kernel, counts.arch, ptxas);
        else
            note = tr("Not ptxas's counts: for %1 on %2 ptxas reports %3; these inputs are your own.")
                       .arg(counts.kernel, counts.arch, ptxas);
    }
    m_ptxasNote->setText(note);
    m_ptxasNote->show();
}

occupancy::OccupancyInput OccupancyPanel::inputs() const { return m_input; }

const std::optional<occupancy::OccupancyResult>& OccupancyPanel::result() const { return m_result; }

void OccupancyPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || m_footnoteLabel == nullptr)
        return;
    applyPlotStyle();
    if (m_result)
        showResult();
}

std::optional<gpu::GpuPreset> OccupancyPanel::currentPreset() const
{
    return gpu::findPreset(m_arch.toStdString());
}

void OccupancyPanel::applyPresetLimits()
{
    const auto preset = currentPreset();
    if (!preset)
        return;
    const auto maxThreads = static_cast<std::int64_t>(preset->maxThreadsPerBlock);
    const auto maxRegisters = static_cast<std::int64_t>(preset->maxRegistersPerThread);
    const std::size_t staticMax = preset->sharedPerBlock;
    const std::size_t dynamicMax = preset->sharedPerBlockOptin;
    m_blockField->setParser([maxThreads](const QString& text) {
        return parseInteger(text.toStdString(), "block size", 1, maxThreads);
    });
    m_registersField->setParser([maxRegisters](const QString& text) {
        return parseInteger(text.toStdString(), "registers per thread", 1, maxRegisters);
    });
    m_staticSharedField->setParser([staticMax](const QString& text) {
        return static_cast<std::int64_t>(parseByteSize(text.toStdString(), "static shared memory", staticMax));
    });
    m_dynamicSharedField->setParser([dynamicMax](const QString& text) {
        return static_cast<std::int64_t>(parseByteSize(text.toStdString(), "dynamic shared memory", dynamicMax));
    });
    m_blockField->setStepping(preset->warpSize, 1, maxThreads);
    m_registersField->setStepping(1, 1, maxRegisters);
    m_staticSharedField->setStepping(1024, 0, static_cast<std::int64_t>(staticMax));
    m_dynamicSharedField->setStepping(1024, 0, static_cast<std::int64_t>(dynamicMax));

    const QString arch = toQString(preset->arch);
    m_blockField->setToolTip(tr("Threads per block (blockDim.x * y * z). Up/Down step by a warp (%1). "
                                "Allowed: 1..%2.")
                                 .arg(preset->warpSize)
                                 .arg(preset->maxThreadsPerBlock));
    m_staticSharedField->setToolTip(
        tr("Static shared memory per block (__shared__ arrays): bytes, or KiB with K (32K), MiB with M. "
           "Allowed: 0..%1 (%2).")
            .arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(staticMax))),
                 QString::fromStdString(formatBytes(staticMax))));
    m_dynamicSharedField->setToolTip(
        tr("Dynamic shared memory per block (the third <<<>>> launch argument): bytes, or KiB with K (32K), "
           "MiB with M. Allowed: 0..%1 (%2, the opt-in limit of %3; static + dynamic above %4 needs "
           "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)).")
            .arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(dynamicMax))),
                 QString::fromStdString(formatBytes(dynamicMax)), arch,
                 QString::fromStdString(formatBytes(staticMax))));
}

void OccupancyPanel::syncControlsFromInput()
{
    const QSignalBlocker comboBlocker(m_presetCombo);
    if (const int index = m_presetCombo->findData(m_arch); index >= 0)
        m_presetCombo->setCurrentIndex(index);
    applyPresetLimits();
    // Values out of range show as given and are marked, so the message names them.
    m_blockField->setValue(m_input.threadsPerBlock);
    m_registersField->setValue(m_input.registersPerThread);
    m_staticSharedField->setValue(static_cast<std::int64_t>(std::min<std::size_t>(m_input.staticSharedBytes, INT64_MAX)));
    m_dynamicSharedField->setValue(static_cast<std::int64_t>(std::min<std::size_t>(m_input.dynamicSharedBytes, INT64_MAX)));
    m_carveoutField->setValue(m_input.carveoutPercent);
    m_barriersField->setValue(m_input.barriersPerBlock);
}

std::optional<OccupancyInput> OccupancyPanel::readFields()
{
    const ValidatedField* fields[] = {m_blockField,         m_registersField, m_staticSharedField,
                                      m_dynamicSharedField, m_carveoutField,  m_barriersField};
    for (const ValidatedField* field : fields)
        if (!field->valid())
            return std::nullopt;
    OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(*m_blockField->value());
    input.registersPerThread = static_cast<int>(*m_registersField->value());
    input.staticSharedBytes = static_cast<std::size_t>(*m_staticSharedField->value());
    input.dynamicSharedBytes = static_cast<std::size_t>(*m_dynamicSharedField->value());
    input.carveoutPercent = static_cast<int>(*m_carveoutField->value());
    input.barriersPerBlock = static_cast<int>(*m_barriersField->value());
    if (const auto preset = currentPreset()) {
        // A rule across fields (static + dynamic over the opt-in limit): marked on the dynamic field.
        try {
            occupancy::validateInput(*preset, input);
            m_dynamicSharedField->setExternalError({});
        } catch (const InputError& error) {
            m_dynamicSharedField->setExternalError(QString::fromUtf8(error.what()));
            return std::nullopt;
        }
    }
    return input;
}

void OccupancyPanel::fieldsEdited()
{
    const std::optional<OccupancyInput> input = readFields();
    if (!input) {
        setStale(true);
        return;
    }
    // Unchanged inputs on the same GPU: nothing to do (another preset in the combo box recomputes).
    if (*input == m_input && m_result && !m_stale && m_result->arch == m_arch.toStdString())
        return;
    m_input = *input;
    recompute();
}

void OccupancyPanel::recompute()
{
    const auto preset = currentPreset();
    if (!preset) {
        m_result.reset();
        showError(tr("unknown GPU architecture \"%1\" (known: %2)")
                      .arg(m_arch, QString::fromStdString(gpu::knownArchList())));
        return;
    }
    try {
        m_result = occupancy::computeOccupancy(*preset, m_input);
    } catch (const InputError& error) {
        // Inputs set from outside (setInputs) that break a rule: the fields show them marked.
        if (m_result) {
            setStale(true);
        } else {
            showError(QString::fromStdString(error.what()));
        }
        return;
    }
    setStale(false);
    showResult();
    updatePtxasNote();
    m_plotTimer->start();
    emit resultChanged(m_arch, *m_result);
}

void OccupancyPanel::showResult()
{
    const occupancy::OccupancyResult& result = *m_result;
    QString summary = tr("%1 — %2 x %3 = %4 of %5 warps per SM")
                          .arg(formatPercent(result.occupancy),
                               plural(result.activeBlocksPerSm, "block", "blocks"),
                               plural(result.warpsPerBlock, "warp", "warps"),
                               QString::number(result.activeWarpsPerSm),
                               QString::number(result.maxWarpsPerSm));
    if (!result.launchable())
        summary += tr(" (cannot launch)");
    QStringList binding;
    for (occupancy::Limiter limiter : result.binding)
        binding << toQString(occupancy::limiterTitle(limiter));
    m_summaryLabel->setText(summary);
    m_limitedByLabel->setText(tr("Limited by: %1").arg(binding.join(QStringLiteral(", "))));
    // Occupancy counts warps; the lanes line counts threads, so idle lanes do not hide behind 100 %.
    const int lanes = result.activeWarpsPerSm * 32;
    QString lanesText = tr("Lanes: %1 threads on %2 lanes (%3)")
                            .arg(QString::fromStdString(withThousands(result.activeThreadsPerSm)),
                                 QString::fromStdString(withThousands(lanes)),
                                 formatPercent(lanes > 0 ? static_cast<double>(result.activeThreadsPerSm) / lanes : 0.0));
    if (result.idleLanesPerBlock > 0)
        lanesText += tr(": each block's last warp has %1, which still take a warp slot")
                         .arg(plural(result.idleLanesPerBlock, "idle lane", "idle lanes"));
    m_lanesLabel->setText(lanesText);
    m_lanesLabel->setToolTip(tr("Occupancy counts warps, not threads: a block of %1 is %2, and the SM gives the last "
                                "one a whole warp slot and its registers whether or not its lanes hold threads.")
                                 .arg(plural(result.input.threadsPerBlock, "thread", "threads"),
                                      plural(result.warpsPerBlock, "warp", "warps")));
    m_lanesLabel->setStyleSheet(result.idleLanesPerBlock > 0
                                    ? QStringLiteral("color: %1;").arg(palette().color(QPalette::Link).name())
                                    : QString());

    const QString accentStyle =
        QStringLiteral("color: %1; font-weight: bold;").arg(palette().color(QPalette::Highlight).name());
    for (std::size_t row = 0; row < std::min(m_limiterNames.size(), result.limits.size()); ++row) {
        QLabel* name = m_limiterNames[row];
        QLabel* value = m_limiterValues[row];
        const occupancy::LimiterDetail& detail = result.limits[row];
        name->setText(toQString(occupancy::limiterTitle(detail.limiter)));
        value->setText(detail.blockLimit == INT_MAX
                           ? QStringLiteral("—")
                           : QString::fromStdString(withThousands(detail.blockLimit)));
        const QString reasoning = QString::fromStdString(detail.reasoning);
        name->setToolTip(reasoning);
        value->setToolTip(reasoning);
        name->setStyleSheet(detail.binding ? accentStyle : QString());
        value->setStyleSheet(detail.binding ? accentStyle : QString());
    }
    m_explanationLabel->setText(QString::fromStdString(result.explanation));
    setResultVisible(true);
}

void OccupancyPanel::showError(const QString& message)
{
    m_errorLabel->setText(message);
    setResultVisible(false);
}

void OccupancyPanel::setStale(bool stale)
{
    m_stale = stale;
    if (!stale || !m_result) {
        m_staleLabel->hide();
        return;
    }
    const OccupancyInput& in = m_input;
    m_staleLabel->setText(tr("Not updated: a field above is invalid. The result and plots still show the last "
                             "valid inputs (block %1, %2 registers, %3 static + %4 dynamic shared, carveout %5, "
                             "%6 barriers).")
                              .arg(in.threadsPerBlock)
                              .arg(in.registersPerThread)
                              .arg(QString::fromStdString(formatBytes(in.staticSharedBytes)),
                                   QString::fromStdString(formatBytes(in.dynamicSharedBytes)),
                                   carveoutText(in.carveoutPercent))
                              .arg(in.barriersPerBlock));
    m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor(palette()).name()));
    m_staleLabel->show();
}

void OccupancyPanel::setResultVisible(bool visible)
{
    m_errorLabel->setVisible(!visible);
    for (QWidget* widget : std::initializer_list<QWidget*>{m_summaryLabel, m_limitedByLabel, m_lanesLabel,
                                                          m_limiterTable, m_explanationLabel})
        widget->setVisible(visible);
}

void OccupancyPanel::rebuildPlots()
{
    const auto preset = currentPreset();
    if (!m_result || !preset)
        return;
    const occupancy::OccupancyResult& result = *m_result;
    const OccupancyInput input = m_input;
    const double currentWarps = result.activeWarpsPerSm;

    OccupancyInput blockKey = input;
    blockKey.threadsPerBlock = 0;
    rebuildSweep(m_blockPlot, sweepKey(m_arch, blockKey), input.threadsPerBlock, currentWarps,
                 [&] { return occupancy::sweepBlockSize(*preset, input); });
    m_blockPlot.plot->xAxis->setRange(0, preset->maxThreadsPerBlock + preset->warpSize / 2.0);

    OccupancyInput registersKey = input;
    registersKey.registersPerThread = 0;
    rebuildSweep(m_registersPlot, sweepKey(m_arch, registersKey), input.registersPerThread, currentWarps,
                 [&] { return occupancy::sweepRegisters(*preset, input); });
    m_registersPlot.plot->xAxis->setRange(0, preset->maxRegistersPerThread + 1);

    OccupancyInput sharedKey = input;
    sharedKey.staticSharedBytes = 0;
    sharedKey.dynamicSharedBytes = 0;
    const double sharedKb = static_cast<double>(input.staticSharedBytes + input.dynamicSharedBytes) / 1024.0;
    rebuildSweep(m_sharedPlot, sweepKey(m_arch, sharedKey), sharedKb, currentWarps,
                 [&] { return occupancy::sweepSharedMemory(*preset, input, kSharedSweepStep); });
    m_sharedPlot.plot->xAxis->setRange(0, static_cast<double>(preset->sharedPerBlockOptin) / 1024.0);

    const int maxWarps = preset->maxWarpsPerSm();
    for (SweepPlot* sweep : {&m_blockPlot, &m_registersPlot, &m_sharedPlot}) {
        sweep->plot->yAxis->setRange(0, maxWarps * 1.06); // headroom so points at the maximum show
        sweep->plot->yAxis->setTicker(fixedTicker(std::max(1, maxWarps / 4)));
        sweep->plot->replot(QCustomPlot::rpQueuedReplot);
    }
    rebuildHeatmap();
}

void OccupancyPanel::rebuildSweep(SweepPlot& sweep, const QString& key, double currentX, double currentY,
                                  const std::function<std::vector<occupancy::SweepPoint>()>& sweepFunction)
{
    if (sweep.sweptFor != key) {
        try {
            sweep.points = sweepFunction();
        } catch (const InputError&) {
            sweep.points.clear(); // the calculator rejected a swept value; show no curve
        }
        QVector<double> xs;
        QVector<double> ys;
        xs.reserve(static_cast<qsizetype>(sweep.points.size()));
        ys.reserve(static_cast<qsizetype>(sweep.points.size()));
        for (const SweepPoint& point : sweep.points) {
            xs << point.x / sweep.xScale;
            ys << point.activeWarps;
        }
        sweep.graph->setData(xs, ys, true);
        sweep.sweptFor = key;
    }
    sweep.marker->position->setCoords(currentX, currentY);
    sweep.markerLine->point1->setCoords(currentX, 0.0);
    sweep.markerLine->point2->setCoords(currentX, 1.0);
}

void OccupancyPanel::rebuildHeatmap()
{
    const auto preset = currentPreset();
    if (!preset)
        return;
    OccupancyInput key = m_input;
    key.threadsPerBlock = 0;
    key.registersPerThread = 0;
    const QString sweptFor = sweepKey(m_arch, key);
    if (m_heatmap.sweptFor != sweptFor) {
        try {
            m_heatmap.grid = occupancy::sweepBlockSizeByRegisters(*preset, m_input);
        } catch (const InputError&) {
            m_heatmap.grid = {};
        }
        const occupancy::OccupancyGrid& grid = m_heatmap.grid;
        QCPColorMapData* data = m_heatmap.map->data();
        if (grid.blockSizes.empty() || grid.registers.empty()) {
            data->clear();
        } else {
            const auto columns = static_cast<int>(grid.blockSizes.size());
            const auto rows = static_cast<int>(grid.registers.size());
            data->setSize(columns, rows);
            data->setRange(QCPRange(grid.blockSizes.front(), grid.blockSizes.back()),
                           QCPRange(grid.registers.front(), grid.registers.back()));
            for (int row = 0; row < rows; ++row)
                for (int column = 0; column < columns; ++column)
                    data->setCell(column, row,
                                  grid.at(static_cast<std::size_t>(row), static_cast<std::size_t>(column)));
            const double halfColumn = preset->warpSize / 2.0;
            m_heatmap.plot->xAxis->setRange(grid.blockSizes.front() - halfColumn,
                                            grid.blockSizes.back() + halfColumn);
            m_heatmap.plot->yAxis->setRange(grid.registers.front() - 0.5, grid.registers.back() + 0.5);
        }
        m_heatmap.sweptFor = sweptFor;
    }
    m_heatmap.markerRing->position->setCoords(m_input.threadsPerBlock, m_input.registersPerThread);
    m_heatmap.markerCross->position->setCoords(m_input.threadsPerBlock, m_input.registersPerThread);
    m_heatmap.plot->replot(QCustomPlot::rpQueuedReplot);
}

void OccupancyPanel::applyPlotStyle()
{
    const QPalette& pal = palette();
    const QColor accent = pal.color(QPalette::Highlight);
    QColor lineColor = pal.color(QPalette::Text);
    lineColor.setAlphaF(0.75);

    const auto styleCommon = [&](QCustomPlot* plot, QCPTextElement* title) {
        plot->setBackground(pal.brush(QPalette::Base));
        styleAxis(plot->xAxis, pal, font());
        styleAxis(plot->yAxis, pal, font());
        title->setFont(plotFont(font(), true));
        title->setTextColor(pal.color(QPalette::Text));
    };
    for (SweepPlot* sweep : {&m_blockPlot, &m_registersPlot, &m_sharedPlot}) {
        styleCommon(sweep->plot, sweep->title);
        sweep->graph->setPen(QPen(lineColor, 1.5));
        const double pointSize = sweep == &m_blockPlot ? 4.0 : 2.5;
        sweep->graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, lineColor, lineColor, pointSize));
        sweep->marker->setPen(QPen(accent, 2));
        sweep->marker->setBrush(accent);
        sweep->markerLine->setPen(QPen(accent, 1, Qt::DashLine));
        sweep->plot->replot(QCustomPlot::rpQueuedReplot);
    }
    styleCommon(m_heatmap.plot, m_heatmap.title);
    styleAxis(m_heatmap.scale->axis(), pal, font());
    m_heatmap.plot->replot(QCustomPlot::rpQueuedReplot);

    m_errorLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor(pal).name()));
    QFont footnoteFont = font();
    footnoteFont.setPointSizeF(kPlotFontPoints);
    m_footnoteLabel->setFont(footnoteFont);
    m_footnoteLabel->setStyleSheet(
        QStringLiteral("color: %1;").arg(pal.color(QPalette::PlaceholderText).name()));
}

void OccupancyPanel::hoverSweep(const SweepPlot& sweep, QMouseEvent* event) const
{
    const SweepPoint* point = pointUnderMouse(sweep.plot, sweep.points, sweep.xScale, event);
    if (point == nullptr) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1: %2 per SM, %3 per SM, occupancy %4")
                           .arg(sweep.describeX(point->x), plural(point->activeBlocks, "block", "blocks"),
                                plural(point->activeWarps, "warp", "warps"), formatPercent(point->occupancy)),
                       sweep.plot);
}

std::optional<std::pair<std::size_t, std::size_t>> OccupancyPanel::heatmapCellAt(QMouseEvent* event) const
{
    const occupancy::OccupancyGrid& grid = m_heatmap.grid;
    if (grid.blockSizes.empty() || grid.registers.empty() || !insideAxisRect(m_heatmap.plot, event))
        return std::nullopt;
    int column = 0;
    int row = 0;
    m_heatmap.map->data()->coordToCell(m_heatmap.plot->xAxis->pixelToCoord(event->position().x()),
                                       m_heatmap.plot->yAxis->pixelToCoord(event->position().y()), &column,
                                       &row);
    column = std::clamp(column, 0, static_cast<int>(grid.blockSizes.size()) - 1);
    row = std::clamp(row, 0, static_cast<int>(grid.registers.size()) - 1);
    return std::pair{static_cast<std::size_t>(row), static_cast<std::size_t>(column)};
}

void OccupancyPanel::hoverHeatmap(QMouseEvent* event) const
{
    const auto cell = heatmapCellAt(event);
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    const auto [row, column] = *cell;
    const occupancy::OccupancyGrid& grid = m_heatmap.grid;
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1 threads per block x %2 registers per thread: occupancy %3")
                           .arg(grid.blockSizes[column])
                           .arg(grid.registers[row])
                           .arg(formatPercent(grid.at(row, column))),
                       m_heatmap.plot);
}

} // namespace warpscope::viz
