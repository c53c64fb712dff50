// mbarrier and cp.async by hand (issue 15): each test is a small PTX kernel whose answers follow from
// the PTX ISA's definitions ("mbarrier": phases, pending and expected counts, parity; "cp.async":
// groups, wait_group N, src-size and ignore-src, cp.async.mbarrier.arrive with and without .noinc).
#include "sim_test_support.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

constexpr std::uint32_t kUntouched = 0xdeadbeefu;

std::string kernel(const std::string& declarations, const std::string& body)
{
    return ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry t(.param .u64 in, .param .u64 out)\n{\n"
           "\t.reg .pred %p<16>;\n\t.reg .b32 %r<48>;\n\t.reg .b64 %rd<32>;\n" +
           declarations +
           "\tld.param.u64 %rd20, [in];\n\tcvta.to.global.u64 %rd20, %rd20;\n"
           "\tld.param.u64 %rd21, [out];\n\tcvta.to.global.u64 %rd21, %rd21;\n"
           "\tmov.u32 %r40, %tid.x;\n" +
           body + "\tret;\n}\n";
}

sim::SimResult run(const std::string& ptx, std::int64_t threads, const std::vector<std::uint32_t>& input, std::size_t outputs)
{
    const CompiledKernel compiled = parsePtxKernel(ptx, "t");
    return simulateWithArgs(compiled, {1, 1, 1}, {threads, 1, 1},
                            {bufferArg("in", sim::ElementType::U32, input),
                             bufferArg("out", sim::ElementType::U32, std::vector<std::uint32_t>(outputs, kUntouched))});
}

std::vector<const sim::Hazard*> hazardsOf(const sim::SimResult& result, sim::HazardKind kind)
{
    std::vector<const sim::Hazard*> found;
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == kind)
            found.push_back(&hazard);
    return found;
}

std::vector<std::uint32_t> iota(std::size_t count, std::uint32_t first)
{
    std::vector<std::uint32_t> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = first + static_cast<std::uint32_t>(i);
    return values;
}

// out[tid * stride + slot] = %r<register>
std::string store(int slot, int stride, const std::string& value)
{
    return "\tmad.lo.u32 %r41, %r40, " + std::to_string(stride) + ", " + std::to_string(slot) +
           ";\n\tmul.wide.u32 %rd22, %r41, 4;\n\tadd.s64 %rd22, %rd21, %rd22;\n\tst.global.u32 [%rd22], " + value + ";\n";
}

} // namespace

// One thread walks a barrier through three phases. Expected count 2: the first arrival leaves 1
// pending (phase 0 not complete, by state or by parity 0); the second completes phase 0 (0 pending,
// parity 0 done, parity 1 not). arrive_drop in phase 1 leaves 1 pending and lowers the expected
// count to 1, so the next arrival completes phase 1 and the one after completes phase 2 alone.
TEST(AsyncCopy, MbarrierPhasesCountsAndParityByHand)
{
    std::string body =
        "\tmbarrier.init.shared.b64 [bar], 2;\n"
        "\tmbarrier.arrive.shared.b64 %rd1, [bar];\n"
        "\tmbarrier.pending_count.b64 %r1, %rd1;\n"
        "\tmbarrier.test_wait.shared.b64 %p1, [bar], %rd1;\n"
        "\tmbarrier.test_wait.parity.shared.b64 %p2, [bar], 0;\n"
        "\tmbarrier.arrive.shared.b64 %rd2, [bar];\n"
        "\tmbarrier.pending_count.b64 %r2, %rd2;\n"
        "\tmbarrier.test_wait.shared.b64 %p3, [bar], %rd1;\n"
        "\tmbarrier.test_wait.parity.shared.b64 %p4, [bar], 0;\n"
        "\tmbarrier.test_wait.parity.shared.b64 %p5, [bar], 1;\n"
        "\tmbarrier.arrive_drop.shared.b64 %rd3, [bar];\n"
        "\tmbarrier.pending_count.b64 %r3, %rd3;\n"
        "\tmbarrier.test_wait.shared.b64 %p6, [bar], %rd3;\n"
        "\tmbarrier.arrive.shared.b64 %rd4, [bar];\n"
        "\tmbarrier.pending_count.b64 %r4, %rd4;\n"
        "\tmbarrier.test_wait.shared.b64 %p7, [bar], %rd3;\n"
        "\tmbarrier.test_wait.shared.b64 %p8, [bar], %rd4;\n"
        "\tmbarrier.arrive.shared.b64 _, [bar];\n"
        "\tmbarrier.test_wait.parity.shared.b64 %p9, [bar], 0;\n"
        "\tmbarrier.test_wait.parity.shared.b64 %p10, [bar], 1;\n";
    for (int i = 1; i <= 4; ++i)
        body += store(i - 1, 14, "%r" + std::to_string(i));
    for (int p = 1; p <= 10; ++p)
        body += "\tselp.u32 %r" + std::to_string(10 + p) + ", 1, 0, %p" + std::to_string(p) + ";\n" +
                store(3 + p, 14, "%r" + std::to_string(10 + p));
    const sim::SimResult result = run(kernel("\t.shared .align 8 .b64 bar;\n", body), 1, {0}, 14);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::uint32_t> expected = {
        1, 0, 1, 0, // pending after the arrivals: 1; 0 (phase 0 done); 1 (the drop); 0 (phase 1 done)
        0, 0,       // phase 0, by state and by parity 0: not done after one arrival
        1, 1, 0,    // after the second: phase 0 done by state and by parity 0; parity 1 (phase 1) not
        0,          // phase 1 after the drop: not done
        1, 1,       // after one more arrival: phase 1 done (the drop's state and the arrival's)
        1, 0,       // the lone arrival completed phase 2 (parity 0); phase 3 (parity 1) has not
    };
    EXPECT_EQ(bufferValues<std::uint32_t>(result, "out"), expected);
}

