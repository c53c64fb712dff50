#include "formats/format_range_bar.h"

#include "formats/format_decimal.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpscope::viz {

using numerics::Format;
using numerics::Overflow;

namespace {

constexpr double kLabelRowHeight = 17;
constexpr double kBarHeight = 24;
constexpr double kMarkerHeight = 9;
constexpr double kSideMargin = 8;

std::string shortName(Format format)
{
    const std::string name(numerics::formatInfo(format).name);
    return name.substr(0, name.find(" ("));
}

// "2^-14 (6.1e-5)" for powers of two, the exact decimal otherwise.
std::string magnitudeText(double value)
{
    const std::string power = powerOfTwoText(value);
    return power.empty() ? exactDecimal(value) : power + " (" + shortDecimal(value, 3) + ")";
}

QColor regionColor(RangeRegionKind kind)
{
    switch (kind) {
    case RangeRegionKind::ToZero: return QColor(0x90, 0x90, 0x90);
    case RangeRegionKind::Subnormal: return QColor(0xf0, 0xa0, 0x30);
    case RangeRegionKind::Normal: return QColor(0x43, 0xa0, 0x47);
    case RangeRegionKind::Integers: return QColor(0x1e, 0x88, 0xe5);
    case RangeRegionKind::Overflow: return QColor(0xe5, 0x39, 0x35);
    }
    return Qt::gray;
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                            static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                            static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

// "1e-8", "0.01", "1", "1000", "1e5": decade labels.
QString decadeText(int power)
{
    if (power >= 0 && power <= 4)
        return QString::number(static_cast<int>(std::pow(10, power)));
    if (power < 0 && power >= -3)
        return QStringLiteral("0.") + QString(-power - 1, QLatin1Char('0')) + QLatin1Char('1');
    return QStringLiteral("1e%1").arg(power);
}

} // namespace

double FormatRange::xFor(double magnitude, double left, double right) const
{
    magnitude = std::abs(magnitude);
    if (!(magnitude > 0))
        return left;
    const double t = std::clamp((std::log2(magnitude) - log2Min) / (log2Max - log2Min), 0.0, 1.0);
    return left + t * (right - left);
}

double FormatRange::magnitudeAt(double x, double left, double right) const
{
    const double t = std::clamp((x - left) / (right - left), 0.0, 1.0);
    return std::exp2(log2Min + t * (log2Max - log2Min));
}

const RangeRegion* FormatRange::regionAt(double magnitude) const
{
    for (const RangeRegion& region : regions)
        if (magnitude <= region.to)
            return &region;
    return regions.empty() ? nullptr : &regions.back();
}

const RangeLandmark* FormatRange::landmark(const std::string& name) const
{
    for (const RangeLandmark& mark : landmarks)
        if (mark.name == name)
            return &mark;
    return nullptr;
}

FormatRange formatRange(Format format, Overflow overflow)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const std::string name = shortName(format);
    FormatRange range;
    range.format = format;
    const double max = numerics::maxFinite(format);
    const double inf = std::numeric_limits<double>::infinity();

    if (!info.isFloat) {
        const double largest = std::max(static_cast<double>(info.intMax), -static_cast<double>(info.intMin));
        const std::string span = std::to_string(info.intMin) + ".." + std::to_string(info.intMax);
        range.landmarks = {{"step", 1.0}, {"max", max}};
        range.log2Min = -3;
        range.log2Max = std::log2(largest) + 1.5;
        range.regions = {
            {RangeRegionKind::ToZero, 0, 0.5, "→ 0", "|x| ≤ 0.5 rounds to 0 (ties to even)."},
            {RangeRegionKind::Integers, 0.5, largest + 0.5, "integers",
             "Whole numbers " + span + " in steps of 1: the relative step shrinks as values grow."},
            {RangeRegionKind::Overflow, largest + 0.5, inf, "saturates",
             "Past " + span + " values clamp to the ends (integer conversions here always saturate, as quantizers do)."},
        };
        return range;
    }

    const double minSub = numerics::minSubnormal(format);
    const double minNormal = numerics::minNormal(format);
    // Rounding thresholds: half the smallest subnormal rounds to 0 (ties to even); half a step past
    // the maximum overflows.
    const double toZeroEdge = minSub / 2;
    const auto belowMax = numerics::nextDown(format, numerics::encode(format, max));
    const double overflowEdge = max + (max - numerics::decode(format, belowMax.value_or(0))) / 2;
    const double span = std::log2(max) - std::log2(minSub);
    const double pad = std::max(2.5, 0.07 * span);
    range.log2Min = std::log2(minSub) - pad;
    range.log2Max = std::log2(max) + pad;
    range.landmarks = {{"min subnormal", minSub}, {"min normal", minNormal}, {"max", max}};

