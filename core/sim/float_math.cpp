// Directed rounding and the approximate instructions (float_math.h).
//
// This file is compiled with -frounding-math (core/CMakeLists.txt), so the compiler neither folds
// nor moves floating-point operations on the assumption of round-to-nearest; every directed
// operation also reads its operands and writes its result through volatile variables between the
// two fesetround calls, so it cannot be scheduled outside them.
#include "sim/float_math.h"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace warpscope::sim {

namespace {

int hostMode(RoundingDirection direction)
{
    switch (direction) {
    case RoundingDirection::NearestEven: return FE_TONEAREST;
    case RoundingDirection::TowardZero: return FE_TOWARDZERO;
    case RoundingDirection::Down: return FE_DOWNWARD;
    case RoundingDirection::Up: return FE_UPWARD;
    }
    return FE_TONEAREST;
}

// The host's rounding mode for the lifetime of the object (per thread, as fesetround is).
class HostRounding {
public:
    explicit HostRounding(RoundingDirection direction) : m_previous(std::fegetround())
    {
        std::fesetround(hostMode(direction));
    }
    ~HostRounding() { std::fesetround(m_previous); }
    HostRounding(const HostRounding&) = delete;
    HostRounding& operator=(const HostRounding&) = delete;

private:
    int m_previous;
};

template <class T> T rounded(FloatOp op, T a, T b, T c, RoundingDirection direction)
{
    HostRounding scope(direction);
    volatile T x = a, y = b, z = c;
    volatile T result;
    switch (op) {
    case FloatOp::Add: result = x + y; break;
    case FloatOp::Sub: result = x - y; break;
    case FloatOp::Mul: result = x * y; break;
    case FloatOp::Fma: result = std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z)); break;
    case FloatOp::Div: result = x / y; break;
    case FloatOp::Rcp: result = T(1) / x; break;
    case FloatOp::Sqrt: result = std::sqrt(static_cast<T>(x)); break;
    }
    return result;
}

template <class To, class From> To convertRounded(From value, RoundingDirection direction)
{
    HostRounding scope(direction);
    volatile From from = value;
    volatile To result = static_cast<To>(from);
    return result;
}

float flush(float value, bool ftz)
{
    return ftz && std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

// The exact function value rounded to the nearest float: double carries 29 more bits than float, so
// the result is within 0.5 ulp plus 2^-29 ulp of the exact value (and usually correctly rounded).
float finish(double exact, bool ftz)
{
    const float value = static_cast<float>(exact);
    if (std::isnan(value))
        return std::bit_cast<float>(kCanonicalNanF32);
    return flush(value, ftz);
}

} // namespace

RoundingDirection roundingDirection(ptx::Rounding rounding)
{
    switch (rounding) {
    case ptx::Rounding::Rz: return RoundingDirection::TowardZero;
    case ptx::Rounding::Rm: return RoundingDirection::Down;
    case ptx::Rounding::Rp: return RoundingDirection::Up;
    default: return RoundingDirection::NearestEven;
    }
}

float roundedF32(FloatOp op, float a, float b, float c, RoundingDirection direction)
{
    return rounded<float>(op, a, b, c, direction);
}

double roundedF64(FloatOp op, double a, double b, double c, RoundingDirection direction)
{
    return rounded<double>(op, a, b, c, direction);
}

float roundedF32(double value, RoundingDirection direction) { return convertRounded<float>(value, direction); }
float roundedF32(std::int64_t value, RoundingDirection direction) { return convertRounded<float>(value, direction); }
float roundedF32(std::uint64_t value, RoundingDirection direction) { return convertRounded<float>(value, direction); }
double roundedF64(std::int64_t value, RoundingDirection direction) { return convertRounded<double>(value, direction); }
double roundedF64(std::uint64_t value, RoundingDirection direction) { return convertRounded<double>(value, direction); }

namespace {

struct HalfLayout {
    int exponentBits, fractionBits, bias;
};

HalfLayout layout(HalfFormat format)
{
    return format == HalfFormat::F16 ? HalfLayout{5, 10, 15} : HalfLayout{8, 7, 127};
}

} // namespace

double halfToDouble(std::uint16_t bits, HalfFormat format)
{
    const HalfLayout l = layout(format);
    const bool negative = (bits >> 15) & 1u;
    const int exponent = (bits >> l.fractionBits) & ((1 << l.exponentBits) - 1);
    const int fraction = bits & ((1 << l.fractionBits) - 1);
    double value = 0;
    if (exponent == (1 << l.exponentBits) - 1)
        value = fraction == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        value = std::ldexp(static_cast<double>(fraction), 1 - l.bias - l.fractionBits);
    else
        value = std::ldexp(static_cast<double>(fraction | (1 << l.fractionBits)), exponent - l.bias - l.fractionBits);
    return negative ? -value : value;
}

