// The lab's plot data and SQNR table: histograms counted by hand, grids with the level counts each
// format must have, every dequantized value found on its grid, and the table's orderings.
#include "numerics/distributions.h"
#include "numerics/quant_lab.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace warpscope::numerics;

namespace {

std::uint64_t total(const Histogram& h)
{
    return std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0}) + h.below + h.above;
}

} // namespace

TEST(QuantLab, HistogramByHand)
{
    const std::vector<float> values = {0, 0.5f, 1, 1.5f, 2, -1, 3};
    const Histogram h = makeHistogram(values, 4, 0, 2); // bins [0,.5) [.5,1) [1,1.5) [1.5,2]
    EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{1, 1, 1, 2}));
    EXPECT_EQ(h.below, 1u);
    EXPECT_EQ(h.above, 1u);
    EXPECT_EQ(h.edges, (std::vector<double>{0, 0.5, 1, 1.5, 2}));
    // A degenerate range still gives one bin around the value.
    const Histogram one = makeHistogram(std::vector<float>{3, 3}, 10, 3, 3);
    ASSERT_EQ(one.counts.size(), 1u);
    EXPECT_EQ(one.counts[0], 2u);
}

TEST(QuantLab, GridsHaveTheFormatsLevels)
{
    const QuantParams int8 = quantParams({-1.27, 1.27}, Format::INT8, QuantScheme::Symmetric);
    const std::vector<double> g8 = gridLevels(int8, Format::INT8);
    ASSERT_EQ(g8.size(), 255u); // -127 .. 127: the narrow grid
    EXPECT_DOUBLE_EQ(g8.front(), -1.27);
    EXPECT_DOUBLE_EQ(g8.back(), 1.27);
    EXPECT_DOUBLE_EQ(g8[128] - g8[127], 0.01);

    const QuantParams int4 = quantParams({-1.0, 3.0}, Format::INT4, QuantScheme::Asymmetric);
    const std::vector<double> g4 = gridLevels(int4, Format::INT4);
    ASSERT_EQ(g4.size(), 16u);
    EXPECT_EQ(std::count(g4.begin(), g4.end(), 0.0), 1); // zero is on the grid
    EXPECT_TRUE(std::is_sorted(g4.begin(), g4.end()));

    // FP8 at scale 1: E4M3 has 126 positive finite values (no infinity, one NaN mantissa per sign)
    // plus zero: 253; E5M2 has 123 positive finite values: 247.
    const std::vector<double> e4 = gridLevels(quantParams({-448.0, 448.0}, Format::FP8E4M3, QuantScheme::Symmetric), Format::FP8E4M3);
    ASSERT_EQ(e4.size(), 253u);
    EXPECT_EQ(e4.back(), 448.0);
    EXPECT_EQ(e4[127], std::ldexp(1.0, -9)); // the smallest subnormal, just above zero
    const std::vector<double> e5 = gridLevels(quantParams({-57344.0, 57344.0}, Format::FP8E5M2, QuantScheme::Symmetric), Format::FP8E5M2);
    ASSERT_EQ(e5.size(), 247u);
    EXPECT_EQ(e5.front(), -57344.0);
    EXPECT_TRUE(std::is_sorted(e5.begin(), e5.end()));
    EXPECT_EQ(gridLevels(QuantParams{}, Format::INT8), std::vector<double>{0.0});
}

TEST(QuantLab, PlotDataPutsEveryValueOnItsGrid)
{
    const std::size_t rows = 4, cols = 256;
    const std::vector<float> values = generateValues(Distribution::Laplace, rows * cols, 12);
    for (const Format format : kQuantTargets) {
        QuantConfig config;
        config.format = format;
        config.scheme = formatInfo(format).isFloat ? QuantScheme::Symmetric : QuantScheme::Asymmetric;
        config.granularity = Granularity::Channel;
        config.calibrator = Calibrator::Percentile;
        config.percentile = 99.0;
        const QuantResult result = quantize(values, config, {rows, cols});
        const QuantPlotData plot = quantPlotData(values, result, 64, 2);
        EXPECT_EQ(plot.slice, 2u);
        const QuantSlice& slice = result.slices[2];
        for (std::size_t k = 0; k < slice.count; ++k) {
            const double v = result.dequantized[slice.offset + k];
            const auto nearest = std::lower_bound(plot.grid.begin(), plot.grid.end(), v - 1e-6 * std::abs(v) - 1e-30);
            ASSERT_NE(nearest, plot.grid.end());
            ASSERT_NEAR(*nearest, v, 1e-6 * std::abs(v) + 1e-30) << formatInfo(format).key;
        }
        EXPECT_EQ(total(plot.values), slice.count);
        EXPECT_EQ(plot.values.below + plot.values.above, 0u);
        EXPECT_LE(plot.values.edges.front(), plot.clipLow);
        EXPECT_GE(plot.values.edges.back(), plot.clipHigh);
        EXPECT_EQ(total(plot.errors), values.size());
        EXPECT_NEAR(plot.errors.edges.back(), result.stats.maxAbsError, 1e-6 * result.stats.maxAbsError);
        EXPECT_DOUBLE_EQ(plot.errors.edges.front(), -plot.errors.edges.back());
    }
    QuantResult result = quantize(values, QuantConfig{});
    EXPECT_THROW(quantPlotData(values, result, 64, 1), warpscope::InputError);
    EXPECT_THROW(quantPlotData(std::span(values).first(10), result), warpscope::InputError);
}

