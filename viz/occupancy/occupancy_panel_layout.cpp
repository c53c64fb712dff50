// The occupancy explorer's widgets: the GPU and launch fields, the result labels and limiter table,
// the four plots, and how they are arranged for the dock's width (one column below 470 px). The
// results, the plots' contents and hovering are in occupancy_panel.cpp.
#include "occupancy/occupancy_panel.h"
#include "occupancy/occupancy_panel_support.h"
#include "common/export_actions.h"
#include "common/scroll_page.h"
#include "common/text_label.h"
#include "common/validated_field.h"

#include "gpu/gpu_preset.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <qcustomplot.h>

#include <QBoxLayout>
#include <QColor>
#include <QComboBox>
#include <QFont>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QMap>
#include <QMouseEvent>
#include <QPalette>
#include <QPen>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace warpscope::viz {

using occupancy_panel_support::carveoutText;
using occupancy_panel_support::fixedTicker;
using occupancy_panel_support::pointUnderMouse;
using occupancy_panel_support::toQString;

namespace {

using occupancy::SweepPoint;

// How a byte field shows a value: "32K" for whole KiB (as links write them), else the bytes.
QString bytesText(std::int64_t bytes)
{
    return bytes > 0 && bytes % 1024 == 0 ? QString::number(bytes / 1024) + QStringLiteral("K") : QString::number(bytes);
}

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
    m_launchNote = new QLabel(content);
    m_launchNote->setObjectName(QStringLiteral("occupancyLaunchNote"));
    m_launchNote->setWordWrap(true);
    m_launchNote->setTextFormat(Qt::PlainText);
    m_launchNote->hide();
    layout->addWidget(m_launchNote);
    layout->addWidget(buildControls());
    m_ptxasNote = new QLabel(content);
    m_ptxasNote->setObjectName(QStringLiteral("occupancyPtxasNote"));
    m_ptxasNote->setWordWrap(true);
    m_ptxasNote->setTextFormat(Qt::PlainText);
    m_ptxasNote->hide();
    layout->addWidget(m_ptxasNote);
    layout->addWidget(buildResultArea());
    layout->addWidget(buildPlots(), 1);
    m_footnoteLabel = new QLabel(tr("Theoretical occupancy from the CUDA toolkit's cuda_occupancy.h. "
                                    "Achieved occupancy is measured (profiling)."));
    m_footnoteLabel->setWordWrap(true);
    layout->addWidget(m_footnoteLabel);

    fillWithScrollArea(*this, content);

    applyPlotStyle();
    syncControlsFromInput();
    recompute();
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
        // Marks (the rule across the shared-memory fields too) and the stale note follow each
        // keystroke; the result and plots change when a value is applied (Enter, focus out, a pause).
        connect(field, &ValidatedField::textChecked, this, [this] { setStale(!readFields()); });
        connect(field, &ValidatedField::valueEdited, this, &OccupancyPanel::fieldsEdited);
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

    m_errorLabel = selectableTextLabel(LabelWeight::Normal);
    m_staleLabel = selectableTextLabel(LabelWeight::Bold);
    m_staleLabel->setObjectName(QStringLiteral("occupancyStale"));
    m_staleLabel->hide();
    m_summaryLabel = selectableTextLabel(LabelWeight::Bold);
    m_limitedByLabel = selectableTextLabel(LabelWeight::Bold);
    m_lanesLabel = selectableTextLabel(LabelWeight::Normal);
    m_lanesLabel->setObjectName(QStringLiteral("occupancyLanes"));
    m_explanationLabel = selectableTextLabel(LabelWeight::Normal);
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

} // namespace warpscope::viz
