// The probe's preset for a device record (probe::presetFromRecord, which presetForDevice uses) and
// the predicted time it writes in the prediction record (probe::fillPredictedTime); no GPU needed.
#include "device_preset.h"
#include "predicted_time.h"

#include "gpu/gpu_preset.h"
#include "kernel_target.h"
#include "session/session.h"
#include "session/session_io.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

using namespace warpscope;

namespace {

// The device record of assets/recorded/h200/demo-kernels.wsprof, as the probe wrote it on the H200.
session::DeviceRecord recordedH200()
{
    const auto path = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() /
                      "assets/recorded/h200/demo-kernels.wsprof";
    const session::SessionReadResult read = session::readSessionFile(path.string());
    if (!read.problems.empty() || read.session.devices.empty())
        throw std::runtime_error("cannot read the H200's device record from " + path.string());
    return read.session.devices.front();
}

} // namespace

// An H200 is modelled as the H200 SXM preset with its own numbers, and its DRAM bandwidth is
// 2 x 3,201 MHz x 6,016 bits / 8 = 4,814.3 GB/s, not the H100's 3,350 GB/s.
TEST(ProbePreset, H200RecordGetsTheH200PresetAndItsOwnBandwidth)
{
    const session::SessionPreset chosen = probe::presetFromRecord(recordedH200());
    const gpu::GpuPreset& p = chosen.preset;
    EXPECT_TRUE(chosen.fromDevice);
    EXPECT_EQ(std::string(p.arch), "sm_90");
    EXPECT_EQ(std::string(p.name), "NVIDIA H200");
    EXPECT_NE(std::string(p.source).find("from the H200 SXM preset"), std::string::npos) << p.source;
    EXPECT_NEAR(p.timing.dramBandwidthGBps, 2.0 * 3201e6 * 752 / 1e9, 1e-6);
    EXPECT_NEAR(p.timing.dramBandwidthGBps, 4814.304, 1e-3);
    EXPECT_NE(chosen.dramSource.find("2 x memory clock x bus width"), std::string::npos) << chosen.dramSource;
    EXPECT_DOUBLE_EQ(p.timing.coreClockMHz, 1980.0);
    EXPECT_EQ(p.timing.l2Bytes, 62914560u);
    EXPECT_EQ(p.smCount, 132);
    EXPECT_EQ(p.sharedPerBlockOptin, 232448u);
    EXPECT_EQ(p.reservedSharedPerBlock, 1024u);
}

// With the ceilings the probe measured first, the copy's bandwidth is the model's (as in
// `session validate-timing`).
TEST(ProbePreset, MeasuredCopyBandwidthWinsOverTheAttributes)
{
    session::CeilingsRecord ceilings;
    ceilings.measuredDramGBps = 4210;
    ceilings.measuredDramMethod = "device-to-device copy";
    const session::SessionPreset chosen = probe::presetFromRecord(recordedH200(), &ceilings);
    EXPECT_DOUBLE_EQ(chosen.preset.timing.dramBandwidthGBps, 4210.0);
    EXPECT_NE(chosen.dramSource.find("measured on this GPU"), std::string::npos) << chosen.dramSource;
}

// The probe's contended-atomic microbenchmark sets the rate same-address atomics queue at: at the
// H200's 1,980 MHz, 495 M updates per second is 4 cycles per update. Without it the preset's
// assumption (one per cycle) stands, and the source says which.
TEST(ProbePreset, MeasuredAtomicRateSetsTheCyclesPerUpdate)
{
    const session::SessionPreset assumed = probe::presetFromRecord(recordedH200());
    EXPECT_DOUBLE_EQ(assumed.preset.timing.l2AtomicCyclesPerUpdate, gpu::findPreset("sm_90")->timing.l2AtomicCyclesPerUpdate);
    EXPECT_TRUE(assumed.atomicSource.empty());

    session::CeilingsRecord ceilings;
    ceilings.measuredAtomicUpdatesPerSecond = 495e6;
    ceilings.measuredAtomicMethod = "red.global.add.u32 of 1 to one word";
    const session::SessionPreset measured = probe::presetFromRecord(recordedH200(), &ceilings);
    EXPECT_DOUBLE_EQ(measured.preset.timing.l2AtomicCyclesPerUpdate, 4.0);
    EXPECT_NE(measured.atomicSource.find("measured on this GPU: red.global.add.u32 of 1 to one word (495.0 M updates/s, 4.00 cycles each)"),
              std::string::npos)
        << measured.atomicSource;
    EXPECT_NE(std::string(measured.preset.timing.source).find("same-address atomics measured on this GPU"), std::string::npos);
}

