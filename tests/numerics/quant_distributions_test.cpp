// The lab's synthetic data: the generator against the published SplitMix64 value, the streams
// against an independent Python reimplementation (bit patterns and hashes), the series logarithm
// against libm, and each distribution's shape against its textbook moments and probabilities.
#include "numerics/distributions.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

using namespace warpscope::numerics;

namespace {

// FNV-1a-style 64-bit hash of the float bit patterns (the same loop in the Python reference).
std::uint64_t hashBits(const std::vector<float>& values)
{
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const float value : values)
        hash = (hash ^ std::bit_cast<std::uint32_t>(value)) * 0x100000001b3ull;
    return hash;
}

struct Moments {
    double mean = 0, variance = 0, kurtosis = 0;
};

Moments moments(const std::vector<float>& values)
{
    double sum = 0;
    for (const float x : values)
        sum += x;
    const double n = static_cast<double>(values.size());
    Moments m;
    m.mean = sum / n;
    double m2 = 0, m4 = 0;
    for (const float x : values) {
        const double d = x - m.mean;
        m2 += d * d;
        m4 += d * d * d * d;
    }
    m.variance = m2 / n;
    m.kurtosis = (m4 / n) / (m.variance * m.variance);
    return m;
}

double shareAbove(const std::vector<float>& values, double threshold)
{
    std::size_t count = 0;
    for (const float x : values)
        count += std::abs(x) > threshold ? 1 : 0;
    return static_cast<double>(count) / static_cast<double>(values.size());
}

} // namespace

TEST(QuantDistributions, SplitMixMatchesTheReferenceStream)
{
    // Vigna's splitmix64.c seeded with 0: the first output is 0xE220A8397B1DCDAF.
    SplitMix64 random(0);
    EXPECT_EQ(random.next(), 0xE220A8397B1DCDAFull);
    SplitMix64 a(99), b(99);
    for (int i = 0; i < 1000; ++i) {
        const double u = a.uniform01();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        const double open = b.uniformOpen();
        ASSERT_GT(open, 0.0);
        ASSERT_LT(open, 1.0);
    }
}

TEST(QuantDistributions, PortableLogAgreesWithLibm)
{
    SplitMix64 random(5);
    for (int i = 0; i < 200000; ++i) {
        // Log-uniform over 2^-1074 .. 2^1023, plus the neighbourhood of 1 where log is small.
        const double x = i % 2 == 0 ? std::ldexp(0.5 + 0.5 * random.uniform01(), static_cast<int>(random.next() % 2097) - 1073)
                                    : 1 + (random.uniform01() - 0.5) * 1e-3;
        const double expected = std::log(x);
        const double ulp = std::nextafter(std::abs(expected), HUGE_VAL) - std::abs(expected);
        ASSERT_LE(std::abs(portableLog(x) - expected), 2 * ulp) << x;
    }
    EXPECT_EQ(portableLog(1.0), 0.0);
    EXPECT_DOUBLE_EQ(portableLog(2.0), std::log(2.0));
    EXPECT_TRUE(std::isinf(portableLog(0.0)));
    EXPECT_TRUE(std::isnan(portableLog(-1.0)));
}

TEST(QuantDistributions, StreamsMatchAnIndependentReimplementation)
{
    // The first six values for seed 42 and a hash of the first 100,000 for seed 7, from a Python
    // reimplementation (SplitMix64, polar method, atanh-series log, float rounding) run on IEEE doubles.
    const std::vector<float> gaussian = generateValues(Distribution::Gaussian, 6, 42);
    const float expectedGaussian[] = {0x1.f8c80ep-2f, -0x1.6354b6p-1f, -0x1.47f4b0p+0f, -0x1.cd98e8p-1f, -0x1.34295ap-1f, 0x1.48fea0p-1f};
    const std::vector<float> laplace = generateValues(Distribution::Laplace, 6, 42);
    const float expectedLaplace[] = {0x1.dddd54p-2f, -0x1.9cb8dap-1f, -0x1.a775c0p-2f, -0x1.0e611ap-2f, -0x1.d258dep+0f, 0x1.e2ca9cp-1f};
    const std::vector<float> uniform = generateValues(Distribution::Uniform, 6, 42);
    const float expectedUniform[] = {0x1.ac71bep-1f, -0x1.2d984ap+0f, -0x1.88ad6ep-1f, -0x1.1458b2p-1f, -0x1.99adf2p+0f, 0x1.468c60p+0f};
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(gaussian[i], expectedGaussian[i]) << i;
        EXPECT_EQ(laplace[i], expectedLaplace[i]) << i;
        EXPECT_EQ(uniform[i], expectedUniform[i]) << i;
    }
    EXPECT_EQ(hashBits(generateValues(Distribution::Gaussian, 100000, 7)), 0x1772deb7d07b8119ull);
    EXPECT_EQ(hashBits(generateValues(Distribution::Laplace, 100000, 7)), 0x26a8cc9451b339b8ull);
    EXPECT_EQ(hashBits(generateValues(Distribution::Uniform, 100000, 7)), 0x8e2aa3ca48c33e75ull);
    EXPECT_EQ(hashBits(generateValues(Distribution::GaussianOutliers, 100000, 7)), 0xf5b95fa4c1d0197aull);
}

