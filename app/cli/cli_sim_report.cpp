#include "cli/cli_sim_report.h"

#include "cli/cli_compile.h"
#include "cli/cli_launch.h"
#include "launch/launch_geometry.h"
#include "sim/grid_barrier.h"
#include "sim/hazards.h"
#include "sim/kernel_time.h"
#include "util/parse.h"

#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <vector>

namespace warpscope::cli {

namespace {

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


// The launch and what the simulator counted.
void printCounts(const SimRunReport& run, std::ostream& out)
{
    const sim::SimResult& result = run.result;
    const sim::KernelStats& stats = result.stats;
    const sim::LaunchRequest& request = run.request;
    const kernels::DemoLaunch& launch = run.resolved.launch;
    const gpu::GpuPreset* preset = &run.preset;
    out << run.resolved.kernelName << "  grid " << launch::formatDim3(launch.grid) << "  block " << launch::formatDim3(launch.block)
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
}

// The timing model's time and cycles, with how they were obtained.
void printTiming(const SimRunReport& run, std::ostream& out)
{
    const sim::KernelStats& stats = run.result.stats;
    const gpu::GpuPreset* preset = &run.preset;
    const std::uint64_t buffers = bufferBytes(run.result.args);
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
            << (stats.timing.residentBlocksPerSm == 1 ? " block per SM " : " blocks per SM ") << describeRegisters({stats.timing.registersPerThread, run.registersSource, ""}) << "; L1 hits "
            << std::setprecision(0) << 100.0 * ratio(stats.timing.l1Hits, stats.timing.l1Hits + stats.timing.l1Misses)
            << "%, L2 hits " << 100.0 * ratio(stats.timing.l2Hits, stats.timing.l2Hits + stats.timing.l2Misses) << "%)\n";
}

// Hazards, printf output, the gold check and the time the simulation took.
void printOutcome(const SimRunReport& run, std::ostream& out)
{
    const sim::SimResult& result = run.result;
    const kernels::GoldComparison& gold = run.gold;
    const std::map<int, std::string>& hazardSass = run.hazardSass;
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
    else if (!run.goldNote.empty())
        out << "  gold reference      " << run.goldNote << "\n";
    out << "  simulated in        " << std::fixed << std::setprecision(3) << result.simSeconds << " s\n";
}

} // namespace

std::string describeRegisters(const RegisterCount& count)
{
    if (count.source == "ptxas")
        return "with ptxas's " + std::to_string(count.registers) + " registers per thread";
    if (count.source == "--regs")
        return "with --regs's " + std::to_string(count.registers) + " registers per thread";
    return "assuming " + std::to_string(count.registers) + " registers per thread (no count from ptxas)";
}

nlohmann::json simReportJson(const SimRunReport& run)
{
    const sim::SimResult& result = run.result;
    const sim::KernelStats& stats = result.stats;
    const sim::LaunchRequest& request = run.request;
    const kernels::ResolvedTarget& resolved = run.resolved;
    const kernels::DemoLaunch& launch = resolved.launch;
    const std::string& kernelName = resolved.kernelName;
    const ptx::Function* function = resolved.function;
    const gpu::GpuPreset* preset = &run.preset;
    const std::uint64_t buffers = bufferBytes(result.args);
    const ptx::Module* module = resolved.module;
    const kernels::GoldComparison& gold = run.gold;
    const std::map<int, std::string>& hazardSass = run.hazardSass;
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
    return {
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
        {"timing_model", timingJson(stats, *preset, buffers, run.registersSource)},
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
        {"gold_detail", run.goldNote.empty() ? gold.detail : run.goldNote},
        {"lines", linesJson(stats.perSourceLine(*module, *function))},
        {"trace_events", result.trace.events.size()},
        {"sim_seconds", result.simSeconds},
    };
}

void printSimSummary(const SimRunReport& run, std::ostream& out)
{
    printCounts(run, out);
    printTiming(run, out);
    printOutcome(run, out);
}

} // namespace warpscope::cli
