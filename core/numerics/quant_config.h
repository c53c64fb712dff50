// What a post-training quantization does: the target format (INT8, INT4, FP8 E4M3/E5M2), the
// scheme, the granularity and the calibrator, and the parser for the command line's spelling of
// them ("int8", "asymmetric", "group:128", "percentile:99.99").
//
// Schemes (see quantizer.h for the arithmetic):
//   symmetric  integers on the narrow grid [-(2^(b-1)-1), 2^(b-1)-1], scale = clip / (2^(b-1)-1),
//              zero point 0 (TensorRT's and pytorch-quantization's INT8 grid: -128 is never used);
//              FP8: scale = clip / the format's largest finite value, then round to the format.
//   asymmetric integers on the full unsigned grid [0, 2^b - 1] with a zero point (PyTorch's quint8
//              convention): scale = (high - low) / (2^b - 1), zero point = round(-low / scale),
//              where the range [low, high] is widened to contain 0 so that 0 stays exact.
//              FP8 has a sign bit and no zero point: asymmetric FP8 is refused.
#pragma once

#include "numerics/number_format.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace warpscope::numerics {

enum class QuantScheme : std::uint8_t { Symmetric, Asymmetric };      // see above
enum class Granularity : std::uint8_t { Tensor, Channel, Group };      // what shares one scale
enum class Calibrator : std::uint8_t { Max, Percentile, Mse, Entropy }; // how the clip is chosen (calibration.h)

inline constexpr std::size_t kDefaultGroupSize = 128;  // "group" alone: GPTQ's and AWQ's usual size
inline constexpr double kDefaultPercentile = 99.99;    // "percentile" alone: pytorch-quantization's default

struct QuantConfig { // one post-training quantization method
    Format format = Format::INT8;                      // INT8, INT4, FP8E4M3 or FP8E5M2
    QuantScheme scheme = QuantScheme::Symmetric;
    Granularity granularity = Granularity::Tensor;     // Channel: one scale per row
    std::size_t groupSize = kDefaultGroupSize;         // Group: values per group along a row
    Calibrator calibrator = Calibrator::Max;
    double percentile = kDefaultPercentile;            // Percentile: P of |x|, in (0, 100]
};

// Whether the format is a quantization target: INT8, INT4, FP8 E4M3 or FP8 E5M2.
bool isQuantTarget(Format format);

// Parsers for the command line's words; each throws InputError with one sentence naming the bad
// value and what is allowed. `what` is the flag the text came from, for the message.
Format parseQuantFormat(std::string_view text, std::string_view what = "--format");          // int8|int4|fp8e4m3|fp8e5m2
QuantScheme parseQuantScheme(std::string_view text, std::string_view what = "--scheme");      // symmetric|asymmetric
void parseGranularity(std::string_view text, QuantConfig& config, std::string_view what = "--granularity"); // tensor|channel|group:G
void parseCalibrator(std::string_view text, QuantConfig& config, std::string_view what = "--calib");        // max|percentile:P|mse|entropy

// All four words at once, then validated.
QuantConfig parseQuantConfig(std::string_view format, std::string_view scheme, std::string_view granularity,
                             std::string_view calibrator);

// Throws InputError for combinations that make no sense (asymmetric FP8, a group size of 0, a
// percentile outside (0, 100], a format that is not a quantization target).
void validateQuantConfig(const QuantConfig& config);

std::string_view schemeKey(QuantScheme scheme);       // "symmetric"
std::string_view calibratorKey(Calibrator calibrator); // "entropy" (no parameter)
std::string granularityText(const QuantConfig& config); // "tensor", "channel", "group:128"
std::string calibratorText(const QuantConfig& config);  // "max", "percentile:99.99", ...
// "int8 symmetric tensor entropy": the four words, parseable again.
std::string quantConfigKey(const QuantConfig& config);
// "INT8, symmetric, per-tensor, entropy (KL) calibration": for labels.
std::string describeQuantConfig(const QuantConfig& config);

} // namespace warpscope::numerics