    std::string overflowLabel, overflowWhat;
    if (overflow == Overflow::Saturate) {
        overflowLabel = "→ ±max";
        overflowWhat = "saturates to ±" + exactDecimal(max) + " (CUDA's __NV_SATFINITE)";
    } else if (info.hasInfinity) {
        overflowLabel = "→ inf";
        overflowWhat = "overflows to ±infinity (PyTorch's cast)";
    } else {
        overflowLabel = "→ NaN";
        overflowWhat = "overflows to NaN: " + name + " has no infinity (PyTorch's cast)";
    }
    range.regions = {
        {RangeRegionKind::ToZero, 0, toZeroEdge, "→ 0",
         "|x| ≤ " + magnitudeText(toZeroEdge) + ", half the smallest subnormal, rounds to zero (underflow)."},
        {RangeRegionKind::Subnormal, toZeroEdge, minNormal, "subnormal",
         "Subnormal values, below the smallest normal " + magnitudeText(minNormal) + ": evenly spaced by " +
             magnitudeText(minSub) + ", so the smaller they are, the fewer significant bits they keep."},
        {RangeRegionKind::Normal, minNormal, overflowEdge, "normal",
         "Normal values " + magnitudeText(minNormal) + " to " + exactDecimal(max) + ": " +
             std::to_string(info.mantissaBits + 1) + " significant bits; the spacing doubles at every power of two."},
        {RangeRegionKind::Overflow, overflowEdge, inf, overflowLabel,
         // At the edge itself the tie goes to the even neighbour: inf for FP16 (65520), 448 for E4M3 (464).
         std::string(std::isfinite(numerics::roundTo(format, overflowEdge)) ? "|x| > " : "|x| ≥ ") +
             exactDecimal(overflowEdge) + " (the max plus half a step) " + overflowWhat + "."},
    };
    return range;
}

FormatRangeBar::FormatRangeBar(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
    setFormat(Format::FP16, Overflow::Ieee);
}

void FormatRangeBar::setFormat(Format format, Overflow overflow)
{
    m_range = formatRange(format, overflow);
    update();
}

void FormatRangeBar::setValue(double value)
{
    m_value = value;
    update();
}

QRectF FormatRangeBar::barRect() const
{
    return QRectF(kSideMargin, 2 * kLabelRowHeight + 4, width() - 2 * kSideMargin, kBarHeight);
}

QSize FormatRangeBar::sizeHint() const
{
    const QFontMetricsF metrics(font());
    return QSize(600, static_cast<int>(2 * kLabelRowHeight + 4 + kBarHeight + kMarkerHeight + metrics.height() + 6));
}

QSize FormatRangeBar::minimumSizeHint() const { return QSize(360, sizeHint().height()); }

