#include "cli/cli_sim.h"

#include "cli/cli_compile.h"
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

nlohmann::json dimJson(const launch::Dim3& dim) { return nlohmann::json::array({dim.x, dim.y, dim.z}); }

// Per CUDA source line: what the line's instructions cost, for the source view.
nlohmann::json linesJson(const std::vector<sim::LineStats>& lines)
{
    nlohmann::json array = nlohmann::json::array();
    for (const sim::LineStats& line : lines) {
        const sim::InstructionCounters& c = line.counters;
        array.push_back({{"file", std::filesystem::path(line.file).filename().string()},
                         {"line", line.line},
                         {"warp_instructions", c.warpExecutions},
                         {"thread_instructions", c.threadExecutions},
                         {"global_requests", c.globalRequests},
                         {"global_sectors", c.globalSectors},
                         {"bytes_requested", c.bytesRequested},
                         {"bytes_moved", c.bytesMoved},
                         {"shared_requests", c.sharedRequests},
                         {"shared_wavefronts", c.sharedWavefronts},
                         {"bank_conflicts", c.sharedBankConflicts},
                         {"max_conflict_degree", c.maxConflictDegree},
                         {"branches_uniform", c.branchesUniform},
                         {"branches_divergent", c.branchesDivergent}});
    }
    return array;
}

