#include "occupancy/occupancy_panel.h"
#include "common/export_actions.h"
#include "common/plot_style.h"
#include "common/validated_field.h"

#include "gpu/gpu_preset.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

namespace warpscope::viz {
namespace {

using occupancy::OccupancyInput;
using occupancy::SweepPoint;

constexpr int kSharedSweepStep = 512; // bytes between points of the shared memory plot

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

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

// How a byte field shows a value: "32K" for whole KiB (as links write them), else the bytes.
QString bytesText(std::int64_t bytes)
{
    return bytes > 0 && bytes % 1024 == 0 ? QString::number(bytes / 1024) + QStringLiteral("K") : QString::number(bytes);
}

QString carveoutText(std::int64_t percent) { return percent < 0 ? QStringLiteral("default") : QString::number(percent); }

// "default" or -1 (the driver's choice), or a percentage 0..100.
std::int64_t parseCarveout(const QString& text)
{
    if (text.trimmed().compare(QStringLiteral("default"), Qt::CaseInsensitive) == 0)
        return -1;
    try {
        return parseInteger(text.toStdString(), "carveout", -1, 100);
    } catch (const InputError& error) {
        std::string message = error.what();
        if (const auto at = message.find("allowed: -1..100"); at != std::string::npos)
            message.replace(at, 16, "allowed: default (or -1), 0..100 %");
        throw InputError(message);
    }
}

QColor errorColor(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b)
                                                             : QColor(0xc6, 0x28, 0x28);
}

QCPColorGradient viridis()
{
    // Samples of matplotlib's viridis: perceptually uniform and readable in greyscale.
    static const char* const stops[] = {"#440154", "#482475", "#414487", "#355f8d",
                                        "#2a788e", "#21918c", "#22a884", "#44bf70",
                                        "#7ad151", "#bddf26", "#fde725"};
    QMap<double, QColor> colorStops;
    for (int i = 0; i < 11; ++i)
        colorStops.insert(i / 10.0, QColor(QLatin1String(stops[i])));
    QCPColorGradient gradient;
    gradient.setColorStops(colorStops);
    return gradient;
}

QSharedPointer<QCPAxisTickerFixed> fixedTicker(double step)
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(step);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

bool insideAxisRect(QCustomPlot* plot, QMouseEvent* event)
{
    return plot->axisRect()->rect().contains(event->position().toPoint());
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

} // namespace

OccupancyPanel::OccupancyPanel(QWidget* parent) : QWidget(parent)
{
    m_arch = gpu::findPreset("sm_90") ? QStringLiteral("sm_90") : toQString(gpu::allPresets().front().arch);

    m_plotTimer = new QTimer(this);
    m_plotTimer->setSingleShot(true);
    m_plotTimer->setInterval(0);
    connect(m_plotTimer, &QTimer::timeout, this, &OccupancyPanel::rebuildPlots);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(buildControls());
    layout->addWidget(buildResultArea());
    layout->addWidget(buildPlots(), 1);
    m_footnoteLabel = new QLabel(tr("Theoretical occupancy from the CUDA toolkit's cuda_occupancy.h. "
                                    "Achieved occupancy is measured (profiling)."));
    m_footnoteLabel->setWordWrap(true);
    layout->addWidget(m_footnoteLabel);

    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    applyPlotStyle();
    syncControlsFromInput();
    recompute();
}

void OccupancyPanel::setInputs(const QString& arch, const occupancy::OccupancyInput& input)
{
    const auto preset = gpu::findPreset(arch.toStdString());
    m_arch = preset ? toQString(preset->arch) : arch;
    m_input = input;
    syncControlsFromInput();
    recompute();
}

QString OccupancyPanel::arch() const { return m_arch; }

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

void OccupancyPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeForWidth(event->size().width());
}

