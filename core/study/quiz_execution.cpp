// Questions on the execution model: the thread hierarchy, occupancy, waves, divergence, latency
// hiding and streams. Every numeric answer is computed by the engine from the drawn parameters.
#include "study/quiz_bank.h"

#include "gpu/gpu_preset.h"
#include "launch/launch_geometry.h"
#include "launch/wave_placement.h"
#include "occupancy/occupancy.h"
#include "perf/kernel_chain.h"
#include "perf/littles_law.h"
#include "perf/stream_overlap.h"
#include "util/parse.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::study::bank {
namespace {

using std::to_string;

gpu::GpuPreset presetFor(std::string_view arch) { return *gpu::findPreset(arch); }

std::string occupancyLink(const gpu::GpuPreset& preset, int block, int regs, std::size_t dynamicShared = 0)
{
    return "warpscope:occupancy?arch=" + std::string(preset.arch) + "&block=" + to_string(block) + "&regs=" + to_string(regs) +
           "&static_smem=0&dynamic_smem=" + to_string(dynamicShared) + "&carveout=-1&barriers=1";
}

// --- hierarchy -------------------------------------------------------------------------------

QuizItem warpsPerBlock(QuizRng& rng)
{
    const int threads = rng.uniform(33, 1024);
    launch::LaunchShape shape{{1, 1, 1}, {threads, 1, 1}};
    QuizItem item;
    item.prompt = "A block has " + to_string(threads) + " threads. How many warps does it occupy?";
    setNumber(item, shape.warpsPerBlock(), 0, "warps");
    item.explanation = "Warps are 32 consecutive threads, and a partial warp still counts: ceil(" + to_string(threads) +
                       " / 32) = " + to_string(shape.warpsPerBlock()) + ".";
    item.figureLink = "warpscope:hierarchy?grid=1&block=" + to_string(threads);
    item.source = "launch::LaunchShape::warpsPerBlock (CUDA C++ Programming Guide, SIMT Architecture)";
    return item;
}

QuizItem idleLanes(QuizRng& rng)
{
    int threads = rng.uniform(33, 1000);
    if (threads % 32 == 0)
        threads += 4;
    launch::LaunchShape shape{{1, 1, 1}, {threads, 1, 1}};
    QuizItem item;
    item.prompt = "A block of " + to_string(threads) +
                  " threads: how many lanes of its last warp hold no thread (idle lanes, which still take the warp's slot)?";
    setNumber(item, shape.idleLanesPerBlock(), 0, "lanes");
    item.explanation = to_string(shape.warpsPerBlock()) + " warps x 32 lanes = " + to_string(shape.warpsPerBlock() * 32) +
                       " lanes for " + to_string(threads) + " threads: " + to_string(shape.idleLanesPerBlock()) +
                       " idle. The warp still takes a whole warp slot on the SM, so occupancy counts it as full.";
    item.figureLink = "warpscope:hierarchy?grid=1&block=" + to_string(threads);
    item.source = "launch::LaunchShape::idleLanesPerBlock";
    return item;
}

QuizItem globalThreadId(QuizRng& rng)
{
    const int blockDim = 32 * rng.uniform(1, 16);
    const int blockIdx = rng.uniform(1, 40);
    const int threadIdx = rng.uniform(0, blockDim - 1);
    launch::LaunchShape shape{{blockIdx + 1, 1, 1}, {blockDim, 1, 1}};
    const launch::ThreadCoordinates c = launch::coordinatesOf(shape, blockIdx, threadIdx / 32, threadIdx % 32);
    QuizItem item;
    item.prompt = "In a 1-D launch with blockDim.x = " + to_string(blockDim) + ", what is the global index " +
                  "blockIdx.x * blockDim.x + threadIdx.x of thread " + to_string(threadIdx) + " in block " + to_string(blockIdx) + "?";
    setNumber(item, static_cast<double>(c.globalLinear), 0, "");
    item.explanation = to_string(blockIdx) + " x " + to_string(blockDim) + " + " + to_string(threadIdx) + " = " +
                       formatNumber(static_cast<double>(c.globalLinear)) + ".";
    item.figureLink = "warpscope:hierarchy?grid=" + to_string(blockIdx + 1) + "&block=" + to_string(blockDim);
    item.source = "launch::coordinatesOf";
    return item;
}

QuizItem warpOf2dThread(QuizRng& rng)
{
    const int bx = rng.pick(std::vector<int>{8, 16, 32, 64});
    const int by = 256 / bx;
    const int x = rng.uniform(0, bx - 1), y = rng.uniform(0, by - 1);
    const launch::Dim3 extent{bx, by, 1};
    const std::int64_t linear = launch::linearIndex({x, y, 0}, extent);
    QuizItem item;
    item.prompt = "A block of " + to_string(bx) + " x " + to_string(by) + " threads. Which warp of the block holds threadIdx (" +
                  to_string(x) + ", " + to_string(y) + ")?";
    setNumber(item, static_cast<double>(linear / 32), 0, "");
    item.explanation = "Threads are numbered x fastest: x + y * blockDim.x = " + to_string(x) + " + " + to_string(y) + " x " +
                       to_string(bx) + " = " + to_string(linear) + ", and warp = " + to_string(linear) + " / 32 = " +
                       to_string(linear / 32) + ".";
    item.figureLink = "warpscope:hierarchy?grid=1&block=" + to_string(bx) + "," + to_string(by);
    item.source = "launch::linearIndex (Programming Guide, Thread Hierarchy)";
    return item;
}

QuizItem totalThreads(QuizRng& rng)
{
    const int gx = rng.uniform(2, 64), gy = rng.uniform(1, 8);
    const int bx = rng.pick(std::vector<int>{32, 64, 128, 16}), by = rng.pick(std::vector<int>{1, 2, 4, 8});
    launch::LaunchShape shape{{gx, gy, 1}, {bx, by, 1}};
    QuizItem item;
    item.prompt = "A launch <<<dim3(" + to_string(gx) + ", " + to_string(gy) + "), dim3(" + to_string(bx) + ", " + to_string(by) +
                  ")>>>: how many threads run in all?";
    setNumber(item, static_cast<double>(shape.threadCount()), 0, "threads");
    item.explanation = "Blocks x threads per block = " + to_string(shape.blockCount()) + " x " + to_string(shape.threadsPerBlock()) +
                       " = " + formatNumber(static_cast<double>(shape.threadCount())) + ".";
    item.figureLink = "warpscope:hierarchy?grid=" + to_string(gx) + "," + to_string(gy) + "&block=" + to_string(bx) + "," + to_string(by);
    item.source = "launch::LaunchShape::threadCount";
    return item;
}

QuizItem sharedScope(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Which threads can read and write a block's __shared__ array?";
    setChoices(item, rng,
               "The threads of that block; on sm_90, also the other blocks of its thread-block cluster (distributed shared memory)",
               {"Every thread of the grid", "Only the threads of the same warp", "Only thread 0 of the block, which then broadcasts"});
    item.explanation = "Shared memory belongs to a block. Hopper's clusters let a block read, write and do atomics on the "
                       "shared memory of the other blocks in its cluster.";
    item.source = "CUDA C++ Programming Guide: Shared Memory; Distributed Shared Memory";
    return item;
}

QuizItem maxThreadsPerBlock(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    QuizItem item;
    item.prompt = "At most how many threads may one block have on " + presetLabel(preset) + "?";
    const int answer = preset.maxThreadsPerBlock;
    setChoices(item, rng, to_string(answer), {to_string(answer / 2), to_string(answer * 2), to_string(answer * 4)});
    item.explanation = "1024 threads per block on every architecture from sm_70 to sm_90 (x and y up to 1024, z up to 64).";
    item.figureLink = "warpscope:hierarchy?grid=1&block=1024";
    item.source = "gpu preset maxThreadsPerBlock (Programming Guide, Compute Capabilities)";
    return item;
}

QuizItem clusterWait(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Blocks usually cannot wait for each other. Which of these lets them?";
    setChoices(item, rng, "cluster.sync() among the blocks of a cluster, or grid.sync() in a cooperative launch",
               {"__syncthreads(), which waits for every block of the grid", "__syncwarp() with a full mask",
                "Nothing: blocks can never synchronise inside a kernel"});
    item.explanation = "__syncthreads() is a block barrier. A cluster's blocks run at the same time and can meet at "
                       "cluster.sync(); a cooperative launch guarantees co-residency so grid.sync() can work.";
    item.source = "CUDA C++ Programming Guide: Thread Block Clusters; Cooperative Groups, Grid Synchronization";
    return item;
}

// --- occupancy -------------------------------------------------------------------------------

struct RandomLaunch {
    gpu::GpuPreset preset;
    int block = 0, regs = 0;
    occupancy::OccupancyResult result;
};

RandomLaunch randomLaunch(QuizRng& rng)
{
    RandomLaunch launch;
    launch.preset = randomPreset(rng);
    launch.block = rng.pick(std::vector<int>{64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024});
    launch.regs = rng.pick(std::vector<int>{16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 168});
    if (launch.block * launch.regs > 65536)
        launch.regs = 64;
    occupancy::OccupancyInput input;
    input.threadsPerBlock = launch.block;
    input.registersPerThread = launch.regs;
    launch.result = occupancy::computeOccupancy(launch.preset, input);
    return launch;
}

QuizItem occupancyPercent(QuizRng& rng)
{
    const RandomLaunch l = randomLaunch(rng);
    QuizItem item;
    item.prompt = "On " + presetLabel(l.preset) + ", a kernel uses " + to_string(l.regs) + " registers per thread, no shared memory, and " +
                  to_string(l.block) + "-thread blocks. Predict its theoretical occupancy.";
    setNumber(item, l.result.occupancy * 100, 0.05, "%");
    item.explanation = l.result.explanation;
    item.figureLink = occupancyLink(l.preset, l.block, l.regs);
    item.source = "occupancy::computeOccupancy (cuda_occupancy.h)";
    return item;
}

QuizItem blocksPerSm(QuizRng& rng)
{
    const RandomLaunch l = randomLaunch(rng);
    QuizItem item;
    item.prompt = "On " + presetLabel(l.preset) + ", how many " + to_string(l.block) + "-thread blocks using " + to_string(l.regs) +
                  " registers per thread can be resident on one SM at once?";
    setNumber(item, l.result.activeBlocksPerSm, 0, "blocks");
    std::string reasons;
    for (const occupancy::LimiterDetail& limit : l.result.limits)
        if (limit.binding)
            reasons += limit.reasoning + " ";
    item.explanation = "The smallest of the limits: " + reasons;
    item.figureLink = occupancyLink(l.preset, l.block, l.regs);
    item.source = "occupancy::computeOccupancy (cuda_occupancy.h)";
    return item;
}

QuizItem bindingLimiter(QuizRng& rng)
{
    RandomLaunch l = randomLaunch(rng);
    for (int tries = 0; tries < 32 && l.result.binding.size() != 1; ++tries)
        l = randomLaunch(rng);
    QuizItem item;
    item.prompt = "On " + presetLabel(l.preset) + ", " + to_string(l.block) + "-thread blocks with " + to_string(l.regs) +
                  " registers per thread and no shared memory. What limits the blocks per SM" +
                  (l.result.binding.size() == 1 ? "" : " first (several tie; pick any one that binds)") + "?";
    const occupancy::Limiter binding = l.result.binding.front();
    std::vector<std::string> wrong;
    for (occupancy::Limiter limiter : {occupancy::Limiter::Warps, occupancy::Limiter::Registers, occupancy::Limiter::SharedMemory,
                                       occupancy::Limiter::Blocks})
        if (limiter != binding)
            wrong.emplace_back(occupancy::limiterTitle(limiter));
    setChoices(item, rng, std::string(occupancy::limiterTitle(binding)), wrong);
    if (l.result.binding.size() > 1) { // any binding limiter is right: keep one, drop the other binding ones
        std::vector<std::string> kept;
        for (const std::string& choice : item.choices) {
            bool otherBinding = false;
            for (occupancy::Limiter limiter : l.result.binding)
                if (limiter != binding && choice == occupancy::limiterTitle(limiter))
                    otherBinding = true;
            if (!otherBinding)
                kept.push_back(choice);
        }
        item.choices = kept;
        for (std::size_t i = 0; i < kept.size(); ++i)
            if (kept[i] == occupancy::limiterTitle(binding))
                item.correctChoice = static_cast<int>(i);
    }
    item.explanation = l.result.explanation;
    item.figureLink = occupancyLink(l.preset, l.block, l.regs);
    item.source = "occupancy::computeOccupancy: the binding limiters";
    return item;
}

QuizItem registersPerWarp(QuizRng& rng)
{
    const int regs = rng.uniform(17, 255);
    const gpu::GpuPreset preset = presetFor("sm_90");
    occupancy::OccupancyInput input;
    input.threadsPerBlock = 32;
    input.registersPerThread = regs;
    const occupancy::OccupancyResult result = occupancy::computeOccupancy(preset, input);
    QuizItem item;
    item.prompt = "A kernel uses " + to_string(regs) + " registers per thread (ptxas -v). How many registers does the SM allocate per warp on H100?";
    setNumber(item, result.registersPerWarp, 0, "registers");
    item.explanation = to_string(regs) + " x 32 = " + to_string(regs * 32) +
                       ", rounded up to the allocation unit of 256 registers: " + to_string(result.registersPerWarp) + ".";
    item.figureLink = occupancyLink(preset, 32, regs);
    item.source = "occupancy::computeOccupancy (cuda_occupancy.h register allocation granularity)";
    return item;
}

QuizItem maxRegistersForFullOccupancy(QuizRng& rng)
{
    const gpu::GpuPreset preset = presetFor(rng.pick(std::vector<std::string_view>{"sm_80", "sm_90", "sm_70"}));
    const int block = rng.pick(std::vector<int>{128, 256, 512});
    int best = 0;
    for (int regs = 1; regs <= 255; ++regs) {
        occupancy::OccupancyInput input;
        input.threadsPerBlock = block;
        input.registersPerThread = regs;
        const int blocks = occupancy::activeBlocksPerSm(preset, input);
        if (blocks * block / 32 == preset.maxWarpsPerSm())
            best = regs;
    }
    QuizItem item;
    item.prompt = "On " + presetLabel(preset) + " with " + to_string(block) +
                  "-thread blocks and no shared memory, what is the most registers per thread that still allows 100 % occupancy?";
    setNumber(item, best, 0, "registers");
    item.explanation = to_string(preset.registersPerSm) + " registers / " + to_string(preset.maxThreadsPerSm) + " threads = " +
                       to_string(preset.registersPerSm / preset.maxThreadsPerSm) + " per thread, checked against the allocation units: " +
                       to_string(best) + ".";
    item.figureLink = occupancyLink(preset, block, best);
    item.source = "occupancy::activeBlocksPerSm over 1..255 registers";
    return item;
}

QuizItem sharedMemoryBlocks(QuizRng& rng)
{
    const gpu::GpuPreset preset = presetFor(rng.pick(std::vector<std::string_view>{"sm_80", "sm_90", "sm_86"}));
    const std::vector<int> sizes{12, 20, 24, 33, 40, 48, 64, 80, 100};
    int kib = rng.pick(sizes);
    // A block cannot opt in to more than the preset allows (99 KB on sm_86): the largest size that fits.
    while (static_cast<std::size_t>(kib) * 1024 > preset.sharedPerBlockOptin)
        kib = *std::prev(std::lower_bound(sizes.begin(), sizes.end(), kib));
    occupancy::OccupancyInput input;
    input.threadsPerBlock = 128;
    input.registersPerThread = 32;
    input.dynamicSharedBytes = static_cast<std::size_t>(kib) * 1024;
    const occupancy::OccupancyResult result = occupancy::computeOccupancy(preset, input);
    QuizItem item;
    item.prompt = "On " + presetLabel(preset) + ", 128-thread blocks with 32 registers per thread each use " + to_string(kib) +
                  " KB of dynamic shared memory. How many blocks fit on one SM?";
    setNumber(item, result.activeBlocksPerSm, 0, "blocks");
    item.explanation = "Each block takes " + formatBytes(result.sharedPerBlock) + " (with the per-block reservation, rounded) of the SM's " +
                       formatBytes(result.sharedPerSm) + ". " + result.explanation;
    item.figureLink = occupancyLink(preset, 128, 32, input.dynamicSharedBytes);
    item.source = "occupancy::computeOccupancy (cuda_occupancy.h shared-memory limit)";
    return item;
}

QuizItem warpSlots(QuizRng& rng)
{
    const int threads = rng.pick(std::vector<int>{100, 40, 200, 330, 65, 500});
    const gpu::GpuPreset preset = presetFor("sm_90");
    occupancy::OccupancyInput input;
    input.threadsPerBlock = threads;
    input.registersPerThread = 32;
    const occupancy::OccupancyResult result = occupancy::computeOccupancy(preset, input);
    QuizItem item;
    item.prompt = "On H100, " + to_string(result.activeBlocksPerSm) + " blocks of " + to_string(threads) +
                  " threads are resident on an SM. How many of its 64 warp slots do they take?";
    setNumber(item, result.activeWarpsPerSm, 0, "warps");
    item.explanation = to_string(result.activeBlocksPerSm) + " x ceil(" + to_string(threads) + " / 32) = " +
                       to_string(result.activeWarpsPerSm) + ": the idle lanes of each block's last warp still take a slot, so " +
                       to_string(result.activeThreadsPerSm) + " slots' worth of threads hold only " +
                       to_string(result.activeBlocksPerSm * threads) + " threads.";
    item.figureLink = occupancyLink(preset, threads, 32);
    item.source = "occupancy::computeOccupancy";
    return item;
}

// --- waves ------------------------------------------------------------------------------------

struct RandomWaves {
    gpu::GpuPreset preset;
    int grid = 0, block = 0, blocksPerSm = 0;
    launch::WavePlan plan;
};

RandomWaves randomWaves(QuizRng& rng)
{
    RandomWaves w;
    w.preset = randomPreset(rng);
    w.block = rng.pick(std::vector<int>{128, 256, 512, 1024});
    occupancy::OccupancyInput input;
    input.threadsPerBlock = w.block;
    input.registersPerThread = 32;
    w.blocksPerSm = occupancy::activeBlocksPerSm(w.preset, input);
    const int slots = w.preset.smCount * w.blocksPerSm;
    w.grid = slots * rng.uniform(1, 4) + rng.uniform(1, slots - 1);
    w.plan = launch::planWaves(w.grid, w.preset.smCount, w.blocksPerSm);
    return w;
}

std::string placementLink(const RandomWaves& w)
{
    return "warpscope:placement?arch=" + std::string(w.preset.arch) + "&grid=" + to_string(w.grid) + "&block=" + to_string(w.block) +
           "&regs=32&static_smem=0&dynamic_smem=0";
}

QuizItem waveCount(QuizRng& rng)
{
    const RandomWaves w = randomWaves(rng);
    QuizItem item;
    item.prompt = "A grid of " + to_string(w.grid) + " blocks of " + to_string(w.block) + " threads (32 registers each) on " +
                  presetLabel(w.preset) + ". Predict the number of waves.";
    setNumber(item, static_cast<double>(w.plan.waves), 0, "waves");
    item.explanation = to_string(w.preset.smCount) + " SMs x " + to_string(w.blocksPerSm) + " blocks per SM = " +
                       formatNumber(static_cast<double>(w.plan.slotsPerWave)) + " blocks per wave; ceil(" + to_string(w.grid) + " / " +
                       formatNumber(static_cast<double>(w.plan.slotsPerWave)) + ") = " + formatNumber(static_cast<double>(w.plan.waves)) + ".";
    item.figureLink = placementLink(w);
    item.source = "launch::planWaves with occupancy::activeBlocksPerSm";
    return item;
}

QuizItem tailBlocks(QuizRng& rng)
{
    const RandomWaves w = randomWaves(rng);
    QuizItem item;
    item.prompt = "A grid of " + to_string(w.grid) + " blocks of " + to_string(w.block) + " threads (32 registers each) on " +
                  presetLabel(w.preset) + ": how many blocks run in the last (tail) wave?";
    setNumber(item, static_cast<double>(w.plan.tailBlocks), 0, "blocks");
    item.explanation = "A wave holds " + formatNumber(static_cast<double>(w.plan.slotsPerWave)) + " blocks; " + to_string(w.grid) + " - " +
                       formatNumber(static_cast<double>(w.plan.waves - 1)) + " x " + formatNumber(static_cast<double>(w.plan.slotsPerWave)) +
                       " = " + formatNumber(static_cast<double>(w.plan.tailBlocks)) + " are left for the tail, which fills " +
                       percent(w.plan.tailUtilization, 3) + " of the GPU.";
    item.figureLink = placementLink(w);
    item.source = "launch::planWaves";
    return item;
}

QuizItem waveUtilization(QuizRng& rng)
{
    const RandomWaves w = randomWaves(rng);
    QuizItem item;
    item.prompt = "A grid of " + to_string(w.grid) + " blocks of " + to_string(w.block) + " threads (32 registers each) on " +
                  presetLabel(w.preset) + ". If every block takes the same time, what share of the block slots is busy on average over the waves?";
    setNumber(item, w.plan.averageUtilization * 100, 0.05, "%");
    item.explanation = to_string(w.grid) + " blocks / (" + formatNumber(static_cast<double>(w.plan.waves)) + " waves x " +
                       formatNumber(static_cast<double>(w.plan.slotsPerWave)) + " slots) = " + percent(w.plan.averageUtilization) + ".";
    item.figureLink = placementLink(w);
    item.source = "launch::planWaves (a model: NVIDIA does not document the block scheduler's order)";
    return item;
}

// --- divergence -------------------------------------------------------------------------------

QuizItem activeMask(QuizRng& rng)
{
    const int form = rng.uniform(0, 2);
    const int k = rng.pick(std::vector<int>{2, 3, 4, 8});
    const int n = rng.uniform(1, 31);
    std::uint32_t mask = 0;
    std::string condition;
    for (int lane = 0; lane < 32; ++lane) {
        const bool taken = form == 0 ? lane % k == 0 : form == 1 ? lane < n : lane % k != 0;
        if (taken)
            mask |= 1u << lane;
    }
    condition = form == 0 ? "lane % " + to_string(k) + " == 0" : form == 1 ? "lane < " + to_string(n) : "lane % " + to_string(k) + " != 0";
    QuizItem item;
    item.prompt = "A full warp reaches `if (" + condition + ")`, with lane = threadIdx.x % 32. What is the active mask inside the if, as hex?";
    setNumber(item, mask, 0, "mask");
    item.explanation = "Bit i of the mask is lane i. The lanes where the condition holds give " + item.expectedText + ".";
    item.figureLink = "warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=20";
    item.source = "the SIMT active mask (PTX ISA, activemask)";
    return item;
}

QuizItem divergentIssues(QuizRng& rng)
{
    const int a = rng.uniform(3, 20), b = rng.uniform(3, 20);
    QuizItem item;
    item.prompt = "In a warp, some lanes take an if-branch of " + to_string(a) + " instructions and the rest the else-branch of " +
                  to_string(b) + ". How many instruction issues does the warp spend on the two branches?";
    setNumber(item, a + b, 0, "issues");
    item.explanation = "The warp runs one side with the other lanes masked off, then the other side: " + to_string(a) + " + " +
                       to_string(b) + " = " + to_string(a + b) + ". A warp whose lanes agree issues only one side.";
    item.figureLink = "warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=20";
    item.source = "the SIMT execution model (CUDA C++ Programming Guide, SIMT Architecture)";
    return item;
}

QuizItem preVolta(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Before Volta, how did a warp run an if/else on which its lanes disagreed?";
    setChoices(item, rng,
               "One program counter per warp: one side ran with the other lanes masked off, then the other side, and the lanes rejoined "
               "at the branch's reconvergence point, kept on a stack",
               {"Each lane had its own program counter and ran on its own", "The warp split permanently into two smaller warps",
                "Both sides ran at the same time on different halves of the SM"});
    item.explanation = "Pre-Volta SIMT kept one PC and an active mask per warp, with a reconvergence stack: divergent paths were "
                       "serialised and rejoined at the immediate post-dominator. The stepper draws that stack.";
    item.figureLink = "warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=20";
    item.source = "NVIDIA Tesla V100 GPU Architecture whitepaper, Independent Thread Scheduling";
    return item;
}

QuizItem independentThreadScheduling(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does Volta's independent thread scheduling change?";
    setChoices(item, rng,
               "Each thread has its own program counter and call stack, so diverged lanes may interleave (a spin lock between lanes no "
               "longer deadlocks); lanes on the same instruction still run together",
               {"Divergence became free", "Warps became 64 threads wide", "Threads of a warp no longer share an instruction issue at all"});
    item.explanation = "The scheduler may interleave the paths of a diverged warp and need not reconverge them on its own, which is "
                       "why warp-synchronous code must say where lanes meet.";
    item.source = "NVIDIA Tesla V100 GPU Architecture whitepaper, Independent Thread Scheduling";
    return item;
}

QuizItem syncwarp(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What is __syncwarp(mask) for?";
    setChoices(item, rng,
               "It makes the lanes in mask meet before any goes on, and orders their shared-memory accesses: needed since Volta, where "
               "diverged lanes are not guaranteed to reconverge by themselves",
               {"It synchronises every warp of the block", "It frees the warp's registers for another block",
                "It is only a hint and does nothing on current GPUs"});
    item.explanation = "Warp-synchronous code (a shared-memory tree across lanes, for example) must call __syncwarp between "
                       "steps; the *_sync shuffle and vote intrinsics take the same member mask.";
    item.source = "CUDA C++ Programming Guide: __syncwarp(); Warp Shuffle Functions";
    return item;
}

QuizItem simtEfficiency(QuizRng& rng)
{
    const int lanes = rng.uniform(1, 31);
    QuizItem item;
    item.prompt = "Inside a branch only " + to_string(lanes) + " of a warp's 32 lanes are active. What share of the warp's lanes do useful "
                  "work per instruction issued there?";
    setNumber(item, lanes / 32.0 * 100, 0.05, "%");
    item.explanation = to_string(lanes) + " / 32 = " + percent(lanes / 32.0) + ": the masked lanes still occupy the issue slot.";
    item.source = "the SIMT execution model";
    return item;
}

// --- latency ----------------------------------------------------------------------------------

QuizItem bytesInFlightQuestion(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const perf::BytesInFlight f = perf::bytesInFlight(preset);
    QuizItem item;
    item.prompt = "To sustain " + presetLabel(preset) + "'s DRAM bandwidth of " + formatNumber(preset.timing.dramBandwidthGBps) +
                  " GB/s with a DRAM latency of " + to_string(preset.timing.dramLatency) + " cycles at " +
                  formatNumber(preset.timing.coreClockMHz) + " MHz, how many bytes must be in flight across the GPU? (K = 1024 bytes)";
    setNumber(item, f.bytesInFlight, f.bytesInFlight * 0.03, "bytes");
    item.explanation = "Little's law: bandwidth x latency = " + formatNumber(preset.timing.dramBandwidthGBps) + "e9 B/s x " +
                       formatNumber(f.latencySeconds * 1e9, 4) + " ns = " + formatNumber(f.bytesInFlight / 1024, 4) + " KiB.";
    item.figureLink = "warpscope:memory?kernel=copy_coalesced&block=0&warp=0&at=12";
    item.source = "perf::bytesInFlight (DRAM latency: the timing model's published microbenchmark figure)";
    return item;
}

QuizItem loadsPerSm(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const perf::BytesInFlight f = perf::bytesInFlight(preset);
    QuizItem item;
    item.prompt = "On " + presetLabel(preset) + " (" + formatNumber(preset.timing.dramBandwidthGBps) + " GB/s, DRAM latency " +
                  to_string(preset.timing.dramLatency) + " cycles at " + formatNumber(preset.timing.coreClockMHz) + " MHz, " +
                  to_string(preset.smCount) + " SMs), how many 128-byte warp loads must each SM keep in flight to reach full bandwidth?";
    setNumber(item, f.warpLoadsInFlightPerSm, f.warpLoadsInFlightPerSm * 0.03, "loads");
    item.explanation = "Bytes in flight " + formatNumber(f.bytesInFlight, 4) + " / " + to_string(preset.smCount) + " SMs / 128 B = " +
                       formatNumber(f.warpLoadsInFlightPerSm, 4) + " loads per SM, about " + formatNumber(f.loadsPerWarp, 3) +
                       " per warp even at full occupancy (" + to_string(preset.maxWarpsPerSm()) + " warps).";
    item.figureLink = "warpscope:memory?kernel=copy_coalesced&block=0&warp=0&at=12";
    item.source = "perf::bytesInFlight";
    return item;
}

QuizItem littlesLaw(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Little's law, applied to a memory system, says that to sustain a bandwidth B with latency L you need...";
    setChoices(item, rng, "B x L bytes in flight at all times",
               {"B / L bytes in flight", "L / B warps per SM", "100 % occupancy, whatever B and L are"});
    item.explanation = "Concurrency = throughput x latency. Occupancy is one way to get bytes in flight; more independent loads "
                       "per thread (vector loads, unrolling) is another.";
    item.source = "Little 1961; Volkov, Understanding Latency Hiding on GPUs, 2016";
    return item;
}

// --- streams ----------------------------------------------------------------------------------

perf::StreamOverlapInput randomStreams(QuizRng& rng, int engines)
{
    perf::StreamOverlapInput input;
    input.hostToDeviceSeconds = rng.uniform(2, 20) * 1e-3;
    input.kernelSeconds = rng.uniform(2, 20) * 1e-3;
    input.deviceToHostSeconds = rng.uniform(2, 20) * 1e-3;
    input.chunks = rng.pick(std::vector<int>{2, 4, 8});
    input.copyEngines = engines;
    return input;
}

// The streams figure drawing the same plan.
std::string streamsLink(const perf::StreamOverlapInput& in)
{
    auto ms = [](double seconds) { return linkNumber(std::round(seconds * 1e9) / 1e6); }; // 0.004 s -> "4", not "4.000000000000001"
    return "warpscope:streams?h2d=" + ms(in.hostToDeviceSeconds) + "&kernel=" + ms(in.kernelSeconds) +
           "&d2h=" + ms(in.deviceToHostSeconds) + "&chunks=" + to_string(in.chunks) + "&engines=" + to_string(in.copyEngines);
}

std::string streamsPrompt(const perf::StreamOverlapInput& in)
{
    return "Copying the input takes " + formatNumber(in.hostToDeviceSeconds * 1e3) + " ms, the kernel " + formatNumber(in.kernelSeconds * 1e3) +
           " ms and copying the result back " + formatNumber(in.deviceToHostSeconds * 1e3) + " ms. Split into " + to_string(in.chunks) +
           " equal chunks, each in its own stream, on a GPU with " + (in.copyEngines == 2 ? "two copy engines" : "one copy engine");
}

QuizItem pipelinedTime(QuizRng& rng)
{
    const perf::StreamOverlapInput in = randomStreams(rng, 2);
    const perf::StreamTimeline timeline = perf::planStreams(in);
    QuizItem item;
    item.prompt = streamsPrompt(in) + ": predict the total time in ms.";
    setNumber(item, timeline.overlappedSeconds * 1e3, timeline.overlappedSeconds * 1e3 * 0.01, "ms");
    item.explanation = "The stages pipeline: (a + c + d) / n + (n - 1) x max(a, c, d) / n = " + formatNumber(timeline.overlappedSeconds * 1e3, 4) +
                       " ms, against " + formatNumber(timeline.serialSeconds * 1e3, 4) + " ms in one stream.";
    item.source = "perf::planStreams (a model; CUDA C++ Best Practices Guide, Overlapping Transfers and Device Computation)";
    item.figureLink = streamsLink(in);
    return item;
}

QuizItem oneCopyEngine(QuizRng& rng)
{
    const perf::StreamOverlapInput in = randomStreams(rng, 1);
    const perf::StreamTimeline timeline = perf::planStreams(in);
    QuizItem item;
    item.prompt = streamsPrompt(in) + ", issued breadth-first (every upload, then every kernel, then every download): predict the total time in ms.";
    setNumber(item, timeline.overlappedSeconds * 1e3, timeline.overlappedSeconds * 1e3 * 0.01, "ms");
    item.explanation = "Both directions queue on the one engine in issue order, so the downloads wait behind every upload: " +
                       formatNumber(timeline.overlappedSeconds * 1e3, 4) + " ms (serial: " + formatNumber(timeline.serialSeconds * 1e3, 4) + " ms).";
    item.source = "perf::planStreams (a model)";
    item.figureLink = streamsLink(in);
    return item;
}

QuizItem streamSpeedup(QuizRng& rng)
{
    const perf::StreamOverlapInput in = randomStreams(rng, 2);
    const perf::StreamTimeline timeline = perf::planStreams(in);
    QuizItem item;
    item.prompt = streamsPrompt(in) + ". How many times faster than one stream is it?";
    setNumber(item, timeline.speedup(), timeline.speedup() * 0.01, "x");
    item.explanation = formatNumber(timeline.serialSeconds * 1e3, 4) + " ms / " + formatNumber(timeline.overlappedSeconds * 1e3, 4) + " ms = " +
                       formatNumber(timeline.speedup(), 4) + ". The longest stage bounds it: more chunks approach serial / max(a, c, d).";
    item.source = "perf::planStreams (a model)";
    item.figureLink = streamsLink(in);
    return item;
}

QuizItem pinnedMemory(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "For cudaMemcpyAsync to overlap with a kernel, the host buffer must be...";
    setChoices(item, rng, "page-locked (pinned), for example from cudaMallocHost or cudaHostRegister",
               {"allocated with malloc and touched once", "smaller than the GPU's L2 cache", "in the default stream"});
    item.explanation = "The copy engines read host memory by DMA, which needs pages that cannot move; from pageable memory the "
                       "copy is staged and does not overlap.";
    item.source = "CUDA C++ Programming Guide: Page-Locked Host Memory; Asynchronous Concurrent Execution";
    return item;
}

QuizItem defaultStream(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does the legacy default stream (stream 0) do to other streams?";
    setChoices(item, rng, "Work in it waits for all earlier work in the device's blocking streams, and they wait for it",
               {"Nothing: it runs concurrently with every stream", "It runs only on the first SM", "It makes every copy synchronous with the host"});
    item.explanation = "This implicit synchronisation is why overlap needs non-default streams (or --default-stream per-thread).";
    item.source = "CUDA Runtime API: Stream synchronization behavior";
    return item;
}

QuizItem graphLaunch(QuizRng& rng)
{
    // The launch model with its measured defaults (2.7 us per launch call, 6.4 us per launched kernel
    // on the GPU, a graph 15 us once and 0.58 us per node); the chain and the mode drawn.
    perf::KernelChainInput input;
    input.kernels = rng.pick(std::vector<int>{10, 20, 50, 100});
    input.kernelSeconds = rng.pick(std::vector<int>{1, 2, 5, 10}) * 1e-6;
    const bool graph = rng.uniform(0, 1) == 1;
    const perf::KernelChainPlan plan = perf::planKernelChain(input);
    const double us = (graph ? plan.graphSeconds : plan.streamSeconds) * 1e6;
    QuizItem item;
    item.prompt = "A chain of " + std::to_string(input.kernels) + " dependent kernels of " + formatNumber(input.kernelSeconds * 1e6) +
                  " us each. " +
                  (graph ? "Captured into a CUDA graph, the first kernel starts 15 us after cudaGraphLaunch and each next one 0.58 us after the "
                           "one before ends. When does the last kernel end, in us?"
                         : "Launched one by one, each launch call takes the host 2.7 us, and the GPU starts a kernel 6.4 us after both its "
                           "launch and the kernel before are done. When does the last kernel end, in us?");
    setNumber(item, us, us * 0.01, "us");
    item.explanation = graph ? "15 + " + std::to_string(input.kernels) + " x " + formatNumber(input.kernelSeconds * 1e6) + " + " +
                                   std::to_string(input.kernels - 1) + " x 0.58 = " + formatNumber(us, 5) + " us."
                             : "The GPU is the slower side: 2.7 + " + std::to_string(input.kernels) + " x (6.4 + " +
                                   formatNumber(input.kernelSeconds * 1e6) + ") = " + formatNumber(us, 5) + " us.";
    item.source = "perf::planKernelChain (core/perf/kernel_chain.h); overheads measured in github.com/ahrefs/ocannl issue 488";
    item.figureLink = "warpscope:streams?h2d=4&kernel=6&d2h=4&chunks=4&engines=2";
    return item;
}

} // namespace

