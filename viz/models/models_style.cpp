#include "models/models_style.h"

#include <QFontMetrics>
#include <QLabel>
#include <QPainter>
#include <QPen>
#include <QPointF>
#include <QRect>
#include <QRectF>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {

QColor modelColour(ModelColour kind, bool dark)
{
    // Okabe and Ito, "Color Universal Design" (2008): blue, bluish green, vermillion, sky blue, orange.
    switch (kind) {
    case ModelColour::Copy: return dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    case ModelColour::Compute: return dark ? QColor(0x2f, 0xc4, 0x95) : QColor(0x00, 0x9e, 0x73);
    case ModelColour::CopyBack: return dark ? QColor(0xf0, 0x8a, 0x4b) : QColor(0xd5, 0x5e, 0x00);
    case ModelColour::Forward: return dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    case ModelColour::Backward: return dark ? QColor(0xf0, 0xb0, 0x3c) : QColor(0xc7, 0x7c, 0x00);
    }
    return Qt::gray;
}

QColor textOn(const QColor& fill)
{
    // WCAG relative luminance; white text below the crossover where black and white contrast equally.
    auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double luminance = 0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF()) + 0.0722 * channel(fill.blueF());
    return luminance > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor modelTrackColour(const QPalette& palette)
{
    QColor track = palette.color(QPalette::Text);
    track.setAlphaF(0.07);
    return track;
}

QColor bubbleColour(const QPalette& palette)
{
    QColor bubble = palette.color(QPalette::Text);
    bubble.setAlphaF(0.28);
    return bubble;
}

double niceTickStep(double range, int maxTicks)
{
    if (!(range > 0) || maxTicks < 1)
        return 1;
    const double raw = range / maxTicks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (factor * power >= raw)
            return factor * power;
    return 10 * power;
}

QLabel* modelTextLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

void drawTimeAxis(QPainter& painter, const QFontMetrics& metrics, double left, double right, int y, double end, double step,
                  const std::function<QString(double)>& label)
{
    painter.drawLine(QPointF(left, y), QPointF(right, y));
    const int ticks = static_cast<int>(std::llround(end / step));
    double lastLabelRight = -1e9;
    for (int t = 0; t <= ticks; ++t) {
        const double value = t * step;
        const double x = left + (right - left) * (value / end);
        painter.drawLine(QPointF(x, y), QPointF(x, y + 4));
        const QString text = label(value);
        const double w = metrics.horizontalAdvance(text);
        if (x - w / 2 > lastLabelRight + 4) {
            painter.drawText(QRectF(x - w / 2 - 2, y + 4, w + 4, metrics.height()), Qt::AlignCenter, text);
            lastLabelRight = x + w / 2;
        }
    }
}

void drawLegend(QPainter& painter, const QFontMetrics& metrics, int x, int y, int right,
                const std::vector<std::pair<QColor, QString>>& entries, const QString& unit, const QColor& text)
{
    const int line = metrics.height();
    for (const auto& [fill, name] : entries) {
        painter.fillRect(QRect(x, y + (line - 10) / 2, 14, 10), fill);
        painter.setPen(text);
        painter.drawText(QRect(x + 18, y, metrics.horizontalAdvance(name) + 2, line), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += 18 + metrics.horizontalAdvance(name) + 16;
    }
    const int unitWidth = metrics.horizontalAdvance(unit);
    painter.setPen(text);
    painter.drawText(QRect(std::max(x, right - unitWidth), y, unitWidth + 2, line), Qt::AlignLeft | Qt::AlignVCenter, unit);
}

} // namespace warpscope::viz
