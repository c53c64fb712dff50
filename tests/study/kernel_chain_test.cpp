// The launch-overhead model (core/perf/kernel_chain.h) against hand-worked timelines and the
// measurement its defaults come from.
#include "perf/kernel_chain.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <utility>

using namespace warpscope;

TEST(KernelChain, TwentyShortKernelsOneByOneAndAsAGraph)
{
    // Defaults: 20 kernels of 2 us; launch 2.7 us, 6.4 us per launched kernel, graph 15 us + 0.58 us per node.
    const perf::KernelChainPlan plan = perf::planKernelChain({});
    ASSERT_EQ(plan.streamKernels.size(), 20u);
    // One by one: kernel 0 starts at 2.7 + 6.4 = 9.1 us; each next one 6.4 + 2 = 8.4 us later:
    // 9.1 + 19 x 8.4 + 2 = 170.7 us. The host is done at 20 x 2.7 = 54 us.
    EXPECT_NEAR(plan.streamKernels.front().start, 9.1e-6, 1e-12);
    EXPECT_NEAR(plan.streamSeconds, 170.7e-6, 1e-12);
    EXPECT_NEAR(plan.hostLaunches.back().end, 54e-6, 1e-12);
    // Graph: 15 + 20 x 2 + 19 x 0.58 = 66.02 us.
    EXPECT_NEAR(plan.graphSeconds, 66.02e-6, 1e-12);
    EXPECT_NEAR(plan.workSeconds, 40e-6, 1e-12);
    EXPECT_NEAR(plan.speedup(), 170.7 / 66.02, 1e-9);
}

TEST(KernelChain, DefaultsReproduceTheEmptyKernelMeasurement)
{
    // github.com/ahrefs/ocannl issue 488: chains of N empty kernels took 51.9 us (N = 8) and 735.4 us
    // (N = 117) launched one by one, 19.4 and 82.9 us as a graph. The model, with 0-us kernels, within 5 %.
    perf::KernelChainInput input;
    input.kernelSeconds = 0;
    const std::pair<int, std::pair<double, double>> measured[] = {{8, {51.9e-6, 19.4e-6}}, {117, {735.4e-6, 82.9e-6}}};
    for (const auto& [kernels, times] : measured) {
        input.kernels = kernels;
        const perf::KernelChainPlan plan = perf::planKernelChain(input);
        EXPECT_NEAR(plan.streamSeconds, times.first, times.first * 0.05) << kernels;
        EXPECT_NEAR(plan.graphSeconds, times.second, times.second * 0.05) << kernels;
    }
}

TEST(KernelChain, LongKernelsHideTheLaunchesAndAHostThatFallsBehindSetsThePace)
{
    perf::KernelChainInput input;
    input.kernelSeconds = 1e-3; // 1 ms kernels: launch costs are a rounding error
    perf::KernelChainPlan plan = perf::planKernelChain(input);
    EXPECT_LT(plan.speedup(), 1.01);
    // A host slower than the GPU: 10 us per launch, 1 us kernels. One by one the chain ends 6.4 + 1 us
    // after the last launch call, at 20 x 10 + 7.4 = 207.4 us.
    input.kernelSeconds = 1e-6;
    input.launchSeconds = 10e-6;
    plan = perf::planKernelChain(input);
    EXPECT_NEAR(plan.streamSeconds, 207.4e-6, 1e-12);
    input.kernels = 0;
    EXPECT_THROW(perf::planKernelChain(input), InputError);
    input.kernels = 5;
    input.graphNodeSeconds = -1;
    EXPECT_THROW(perf::planKernelChain(input), InputError);
}
