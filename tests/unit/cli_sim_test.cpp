// `warpscope sim` as a user runs it: JSON fields, --dump, files, exit codes and one-line errors.
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "ptx/sass_tools.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

using SimRun = warpscope::testing_support::CommandResult;
using warpscope::testing_support::runWarpscope;

namespace {

int lines(const std::string& text) { return warpscope::testing_support::lineCount(text); }

std::string writeTemp(const std::string& name, const std::string& text)
{
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_" + name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(CliSim, JsonHasTheDocumentedFields)
{
    const SimRun r = runWarpscope("sim copy_strided --arg n=i32:4096 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    for (const char* key : {"kernel", "grid", "block", "warp_instructions", "thread_instructions", "global", "shared",
                            "branches", "branch_efficiency", "cycles_estimate", "hazards", "matches_gold", "sim_seconds"})
        EXPECT_TRUE(doc.contains(key)) << key;
    for (const char* key : {"load_requests", "load_sectors", "store_requests", "store_sectors", "bytes_requested", "bytes_moved"})
        EXPECT_TRUE(doc["global"].contains(key)) << key;
    for (const char* key : {"load_requests", "store_requests", "load_wavefronts", "store_wavefronts", "bank_conflicts"})
        EXPECT_TRUE(doc["shared"].contains(key)) << key;
    EXPECT_EQ(doc["kernel"], "copy_strided");
    EXPECT_EQ(doc["matches_gold"], true);
    // 4,096 floats read with stride 2: 128 warps, each load one request of 8 sectors.
    EXPECT_EQ(doc["global"]["load_requests"], 128);
    EXPECT_EQ(doc["global"]["load_sectors"], 128 * 8);
    EXPECT_EQ(doc["global"]["store_sectors"], 128 * 4);
    EXPECT_EQ(doc["grid"], nlohmann::json::array({16, 1, 1}));
    EXPECT_TRUE(doc["hazards"].empty());
    // The strided read is one source line: its sectors are all the kernel's load sectors.
    std::int64_t lineSectors = 0, lineRequests = 0;
    for (const auto& line : doc["lines"]) {
        EXPECT_EQ(line["file"], "copy.cu");
        lineSectors += line["global_sectors"].get<std::int64_t>();
        lineRequests += line["global_requests"].get<std::int64_t>();
    }
    EXPECT_EQ(lineSectors, 128 * 8 + 128 * 4);
    EXPECT_EQ(lineRequests, 256);
    ASSERT_TRUE(doc["cycles_estimate"].is_number());
    EXPECT_GT(doc["cycles_estimate"].get<std::int64_t>(), 0);
}

// hazard_out_of_bounds: n = 1,000 in 4 blocks of 256 threads, no bounds check. Threads 1000-1023
// are block 3's threads 232-255: warp 7, lanes 8-31. Each of its three accesses (a[i], b[i], c[i])
// is one report naming element 1000, 1 past the end of 1,000 floats, and all 24 lanes; the text
// output prints the same sentence.
TEST(CliSim, HazardKernelReportsItsHazardWithWhereItHappened)
{
    const SimRun r = runWarpscope("sim hazard_out_of_bounds --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["hazards"].size(), 3u);
    const char* expected[] = {"reads a[1000]", "reads b[1000]", "writes c[1000]"};
    nlohmann::json lanes = nlohmann::json::array();
    for (int lane = 8; lane < 32; ++lane)
        lanes.push_back(lane);
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& hazard = doc["hazards"][i];
        EXPECT_EQ(hazard["kind"], "out_of_bounds_global");
        EXPECT_GT(hazard["source_line"].get<int>(), 0);
        EXPECT_EQ(hazard["buffer"], std::string(1, expected[i][std::string(expected[i]).find('[') - 1]));
        EXPECT_EQ(hazard["message"], std::string(expected[i]) + ", 1 element past the end (1,000 floats); lanes 8-31 "
                                                                "(on a GPU: an illegal-address error or silent corruption)");
        EXPECT_EQ(hazard["block"], nlohmann::json::array({3, 0, 0}));
        EXPECT_EQ(hazard["warp"], 7);
        EXPECT_EQ(hazard["lane"], 8);
        EXPECT_EQ(hazard["thread"], nlohmann::json::array({232, 0, 0}));
        EXPECT_EQ(hazard["lanes"], lanes);
        EXPECT_EQ(hazard["occurrences"], 24);
    }
    EXPECT_TRUE(doc["matches_gold"].is_null());
    const SimRun text = runWarpscope("sim hazard_out_of_bounds");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("block 3,0,0 thread 232,0,0 (warp 7 lane 8): writes c[1000], 1 element past the end "
                            "(1,000 floats); lanes 8-31 (on a GPU: an illegal-address error or silent corruption) [24 times]"),
              std::string::npos)
        << text.out;
}

