// --arch as a user meets it: the help lists every GPU preset there is (B200 and RTX 5090 included),
// and PTX for an architecture-specific target runs only on that GPU, as the PTX ISA's target rules
// say (sm_90a: compute capability 9.0 only), refused in one line with exit 2 elsewhere.
#include "cli_runner.h"
#include "gpu/gpu_preset.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::lineCount;
using warpscope::testing_support::runWarpscope;

namespace {

// Thread i writes i; .version 8.0 is the least sm_90a allows (PTX ISA).
std::string fillFile(const std::string& target, const std::string& version)
{
    const std::string path = testing::TempDir() + "/fill_" + target + ".ptx";
    std::ofstream(path) << ".version " << version << "\n.target " << target << "\n.address_size 64\n\n"
                        << R"(.visible .entry fill(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r1;
    ret;
}
)";
    return path;
}

} // namespace

TEST(CliArch, HelpListsEveryPreset)
{
    for (const char* command : {"sim", "step", "occupancy"}) {
        const CommandResult help = runWarpscope(std::string(command) + " --help");
        ASSERT_EQ(help.exitCode, 0) << help.err;
        for (const char* preset : {"sm_70 (V100)", "sm_90 (H100 SXM)", "sm_100 (B200)", "sm_120 (RTX 5090)"})
            EXPECT_NE(help.out.find(preset), std::string::npos) << command << ": " << preset << "\n" << help.out;
        for (const warpscope::gpu::GpuPreset& preset : warpscope::gpu::allPresets())
            EXPECT_NE(help.out.find(std::string(preset.arch) + " (" + std::string(preset.name) + ")"), std::string::npos)
                << command << ": " << preset.arch;
        EXPECT_EQ(help.out.find("sm_70 .. sm_90"), std::string::npos) << command;
    }
}

TEST(CliArch, ArchitectureSpecificPtxRunsOnlyOnItsGpu)
{
    const std::string path = fillFile("sm_90a", "8.0");
    const std::string launch = "sim " + path + " --grid 1 --block 32 --arg 'out=u32[32]' --dump out --arch ";
    const CommandResult h100 = runWarpscope(launch + "sm_90");
    ASSERT_EQ(h100.exitCode, 0) << h100.err;
    EXPECT_EQ(h100.out.substr(0, 6), "0\n1\n2\n");
    // Newer is not enough for sm_90a, and older never is.
    for (const char* arch : {"sm_100", "sm_120", "sm_80"}) {
        const CommandResult refused = runWarpscope(launch + arch);
        EXPECT_EQ(refused.exitCode, 2) << arch << ": " << refused.err;
        EXPECT_EQ(lineCount(refused.err), 1) << refused.err;
        EXPECT_NE(refused.err.find("the PTX targets sm_90a, which runs only on compute capability 9.0, and " + std::string(arch)),
                  std::string::npos)
            << refused.err;
        EXPECT_TRUE(refused.out.empty()) << refused.out;
    }
    // Portable sm_90 PTX runs on the Blackwell GPUs too.
    const std::string portable = fillFile("sm_90", "7.8");
    const CommandResult b200 = runWarpscope("sim " + portable + " --grid 1 --block 32 --arg 'out=u32[32]' --dump out --arch sm_100");
    EXPECT_EQ(b200.exitCode, 0) << b200.err;
    const CommandResult step = runWarpscope("step " + path + " --grid 1 --block 32 --arg 'out=u32[32]' --arch sm_100");
    EXPECT_EQ(step.exitCode, 2) << step.err;
    EXPECT_EQ(lineCount(step.err), 1) << step.err;
}
