#include "numerics/quantizer.h"

#include "numerics/calibration.h"
#include "util/input_error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace warpscope::numerics {
namespace {

// Round half to even for |y| <= 2^51: adding 1.5 x 2^52 leaves no fraction bits, and IEEE addition
// rounds to nearest even (the same result as std::nearbyint, without a libm call on baseline x86-64).
inline double roundHalfEven(double y)
{
    constexpr double magic = 0x1.8p52;
    return (y + magic) - magic;
}

// 2^k as a double, for k in the normal range.
inline double powerOfTwo(int k) { return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + k) << 52); }

// Values in [2^e, 2^(e+1)) are multiples of 2^(e - m); below the smallest normal exponent the
// subnormal spacing 2^(minExponent - m) holds. |y| 2^(m - e) < 2^(m+1): exact and in range.
inline double roundToFloatGrid(double y, int mantissaBits, int minExponent)
{
    const double magnitude = std::abs(y);
    const int exponent = static_cast<int>(std::bit_cast<std::uint64_t>(magnitude) >> 52) - 1023;
    const int quantum = std::max(exponent, minExponent) - mantissaBits;
    const double rounded = roundHalfEven(magnitude * powerOfTwo(-quantum)) * powerOfTwo(quantum);
    return std::copysign(rounded, y);
}

// One slice's grid with everything the inner loop needs precomputed.
struct SliceQuantizer {
    enum class Kind { Zero, Integer, Float } kind = Kind::Zero;
    double scale = 0, inverse = 0;
    double low = 0, high = 0;   // clamp bounds of x / s (integers: codes minus the zero point)
    int mantissaBits = 0, minExponent = 0;

    SliceQuantizer(const QuantParams& params, Format format)
    {
        if (!(params.scale > 0) || !std::isfinite(params.scale))
            return;
        scale = params.scale;
        inverse = 1.0 / params.scale;
        const FormatInfo& info = formatInfo(format);
        if (info.isFloat) {
            kind = Kind::Float;
            high = maxFinite(format);
            low = -high;
            mantissaBits = info.mantissaBits;
            minExponent = 1 - info.bias;
        } else {
            kind = Kind::Integer;
            low = static_cast<double>(params.qMin - params.zeroPoint);
            high = static_cast<double>(params.qMax - params.zeroPoint);
        }
    }

    double operator()(double x) const
    {
        const double y = std::clamp(x * inverse, low, high);
        switch (kind) {
        case Kind::Zero: return 0.0;
        case Kind::Integer: return roundHalfEven(y) * scale;
        case Kind::Float: return roundFloat(y) * scale;
        }
        return 0.0;
    }

    double roundFloat(double y) const { return roundToFloatGrid(y, mantissaBits, minExponent); }
};

void requireFinite(std::span<const float> values)
{
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            throw InputError("Value " + std::to_string(i) + " is " + (std::isnan(values[i]) ? "NaN" : "infinite") +
                             ": quantization needs finite values.");
}

QuantShape normalisedShape(std::size_t count, QuantShape shape)
{
    if (shape.cols == 0 && shape.rows <= 1)
        return {1, count};
    if (shape.rows * shape.cols != count)
        throw InputError("Shape " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) + " holds " +
                         std::to_string(shape.rows * shape.cols) + " values, but " + std::to_string(count) + " were given.");
    return shape;
}

} // namespace

QuantParams quantParams(ClipRange clip, Format format, QuantScheme scheme)
{
    QuantParams params;
    const FormatInfo& info = formatInfo(format);
    if (scheme == QuantScheme::Symmetric || info.isFloat) {
        const double c = std::max(std::abs(clip.low), std::abs(clip.high));
        params.clipLow = -c;
        params.clipHigh = c;
        if (info.isFloat) {
            params.scale = c / maxFinite(format);
        } else {
            params.qMax = info.intMax; // 2^(b-1) - 1: the narrow grid
            params.qMin = -info.intMax;
            params.scale = c / static_cast<double>(info.intMax);
        }
        return params;
    }
    const double low = std::min(clip.low, 0.0), high = std::max(clip.high, 0.0);
    params.clipLow = low;
    params.clipHigh = high;
    params.qMin = 0;
    params.qMax = (std::int64_t{1} << info.bits) - 1;
    params.scale = (high - low) / static_cast<double>(params.qMax);
    if (params.scale > 0)
        params.zeroPoint = std::clamp(static_cast<std::int64_t>(roundHalfEven(-low / params.scale)), params.qMin, params.qMax);
    return params;
}

double fakeQuantize(double x, const QuantParams& params, Format format) { return SliceQuantizer(params, format)(x); }

