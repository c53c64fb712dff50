// The timing model on hand-built issue logs, with cycle counts worked out by hand from the H100
// preset's parameters (ALU 4 cycles, L1 hit 38, DRAM 700, 4 schedulers).
#include "gpu/gpu_preset.h"
#include "ptx/ptx_parser.h"
#include "sim/timing_memory.h"
#include "sim/timing_model.h"

#include <gtest/gtest.h>

using namespace warpscope;

namespace {

// pc 0: mov; 1: add (needs 0); 2: add (needs 1); 3: ret
const char* kChain = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry chain()
{
	.reg .b32 	%r<4>;
	mov.u32 	%r1, 1;
	add.s32 	%r2, %r1, 1;
	add.s32 	%r3, %r2, 1;
	ret;
}
)";

// pc 0: ld.param; 1: ld.global (needs 0); 2: add (needs 1); 3: ld.global again; 4: ret
const char* kLoad = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry load(.param .u64 p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [p];
	ld.global.u32 	%r1, [%rd1];
	add.s32 	%r2, %r1, 1;
	ld.global.u32 	%r3, [%rd1];
	ret;
}
)";

sim::BlockLog chainBlock(std::uint64_t linear, int warps)
{
    sim::BlockLog log;
    log.linearBlock = linear;
    for (int w = 0; w < warps; ++w)
        log.warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}});
    return log;
}

gpu::GpuPreset h100() { return *gpu::findPreset("sm_90"); }

// The H100 preset's timing without a block's start cost and the L2 bandwidth limit, so the cycles
// below follow from the latencies alone.
gpu::TimingParameters latenciesOnly()
{
    gpu::TimingParameters parameters = h100().timing;
    parameters.blockLaunchCycles = 0;
    parameters.l2BytesPerCycle = 0;
    return parameters;
}

} // namespace

TEST(TimingModel, DependentChainWaitsForEachResult)
{
    const ptx::Module module = ptx::parseModule(kChain);
    const ptx::Function& function = module.functions.front();
    const sim::SmTimingModel model(function, latenciesOnly(), 1, 132, 0);
    // mov at 0 (ready 4), add at 4 (ready 8), add at 8 (ready 12), ret at 9: done when the last
    // result lands, cycle 12.
    const sim::SmTiming timing = model.replay({chainBlock(0, 1)}, {}, {}, nullptr);
    EXPECT_EQ(timing.cycles, 12u);
    EXPECT_EQ(timing.issued, 4u);
    EXPECT_EQ(timing.stalls.execution, 6u); // 3 + 3 cycles waiting on the two adds' operands
}

TEST(TimingModel, AnotherWarpOnTheSameSchedulerFillsTheGaps)
{
    const ptx::Module module = ptx::parseModule(kChain);
    const ptx::Function& function = module.functions.front();
    const sim::SmTimingModel model(function, latenciesOnly(), 1, 132, 0);
    // Five warps: warps 0 and 4 share scheduler 0. Warp 4 fills warp 0's waits: mov at 1 (warp 0
    // went first), first add at 5; at 9 both are ready but the scheduler stays greedy with warp 0
    // (its ret), so warp 4's second add issues at 10 and lands at 14. Two warps cost 2 cycles more
    // than one, not twice as much: latency hiding.
    std::vector<std::pair<std::uint64_t, std::vector<std::vector<sim::IssueTiming>>>> times;
    const sim::SmTiming timing = model.replay({chainBlock(7, 5)}, {}, {7}, &times);
    EXPECT_EQ(timing.cycles, 14u);
    ASSERT_EQ(times.size(), 1u);
    const auto& warp4 = times[0].second[4];
    ASSERT_EQ(warp4.size(), 4u);
    EXPECT_EQ(warp4[0].cycle, 1u);
    EXPECT_EQ(warp4[0].reason, sim::StallReason::NotSelected);
    EXPECT_EQ(warp4[1].cycle, 5u);
    EXPECT_EQ(warp4[2].cycle, 10u);
    EXPECT_EQ(warp4[3].cycle, 11u);
}