void addExecutionQuestions(std::vector<Question>& bank)
{
    using K = QuestionKind;
    const std::vector<Question> questions = {
        {"hierarchy.warps-per-block", "hierarchy", K::Predict, "Warps in a block", true, warpsPerBlock},
        {"hierarchy.idle-lanes", "hierarchy", K::Numeric, "Idle lanes of the last warp", true, idleLanes},
        {"hierarchy.global-id", "hierarchy", K::Numeric, "A thread's global index", true, globalThreadId},
        {"hierarchy.warp-of-2d-thread", "hierarchy", K::Numeric, "The warp of a thread in a 2-D block", true, warpOf2dThread},
        {"hierarchy.total-threads", "hierarchy", K::Numeric, "Threads in a launch", true, totalThreads},
        {"hierarchy.shared-scope", "hierarchy", K::Choice, "Who sees shared memory", false, sharedScope},
        {"hierarchy.max-threads", "hierarchy", K::Choice, "Threads per block", true, maxThreadsPerBlock},
        {"hierarchy.blocks-wait", "hierarchy", K::Choice, "How blocks can wait for each other", false, clusterWait},
        {"occupancy.percent", "occupancy", K::Predict, "Theoretical occupancy of a launch", true, occupancyPercent},
        {"occupancy.blocks-per-sm", "occupancy", K::Predict, "Resident blocks per SM", true, blocksPerSm},
        {"occupancy.limiter", "occupancy", K::Choice, "What limits occupancy", true, bindingLimiter},
        {"occupancy.registers-per-warp", "occupancy", K::Numeric, "Registers allocated per warp", true, registersPerWarp},
        {"occupancy.max-registers", "occupancy", K::Numeric, "Most registers for full occupancy", true, maxRegistersForFullOccupancy},
        {"occupancy.shared-memory", "occupancy", K::Numeric, "Blocks per SM under shared memory", true, sharedMemoryBlocks},
        {"occupancy.warp-slots", "occupancy", K::Numeric, "Warp slots of partial warps", true, warpSlots},
        {"waves.count", "waves", K::Predict, "Waves of a grid", true, waveCount},
        {"waves.tail", "waves", K::Numeric, "Blocks in the tail wave", true, tailBlocks},
        {"waves.utilization", "waves", K::Numeric, "Average slot utilisation over the waves", true, waveUtilization},
        {"divergence.mask", "divergence", K::Predict, "The active mask inside a branch", true, activeMask},
        {"divergence.issues", "divergence", K::Numeric, "Issues of a divergent if/else", true, divergentIssues},
        {"divergence.efficiency", "divergence", K::Numeric, "Useful lanes in a branch", true, simtEfficiency},
        {"divergence.pre-volta", "divergence", K::Choice, "Divergence before Volta", false, preVolta},
        {"divergence.its", "divergence", K::Choice, "Independent thread scheduling", false, independentThreadScheduling},
        {"divergence.syncwarp", "divergence", K::Choice, "What __syncwarp is for", false, syncwarp},
        {"latency.bytes-in-flight", "latency", K::Numeric, "Bytes in flight for full bandwidth", true, bytesInFlightQuestion},
        {"latency.loads-per-sm", "latency", K::Numeric, "Warp loads in flight per SM", true, loadsPerSm},
        {"latency.littles-law", "latency", K::Choice, "Little's law", false, littlesLaw},
        {"streams.pipelined", "streams", K::Predict, "Copy/compute overlap with two copy engines", true, pipelinedTime},
        {"streams.one-engine", "streams", K::Numeric, "Overlap with one copy engine", true, oneCopyEngine},
        {"streams.speedup", "streams", K::Numeric, "Speedup from streams", true, streamSpeedup},
        {"streams.pinned", "streams", K::Choice, "Pinned memory", false, pinnedMemory},
        {"streams.default-stream", "streams", K::Choice, "The legacy default stream", false, defaultStream},
        {"streams.graph-launch", "streams", K::Numeric, "A chain of kernels, one by one or as a graph", true, graphLaunch},
    };
    bank.insert(bank.end(), questions.begin(), questions.end());
}

} // namespace warpscope::study::bank
