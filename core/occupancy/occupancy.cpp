#include "occupancy/occupancy.h"

#include "util/input_error.h"
#include "util/parse.h"

#include <cuda_occupancy.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
    else // halves round up, as the explorer's labels do (78.125 -> 78.13, not printf's 78.12)
        std::snprintf(text, sizeof text, "%.2f %%", std::round(value * 100.0) / 100.0);
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
               plural(raw.blockLimitWarps, "block", "blocks") + ".";
    case Limiter::Registers: {
        const int perSub = preset.registersPerSm / kSubPartitions;
        if (raw.blockLimitRegs == 0) {
            // The launch check assumes registers are allocated to all 4 sub-partitions at once:
            // the block's warps are rounded up to a multiple of 4 (cudaOccMaxBlocksPerSMRegsLimit).
            const int roundedWarps = (r.warpsPerBlock + kSubPartitions - 1) / kSubPartitions * kSubPartitions;
            const int checked = r.registersPerWarp * roundedWarps;
            return plural(in.registersPerThread, "register", "registers") + " x 32 lanes = " +
                   withThousands(r.registersPerWarp) + " per warp (256-register units). The hardware's per-block "
                   "check allocates a block's registers in groups of 4 warps, one per sub-partition, as if all 4 "
                   "were served at once: " + plural(r.warpsPerBlock, "warp is", "warps are") + " counted as " +
                   std::to_string(roundedWarps) + " (a multiple of the 4 sub-partitions) and need " +
                   withThousands(checked) + ", more than the " + withThousands(preset.registersPerBlock) +
                   " one block may use: 0 blocks.";
        }
        return plural(in.registersPerThread, "register", "registers") + " x 32 lanes = " +
               withThousands(in.registersPerThread * 32) + ", allocated in 256-register units = " +
               withThousands(r.registersPerWarp) + " per warp; each of the " +
               std::to_string(kSubPartitions) + " sub-partitions has " + withThousands(perSub) +
               " registers, room for " + plural(r.warpsPerSubPartitionByRegisters, "warp", "warps") + ", so " +
               plural(kSubPartitions * r.warpsPerSubPartitionByRegisters, "warp", "warps") + " per SM = " +
               plural(raw.blockLimitRegs, "block", "blocks") + " of " + plural(r.warpsPerBlock, "warp", "warps") + ".";
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
               plural(raw.blockLimitSharedMem, "block", "blocks") + ".";
    }
    case Limiter::Blocks:
        return "An SM of compute capability " + std::to_string(preset.computeMajor) + "." +
               std::to_string(preset.computeMinor) + " holds at most " +
               plural(raw.blockLimitBlocks, "resident block", "resident blocks") + ".";
    case Limiter::Barriers:
        if (raw.blockLimitBarriers == INT_MAX)
            return in.barriersPerBlock == 0
                       ? "The kernel uses no block barriers: no limit."
                       : "cuda_occupancy.h applies a barrier limit only from compute capability 9.0: no limit.";
        return plural(in.barriersPerBlock, "barrier", "barriers") + " per block; the SM has " +
               std::to_string(raw.blockLimitBlocks * 2) + " (2 per resident block slot): " +
               plural(raw.blockLimitBarriers, "block", "blocks") + ".";
    }
    return {};
}

int activeWarps(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    const int warpsPerBlock = (input.threadsPerBlock + preset.warpSize - 1) / preset.warpSize;
    return runCalculator(preset, input).activeBlocksPerMultiprocessor * warpsPerBlock;
}

std::string occupancyOf(int warps, int maxWarps)
{
    return percent(static_cast<double>(warps) / maxWarps) + ", " + std::to_string(warps) + " of " +
           std::to_string(maxWarps) + " warps";
}

// "A", "A or B".
std::string either(const std::vector<std::string>& options)
{
    std::string text;
    for (std::size_t i = 0; i < options.size(); ++i)
        text += (i == 0 ? "" : i + 1 == options.size() ? " or " : ", ") + options[i];
    return text;
}

