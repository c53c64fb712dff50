#include "formats/format_decimal.h"

#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace warpscope::viz {
namespace {

// "1.5e-05" -> "1.5e-5", "3.4e+38" -> "3.4e38": exponents as people write them.
std::string tidyExponent(std::string text)
{
    const std::size_t e = text.find('e');
    if (e == std::string::npos)
        return text;
    std::string mantissa = text.substr(0, e);
    std::string exponent = text.substr(e + 1);
    std::string sign;
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
        if (exponent[0] == '-')
            sign = "-";
        exponent.erase(0, 1);
    }
    while (exponent.size() > 1 && exponent[0] == '0')
        exponent.erase(0, 1);
    return mantissa + "e" + sign + exponent;
}

} // namespace

std::string exactDecimal(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0)
        return std::signbit(value) ? "-0" : "0";
    // glibc's printf writes the exact decimal digits of a double at any precision; 767 significant
    // digits are the most any double needs (2^-1074 x (2^53 - 1)).
    std::vector<char> buffer(1024);
    std::snprintf(buffer.data(), buffer.size(), "%.780e", std::abs(value));
    const std::string text(buffer.data());
    const std::size_t e = text.find('e');
    const int exponent = std::atoi(text.c_str() + e + 1);
    std::string digits = text.substr(0, 1) + text.substr(2, e - 2);
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();

    std::string out = value < 0 ? "-" : "";
    if (exponent >= -5 && exponent < 21) {
        if (exponent >= 0) {
            const std::size_t integerDigits = static_cast<std::size_t>(exponent) + 1;
            if (digits.size() <= integerDigits)
                out += digits + std::string(integerDigits - digits.size(), '0');
            else
                out += digits.substr(0, integerDigits) + "." + digits.substr(integerDigits);
        } else {
            out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        }
    } else {
        out += digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        out += "e" + std::to_string(exponent);
    }
    return out;
}

std::string compactDecimal(double value, std::size_t maxChars, bool* shortened)
{
    std::string exact = exactDecimal(value);
    if (shortened)
        *shortened = exact.size() > maxChars;
    if (exact.size() <= maxChars)
        return exact;
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    // Mark the digits left out: "9.9999461011147596…e-41", "0.10000000149011612…".
    std::string out = tidyExponent(text);
    const std::size_t e = out.find('e');
    return e == std::string::npos ? out + "…" : out.substr(0, e) + "…" + out.substr(e);
}

std::string shortDecimal(double value, int digits)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char text[40];
    // Scientific below 0.001: "2.44e-4" reads faster than "0.000244".
    const double magnitude = std::abs(value);
    if (magnitude != 0 && magnitude < 1e-3)
        std::snprintf(text, sizeof text, "%.*e", std::max(0, digits - 1), value);
    else if (magnitude >= 1e3 && magnitude < 1e6) // "69552", not "6.96e4": every whole digit
        std::snprintf(text, sizeof text, "%.0f", value);
    else
        std::snprintf(text, sizeof text, "%.*g", digits, value);
    std::string out = tidyExponent(text);
    // "6.10e-5" -> "6.1e-5": no trailing zeros in the mantissa.
    const std::size_t e = out.find('e');
    if (e != std::string::npos && out.find('.') < e) {
        std::size_t end = e;
        while (out[end - 1] == '0')
            --end;
        if (out[end - 1] == '.')
            --end;
        out.erase(end, e - end);
    }
    return out;
}

std::string powerOfTwoText(double value)
{
    if (!std::isfinite(value) || value == 0)
        return {};
    int exponent = 0;
    if (std::frexp(std::abs(value), &exponent) != 0.5)
        return {};
    return "2^" + std::to_string(exponent - 1);
}

std::optional<double> parseTypedValue(std::string_view text, std::string* error)
{
    try {
        return parseReal(text, "");
    } catch (const InputError&) {
        if (error) {
            // A decimal beyond a double (1e999, 1e-400) is a number out of range; anything else is not a number.
            static constexpr const char* kAllowed =
                "a decimal such as 0.1, 1e-8 or 70000 that a double (FP64) holds: 0, or magnitudes from about 4.9e-324 "
                "to 1.8e308; inf, -inf and nan too";
            const std::string clean = trimmedInput(text);
            char* end = nullptr;
            std::strtod(clean.c_str(), &end);
            const bool number = !clean.empty() && end == clean.c_str() + clean.size();
            *error = number ? outOfRangeMessage("Value", text, kAllowed) : notAValueMessage("Value", text, "a number", kAllowed);
        }
        return std::nullopt;
    }
}

} // namespace warpscope::viz
