#include "util/parse.h"

#include "util/input_error.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace warpscope {
namespace {

std::string rangeText(std::int64_t min, std::int64_t max)
{
    return "allowed: " + std::to_string(min) + ".." + std::to_string(max);
}

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

// "1234567" -> "1,234,567".
std::string groupDigits(const std::string& digits)
{
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

} // namespace

double parseReal(std::string_view text, std::string_view what)
{
    const std::string clean = trimmed(text);
    const std::string prefix = what.empty() ? std::string() : std::string(what) + ": ";
    errno = 0;
    char* end = nullptr;
    const double value = clean.empty() ? 0.0 : std::strtod(clean.c_str(), &end);
    if (clean.empty() || end != clean.c_str() + clean.size())
        throw InputError(prefix + "'" + clean + "' is not a number (write a decimal such as 0.1, 1e-8 or 70000; inf and nan work too)");
    // strtod reads "inf" and "nan" itself; ERANGE flags decimals a double cannot hold.
    if (errno == ERANGE && std::isinf(value))
        throw InputError(prefix + clean + " is beyond the range of a double (FP64, largest about 1.8e308)");
    if (errno == ERANGE && value == 0)
        throw InputError(prefix + clean + " is below the smallest double (FP64, about 4.9e-324): it would read as 0");
    return value;
}

std::int64_t parseInteger(std::string_view text, std::string_view what, std::int64_t min,
                          std::int64_t max)
{
    const std::string clean = trimmed(text);
    std::int64_t value = 0;
    const char* begin = clean.data();
    const char* end = clean.data() + clean.size();
    if (!clean.empty() && *begin == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (clean.empty() || ec == std::errc::invalid_argument || ptr != end)
        throw InputError(std::string(what) + ": '" + std::string(text) + "' is not an integer (" +
                         rangeText(min, max) + ")");
    if (ec == std::errc::result_out_of_range || value < min || value > max)
        throw InputError(std::string(what) + ": " + std::string(text) + " is out of range (" +
                         rangeText(min, max) + ")");
    return value;
}

std::size_t parseByteSize(std::string_view text, std::string_view what, std::size_t max)
{
    std::string clean = trimmed(text);
    std::int64_t multiplier = 1;
    if (!clean.empty() && (clean.back() == 'K' || clean.back() == 'k')) {
        multiplier = 1024;
        clean.pop_back();
    } else if (!clean.empty() && (clean.back() == 'M' || clean.back() == 'm')) {
        multiplier = 1024 * 1024;
        clean.pop_back();
    }
    const std::string label = std::string(what);
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
    if (clean.empty() || ec != std::errc() || ptr != clean.data() + clean.size())
        throw InputError(label + ": '" + std::string(text) +
                         "' is not a byte size (bytes, or KiB with a K suffix such as 48K, MiB with M; allowed: 0.." +
                         std::to_string(max) + " bytes = " + formatBytes(max) + ")");
    if (value < 0 || static_cast<std::size_t>(value) > max / static_cast<std::size_t>(multiplier))
        throw InputError(label + ": " + std::string(text) + " is out of range (allowed: 0.." +
                         std::to_string(max) + " bytes = " + formatBytes(max) + ")");
    return static_cast<std::size_t>(value * multiplier);
}

std::string withThousands(std::int64_t value)
{
    // Through BigCount, so that INT64_MIN has a magnitude too.
    const BigCount magnitude = value < 0 ? static_cast<BigCount>(-(value + 1)) + 1 : static_cast<BigCount>(value);
    return (value < 0 ? "-" : "") + withThousandsBig(magnitude);
}

std::string withThousandsBig(BigCount value)
{
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
        value /= 10;
    } while (value > 0);
    return groupDigits(digits);
}

std::string formatBytes(std::size_t bytes)
{
    if (bytes != 0 && bytes % 1024 == 0)
        return withThousands(static_cast<std::int64_t>(bytes / 1024)) + " KB";
    return withThousands(static_cast<std::int64_t>(bytes)) + " B";
}

} // namespace warpscope