double roundToFp8(double y, Format format)
{
    const FormatInfo& info = formatInfo(format);
    return roundToFloatGrid(y, info.mantissaBits, 1 - info.bias);
}

double quantizationMse(std::span<const float> values, const QuantParams& params, Format format)
{
    if (values.empty())
        return 0;
    const SliceQuantizer quantizer(params, format);
    double sum = 0;
    for (const float value : values) {
        const double error = quantizer(value) - value;
        sum += error * error;
    }
    return sum / static_cast<double>(values.size());
}

std::vector<QuantSlice> sliceLayout(std::size_t count, QuantShape shape, const QuantConfig& config)
{
    shape = normalisedShape(count, shape);
    std::vector<QuantSlice> slices;
    switch (config.granularity) {
    case Granularity::Tensor:
        slices.push_back({0, count, {}});
        break;
    case Granularity::Channel:
        for (std::size_t row = 0; row < shape.rows; ++row)
            slices.push_back({row * shape.cols, shape.cols, {}});
        break;
    case Granularity::Group:
        for (std::size_t row = 0; row < shape.rows; ++row)
            for (std::size_t col = 0; col < shape.cols; col += config.groupSize)
                slices.push_back({row * shape.cols + col, std::min(config.groupSize, shape.cols - col), {}});
        break;
    }
    return slices;
}

QuantResult quantize(std::span<const float> values, const QuantConfig& config, QuantShape shape)
{
    validateQuantConfig(config);
    if (values.empty())
        throw InputError("There are no values to quantize.");
    requireFinite(values);
    QuantResult result;
    result.config = config;
    result.shape = normalisedShape(values.size(), shape);
    result.slices = sliceLayout(values.size(), result.shape, config);
    result.dequantized.resize(values.size());
    double signal = 0, noise = 0, maxError = 0;
    std::size_t clipped = 0;
    for (QuantSlice& slice : result.slices) {
        const std::span<const float> part = values.subspan(slice.offset, slice.count);
        slice.params = quantParams(calibrate(part, config), config.format, config.scheme);
        const SliceQuantizer quantizer(slice.params, config.format);
        // Beyond the grid's ends (not the calibrated range, which the zero point's rounding may shift),
        // by more than the rounding of scale x code: max calibration's own maximum is not clipped.
        const double slack = 1e-9 * quantizer.scale;
        const double gridLow = quantizer.low * quantizer.scale - slack, gridHigh = quantizer.high * quantizer.scale + slack;
        for (std::size_t i = 0; i < part.size(); ++i) {
            const double x = part[i];
            const float stored = static_cast<float>(quantizer(x));
            result.dequantized[slice.offset + i] = stored;
            const double error = static_cast<double>(stored) - x;
            signal += x * x;
            noise += error * error;
            maxError = std::max(maxError, std::abs(error));
            clipped += (x < gridLow || x > gridHigh) ? 1 : 0;
        }
    }
    const double n = static_cast<double>(values.size());
    result.stats = {values.size(), signal / n, noise / n, sqnrDb(signal, noise), maxError, clipped};
    return result;
}

QuantResult quantizeWeights(std::span<const float> weights, std::size_t rows, std::size_t cols, const QuantConfig& config)
{
    if (rows == 0 || cols == 0)
        throw InputError("A weight matrix needs at least one row and one column (got " + std::to_string(rows) + " x " +
                         std::to_string(cols) + ").");
    return quantize(weights, config, {rows, cols});
}

QuantStats quantizeInPlace(std::span<float> values, const QuantConfig& config, QuantShape shape)
{
    QuantResult result = quantize(values, config, shape);
    std::copy(result.dequantized.begin(), result.dequantized.end(), values.begin());
    return result.stats;
}

QuantStats measureError(std::span<const float> reference, std::span<const float> approximation)
{
    if (reference.size() != approximation.size())
        throw InputError("Cannot compare " + std::to_string(reference.size()) + " values with " +
                         std::to_string(approximation.size()) + ".");
    QuantStats stats;
    stats.count = reference.size();
    if (reference.empty())
        return stats;
    double signal = 0, noise = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double x = reference[i];
        const double error = static_cast<double>(approximation[i]) - x;
        signal += x * x;
        noise += error * error;
        stats.maxAbsError = std::max(stats.maxAbsError, std::abs(error));
    }
    const double n = static_cast<double>(reference.size());
    stats.signalPower = signal / n;
    stats.mse = noise / n;
    stats.sqnrDb = sqnrDb(signal, noise);
    return stats;
}

double sqnrDb(double signalPower, double noisePower)
{
    if (noisePower == 0)
        return signalPower == 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    return 10 * std::log10(signalPower / noisePower);
}

} // namespace warpscope::numerics
