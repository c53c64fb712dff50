// The quantizer's arithmetic against hand-worked grids, its FP8 rounding against number_format's
// roundTo, and its granularities against quantizing each slice on its own.
#include "numerics/calibration.h"
#include "numerics/distributions.h"
#include "numerics/quantizer.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace warpscope::numerics;
using warpscope::InputError;

namespace {

QuantConfig config(Format format, QuantScheme scheme, Calibrator calibrator = Calibrator::Max)
{
    QuantConfig c;
    c.format = format;
    c.scheme = scheme;
    c.calibrator = calibrator;
    return c;
}

} // namespace

TEST(QuantQuantizer, SymmetricIntegerGridByHand)
{
    // clip 31.75 on INT8's narrow grid: scale 31.75 / 127 = 0.25, codes -127 .. 127.
    const QuantParams p = quantParams({-31.75, 31.75}, Format::INT8, QuantScheme::Symmetric);
    EXPECT_DOUBLE_EQ(p.scale, 0.25);
    EXPECT_EQ(p.qMin, -127);
    EXPECT_EQ(p.qMax, 127);
    EXPECT_EQ(p.zeroPoint, 0);
    EXPECT_EQ(fakeQuantize(0.125, p, Format::INT8), 0.0);   // 0.5 step: tie to even (0)
    EXPECT_EQ(fakeQuantize(0.375, p, Format::INT8), 0.5);   // 1.5 steps: tie to even (2)
    EXPECT_EQ(fakeQuantize(-0.375, p, Format::INT8), -0.5);
    EXPECT_EQ(fakeQuantize(0.3, p, Format::INT8), 0.25);
    EXPECT_EQ(fakeQuantize(100.0, p, Format::INT8), 31.75); // saturates at the clip
    EXPECT_EQ(fakeQuantize(-100.0, p, Format::INT8), -31.75); // never code -128
    // INT4: 7 steps per side; the clip is taken from the wider end.
    const QuantParams q = quantParams({-1.0, 3.5}, Format::INT4, QuantScheme::Symmetric);
    EXPECT_DOUBLE_EQ(q.clipHigh, 3.5);
    EXPECT_DOUBLE_EQ(q.scale, 0.5);
    EXPECT_EQ(q.qMin, -7);
    EXPECT_EQ(fakeQuantize(-3.3, q, Format::INT4), -3.5);
    EXPECT_EQ(fakeQuantize(1.26, q, Format::INT4), 1.5);
}

TEST(QuantQuantizer, AsymmetricIntegerGridByHand)
{
    // [-1, 3] on INT4's unsigned grid 0..15: scale 4/15, zero point round(15/4 = 3.75) = 4.
    const QuantParams p = quantParams({-1.0, 3.0}, Format::INT4, QuantScheme::Asymmetric);
    EXPECT_DOUBLE_EQ(p.scale, 4.0 / 15);
    EXPECT_EQ(p.zeroPoint, 4);
    EXPECT_EQ(p.qMin, 0);
    EXPECT_EQ(p.qMax, 15);
    EXPECT_EQ(fakeQuantize(0.0, p, Format::INT4), 0.0);                       // zero is exact
    EXPECT_DOUBLE_EQ(fakeQuantize(3.0, p, Format::INT4), 11 * 4.0 / 15);      // code 15
    EXPECT_DOUBLE_EQ(fakeQuantize(-1.0, p, Format::INT4), -4 * 4.0 / 15);     // code 0
    EXPECT_DOUBLE_EQ(fakeQuantize(-2.0, p, Format::INT4), -4 * 4.0 / 15);     // clipped to code 0
    EXPECT_DOUBLE_EQ(fakeQuantize(1.0, p, Format::INT4), 4 * 4.0 / 15);       // 3.75 -> 4
    // A range that excludes zero is widened to contain it ([2, 5] -> [0, 5]); INT8 uses 0..255.
    const QuantParams w = quantParams({2.0, 5.0}, Format::INT8, QuantScheme::Asymmetric);
    EXPECT_DOUBLE_EQ(w.clipLow, 0.0);
    EXPECT_DOUBLE_EQ(w.scale, 5.0 / 255);
    EXPECT_EQ(w.zeroPoint, 0);
    EXPECT_EQ(w.qMax, 255);
}

