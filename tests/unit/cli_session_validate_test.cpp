// `warpscope session validate-timing`: the timing model against the recorded H200 sessions, run as a
// user would. The demo-size sessions take about a second; the targets asserted are the ones the model
// meets on them (BENCHMARKS.md, "Time you can trust", has the run over all 14 sessions).
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

using warpscope::testing_support::runWarpscope;

namespace {

const std::string kRecorded = std::string(WARPSCOPE_FIXTURES_DIR) + "/../../assets/recorded/h200/";

std::string demoSizeSessions()
{
    std::string files;
    for (const char* name : {"demo-kernels", "ladder-copy", "ladder-matmul", "ladder-reduction", "ladder-transpose"})
        files += " " + kRecorded + name + ".wsprof";
    return files;
}

} // namespace

TEST(CliSessionValidate, TheModelMeetsItsTargetsOnTheRecordedDemoSizeSessions)
{
    const auto result = runWarpscope("session validate-timing --json" + demoSizeSessions());
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json v = nlohmann::json::parse(result.out);
    EXPECT_EQ(v["compared"].get<int>(), 33); // 19 + 3 + 2 + 6 + 3 kernel records, every one predicted
    EXPECT_LE(v["mean_absolute_error"].get<double>(), 0.20);
    EXPECT_GE(v["min_ratio"].get<double>(), 0.5);
    EXPECT_LE(v["max_ratio"].get<double>(), 2.0);
    EXPECT_EQ(v["ratios_within_half_to_double"].get<int>(), 33);
    EXPECT_GE(v["spearman"].get<double>(), 0.95);
    // Ladder order: copy, reduction and transpose as measured; the matmul ladder's two rungs are
    // predicted within 1 % of each other, in the wrong order (a known miss).
    int ladders = 0;
    for (const auto& ladder : v["ladders"]) {
        ++ladders;
        if (ladder["ladder"] != "matmul")
            EXPECT_TRUE(ladder["equal"].get<bool>()) << ladder.dump();
    }
    EXPECT_EQ(ladders, 8);
    for (const auto& kernel : v["kernels"]) {
        EXPECT_GT(kernel["measured_ns"].get<double>(), 0);
        EXPECT_EQ(kernel["method"], "every block simulated") << kernel.dump(); // demo sizes run in full
    }
}

TEST(CliSessionValidate, PrintsPerKernelRatiosAndTheSummary)
{
    const auto result = runWarpscope("session validate-timing " + kRecorded + "ladder-copy.wsprof");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("copy_coalesced"), std::string::npos);
    EXPECT_NE(result.out.find("3 of 3 kernels predicted; mean absolute error"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("Spearman"), std::string::npos);
    EXPECT_NE(result.out.find("copy: copy_coalesced < copy_offset < copy_strided | "), std::string::npos) << result.out;
}

TEST(CliSessionValidate, AFileThatIsNotASessionIsBadInput)
{
    const auto result = runWarpscope("session validate-timing " + std::string(WARPSCOPE_FIXTURES_DIR) + "/../../README.md");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("not a warpscope session"), std::string::npos) << result.err;
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << result.err;
}

TEST(CliSessionValidate, OutWritesTheSessionWithItsPredictedTimes)
{
    const std::string out = testing::TempDir() + "/ladder-copy-timed.wsprof";
    const auto written = runWarpscope("session validate-timing " + kRecorded + "ladder-copy.wsprof --out " + out);
    ASSERT_EQ(written.exitCode, 0) << written.err;
    const auto shown = runWarpscope("session show " + out);
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_NE(shown.out.find("Duration (timing model)"), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find("(predicted / measured)"), std::string::npos);
    EXPECT_NE(shown.out.find("the model's blind spots here: L2-resident working set"), std::string::npos);
    // The written predictions carry where the model's warps waited: a copy waits on global memory
    // most (lesson 10: 93 % at 64 warps).
    std::ifstream file(out);
    int predictions = 0;
    for (std::string line; std::getline(file, line);) {
        const nlohmann::json record = nlohmann::json::parse(line);
        if (record.value("type", "") != "prediction")
            continue;
        ++predictions;
        ASSERT_TRUE(record.contains("model_stall_cycles")) << line;
        std::uint64_t total = 0;
        for (const auto& [reason, cycles] : record["model_stall_cycles"].items())
            total += cycles.get<std::uint64_t>();
        EXPECT_GT(record["model_stall_cycles"]["global_memory"].get<std::uint64_t>() * 2, total) << line;
    }
    EXPECT_EQ(predictions, 3);
    // The recorded session itself has no predicted times, so no duration row.
    EXPECT_EQ(runWarpscope("session show " + kRecorded + "ladder-copy.wsprof").out.find("Duration (timing model)"),
              std::string::npos);

    const auto two = runWarpscope("session validate-timing " + kRecorded + "ladder-copy.wsprof " + kRecorded +
                                  "ladder-matmul.wsprof --out " + out);
    EXPECT_EQ(two.exitCode, 2);
    EXPECT_NE(two.err.find("--out writes one session"), std::string::npos) << two.err;
}

// A session with Nsight Compute's warp states (tests/fixtures/sessions/warp_states.wsprof; its values are
// worked out in tests/unit/stall_comparison_test.cpp): `session show` prints the model's stall shares
// beside them, under ncu's names.
TEST(CliSessionShow, StallSharesBesideNcusWarpStates)
{
    const auto result = runWarpscope("session show " + std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/warp_states.wsprof");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("Stall long_scoreboard (model: global memory) 70.0 % vs 50.0 %: \u221220.0 pts [differs]"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("Stall lg_throttle + mio_throttle (model: load/store unit) 5.0 % vs 8.0 %: +3.0 pts [agrees]"),
              std::string::npos);
    EXPECT_NE(result.out.find("the model never predicts these: math_pipe_throttle 10.0 %"), std::string::npos);
    const auto json = runWarpscope("session show --json " + std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/warp_states.wsprof");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_NE(json.out.find("\"stall_not_modelled\""), std::string::npos);
}
