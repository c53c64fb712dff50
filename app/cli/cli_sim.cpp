#include "cli/cli_sim.h"

#include "cli/cli_compile.h"
#include "cli/cli_sim_report.h"
#include "demo_kernels.h"
#include "kernel_target.h"
#include "gpu/gpu_preset.h"
#include "ptx/sass.h"
#include "ptx/sass_shuffle.h"
#include "sim/grid_barrier.h"
#include "sim/kernel_time.h"
#include "sim/hazards.h"
#include "sim/perfetto_trace.h"
#include "sim/simulator.h"
#include "sim/trace_io.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <memory>
#include <optional>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace warpscope::cli {

namespace {

std::vector<std::uint64_t> parseBlockList(const std::string& text, std::uint64_t blockCount)
{
    std::vector<std::uint64_t> blocks;
    if (text == "none")
        return blocks;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        const auto dash = item.find('-');
        const std::int64_t first = parseInteger(item.substr(0, dash), "--trace-blocks", 0, INT64_MAX);
        const std::int64_t last = dash == std::string::npos ? first
                                                            : parseInteger(item.substr(dash + 1), "--trace-blocks", first, INT64_MAX);
        if (static_cast<std::uint64_t>(last) >= blockCount)
            throw InputError("--trace-blocks: block " + std::to_string(last) + " does not exist (the grid has " +
                             withThousands(static_cast<std::int64_t>(blockCount)) + " blocks, 0.." +
                             std::to_string(blockCount - 1) + ")");
        if (last - first > 4096)
            throw InputError("--trace-blocks: at most 4,096 blocks at once");
        for (std::int64_t b = first; b <= last; ++b)
            blocks.push_back(static_cast<std::uint64_t>(b));
    }
    return blocks;
}








// Simulates `request` with its buffers moved in rather than copied (the results come back in the
// result's args); `request` keeps the rest of the launch, and its buffer arguments' names and types.
sim::SimResult simulateTakingBuffers(sim::LaunchRequest& request)
{
    std::vector<sim::ResolvedArg> held(request.args.size());
    moveBufferBytes(request.args, held);
    sim::LaunchRequest running = request;
    moveBufferBytes(held, running.args);
    return sim::simulate(std::move(running));
}




// --regs when given; otherwise ptxas's count for the kernel on the --arch GPU (PTX does not fix
// registers; ptxas decides them), and 32 assumed where ptxas is missing or refuses the PTX.
RegisterCount timingRegisters(const SimOptions& options, const kernels::ResolvedTarget& resolved, const gpu::GpuPreset& preset)
{
    RegisterCount count;
    if (!options.regs.empty()) {
        count.registers = static_cast<int>(parseInteger(options.regs, "--regs", 1, 255));
        count.source = "--regs";
        return count;
    }
    count.source = "assumed";
    if (const int registers = ptxasRegisters(resolved, preset, &count.why); registers > 0) {
        count.registers = registers;
        count.source = "ptxas";
    }
    return count;
}

// For each shfl_inactive_source hazard (by PTX line): the SASS SHFL the shuffle became and the
// register it reads in the source lane, since on a GPU that register's value is what the reading lane
// gets (ptx/sass_shuffle.h); or one line saying why there is no SASS and how to get it.
std::map<int, std::string> shuffleHazardSass(const std::vector<sim::Hazard>& hazards, const kernels::ResolvedTarget& resolved,
                                             const gpu::GpuPreset& preset)
{
    std::vector<int> lines;
    for (const sim::Hazard& hazard : hazards)
        if (hazard.kind == sim::HazardKind::ShflInactiveSource)
            lines.push_back(hazard.ptxLine);
    std::map<int, std::string> byLine;
    if (lines.empty() || !resolved.module || !resolved.function)
        return byLine;
    ptx::SassOptions options;
    options.arch = std::string(preset.arch);
    options.ptxName = resolved.kernelName + ".ptx";
    try {
        byLine = ptx::describeSassShufflesAt(resolved.ptxText, *resolved.module, *resolved.function, lines, options);
    } catch (const std::exception& failed) { // SassToolMissing says how to get nvdisasm
        for (const int line : lines)
            byLine[line] = std::string("SASS not available: ") + failed.what();
    }
    return byLine;
}

} // namespace

