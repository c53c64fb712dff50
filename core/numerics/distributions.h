// Synthetic data for the quantization lab: Gaussian, Laplace, uniform, and Gaussian with a few large
// outliers, all with zero mean and unit variance (the outlier variant: its Gaussian part) so that
// SQNR figures compare across them. Generated from a seed
// by our own SplitMix64 stream and our own transforms (Marsaglia's polar method, the Laplace inverse
// CDF) using only +, -, *, /, sqrt and a series logarithm written here: IEEE 754 rounds those the
// same everywhere, so a seed gives the same floats on every machine and standard library (the
// std:: distributions differ between libstdc++ and libc++, and libm's log may differ by an ULP).
// One caveat: a compiler that fuses a*b+c into one FMA (GCC's default on aarch64, never on the
// x86-64 baseline) may change last bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::numerics {

enum class Distribution : std::uint8_t { Gaussian, Laplace, Uniform, GaussianOutliers }; // the lab's synthetic data

struct DistributionInfo { // a distribution's names
    Distribution kind;
    std::string_view key;  // "gaussian": command lines and links
    std::string_view name; // "Gaussian N(0, 1)"
};

// Share of values replaced by outliers in GaussianOutliers, and their magnitude range in sigmas:
// a few per ten thousand, 10 to 20 sigma, as activation outliers in large models are reported
// (Dettmers et al., "LLM.int8()", 2022: feature magnitudes up to 20x the rest).
inline constexpr double kOutlierShare = 1e-4;
inline constexpr double kOutlierMinSigma = 10.0;
inline constexpr double kOutlierMaxSigma = 20.0;

const std::vector<DistributionInfo>& allDistributions();       // in enum order
const DistributionInfo& distributionInfo(Distribution kind);   // the names of one
std::optional<Distribution> parseDistribution(std::string_view key); // "gaussian", "laplace", "uniform", "outliers"
std::string distributionKeys();                                       // "gaussian, laplace, ..." for messages

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014;
// constants as in Vigna's reference splitmix64.c).
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();   // the next 64 random bits
    double uniform01();     // in [0, 1), 53 random bits
    double uniformOpen();   // in (0, 1), never 0
private:
    std::uint64_t m_state;
};

// Natural logarithm from frexp and the atanh series, with only IEEE-exact operations (within 2 ULP).
double portableLog(double x);

// `count` values of the distribution, the same for a seed everywhere.
std::vector<float> generateValues(Distribution kind, std::size_t count, std::uint64_t seed);

} // namespace warpscope::numerics
