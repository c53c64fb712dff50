#include "occupancy/occupancy.h"

#include "util/input_error.h"
#include "util/parse.h"

#include <cuda_occupancy.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <utility>

namespace warpscope::occupancy {
namespace {

constexpr int kSubPartitions = 4;      // cudaOccSubPartitionsPerMultiprocessor for sm_70..sm_90
constexpr int kMaxNamedBarriers = 16;  // PTX ISA: bar.sync takes barrier ids 0..15

cudaOccDeviceProp toDeviceProp(const gpu::GpuPreset& preset)
{
    cudaOccDeviceProp prop;
    prop.computeMajor = preset.computeMajor;
    prop.computeMinor = preset.computeMinor;
    prop.maxThreadsPerBlock = preset.maxThreadsPerBlock;
    prop.maxThreadsPerMultiprocessor = preset.maxThreadsPerSm;
    prop.regsPerBlock = preset.registersPerBlock;
    prop.regsPerMultiprocessor = preset.registersPerSm;
    prop.warpSize = preset.warpSize;
    prop.sharedMemPerBlock = preset.sharedPerBlock;
    prop.sharedMemPerMultiprocessor = preset.sharedPerSm;
    prop.numSms = preset.smCount;
    prop.sharedMemPerBlockOptin = preset.sharedPerBlockOptin;
    prop.reservedSharedMemPerBlock = preset.reservedSharedPerBlock;
    return prop;
}

cudaOccFuncAttributes toAttributes(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = preset.maxThreadsPerBlock;
    attributes.numRegs = input.registersPerThread;
    attributes.sharedSizeBytes = input.staticSharedBytes;
    attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
    // As if the kernel opted in (cudaFuncSetAttribute MaxDynamicSharedMemorySize) to exactly the
    // dynamic size it launches with; without opt-in the launch fails above 48 KB.
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attributes.maxDynamicSharedSizeBytes = input.dynamicSharedBytes;
    attributes.numBlockBarriers = input.barriersPerBlock;
    return attributes;
}

cudaOccDeviceState toState(const OccupancyInput& input)
{
    cudaOccDeviceState state;
    state.carveoutConfig = input.carveoutPercent;
    return state;
}

cudaOccResult runCalculator(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    const cudaOccDeviceProp prop = toDeviceProp(preset);
    const cudaOccFuncAttributes attributes = toAttributes(preset, input);
    const cudaOccDeviceState state = toState(input);
    cudaOccResult result{};
    const cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
        &result, &prop, &attributes, &state, input.threadsPerBlock, input.dynamicSharedBytes);
    if (status != CUDA_OCC_SUCCESS)
        throw InputError(std::string("occupancy calculator rejected the input for ") +
                         std::string(preset.arch) + " (cuda_occupancy.h error " +
                         std::to_string(static_cast<int>(status)) + ")");
    return result;
}

// The SM's shared capacity the calculator uses: the carveout preference, or the smallest supported
// step that fits one block when the preference is too small (cudaOccMaxBlocksPerSMSmemLimit).
std::size_t sharedCapacity(const gpu::GpuPreset& preset, const OccupancyInput& input,
                           std::size_t allocatedPerBlock)
{
    const cudaOccDeviceProp prop = toDeviceProp(preset);
    const cudaOccDeviceState state = toState(input);
    std::size_t preference = 0;
    if (cudaOccSMemPerMultiprocessor(&preference, &prop, &state) != CUDA_OCC_SUCCESS)
        return preset.sharedPerSm;
    if (preference >= allocatedPerBlock)
        return preference;
    std::size_t fitted = allocatedPerBlock;
    if (cudaOccAlignUpShmemSizeVoltaPlus(&fitted, &prop) != CUDA_OCC_SUCCESS)
        return preset.sharedPerSm;
    return fitted;
}

std::string percent(double fraction)
{
    char text[32];
    const double value = fraction * 100.0;
    if (std::abs(value - std::round(value)) < 1e-9)
        std::snprintf(text, sizeof text, "%.0f %%", value);
    else
        std::snprintf(text, sizeof text, "%.2f %%", value);
    std::string result = text;
    if (result.size() > 5 && result.compare(result.size() - 3, 3, "0 %") == 0 &&
        result.find('.') != std::string::npos)
        result.erase(result.size() - 3, 1); // 66.70 % -> 66.7 %
    return result;
}

std::string plural(int count, std::string_view one, std::string_view many)
{
    return withThousands(count) + " " + std::string(count == 1 ? one : many);
}

// Largest registers-per-thread value below the current one for which the register limit alone
// allows more than `blocks` blocks; 0 when none does.
int registersForMoreBlocks(const gpu::GpuPreset& preset, OccupancyInput input, int blocks)
{
    for (int regs = input.registersPerThread - 1; regs >= 1; --regs) {
        input.registersPerThread = regs;
        if (runCalculator(preset, input).blockLimitRegs > blocks)
            return regs;
    }
    return 0;
}

// Largest shared bytes per block (static + dynamic, before the reservation) for which the shared
// memory limit alone allows more than `blocks` blocks; -1 when none does. Candidates are the
// totals that fill each smaller allocation unit exactly.
long long sharedForMoreBlocks(const gpu::GpuPreset& preset, OccupancyInput input, int blocks,
                              std::size_t allocatedPerBlock, std::size_t granularity)
{
    const auto reserved = static_cast<long long>(preset.reservedSharedPerBlock);
    for (auto allocation = static_cast<long long>(allocatedPerBlock) - static_cast<long long>(granularity);
         allocation >= 0; allocation -= static_cast<long long>(granularity)) {
        const long long total = allocation - reserved;
        if (total < 0)
            break;
        input.staticSharedBytes = std::min(input.staticSharedBytes, static_cast<std::size_t>(total));
        input.dynamicSharedBytes = static_cast<std::size_t>(total) - input.staticSharedBytes;
        if (runCalculator(preset, input).blockLimitSharedMem > blocks)
            return total;
    }
    return -1;
}

std::string describeLimits(const gpu::GpuPreset& preset, const OccupancyResult& r, Limiter limiter,
                           const cudaOccResult& raw)
{
    const OccupancyInput& in = r.input;
    switch (limiter) {
    case Limiter::Warps:
        return "A block of " + plural(in.threadsPerBlock, "thread", "threads") + " is " +
               plural(r.warpsPerBlock, "warp", "warps") + "; an SM holds " +
               withThousands(r.maxWarpsPerSm) + " warps: floor(" + std::to_string(r.maxWarpsPerSm) +
               " / " + std::to_string(r.warpsPerBlock) + ") = " +
               std::to_string(raw.blockLimitWarps) + " blocks.";
    case Limiter::Registers: {
        const int perSub = preset.registersPerSm / kSubPartitions;
        if (raw.blockLimitRegs == 0) {
            // The launch check assumes registers are allocated to all 4 sub-partitions at once:
            // the block's warps are rounded up to a multiple of 4 (cudaOccMaxBlocksPerSMRegsLimit).
            const int roundedWarps = (r.warpsPerBlock + kSubPartitions - 1) / kSubPartitions * kSubPartitions;
            const int checked = r.registersPerWarp * roundedWarps;
            return std::to_string(in.registersPerThread) + " registers x 32 lanes = " +
                   withThousands(r.registersPerWarp) + " per warp (256-register units); " +
                   std::to_string(r.warpsPerBlock) + " warps, counted as " + std::to_string(roundedWarps) +
                   " (a multiple of the 4 sub-partitions), need " + withThousands(checked) + ", more than the " +
                   withThousands(preset.registersPerBlock) + " one block may use: 0 blocks.";
        }
        return std::to_string(in.registersPerThread) + " registers x 32 lanes = " +
               withThousands(in.registersPerThread * 32) + ", allocated in 256-register units = " +
               withThousands(r.registersPerWarp) + " per warp; each of the " +
               std::to_string(kSubPartitions) + " sub-partitions has " + withThousands(perSub) +
               " registers, room for " + std::to_string(r.warpsPerSubPartitionByRegisters) +
               " warps, so " + std::to_string(kSubPartitions * r.warpsPerSubPartitionByRegisters) +
               " warps per SM = " + std::to_string(raw.blockLimitRegs) + " blocks of " +
               std::to_string(r.warpsPerBlock) + " warps.";
    }
    case Limiter::SharedMemory: {
        const std::string parts = formatBytes(in.staticSharedBytes) + " static + " +
                                  formatBytes(in.dynamicSharedBytes) + " dynamic + " +
                                  formatBytes(preset.reservedSharedPerBlock) + " reserved";
        if (raw.blockLimitSharedMem == 0)
            return parts + " = " + formatBytes(r.sharedPerBlock) +
                   " per block, more than a block may use: 0 blocks.";
        if (raw.blockLimitSharedMem == INT_MAX)
            return "The kernel uses no shared memory: no limit.";
        return parts + ", rounded up to " + std::to_string(r.sharedGranularity) + "-byte units = " +
               formatBytes(r.sharedPerBlock) + " per block; the SM's shared memory at this carveout is " +
               formatBytes(r.sharedPerSm) + ": floor(" + withThousands(static_cast<long long>(r.sharedPerSm)) +
               " / " + withThousands(static_cast<long long>(r.sharedPerBlock)) + ") = " +
               std::to_string(raw.blockLimitSharedMem) + " blocks.";
    }
    case Limiter::Blocks:
        return "An SM of compute capability " + std::to_string(preset.computeMajor) + "." +
               std::to_string(preset.computeMinor) + " holds at most " +
               std::to_string(raw.blockLimitBlocks) + " resident blocks.";
    case Limiter::Barriers:
        if (raw.blockLimitBarriers == INT_MAX)
            return in.barriersPerBlock == 0
                       ? "The kernel uses no block barriers: no limit."
                       : "cuda_occupancy.h applies a barrier limit only from compute capability 9.0: no limit.";
        return std::to_string(in.barriersPerBlock) + " barrier(s) per block; the SM has " +
               std::to_string(raw.blockLimitBlocks * 2) + " (2 per resident block slot): " +
               std::to_string(raw.blockLimitBarriers) + " blocks.";
    }
    return {};
}

std::string liftAdvice(const gpu::GpuPreset& preset, const OccupancyResult& r, Limiter limiter)
{
    const OccupancyInput& in = r.input;
    const int blocks = r.activeBlocksPerSm;
    switch (limiter) {
    case Limiter::Warps:
        if (r.activeWarpsPerSm == r.maxWarpsPerSm)
            return "Warps: every warp slot of the SM is in use; nothing to lift.";
        return "Warps: blocks of " + std::to_string(r.warpsPerBlock) + " warps leave " +
               std::to_string(r.maxWarpsPerSm - r.activeWarpsPerSm) +
               " warp slots unused; a block size whose warp count divides " +
               std::to_string(r.maxWarpsPerSm) + " (for example " +
               std::to_string(preset.maxThreadsPerSm / 8) + " threads) fills the SM.";
    case Limiter::Registers: {
        const int regs = registersForMoreBlocks(preset, in, blocks);
        if (regs == 0)
            return "Registers: even 1 register per thread would not allow another block.";
        OccupancyInput fewer = in;
        fewer.registersPerThread = regs;
        return "Registers: at most " + std::to_string(regs) +
               " registers per thread (__launch_bounds__ or -maxrregcount) let registers allow " +
               std::to_string(runCalculator(preset, fewer).blockLimitRegs) +
               " blocks per SM; smaller blocks waste less of the 4-warp allocation too.";
    }
    case Limiter::SharedMemory: {
        const long long bytes =
            sharedForMoreBlocks(preset, in, blocks, r.sharedPerBlock, r.sharedGranularity);
        std::string advice = bytes < 0 ? "Shared memory: less shared memory per block would not "
                                         "allow another block"
                                       : "Shared memory: at most " +
                                             formatBytes(static_cast<std::size_t>(bytes)) +
                                             " (static + dynamic) per block allows another block";
        if (in.carveoutPercent >= 0 && in.carveoutPercent < 100)
            advice += ", or raise the carveout above " + std::to_string(in.carveoutPercent) + " %";
        return advice + ".";
    }
    case Limiter::Blocks: {
        const int minWarps = (r.maxWarpsPerSm + preset.maxBlocksPerSm - 1) / preset.maxBlocksPerSm;
        return "Blocks: " + std::to_string(preset.maxBlocksPerSm) + " blocks of " +
               std::to_string(r.warpsPerBlock) + " warps use " +
               std::to_string(preset.maxBlocksPerSm * r.warpsPerBlock) + " of " +
               std::to_string(r.maxWarpsPerSm) + " warp slots; blocks of at least " +
               std::to_string(minWarps * 32) + " threads can fill the SM.";
    }
    case Limiter::Barriers:
        return "Barriers: use fewer block barriers per block.";
    }
    return {};
}

} // namespace

