// The issue's reference figures for N(0, 1), 10^6 samples, the symmetric narrow grid and
// scale = clip / (2^(b-1)-1), derived three ways: the closed-form theory (checked here against a
// brute-force Simpson integration written in this file), the sampled result of the quantizer for a
// fixed seed, and the figure the issue quotes.
//
// What the derivation gives (exact theory):
//   INT8, clip at the 99.99th percentile of |x| (3.8906):   40.54 dB  (issue: about 40.6)
//   INT8, MSE-optimal clip 3.9205:                          40.54 dB  (issue: about 40.6 at about 3.9)
//   INT8, max calibration with the max at 5.0:              38.89 dB  (issue: about 38.9)
//   INT4, MSE-optimal clip 2.4739:                          18.90 dB  (issue: about 18.9 at about 2.5)
//   INT4, max calibration at 5.0:                           13.71 dB, 5.18 dB lost (issue: about 5)
// The issue's 40.6 is 0.06 dB above the exact 40.54: within its "about" and the 0.2 dB asked for.
// A sample's INT8 figure moves with its few values beyond the clip: across seeds the sampled SQNR
// sits within about +-0.15 dB of the theory at the sample's own clip (INT4 and max: +-0.03).
#include "numerics/calibration.h"
#include "numerics/distributions.h"
#include "numerics/quant_theory.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace warpscope::numerics;

namespace {

constexpr std::uint64_t kSeed = 42;
constexpr std::size_t kSamples = 1000000;

double phi(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI); }
double upperTail(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }
double decibels(double signal, double noise) { return 10 * std::log10(signal / noise); }

// Composite Simpson of (x - level(x))^2 phi(x) over each rounding interval, the nearest level found
// by plain search, out to 12 sigma: independent of quant_theory's closed form.
double simpsonMse(int bits, double clip)
{
    const int levels = (1 << (bits - 1)) - 1;
    const double step = clip / levels;
    const auto nearest = [&](double x) {
        double best = 0;
        for (int k = -levels; k <= levels; ++k)
            if (std::abs(x - k * step) < std::abs(x - best))
                best = k * step;
        return best;
    };
    const auto integrate = [&](double a, double b, int n) {
        const double h = (b - a) / n;
        double sum = 0;
        const double level = nearest(0.5 * (a + b)); // the level this rounding interval maps to
        for (int i = 0; i <= n; ++i) {
            const double x = a + i * h;
            const double e = x - level;
            const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
            sum += w * e * e * phi(x);
        }
        return sum * h / 3;
    };
    double mse = 0;
    for (int k = -(levels - 1); k <= levels - 1; ++k)
        mse += integrate((k - 0.5) * step, (k + 0.5) * step, 64);
    // Beyond the last boundary everything rounds to +-clip: integrate to 12 sigma on each side.
    const double edge = (levels - 0.5) * step;
    const int n = 20000;
    const double h = (12 - edge) / n;
    double tail = 0;
    for (int i = 0; i <= n; ++i) {
        const double x = edge + i * h;
        const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        tail += w * (x - clip) * (x - clip) * phi(x);
    }
    return mse + 2 * tail * h / 3;
}

// The clipping noise of the sample itself: sum over |x| > c of (|x| - c)^2, divided by n.
double sampledClippingNoise(const std::vector<float>& values, double clip)
{
    double sum = 0;
    for (const float v : values)
        if (std::abs(v) > clip)
            sum += (std::abs(v) - clip) * (std::abs(v) - clip);
    return sum / static_cast<double>(values.size());
}

// The rounding part of the theory: the exact MSE less the clipping noise 2 int_c^inf (x - c)^2 phi.
double theoryRoundingNoise(int bits, double clip)
{
    const double clipping = 2 * ((1 + clip * clip) * upperTail(clip) - clip * phi(clip));
    return gaussianQuantMse(bits, clip) - clipping;
}

QuantResult quantizeGaussian(const std::vector<float>& values, Format format, Calibrator calibrator)
{
    QuantConfig config;
    config.format = format;
    config.calibrator = calibrator;
    config.percentile = 99.99;
    return quantize(values, config);
}

const std::vector<float>& gaussianSample()
{
    static const std::vector<float> values = generateValues(Distribution::Gaussian, kSamples, kSeed);
    return values;
}

} // namespace

