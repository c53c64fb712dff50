#include "numerics/quant_theory.h"

#include "numerics/golden_section.h"

#include <cmath>

namespace warpscope::numerics {
namespace {

constexpr double kInverseSqrt2Pi = 0.39894228040143267794;
constexpr double kInverseSqrt2 = 0.70710678118654752440;

double density(double x) { return kInverseSqrt2Pi * std::exp(-0.5 * x * x); }
double upperTail(double x) { return 0.5 * std::erfc(x * kInverseSqrt2); } // Q(x) = 1 - Phi(x)

// int_l^u (x - a)^2 phi(x) dx, with Phi(u) - Phi(l) = Q(l) - Q(u) to keep the tails accurate.
double squaredDistanceMass(double l, double u, double a)
{
    const double mass = upperTail(l) - upperTail(u);
    return (1 + a * a) * mass + (2 * a - u) * density(u) - (2 * a - l) * density(l);
}

// int_l^inf (x - a)^2 phi(x) dx.
double squaredDistanceTail(double l, double a) { return (1 + a * a) * upperTail(l) - (2 * a - l) * density(l); }

// The root of an increasing g on [a, b] by bisection.
template <typename Function>
double bisect(double a, double b, Function g)
{
    for (int step = 0; step < 200 && b - a > 1e-15 * b; ++step) {
        const double m = 0.5 * (a + b);
        (g(m) < 0 ? a : b) = m;
    }
    return 0.5 * (a + b);
}

} // namespace

double gaussianQuantMse(int bits, double clip)
{
    const int levels = (1 << (bits - 1)) - 1;
    const double step = clip / levels;
    // By symmetry: level 0's interval once, levels 1 .. L-1 twice, and twice the saturating tail
    // that rounds to L (from (L - 1/2) s to infinity).
    double mse = squaredDistanceMass(-0.5 * step, 0.5 * step, 0);
    for (int k = 1; k < levels; ++k)
        mse += 2 * squaredDistanceMass((k - 0.5) * step, (k + 0.5) * step, k * step);
    return mse + 2 * squaredDistanceTail((levels - 0.5) * step, clip);
}

double gaussianQuantMseApprox(int bits, double clip)
{
    const int levels = (1 << (bits - 1)) - 1;
    const double step = clip / levels;
    const double inside = 1 - 2 * upperTail(clip);
    return step * step / 12 * inside + 2 * squaredDistanceTail(clip, clip);
}

double gaussianMseOptimalClip(int bits)
{
    // Converges to 1e-10 in about 50 steps; the cap only guards the loop.
    return goldenSectionMinimum(0.5, 8.0, [bits](double clip) { return gaussianQuantMse(bits, clip); }, 200, 1e-10).first;
}

double gaussianAbsPercentile(double p)
{
    const double outside = 1 - p / 100; // 2 Q(c)
    return bisect(0.0, 40.0, [outside](double c) { return outside - 2 * upperTail(c); });
}

double gaussianMedianAbsMax(double n)
{
    // (1 - 2 Q(c))^n = 1/2  <=>  n log1p(-2 Q(c)) = -log 2.
    return bisect(0.0, 40.0, [n](double c) { return n * std::log1p(-2 * upperTail(c)) + std::log(2.0); });
}

} // namespace warpscope::numerics