std::string_view limiterKey(Limiter limiter)
{
    switch (limiter) {
    case Limiter::Warps: return "warps";
    case Limiter::Registers: return "registers";
    case Limiter::SharedMemory: return "shared_memory";
    case Limiter::Blocks: return "blocks";
    case Limiter::Barriers: return "barriers";
    }
    return "unknown";
}

std::string_view limiterTitle(Limiter limiter)
{
    switch (limiter) {
    case Limiter::Warps: return "Warps per SM";
    case Limiter::Registers: return "Registers";
    case Limiter::SharedMemory: return "Shared memory";
    case Limiter::Blocks: return "Blocks per SM";
    case Limiter::Barriers: return "Block barriers";
    }
    return "Unknown";
}

void validateInput(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    const std::string arch(preset.arch);
    if (input.threadsPerBlock < 1 || input.threadsPerBlock > preset.maxThreadsPerBlock)
        throw InputError("block size: " + std::to_string(input.threadsPerBlock) +
                         " threads is out of range (allowed: 1.." +
                         std::to_string(preset.maxThreadsPerBlock) + " on " + arch + ")");
    if (input.registersPerThread < 1 || input.registersPerThread > preset.maxRegistersPerThread)
        throw InputError("registers per thread: " + std::to_string(input.registersPerThread) +
                         " is out of range (allowed: 1.." +
                         std::to_string(preset.maxRegistersPerThread) + ")");
    if (input.staticSharedBytes > preset.sharedPerBlock)
        throw InputError("static shared memory: " + withThousands(static_cast<long long>(input.staticSharedBytes)) +
                         " bytes is over the " + formatBytes(preset.sharedPerBlock) +
                         " static limit (allowed: 0.." + std::to_string(preset.sharedPerBlock) +
                         "; use dynamic shared memory with opt-in above that)");
    if (input.dynamicSharedBytes > preset.sharedPerBlockOptin ||
        input.staticSharedBytes + input.dynamicSharedBytes > preset.sharedPerBlockOptin)
        throw InputError("shared memory: static + dynamic = " +
                         withThousands(static_cast<long long>(input.staticSharedBytes + input.dynamicSharedBytes)) +
                         " bytes is over the " + formatBytes(preset.sharedPerBlockOptin) +
                         " per-block opt-in limit of " + arch + " (allowed: 0.." +
                         std::to_string(preset.sharedPerBlockOptin) + ")");
    if (input.carveoutPercent < -1 || input.carveoutPercent > 100)
        throw InputError("carveout: " + std::to_string(input.carveoutPercent) +
                         " is out of range (allowed: -1 for the default, or 0..100 percent)");
    if (input.barriersPerBlock < 0 || input.barriersPerBlock > kMaxNamedBarriers)
        throw InputError("barriers: " + std::to_string(input.barriersPerBlock) +
                         " is out of range (allowed: 0.." + std::to_string(kMaxNamedBarriers) + ")");
}

