#include "models/allreduce_panel.h"
#include "common/export_actions.h"
#include "common/scroll_page.h"
#include "common/plot_style.h"
#include "common/validated_field.h"

#include "perf/data_parallel_traffic.h"
#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::viz {
namespace {

using training::RingPhase;
using training::RingTransfer;

constexpr std::int64_t kMaxBufferBytes = std::int64_t{1} << 40; // 1024G
constexpr int kMinGpus = 2, kMaxGpus = 16;

QString toQString(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

const QColor kReduceScatterColor(0xe1, 0x57, 0x59); // Tableau 10 red
const QColor kAllGatherColor(0x4e, 0x79, 0xa7);     // Tableau 10 blue
const QColor kFullColor(0x59, 0xa1, 0x4f);          // Tableau 10 green

// "1 GiB", "1.5 GiB", "256 MiB", "48 KiB", "100 B".
QString binaryBytes(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double value = bytes;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    return QString::number(value, 'g', value >= 100 ? 4 : 3) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString groupedBytes(double bytes)
{
    if (bytes == std::floor(bytes) && bytes < 9e15)
        return QLocale(QLocale::English).toString(static_cast<qlonglong>(bytes)) + QStringLiteral(" B");
    return QString::number(bytes, 'f', 1) + QStringLiteral(" B");
}

// "3.58 ms", "12.4 µs", "1.2 s".
QString duration(double seconds)
{
    if (seconds >= 1)
        return QString::number(seconds, 'g', 3) + QStringLiteral(" s");
    if (seconds >= 1e-3)
        return QString::number(seconds * 1e3, 'g', 3) + QStringLiteral(" ms");
    if (seconds >= 1e-6)
        return QString::number(seconds * 1e6, 'g', 3) + QStringLiteral(" µs");
    return QString::number(seconds * 1e9, 'g', 3) + QStringLiteral(" ns");
}

QString phaseShort(RingPhase phase) { return phase == RingPhase::ReduceScatter ? QStringLiteral("RS") : QStringLiteral("AG"); }

QString linkKeys()
{
    QStringList keys;
    for (const training::LinkFigure& link : training::linkFigures())
        keys << toQString(link.key);
    return keys.join(QStringLiteral(", "));
}

} // namespace

// The ring: GPU boxes on an ellipse, clockwise from the top, each with its N chunk cells; the
// step's transfers as arrows from each GPU to the next.
class RingView : public QWidget {
public:
    explicit RingView(QWidget* parent = nullptr) : QWidget(parent)
    {
        setObjectName(QStringLiteral("allReduceRing"));
        setMinimumSize(420, 320);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    void setState(int gpus, int step, std::vector<std::vector<int>> counts, std::vector<RingTransfer> transfers)
    {
        m_gpus = gpus;
        m_step = step;
        m_counts = std::move(counts);
        m_transfers = std::move(transfers);
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        const QPalette& pal = palette();
        painter.fillRect(rect(), pal.brush(QPalette::Base));
        if (m_gpus < 2 || m_counts.size() != static_cast<std::size_t>(m_gpus))
            return;

        // Cells: one row up to 8 chunks, else a square-ish grid (16 chunks: 4 x 4).
        const int n = m_gpus;
        const int columns = n <= 8 ? n : static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
        const int rows = (n + columns - 1) / columns;
        const QFont baseFont = plotFont(font());
        const double titleHeight = QFontMetricsF(baseFont).height() + 2;
        const double w = width(), h = height() - legendHeight(); // the bottom lines hold the legend
        double cell = 28;
        double rx = 0, ry = 0;
        for (int pass = 0; pass < 3; ++pass) {
            const double boxW = columns * cell + 8, boxH = rows * cell + titleHeight + 6;
            rx = std::max(20.0, w / 2 - boxW / 2 - 8);
            ry = std::max(20.0, h / 2 - boxH / 2 - 8);
            // The room per GPU along the ellipse (Ramanujan's perimeter), shared by a box and a gap.
            const double perimeter = std::numbers::pi * (3 * (rx + ry) - std::sqrt((3 * rx + ry) * (rx + 3 * ry)));
            const double room = perimeter / n;
            cell = std::clamp((0.62 * room - 8) / std::max(columns, rows), 9.0, 30.0);
        }
        const double boxW = columns * cell + 8, boxH = rows * cell + titleHeight + 6;
        const QPointF center(w / 2, h / 2);
        // Equal arcs along the ellipse, clockwise from the top: equal angles would crowd the boxes at the
        // ends of a wide ellipse.
        constexpr int kSamples = 720;
        std::vector<QPointF> outline;
        std::vector<double> along{0.0};
        for (int i = 0; i <= kSamples; ++i) {
            const double angle = -std::numbers::pi / 2 + 2 * std::numbers::pi * i / kSamples;
            outline.emplace_back(center.x() + rx * std::cos(angle), center.y() + ry * std::sin(angle));
            if (i > 0)
                along.push_back(along.back() + QLineF(outline[static_cast<std::size_t>(i - 1)], outline.back()).length());
        }
        std::vector<QPointF> centers;
        for (int g = 0; g < n; ++g) {
            const double target = along.back() * g / n;
            const auto at = std::lower_bound(along.begin(), along.end(), target);
            centers.push_back(outline[static_cast<std::size_t>(at - along.begin())]);
        }

        // Arrows first, under the boxes; their labels last, over everything.
        QFont labelFont = baseFont;
        labelFont.setBold(true);
        struct Label {
            QRectF rect;
            QString text;
            QColor color;
        };
        std::vector<Label> labels;
        for (const RingTransfer& t : m_transfers) {
            const QPointF a = centers[static_cast<std::size_t>(t.from)], b = centers[static_cast<std::size_t>(t.to)];
            QPointF d = b - a;
            const double length = std::hypot(d.x(), d.y());
            if (length < 1)
                continue;
            d /= length;
            const QPointF right(-d.y(), d.x()); // to the right of travel on screen: inward for a clockwise ring
            const auto exitDistance = [&](QPointF dir) {
                const double tx = std::abs(dir.x()) > 1e-9 ? (boxW / 2) / std::abs(dir.x()) : 1e9;
                const double ty = std::abs(dir.y()) > 1e-9 ? (boxH / 2) / std::abs(dir.y()) : 1e9;
                return std::min(tx, ty);
            };
            const double shift = 6;
            const QPointF start = a + d * (exitDistance(d) + 3) + right * shift;
            const QPointF end = b - d * (exitDistance(d) + 3) + right * shift;
            if (QLineF(start, end).length() < 8)
                continue;
            const QColor color = t.phase == RingPhase::ReduceScatter ? kReduceScatterColor : kAllGatherColor;
            painter.setPen(QPen(color, 2.2));
            painter.drawLine(start, end);
            QPainterPath head;
            head.moveTo(end);
            head.lineTo(end - d * 10 + right * 5);
            head.lineTo(end - d * 10 - right * 5);
            head.closeSubpath();
            painter.fillPath(head, color);
            const QString text = (n <= 6 ? QStringLiteral("chunk %1 ") : QStringLiteral("c%1 ")).arg(t.chunk) + phaseShort(t.phase);
            // The label beside the arrow, on its right (inside the ring), clear of the line whatever its slope.
            const QRectF box = QFontMetricsF(labelFont).boundingRect(text).adjusted(-3, -1, 3, 1);
            double clearance = std::abs(right.x()) * box.width() / 2 + std::abs(right.y()) * box.height() / 2 + 3;
            // Between close boxes there is no room beside the arrow: the label goes further in, past the boxes.
            if (QLineF(start, end).length() < std::abs(d.x()) * box.width() + std::abs(d.y()) * box.height() + 8)
                clearance += std::abs(right.x()) * boxW / 2 + std::abs(right.y()) * boxH / 2;
            const QPointF mid = (start + end) / 2 + right * clearance;
            labels.push_back({QRectF(mid - QPointF(box.width() / 2, box.height() / 2), box.size()), text, color});
        }

        // GPU boxes and their cells.
        const QColor text = pal.color(QPalette::Text);
        const QColor empty = pal.color(QPalette::AlternateBase);
        for (int g = 0; g < n; ++g) {
            const QRectF box(centers[static_cast<std::size_t>(g)] - QPointF(boxW / 2, boxH / 2), QSizeF(boxW, boxH));
            painter.setPen(QPen(text, 1));
            painter.setBrush(pal.brush(QPalette::Window));
            painter.drawRoundedRect(box, 4, 4);
            painter.setFont(baseFont);
            painter.drawText(QRectF(box.left(), box.top() + 1, box.width(), titleHeight), Qt::AlignCenter,
                             QStringLiteral("GPU %1").arg(g));
            QFont cellFont = baseFont;
            cellFont.setPointSizeF(std::clamp(cell * 0.42, 6.0, kPlotFontPoints));
            painter.setFont(cellFont);
            for (int c = 0; c < n; ++c) {
                const int count = m_counts[static_cast<std::size_t>(g)][static_cast<std::size_t>(c)];
                const QRectF cellRect(box.left() + 4 + (c % columns) * cell, box.top() + titleHeight + 2 + (c / columns) * cell, cell - 2,
                                      cell - 2);
                const double share = static_cast<double>(count) / n;
                QColor fill = count == n ? kFullColor : kReduceScatterColor;
                if (count != n)
                    fill.setAlphaF(0.12 + 0.6 * share);
                painter.setPen(Qt::NoPen);
                painter.setBrush(empty);
                painter.drawRect(cellRect);
                painter.setBrush(fill);
                painter.drawRect(cellRect);
                // The cell that this step's transfer wrote gets the arrow's colour as a frame.
                for (const RingTransfer& t : m_transfers)
                    if (t.to == g && t.chunk == c) {
                        painter.setPen(QPen(t.phase == RingPhase::ReduceScatter ? kReduceScatterColor : kAllGatherColor, 2));
                        painter.setBrush(Qt::NoBrush);
                        painter.drawRect(cellRect.adjusted(1, 1, -1, -1));
                    }
                if (cell >= 12) {
                    painter.setPen(count == n || share > 0.6 ? QColor(Qt::white) : text);
                    painter.drawText(cellRect, Qt::AlignCenter, QString::number(count));
                }
            }
        }

        painter.setFont(labelFont);
        for (const Label& label : labels) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(pal.brush(QPalette::Base));
            painter.drawRoundedRect(label.rect, 3, 3);
            painter.setPen(label.color);
            painter.drawText(label.rect, Qt::AlignCenter, label.text);
        }

        painter.setFont(baseFont);
        painter.setPen(text);
        painter.drawText(QRectF(4, height() - legendHeight(), width() - 8, legendHeight()), Qt::AlignCenter | Qt::TextWordWrap,
                         legendText());
    }

private:
    QString legendText() const
    {
        return QStringLiteral("Cells: chunks 0..%1 of each GPU's buffer; the number is how many GPUs' data the chunk "
                              "sums (green: all %2). RS: the receiver adds; AG: it copies.")
            .arg(m_gpus - 1)
            .arg(m_gpus);
    }

    // The legend wraps to the figure's width (it is one long line at about 900 px).
    double legendHeight() const
    {
        const QRect bounds = QFontMetrics(plotFont(font())).boundingRect(QRect(0, 0, std::max(40, width() - 8), 1000),
                                                               Qt::AlignCenter | Qt::TextWordWrap, legendText());
        return bounds.height() + 2;
    }

    int m_gpus = 0;
    int m_step = 0;
    std::vector<std::vector<int>> m_counts;
    std::vector<RingTransfer> m_transfers;
};

AllReducePanel::AllReducePanel(QWidget* parent) : QWidget(parent)
{
    m_timer = new QTimer(this);
    m_timer->setInterval(800);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_settings.step < lastStep())
            setStep(m_settings.step + 1);
        if (m_settings.step >= lastStep())
            stop();
    });

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(buildControls());

    m_staleLabel = new QLabel;
    m_staleLabel->setObjectName(QStringLiteral("allReduceStale"));
    m_staleLabel->setWordWrap(true);
    m_staleLabel->hide();
    layout->addWidget(m_staleLabel);
    m_stepLabel = new QLabel;
    m_stepLabel->setObjectName(QStringLiteral("allReduceStep"));
    m_stepLabel->setWordWrap(true);
    QFont bold = m_stepLabel->font();
    bold.setBold(true);
    m_stepLabel->setFont(bold);
    layout->addWidget(m_stepLabel);

    m_ringView = new RingView;
    installFigureExport(m_ringView, QStringLiteral("allreduce-ring"));
    layout->addWidget(m_ringView, 1);

    m_numbersLabel = new QLabel;
    m_numbersLabel->setObjectName(QStringLiteral("allReduceNumbers"));
    m_numbersLabel->setWordWrap(true);
    m_numbersLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_numbersLabel);

    const auto& links = training::linkFigures();
    m_table = new QTableWidget(static_cast<int>(links.size()), 4);
    m_table->setObjectName(QStringLiteral("allReduceLinks"));
    installTableExport(m_table, QStringLiteral("allreduce-links"));
    m_table->setHorizontalHeaderLabels({tr("Link"), tr("Each way"), tr("All-reduce time"), tr("Source")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    layout->addWidget(m_table);

    m_captionLabel = new QLabel(
        tr("Ring all-reduce: Patarasuk and Yuan, JPDC 2009 (what NCCL does for large messages). Time = 2(N−1) steps × "
           "chunk ÷ link bandwidth each way, from training::ringAllReduce; no per-step latency, so small buffers take "
           "longer than shown. Bandwidths (GB = 10⁹ bytes) are the datasheets' per-GPU figures, halved to one direction."));
    m_captionLabel->setWordWrap(true);
    QFont captionFont = font();
    captionFont.setPointSizeF(kPlotFontPoints);
    m_captionLabel->setFont(captionFont);
    layout->addWidget(m_captionLabel);

    fillWithScrollArea(*this, content);

    apply(m_settings);
}

QWidget* AllReducePanel::buildControls()
{
    m_gpusField = new ValidatedField(QStringLiteral("allReduceGpus"), [](const QString& text) {
        return parseInteger(text.toStdString(), "gpus", kMinGpus, kMaxGpus);
    });
    m_gpusField->setStepping(1, kMinGpus, kMaxGpus);
    m_gpusField->setToolTip(tr("GPUs in the ring. Allowed: 2..16."));
    m_bytesField = new ValidatedField(QStringLiteral("allReduceBytes"), [](const QString& text) {
        return static_cast<std::int64_t>(parseBufferBytes(text));
    });
    m_bytesField->setFormatter([](std::int64_t bytes) { return bufferBytesText(static_cast<double>(bytes)); });
    m_bytesField->lineEdit()->setPlaceholderText(tr("bytes, or 64M, 1G"));
    m_bytesField->setToolTip(tr("The buffer every GPU holds and all-reduces (gradients, say): bytes, or with K, M, G "
                                "(KiB, MiB, GiB). Allowed: 1..1024G."));
    m_linkCombo = new QComboBox;
    m_linkCombo->setObjectName(QStringLiteral("allReduceLink"));
    for (const training::LinkFigure& link : training::linkFigures()) {
        m_linkCombo->addItem(toQString(link.name), toQString(link.key));
        m_linkCombo->setItemData(m_linkCombo->count() - 1, toQString(link.source), Qt::ToolTipRole);
    }

    m_backButton = new QPushButton(tr("◀ Step back"));
    m_backButton->setObjectName(QStringLiteral("allReduceBack"));
    m_playButton = new QPushButton(tr("Play"));
    m_playButton->setObjectName(QStringLiteral("allReducePlay"));
    m_forwardButton = new QPushButton(tr("Step forward ▶"));
    m_forwardButton->setObjectName(QStringLiteral("allReduceForward"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("allReduceSlider"));
    m_slider->setPageStep(1);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(1);

    connect(m_gpusField, &ValidatedField::valueEdited, this, &AllReducePanel::controlsEdited);
    connect(m_bytesField, &ValidatedField::valueEdited, this, &AllReducePanel::controlsEdited);
    // The row follows each keystroke; the figure changes when a value is applied.
    for (ValidatedField* field : {m_gpusField, m_bytesField})
        connect(field, &ValidatedField::textChecked, this, [this] {
            if (m_syncing)
                return;
            m_stale = !m_gpusField->valid() || !m_bytesField->valid();
            m_staleLabel->setText(tr("A field is not valid (marked): the figure still shows the last valid settings."));
            m_staleLabel->setVisible(m_stale);
        });
    connect(m_linkCombo, &QComboBox::currentIndexChanged, this, &AllReducePanel::controlsEdited);
    connect(m_backButton, &QPushButton::clicked, this, [this] {
        stop();
        stepBack();
    });
    connect(m_forwardButton, &QPushButton::clicked, this, [this] {
        stop();
        stepForward();
    });
    connect(m_playButton, &QPushButton::clicked, this, [this] { playing() ? stop() : play(); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_syncing)
            setStep(value);
    });

    auto* controls = new QWidget;
    auto* grid = new QGridLayout(controls);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    const auto add = [grid](int column, const QString& label, QWidget* widget) {
        auto* name = new QLabel(label);
        name->setBuddy(widget);
        grid->addWidget(name, 0, 2 * column, Qt::AlignRight | Qt::AlignTop);
        grid->addWidget(widget, 0, 2 * column + 1, Qt::AlignTop);
    };
    add(0, tr("GPUs"), m_gpusField);
    add(1, tr("Buffer"), m_bytesField);
    add(2, tr("Link"), m_linkCombo);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    grid->setColumnStretch(5, 2);
    auto* steps = new QHBoxLayout;
    steps->addWidget(m_backButton);
    steps->addWidget(m_playButton);
    steps->addWidget(m_forwardButton);
    steps->addWidget(m_slider, 1);
    grid->addLayout(steps, 1, 0, 1, 6);
    return controls;
}

double AllReducePanel::parseBufferBytes(const QString& text, const char* what)
{
    const std::string range = "1..1099511627776 bytes = 1024G; K, M and G mean KiB, MiB and GiB";
    QString clean = text.trimmed();
    std::int64_t multiplier = 1;
    if (!clean.isEmpty()) {
        const QChar last = clean.back().toUpper();
        const std::int64_t scale = last == QLatin1Char('K') ? 1 << 10 : last == QLatin1Char('M') ? 1 << 20 : last == QLatin1Char('G') ? 1 << 30 : 1;
        if (scale > 1) {
            multiplier = scale;
            clean.chop(1);
        }
    }
    bool ok = false;
    const qlonglong value = clean.toLongLong(&ok);
    if (!ok || clean.contains(QLatin1Char('+')) || clean.contains(QLatin1Char(' ')))
        throw InputError(notAValueMessage(what, text.toStdString(), "a byte size (an integer with an optional K, M or G)", range));
    if (value < 1 || value > kMaxBufferBytes / multiplier)
        throw InputError(outOfRangeMessage(what, text.toStdString(), range));
    return static_cast<double>(value * multiplier);
}

QString AllReducePanel::bufferBytesText(double bytes)
{
    const auto whole = static_cast<std::int64_t>(bytes);
    for (const auto& [scale, suffix] : {std::pair<std::int64_t, char>{1 << 30, 'G'}, {1 << 20, 'M'}, {1 << 10, 'K'}})
        if (whole >= scale && whole % scale == 0)
            return QString::number(whole / scale) + QLatin1Char(suffix);
    return QString::number(whole);
}

void AllReducePanel::validate(const AllReduceSettings& s)
{
    if (s.gpus < kMinGpus || s.gpus > kMaxGpus)
        throw InputError("gpus: " + std::to_string(s.gpus) + " is out of range (allowed: 2..16)");
    if (!std::isfinite(s.bufferBytes) || s.bufferBytes != std::floor(s.bufferBytes) || s.bufferBytes < 1 ||
        s.bufferBytes > static_cast<double>(kMaxBufferBytes))
        throw InputError("bytes: " + QString::number(s.bufferBytes, 'g', 17).toStdString() +
                         " is out of range (allowed: a whole number of bytes, 1..1099511627776 = 1024G)");
    if (training::findLink(s.link) == nullptr)
        throw InputError("link: '" + s.link + "' is not a link figure (allowed: " + linkKeys().toStdString() + ")");
    if (s.step < 0 || s.step > 2 * (s.gpus - 1))
        throw InputError("step: " + std::to_string(s.step) + " is out of range for " + std::to_string(s.gpus) +
                         " GPUs (allowed: 0.." + std::to_string(2 * (s.gpus - 1)) + ")");
}

void AllReducePanel::setSettings(const AllReduceSettings& settings)
{
    validate(settings);
    stop();
    apply(settings);
}

void AllReducePanel::apply(const AllReduceSettings& settings)
{
    m_settings = settings;
    m_stale = false;
    m_staleLabel->hide();
    syncControls();
    updateNumbers();
    setStep(settings.step);
}

void AllReducePanel::syncControls()
{
    m_syncing = true;
    const QSignalBlocker blockLink(m_linkCombo);
    m_gpusField->setValue(m_settings.gpus);
    m_bytesField->setValue(static_cast<std::int64_t>(m_settings.bufferBytes));
    m_linkCombo->setCurrentIndex(m_linkCombo->findData(QString::fromStdString(m_settings.link)));
    m_slider->setRange(0, lastStep());
    m_syncing = false;
}

void AllReducePanel::controlsEdited()
{
    if (m_syncing)
        return;
    if (!m_gpusField->value() || !m_bytesField->value())
        return;
    AllReduceSettings next = m_settings;
    next.gpus = static_cast<int>(*m_gpusField->value());
    next.bufferBytes = static_cast<double>(*m_bytesField->value());
    next.link = m_linkCombo->currentData().toString().toStdString();
    if (next.gpus != m_settings.gpus) { // a new ring starts from the beginning
        stop();
        next.step = 0;
    }
    try {
        validate(next);
    } catch (const InputError& error) { // the fields check their own ranges; this is a second guard
        m_staleLabel->setText(QString::fromUtf8(error.what()));
        m_staleLabel->show();
        return;
    }
    apply(next);
}

void AllReducePanel::setStep(int step)
{
    step = std::clamp(step, 0, lastStep());
    const bool changed = step != m_emittedStep;
    m_emittedStep = step;
    m_settings.step = step;
    m_contributions = training::ringContributions(m_settings.gpus, step);
    std::vector<RingTransfer> transfers;
    if (step > 0)
        for (const RingTransfer& t : training::ringSchedule(m_settings.gpus))
            if (t.step == step - 1)
                transfers.push_back(t);
    m_ringView->setState(m_settings.gpus, step, m_contributions, transfers);
    {
        m_syncing = true;
        m_slider->setValue(step);
        m_syncing = false;
    }
    m_backButton->setEnabled(step > 0);
    m_forwardButton->setEnabled(step < lastStep());

    const int n = m_settings.gpus;
    QString text;
    if (step == 0) {
        text = tr("Step 0 of %1: before the first step every GPU holds only its own data in each of its %2 chunks.").arg(lastStep()).arg(n);
    } else if (step < n) {
        text = tr("Step %1 of %2, reduce-scatter: each GPU sent one chunk to the next GPU, which added it to its own.")
                   .arg(step)
                   .arg(lastStep());
        if (step == n - 1)
            text += tr(" Reduce-scatter done: GPU i holds the full sum of chunk (i + 1) mod %1.").arg(n);
    } else {
        text = tr("Step %1 of %2, all-gather: each GPU passed a finished chunk to the next GPU, which copied it.")
                   .arg(step)
                   .arg(lastStep());
        if (step == lastStep())
            text += tr(" Done: every GPU holds the sum of all %1 buffers.").arg(n);
    }
    m_stepLabel->setText(text);
    if (changed)
        emit stepChanged(step);
}

QString AllReducePanel::arrowLabel(int gpu) const
{
    if (m_settings.step == 0)
        return {};
    for (const RingTransfer& t : training::ringSchedule(m_settings.gpus))
        if (t.step == m_settings.step - 1 && t.from == gpu)
            return QStringLiteral("chunk %1 %2").arg(t.chunk).arg(phaseShort(t.phase));
    return {};
}

void AllReducePanel::updateNumbers()
{
    const training::LinkFigure* link = training::findLink(m_settings.link);
    const int n = m_settings.gpus;
    m_cost = training::ringAllReduce(n, m_settings.bufferBytes, link->bytesPerSecondEachWay);
    const training::RingAllReduce& ring = m_cost;
    const perf::DataParallelTraffic fsdp = perf::dataParallelTraffic(n, m_settings.bufferBytes, m_settings.bufferBytes);
    m_numbersLabel->setText(
        tr("Buffer %1 (%2) in %3 chunks of %4. Each GPU sends 2(N−1)/N × buffer = %5 × %1 = %6 (%7) over %8 steps. "
           "On %9 at %10 GB/s each way: %11.")
            .arg(binaryBytes(ring.bufferBytes), groupedBytes(ring.bufferBytes))
            .arg(n)
            .arg(binaryBytes(ring.chunkBytes))
            .arg(QString::number(2.0 * (n - 1) / n, 'g', 4), binaryBytes(ring.bytesSentPerGpu), groupedBytes(ring.bytesSentPerGpu))
            .arg(ring.steps)
            .arg(toQString(link->name), QString::number(link->bytesPerSecondEachWay / 1e9, 'g', 4), duration(ring.seconds)) +
        QStringLiteral("\n") +
        // FSDP (ZeRO-3) with weights as large as these gradients: the reduce-scatter above (steps 1 to
        // N-1), then two all-gathers of the parameters instead of one of the sums.
        tr("FSDP (ZeRO-3), if the buffer is the gradients and the weights are as large: the reduce-scatter (steps 1 to %1), "
           "and instead of the all-gather of the sums, two all-gathers of the parameters, before the forward and the backward "
           "pass. Each GPU sends 3(N−1)/N × buffer = %2 (%3), 1.5 × the all-reduce: %4 on %5.")
            .arg(n - 1)
            .arg(binaryBytes(fsdp.fsdpBytes()), groupedBytes(fsdp.fsdpBytes()))
            .arg(duration(fsdp.fsdpBytes() / link->bytesPerSecondEachWay), toQString(link->name)));

    const auto& links = training::linkFigures();
    for (std::size_t i = 0; i < links.size(); ++i) {
        const training::RingAllReduce on = training::ringAllReduce(n, m_settings.bufferBytes, links[i].bytesPerSecondEachWay);
        const QStringList cells = {toQString(links[i].name), QString::number(links[i].bytesPerSecondEachWay / 1e9, 'g', 4) + QStringLiteral(" GB/s"),
                                   duration(on.seconds), toQString(links[i].source)};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment((c == 1 || c == 2 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
            if (links[i].key == m_settings.link) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            item->setToolTip(toQString(links[i].source));
            m_table->setItem(static_cast<int>(i), c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

QString AllReducePanel::numbersText() const { return m_numbersLabel->text(); }

void AllReducePanel::play()
{
    if (playing())
        return;
    if (m_settings.step >= lastStep())
        setStep(0);
    m_timer->start();
    updatePlayButton();
}

void AllReducePanel::stop()
{
    m_timer->stop();
    updatePlayButton();
}

bool AllReducePanel::playing() const { return m_timer->isActive(); }

void AllReducePanel::stepForward()
{
    if (m_settings.step < lastStep())
        setStep(m_settings.step + 1);
}

void AllReducePanel::stepBack()
{
    if (m_settings.step > 0)
        setStep(m_settings.step - 1);
}

void AllReducePanel::setPlayIntervalMs(int milliseconds) { m_timer->setInterval(std::max(1, milliseconds)); }

int AllReducePanel::playIntervalMs() const { return m_timer->interval(); }

void AllReducePanel::updatePlayButton()
{
    if (m_playButton != nullptr)
        m_playButton->setText(playing() ? tr("Stop") : tr("Play"));
}

void AllReducePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_ringView != nullptr)
        m_ringView->update();
}

} // namespace warpscope::viz
