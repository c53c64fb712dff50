// `warpscope step` as a user runs it: the state of a warp before one of its instructions, against
// hand-worked values and the simulator's own final memory; bad input; an endless kernel.
#include <nlohmann/json.hpp>

#include "cli_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using warpscope::testing_support::CommandResult;
using warpscope::testing_support::runWarpscope;

namespace {

nlohmann::json stepJson(const std::string& arguments)
{
    const CommandResult r = runWarpscope("step " + arguments + " --json");
    EXPECT_EQ(r.exitCode, 0) << arguments << "\n" << r.err;
    return nlohmann::json::parse(r.out);
}

} // namespace

TEST(CliStep, BeforeTheFirstInstructionTheWarpIsWholeAndItsRegistersZero)
{
    const nlohmann::json doc = stepJson("divergence_odd_even --arg n=i32:64 --warp 1 --at 0");
    for (const char* key : {"step", "line", "ptx", "active_mask", "stack", "registers", "access", "warp_status",
                            "steps_in_warp", "block_index", "hazard"})
        EXPECT_TRUE(doc.contains(key)) << key;
    EXPECT_EQ(doc["step"], 0);
    EXPECT_EQ(doc["active_mask"], "0xffffffff");
    EXPECT_EQ(doc["warp_status"], "running");
    ASSERT_EQ(doc["stack"].size(), 1u);
    EXPECT_EQ(doc["stack"][0]["pc"], 0);
    EXPECT_TRUE(doc["stack"][0]["reconvergence_pc"].is_null());
    EXPECT_EQ(doc["stack"][0]["mask"], "0xffffffff");
    EXPECT_EQ(doc["block_index"], nlohmann::json::array({0, 0, 0}));
    for (const auto& [name, lanes] : doc["registers"].items()) {
        ASSERT_EQ(lanes.size(), 32u) << name;
        for (const auto& value : lanes)
            EXPECT_EQ(value, 0) << name;
    }
    EXPECT_TRUE(doc["access"].is_null());
}

// Warp 1 of divergence_odd_even, every step: the masks are all 32 lanes, the odd lanes or the even
// lanes; the stack is three deep while the first side runs and two deep while the second does; the global store's lanes are
// consecutive words of one request of four sectors, and the stored values are what `warpscope sim
// --dump out` prints for elements 32..63.
TEST(CliStep, OddEvenWarpDivergesReconvergesAndStoresWhatTheSimulatorWrote)
{
    const nlohmann::json first = stepJson("divergence_odd_even --arg n=i32:64 --warp 1 --at 0");
    const int steps = first["steps_in_warp"].get<int>();
    ASSERT_GT(steps, 20);
    std::set<std::string> masks;
    int firstSide = 0, secondSide = 0;
    nlohmann::json store;
    for (int at = 0; at < steps; ++at) {
        const nlohmann::json doc = stepJson("divergence_odd_even --arg n=i32:64 --warp 1 --at " + std::to_string(at));
        masks.insert(doc["path_mask"].get<std::string>());
        // The first side runs on top of three entries (the reconvergence entry, the second side,
        // the first); once it reaches the reconvergence point it is popped and the second side runs
        // on top of two; then that is popped too and the whole warp goes on.
        const std::size_t depth = doc["stack"].size();
        EXPECT_EQ(doc["stack"][0]["mask"], "0xffffffff") << "step " << at;
        EXPECT_EQ(doc["stack"][depth - 1]["mask"], doc["path_mask"]);
        if (depth == 3u) {
            ++firstSide;
            EXPECT_EQ(secondSide, 0) << "step " << at;
        } else if (depth == 2u) {
            ++secondSide;
            EXPECT_NE(doc["path_mask"], "0xffffffff");
        } else {
            EXPECT_EQ(depth, 1u) << "step " << at;
            EXPECT_EQ(doc["path_mask"], "0xffffffff");
        }
        if (doc["ptx"].get<std::string>().rfind("st.global", 0) == 0)
            store = doc;
    }
    EXPECT_EQ(masks, (std::set<std::string>{"0xffffffff", "0xaaaaaaaa", "0x55555555"}));
    EXPECT_GE(firstSide, 6); // each mix is six operations, run with half the lanes
    EXPECT_GE(secondSide, 6);
    ASSERT_FALSE(store.is_null());
    const auto& access = store["access"];
    ASSERT_FALSE(access.is_null());
    EXPECT_EQ(access["space"], "global");
    EXPECT_EQ(access["kind"], "store");
    EXPECT_EQ(access["requests"], 1);
    EXPECT_EQ(access["sectors"], 4);
    EXPECT_EQ(access["bytes_moved"], 128);
    ASSERT_EQ(access["lanes"].size(), 32u);
    const std::uint64_t base = access["lanes"][0]["address"].get<std::uint64_t>();
    for (int lane = 0; lane < 32; ++lane) {
        EXPECT_EQ(access["lanes"][static_cast<std::size_t>(lane)]["lane"], lane);
        EXPECT_EQ(access["lanes"][static_cast<std::size_t>(lane)]["address"].get<std::uint64_t>(), base + 4u * static_cast<unsigned>(lane));
    }
    // The value operand of "st.global.u32 [%rdN], %rM;" holds out[32 + lane].
    const std::string ptx = store["ptx"].get<std::string>();
    const std::string valueReg = ptx.substr(ptx.rfind(' ') + 1, ptx.find(';') - ptx.rfind(' ') - 1);
    ASSERT_TRUE(store["registers"].contains(valueReg)) << ptx;
    const CommandResult dump = runWarpscope("sim divergence_odd_even --arg n=i32:64 --dump out");
    ASSERT_EQ(dump.exitCode, 0) << dump.err;
    std::istringstream lines(dump.out);
    std::vector<std::uint64_t> out;
    for (std::string line; std::getline(lines, line);)
        out.push_back(std::stoull(line));
    ASSERT_EQ(out.size(), 64u);
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(store["registers"][valueReg][static_cast<std::size_t>(lane)].get<std::uint64_t>(), out[32u + static_cast<unsigned>(lane)])
            << "lane " << lane;
    // After the last instruction, every lane has exited.
    const nlohmann::json end = stepJson("divergence_odd_even --arg n=i32:64 --warp 1 --at " + std::to_string(steps));
    EXPECT_EQ(end["warp_status"], "exited");
    EXPECT_EQ(end["exited_mask"], "0xffffffff");
    EXPECT_TRUE(end["stack"].empty());
}

