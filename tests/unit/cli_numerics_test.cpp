// `warpscope numerics`: conversions against hand-computed bit patterns, JSON fields, bad input.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <cmath>

using warpscope::testing_support::runWarpscope;

TEST(CliNumerics, ConvertPrintsBitsValueAndError)
{
    // 0.1 in FP16: 1.6 x 2^-4 -> exponent 11 (01011), mantissa round(0.6 x 1024) = 614 (1001100110): 0x2E66,
    // 0.0999755859375. In BF16: mantissa round(0.6 x 128) = 77 (1001101), exponent 123: 0x3DCD = 0.10009765625.
    auto result = runWarpscope("numerics convert --format fp16 0.1 70000");
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("0.1 -> fp16 0x2E66 (0 01011 1001100110) = 0.0999755859375; error -2.44141e-05, relative -0.0244141 %; rounded"),
              std::string::npos) << result.out;
    EXPECT_NE(result.out.find("70000 -> fp16 0x7C00 (0 11111 0000000000) = inf; error n/a, relative n/a; overflow to infinity"),
              std::string::npos) << result.out;
    result = runWarpscope("numerics convert --format fp16 --saturate 70000");
    EXPECT_NE(result.out.find("= 65504;"), std::string::npos) << result.out;
    result = runWarpscope("numerics convert --format fp8e4m3 500");
    EXPECT_NE(result.out.find("0x7F (0 1111 111) = nan"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("overflow to NaN (this format has no infinity)"), std::string::npos) << result.out;
}

TEST(CliNumerics, ConvertJson)
{
    const auto result = runWarpscope("numerics convert --format bf16 0.1 1e-45 --json");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json rows = nlohmann::json::parse(result.out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["bits"], "0x3DCD");
    EXPECT_EQ(rows[0]["value"], "0.10009765625");
    EXPECT_DOUBLE_EQ(rows[0]["error"].get<double>(), 0.10009765625 - 0.1);
    EXPECT_EQ(rows[0]["class"], "normal");
    // 1e-45 is below half of BF16's smallest subnormal (2^-133 = 9.2e-41): zero.
    EXPECT_EQ(rows[1]["bits"], "0x0000");
    EXPECT_EQ(rows[1]["outcome"], "flushed to zero (below half the smallest subnormal)");
}

TEST(CliNumerics, BadInputExitsTwoWithOneLine)
{
    auto result = runWarpscope("numerics convert --format fp64 1");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--format 'fp64' is not a number format (allowed: fp32, tf32, fp16"), std::string::npos) << result.err;
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1);
    result = runWarpscope("numerics convert --format fp16 1.5x");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("value '1.5x' is not a number"), std::string::npos) << result.err;
    result = runWarpscope("numerics");
    EXPECT_EQ(result.exitCode, 2);
}

TEST(CliNumerics, QuantizeReportsTheIssuesReferenceFigure)
{
    // N(0,1), 10^6 samples, INT8 symmetric narrow grid, clip at the 99.99th percentile of |x|:
    // about 40.6 dB (issue 5; the exact Gaussian value is 40.54 dB, tests/numerics has the derivation).
    const auto result = runWarpscope("numerics quantize --dist gaussian --n 1000000 --seed 42 --format int8 --scheme symmetric "
                                     "--granularity tensor --calib percentile:99.99 --json");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out);
    EXPECT_NEAR(report["sqnr_db"].get<double>(), 40.6, 0.2);
    const double clip = report["clip"][1].get<double>();
    EXPECT_NEAR(clip, 3.89, 0.05); // the 99.99th percentile of |N(0,1)| is 3.8906
    EXPECT_DOUBLE_EQ(report["scale"].get<double>(), clip / 127.0);
    EXPECT_EQ(report["zero_point"].get<int>(), 0);
    EXPECT_EQ(report["clipped"].get<int>(), 100); // 0.01 % of 10^6
    EXPECT_GT(report["max_abs_error"].get<double>(), report["scale"].get<double>() / 2); // clipped tail values
    EXPECT_NEAR(10.0 * std::log10(report["signal_power"].get<double>() / report["mse"].get<double>()),
                report["sqnr_db"].get<double>(), 1e-9);
}

TEST(CliNumerics, QuantizePerChannelHasOneScalePerRow)
{
    const auto result = runWarpscope("numerics quantize --n 4096 --rows 4 --granularity channel --format int4 --calib max --json");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out);
    ASSERT_EQ(report["slices"].get<int>(), 4);
    for (const auto& slice : report["slice_params"]) {
        EXPECT_EQ(slice["count"].get<int>(), 1024);
        EXPECT_DOUBLE_EQ(slice["scale"].get<double>(), slice["clip"][1].get<double>() / 7.0); // INT4 narrow grid: 7 steps
    }
}

TEST(CliNumerics, QuantizeBadInput)
{
    for (const char* arguments : {"--format int5", "--dist cauchy", "--calib percentile:101", "--granularity group:0",
                                  "--scheme asymmetric --format fp8e4m3", "--n 0", "--n 10 --rows 3"}) {
        const auto result = runWarpscope(std::string("numerics quantize ") + arguments);
        EXPECT_EQ(result.exitCode, 2) << arguments;
        EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << arguments << ": " << result.err;
    }
}