TEST(QuantReference, TheoryAgreesWithNumericalIntegration)
{
    for (const int bits : {4, 8})
        for (const double clip : {2.5, 3.9, 5.0}) {
            const double exact = gaussianQuantMse(bits, clip);
            EXPECT_NEAR(exact, simpsonMse(bits, clip), 1e-7 * exact) << bits << " bits, clip " << clip;
            // The uniform-noise approximation is very close at 8 bits, close at 4.
            EXPECT_NEAR(gaussianQuantMseApprox(bits, clip), exact, (bits == 8 ? 1e-5 : 1e-3) * exact);
        }
    // Landmarks of N(0, 1): P(|x| > 3.8906) = 1e-4; the median max of 10^6 samples is about 4.96.
    EXPECT_NEAR(gaussianAbsPercentile(99.99), 3.890592, 1e-6);
    EXPECT_NEAR(2 * upperTail(gaussianAbsPercentile(95)), 0.05, 1e-12);
    const double median = gaussianMedianAbsMax(1e6);
    EXPECT_NEAR(std::pow(1 - 2 * upperTail(median), 1e6), 0.5, 1e-9);
}

TEST(QuantReference, IssueFiguresFromTheory)
{
    const double int8Optimum = gaussianMseOptimalClip(8);
    const double int4Optimum = gaussianMseOptimalClip(4);
    EXPECT_NEAR(int8Optimum, 3.9, 0.05);
    EXPECT_NEAR(int4Optimum, 2.5, 0.05);
    // The optimum is a minimum: a step either side costs MSE.
    EXPECT_LT(gaussianQuantMse(8, int8Optimum), gaussianQuantMse(8, int8Optimum - 0.05));
    EXPECT_LT(gaussianQuantMse(8, int8Optimum), gaussianQuantMse(8, int8Optimum + 0.05));

    const double int8Percentile = -10 * std::log10(gaussianQuantMse(8, gaussianAbsPercentile(99.99)));
    const double int8Mse = -10 * std::log10(gaussianQuantMse(8, int8Optimum));
    const double int8Max = -10 * std::log10(gaussianQuantMse(8, 5.0));
    const double int4Mse = -10 * std::log10(gaussianQuantMse(4, int4Optimum));
    const double int4Max = -10 * std::log10(gaussianQuantMse(4, 5.0));
    EXPECT_NEAR(int8Percentile, 40.536, 0.001);
    EXPECT_NEAR(int8Mse, 40.540, 0.001);
    EXPECT_NEAR(int8Max, 38.887, 0.001);
    EXPECT_NEAR(int4Mse, 18.898, 0.001);
    EXPECT_NEAR(int4Max, 13.714, 0.001);
    // Against the issue's figures, within the 0.2 dB it asks for.
    EXPECT_NEAR(int8Percentile, 40.6, 0.2);
    EXPECT_NEAR(int8Mse, 40.6, 0.2);
    EXPECT_NEAR(int8Max, 38.9, 0.2);
    EXPECT_NEAR(int4Mse, 18.9, 0.2);
    EXPECT_NEAR(int4Mse - int4Max, 5.0, 0.5); // "max calibration loses about 5 dB"
}

TEST(QuantReference, Int8PercentileClip)
{
    const std::vector<float>& x = gaussianSample();
    const QuantResult r = quantizeGaussian(x, Format::INT8, Calibrator::Percentile);
    const double clip = r.slices[0].params.clipHigh;
    EXPECT_NEAR(clip, gaussianAbsPercentile(99.99), 0.03); // the sample's percentile vs N(0, 1)'s
    EXPECT_EQ(r.stats.clipped, 100u);                       // 10^-4 of 10^6
    // The sample's MSE: theory's rounding noise plus the sample's own clipping noise, to 0.5%.
    EXPECT_NEAR(r.stats.mse, theoryRoundingNoise(8, clip) + sampledClippingNoise(x, clip), 0.005 * r.stats.mse);
    EXPECT_NEAR(r.stats.sqnrDb, decibels(r.stats.signalPower, gaussianQuantMse(8, clip)), 0.2);
    EXPECT_NEAR(r.stats.sqnrDb, 40.6, 0.2);
    EXPECT_NEAR(r.stats.sqnrDb, 40.588, 0.001); // this seed's value
}

