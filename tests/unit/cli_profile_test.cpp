// `warpscope profile`, `warpscope session show` and warpscope-probe on a machine without a GPU:
// the documented exit codes and messages, and the stream the probe still writes.
#include "cli_runner.h"
#include "session/metric_catalog.h"
#include "session/session_io.h"

#include <fstream>
#include <sstream>

using warpscope::testing_support::runWarpscope;

namespace {

bool gpuDriverPresent()
{
    std::ifstream version("/proc/driver/nvidia/version");
    return static_cast<bool>(version);
}

std::string tempPath(const std::string& name)
{
    return testing::TempDir() + "/cli_profile_" + std::to_string(getpid()) + "_" + name;
}

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

TEST(CliProfile, WithoutAGpuExitsThreeAndSaysWhy)
{
    if (gpuDriverPresent())
        GTEST_SKIP() << "this machine has an NVIDIA driver; the no-GPU path is tested where there is none";
    const std::string saved = tempPath("nogpu.wsprof");
    const auto result = runWarpscope("profile vector_add --out " + saved);
    EXPECT_EQ(result.exitCode, 3) << result.err;
    EXPECT_NE(result.err.find("no NVIDIA driver: libcuda.so.1 could not be loaded"), std::string::npos) << result.err;
    // The saved stream is a whole session: header, the error record, and an end record.
    std::ifstream in(saved);
    const auto read = warpscope::session::readSession(in);
    EXPECT_TRUE(read.problems.empty());
    EXPECT_TRUE(read.complete);
    ASSERT_EQ(read.session.errors.size(), 1u);
    EXPECT_EQ(read.session.errors[0].code, "no_driver");
    EXPECT_TRUE(read.session.errors[0].fatal);
    EXPECT_EQ(read.session.end->status, "error");
    EXPECT_EQ(read.session.header.producer.rfind("warpscope-probe ", 0), 0u);
}

TEST(CliProfile, JsonPrintsTheStream)
{
    if (gpuDriverPresent())
        GTEST_SKIP() << "this machine has an NVIDIA driver";
    const auto result = runWarpscope("profile ladder:reduction --json");
    EXPECT_EQ(result.exitCode, 3);
    std::istringstream in(result.out);
    const auto read = warpscope::session::readSession(in);
    EXPECT_TRUE(read.complete) << result.out;
    EXPECT_EQ(read.session.errors.at(0).code, "no_driver");
}

TEST(CliProfile, BadInputExitsTwoBeforeTouchingTheGpu)
{
    auto result = runWarpscope("profile no_such_kernel");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("'no_such_kernel' is neither a demo kernel"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("session stream"), std::string::npos) << result.err;
    result = runWarpscope("profile vector_add --metrics 'dram bytes'");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--metrics: 'dram bytes' is not a metric name"), std::string::npos) << result.err;
    result = runWarpscope("profile ladder:nope");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("names no demo ladder (known ladders: "), std::string::npos) << result.err;
    result = runWarpscope("profile vector_add --runs 0");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--runs"), std::string::npos) << result.err;
    result = runWarpscope("profile vector_add --arg nope=i32:1");
    EXPECT_EQ(result.exitCode, 2) << result.err;
    result = runWarpscope("profile vector_add --size medium");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--size 'medium': allowed are gpu"), std::string::npos) << result.err;
    result = runWarpscope("profile vector_add --cache-control warm");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("--cache-control 'warm': allowed are all"), std::string::npos) << result.err;
    result = runWarpscope("profile vector_add --sample-blocks 1");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("at least 2 blocks"), std::string::npos) << result.err;
}

TEST(CliProfile, MissingProbeIsAFailureThatNamesIt)
{
    const auto result = runWarpscope("--version >/dev/null; WARPSCOPE_PROBE=/nonexistent/probe " +
                                     std::string(WARPSCOPE_BINARY) + " profile vector_add");
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.err.find("/nonexistent/probe is missing"), std::string::npos) << result.err;
}

TEST(CliProfile, ProbeListsNoDevicesWithExitThree)
{
    if (gpuDriverPresent())
        GTEST_SKIP() << "this machine has an NVIDIA driver";
    const std::string probe = std::string(WARPSCOPE_PROBE_BINARY);
    FILE* pipe = popen((probe + " --devices 2>&1").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string text;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe))
        text += buffer;
    const int status = pclose(pipe);
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_NE(text.find("no NVIDIA driver"), std::string::npos) << text;
}

TEST(CliSession, ShowPrintsASavedSession)
{
    using namespace warpscope::session;
    Session s;
    s.header.producer = "cli_profile_test";
    DeviceRecord device;
    device.name = "Synthetic test fixture (not a measurement)";
    device.computeMajor = 9;
    s.devices.push_back(device);
    KernelRecord kernel;
    kernel.id = "copy_strided";
    kernel.title = "Strided copy";
    s.kernels.push_back(kernel);
    MetricsRecord metrics;
    metrics.kernel = "copy_strided";
    metrics.passes = 2;
    metrics.values = {{metric::kGlobalLoadRequests, 1000.0}, {metric::kGlobalLoadSectors, 8000.0}, {metric::kDuration, 1250.0}};
    s.metrics.push_back(metrics);
    PredictionRecord prediction;
    prediction.kernel = "copy_strided";
    prediction.preset = "sm_90";
    prediction.globalLoadRequests = 1000;
    prediction.globalLoadSectors = 8000;
    s.predictions.push_back(prediction);
    s.end = EndRecord{"ok", 2.0};
    const std::string path = tempPath("show.wsprof");
    writeFile(path, formatSession(s));

    auto result = runWarpscope("session show " + path);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("Synthetic test fixture"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("load sectors per request        8.00 vs 8.00"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("store sectors per request       n/a vs n/a"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("Kernel duration"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1.25 us"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("2 replay passes"), std::string::npos) << result.out;

    result = runWarpscope("session show --json " + path);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_NE(result.out.find("\"complete\": true"), std::string::npos) << result.out;
}

TEST(CliSession, DamagedAndForeignFiles)
{
    const std::string newer = tempPath("v2.wsprof");
    writeFile(newer, "{\"format\":\"warpscope-session\",\"version\":2}\n");
    auto result = runWarpscope("session show " + newer);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("version 2 is not one this build reads"), std::string::npos) << result.err;
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1);

    const std::string cut = tempPath("cut.wsprof");
    writeFile(cut, "{\"format\":\"warpscope-session\",\"version\":1}\n{\"type\":\"kernel\",\"id\":\"vector_add\"}\n{\"type\":\"metr");
    result = runWarpscope("session show " + cut);
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.out.find("kernel vector_add"), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("truncated"), std::string::npos) << result.err;

    result = runWarpscope("session show /nonexistent.wsprof");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("cannot open session file"), std::string::npos) << result.err;
}
