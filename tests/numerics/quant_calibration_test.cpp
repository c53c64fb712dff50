// Calibrators against independent expectations: percentiles by hand and against numpy's rule,
// the entropy calibrator against hand-worked KL divergences and a direct (quadratic) transcription
// of the TensorRT algorithm, and the MSE search against a dense brute-force scan.
#include "numerics/calibration.h"
#include "numerics/distributions.h"
#include "numerics/quant_theory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace warpscope::numerics;

namespace {

// The algorithm as Migacz's slides state it, one candidate at a time: build P and Q bin by bin,
// normalise, smooth (eps where P has mass and Q has none, the rest scaled by 1 - eps), sum P log P/Q.
std::vector<double> directDivergences(const std::vector<std::uint64_t>& hist, std::size_t levels)
{
    std::vector<double> out;
    for (std::size_t i = levels; i <= hist.size(); ++i) {
        std::vector<double> p(hist.begin(), hist.begin() + static_cast<std::ptrdiff_t>(i));
        for (std::size_t k = i; k < hist.size(); ++k)
            p[i - 1] += static_cast<double>(hist[k]);
        std::vector<double> levelSum(levels, 0), levelBins(levels, 0), q(i, 0);
        for (std::size_t k = 0; k < i; ++k) {
            const std::size_t j = k * levels / i;
            levelSum[j] += static_cast<double>(hist[k]);
            levelBins[j] += hist[k] > 0 ? 1 : 0;
        }
        for (std::size_t k = 0; k < i; ++k)
            if (hist[k] > 0)
                q[k] = levelSum[k * levels / i] / levelBins[k * levels / i];
        double pSum = 0, qSum = 0;
        for (std::size_t k = 0; k < i; ++k) {
            pSum += p[k];
            qSum += q[k];
        }
        if (qSum == 0) {
            out.push_back(std::numeric_limits<double>::infinity());
            continue;
        }
        std::size_t missing = 0;
        for (std::size_t k = 0; k < i; ++k)
            missing += (p[k] > 0 && q[k] == 0) ? 1 : 0;
        double kl = 0;
        for (std::size_t k = 0; k < i; ++k) {
            if (p[k] == 0)
                continue;
            const double pk = p[k] / pSum;
            const double qk = q[k] == 0 ? 1e-4 : q[k] / qSum * (missing > 0 ? 1 - 1e-4 * static_cast<double>(missing) : 1.0);
            kl += pk * std::log(pk / qk);
        }
        out.push_back(kl);
    }
    return out;
}

std::vector<std::uint64_t> absHistogram(const std::vector<float>& values, std::size_t bins)
{
    const double top = absMax(values);
    std::vector<std::uint64_t> hist(bins, 0);
    for (const float v : values)
        ++hist[std::min(bins - 1, static_cast<std::size_t>(std::abs(v) * (static_cast<double>(bins) / top)))];
    return hist;
}

} // namespace

TEST(QuantCalibration, PercentilesInterpolateLikeNumpy)
{
    std::vector<float> values;
    for (int k = 1; k <= 100; ++k)
        values.push_back(k % 2 ? static_cast<float>(k) : -static_cast<float>(k)); // |x| = 1 .. 100
    EXPECT_DOUBLE_EQ(percentile(values, 50), 50.5);   // numpy.percentile(1..100, 50)
    EXPECT_NEAR(percentile(values, 99), 99.01, 1e-12); // rank 98.01
    EXPECT_DOUBLE_EQ(percentile(values, 100), 100.0);
    EXPECT_DOUBLE_EQ(percentile(values, 0), 1.0);
    EXPECT_DOUBLE_EQ(percentile(values, 0, false), -100.0); // signed: the most negative
    EXPECT_DOUBLE_EQ(percentile(values, 100, false), 99.0);
    EXPECT_DOUBLE_EQ(absMax(values), 100.0);
    EXPECT_DOUBLE_EQ(percentile(std::vector<float>{3.0f}, 40), 3.0);
}

TEST(QuantCalibration, EntropyByHand)
{
    // {4, 2, 1, 1} into 2 levels. i = 2: P = {4, 4}/8, Q = {4, 2}/6: KL = ln(1.125)/2 = 0.058892.
    // i = 3: P = {4, 2, 2}/8, levels {0, 1}, {2}: Q = {3, 3, 1}/7: 0.082229. i = 4: P = {4, 2, 1, 1}/8,
    // Q = {3, 3, 1, 1}/8: ln(4/3)/2 + ln(2/3)/4 = 0.042475, the least: threshold 4 bins.
    const std::vector<std::uint64_t> hist = {4, 2, 1, 1};
    const EntropyCalibration e = entropyFromHistogram(hist, 0.5, 2);
    ASSERT_EQ(e.divergence.size(), 3u);
    EXPECT_NEAR(e.divergence[0], 0.5 * std::log(1.125), 1e-12);
    EXPECT_NEAR(e.divergence[1], 0.5 * std::log(7.0 / 6) + 0.25 * std::log(7.0 / 12) + 0.25 * std::log(7.0 / 4), 1e-12);
    EXPECT_NEAR(e.divergence[2], 0.5 * std::log(4.0 / 3) + 0.25 * std::log(2.0 / 3), 1e-12);
    EXPECT_EQ(e.bestBins, 4u);
    EXPECT_DOUBLE_EQ(e.threshold, 2.0);

    // {4, 0, 2}: at i = 2 the folded mass lands in an empty bin that Q lacks: Q gets 1e-4 there.
    // P = {2/3, 1/3}, Q = {1 - 1e-4, 1e-4}. At i = 3 Q = P exactly: KL = 0, threshold 3 bins.
    const EntropyCalibration s = entropyFromHistogram(std::vector<std::uint64_t>{4, 0, 2}, 1.0, 2);
    ASSERT_EQ(s.divergence.size(), 2u);
    EXPECT_NEAR(s.divergence[0], 2.0 / 3 * std::log(2.0 / 3 / (1 - 1e-4)) + 1.0 / 3 * std::log(1.0 / 3 / 1e-4), 1e-12);
    EXPECT_NEAR(s.divergence[1], 0.0, 1e-15);
    EXPECT_EQ(s.bestBins, 3u);
}

