#include "models/streams_panel.h"

#include "common/export_actions.h"
#include "common/plot_style.h"
#include "common/validated_field.h"
#include "models/graph_launch_panel.h"
#include "models/models_style.h"
#include "precision/precision_lab_style.h"
#include "util/input_error.h"
#include "util/input_wording.h"
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
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::viz {
namespace {

constexpr int kMargin = 8;
constexpr int kRowGap = 4;

// A time in ms as a learner reads it: up to 3 decimals, trailing zeros dropped ("3.5", "8", "0.333").
QString msText(double ms)
{
    QString text = QString::number(ms, 'f', 3);
    while (text.contains(QLatin1Char('.')) && (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
        text.chop(1);
    return text;
}

constexpr const char* kMsAllowed = "0 to 1e6 ms, a decimal such as 2.5";

double parseMs(const QString& text, const char* key)
{
    return parseRealInRange(text, QString::fromLatin1(key), 0, kStreamsMaxMs, QString::fromLatin1(kMsAllowed));
}

QString kindName(perf::StreamStageKind kind)
{
    switch (kind) {
    case perf::StreamStageKind::HostToDevice: return QStringLiteral("H2D copy");
    case perf::StreamStageKind::Kernel: return QStringLiteral("kernel");
    case perf::StreamStageKind::DeviceToHost: return QStringLiteral("D2H copy");
    }
    return {};
}

ModelColour kindColour(perf::StreamStageKind kind)
{
    switch (kind) {
    case perf::StreamStageKind::HostToDevice: return ModelColour::Copy;
    case perf::StreamStageKind::Kernel: return ModelColour::Compute;
    case perf::StreamStageKind::DeviceToHost: return ModelColour::CopyBack;
    }
    return ModelColour::Copy;
}

} // namespace

// --- the panel

StreamsPanel::StreamsPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("streamsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addWidget(buildControls());

    m_staleLabel = modelTextLabel(QStringLiteral("streamsStale"), this);
    m_staleLabel->hide();
    m_view = new StreamTimelineView(this);
    installFigureExport(m_view, QStringLiteral("streams"));
    m_numbersLabel = modelTextLabel(QStringLiteral("streamsNumbers"), this);
    m_captionLabel = modelTextLabel(QStringLiteral("streamsCaption"), this);
    m_captionLabel->setForegroundRole(QPalette::PlaceholderText);
    m_captionLabel->setText(
        tr("A model, not a measurement: the times are yours. The work is cut into equal chunks, each copied in, computed "
           "on and copied back in its own stream, issued breadth-first (every H2D copy, then every kernel, then every "
           "D2H copy) as the CUDA C++ Best Practices Guide's \"Overlapping Transfers and Device Computation\" does. A copy "
           "engine moves one transfer at a time, in issue order; one kernel runs at a time (each fills the GPU). With one "
           "copy engine both directions queue on it. cudaDeviceProp::asyncEngineCount says how many a GPU has."));
    layout->addWidget(m_staleLabel);
    layout->addWidget(m_view);
    layout->addWidget(m_numbersLabel);
    layout->addWidget(m_captionLabel);
    m_graphLaunch = new GraphLaunchPanel(this);
    layout->addSpacing(6);
    layout->addWidget(m_graphLaunch);
    layout->addStretch(1);
    syncControls();
    redraw();
}

QWidget* StreamsPanel::buildControls()
{
    auto msField = [this](const QString& name, const char* key) {
        auto* field = new ValidatedField(name, [key](const QString& text) {
            return static_cast<std::int64_t>(std::llround(parseMs(text, key) * 1000.0)); // µs: only its validity is used
        });
        field->lineEdit()->setPlaceholderText(tr("ms"));
        return field;
    };
    m_h2dField = msField(QStringLiteral("streamsH2d"), "h2d");
    m_kernelField = msField(QStringLiteral("streamsKernel"), "kernel");
    m_d2hField = msField(QStringLiteral("streamsD2h"), "d2h");
    m_chunksField = new ValidatedField(QStringLiteral("streamsChunks"), [](const QString& text) {
        return parseInteger(text.toStdString(), "chunks", 1, kStreamsMaxChunks);
    });
    m_enginesField = new ValidatedField(QStringLiteral("streamsEngines"), [](const QString& text) {
        return parseInteger(text.toStdString(), "engines", 1, 2);
    });
    m_chunksField->setStepping(1, 1, kStreamsMaxChunks);
    m_enginesField->setStepping(1, 1, 2);
    m_h2dField->setToolTip(tr("The whole host-to-device copy in ms, before it is cut into chunks. Allowed: 0 to 1e6."));
    m_kernelField->setToolTip(tr("The whole kernel time in ms (all chunks' work). Allowed: 0 to 1e6."));
    m_d2hField->setToolTip(tr("The whole device-to-host copy in ms. Allowed: 0 to 1e6."));
    m_chunksField->setToolTip(tr("Chunks, one stream each. Up/Down step by 1. Allowed: 1..64."));
    m_enginesField->setToolTip(tr("Copy engines: 1 (both directions share it) or 2 (one per direction)."));

    auto* controls = new QWidget(this);
    auto* columns = new QHBoxLayout(controls);
    columns->setContentsMargins(0, 0, 0, 0);
    auto* times = new QFormLayout;
    times->addRow(tr("H2D copy (ms)"), m_h2dField);
    times->addRow(tr("Kernel (ms)"), m_kernelField);
    times->addRow(tr("D2H copy (ms)"), m_d2hField);
    auto* split = new QFormLayout;
    split->addRow(tr("Chunks (streams)"), m_chunksField);
    split->addRow(tr("Copy engines"), m_enginesField);
    for (QFormLayout* form : {times, split})
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    columns->addLayout(times, 1);
    columns->addLayout(split, 1);
    for (ValidatedField* field : {m_h2dField, m_kernelField, m_d2hField, m_chunksField, m_enginesField}) {
        field->lineEdit()->setMinimumWidth(60);
        // The row under the fields follows each keystroke; the figure changes when a value is applied.
        connect(field, &ValidatedField::textChecked, this, [this] {
            if (!m_syncing)
                setStale(readControls().second);
        });
        connect(field, &ValidatedField::valueEdited, this, &StreamsPanel::controlsEdited);
    }
    return controls;
}

ValidatedField* StreamsPanel::field(const char* key) const
{
    const std::string name = key;
    return name == "h2d" ? m_h2dField : name == "kernel" ? m_kernelField : name == "d2h" ? m_d2hField
         : name == "chunks" ? m_chunksField : name == "engines" ? m_enginesField : nullptr;
}

void StreamsPanel::validate(const StreamsSettings& settings)
{
    const std::pair<const char*, double> times[] = {
        {"h2d", settings.hostToDeviceMs}, {"kernel", settings.kernelMs}, {"d2h", settings.deviceToHostMs}};
    for (const auto& [key, ms] : times)
        if (!(ms >= 0 && ms <= kStreamsMaxMs))
            throw InputError(outOfRangeMessage(key, msText(ms).toStdString(), kMsAllowed));
    if (settings.hostToDeviceMs + settings.kernelMs + settings.deviceToHostMs <= 0)
        throw InputError("h2d, kernel and d2h are all 0 (allowed: at least one above 0 ms)");
    if (settings.chunks < 1 || settings.chunks > kStreamsMaxChunks)
        throw InputError(outOfRangeMessage("chunks", std::to_string(settings.chunks), "1.." + std::to_string(kStreamsMaxChunks)));
    if (settings.copyEngines < 1 || settings.copyEngines > 2)
        throw InputError(outOfRangeMessage("engines", std::to_string(settings.copyEngines), "1..2"));
}

perf::StreamOverlapInput StreamsPanel::overlapInput(const StreamsSettings& settings)
{
    perf::StreamOverlapInput input;
    input.hostToDeviceSeconds = settings.hostToDeviceMs / 1000.0;
    input.kernelSeconds = settings.kernelMs / 1000.0;
    input.deviceToHostSeconds = settings.deviceToHostMs / 1000.0;
    input.chunks = settings.chunks;
    input.copyEngines = settings.copyEngines;
    return input;
}

void StreamsPanel::setSettings(const StreamsSettings& settings)
{
    validate(settings);
    m_settings = settings;
    syncControls();
    setStale({});
    redraw();
}

void StreamsPanel::syncControls()
{
    m_syncing = true;
    m_h2dField->setText(msText(m_settings.hostToDeviceMs));
    m_kernelField->setText(msText(m_settings.kernelMs));
    m_d2hField->setText(msText(m_settings.deviceToHostMs));
    m_chunksField->setValue(m_settings.chunks);
    m_enginesField->setValue(m_settings.copyEngines);
    m_syncing = false;
}

std::pair<std::optional<StreamsSettings>, QString> StreamsPanel::readControls() const
{
    // Every marked field's own message, as its text reads now; then the rule across fields.
    const ValidatedField* fields[] = {m_h2dField, m_kernelField, m_d2hField, m_chunksField, m_enginesField};
    QStringList problems;
    for (const ValidatedField* field : fields)
        if (!field->valid())
            problems << field->errorText();
    if (!problems.isEmpty())
        return {std::nullopt, problems.join(QLatin1Char('\n'))};
    StreamsSettings settings;
    settings.hostToDeviceMs = parseMs(m_h2dField->text(), "h2d");
    settings.kernelMs = parseMs(m_kernelField->text(), "kernel");
    settings.deviceToHostMs = parseMs(m_d2hField->text(), "d2h");
    settings.chunks = static_cast<int>(*m_chunksField->value());
    settings.copyEngines = static_cast<int>(*m_enginesField->value());
    try {
        validate(settings);
    } catch (const InputError& error) {
        return {std::nullopt, QString::fromUtf8(error.what())};
    }
    return {settings, QString()};
}

void StreamsPanel::controlsEdited()
{
    if (m_syncing)
        return;
    const auto [settings, problem] = readControls();
    setStale(problem);
    if (!settings || *settings == m_settings)
        return;
    m_settings = *settings;
    redraw();
}

void StreamsPanel::setStale(const QString& reason)
{
    m_stale = !reason.isEmpty();
    if (!m_stale) {
        m_staleLabel->hide();
        return;
    }
    m_staleLabel->setText(reason + QStringLiteral("\n") +
                          tr("Not applied: the figure shows the last valid inputs (%1, %2, %3 ms, %4 chunks, %5 copy engines).")
                              .arg(msText(m_settings.hostToDeviceMs), msText(m_settings.kernelMs), msText(m_settings.deviceToHostMs))
                              .arg(m_settings.chunks)
                              .arg(m_settings.copyEngines));
    m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(warningColour(palette()).name()));
    m_staleLabel->show();
}

std::optional<double> StreamsPanel::closedFormSeconds() const
{
    if (m_settings.copyEngines != 2)
        return std::nullopt;
    return perf::pipelinedSeconds(m_settings.hostToDeviceMs / 1000.0, m_settings.kernelMs / 1000.0,
                                  m_settings.deviceToHostMs / 1000.0, m_settings.chunks);
}

QString StreamsPanel::numbersText() const
{
    const StreamsSettings& s = m_settings;
    const double serialMs = m_timeline.serialSeconds * 1000.0, overlappedMs = m_timeline.overlappedSeconds * 1000.0;
    QStringList lines;
    lines << tr("Serial, one stream: %1 + %2 + %3 = %4 ms.")
                 .arg(msText(s.hostToDeviceMs), msText(s.kernelMs), msText(s.deviceToHostMs), msText(serialMs));
    lines << tr("Overlapped, %1 %2 on %3 %4: %5 ms, a speedup of %6×.")
                 .arg(s.chunks)
                 .arg(s.chunks == 1 ? tr("stream") : tr("streams"))
                 .arg(s.copyEngines)
                 .arg(s.copyEngines == 1 ? tr("copy engine") : tr("copy engines"))
                 .arg(msText(overlappedMs))
                 .arg(QString::number(m_timeline.speedup(), 'f', 2));
    const int n = s.chunks;
    const double largest = std::max({s.hostToDeviceMs, s.kernelMs, s.deviceToHostMs});
    const double twoEnginesMs =
        perf::pipelinedSeconds(s.hostToDeviceMs / 1000.0, s.kernelMs / 1000.0, s.deviceToHostMs / 1000.0, n) * 1000.0;
    const QString form = tr("(a + c + d)/n + (n − 1) × max(a, c, d)/n = (%1 + %2 + %3)/%4 + %5 × %6/%4 = %7 ms")
                             .arg(msText(s.hostToDeviceMs), msText(s.kernelMs), msText(s.deviceToHostMs))
                             .arg(n)
                             .arg(n - 1)
                             .arg(msText(largest), msText(twoEnginesMs));
    if (s.copyEngines == 2)
        lines << tr("Closed form for two copy engines: %1, as the plan above.").arg(form);
    else
        lines << tr("With two copy engines the closed form would give %1; one engine makes both directions queue.").arg(form);
    return lines.join(QLatin1Char('\n'));
}

void StreamsPanel::redraw()
{
    m_timeline = perf::planStreams(overlapInput(m_settings));
    m_view->setTimeline(m_timeline, m_settings.copyEngines);
    m_numbersLabel->setText(numbersText());
    emit settingsChanged();
}

void StreamsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_staleLabel != nullptr && m_stale)
        m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(warningColour(palette()).name()));
}