TEST(CliSim, DumpPrintsOneValuePerLine)
{
    const SimRun r = runWarpscope("sim vector_add --arg n=i32:5 --arg 'a=f32[n]:iota' --arg 'b=f32[n]:fill(0.5)' --dump c");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "0.5\n1.5\n2.5\n3.5\n4.5\n");
}

// With --dump, standard output holds only the values; the hazards still reach the learner, on
// standard error, one line each in the summary's words (the three of
// HazardKernelReportsItsHazardWithWhereItHappened: a[1000], b[1000] and c[1000], 24 lanes each).
TEST(CliSim, DumpStillPrintsTheHazardsOnStandardError)
{
    const SimRun r = runWarpscope("sim hazard_out_of_bounds --dump c");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(r.out), 1000) << "c holds n = 1,000 floats";
    EXPECT_EQ(r.out.find("hazard"), std::string::npos) << "standard output is only the values";
    std::istringstream err(r.err);
    std::vector<std::string> hazardLines;
    for (std::string line; std::getline(err, line);)
        if (line.starts_with("warpscope sim: hazard: "))
            hazardLines.push_back(line);
    ASSERT_EQ(hazardLines.size(), 3u) << r.err;
    const char* accesses[] = {"reads a[1000]", "reads b[1000]", "writes c[1000]"};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(hazardLines[i].starts_with("warpscope sim: hazard: out_of_bounds_global at PTX line ")) << hazardLines[i];
        EXPECT_NE(hazardLines[i].find(std::string("block 3,0,0 thread 232,0,0 (warp 7 lane 8): ") + accesses[i] +
                                      ", 1 element past the end (1,000 floats); lanes 8-31"),
                  std::string::npos)
            << hazardLines[i];
        EXPECT_TRUE(hazardLines[i].ends_with("[24 times]")) << hazardLines[i];
    }
    // A run without hazards prints none.
    const SimRun clean = runWarpscope("sim vector_add --arg n=i32:5 --arg 'a=f32[n]:iota' --arg 'b=f32[n]:fill(0.5)' --dump c");
    ASSERT_EQ(clean.exitCode, 0) << clean.err;
    EXPECT_EQ(clean.err.find("hazard"), std::string::npos) << clean.err;
}

