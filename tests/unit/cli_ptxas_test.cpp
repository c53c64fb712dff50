// What ptxas knows, in `warpscope sim` (issue 29, sections 3 and 5): the timing model's blocks per SM
// rest on ptxas's register count for the --arch GPU unless --regs says otherwise, and a shuffle that
// reads an inactive lane names the SASS SHFL and the register it reads there. Expectations: the
// occupancy calculator (cuda_occupancy.h's rules), worked by hand, and nvdisasm's own listing.
#include "cli_runner.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::runWarpscope;

namespace {

// reduce7's tail (NVIDIA's reduction sample, sm_75 path) in small: member mask 0xff, offset 16 first,
// so lanes 0-7 read lanes 16-23, which do not execute the shuffle.
std::string reduceTailFile()
{
    return WARPSCOPE_FIXTURES_DIR "/kernels/reduce_tail.cu";
}

} // namespace

// matmul_2d_blocktile: 256 threads (8 warps) and 8 KB of tiles. ptxas gives it more than 128 registers
// on sm_90; by hand, 129..255 registers are 4,352..8,192 per warp, so a 16,384-register sub-partition
// holds 2 or 3 warps, 8..12 per SM: one block of 8. At 32 registers (--regs 32) the 2,048-thread
// limit binds: 8 blocks.
TEST(CliSimPtxas, BlocksPerSmUsePtxassRegisterCountUnlessRegsIsGiven)
{
    if (!warpscope::ptx::findPtxas())
        GTEST_SKIP() << warpscope::ptx::ptxasMissingMessage();
    const CommandResult json = runWarpscope("sim matmul_2d_blocktile --arch sm_90 --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    const int registers = doc["ptxas"]["registers"].get<int>();
    ASSERT_GE(registers, 129);
    ASSERT_LE(registers, 255);
    const auto& timing = doc["timing_model"];
    EXPECT_EQ(timing["registers_per_thread"], registers);
    EXPECT_EQ(timing["registers_per_thread_source"], "ptxas");
    EXPECT_EQ(timing["resident_blocks_per_sm"], 1);
    // The occupancy calculator agrees at that count and the kernel's static shared memory.
    const CommandResult occupancy = runWarpscope(
        "occupancy --arch sm_90 --block 256 --regs " + std::to_string(registers) + " --smem-static " +
        std::to_string(doc["ptxas"]["static_shared_bytes"].get<int>()) + " --barriers 1 --json");
    ASSERT_EQ(occupancy.exitCode, 0) << occupancy.err;
    EXPECT_EQ(nlohmann::json::parse(occupancy.out)["blocks_per_sm"], timing["resident_blocks_per_sm"]);

    const CommandResult text = runWarpscope("sim matmul_2d_blocktile --arch sm_90");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("; 1 block per SM with ptxas's " + std::to_string(registers) + " registers per thread;"),
              std::string::npos)
        << text.out;

    const CommandResult given = runWarpscope("sim matmul_2d_blocktile --arch sm_90 --regs 32 --json");
    ASSERT_EQ(given.exitCode, 0) << given.err;
    const auto givenDoc = nlohmann::json::parse(given.out);
    const auto& givenTiming = givenDoc["timing_model"];
    EXPECT_EQ(givenTiming["registers_per_thread"], 32);
    EXPECT_EQ(givenTiming["registers_per_thread_source"], "--regs");
    EXPECT_EQ(givenTiming["resident_blocks_per_sm"], 8);
    const CommandResult givenText = runWarpscope("sim matmul_2d_blocktile --arch sm_90 --regs 32");
    EXPECT_NE(givenText.out.find("; 8 blocks per SM with --regs's 32 registers per thread;"), std::string::npos)
        << givenText.out;
}

// The hazard names the SHFL.DOWN by 16 that nvdisasm lists for the kernel and the register it reads
// in the source lane, in the summary and in --json; the reduction's result still comes out.
TEST(CliSimPtxas, AnInactiveSourceShuffleShowsItsSassAndSourceRegister)
{
    const std::string source = reduceTailFile();
    const std::string launch = "sim " + source + " --arch sm_90 --grid 1 --block 32 --arg 'in=i32[32]:iota' --arg 'out=i32[1]'";
    const CommandResult text = runWarpscope(launch);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("shfl_inactive_source"), std::string::npos) << text.out;
    if (!warpscope::ptx::findPtxas() || !warpscope::ptx::findNvdisasm()) {
        // One line saying why, and how to get it.
        EXPECT_NE(text.out.find("      SASS not available: "), std::string::npos) << text.out;
        EXPECT_NE(text.out.find("scripts/setup.sh"), std::string::npos) << text.out;
        GTEST_SKIP() << warpscope::ptx::nvdisasmMissingMessage();
    }
    // The expectation from nvdisasm itself: the kernel's SHFL.DOWN with offset 0x10, and its third
    // operand, the register the reading lane gets from the source lane.
    const CommandResult ptx = runWarpscope("compile " + source);
    ASSERT_EQ(ptx.exitCode, 0) << ptx.err;
    warpscope::ptx::SassOptions options;
    options.arch = "sm_90";
    const warpscope::ptx::SassListing listing = warpscope::ptx::compileSass(ptx.out, options);
    std::string shfl;
    for (const warpscope::ptx::SassInstruction& instruction : listing.findFunction("reduce_tail")->instructions)
        if (instruction.opcode == "SHFL.DOWN" && instruction.operands.find(", 0x10,") != std::string::npos)
            shfl = instruction.text();
    ASSERT_FALSE(shfl.empty());
    std::vector<std::string> operands;
    for (std::size_t at = 0, comma; at <= shfl.size(); at = comma + 2) {
        comma = shfl.find(", ", at);
        operands.push_back(shfl.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos)
            break;
    }
    ASSERT_GE(operands.size(), 3u) << shfl;
    const std::string expected = "SASS for sm_90: " + shfl;
    EXPECT_NE(text.out.find("      " + expected), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("it reads " + operands[2] + " in the source lane"), std::string::npos) << text.out;

    const CommandResult json = runWarpscope(launch + " --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    bool found = false;
    for (const auto& hazard : doc["hazards"]) {
        ASSERT_EQ(hazard["kind"], "shfl_inactive_source");
        ASSERT_TRUE(hazard["sass"].is_string()) << hazard.dump();
        if (hazard["sass"].get<std::string>().find(expected) == 0)
            found = hazard["lanes"] == nlohmann::json::array({0, 1, 2, 3, 4, 5, 6, 7}) &&
                    hazard["other_lanes"] == nlohmann::json::array({16, 17, 18, 19, 20, 21, 22, 23});
    }
    EXPECT_TRUE(found) << json.out;
}

