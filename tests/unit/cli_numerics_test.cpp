// `warpscope numerics`: conversions against hand-computed bit patterns, JSON fields, bad input.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

TEST(CliNumerics, ConvertSaysWhichEndASaturationClampedTo)
{
    // UINT8 holds 0..255: -1 is clamped to 0, its smallest value (it used to read "saturated to the
    // largest finite value"); 300 to 255.
    auto result = runWarpscope("numerics convert --format uint8 -1 300");
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("-1 -> uint8 0x00 (00000000) = 0; error 1, relative 100 %; saturated to the smallest value, 0"),
              std::string::npos) << result.out;
    EXPECT_NE(result.out.find("300 -> uint8 0xFF (11111111) = 255; error -45, relative -15 %; saturated to the largest value, 255"),
              std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("largest finite"), std::string::npos) << result.out;
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
    EXPECT_EQ(rows[1]["outcome"], "flushed to zero (at most half the smallest subnormal)");
}

TEST(CliNumerics, BadInputExitsTwoWithOneLine)
{
    auto result = runWarpscope("numerics convert --format fp64 1");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--format 'fp64' is not a number format (allowed: fp32, tf32, fp16"), std::string::npos) << result.err;
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1);
    result = runWarpscope("numerics convert --format fp16 1.5x");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("value: '1.5x' is not a number"), std::string::npos) << result.err;
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

namespace {

nlohmann::json ampRun(const std::string& arguments)
{
    const auto result = runWarpscope("numerics amp --json " + arguments);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    return nlohmann::json::parse(result.out);
}

} // namespace

TEST(CliNumerics, AmpFp16WithoutScalingUnderflowsAndLags)
{
    const nlohmann::json fp32 = ampRun("--mode fp32 --steps 1000");
    const nlohmann::json fp16 = ampRun("--mode fp16 --steps 1000");
    const nlohmann::json dynamic = ampRun("--mode fp16-dynamic --steps 1000");
    ASSERT_EQ(fp16["loss"].size(), 1000u);
    EXPECT_GT(fp16["underflow_share"].get<double>(), 0.3);        // a large share flushes to zero
    EXPECT_LT(dynamic["underflow_share"].get<double>(), 0.05);    // the scale lifts it into range
    EXPECT_EQ(fp32["underflow_share"].get<double>(), 0.0);
    EXPECT_GT(fp16["final_loss"].get<double>(), 3.0 * fp32["final_loss"].get<double>());
    EXPECT_LT(dynamic["final_loss"].get<double>(), 1.5 * fp32["final_loss"].get<double>());
    for (const auto& scale : fp16["scale"])
        EXPECT_EQ(scale.get<double>(), 1.0);
    EXPECT_EQ(dynamic["scale"][0].get<double>(), 65536.0); // GradScaler's initial 2^16
}

TEST(CliNumerics, AmpDynamicScaleFollowsGradScalersRule)
{
    const int interval = 20;
    const nlohmann::json run = ampRun("--mode fp16-dynamic --steps 600 --growth-interval " + std::to_string(interval));
    const auto& scale = run["scale"];
    std::vector<int> skipped = run["skipped_steps"].get<std::vector<int>>();
    ASSERT_FALSE(skipped.empty()) << "a growth interval of 20 must reach overflow within 600 steps";
    // Replay the rule from the skipped flags: halve after a skipped step, double after `interval`
    // clean steps in a row, otherwise keep the scale.
    double expected = 65536.0;
    int clean = 0;
    for (std::size_t i = 0; i < scale.size(); ++i) {
        ASSERT_EQ(scale[i].get<double>(), expected) << "step " << i;
        const bool wasSkipped = std::find(skipped.begin(), skipped.end(), static_cast<int>(i)) != skipped.end();
        if (wasSkipped) {
            expected *= 0.5;
            clean = 0;
        } else if (++clean == interval) {
            expected *= 2.0;
            clean = 0;
        }
    }
}

TEST(CliNumerics, AmpIsDeterministicAndRefusesBadInput)
{
    EXPECT_EQ(ampRun("--mode bf16 --steps 50 --seed 7")["loss"], ampRun("--mode bf16 --steps 50 --seed 7")["loss"]);
    for (const char* arguments : {"--mode fp64", "--mode fp16-static", "--mode fp16-static:abc", "--mode fp16-static:0.5",
                                  "--steps 0", "--growth-interval 0", "--seed -1"}) {
        const auto result = runWarpscope(std::string("numerics amp ") + arguments);
        EXPECT_EQ(result.exitCode, 2) << arguments;
        EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << arguments << ": " << result.err;
    }
}
