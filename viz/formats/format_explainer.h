// What a bit pattern of a number format means, in words and numbers, for the format explorer:
// the fields read as the formula (-1)^s x 2^(e - bias) x 1.m (or its subnormal, zero, infinity, NaN
// and integer forms) and the spacing to its neighbours. Rich text (Qt's HTML subset).
#pragma once

#include "numerics/number_format.h"

#include <QString>

#include <cstdint>

namespace warpscope::viz {

struct PatternFields {
    bool negative = false;
    std::uint32_t exponent = 0; // the biased exponent field
    std::uint32_t mantissa = 0; // the stored mantissa (fraction) field
};

// The fields of a float pattern as numerics::encode gives it (TF32: its FP32 word).
PatternFields patternFields(numerics::Format format, std::uint32_t bits);

// Two lines: the fields read one by one, then the formula with their numbers and the value.
QString formulaHtml(numerics::Format format, std::uint32_t bits);
// The gaps to the next value up and down (one ULP), as powers of two where they are, and the spacing
// relative to the value.
QString ulpHtml(numerics::Format format, std::uint32_t bits);
// A value as the explorer shows it: the exact decimal, or 17 significant digits and "…" when the
// exact one has more than `maxChars` characters (compactDecimal).
QString displayedValue(double value, int maxChars = 44);

} // namespace warpscope::viz
