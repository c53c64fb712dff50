// `warpscope profile`, `warpscope session show` and warpscope-probe on a machine without a GPU:
// the documented exit codes and messages, and the stream the probe still writes.
#include "cli_runner.h"
#include "session/metric_catalog.h"
#include "session/session_io.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>

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
#if defined(__SANITIZE_THREAD__)
    // Under ThreadSanitizer the probe wrote nothing for over 180 s (the default hang timeout)
    // before it reported the missing driver, on a loaded 2-core machine.
    const auto result = runWarpscope("profile ladder:reduction --json --hang-timeout 1200");
#else
    const auto result = runWarpscope("profile ladder:reduction --json");
#endif
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
    kernel.compute = "compute_80";
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
    EXPECT_NE(result.out.find("kernel copy_strided - Strided copy  grid 1,1,1  block 1,1,1  compute_80\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("    Global load sectors per request     8.00 vs 8.00: same [agrees]\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("    Global store sectors per request    no global stores vs not measured: \u2014\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("Kernel duration"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1.25 us"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("2 replay passes"), std::string::npos) << result.out;

    result = runWarpscope("session show --json " + path);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_NE(result.out.find("\"complete\": true"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"compute\": \"compute_80\""), std::string::npos) << result.out;
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

    // A kernel record naming no virtual architecture: skipped, its line named in one line, exit 1.
    const std::string badCompute = tempPath("compute.wsprof");
    writeFile(badCompute, "{\"format\":\"warpscope-session\",\"version\":1}\n"
                          "{\"type\":\"kernel\",\"id\":\"vector_add\",\"compute\":\"sm_80\"}\n"
                          "{\"type\":\"end\",\"status\":\"ok\"}\n");
    result = runWarpscope("session show " + badCompute);
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_EQ(result.err, "warpscope session show: " + badCompute +
                              ": line 2: 'kernel' record: field 'compute' = \"sm_80\" is not a virtual architecture "
                              "(allowed: compute_75 .. compute_999, or empty), skipped\n");
    EXPECT_EQ(result.out.find("kernel vector_add"), std::string::npos) << result.out;

    result = runWarpscope("session show /nonexistent.wsprof");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("cannot open session file"), std::string::npos) << result.err;
}

