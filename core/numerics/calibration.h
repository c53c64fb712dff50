// Calibrators: how wide a range to quantize. Each looks at one slice of values and returns the
// clip range its grid will cover.
//   max         the largest |x| (asymmetric: [min, max])
//   percentile  the P-th percentile of |x| (asymmetric: the (100-P)-th and P-th percentiles of x),
//               from the exact order statistics with linear interpolation (numpy's default)
//   mse         the clip that minimises the quantization MSE of these very values: a 64-point grid
//               over (0, max], then golden-section search around the best point (asymmetric:
//               the range [a min, a max] with a in (0, 1])
//   entropy     TensorRT's KL-divergence calibration (see entropyFromHistogram)
#pragma once

#include "numerics/quantizer.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace warpscope::numerics {

inline constexpr std::size_t kEntropyBins = 2048; // TensorRT's histogram of |x|

struct EntropyCalibration { // the KL search's choice and its curve, for plotting
    double threshold = 0;            // the chosen clip: the upper edge of the first `bestBins` bins
    std::size_t bestBins = 0;        // i with the least KL(P || Q)
    double binWidth = 0;             // histogram bin width (max |x| / bins)
    std::size_t levels = 0;          // quantization levels Q is collapsed to (128 for INT8)
    std::size_t firstCandidate = 0;  // divergence[k] belongs to i = firstCandidate + k bins
    std::vector<double> divergence;  // KL(P || Q) in nats per candidate (inf where Q is empty)
};

// The largest |x|.
double absMax(std::span<const float> values);
// The P-th percentile (P in [0, 100]) of |x| (absolute = true) or of x.
double percentile(std::span<const float> values, double p, bool absolute = true);

// Entropy calibration on a histogram of |x| (bin k covers [k w, (k+1) w)). After Migacz, "8-bit
// Inference with TensorRT", GTC 2017: for every i from `levels` to bins, P = the first i bins with
// every count beyond folded into bin i-1; Q = the first i bins merged into `levels` groups and
// spread back evenly over each group's non-empty bins; the threshold is i w for the i of least
// KL(P || Q). Groups as pytorch-quantization's _compute_amax_entropy (bin k of i goes to level
// floor(k levels / i)); where P has mass that Q lacks (only bin i-1, when empty before folding),
// Q gets 1e-4 there and the rest is scaled by 1 - 1e-4 (the smoothing of MXNet's and TVM's ports,
// applied only where needed so no probability turns negative); ties go to the larger threshold.
// Computed with prefix sums: O(bins x levels), not O(bins^2).
EntropyCalibration entropyFromHistogram(std::span<const std::uint64_t> absHistogram, double binWidth, std::size_t levels);
// Histogram |x| into `bins` bins over [0, max |x|] and calibrate.
EntropyCalibration entropyCalibration(std::span<const float> values, std::size_t levels, std::size_t bins = kEntropyBins);
// Levels for the entropy calibrator: 2^(b-1) for integers (128 for INT8, 8 for INT4); FP8 uses
// 128, its code count per sign, as a uniform-grid stand-in for a grid that is not uniform.
std::size_t entropyLevels(Format format);

// The clip that minimises quantizationMse over (0, max |x|] for a symmetric grid.
double mseOptimalClip(std::span<const float> values, Format format);
// The range [a min, a max] (widened to contain 0) with a in (0, 1] of least MSE for an asymmetric grid.
ClipRange mseOptimalRange(std::span<const float> values, Format format);

// The calibrator of `config` on one slice. Entropy on an asymmetric grid clips [min, max] to
// [-t, t] (one-signed data: 2^b levels, as pytorch-quantization's unsigned flag); a slice of fewer
// than 2048 values gets one bin per value (at least 2 x levels), not bins holding single values.
ClipRange calibrate(std::span<const float> values, const QuantConfig& config);

} // namespace warpscope::numerics
