// Directed rounding and the approximate instructions (float_math.h).
//
// This file is compiled with -frounding-math (core/CMakeLists.txt), so the compiler neither folds
// nor moves floating-point operations on the assumption of round-to-nearest; every directed
// operation also reads its operands and writes its result through volatile variables between the
// two fesetround calls, so it cannot be scheduled outside them.
#include "sim/float_math.h"

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
    };
    return bounds;
}

} // namespace warpscope::sim
