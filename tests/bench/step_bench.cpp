// The stepper: recording one block of every demo kernel (the whole manifest launch simulated, as the
// Execution view does, with block 0 recorded and the memory view's timeline blocks traced), and one step forwards or backwards in a 1024-thread
// block with the state every panel reads (each warp's lanes and stack, the selected warp's registers
// formatted for the table). Drawing is measured by the canvas benchmarks, not here.
// Run: ./build/tests/bench/warpscope_step_bench   (see BENCHMARKS.md)
#include "demo_kernels.h"
#include "execution/stepper.h"
#include "memory/memory_model.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

using namespace warpscope;

namespace {

sim::SimResult recordDemo(const kernels::DemoKernel& demo, const kernels::LaunchOverrides& overrides)
{
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, overrides, 1ull << 30);
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, preset);
    request.options.recordBlock = 0;
    viz::requestTimelineTrace(request); // as the panel does, for the memory view's timeline
    return sim::simulate(std::move(request));
}

void recordOneBlock(benchmark::State& state, const kernels::DemoKernel* demo)
{
    std::uint64_t bytes = 0, steps = 0;
    for (auto _ : state) {
        const sim::SimResult result = recordDemo(*demo, {});
        bytes = result.recording ? result.recording->bytes : 0;
        steps = result.recording ? result.recording->steps.size() : 0;
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["recorded_steps"] = static_cast<double>(steps);
    state.counters["recording_MB"] = static_cast<double>(bytes) / 1e6;
}

// reduce_interleaved_bank_conflicts with 1024-thread blocks: 32 warps, a barrier per iteration.
struct BigBlock {
    BigBlock()
    {
        const kernels::DemoKernel* demo = kernels::findDemoKernel("reduce_interleaved_bank_conflicts");
        const sim::SimResult result =
            recordDemo(*demo, {{sim::parseArgSpec("n=i32:1024"), sim::parseArgSpec("out=f32[1]")}, std::string("1"),
                               std::string("1024"), {}});
        viz::StepperRun run;
        run.module = std::shared_ptr<const ptx::Module>(&kernels::demoModule(*demo), [](const ptx::Module*) {});
        run.function = run.module->findFunction(demo->entry);
        run.recording = result.recording;
        stepper = std::make_unique<viz::Stepper>(std::move(run));
    }
    std::unique_ptr<viz::Stepper> stepper;
};

// What the panels read after a move.
std::size_t readPanels(const viz::Stepper& stepper)
{
    std::size_t work = 0;
    for (std::int32_t w = 0; w < stepper.warpCount(); ++w)
        work += stepper.replay().warp(w).stack.size();
    const ptx::Function& function = *stepper.run().function;
    const std::int32_t warp = stepper.selectedWarp();
    for (std::size_t r = 0; r < function.registers.size(); ++r) {
        const std::uint64_t* lanes = stepper.replay().registers(warp, static_cast<std::int32_t>(r));
        for (int lane = 0; lane < 32; ++lane)
            work += viz::formatRegisterValue(lanes[lane], function.registers[r].type, viz::RegisterFormat::Typed).size();
    }
    return work + stepper.lastWrittenRegisters().size() + static_cast<std::size_t>(stepper.currentLine());
}

void stepBigBlock(benchmark::State& state)
{
    static BigBlock block;
    viz::Stepper& stepper = *block.stepper;
    stepper.follow(-1);
    stepper.seek(stepper.size() / 2);
    bool forward = true;
    for (auto _ : state) {
        if (!stepper.step(sim::StepUnit::Instruction, forward))
            forward = !forward;
        forward = !forward; // back and forth around the middle
        benchmark::DoNotOptimize(readPanels(stepper));
    }
    state.counters["block_steps"] = static_cast<double>(stepper.size());
    state.counters["recording_MB"] = static_cast<double>(stepper.recording().bytes) / 1e6;
}

// Scrubbing: a jump across the whole recording and back (the slider dragged end to end).
void scrubBigBlock(benchmark::State& state)
{
    static BigBlock block;
    viz::Stepper& stepper = *block.stepper;
    bool toEnd = true;
    for (auto _ : state) {
        stepper.seek(toEnd ? stepper.size() : 0);
        toEnd = !toEnd;
        benchmark::DoNotOptimize(readPanels(stepper));
    }
}

const int registered = [] {
    for (const kernels::DemoKernel& demo : kernels::demoKernels())
        benchmark::RegisterBenchmark(("record_block0/" + demo.id).c_str(), recordOneBlock, &demo)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(3);
    benchmark::RegisterBenchmark("step_1024_thread_block", stepBigBlock)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("scrub_1024_thread_block_end_to_end", scrubBigBlock)->Unit(benchmark::kMillisecond);
    return 0;
}();

} // namespace

BENCHMARK_MAIN();
