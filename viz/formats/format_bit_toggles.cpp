#include "formats/format_bit_toggles.h"

#include <QFontMetrics>
#include <QKeyEvent>
#include <QPainter>

#include <algorithm>

namespace warpscope::viz {

using numerics::Format;

namespace {

constexpr int kMinCell = 12;
constexpr int kMaxCell = 34;
constexpr int kFieldGap = 8;
constexpr int kToggleHeight = 30;

bool darkTheme(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                            static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                            static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

QString fieldName(BitField field)
{
    switch (field) {
    case BitField::Sign: return QStringLiteral("sign");
    case BitField::Exponent: return QStringLiteral("exponent");
    case BitField::Mantissa: return QStringLiteral("mantissa");
    case BitField::IntegerValue: return QStringLiteral("value");
    }
    return {};
}

} // namespace

int patternWidth(Format format)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    return info.isFloat ? 1 + info.exponentBits + info.mantissaBits : info.bits;
}

BitField bitFieldOf(Format format, int bit)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const int width = patternWidth(format);
    if (!info.isFloat)
        return info.intMin < 0 && bit == width - 1 ? BitField::Sign : BitField::IntegerValue;
    if (bit == width - 1)
        return BitField::Sign;
    return bit >= info.mantissaBits ? BitField::Exponent : BitField::Mantissa;
}

QColor bitFieldColor(BitField field, const QPalette& palette)
{
    const bool dark = darkTheme(palette);
    switch (field) {
    case BitField::Sign: return dark ? QColor(0xff, 0x80, 0x80) : QColor(0xc6, 0x28, 0x28);
    case BitField::Exponent: return dark ? QColor(0x7c, 0xd0, 0x80) : QColor(0x2e, 0x7d, 0x32);
    case BitField::Mantissa: return dark ? QColor(0x6c, 0xb8, 0xf6) : QColor(0x15, 0x65, 0xc0);
    case BitField::IntegerValue: return dark ? QColor(0xd0, 0xa0, 0xe0) : QColor(0x6a, 0x1b, 0x9a);
    }
    return palette.color(QPalette::Text);
}

BitToggle::BitToggle(int bit, BitField field, QWidget* parent) : QAbstractButton(parent), m_bit(bit), m_field(field)
{
    setCheckable(true);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::PointingHandCursor);
    setAccessibleName(QStringLiteral("%1 bit, bit %2").arg(fieldName(field)).arg(bit));
}

QSize BitToggle::sizeHint() const { return QSize(26, kToggleHeight); }

void BitToggle::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QColor color = bitFieldColor(m_field, pal);
    const QColor base = pal.color(QPalette::Base);
    const QRectF box = QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5);
    QColor fill = isChecked() ? color : blend(base, color, underMouse() ? 0.24 : 0.12);
    if (isDown())
        fill = blend(fill, pal.color(QPalette::Text), 0.2);
    painter.setPen(QPen(color, 1));
    painter.setBrush(fill);
    painter.drawRoundedRect(box, 3, 3);
    if (hasFocus()) {
        painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    }
    QFont digit = font();
    digit.setBold(true);
    painter.setFont(digit);
    // On the strong fill: white in a light theme, near-black in a dark one (its colours are light).
    painter.setPen(isChecked() ? (darkTheme(pal) ? QColor(0x10, 0x10, 0x10) : QColor(Qt::white)) : color);
    painter.drawText(rect(), Qt::AlignCenter, isChecked() ? QStringLiteral("1") : QStringLiteral("0"));
}

void BitToggle::keyPressEvent(QKeyEvent* event)
{
    auto* pattern = qobject_cast<BitPatternWidget*>(parentWidget());
    if (pattern) {
        const int last = pattern->toggleCount() - 1;
        switch (event->key()) {
        case Qt::Key_Left: pattern->focusBit(std::min(last, m_bit + 1)); return; // more significant
        case Qt::Key_Right: pattern->focusBit(std::max(0, m_bit - 1)); return;
        case Qt::Key_Home: pattern->focusBit(last); return;
        case Qt::Key_End: pattern->focusBit(0); return;
        default: break;
        }
    }
    QAbstractButton::keyPressEvent(event);
}

