// What the quantization lab's panels plot, as plain data: the value histogram with the grid and the
// clip bounds over it, the error histogram, and the table of SQNR by format and calibrator.
#pragma once

#include "numerics/calibration.h"
#include "numerics/quantizer.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace warpscope::numerics {

struct Histogram { // equal-width bins, for plots
    std::vector<double> edges;          // bins + 1 edges, ascending, equal widths
    std::vector<std::uint64_t> counts;  // values in [edges[k], edges[k+1]) (the last bin includes its right edge)
    std::uint64_t below = 0, above = 0; // values outside [edges.front(), edges.back()]
};

struct QuantPlotData { // the value and error histograms of one result
    std::size_t slice = 0;      // which slice the grid and the value histogram belong to
    Histogram values;           // the slice's values, over a range holding them and the clip bounds
    std::vector<double> grid;   // every value the slice's grid can produce, ascending
    double clipLow = 0, clipHigh = 0; // the grid's ends
    Histogram errors;           // x' - x over every value of the tensor, symmetric about 0
};

struct SqnrTableCell { // one format x calibrator of the SQNR table
    QuantConfig config;         // FP8 cells are symmetric whatever the base scheme
    QuantStats stats;
    ClipRange firstClip;        // the first slice's grid ends (the tensor's, per-tensor)
};

// `bins` equal bins over [low, high] (low < high; otherwise one bin around low).
Histogram makeHistogram(std::span<const float> values, std::size_t bins, double low, double high);
// Every dequantized value a slice's grid can produce, ascending (FP8: each finite value times the scale).
std::vector<double> gridLevels(const QuantParams& params, Format format);
// Plot data for one slice of a result (`original` is what was quantized).
QuantPlotData quantPlotData(std::span<const float> original, const QuantResult& result, std::size_t bins = 256,
                            std::size_t slice = 0);

// The table's default rows and columns: every target, every calibrator.
inline constexpr Format kQuantTargets[] = {Format::INT8, Format::INT4, Format::FP8E4M3, Format::FP8E5M2};
inline constexpr Calibrator kCalibrators[] = {Calibrator::Max, Calibrator::Percentile, Calibrator::Mse, Calibrator::Entropy};

// SQNR of every format x calibrator pair on the same values, with the rest of `base` (scheme,
// granularity, percentile) kept; format-major order.
std::vector<SqnrTableCell> sqnrTable(std::span<const float> values, const QuantConfig& base, QuantShape shape = {},
                                     std::span<const Format> formats = kQuantTargets,
                                     std::span<const Calibrator> calibrators = kCalibrators);

} // namespace warpscope::numerics
