#include "probe_kernel_record.h"

#include "demo_kernels.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_ir.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace warpscope::probe {
namespace {

template <typename T>
session::Dim3 toDim3(T x, T y, T z)
{
    return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(z)};
}

// "sm_75" -> "compute_75"; "" for anything else (an arch-specific "sm_90a" is not plain compute_90).
std::string computeOfTarget(std::string_view ptxTarget)
{
    constexpr std::string_view prefix = "sm_";
    if (!ptxTarget.starts_with(prefix))
        return {};
    const std::string compute = "compute_" + std::string(ptxTarget.substr(prefix.size()));
    return session::isRecordedComputeArch(compute) ? compute : std::string();
}

} // namespace

std::string compiledCompute(const kernels::ResolvedTarget& target, const ProbeOptions& options)
{
    if (target.demo != nullptr)
        return target.module != nullptr ? computeOfTarget(target.module->target) : std::string();
    if (std::filesystem::path(target.sourceName).extension() == ".cu")
        return options.compute.empty() ? ptx::CompileOptions{}.arch : options.compute;
    return {};
}

session::KernelRecord probeKernelRecord(const kernels::ResolvedTarget& r, const ProbeOptions& options)
{
    session::KernelRecord k;
    k.id = r.kernelName;
    k.entry = r.function->name;
    k.sourceName = r.sourceName;
    k.ptxHash = session::fnv1a64Hex(r.ptxText);
    k.sourceHash = r.sourceText.empty() ? std::string() : session::fnv1a64Hex(r.sourceText);
    k.grid = toDim3(r.launch.grid.x, r.launch.grid.y, r.launch.grid.z);
    k.block = toDim3(r.launch.block.x, r.launch.block.y, r.launch.block.z);
    k.dynamicSharedBytes = r.launch.dynamicSharedBytes;
    k.args = r.argSpecs;
    const bool overridden = !options.grid.empty() || !options.block.empty() || !options.smem.empty() || !options.args.empty();
    k.launchSize = !r.demo || overridden                        ? "custom"
                   : options.size == "gpu" && !r.demo->gpuArgs.empty() ? "gpu"
                                                                        : "sim";
    k.cacheControl = options.cacheControl;
    k.compute = compiledCompute(r, options);
    if (r.demo) {
        k.title = r.demo->title;
        k.ladder = r.demo->ladder;
        int rung = 0;
        for (const kernels::DemoKernel& kernel : kernels::demoKernels()) {
            if (kernel.ladder == k.ladder && !k.ladder.empty())
                ++rung;
            if (&kernel == r.demo)
                break;
        }
        k.ladderRung = k.ladder.empty() ? 0 : rung;
    }
    return k;
}

} // namespace warpscope::probe
