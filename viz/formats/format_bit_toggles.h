// One toggle per bit of a number format's pattern, most significant on the left, grouped and
// coloured by field (sign, exponent, mantissa; integers: sign and value bits) with the field names
// above and the bit numbers below. Mouse: click a bit. Keyboard: Tab to a bit, Left/Right/Home/End
// to move, Space to flip.
#pragma once

#include "numerics/number_format.h"

#include <QAbstractButton>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace warpscope::viz {

enum class BitField { Sign, Exponent, Mantissa, IntegerValue };

// The field a bit belongs to; `bit` counts from 0 at the format's least significant bit (TF32: of
// its 19 bits, before the shift into the FP32 word).
BitField bitFieldOf(numerics::Format format, int bit);
// How many bits the toggles show: 1 + exponent + mantissa for floats (TF32: 19), the width for integers.
int patternWidth(numerics::Format format);
// Field colours, readable on the palette's base colour in light and dark themes.
QColor bitFieldColor(BitField field, const QPalette& palette);

class BitToggle : public QAbstractButton {
    Q_OBJECT
public:
    BitToggle(int bit, BitField field, QWidget* parent);
    int bit() const { return m_bit; }
    BitField field() const { return m_field; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    int m_bit;
    BitField m_field;
};

class BitPatternWidget : public QWidget {
    Q_OBJECT
public:
    explicit BitPatternWidget(QWidget* parent = nullptr);

    void setFormat(numerics::Format format); // rebuilds the toggles, all clear
    void setBits(std::uint32_t word);        // the pattern as numerics::encode gives it; no signal
    std::uint32_t bits() const { return m_word; }
    numerics::Format format() const { return m_format; }
    BitToggle* toggle(int bit) const;        // bit 0 = least significant; nullptr past the width
    int toggleCount() const { return static_cast<int>(m_toggles.size()); }
    void focusBit(int bit);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void bitsChanged(std::uint32_t word); // after a click or key flipped a bit

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    struct FieldSpan {
        BitField field;
        int highBit, lowBit; // inclusive
    };
    std::vector<FieldSpan> fieldSpans() const;
    int gapsBefore(int bit) const; // field gaps to the left of this bit's cell
    QRect cellRect(int bit, int cellWidth) const;
    int cellWidthFor(int width) const;
    void layoutToggles();

    numerics::Format m_format = numerics::Format::FP16;
    std::uint32_t m_word = 0;
    std::vector<BitToggle*> m_toggles; // index = bit
};

} // namespace warpscope::viz