// Without nvdisasm the hazard still prints, with one line saying the SASS is not available and how
// to get it (the child finds no tool through CUDA_HOME, PATH or setup.sh's folder).
TEST(CliSimPtxas, WithoutNvdisasmTheHazardSaysHowToGetTheSass)
{
    const std::string source = reduceTailFile();
    const std::string empty = testing::TempDir() + "/no-sass-tools";
    const auto keep = [](const char* name) { const char* value = std::getenv(name); return value ? std::optional<std::string>(value) : std::nullopt; };
    const std::optional<std::string> cudaHome = keep("CUDA_HOME"), dataHome = keep("XDG_DATA_HOME"), path = keep("PATH");
    setenv("CUDA_HOME", empty.c_str(), 1);
    setenv("XDG_DATA_HOME", empty.c_str(), 1);
    setenv("PATH", empty.c_str(), 1);
    const bool toolkitHasIt = warpscope::ptx::findNvdisasm().has_value();
    const CommandResult r = toolkitHasIt ? CommandResult{}
                                         : runWarpscope("sim " + source + " --grid 1 --block 32 --arg 'in=i32[32]:iota' "
                                                        "--arg 'out=i32[1]'");
    const auto restore = [](const char* name, const std::optional<std::string>& value) {
        if (value)
            setenv(name, value->c_str(), 1);
        else
            unsetenv(name);
    };
    restore("CUDA_HOME", cudaHome);
    restore("XDG_DATA_HOME", dataHome);
    restore("PATH", path);
    if (toolkitHasIt)
        GTEST_SKIP() << "the toolkit this build uses has its own nvdisasm, so it cannot be missing here";
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::size_t hazard = r.out.find("    shfl_inactive_source at PTX line");
    ASSERT_NE(hazard, std::string::npos) << r.out;
    const std::size_t next = r.out.find('\n', hazard) + 1;
    const std::string line = r.out.substr(next, r.out.find('\n', next) - next);
    EXPECT_EQ(line.rfind("      SASS not available: nvdisasm, which shows the SASS, was not found", 0), 0u) << r.out;
    EXPECT_NE(line.find("run scripts/setup.sh"), std::string::npos) << line;
    EXPECT_EQ(r.out.find("SASS for sm_90"), std::string::npos) << r.out;
}

// `warpscope step` shows the timing model's cycles at ptxas's registers, as `sim` does (they set how
// many loads a warp's schedule keeps in flight, and blocks per SM): the last issue of block 0's
// warp 0 comes at the cycle sim's own timeline gives it, and not at the one for 32 registers.
TEST(CliStepPtxas, IssueCyclesUsePtxassRegisterCountAsSimDoes)
{
    if (!warpscope::ptx::findPtxas())
        GTEST_SKIP() << warpscope::ptx::ptxasMissingMessage();
    auto lastIssueCycle = [](const std::string& extra) -> std::optional<std::uint64_t> {
        const std::string path = testing::TempDir() + "/warpscope_step_ptxas_" + std::to_string(::getpid()) + ".json";
        const CommandResult sim = runWarpscope("sim matmul_2d_blocktile --arch sm_90 --trace-blocks 0 --perfetto " + path + extra);
        EXPECT_EQ(sim.exitCode, 0) << sim.err;
        std::ifstream in(path);
        const auto trace = nlohmann::json::parse(in, nullptr, false);
        std::remove(path.c_str());
        std::optional<std::uint64_t> last;
        for (const auto& event : trace["traceEvents"])
            if (event.value("ph", "") == "X" && event.value("cat", "") == "instruction" && event.value("tid", -1) == 1)
                last = event["args"]["cycle"].get<std::uint64_t>();
        return last;
    };
    const std::optional<std::uint64_t> atPtxas = lastIssueCycle("");
    const std::optional<std::uint64_t> at32 = lastIssueCycle(" --regs 32");
    ASSERT_TRUE(atPtxas && at32);
    ASSERT_NE(*atPtxas, *at32); // the count matters for this kernel

    const CommandResult first = runWarpscope("step matmul_2d_blocktile --arch sm_90 --at 0 --json");
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const std::uint64_t steps = nlohmann::json::parse(first.out)["steps_in_warp"].get<std::uint64_t>();
    const CommandResult last = runWarpscope("step matmul_2d_blocktile --arch sm_90 --at " + std::to_string(steps - 1) + " --json");
    ASSERT_EQ(last.exitCode, 0) << last.err;
    EXPECT_EQ(nlohmann::json::parse(last.out)["cycle_model"].get<std::uint64_t>(), *atPtxas);
}
