// Every demo kernel, simulated with its default launch, equals its gold reference and shows exactly
// the hazards its manifest says it is built to show (none for the clean ones).
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <set>

using namespace warpscope;

namespace {

class DemoKernelTest : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> demoIds()
{
    std::vector<std::string> ids;
    for (const kernels::DemoKernel& kernel : kernels::demoKernels())
        ids.push_back(kernel.id);
    return ids;
}

} // namespace

TEST_P(DemoKernelTest, MatchesGoldAndShowsOnlyItsExpectedHazards)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(GetParam());
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    const sim::SimResult result = sim::simulate(request);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;

    std::set<std::string> found, expected(demo->expectHazards.begin(), demo->expectHazards.end());
    for (const sim::Hazard& hazard : result.hazards)
        found.insert(sim::hazardKindName(hazard.kind));
    EXPECT_EQ(found, expected) << (result.hazards.empty() ? "" : result.hazards.front().message);

    if (!demo->gold.empty()) {
        const kernels::GoldComparison gold = kernels::compareWithGold(*demo, launch, result.args);
        EXPECT_TRUE(gold.available);
        EXPECT_TRUE(gold.matches) << gold.detail;
    } else {
        EXPECT_FALSE(expected.empty()) << demo->id << " has neither a gold reference nor expected hazards";
    }
}

INSTANTIATE_TEST_SUITE_P(AllDemos, DemoKernelTest, ::testing::ValuesIn(demoIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The reduction ladder's statistics tell the story the lessons tell.
TEST(DemoLadders, ReductionRungsRemoveDivergenceThenBankConflicts)
{
    auto run = [](const std::string& id) {
        const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
        const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
        sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
        return sim::simulate(request).stats;
    };
    const sim::KernelStats divergent = run("reduce_interleaved_divergent");
    const sim::KernelStats conflicts = run("reduce_interleaved_bank_conflicts");
    const sim::KernelStats sequential = run("reduce_sequential");
    EXPECT_LT(divergent.branchEfficiency(), conflicts.branchEfficiency());
    EXPECT_EQ(divergent.shared.bankConflicts, 0u);
    EXPECT_GT(conflicts.shared.bankConflicts, 0u);
    EXPECT_EQ(sequential.shared.bankConflicts, 0u);
    EXPECT_LT(sequential.warpInstructions, divergent.warpInstructions);
}