TEST(QuantCalibration, EntropyMatchesTheDirectAlgorithm)
{
    struct Case {
        std::vector<float> values;
        std::size_t bins, levels;
    };
    std::vector<Case> cases;
    cases.push_back({generateValues(Distribution::Gaussian, 200000, 1), 2048, 128});
    cases.push_back({generateValues(Distribution::Laplace, 200000, 2), 2048, 128});
    cases.push_back({generateValues(Distribution::GaussianOutliers, 100000, 3), 2048, 128}); // sparse top
    cases.push_back({generateValues(Distribution::Uniform, 50000, 4), 1000, 8});
    cases.push_back({generateValues(Distribution::Gaussian, 300, 5), 600, 128}); // mostly empty bins
    for (const Case& c : cases) {
        const std::vector<std::uint64_t> hist = absHistogram(c.values, c.bins);
        const EntropyCalibration fast = entropyFromHistogram(hist, 1.0, c.levels);
        const std::vector<double> direct = directDivergences(hist, c.levels);
        ASSERT_EQ(fast.divergence.size(), direct.size());
        std::size_t bestDirect = 0;
        for (std::size_t k = 0; k < direct.size(); ++k) {
            if (std::isinf(direct[k]))
                ASSERT_TRUE(std::isinf(fast.divergence[k]));
            else
                ASSERT_NEAR(fast.divergence[k], direct[k], 1e-9 * std::max(1.0, std::abs(direct[k]))) << k;
            if (direct[k] <= direct[bestDirect])
                bestDirect = k;
        }
        // Exact ties cannot be told apart after rounding; near-ties must pick a near-equal minimum.
        EXPECT_NEAR(fast.divergence[fast.bestBins - c.levels], direct[bestDirect], 1e-9);
        EXPECT_DOUBLE_EQ(fast.threshold, static_cast<double>(fast.bestBins));
    }
}

TEST(QuantCalibration, EntropyIgnoresOutliersAndKeepsTheBulk)
{
    // With 1 in 10^4 values at 10-20 sigma, max calibration spreads INT8's grid over empty range;
    // the KL threshold stays with the Gaussian bulk (below 6 sigma). On the bulk (|x| <= 3) the
    // error is rounding alone, so its MSE falls with the square of the step: (max / threshold)^2.
    const std::vector<float> values = generateValues(Distribution::GaussianOutliers, 1000000, 6);
    const EntropyCalibration e = entropyCalibration(values, 128);
    const double top = absMax(values);
    EXPECT_GT(top, 10.0);
    EXPECT_LT(e.threshold, 6.0);
    EXPECT_GT(e.threshold, 3.0);
    EXPECT_NEAR(e.binWidth, top / 2048, 1e-12);
    QuantConfig c;
    c.calibrator = Calibrator::Max;
    const QuantResult max = quantize(values, c);
    c.calibrator = Calibrator::Entropy;
    const QuantResult entropy = quantize(values, c);
    double maxBulk = 0, entropyBulk = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::abs(values[i]) > 3)
            continue;
        maxBulk += std::pow(max.dequantized[i] - values[i], 2);
        entropyBulk += std::pow(entropy.dequantized[i] - values[i], 2);
    }
    EXPECT_NEAR(maxBulk / entropyBulk, std::pow(top / e.threshold, 2), 0.02 * std::pow(top / e.threshold, 2));
    // What the bulk gains, the clipped outliers pay back in squared error: their (|x| - t)^2 is the
    // rest of the entropy result's noise, and by MSE (SQNR) max calibration wins here.
    double clipping = 0;
    for (const float v : values)
        clipping += std::abs(v) > e.threshold ? std::pow(std::abs(v) - e.threshold, 2) : 0.0;
    EXPECT_NEAR(entropy.stats.mse * static_cast<double>(values.size()), clipping + entropyBulk, 0.01 * clipping + 0.1 * entropyBulk);
    EXPECT_LT(entropy.stats.sqnrDb, max.stats.sqnrDb);
}