// A lane mask as the list of its lanes.
nlohmann::json laneList(std::uint32_t mask)
{
    nlohmann::json lanes = nlohmann::json::array();
    for (int lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            lanes.push_back(lane);
    return lanes;
}

nlohmann::json printfJson(const sim::SimResult& result)
{
    nlohmann::json lines = nlohmann::json::array();
    for (const sim::PrintfLine& line : result.printfLines)
        lines.push_back({{"block", dimJson(line.block)}, {"thread", dimJson(line.thread)}, {"text", line.text}});
    return lines;
}

double ratio(std::uint64_t part, std::uint64_t whole)
{
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::uint64_t bufferBytes(const std::vector<sim::ResolvedArg>& args)
{
    std::uint64_t bytes = 0;
    for (const sim::ResolvedArg& arg : args)
        bytes += arg.isBuffer ? arg.bytes.size() : 0;
    return bytes;
}

nlohmann::json timingJson(const sim::KernelStats& stats, const gpu::GpuPreset& preset, std::uint64_t buffers,
                          const std::string& registersSource)
{
    const sim::TimingSummary& timing = stats.timing;
    if (!timing.available)
        return nullptr;
    const sim::StallCycles& stalls = timing.stalls;
    const sim::KernelTime time = sim::kernelTime(stats, preset, buffers);
    return {
        {"note", "a model, not a measurement: see core/sim/timing_model.h"},
        {"cycles", timing.cycles},
        {"microseconds_at_boost_clock", preset.timing.coreClockMHz > 0 ? static_cast<double>(timing.cycles) / preset.timing.coreClockMHz : 0.0},
        {"predicted_microseconds", time.nanoseconds / 1e3},
        {"launch_overhead_ns", time.overheadNs},
        {"time_method", time.method},
        {"blind_spots", time.blindSpots},
        {"scaled_from_sample", timing.scaledFromSample},
        {"resident_blocks_per_sm", timing.residentBlocksPerSm},
        {"registers_per_thread", timing.registersPerThread},
        {"registers_per_thread_source", registersSource}, // "ptxas", "--regs", or "assumed" (no ptxas)
        {"l1_bytes_per_sm", timing.l1BytesPerSm},
        {"l1_hit_rate", ratio(timing.l1Hits, timing.l1Hits + timing.l1Misses)},
        {"l2_hit_rate", ratio(timing.l2Hits, timing.l2Hits + timing.l2Misses)},
        {"dram_bytes", timing.dramBytes},
        {"stall_cycles", {{"global_memory", stalls.globalMemory},
                          {"shared_memory", stalls.sharedMemory},
                          {"execution", stalls.execution},
                          {"load_store_unit", stalls.loadStoreUnit},
                          {"barrier", stalls.barrier},
                          {"not_selected", stalls.notSelected}}},
        {"parameters_source", std::string(preset.timing.source)},
    };
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

// A cooperative launch: how many blocks the GPU holds at once (grid_barrier.h); null otherwise.
nlohmann::json cooperativeJson(const sim::LaunchRequest& request)
{
    if (!request.options.cooperative)
        return nullptr;
    const sim::CooperativeCapacity capacity = sim::cooperativeCapacity(request);
    return {{"resident_blocks_at_most", capacity.blocks},
            {"sms", capacity.sms},
            {"blocks_per_sm", capacity.blocksPerSm},
            {"registers_per_thread", request.options.registersPerThread},
            {"limited_by", capacity.limitedBy}};
}

// Where the timing model's registers per thread came from, for the summary and the JSON.
struct RegisterCount {
    int registers = 32;
    std::string source;   // "ptxas", "--regs" or "assumed"
    std::string why;      // for "assumed": why ptxas gave none
};

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

std::string describeRegisters(const RegisterCount& count)
{
    if (count.source == "ptxas")
        return "with ptxas's " + std::to_string(count.registers) + " registers per thread";
    if (count.source == "--regs")
        return "with --regs's " + std::to_string(count.registers) + " registers per thread";
    return "assuming " + std::to_string(count.registers) + " registers per thread (no count from ptxas)";
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

int runSim(const SimOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.list) {
        for (const kernels::DemoKernel& kernel : kernels::demoKernels())
            out << std::left << std::setw(36) << kernel.id << kernel.title << "\n";
        return 0;
    }
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
    std::optional<PreparedLaunch> compiled = prepareLaunch(options, simOptions, err);
    if (!compiled)
        return 1;
    PreparedLaunch& prepared = *compiled;
    const kernels::ResolvedTarget& resolved = prepared.resolved;
    const gpu::GpuPreset* preset = &prepared.preset;
    const kernels::DemoKernel* demo = resolved.demo;
    const ptx::Module* module = resolved.module;
    const ptx::Function* function = resolved.function;
    const kernels::DemoLaunch& launch = resolved.launch;
    const std::string& kernelName = resolved.kernelName;
    for (const std::string& note : resolved.notes)
        err << "warpscope sim: note: " << note << "\n";
    for (const std::string& name : options.dump) {
        bool found = false;
        for (const sim::ResolvedArg& arg : launch.args)
            found = found || (arg.name == name && arg.isBuffer);
        if (!found)
            throw InputError("--dump '" + name + "' is not a buffer argument of " + kernelName);
    }

    sim::LaunchRequest request = std::move(prepared.request);
    // --cooperative may already have raised the assumed 32 to ptxas's count; without --regs ptxas's
    // count is the one to use either way.
    RegisterCount registers = timingRegisters(options, resolved, *preset);
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
    // The gold reference runs first, on the launch's initial buffers lent from the request, and keeps
    // only the checked buffers' expected contents: the buffers are never held twice over.
    kernels::GoldExpectation expectation;
    std::string goldNote;
    if (demo && request.options.sampleBlocks == 0) {
        kernels::DemoLaunch initial = launch; // names, types and scalars; its buffers are in the request
        moveBufferBytes(request.args, initial.args);
        try {
            expectation = kernels::expectGold(*demo, initial);
        } catch (const InputError& error) {
            // The gold reference cannot model this launch (e.g. a buffer shorter than the launch
            // touches): report the run without a comparison, and say why.
            goldNote = std::string("not compared: ") + error.what();
        }
        moveBufferBytes(initial.args, request.args);
    }
    const sim::SimResult result = simulateTakingBuffers(request);

    const std::uint64_t buffers = bufferBytes(result.args);
    const std::map<int, std::string> hazardSass =
        options.dump.empty() ? shuffleHazardSass(result.hazards, resolved, *preset) : std::map<int, std::string>();
    kernels::GoldComparison gold;
    const sim::KernelStats& stats = result.stats;
    if (stats.scaledFromSample)
        goldNote = "not compared: only " + withThousands(static_cast<std::int64_t>(stats.blocksSimulated)) +
                   " sampled blocks ran, so the outputs of the others were never written";
    else if (expectation.available && result.status == sim::SimStatus::Completed)
        gold = kernels::compareWithExpected(*demo, expectation, result.args);

    if (!options.trace.empty())
        sim::writeTrace(options.trace, result.trace, *function, kernelName);
    bool perfettoWritten = true;
    if (perfetto) {
        if (!result.stats.timing.available) {
            perfetto->discard();
            err << "warpscope sim: --perfetto: no timeline, because the timing model did not complete "
                   "(the run did not finish, or its records passed the timing model's memory limit)\n";
            perfettoWritten = false;
        } else {
            const sim::PerfettoTraceCounts counts = sim::writePerfettoTrace(
                perfetto->stream(), result.trace, *function,
                {kernelName, std::string(preset->name), preset->timing.coreClockMHz, launch.grid});
            if (!perfetto->commit()) {
                err << "warpscope sim: --perfetto: cannot write '" << options.perfetto << "': " << perfetto->error() << "\n";
                perfettoWritten = false;
            } else {
                err << "warpscope sim: wrote " << options.perfetto << ": " << counts.instructionSlices << " instructions of "
                    << counts.warps << " warps on " << counts.sms << (counts.sms == 1 ? " SM" : " SMs")
                    << (result.trace.truncated ? " (the trace was cut at its event limit)" : "")
                    << "; open it at https://ui.perfetto.dev\n";
            }
        }
    }

    if (!options.dump.empty()) {
        for (const std::string& name : options.dump)
            for (const sim::ResolvedArg& arg : result.args)
                if (arg.name == name)
                    for (std::uint64_t i = 0; i < arg.bytes.size() / sim::elementBytes(arg.type); ++i)
                        out << sim::formatElement(arg, arg.bytes, i) << "\n";
        // Standard output holds only the values (scripts read them), so the hazards a learner must
        // not miss go to standard error, one line each, in the summary's words.
        for (const sim::Hazard& hazard : result.hazards)
            err << "warpscope sim: hazard: " << sim::describeHazard(hazard) << "\n";
    } else if (options.json) {
        nlohmann::json hazards = nlohmann::json::array();
        for (const sim::Hazard& hazard : result.hazards)
            hazards.push_back({{"kind", sim::hazardKindName(hazard.kind)},
                               {"kernel", hazard.kernel},
                               {"block", dimJson(hazard.block)},
                               {"thread", dimJson(hazard.thread)},
                               {"warp", hazard.warp},
                               {"lane", hazard.lane},
                               {"pc", hazard.pc},
                               {"ptx_line", hazard.ptxLine},
                               {"source_file", hazard.sourceFile},
                               {"source_line", hazard.source.line},
                               {"address", hazard.address},
                               {"buffer", hazard.buffer},
                               {"occurrences", hazard.occurrences},
                               {"lanes", laneList(hazard.lanes)},
                               {"other_lanes", laneList(hazard.otherLanes)},
                               {"message", hazard.message}});
        for (nlohmann::json& entry : hazards)
            if (entry["kind"] == sim::hazardKindName(sim::HazardKind::ShflInactiveSource)) {
                const auto found = hazardSass.find(entry["ptx_line"].get<int>());
                entry["sass"] = found == hazardSass.end() ? nlohmann::json(nullptr) : nlohmann::json(found->second);
            }
        const nlohmann::json doc = {
            {"kernel", kernelName},
            {"entry", function->name},
            {"arch", std::string(preset->arch)},
            {"warp_model", warpModelName(request.options.warpModel)},
            {"status", result.status == sim::SimStatus::Completed ? "completed" : "did_not_finish"},
            {"status_message", result.statusMessage},
            {"grid", dimJson(launch.grid)},
            {"block", dimJson(launch.block)},
            {"dynamic_shared_bytes", launch.dynamicSharedBytes},
            {"cooperative", cooperativeJson(request)},
            {"blocks_simulated", stats.blocksSimulated},
            {"blocks_in_grid", stats.blocksInGrid},
            {"scaled_from_sample", stats.scaledFromSample},
            {"warp_instructions", stats.warpInstructions},
            {"thread_instructions", stats.threadInstructions},
            {"global", {{"load_requests", stats.global.loadRequests},
                        {"load_sectors", stats.global.loadSectors},
                        {"store_requests", stats.global.storeRequests},
                        {"store_sectors", stats.global.storeSectors},
                        {"atomic_requests", stats.global.atomicRequests},
                        {"atomic_sectors", stats.global.atomicSectors},
                        {"bytes_requested", stats.global.bytesRequested},
                        {"bytes_moved", stats.global.bytesMoved}}},
            {"shared", {{"load_requests", stats.shared.loadRequests},
                        {"store_requests", stats.shared.storeRequests},
                        {"atomic_requests", stats.shared.atomicRequests},
                        {"load_wavefronts", stats.shared.loadWavefronts},
                        {"store_wavefronts", stats.shared.storeWavefronts},
                        {"bank_conflicts", stats.shared.bankConflicts},
                        {"max_conflict_degree", stats.shared.maxConflictDegree}}},
            {"branches", {{"uniform", stats.branchesUniform}, {"divergent", stats.branchesDivergent}}},
            {"branch_efficiency", stats.branchEfficiency()},
            {"barriers", stats.barriers},
            {"cycles_estimate", stats.timing.available ? nlohmann::json(stats.timing.cycles) : nlohmann::json(nullptr)},
            {"timing_model", timingJson(stats, *preset, buffers, registers.source)},
            // The simulator does not allocate registers; ptxas's own count for this preset's GPU
            // (or why there is none) sits beside the timing model's assumption.
            {"ptxas", ptxasResourcesJson(resolved.ptxText, function->name, std::string(preset->arch))},
            {"hazards", hazards},
            {"notes", resolved.notes},
            {"printf", printfJson(result)},
            {"printf_dropped", result.printfDropped},
            {"assert_failures", result.assertFailures},
            {"trap_threads", result.trapThreads},
            {"matches_gold", gold.available ? nlohmann::json(gold.matches) : nlohmann::json(nullptr)},
            {"gold_detail", goldNote.empty() ? gold.detail : goldNote},
            {"lines", linesJson(stats.perSourceLine(*module, *function))},
            {"trace_events", result.trace.events.size()},
            {"sim_seconds", result.simSeconds},
        };
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
        out << kernelName << "  grid " << launch::formatDim3(launch.grid) << "  block " << launch::formatDim3(launch.block)
            << "  on " << preset->arch << " (" << preset->name << ")"
            << (request.options.warpModel == sim::WarpModel::IndependentThreads ? "  with independent thread scheduling" : "")
            << "\n";
        if (result.status != sim::SimStatus::Completed)
            out << "  " << result.statusMessage << "\n";
        if (request.options.cooperative) {
            const sim::CooperativeCapacity capacity = sim::cooperativeCapacity(request);
            out << "  cooperative launch  every block resident at once: " << withThousands(launch.grid.volume()) << " of at most "
                << withThousands(static_cast<std::int64_t>(capacity.blocks)) << " (" << capacity.sms << " SMs x "
                << capacity.blocksPerSm << " per SM with " << request.options.registersPerThread << " registers per thread)\n";
        }
        if (stats.scaledFromSample)
            out << "  sample              " << withThousands(static_cast<std::int64_t>(stats.blocksSimulated)) << " of "
                << withThousands(static_cast<std::int64_t>(stats.blocksInGrid))
                << " blocks simulated; counts scaled to the grid (exact when every block does the same work)\n";
        out << "  warp-instructions   " << withThousands(static_cast<std::int64_t>(stats.warpInstructions)) << "\n";
        out << "  thread-instructions " << withThousands(static_cast<std::int64_t>(stats.threadInstructions)) << "\n";
        const auto perRequest = [](std::uint64_t sectors, std::uint64_t requests) {
            std::ostringstream text;
            text << std::fixed << std::setprecision(2) << (requests ? static_cast<double>(sectors) / static_cast<double>(requests) : 0.0);
            return text.str();
        };
        out << "  global loads        " << withThousands(static_cast<std::int64_t>(stats.global.loadRequests)) << " requests, "
            << withThousands(static_cast<std::int64_t>(stats.global.loadSectors)) << " sectors ("
            << perRequest(stats.global.loadSectors, stats.global.loadRequests) << " per request)\n";
        out << "  global stores       " << withThousands(static_cast<std::int64_t>(stats.global.storeRequests)) << " requests, "
            << withThousands(static_cast<std::int64_t>(stats.global.storeSectors)) << " sectors ("
            << perRequest(stats.global.storeSectors, stats.global.storeRequests) << " per request)\n";
        if (stats.global.bytesMoved > 0)
            out << "  global efficiency   " << std::fixed << std::setprecision(1)
                << 100.0 * static_cast<double>(stats.global.bytesRequested) / static_cast<double>(stats.global.bytesMoved)
                << "% of the bytes moved were requested\n";
        out << "  shared              " << withThousands(static_cast<std::int64_t>(stats.shared.loadRequests)) << " loads, "
            << withThousands(static_cast<std::int64_t>(stats.shared.storeRequests)) << " stores, "
            << withThousands(static_cast<std::int64_t>(stats.shared.bankConflicts)) << " bank conflicts (worst "
            << stats.shared.maxConflictDegree << "-way)\n";
        out << "  branches            " << withThousands(static_cast<std::int64_t>(stats.branchesUniform)) << " uniform, "
            << withThousands(static_cast<std::int64_t>(stats.branchesDivergent)) << " divergent (efficiency "
            << std::fixed << std::setprecision(1) << 100.0 * stats.branchEfficiency() << "%)\n";
        if (stats.timing.available) {
            const sim::KernelTime time = sim::kernelTime(stats, *preset, buffers);
            out << "  time (model)        " << std::fixed << std::setprecision(time.nanoseconds < 1e5 ? 2 : 1)
                << time.nanoseconds / 1e3 << " us: " << time.method << "; cycles at " << std::setprecision(0)
                << preset->timing.coreClockMHz << " MHz plus " << time.overheadNs << " ns launch overhead"
                << (time.blindSpots.empty() ? std::string() : "; blind spots: " + [&] {
                       std::string text;
                       for (const std::string& spot : time.blindSpots)
                           text += (text.empty() ? "" : ", ") + spot;
                       return text;
                   }())
                << "\n";
        }
        if (stats.timing.available)
            out << "  cycles (model)      " << withThousands(static_cast<std::int64_t>(stats.timing.cycles)) << " ("
                << std::fixed << std::setprecision(1)
                << static_cast<double>(stats.timing.cycles) / preset->timing.coreClockMHz << " us at "
                << preset->timing.coreClockMHz << " MHz; " << stats.timing.residentBlocksPerSm
                << (stats.timing.residentBlocksPerSm == 1 ? " block per SM " : " blocks per SM ") << describeRegisters({stats.timing.registersPerThread, registers.source, ""}) << "; L1 hits "
                << std::setprecision(0) << 100.0 * ratio(stats.timing.l1Hits, stats.timing.l1Hits + stats.timing.l1Misses)
                << "%, L2 hits " << 100.0 * ratio(stats.timing.l2Hits, stats.timing.l2Hits + stats.timing.l2Misses) << "%)\n";
        out << "  hazards             " << (result.hazards.empty() ? "none" : std::to_string(result.hazards.size())) << "\n";
        for (const sim::Hazard& hazard : result.hazards) {
            out << "    " << sim::describeHazard(hazard) << "\n";
            if (const auto found = hazardSass.find(hazard.ptxLine);
                hazard.kind == sim::HazardKind::ShflInactiveSource && found != hazardSass.end() && !found->second.empty())
                out << "      " << found->second << "\n";
        }
        if (!result.printfLines.empty() || result.printfDropped > 0) {
            out << "  printf              " << withThousands(static_cast<std::int64_t>(result.printfLines.size())) << " line"
                << (result.printfLines.size() == 1 ? "" : "s")
                << " (by block; the GPU does not define the order between threads)";
            if (result.printfDropped > 0)
                out << ", " << withThousands(static_cast<std::int64_t>(result.printfDropped))
                    << " more past the 1 MB printf buffer";
            out << "\n";
            for (const sim::PrintfLine& line : result.printfLines) {
                std::string text = line.text;
                if (text.ends_with('\n'))
                    text.pop_back();
                for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
                    text.replace(at, 1, "\n      ");
                out << "    block " << launch::formatDim3(line.block) << " thread " << launch::formatDim3(line.thread) << ": "
                    << text << "\n";
            }
        }
        if (gold.available)
            out << "  gold reference      " << (gold.matches ? "matches" : "DIFFERS") << ": " << gold.detail << "\n";
        else if (!goldNote.empty())
            out << "  gold reference      " << goldNote << "\n";
        out << "  simulated in        " << std::fixed << std::setprecision(3) << result.simSeconds << " s\n";
    }
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
    return perfettoWritten ? 0 : 1;
}

} // namespace warpscope::cli
