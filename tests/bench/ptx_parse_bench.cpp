// PTX parser speed: parsing each demo topic's PTX module (what `warpscope sim` does before every run,
// and what the mutated-PTX robustness test does 3,000 times). Reported counter: bytes of PTX per
// second. Run: ./build/tests/bench/warpscope_ptx_parse_bench   (see BENCHMARKS.md)
#include "demo_kernels.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

using namespace warpscope;

namespace {

void parseTopic(benchmark::State& state, std::string_view ptx)
{
    for (auto _ : state) {
        ptx::Module module = ptx::parseModule(ptx);
        benchmark::DoNotOptimize(module);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(ptx.size()));
    state.counters["ptx_bytes"] = static_cast<double>(ptx.size());
}

// One benchmark per topic module (several demo kernels share a module).
const bool registered = [] {
    std::set<std::string> topics;
    for (const auto& kernel : kernels::demoKernels())
        if (topics.insert(kernel.topic).second)
            benchmark::RegisterBenchmark(("parse/" + kernel.topic).c_str(), parseTopic, kernel.ptx)
                ->Unit(benchmark::kMicrosecond);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