// An H100 keeps the H100 SXM preset (no H200 in its name): 2 x 2,619 MHz x 5,120 bits / 8 = 3,352.3 GB/s.
TEST(ProbePreset, H100RecordGetsTheH100Preset)
{
    session::DeviceRecord d = recordedH200();
    d.name = "NVIDIA H100 80GB HBM3";
    d.memoryClockKHz = 2619000;
    d.memoryBusWidthBits = 5120;
    d.l2Bytes = 52428800;
    const session::SessionPreset chosen = probe::presetFromRecord(d);
    EXPECT_NE(std::string(chosen.preset.source).find("from the H100 SXM preset"), std::string::npos)
        << chosen.preset.source;
    EXPECT_NEAR(chosen.preset.timing.dramBandwidthGBps, 3352.32, 1e-6);
}

// vector_add at its demo size on the H200 preset, with the timing model on: the predicted time is the
// model's cycles at 1,980 MHz plus the launch overhead, every block simulated, and the method names
// whose register count it used.
TEST(ProbePredictedTime, IsTheModelsCyclesAtTheClockPlusOverhead)
{
    const gpu::GpuPreset preset = probe::presetFromRecord(recordedH200()).preset;
    kernels::TargetRequest target;
    target.target = "vector_add";
    target.maxBufferBytes = 64ull << 20;
    const kernels::ResolvedTarget resolved = kernels::resolveTarget(target);
    sim::LaunchRequest request = kernels::targetLaunchRequest(resolved, preset);
    request.options.timing = true;
    request.options.registersPerThread = 16;
    const sim::SimResult result = sim::simulate(request);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.stats.timing.available);
    ASSERT_GT(result.stats.timing.cycles, 0u);

    session::PredictionRecord p;
    probe::fillPredictedTime(p, result, preset, 16);
    EXPECT_NEAR(p.predictedNs, 400.0 + static_cast<double>(result.stats.timing.cycles) / 1980.0 * 1000.0, 1e-6);
    EXPECT_EQ(p.timeMethod, "every block simulated; 16 registers per thread (the driver's count for this kernel)");
    // Where the model's warps waited goes with it, for the stall rows beside ncu's warp states.
    const sim::StallCycles& stalls = result.stats.timing.stalls;
    EXPECT_GT(p.modelStalls.total(), 0u);
    EXPECT_EQ(p.modelStalls.globalMemory, stalls.globalMemory);
    EXPECT_EQ(p.modelStalls.sharedMemory, stalls.sharedMemory);
    EXPECT_EQ(p.modelStalls.execution, stalls.execution);
    EXPECT_EQ(p.modelStalls.loadStoreUnit, stalls.loadStoreUnit);
    EXPECT_EQ(p.modelStalls.barrier, stalls.barrier);
    EXPECT_EQ(p.modelStalls.notSelected, stalls.notSelected);

    session::PredictionRecord assumed;
    probe::fillPredictedTime(assumed, result, preset, 0);
    EXPECT_NE(assumed.timeMethod.find("16 registers per thread assumed"), std::string::npos) << assumed.timeMethod;

    // Without the timing model there is no time: the record stays "not predicted".
    request.options.timing = false;
    const sim::SimResult untimed = sim::simulate(request);
    session::PredictionRecord none;
    probe::fillPredictedTime(none, untimed, preset, 16);
    EXPECT_EQ(none.predictedNs, 0.0);
    EXPECT_TRUE(none.timeMethod.empty());
    EXPECT_EQ(none.modelStalls.total(), 0u);
}