// `sim --json`'s "ptxas": the register count ptxas -v prints for the same PTX and the preset's
// architecture (sm_90 by default), labelled as ptxas's, beside the timing model's assumption.
TEST(CliSim, JsonCarriesPtxasOwnRegisters)
{
    const std::optional<std::filesystem::path> ptxas = warpscope::ptx::findPtxas();
    if (!ptxas)
        GTEST_SKIP() << warpscope::ptx::ptxasMissingMessage();
    const std::string source = writeTemp("add_ptxas.cu", R"(
extern "C" __global__ void add_one(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 3.0f + 1.0f;
}
)");
    const std::string ptx = source + ".ptx";
    ASSERT_EQ(runWarpscope("compile " + source + " --out " + ptx).exitCode, 0);
    const std::string log = source + ".log";
    const std::string command = ptxas->string() + " -v -arch sm_90 " + ptx + " -o /dev/null 2>" + log;
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::ostringstream printed;
    printed << std::ifstream(log).rdbuf();
    std::remove(log.c_str());
    const auto used = printed.str().find("Used ");
    ASSERT_NE(used, std::string::npos) << printed.str();
    const int registers = std::atoi(printed.str().c_str() + used + 5);
    ASSERT_GT(registers, 0) << printed.str();

    const SimRun r = runWarpscope("sim " + ptx + " --grid 1 --block 32 --arg 'x=f32[4]:iota' --arg n=i32:4 --json");
    std::remove(ptx.c_str());
    std::remove(source.c_str());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_TRUE(doc.contains("ptxas")) << r.out;
    const auto& entry = doc["ptxas"];
    EXPECT_FALSE(entry.contains("unavailable")) << entry.dump();
    EXPECT_EQ(entry["registers"], registers) << entry.dump();
    EXPECT_NE(entry["source"].get<std::string>().find("ptxas -v for sm_90"), std::string::npos) << entry.dump();
}

TEST(CliSim, EachArgTakesOneSpecSoTheKernelMayFollow)
{
    const SimRun r = runWarpscope("sim --arg n=i32:3 --arg 'a=f32[n]:fill(1)' --arg 'b=f32[n]:fill(2)' vector_add --dump c");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "3\n3\n3\n");
}

TEST(CliSim, RunsACudaFileCompiledAtRunTime)
{
    const std::string path = writeTemp("scale.cu", R"(
extern "C" __global__ void scale(float* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}
)");
    const SimRun r = runWarpscope("sim " + path + " --grid 1 --block 32 --arg 'x=f32[4]:iota' --arg s=f32:2.5 --arg n=i32:4 --dump x");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "0\n2.5\n5\n7.5\n");
}

TEST(CliSim, CompileErrorsExitOneWithFileLineColumn)
{
    const std::string path = writeTemp("broken.cu", "extern \"C\" __global__ void k(int* x)\n{\n    x[0] = y;\n}\n");
    const SimRun r = runWarpscope("sim " + path + " --grid 1 --block 1 --arg x=i32[1]");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("broken.cu:3:"), std::string::npos) << r.err;
}

TEST(CliSim, EndlessKernelExitsOneSayingItDidNotFinish)
{
    const std::string path = writeTemp("spin.cu", "extern \"C\" __global__ void spin(volatile int* f) { while (f[0] == 0) {} }\n");
    const SimRun r = runWarpscope("sim " + path + " --grid 1 --block 32 --arg f=i32[1] --budget 5000");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("did not finish within 5,000 warp-instructions"), std::string::npos) << r.err;
}

TEST(CliSim, BadInputExitsTwoWithOneLine)
{
    const std::string ptx = writeTemp("bad.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\ttex.1d.v4.f32.s32 {%f1,%f2,%f3,%f4}, [t, {%r1}];\n}\n");
    for (const std::string& arguments : {
             std::string("sim"),
             std::string("sim no_such_kernel"),
             std::string("sim vector_add --arg nonsense"),
             std::string("sim vector_add --arg n=i32:abc"),
             std::string("sim vector_add --arg zz=i32:4"),
             std::string("sim vector_add --arch sm_12"),
             std::string("sim vector_add --block 2048"),
             std::string("sim vector_add --grid 0"),
             std::string("sim vector_add --dump nothing"),
             std::string("sim vector_add --budget -3"),
             std::string("sim vector_add --trace /nonexistent-dir/t.wstrace"),
             std::string("sim vector_add --trace /tmp/t.wstrace --trace-blocks 999999"),
             std::string("sim vector_add --kernel vector_add"),
             std::string("sim /nonexistent.cu --grid 1 --block 1"),
         }) {
        const SimRun r = runWarpscope(arguments);
        EXPECT_EQ(r.exitCode, 2) << arguments << "\n" << r.err;
        EXPECT_EQ(lines(r.err), 1) << arguments << "\n" << r.err;
    }
    // Valid PTX the simulator cannot run yet is not bad input: exit 1, one line naming the
    // instruction and its line.
    const SimRun unsupported = runWarpscope("sim " + ptx + " --grid 1 --block 1");
    EXPECT_EQ(unsupported.exitCode, 1) << unsupported.err;
    EXPECT_EQ(lines(unsupported.err), 1) << unsupported.err;
    EXPECT_NE(unsupported.err.find("PTX line 6: 'tex.1d.v4.f32.s32' is not supported by the simulator yet"),
              std::string::npos) << unsupported.err;
    // Text that is not PTX stays exit 2.
    const std::string notPtx = writeTemp("notptx.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n"
                                                       ".visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n");
    const SimRun garbage = runWarpscope("sim " + notPtx + " --grid 1 --block 1");
    EXPECT_EQ(garbage.exitCode, 2) << garbage.err;
    EXPECT_EQ(lines(garbage.err), 1) << garbage.err;
    std::remove(ptx.c_str());
    std::remove(notPtx.c_str());
}

