// The PTX ISA's target rules: the least .version each .target needs, the targets that exist, and
// which GPUs run arch- and family-specific PTX. Expectations are the PTX ISA's target table and what
// NVRTC itself writes for compute_100 and compute_120.
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "ptx/ptx_target.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpscope;
using namespace warpscope::ptx;

namespace {

std::string moduleText(const std::string& version, const std::string& target)
{
    return ".version " + version + "\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{\n    ret;\n}\n";
}

std::string errorOf(const std::string& text)
{
    try {
        parseModule(text);
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

} // namespace

TEST(PtxTarget, BlackwellTargetsNeedTheirPtxIsaVersions)
{
    // PTX ISA: sm_100 and sm_100a from 8.6, sm_120 and sm_120a from 8.7, the family targets from 8.8.
    EXPECT_EQ(parseModule(moduleText("8.6", "sm_100")).target, "sm_100");
    EXPECT_EQ(parseModule(moduleText("8.7", "sm_120")).target, "sm_120");
    EXPECT_EQ(parseModule(moduleText("8.8", "sm_100f")).target, "sm_100f");
    EXPECT_EQ(parseModule(moduleText("9.0", "sm_120a")).target, "sm_120a");
    EXPECT_EQ(errorOf(moduleText("8.5", "sm_100")),
              "PTX line 2: PTX .target sm_100 needs .version 8.6 or later (PTX ISA); the module has .version 8.5");
    EXPECT_NE(errorOf(moduleText("8.6", "sm_120")).find("needs .version 8.7"), std::string::npos);
    EXPECT_NE(errorOf(moduleText("8.7", "sm_120f")).find("needs .version 8.8"), std::string::npos);
    EXPECT_NE(errorOf(moduleText("7.8", "sm_90a")).find("needs .version 8.0"), std::string::npos);
    // Older pairs the repository's own PTX uses stay accepted.
    for (const auto& [version, target] : {std::pair{"6.0", "sm_70"}, {"6.3", "sm_75"}, {"7.0", "sm_80"}, {"7.8", "sm_90"}, {"8.0", "sm_90a"}})
        EXPECT_EQ(errorOf(moduleText(version, target)), "") << target;
}

TEST(PtxTarget, UnknownTargetsAreRefusedWithTheList)
{
    const std::string error = errorOf(moduleText("9.0", "sm_91"));
    EXPECT_NE(error.find("PTX .target sm_91 is not a target of the PTX ISA (allowed: sm_50,"), std::string::npos) << error;
    EXPECT_NE(error.find("sm_100, sm_100a, sm_100f"), std::string::npos) << error;
    EXPECT_FALSE(parseTarget("sm_89a").has_value()); // only sm_90 and later have an 'a' form
    EXPECT_FALSE(parseTarget("sm_90f").has_value()); // families begin with sm_100
    EXPECT_FALSE(parseTarget("compute_90").has_value());
    EXPECT_FALSE(parseTarget("sm_090").has_value());
}

TEST(PtxTarget, WhichGpusRunWhichPtx)
{
    // Portable PTX runs on its architecture and every later one; sm_90a only on 9.0; sm_100f on the
    // 10.x family from 10.0 (10.0 and 10.3), not on 12.0 (CUDA Programming Guide, feature sets).
    const PtxTarget sm90 = *parseTarget("sm_90");
    EXPECT_TRUE(targetRunsOn(sm90, 9, 0));
    EXPECT_TRUE(targetRunsOn(sm90, 10, 0));
    EXPECT_TRUE(targetRunsOn(sm90, 12, 0));
    EXPECT_FALSE(targetRunsOn(sm90, 8, 9));
    const PtxTarget sm90a = *parseTarget("sm_90a");
    EXPECT_TRUE(targetRunsOn(sm90a, 9, 0));
    EXPECT_FALSE(targetRunsOn(sm90a, 10, 0));
    const PtxTarget sm100f = *parseTarget("sm_100f");
    EXPECT_TRUE(targetRunsOn(sm100f, 10, 0));
    EXPECT_TRUE(targetRunsOn(sm100f, 10, 3));
    EXPECT_FALSE(targetRunsOn(sm100f, 12, 0));
    const PtxTarget sm103f = *parseTarget("sm_103f");
    EXPECT_FALSE(targetRunsOn(sm103f, 10, 0));
    const PtxTarget sm120 = *parseTarget("sm_120");
    EXPECT_TRUE(targetRunsOn(sm120, 12, 0));
    EXPECT_FALSE(targetRunsOn(sm120, 10, 0));
}

TEST(PtxTarget, NvrtcPtxForBlackwellIsAccepted)
{
    // NVRTC's own output for the two Blackwell architectures: the simulator reads it.
    const char* source = "extern \"C\" __global__ void scale(float* p) { p[threadIdx.x] *= 2.0f; }\n";
    for (const char* arch : {"compute_100", "compute_120"}) {
        if (!isKnownVirtualArch(arch))
            GTEST_SKIP() << "this NVRTC does not know " << arch;
        CompileOptions options;
        options.arch = arch;
        const CompileResult compiled = compileCuda(source, "scale.cu", options);
        ASSERT_TRUE(compiled.ok) << compiled.log;
        const Module module = parseModule(compiled.ptx);
        EXPECT_EQ(module.target, "sm_" + std::string(arch).substr(8)) << arch;
    }
}
