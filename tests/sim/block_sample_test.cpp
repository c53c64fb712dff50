// A sample of blocks (SimOptions::sampleBlocks): which blocks it runs, and that its scaled counts
// equal a full simulation's on every demo kernel whose blocks all do the same work.
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace warpscope;

TEST(BlockSample, TakesTheFirstTheLastAndEvenlySpreadBlocks)
{
    // round(i x 9 / 3) for i = 0..3
    EXPECT_EQ(sim::sampleBlockIndices(10, 4), (std::vector<std::uint64_t>{0, 3, 6, 9}));
    // round(i x 99 / 2): 0, 49.5 -> 50, 99
    EXPECT_EQ(sim::sampleBlockIndices(100, 3), (std::vector<std::uint64_t>{0, 50, 99}));
    // round(i x 6 / 4): 0, 1.5 -> 2, 3, 4.5 -> 5, 6
    EXPECT_EQ(sim::sampleBlockIndices(7, 5), (std::vector<std::uint64_t>{0, 2, 3, 5, 6}));
    EXPECT_EQ(sim::sampleBlockIndices(3, 8), (std::vector<std::uint64_t>{0, 1, 2}));
    EXPECT_EQ(sim::sampleBlockIndices(2, 2), (std::vector<std::uint64_t>{0, 1}));
    // A grid too large for 64-bit products i x (blocks - 1): 2^31 - 1 blocks x 65,535 x 65,535.
    const std::uint64_t huge = (std::uint64_t{1} << 31) - 1;
    const std::vector<std::uint64_t> wide = sim::sampleBlockIndices(huge * 65535 * 65535, 3);
    EXPECT_EQ(wide.front(), 0u);
    EXPECT_EQ(wide.back(), huge * 65535 * 65535 - 1);
    EXPECT_THROW(sim::sampleBlockIndices(10, 1), InputError);
    EXPECT_THROW(sim::sampleBlockIndices(10, 0), InputError);
}

namespace {

sim::KernelStats simulateDemo(const kernels::DemoKernel& demo, std::uint64_t sampleBlocks)
{
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, *gpu::findPreset("sm_90"));
    request.options.timing = false;
    request.options.hostThreads = 0;
    request.options.sampleBlocks = sampleBlocks;
    const sim::SimResult result = sim::simulate(std::move(request));
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << demo.id << ": " << result.statusMessage;
    return result.stats;
}

std::map<std::string, std::uint64_t> counts(const sim::KernelStats& s)
{
    return {{"warp instructions", s.warpInstructions},
            {"thread instructions", s.threadInstructions},
            {"global load requests", s.global.loadRequests},
            {"global load sectors", s.global.loadSectors},
            {"global store requests", s.global.storeRequests},
            {"global store sectors", s.global.storeSectors},
            {"global atomic requests", s.global.atomicRequests},
            {"bytes requested", s.global.bytesRequested},
            {"shared load wavefronts", s.shared.loadWavefronts},
            {"shared store wavefronts", s.shared.storeWavefronts},
            {"shared bank conflicts", s.shared.bankConflicts},
            {"branches uniform", s.branchesUniform},
            {"branches divergent", s.branchesDivergent},
            {"barriers", s.barriers}};
}

// Demo kernels whose blocks do different work at their default launch, and why. Every other demo
// kernel's blocks are alike, so a sample scaled to the grid must equal the full simulation.
const std::map<std::string, std::string>& unevenKernels()
{
    static const std::map<std::string, std::string> uneven = {
        {"divergence_data_loop", "each thread loops as often as its random input says"},
        {"hazard_barrier_divergence", "the last block is partly past n, so its loads are guarded off"},
        {"histogram_shared_atomics", "how many lanes of a warp hit the same bin depends on the random bytes"},
        {"stencil_1d", "the first and last blocks load no halo past the array's ends"},
    };
    return uneven;
}

} // namespace

TEST(BlockSample, ScaledCountsEqualTheFullSimulationOnEveryUniformDemoKernel)
{
    int compared = 0;
    for (const kernels::DemoKernel& demo : kernels::demoKernels()) {
        const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, {}, 1ull << 30);
        const std::uint64_t blocks = static_cast<std::uint64_t>(launch.grid.volume());
        if (blocks < 3)
            continue; // nothing to leave out
        const std::uint64_t sample = std::min<std::uint64_t>(5, blocks - 1);
        const sim::KernelStats full = simulateDemo(demo, 0);
        const sim::KernelStats sampled = simulateDemo(demo, sample);
        EXPECT_FALSE(full.scaledFromSample);
        EXPECT_TRUE(sampled.scaledFromSample) << demo.id;
        EXPECT_EQ(sampled.blocksSimulated, sample) << demo.id;
        EXPECT_EQ(sampled.blocksInGrid, blocks) << demo.id;
        if (unevenKernels().count(demo.id)) {
            EXPECT_NE(counts(sampled), counts(full))
                << demo.id << " is listed as uneven (" << unevenKernels().at(demo.id)
                << ") but its sample equals the full run: take it off the list";
            continue;
        }
        EXPECT_EQ(counts(sampled), counts(full)) << demo.id << ": " << sample << " of " << blocks << " blocks";
        ++compared;
    }
    EXPECT_GE(compared, 10);
}

TEST(BlockSample, CannotBeRecordedOrTraced)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel("vector_add");
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    request.options.sampleBlocks = 4;
    request.options.recordBlock = 0;
    EXPECT_THROW(sim::simulate(request), InputError);
    request.options.recordBlock = -1;
    request.options.trace.blocks = {0};
    EXPECT_THROW(sim::simulate(request), InputError);
}
