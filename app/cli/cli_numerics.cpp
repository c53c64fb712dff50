#include "cli/cli_numerics.h"

#include "cli/exit_codes.h"
#include "numerics/amp_trainer.h"
#include "numerics/distributions.h"
#include "numerics/number_format.h"
#include "numerics/quant_config.h"
#include "numerics/quantizer.h"
#include "numerics/stored_value.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <climits>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <set>

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

    NumericsAmpOptions& a = options.amp;
    commands.amp = commands.numerics->add_subcommand(
        "amp", "Train the small MLP in one precision mode: loss and loss scale per step, skipped steps, gradient underflow");
    commands.amp->add_option("--mode", a.mode, "fp32, fp16 (no scaling), fp16-static:S, fp16-dynamic or bf16")->capture_default_str();
    commands.amp->add_option("--steps", a.steps, "optimizer steps (1 .. 100,000)")->capture_default_str();
    commands.amp->add_option("--seed", a.seed, "seed of the initial weights and batch order")->capture_default_str();
    commands.amp->add_option("--growth-interval", a.growthInterval,
                             "fp16-dynamic: clean steps before the scale doubles (PyTorch's growth_interval)")
        ->capture_default_str();
    commands.amp->add_flag("--json", a.json, "print JSON");
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

int runConvert(const NumericsConvertOptions& options, std::ostream& out)
{
    const auto format = numerics::parseFormat(options.format);
    if (!format)
        throw InputError("--format '" + options.format + "' is not a number format (allowed: " + numerics::formatKeys() + ")");
    std::vector<double> inputs;
    for (const std::string& text : options.values)
        inputs.push_back(parseReal(text, "value"));
    const numerics::Overflow overflow = options.saturate ? numerics::Overflow::Saturate : numerics::Overflow::Ieee;
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double input = inputs[i];
        const numerics::StoredValue stored = numerics::storeIn(*format, input, overflow);
        const std::uint32_t bits = stored.bits;
        const double error = stored.error;
        const bool finite = std::isfinite(error);
        const double relative = finite && input != 0 ? error / std::abs(input) : std::nan("");
        const std::string what = numerics::storeOutcomeWords(stored);
        if (options.json) {
            nlohmann::ordered_json row{{"input", options.values[i]}, {"format", options.format}, {"bits", numerics::hexBits(*format, bits)},
                                       {"fields", numerics::fieldBits(*format, bits)}, {"value", exact(stored.stored)},
                                       {"class", numerics::valueClassName(numerics::classify(*format, bits))}};
            row["error"] = finite ? nlohmann::ordered_json(error) : nlohmann::ordered_json(nullptr);
            row["relative_error"] = std::isnan(relative) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(relative);
            row["outcome"] = what;
            results.push_back(row);
        } else {
            out << options.values[i] << " -> " << options.format << " " << numerics::hexBits(*format, bits) << " ("
                << numerics::fieldBits(*format, bits) << ") = " << exact(stored.stored) << "; error " << (finite ? shortNumber(error) : "n/a")
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

numerics::AmpConfig ampConfig(const NumericsAmpOptions& options)
{
    numerics::AmpConfig config;
    std::string mode = options.mode;
    if (mode.starts_with("fp16-static")) {
        const std::size_t colon = mode.find(':');
        if (colon == std::string::npos)
            throw InputError("--mode fp16-static needs its scale: fp16-static:S, e.g. fp16-static:65536");
        const std::string scale = mode.substr(colon + 1);
        const double value = parseReal(scale, "--mode fp16-static");
        if (!(value >= 1.0) || value > 3.0e38)
            throw InputError("--mode fp16-static:" + scale + ": the scale must be a number from 1 to 3e38 (e.g. 65536)");
        config.staticScale = static_cast<float>(value);
        mode = "fp16-static";
    }
    const auto parsed = numerics::parseAmpMode(mode);
    if (!parsed || mode == "fp16-static:")
        throw InputError("--mode '" + options.mode + "' is not a training mode (allowed: fp32, fp16, fp16-static:S, fp16-dynamic, bf16)");
    config.mode = *parsed;
    config.steps = static_cast<int>(parseInteger(options.steps, "--steps", 1, 100000));
    config.seed = static_cast<std::uint64_t>(parseInteger(options.seed, "--seed", 0, INT64_MAX));
    config.scaler.growthInterval = static_cast<int>(parseInteger(options.growthInterval, "--growth-interval", 1, 1000000));
    try {
        numerics::validateAmpConfig(config);
    } catch (const std::invalid_argument& error) {
        throw InputError(error.what());
    }
    return config;
}

int runAmp(const NumericsAmpOptions& options, std::ostream& out)
{
    const numerics::AmpConfig config = ampConfig(options);
    const numerics::AmpResult result = numerics::runAmpTraining(config);
    std::vector<int> skipped;
    for (std::size_t i = 0; i < result.steps.size(); ++i)
        if (result.steps[i].skipped)
            skipped.push_back(static_cast<int>(i));
    const bool half = config.mode != numerics::AmpMode::FP32;
    if (options.json) {
        nlohmann::ordered_json loss = nlohmann::ordered_json::array(), scale = nlohmann::ordered_json::array(),
                               underflow = nlohmann::ordered_json::array();
        for (const numerics::AmpStepRecord& step : result.steps) {
            loss.push_back(finiteOrNull(step.loss));
            scale.push_back(step.scale);
            underflow.push_back(finiteOrNull(step.underflowShare));
        }
        nlohmann::ordered_json report{{"mode", options.mode}, {"steps", config.steps}, {"seed", config.seed},
                                      {"growth_interval", config.scaler.growthInterval}};
        report["final_loss"] = finiteOrNull(result.finalLoss());
        report["test_accuracy"] = finiteOrNull(result.test.accuracy);
        report["underflow_share"] = result.meanUnderflowShare();
        report["skipped_steps"] = skipped;
        report["non_finite_steps"] = result.nonFiniteSteps;
        report["loss"] = loss;
        report["scale"] = scale;
        report["underflow_share_per_step"] = underflow;
        out << report.dump() << "\n";
        return toInt(ExitCode::Ok);
    }
    out << numerics::ampModeInfo(config.mode).name << ", " << config.steps << " steps, seed " << config.seed << "\n";
    for (int step : std::set<int>{0, 10, 100, 500, static_cast<int>(result.steps.size()) - 1})
        if (step >= 0 && step < static_cast<int>(result.steps.size()))
            out << "  step " << std::setw(6) << step << "  loss " << std::setw(12) << shortNumber(result.steps[static_cast<std::size_t>(step)].loss)
                << "  scale " << shortNumber(result.steps[static_cast<std::size_t>(step)].scale) << "\n";
    out << "  final training loss   " << shortNumber(result.finalLoss()) << "\n";
    out << "  held-out accuracy     " << shortNumber(100.0 * result.test.accuracy) << " %\n";
    if (half)
        out << "  gradient underflow    " << shortNumber(100.0 * result.meanUnderflowShare())
            << " % of the nonzero FP32 gradient elements were zero in " << numerics::formatInfo(numerics::ampComputeFormat(config.mode)).key
            << " (mean over steps)\n";
    out << "  skipped steps         " << skipped.size();
    for (std::size_t i = 0; i < skipped.size() && i < 10; ++i)
        out << (i == 0 ? " (" : ", ") << skipped[i];
    out << (skipped.empty() ? "" : skipped.size() > 10 ? ", ...)" : ")") << "\n";
    if (result.nonFiniteSteps > 0 && config.mode != numerics::AmpMode::FP16Dynamic)
        out << "  steps with inf/NaN gradients: " << result.nonFiniteSteps << " (no scaler checks them: they reach the weights)\n";
    return toInt(ExitCode::Ok);
}

} // namespace

int runNumerics(const NumericsCommands& commands, const NumericsOptions& options, std::ostream& out, std::ostream&)
{
    if (commands.convert->parsed())
        return runConvert(options.convert, out);
    if (commands.quantize->parsed())
        return runQuantize(options.quantize, out);
    if (commands.amp->parsed())
        return runAmp(options.amp, out);
    return toInt(ExitCode::BadInput);
}

} // namespace warpscope::cli
