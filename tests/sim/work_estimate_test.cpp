// The work estimate made before a large simulation (core/sim/work_estimate.h): its scaled counts
// against a full simulation, and when and how it refuses.
#include "sim/work_estimate.h"

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

using namespace warpscope;

namespace {

sim::LaunchRequest demoRequest(const std::string& id)
{
    const kernels::DemoKernel& demo = *kernels::findDemoKernel(id);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, *gpu::findPreset("sm_90"));
    request.options.timing = false;
    return request;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(WorkEstimate, EqualsTheFullCountForAKernelWhoseBlocksAllDoTheSameWork)
{
    // copy_coalesced's blocks each copy their own 256 elements: the scaled sample is exact.
    const sim::LaunchRequest request = demoRequest("copy_coalesced");
    ASSERT_GT(static_cast<std::uint64_t>(request.grid.volume()), sim::kEstimateSampleBlocks);
    const sim::WorkEstimate estimate = sim::estimateWork(request);
    const sim::SimResult full = sim::simulate(request);
    ASSERT_EQ(full.status, sim::SimStatus::Completed) << full.statusMessage;
    EXPECT_TRUE(estimate.finished);
    EXPECT_EQ(estimate.blocks, static_cast<std::uint64_t>(request.grid.volume()));
    EXPECT_EQ(estimate.sampledBlocks, sim::kEstimateSampleBlocks);
    EXPECT_EQ(estimate.warpInstructions, full.stats.warpInstructions);
    EXPECT_GT(estimate.seconds, 0.0);
}

TEST(WorkEstimate, ASampledBlockThatNeverEndsGivesNoEstimateAndNoRefusal)
{
    sim::LaunchRequest request = demoRequest("copy_coalesced");
    request.options.blockStepBudget = 3; // every block issues more than three warp-instructions
    const sim::WorkEstimate estimate = sim::estimateWork(request);
    EXPECT_FALSE(estimate.finished);
    EXPECT_EQ(sim::workRefusal(estimate, request.options, 1.0), "");
}

TEST(WorkEstimate, RefusesPastTheStepBudgetOrTheTimeLimitWithTheNumbers)
{
    sim::SimOptions options;
    options.stepBudget = 1'000'000;
    sim::WorkEstimate estimate;
    estimate.blocks = 100'000;
    estimate.sampledBlocks = 8;
    estimate.hostThreads = 4;
    estimate.warpInstructions = 4'000'000; // four times the budget: stops after a quarter of the time
    estimate.seconds = 480;
    const std::string overBudget = sim::workRefusal(estimate, options, 1e9);
    EXPECT_TRUE(contains(overBudget, "this launch of 100,000 blocks would issue about 4,000,000 warp-instructions "
                                     "(estimated from 8 sampled blocks)")) << overBudget;
    EXPECT_TRUE(contains(overBudget, "more than the step budget of 1,000,000, so it would stop unfinished after about 2 minutes"))
        << overBudget;

    estimate.warpInstructions = 900'000; // within the budget, but 8 minutes against a 2-minute limit
    const std::string overTime = sim::workRefusal(estimate, options, 120);
    EXPECT_TRUE(contains(overTime, "and take about 8 minutes to simulate on 4 threads")) << overTime;
    EXPECT_EQ(sim::workRefusal(estimate, options, 600), "");

    estimate.sampledBlocks = estimate.blocks; // the whole grid ran: nothing left to refuse
    EXPECT_EQ(sim::workRefusal(estimate, options, 120), "");
}

TEST(WorkEstimate, RoughDurationsRoundToTheLargestWholeUnit)
{
    EXPECT_EQ(sim::roughDuration(0.2), "about 1 second");
    EXPECT_EQ(sim::roughDuration(30), "about 30 seconds");
    EXPECT_EQ(sim::roughDuration(90), "about 2 minutes");     // 1.5 minutes rounds up
    EXPECT_EQ(sim::roughDuration(3600 * 36), "about 2 days"); // 1.5 days
    EXPECT_EQ(sim::roughDuration(86400.0 * 365 * 3), "about 3 years");
    EXPECT_EQ(sim::roughDuration(86400.0 * 365 * 4e6), "more than a million years");
}
