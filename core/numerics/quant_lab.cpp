#include "numerics/quant_lab.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace warpscope::numerics {

Histogram makeHistogram(std::span<const float> values, std::size_t bins, double low, double high)
{
    bins = std::max<std::size_t>(bins, 1);
    if (!(high > low)) {
        const double half = low == 0 ? 0.5 : 0.5 * std::abs(low);
        low -= half;
        high = low + 2 * half;
        bins = 1;
    }
    Histogram histogram;
    histogram.edges.resize(bins + 1);
    const double width = (high - low) / static_cast<double>(bins);
    for (std::size_t k = 0; k <= bins; ++k)
        histogram.edges[k] = k == bins ? high : low + width * static_cast<double>(k);
    histogram.counts.assign(bins, 0);
    for (const float value : values) {
        if (value < low) {
            ++histogram.below;
        } else if (value > high) {
            ++histogram.above;
        } else {
            const auto k = static_cast<std::size_t>((value - low) / width);
            ++histogram.counts[std::min(k, bins - 1)];
        }
    }
    return histogram;
}

std::vector<double> gridLevels(const QuantParams& params, Format format)
{
    std::vector<double> grid;
    if (!(params.scale > 0))
        return {0.0};
    if (formatInfo(format).isFloat) {
        const int bits = formatInfo(format).bits;
        std::vector<double> positive;
        for (std::uint32_t pattern = 0; pattern < (1u << (bits - 1)); ++pattern) {
            const double value = decode(format, pattern);
            if (std::isfinite(value))
                positive.push_back(value);
        }
        std::sort(positive.begin(), positive.end());
        for (auto it = positive.rbegin(); it != positive.rend(); ++it)
            if (*it > 0)
                grid.push_back(-*it * params.scale);
        for (const double value : positive)
            grid.push_back(value * params.scale);
        return grid;
    }
    for (std::int64_t q = params.qMin; q <= params.qMax; ++q)
        grid.push_back(static_cast<double>(q - params.zeroPoint) * params.scale);
    return grid;
}

QuantPlotData quantPlotData(std::span<const float> original, const QuantResult& result, std::size_t bins, std::size_t slice)
{
    if (original.size() != result.dequantized.size())
        throw InputError("The plot needs the " + std::to_string(result.dequantized.size()) + " values that were quantized, not " +
                         std::to_string(original.size()) + ".");
    if (slice >= result.slices.size())
        throw InputError("Slice " + std::to_string(slice) + " does not exist (the result has " +
                         std::to_string(result.slices.size()) + ").");
    QuantPlotData data;
    data.slice = slice;
    const QuantSlice& part = result.slices[slice];
    data.grid = gridLevels(part.params, result.config.format);
    data.clipLow = data.grid.front();
    data.clipHigh = data.grid.back();
    const std::span<const float> values = original.subspan(part.offset, part.count);
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    data.values = makeHistogram(values, bins, std::min<double>(*low, data.clipLow), std::max<double>(*high, data.clipHigh));

    std::vector<float> errors(original.size());
    double largest = 0;
    for (std::size_t i = 0; i < original.size(); ++i) {
        errors[i] = result.dequantized[i] - original[i];
        largest = std::max(largest, static_cast<double>(std::abs(errors[i])));
    }
    data.errors = makeHistogram(errors, bins, -largest, largest);
    return data;
}

std::vector<SqnrTableCell> sqnrTable(std::span<const float> values, const QuantConfig& base, QuantShape shape,
                                     std::span<const Format> formats, std::span<const Calibrator> calibrators)
{
    std::vector<SqnrTableCell> table;
    for (const Format format : formats) {
        for (const Calibrator calibrator : calibrators) {
            QuantConfig config = base;
            config.format = format;
            config.calibrator = calibrator;
            if (formatInfo(format).isFloat)
                config.scheme = QuantScheme::Symmetric;
            QuantResult result = quantize(values, config, shape);
            const QuantParams& first = result.slices.front().params;
            const std::vector<double> grid = gridLevels(first, format);
            table.push_back({config, result.stats, {grid.front(), grid.back()}});
        }
    }
    return table;
}

} // namespace warpscope::numerics
