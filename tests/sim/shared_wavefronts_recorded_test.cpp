// The simulator's shared-memory load counters against an H200 (issue 29, section 4): every kernel of
// the recorded session assets/recorded/h200/demo-kernels.wsprof, simulated with the launch it was
// measured with, gives ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum exactly. Before
// the simulator followed ptxas's merged loads (sim/shared_load_merge.h), matmul_tiled gave the PTX's
// 131,072 against the GPU's 98,304.
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

const std::filesystem::path kSession =
    std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "assets/recorded/h200/demo-kernels.wsprof";

struct RecordedKernel {
    std::vector<std::string> args;
    double sharedLoadWavefronts = -1;
};

std::map<std::string, RecordedKernel> readSession()
{
    std::map<std::string, RecordedKernel> kernels;
    std::ifstream file(kSession);
    std::string line;
    while (std::getline(file, line)) {
        const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.contains("type"))
            continue;
        if (record["type"] == "kernel")
            kernels[record["id"]].args = record["args"].get<std::vector<std::string>>();
        if (record["type"] == "metrics" && record["values"].contains("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"))
            kernels[record["kernel"]].sharedLoadWavefronts =
                record["values"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"].get<double>();
    }
    return kernels;
}

} // namespace

TEST(RecordedSharedWavefronts, everyRecordedKernelsSharedLoadsAreTheH200s)
{
    const std::map<std::string, RecordedKernel> recorded = readSession();
    ASSERT_GE(recorded.size(), 19u) << kSession;
    int compared = 0;
    for (const auto& [id, kernel] : recorded) {
        const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
        ASSERT_NE(demo, nullptr) << id;
        if (kernel.sharedLoadWavefronts < 0)
            continue;
        kernels::LaunchOverrides overrides;
        for (const std::string& arg : kernel.args)
            overrides.args.push_back(sim::parseArgSpec(arg));
        const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, overrides, 1ull << 30);
        const sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
        const sim::SimResult result = sim::simulate(request);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << id << ": " << result.statusMessage;
        EXPECT_EQ(static_cast<double>(result.stats.shared.loadWavefronts), kernel.sharedLoadWavefronts) << id;
        ++compared;
    }
    EXPECT_GE(compared, 19);
}

// matmul_tiled at n = 128 by hand: 8 x 8 blocks of 8 warps = 512 warps, 128 / 16 = 8 tiles. Per warp
// and tile the PTX loads 32 floats (16 of As, 16 of Bs); the SASS loads As's row 4 floats at a time:
// 4 LDS.128 of 2 wavefronts (a row per half-warp) and 16 LDS of one: 20 requests, 24 wavefronts.
TEST(RecordedSharedWavefronts, tiledMatmulFollowsTheSass)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel("matmul_tiled");
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    const sim::SimResult result = sim::simulate(kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90")));
    ASSERT_EQ(result.status, sim::SimStatus::Completed);
    EXPECT_EQ(result.stats.shared.loadRequests, 512u * 8 * 20);
    EXPECT_EQ(result.stats.shared.loadWavefronts, 512u * 8 * 24);
    EXPECT_EQ(result.stats.shared.bankConflicts, 0u);
}