void FormatRangeBar::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    const QRectF bar = barRect();
    const double left = bar.left(), right = bar.right();
    QFont small = font();
    small.setPointSizeF(std::max(7.0, font().pointSizeF() - 1));
    const QFontMetricsF smallMetrics(small);

    // Regions, filled with a tint of their colour so the labels stay readable in light and dark themes.
    for (const RangeRegion& region : m_range.regions) {
        const double x0 = region.kind == RangeRegionKind::ToZero ? left : m_range.xFor(region.from, left, right);
        const double x1 = std::isinf(region.to) ? right : m_range.xFor(region.to, left, right);
        const QRectF area(x0, bar.top(), std::max(0.0, x1 - x0), bar.height());
        painter.fillRect(area, blend(base, regionColor(region.kind), 0.45));
        const QString label = QString::fromStdString(region.label);
        if (smallMetrics.horizontalAdvance(label) + 6 <= area.width()) {
            painter.setFont(small);
            painter.setPen(text);
            painter.drawText(area, Qt::AlignCenter, label);
        }
    }
    painter.setPen(QPen(pal.color(QPalette::Mid), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);

    // Decade ticks under the bar, labelled as far apart as their text needs.
    painter.setFont(small);
    const int firstDecade = static_cast<int>(std::ceil(m_range.log2Min / std::log2(10.0)));
    const int lastDecade = static_cast<int>(std::floor(m_range.log2Max / std::log2(10.0)));
    const double labelWidth = std::max(smallMetrics.horizontalAdvance(QStringLiteral("1e-45")),
                                       smallMetrics.horizontalAdvance(decadeText(lastDecade)));
    const double pixelsPerDecade = (right - left) / ((m_range.log2Max - m_range.log2Min) / std::log2(10.0));
    int step = 1;
    for (int candidate : {1, 2, 5, 10, 20, 50}) {
        step = candidate;
        if (candidate * pixelsPerDecade >= labelWidth + 10)
            break;
    }
    const double tickTop = bar.bottom();
    const double labelTop = bar.bottom() + kMarkerHeight;
    QColor tickColor = text;
    tickColor.setAlphaF(0.5);
    for (int decade = firstDecade; decade <= lastDecade; ++decade) {
        const double x = m_range.xFor(std::pow(10.0, decade), left, right);
        painter.setPen(QPen(tickColor, 1));
        painter.drawLine(QPointF(x, tickTop), QPointF(x, tickTop + (decade % step == 0 ? 5 : 3)));
        if (decade % step != 0)
            continue;
        const QString label = decadeText(decade);
        const double w = smallMetrics.horizontalAdvance(label);
        const double x0 = std::clamp(x - w / 2, 0.0, width() - w);
        painter.setPen(text);
        painter.drawText(QRectF(x0, labelTop, w + 1, smallMetrics.height()), Qt::AlignLeft | Qt::AlignTop, label);
    }

    // Landmarks: a tick through the bar and a label above it. Each label goes where it crosses no
    // other label or tick: right of its tick, left of it, then the same in the upper row.
    painter.setFont(font());
    const QFontMetricsF metrics(font());
    const numerics::FormatInfo& info = numerics::formatInfo(m_range.format);
    std::vector<double> ticks;
    for (const RangeLandmark& mark : m_range.landmarks)
        ticks.push_back(m_range.xFor(mark.value, left, right));
    std::vector<QRectF> placed;
    for (std::size_t i = 0; i < m_range.landmarks.size(); ++i) {
        const RangeLandmark& mark = m_range.landmarks[i];
        const double x = ticks[i];
        QString label = QString::fromStdString(mark.name) + QLatin1Char(' ') +
                        QString::fromStdString(mark.name == "max" || !info.isFloat ? exactDecimal(mark.value) : magnitudeText(mark.value));
        if (mark.name == "max" && !info.isFloat && info.intMin < 0)
            label += QStringLiteral(", min %1").arg(info.intMin);
        if (mark.name == "max" && label.size() > 24)
            label = QStringLiteral("max ") + QString::fromStdString(shortDecimal(mark.value, 5));
        const double w = metrics.horizontalAdvance(label) + 4;
        auto candidate = [&](int row, bool rightOfTick) {
            const double x0 = std::clamp(rightOfTick ? x - 2 : x - w + 2, 0.0, width() - w);
            return QRectF(x0, row * kLabelRowHeight, w, kLabelRowHeight);
        };
        auto fits = [&](const QRectF& rect) {
            for (const QRectF& other : placed)
                if (other.intersects(rect.adjusted(-4, 0, 4, 0)))
                    return false;
            for (std::size_t j = 0; j < ticks.size(); ++j)
                if (j != i && ticks[j] >= rect.left() - 3 && ticks[j] <= rect.right() + 3)
                    return false;
            return true;
        };
        const bool preferRight = mark.name != "max"; // the max reads leftwards, from the bar's end
        QRectF rect = candidate(0, preferRight);
        for (const auto& [row, rightOfTick] : {std::pair{1, preferRight}, std::pair{1, !preferRight},
                                               std::pair{0, preferRight}, std::pair{0, !preferRight}}) {
            if (fits(candidate(row, rightOfTick))) {
                rect = candidate(row, rightOfTick);
                break;
            }
        }
        placed.push_back(rect);
        painter.setPen(QPen(text, 1));
        painter.drawLine(QPointF(x, rect.bottom() - 2), QPointF(x, bar.bottom()));
        painter.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, label);
    }

    // The current value: a line through the bar and a triangle under it (NaN is not on the line).
    if (!std::isnan(m_value)) {
        const double x = std::isinf(m_value) ? right : m_range.xFor(m_value, left, right);
        const QColor marker = pal.color(QPalette::Highlight);
        painter.setPen(QPen(marker, 3));
        painter.drawLine(QPointF(x, bar.top() - 3), QPointF(x, bar.bottom()));
        QPainterPath triangle;
        triangle.moveTo(x, bar.bottom() + 1);
        triangle.lineTo(x - 6, bar.bottom() + kMarkerHeight);
        triangle.lineTo(x + 6, bar.bottom() + kMarkerHeight);
        triangle.closeSubpath();
        painter.setPen(Qt::NoPen);
        painter.setBrush(marker);
        painter.drawPath(triangle);
    }
}

bool FormatRangeBar::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QRectF bar = barRect();
    if (help->pos().x() < bar.left() || help->pos().x() > bar.right()) {
        QToolTip::hideText();
        return true;
    }
    const double magnitude = m_range.magnitudeAt(help->pos().x(), bar.left(), bar.right());
    const RangeRegion* region = m_range.regionAt(magnitude);
    QString tip = QStringLiteral("|x| ≈ %1").arg(QString::fromStdString(shortDecimal(magnitude, 3)));
    if (region)
        tip += QStringLiteral("<br>") + QString::fromStdString(region->explanation).toHtmlEscaped();
    QToolTip::showText(help->globalPos(), QStringLiteral("<p style='white-space:normal'>%1</p>").arg(tip), this);
    return true;
}

} // namespace warpscope::viz
