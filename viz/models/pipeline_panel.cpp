#include "models/pipeline_panel.h"

#include "common/export_actions.h"
#include "common/plot_style.h"
#include "common/validated_field.h"
#include "models/models_style.h"
#include "precision/precision_lab_style.h"
#include "training/collectives.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace warpscope::viz {
namespace {

constexpr int kMargin = 8;
constexpr int kRowGap = 3;

QString percentText(double share) { return QString::number(share * 100.0, 'f', 2) + QStringLiteral(" %"); }

} // namespace

// --- the panel

PipelinePanel::PipelinePanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelinePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addWidget(buildControls());
    m_staleLabel = modelTextLabel(QStringLiteral("pipelineStale"), this);
    m_staleLabel->hide();
    m_chart = new PipelineChartView(this);
    installFigureExport(m_chart, QStringLiteral("pipeline"));
    m_numbersLabel = modelTextLabel(QStringLiteral("pipelineNumbers"), this);
    m_captionLabel = modelTextLabel(QStringLiteral("pipelineCaption"), this);
    m_captionLabel->setForegroundRole(QPalette::PlaceholderText);
    m_captionLabel->setText(
        tr("The GPipe schedule (Huang et al., \"GPipe: Efficient Training of Giant Neural Networks using Pipeline "
           "Parallelism\", NeurIPS 2019): each stage holds a slice of the layers; a batch is split into M micro-batches "
           "whose forward passes flow down the stages and whose backward passes, taken here as twice a forward, flow back "
           "up in reverse order before the optimizer step. Narayanan et al. (\"Efficient Large-Scale Language Model "
           "Training on GPU Clusters Using Megatron-LM\", SC 2021, section 2.2.1) give the bubble as (P − 1)/M of the "
           "ideal time; as a share of the whole batch's time that is (P − 1)/(M + P − 1)."));
    layout->addWidget(m_staleLabel);
    layout->addWidget(m_chart);
    layout->addWidget(m_numbersLabel);
    layout->addWidget(m_captionLabel);
    layout->addStretch(1);
    syncControls();
    redraw();
}

QWidget* PipelinePanel::buildControls()
{
    m_stagesField = new ValidatedField(QStringLiteral("pipelineStages"), [](const QString& text) {
        return parseInteger(text.toStdString(), "stages", 1, kPipelineMaxStages);
    });
    m_microbatchesField = new ValidatedField(QStringLiteral("pipelineMicrobatches"), [](const QString& text) {
        return parseInteger(text.toStdString(), "microbatches", 1, kPipelineMaxMicrobatches);
    });
    m_stagesField->setStepping(1, 1, kPipelineMaxStages);
    m_microbatchesField->setStepping(1, 1, kPipelineMaxMicrobatches);
    m_stagesField->setToolTip(tr("Pipeline stages P (one GPU each). Up/Down step by 1. Allowed: 1..16."));
    m_microbatchesField->setToolTip(tr("Micro-batches M per batch. Up/Down step by 1. Allowed: 1..64."));
    auto* controls = new QWidget(this);
    auto* columns = new QHBoxLayout(controls);
    columns->setContentsMargins(0, 0, 0, 0);
    auto* left = new QFormLayout;
    left->addRow(tr("Stages P"), m_stagesField);
    auto* right = new QFormLayout;
    right->addRow(tr("Micro-batches M"), m_microbatchesField);
    for (QFormLayout* form : {left, right})
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    for (ValidatedField* field : {m_stagesField, m_microbatchesField}) {
        field->lineEdit()->setMinimumWidth(50);
        // The row under the fields follows each keystroke; the chart changes when a value is applied.
        connect(field, &ValidatedField::textChecked, this, [this] {
            if (!m_syncing)
                setStale(fieldProblems());
        });
        connect(field, &ValidatedField::valueEdited, this, &PipelinePanel::controlsEdited);
    }
    return controls;
}

ValidatedField* PipelinePanel::field(const char* key) const
{
    const std::string name = key;
    return name == "stages" ? m_stagesField : name == "microbatches" ? m_microbatchesField : nullptr;
}

