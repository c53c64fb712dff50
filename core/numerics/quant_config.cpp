#include "numerics/quant_config.h"

#include "util/input_error.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <system_error>

namespace warpscope::numerics {
namespace {

constexpr std::size_t kMaxGroupSize = std::size_t{1} << 24;

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// Shortest text that reads back as the same double ("99.99", "50").
std::string shortest(double value)
{
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc{} ? std::string(text, end) : std::to_string(value);
}

std::string_view afterColon(std::string_view text, std::string_view head)
{
    return text.substr(head.size() + 1);
}

bool startsWithParameter(std::string_view text, std::string_view head)
{
    return text.size() > head.size() && text.substr(0, head.size()) == head && text[head.size()] == ':';
}

} // namespace

bool isQuantTarget(Format format)
{
    return format == Format::INT8 || format == Format::INT4 || format == Format::FP8E4M3 || format == Format::FP8E5M2;
}

Format parseQuantFormat(std::string_view text, std::string_view what)
{
    const std::optional<Format> format = parseFormat(text);
    if (!format || !isQuantTarget(*format))
        throw InputError(std::string(what) + " " + quoted(text) +
                         " is not a quantization format (allowed: int8, int4, fp8e4m3, fp8e5m2).");
    return *format;
}

QuantScheme parseQuantScheme(std::string_view text, std::string_view what)
{
    if (text == "symmetric")
        return QuantScheme::Symmetric;
    if (text == "asymmetric")
        return QuantScheme::Asymmetric;
    throw InputError(std::string(what) + " " + quoted(text) + " is not a scheme (allowed: symmetric, asymmetric).");
}

void parseGranularity(std::string_view text, QuantConfig& config, std::string_view what)
{
    const std::string allowed = " (allowed: tensor, channel, group:G with G from 1 to " + std::to_string(kMaxGroupSize) + ").";
    if (text == "tensor") {
        config.granularity = Granularity::Tensor;
        return;
    }
    if (text == "channel") {
        config.granularity = Granularity::Channel;
        return;
    }
    if (text == "group") {
        config.granularity = Granularity::Group;
        config.groupSize = kDefaultGroupSize;
        return;
    }
    if (!startsWithParameter(text, "group"))
        throw InputError(std::string(what) + " " + quoted(text) + " is not a granularity" + allowed);
    const std::string_view number = afterColon(text, "group");
    std::size_t size = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), size);
    if (ec != std::errc{} || end != number.data() + number.size() || size < 1 || size > kMaxGroupSize)
        throw InputError(std::string(what) + " " + quoted(text) + " has a bad group size" + allowed);
    config.granularity = Granularity::Group;
    config.groupSize = size;
}

void parseCalibrator(std::string_view text, QuantConfig& config, std::string_view what)
{
    const std::string allowed = " (allowed: max, percentile:P with P in (0, 100], mse, entropy).";
    if (text == "max" || text == "mse" || text == "entropy") {
        config.calibrator = text == "max" ? Calibrator::Max : text == "mse" ? Calibrator::Mse : Calibrator::Entropy;
        return;
    }
    if (text == "percentile") {
        config.calibrator = Calibrator::Percentile;
        config.percentile = kDefaultPercentile;
        return;
    }
    if (!startsWithParameter(text, "percentile"))
        throw InputError(std::string(what) + " " + quoted(text) + " is not a calibrator" + allowed);
    const std::string_view number = afterColon(text, "percentile");
    double percentile = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), percentile);
    if (ec != std::errc{} || end != number.data() + number.size() || !(percentile > 0 && percentile <= 100))
        throw InputError(std::string(what) + " " + quoted(text) + " has a bad percentile" + allowed);
    config.calibrator = Calibrator::Percentile;
    config.percentile = percentile;
}

QuantConfig parseQuantConfig(std::string_view format, std::string_view scheme, std::string_view granularity,
                             std::string_view calibrator)
{
    QuantConfig config;
    config.format = parseQuantFormat(format);
    config.scheme = parseQuantScheme(scheme);
    parseGranularity(granularity, config);
    parseCalibrator(calibrator, config);
    validateQuantConfig(config);
    return config;
}

void validateQuantConfig(const QuantConfig& config)
{
    if (!isQuantTarget(config.format))
        throw InputError("Format " + std::string(formatInfo(config.format).key) +
                         " is not a quantization format (allowed: int8, int4, fp8e4m3, fp8e5m2).");
    if (config.scheme == QuantScheme::Asymmetric && formatInfo(config.format).isFloat)
        throw InputError("Scheme asymmetric needs an integer format: " + std::string(formatInfo(config.format).key) +
                         " has a sign bit and no zero point (use symmetric, or int8/int4).");
    if (config.granularity == Granularity::Group && (config.groupSize < 1 || config.groupSize > kMaxGroupSize))
        throw InputError("Group size " + std::to_string(config.groupSize) + " is out of range (allowed: 1 to " +
                         std::to_string(kMaxGroupSize) + ").");
    if (config.calibrator == Calibrator::Percentile && !(config.percentile > 0 && config.percentile <= 100))
        throw InputError("Percentile " + shortest(config.percentile) + " is out of range (allowed: (0, 100]).");
}

std::string_view schemeKey(QuantScheme scheme) { return scheme == QuantScheme::Symmetric ? "symmetric" : "asymmetric"; }

std::string_view calibratorKey(Calibrator calibrator)
{
    switch (calibrator) {
    case Calibrator::Max: return "max";
    case Calibrator::Percentile: return "percentile";
    case Calibrator::Mse: return "mse";
    case Calibrator::Entropy: return "entropy";
    }
    return "?";
}

std::string granularityText(const QuantConfig& config)
{
    switch (config.granularity) {
    case Granularity::Tensor: return "tensor";
    case Granularity::Channel: return "channel";
    case Granularity::Group: return "group:" + std::to_string(config.groupSize);
    }
    return "?";
}

std::string calibratorText(const QuantConfig& config)
{
    if (config.calibrator == Calibrator::Percentile)
        return "percentile:" + shortest(config.percentile);
    return std::string(calibratorKey(config.calibrator));
}

std::string quantConfigKey(const QuantConfig& config)
{
    return std::string(formatInfo(config.format).key) + " " + std::string(schemeKey(config.scheme)) + " " +
           granularityText(config) + " " + calibratorText(config);
}

std::string describeQuantConfig(const QuantConfig& config)
{
    std::string format(formatInfo(config.format).key);
    for (char& c : format) // "fp8e4m3" -> "FP8E4M3"
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
    std::string granularity = config.granularity == Granularity::Tensor    ? "per-tensor"
                              : config.granularity == Granularity::Channel ? "per-channel"
                                                                           : "groups of " + std::to_string(config.groupSize);
    std::string calibration;
    switch (config.calibrator) {
    case Calibrator::Max: calibration = "max calibration"; break;
    case Calibrator::Percentile: calibration = shortest(config.percentile) + "th percentile calibration"; break;
    case Calibrator::Mse: calibration = "MSE-optimal clip"; break;
    case Calibrator::Entropy: calibration = "entropy (KL) calibration"; break;
    }
    return format + ", " + std::string(schemeKey(config.scheme)) + ", " + granularity + ", " + calibration;
}

} // namespace warpscope::numerics