TEST(QuantReference, Int8MseOptimalClip)
{
    const std::vector<float>& x = gaussianSample();
    const QuantResult r = quantizeGaussian(x, Format::INT8, Calibrator::Mse);
    const double clip = r.slices[0].params.clipHigh;
    EXPECT_NEAR(clip, 3.9, 0.1);
    EXPECT_NEAR(r.stats.mse, theoryRoundingNoise(8, clip) + sampledClippingNoise(x, clip), 0.005 * r.stats.mse);
    EXPECT_NEAR(r.stats.sqnrDb, decibels(r.stats.signalPower, gaussianQuantMse(8, clip)), 0.2);
    EXPECT_NEAR(r.stats.sqnrDb, 40.6, 0.2);
    // The search's optimum is at least as good as the percentile's clip on the same sample.
    EXPECT_GE(r.stats.sqnrDb, quantizeGaussian(x, Format::INT8, Calibrator::Percentile).stats.sqnrDb - 1e-9);
}

TEST(QuantReference, Int8MaxCalibration)
{
    const std::vector<float>& x = gaussianSample();
    const QuantResult r = quantizeGaussian(x, Format::INT8, Calibrator::Max);
    const double clip = r.slices[0].params.clipHigh;
    EXPECT_NEAR(clip, 5.0, 0.1); // this seed's maximum: 5.03 sigma
    EXPECT_EQ(r.stats.clipped, 0u);
    // Nothing is clipped: the noise is rounding alone, which theory predicts to 0.03 dB.
    EXPECT_NEAR(r.stats.sqnrDb, decibels(r.stats.signalPower, gaussianQuantMse(8, clip)), 0.03);
    EXPECT_NEAR(r.stats.sqnrDb, 38.9, 0.2);
    const double mseDb = quantizeGaussian(x, Format::INT8, Calibrator::Mse).stats.sqnrDb;
    EXPECT_GT(mseDb - r.stats.sqnrDb, 1.0); // "a little worse": 1.75 dB here
    EXPECT_LT(mseDb - r.stats.sqnrDb, 2.5);
}

TEST(QuantReference, MaxCalibrationFollowsTheSamplesMaximum)
{
    // Different seeds, different maxima: the sampled SQNR tracks theory at each sample's own max.
    for (const std::uint64_t seed : {1, 4, 8}) {
        const std::vector<float> x = generateValues(Distribution::Gaussian, kSamples, seed);
        const QuantResult r = quantizeGaussian(x, Format::INT8, Calibrator::Max);
        const double clip = r.slices[0].params.clipHigh;
        EXPECT_NEAR(r.stats.sqnrDb, decibels(r.stats.signalPower, gaussianQuantMse(8, clip)), 0.03) << seed;
        // 20 log10 of the ratio of steps: moving the max from 5.0 moves SQNR by 20 log10(5 / max).
        EXPECT_NEAR(r.stats.sqnrDb - 38.887, 20 * std::log10(5.0 / clip), 0.05) << seed;
    }
}

TEST(QuantReference, Int4MseOptimalAndMax)
{
    const std::vector<float>& x = gaussianSample();
    const QuantResult best = quantizeGaussian(x, Format::INT4, Calibrator::Mse);
    const double clip = best.slices[0].params.clipHigh;
    EXPECT_NEAR(clip, 2.5, 0.05);
    EXPECT_NEAR(best.stats.mse, theoryRoundingNoise(4, clip) + sampledClippingNoise(x, clip), 0.005 * best.stats.mse);
    EXPECT_NEAR(best.stats.sqnrDb, decibels(best.stats.signalPower, gaussianQuantMse(4, clip)), 0.05);
    EXPECT_NEAR(best.stats.sqnrDb, 18.9, 0.2);

    const QuantResult max = quantizeGaussian(x, Format::INT4, Calibrator::Max);
    EXPECT_NEAR(max.stats.sqnrDb, decibels(max.stats.signalPower, gaussianQuantMse(4, max.slices[0].params.clipHigh)), 0.03);
    EXPECT_NEAR(best.stats.sqnrDb - max.stats.sqnrDb, 5.0, 0.5); // 5.24 dB for this seed's max of 5.03
}
