// --cooperative on `warpscope sim` and `warpscope step`, as a user runs them (issue 31, section 2): a
// kernel that calls grid.sync() runs with every block resident and gives the CPU's answer; without
// the flag, or with a grid larger than the GPU holds, it is one line and exit 2; the stepper says
// where the block waited for the others. Expectations worked out by hand.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::lineCount;
using warpscope::testing_support::runWarpscope;

namespace {

// Each block adds its grid-stride share into its own partial; after grid.sync() thread 0 of the grid
// adds the partials.
std::string gridTotalFile()
{
    return WARPSCOPE_FIXTURES_DIR "/kernels/grid_total.cu";
}

std::string launch(const std::string& grid, const std::string& block)
{
    return gridTotalFile() + " --kernel gridTotal --grid " + grid + " --block " + block +
           " --arg in=i32[1000]:iota --arg partial=i32[" + grid + "] --arg total=i32[1] --arg n=i32:1000";
}

} // namespace

// 0 + 1 + ... + 999 = 999 x 1,000 / 2 = 499,500.
TEST(CliCooperative, GridSyncRunsAndGivesTheCpusTotal)
{
    const CommandResult r = runWarpscope("sim " + launch("6", "64") + " --cooperative --dump total");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "499500\n");
    EXPECT_EQ(r.err, "");
    const CommandResult text = runWarpscope("sim " + launch("6", "64") + " --cooperative");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    // 64 threads are 2 warps: floor(64 / 2) = 32 blocks per SM by warps (and the 32-block limit), x 132 SMs.
    EXPECT_NE(text.out.find("cooperative launch  every block resident at once: 6 of at most 4,224 (132 SMs x 32 per SM"),
              std::string::npos) << text.out;
}

TEST(CliCooperative, WithoutTheFlagItIsOneLineThatNamesIt)
{
    const CommandResult r = runWarpscope("sim " + launch("6", "64"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("(grid_total.cu:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("kernel gridTotal synchronises the whole grid"), std::string::npos) << r.err;
    EXPECT_TRUE(r.err.ends_with("simulate it as one with --cooperative\n")) << r.err;
}

// H100 SXM: 1,024 threads are 32 warps, floor(64 / 32) = 2 blocks per SM, x 132 SMs = 264.
TEST(CliCooperative, AGridTheGpuCannotHoldIsRefusedWithTheNumbers)
{
    const CommandResult r = runWarpscope("sim " + launch("265", "1024") + " --cooperative");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("the grid's 265 blocks are more than the 264 the H100 SXM holds: 132 SMs x 2 blocks per SM"),
              std::string::npos) << r.err;
    const CommandResult step = runWarpscope("step " + launch("265", "1024") + " --cooperative");
    EXPECT_EQ(step.exitCode, 2);
    EXPECT_EQ(lineCount(step.err), 1) << step.err;
}

// 40 floats kept across grid.sync() take ptxas past 32 registers (56 with CUDA 13 for sm_90); 33 to 64
// registers leave room for 1 block of 32 warps per SM (a warp's registers in 256-register units,
// 16,384 per sub-partition), so 264 blocks of 1,024 threads no longer fit an H100: 132 do.
TEST(CliCooperative, TheOccupancyCheckUsesPtxassRegisterCount)
{
    const std::string path = testing::TempDir() + "/grid_heavy.cu";
    std::ofstream(path) << R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void heavy(const float* in, float* out, int n)
{
    float v[40];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 40; ++k) v[k] = in[(i * 40 + k) % n];
    cg::this_grid().sync();
    float s = 0;
#pragma unroll
    for (int k = 0; k < 40; ++k) s += v[k] * v[(k * 7) % 40];
    out[i % n] = s;
}
)";
    const std::string launchOf = path + " --kernel heavy --block 1024 --arg 'in=f32[4096]:random(1)' --arg out=f32[4096] "
                                        "--arg n=i32:4096 --cooperative --no-timing --grid ";
    const CommandResult r = runWarpscope("sim " + launchOf + "264");
    if (r.exitCode == 0 && r.out.find("with 32 registers per thread") != std::string::npos)
        GTEST_SKIP() << "ptxas is not installed: the assumed 32 registers stand";
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("more than the 132 the H100 SXM holds: 132 SMs x 1 block per SM (Registers"), std::string::npos) << r.err;
    const CommandResult fits = runWarpscope("sim " + launchOf + "132");
    EXPECT_EQ(fits.exitCode, 0) << fits.err;
}

// Blocks take turns in order: block 2 waits at its grid.sync() when blocks 0-2 have arrived.
TEST(CliCooperative, TheStepperSaysWhereTheBlockWaitedForTheGrid)
{
    const CommandResult r = runWarpscope("step " + launch("6", "64") + " --cooperative --block-index 2 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["grid_waits"].size(), 1u);
    const nlohmann::json& wait = doc["grid_waits"][0];
    EXPECT_EQ(wait["grid_sync"], 1);
    EXPECT_EQ(wait["arrived"], 3);
    EXPECT_EQ(wait["blocks"], 6);
    EXPECT_EQ(wait["not_arrived"], nlohmann::json::array({3, 4, 5}));
    EXPECT_TRUE(doc["grid_wait_before_this_step"].is_null()); // step 0: before any wait
}
