// Sections: running one kernel record (resolve, simulate, time) · the samples of every file · printing.
#include "cli/cli_session_validate.h"

#include "cli/exit_codes.h"
#include "kernel_target.h"
#include "session/session.h"
#include "session/session_io.h"
#include "session/session_preset.h"
#include "session/stall_comparison.h"
#include "sim/kernel_time.h"
#include "sim/simulator.h"
#include "sim/work_estimate.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <system_error>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::cli {
namespace {

std::string dimText(const session::Dim3& d)
{
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// The model's time for one kernel record, on the session's GPU, or why there is none (in `method`).
void predict(const session::KernelRecord& k, const session::ActivityRecord& activity, const gpu::GpuPreset& preset,
             const SessionValidateOptions& options, session::TimingSample& sample)
{
    kernels::TargetRequest target;
    target.target = k.id;
    target.kernel = k.entry;
    target.args = k.args;
    target.grid = dimText(k.grid);
    target.block = dimText(k.block);
    target.smem = std::to_string(k.dynamicSharedBytes);
    target.size = k.launchSize == "gpu" ? kernels::LaunchSize::Gpu : kernels::LaunchSize::Sim;
    target.maxBufferBytes = 1ull << 30;
    if (kernels::findDemoKernel(k.id) == nullptr) {
        sample.method = "not predicted: '" + k.id + "' is not a demo kernel (only demo kernels are re-run)";
        return;
    }
    target.kernel.clear(); // a demo id names its entry
    kernels::ResolvedTarget resolved = kernels::resolveTarget(target);
    sim::LaunchRequest request;
    request.module = resolved.module;
    request.function = resolved.function;
    request.grid = resolved.launch.grid;
    request.block = resolved.launch.block;
    request.dynamicSharedBytes = resolved.launch.dynamicSharedBytes;
    request.args = std::move(resolved.launch.args); // GPU-size buffers are large: never copied
    request.preset = preset;
    request.options.maxBufferBytes = 1ull << 30;
    request.options.hostThreads = static_cast<int>(parseInteger(options.threads, "--threads", 0, 256));
    // The register count ptxas gave the kernel on the GPU: it sets the blocks per SM and how many loads
    // a warp keeps in flight.
    request.options.registersPerThread = activity.registersPerThread > 0 ? activity.registersPerThread : 32;
    const std::uint64_t blocks = static_cast<std::uint64_t>(request.grid.volume());
    const auto sampleBlocks = static_cast<std::uint64_t>(parseInteger(options.sampleBlocks, "--sample-blocks", 0, INT64_MAX));
    if (sampleBlocks >= 2 && sampleBlocks < blocks) {
        request.options.sampleBlocks = sampleBlocks;
    } else if (sampleBlocks == 0 && blocks > kValidateSampleBlocks) {
        // Every block of a small grid; a sample of a large or long one (estimated from a few blocks).
        const bool large = blocks > kValidateAllBlocksUpTo;
        if (large || sim::estimateWork(request).seconds > kValidateAllBlocksSeconds)
            request.options.sampleBlocks = kValidateSampleBlocks;
    }
    std::uint64_t bufferBytes = 0;
    for (const sim::ResolvedArg& arg : request.args)
        bufferBytes += arg.isBuffer ? arg.bytes.size() : 0;
    const sim::SimResult result = sim::simulate(std::move(request));
    if (result.status != sim::SimStatus::Completed) {
        sample.method = "not predicted: " + result.statusMessage;
        return;
    }
    const sim::KernelTime time = sim::kernelTime(result.stats, preset, bufferBytes);
    if (!time.available) {
        sample.method = "not predicted: the timing model did not complete (its records passed the memory limit)";
        return;
    }
    sample.predictedNs = time.nanoseconds;
    sample.method = time.method;
    sample.blindSpots = time.blindSpots;
    sample.stalls = session::modelStallCycles(result.stats.timing.stalls);
}

} // namespace

session::TimingValidation validateTiming(const SessionValidateOptions& options, std::ostream& err)
{
    std::vector<session::TimingSample> samples;
    for (const std::string& file : options.files) {
        const session::SessionReadResult read = session::readSessionFile(file);
        if (!read.headerSeen)
            throw InputError(read.problems.empty() ? file + ": not a session" : read.problems.front());
        const session::Session& s = read.session;
        const session::SessionPreset preset = session::sessionPreset(s);
        const std::string name = std::filesystem::path(file).filename().string();
        for (const session::KernelRecord& k : s.kernels) {
            const session::ActivityRecord* activity = s.activityFor(k.id);
            if (activity == nullptr || activity->durationsNs.empty())
                continue;
            session::TimingSample sample;
            sample.session = name;
            sample.kernel = k.id;
            sample.ladder = k.ladder;
            sample.rung = k.ladderRung;
            sample.measuredNs = static_cast<double>(activity->medianNs());
            const auto [low, high] = std::minmax_element(activity->durationsNs.begin(), activity->durationsNs.end());
            sample.measuredMinNs = static_cast<double>(*low);
            sample.measuredMaxNs = static_cast<double>(*high);
            try {
                predict(k, *activity, preset.preset, options, sample);
            } catch (const std::exception& error) {
                sample.method = std::string("not predicted: ") + error.what();
            }
            if (sample.predictedNs <= 0)
                err << "warpscope session validate-timing: " << name << ": " << k.id << ": " << sample.method << "\n";
            samples.push_back(std::move(sample));
        }
    }
    return session::summarizeTiming(std::move(samples));
}

namespace {

std::string fixed(double value, int decimals)
{
    if (!std::isfinite(value))
        return "n/a";
    std::ostringstream text;
    text << std::fixed << std::setprecision(decimals) << value;
    return text.str();
}

std::string microseconds(double ns) { return ns > 0 ? fixed(ns / 1e3, ns < 1e5 ? 2 : 1) + " us" : "-"; }

std::string joined(const std::vector<std::string>& items, const std::string& separator)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

nlohmann::ordered_json validationJson(const session::TimingValidation& v)
{
    using nlohmann::ordered_json;
    auto number = [](double value) { return std::isfinite(value) ? ordered_json(value) : ordered_json(nullptr); };
    ordered_json kernels = ordered_json::array();
    for (const session::TimingSample& s : v.samples)
        kernels.push_back({{"session", s.session},
                           {"kernel", s.kernel},
                           {"ladder", s.ladder.empty() ? ordered_json(nullptr) : ordered_json(s.ladder)},
                           {"rung", s.ladder.empty() ? ordered_json(nullptr) : ordered_json(s.rung)},
                           {"measured_ns", s.measuredNs},
                           {"predicted_ns", s.predicted() ? ordered_json(s.predictedNs) : ordered_json(nullptr)},
                           {"ratio", s.predicted() ? ordered_json(s.ratio()) : ordered_json(nullptr)},
                           {"method", s.method},
                           {"blind_spots", s.blindSpots}});
    ordered_json ladders = ordered_json::array();
    for (const session::LadderOrder& l : v.ladders)
        ladders.push_back({{"session", l.session}, {"ladder", l.ladder}, {"measured_order", l.measured},
                           {"predicted_order", l.predicted}, {"equal", l.equal}});
    return {{"note", "predicted: the simulator's timing model (a model, not a measurement); measured: the median of "
                     "each activity record's runs"},
            {"kernels", kernels},
            {"compared", v.compared},
            {"mean_absolute_error", number(v.meanAbsoluteError)},
            {"min_ratio", number(v.minRatio)},
            {"max_ratio", number(v.maxRatio)},
            {"median_ratio", number(v.medianRatio)},
            {"ratios_within_half_to_double", v.ratiosWithin2x},
            {"spearman", number(v.spearman)},
            {"ladders", ladders},
            {"ladders_equal", v.laddersEqual()}};
}

void printValidation(const session::TimingValidation& v, std::ostream& out)
{
    std::size_t sessionWidth = 8, kernelWidth = 7;
    for (const session::TimingSample& s : v.samples) {
        sessionWidth = std::max(sessionWidth, s.session.size() + 2);
        kernelWidth = std::max(kernelWidth, s.kernel.size() + 2);
    }
    const int sw = static_cast<int>(sessionWidth), kw = static_cast<int>(kernelWidth);
    out << "predicted (timing model) against measured (median of the runs) kernel durations\n";
    out << std::left << std::setw(sw) << "session" << std::setw(kw) << "kernel" << std::right << std::setw(12) << "measured"
        << std::setw(12) << "predicted" << std::setw(7) << "ratio" << "  how; blind spots\n";
    for (const session::TimingSample& s : v.samples) {
        out << std::left << std::setw(sw) << s.session << std::setw(kw) << s.kernel << std::right << std::setw(12)
            << microseconds(s.measuredNs) << std::setw(12) << microseconds(s.predicted() ? s.predictedNs : 0) << std::setw(7)
            << (s.predicted() ? fixed(s.ratio(), 2) : std::string("-")) << "  " << s.method
            << (s.blindSpots.empty() ? "" : "; " + joined(s.blindSpots, ", ")) << "\n";
    }
    out << "\n" << v.compared << " of " << v.samples.size() << " kernels predicted; mean absolute error "
        << fixed(100.0 * v.meanAbsoluteError, 1) << " %; ratio " << fixed(v.minRatio, 2) << " .. " << fixed(v.maxRatio, 2)
        << " (median " << fixed(v.medianRatio, 2) << "), " << v.ratiosWithin2x << " of " << v.compared
        << " within 0.5 .. 2; Spearman " << fixed(v.spearman, 3) << "\n";
    if (!v.ladders.empty())
        out << "ladders, fastest first (measured | predicted; rungs whose measured runs overlap may swap):\n";
    for (const session::LadderOrder& l : v.ladders)
        out << "  " << l.session << " " << l.ladder << ": " << joined(l.measured, " < ") << " | " << joined(l.predicted, " < ")
            << (l.equal ? "  [same order]" : "  [DIFFERENT order]") << "\n";
}

// The session of `file` with each prediction record's time, method, blind spots and stall cycles from `v`.
bool writeWithPredictedTimes(const std::string& file, const session::TimingValidation& v, const std::string& path,
                             std::ostream& err)
{
    session::Session s = session::readSessionFile(file).session;
    for (session::PredictionRecord& p : s.predictions)
        for (const session::TimingSample& sample : v.samples)
            if (sample.kernel == p.kernel && sample.predicted()) {
                p.predictedNs = sample.predictedNs;
                p.timeMethod = sample.method;
                p.timeBlindSpots = sample.blindSpots;
                p.modelStalls = sample.stalls;
            }
    AtomicFileWriter writer(path);
    if (!writer.open())
        throw InputError("--out: cannot write '" + path + "': " + writer.error());
    session::SessionWriter(writer.stream()).writeAll(s);
    if (!writer.commit()) {
        err << "warpscope session validate-timing: writing '" << path << "' failed: " << writer.error() << "\n";
        return false;
    }
    return true;
}

} // namespace

int runSessionValidate(const SessionValidateOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.files.empty())
        throw InputError("name the sessions to validate: warpscope session validate-timing FILE.wsprof...");
    if (!options.out.empty()) {
        if (options.files.size() != 1)
            throw InputError("--out writes one session: name one .wsprof file, not " + std::to_string(options.files.size()));
        std::error_code error;
        if (std::filesystem::equivalent(options.out, options.files.front(), error))
            throw InputError("--out: '" + options.out + "' is the session being validated (name another file)");
    }
    const session::TimingValidation v = validateTiming(options, err);
    if (options.json)
        out << validationJson(v).dump(2) << "\n";
    else
        printValidation(v, out);
    if (!options.out.empty() && !writeWithPredictedTimes(options.files.front(), v, options.out, err))
        return toInt(ExitCode::Failure);
    return toInt(ExitCode::Ok);
}

} // namespace warpscope::cli
