#include "models/graph_launch_panel.h"

#include "common/export_actions.h"
#include "common/plot_style.h"
#include "common/validated_field.h"
#include "models/models_style.h"
#include "precision/precision_lab_style.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::viz {
namespace {

constexpr int kMargin = 8;
constexpr int kRowGap = 4;
constexpr double kMaxMicroseconds = 1e6;
constexpr const char* kUsAllowed = "0 to 1e6 µs, a decimal such as 2.5";

// A time in µs as a learner reads it: up to 2 decimals, trailing zeros dropped ("66.02", "15").
QString usText(double us)
{
    QString text = QString::number(us, 'f', 2);
    while (text.contains(QLatin1Char('.')) && (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
        text.chop(1);
    return text;
}

double parseUs(const QString& text, const char* key)
{
    return parseRealInRange(text, QString::fromLatin1(key), 0, kMaxMicroseconds, QString::fromLatin1(kUsAllowed));
}

int lineHeight(const QWidget* widget) { return QFontMetrics(plotFont(widget->font())).height(); }
int rowHeight(const QWidget* widget) { return std::max(20, lineHeight(widget) + 8); }

const char* const kRowLabels[] = {"One by one: host", "One by one: GPU", "Graph: GPU"};

} // namespace

GraphLaunchPanel::GraphLaunchPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("graphLaunchPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    auto* title = new QLabel(tr("<b>Launch overhead: a chain of short kernels, one by one or as one CUDA graph</b>"), this);
    title->setWordWrap(true);
    layout->addWidget(title);

    auto usField = [this](const QString& name, const char* key) {
        auto* field = new ValidatedField(name, [key](const QString& text) {
            return static_cast<std::int64_t>(std::llround(parseUs(text, key) * 100.0)); // only its validity is used
        });
        field->lineEdit()->setPlaceholderText(QStringLiteral("µs"));
        return field;
    };
    m_kernels = new ValidatedField(QStringLiteral("graphKernels"), [](const QString& text) {
        return parseInteger(text.toStdString(), "kernels", 1, 1000);
    });
    m_kernels->setStepping(1, 1, 1000);
    m_kernel = usField(QStringLiteral("graphKernelUs"), "kernel");
    m_launch = usField(QStringLiteral("graphLaunchUs"), "launch");
    m_gap = usField(QStringLiteral("graphGapUs"), "gap");
    m_graph = usField(QStringLiteral("graphFixedUs"), "graph");
    m_node = usField(QStringLiteral("graphNodeUs"), "node");
    m_kernels->setToolTip(tr("Kernels in the chain, each waiting for the one before. Allowed: 1..1000."));
    m_kernel->setToolTip(tr("Each kernel's own work on the GPU, in µs."));
    m_launch->setToolTip(tr("Host time to enqueue one kernel launch, in µs (measured: 2.62 to 2.81)."));
    m_gap->setToolTip(tr("One by one: GPU time each launched kernel costs beyond its work, in µs (measured: about 6.4)."));
    m_graph->setToolTip(tr("Graph: from cudaGraphLaunch to its first kernel, in µs (measured: about 15)."));
    m_node->setToolTip(tr("Graph: from one kernel's end to the next one's start, in µs (measured: about 0.58)."));

    auto* grid = new QGridLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    const std::pair<QString, ValidatedField*> cells[] = {
        {tr("Kernels"), m_kernels},           {tr("Kernel (µs)"), m_kernel},     {tr("Launch, host (µs)"), m_launch},
        {tr("Per kernel, GPU (µs)"), m_gap}, {tr("Graph launch (µs)"), m_graph}, {tr("Graph node (µs)"), m_node}};
    for (int i = 0; i < 6; ++i) {
        auto* label = new QLabel(cells[i].first, this);
        label->setBuddy(cells[i].second->lineEdit());
        grid->addWidget(label, i / 3, 2 * (i % 3));
        grid->addWidget(cells[i].second, i / 3, 2 * (i % 3) + 1);
        grid->setColumnStretch(2 * (i % 3) + 1, 1);
        cells[i].second->lineEdit()->setMinimumWidth(50);
        connect(cells[i].second, &ValidatedField::valueEdited, this, &GraphLaunchPanel::controlsEdited);
        connect(cells[i].second, &ValidatedField::textChecked, this, [this] {
            if (m_syncing)
                return;
            const QString problem = readControls().second;
            m_staleLabel->setVisible(!problem.isEmpty());
            m_staleLabel->setText(problem.isEmpty() ? QString() : problem + QStringLiteral("\n") + tr("Not applied: the figure shows the last valid inputs."));
        });
    }
    layout->addLayout(grid);

    m_staleLabel = modelTextLabel(QStringLiteral("graphStale"), this);
    m_staleLabel->setStyleSheet(QStringLiteral("color: %1;").arg(warningColour(palette()).name()));
    m_staleLabel->hide();
    m_view = new GraphLaunchView(this);
    installFigureExport(m_view, QStringLiteral("graph-launch"));
    m_numbersLabel = modelTextLabel(QStringLiteral("graphNumbers"), this);
    m_captionLabel = modelTextLabel(QStringLiteral("graphCaption"), this);
    m_captionLabel->setForegroundRole(QPalette::PlaceholderText);
    m_captionLabel->setText(
        tr("A model: one by one, the host enqueues each launch in turn and the GPU starts a kernel its per-kernel time after "
           "both its launch and the kernel before it are done; a graph starts its first kernel a fixed time after "
           "cudaGraphLaunch and each next one a node time after the one before. The default overheads are one measurement, "
           "chains of empty kernels on an RTX 5070 Ti Laptop GPU under WSL2 with CUDA 13.3 (github.com/ahrefs/ocannl, issue "
           "488); measure your own GPU with Nsight Systems before trusting them."));
    layout->addWidget(m_staleLabel);
    layout->addWidget(m_view);
    layout->addWidget(m_numbersLabel);
    layout->addWidget(m_captionLabel);
    syncControls();
    redraw();
}

ValidatedField* GraphLaunchPanel::field(const char* key) const
{
    const std::string name = key;
    return name == "kernels" ? m_kernels : name == "kernel" ? m_kernel : name == "launch" ? m_launch
         : name == "gap" ? m_gap : name == "graph" ? m_graph : name == "node" ? m_node : nullptr;
}

void GraphLaunchPanel::setInput(const perf::KernelChainInput& input)
{
    for (double seconds : {input.kernelSeconds, input.launchSeconds, input.perKernelGpuSeconds, input.graphFixedSeconds, input.graphNodeSeconds})
        if (seconds * 1e6 > kMaxMicroseconds)
            throw InputError("launch model: a time of " + usText(seconds * 1e6).toStdString() + " µs is out of range (allowed: " + kUsAllowed + ")");
    m_plan = perf::planKernelChain(input); // throws for the rest
    m_input = input;
    syncControls();
    redraw();
}

void GraphLaunchPanel::syncControls()
{
    m_syncing = true;
    m_kernels->setValue(m_input.kernels);
    m_kernel->setText(usText(m_input.kernelSeconds * 1e6));
    m_launch->setText(usText(m_input.launchSeconds * 1e6));
    m_gap->setText(usText(m_input.perKernelGpuSeconds * 1e6));
    m_graph->setText(usText(m_input.graphFixedSeconds * 1e6));
    m_node->setText(usText(m_input.graphNodeSeconds * 1e6));
    m_syncing = false;
}

std::pair<std::optional<perf::KernelChainInput>, QString> GraphLaunchPanel::readControls() const
{
    QStringList problems;
    for (const ValidatedField* field : {m_kernels, m_kernel, m_launch, m_gap, m_graph, m_node})
        if (!field->valid())
            problems << field->errorText();
    if (!problems.isEmpty())
        return {std::nullopt, problems.join(QLatin1Char('\n'))};
    perf::KernelChainInput input;
    input.kernels = static_cast<int>(*m_kernels->value());
    input.kernelSeconds = parseUs(m_kernel->text(), "kernel") * 1e-6;
    input.launchSeconds = parseUs(m_launch->text(), "launch") * 1e-6;
    input.perKernelGpuSeconds = parseUs(m_gap->text(), "gap") * 1e-6;
    input.graphFixedSeconds = parseUs(m_graph->text(), "graph") * 1e-6;
    input.graphNodeSeconds = parseUs(m_node->text(), "node") * 1e-6;
    return {input, QString()};
}

void GraphLaunchPanel::controlsEdited()
{
    if (m_syncing)
        return;
    const auto [input, problem] = readControls();
    m_staleLabel->setVisible(!problem.isEmpty());
    if (!input)
        return;
    m_input = *input;
    redraw();
}

QString GraphLaunchPanel::numbersText() const
{
    const double streamUs = m_plan.streamSeconds * 1e6, graphUs = m_plan.graphSeconds * 1e6, workUs = m_plan.workSeconds * 1e6;
    QStringList lines;
    lines << tr("One by one: %1 µs, the GPU busy %2 µs of it (%3 %). The host's %4 launch calls end at %5 µs.")
                 .arg(usText(streamUs), usText(workUs), usText(streamUs > 0 ? 100.0 * workUs / streamUs : 0))
                 .arg(m_input.kernels)
                 .arg(usText(m_plan.hostLaunches.back().end * 1e6));
    lines << tr("As one graph: %1 µs (%2 %), %3× faster. Graphs remove launch overhead, not the kernels' own time.")
                 .arg(usText(graphUs), usText(graphUs > 0 ? 100.0 * workUs / graphUs : 0), QString::number(m_plan.speedup(), 'f', 2));
    return lines.join(QLatin1Char('\n'));
}

void GraphLaunchPanel::redraw()
{
    m_plan = perf::planKernelChain(m_input);
    m_view->setPlan(m_plan);
    m_numbersLabel->setText(numbersText());
}

// --- the timeline figure

GraphLaunchView::GraphLaunchView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("graphLaunchTimeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void GraphLaunchView::setPlan(const perf::KernelChainPlan& plan)
{
    m_plan = plan;
    const double endUs = std::max({plan.streamSeconds, plan.graphSeconds, plan.hostLaunches.empty() ? 0.0 : plan.hostLaunches.back().end}) * 1e6;
    m_tickStep = niceTickStep(endUs, 8);
    m_axisEnd = std::max(m_tickStep, std::ceil(endUs / m_tickStep - 1e-9) * m_tickStep) * 1e-6;
    updateGeometry();
    update();
}

int GraphLaunchView::rowTop(int row) const { return kMargin + row * (rowHeight(this) + kRowGap); }

int GraphLaunchView::plotLeft() const
{
    const QFontMetrics metrics(plotFont(font()));
    int widest = 0;
    for (const char* label : kRowLabels)
        widest = std::max(widest, metrics.horizontalAdvance(tr(label)));
    return kMargin + widest + 10;
}

int GraphLaunchView::plotRight() const
{
    return width() - kMargin - QFontMetrics(plotFont(font())).horizontalAdvance(QStringLiteral("0000000")) / 2;
}

double GraphLaunchView::timeToX(double seconds) const
{
    return plotLeft() + (plotRight() - plotLeft()) * (seconds / m_axisEnd);
}

QSize GraphLaunchView::sizeHint() const
{
    return {640, rowTop(3) + 2 * lineHeight(this) + 16 + kMargin};
}

QSize GraphLaunchView::minimumSizeHint() const { return {320, sizeHint().height()}; }

void GraphLaunchView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.brush(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    const QFont font = plotFont(this->font());
    painter.setFont(font);
    const QFontMetrics metrics(font);
    const int line = metrics.height(), row = rowHeight(this);
    const bool dark = isDarkPalette(pal);
    const QColor hostFill = modelColour(ModelColour::Copy, dark), kernelFill = modelColour(ModelColour::Compute, dark);

    for (int r = 0; r < 3; ++r) {
        painter.setPen(text);
        painter.drawText(QRect(kMargin, rowTop(r), plotLeft() - kMargin - 8, row), Qt::AlignRight | Qt::AlignVCenter, tr(kRowLabels[r]));
        painter.fillRect(QRectF(QPointF(plotLeft(), rowTop(r)), QPointF(plotRight(), rowTop(r) + row)), modelTrackColour(pal));
    }
    auto drawBars = [&](const std::vector<perf::ChainBar>& bars, int r, const QColor& fill) {
        for (const perf::ChainBar& bar : bars) {
            const QRectF box(QPointF(timeToX(bar.start), rowTop(r)), QPointF(timeToX(bar.end), rowTop(r) + row));
            // At least one pixel wide, so a very short kernel still shows; a seam between neighbours.
            painter.fillRect(box.width() < 1 ? QRectF(box.left(), box.top(), 1, box.height()) : box, fill);
            if (box.width() >= 3) {
                painter.setPen(QPen(pal.color(QPalette::Base), 1));
                painter.drawLine(QPointF(box.right(), box.top()), QPointF(box.right(), box.bottom()));
            }
        }
    };
    drawBars(m_plan.hostLaunches, 0, hostFill);
    drawBars(m_plan.streamKernels, 1, kernelFill);
    drawBars(m_plan.graphKernels, 2, kernelFill);

    painter.setPen(QPen(text, 1, Qt::DashLine));
    for (const auto& [seconds, r] : {std::pair{m_plan.streamSeconds, 1}, std::pair{m_plan.graphSeconds, 2}}) {
        const double x = timeToX(seconds);
        painter.drawLine(QPointF(x, rowTop(r) - 2), QPointF(x, rowTop(r) + row + 2));
    }

    const int axisY = rowTop(3);
    painter.setPen(QPen(text, 1));
    drawTimeAxis(painter, metrics, plotLeft(), plotRight(), axisY, m_axisEnd * 1e6, m_tickStep, usText);
    drawLegend(painter, metrics, plotLeft(), axisY + line + 8, plotRight(), {{hostFill, tr("launch call")}, {kernelFill, tr("kernel")}},
               tr("time in µs"), text);
}

} // namespace warpscope::viz
