// Simulator speed: the vector add of 16,777,216 elements (the benchmark), without a trace,
// on one and on two host threads, with and without the timing model, and a native C++ loop doing the same additions measured in
// the same run. Reported counters: thread-instructions per second (simulated lanes whose guard was
// true, as ncu's thread_inst_executed_pred_on) and the slowdown against the native loop.
// Run: ./build/tests/bench/warpscope_sim_bench   (see BENCHMARKS.md)
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

using namespace warpscope;

namespace {

constexpr std::int64_t kElements = 16'777'216;

struct VectorAdd {
    const kernels::DemoKernel* demo = kernels::findDemoKernel("vector_add");
    kernels::DemoLaunch launch = kernels::resolveDemoLaunch(
        *demo, {{sim::parseArgSpec("n=i32:" + std::to_string(kElements))}, {}, {}, {}}, 1ull << 30);
};

const VectorAdd& vectorAdd()
{
    static const VectorAdd instance;
    return instance;
}

double nativeSeconds()
{
    static const double seconds = [] {
        const VectorAdd& setup = vectorAdd();
        std::vector<float> a(kElements), b(kElements), c(kElements);
        std::memcpy(a.data(), setup.launch.args[0].bytes.data(), a.size() * 4);
        std::memcpy(b.data(), setup.launch.args[1].bytes.data(), b.size() * 4);
        double best = 1e9;
        for (int repeat = 0; repeat < 5; ++repeat) {
            const auto start = std::chrono::steady_clock::now();
            for (std::int64_t i = 0; i < kElements; ++i)
                c[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i)] + b[static_cast<std::size_t>(i)];
            benchmark::DoNotOptimize(c.data());
            benchmark::ClobberMemory();
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return best;
    }();
    return seconds;
}

void simulateVectorAdd(benchmark::State& state)
{
    const VectorAdd& setup = vectorAdd();
    const double native = nativeSeconds();
    sim::LaunchRequest request = kernels::demoLaunchRequest(*setup.demo, setup.launch, *gpu::findPreset("sm_90"));
    request.options.hostThreads = static_cast<int>(state.range(0));
    request.options.timing = state.range(1) != 0;
    std::uint64_t threadInstructions = 0;
    double simulated = 0;
    for (auto _ : state) {
        sim::LaunchRequest copy = request; // the copy of the inputs is not part of the simulation
        const sim::SimResult result = sim::simulate(std::move(copy));
        threadInstructions = result.stats.threadInstructions;
        simulated = result.simSeconds;
        benchmark::DoNotOptimize(result.args.data());
    }
    state.counters["thread_inst_per_s"] = benchmark::Counter(static_cast<double>(threadInstructions) / simulated);
    state.counters["thread_inst"] = static_cast<double>(threadInstructions);
    state.counters["native_ms"] = native * 1e3;
    state.counters["slowdown_vs_native"] = simulated / native;
    state.counters["host_threads"] = static_cast<double>(state.range(0));
    state.counters["timing_model"] = static_cast<double>(state.range(1));
}

} // namespace

// {host threads, timing model on}
BENCHMARK(simulateVectorAdd)
    ->Args({1, 0})->Args({2, 0})->Args({1, 1})->Args({2, 1})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

BENCHMARK_MAIN();