// 64 threads (two warps) each write a word, arrive, spin on test_wait, then read a neighbour's word
// from the other warp for lane 31 and 63. The completed phase orders the writes before the reads:
// right values and no race. One arrival too many expected: nobody completes the phase, and the
// simulator stops the block with an mbarrier_deadlock hazard instead of spinning forever.
TEST(AsyncCopy, MbarrierOrdersSharedMemoryAndReportsADeadlock)
{
    auto exchange = [](int expected) {
        return kernel("\t.shared .align 8 .b64 bar;\n\t.shared .align 4 .b8 data[256];\n",
                      "\tsetp.ne.u32 %p1, %r40, 0;\n"
                      "\t@%p1 bra $SKIP;\n"
                      "\tmbarrier.init.shared.b64 [bar], " + std::to_string(expected) + ";\n"
                      "$SKIP:\n"
                      "\tbar.sync 0;\n"
                      "\tmul.lo.u32 %r2, %r40, 3;\n\tshl.b32 %r3, %r40, 2;\n\tmov.u32 %r4, data;\n"
                      "\tadd.u32 %r5, %r4, %r3;\n\tst.shared.u32 [%r5], %r2;\n"
                      "\tmbarrier.arrive.shared.b64 %rd1, [bar];\n"
                      "$WAIT:\n"
                      "\tmbarrier.test_wait.shared.b64 %p2, [bar], %rd1;\n"
                      "\t@!%p2 bra $WAIT;\n"
                      "\tadd.u32 %r6, %r40, 1;\n\tand.b32 %r6, %r6, 63;\n\tshl.b32 %r7, %r6, 2;\n"
                      "\tadd.u32 %r8, %r4, %r7;\n\tld.shared.u32 %r9, [%r8];\n" +
                          store(0, 1, "%r9"));
    };
    const sim::SimResult ordered = run(exchange(64), 64, {0}, 64);
    ASSERT_EQ(ordered.status, sim::SimStatus::Completed) << ordered.statusMessage;
    EXPECT_TRUE(ordered.hazards.empty()) << ordered.hazards.front().message;
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(ordered, "out");
    for (std::uint32_t tid = 0; tid < 64; ++tid)
        EXPECT_EQ(out[tid], (tid + 1) % 64 * 3) << "thread " << tid;

    const sim::SimResult stuck = run(exchange(65), 64, {0}, 64);
    ASSERT_EQ(stuck.status, sim::SimStatus::Completed) << stuck.statusMessage;
    const auto deadlocks = hazardsOf(stuck, sim::HazardKind::MbarrierDeadlock);
    ASSERT_EQ(deadlocks.size(), 1u);
    EXPECT_NE(deadlocks[0]->message.find("still needs 1 of its 65 arrivals"), std::string::npos) << deadlocks[0]->message;
    EXPECT_NE(deadlocks[0]->message.find("warps 0-1"), std::string::npos) << deadlocks[0]->message;
    EXPECT_EQ(bufferValues<std::uint32_t>(stuck, "out"), std::vector<std::uint32_t>(64, kUntouched)); // nobody got past the wait
}