TEST(QuantQuantizer, Fp8RoundingAgreesWithNumberFormat)
{
    for (const Format format : {Format::FP8E4M3, Format::FP8E5M2}) {
        const double top = maxFinite(format);
        std::vector<double> probes;
        // Every finite value, every midpoint between neighbours (ties), and points a hair either side.
        std::vector<double> values;
        for (std::uint32_t pattern = 0; pattern < 128; ++pattern)
            if (std::isfinite(decode(format, pattern)))
                values.push_back(decode(format, pattern));
        std::sort(values.begin(), values.end());
        for (std::size_t i = 0; i < values.size(); ++i) {
            probes.push_back(values[i]);
            if (i + 1 < values.size()) {
                const double mid = 0.5 * (values[i] + values[i + 1]);
                probes.insert(probes.end(), {mid, std::nextafter(mid, 0.0), std::nextafter(mid, top)});
            }
        }
        SplitMix64 random(17);
        for (int i = 0; i < 200000; ++i) // log-uniform over the whole range, subnormals included
            probes.push_back(top * std::exp2(-30 * random.uniform01()));
        for (const double y : probes) {
            ASSERT_EQ(roundToFp8(y, format), roundTo(format, y, Overflow::Saturate)) << formatInfo(format).key << " " << y;
            ASSERT_EQ(roundToFp8(-y, format), roundTo(format, -y, Overflow::Saturate)) << formatInfo(format).key << " " << -y;
        }
    }
}

TEST(QuantQuantizer, Fp8ScalesTheClipOntoTheFormatsMaximum)
{
    // clip 448 on E4M3: scale 1, so quantizing is rounding to E4M3 itself; a clip of 4.48 scales by 1/100.
    const QuantParams unit = quantParams({-448.0, 448.0}, Format::FP8E4M3, QuantScheme::Symmetric);
    EXPECT_DOUBLE_EQ(unit.scale, 1.0);
    EXPECT_EQ(fakeQuantize(17.0, unit, Format::FP8E4M3), 16.0); // 17 = 1.0001b x 2^4: ties to 16 (even)
    EXPECT_EQ(fakeQuantize(1000.0, unit, Format::FP8E4M3), 448.0);
    EXPECT_EQ(fakeQuantize(-0.0009, unit, Format::FP8E4M3), -0.0); // below half the smallest subnormal 2^-9
    const QuantParams e5 = quantParams({-1.0, 1.0}, Format::FP8E5M2, QuantScheme::Symmetric);
    EXPECT_DOUBLE_EQ(e5.scale, 1.0 / 57344);
    EXPECT_DOUBLE_EQ(fakeQuantize(1.0, e5, Format::FP8E5M2), 1.0);
    EXPECT_DOUBLE_EQ(fakeQuantize(0.3, e5, Format::FP8E5M2), roundTo(Format::FP8E5M2, 0.3 * 57344) / 57344);
}

TEST(QuantQuantizer, ValuesLandOnTheGridWithinHalfAStep)
{
    const std::vector<float> values = generateValues(Distribution::Laplace, 20000, 3);
    for (const Format format : {Format::INT8, Format::INT4}) {
        const QuantResult r = quantize(values, config(format, QuantScheme::Symmetric, Calibrator::Percentile));
        const QuantParams& p = r.slices[0].params;
        std::size_t clipped = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double code = r.dequantized[i] / p.scale;
            ASSERT_NEAR(code, std::round(code), 1e-4);
            ASSERT_LE(std::abs(code), static_cast<double>(p.qMax) + 1e-4);
            if (std::abs(values[i]) <= p.clipHigh) {
                ASSERT_LE(std::abs(r.dequantized[i] - values[i]), 0.5 * p.scale * (1 + 1e-6));
            } else {
                ++clipped;
                ASSERT_FLOAT_EQ(std::abs(r.dequantized[i]), static_cast<float>(p.clipHigh));
            }
        }
        EXPECT_EQ(r.stats.clipped, clipped);
        // The 99.99th percentile of 20,000 values sits at rank 0.9999 x 19999 = 19997.0001 of 0..19999:
        // two values lie beyond it.
        EXPECT_EQ(clipped, 2u);
    }
}