// A value `v` of one input, tried from the current one outwards, changes occupancy monotonically
// (fewer registers, less shared memory, fewer barriers or a larger carveout never lose a block). The
// first step that raises occupancy and the first that reaches the best any value of this input gives.
struct Scan {
    int firstValue = -1, firstWarps = 0; // -1: no value raises occupancy
    int bestValue = -1, bestWarps = 0;
};

template <typename Apply>
Scan scanValues(const gpu::GpuPreset& preset, const OccupancyInput& base, int current, const std::vector<int>& values,
                Apply apply)
{
    Scan scan;
    for (int value : values) {
        OccupancyInput trial = base;
        apply(trial, value);
        const int warps = activeWarps(preset, trial);
        if (warps <= current)
            continue;
        if (scan.firstValue < 0) {
            scan.firstValue = value;
            scan.firstWarps = warps;
        }
        if (warps > scan.bestWarps) {
            scan.bestValue = value;
            scan.bestWarps = warps;
        }
    }
    return scan;
}

OccupancySuggestion suggestion(SuggestionKind kind, OccupancyInput input, int warps, int maxWarps, std::string text)
{
    OccupancySuggestion s;
    s.kind = kind;
    s.input = input;
    s.activeWarpsPerSm = warps;
    s.occupancy = static_cast<double>(warps) / maxWarps;
    s.text = std::move(text);
    return s;
}

// Block sizes (multiples of 32) that reach the best occupancy any block size gives with the same
// registers, shared memory and barriers. Multiples of 128 are named first (4 warps: one for each of the
// SM's 4 schedulers), then the sizes nearest the current one; at most two.
std::optional<OccupancySuggestion> blockSizeSuggestion(const gpu::GpuPreset& preset, const OccupancyInput& in,
                                                       int current, int maxWarps)
{
    int best = current;
    std::vector<std::pair<int, int>> sizes; // (threads, warps)
    for (int threads = preset.warpSize; threads <= preset.maxThreadsPerBlock; threads += preset.warpSize) {
        if (threads == in.threadsPerBlock)
            continue;
        OccupancyInput trial = in;
        trial.threadsPerBlock = threads;
        const int warps = activeWarps(preset, trial);
        sizes.emplace_back(threads, warps);
        best = std::max(best, warps);
    }
    if (best <= current)
        return std::nullopt;
    std::vector<int> reaching;
    for (const auto& [threads, warps] : sizes)
        if (warps == best)
            reaching.push_back(threads);
    const double log0 = std::log(static_cast<double>(in.threadsPerBlock));
    std::stable_sort(reaching.begin(), reaching.end(), [&](int a, int b) {
        const bool a128 = a % 128 == 0, b128 = b % 128 == 0;
        if (a128 != b128)
            return a128;
        return std::abs(std::log(static_cast<double>(a)) - log0) < std::abs(std::log(static_cast<double>(b)) - log0);
    });
    reaching.resize(std::min<std::size_t>(reaching.size(), 2));
    std::sort(reaching.begin(), reaching.end());
    std::vector<std::string> names;
    for (int threads : reaching)
        names.push_back(std::to_string(threads));
    OccupancyInput changed = in;
    changed.threadsPerBlock = reaching.front();
    return suggestion(SuggestionKind::BlockSize, changed, best, maxWarps,
                      "use " + either(names) + " threads per block (" + occupancyOf(best, maxWarps) + ")");
}

std::vector<int> descending(int from, int to) // from, from-1, ..., to
{
    std::vector<int> values;
    for (int v = from; v >= to; --v)
        values.push_back(v);
    return values;
}

// "at most 48 registers (62.5 %, 40 of 64 warps); at most 32 (100 %, 64 of 64 warps)"
std::string firstAndBest(const Scan& scan, int maxWarps, const std::string& first, const std::string& best)
{
    std::string text = first + " (" + occupancyOf(scan.firstWarps, maxWarps) + ")";
    if (scan.bestWarps > scan.firstWarps)
        text += ", or " + best + " (" + occupancyOf(scan.bestWarps, maxWarps) + ")";
    return text;
}