void PipelinePanel::validate(const PipelineSettings& settings)
{
    if (settings.stages < 1 || settings.stages > kPipelineMaxStages)
        throw InputError("stages: " + std::to_string(settings.stages) + " is out of range (allowed: 1.." +
                         std::to_string(kPipelineMaxStages) + ")");
    if (settings.microbatches < 1 || settings.microbatches > kPipelineMaxMicrobatches)
        throw InputError("microbatches: " + std::to_string(settings.microbatches) + " is out of range (allowed: 1.." +
                         std::to_string(kPipelineMaxMicrobatches) + ")");
}

void PipelinePanel::setSettings(const PipelineSettings& settings)
{
    validate(settings);
    m_settings = settings;
    syncControls();
    setStale({});
    redraw();
}

void PipelinePanel::syncControls()
{
    m_syncing = true;
    m_stagesField->setValue(m_settings.stages);
    m_microbatchesField->setValue(m_settings.microbatches);
    m_syncing = false;
}

QString PipelinePanel::fieldProblems() const
{
    QStringList problems;
    for (const ValidatedField* field : {m_stagesField, m_microbatchesField})
        if (!field->valid())
            problems << field->errorText();
    return problems.join(QLatin1Char('\n'));
}

void PipelinePanel::controlsEdited()
{
    if (m_syncing)
        return;
    const QString problems = fieldProblems();
    setStale(problems);
    if (!problems.isEmpty())
        return;
    const PipelineSettings settings{static_cast<int>(*m_stagesField->value()), static_cast<int>(*m_microbatchesField->value())};
    if (settings == m_settings)
        return;
    m_settings = settings;
    redraw();
}

void PipelinePanel::setStale(const QString& reason)
{
    m_stale = !reason.isEmpty();
    if (!m_stale) {
        m_staleLabel->hide();
        return;
    }
    m_staleLabel->setText(reason + QStringLiteral("\n") +
                          tr("Not applied: the chart shows the last valid inputs (%1 stages, %2 micro-batches).")
                              .arg(m_settings.stages)
                              .arg(m_settings.microbatches));
    m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(warningColour(palette()).name()));
    m_staleLabel->show();
}

double PipelinePanel::measuredIdleShare() const { return m_schedule.idleShare(); }

double PipelinePanel::formulaIdleShare() const
{
    return training::pipelineBubbleFraction(m_settings.stages, m_settings.microbatches);
}

QString PipelinePanel::numbersText() const
{
    const int P = m_settings.stages, M = m_settings.microbatches;
    const int all = m_schedule.stages * m_schedule.makespan;
    QStringList lines;
    lines << tr("The batch takes %1 time units (1 unit: one micro-batch's forward pass on one stage); each stage is busy "
                "for %2 of them (M forwards of 1 and M backwards of 2).")
                 .arg(m_schedule.makespan)
                 .arg(m_schedule.busyUnits() / std::max(1, m_schedule.stages));
    lines << tr("Idle share measured on the chart: %1 of %2 stage-units = %3.")
                 .arg(m_schedule.idleUnits())
                 .arg(all)
                 .arg(percentText(measuredIdleShare()));
    lines << tr("Formula (P − 1)/(M + P − 1) = %1/%2 = %3.").arg(P - 1).arg(M + P - 1).arg(percentText(formulaIdleShare()));
    return lines.join(QLatin1Char('\n'));
}

void PipelinePanel::redraw()
{
    m_schedule = gpipeSchedule(m_settings.stages, m_settings.microbatches);
    m_chart->setSchedule(m_schedule);
    m_numbersLabel->setText(numbersText());
    emit settingsChanged();
}

void PipelinePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_staleLabel != nullptr && m_stale)
        m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(warningColour(palette()).name()));
}

// --- the chart

PipelineChartView::PipelineChartView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelineChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void PipelineChartView::setSchedule(const PipelineSchedule& schedule)
{
    m_schedule = schedule;
    m_tickStep = std::max(1.0, niceTickStep(schedule.makespan, 10));
    updateGeometry();
    update();
}

