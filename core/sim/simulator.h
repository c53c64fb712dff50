// The SIMT simulator's front door: run one kernel launch on the CPU and get back its final memory,
// statistics for the whole grid, hazards, and (for chosen blocks) a trace.
//
// Execution model (documented for learners in the app):
// - Blocks run one after another (or on several host threads; blocks only meet through global
//   memory and atomics). Within a block, warps take turns; a warp runs until it reaches a barrier,
//   finishes, or has issued a fixed quantum of instructions. A cooperative launch keeps every block
//   resident, taking turns on one host thread, so grid.sync() can wait for all of them
//   (sim/grid_barrier.h).
// - Each warp executes one instruction for all its active lanes at a time, with a reconvergence
//   stack: at a divergent branch the warp runs one side, then the other, and the two halves rejoin
//   at the branch's immediate post-dominator (the classic pre-Volta SIMT model). Volta and later
//   GPUs schedule threads independently and may interleave the sides differently; results of
//   race-free code are the same. WarpModel::IndependentThreads models that (its_scheduler.h): a
//   warp's lanes form groups with their own program counters, and a group that spins waiting for
//   another is set aside so that the other runs.
// - Memory operations are applied lane by lane in lane order; atomics are exact.
// - With several host threads, SMs (and so blocks) run at once. Race-free kernels give the same
//   results and statistics as with one thread. A kernel whose blocks write the same global bytes
//   without atomics, or mix plain and atomic accesses to them, races on a GPU too; here its result
//   is unspecified in the same way. Floating-point atomics may add in a different order per run.
#pragma once

#include "gpu/gpu_preset.h"
#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "sim/global_memory.h"
#include "sim/block_recording.h"
#include "sim/device_printf.h"
#include "sim/hazards.h"
#include "sim/kernel_args.h"
#include "sim/sim_stats.h"
#include "sim/timing_model.h"
#include "sim/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::sim {

// ReconvergenceStack: one path of a warp at a time, rejoined at post-dominators (pre-Volta SIMT).
// IndependentThreads: Volta's independent thread scheduling, as its_scheduler.h models it.
enum class WarpModel : std::uint8_t { ReconvergenceStack, IndependentThreads };

struct SimOptions {
    std::uint64_t stepBudget = 4'000'000'000ull; // warp-instructions for the whole launch
    // Warp-instructions one block may issue. A block that never ends (a loop whose condition never
    // changes) is stopped here: 2^24 take about 1.5 s on one core, while the demo kernels' blocks
    // issue a few thousand at their default launches (BENCHMARKS.md, "The stepper").
    std::uint64_t blockStepBudget = 1ull << 24;
    int hostThreads = 1;                         // 0 = one per hardware thread
    WarpModel warpModel = WarpModel::ReconvergenceStack;
    TraceRequest trace;                          // which blocks to trace; none by default
    std::uint64_t maxBufferBytes = 1ull << 30;   // per argument buffer
    bool timing = true;                          // run the timing model (cycles, stalls, cache hits)
    int registersPerThread = 32;                 // for resident blocks per SM (ptxas decides the real count)
    std::uint64_t maxTimingBytesPerSm = 64ull << 20; // issue records + sectors kept per SM; past it, no timing
    std::int64_t recordBlock = -1;               // linear block to record for stepping (block_recording.h), -1 for none
    BlockRecordingLimits recordLimits;
    // 0: every block. N >= 2 fewer than the grid's blocks: only sampleBlockIndices(blocks, N) run,
    // and every count in KernelStats is the sample's scaled by blocks / N (rounded to the nearest
    // integer). That is exact for kernels whose blocks all do the same work, and an estimate
    // otherwise (a partial last block, data-dependent loops). The timing model then replays one SM:
    // the busiest SM's ceil(blocks / SMs) blocks when the sample has that many, else up to 4 whole
    // waves of resident blocks (occupancy) drawn evenly from the sample, its cycles scaled by the
    // waves the busiest SM needs (a partial tail wave counts as a whole one); with at most one block
    // per SM, the slowest sampled block alone. No recording and no trace with a sample: they need
    // every block of an SM. The outputs hold only the sample's writes.
    std::uint64_t sampleBlocks = 0;
    // printf output kept, in bytes: the device's printf buffer (cudaLimitPrintfFifoSize, 1 MB by
    // default, CUDA Runtime API); what does not fit is dropped and counted, as on the GPU.
    std::uint64_t printfBytes = 1 << 20;
    // A cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, a grid
    // workspace for grid.sync(), blocks taking turns on one host thread (sim/grid_barrier.h). The grid
    // must fit the preset's SMs at the occupancy registersPerThread gives; no block sample.
    bool cooperative = false;
};

// The blocks a sample of `count` out of `blocks` runs: the first, the last, and the others evenly
// spread between them (round(i x (blocks - 1) / (count - 1))), ascending and distinct. All of them
// when count >= blocks. Throws InputError for count < 2.
std::vector<std::uint64_t> sampleBlockIndices(std::uint64_t blocks, std::uint64_t count);

struct LaunchRequest {
    const ptx::Module* module = nullptr;
    const ptx::Function* function = nullptr;
    launch::Dim3 grid;
    launch::Dim3 block;
    std::uint64_t dynamicSharedBytes = 0;
    std::vector<ResolvedArg> args;
    gpu::GpuPreset preset;
    SimOptions options;
};

// GridBarrierDeadlock: in a cooperative launch, blocks wait at a grid barrier others never reach.
enum class SimStatus : std::uint8_t { Completed, StepBudgetExceeded, BlockBudgetExceeded, Cancelled, GridBarrierDeadlock };

struct SimResult {
    SimStatus status = SimStatus::Completed;
    std::string statusMessage;            // for anything but Completed: one sentence
    KernelStats stats;
    std::vector<Hazard> hazards;
    std::vector<ResolvedArg> args;        // the arguments, buffers holding their final contents
    std::vector<std::uint64_t> bufferAddresses; // device address of each buffer argument (0 for scalars)
    Trace trace;
    std::shared_ptr<BlockRecording> recording; // SimOptions::recordBlock's steps, when asked for
    std::vector<PrintfLine> printfLines;  // what the kernel's threads printed, by block, then in issue order
    std::uint64_t printfDropped = 0;      // lines past SimOptions::printfBytes
    std::uint64_t assertFailures = 0;     // threads whose assert() failed (they stopped there)
    std::uint64_t trapThreads = 0;        // threads that executed trap (__trap()); they stopped there
    std::string firstTrap;                // where: the lowest block's first trapping thread, with its PTX line
    double simSeconds = 0;
};

struct SimProgress {
    std::uint64_t blocksDone = 0;
    std::uint64_t blocksTotal = 0;
};

// Checks the launch against the function and the preset (argument count and sizes, block and grid
// limits, shared memory; a kernel that reads the grid workspace needs options.cooperative, and a
// cooperative grid must fit the GPU at once); throws InputError with one clear sentence, and
// ptx::UnsupportedPtx when the kernel (or a function it calls) uses PTX the simulator does not
// support yet.
void validateLaunchRequest(const LaunchRequest& request);

// Runs the launch. The request is taken by value: its buffers become the simulated memory (move a
// request in to avoid copying them). `cancel` (optional) stops it, within a few thousand
// warp-instructions; `progress` is
// called from the simulating thread now and then.
SimResult simulate(LaunchRequest request, const std::atomic<bool>* cancel = nullptr,
                   const std::function<void(const SimProgress&)>& progress = {});

} // namespace warpscope::sim
