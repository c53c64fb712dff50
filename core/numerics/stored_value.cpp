#include "numerics/stored_value.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace warpscope::numerics {

StoredValue storeIn(Format format, double value, Overflow overflow)
{
    const FormatInfo& info = formatInfo(format);
    StoredValue out;
    out.format = format;
    out.bits = encode(format, value, overflow);
    out.stored = decode(format, out.bits);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (!std::isfinite(value) || std::isnan(out.stored))
        out.error = nan;
    else
        out.error = out.stored - value; // exact when both are close; inf after an overflow
    if (std::isfinite(value) && value != 0 && !std::isnan(out.error))
        out.relativeError = std::abs(out.error) / std::abs(value);
    else
        out.relativeError = nan;

    if (std::isnan(value)) {
        out.outcome = info.isFloat ? StoreOutcome::NaNKept : StoreOutcome::NaNToZero;
    } else if (std::isinf(value)) {
        out.outcome = std::isinf(out.stored) ? StoreOutcome::InfinityKept
                      : std::isnan(out.stored) ? StoreOutcome::OverflowNaN
                                               : StoreOutcome::Saturated;
    } else if (!info.isFloat) {
        // Integers clamp, then round half to even: saturation is when rounding alone would leave the range.
        const double rounded = std::nearbyint(value);
        if (rounded > static_cast<double>(info.intMax) || rounded < static_cast<double>(info.intMin))
            out.outcome = StoreOutcome::Saturated;
        else
            out.outcome = out.stored == value ? StoreOutcome::Exact : StoreOutcome::Rounded;
    } else if (std::isinf(out.stored)) {
        out.outcome = StoreOutcome::OverflowInfinity;
    } else if (std::isnan(out.stored)) {
        out.outcome = StoreOutcome::OverflowNaN;
    } else if (overflow == Overflow::Saturate && !std::isfinite(roundTo(format, value, Overflow::Ieee))) {
        out.outcome = StoreOutcome::Saturated;
    } else if (out.stored == value) {
        out.outcome = StoreOutcome::Exact;
    } else if (out.stored == 0) {
        out.outcome = StoreOutcome::FlushedToZero;
    } else if (classify(format, out.bits) == ValueClass::Subnormal) {
        out.outcome = StoreOutcome::RoundedSubnormal;
    } else {
        out.outcome = StoreOutcome::Rounded;
    }
    return out;
}

std::vector<StoredValue> storeInEveryFormat(double value, Overflow overflow)
{
    std::vector<StoredValue> rows;
    for (const FormatInfo& info : allFormats())
        rows.push_back(storeIn(info.format, value, overflow));
    return rows;
}

std::string storeOutcomeWords(const StoredValue& stored)
{
    switch (stored.outcome) {
    case StoreOutcome::Exact: return "exact";
    case StoreOutcome::Rounded: return "rounded";
    case StoreOutcome::RoundedSubnormal: return "rounded (subnormal: fewer significant bits)";
    case StoreOutcome::FlushedToZero: return "flushed to zero (at most half the smallest subnormal)";
    case StoreOutcome::OverflowInfinity: return "overflow to infinity";
    case StoreOutcome::OverflowNaN: return "overflow to NaN (this format has no infinity)";
    case StoreOutcome::Saturated: {
        // Which end of the range the value was clamped to: an integer format's smallest value (0 for
        // UINT8, -128 for INT8) or its largest; a float's largest finite magnitude, with its sign.
        const FormatInfo& info = formatInfo(stored.format);
        char value[32];
        std::snprintf(value, sizeof value, "%.17g", stored.stored);
        if (!info.isFloat)
            return std::string(stored.stored <= static_cast<double>(info.intMin) ? "saturated to the smallest value, "
                                                                                : "saturated to the largest value, ") +
                   value;
        return std::string(stored.stored < 0 ? "saturated to the most negative finite value, "
                                             : "saturated to the largest finite value, ") +
               value;
    }
    case StoreOutcome::InfinityKept: return "infinity";
    case StoreOutcome::NaNKept: return "NaN stays NaN";
    case StoreOutcome::NaNToZero: return "NaN stored as 0";
    }
    return "?";
}

} // namespace warpscope::numerics