TEST(AsyncCopy, MbarrierMisuseIsReported)
{
    // An arrival on a barrier nobody initialised, and an init with a count of 0.
    const sim::SimResult uninitialised =
        run(kernel("\t.shared .align 8 .b64 bar;\n", "\tmbarrier.arrive.shared.b64 %rd1, [bar];\n"), 1, {0}, 1);
    ASSERT_EQ(hazardsOf(uninitialised, sim::HazardKind::MbarrierMisuse).size(), 1u);
    EXPECT_NE(hazardsOf(uninitialised, sim::HazardKind::MbarrierMisuse)[0]->message.find("before any thread initialised it"),
              std::string::npos);
    const sim::SimResult zero = run(kernel("\t.shared .align 8 .b64 bar;\n", "\tmbarrier.init.shared.b64 [bar], 0;\n"), 1, {0}, 1);
    ASSERT_EQ(hazardsOf(zero, sim::HazardKind::MbarrierMisuse).size(), 1u);
    EXPECT_NE(hazardsOf(zero, sim::HazardKind::MbarrierMisuse)[0]->message.find("expected count of 0"), std::string::npos);
}

// Three copies per thread: A (group 0) and B (group 1) committed, C not. Before any wait every
// destination still holds the 0xffffffff written first; wait_group 1 lands every committed group
// but the newest (A only); wait_all lands the rest. Reads before a copy lands are hazards.
TEST(AsyncCopy, WaitGroupLandsAllButTheNewestGroups)
{
    auto copy = [](int region) {
        return "\tmul.wide.u32 %rd1, %r40, 4;\n\tadd.s64 %rd2, %rd20, %rd1;\n\tadd.s64 %rd2, %rd2, " +
               std::to_string(region * 128) + ";\n\tshl.b32 %r1, %r40, 2;\n\tmov.u32 %r2, sm;\n\tadd.u32 %r3, %r2, %r1;\n"
               "\tcp.async.ca.shared.global [%r3+" + std::to_string(region * 128) + "], [%rd2], 4;\n";
    };
    auto load = [](int region, int into) {
        return "\tld.shared.u32 %r" + std::to_string(into) + ", [%r3+" + std::to_string(region * 128) + "];\n";
    };
    std::string body = "\tshl.b32 %r1, %r40, 2;\n\tmov.u32 %r2, sm;\n\tadd.u32 %r3, %r2, %r1;\n\tmov.u32 %r4, -1;\n"
                       "\tst.shared.u32 [%r3], %r4;\n\tst.shared.u32 [%r3+128], %r4;\n\tst.shared.u32 [%r3+256], %r4;\n" +
                       copy(0) + "\tcp.async.commit_group;\n" + copy(1) + "\tcp.async.commit_group;\n" + copy(2) +
                       load(0, 10) + "\tcp.async.wait_group 1;\n" + load(0, 11) + load(1, 12) + load(2, 13) +
                       "\tcp.async.wait_all;\n" + load(1, 14) + load(2, 15);
    for (int i = 0; i < 6; ++i)
        body += store(i, 6, "%r" + std::to_string(10 + i));
    const std::vector<std::uint32_t> input = iota(96, 1000);
    const sim::SimResult result = run(kernel("\t.shared .align 16 .b8 sm[384];\n", body), 32, input, 32 * 6);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(result, "out");
    for (std::uint32_t tid = 0; tid < 32; ++tid) {
        const std::vector<std::uint32_t> row(out.begin() + tid * 6, out.begin() + tid * 6 + 6);
        EXPECT_EQ(row, (std::vector<std::uint32_t>{0xffffffffu, 1000 + tid, 0xffffffffu, 0xffffffffu, 1032 + tid, 1064 + tid}))
            << "thread " << tid;
    }
    // The three reads before their copies landed (A before any wait; B and C after wait_group 1).
    const auto early = hazardsOf(result, sim::HazardKind::AsyncCopyInFlight);
    ASSERT_EQ(early.size(), 3u);
    for (const sim::Hazard* hazard : early) {
        EXPECT_EQ(hazard->occurrences, 32u);
        EXPECT_NE(hazard->message.find("reads shared memory"), std::string::npos);
        EXPECT_NE(hazard->message.find("this thread's cp.async"), std::string::npos) << hazard->message;
    }
    EXPECT_TRUE(hazardsOf(result, sim::HazardKind::SharedRace).empty());
}

