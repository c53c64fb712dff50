// `warpscope session validate-timing`: the timing model against the recorded H200 sessions, run as a
// user would. The demo-size sessions take about a second; the targets asserted are the ones the model
// meets on them (BENCHMARKS.md, "Time you can trust", has the run over all 14 sessions).
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

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
    // The recorded session itself has no predicted times, so no duration row.
    EXPECT_EQ(runWarpscope("session show " + kRecorded + "ladder-copy.wsprof").out.find("Duration (timing model)"),
              std::string::npos);

    const auto two = runWarpscope("session validate-timing " + kRecorded + "ladder-copy.wsprof " + kRecorded +
                                  "ladder-matmul.wsprof --out " + out);
    EXPECT_EQ(two.exitCode, 2);
    EXPECT_NE(two.err.find("--out writes one session"), std::string::npos) << two.err;
}