TEST(QuantDistributions, SameSeedSameValuesOtherSeedOtherValues)
{
    EXPECT_EQ(generateValues(Distribution::Laplace, 1000, 3), generateValues(Distribution::Laplace, 1000, 3));
    EXPECT_NE(generateValues(Distribution::Laplace, 1000, 3), generateValues(Distribution::Laplace, 1000, 4));
    // A shorter run is a prefix of a longer one (the Gaussian's odd count keeps its pairs in order).
    const std::vector<float> longer = generateValues(Distribution::Gaussian, 1001, 3);
    const std::vector<float> shorter = generateValues(Distribution::Gaussian, 999, 3);
    EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
    EXPECT_TRUE(generateValues(Distribution::Uniform, 0, 1).empty());
}

TEST(QuantDistributions, ShapesMatchTheTextbook)
{
    const std::size_t n = 400000;
    // Standard errors at n = 4e5: mean 1.6e-3, variance 2.2e-3 (Gaussian) to 4e-3 (Laplace).
    const std::vector<float> gaussian = generateValues(Distribution::Gaussian, n, 11);
    const Moments g = moments(gaussian);
    EXPECT_NEAR(g.mean, 0, 0.006);
    EXPECT_NEAR(g.variance, 1, 0.009);
    EXPECT_NEAR(g.kurtosis, 3, 0.05);
    EXPECT_NEAR(shareAbove(gaussian, 1), 0.317311, 0.003); // 2 Q(1)
    EXPECT_NEAR(shareAbove(gaussian, 3), 0.0026998, 0.0004); // 2 Q(3)

    const std::vector<float> laplace = generateValues(Distribution::Laplace, n, 12);
    const Moments l = moments(laplace);
    EXPECT_NEAR(l.mean, 0, 0.006);
    EXPECT_NEAR(l.variance, 1, 0.016);
    EXPECT_NEAR(l.kurtosis, 6, 0.3);
    EXPECT_NEAR(shareAbove(laplace, 1), std::exp(-std::sqrt(2.0)), 0.003); // P(|x| > t) = exp(-t / b)

    const std::vector<float> uniform = generateValues(Distribution::Uniform, n, 13);
    const Moments u = moments(uniform);
    EXPECT_NEAR(u.mean, 0, 0.006);
    EXPECT_NEAR(u.variance, 1, 0.006);
    EXPECT_NEAR(u.kurtosis, 1.8, 0.02);
    EXPECT_NEAR(shareAbove(uniform, 1), 1 - 1 / std::sqrt(3.0), 0.003);
    for (const float x : uniform)
        ASSERT_LE(std::abs(x), std::sqrt(3.0f));
}

TEST(QuantDistributions, OutliersAreFewAndLarge)
{
    const std::size_t n = 1000000;
    const std::vector<float> plain = generateValues(Distribution::Gaussian, n, 21);
    const std::vector<float> withOutliers = generateValues(Distribution::GaussianOutliers, n, 21);
    std::size_t changed = 0, large = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (plain[i] != withOutliers[i]) {
            ++changed;
            EXPECT_GE(std::abs(withOutliers[i]), kOutlierMinSigma);
            EXPECT_LE(std::abs(withOutliers[i]), kOutlierMaxSigma);
        }
        large += std::abs(withOutliers[i]) >= kOutlierMinSigma ? 1 : 0;
    }
    // 100 draws of a place among 10^6: a repeat is possible (probability ~0.5%), never more than a few.
    EXPECT_LE(changed, 100u);
    EXPECT_GE(changed, 98u);
    EXPECT_EQ(large, changed);
    EXPECT_EQ(generateValues(Distribution::GaussianOutliers, 10, 1).size(), 10u);
}

TEST(QuantDistributions, KeysParse)
{
    for (const DistributionInfo& info : allDistributions()) {
        ASSERT_TRUE(parseDistribution(info.key).has_value());
        EXPECT_EQ(*parseDistribution(info.key), info.kind);
        EXPECT_EQ(distributionInfo(info.kind).key, info.key);
    }
    EXPECT_EQ(parseDistribution("outliers"), Distribution::GaussianOutliers);
    EXPECT_FALSE(parseDistribution("normal").has_value());
    EXPECT_EQ(distributionKeys(), "gaussian, laplace, uniform, outliers");
}