static int chartLine(const QWidget* widget) { return QFontMetrics(plotFont(widget->font())).height(); }

int PipelineChartView::rowHeight() const
{
    // Rows shrink as stages grow, so 16 stages still fit a laptop's screen.
    const int stages = std::max(1, m_schedule.stages);
    return std::clamp(340 / stages, chartLine(this) + 4, 30);
}

int PipelineChartView::rowTop(int stage) const { return kMargin + chartLine(this) + 6 + stage * (rowHeight() + kRowGap); }

int PipelineChartView::axisTop() const { return rowTop(std::max(1, m_schedule.stages) - 1) + rowHeight() + 2; }

int PipelineChartView::plotLeft() const
{
    return kMargin + QFontMetrics(plotFont(font())).horizontalAdvance(tr("Stage 16")) + 10;
}

int PipelineChartView::plotRight() const { return width() - kMargin - 6; }

double PipelineChartView::unitToX(double unit) const
{
    const double span = std::max(1, m_schedule.makespan);
    return plotLeft() + (plotRight() - plotLeft()) * (unit / span);
}

QRectF PipelineChartView::opRect(std::size_t index) const
{
    const PipelineOp& op = m_schedule.ops.at(index);
    return QRectF(QPointF(unitToX(op.start), rowTop(op.stage)), QPointF(unitToX(op.end), rowTop(op.stage) + rowHeight()));
}

QRectF PipelineChartView::idleRect(std::size_t index) const
{
    const PipelineIdle& gap = m_schedule.idle.at(index);
    return QRectF(QPointF(unitToX(gap.start), rowTop(gap.stage)), QPointF(unitToX(gap.end), rowTop(gap.stage) + rowHeight()));
}

double PipelineChartView::drawnIdleShare() const
{
    if (m_schedule.stages == 0)
        return 0;
    double idle = 0;
    for (std::size_t i = 0; i < m_schedule.idle.size(); ++i)
        idle += idleRect(i).width();
    return idle / (m_schedule.stages * (unitToX(m_schedule.makespan) - unitToX(0)));
}

QSize PipelineChartView::sizeHint() const
{
    const int line = chartLine(this);
    return {640, axisTop() + 4 + line + 8 + line + kMargin};
}

QSize PipelineChartView::minimumSizeHint() const { return {320, sizeHint().height()}; }

