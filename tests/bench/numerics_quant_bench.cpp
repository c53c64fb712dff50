// The quantization lab's speed (issue 5, section 8): quantizing 10^6 values with the entropy
// calibrator must take under 0.5 s on the two-core build machine. Each run is a whole quantize():
// calibration, rounding, dequantization and the error statistics, single-threaded.
#include "numerics/calibration.h"
#include "numerics/distributions.h"
#include "numerics/quant_lab.h"

#include <benchmark/benchmark.h>

using namespace warpscope::numerics;

namespace {

constexpr std::size_t kValues = 1000000;

const std::vector<float>& gaussian()
{
    static const std::vector<float> values = generateValues(Distribution::Gaussian, kValues, 42);
    return values;
}

void quantizeMillion(benchmark::State& state, const char* format, const char* granularity, const char* calibrator)
{
    const std::vector<float>& values = gaussian();
    const QuantConfig config = parseQuantConfig(format, "symmetric", granularity, calibrator);
    const QuantShape shape = {1000, 1000}; // channels: 1000 rows of 1000
    for (auto _ : state) {
        QuantResult result = quantize(values, config, shape);
        benchmark::DoNotOptimize(result.stats.sqnrDb);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kValues));
}

void entropyInt8(benchmark::State& state) { quantizeMillion(state, "int8", "tensor", "entropy"); }
void maxInt8(benchmark::State& state) { quantizeMillion(state, "int8", "tensor", "max"); }
void percentileInt8(benchmark::State& state) { quantizeMillion(state, "int8", "tensor", "percentile:99.99"); }
void mseInt8(benchmark::State& state) { quantizeMillion(state, "int8", "tensor", "mse"); }
void entropyInt4(benchmark::State& state) { quantizeMillion(state, "int4", "tensor", "entropy"); }
void mseFp8E4M3(benchmark::State& state) { quantizeMillion(state, "fp8e4m3", "tensor", "mse"); }
void entropyInt8PerChannel(benchmark::State& state) { quantizeMillion(state, "int8", "channel", "entropy"); }
void entropyInt4Group128(benchmark::State& state) { quantizeMillion(state, "int4", "group:128", "entropy"); }
void mseInt4Group128(benchmark::State& state) { quantizeMillion(state, "int4", "group:128", "mse"); }

// The KL search alone on a 2048-bin histogram of 10^6 values (1921 candidates x 128 levels).
void entropySearchOnly(benchmark::State& state)
{
    const std::vector<float>& values = gaussian();
    const double top = absMax(values);
    std::vector<std::uint64_t> histogram(kEntropyBins, 0);
    for (const float v : values)
        ++histogram[std::min<std::size_t>(kEntropyBins - 1, static_cast<std::size_t>(std::abs(v) / top * kEntropyBins))];
    for (auto _ : state) {
        EntropyCalibration e = entropyFromHistogram(histogram, top / kEntropyBins, 128);
        benchmark::DoNotOptimize(e.threshold);
    }
}

void generateGaussian(benchmark::State& state)
{
    for (auto _ : state) {
        std::vector<float> values = generateValues(Distribution::Gaussian, kValues, 7);
        benchmark::DoNotOptimize(values.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kValues));
}

// The lab's full table on 10^6 values: 4 formats x 4 calibrators.
void sqnrTableMillion(benchmark::State& state)
{
    const std::vector<float>& values = gaussian();
    for (auto _ : state) {
        std::vector<SqnrTableCell> table = sqnrTable(values, QuantConfig{});
        benchmark::DoNotOptimize(table.data());
    }
}

} // namespace

BENCHMARK(entropyInt8)->Name("quantize_1M/int8_tensor_entropy")->Unit(benchmark::kMillisecond);
BENCHMARK(maxInt8)->Name("quantize_1M/int8_tensor_max")->Unit(benchmark::kMillisecond);
BENCHMARK(percentileInt8)->Name("quantize_1M/int8_tensor_percentile")->Unit(benchmark::kMillisecond);
BENCHMARK(mseInt8)->Name("quantize_1M/int8_tensor_mse")->Unit(benchmark::kMillisecond);
BENCHMARK(entropyInt4)->Name("quantize_1M/int4_tensor_entropy")->Unit(benchmark::kMillisecond);
BENCHMARK(mseFp8E4M3)->Name("quantize_1M/fp8e4m3_tensor_mse")->Unit(benchmark::kMillisecond);
BENCHMARK(entropyInt8PerChannel)->Name("quantize_1M/int8_channel_entropy")->Unit(benchmark::kMillisecond);
BENCHMARK(entropyInt4Group128)->Name("quantize_1M/int4_group128_entropy")->Unit(benchmark::kMillisecond);
BENCHMARK(mseInt4Group128)->Name("quantize_1M/int4_group128_mse")->Unit(benchmark::kMillisecond);
BENCHMARK(entropySearchOnly)->Name("entropy_search/2048_bins_128_levels")->Unit(benchmark::kMicrosecond);
BENCHMARK(generateGaussian)->Name("generate_1M/gaussian")->Unit(benchmark::kMillisecond);
BENCHMARK(sqnrTableMillion)->Name("sqnr_table_1M/4_formats_x_4_calibrators")->Unit(benchmark::kMillisecond);
