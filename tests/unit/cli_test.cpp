// The warpscope command line as a user runs it: exit codes, one-line errors, JSON.
#include <nlohmann/json.hpp>

#include "cli_runner.h"

#include <gtest/gtest.h>

#include <string>
#include <unistd.h>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::lineCount;

namespace {

CommandResult run(const std::string& arguments) { return warpscope::testing_support::runWarpscope(arguments); }

} // namespace

TEST(Cli, OccupancyJsonHasTheDocumentedFields)
{
    const CommandResult r = run("occupancy --arch sm_90 --block 96 --regs 40 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["arch"], "sm_90");
    EXPECT_EQ(doc["blocks_per_sm"], 16);
    EXPECT_EQ(doc["warps_per_sm"], 48);
    EXPECT_DOUBLE_EQ(doc["occupancy"].get<double>(), 0.75);
    EXPECT_EQ(doc["limiters"], nlohmann::json::array({"registers"}));
    EXPECT_EQ(doc["limits"]["registers"], 16);
    EXPECT_EQ(doc["limits"]["warps"], 21);
    EXPECT_EQ(doc["limits"]["blocks"], 32);
    EXPECT_EQ(doc["limits"]["shared_memory"], 228);
    EXPECT_TRUE(doc["limits"].contains("barriers"));
}

TEST(Cli, OccupancyJsonListsOnlySuggestionsThatRaiseOccupancy)
{
    // H100, 96 threads x 32 registers: 21 blocks x 3 warps = 63 of 64. Fewer registers change nothing
    // (warps still allow 21 blocks); 128 threads reach 64 warps.
    const CommandResult r = run("occupancy --arch sm_90 --block 96 --regs 32 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["suggestions"].size(), 1u) << r.out;
    EXPECT_EQ(doc["suggestions"][0]["block"], 128);
    EXPECT_EQ(doc["suggestions"][0]["regs"], 32);
    EXPECT_EQ(doc["suggestions"][0]["warps_per_sm"], 64);
    EXPECT_EQ(doc["idle_lanes_per_block"], 0);
    // 100 threads: 4 warps, 28 idle lanes in the last.
    const CommandResult idle = run("occupancy --arch sm_90 --block 100 --regs 32 --json");
    EXPECT_EQ(nlohmann::json::parse(idle.out)["idle_lanes_per_block"], 28);
}

TEST(Cli, OccupancyAcceptsSharedMemoryInKiB)
{
    const CommandResult r = run("occupancy --arch sm_80 --block 128 --regs 40 --smem-static 16K --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["blocks_per_sm"], 9);
    EXPECT_DOUBLE_EQ(doc["occupancy"].get<double>(), 0.5625);
    EXPECT_EQ(doc["limiters"], nlohmann::json::array({"shared_memory"}));
}

TEST(Cli, OccupancyTextExplainsTheLimiter)
{
    const CommandResult r = run("occupancy --arch sm_86 --block 256 --regs 64");
    ASSERT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("Limited by registers"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("66.67 %"), std::string::npos) << r.out;
}

TEST(Cli, BadInputExitsTwoWithOneLine)
{
    const char* bad[] = {
        "occupancy --block 0",
        "occupancy --block 1025",
        "occupancy --block 64,32",
        "occupancy --regs 256",
        "occupancy --regs 12abc",
        "occupancy --smem-static -5",
        "occupancy --smem-static 49K",
        "occupancy --smem-dynamic 300K",
        "occupancy --arch sm_110",
        "occupancy --carveout 101",
        "occupancy --barriers -1",
        "occupancy --unknown-flag",
        "occupancy --block",
        "frobnicate",
        "screenshot",
        "screenshot --out /nonexistent-folder/x.png",
        "screenshot --out x.png --size 10x10",
        "screenshot --out x.png --view nowhere",
    };
    for (const char* arguments : bad) {
        const CommandResult r = run(arguments);
        EXPECT_EQ(r.exitCode, 2) << arguments << ": " << r.err;
        EXPECT_EQ(lineCount(r.err), 1) << arguments << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments;
    }
    EXPECT_NE(run("occupancy --regs 256").err.find("allowed: 1..255"), std::string::npos);
}

TEST(Cli, HelpOnEverySubcommand)
{
    for (const char* arguments : {"--help", "occupancy --help", "screenshot --help"}) {
        const CommandResult r = run(arguments);
        EXPECT_EQ(r.exitCode, 0) << arguments;
        EXPECT_NE(r.out.find("--"), std::string::npos) << arguments;
    }
    EXPECT_NE(run("occupancy --help").out.find("--smem-dynamic"), std::string::npos);
}