void OccupancyPanel::arrangeForWidth(int width)
{
    // Two plots or two columns of fields need about 440 px (two 200 px plots, labels and fields): in a
    // narrower dock (beside the stepper) they stack, so no field, line or axis is cut at the edge.
    const bool narrow = width < 470;
    if (narrow == m_narrow || m_fieldColumns == nullptr || m_plotGrid == nullptr)
        return;
    m_narrow = narrow;
    m_fieldColumns->setDirection(narrow ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    QWidget* plots[] = {m_blockPlot.plot, m_registersPlot.plot, m_sharedPlot.plot, m_heatmap.plot};
    for (QWidget* plot : plots)
        m_plotGrid->removeWidget(plot);
    for (int i = 0; i < 4; ++i)
        m_plotGrid->addWidget(plots[i], narrow ? i : i / 2, narrow ? 0 : i % 2);
    for (int column = 0; column < 2; ++column)
        m_plotGrid->setColumnStretch(column, narrow && column == 1 ? 0 : 1);
}

std::optional<gpu::GpuPreset> OccupancyPanel::currentPreset() const
{
    return gpu::findPreset(m_arch.toStdString());
}

QWidget* OccupancyPanel::buildControls()
{
    m_presetCombo = new QComboBox;
    for (const gpu::GpuPreset& preset : gpu::allPresets())
        m_presetCombo->addItem(QStringLiteral("%1 (%2)").arg(toQString(preset.name), toQString(preset.arch)),
                               toQString(preset.arch));
    m_presetCombo->setToolTip(tr("GPU preset: the per-architecture limits (warps, blocks, registers and "
                                 "shared memory per SM) that the occupancy calculator uses."));

    // Ranges and the tooltips that quote them follow the preset (applyPresetLimits). Every field is
    // checked as typed; a bad value is marked under it, never clamped or cut (viz/common/validated_field.h).
    const auto integer = [](const char* what, std::int64_t low, std::int64_t high) {
        return [what, low, high](const QString& text) { return parseInteger(text.toStdString(), what, low, high); };
    };
    m_blockField = new ValidatedField(QStringLiteral("occupancyBlock"), integer("block size", 1, 1024));
    m_registersField = new ValidatedField(QStringLiteral("occupancyRegisters"), integer("registers per thread", 1, 255));
    m_staticSharedField = new ValidatedField(QStringLiteral("occupancyStaticShared"), {});
    m_dynamicSharedField = new ValidatedField(QStringLiteral("occupancyDynamicShared"), {});
    m_carveoutField = new ValidatedField(QStringLiteral("occupancyCarveout"), parseCarveout);
    m_barriersField = new ValidatedField(QStringLiteral("occupancyBarriers"), integer("barriers per block", 0, 16));
    m_staticSharedField->setFormatter(bytesText);
    m_dynamicSharedField->setFormatter(bytesText);
    m_carveoutField->setFormatter(carveoutText);
    m_registersField->setStepping(1, 1, 255);
    m_carveoutField->setStepping(1, -1, 100);
    m_barriersField->setStepping(1, 0, 16);
    m_staticSharedField->lineEdit()->setPlaceholderText(tr("bytes, or 32K"));
    m_dynamicSharedField->lineEdit()->setPlaceholderText(tr("bytes, or 32K"));
    m_registersField->setToolTip(tr("Registers per thread, as ptxas reports them (-Xptxas -v). Up/Down step by 1. "
                                    "Allowed: 1..255."));
    m_carveoutField->setToolTip(
        tr("Preferred shared memory carveout (cudaFuncAttributePreferredSharedMemoryCarveout): the share "
           "of the SM's unified L1/shared storage used as shared memory. Allowed: default (or -1), 0..100 %."));
    m_barriersField->setToolTip(
        tr("Block barriers the kernel uses (__syncthreads is barrier 0). cuda_occupancy.h limits blocks "
           "by barriers from compute capability 9.0. Allowed: 0..16."));

    connect(m_presetCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_arch = m_presetCombo->currentData().toString();
        // New ranges: each field is checked again against them and marked if it no longer fits; the
        // values are never clamped to the new maxima.
        applyPresetLimits();
        fieldsEdited();
    });
    for (ValidatedField* field : {m_blockField, m_registersField, m_staticSharedField, m_dynamicSharedField,
                                  m_carveoutField, m_barriersField}) {
        connect(field, &ValidatedField::valueEdited, this, &OccupancyPanel::fieldsEdited);
        connect(field, &ValidatedField::validityChanged, this, [this](bool valid) {
            if (!valid)
                setStale(true);
        });
    }

    auto* controls = new QWidget;
    auto* layout = new QVBoxLayout(controls);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* presetForm = new QFormLayout;
    presetForm->addRow(tr("GPU"), m_presetCombo);
    layout->addLayout(presetForm);

    auto* columns = new QBoxLayout(QBoxLayout::LeftToRight);
    m_fieldColumns = columns;
    auto* launchForm = new QFormLayout;
    launchForm->addRow(tr("Block size"), m_blockField);
    launchForm->addRow(tr("Registers / thread"), m_registersField);
    launchForm->addRow(tr("Barriers / block"), m_barriersField);
    auto* sharedForm = new QFormLayout;
    sharedForm->addRow(tr("Static shared"), m_staticSharedField);
    sharedForm->addRow(tr("Dynamic shared"), m_dynamicSharedField);
    sharedForm->addRow(tr("Carveout (%)"), m_carveoutField);
    for (QFormLayout* form : {presetForm, launchForm, sharedForm})
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    columns->addLayout(launchForm, 1);
    columns->addLayout(sharedForm, 1);
    layout->addLayout(columns);
    return controls;
}

