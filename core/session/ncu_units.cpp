// ncu's units and numbers (core/session/ncu_import.h): decimal prefixes, compound units, and the
// thousands separators ncu prints in its CSV.
#include "session/ncu_import.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace warpscope::session {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isCycle(std::string_view base) { return base == "cycle" || base.ends_with("_cycle"); }

// Things ncu counts; a K, M or G in front of one is a decimal multiple.
bool isCountWord(std::string_view base)
{
    static constexpr std::string_view words[] = {"inst", "instruction", "sector", "request", "warp", "thread",
                                                 "block", "wavefront", "register", "transaction"};
    return isCycle(base) || std::find(std::begin(words), std::end(words), base) != std::end(words);
}

// One side of a unit: a decimal prefix and a base ("Kbyte" = 1e3 x byte, "usecond" = 1e-6 x second).
struct UnitTerm {
    double factor = 1;
    std::string base;
};

UnitTerm parseTerm(std::string_view term)
{
    if (term == "s") return {1, "second"};
    if (term == "ms") return {1e-3, "second"};
    if (term == "us") return {1e-6, "second"};
    if (term == "ns") return {1e-9, "second"};
    if (term == "bytes") return {1, "byte"};
    if (term == "second" || term == "byte" || isCountWord(term))
        return {1, std::string(term)};
    if (term.size() > 1) {
        const char prefix = term.front();
        const std::string_view rest = term.substr(1);
        if (rest == "second") {
            if (prefix == 'm') return {1e-3, "second"};
            if (prefix == 'u') return {1e-6, "second"};
            if (prefix == 'n') return {1e-9, "second"};
        }
        const bool bytes = rest == "byte";
        if (bytes || isCountWord(rest)) {
            if (prefix == 'K') return {1e3, std::string(rest)};
            if (prefix == 'M') return {1e6, std::string(rest)};
            if (prefix == 'G') return {1e9, std::string(rest)};
            if (prefix == 'T') return {1e12, std::string(rest)};
            if (bytes && prefix == 'P') return {1e15, std::string(rest)};
        }
    }
    return {1, std::string(term)};
}

} // namespace

NcuQuantity convertNcuValue(double value, std::string_view rawUnit)
{
    const std::string_view unit = trim(rawUnit);
    if (unit.empty())
        return {value, "", NcuDimension::None};
    if (unit == "%" || unit == "percent" || unit == "pct")
        return {value, "%", NcuDimension::Percent};
    const std::string folded = lower(unit);
    // ncu writes clocks as "Ghz", "Mhz" (and "cycle/nsecond" in older versions).
    if (folded == "hz") return {value, "Hz", NcuDimension::Frequency};
    if (folded == "khz") return {value * 1e3, "Hz", NcuDimension::Frequency};
    if (folded == "mhz") return {value * 1e6, "Hz", NcuDimension::Frequency};
    if (folded == "ghz") return {value * 1e9, "Hz", NcuDimension::Frequency};
    const std::size_t slash = unit.find('/');
    if (slash == std::string_view::npos) {
        const UnitTerm term = parseTerm(unit);
        if (term.base == "second")
            return {value * term.factor * 1e9, "ns", NcuDimension::Time};
        if (term.base == "byte")
            return {value * term.factor, "bytes", NcuDimension::Bytes};
        return {value * term.factor, term.base, NcuDimension::Other};
    }
    if (unit.find('/', slash + 1) != std::string_view::npos)
        return {value, std::string(unit), NcuDimension::Other};
    const UnitTerm numerator = parseTerm(trim(unit.substr(0, slash)));
    const UnitTerm denominator = parseTerm(trim(unit.substr(slash + 1)));
    const double scaled = value * numerator.factor / denominator.factor;
    if (denominator.base == "second") {
        if (numerator.base == "byte")
            return {scaled, "bytes/s", NcuDimension::BytesPerSecond};
        if (isCycle(numerator.base))
            return {scaled, "Hz", NcuDimension::Frequency};
        return {scaled, numerator.base + "/s", NcuDimension::Other};
    }
    if (numerator.base == "byte" && isCycle(denominator.base))
        return {scaled, "bytes/cycle", NcuDimension::BytesPerCycle};
    return {scaled, numerator.base + "/" + denominator.base, NcuDimension::Other};
}

std::optional<double> parseNcuNumber(std::string_view rawText)
{
    const std::string_view text = trim(rawText);
    std::string clean;
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (i < n && (text[i] == '+' || text[i] == '-')) {
        if (text[i] == '-')
            clean += '-';
        ++i;
    }
    // Whole part, optionally grouped by thousands: 1-3 digits, then groups of exactly 3.
    int digits = 0, group = 0;
    bool grouped = false;
    while (i < n) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            clean += c;
            ++digits;
            ++group;
        } else if (c == ',') {
            if (group == 0 || (grouped ? group != 3 : group > 3))
                return std::nullopt;
            grouped = true;
            group = 0;
        } else {
            break;
        }
        ++i;
    }
    if (grouped && group != 3)
        return std::nullopt;
    if (i < n && text[i] == '.') {
        clean += '.';
        ++i;
        while (i < n && text[i] >= '0' && text[i] <= '9') {
            clean += text[i++];
            ++digits;
        }
    }
    if (digits == 0)
        return std::nullopt;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        clean += 'e';
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            clean += text[i++];
        int exponentDigits = 0;
        while (i < n && text[i] >= '0' && text[i] <= '9') {
            clean += text[i++];
            ++exponentDigits;
        }
        if (exponentDigits == 0)
            return std::nullopt;
    }
    if (i != n)
        return std::nullopt;
    double value = 0;
    // from_chars ignores the locale: a window in a German locale reads "0.5" as ncu wrote it.
    const auto [end, error] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
    if (error != std::errc() || end != clean.data() + clean.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace warpscope::session
