// The command line's words for a quantization: every allowed spelling, and for each kind of bad
// value an InputError whose one sentence names the value and what is allowed.
#include "numerics/quant_config.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

using namespace warpscope::numerics;
using warpscope::InputError;

namespace {

// The message of the InputError that `parse` throws ("" if it throws none).
template <typename Parse>
std::string errorOf(Parse parse)
{
    try {
        parse();
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(QuantConfig, ParsesEveryAllowedWord)
{
    EXPECT_EQ(parseQuantFormat("int8"), Format::INT8);
    EXPECT_EQ(parseQuantFormat("int4"), Format::INT4);
    EXPECT_EQ(parseQuantFormat("fp8e4m3"), Format::FP8E4M3);
    EXPECT_EQ(parseQuantFormat("fp8e5m2"), Format::FP8E5M2);
    EXPECT_EQ(parseQuantScheme("symmetric"), QuantScheme::Symmetric);
    EXPECT_EQ(parseQuantScheme("asymmetric"), QuantScheme::Asymmetric);

    QuantConfig config;
    parseGranularity("channel", config);
    EXPECT_EQ(config.granularity, Granularity::Channel);
    parseGranularity("group:64", config);
    EXPECT_EQ(config.granularity, Granularity::Group);
    EXPECT_EQ(config.groupSize, 64u);
    parseGranularity("group", config);
    EXPECT_EQ(config.groupSize, kDefaultGroupSize);
    parseGranularity("tensor", config);
    EXPECT_EQ(config.granularity, Granularity::Tensor);

    parseCalibrator("percentile:99.9", config);
    EXPECT_EQ(config.calibrator, Calibrator::Percentile);
    EXPECT_DOUBLE_EQ(config.percentile, 99.9);
    parseCalibrator("percentile:100", config);
    EXPECT_DOUBLE_EQ(config.percentile, 100.0);
    parseCalibrator("percentile", config);
    EXPECT_DOUBLE_EQ(config.percentile, 99.99);
    parseCalibrator("mse", config);
    EXPECT_EQ(config.calibrator, Calibrator::Mse);
    parseCalibrator("entropy", config);
    EXPECT_EQ(config.calibrator, Calibrator::Entropy);
    parseCalibrator("max", config);
    EXPECT_EQ(config.calibrator, Calibrator::Max);
}

TEST(QuantConfig, BadWordsNameTheValueAndTheChoices)
{
    QuantConfig config;
    const std::string format = errorOf([] { parseQuantFormat("int16"); });
    EXPECT_TRUE(contains(format, "--format 'int16'")) << format;
    EXPECT_TRUE(contains(format, "int8, int4, fp8e4m3, fp8e5m2")) << format;
    // A number format that is not a quantization target is refused too.
    EXPECT_TRUE(contains(errorOf([] { parseQuantFormat("fp16"); }), "'fp16' is not a quantization format"));
    EXPECT_TRUE(contains(errorOf([] { parseQuantFormat("INT8"); }), "'INT8'"));

    const std::string scheme = errorOf([] { parseQuantScheme("affine"); });
    EXPECT_TRUE(contains(scheme, "--scheme 'affine'") && contains(scheme, "symmetric, asymmetric")) << scheme;

    for (const char* bad : {"group:0", "group:", "group:abc", "group:12x", "group:-4", "group:99999999999"}) {
        const std::string message = errorOf([&] { parseGranularity(bad, config); });
        EXPECT_TRUE(contains(message, "--granularity '" + std::string(bad) + "'")) << bad << ": " << message;
        EXPECT_TRUE(contains(message, "group:G")) << message;
    }
    EXPECT_TRUE(contains(errorOf([&] { parseGranularity("row", config); }), "'row' is not a granularity"));

    for (const char* bad : {"percentile:0", "percentile:101", "percentile:-5", "percentile:x", "percentile:", "percentile:nan"}) {
        const std::string message = errorOf([&] { parseCalibrator(bad, config); });
        EXPECT_TRUE(contains(message, "--calib '" + std::string(bad) + "'")) << bad << ": " << message;
        EXPECT_TRUE(contains(message, "percentile:P with P in (0, 100]")) << message;
    }
    const std::string calib = errorOf([&] { parseCalibrator("kl", config); });
    EXPECT_TRUE(contains(calib, "'kl' is not a calibrator") && contains(calib, "max, percentile:P")) << calib;
    // The flag name is the caller's.
    EXPECT_TRUE(contains(errorOf([] { parseQuantScheme("x", "scheme"); }), "scheme 'x'"));
    // A failed parse leaves the config as it was.
    QuantConfig untouched;
    EXPECT_THROW(parseGranularity("group:0", untouched), InputError);
    EXPECT_EQ(untouched.granularity, Granularity::Tensor);
    EXPECT_EQ(untouched.groupSize, kDefaultGroupSize);
}

TEST(QuantConfig, ValidationRefusesWhatCannotBeBuilt)
{
    const std::string fp8 = errorOf([] { parseQuantConfig("fp8e4m3", "asymmetric", "tensor", "max"); });
    EXPECT_TRUE(contains(fp8, "asymmetric") && contains(fp8, "fp8e4m3")) << fp8;
    EXPECT_NO_THROW(parseQuantConfig("int4", "asymmetric", "group:32", "mse"));

    QuantConfig config;
    config.format = Format::BF16;
    EXPECT_THROW(validateQuantConfig(config), InputError);
    config = {};
    config.granularity = Granularity::Group;
    config.groupSize = 0;
    EXPECT_TRUE(contains(errorOf([&] { validateQuantConfig(config); }), "Group size 0"));
    config = {};
    config.calibrator = Calibrator::Percentile;
    config.percentile = 0;
    EXPECT_THROW(validateQuantConfig(config), InputError);
    config.percentile = 50;
    EXPECT_NO_THROW(validateQuantConfig(config));
}

TEST(QuantConfig, KeysReadBackAndDescribe)
{
    const QuantConfig config = parseQuantConfig("int4", "asymmetric", "group:32", "percentile:99.9");
    EXPECT_EQ(quantConfigKey(config), "int4 asymmetric group:32 percentile:99.9");
    EXPECT_EQ(describeQuantConfig(config), "INT4, asymmetric, groups of 32, 99.9th percentile calibration");
    for (const char* format : {"int8", "int4", "fp8e4m3", "fp8e5m2"})
        for (const char* granularity : {"tensor", "channel", "group:7"})
            for (const char* calib : {"max", "percentile:99.999", "mse", "entropy"}) {
                const QuantConfig parsed = parseQuantConfig(format, "symmetric", granularity, calib);
                const std::string key = quantConfigKey(parsed);
                EXPECT_EQ(key, std::string(format) + " symmetric " + granularity + " " + calib);
            }
    EXPECT_EQ(describeQuantConfig(parseQuantConfig("fp8e5m2", "symmetric", "channel", "entropy")),
              "FP8E5M2, symmetric, per-channel, entropy (KL) calibration");
}
