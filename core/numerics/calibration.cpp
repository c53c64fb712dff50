#include "numerics/calibration.h"

#include "numerics/golden_section.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace warpscope::numerics {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kSmoothing = 1e-4; // MXNet's and TVM's eps for empty bins of the entropy calibrator
constexpr int kMseGridPoints = 64;
constexpr int kGoldenSteps = 40;    // the bracket (2 grid steps) shrinks by 0.618^40, about 4e-9

// Least f over (0, right]: the best of a uniform grid, refined by golden-section search in the
// two grid steps around it. Returns the argument.
template <typename Objective>
double minimiseOnInterval(double right, Objective f)
{
    double bestX = right, bestF = f(right);
    int bestK = kMseGridPoints;
    for (int k = kMseGridPoints - 1; k >= 1; --k) {
        const double x = right * k / kMseGridPoints;
        const double value = f(x);
        if (value < bestF) {
            bestF = value;
            bestX = x;
            bestK = k;
        }
    }
    const double a = right * (bestK - 1) / kMseGridPoints, b = right * std::min(bestK + 1, kMseGridPoints) / kMseGridPoints;
    // The search follows the local slope; keep the grid's point if the refinement found no better.
    const auto [x, fx] = goldenSectionMinimum(a, b, f, kGoldenSteps, 0.0);
    return fx <= bestF ? x : bestX;
}

std::pair<double, double> minMax(std::span<const float> values)
{
    if (values.empty())
        return {0, 0};
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return {*low, *high};
}

// Ceiling of a / b for positive integers.
std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

} // namespace

double absMax(std::span<const float> values)
{
    double result = 0;
    for (const float value : values)
        result = std::max(result, static_cast<double>(std::abs(value)));
    return result;
}

double percentile(std::span<const float> values, double p, bool absolute)
{
    if (values.empty())
        return 0;
    std::vector<float> sorted(values.begin(), values.end());
    if (absolute)
        for (float& value : sorted)
            value = std::abs(value);
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(rank));
    const double fraction = rank - static_cast<double>(below);
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(below), sorted.end());
    const double low = sorted[below];
    if (fraction == 0 || below + 1 >= sorted.size())
        return low;
    const double high = *std::min_element(sorted.begin() + static_cast<std::ptrdiff_t>(below) + 1, sorted.end());
    return low + fraction * (high - low);
}

EntropyCalibration entropyFromHistogram(std::span<const std::uint64_t> absHistogram, double binWidth, std::size_t levels)
{
    EntropyCalibration result;
    const std::size_t bins = absHistogram.size();
    result.binWidth = binWidth;
    result.levels = levels;
    result.firstCandidate = levels;
    result.bestBins = bins;
    result.threshold = static_cast<double>(bins) * binWidth;
    if (levels == 0 || bins < levels)
        return result;

    // Prefix sums over bins: counts, sum of c log c, and non-empty bins.
    std::vector<double> count(bins + 1, 0.0), countLogCount(bins + 1, 0.0);
    std::vector<std::size_t> nonEmpty(bins + 1, 0);
    for (std::size_t k = 0; k < bins; ++k) {
        const double c = static_cast<double>(absHistogram[k]);
        count[k + 1] = count[k] + c;
        countLogCount[k + 1] = countLogCount[k] + (c > 0 ? c * std::log(c) : 0.0);
        nonEmpty[k + 1] = nonEmpty[k] + (c > 0 ? 1 : 0);
    }
    const double total = count[bins];
    if (total == 0) {
        result.threshold = 0;
        result.bestBins = 0;
        return result;
    }
    const double logTotal = std::log(total);

    double best = kInfinity;
    result.divergence.reserve(bins - levels + 1);
    for (std::size_t i = levels; i <= bins; ++i) {
        const double kept = count[i];          // sum of Q's counts: the first i bins
        const double outliers = total - kept;  // folded into P's last bin
        if (kept == 0) {
            result.divergence.push_back(kInfinity);
            continue;
        }
        const double last = static_cast<double>(absHistogram[i - 1]);
        const bool lastMissingInQ = last == 0 && outliers > 0;
        const double qFactor = lastMissingInQ ? 1 - kSmoothing : 1.0;

        // KL(P || Q) = sum P log P - sum P log Q over P's non-empty bins. Bins before i-1 keep their
        // counts in P: sum P log P = (sum c log c - log N sum c) / N from the prefix sums. Q is
        // constant over a level's non-empty bins, so sum P log Q is one term per level.
        double divergence = (countLogCount[i - 1] - logTotal * count[i - 1]) / total;
        double lastLevelQ = 0;
        for (std::size_t j = 0; j < levels; ++j) {
            const std::size_t start = ceilDiv(j * i, levels), end = ceilDiv((j + 1) * i, levels);
            const double levelCount = count[end] - count[start];
            const double levelBins = static_cast<double>(nonEmpty[end] - nonEmpty[start]);
            if (levelCount == 0)
                continue;
            const double q = qFactor * levelCount / (levelBins * kept);
            const double pMass = levelCount - (j + 1 == levels ? last : 0.0); // bin i-1 is in the last level
            if (pMass > 0)
                divergence -= pMass / total * std::log(q);
            if (j + 1 == levels)
                lastLevelQ = q;
        }
        const double lastMass = (last + outliers) / total;
        if (lastMass > 0)
            divergence += lastMass * std::log(lastMass / (lastMissingInQ ? kSmoothing : lastLevelQ));
        result.divergence.push_back(divergence);
        if (divergence <= best) {
            best = divergence;
            result.bestBins = i;
        }
    }
    result.threshold = static_cast<double>(result.bestBins) * binWidth;
    return result;
}