CLI::App* addSimCommand(CLI::App& app, SimOptions& options)
{
    CLI::App* command = app.add_subcommand("sim", "Run a kernel on the SIMT simulator (no GPU needed)");
    addLaunchOptions(command, options);
    command->add_option("--trace", options.trace, "write the execution trace of --trace-blocks to FILE");
    command->add_option("--perfetto", options.perfetto,
                        "write the timing model's per-SM timeline of --trace-blocks to FILE as a Chrome trace (JSON) "
                        "that ui.perfetto.dev opens");
    command->add_option("--trace-blocks", options.traceBlocks, "linear block indices to trace: 0 | 0,3 | 0-7")
        ->capture_default_str();
    command->add_option("--dump", options.dump, "print a buffer's final contents, one value per line; repeatable")
        ->allow_extra_args(false);
    command->add_option("--budget", options.budget, "stop after this many warp-instructions")->capture_default_str();
    command->add_option("--block-budget", options.blockBudget,
                        "stop when one block has issued this many warp-instructions (an endless loop)")
        ->capture_default_str();
    command->add_option("--threads", options.threads,
                        "host threads, 0 = all cores (use 1 for bit-reproducible float atomics and hazard order)")
        ->capture_default_str();
    command->add_option("--regs", options.regs,
                        "registers per thread for the timing model's blocks per SM, 1..255; by default ptxas's count for "
                        "the kernel on the --arch GPU, or 32 assumed without ptxas");
    command->add_option("--sample-blocks", options.sampleBlocks,
                        "simulate only N blocks (the first, the last and N - 2 evenly spread between) and scale the "
                        "counts to the grid (exact when every block does the same work) and the timing model's time by "
                        "the waves the grid needs; 0 = every block")
        ->capture_default_str();
    command->add_flag("--no-timing", options.noTiming, "skip the timing model (no cycle estimate)");
    command->add_flag("--json", options.json, "print one JSON object");
    command->add_flag("--list", options.list, "list the demo kernels and exit");
    return command;
}

