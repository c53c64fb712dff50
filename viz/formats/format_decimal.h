// Decimal text for the values of the number formats, and the reading of a value a learner types.
// Every finite binary value has a finite decimal expansion: exactDecimal writes all of it, so what
// the explorer shows is the stored value itself, not a rounding of it. Qt-free.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::viz {

// Every digit of the value: "0.0999755859375", "65504", "-0", "1.401298464324817...e-45" (all 105
// digits), "inf", "-inf", "NaN". Positional from 1e-5 to 1e21, scientific outside.
std::string exactDecimal(double value);
// The exact decimal when it has at most `maxChars` characters; else 17 significant digits (enough
// to tell any two doubles apart) with "…" where the rest would be, and `shortened` is set.
std::string compactDecimal(double value, std::size_t maxChars, bool* shortened = nullptr);
// A few significant digits for errors and spacings: "2.44e-4", "0.00625", "69552", "1.5e38"
// (scientific below 0.001 and from 10^6; whole numbers in between keep all their digits).
std::string shortDecimal(double value, int digits = 3);
// "2^-14" when |value| is a power of two, else empty.
std::string powerOfTwoText(double value);

// A typed value: a decimal ("0.1", "-3e-8", "70000", "+1.5"), "inf", "-inf" or "nan". Surrounding
// spaces are ignored. On failure returns nullopt and sets `error` to why, in the shared wording
// (util/input_wording.h) for the field "Value": not a number, or out of what a double (FP64) holds.
std::optional<double> parseTypedValue(std::string_view text, std::string* error);

} // namespace warpscope::viz