std::string calculatorDescription()
{
    return "CUDA toolkit cuda_occupancy.h, compute capability up to " + std::to_string(__CUDA_OCC_MAJOR__) + "." +
           std::to_string(__CUDA_OCC_MINOR__);
}

int activeBlocksPerSm(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    return runCalculator(preset, input).activeBlocksPerMultiprocessor;
}

OccupancyResult computeOccupancy(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    validateInput(preset, input);
    const cudaOccResult raw = runCalculator(preset, input);

    OccupancyResult r;
    r.arch = std::string(preset.arch);
    r.gpuName = std::string(preset.name);
    r.input = input;
    r.maxWarpsPerSm = preset.maxWarpsPerSm();
    r.warpsPerBlock = (input.threadsPerBlock + preset.warpSize - 1) / preset.warpSize;
    r.activeBlocksPerSm = raw.activeBlocksPerMultiprocessor;
    r.activeWarpsPerSm = r.activeBlocksPerSm * r.warpsPerBlock;
    r.activeThreadsPerSm = r.activeBlocksPerSm * input.threadsPerBlock;
    r.occupancy = static_cast<double>(r.activeWarpsPerSm) / r.maxWarpsPerSm;
    r.registersPerWarp = (input.registersPerThread * preset.warpSize + 255) / 256 * 256;
    r.registersPerBlock = raw.allocatedRegistersPerBlock;
    r.warpsPerSubPartitionByRegisters = (preset.registersPerSm / kSubPartitions) / r.registersPerWarp;
    r.sharedPerBlock = raw.allocatedSharedMemPerBlock;
    r.sharedGranularity = preset.computeMajor >= 8 ? 128 : 256; // cudaOccSMemAllocationGranularity
    r.sharedPerSm = sharedCapacity(preset, input, r.sharedPerBlock);
    r.needsOptin = input.staticSharedBytes + input.dynamicSharedBytes > preset.sharedPerBlock;

    const struct {
        Limiter limiter;
        int limit;
    } factors[] = {
        {Limiter::Warps, raw.blockLimitWarps},
        {Limiter::Registers, raw.blockLimitRegs},
        {Limiter::SharedMemory, raw.blockLimitSharedMem},
        {Limiter::Blocks, raw.blockLimitBlocks},
        {Limiter::Barriers, raw.blockLimitBarriers},
    };
    for (const auto& factor : factors) {
        LimiterDetail detail;
        detail.limiter = factor.limiter;
        detail.blockLimit = factor.limit;
        // Binding = equal to the final count. (raw.limitingFactors keeps the flags set before the
        // sm_90 barrier limit lowers the count, so it can name factors that no longer bind.)
        detail.binding = factor.limit == raw.activeBlocksPerMultiprocessor;
        detail.reasoning = describeLimits(preset, r, factor.limiter, raw);
        if (detail.binding)
            r.binding.push_back(factor.limiter);
        r.limits.push_back(std::move(detail));
    }

    std::string names;
    for (std::size_t i = 0; i < r.binding.size(); ++i) {
        if (i > 0)
            names += i + 1 == r.binding.size() ? " and " : ", ";
        std::string title(limiterTitle(r.binding[i]));
        title[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(title[0])));
        names += title;
    }
    if (!r.launchable()) {
        r.explanation = "This launch cannot run on " + r.gpuName + " (" + r.arch + "): " + names +
                        " allow 0 blocks per SM.";
        for (const LimiterDetail& detail : r.limits)
            if (detail.blockLimit == 0)
                r.explanation += " " + detail.reasoning;
        return r;
    }
    r.explanation = "Occupancy " + percent(r.occupancy) + ": " + plural(r.activeBlocksPerSm, "block", "blocks") +
                    " of " + plural(r.warpsPerBlock, "warp", "warps") + " = " +
                    std::to_string(r.activeWarpsPerSm) + " of " + std::to_string(r.maxWarpsPerSm) +
                    " warps per SM on " + r.gpuName + " (" + r.arch + "). Limited by " + names + ".";
    if (r.activeWarpsPerSm == r.maxWarpsPerSm) {
        r.explanation += " Every warp slot of the SM is in use: this is the maximum.";
    } else if (r.binding.size() == 1) {
        r.explanation += " " + liftAdvice(preset, r, r.binding.front());
    } else {
        // Several factors allow exactly this many blocks: lifting one alone changes nothing.
        r.explanation += " These factors bind together, so more blocks need every one of them lifted:";
        for (Limiter limiter : r.binding)
            r.explanation += " " + liftAdvice(preset, r, limiter);
    }
    return r;
}

} // namespace warpscope::occupancy
