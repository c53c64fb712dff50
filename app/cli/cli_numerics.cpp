#include "cli/cli_numerics.h"

#include "cli/exit_codes.h"
#include "numerics/distributions.h"
#include "numerics/number_format.h"
#include "numerics/quant_config.h"
#include "numerics/quantizer.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <climits>
#include <cstdlib>
#include <ostream>

namespace warpscope::cli {

NumericsCommands addNumericsCommand(CLI::App& app, NumericsOptions& options)
{
    NumericsCommands commands;
    commands.numerics = app.add_subcommand("numerics", "The precision lab: number formats, quantization, mixed precision");
    commands.numerics->require_subcommand(1);
    commands.convert = commands.numerics->add_subcommand(
        "convert", "Round values to a number format: the stored bits, the value kept and the rounding error");
    commands.convert->add_option("--format", options.convert.format,
                                 "fp32, tf32, fp16, bf16, fp8e4m3, fp8e5m2, int8, uint8 or int4")
        ->required();
    commands.convert->add_flag("--saturate", options.convert.saturate,
                               "overflow to the largest finite value (CUDA's __NV_SATFINITE) instead of inf/NaN");
    commands.convert->add_option("value", options.convert.values, "decimal values (inf, -inf and nan allowed)")->required();
    commands.convert->add_flag("--json", options.convert.json, "print JSON");

    NumericsQuantizeOptions& q = options.quantize;
    commands.quantize = commands.numerics->add_subcommand(
        "quantize", "Quantize synthetic data with a calibrator and report the error (SQNR, MSE, max error, clip, scale)");
    commands.quantize->add_option("--dist", q.dist, "gaussian, laplace, uniform or outliers (unit variance)")->capture_default_str();
    commands.quantize->add_option("--n", q.n, "number of values (1 .. 100,000,000)")->capture_default_str();
    commands.quantize->add_option("--seed", q.seed, "seed of the generator (same seed, same values everywhere)")->capture_default_str();
    commands.quantize->add_option("--rows", q.rows, "lay the values out as ROWS x (n / ROWS); channels are rows")->capture_default_str();
    commands.quantize->add_option("--format", q.format, "int8, int4, fp8e4m3 or fp8e5m2")->capture_default_str();
    commands.quantize->add_option("--scheme", q.scheme, "symmetric or asymmetric (integers only)")->capture_default_str();
    commands.quantize->add_option("--granularity", q.granularity, "tensor, channel or group:G")->capture_default_str();
    commands.quantize->add_option("--calib", q.calib, "max, percentile:P, mse or entropy")->capture_default_str();
    commands.quantize->add_flag("--json", q.json, "print JSON");
    return commands;
}

namespace {

std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string exact(double value)
{
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

double parseValue(const std::string& text)
{
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
        throw InputError("value '" + text + "' is not a number (decimal, e.g. 0.1, -3e-8, inf, nan)");
    return value;
}

// What storing did to the value, in words.
std::string outcome(numerics::Format format, double input, double stored, bool saturate)
{
    if (std::isnan(input)) return "NaN stays NaN";
    if (std::isnan(stored)) return "overflow to NaN (this format has no infinity)";
    if (std::isinf(stored) && !std::isinf(input)) return "overflow to infinity";
    if (std::isinf(input)) return saturate ? "infinity saturated to the largest value" : "infinity";
    if (std::abs(input) > numerics::maxFinite(format) && std::abs(stored) == numerics::maxFinite(format))
        return formatInfo(format).isFloat ? "saturated to the largest finite value" : "saturated";
    if (input != 0 && stored == 0) return "flushed to zero (below half the smallest subnormal)";
    if (stored == input) return "exact";
    const numerics::ValueClass kind = numerics::classify(format, numerics::encode(format, stored));
    return kind == numerics::ValueClass::Subnormal ? "rounded (subnormal: fewer significant bits)" : "rounded";
}

int runConvert(const NumericsConvertOptions& options, std::ostream& out)
{
    const auto format = numerics::parseFormat(options.format);
    if (!format)
        throw InputError("--format '" + options.format + "' is not a number format (allowed: " + numerics::formatKeys() + ")");
    std::vector<double> inputs;
    for (const std::string& text : options.values)
        inputs.push_back(parseValue(text));
    const numerics::Overflow overflow = options.saturate ? numerics::Overflow::Saturate : numerics::Overflow::Ieee;
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double input = inputs[i];
        const std::uint32_t bits = numerics::encode(*format, input, overflow);
        const double stored = numerics::decode(*format, bits);
        const double error = stored - input;
        const bool finite = std::isfinite(error);
        const double relative = finite && input != 0 ? error / std::abs(input) : std::nan("");
        const std::string what = outcome(*format, input, stored, options.saturate);
        if (options.json) {
            nlohmann::ordered_json row{{"input", options.values[i]}, {"format", options.format}, {"bits", numerics::hexBits(*format, bits)},
                                       {"fields", numerics::fieldBits(*format, bits)}, {"value", exact(stored)},
                                       {"class", numerics::valueClassName(numerics::classify(*format, bits))}};
            row["error"] = finite ? nlohmann::ordered_json(error) : nlohmann::ordered_json(nullptr);
            row["relative_error"] = std::isnan(relative) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(relative);
            row["outcome"] = what;
            results.push_back(row);
        } else {
            out << options.values[i] << " -> " << options.format << " " << numerics::hexBits(*format, bits) << " ("
                << numerics::fieldBits(*format, bits) << ") = " << exact(stored) << "; error " << (finite ? shortNumber(error) : "n/a")
                << ", relative " << (std::isnan(relative) ? "n/a" : shortNumber(100.0 * relative) + " %") << "; " << what << "\n";
        }
    }
    if (options.json)
        out << results.dump(2) << "\n";
    return toInt(ExitCode::Ok);
}

nlohmann::ordered_json finiteOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

int runQuantize(const NumericsQuantizeOptions& options, std::ostream& out)
{
    const auto distribution = numerics::parseDistribution(options.dist);
    if (!distribution)
        throw InputError("--dist '" + options.dist + "' is not a distribution (allowed: " + numerics::distributionKeys() + ")");
    const auto count = static_cast<std::size_t>(parseInteger(options.n, "--n", 1, 100'000'000));
    const auto seed = static_cast<std::uint64_t>(parseInteger(options.seed, "--seed", 0, INT64_MAX));
    const auto rows = static_cast<std::size_t>(parseInteger(options.rows, "--rows", 1, 1'000'000));
    if (count % rows != 0)
        throw InputError("--rows " + std::to_string(rows) + " does not divide --n " + std::to_string(count) +
                         " (the values are laid out as rows x columns)");
    const numerics::QuantConfig config = numerics::parseQuantConfig(options.format, options.scheme, options.granularity, options.calib);
    const std::vector<float> values = numerics::generateValues(*distribution, count, seed);
    const numerics::QuantResult result = numerics::quantize(values, config, numerics::QuantShape{rows, count / rows});
    const numerics::QuantStats& stats = result.stats;
    const numerics::QuantParams& first = result.slices.front().params;
    if (options.json) {
        nlohmann::ordered_json report{{"dist", options.dist}, {"n", count}, {"seed", seed}, {"rows", rows},
                                      {"format", options.format}, {"scheme", std::string(numerics::schemeKey(config.scheme))},
                                      {"granularity", numerics::granularityText(config)}, {"calib", numerics::calibratorText(config)}};
        report["sqnr_db"] = finiteOrNull(stats.sqnrDb);
        report["mse"] = stats.mse;
        report["max_abs_error"] = stats.maxAbsError;
        report["signal_power"] = stats.signalPower;
        report["clipped"] = stats.clipped;
        // The first slice's parameters (the only one per tensor); every slice's under "slices".
        report["clip"] = nlohmann::ordered_json::array({first.clipLow, first.clipHigh});
        report["scale"] = first.scale;
        report["zero_point"] = first.zeroPoint;
        report["slices"] = result.slices.size();
        if (result.slices.size() > 1 && result.slices.size() <= 4096) {
            nlohmann::ordered_json slices = nlohmann::ordered_json::array();
            for (const numerics::QuantSlice& slice : result.slices)
                slices.push_back({{"offset", slice.offset}, {"count", slice.count}, {"clip", {slice.params.clipLow, slice.params.clipHigh}},
                                  {"scale", slice.params.scale}, {"zero_point", slice.params.zeroPoint}});
            report["slice_params"] = slices;
        }
        out << report.dump(2) << "\n";
        return toInt(ExitCode::Ok);
    }
    out << numerics::describeQuantConfig(config) << " on " << count << " " << options.dist << " values (seed " << seed << ")\n";
    out << "  SQNR           " << (std::isfinite(stats.sqnrDb) ? shortNumber(stats.sqnrDb) + " dB" : "n/a (no error or no signal)") << "\n";
    out << "  MSE            " << shortNumber(stats.mse) << "\n";
    out << "  max |error|    " << shortNumber(stats.maxAbsError) << "\n";
    out << "  clipped        " << stats.clipped << " values\n";
    out << "  clip           [" << shortNumber(first.clipLow) << ", " << shortNumber(first.clipHigh) << "]"
        << (result.slices.size() > 1 ? " (first of " + std::to_string(result.slices.size()) + " slices)" : std::string()) << "\n";
    out << "  scale          " << shortNumber(first.scale) << "\n";
    out << "  zero point     " << first.zeroPoint << "\n";
    return toInt(ExitCode::Ok);
}

} // namespace

int runNumerics(const NumericsCommands& commands, const NumericsOptions& options, std::ostream& out, std::ostream&)
{
    if (commands.convert->parsed())
        return runConvert(options.convert, out);
    if (commands.quantize->parsed())
        return runQuantize(options.quantize, out);
    return toInt(ExitCode::BadInput);
}

} // namespace warpscope::cli