// One kernel of a file using what the simulator cannot run does not stop the others: it is a note.
TEST(CliSim, AnotherKernelsUnsupportedPtxIsANote)
{
    const std::string ptx = writeTemp("two.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n"
                                                 ".visible .entry good(.param .u64 out)\n{\n\t.reg .b32 %r<2>;\n"
                                                 "\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];\n"
                                                 "\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n"
                                                 "\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n"
                                                 ".visible .entry bad()\n{\n\ttex.1d.v4.f32.s32 {%f1,%f2,%f3,%f4}, [t, {%r1}];\n}\n");
    const SimRun good = runWarpscope("sim " + ptx + " --kernel good --grid 1 --block 32 --arg out=u32[1] --json");
    EXPECT_EQ(good.exitCode, 0) << good.err;
    EXPECT_NE(good.err.find("note: "), std::string::npos) << good.err;
    EXPECT_NE(good.err.find("'tex.1d.v4.f32.s32' is not supported by the simulator yet (not needed by good)"),
              std::string::npos) << good.err;
    const auto doc = nlohmann::json::parse(good.out);
    ASSERT_EQ(doc["notes"].size(), 1u);
    const SimRun bad = runWarpscope("sim " + ptx + " --kernel bad --grid 1 --block 32");
    EXPECT_EQ(bad.exitCode, 1) << bad.err;
    EXPECT_NE(bad.err.find("PTX line 16: 'tex.1d.v4.f32.s32'"), std::string::npos) << bad.err;
    std::remove(ptx.c_str());
}