BitPatternWidget::BitPatternWidget(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFormat(Format::FP16);
}

void BitPatternWidget::setFormat(Format format)
{
    m_format = format;
    for (BitToggle* toggle : m_toggles)
        delete toggle;
    m_toggles.clear();
    const int width = patternWidth(format);
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    for (int bit = 0; bit < width; ++bit) {
        auto* toggle = new BitToggle(bit, bitFieldOf(format, bit), this);
        toggle->setToolTip(QStringLiteral("Bit %1 (%2). Click or press Space to flip it.")
                               .arg(bit + info.storageShift)
                               .arg(fieldName(toggle->field())));
        connect(toggle, &QAbstractButton::clicked, this, [this, bit, shift = info.storageShift](bool) {
            m_word ^= std::uint32_t{1} << (bit + shift);
            emit bitsChanged(m_word);
        });
        m_toggles.push_back(toggle);
    }
    // Tab order left to right: the most significant bit first, as the pattern reads.
    for (int bit = width - 1; bit > 0; --bit)
        setTabOrder(m_toggles[static_cast<std::size_t>(bit)], m_toggles[static_cast<std::size_t>(bit - 1)]);
    for (BitToggle* toggle : m_toggles)
        toggle->show();
    m_word = 0;
    layoutToggles();
    updateGeometry();
    update();
}

void BitPatternWidget::setBits(std::uint32_t word)
{
    m_word = word;
    const int shift = numerics::formatInfo(m_format).storageShift;
    for (BitToggle* toggle : m_toggles)
        toggle->setChecked(((word >> (toggle->bit() + shift)) & 1u) != 0);
}

BitToggle* BitPatternWidget::toggle(int bit) const
{
    return bit >= 0 && bit < toggleCount() ? m_toggles[static_cast<std::size_t>(bit)] : nullptr;
}

void BitPatternWidget::focusBit(int bit)
{
    if (BitToggle* target = toggle(bit))
        target->setFocus(Qt::TabFocusReason);
}

std::vector<BitPatternWidget::FieldSpan> BitPatternWidget::fieldSpans() const
{
    std::vector<FieldSpan> spans;
    for (int bit = toggleCount() - 1; bit >= 0; --bit) {
        const BitField field = bitFieldOf(m_format, bit);
        if (spans.empty() || spans.back().field != field)
            spans.push_back({field, bit, bit});
        else
            spans.back().lowBit = bit;
    }
    return spans;
}

int BitPatternWidget::gapsBefore(int bit) const
{
    int gaps = 0;
    for (const FieldSpan& span : fieldSpans()) {
        if (span.lowBit <= bit)
            break;
        ++gaps;
    }
    return gaps;
}

int BitPatternWidget::cellWidthFor(int width) const
{
    const int gaps = static_cast<int>(fieldSpans().size()) - 1;
    const int n = std::max(1, toggleCount());
    return std::clamp((width - gaps * kFieldGap) / n, kMinCell, kMaxCell);
}

QRect BitPatternWidget::cellRect(int bit, int cellWidth) const
{
    const int position = toggleCount() - 1 - bit;
    const int top = QFontMetrics(font()).height() + 6;
    return QRect(position * cellWidth + gapsBefore(bit) * kFieldGap, top, cellWidth, kToggleHeight);
}

void BitPatternWidget::layoutToggles()
{
    const int cell = cellWidthFor(width());
    for (BitToggle* toggle : m_toggles)
        toggle->setGeometry(cellRect(toggle->bit(), cell));
}