QWidget* OccupancyPanel::buildResultArea()
{
    auto* area = new QWidget;
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(3);

    auto makeLabel = [](bool bold) {
        auto* label = new QLabel;
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (bold) {
            QFont font = label->font();
            font.setBold(true);
            label->setFont(font);
        }
        return label;
    };
    m_errorLabel = makeLabel(false);
    m_staleLabel = makeLabel(true);
    m_staleLabel->setObjectName(QStringLiteral("occupancyStale"));
    m_staleLabel->hide();
    m_summaryLabel = makeLabel(true);
    m_limitedByLabel = makeLabel(true);
    m_lanesLabel = makeLabel(false);
    m_lanesLabel->setObjectName(QStringLiteral("occupancyLanes"));
    m_explanationLabel = makeLabel(false);
    m_errorLabel->hide();

    m_limiterTable = new QWidget;
    auto* grid = new QGridLayout(m_limiterTable);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(1);
    auto* factorHeader = new QLabel(tr("Limiter"));
    auto* limitHeader = new QLabel(tr("Blocks / SM allowed"));
    factorHeader->setForegroundRole(QPalette::PlaceholderText);
    limitHeader->setForegroundRole(QPalette::PlaceholderText);
    grid->addWidget(factorHeader, 0, 0);
    grid->addWidget(limitHeader, 0, 1, Qt::AlignRight);
    for (std::size_t row = 0; row < m_limiterNames.size(); ++row) {
        m_limiterNames[row] = new QLabel;
        m_limiterValues[row] = new QLabel;
        grid->addWidget(m_limiterNames[row], static_cast<int>(row) + 1, 0);
        grid->addWidget(m_limiterValues[row], static_cast<int>(row) + 1, 1, Qt::AlignRight);
    }
    grid->setColumnStretch(2, 1);

    layout->addWidget(m_errorLabel);
    layout->addWidget(m_staleLabel);
    layout->addWidget(m_summaryLabel);
    layout->addWidget(m_limitedByLabel);
    layout->addWidget(m_lanesLabel);
    layout->addWidget(m_limiterTable);
    layout->addWidget(m_explanationLabel);
    return area;
}

QWidget* OccupancyPanel::buildPlots()
{
    auto* plots = new QWidget;
    auto* grid = new QGridLayout(plots);
    m_plotGrid = grid;
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);

    initSweepPlot(m_blockPlot, tr("Occupancy vs block size"), tr("threads per block"));
    m_blockPlot.describeX = [](int x) { return QStringLiteral("%1 threads per block").arg(x); };
    m_blockPlot.plot->xAxis->setTicker(fixedTicker(256));
    initSweepPlot(m_registersPlot, tr("vs registers per thread"), tr("registers per thread"));
    m_registersPlot.describeX = [](int x) { return QStringLiteral("%1 registers per thread").arg(x); };
    m_registersPlot.plot->xAxis->setTicker(fixedTicker(64));
    initSweepPlot(m_sharedPlot, tr("vs shared memory per block"), tr("shared memory per block (KB)"));
    m_sharedPlot.xScale = 1024.0;
    m_sharedPlot.describeX = [](int x) {
        return QString::fromStdString(formatBytes(static_cast<std::size_t>(x))) +
               QStringLiteral(" shared per block (as dynamic)");
    };
    initHeatmap();

    // Clicking a point of the block size or registers plot sets that input.
    const std::pair<SweepPlot*, ValidatedField*> clickable[] = {{&m_blockPlot, m_blockField},
                                                                {&m_registersPlot, m_registersField}};
    for (const auto& [clickedPlot, clickedField] : clickable)
        connect(clickedPlot->plot, &QCustomPlot::mousePress, this,
                [this, sweep = clickedPlot, field = clickedField](QMouseEvent* event) {
                    const SweepPoint* point = pointUnderMouse(sweep->plot, sweep->points, sweep->xScale, event);
                    if (event->button() == Qt::LeftButton && point != nullptr) {
                        field->setValue(point->x);
                        fieldsEdited();
                    }
                });
    for (SweepPlot* sweep : {&m_blockPlot, &m_registersPlot, &m_sharedPlot})
        connect(sweep->plot, &QCustomPlot::mouseMove, this,
                [this, sweep](QMouseEvent* event) { hoverSweep(*sweep, event); });
    connect(m_heatmap.plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { hoverHeatmap(event); });

    grid->addWidget(m_blockPlot.plot, 0, 0);
    grid->addWidget(m_registersPlot.plot, 0, 1);
    grid->addWidget(m_sharedPlot.plot, 1, 0);
    grid->addWidget(m_heatmap.plot, 1, 1);
    return plots;
}