TEST(CliSession, ControlCharactersFromASessionNeverReachTheTerminal)
{
    // ESC [ 2 J clears a terminal; ESC ] 0 ; sets its title; U+009B is the one-byte C1 CSI (UTF-8 C2 9B).
    const std::string hostile = tempPath("escapes.wsprof");
    writeFile(hostile, "{\"format\":\"warpscope-session\",\"version\":1,\"host\":\"h\\u001b]0;owned\\u0007\"}\n"
                       "{\"type\":\"kernel\",\"id\":\"k\",\"title\":\"clear\\u001b[2Jme \\u009b31m\"}\n"
                       "{\"type\":\"end\",\"status\":\"ok\"}\n"
                       "\u001b[31mgarbage\n");
    const auto result = runWarpscope("session show " + hostile);
    EXPECT_EQ(result.exitCode, 1) << result.err; // the garbage line is a problem
    for (const std::string* text : {&result.out, &result.err}) {
        EXPECT_EQ(text->find('\x1b'), std::string::npos) << *text;
        EXPECT_EQ(text->find('\x07'), std::string::npos) << *text;
        EXPECT_EQ(text->find("\xc2\x9b"), std::string::npos) << *text;
    }
    EXPECT_NE(result.out.find("kernel k - clear\\x1b[2Jme \\xc2\\x9b31m"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("on h\\x1b]0;owned\\x07"), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("\\x1b[31mgarbage"), std::string::npos) << result.err;
}

// `session show` gives each kernel's hierarchical roofline (tests/unit/roofline_test.cpp works the
// numbers of this fixture out by hand): per level its bytes, intensity, bandwidth and share of the
// roof, null where there is none, and the roofs.
TEST(CliSession, ShowGivesTheHierarchicalRoofline)
{
    const std::string fixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/hierarchical_roofline.wsprof";
    auto result = runWarpscope("session show --json " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json document = nlohmann::json::parse(result.out);
    const nlohmann::json& roofline = document.at("roofline");
    const nlohmann::json& roofs = roofline.at("roofs");
    EXPECT_DOUBLE_EQ(roofs.at("fp32").at("measured_flops_per_second").get<double>(), 40000e9);
    EXPECT_DOUBLE_EQ(roofs.at("l1").at("peak_bytes_per_second").get<double>(), 25.6e12);
    EXPECT_TRUE(roofs.at("l1").at("measured_bytes_per_second").is_null());
    EXPECT_DOUBLE_EQ(roofs.at("l2").at("peak_bytes_per_second").get<double>(), 7.68e12);
    EXPECT_DOUBLE_EQ(roofs.at("dram").at("measured_bytes_per_second").get<double>(), 2000e9);
    const nlohmann::json& kernels = roofline.at("kernels");
    ASSERT_EQ(kernels.size(), 5u);

    const nlohmann::json& dram = kernels.at(0); // 10e6 FLOP in 10 us
    EXPECT_EQ(dram.at("kernel"), "k_dram");
    EXPECT_DOUBLE_EQ(dram.at("fp32_flops").get<double>(), 10e6);
    EXPECT_DOUBLE_EQ(dram.at("duration_s").get<double>(), 1e-5);
    EXPECT_DOUBLE_EQ(dram.at("achieved_flops_per_second").get<double>(), 1e12);
    EXPECT_DOUBLE_EQ(dram.at("l1").at("intensity").get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(dram.at("l2").at("bytes").get<double>(), 20e6);
    EXPECT_DOUBLE_EQ(dram.at("l2").at("bytes_per_second").get<double>(), 2e12);
    EXPECT_DOUBLE_EQ(dram.at("l2").at("share_of_roof").get<double>(), 2e12 / 7.68e12);
    EXPECT_DOUBLE_EQ(dram.at("dram").at("intensity").get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(dram.at("dram").at("share_of_roof").get<double>(), 0.25);
    EXPECT_EQ(dram.at("dram").at("plotted"), true);
    EXPECT_TRUE(dram.at("dram").at("reason").is_null());

    const nlohmann::json& resident = kernels.at(1); // no DRAM bytes: L1 and L2 points only
    EXPECT_DOUBLE_EQ(resident.at("l2").at("intensity").get<double>(), 4.0);
    EXPECT_EQ(resident.at("l2").at("plotted"), true);
    EXPECT_DOUBLE_EQ(resident.at("dram").at("bytes").get<double>(), 0.0);
    EXPECT_TRUE(resident.at("dram").at("intensity").is_null());
    EXPECT_TRUE(resident.at("dram").at("share_of_roof").is_null());
    EXPECT_EQ(resident.at("dram").at("reason"), "zero_bytes");

    const nlohmann::json& copy = kernels.at(2); // 0 FLOP: no points, but its bandwidth share
    EXPECT_EQ(copy.at("l1").at("reason"), "zero_flop");
    EXPECT_DOUBLE_EQ(copy.at("dram").at("share_of_roof").get<double>(), 0.5);
    EXPECT_TRUE(kernels.at(3).at("l1").at("bytes").is_null());
    EXPECT_EQ(kernels.at(3).at("l1").at("reason"), "bytes_not_measured");
    EXPECT_EQ(kernels.at(4).at("dram").at("reason"), "no_metrics");
    EXPECT_TRUE(kernels.at(4).at("fp32_flops").is_null());

    // The text: the roofs, then per kernel one line per level.
    result = runWarpscope("session show " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("roofline roofs (measured; peak):"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("roofline: 10.0 M FP32 FLOP in 10.0 us = 1000 GFLOP/s"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("    L2    20.0 MB   0.5 FLOP/B      2000 GB/s   26.0 % of roof"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("(not plotted: no DRAM bytes)"), std::string::npos) << result.out;
}

// Predicted vs measured says what the window's table says (core/session/prediction_comparison.h):
// the recorded H200 demo kernels, where PTX and SASS differ by design, and ncu's 0 % for no branches.
TEST(CliSession, ShowExplainsPredictedVsMeasuredAsTheWindowDoes)
{
    const std::string demo = std::string(WARPSCOPE_FIXTURES_DIR) + "/../../assets/recorded/h200/demo-kernels.wsprof";
    auto result = runWarpscope("session show " + demo);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    // This session predates ncu's branch counts: 0 % may mean that no SASS branch ran, so not comparable.
    for (const char* text :
         {"    Branch uniformity                   100.0 % vs 0.0 %: not comparable [explained]\n"
          "      \u21b3 0 % is also what ncu reports when no SASS branch ran\n",
          "    Occupancy: theoretical vs achieved  100.0 % vs 47.4 %: \u221252.5 pts [explained]\n"
          "      \u21b3 a comparison: 3.88 waves; SMs idle as the last one drains (tail effect)\n",
          "    Shared load wavefronts              131 K vs 98.3 K: \u221232.8 K (\u221225.0 %) [explained]\n"
          "      \u21b3 fewer on the GPU: ptxas can merge shared loads into wider ones\n",
          "    Shared-memory bank conflicts        70.6 K vs 0: \u221270.6 K (\u2212100.0 %) [explained]\n"
          "      \u21b3 prediction includes shared atomics (70.6 K); measured: loads and stores only\n",
          "    Global store sectors per request    no global stores vs no global stores: same [agrees]\n"})
        EXPECT_NE(result.out.find(text), std::string::npos) << text << "\n" << result.out;
    EXPECT_EQ(result.out.find("branch uniformity               100.0 % vs 0.0 %"), std::string::npos) << result.out;

    result = runWarpscope("session show --json " + demo);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json comparisons = nlohmann::json::parse(result.out).at("predicted_vs_measured");
    ASSERT_FALSE(comparisons.empty());
    EXPECT_EQ(comparisons.at(0).at("kernel"), "vector_add");
    bool seen = false;
    for (const nlohmann::json& row : comparisons.at(0).at("rows"))
        if (row.at("key") == "branch_uniformity") {
            seen = true;
            EXPECT_DOUBLE_EQ(row.at("predicted").get<double>(), 100.0);
            EXPECT_DOUBLE_EQ(row.at("measured").get<double>(), 0.0);
            EXPECT_EQ(row.at("difference"), "not comparable");
            EXPECT_EQ(row.at("agreement"), "explained");
            EXPECT_EQ(row.at("note"), "0 % is also what ncu reports when no SASS branch ran");
            EXPECT_NE(row.at("detail").get<std::string>().find("smsp__sass_branch_targets.sum"), std::string::npos);
        }
    EXPECT_TRUE(seen);

    // With ncu's branch count: a kernel that runs no branch says so on both sides, and PTX branches
    // that ptxas predicated away are explained, never 100 % against 0 %.
    using namespace warpscope::session;
    Session s;
    for (const char* id : {"straight", "predicated"}) {
        KernelRecord kernel;
        kernel.id = id;
        s.kernels.push_back(kernel);
        MetricsRecord metrics;
        metrics.kernel = id;
        metrics.values = {{metric::kBranchUniformPct, 0.0}, {"smsp__sass_branch_targets.sum", 0.0}};
        s.metrics.push_back(metrics);
        PredictionRecord prediction;
        prediction.kernel = id;
        prediction.preset = "sm_90";
        prediction.branchesUniform = std::string(id) == "predicated" ? 64 : 0;
        s.predictions.push_back(prediction);
    }
    s.end = EndRecord{"ok", 1.0};
    const std::string path = tempPath("branches.wsprof");
    writeFile(path, formatSession(s));
    result = runWarpscope("session show " + path);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("    Branch uniformity                   no branches vs no branches: same [agrees]\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("    Branch uniformity                   100.0 % vs no branches: none on the GPU [explained]\n"
                              "      \u21b3 ptxas removed the PTX's branches (predication)\n"),
              std::string::npos)
        << result.out;
}

// A prediction from a sample of the grid's blocks says so, in the window's words: how many blocks and
// that the counts are exact only when every block does the same work (the fixture's matmul_naive and
// matmul_tiled ran 64 of 65,536 blocks; matmul_prefetch all 1,024, which says nothing).
TEST(CliSession, ShowSaysWhenThePredictionWasSampled)
{
    const std::string fixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/matmul_cublas_reference.wsprof";
    auto result = runWarpscope("session show " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string sampled = "  predicted (simulator, sm_90) vs measured:\n"
                                "    counts scaled from 64 of 65,536 blocks; exact if all blocks do the same work\n"
                                "    Global load sectors per request     2.00 vs 2.00: same [agrees]\n";
    const std::size_t naive = result.out.find("kernel matmul_naive"), tiled = result.out.find("kernel matmul_tiled"),
                      prefetch = result.out.find("kernel matmul_prefetch");
    ASSERT_TRUE(naive != std::string::npos && tiled != std::string::npos && prefetch != std::string::npos) << result.out;
    EXPECT_EQ(result.out.find(sampled, naive), result.out.find("  predicted", naive)) << result.out;
    EXPECT_EQ(result.out.find(sampled, tiled), result.out.find("  predicted", tiled)) << result.out;
    EXPECT_EQ(result.out.find("counts scaled from", prefetch), std::string::npos) << result.out;

    result = runWarpscope("session show --json " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json kernels = nlohmann::json::parse(result.out).at("predicted_vs_measured");
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels.at(0).at("kernel"), "matmul_naive");
    EXPECT_EQ(kernels.at(0).at("sampled"), true);
    EXPECT_EQ(kernels.at(0).at("simulated_blocks"), 64);
    EXPECT_EQ(kernels.at(0).at("total_blocks"), 65536);
    EXPECT_EQ(kernels.at(0).at("sample_note"),
              "counts scaled from 64 of 65,536 blocks; exact if all blocks do the same work");
    EXPECT_NE(kernels.at(0).at("sample_detail").get<std::string>().find("scaled every predicted count by 65,536 / 64"),
              std::string::npos);
    EXPECT_EQ(kernels.at(0).at("rows").at(0).at("key"), "simulated_blocks");
    EXPECT_EQ(kernels.at(2).at("sampled"), false);
    EXPECT_EQ(kernels.at(2).at("simulated_blocks"), 1024);
    EXPECT_TRUE(kernels.at(2).at("sample_note").is_null());
}

// cuBLAS SGEMM as the matmul ladder's reference (tests/unit/sgemm_reference_test.cpp works the
// fixture's numbers out: 34,359.738368 GFLOP/s at n = 4096; rungs at 50, 12.5 and 5 ms, so 8, 32 and 80 %).
TEST(CliSession, ShowGivesTheMatmulLadderAgainstCublas)
{
    const std::string fixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/matmul_cublas_reference.wsprof";
    auto result = runWarpscope("session show " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* line : {"  matmul reference                  cuBLAS SGEMM 34.4 TFLOP/s at n = 4096\n"
                             "                                    fixture value, not a measurement: 2 n^3 FLOP in 4 ms\n",
                             "matmul ladder against cuBLAS SGEMM (2 n^3 FLOP over each rung's median time):\n"
                             "  1. matmul_naive                   2.75 TFLOP/s    8.0 % of cuBLAS\n"
                             "  2. matmul_tiled                   11.0 TFLOP/s    32.0 % of cuBLAS\n"
                             "  7. matmul_prefetch                27.5 TFLOP/s    80.0 % of cuBLAS\n"
                             "  ref. cuBLAS SGEMM, n = 4096       34.4 TFLOP/s    the reference\n"})
        EXPECT_NE(result.out.find(line), std::string::npos) << line << "\n" << result.out;

    result = runWarpscope("session show --json " + fixture);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json reference = nlohmann::json::parse(result.out).at("sgemm_reference");
    EXPECT_EQ(reference.at("measured"), true);
    EXPECT_DOUBLE_EQ(reference.at("flops_per_second").get<double>(), 34359.738368e9);
    EXPECT_EQ(reference.at("n"), 4096);
    const nlohmann::json& rungs = reference.at("rungs");
    ASSERT_EQ(rungs.size(), 3u);
    const double shares[] = {0.08, 0.32, 0.80}, seconds[] = {0.05, 0.0125, 0.005};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_DOUBLE_EQ(rungs.at(i).at("share_of_reference").get<double>(), shares[i]) << i;
        EXPECT_DOUBLE_EQ(rungs.at(i).at("duration_s").get<double>(), seconds[i]) << i;
        EXPECT_DOUBLE_EQ(rungs.at(i).at("flops_per_second").get<double>(), 2.0 * 4096.0 * 4096.0 * 4096.0 / seconds[i]) << i;
        EXPECT_TRUE(rungs.at(i).at("why").is_null());
    }
    EXPECT_EQ(rungs.at(2).at("kernel"), "matmul_prefetch");

    // A session without a reference says so and invents no number; one without matmul rungs says nothing.
    const std::string older = tempPath("no_reference.wsprof");
    std::ifstream in(fixture);
    std::ostringstream text;
    for (std::string line; std::getline(in, line);) {
        if (line.find("\"type\":\"ceilings\"") != std::string::npos) {
            nlohmann::json ceilings = nlohmann::json::parse(line);
            for (const char* field : {"reference_sgemm_gflops", "reference_sgemm_n", "reference_sgemm_method"})
                ceilings.erase(field);
            line = ceilings.dump();
        }
        text << line << "\n";
    }
    writeFile(older, text.str());
    result = runWarpscope("session show " + older);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("  matmul reference                  not measured (the session holds no cuBLAS SGEMM reference)\n"),
              std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("cuBLAS SGEMM ("), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("of cuBLAS"), std::string::npos) << result.out;
    result = runWarpscope("session show --json " + older);
    const nlohmann::json none = nlohmann::json::parse(result.out).at("sgemm_reference");
    EXPECT_EQ(none.at("measured"), false);
    EXPECT_TRUE(none.at("flops_per_second").is_null());
    EXPECT_TRUE(none.at("rungs").at(0).at("share_of_reference").is_null());
    EXPECT_EQ(none.at("rungs").at(0).at("why"), "no cuBLAS reference in this session");

    result = runWarpscope("session show " + std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/hierarchical_roofline.wsprof");
    EXPECT_EQ(result.out.find("cuBLAS"), std::string::npos) << result.out;
}

// --compute for FILE.cu targets: checked as 'warpscope sim --compute' checks it (exit 2, one line
// naming the allowed architectures, before the probe starts) and handed to the probe, here the
// stand-in tests/fixtures/probe/no_gpu.sh, which echoes its arguments on stderr.
TEST(CliProfile, ComputeIsCheckedAndHandedToTheProbe)
{
    const std::string profile = "--version >/dev/null; WARPSCOPE_PROBE=" + std::string(WARPSCOPE_FIXTURES_DIR) +
                                "/probe/no_gpu.sh " + std::string(WARPSCOPE_BINARY) + " profile ";
    auto result = runWarpscope(profile + "kernel.cu --kernel k --compute compute_80");
    EXPECT_EQ(result.exitCode, 3) << result.err;
    EXPECT_NE(result.err.find("fixture probe arguments: --metrics headline --runs 5 --device 0 --size gpu --cache-control all "
                              "--sample-blocks 0 --compute compute_80 --kernel k kernel.cu\n"),
              std::string::npos)
        << result.err;
    result = runWarpscope(profile + "kernel.cu");
    EXPECT_EQ(result.err.find("--compute"), std::string::npos) << result.err; // the probe's default, compute_75
    result = runWarpscope(profile + "kernel.cu --compute compute_99");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << result.err;
    EXPECT_NE(result.err.find("--compute: unknown virtual architecture 'compute_99' (allowed: compute_75"), std::string::npos)
        << result.err;
    result = runWarpscope(profile + "kernel.cu vector_add --compute compute_80");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(warpscope::testing_support::lineCount(result.err), 1) << result.err;
    EXPECT_NE(result.err.find("--compute is for .cu files, which NVRTC compiles; 'vector_add' is not one"), std::string::npos)
        << result.err;
}