TEST(TimingModel, ResidentBlocksRunTogetherAndLaterBlocksWait)
{
    const ptx::Module module = ptx::parseModule(kChain);
    const ptx::Function& function = module.functions.front();
    // One resident block at a time: the second block starts the cycle after the first finishes
    // issuing (its last issue is the ret at cycle 9), so it ends 10 cycles later: 22.
    const sim::SmTimingModel serial(function, latenciesOnly(), 1, 132, 0);
    EXPECT_EQ(serial.replay({chainBlock(0, 1), chainBlock(132, 1)}, {}, {}, nullptr).cycles, 22u);
    // Two resident blocks: the warps land on two schedulers and run side by side.
    const sim::SmTimingModel together(function, latenciesOnly(), 2, 132, 0);
    EXPECT_EQ(together.replay({chainBlock(0, 1), chainBlock(132, 1)}, {}, {}, nullptr).cycles, 12u);
}

TEST(TimingModel, LoadFromDramThenHitInL1)
{
    const ptx::Module module = ptx::parseModule(kLoad);
    const ptx::Function& function = module.functions.front();
    const sim::SmTimingModel model(function, latenciesOnly(), 1, 132, 0);
    // One sector at address 0x1000. ld.param at 0 (ready 4); the first load at 4 misses L1 and L2:
    // DRAM, ready at 4 + 700 = 704. As ptxas schedules the block, the second load (it needs only
    // %rd1) goes before the add that waits for the first: it issues at 5 and hits the sector L1
    // allocated for the first (ready at 43). The add issues at 704 (ready 708), the ret at 705.
    sim::BlockLog log;
    log.warps.push_back({{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 0, 0, 0}, {3, 1, 1, 1}, {4, 0, 0, 0}});
    const std::vector<std::uint64_t> sectors{0x1000, 0x1000};
    const sim::SmTiming timing = model.replay({log}, sectors, {}, nullptr);
    EXPECT_EQ(timing.cycles, 708u);
    EXPECT_EQ(timing.l1Misses, 1u);
    EXPECT_EQ(timing.l1Hits, 1u);
    EXPECT_EQ(timing.l2Misses, 1u);
    EXPECT_EQ(timing.dramBytes, 32u);
    EXPECT_EQ(timing.stalls.globalMemory, 698u); // the add: ready to go at 6, operand at 704
}

TEST(TimingModel, DramBandwidthLimitsManyMisses)
{
    const ptx::Module module = ptx::parseModule(kLoad);
    const ptx::Function& function = module.functions.front();
    // H100 SXM: 3,350 GB/s / 1,980 MHz / 132 SMs = 12.8 bytes per cycle per SM. 256 warps each
    // loading 4 distinct sectors (32,768 bytes in all) need 32,768 / 12.8 = 2,560 cycles of DRAM
    // time, far more than the 700-cycle latency they overlap with.
    const sim::SmTimingModel model(function, latenciesOnly(), 1, 132, 0);
    sim::BlockLog log;
    std::vector<std::uint64_t> sectors;
    for (std::uint32_t w = 0; w < 256; ++w) {
        const std::uint32_t offset = static_cast<std::uint32_t>(sectors.size());
        for (int s = 0; s < 4; ++s)
            sectors.push_back(0x100000 + (w * 4 + static_cast<std::uint32_t>(s)) * 32ull);
        log.warps.push_back({{0, 0, 0, 0}, {1, 4, 4, offset}, {4, 0, 0, 0}});
    }
    const sim::SmTiming timing = model.replay({log}, sectors, {}, nullptr);
    EXPECT_EQ(timing.dramBytes, 32768u);
    EXPECT_GE(timing.cycles, 2560u);
    EXPECT_LE(timing.cycles, 2560u + 40u); // the first load's issue cycle and rounding per request
}

TEST(TimingModel, ResidentBlocksFollowOccupancy)
{
    const ptx::Module module = ptx::parseModule(kChain);
    const ptx::Function& function = module.functions.front();
    // 256 threads and 32 registers on sm_90: 2,048 threads per SM -> 8 blocks.
    EXPECT_EQ(sim::residentBlocksPerSm(h100(), function, 256, 0, 32), 8);
    // 64 registers: 65,536 / (64 x 256) = 4 blocks.
    EXPECT_EQ(sim::residentBlocksPerSm(h100(), function, 256, 0, 64), 4);
}