EntropyCalibration entropyCalibration(std::span<const float> values, std::size_t levels, std::size_t bins)
{
    const double top = absMax(values);
    bins = std::max<std::size_t>(bins, 1);
    std::vector<std::uint64_t> histogram(bins, 0);
    if (top > 0) {
        const double perUnit = static_cast<double>(bins) / top;
        for (const float value : values)
            ++histogram[std::min(bins - 1, static_cast<std::size_t>(std::abs(value) * perUnit))];
    }
    return entropyFromHistogram(histogram, top / static_cast<double>(bins), levels);
}

std::size_t entropyLevels(Format format)
{
    const FormatInfo& info = formatInfo(format);
    return info.isFloat ? 128 : std::size_t{1} << (info.bits - 1);
}

double mseOptimalClip(std::span<const float> values, Format format)
{
    const double top = absMax(values);
    if (top == 0)
        return 0;
    return minimiseOnInterval(top, [&](double clip) {
        return quantizationMse(values, quantParams({-clip, clip}, format, QuantScheme::Symmetric), format);
    });
}

ClipRange mseOptimalRange(std::span<const float> values, Format format)
{
    auto [low, high] = minMax(values);
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
    if (low == high)
        return {0, 0};
    // Copies, not the structured bindings themselves: capturing those needs C++20 support that
    // clang before 16 (the include check's parser) lacks.
    const double a = minimiseOnInterval(1.0, [&, low = low, high = high](double shrink) {
        return quantizationMse(values, quantParams({shrink * low, shrink * high}, format, QuantScheme::Asymmetric), format);
    });
    return {a * low, a * high};
}

ClipRange calibrate(std::span<const float> values, const QuantConfig& config)
{
    const bool symmetric = config.scheme == QuantScheme::Symmetric || formatInfo(config.format).isFloat;
    switch (config.calibrator) {
    case Calibrator::Max: {
        if (symmetric) {
            const double c = absMax(values);
            return {-c, c};
        }
        const auto [low, high] = minMax(values);
        return {low, high};
    }
    case Calibrator::Percentile:
        if (symmetric) {
            const double c = percentile(values, config.percentile, true);
            return {-c, c};
        }
        return {percentile(values, 100 - config.percentile, false), percentile(values, config.percentile, false)};
    case Calibrator::Mse:
        if (symmetric) {
            const double c = mseOptimalClip(values, config.format);
            return {-c, c};
        }
        return mseOptimalRange(values, config.format);
    case Calibrator::Entropy: {
        // One-signed data on an asymmetric grid spends all 2^b codes on one side (as
        // pytorch-quantization's unsigned flag doubles the levels).
        const auto [low, high] = minMax(values);
        const bool oneSided = low >= 0 || high <= 0;
        std::size_t levels = entropyLevels(config.format);
        if (!symmetric && oneSided)
            levels *= 2;
        // A slice with fewer values than TensorRT's 2048 bins gets one bin per value (at least twice
        // the levels, so there is a search): finer bins would only hold single values.
        const std::size_t bins = std::min(kEntropyBins, std::max(2 * levels, values.size()));
        const double t = entropyCalibration(values, levels, bins).threshold;
        if (symmetric)
            return {-t, t};
        return {std::max(low, -t), std::min(high, t)};
    }
    }
    return {};
}

} // namespace warpscope::numerics