QSize BitPatternWidget::sizeHint() const
{
    const int gaps = static_cast<int>(fieldSpans().size()) - 1;
    const QFontMetrics metrics(font());
    return QSize(toggleCount() * 28 + gaps * kFieldGap, metrics.height() + 6 + kToggleHeight + metrics.height() + 2);
}

QSize BitPatternWidget::minimumSizeHint() const
{
    const int gaps = static_cast<int>(fieldSpans().size()) - 1;
    return QSize(toggleCount() * kMinCell + gaps * kFieldGap, sizeHint().height());
}

void BitPatternWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layoutToggles();
}

void BitPatternWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    const numerics::FormatInfo& info = numerics::formatInfo(m_format);
    const int cell = cellWidthFor(width());
    const QFontMetrics metrics(font());

    // Field names above their bits, longest form that fits.
    for (const FieldSpan& span : fieldSpans()) {
        const QRect first = cellRect(span.highBit, cell), last = cellRect(span.lowBit, cell);
        const int bits = span.highBit - span.lowBit + 1;
        QStringList candidates;
        switch (span.field) {
        case BitField::Sign: candidates = {QStringLiteral("sign"), QStringLiteral("s")}; break;
        case BitField::Exponent:
            candidates = {QStringLiteral("exponent (%1 bits, bias %2)").arg(bits).arg(info.bias),
                          QStringLiteral("exponent (%1 bits)").arg(bits), QStringLiteral("exponent"), QStringLiteral("exp")};
            break;
        case BitField::Mantissa:
            candidates = {QStringLiteral("mantissa (%1 bits)").arg(bits), QStringLiteral("mantissa"), QStringLiteral("m")};
            break;
        case BitField::IntegerValue:
            candidates = {info.intMin < 0 ? QStringLiteral("value bits (two's complement)") : QStringLiteral("value bits (unsigned)"),
                          QStringLiteral("value bits"), QStringLiteral("value")};
            break;
        }
        QRect spanRect(first.left(), 0, last.right() - first.left() + 1, metrics.height() + 2);
        QString caption = candidates.back();
        for (const QString& candidate : candidates)
            if (metrics.horizontalAdvance(candidate) <= spanRect.width() + (span.field == BitField::Sign ? kFieldGap : 0)) {
                caption = candidate;
                break;
            }
        const QColor color = bitFieldColor(span.field, pal);
        painter.setPen(color);
        // Centred over the field, but never past the widget's edges (the sign's name is wider than its bit).
        const int textWidth = metrics.horizontalAdvance(caption);
        const int textLeft = std::clamp(spanRect.center().x() - textWidth / 2, 0, std::max(0, width() - textWidth));
        painter.drawText(QRect(textLeft, 0, textWidth + 1, spanRect.height()), Qt::AlignLeft | Qt::AlignTop, caption);
        // A bracket under the name, spanning the field.
        const int y = metrics.height() + 3;
        painter.drawLine(spanRect.left() + 1, y, spanRect.right() - 1, y);
        painter.drawLine(spanRect.left() + 1, y, spanRect.left() + 1, y + 2);
        painter.drawLine(spanRect.right() - 1, y, spanRect.right() - 1, y + 2);
    }

    // Bit numbers below (the FP32 word's numbering for TF32).
    QFont small = font();
    small.setPointSizeF(std::max(6.5, font().pointSizeF() - 2));
    painter.setFont(small);
    QColor numberColor = pal.color(QPalette::Text);
    numberColor.setAlphaF(0.6);
    painter.setPen(numberColor);
    for (const BitToggle* toggle : m_toggles) {
        const QRect cellBox = cellRect(toggle->bit(), cell);
        painter.drawText(QRect(cellBox.left(), cellBox.bottom() + 1, cellBox.width(), metrics.height()),
                         Qt::AlignHCenter | Qt::AlignTop, QString::number(toggle->bit() + info.storageShift));
    }
}

} // namespace warpscope::viz
