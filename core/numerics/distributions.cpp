#include "numerics/distributions.h"

#include <algorithm>
#include <cmath>

namespace warpscope::numerics {

const std::vector<DistributionInfo>& allDistributions()
{
    static const std::vector<DistributionInfo> distributions = {
        {Distribution::Gaussian, "gaussian", "Gaussian N(0, 1)"},
        {Distribution::Laplace, "laplace", "Laplace (scale 1/sqrt 2, unit variance)"},
        {Distribution::Uniform, "uniform", "uniform on [-sqrt 3, sqrt 3) (unit variance)"},
        {Distribution::GaussianOutliers, "outliers", "Gaussian N(0, 1) with 1 in 10,000 values at 10 to 20 sigma"},
    };
    return distributions;
}

const DistributionInfo& distributionInfo(Distribution kind)
{
    return allDistributions()[static_cast<std::size_t>(kind)];
}

std::optional<Distribution> parseDistribution(std::string_view key)
{
    for (const DistributionInfo& info : allDistributions())
        if (info.key == key)
            return info.kind;
    return std::nullopt;
}

std::string distributionKeys()
{
    std::string keys;
    for (const DistributionInfo& info : allDistributions())
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    return keys;
}

std::uint64_t SplitMix64::next()
{
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double SplitMix64::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double SplitMix64::uniformOpen() { return (static_cast<double>(next() >> 12) + 0.5) * 0x1.0p-52; }

double portableLog(double x)
{
    if (!(x > 0) || std::isinf(x))
        return x == 0 ? -HUGE_VAL : (std::isinf(x) ? x : std::nan(""));
    int exponent = 0;
    double m = std::frexp(x, &exponent); // x = m 2^exponent, m in [0.5, 1): exact
    if (m < 0.70710678118654752440) {    // bring m into [sqrt(1/2), sqrt 2)
        m *= 2;
        --exponent;
    }
    // log m = log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| <= 0.1716; with 2s = f - f s this is
    // f - s (f - 2 s^2 R), R = 1/3 + s^2/5 + s^4/7 + ... (s^22 < 1e-16 R): f is exact (Sterbenz),
    // and the rounding of the small correction barely shows (the arrangement of fdlibm's e_log.c).
    const double f = m - 1;
    const double s = f / (2 + f);
    const double s2 = s * s;
    double r = 1.0 / 23;
    for (int k = 21; k >= 3; k -= 2)
        r = 1.0 / k + s2 * r;
    const double logM = f - s * (f - 2 * s2 * r);
    // ln 2 split so that exponent * ln2Hi is exact (Cody and Waite's constants, as in fdlibm's e_log.c).
    const double ln2Hi = 6.93147180369123816490e-01;
    const double ln2Lo = 1.90821492927058770002e-10;
    const double e = static_cast<double>(exponent);
    return e * ln2Hi + (e * ln2Lo + logM);
}

namespace {

// Marsaglia's polar method (Marsaglia and Bray, SIAM Review 6(3), 1964): two N(0, 1) per accepted pair.
void fillGaussian(std::vector<float>& out, SplitMix64& random)
{
    std::size_t i = 0;
    while (i < out.size()) {
        const double u = 2 * random.uniform01() - 1;
        const double v = 2 * random.uniform01() - 1;
        const double s = u * u + v * v;
        if (s >= 1 || s == 0)
            continue;
        const double factor = std::sqrt(-2 * portableLog(s) / s);
        out[i++] = static_cast<float>(u * factor);
        if (i < out.size())
            out[i++] = static_cast<float>(v * factor);
    }
}

// Inverse CDF of the Laplace distribution with scale b = 1/sqrt 2 (variance 2 b^2 = 1).
void fillLaplace(std::vector<float>& out, SplitMix64& random)
{
    const double b = 0.70710678118654752440;
    for (float& value : out) {
        const double u = random.uniformOpen();
        value = static_cast<float>(u < 0.5 ? b * portableLog(2 * u) : -b * portableLog(2 * (1 - u)));
    }
}

void fillUniform(std::vector<float>& out, SplitMix64& random)
{
    const double halfWidth = 1.73205080756887729353; // sqrt 3: variance (2 sqrt 3)^2 / 12 = 1
    for (float& value : out)
        value = static_cast<float>(halfWidth * (2 * random.uniform01() - 1));
}

// Replace round(share x count) values (at least one) at random places by +-[10, 20] sigma.
void addOutliers(std::vector<float>& out, SplitMix64& random)
{
    if (out.empty())
        return;
    const auto outliers = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(kOutlierShare * static_cast<double>(out.size()))));
    for (std::size_t k = 0; k < outliers; ++k) {
        const std::size_t index = static_cast<std::size_t>(random.next() % out.size());
        const double magnitude = kOutlierMinSigma + (kOutlierMaxSigma - kOutlierMinSigma) * random.uniform01();
        out[index] = static_cast<float>((random.next() & 1) ? -magnitude : magnitude);
    }
}

} // namespace

std::vector<float> generateValues(Distribution kind, std::size_t count, std::uint64_t seed)
{
    std::vector<float> out(count);
    SplitMix64 random(seed);
    switch (kind) {
    case Distribution::Gaussian: fillGaussian(out, random); break;
    case Distribution::Laplace: fillLaplace(out, random); break;
    case Distribution::Uniform: fillUniform(out, random); break;
    case Distribution::GaussianOutliers:
        fillGaussian(out, random);
        addOutliers(out, random);
        break;
    }
    return out;
}

} // namespace warpscope::numerics