// src-size 4 of a 16-byte copy: 4 bytes from the source, 12 zero bytes. ignore-src true: 16 zeros.
TEST(AsyncCopy, SourceSizeAndIgnoreSourceFillWithZeros)
{
    const std::string body =
        "\tshl.b32 %r1, %r40, 4;\n\tmov.u32 %r2, sm;\n\tadd.u32 %r3, %r2, %r1;\n\tmov.u32 %r4, -1;\n"
        "\tst.shared.v4.u32 [%r3], {%r4, %r4, %r4, %r4};\n\tst.shared.v4.u32 [%r3+512], {%r4, %r4, %r4, %r4};\n"
        "\tmul.wide.u32 %rd1, %r40, 16;\n\tadd.s64 %rd2, %rd20, %rd1;\n"
        "\tcp.async.ca.shared.global [%r3], [%rd2], 16, 4;\n"
        "\tand.b32 %r5, %r40, 1;\n\tsetp.eq.u32 %p1, %r5, 1;\n"
        "\tcp.async.cg.shared.global [%r3+512], [%rd2], 16, %p1;\n"
        "\tcp.async.wait_all;\n"
        "\tld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r3];\n\tld.shared.v4.u32 {%r14, %r15, %r16, %r17}, [%r3+512];\n" +
        store(0, 8, "%r10") + store(1, 8, "%r11") + store(2, 8, "%r12") + store(3, 8, "%r13") + store(4, 8, "%r14") +
        store(5, 8, "%r15") + store(6, 8, "%r16") + store(7, 8, "%r17");
    const sim::SimResult result = run(kernel("\t.shared .align 16 .b8 sm[1024];\n", body), 32, iota(128, 7), 32 * 8);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(result, "out");
    for (std::uint32_t tid = 0; tid < 32; ++tid) {
        const std::uint32_t a = 7 + 4 * tid;
        const std::vector<std::uint32_t> row(out.begin() + tid * 8, out.begin() + tid * 8 + 8);
        const std::vector<std::uint32_t> copied = tid % 2 == 1 ? std::vector<std::uint32_t>{0, 0, 0, 0}
                                                               : std::vector<std::uint32_t>{a, a + 1, a + 2, a + 3};
        std::vector<std::uint32_t> expected{a, 0, 0, 0};
        expected.insert(expected.end(), copied.begin(), copied.end());
        EXPECT_EQ(row, expected) << "thread " << tid;
    }
    // The sources count as global loads: 32 lanes x 16 contiguous bytes are 16 sectors; the 16 lanes
    // that do not ignore their source read 16 bytes every 32, 16 sectors more.
    EXPECT_EQ(result.stats.global.loadSectors, 32u);
}

// cp.async.mbarrier.arrive: the barrier's phase completes only once the thread's copies have landed.
// Without .noinc it raises the pending count first (net zero), so the expected count is the
// threads; with .noinc the expected count must include one asynchronous arrival per thread. With
// .noinc and only the threads counted, the phase completes on the plain arrivals alone, before the
// copies land: the reads that follow see the old bytes and are reported.
TEST(AsyncCopy, AsyncArrivalsHoldThePhaseUntilTheCopiesLand)
{
    auto exchange = [](const std::string& arrive, int expected) {
        return kernel("\t.shared .align 8 .b64 bar;\n\t.shared .align 4 .b8 data[128];\n",
                      "\tsetp.ne.u32 %p1, %r40, 0;\n\t@%p1 bra $SKIP;\n"
                      "\tmbarrier.init.shared.b64 [bar], " + std::to_string(expected) + ";\n"
                      "$SKIP:\n\tbar.sync 0;\n"
                      "\tmov.u32 %r4, -1;\n\tshl.b32 %r3, %r40, 2;\n\tmov.u32 %r5, data;\n\tadd.u32 %r6, %r5, %r3;\n"
                      "\tst.shared.u32 [%r6], %r4;\n\tbar.sync 0;\n"
                      "\tmul.wide.u32 %rd1, %r40, 4;\n\tadd.s64 %rd2, %rd20, %rd1;\n"
                      "\tcp.async.ca.shared.global [%r6], [%rd2], 4;\n"
                      "\t" + arrive + " [bar];\n"
                      "\tmbarrier.arrive.shared.b64 %rd5, [bar];\n"
                      "$WAIT:\n\tmbarrier.test_wait.shared.b64 %p2, [bar], %rd5;\n\t@!%p2 bra $WAIT;\n"
                      "\tadd.u32 %r7, %r40, 1;\n\tand.b32 %r7, %r7, 31;\n\tshl.b32 %r7, %r7, 2;\n\tadd.u32 %r8, %r5, %r7;\n"
                      "\tld.shared.u32 %r9, [%r8];\n" + store(0, 1, "%r9"));
    };
    const std::vector<std::uint32_t> input = iota(32, 500);
    std::vector<std::uint32_t> rotated(32);
    for (std::uint32_t tid = 0; tid < 32; ++tid)
        rotated[tid] = 500 + (tid + 1) % 32;
    for (const auto& [arrive, expected] : {std::pair<std::string, int>{"cp.async.mbarrier.arrive.shared.b64", 32},
                                           std::pair<std::string, int>{"cp.async.mbarrier.arrive.noinc.shared.b64", 64}}) {
        const sim::SimResult result = run(exchange(arrive, expected), 32, input, 32);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << arrive << ": " << result.statusMessage;
        EXPECT_TRUE(result.hazards.empty()) << arrive << ": " << result.hazards.front().message;
        EXPECT_EQ(bufferValues<std::uint32_t>(result, "out"), rotated) << arrive;
    }
    const sim::SimResult early = run(exchange("cp.async.mbarrier.arrive.noinc.shared.b64", 32), 32, input, 32);
    ASSERT_EQ(early.status, sim::SimStatus::Completed) << early.statusMessage;
    EXPECT_EQ(bufferValues<std::uint32_t>(early, "out"), std::vector<std::uint32_t>(32, 0xffffffffu));
    const auto inFlight = hazardsOf(early, sim::HazardKind::AsyncCopyInFlight);
    ASSERT_EQ(inFlight.size(), 1u);
    EXPECT_NE(inFlight[0]->message.find("the cp.async of thread 1"), std::string::npos) << inFlight[0]->message;
}