TEST(CliSim, TraceFileStartsWithItsFormatAndVersion)
{
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_trace.wstrace";
    const SimRun r = runWarpscope("sim reduce_sequential --arg n=i32:2048 --trace " + path + " --trace-blocks 0-1 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream file(path);
    std::string first;
    std::getline(file, first);
    EXPECT_EQ(first, "warpscope-trace 1");
    EXPECT_GT(nlohmann::json::parse(r.out)["trace_events"].get<int>(), 0);
    std::remove(path.c_str());
}

// printf in a kernel: each thread's line in the text report and in --json, by block.
TEST(CliSim, PrintfLinesArePrintedPerThread)
{
    const std::string source = writeTemp("hello.cu", "extern \"C\" __global__ void hello(int n)\n"
                                                     "{\n    printf(\"hi %d of %d\\n\", threadIdx.x, n);\n}\n");
    const SimRun text = runWarpscope("sim " + source + " --grid 2 --block 2 --arg n=i32:7");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("printf              4 lines"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("    block 1,0,0 thread 1,0,0: hi 1 of 7\n"), std::string::npos) << text.out;
    const SimRun json = runWarpscope("sim " + source + " --grid 2 --block 2 --arg n=i32:7 --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["printf"].size(), 4u);
    EXPECT_EQ(doc["printf"][2]["text"], "hi 0 of 7\n");
    EXPECT_EQ(doc["printf"][2]["block"], nlohmann::json::array({1, 0, 0}));
    EXPECT_EQ(doc["printf_dropped"], 0);
    std::remove(source.c_str());
}

// trap (__trap()) aborts a GPU launch: sim says how many threads trapped and where the first was,
// and exits 1; the JSON counts them.
TEST(CliSim, TrapIsReportedAndExitsOne)
{
    const std::string source = writeTemp("trap.cu", "extern \"C\" __global__ void boom(int* out)\n"
                                                    "{\n    if (threadIdx.x == 3) __trap();\n    out[threadIdx.x] = 1;\n}\n");
    const SimRun text = runWarpscope("sim " + source + " --grid 1 --block 32 --arg 'out=i32[32]'");
    EXPECT_EQ(text.exitCode, 1) << text.err;
    EXPECT_NE(text.err.find("trap (__trap()) executed by 1 thread, the first at block [0,0,0], thread [3,0,0], PTX line"),
              std::string::npos)
        << text.err;
    const SimRun json = runWarpscope("sim " + source + " --grid 1 --block 32 --arg 'out=i32[32]' --json");
    EXPECT_EQ(json.exitCode, 1) << json.err;
    EXPECT_EQ(nlohmann::json::parse(json.out)["trap_threads"], 1);
    std::remove(source.c_str());
}

// --compute compiles a .cu for a newer virtual architecture (redux.sync needs compute_80); the
// --arch GPU must be at least as new.
TEST(CliSim, ComputeChoosesNvrtcsArchitectureForCudaFiles)
{
    const std::string source = writeTemp("warpsum.cu", "extern \"C\" __global__ void warpsum(const unsigned* x, unsigned* y)\n"
                                                       "{\n    y[threadIdx.x] = __reduce_add_sync(0xffffffff, x[threadIdx.x]);\n}\n");
    const SimRun ok = runWarpscope("sim " + source + " --compute compute_80 --arch sm_80 --grid 1 --block 32 "
                                   "--arg 'x=u32[32]:iota' --arg 'y=u32[32]' --dump y");
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_EQ(ok.out.substr(0, 4), "496\n"); // 0 + 1 + ... + 31
    const SimRun old = runWarpscope("sim " + source + " --compute compute_80 --arch sm_75 --grid 1 --block 32 "
                                    "--arg 'x=u32[32]' --arg 'y=u32[32]'");
    EXPECT_EQ(old.exitCode, 2);
    EXPECT_EQ(lines(old.err), 1) << old.err;
    EXPECT_NE(old.err.find("the PTX targets sm_80, which sm_75 (T4) cannot run"), std::string::npos) << old.err;
    const SimRun unknown = runWarpscope("sim " + source + " --compute compute_99 --grid 1 --block 32 --arg 'x=u32[32]' --arg 'y=u32[32]'");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("allowed: compute_75"), std::string::npos) << unknown.err;
    const SimRun demo = runWarpscope("sim vector_add --compute compute_80");
    EXPECT_EQ(demo.exitCode, 2) << demo.err;
    std::remove(source.c_str());
}

// The largest grid (2^31-1 blocks of 1,024 threads) is refused at once with an estimate of its
// work, instead of simulating for weeks; a sample of its blocks runs, and --allow-long skips the
// estimate.
TEST(CliSim, AHugeLaunchIsRefusedWithItsEstimateAndASampleRuns)
{
    const SimRun huge = runWarpscope("sim vector_add --grid 2147483647 --block 1024");
    EXPECT_EQ(huge.exitCode, 2) << huge.err;
    EXPECT_EQ(lines(huge.err), 1) << huge.err;
    EXPECT_NE(huge.err.find("this launch of 2,147,483,647 blocks would issue about "), std::string::npos) << huge.err;
    EXPECT_NE(huge.err.find("more than the step budget of 4,000,000,000"), std::string::npos) << huge.err;
    EXPECT_NE(huge.err.find("--sample-blocks"), std::string::npos) << huge.err;

    const SimRun sample = runWarpscope("sim vector_add --grid 2147483647 --block 1024 --sample-blocks 16 --json");
    ASSERT_EQ(sample.exitCode, 0) << sample.err;
    EXPECT_EQ(nlohmann::json::parse(sample.out)["blocks_simulated"], 16);

    // A launch of a few hundred blocks is estimated and runs.
    const SimRun normal = runWarpscope("sim vector_add --arg n=i32:65536 --grid 256 --block 256 --json");
    ASSERT_EQ(normal.exitCode, 0) << normal.err;
    EXPECT_EQ(nlohmann::json::parse(normal.out)["matches_gold"], true);

    // --allow-long goes past the estimate; the step budget then stops the run (exit 1).
    const SimRun allowed = runWarpscope("sim vector_add --grid 1000000 --block 1024 --budget 100000 --allow-long");
    EXPECT_EQ(allowed.exitCode, 1) << allowed.err;
    EXPECT_NE(allowed.err.find("did not finish within 100,000 warp-instructions"), std::string::npos) << allowed.err;
}

// --perfetto writes the timing model's timeline as JSON that ui.perfetto.dev opens.
TEST(CliSim, PerfettoWritesTheTimelineAsJson)
{
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_timeline.json";
    const SimRun r = runWarpscope("sim vector_add --arg n=i32:512 --grid 2 --block 256 --trace-blocks 0-1 --perfetto " + path);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("wrote " + path + ": "), std::string::npos) << r.err;
    std::ifstream in(path);
    const auto doc = nlohmann::json::parse(in);
    EXPECT_GT(doc["traceEvents"].size(), 16u);
    EXPECT_EQ(doc["metadata"]["kernel"], "vector_add");
    std::remove(path.c_str());

    const SimRun noTiming = runWarpscope("sim vector_add --no-timing --perfetto " + path);
    EXPECT_EQ(noTiming.exitCode, 2);
    EXPECT_NE(noTiming.err.find("--perfetto needs the timing model"), std::string::npos) << noTiming.err;
    const SimRun unwritable = runWarpscope("sim vector_add --perfetto /nonexistent-dir/t.json");
    EXPECT_EQ(unwritable.exitCode, 2);
    EXPECT_EQ(lines(unwritable.err), 1) << unwritable.err;
}

