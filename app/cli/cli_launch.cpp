#include "cli/cli_launch.h"

#include "ptx/sass.h"
#include "sim/work_estimate.h"
#include "util/input_error.h"

#include <algorithm>
#include <exception>

namespace warpscope::cli {

namespace {

// --cooperative: the driver checks the grid against occupancy at the kernel's real register count,
// which ptxas gives for the preset's GPU (PTX does not fix it). A count above the one assumed (32,
// or sim's --regs) replaces it for the check and the timing model; without ptxas the assumption
// stands. The summary, the JSON and any refusal name the count they used.
void useCooperativeRegisters(PreparedLaunch& prepared)
{
    int& assumed = prepared.request.options.registersPerThread;
    assumed = std::max(assumed, ptxasRegisters(prepared.resolved, prepared.preset)); // 0 without ptxas: the assumption stands
}

} // namespace

int ptxasRegisters(const kernels::ResolvedTarget& resolved, const gpu::GpuPreset& preset, std::string* why)
{
    try {
        ptx::SassOptions sass;
        sass.arch = std::string(preset.arch);
        sass.ptxName = resolved.kernelName + ".ptx";
        for (const ptx::PtxasResources& resources : ptx::ptxasResources(resolved.ptxText, sass))
            if (resources.function == resolved.function->name && resources.registers > 0)
                return resources.registers;
        if (why)
            *why = "ptxas reported no registers for " + resolved.function->name;
    } catch (const std::exception& error) {
        if (why)
            *why = error.what();
    }
    return 0;
}

std::string archPresetList()
{
    // Built from the presets themselves, so the help cannot fall behind a new GPU.
    std::string list;
    for (const gpu::GpuPreset& preset : gpu::allPresets())
        list += (list.empty() ? "" : ", ") + std::string(preset.arch) + " (" + std::string(preset.name) + ")";
    return list;
}

void addLaunchOptions(CLI::App* command, LaunchOptions& options)
{
    command->add_option("target", options.target, "a demo kernel id (see warpscope sim --list), FILE.cu or FILE.ptx");
    command->add_option("--kernel", options.kernel, "the kernel (.entry) to run in FILE.cu or FILE.ptx");
    command->add_option("--grid", options.grid, "blocks: X[,Y[,Z]], integer expressions over the arguments");
    command->add_option("--block", options.block, "threads per block: X[,Y[,Z]]");
    command->add_option("--smem", options.smem, "dynamic shared memory in bytes (an expression)");
    command->add_option("--arg", options.args,
                        "an argument spec, e.g. n=i32:4096, a=f32[n]:random(1), h=f16[n]:iota; TYPE is one of i8 u8 i16 "
                        "u16 i32 u32 i64 u64 f16 bf16 f32 f64 (see kernels/README.md); repeatable")
        ->allow_extra_args(false);
    command->add_option("--arch", options.arch, "GPU preset for limits: " + archPresetList())->capture_default_str();
    command->add_option("--compute", options.compute,
                        "FILE.cu: the virtual architecture NVRTC compiles for, compute_75 by default (compute_80, "
                        "compute_90, compute_100, ...; an unknown one lists what this NVRTC supports); the --arch GPU "
                        "must be able to run it");
    command->add_flag("--cooperative", options.cooperative,
                      "a cooperative launch (cudaLaunchCooperativeKernel), needed by kernels that call cooperative "
                      "groups' grid.sync(): every block resident at once, so the grid may have at most SMs x blocks per "
                      "SM blocks (occupancy at ptxas's register count for the GPU, or at sim's --regs or step's assumed 32 where "
                      "that is higher); blocks "
                      "take turns on one host thread");
    command->add_flag("--allow-long", options.allowLong,
                      "simulate even when the estimate (from a few sampled blocks) says the launch would pass the "
                      "step budget or take more than 2 minutes");
    command->add_option("--warp-model", options.warpModel,
                        "how a warp's lanes take turns: stack (one path at a time, rejoined at the branch's "
                        "post-dominator: pre-Volta SIMT) or its (Volta's independent thread scheduling: a lane "
                        "spinning on another lane of its warp lets that lane run; core/sim/its_scheduler.h)")
        ->capture_default_str();
}

sim::WarpModel parseWarpModel(const std::string& value)
{
    if (value == "stack")
        return sim::WarpModel::ReconvergenceStack;
    if (value == "its")
        return sim::WarpModel::IndependentThreads;
    throw InputError("--warp-model '" + value + "' is not a warp model (allowed: stack, its)");
}

const char* warpModelName(sim::WarpModel model)
{
    return model == sim::WarpModel::IndependentThreads ? "its" : "stack";
}

const sim::Hazard* findLivelock(const std::vector<sim::Hazard>& hazards)
{
    for (const sim::Hazard& hazard : hazards)
        if (hazard.kind == sim::HazardKind::WarpLivelock)
            return &hazard;
    return nullptr;
}

void moveBufferBytes(std::vector<sim::ResolvedArg>& from, std::vector<sim::ResolvedArg>& to)
{
    for (std::size_t i = 0; i < from.size() && i < to.size(); ++i)
        to[i].bytes = std::move(from[i].bytes);
}

std::optional<PreparedLaunch> prepareLaunch(const LaunchOptions& options, const sim::SimOptions& simOptions,
                                            std::ostream& err)
{
    const sim::WarpModel warpModel = parseWarpModel(options.warpModel);
    const auto preset = gpu::findPreset(options.arch);
    if (!preset)
        throw InputError("--arch '" + options.arch + "' is not a known GPU (allowed: " + gpu::knownArchList() + ")");
    kernels::TargetRequest target;
    target.target = options.target;
    target.kernel = options.kernel;
    target.grid = options.grid;
    target.block = options.block;
    target.smem = options.smem;
    target.args = options.args;
    target.maxBufferBytes = simOptions.maxBufferBytes;
    target.compute = options.compute;
    kernels::requireComputeOption(options.compute, {options.target});
    PreparedLaunch prepared;
    try {
        prepared.resolved = kernels::resolveTarget(target);
    } catch (const kernels::CompileFailed& failed) {
        err << failed.what() << "\n";
        return std::nullopt;
    }
    prepared.preset = *preset;
    kernels::requireTargetFits(prepared.resolved, *preset);
    // The launch's buffers (which may be GBs) move into the request rather than being copied: the
    // resolved launch keeps their names, types and scalars, with empty bytes.
    std::vector<sim::ResolvedArg> held(prepared.resolved.launch.args.size());
    moveBufferBytes(prepared.resolved.launch.args, held);
    prepared.request = kernels::targetLaunchRequest(prepared.resolved, *preset);
    moveBufferBytes(held, prepared.request.args);
    prepared.request.options = simOptions;
    prepared.request.options.cooperative = options.cooperative;
    if (options.cooperative)
        useCooperativeRegisters(prepared);
    prepared.request.options.warpModel = warpModel;
    return prepared;
}

void refuseEndlessWork(const LaunchOptions& options, const sim::LaunchRequest& request, const std::string& instead)
{
    // A sample of a cooperative grid cannot pass its grid barriers, so nothing is estimated; the
    // occupancy limit, checked first, bounds its blocks.
    if (request.options.cooperative) {
        sim::validateLaunchRequest(request);
        return;
    }
    if (options.allowLong || request.options.sampleBlocks != 0 || static_cast<std::uint64_t>(request.grid.volume()) <= sim::kEstimateAboveBlocks)
        return;
    const std::string why = sim::workRefusal(sim::estimateWork(request), request.options, kMaxSimSeconds);
    if (!why.empty())
        throw InputError(why + ": " + instead + ", or pass --allow-long to simulate it anyway");
}

} // namespace warpscope::cli