void PipelineChartView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.brush(QPalette::Base));
    if (m_schedule.stages == 0)
        return;
    const QColor text = pal.color(QPalette::Text);
    const QFont font = plotFont(this->font()), bold = plotFont(this->font(), true);
    const QFontMetrics metrics(font);
    const int line = metrics.height(), row = rowHeight();
    const bool dark = isDarkPalette(pal);

    painter.setFont(bold);
    painter.setPen(text);
    const QString title = tr("GPipe: %1 stages, %2 micro-batches; forwards F1..F%2, then backwards B%2..B1")
                              .arg(m_schedule.stages)
                              .arg(m_schedule.microbatches);
    painter.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, line), Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(bold).elidedText(title, Qt::ElideRight, width() - 2 * kMargin));
    painter.setFont(font);

    for (int stage = 0; stage < m_schedule.stages; ++stage) {
        painter.setPen(text);
        painter.drawText(QRect(kMargin, rowTop(stage), plotLeft() - kMargin - 8, row), Qt::AlignRight | Qt::AlignVCenter,
                         tr("Stage %1").arg(stage + 1));
    }
    // The bubble: shaded and hatched, labelled where it is wide enough.
    const QColor bubble = bubbleColour(pal);
    for (std::size_t i = 0; i < m_schedule.idle.size(); ++i) {
        const QRectF gap = idleRect(i);
        painter.fillRect(gap, withAlpha(bubble, 0.35));
        painter.fillRect(gap, QBrush(bubble, Qt::BDiagPattern));
        const QString label = tr("idle");
        if (metrics.horizontalAdvance(label) + 8 <= gap.width()) {
            painter.setPen(text);
            painter.drawText(gap, Qt::AlignCenter, label);
        }
    }
    for (std::size_t i = 0; i < m_schedule.ops.size(); ++i) {
        const PipelineOp& op = m_schedule.ops[i];
        const QRectF bar = opRect(i);
        const QColor fill = modelColour(op.backward ? ModelColour::Backward : ModelColour::Forward, dark);
        painter.fillRect(bar, fill);
        painter.setPen(QPen(pal.color(QPalette::Base), 1));
        painter.drawLine(QPointF(bar.right(), bar.top()), QPointF(bar.right(), bar.bottom()));
        const QString full = QStringLiteral("%1%2").arg(op.backward ? QLatin1Char('B') : QLatin1Char('F')).arg(op.microbatch);
        const QString shortLabel = QString::number(op.microbatch);
        const QString label = metrics.horizontalAdvance(full) + 3 <= bar.width()         ? full
                              : metrics.horizontalAdvance(shortLabel) + 2 <= bar.width() ? shortLabel
                                                                                          : QString();
        if (!label.isEmpty()) {
            painter.setPen(textOn(fill));
            painter.drawText(bar, Qt::AlignCenter, label);
        }
    }

    // Time axis, in forward-pass units.
    const int axisY = axisTop();
    painter.setPen(QPen(text, 1));
    painter.drawLine(QPointF(plotLeft(), axisY), QPointF(plotRight(), axisY));
    double lastLabelRight = -1e9;
    for (double unit = 0; unit <= m_schedule.makespan + 1e-9; unit += m_tickStep) {
        const double x = unitToX(unit);
        painter.drawLine(QPointF(x, axisY), QPointF(x, axisY + 4));
        const QString label = QString::number(unit, 'g', 6);
        const double w = metrics.horizontalAdvance(label);
        if (x - w / 2 > lastLabelRight + 4 && x + w / 2 <= width()) {
            painter.drawText(QRectF(x - w / 2 - 2, axisY + 4, w + 4, line), Qt::AlignCenter, label);
            lastLabelRight = x + w / 2;
        }
    }
    // The end of the batch, even off the tick grid.
    const double endX = unitToX(m_schedule.makespan);
    painter.drawLine(QPointF(endX, axisY), QPointF(endX, axisY + 4));

    // Legend and the axis' unit.
    const int legendY = axisY + line + 8;
    int x = plotLeft();
    const std::pair<QColor, QString> entries[] = {
        {modelColour(ModelColour::Forward, dark), tr("forward (1 unit)")},
        {modelColour(ModelColour::Backward, dark), tr("backward (2 units)")},
    };
    for (const auto& [colour, name] : entries) {
        painter.fillRect(QRect(x, legendY + (line - 10) / 2, 14, 10), colour);
        painter.setPen(text);
        painter.drawText(QRect(x + 18, legendY, metrics.horizontalAdvance(name) + 2, line), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += 18 + metrics.horizontalAdvance(name) + 16;
    }
    const QRect idleSwatch(x, legendY + (line - 10) / 2, 14, 10);
    painter.fillRect(idleSwatch, withAlpha(bubble, 0.35));
    painter.fillRect(idleSwatch, QBrush(bubble, Qt::BDiagPattern));
    painter.setPen(text);
    const QString idleName = tr("idle (the bubble)");
    painter.drawText(QRect(x + 18, legendY, metrics.horizontalAdvance(idleName) + 2, line), Qt::AlignLeft | Qt::AlignVCenter, idleName);
    x += 18 + metrics.horizontalAdvance(idleName) + 16;
    const QString unit = tr("time in units");
    const int unitWidth = metrics.horizontalAdvance(unit);
    if (x + unitWidth <= width() - kMargin)
        painter.drawText(QRect(std::max(x, plotRight() - unitWidth), legendY, unitWidth + 2, line), Qt::AlignLeft | Qt::AlignVCenter, unit);
}

} // namespace warpscope::viz