// cp.async.wait_group holds the warp until the copies of the groups it waits for have landed.
// pc 0: ld.param; 1: cp.async (group 0); 2: commit; 3: cp.async (group 1); 4: commit;
// 5: wait_group 1; 6: wait_group 0; 7: mov; 8: ret. Worked by hand (ALU 4, DRAM 700 cycles,
// 12.8 DRAM bytes per cycle per SM):
//   ld.param at 0, %rd1 ready at 4; the first copy at 4 misses to DRAM: lands at 704 (its sector
//   takes the DRAM queue to 4 + 3 = 7); commit at 5; the second copy at 6, another sector: lands at
//   6 + 700 = 706 (DRAM queue 7 + 3 = 10); commit at 7;
//   wait_group 1 (group 0 only) is ready at 704, not 8: it issues at 704 after 696 stalled cycles;
//   wait_group 0 (group 1) at 706 after 1 more; mov at 707, its result at 711; ret at 708.
// Without the wait, mov would issue at 10 and the kernel end when the copies land, at 706.
TEST(TimingModel, CpAsyncWaitGroupWaitsForTheCopiesOfItsGroups)
{
    const ptx::Module module = ptx::parseModule(R"(
.version 9.0
.target sm_80
.address_size 64
.visible .entry copies(.param .u64 p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<2>;
	.shared .align 4 .b8 buf[256];
	ld.param.u64 	%rd1, [p];
	cp.async.ca.shared.global [buf], [%rd1], 4;
	cp.async.commit_group;
	cp.async.ca.shared.global [buf+128], [%rd1+128], 4;
	cp.async.commit_group;
	cp.async.wait_group 1;
	cp.async.wait_group 0;
	mov.u32 	%r1, 1;
	ret;
}
)");
    const ptx::Function& function = module.functions.front();
    const sim::SmTimingModel model(function, latenciesOnly(), 1, 132, 0);
    sim::BlockLog log;
    log.warps.push_back({{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 0, 0, 0}, {3, 1, 1, 1}, {4, 0, 0, 0},
                         {5, 0, 0, 0}, {6, 0, 0, 0}, {7, 0, 0, 0}, {8, 0, 0, 0}});
    const std::vector<std::uint64_t> sectors{0x1000, 0x2000};
    std::vector<std::pair<std::uint64_t, std::vector<std::vector<sim::IssueTiming>>>> times;
    const sim::SmTiming timing = model.replay({log}, sectors, {0}, &times);
    EXPECT_EQ(timing.cycles, 711u);
    EXPECT_EQ(timing.stalls.globalMemory, 697u);
    ASSERT_EQ(times.size(), 1u);
    const std::vector<sim::IssueTiming>& issued = times[0].second[0];
    ASSERT_EQ(issued.size(), 9u);
    const std::uint64_t expected[9] = {0, 4, 5, 6, 7, 704, 706, 707, 708};
    for (std::size_t i = 0; i < 9; ++i)
        EXPECT_EQ(issued[i].cycle, expected[i]) << "pc " << i;
    EXPECT_EQ(issued[5].reason, sim::StallReason::GlobalMemory);
    EXPECT_EQ(issued[5].stallCycles, 696u);

    // wait_all after the same copies, the second left uncommitted: it waits for both (706).
    const ptx::Module waitAll = ptx::parseModule(R"(
.version 9.0
.target sm_80
.address_size 64
.visible .entry copies(.param .u64 p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<2>;
	.shared .align 4 .b8 buf[256];
	ld.param.u64 	%rd1, [p];
	cp.async.ca.shared.global [buf], [%rd1], 4;
	cp.async.commit_group;
	cp.async.ca.shared.global [buf+128], [%rd1+128], 4;
	cp.async.wait_all;
	ret;
}
)");
    const sim::SmTimingModel allModel(waitAll.functions.front(), latenciesOnly(), 1, 132, 0);
    sim::BlockLog allLog;
    allLog.warps.push_back({{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 0, 0, 0}, {3, 1, 1, 1}, {4, 0, 0, 0}, {5, 0, 0, 0}});
    times.clear();
    const sim::SmTiming allTiming = allModel.replay({allLog}, sectors, {0}, &times);
    ASSERT_EQ(times.size(), 1u);
    EXPECT_EQ(times[0].second[0][4].cycle, 706u); // wait_all: ready when the later copy lands
    EXPECT_EQ(times[0].second[0][5].cycle, 707u);
    EXPECT_EQ(allTiming.cycles, 708u); // ret takes its issue cycle, 707, and ends at 708
}