bool isHalfSubnormal(std::uint16_t bits, HalfFormat format)
{
    const HalfLayout l = layout(format);
    return ((bits >> l.fractionBits) & ((1 << l.exponentBits) - 1)) == 0 && (bits & ((1 << l.fractionBits) - 1)) != 0;
}

bool isHalfNan(std::uint16_t bits, HalfFormat format)
{
    const HalfLayout l = layout(format);
    return ((bits >> l.fractionBits) & ((1 << l.exponentBits) - 1)) == (1 << l.exponentBits) - 1 &&
           (bits & ((1 << l.fractionBits) - 1)) != 0;
}

std::uint16_t halfFromDouble(double value, HalfFormat format, RoundingDirection direction, bool satfinite)
{
    const HalfLayout l = layout(format);
    if (std::isnan(value))
        return kCanonicalNanHalf;
    const bool negative = std::signbit(value);
    const std::uint16_t sign = negative ? 0x8000u : 0u;
    const int maxExponentField = (1 << l.exponentBits) - 1;
    const std::uint16_t infinity = static_cast<std::uint16_t>(sign | (maxExponentField << l.fractionBits));
    const std::uint16_t largest = static_cast<std::uint16_t>(infinity - 1);
    const double magnitude = std::fabs(value);
    // Rounding away from zero is what this direction does to a value of this sign.
    const bool awayFromZero = direction == RoundingDirection::NearestEven ||
                              (direction == RoundingDirection::Up && !negative) ||
                              (direction == RoundingDirection::Down && negative);
    if (std::isinf(magnitude))
        return satfinite ? largest : infinity;
    if (magnitude == 0)
        return sign;
    // The quantum (value of the last fraction bit) at this magnitude; subnormals share the smallest.
    int exponent = 0;
    std::frexp(magnitude, &exponent); // magnitude = m * 2^exponent, m in [0.5, 1)
    const int minNormal = 1 - l.bias;
    const int unbiased = std::max(exponent - 1, minNormal);
    const double quantum = std::ldexp(1.0, unbiased - l.fractionBits);
    const double scaled = magnitude / quantum; // exact: a power-of-two scaling
    double units = std::floor(scaled);
    const double rest = scaled - units;
    if (rest > 0) {
        switch (direction) {
        case RoundingDirection::NearestEven:
            if (rest > 0.5 || (rest == 0.5 && std::fmod(units, 2.0) != 0)) units += 1;
            break;
        case RoundingDirection::TowardZero: break;
        case RoundingDirection::Down: if (negative) units += 1; break;
        case RoundingDirection::Up: if (!negative) units += 1; break;
        }
    }
    const double rounded = units * quantum;
    const double limit = std::ldexp(1.0, maxExponentField - 1 - l.bias + 1); // 2^(emax + 1)
    if (rounded >= limit)
        return satfinite || !awayFromZero ? largest : infinity;
    if (units == 0)
        return sign;
    // Encode: subnormal when below the smallest normal.
    if (rounded < std::ldexp(1.0, minNormal))
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
    int roundedExponent = 0;
    std::frexp(rounded, &roundedExponent);
    const int field = roundedExponent - 1 + l.bias;
    const double fraction = std::ldexp(rounded, -(roundedExponent - 1)) - 1.0; // in [0, 1)
    const auto fractionBits = static_cast<std::uint16_t>(std::ldexp(fraction, l.fractionBits));
    return static_cast<std::uint16_t>(sign | (field << l.fractionBits) | fractionBits);
}