namespace {

// The simulator's options from sim's flags; throws InputError on bad ones.
sim::SimOptions simOptionsFrom(const SimOptions& options)
{
    sim::SimOptions simOptions;
    simOptions.stepBudget = static_cast<std::uint64_t>(parseInteger(options.budget, "--budget", 1, INT64_MAX));
    simOptions.blockStepBudget = static_cast<std::uint64_t>(parseInteger(options.blockBudget, "--block-budget", 1, INT64_MAX));
    simOptions.hostThreads = static_cast<int>(parseInteger(options.threads, "--threads", 0, 256));
    if (!options.regs.empty())
        simOptions.registersPerThread = static_cast<int>(parseInteger(options.regs, "--regs", 1, 255));
    simOptions.timing = !options.noTiming;
    simOptions.sampleBlocks = static_cast<std::uint64_t>(parseInteger(options.sampleBlocks, "--sample-blocks", 0, INT64_MAX));
    if (simOptions.sampleBlocks == 1)
        throw InputError("--sample-blocks 1: a sample needs at least 2 blocks (the first and the last), or 0 for every block");
    if (!options.perfetto.empty() && options.noTiming)
        throw InputError("--perfetto needs the timing model's cycles: it cannot be combined with --no-timing");
    if (simOptions.sampleBlocks > 0 && !options.perfetto.empty())
        throw InputError("--sample-blocks cannot be combined with --perfetto: the timeline needs every block of an SM");
    if (simOptions.sampleBlocks > 0 && !options.trace.empty())
        throw InputError("--sample-blocks cannot be combined with --trace: a trace needs every block of an SM");
    return simOptions;
}

// The gold reference runs first, on the launch's initial buffers lent from the request, and keeps
// only the checked buffers' expected contents: the buffers are never held twice over. `note` says
// why there is none where the reference cannot model the launch.
kernels::GoldExpectation expectedResults(const kernels::DemoKernel& demo, const kernels::DemoLaunch& launch,
                                         sim::LaunchRequest& request, std::string& note)
{
    kernels::GoldExpectation expectation;
    kernels::DemoLaunch initial = launch; // names, types and scalars; its buffers are in the request
    moveBufferBytes(request.args, initial.args);
    try {
        expectation = kernels::expectGold(demo, initial);
    } catch (const InputError& error) {
        // The gold reference cannot model this launch (e.g. a buffer shorter than the launch
        // touches): report the run without a comparison, and say why.
        note = std::string("not compared: ") + error.what();
    }
    moveBufferBytes(initial.args, request.args);
    return expectation;
}

// --perfetto: the timing model's timeline of the traced blocks, or why there is none. False when
// nothing was written.
bool writePerfetto(AtomicFileWriter& file, const SimOptions& options, const SimRunReport& run, std::ostream& err)
{
    const sim::SimResult& result = run.result;
    if (!result.stats.timing.available) {
        file.discard();
        err << "warpscope sim: --perfetto: no timeline, because the timing model did not complete "
               "(the run did not finish, or its records passed the timing model's memory limit)\n";
        return false;
    }
    const sim::PerfettoTraceCounts counts = sim::writePerfettoTrace(
        file.stream(), result.trace, *run.resolved.function,
        {run.resolved.kernelName, std::string(run.preset.name), run.preset.timing.coreClockMHz, run.resolved.launch.grid});
    if (!file.commit()) {
        err << "warpscope sim: --perfetto: cannot write '" << options.perfetto << "': " << file.error() << "\n";
        return false;
    }
    err << "warpscope sim: wrote " << options.perfetto << ": " << counts.instructionSlices << " instructions of " << counts.warps
        << " warps on " << counts.sms << (counts.sms == 1 ? " SM" : " SMs")
        << (result.trace.truncated ? " (the trace was cut at its event limit)" : "") << "; open it at https://ui.perfetto.dev\n";
    return true;
}

// --dump: the buffers' final contents, one value per line.
void printDumps(const SimOptions& options, const sim::SimResult& result, std::ostream& out, std::ostream& err)
{
    for (const std::string& name : options.dump)
        for (const sim::ResolvedArg& arg : result.args)
            if (arg.name == name)
                for (std::uint64_t i = 0; i < arg.bytes.size() / sim::elementBytes(arg.type); ++i)
                    out << sim::formatElement(arg, arg.bytes, i) << "\n";
    // Standard output holds only the values (scripts read them), so the hazards a learner must
    // not miss go to standard error, one line each, in the summary's words.
    for (const sim::Hazard& hazard : result.hazards)
        err << "warpscope sim: hazard: " << sim::describeHazard(hazard) << "\n";
}

// 0 when the run completed and matched its gold reference (where there is one), else 1 with the
// reason on `err`.
int simExitCode(const sim::SimResult& result, const kernels::GoldComparison& gold, std::ostream& err)
{
    if (result.status != sim::SimStatus::Completed) {
        err << "warpscope sim: " << result.statusMessage << "\n";
        return 1;
    }
    if (const sim::Hazard* livelock = findLivelock(result.hazards)) { // the block was stopped: its outputs are unfinished
        err << "warpscope sim: livelock: " << sim::describeHazard(*livelock) << "\n";
        return 1;
    }
    if (result.assertFailures > 0) { // the GPU stops the kernel with cudaErrorAssert
        err << "warpscope sim: assert() failed in " << withThousands(static_cast<std::int64_t>(result.assertFailures))
            << " thread" << (result.assertFailures == 1 ? "" : "s") << " (the messages are in the printf output)\n";
        return 1;
    }
    if (result.trapThreads > 0) { // the GPU aborts the launch
        err << "warpscope sim: trap (__trap()) executed by " << withThousands(static_cast<std::int64_t>(result.trapThreads))
            << " thread" << (result.trapThreads == 1 ? "" : "s") << ", the first at " << result.firstTrap
            << ": on a GPU the launch aborts with an error\n";
        return 1;
    }
    if (gold.available && !gold.matches) {
        err << "warpscope sim: the result differs from the gold reference: " << gold.detail << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int runSim(const SimOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.list) {
        for (const kernels::DemoKernel& kernel : kernels::demoKernels())
            out << std::left << std::setw(36) << kernel.id << kernel.title << "\n";
        return 0;
    }
    std::optional<PreparedLaunch> compiled = prepareLaunch(options, simOptionsFrom(options), err);
    if (!compiled)
        return 1;
    PreparedLaunch& prepared = *compiled;
    const kernels::ResolvedTarget& resolved = prepared.resolved;
    const kernels::DemoLaunch& launch = resolved.launch;
    for (const std::string& note : resolved.notes)
        err << "warpscope sim: note: " << note << "\n";
    for (const std::string& name : options.dump) {
        bool found = false;
        for (const sim::ResolvedArg& arg : launch.args)
            found = found || (arg.name == name && arg.isBuffer);
        if (!found)
            throw InputError("--dump '" + name + "' is not a buffer argument of " + resolved.kernelName);
    }

    sim::LaunchRequest request = std::move(prepared.request);
    // --cooperative may already have raised the assumed 32 to ptxas's count; without --regs ptxas's
    // count is the one to use either way.
    RegisterCount registers = timingRegisters(options, resolved, prepared.preset);
    if (registers.source == "ptxas")
        request.options.registersPerThread = registers.registers;
    else if (request.options.registersPerThread != registers.registers) // --cooperative took ptxas's higher count
        registers = {request.options.registersPerThread, "ptxas", ""};
    std::optional<AtomicFileWriter> perfetto;
    if (!options.perfetto.empty()) {
        perfetto.emplace(options.perfetto); // checked before simulating; the file is replaced only when written in full
        if (!perfetto->open())
            throw InputError("--perfetto: cannot write '" + options.perfetto + "': " + perfetto->error());
    }
    if (!options.trace.empty() || perfetto)
        request.options.trace.blocks = parseBlockList(options.traceBlocks, static_cast<std::uint64_t>(launch.grid.volume()));
    if (!options.trace.empty()) {
        // Checked before simulating, without touching a trace already there (it is replaced only
        // when the new one is written in full).
        AtomicFileWriter probe(options.trace);
        if (!probe.open())
            throw InputError("--trace: cannot write '" + options.trace + "': " + probe.error());
        probe.discard();
    }
    refuseEndlessWork(options, request,
                      options.trace.empty() ? "simulate a sample of blocks with --sample-blocks 1000 (its counts are "
                                              "scaled to the whole grid), or a smaller grid"
                                            : "trace a smaller grid");
    kernels::GoldExpectation expectation;
    std::string goldNote;
    if (resolved.demo && request.options.sampleBlocks == 0)
        expectation = expectedResults(*resolved.demo, launch, request, goldNote);
    const sim::SimResult result = simulateTakingBuffers(request);

    const std::map<int, std::string> hazardSass =
        options.dump.empty() ? shuffleHazardSass(result.hazards, resolved, prepared.preset) : std::map<int, std::string>();
    kernels::GoldComparison gold;
    if (result.stats.scaledFromSample)
        goldNote = "not compared: only " + withThousands(static_cast<std::int64_t>(result.stats.blocksSimulated)) +
                   " sampled blocks ran, so the outputs of the others were never written";
    else if (expectation.available && result.status == sim::SimStatus::Completed)
        gold = kernels::compareWithExpected(*resolved.demo, expectation, result.args);
    const SimRunReport report{resolved, prepared.preset, request, result, gold, goldNote, registers.source, hazardSass};

    if (!options.trace.empty())
        sim::writeTrace(options.trace, result.trace, *resolved.function, resolved.kernelName);
    const bool perfettoWritten = !perfetto || writePerfetto(*perfetto, options, report, err);
    if (!options.dump.empty())
        printDumps(options, result, out, err);
    else if (options.json)
        out << simReportJson(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        printSimSummary(report, out);
    const int code = simExitCode(result, gold, err);
    return code != 0 ? code : (perfettoWritten ? 0 : 1);
}

} // namespace warpscope::cli