TEST(TimingModel, ABlockStartsAfterItsLaunchCycles)
{
    const ptx::Module module = ptx::parseModule(kChain);
    const ptx::Function& function = module.functions.front();
    gpu::TimingParameters parameters = latenciesOnly();
    parameters.blockLaunchCycles = 600;
    // The chain of DependentChainWaitsForEachResult (12 cycles) starts at 600; a second block on
    // the same SM, one resident at a time, starts 600 cycles after the first's last issue (cycle
    // 609): 609 + 1 + 600 + 12 = 1222.
    const sim::SmTimingModel one(function, parameters, 1, 132, 0);
    EXPECT_EQ(one.replay({chainBlock(0, 1)}, {}, {}, nullptr).cycles, 612u);
    EXPECT_EQ(one.replay({chainBlock(0, 1), chainBlock(132, 1)}, {}, {}, nullptr).cycles, 1222u);
}

// An integer remainder by a register is ptxas's 17-instruction sequence: its scheduler issues
// nothing else for 17 cycles and the result comes 12 x 4 + 3 x 20 = 108 cycles later.
TEST(TimingModel, IntegerRemainderIsALongSequence)
{
    const ptx::Module module = ptx::parseModule(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry remainder()
{
	.reg .b32 	%r<4>;
	mov.u32 	%r1, 7;
	rem.u32 	%r2, %r1, %r1;
	add.s32 	%r3, %r2, 1;
	ret;
}
)");
    const sim::SmTimingModel model(module.functions.front(), latenciesOnly(), 1, 132, 0);
    // mov at 0 (ready 4), rem at 4 (ready 112, the warp's next issue no earlier than 21), add at
    // 112 (ready 116), ret at 113.
    sim::BlockLog log;
    log.warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}});
    EXPECT_EQ(model.replay({log}, {}, {}, nullptr).cycles, 116u);
}

// A store whose lanes write only part of each sector (transpose_naive's column writes): the sectors are
// merged at L2 at the preset's partly-written rate, and a sector that is already in L2 costs DRAM
// nothing more. pc 0: ld.param; 1: mov; 2: st.global.u32 (needs 0 and 1); 3: ret.
TEST(TimingModel, PartlyWrittenSectorsMergeAtL2AndReachDramOnce)
{
    const ptx::Module module = ptx::parseModule(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry store(.param .u64 p)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r1, 7;
	st.global.u32 	[%rd1], %r1;
	ret;
}
)");
    gpu::TimingParameters parameters = h100().timing;
    parameters.blockLaunchCycles = 0;
    ASSERT_EQ(parameters.l2PartialSectorsPerCycle, 32.0);
    const sim::SmTimingModel model(module.functions.front(), parameters, 1, 132, 0);
    // Eight warps each write one 4-byte word into the same 32 sectors, 4 KiB apart: at most 128 bytes
    // for 32 sectors, so at most (128 - 32) / 31 = 3 of them can be full and 29 are partly written.
    // This SM's share of L2: 5,120 / 32 / 132 = 1.2121 whole sectors and 32 / 132 = 0.2424 partly
    // written ones per cycle, so each store holds L2 for 3 / 1.2121 + 29 / 0.2424 = 122.1 cycles. The
    // first store issues at 5 (ptxas's order puts the mov at 0 and the ld.param at 1, its result at
    // 5); the load/store unit takes each store for 32 / 4 = 8 cycles, so the others issue by cycle 61,
    // each behind the one before at L2: the last is merged at 5 + 8 x 122.1 = 981.8, cycle 982 (after
    // its 260-cycle L2 hit). Only the first store misses L2 and allocates the 32 sectors DRAM will
    // receive once: 1,024 bytes.
    sim::BlockLog log;
    std::vector<std::uint64_t> sectors;
    for (std::uint64_t s = 0; s < 32; ++s)
        sectors.push_back(0x100000 + s * 4096);
    for (int w = 0; w < 8; ++w)
        log.warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 32, 32, 0}, {3, 0, 0, 0}});
    const sim::SmTiming timing = model.replay({log}, sectors, {}, nullptr);
    EXPECT_EQ(timing.cycles, 982u);
    EXPECT_EQ(timing.dramBytes, 1024u);

    // The same stores writing whole sectors would have held L2 for 8 x 32 / 1.2121 = 211 cycles: the
    // first store's DRAM miss (5 + 700 cycles) ends the launch instead.
    gpu::TimingParameters whole = parameters;
    whole.l2PartialSectorsPerCycle = 0;
    const sim::SmTimingModel wholeModel(module.functions.front(), whole, 1, 132, 0);
    EXPECT_EQ(wholeModel.replay({log}, sectors, {}, nullptr).cycles, 705u);
}

