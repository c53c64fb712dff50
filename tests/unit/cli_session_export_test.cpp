// `warpscope session export`: the measured runs as a Chrome trace and the metrics as CSV, checked
// against the fixture session's own numbers (tests/fixtures/sessions/ladder.wsprof).
#include "cli_runner.h"
#include "session/session_export.h"
#include "session/session_io.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

using warpscope::testing_support::runWarpscope;
using namespace warpscope;

namespace {

const std::string kLadder = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/ladder.wsprof";

std::string tempPath(const std::string& name)
{
    return testing::TempDir() + "/session_export_" + std::to_string(getpid()) + "_" + name;
}

} // namespace

TEST(SessionExport, CsvFieldsAreQuotedOnlyWhenTheyMustBe)
{
    EXPECT_EQ(session::csvField("plain"), "plain");
    EXPECT_EQ(session::csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(session::csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(session::csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(session::csvField(""), "");
    // Names from a session never become spreadsheet formulas.
    EXPECT_EQ(session::csvTextField("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    EXPECT_EQ(session::csvTextField("+1"), "'+1");
    EXPECT_EQ(session::csvTextField("@sum"), "'@sum");
    EXPECT_EQ(session::csvTextField("reduce_sequential"), "reduce_sequential");
}

TEST(SessionExport, TheTraceHasEveryTimedRunEndToEnd)
{
    const session::SessionReadResult read = session::readSessionFile(kLadder);
    ASSERT_TRUE(read.problems.empty());
    std::ostringstream out;
    const session::SessionTraceCounts counts = session::writeSessionPerfetto(out, read.session);
    // fixture_naive ran 10, 12 and 11 us; fixture_tiled 5 and 5 us.
    EXPECT_EQ(counts.kernelRuns, 5u);
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    double end = 0;
    int kernelSlices = 0;
    for (const nlohmann::json& e : doc["traceEvents"]) {
        if (e["ph"] != "X" || e["cat"] != "kernel")
            continue;
        ++kernelSlices;
        EXPECT_DOUBLE_EQ(e["ts"].get<double>(), end); // each run starts where the previous one ended
        end += e["dur"].get<double>();
    }
    EXPECT_EQ(kernelSlices, 5);
    EXPECT_DOUBLE_EQ(end, 10.0 + 12.0 + 11.0 + 5.0 + 5.0);
    EXPECT_NE(doc["metadata"]["note"].get<std::string>().find("not when it started"), std::string::npos);
}

TEST(SessionExport, CommandWritesTheTraceAndOneCsvRowPerMetricValue)
{
    const session::SessionReadResult read = session::readSessionFile(kLadder);
    std::size_t values = 0;
    for (const session::MetricsRecord& record : read.session.metrics)
        values += record.values.size();
    ASSERT_GT(values, 0u);

    const std::string trace = tempPath("trace.json"), csv = tempPath("metrics.csv");
    const auto result = runWarpscope("session export " + kLadder + " --perfetto " + trace + " --csv " + csv);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("wrote " + trace + ": 5 timed runs of 2 kernels"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("wrote " + csv + ": " + std::to_string(values) + " metric values"), std::string::npos)
        << result.out;
    std::ifstream in(csv);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.rfind("kernel,metric,ncu_name,value,unit\r\n", 0), 0u);
    std::size_t lines = 0;
    for (const char c : text)
        lines += c == '\n';
    EXPECT_EQ(lines, values + 1);
    EXPECT_NE(text.find("fixture_naive,"), std::string::npos);
    std::remove(trace.c_str());
    std::remove(csv.c_str());

    const auto nothing = runWarpscope("session export " + kLadder);
    EXPECT_EQ(nothing.exitCode, 2);
    EXPECT_EQ(warpscope::testing_support::lineCount(nothing.err), 1) << nothing.err;
    const auto notSession = runWarpscope("session export " + std::string(WARPSCOPE_FIXTURES_DIR) +
                                         "/sessions/../ncu/details_metrics.csv --csv " + csv);
    EXPECT_EQ(notSession.exitCode, 2) << notSession.err;
    const auto unwritable = runWarpscope("session export " + kLadder + " --csv /nonexistent-dir/m.csv");
    EXPECT_EQ(unwritable.exitCode, 2) << unwritable.err;
    EXPECT_EQ(warpscope::testing_support::lineCount(unwritable.err), 1) << unwritable.err;
}

// `session show` prints a compute capability the session recorded, and "not recorded" for one it did
// not (0.0, as a session imported from ncu without it holds), as the window's session view shows "—".
TEST(SessionShow, ComputeCapabilityIsNotRecordedWhenTheSessionHoldsNone)
{
    session::SessionReadResult read = session::readSessionFile(kLadder);
    ASSERT_TRUE(read.problems.empty());
    ASSERT_FALSE(read.session.devices.empty());
    const session::DeviceRecord& recorded = read.session.devices.front();
    ASSERT_GT(recorded.computeMajor, 0);
    const std::string capability =
        "compute capability " + std::to_string(recorded.computeMajor) + "." + std::to_string(recorded.computeMinor);
    auto result = runWarpscope("session show " + kLadder);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find(capability + ","), std::string::npos) << result.out;

    read.session.devices.front().computeMajor = 0;
    read.session.devices.front().computeMinor = 0;
    const std::string path = tempPath("no-capability.wsprof");
    {
        std::ofstream out(path);
        session::SessionWriter(out).writeAll(read.session);
    }
    result = runWarpscope("session show " + path);
    std::remove(path.c_str());
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("device " + std::to_string(recorded.ordinal) + ": " + recorded.name), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("compute capability not recorded"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("compute capability 0.0"), std::string::npos) << result.out;
}
