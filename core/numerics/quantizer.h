// Post-training quantization of any float tensor: calibrate a clip per tensor, channel (row) or
// group, map it to the target's grid, round, and measure what was lost (MSE, SQNR, largest error).
// Pure functions over values; safe to call from any thread. The data is a row-major rows x cols
// matrix (a weight matrix W[out][in]: channels are rows, groups run along a row); per-tensor
// quantization ignores the shape.
//
// Arithmetic per slice (scale s, rounding half to even as PyTorch's fake_quantize does, multiplying
// by 1/s as it does):
//   symmetric int   q = clamp(round(x/s), -L, L), x' = q s, L = 2^(b-1)-1, s = clip / L
//   asymmetric int  q = clamp(round(x/s) + z, 0, 2^b-1), x' = (q - z) s, s = (high - low) / (2^b-1)
//   FP8             x' = roundTo(format, clamp(x/s, -M, M)) s, M = largest finite, s = clip / M
#pragma once

#include "numerics/quant_config.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace warpscope::numerics {

struct QuantShape { // the values as a row-major matrix
    std::size_t rows = 1;
    std::size_t cols = 0; // 0: one row holding every value
};

struct ClipRange { // the range a calibrator chose
    double low = 0;  // symmetric: -high
    double high = 0;
};

// The grid one slice is rounded to.
struct QuantParams {
    double clipLow = 0, clipHigh = 0; // the calibrated range (asymmetric: widened to contain 0)
    double scale = 0;                 // value of one integer step (FP8: the divisor into the format)
    std::int64_t zeroPoint = 0;       // asymmetric integers; 0 otherwise
    std::int64_t qMin = 0, qMax = 0;  // integer codes used (FP8: 0)
};

// A contiguous run of values sharing one QuantParams.
struct QuantSlice {
    std::size_t offset = 0, count = 0;
    QuantParams params;
};

struct QuantStats { // what quantization lost
    std::size_t count = 0;
    double signalPower = 0;  // mean x^2
    double mse = 0;          // mean (x' - x)^2
    double sqnrDb = 0;       // 10 log10(signal / noise); +inf when nothing was lost (NaN: all zeros)
    double maxAbsError = 0;  // max |x' - x|
    std::size_t clipped = 0; // values outside their slice's clip range
};

struct QuantResult { // a quantized tensor, its grids and its error
    QuantConfig config;
    QuantShape shape;
    std::vector<float> dequantized; // x', same layout as the input
    std::vector<QuantSlice> slices; // tensor: 1; channel: rows; group: rows x ceil(cols / G)
    QuantStats stats;
};

// Scale, zero point and code range that map `clip` onto the format's grid under the scheme.
QuantParams quantParams(ClipRange clip, Format format, QuantScheme scheme);
// x quantized and dequantized with `params` (the "fake quantization" of QAT tools).
double fakeQuantize(double x, const QuantParams& params, Format format);
// The nearest FP8 value to y (|y| <= the format's max), ties to even: roundTo() of number_format,
// done with exponent arithmetic because calibration calls it tens of millions of times.
double roundToFp8(double y, Format format);
// Mean squared error of fake-quantizing `values` with `params`.
double quantizationMse(std::span<const float> values, const QuantParams& params, Format format);

// Contiguous slices of the granularity over a shape (throws InputError if the shape does not hold
// `count` values).
std::vector<QuantSlice> sliceLayout(std::size_t count, QuantShape shape, const QuantConfig& config);

// Calibrate every slice, quantize, dequantize and measure. Throws InputError for a bad config,
// a shape that does not match, or a value that is not finite.
QuantResult quantize(std::span<const float> values, const QuantConfig& config, QuantShape shape = {});
// A weight matrix rows x cols (channels = rows): dequantized weights and stats for evaluating a
// model after post-training quantization.
QuantResult quantizeWeights(std::span<const float> weights, std::size_t rows, std::size_t cols, const QuantConfig& config);

// Quantize and dequantize in place (an activation hook's buffer); returns what was lost.
QuantStats quantizeInPlace(std::span<float> values, const QuantConfig& config, QuantShape shape = {});

// MSE, SQNR and largest error of `approximation` against `reference` (same length).
QuantStats measureError(std::span<const float> reference, std::span<const float> approximation);
// 10 log10(signal / noise): +inf for zero noise, NaN when both are zero.
double sqnrDb(double signalPower, double noisePower);

} // namespace warpscope::numerics