double sumRoundedToOdd(double a, double b)
{
    const double sum = a + b;
    if (!std::isfinite(sum))
        return sum;
    // Knuth's TwoSum: the exact error of the rounded sum.
    const double bPart = sum - a;
    const double error = (a - (sum - bPart)) + (b - bPart);
    if (error == 0)
        return sum;
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(sum);
    if ((bits & 1u) != 0)
        return sum;
    // Even and inexact: step to the odd neighbour on the error's side.
    return std::nextafter(sum, error > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
}

float approximateEx2(float x, bool ftz) { return finish(std::exp2(static_cast<double>(flush(x, ftz))), ftz); }

float approximateLg2(float x, bool ftz) { return finish(std::log2(static_cast<double>(flush(x, ftz))), ftz); }

// 1/sqrt(-0) = -inf and 1/sqrt(+0) = +inf, as the ISA's table says; negative inputs give NaN.
float approximateRsqrt(float x, bool ftz)
{
    return finish(1.0 / std::sqrt(static_cast<double>(flush(x, ftz))), ftz);
}

double approximateRsqrt(double x)
{
    const long double value = 1.0L / std::sqrt(static_cast<long double>(x));
    return std::isnan(value) ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(value);
}

float approximateSin(float x, bool ftz) { return finish(std::sin(static_cast<double>(flush(x, ftz))), ftz); }

float approximateCos(float x, bool ftz) { return finish(std::cos(static_cast<double>(flush(x, ftz))), ftz); }

float approximateTanh(float x) { return finish(std::tanh(static_cast<double>(x)), false); }

std::uint16_t approximateEx2(std::uint16_t x, HalfFormat format, bool ftz)
{
    if (ftz && isHalfSubnormal(x, format))
        x &= 0x8000u;
    const std::uint16_t result = halfFromDouble(std::exp2(halfToDouble(x, format)), format, RoundingDirection::NearestEven);
    return ftz && isHalfSubnormal(result, format) ? static_cast<std::uint16_t>(result & 0x8000u) : result;
}

std::uint16_t approximateTanh(std::uint16_t x, HalfFormat format)
{
    return halfFromDouble(std::tanh(halfToDouble(x, format)), format, RoundingDirection::NearestEven);
}

const std::vector<ApproximationBound>& approximationBounds()
{
    using K = ApproximationBound::Kind;
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr double pi = 3.14159265358979323846;
    static const std::vector<ApproximationBound> bounds = {
        {"ex2.approx.f32", K::Ulp, 2.0, -inf, inf,
         "The maximum ulp error is 2 ulp from correctly rounded result across the full range of inputs."},
        {"lg2.approx.f32", K::Absolute, std::exp2(-22.0), 0.5, 2.0,
         "The maximum absolute error is 2^-22 when the input operand is in the range (0.5, 2)."},
        {"lg2.approx.f32", K::Relative, std::exp2(-22.0), 0.0, inf,
         "For positive finite inputs outside of this interval, maximum relative error is 2^-22."},
        {"rsqrt.approx.f32", K::Relative, std::exp2(-22.9), 0.0, inf,
         "The maximum relative error for rsqrt.f32 over the entire positive finite floating-point range is 2^-22.9."},
        {"sin.approx.f32", K::Absolute, std::exp2(-20.5), -2 * pi, 2 * pi,
         "The maximum absolute error over [-2pi .. 2pi] is 2^-20.5."},
        {"sin.approx.f32", K::Absolute, std::exp2(-14.7), -100 * pi, 100 * pi,
         "The maximum absolute error over [-100pi .. +100pi] is 2^-14.7; outside it, no defined guarantee."},
        {"cos.approx.f32", K::Absolute, std::exp2(-20.5), -2 * pi, 2 * pi,
         "The maximum absolute error over [-2pi .. 2pi] is 2^-20.5."},
        {"cos.approx.f32", K::Absolute, std::exp2(-14.7), -100 * pi, 100 * pi,
         "The maximum absolute error over [-100pi .. +100pi] is 2^-14.7; outside it, no defined guarantee."},
        {"tanh.approx.f32", K::Relative, std::exp2(-11.0), -inf, inf,
         "The maximum relative error over the entire floating point range is 2^-11."},
        {"rcp.approx.f32", K::Ulp, 1.0, -inf, inf, "The maximum ulp error is 1 across the full range of inputs."},
        {"sqrt.approx.f32", K::Relative, std::exp2(-23.0), 0.0, inf,
         "The maximum relative error over the entire positive finite floating-point range is 2^-23."},
        {"div.approx.f32", K::Ulp, 2.0, std::exp2(-126.0), std::exp2(126.0),
         "For |b| in [2^-126, 2^126], the maximum ulp error is 2 (the range is the divisor's)."},
        {"div.full.f32", K::Ulp, 2.0, -inf, inf, "The maximum ulp error is 2 across the full range of inputs."},
        {"ex2.approx.f16", K::Relative, std::exp2(-9.9), -inf, inf, "The maximum relative error for .f16 type is 2^-9.9."},
        {"ex2.approx.ftz.bf16", K::Relative, std::exp2(-7.0), -inf, inf, "The maximum relative error for .bf16 type is 2^-7."},
        {"tanh.approx.f16", K::Absolute, std::exp2(-10.987), -inf, inf, "The maximum absolute error for .f16 type is 2^-10.987."},
        {"tanh.approx.bf16", K::Absolute, std::exp2(-8.0), -inf, inf, "The maximum absolute error for .bf16 type is 2^-8."},
    };
    return bounds;
}

} // namespace warpscope::sim