TEST(QuantLab, SqnrTableOrdersFormatsAndCalibrators)
{
    const std::vector<float> values = generateValues(Distribution::GaussianOutliers, 100000, 13);
    QuantConfig base;
    base.scheme = QuantScheme::Asymmetric;
    const std::vector<SqnrTableCell> table = sqnrTable(values, base);
    ASSERT_EQ(table.size(), 16u);
    const auto cell = [&](Format f, Calibrator c) -> const SqnrTableCell& {
        for (const SqnrTableCell& t : table)
            if (t.config.format == f && t.config.calibrator == c)
                return t;
        throw std::logic_error("missing cell");
    };
    for (const SqnrTableCell& t : table) {
        // Each cell is what quantize gives for its config; FP8 is symmetric whatever the base says.
        EXPECT_DOUBLE_EQ(t.stats.sqnrDb, quantize(values, t.config).stats.sqnrDb);
        EXPECT_EQ(t.config.scheme, formatInfo(t.config.format).isFloat ? QuantScheme::Symmetric : QuantScheme::Asymmetric);
    }
    for (const Calibrator c : kCalibrators)
        EXPECT_GT(cell(Format::INT8, c).stats.sqnrDb, cell(Format::INT4, c).stats.sqnrDb) << calibratorKey(c);
    // Symmetric, where every calibrator picks from the same one-parameter family of clips: the
    // MSE-optimal clip has the least MSE of all (up to its search's precision).
    const std::vector<SqnrTableCell> symmetric = sqnrTable(values, QuantConfig{}, {}, kQuantTargets, kCalibrators);
    for (const SqnrTableCell& best : symmetric) {
        if (best.config.calibrator != Calibrator::Mse)
            continue;
        for (const SqnrTableCell& other : symmetric) {
            if (other.config.format == best.config.format) {
                EXPECT_LE(best.stats.mse, other.stats.mse * (1 + 1e-3))
                    << formatInfo(best.config.format).key << " vs " << calibratorKey(other.config.calibrator);
            }
        }
    }
    // Outliers at 10-20 sigma carry 2% of the signal's power. INT8 with max calibration (clip up to
    // 20) pays rounding noise (20/127)^2/12 = 2e-3, while the 99.99th percentile (about 3.9) clips
    // them for 1e-4 x E[(|o| - 3.9)^2] = 1.3e-2: by SQNR, max wins. INT4's step 20/7 under max
    // rounds most of the bulk to zero (noise about 0.6): there, clipping the outliers wins.
    for (const QuantScheme scheme : {QuantScheme::Symmetric, QuantScheme::Asymmetric}) {
        const std::vector<SqnrTableCell>& t = scheme == QuantScheme::Symmetric ? symmetric : table;
        const auto at = [&](Format f, Calibrator c) {
            for (const SqnrTableCell& x : t)
                if (x.config.format == f && x.config.calibrator == c)
                    return x.stats.sqnrDb;
            return 0.0;
        };
        EXPECT_GT(at(Format::INT8, Calibrator::Max), at(Format::INT8, Calibrator::Percentile) + 3);
        EXPECT_GT(at(Format::INT8, Calibrator::Max), at(Format::INT8, Calibrator::Entropy) + 3);
        EXPECT_LT(at(Format::INT4, Calibrator::Max), at(Format::INT4, Calibrator::Percentile) - 3);
        EXPECT_LT(at(Format::INT4, Calibrator::Max), at(Format::INT4, Calibrator::Entropy) - 3);
    }
    // FP8's exponent absorbs the outliers: E4M3 loses little under max calibration.
    EXPECT_GT(cell(Format::FP8E4M3, Calibrator::Max).stats.sqnrDb, cell(Format::INT8, Calibrator::Max).stats.sqnrDb);
    EXPECT_DOUBLE_EQ(cell(Format::INT8, Calibrator::Max).firstClip.high,
                     gridLevels(quantize(values, cell(Format::INT8, Calibrator::Max).config).slices[0].params, Format::INT8).back());
}