// The transposed tile's column read: 32 lanes, one word each, all in one bank without padding (32
// wavefronts, 31 bank conflicts); the padded tile spreads them over 32 banks (1 wavefront).
TEST(CliStep, TransposeColumnReadIsThirtyTwoWayWithoutPaddingAndConflictFreeWithIt)
{
    for (const std::string kernel : {"transpose_tiled", "transpose_padded"}) {
        const std::string launch = kernel + " --arg n=i32:32 --warp 0";
        const int steps = stepJson(launch + " --at 0")["steps_in_warp"].get<int>();
        nlohmann::json column;
        for (int at = 0; at < steps && column.is_null(); ++at) {
            const nlohmann::json doc = stepJson(launch + " --at " + std::to_string(at));
            if (doc["ptx"].get<std::string>().rfind("ld.shared", 0) == 0)
                column = doc;
        }
        ASSERT_FALSE(column.is_null()) << kernel;
        const auto& access = column["access"];
        ASSERT_EQ(access["lanes"].size(), 32u);
        EXPECT_EQ(access["space"], "shared");
        const bool padded = kernel == "transpose_padded";
        EXPECT_EQ(access["wavefronts"], padded ? 1 : 32) << kernel;
        EXPECT_EQ(access["bank_conflicts"], padded ? 0 : 31) << kernel;
        EXPECT_TRUE(access["caption"].is_null()) << kernel; // one request: no matrix caption
        // Lane l reads tile[l][0]: row l starts 32 (or 33) words after row l-1.
        const std::uint64_t base = access["lanes"][0]["address"].get<std::uint64_t>();
        for (int lane = 0; lane < 32; ++lane)
            EXPECT_EQ(access["lanes"][static_cast<std::size_t>(lane)]["address"].get<std::uint64_t>(),
                      base + 4u * (padded ? 33u : 32u) * static_cast<unsigned>(lane));
    }
}