// pc 0: mov; 1: ld.param; 2: red.global (needs both); 3: ret (ptxas's order, as in the store test)
const char* kReduce = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry reduce(.param .u64 p)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r1, 1;
	red.global.add.u32 	[%rd1], %r1;
	ret;
}
)";

TEST(TimingModel, SameAddressAtomicsQueueAtL2)
{
    const ptx::Module module = ptx::parseModule(kReduce);
    gpu::TimingParameters parameters = latenciesOnly();
    ASSERT_EQ(parameters.l2AtomicCyclesPerUpdate, 1.0);
    const sim::SmTimingModel model(module.functions.front(), parameters, 1, 132, 0);
    // The red issues at 5 and misses L2: its sectors are at L2 after 700 - 260 = 440 cycles, at 445.
    // 32 lanes adding to one address (one sector; the pool's low five bits say 31 + 1 lanes) are 32
    // updates one after another, done at 445 + 32 = 477, the result back 260 cycles later: 737.
    sim::BlockLog oneAddress;
    oneAddress.warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 1, 1, 0}, {3, 0, 0, 0}});
    EXPECT_EQ(model.replay({oneAddress}, {0x100000 | 31}, {}, nullptr).cycles, 737u);
    // 32 lanes adding to 32 distinct words (four sectors of eight): one update per sector, in
    // parallel, done at 446 and back at 706: 31 serial updates fewer.
    sim::BlockLog distinct;
    distinct.warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 4, 4, 0}, {3, 0, 0, 0}});
    EXPECT_EQ(model.replay({distinct}, {0x100000, 0x100020, 0x100040, 0x100060}, {}, nullptr).cycles, 706u);

    // Without the atomic unit's cost both take the DRAM miss alone: 5 + 700.
    gpu::TimingParameters free = parameters;
    free.l2AtomicCyclesPerUpdate = 0;
    const sim::SmTimingModel freeModel(module.functions.front(), free, 1, 132, 0);
    EXPECT_EQ(freeModel.replay({oneAddress}, {0x100000 | 31}, {}, nullptr).cycles, 705u);
}

TEST(TimingModel, AnAddressTwoBlocksUpdateIsSharedWithEverySm)
{
    const ptx::Module module = ptx::parseModule(kReduce);
    const sim::SmTimingModel model(module.functions.front(), latenciesOnly(), 2, 132, 0);
    // Two resident blocks, one warp each, one lane each adding to the same word. The first block's
    // update is done at 445 + 1 = 446. The second block's finds the sector updated by another block:
    // the replayed SM stands for all 132, so this SM gets 1/132 of the address and its update holds
    // it for 132 cycles behind the first: done at 446 + 132 = 578, back at 838.
    std::vector<sim::BlockLog> blocks(2);
    for (std::uint64_t b = 0; b < 2; ++b) {
        blocks[b].linearBlock = b;
        blocks[b].warps.push_back({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 1, 1, static_cast<std::uint32_t>(b)}, {3, 0, 0, 0}});
    }
    EXPECT_EQ(model.replay(blocks, {0x100000, 0x100000}, {}, nullptr).cycles, 838u);
    // Each block updating its own word: no queue, both done by 5 + 701 or so.
    EXPECT_LE(model.replay(blocks, {0x100000, 0x200000}, {}, nullptr).cycles, 707u);
}

TEST(TimingModel, FastModuloIsTheRemainderForEverySector)
{
    // The caches find a sector's set by multiplication; it must be x % d exactly, for set counts that
    // are not powers of two (an H100's L2 slice: 50 MiB / 132 SMs / 32 B / 16 ways = 775 sets) and
    // for sectors anywhere in the 64-bit range.
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&] { // SplitMix64
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    const std::uint64_t all = ~std::uint64_t{0};
    for (const std::uint64_t d : std::vector<std::uint64_t>{1, 3, 7, 775, 888, 1000, 4095, 65537, (std::uint64_t{1} << 32) + 15, all}) {
        const sim::timing::FastModulo modulo(d);
        for (const std::uint64_t x : std::vector<std::uint64_t>{0, 1, d - 1, d, d + 1, all, all - 1, 0x7f0000000000ull >> 5})
            EXPECT_EQ(modulo(x), x % d) << x << " mod " << d;
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t x = next() >> (i % 64);
            ASSERT_EQ(modulo(x), x % d) << x << " mod " << d;
        }
    }
}
