// --warp-model on `warpscope sim` and `warpscope step`, as a user runs them: the spin lock inside a
// warp is a livelock under the reconvergence stack (exit 1, one line saying why) and completes with
// independent thread scheduling; the stepper's state carries each lane's pc. Expectations are worked
// out by hand from the kernel (kernels/warp_scheduling) and its PTX.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <string>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::lineCount;
using warpscope::testing_support::runWarpscope;

TEST(CliWarpModel, SpinLockIsALivelockUnderTheStackModelAndSaysWhy)
{
    const CommandResult r = runWarpscope("sim warp_spin_lock --no-timing");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("warpscope sim: livelock: warp_livelock at PTX line ")) << r.err;
    EXPECT_NE(r.err.find("(warp_scheduling.cu:14)"), std::string::npos) << r.err; // the while (atomicCAS ...) line
    EXPECT_NE(r.err.find("lanes 1-31 of warp 0 spin in this loop"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("waits at warp_scheduling.cu:18 until the spinning path is done"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("so it never runs lane 0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--warp-model its"), std::string::npos) << r.err;
}

// 64 threads add i + 1 each: 64 x 65 / 2 = 2,080.
TEST(CliWarpModel, SpinLockCompletesWithIndependentThreadScheduling)
{
    const CommandResult dump = runWarpscope("sim warp_spin_lock --warp-model its --no-timing --dump total");
    EXPECT_EQ(dump.exitCode, 0) << dump.err;
    EXPECT_EQ(dump.out, "2080\n");
    EXPECT_EQ(dump.err, "");

    const CommandResult json = runWarpscope("sim warp_spin_lock --warp-model its --no-timing --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const nlohmann::json doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["warp_model"], "its");
    EXPECT_EQ(doc["status"], "completed");
    EXPECT_TRUE(doc["hazards"].empty());

    const CommandResult text = runWarpscope("sim warp_spin_lock --warp-model its --no-timing");
    EXPECT_NE(text.out.find("with independent thread scheduling"), std::string::npos) << text.out;
}

TEST(CliWarpModel, AnUnknownWarpModelIsOneLineAndExitTwo)
{
    const CommandResult r = runWarpscope("sim vector_add --warp-model simt");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "warpscope sim: --warp-model 'simt' is not a warp model (allowed: stack, its)\n");
    const CommandResult step = runWarpscope("step vector_add --warp-model volta");
    EXPECT_EQ(step.exitCode, 2);
    EXPECT_EQ(lineCount(step.err), 1) << step.err;
}

// n = 32: warp 0 runs 11 instructions to the loop, then an iteration of 5 in which lane 0 wins the
// lock; lanes 1-31 loop once more (instructions 16-20) with the same registers, so at instruction 21
// they are set aside at the loop's first instruction, and lane 0, at the critical section, runs alone.
TEST(CliWarpModel, StepShowsEachLanesPcAndTheGroupThatRunsNext)
{
    const CommandResult r = runWarpscope("step warp_spin_lock --warp-model its --arg n=i32:32 --at 21 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["warp_model"], "its");
    ASSERT_EQ(doc["lane_pcs"].size(), 32u);
    const int section = doc["lane_pcs"][0].get<int>();
    const int loopHead = doc["lane_pcs"][1].get<int>();
    EXPECT_EQ(section, doc["pc"].get<int>()) << r.out; // lane 0 issues the next instruction
    EXPECT_EQ(doc["line"], 18);                            // *sum = *sum + i + 1
    EXPECT_EQ(section - loopHead, 5) << "the loop is 5 instructions long";
    for (int lane = 1; lane < 32; ++lane)
        EXPECT_EQ(doc["lane_pcs"][lane].get<int>(), loopHead) << lane;
    EXPECT_EQ(doc["groups"], 2);
    EXPECT_EQ(doc["next_group"], "0x00000001");
    EXPECT_EQ(doc["active_mask"], "0x00000001");

    // Under the stack model the same state has no lane pcs, and the livelock is named on stderr.
    const CommandResult stack = runWarpscope("step warp_spin_lock --arg n=i32:32 --at 21 --json");
    ASSERT_EQ(stack.exitCode, 0) << stack.err;
    const nlohmann::json stackDoc = nlohmann::json::parse(stack.out);
    EXPECT_EQ(stackDoc["warp_model"], "stack");
    EXPECT_FALSE(stackDoc.contains("lane_pcs"));
    EXPECT_NE(stack.err.find("warpscope step: livelock: warp_livelock"), std::string::npos) << stack.err;
}