// Every single change that raises the occupancy of `in` above `current` warps, the best first.
std::vector<OccupancySuggestion> singleChanges(const gpu::GpuPreset& preset, const OccupancyResult& r)
{
    const OccupancyInput& in = r.input;
    const int current = r.activeWarpsPerSm;
    const int maxWarps = r.maxWarpsPerSm;
    std::vector<OccupancySuggestion> out;

    if (auto block = blockSizeSuggestion(preset, in, current, maxWarps))
        out.push_back(*block);

    const Scan regs = scanValues(preset, in, current, descending(in.registersPerThread - 1, 1),
                                 [](OccupancyInput& t, int v) { t.registersPerThread = v; });
    if (regs.firstValue > 0) {
        OccupancyInput changed = in;
        changed.registersPerThread = regs.bestValue;
        out.push_back(suggestion(SuggestionKind::Registers, changed, regs.bestWarps, maxWarps,
                                 firstAndBest(regs, maxWarps,
                                              "at most " + plural(regs.firstValue, "register", "registers") +
                                                  " per thread, with __launch_bounds__ or -maxrregcount",
                                              "at most " + std::to_string(regs.bestValue))));
    }

    // Shared memory: totals (static + dynamic, before the reservation) that fill each smaller allocation
    // unit exactly; the dynamic part shrinks first.
    if (r.sharedPerBlock > 0 && in.staticSharedBytes + in.dynamicSharedBytes > 0) {
        const auto reserved = static_cast<long long>(preset.reservedSharedPerBlock);
        const auto unit = static_cast<long long>(r.sharedGranularity);
        std::vector<int> totals;
        for (long long allocation = static_cast<long long>(r.sharedPerBlock) - unit; allocation - reserved >= 0;
             allocation -= unit)
            totals.push_back(static_cast<int>(allocation - reserved));
        const auto apply = [](OccupancyInput& t, int total) {
            const auto bytes = static_cast<std::size_t>(total);
            t.staticSharedBytes = std::min(t.staticSharedBytes, bytes);
            t.dynamicSharedBytes = bytes - t.staticSharedBytes;
        };
        const Scan shared = scanValues(preset, in, current, totals, apply);
        if (shared.firstValue >= 0) {
            OccupancyInput changed = in;
            apply(changed, shared.bestValue);
            out.push_back(suggestion(
                SuggestionKind::SharedMemory, changed, shared.bestWarps, maxWarps,
                firstAndBest(shared, maxWarps,
                             "at most " + formatBytes(static_cast<std::size_t>(shared.firstValue)) +
                                 " of shared memory (static + dynamic) per block",
                             "at most " + formatBytes(static_cast<std::size_t>(shared.bestValue)))));
        }
    }

    if (in.carveoutPercent >= 0 && in.carveoutPercent < 100) {
        std::vector<int> values;
        for (int v = in.carveoutPercent + 1; v <= 100; ++v)
            values.push_back(v);
        const Scan carveout = scanValues(preset, in, current, values,
                                         [](OccupancyInput& t, int v) { t.carveoutPercent = v; });
        if (carveout.firstValue > 0) {
            OccupancyInput changed = in;
            changed.carveoutPercent = carveout.bestValue;
            out.push_back(suggestion(SuggestionKind::Carveout, changed, carveout.bestWarps, maxWarps,
                                     firstAndBest(carveout, maxWarps,
                                                  "raise the carveout to " + std::to_string(carveout.firstValue) + " %",
                                                  "to " + std::to_string(carveout.bestValue) + " %")));
        }
    }

    if (in.barriersPerBlock > 0) {
        const Scan barriers = scanValues(preset, in, current, descending(in.barriersPerBlock - 1, 0),
                                         [](OccupancyInput& t, int v) { t.barriersPerBlock = v; });
        if (barriers.firstValue >= 0) {
            OccupancyInput changed = in;
            changed.barriersPerBlock = barriers.bestValue;
            out.push_back(suggestion(SuggestionKind::Barriers, changed, barriers.bestWarps, maxWarps,
                                     firstAndBest(barriers, maxWarps,
                                                  "at most " + plural(barriers.firstValue, "block barrier", "block barriers") +
                                                      " per block",
                                                  "at most " + std::to_string(barriers.bestValue))));
        }
    }

    // The one that helps most first; equal ones keep the order above.
    std::stable_sort(out.begin(), out.end(), [](const OccupancySuggestion& a, const OccupancySuggestion& b) {
        return a.activeWarpsPerSm > b.activeWarpsPerSm;
    });
    return out;
}