// hazard_out_of_bounds (n = 1,000, blocks of 256, no bounds check): block 3's warp 7 holds threads
// 992-1023, so its load of a[i] (warp step 12, after the parameters, the index and the address) has
// lanes 8-31 past the end. The step names the element and the lanes as `warpscope sim` does, in
// JSON (with the lanes as a list) and in the text.
TEST(CliStep, AnOutOfBoundsStepNamesTheElementAndEveryLane)
{
    const std::string sentence = "reads a[1000], 1 element past the end (1,000 floats); lanes 8-31 "
                                 "(on a GPU: an illegal-address error or silent corruption)";
    const nlohmann::json doc = stepJson("hazard_out_of_bounds --block-index 3 --warp 7 --at 12");
    EXPECT_EQ(doc["ptx"], "ld.global.f32 %f1, [%rd8]");
    ASSERT_FALSE(doc["hazard"].is_null());
    EXPECT_EQ(doc["hazard"]["kind"], "out_of_bounds_global");
    EXPECT_EQ(doc["hazard"]["buffer"], "a");
    EXPECT_EQ(doc["hazard"]["lane"], 8);
    nlohmann::json lanes = nlohmann::json::array();
    for (int lane = 8; lane < 32; ++lane)
        lanes.push_back(lane);
    EXPECT_EQ(doc["hazard"]["lanes"], lanes);
    EXPECT_EQ(doc["hazard"]["message"], sentence);
    const CommandResult text = runWarpscope("step hazard_out_of_bounds --block-index 3 --warp 7 --at 12");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  hazard    out_of_bounds_global: " + sentence + "\n"), std::string::npos) << text.out;
}

