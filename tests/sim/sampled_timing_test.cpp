// A sample of blocks still gets a time (SimOptions::sampleBlocks): the sampled blocks replayed on
// one SM and scaled by the waves the busiest SM runs. Against a full simulation of the same launch,
// on demo kernels whose blocks all do the same work, and the method the time names.
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/kernel_time.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace warpscope;

namespace {

sim::KernelStats simulateDemo(const char* id, std::uint64_t sampleBlocks)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
    EXPECT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("h200"));
    request.options.hostThreads = 0;
    request.options.registersPerThread = 16;
    request.options.sampleBlocks = sampleBlocks;
    const sim::SimResult result = sim::simulate(std::move(request));
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << id << ": " << result.statusMessage;
    return result.stats;
}

} // namespace

TEST(SampledTiming, ASampleOfAStreamingKernelTakesAboutTheFullTime)
{
    // copy_coalesced at its demo size: 4,096 blocks of 256 threads, 16 registers: 8 blocks per SM,
    // the busiest of 132 SMs runs ceil(4,096 / 132) = 32 blocks, 4 waves. The sample replays 32
    // sampled blocks (4 whole waves): no scaling, and the same per-block work as the full run.
    const sim::KernelStats full = simulateDemo("copy_coalesced", 0);
    const sim::KernelStats sampled = simulateDemo("copy_coalesced", 256);
    ASSERT_TRUE(full.timing.available);
    ASSERT_TRUE(sampled.timing.available);
    EXPECT_FALSE(full.timing.scaledFromSample);
    EXPECT_TRUE(sampled.timing.scaledFromSample);
    EXPECT_EQ(sampled.timing.blocksPerSm, 32u);
    EXPECT_EQ(sampled.timing.replayedBlocks, 32u);
    EXPECT_DOUBLE_EQ(sampled.timing.waveScale, 1.0);
    const double ratio = static_cast<double>(sampled.timing.cycles) / static_cast<double>(full.timing.cycles);
    EXPECT_GT(ratio, 0.85) << sampled.timing.cycles << " against " << full.timing.cycles;
    EXPECT_LT(ratio, 1.15) << sampled.timing.cycles << " against " << full.timing.cycles;

    const gpu::GpuPreset h200 = *gpu::findPreset("h200");
    const sim::KernelTime time = sim::kernelTime(sampled, h200, 8u << 20);
    ASSERT_TRUE(time.available);
    EXPECT_EQ(time.method.rfind("scaled from 256 of 4,096 blocks", 0), 0u) << time.method;
    EXPECT_DOUBLE_EQ(time.nanoseconds, h200.timing.launchOverheadNs + static_cast<double>(sampled.timing.cycles) / 1980.0 * 1e3);
}

TEST(SampledTiming, FewerSampledBlocksThanTheBusiestSmRunsScaleByWaves)
{
    // 64 sampled blocks of 4,096: the replay takes 4 whole waves of 8 (32 blocks); the busiest SM's
    // 32 blocks are 4 waves too, so nothing is scaled. With 16 sampled blocks: 2 waves replayed,
    // scaled by 4 / 2.
    const sim::KernelStats sixteen = simulateDemo("copy_coalesced", 16);
    ASSERT_TRUE(sixteen.timing.available);
    EXPECT_EQ(sixteen.timing.replayedBlocks, 16u);
    EXPECT_DOUBLE_EQ(sixteen.timing.waveScale, 2.0);
    const sim::KernelStats full = simulateDemo("copy_coalesced", 0);
    const double ratio = static_cast<double>(sixteen.timing.cycles) / static_cast<double>(full.timing.cycles);
    EXPECT_GT(ratio, 0.8);
    EXPECT_LT(ratio, 1.25);
}
