// `warpscope compile` as a user runs it: PTX out, file:line:column diagnostics, exit codes 0/1/2.
#include "cli/cli_compile.h"
#include "cli_runner.h"
#include "ptx/sass_tools.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

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

TEST_F(CliCompile, AnSmArchNamesTheGpuAndItsPtx)
{
    const CommandResult r = run("compile " + good + " --arch sm_90");
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
        "compile " + good + " --arch sm_99",
        "compile " + good + " --json",           // JSON is for --sass
        "compile " + good + " --sass --check",   // one at a time
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

// --sass (issue 29): the SASS ptxas makes for the GPU, under the source lines nvdisasm gives, with
// the PTX lines of each source line. vector_add's line 5, c[i] = a[i] + b[i], loads two floats and
// stores one: two 32-bit global loads and one 32-bit global store in the SASS.
TEST_F(CliCompile, SassListsTheInstructionsOfEachSourceLine)
{
    if (!warpscope::ptx::findNvdisasm())
        GTEST_SKIP() << warpscope::ptx::nvdisasmMissingMessage();
    const CommandResult r = run("compile " + good + " --sass --arch sm_90 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json document = nlohmann::json::parse(r.out);
    EXPECT_EQ(document["arch"], "sm_90");
    ASSERT_EQ(document["functions"].size(), 1u);
    const nlohmann::json& kernel = document["functions"][0];
    EXPECT_EQ(kernel["name"], "vector_add");
    EXPECT_TRUE(kernel["entry"].get<bool>());
    EXPECT_GT(kernel["ptxas"]["registers"].get<int>(), 0);
    EXPECT_EQ(kernel["ptxas"]["static_shared_bytes"], 0);
    EXPECT_EQ(kernel["ptxas"]["spill_store_bytes"], 0);

    // The PTX of the same compile, to check each instruction's PTX lines against.
    const CommandResult ptxRun = run("compile " + good + " --arch sm_90");
    ASSERT_EQ(ptxRun.exitCode, 0) << ptxRun.err;
    std::vector<std::string> ptxLines{""};
    for (std::size_t at = 0; at < ptxRun.out.size();) {
        const std::size_t end = ptxRun.out.find('\n', at);
        ptxLines.push_back(ptxRun.out.substr(at, end - at));
        at = end == std::string::npos ? ptxRun.out.size() : end + 1;
    }
    int loads = 0;
    int stores = 0;
    for (const nlohmann::json& instruction : kernel["instructions"]) {
        if (!instruction.contains("memory") || instruction["memory"]["space"] != "global")
            continue;
        EXPECT_EQ(instruction["line"], 5) << instruction.dump();
        EXPECT_EQ(instruction["memory"]["width_bits"], 32) << instruction.dump();
        loads += instruction["memory"]["load"].get<bool>();
        stores += instruction["memory"]["store"].get<bool>();
        bool hasTheAccess = false;
        for (const nlohmann::json& line : instruction["ptx_lines"]) {
            ASSERT_LT(line.get<std::size_t>(), ptxLines.size());
            const std::string& text = ptxLines[line.get<std::size_t>()];
            hasTheAccess |= text.find(instruction["memory"]["load"].get<bool>() ? "ld.global" : "st.global") !=
                            std::string::npos;
        }
        EXPECT_TRUE(hasTheAccess) << instruction.dump();
    }
    EXPECT_EQ(loads, 2);
    EXPECT_EQ(stores, 1);

    const CommandResult text = run("compile " + good + " --sass --arch sm_90");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("kernel vector_add: "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("vector_add.cu:5 (PTX lines "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("LDG.E "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("STG.E "), std::string::npos) << text.out;
}

TEST_F(CliCompile, SassOfAPtxFileAsItIs)
{
    if (!warpscope::ptx::findNvdisasm())
        GTEST_SKIP() << warpscope::ptx::nvdisasmMissingMessage();
    ASSERT_EQ(run("compile " + good + " --arch compute_80 --out " + ptxOut).exitCode, 0);
    const CommandResult r = run("compile " + ptxOut + " --sass --arch sm_80");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("// SASS for sm_80 of " + ptxOut), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("kernel vector_add: "), std::string::npos) << r.out;
    // PTX for a newer GPU than --arch: ptxas's own message, exit 1.
    ASSERT_EQ(run("compile " + good + " --arch compute_90 --out " + ptxOut).exitCode, 0);
    const CommandResult newer = run("compile " + ptxOut + " --sass --arch sm_80");
    EXPECT_EQ(newer.exitCode, 1);
    EXPECT_NE(newer.err.find("ptxas"), std::string::npos) << newer.err;
    EXPECT_TRUE(newer.out.empty()) << newer.out;
}

TEST_F(CliCompile, SassWithoutNvdisasmSaysHowToGetIt)
{
    const std::string empty = prefix + "no-tools";
    // Each variable is put back as it was, so the tests after this one in the same process find the tools.
    struct Saved {
        const char* name;
        std::optional<std::string> value;
        ~Saved() { value ? setenv(name, value->c_str(), 1) : unsetenv(name); }
    };
    auto save = [](const char* name) {
        const char* value = std::getenv(name);
        return Saved{name, value ? std::optional<std::string>(value) : std::nullopt};
    };
    const Saved cudaHome = save("CUDA_HOME"), dataHome = save("XDG_DATA_HOME"), path = save("PATH");
    setenv("CUDA_HOME", empty.c_str(), 1);
    setenv("XDG_DATA_HOME", empty.c_str(), 1);
    setenv("PATH", empty.c_str(), 1); // the child is started by path, and finds neither tool on PATH
    const bool toolkitHasIt = warpscope::ptx::findNvdisasm().has_value();
    const CommandResult r = toolkitHasIt ? CommandResult{} : run("compile " + good + " --sass --arch sm_90");
    if (path.value)
        setenv("PATH", path.value->c_str(), 1); // for the checks below; the rest when the test ends
    if (toolkitHasIt)
        GTEST_SKIP() << "the toolkit this build uses has its own nvdisasm, so it cannot be missing here";
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("scripts/setup.sh"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(empty + "/warpscope/nvdisasm/bin"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

// ptxas's own registers for `sim --json` (cli::ptxasResourcesJson): the count ptxas -v prints when run
// here directly, labelled as ptxas's; a kernel ptxas did not report says so instead of numbers.
TEST_F(CliCompile, PtxasResourcesForSimAreWhatPtxasPrints)
{
    const std::optional<std::filesystem::path> ptxas = warpscope::ptx::findPtxas();
    if (!ptxas)
        GTEST_SKIP() << warpscope::ptx::ptxasMissingMessage();
    ASSERT_EQ(run("compile " + good + " --out " + ptxOut).exitCode, 0);
    const std::string log = prefix + "ptxas.log";
    const std::string command = ptxas->string() + " -v -arch sm_90 " + ptxOut + " -o /dev/null 2>" + log;
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const std::string printed = readFile(log);
    std::remove(log.c_str());
    const auto used = printed.find("Used ");
    ASSERT_NE(used, std::string::npos) << printed;
    const int registers = std::atoi(printed.c_str() + used + 5);
    ASSERT_GT(registers, 0) << printed;

    const nlohmann::json entry = warpscope::cli::ptxasResourcesJson(readFile(ptxOut), "vector_add", "sm_90");
    EXPECT_EQ(entry["registers"], registers) << entry.dump();
    EXPECT_EQ(entry["static_shared_bytes"], 0) << entry.dump();
    EXPECT_EQ(entry["spill_store_bytes"], 0) << entry.dump();
    EXPECT_NE(entry["source"].get<std::string>().find("ptxas -v for sm_90"), std::string::npos) << entry.dump();
    EXPECT_FALSE(entry.contains("unavailable")) << entry.dump();

    const nlohmann::json missing = warpscope::cli::ptxasResourcesJson(readFile(ptxOut), "no_such_kernel", "sm_90");
    EXPECT_EQ(missing["unavailable"], "ptxas reported no function named no_such_kernel") << missing.dump();
    EXPECT_FALSE(missing.contains("registers"));
}