TEST(QuantCalibration, MseSearchFindsTheSamplesOptimum)
{
    // The search against a scan of 4000 clips: nothing on the scan may beat it.
    for (const Format format : {Format::INT8, Format::INT4, Format::FP8E4M3}) {
        const std::vector<float> values = generateValues(Distribution::Laplace, 20000, 7);
        const double clip = mseOptimalClip(values, format);
        const auto mseAt = [&](double c) {
            return quantizationMse(values, quantParams({-c, c}, format, QuantScheme::Symmetric), format);
        };
        const double found = mseAt(clip);
        const double top = absMax(values);
        double bestScan = found;
        for (int k = 1; k <= 4000; ++k)
            bestScan = std::min(bestScan, mseAt(top * k / 4000));
        EXPECT_LE(found, bestScan * (1 + 2e-3)) << formatInfo(format).key;
        EXPECT_GT(clip, 0.0);
        EXPECT_LE(clip, top);
    }
    // Asymmetric: one-sided data keeps its lower end at 0 and improves on max calibration.
    std::vector<float> relu = generateValues(Distribution::Laplace, 20000, 8);
    for (float& v : relu)
        v = std::max(v, 0.0f);
    const ClipRange range = mseOptimalRange(relu, Format::INT4);
    EXPECT_EQ(range.low, 0.0);
    EXPECT_LT(range.high, absMax(relu));
    const double atOptimum = quantizationMse(relu, quantParams(range, Format::INT4, QuantScheme::Asymmetric), Format::INT4);
    const double atMax = quantizationMse(relu, quantParams({0, absMax(relu)}, Format::INT4, QuantScheme::Asymmetric), Format::INT4);
    EXPECT_LT(atOptimum, atMax);
}

TEST(QuantCalibration, MseClipOfTheGaussianMatchesTheory)
{
    // The sample's optimum lies near the population's (theory: 3.92 sigma for INT8, 2.47 for INT4);
    // INT8's MSE curve is flat there, so its sample optimum wanders more.
    const std::vector<float> values = generateValues(Distribution::Gaussian, 200000, 9);
    EXPECT_NEAR(mseOptimalClip(values, Format::INT8), gaussianMseOptimalClip(8), 0.25);
    EXPECT_NEAR(mseOptimalClip(values, Format::INT4), gaussianMseOptimalClip(4), 0.05);
}

TEST(QuantCalibration, CalibrateDispatchesPerScheme)
{
    std::vector<float> values;
    for (int k = -50; k <= 150; ++k)
        values.push_back(static_cast<float>(k));
    QuantConfig c;
    c.calibrator = Calibrator::Max;
    ClipRange r = calibrate(values, c);
    EXPECT_DOUBLE_EQ(r.low, -150.0);
    EXPECT_DOUBLE_EQ(r.high, 150.0);
    c.scheme = QuantScheme::Asymmetric;
    r = calibrate(values, c);
    EXPECT_DOUBLE_EQ(r.low, -50.0);
    EXPECT_DOUBLE_EQ(r.high, 150.0);
    c.calibrator = Calibrator::Percentile;
    c.percentile = 90;
    r = calibrate(values, c); // signed 10th and 90th percentiles of -50..150: ranks 20 and 180
    EXPECT_DOUBLE_EQ(r.low, -30.0);
    EXPECT_DOUBLE_EQ(r.high, 130.0);
    c.scheme = QuantScheme::Symmetric;
    r = calibrate(values, c); // 90th percentile of |x|: rank 180 of the sorted magnitudes
    std::vector<float> magnitudes;
    for (const float v : values)
        magnitudes.push_back(std::abs(v));
    std::sort(magnitudes.begin(), magnitudes.end());
    EXPECT_DOUBLE_EQ(r.high, magnitudes[180]);
    EXPECT_DOUBLE_EQ(r.low, -r.high);
    // FP8 is symmetric even when asked otherwise inside calibrate.
    c.format = Format::FP8E5M2;
    c.calibrator = Calibrator::Max;
    c.scheme = QuantScheme::Asymmetric;
    r = calibrate(values, c);
    EXPECT_DOUBLE_EQ(r.low, -150.0);
    // Entropy levels: 2^(b-1), FP8 128.
    EXPECT_EQ(entropyLevels(Format::INT8), 128u);
    EXPECT_EQ(entropyLevels(Format::INT4), 8u);
    EXPECT_EQ(entropyLevels(Format::FP8E4M3), 128u);
}

TEST(QuantCalibration, EntropyWorksOnSmallSlices)
{
    // Groups of 32 values: one bin per value (at least 2 x levels), a clip within the slice's range.
    const std::vector<float> values = generateValues(Distribution::Gaussian, 32, 10);
    QuantConfig c;
    c.calibrator = Calibrator::Entropy;
    c.format = Format::INT4;
    const ClipRange r = calibrate(values, c);
    EXPECT_GT(r.high, 0.0);
    EXPECT_LE(r.high, absMax(values) * (1 + 1e-12));
    const EntropyCalibration e = entropyCalibration(values, 8, 32);
    EXPECT_EQ(e.divergence.size(), 32u - 8 + 1);
    EXPECT_DOUBLE_EQ(r.high, e.threshold);
}
