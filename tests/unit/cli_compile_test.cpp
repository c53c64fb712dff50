// `warpscope compile` as a user runs it: PTX out, file:line:column diagnostics, exit codes 0/1/2.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::lineCount;

namespace {

CommandResult run(const std::string& arguments) { return warpscope::testing_support::runWarpscope(arguments); }

std::string readFile(const std::string& path)
{
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

const char* const vectorAdd = R"(extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
)";

// Line 3, column 12: a name that does not exist.
const char* const undefinedName = R"(extern "C" __global__ void scale(float* p)
{
    p[0] = undefinedScale * 2.0f;
}
)";

// Line 3, column 9: declared, never used.
const char* const unusedVariable = R"(extern "C" __global__ void fill(float* p)
{
    int unused;
    p[0] = 1.0f;
}
)";

// Source files in the temporary folder, named per process (ctest runs tests in parallel processes).
class CliCompile : public testing::Test {
protected:
    void SetUp() override
    {
        prefix = testing::TempDir() + "/warpscope_compile_" + std::to_string(getpid()) + "_";
        good = write("vector_add.cu", vectorAdd);
        broken = write("scale.cu", undefinedName);
        warns = write("fill.cu", unusedVariable);
        ptxOut = prefix + "out.ptx";
    }
    void TearDown() override
    {
        for (const std::string& path : {good, broken, warns, ptxOut})
            std::remove(path.c_str());
    }
    std::string write(const std::string& name, const char* text)
    {
        const std::string path = prefix + name;
        std::ofstream(path) << text;
        return path;
    }

    std::string prefix;
    std::string good;
    std::string broken;
    std::string warns;
    std::string ptxOut;
};

} // namespace

TEST_F(CliCompile, PtxGoesToStandardOutput)
{
    const CommandResult r = run("compile " + good);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(".entry vector_add"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(".loc"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(".target sm_75"), std::string::npos) << r.out; // the default, compute_75
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CliCompile, ArchReachesThePtx)
{
    const CommandResult r = run("compile " + good + " --arch compute_90");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(".target sm_90"), std::string::npos) << r.out;
}

TEST_F(CliCompile, OutWritesTheFileAndNothingToStandardOutput)
{
    const CommandResult r = run("compile " + good + " --out " + ptxOut);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(readFile(ptxOut).find(".entry vector_add"), std::string::npos);
}

TEST_F(CliCompile, SourceErrorsExitOneWithFileLineColumn)
{
    const CommandResult r = run("compile " + broken + " --out " + ptxOut);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err, broken + ":3:12: error: identifier \"undefinedScale\" is undefined\n");
    EXPECT_NE(access(ptxOut.c_str(), F_OK), 0) << "no PTX file when the source has errors";
}

TEST_F(CliCompile, WarningsGoToStandardErrorAndTheCompileSucceeds)
{
    const CommandResult r = run("compile " + warns);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(".entry fill"), std::string::npos);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(warns + ":3:9: warning: variable \"unused\"", 0), 0u) << r.err;
}

TEST_F(CliCompile, BadInputExitsTwoWithOneLine)
{
    const std::string missing = prefix + "missing.cu";
    const std::string bad[] = {
        "compile",
        "compile " + missing,
        "compile " + testing::TempDir(), // a folder
        "compile " + good + " --arch compute_99",
        "compile " + good + " --arch sm_75",
        "compile " + good + " --arch 75",
        "compile " + good + " --arch",
        "compile " + broken + " --arch compute_99", // bad input wins over errors in the source
        "compile " + good + " --out /nonexistent-folder/x.ptx",
        "compile " + broken + " --out /nonexistent-folder/x.ptx",
        "compile " + good + " --out " + good, // would overwrite the source
        "compile " + good + " --out " + testing::TempDir(),
        "compile " + good + " --out",
        "compile " + good + " --unknown-flag",
        "compile " + good + " " + good,
    };
    for (const std::string& arguments : bad) {
        const CommandResult r = run(arguments);
        EXPECT_EQ(r.exitCode, 2) << arguments << ": " << r.err;
        EXPECT_EQ(lineCount(r.err), 1) << arguments << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments;
    }
    EXPECT_NE(run("compile " + good + " --arch compute_99").err.find("allowed: compute_75"), std::string::npos);
    EXPECT_NE(run("compile " + missing).err.find(missing), std::string::npos);
    EXPECT_EQ(readFile(good), vectorAdd) << "the source is untouched";
}

// --check lists every construct the simulator cannot run yet, with PTX and source lines, and which
// kernels can run; exit 1 when there is one, 0 when there is none.
TEST_F(CliCompile, CheckListsEveryUnsupportedConstruct)
{
    const char* const source = R"(extern "C" __global__ void plain(float* p) { p[threadIdx.x] = 1.0f; }
extern "C" __global__ void fancy(float* p)
{
    unsigned e;
    asm volatile("brkpt;");
    asm volatile("mov.u32 %0, %%envreg3;" : "=r"(e));
    p[threadIdx.x] = e;
}
)";
    const std::string file = write("fancy.cu", source);
    const CommandResult r = run("compile " + file + " --check");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("fancy.cu:5) in kernel fancy: 'brkpt' is not supported by the simulator yet"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("fancy.cu:6) in kernel fancy: '%envreg3' (special register) is not supported"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("kernel plain can run on the simulator"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("kernel fancy cannot run yet (2 unsupported constructs)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(".version"), std::string::npos) << "no PTX on standard output with --check";

    const CommandResult clean = run("compile " + good + " --check");
    EXPECT_EQ(clean.exitCode, 0) << clean.err;
    EXPECT_NE(clean.out.find("every construct is supported by the simulator"), std::string::npos) << clean.out;
    std::remove(file.c_str());
}

TEST_F(CliCompile, Help)
{
    const CommandResult r = run("compile --help");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("--arch"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--out"), std::string::npos) << r.out;
    EXPECT_NE(run("--help").out.find("compile"), std::string::npos);
}