TEST(AsyncCopy, MisalignedAndOutOfBoundsCopiesAreHazards)
{
    const sim::SimResult misaligned =
        run(kernel("\t.shared .align 16 .b8 sm[64];\n",
                   "\tmov.u32 %r1, sm;\n\tcp.async.cg.shared.global [%r1+4], [%rd20], 16;\n\tcp.async.wait_all;\n"),
            1, iota(8, 0), 1);
    ASSERT_EQ(hazardsOf(misaligned, sim::HazardKind::MisalignedAccess).size(), 1u);
    EXPECT_NE(hazardsOf(misaligned, sim::HazardKind::MisalignedAccess)[0]->message.find("into shared offset 4"),
              std::string::npos);
    const sim::SimResult outside =
        run(kernel("\t.shared .align 16 .b8 sm[64];\n",
                   "\tmov.u32 %r1, sm;\n\tcp.async.ca.shared.global [%r1+64], [%rd20], 4;\n\tcp.async.wait_all;\n"),
            1, iota(8, 0), 1);
    EXPECT_EQ(hazardsOf(outside, sim::HazardKind::OutOfBoundsShared).size(), 1u);
    const sim::SimResult pastTheSource =
        run(kernel("\t.shared .align 16 .b8 sm[64];\n",
                   "\tmov.u32 %r1, sm;\n\tcp.async.ca.shared.global [%r1], [%rd20+32], 4;\n\tcp.async.wait_all;\n"),
            1, iota(8, 0), 1);
    EXPECT_EQ(hazardsOf(pastTheSource, sim::HazardKind::OutOfBoundsGlobal).size(), 1u);
}

// The sm_80 forms decode; the sm_90 cluster and transaction-count forms are valid PTX the simulator
// does not run yet (noted, not bad input), and a malformed copy is bad input.
TEST(AsyncCopy, DecodingAcceptsTheSm80FormsAndNotesTheRest)
{
    const ptx::Module module = ptx::parseModule(kernel(
        "\t.shared .align 8 .b64 bar;\n\t.shared .align 16 .b8 sm[64];\n",
        "\tmov.u32 %r1, sm;\n"
        "\tmbarrier.init.shared::cta.b64 [bar], 1;\n"
        "\tmbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar], 1;\n"
        "\tmbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0, 1000;\n"
        "\tcp.async.cg.shared.global.L2::128B [%r1], [%rd20], 16;\n"
        "\tmbarrier.expect_tx.shared::cta.b64 [bar], 16;\n"
        "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd20], 16, [bar];\n"));
    const ptx::Function& function = *module.findFunction("t");
    std::vector<std::string> unsupported;
    for (const ptx::UnsupportedConstruct& construct : function.unsupported)
        unsupported.push_back(construct.construct);
    EXPECT_EQ(unsupported, (std::vector<std::string>{"mbarrier.expect_tx.shared::cta.b64",
                                                     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"}));
    const auto count = std::count_if(function.instructions.begin(), function.instructions.end(), [](const ptx::Instruction& in) {
        return in.op == ptx::Op::Mbarrier || in.op == ptx::Op::CpAsync;
    });
    EXPECT_EQ(count, 4);
    EXPECT_THROW(ptx::parseModule(kernel("\t.shared .align 16 .b8 sm[64];\n",
                                         "\tmov.u32 %r1, sm;\n\tcp.async.cg.shared.global [%r1], [%rd20], 4;\n")),
                 ptx::PtxError);
}
