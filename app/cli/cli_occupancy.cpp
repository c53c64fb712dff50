#include "cli/cli_occupancy.h"

#include "cli/cli_launch.h"
#include "launch/launch_geometry.h"
#include "occupancy/occupancy.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdio>
#include <ostream>

namespace warpscope::cli {

CLI::App* addOccupancyCommand(CLI::App& app, OccupancyOptions& options)
{
    CLI::App* command = app.add_subcommand(
        "occupancy",
        "Theoretical occupancy of a launch on a GPU preset (the toolkit's cuda_occupancy.h), with "
        "every limiter and what would lift it.");
    command->add_option("--arch", options.arch,
                        "GPU preset: " + archPresetList())
        ->capture_default_str();
    command->add_option("--block", options.block, "threads per block, 1..1024, or x,y,z")
        ->capture_default_str();
    command->add_option("--regs", options.regs, "registers per thread, 1..255")->capture_default_str();
    command->add_option("--smem-static", options.smemStatic,
                        "static shared memory per block in bytes (or KiB with K: 16K), at most 48K")
        ->capture_default_str();
    command->add_option("--smem-dynamic", options.smemDynamic,
                        "dynamic shared memory per block in bytes (or 32K)")
        ->capture_default_str();
    command->add_option("--carveout", options.carveout,
                        "preferred shared-memory carveout, percent 0..100, or -1 for the default")
        ->capture_default_str();
    command->add_option("--barriers", options.barriers, "block barriers the kernel uses, 0..16")
        ->capture_default_str();
    command->add_flag("--json", options.json,
                      "print one JSON object; limits[] is null where a factor imposes no limit");
    return command;
}

namespace {

nlohmann::json limitValue(int limit)
{
    return limit == INT_MAX ? nlohmann::json(nullptr) : nlohmann::json(limit);
}

} // namespace

void runOccupancy(const OccupancyOptions& options, std::ostream& out)
{
    const auto preset = gpu::findPreset(options.arch);
    if (!preset)
        throw InputError("--arch: unknown architecture '" + options.arch +
                         "' (allowed: " + gpu::knownArchList() + ")");
    occupancy::OccupancyInput input;
    const launch::Dim3 block = launch::parseBlockDim(options.block, "--block");
    input.threadsPerBlock = static_cast<int>(block.volume());
    input.registersPerThread = static_cast<int>(parseInteger(options.regs, "--regs", 1, 255));
    input.staticSharedBytes = parseByteSize(options.smemStatic, "--smem-static", preset->sharedPerBlock);
    input.dynamicSharedBytes =
        parseByteSize(options.smemDynamic, "--smem-dynamic", preset->sharedPerBlockOptin);
    input.carveoutPercent = static_cast<int>(parseInteger(options.carveout, "--carveout", -1, 100));
    input.barriersPerBlock = static_cast<int>(parseInteger(options.barriers, "--barriers", 0, 16));

    const occupancy::OccupancyResult r = occupancy::computeOccupancy(*preset, input);

    if (options.json) {
        nlohmann::json limits = nlohmann::json::object();
        nlohmann::json details = nlohmann::json::array();
        for (const auto& detail : r.limits) {
            limits[std::string(occupancy::limiterKey(detail.limiter))] = limitValue(detail.blockLimit);
            details.push_back({{"limiter", occupancy::limiterKey(detail.limiter)},
                               {"block_limit", limitValue(detail.blockLimit)},
                               {"binding", detail.binding},
                               {"reasoning", detail.reasoning}});
        }
        nlohmann::json suggestions = nlohmann::json::array();
        for (const auto& suggestion : r.suggestions)
            suggestions.push_back({{"change", suggestion.text},
                                   {"warps_per_sm", suggestion.activeWarpsPerSm},
                                   {"occupancy", suggestion.occupancy},
                                   {"block", suggestion.input.threadsPerBlock},
                                   {"regs", suggestion.input.registersPerThread},
                                   {"smem_static", suggestion.input.staticSharedBytes},
                                   {"smem_dynamic", suggestion.input.dynamicSharedBytes},
                                   {"carveout", suggestion.input.carveoutPercent},
                                   {"barriers", suggestion.input.barriersPerBlock}});
        nlohmann::json limiters = nlohmann::json::array();
        for (auto limiter : r.binding)
            limiters.push_back(occupancy::limiterKey(limiter));
        const nlohmann::json doc = {
            {"arch", r.arch},
            {"gpu", r.gpuName},
            {"block", input.threadsPerBlock},
            {"regs", input.registersPerThread},
            {"smem_static", input.staticSharedBytes},
            {"smem_dynamic", input.dynamicSharedBytes},
            {"carveout", input.carveoutPercent},
            {"barriers", input.barriersPerBlock},
            {"blocks_per_sm", r.activeBlocksPerSm},
            {"warps_per_sm", r.activeWarpsPerSm},
            {"threads_per_sm", r.activeThreadsPerSm},
            {"idle_lanes_per_block", r.idleLanesPerBlock},
            {"max_warps_per_sm", r.maxWarpsPerSm},
            {"occupancy", r.occupancy},
            {"launchable", r.launchable()},
            {"limiters", limiters},
            {"limits", limits},
            {"registers_per_warp", r.registersPerWarp},
            {"registers_per_block", r.registersPerBlock},
            {"shared_per_block", r.sharedPerBlock},
            {"shared_per_sm", r.sharedPerSm},
            {"needs_optin", r.needsOptin},
            {"details", details},
            {"suggestions", suggestions},
            {"explanation", r.explanation},
            {"source", "CUDA toolkit cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor)"},
        };
        out << doc.dump(2) << "\n";
        return;
    }

    out << r.gpuName << " (" << r.arch << "): " << input.threadsPerBlock << " threads/block, "
        << input.registersPerThread << " registers/thread, " << formatBytes(input.staticSharedBytes)
        << " static + " << formatBytes(input.dynamicSharedBytes) << " dynamic shared memory\n\n";
    out << r.explanation << "\n\nBlocks per SM allowed by each factor:\n";
    for (const auto& detail : r.limits) {
        char line[64];
        const std::string limit = detail.blockLimit == INT_MAX ? "-" : std::to_string(detail.blockLimit);
        std::snprintf(line, sizeof line, "  %c %-16s %5s  ", detail.binding ? '*' : ' ',
                      std::string(occupancy::limiterTitle(detail.limiter)).c_str(), limit.c_str());
        out << line << detail.reasoning << "\n";
    }
    out << "\n(* binds. Computed with the CUDA toolkit's cuda_occupancy.h.)\n";
}

} // namespace warpscope::cli
