// `warpscope profile` around the probe's process, with stand-ins for ssh and the probe: --remote
// runs `ssh HOST warpscope-probe ...` and every argument arrives intact (spaces, quotes, `$(...)`);
// a lost connection, a probe that hangs and Ctrl+C each end with what was read kept.
#include "cli_runner.h"
#include "session/session_io.h"
#include "util/remote_command.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using warpscope::shellQuote;
using warpscope::testing_support::runWarpscope;

namespace {

struct Scratch {
    std::filesystem::path dir;
    Scratch()
    {
        dir = std::filesystem::path(testing::TempDir()) /
              ("cli_remote_" + std::to_string(getpid()) + "_" + testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
    }
    ~Scratch()
    {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    std::string path(const std::string& name) const { return (dir / name).string(); }
    std::string script(const std::string& name, const std::string& body) const
    {
        const std::string file = path(name);
        std::ofstream(file) << "#!/bin/sh\n" << body;
        chmod(file.c_str(), 0755);
        return file;
    }
};

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// A stand-in ssh that does what ssh does with a command: skips its options, takes the host, and
// hands the rest, joined by spaces, to a shell (there: the remote user's shell; here: sh -c). It
// notes the host it was given.
std::string standInSsh(const Scratch& scratch, const std::string& extra = "")
{
    scratch.script("ssh", "while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -T) shift;; *) break;; esac; done\n"
                          "printf '%s\\n' \"$1\" > " + shellQuote(scratch.path("host.txt")) + "\nshift\n" + extra +
                          "exec sh -c \"$*\"\n");
    return "--version >/dev/null; PATH=" + shellQuote(scratch.dir.string()) + ":\"$PATH\" " + std::string(WARPSCOPE_BINARY);
}

const std::string kFixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/ladder.wsprof";

} // namespace

TEST(CliRemote, TheProbeRunsThroughSshWithEveryArgumentAsGiven)
{
    Scratch scratch;
    // The remote probe: a path with a space; it notes its arguments and prints a recorded session.
    const std::string probe = scratch.script("remote probe", "printf '%s\\n' \"$@\" > " + shellQuote(scratch.path("args.txt")) +
                                                                 "\ncat " + shellQuote(kFixture) + "\n");
    const std::string hostile = "/tmp/my kernels/it's \"$(touch " + scratch.path("pwned") + ")\" `id`.cu";
    const std::string prefix = standInSsh(scratch);
    const auto result = runWarpscope("ignored; " + prefix + " profile --remote ada@gpu-box.example --probe " +
                                     shellQuote(probe) + " --kernel 'k; rm -rf x' --arg " + shellQuote("n=i32:4096") +
                                     " " + shellQuote(hostile));
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(scratch.path("host.txt")), "ada@gpu-box.example\n");
    const std::vector<std::string> args = lines(readFile(scratch.path("args.txt")));
    ASSERT_FALSE(args.empty()) << result.err;
    EXPECT_EQ(args.back(), hostile);
    bool kernelIntact = false;
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        kernelIntact = kernelIntact || (args[i] == "--kernel" && args[i + 1] == "k; rm -rf x");
    EXPECT_TRUE(kernelIntact);
    EXPECT_FALSE(std::filesystem::exists(scratch.path("pwned"))) << "a $(...) in an argument ran";
    // The stream is the file: the summary of the recorded session.
    EXPECT_NE(result.out.find("fixture-host"), std::string::npos) << result.out;
}

// --compute reaches the remote probe as given.
TEST(CliRemote, ComputeReachesTheRemoteProbe)
{
    Scratch scratch;
    const std::string probe = scratch.script("probe", "printf '%s\\n' \"$@\" > " + shellQuote(scratch.path("args.txt")) +
                                                          "\ncat " + shellQuote(kFixture) + "\n");
    const auto result = runWarpscope("ignored; " + standInSsh(scratch) + " profile --remote gpu-box --probe " + shellQuote(probe) +
                                     " --compute compute_90 kernel.cu");
    EXPECT_EQ(result.exitCode, 0) << result.err;
    const std::vector<std::string> args = lines(readFile(scratch.path("args.txt")));
    bool passed = false;
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        passed = passed || (args[i] == "--compute" && args[i + 1] == "compute_90");
    EXPECT_TRUE(passed) << readFile(scratch.path("args.txt"));
    ASSERT_FALSE(args.empty());
    EXPECT_EQ(args.back(), "kernel.cu");
}

TEST(CliRemote, ABadHostIsRefusedBeforeSshStarts)
{
    for (const std::string host : {"-oProxyCommand=touch%20x", "", "a b", "a@b@c", "host;id"}) {
        const auto result = runWarpscope("profile vector_add --remote " + shellQuote(host));
        EXPECT_EQ(result.exitCode, 2) << host << ": " << result.err;
        EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << result.err;
        EXPECT_NE(result.err.find("--remote"), std::string::npos) << result.err;
    }
}

TEST(CliRemote, ALostConnectionKeepsWhatWasRead)
{
    Scratch scratch;
    // The connection drops after three records: ssh says so on stderr and exits 255.
    scratch.script("ssh", "head -n 3 " + shellQuote(kFixture) + "\necho 'Connection to gpu-box closed by remote host.' >&2\nexit 255\n");
    const std::string saved = scratch.path("kept.wsprof");
    const auto result = runWarpscope("--version >/dev/null; PATH=" + shellQuote(scratch.dir.string()) + ":\"$PATH\" " +
                                     WARPSCOPE_BINARY + " profile vector_add --remote gpu-box --out " + shellQuote(saved));
    EXPECT_EQ(result.exitCode, 1) << result.err;
    EXPECT_NE(result.err.find("Connection to gpu-box closed by remote host."), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("ssh to gpu-box failed or the connection was lost (ssh exit 255"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("kept in " + saved), std::string::npos) << result.err;
    EXPECT_EQ(lines(readFile(saved)).size(), 3u);
}

TEST(CliRemote, AProbeMissingOnTheHostIsNamed)
{
    Scratch scratch;
    const std::string prefix = standInSsh(scratch);
    const auto result = runWarpscope("ignored; " + prefix + " profile vector_add --remote gpu-box --probe /nonexistent/warpscope-probe");
    EXPECT_EQ(result.exitCode, 1) << result.err;
    EXPECT_NE(result.err.find("/nonexistent/warpscope-probe was not found on gpu-box"), std::string::npos) << result.err;
}

TEST(CliRemote, AProbeThatHangsIsStoppedAndWhatItWroteIsKept)
{
    Scratch scratch;
    // One record, then silence: a child that would outlive a killed shell, but not its group. The
    // child's pid is written down so the test can see that it was stopped, not waited for.
    const std::string sleeper = scratch.path("sleeper.pid");
    const std::string probe = scratch.script("probe", "head -n 1 " + shellQuote(kFixture) + "\nsleep 60 &\necho $! > " +
                                                          shellQuote(sleeper) + "\nwait\n");
    const std::string saved = scratch.path("kept.wsprof");
    const auto result = runWarpscope("profile vector_add --probe " + shellQuote(probe) + " --hang-timeout 1 --out " + shellQuote(saved));
    EXPECT_EQ(result.exitCode, 1) << result.err;
    EXPECT_NE(result.err.find("warpscope-probe wrote nothing for 1 s and was stopped (--hang-timeout 1); what it wrote "
                              "before is kept in " + saved),
              std::string::npos) << result.err;
    EXPECT_EQ(lines(readFile(saved)).size(), 1u);
    // The probe's whole process group was signalled: its sleeping child is gone (or a zombie
    // waiting for init to reap it), though its 60 s have not passed.
    const std::string pid = lines(readFile(sleeper)).at(0);
    const std::string stat = readFile("/proc/" + pid + "/stat");
    const std::size_t state = stat.rfind(") ");
    EXPECT_TRUE(stat.empty() || (state != std::string::npos && stat.substr(state + 2, 1) == "Z")) << stat;
}

TEST(CliRemote, CtrlCCancelsTheProbeWhichEndsItsSession)
{
    Scratch scratch;
    const std::string marker = scratch.path("running");
    // The probe's contract: on SIGTERM it finishes the step, writes its end record and exits 4.
    const std::string probe = scratch.script(
        "probe", "trap 'echo \"{\\\"type\\\":\\\"end\\\",\\\"status\\\":\\\"cancelled\\\",\\\"wall_seconds\\\":1}\"; exit 4' TERM\n"
                 "head -n 1 " + shellQuote(kFixture) + "\ntouch " + shellQuote(marker) +
                 "\nwhile :; do sleep 0.1; done\n");
    const std::string saved = scratch.path("cancelled.wsprof");
    const std::string command = std::string(WARPSCOPE_BINARY) + " profile vector_add --probe " + shellQuote(probe) +
                                " --out " + shellQuote(saved) + " & pid=$!; i=0; while [ ! -f " + shellQuote(marker) +
                                " ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; kill -INT $pid; wait $pid; echo \"exit $?\"";
    const auto result = runWarpscope("--version >/dev/null; " + command);
    EXPECT_NE(result.out.find("exit 4"), std::string::npos) << result.out << result.err;
    const std::vector<std::string> kept = lines(readFile(saved));
    ASSERT_EQ(kept.size(), 2u) << readFile(saved);
    EXPECT_NE(kept[1].find("\"cancelled\""), std::string::npos);
}
