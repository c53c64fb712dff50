#include "formats/format_comparison.h"

#include "formats/format_decimal.h"

#include <cmath>
#include <limits>

namespace warpscope::viz {

using numerics::Format;
using numerics::FormatInfo;
using numerics::Overflow;

namespace {

std::string nameOf(Format format) { return std::string(numerics::formatInfo(format).name); }

// "FP16" from "FP16 (IEEE binary16)": short names for sentences.
std::string shortNameOf(Format format)
{
    const std::string name = nameOf(format);
    const std::size_t bracket = name.find(" (");
    return bracket == std::string::npos ? name : name.substr(0, bracket);
}

std::string landmarkText(double value)
{
    const std::string power = powerOfTwoText(value);
    const std::string decimal = shortDecimal(value, 3);
    return power.empty() ? exactDecimal(value) : power + " = " + decimal;
}

} // namespace

std::string outcomeText(const StoredValue& stored)
{
    const bool isFloat = numerics::formatInfo(stored.format).isFloat;
    switch (stored.outcome) {
    case StoreOutcome::Exact: return "exact";
    case StoreOutcome::Rounded: return isFloat ? "rounded" : "rounded to an integer";
    case StoreOutcome::RoundedSubnormal: return "rounded, subnormal";
    case StoreOutcome::FlushedToZero: return "underflow: flushed to 0";
    case StoreOutcome::OverflowInfinity: return std::string("overflow → ") + (stored.stored > 0 ? "inf" : "-inf");
    case StoreOutcome::OverflowNaN: return "overflow → NaN";
    case StoreOutcome::Saturated: return "saturated to " + exactDecimal(stored.stored);
    case StoreOutcome::InfinityKept: return "infinity kept";
    case StoreOutcome::NaNKept: return "NaN kept";
    case StoreOutcome::NaNToZero: return "NaN → 0";
    }
    return {};
}

std::string outcomeExplanation(const StoredValue& stored)
{
    const Format format = stored.format;
    const FormatInfo& info = numerics::formatInfo(format);
    const std::string name = shortNameOf(format);
    const std::string max = exactDecimal(numerics::maxFinite(format));
    switch (stored.outcome) {
    case StoreOutcome::Exact:
        return name + " holds this value exactly.";
    case StoreOutcome::Rounded:
        if (!info.isFloat)
            return name + " holds whole numbers only: rounded to the nearest, ties to even. (Quantizers scale "
                          "values before rounding; see the quantization lab.)";
        return "Rounded to the nearest " + name + " value, ties to even: " + std::to_string(info.mantissaBits + 1) +
               " significant bits (" + std::to_string(info.mantissaBits) + " stored, one implicit).";
    case StoreOutcome::RoundedSubnormal:
        return "Below " + name + "'s smallest normal value (" + landmarkText(numerics::minNormal(format)) +
               "): stored as a subnormal, on a fixed grid of " + landmarkText(numerics::minSubnormal(format)) +
               ", so with fewer significant bits than a normal value.";
    case StoreOutcome::FlushedToZero:
        return "At most half of " + name + "'s smallest subnormal (" + landmarkText(numerics::minSubnormal(format)) +
               "): rounds to zero. Small gradients vanish this way in FP16 (underflow), which loss scaling prevents.";
    case StoreOutcome::OverflowInfinity:
        return "Past " + name + "'s largest finite value, " + max + ", by half a step or more: infinity, as "
               "PyTorch's cast gives. With saturation (CUDA's __NV_SATFINITE) it would be " + max + ".";
    case StoreOutcome::OverflowNaN:
        return name + " has no infinity: past " + max + " PyTorch's cast gives NaN. With saturation (CUDA's "
               "__NV_SATFINITE) it would be " + max + ".";
    case StoreOutcome::Saturated:
        if (!info.isFloat)
            return "Outside " + name + "'s range " + std::to_string(info.intMin) + ".." + std::to_string(info.intMax) +
                   ": clamped to its " + (stored.stored <= static_cast<double>(info.intMin) ? "smallest" : "largest") +
                   " value, " + exactDecimal(stored.stored) + ", as quantizers and saturating conversions do.";
        return std::string(stored.stored < 0 ? "Clamped to the most negative finite value, "
                                             : "Clamped to the largest finite value, ") +
               exactDecimal(stored.stored) + ", as CUDA's __NV_SATFINITE conversions do. "
               "Without saturation it would be " + std::string(info.hasInfinity ? "infinity." : "NaN (no infinity in " + name + ").");
    case StoreOutcome::InfinityKept:
        return name + " has infinities: infinity stays infinity.";
    case StoreOutcome::NaNKept:
        return "NaN stays NaN (" + name + "'s NaN pattern).";
    case StoreOutcome::NaNToZero:
        return "Integers have no NaN: a saturating conversion gives 0.";
    }
    return {};
}

} // namespace warpscope::viz