// A sample of blocks still has a time: the sampled blocks replayed on one SM and scaled by waves,
// and the time says so (issue 28). copy_coalesced at its demo size, 4,096 blocks, on the H200 preset
// (found by name): 8 blocks of 256 threads per SM, the busiest of 132 SMs runs 32 of them, 2 waves of
// the 16 sampled blocks replayed and scaled by 4 / 2.
TEST(CliSim, ASampleOfBlocksStillGetsATimeThatSaysHowItWasObtained)
{
    const SimRun r = runWarpscope("sim copy_coalesced --arch h200 --regs 16 --sample-blocks 16 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["arch"], "sm_90");
    ASSERT_TRUE(doc["timing_model"].is_object());
    const auto& t = doc["timing_model"];
    EXPECT_EQ(t["scaled_from_sample"], true);
    const std::string method = t["time_method"];
    EXPECT_EQ(method.rfind("scaled from 16 of 4,096 blocks: 16 sampled blocks replayed on one SM, times 2 for the 32 blocks", 0), 0u)
        << method;
    // The time: the scaled cycles at 1,980 MHz plus the launch overhead.
    EXPECT_NEAR(t["predicted_microseconds"].get<double>(),
                t["cycles"].get<double>() / 1980.0 + t["launch_overhead_ns"].get<double>() / 1e3, 1e-9);
    EXPECT_GT(t["predicted_microseconds"].get<double>(), 1.0);

    const SimRun text = runWarpscope("sim copy_coalesced --arch h200 --sample-blocks 16");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("time (model)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("scaled from 16 of 4,096 blocks"), std::string::npos) << text.out;
}
