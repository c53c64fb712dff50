// Golden-section search for the minimum of a unimodal function on [a, b], shared by the MSE
// calibrator (on sampled data) and the Gaussian theory (on the closed form).
#pragma once

#include <utility>

namespace warpscope::numerics {

// Shrinks [a, b] by the inverse golden ratio per step, for at most `maxSteps` steps or until
// b - a <= tolerance. Returns the better of the two interior points and its value.
template <typename Objective>
std::pair<double, double> goldenSectionMinimum(double a, double b, Objective f, int maxSteps, double tolerance)
{
    const double inverseGolden = 0.61803398874989484820;
    double c = b - inverseGolden * (b - a), d = a + inverseGolden * (b - a);
    double fc = f(c), fd = f(d);
    for (int step = 0; step < maxSteps && b - a > tolerance; ++step) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - inverseGolden * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inverseGolden * (b - a);
            fd = f(d);
        }
    }
    return fc <= fd ? std::pair{c, fc} : std::pair{d, fd};
}

} // namespace warpscope::numerics