// --- the timeline figure

StreamTimelineView::StreamTimelineView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("streamsTimeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StreamTimelineView::setTimeline(const perf::StreamTimeline& timeline, int copyEngines)
{
    m_timeline = timeline;
    m_copyEngines = copyEngines;
    const double endMs = std::max(timeline.serialSeconds, timeline.overlappedSeconds) * 1000.0;
    m_tickStep = niceTickStep(endMs, 8);
    m_axisEnd = std::max(m_tickStep, std::ceil(endMs / m_tickStep - 1e-9) * m_tickStep) / 1000.0;
    updateGeometry();
    update();
}

int StreamTimelineView::rowCount() const { return m_copyEngines == 2 ? 3 : 2; }

int StreamTimelineView::rowOf(int engine) const { return engine == 2 ? rowCount() - 1 : engine; }

QString StreamTimelineView::rowLabel(int row) const
{
    if (row == rowCount() - 1)
        return tr("SMs: kernels");
    if (m_copyEngines == 1)
        return tr("Copy engine: H2D + D2H");
    return row == 0 ? tr("Copy engine 0: H2D") : tr("Copy engine 1: D2H");
}

static int lineHeight(const QWidget* widget) { return QFontMetrics(plotFont(widget->font())).height(); }

static int rowHeight(const QWidget* widget) { return std::max(22, lineHeight(widget) + 10); }

int StreamTimelineView::serialTop() const { return kMargin + lineHeight(this) + 6; }

int StreamTimelineView::rowTop(int row) const
{
    const int overlappedTitle = serialTop() + rowHeight(this) + 14;
    return overlappedTitle + lineHeight(this) + 6 + row * (rowHeight(this) + kRowGap);
}

int StreamTimelineView::axisTop() const { return rowTop(rowCount() - 1) + rowHeight(this) + 2; }

int StreamTimelineView::plotLeft() const
{
    const QFontMetrics metrics(plotFont(font()));
    int widest = metrics.horizontalAdvance(tr("One stream"));
    for (int row = 0; row < rowCount(); ++row)
        widest = std::max(widest, metrics.horizontalAdvance(rowLabel(row)));
    return kMargin + widest + 10;
}

int StreamTimelineView::plotRight() const
{
    // Room for half of the last tick's label ("1000000" at most).
    return width() - kMargin - QFontMetrics(plotFont(font())).horizontalAdvance(QStringLiteral("0000000")) / 2;
}

double StreamTimelineView::timeToX(double seconds) const
{
    return plotLeft() + (plotRight() - plotLeft()) * (seconds / m_axisEnd);
}

double StreamTimelineView::axisEndSeconds() const { return m_axisEnd; }

QRectF StreamTimelineView::serialBarRect(perf::StreamStageKind kind) const
{
    // One stream runs each whole part in turn: the sum of its chunks' stages.
    double parts[3] = {0, 0, 0};
    for (const perf::StreamStage& stage : m_timeline.stages)
        parts[static_cast<int>(stage.kind)] += stage.end - stage.start;
    double start = 0;
    for (int k = 0; k < static_cast<int>(kind); ++k)
        start += parts[k];
    const double end = start + parts[static_cast<int>(kind)];
    return QRectF(QPointF(timeToX(start), serialTop()), QPointF(timeToX(end), serialTop() + rowHeight(this)));
}

QRectF StreamTimelineView::stageRect(std::size_t index) const
{
    const perf::StreamStage& stage = m_timeline.stages.at(index);
    const int top = rowTop(rowOf(stage.engine));
    return QRectF(QPointF(timeToX(stage.start), top), QPointF(timeToX(stage.end), top + rowHeight(this)));
}

QSize StreamTimelineView::sizeHint() const
{
    const int legend = lineHeight(this) + 8;
    return {640, axisTop() + lineHeight(this) + 8 + legend + kMargin};
}

QSize StreamTimelineView::minimumSizeHint() const { return {320, sizeHint().height()}; }

void StreamTimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.brush(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    const QFont font = plotFont(this->font()), bold = plotFont(this->font(), true);
    const QFontMetrics metrics(font);
    const int line = metrics.height(), row = rowHeight(this);
    const bool dark = isDarkPalette(pal);

    auto drawBar = [&](const QRectF& bar, perf::StreamStageKind kind, const QString& label) {
        const QColor fill = modelColour(kindColour(kind), dark);
        painter.fillRect(bar.adjusted(0, 0, -0.5, 0), fill);
        painter.setPen(QPen(pal.color(QPalette::Base), 1));
        painter.drawLine(QPointF(bar.right(), bar.top()), QPointF(bar.right(), bar.bottom())); // a seam between neighbours
        if (!label.isEmpty() && metrics.horizontalAdvance(label) + 4 <= bar.width()) {
            painter.setPen(textOn(fill));
            painter.drawText(bar, Qt::AlignCenter, label);
        }
    };
    auto drawRowLabel = [&](int top, const QString& label) {
        painter.setPen(text);
        painter.setFont(font);
        painter.drawText(QRect(kMargin, top, plotLeft() - kMargin - 8, row), Qt::AlignRight | Qt::AlignVCenter, label);
    };
    auto drawTitle = [&](int top, const QString& title) {
        painter.setPen(text);
        painter.setFont(bold);
        painter.drawText(QRect(kMargin, top, width() - 2 * kMargin, line), Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetrics(bold).elidedText(title, Qt::ElideRight, width() - 2 * kMargin));
        painter.setFont(font);
    };

    const double serialMs = m_timeline.serialSeconds * 1000.0, overlappedMs = m_timeline.overlappedSeconds * 1000.0;
    drawTitle(kMargin, tr("One stream: copy in, compute, copy out, one after another — %1 ms").arg(msText(serialMs)));
    drawRowLabel(serialTop(), tr("One stream"));
    painter.fillRect(QRectF(QPointF(plotLeft(), serialTop()), QPointF(plotRight(), serialTop() + row)), modelTrackColour(pal));
    for (perf::StreamStageKind kind : {perf::StreamStageKind::HostToDevice, perf::StreamStageKind::Kernel, perf::StreamStageKind::DeviceToHost})
        drawBar(serialBarRect(kind), kind, kindName(kind));

    const int streams = m_timeline.stages.empty() ? 0 : static_cast<int>(m_timeline.stages.size() / 3);
    drawTitle(rowTop(0) - line - 6, tr("%1 %2 on %3 %4: %5 ms (bars: chunk = stream number)")
                                        .arg(streams)
                                        .arg(streams == 1 ? tr("stream") : tr("streams"))
                                        .arg(m_copyEngines)
                                        .arg(m_copyEngines == 1 ? tr("copy engine") : tr("copy engines"))
                                        .arg(msText(overlappedMs)));
    for (int r = 0; r < rowCount(); ++r) {
        drawRowLabel(rowTop(r), rowLabel(r));
        painter.fillRect(QRectF(QPointF(plotLeft(), rowTop(r)), QPointF(plotRight(), rowTop(r) + row)), modelTrackColour(pal));
    }
    for (std::size_t i = 0; i < m_timeline.stages.size(); ++i)
        drawBar(stageRect(i), m_timeline.stages[i].kind, QString::number(m_timeline.stages[i].chunk));

    // Where each ends, on the shared axis.
    QPen endPen(text, 1, Qt::DashLine);
    painter.setPen(endPen);
    const double serialX = timeToX(m_timeline.serialSeconds), overlappedX = timeToX(m_timeline.overlappedSeconds);
    painter.drawLine(QPointF(serialX, serialTop() - 2), QPointF(serialX, serialTop() + row + 2));
    painter.drawLine(QPointF(overlappedX, rowTop(0) - 2), QPointF(overlappedX, axisTop()));

    // The time axis in ms.
    const int axisY = axisTop();
    painter.setPen(QPen(text, 1));
    drawTimeAxis(painter, metrics, plotLeft(), plotRight(), axisY, m_axisEnd * 1000.0, m_tickStep, msText);

    std::vector<std::pair<QColor, QString>> legend;
    for (perf::StreamStageKind kind : {perf::StreamStageKind::HostToDevice, perf::StreamStageKind::Kernel, perf::StreamStageKind::DeviceToHost})
        legend.emplace_back(modelColour(kindColour(kind), dark), kindName(kind));
    drawLegend(painter, metrics, plotLeft(), axisY + line + 8, plotRight(), legend, tr("time in ms"), text);
}

} // namespace warpscope::viz