TEST(QuantQuantizer, StatsAreTheErrorOfWhatCameBack)
{
    const std::vector<float> reference = {1, -1, 2, 0};
    const std::vector<float> approximation = {1, -1.5f, 2, 0.5f};
    const QuantStats s = measureError(reference, approximation);
    EXPECT_DOUBLE_EQ(s.mse, 0.125);        // (0.25 + 0.25) / 4
    EXPECT_DOUBLE_EQ(s.signalPower, 1.5);  // 6 / 4
    EXPECT_DOUBLE_EQ(s.sqnrDb, 10 * std::log10(12.0));
    EXPECT_DOUBLE_EQ(s.maxAbsError, 0.5);
    EXPECT_TRUE(std::isinf(sqnrDb(1, 0)));
    EXPECT_THROW(measureError(reference, std::vector<float>(3)), InputError);

    const std::vector<float> values = generateValues(Distribution::Gaussian, 5000, 8);
    const QuantResult r = quantize(values, config(Format::INT4, QuantScheme::Asymmetric, Calibrator::Mse));
    const QuantStats direct = measureError(values, r.dequantized);
    EXPECT_DOUBLE_EQ(r.stats.mse, direct.mse);
    EXPECT_DOUBLE_EQ(r.stats.sqnrDb, direct.sqnrDb);
    EXPECT_DOUBLE_EQ(r.stats.maxAbsError, direct.maxAbsError);
    EXPECT_EQ(r.stats.count, values.size());
}

TEST(QuantQuantizer, AsymmetricGainsOneBitOnOneSidedData)
{
    // Post-ReLU-like data in [0, max]: the symmetric grid wastes its negative half, so its step is
    // max/127 against max/255 for the asymmetric one: 20 log10(255/127) = 6.05 dB more SQNR.
    std::vector<float> values = generateValues(Distribution::Uniform, 200000, 4);
    for (float& v : values)
        v = std::abs(v);
    const QuantResult sym = quantize(values, config(Format::INT8, QuantScheme::Symmetric));
    const QuantResult asym = quantize(values, config(Format::INT8, QuantScheme::Asymmetric));
    EXPECT_EQ(asym.slices[0].params.zeroPoint, 0);
    EXPECT_NEAR(asym.stats.sqnrDb - sym.stats.sqnrDb, 20 * std::log10(255.0 / 127), 0.05);
}

TEST(QuantQuantizer, SlicesFollowTheShape)
{
    QuantConfig c = config(Format::INT8, QuantScheme::Symmetric);
    EXPECT_EQ(sliceLayout(12, {3, 4}, c).size(), 1u);
    c.granularity = Granularity::Channel;
    const std::vector<QuantSlice> rows = sliceLayout(12, {3, 4}, c);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2].offset, 8u);
    EXPECT_EQ(rows[2].count, 4u);
    c.granularity = Granularity::Group;
    c.groupSize = 4;
    const std::vector<QuantSlice> groups = sliceLayout(20, {2, 10}, c); // 4 + 4 + 2 per row
    ASSERT_EQ(groups.size(), 6u);
    EXPECT_EQ(groups[2].offset, 8u);
    EXPECT_EQ(groups[2].count, 2u);
    EXPECT_EQ(groups[3].offset, 10u);
    EXPECT_EQ(groups[3].count, 4u);
    EXPECT_THROW(sliceLayout(12, {5, 2}, c), InputError);
    // No shape: one row holding everything.
    EXPECT_EQ(sliceLayout(9, {}, c).size(), 3u);
}

