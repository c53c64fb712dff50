// Mixed-precision trainer speed: the target is the four standard AMP runs (FP32, FP16,
// FP16 with dynamic scaling, BF16; 1000 steps each, default config, one thread) together within
// 2 seconds. Also each mode alone, FP16 without the FP32 shadow backward that measures underflow,
// and the fast FP16 rounding against number_format's reference roundTo, per value.
// Run: ./build/tests/bench/warpscope_numerics_bench --benchmark_filter=Amp   (see BENCHMARKS.md)
#include "numerics/amp_trainer.h"
#include "numerics/half_rounding.h"
#include "numerics/number_format.h"

#include <benchmark/benchmark.h>

#include <vector>

using namespace warpscope::numerics;

namespace {

void AmpFourStandardRuns(benchmark::State& state)
{
    for (auto _ : state) {
        for (AmpMode mode : standardAmpModes()) {
            AmpConfig config;
            config.mode = mode;
            const AmpResult result = runAmpTraining(config);
            benchmark::DoNotOptimize(result.train.meanLoss);
        }
    }
    state.counters["steps/s"] = benchmark::Counter(4000.0 * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(AmpFourStandardRuns)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void AmpOneMode(benchmark::State& state)
{
    AmpConfig config;
    config.mode = static_cast<AmpMode>(state.range(0));
    config.measureUnderflow = state.range(1) != 0;
    state.SetLabel(std::string(ampModeInfo(config.mode).key) + (config.measureUnderflow ? "" : ", no underflow measurement"));
    for (auto _ : state) {
        const AmpResult result = runAmpTraining(config);
        benchmark::DoNotOptimize(result.train.meanLoss);
    }
    state.counters["steps/s"] = benchmark::Counter(1000.0 * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(AmpOneMode)
    ->Args({static_cast<int>(AmpMode::FP32), 1})
    ->Args({static_cast<int>(AmpMode::FP16), 1})
    ->Args({static_cast<int>(AmpMode::FP16), 0})
    ->Args({static_cast<int>(AmpMode::FP16Dynamic), 1})
    ->Args({static_cast<int>(AmpMode::BF16), 1})
    ->Unit(benchmark::kMillisecond);

std::vector<float> roundingInputs()
{
    std::vector<float> values(1 << 16);
    TrainingRandom random(1);
    for (float& v : values)
        v = (random.uniformFloat() - 0.5f) * 0x1p-10f; // gradients' scale: spans FP16 subnormals and normals
    return values;
}

void AmpRoundFp16Fast(benchmark::State& state)
{
    const std::vector<float> in = roundingInputs();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        for (std::size_t k = 0; k < in.size(); ++k)
            out[k] = roundToFp16Fast(in[k]);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(AmpRoundFp16Fast);

void AmpRoundFp16Reference(benchmark::State& state)
{
    const std::vector<float> in = roundingInputs();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        for (std::size_t k = 0; k < in.size(); ++k)
            out[k] = roundTo(Format::FP16, in[k]);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(AmpRoundFp16Reference);

} // namespace