TEST(CliStep, BadInputIsOneLineAndExitTwo)
{
    const struct {
        const char* arguments;
        const char* message;
    } cases[] = {
        {"divergence_odd_even --arg n=i32:64 --at 999", "--at 999: warp 0 of block (0, 0, 0) issued"},
        {"divergence_odd_even --arg n=i32:64 --warp 8", "--warp: 8 is out of range (allowed: 0..7)"},
        {"divergence_odd_even --arg n=i32:64 --block-index 1", "--block-index x: 1 is out of range (allowed: 0..0)"},
        {"divergence_odd_even --arg n=i32:64 --block-index 0,0,0,0", "at most three components"},
        {"divergence_odd_even --arg n=i32:64 --at -1", "--at"},
        {"no_such_kernel", "no_such_kernel"},
    };
    for (const auto& c : cases) {
        const CommandResult r = runWarpscope(std::string("step ") + c.arguments);
        EXPECT_EQ(r.exitCode, 2) << c.arguments << "\n" << r.err;
        EXPECT_EQ(warpscope::testing_support::lineCount(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
}

// A kernel with add.cc and sub.cc shows each lane's carry flag, CC.CF, as a mask: the odd lanes carry
// out of 0xffffffff + 1, then lanes 0..15 subtract 1 from (lane & 1) and the even ones borrow.
// Kernels without the carry instructions have no carry_mask.
TEST(CliStep, CarryFlagIsShownForKernelsThatUseIt)
{
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_carry.ptx";
    std::ofstream(path) << ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry carry(.param .u64 out)\n{\n"
                           "\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<3>;\n"
                           "\tmov.u32 %r1, %tid.x;\n"          // step 0
                           "\tand.b32 %r2, %r1, 1;\n"          // 1
                           "\tadd.u32 %r3, %r2, -2;\n"         // 2
                           "\tadd.cc.u32 %r4, %r3, 1;\n"       // 3
                           "\tmov.u32 %r5, 7;\n"               // 4
                           "\taddc.u32 %r6, %r5, 0;\n"         // 5
                           "\tsetp.lt.u32 %p1, %r1, 16;\n"     // 6
                           "\t@%p1 sub.cc.u32 %r7, %r2, 1;\n"  // 7
                           "\tld.param.u64 %rd1, [out];\n"     // 8
                           "\tcvta.to.global.u64 %rd1, %rd1;\n"
                           "\tmul.wide.u32 %rd2, %r1, 4;\n"
                           "\tadd.s64 %rd2, %rd1, %rd2;\n"
                           "\tst.global.u32 [%rd2], %r6;\n"
                           "\tret;\n}\n";
    const std::string launch = path + " --grid 1 --block 32 --arg out=u32[32] --warp 0";
    EXPECT_EQ(stepJson(launch + " --at 3")["carry_mask"], "0x00000000");
    EXPECT_EQ(stepJson(launch + " --at 4")["carry_mask"], "0xaaaaaaaa");
    EXPECT_EQ(stepJson(launch + " --at 7")["carry_mask"], "0xaaaaaaaa"); // mov and addc leave it
    EXPECT_EQ(stepJson(launch + " --at 8")["carry_mask"], "0xaaaa5555");
    const CommandResult text = runWarpscope("step " + launch + " --at 8");
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  carry     CC.CF 0xaaaa5555 (bit = lane)\n"), std::string::npos) << text.out;
    EXPECT_FALSE(stepJson("divergence_odd_even --arg n=i32:64 --warp 1 --at 3").contains("carry_mask"));
    std::remove(path.c_str());
}

// A kernel that never ends stops by itself and says why, with one warp or 32, inside 1 GB of
// address space (an unbounded timing log used to pass that within a minute and die of bad_alloc).
// Under AddressSanitizer (the debug preset) an address-space limit cannot hold its shadow memory,
// so the bound is on resident memory instead, with room for the sanitizer's own overhead. Under
// ThreadSanitizer (the tsan preset), which has neither, the children's peak resident memory is
// read afterwards.
TEST(CliStep, AnEndlessKernelStopsWithAMessageInBoundedMemory)
{
#if defined(__SANITIZE_ADDRESS__)
    const std::string limit = "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=3072\"; ";
#elif defined(__SANITIZE_THREAD__)
    const std::string limit;
#else
    const std::string limit = "ulimit -v 1048576; ";
#endif
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_spin.cu";
    std::ofstream(path) << "extern \"C\" __global__ void spin(volatile int* flag) { while (flag[0] == 0) { } }\n";
    for (const char* block : {"32", "1024"}) {
        const std::string errFile = path + ".err";
        const std::string command = "bash -c '" + limit + "exec " + std::string(WARPSCOPE_BINARY) + " sim " + path +
                                    " --grid 1 --block " + block + " --arg flag=i32[1] --threads 1' >/dev/null 2>" + errFile;
        const int status = std::system(command.c_str());
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 1) << block;
        std::ifstream errStream(errFile);
        const std::string err((std::istreambuf_iterator<char>(errStream)), std::istreambuf_iterator<char>());
        EXPECT_NE(err.find("block (0, 0, 0) issued more than 16,777,216 warp-instructions without finishing"), std::string::npos)
            << err;
        std::remove(errFile.c_str());
    }
#if defined(__SANITIZE_THREAD__)
    rusage children{};
    ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &children), 0);
    EXPECT_LT(children.ru_maxrss, 4L * 1024 * 1024) << "KB at the peak"; // the shadow memory included
#endif
    std::remove(path.c_str());
}

// A wmma.load counts one request per fragment register, so the plain "32 lanes x 4 bytes" line would
// hide 8 requests: the stepper prints the matrix caption instead. matmul_wmma's A tile is __half
// [.][16], 32 bytes a row; each fragment register's 32 lanes read 4 words of 8 rows (lane 4r + c:
// row r, word c), 8 banks apart, so rows r and r + 4 share banks: 2 wavefronts per request, 16 for
// the 8 registers, and 16 - 8 = 8 conflicts by lesson 07's rule applied per request.
TEST(CliStep, AWmmaLoadShowsItsRequestsAndThePerRequestConflictRule)
{
    const nlohmann::json doc = stepJson("matmul_wmma --at 197");
    const std::string ptx = doc["ptx"];
    ASSERT_EQ(ptx.rfind("wmma.load.a.", 0), 0u) << ptx;
    const std::string fragment = ptx.substr(ptx.find('{'), ptx.find('}') - ptx.find('{'));
    ASSERT_EQ(std::count(fragment.begin(), fragment.end(), '%'), 8) << fragment; // 8 fragment registers
    const auto& access = doc["access"];
    EXPECT_EQ(access["lanes"][4]["address"].get<std::uint64_t>() - access["lanes"][0]["address"].get<std::uint64_t>(), 32u);
    EXPECT_EQ(access["wavefronts"], 16);
    EXPECT_EQ(access["bank_conflicts"], 8);
    ASSERT_TRUE(access["caption"].is_string());
    const std::string caption = access["caption"];
    EXPECT_NE(caption.find("Shared load (wmma.load.a): the simulator counts 8 requests, one per fragment register, each "
                           "32 lanes x 4 bytes. All told 16 wavefronts and 8 bank conflicts"),
              std::string::npos)
        << caption;
    EXPECT_NE(caption.find("16 - 8 = 8."), std::string::npos) << caption;
    EXPECT_EQ(caption.find("figure"), std::string::npos) << caption; // the GUI's figure is not here
    const CommandResult text = runWarpscope("step matmul_wmma --at 197");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("\n  access    " + caption + "\n"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("32 lanes x 4 bytes: 16 wavefronts"), std::string::npos) << text.out;
}