TEST(QuantQuantizer, EachSliceIsQuantizedAsIfAlone)
{
    // Rows with scales 2^0 .. 2^7: per-channel must equal quantizing each row per-tensor, and groups
    // each group; per-tensor suffers on the small rows.
    const std::size_t rows = 8, cols = 96;
    std::vector<float> weights = generateValues(Distribution::Gaussian, rows * cols, 9);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < cols; ++k)
            weights[r * cols + k] *= static_cast<float>(std::ldexp(1.0, static_cast<int>(r)));
    for (const Calibrator calibrator : {Calibrator::Max, Calibrator::Mse, Calibrator::Entropy, Calibrator::Percentile}) {
        QuantConfig c = config(Format::INT4, QuantScheme::Asymmetric, calibrator);
        c.granularity = Granularity::Channel;
        const QuantResult perChannel = quantizeWeights(weights, rows, cols, c);
        c.granularity = Granularity::Group;
        c.groupSize = 40; // 40 + 40 + 16 per row
        const QuantResult perGroup = quantizeWeights(weights, rows, cols, c);
        ASSERT_EQ(perGroup.slices.size(), rows * 3);
        c.granularity = Granularity::Tensor;
        for (const QuantSlice& slice : perChannel.slices) {
            const std::span<const float> row(weights.data() + slice.offset, slice.count);
            const QuantResult alone = quantize(row, c);
            for (std::size_t k = 0; k < slice.count; ++k)
                ASSERT_EQ(perChannel.dequantized[slice.offset + k], alone.dequantized[k]);
        }
        for (const QuantSlice& slice : perGroup.slices) {
            const std::span<const float> group(weights.data() + slice.offset, slice.count);
            const QuantResult alone = quantize(group, c);
            for (std::size_t k = 0; k < slice.count; ++k)
                ASSERT_EQ(perGroup.dequantized[slice.offset + k], alone.dequantized[k]);
        }
        const QuantResult perTensor = quantizeWeights(weights, rows, cols, c);
        EXPECT_GT(perChannel.stats.sqnrDb, perTensor.stats.sqnrDb) << calibratorKey(calibrator);
    }
}

TEST(QuantQuantizer, WeightMatricesComeBackDequantized)
{
    const std::size_t rows = 16, cols = 64;
    const std::vector<float> weights = generateValues(Distribution::Laplace, rows * cols, 10);
    QuantConfig c = config(Format::FP8E4M3, QuantScheme::Symmetric, Calibrator::Max);
    c.granularity = Granularity::Channel;
    const QuantResult r = quantizeWeights(weights, rows, cols, c);
    ASSERT_EQ(r.dequantized.size(), weights.size());
    EXPECT_EQ(r.shape.rows, rows);
    EXPECT_EQ(r.shape.cols, cols);
    ASSERT_EQ(r.slices.size(), rows);
    for (const QuantSlice& slice : r.slices) {
        // Max calibration per row: each row's largest |w| maps to 448 exactly and comes back unchanged.
        const std::span<const float> row(weights.data() + slice.offset, slice.count);
        EXPECT_DOUBLE_EQ(slice.params.scale * 448, absMax(row));
        for (std::size_t k = 0; k < slice.count; ++k) {
            const double scaled = row[k] / slice.params.scale;
            EXPECT_NEAR(r.dequantized[slice.offset + k], roundTo(Format::FP8E4M3, scaled) * slice.params.scale,
                        1e-6 * std::abs(row[k]) + 1e-12);
        }
    }
    // E4M3 keeps 3 mantissa bits: relative rounding error <= 2^-4 for normal values, so SQNR > 24 dB.
    EXPECT_GT(r.stats.sqnrDb, 24.0);
    EXPECT_THROW(quantizeWeights(weights, rows, cols + 1, c), InputError);
    EXPECT_THROW(quantizeWeights(weights, 0, cols, c), InputError);

    std::vector<float> broken = weights;
    broken[5] = std::nanf("");
    try {
        quantizeWeights(broken, rows, cols, c);
        FAIL() << "a NaN weight was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("Value 5 is NaN"), std::string::npos) << error.what();
    }
    std::vector<float> inPlace = weights;
    const QuantStats stats = quantizeInPlace(inPlace, c, {rows, cols});
    EXPECT_EQ(inPlace, r.dequantized);
    EXPECT_DOUBLE_EQ(stats.mse, r.stats.mse);
}

TEST(QuantQuantizer, ZerosStayZero)
{
    const std::vector<float> zeros(100, 0.0f);
    for (const Calibrator calibrator : {Calibrator::Max, Calibrator::Percentile, Calibrator::Mse, Calibrator::Entropy})
        for (const QuantScheme scheme : {QuantScheme::Symmetric, QuantScheme::Asymmetric}) {
            const QuantResult r = quantize(zeros, config(Format::INT8, scheme, calibrator));
            EXPECT_EQ(r.dequantized, zeros);
            EXPECT_EQ(r.stats.mse, 0.0);
            EXPECT_EQ(r.stats.clipped, 0u);
        }
    EXPECT_THROW(quantize(std::vector<float>{}, QuantConfig{}), InputError);
}