// When no single change helps (several factors bind together): the block size and the register count
// changed together, the smallest register cut first, then block sizes as blockSizeSuggestion orders them.
std::optional<OccupancySuggestion> blockAndRegisters(const gpu::GpuPreset& preset, const OccupancyResult& r)
{
    const OccupancyInput& in = r.input;
    int bestWarps = r.activeWarpsPerSm, bestRegs = 0;
    for (int regs = in.registersPerThread; regs >= 1; --regs) {
        for (int threads = preset.warpSize; threads <= preset.maxThreadsPerBlock; threads += preset.warpSize) {
            OccupancyInput trial = in;
            trial.threadsPerBlock = threads;
            trial.registersPerThread = regs;
            const int warps = activeWarps(preset, trial);
            if (warps > bestWarps) {
                bestWarps = warps;
                bestRegs = regs;
            }
        }
    }
    if (bestRegs == 0)
        return std::nullopt;
    OccupancyInput withRegs = in;
    withRegs.registersPerThread = bestRegs;
    const auto block = blockSizeSuggestion(preset, withRegs, r.activeWarpsPerSm, r.maxWarpsPerSm);
    if (!block || block->activeWarpsPerSm != bestWarps)
        return std::nullopt;
    OccupancySuggestion both = *block;
    both.kind = SuggestionKind::BlockSizeAndRegisters;
    const std::string blockText = block->text.substr(0, block->text.find(" ("));
    both.text = blockText + " with at most " + plural(bestRegs, "register", "registers") + " per thread (" +
                occupancyOf(bestWarps, r.maxWarpsPerSm) + ")";
    return both;
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
    r.idleLanesPerBlock = r.warpsPerBlock * preset.warpSize - input.threadsPerBlock;

    // The sentences that say why, for the two limiters whose arithmetic the summary does not show.
    std::string why;
    for (Limiter limiter : r.binding) {
        if (limiter == Limiter::Warps && r.launchable() && r.activeWarpsPerSm < r.maxWarpsPerSm)
            why += " Blocks of " + plural(r.warpsPerBlock, "warp", "warps") + " fit floor(" +
                   std::to_string(r.maxWarpsPerSm) + " / " + std::to_string(r.warpsPerBlock) + ") = " +
                   plural(r.activeBlocksPerSm, "time", "times") + " into " + std::to_string(r.maxWarpsPerSm) +
                   " warp slots, leaving " + plural(r.maxWarpsPerSm - r.activeWarpsPerSm, "slot", "slots") +
                   " unused.";
        if (limiter == Limiter::Blocks && r.activeWarpsPerSm < r.maxWarpsPerSm) {
            const int minWarps = (r.maxWarpsPerSm + preset.maxBlocksPerSm - 1) / preset.maxBlocksPerSm;
            why += " An SM holds at most " + plural(preset.maxBlocksPerSm, "block", "blocks") + ": with " +
                   plural(r.warpsPerBlock, "warp", "warps") + " each they fill " + std::to_string(r.activeWarpsPerSm) +
                   " of " + std::to_string(r.maxWarpsPerSm) + " warp slots, and filling them all needs at least " +
                   plural(minWarps, "warp", "warps") + " (" + std::to_string(minWarps * preset.warpSize) +
                   " threads) per block.";
        }
    }

    // Idle lanes are not free: a partial last warp takes a whole warp slot (and its registers).
    std::string idle;
    if (r.idleLanesPerBlock > 0 && r.launchable()) {
        const int lanes = r.activeWarpsPerSm * preset.warpSize;
        const int lower = input.threadsPerBlock / preset.warpSize * preset.warpSize;
        const int upper = lower + preset.warpSize;
        idle = " Each block's last warp holds " +
               plural(preset.warpSize - r.idleLanesPerBlock, "thread", "threads") + " and " +
               plural(r.idleLanesPerBlock, "idle lane", "idle lanes") +
               ", which still take a warp slot: " + withThousands(r.activeThreadsPerSm) + " threads on " +
               withThousands(lanes) + " lanes (" +
               percent(static_cast<double>(r.activeThreadsPerSm) / lanes) + ") do work. " +
               (lower > 0 ? std::to_string(lower) + " or " + std::to_string(upper) : std::to_string(upper)) +
               " threads per block leave no lane idle.";
    }

    if (r.activeWarpsPerSm < r.maxWarpsPerSm) {
        r.suggestions = singleChanges(preset, r);
        if (r.suggestions.empty() && r.binding.size() > 1)
            if (auto both = blockAndRegisters(preset, r))
                r.suggestions.push_back(*both);
    }
    std::string advice;
    if (!r.suggestions.empty() && r.suggestions.front().kind == SuggestionKind::BlockSizeAndRegisters) {
        std::string text = r.suggestions.front().text;
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        advice = " " + names + " bind together: no single change raises it. " + text + ".";
        advice[1] = static_cast<char>(std::toupper(static_cast<unsigned char>(advice[1])));
    } else if (!r.suggestions.empty()) {
        advice = r.suggestions.size() == 1 ? std::string(r.launchable() ? " One change raises it: " : " One change makes it launch: ")
                                           : std::string(r.launchable() ? " Each of these changes raises it on its own, the best first: "
                                                                        : " Each of these changes makes it launch, the best first: ");
        for (std::size_t i = 0; i < r.suggestions.size(); ++i)
            advice += (i == 0 ? "" : "; ") + r.suggestions[i].text;
        advice += ".";
    } else if (r.activeWarpsPerSm < r.maxWarpsPerSm) {
        advice = r.binding.size() > 1 ? " " + names + " bind together, and no change to the block size, registers, "
                                                      "shared memory, carveout or barriers alone raises it."
                                      : " No change to the block size, registers, shared memory, carveout or barriers "
                                        "alone raises it.";
        if (r.binding.size() > 1)
            advice[1] = static_cast<char>(std::toupper(static_cast<unsigned char>(advice[1])));
    }

    if (!r.launchable()) {
        r.explanation = "This launch cannot run on " + r.gpuName + " (" + r.arch + "): no block fits (" + names + ": 0 blocks per SM).";
        for (const LimiterDetail& detail : r.limits)
            if (detail.blockLimit == 0)
                r.explanation += " " + detail.reasoning;
        r.explanation += advice;
        return r;
    }
    r.explanation = "Occupancy " + percent(r.occupancy) + ": " + plural(r.activeBlocksPerSm, "block", "blocks") +
                    " of " + plural(r.warpsPerBlock, "warp", "warps") + " = " +
                    std::to_string(r.activeWarpsPerSm) + " of " + std::to_string(r.maxWarpsPerSm) +
                    " warps per SM on " + r.gpuName + " (" + r.arch + "). Limited by " + names +
                    (r.binding.size() > 1 ? std::string(r.binding.size() == 2 ? ", which both allow " : ", which all allow ") + plural(r.activeBlocksPerSm, "block", "blocks") : std::string()) +
                    "." + why + idle;
    if (r.activeWarpsPerSm == r.maxWarpsPerSm)
        r.explanation += " Every warp slot of the SM is in use: this is the maximum.";
    else
        r.explanation += advice;
    return r;
}

} // namespace warpscope::occupancy