void OccupancyPanel::initSweepPlot(SweepPlot& sweep, const QString& title, const QString& xLabel)
{
    sweep.plot = new QCustomPlot;
    sweep.plot->setMinimumSize(200, 190);
    sweep.plot->setMouseTracking(true);
    installFigureExport(sweep.plot, QStringLiteral("occupancy"));
    sweep.plot->plotLayout()->insertRow(0);
    sweep.title = new QCPTextElement(sweep.plot, title);
    sweep.plot->plotLayout()->addElement(0, 0, sweep.title);
    sweep.plot->xAxis->setLabel(xLabel);
    sweep.plot->yAxis->setLabel(tr("active warps per SM"));

    sweep.graph = sweep.plot->addGraph();
    // A block of 100 threads occupies like one of 128, so each value also covers the gap to its left.
    sweep.graph->setLineStyle(QCPGraph::lsStepRight);
    sweep.markerLine = new QCPItemStraightLine(sweep.plot);
    sweep.marker = new QCPItemTracer(sweep.plot);
    sweep.marker->setStyle(QCPItemTracer::tsCircle);
    sweep.marker->setSize(9);
}

void OccupancyPanel::initHeatmap()
{
    QCustomPlot* plot = new QCustomPlot;
    m_heatmap.plot = plot;
    installFigureExport(plot, QStringLiteral("occupancy-heatmap"));
    plot->setMinimumSize(200, 190);
    plot->setMouseTracking(true);
    plot->xAxis->setLabel(tr("threads per block"));
    plot->yAxis->setLabel(tr("registers per thread"));
    plot->xAxis->setTicker(fixedTicker(512));
    plot->yAxis->setTicker(fixedTicker(64));
    plot->xAxis->grid()->setVisible(false);
    plot->yAxis->grid()->setVisible(false);

    m_heatmap.map = new QCPColorMap(plot->xAxis, plot->yAxis);
    m_heatmap.map->setInterpolate(false);
    m_heatmap.scale = new QCPColorScale(plot);
    m_heatmap.scale->setType(QCPAxis::atRight);
    m_heatmap.scale->setBarWidth(8);
    m_heatmap.scale->setLabel(tr("occupancy"));
    m_heatmap.scale->axis()->setTicker(fixedTicker(0.25));
    m_heatmap.map->setColorScale(m_heatmap.scale);
    m_heatmap.map->setGradient(viridis());
    m_heatmap.map->setDataRange(QCPRange(0.0, 1.0));
    plot->plotLayout()->addElement(0, 1, m_heatmap.scale);
    auto* margins = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_heatmap.scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);

    plot->plotLayout()->insertRow(0);
    m_heatmap.title = new QCPTextElement(plot, tr("Block size x registers"));
    plot->plotLayout()->addElement(0, 0, m_heatmap.title);

    // White cross in a dark ring: visible on both ends of the gradient.
    m_heatmap.markerRing = new QCPItemTracer(plot);
    m_heatmap.markerRing->setStyle(QCPItemTracer::tsCircle);
    m_heatmap.markerRing->setSize(12);
    m_heatmap.markerRing->setPen(QPen(Qt::black, 1.5));
    m_heatmap.markerCross = new QCPItemTracer(plot);
    m_heatmap.markerCross->setStyle(QCPItemTracer::tsPlus);
    m_heatmap.markerCross->setSize(10);
    m_heatmap.markerCross->setPen(QPen(Qt::white, 2));
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

void OccupancyPanel::fieldsEdited()
{
    const ValidatedField* fields[] = {m_blockField,         m_registersField, m_staticSharedField,
                                      m_dynamicSharedField, m_carveoutField,  m_barriersField};
    for (const ValidatedField* field : fields)
        if (!field->valid()) {
            setStale(true);
            return;
        }
    OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(*m_blockField->value());
    input.registersPerThread = static_cast<int>(*m_registersField->value());
    input.staticSharedBytes = static_cast<std::size_t>(*m_staticSharedField->value());
    input.dynamicSharedBytes = static_cast<std::size_t>(*m_dynamicSharedField->value());
    input.carveoutPercent = static_cast<int>(*m_carveoutField->value());
    input.barriersPerBlock = static_cast<int>(*m_barriersField->value());
    const auto preset = currentPreset();
    if (preset) {
        // A rule across fields (static + dynamic over the opt-in limit): marked on the dynamic field.
        try {
            occupancy::validateInput(*preset, input);
            m_dynamicSharedField->setExternalError({});
        } catch (const InputError& error) {
            m_dynamicSharedField->setExternalError(QString::fromUtf8(error.what()));
            setStale(true);
            return;
        }
    }
    // Unchanged inputs on the same GPU: nothing to do (another preset in the combo box recomputes).
    if (input == m_input && m_result && !m_stale && m_result->arch == m_arch.toStdString())
        return;
    m_input = input;
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
