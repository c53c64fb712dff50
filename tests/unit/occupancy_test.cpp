// Occupancy against hand-worked expectations. Each case shows the arithmetic in its comment, done
// from the rules in the CUDA Programming Guide and the toolkit's cuda_occupancy.h, not from our code.
#include "occupancy/occupancy.h"
#include "occupancy/occupancy_sweep.h"
#include "util/input_error.h"

#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::occupancy;

namespace {

gpu::GpuPreset preset(const char* arch)
{
    auto found = gpu::findPreset(arch);
    EXPECT_TRUE(found.has_value()) << arch;
    return *found;
}

OccupancyInput launchOf(int threads, int regs, std::size_t staticShared = 0, std::size_t dynamicShared = 0)
{
    OccupancyInput input;
    input.threadsPerBlock = threads;
    input.registersPerThread = regs;
    input.staticSharedBytes = staticShared;
    input.dynamicSharedBytes = dynamicShared;
    return input;
}

int limitOf(const OccupancyResult& r, Limiter limiter)
{
    for (const auto& detail : r.limits)
        if (detail.limiter == limiter)
            return detail.blockLimit;
    return -1;
}

std::vector<Limiter> only(Limiter limiter) { return {limiter}; }

} // namespace

// --- The four cases of the issue --------------------------------------------------------------

TEST(Occupancy, Sm90_96Threads_40Registers_IsRegisterLimited)
{
    // 40 regs x 32 = 1280 per warp (already a multiple of 256); 16384 / 1280 = 12 warps per
    // sub-partition -> 48 warps per SM -> 48 / 3 = 16 blocks; warps alone: 64 / 3 = 21.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(96, 40));
    EXPECT_EQ(r.activeBlocksPerSm, 16);
    EXPECT_EQ(r.activeWarpsPerSm, 48);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
    EXPECT_EQ(r.binding, only(Limiter::Registers));
    EXPECT_EQ(r.registersPerWarp, 1280);
    EXPECT_EQ(r.warpsPerSubPartitionByRegisters, 12);
    EXPECT_EQ(limitOf(r, Limiter::Warps), 21);
}

TEST(Occupancy, Sm80_128Threads_40Registers_16KStatic_IsSharedLimited)
{
    // 16384 + 1024 reserved = 17408 (a multiple of 128); 164 KB = 167936 / 17408 = 9.6 -> 9 blocks
    // = 36 warps of 64 = 56.25 %. Registers alone: 48 warps / 4 = 12 blocks.
    const auto r = computeOccupancy(preset("sm_80"), launchOf(128, 40, 16 * 1024));
    EXPECT_EQ(r.activeBlocksPerSm, 9);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.5625);
    EXPECT_EQ(r.binding, only(Limiter::SharedMemory));
    EXPECT_EQ(r.sharedPerBlock, 17408u);
    EXPECT_EQ(r.sharedPerSm, 167936u);
    EXPECT_EQ(limitOf(r, Limiter::Registers), 12);
}

TEST(Occupancy, Sm86_256Threads_64Registers)
{
    // 64 x 32 = 2048 per warp; 16384 / 2048 = 8 warps per sub-partition -> 32 warps -> 4 blocks of 8
    // warps = 32 of 48 warps = 66.7 %. Warps alone: 48 / 8 = 6.
    const auto r = computeOccupancy(preset("sm_86"), launchOf(256, 64));
    EXPECT_EQ(r.activeBlocksPerSm, 4);
    EXPECT_NEAR(r.occupancy, 2.0 / 3.0, 1e-12);
    EXPECT_EQ(r.binding, only(Limiter::Registers));
    EXPECT_EQ(limitOf(r, Limiter::Warps), 6);
}

TEST(Occupancy, Sm90_256Threads_32Registers_32KDynamic)
{
    // 32768 + 1024 = 33792 per block; 228 KB = 233472 / 33792 = 6.9 -> 6 blocks = 48 warps = 75 %.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(256, 32, 0, 32 * 1024));
    EXPECT_EQ(r.activeBlocksPerSm, 6);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
    EXPECT_EQ(r.binding, only(Limiter::SharedMemory));
    EXPECT_EQ(limitOf(r, Limiter::Registers), 8);
}

// --- One or more hand-worked cases per limiter ----------------------------------------------

TEST(Occupancy, WarpsBindAtFullOccupancy)
{
    // 1024 threads = 32 warps; 64 / 32 = 2 blocks = 100 %. 16 regs -> 512 per warp -> 32 warps per
    // sub-partition -> 128 -> 4 blocks; shared: only the 1 KB reservation -> 228 blocks.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(1024, 16));
    EXPECT_EQ(r.activeBlocksPerSm, 2);
    EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
    EXPECT_EQ(r.binding, only(Limiter::Warps));
    EXPECT_EQ(limitOf(r, Limiter::SharedMemory), 228);
    EXPECT_NE(r.explanation.find("this is the maximum"), std::string::npos) << r.explanation;
}

TEST(Occupancy, WarpsBindBelowFullWhenBlocksDoNotDivide)
{
    // sm_86: 640 threads = 20 warps; 48 / 20 = 2 blocks = 40 of 48 warps = 83.3 %.
    const auto r = computeOccupancy(preset("sm_86"), launchOf(640, 16));
    EXPECT_EQ(r.activeBlocksPerSm, 2);
    EXPECT_NEAR(r.occupancy, 40.0 / 48.0, 1e-12);
    EXPECT_EQ(r.binding, only(Limiter::Warps));
}

TEST(Occupancy, BlocksBindWithTinyBlocks)
{
    // sm_90, 32 threads: warps allow 64, registers (16) allow 128, blocks allow 32 -> 32 warps = 50 %.
    const auto h100 = computeOccupancy(preset("sm_90"), launchOf(32, 16));
    EXPECT_EQ(h100.activeBlocksPerSm, 32);
    EXPECT_DOUBLE_EQ(h100.occupancy, 0.5);
    EXPECT_EQ(h100.binding, only(Limiter::Blocks));
    // T4 holds 16 blocks of its 32 warps -> 50 % too.
    const auto t4 = computeOccupancy(preset("sm_75"), launchOf(32, 16));
    EXPECT_EQ(t4.activeBlocksPerSm, 16);
    EXPECT_DOUBLE_EQ(t4.occupancy, 0.5);
    EXPECT_NE(t4.explanation.find("at least 2 warps (64 threads) per block"), std::string::npos) << t4.explanation;
}

TEST(Occupancy, RegistersRoundUpTo256PerWarp)
{
    // 33 regs x 32 = 1056 -> 1280 per warp, the same as 40 registers: still 12 warps per
    // sub-partition -> 16 blocks of 3 warps on sm_90; 32 regs (1024) allows 16 warps -> 21 blocks.
    EXPECT_EQ(computeOccupancy(preset("sm_90"), launchOf(96, 33)).activeBlocksPerSm, 16);
    EXPECT_EQ(computeOccupancy(preset("sm_90"), launchOf(96, 32)).activeBlocksPerSm, 21);
    const auto r = computeOccupancy(preset("sm_90"), launchOf(96, 40));
    EXPECT_NE(r.explanation.find("at most 32 registers"), std::string::npos) << r.explanation;
}

TEST(Occupancy, RegisterBlockLimitMakesLaunchImpossible)
{
    // 1024 threads x 64 regs = 2048 x 32 warps = 65536: fits exactly, 8 warps per sub-partition
    // -> 32 warps -> 1 block = 50 %. 65 regs -> 2304 per warp x 32 = 73728 > 65536 -> cannot launch.
    const auto fits = computeOccupancy(preset("sm_90"), launchOf(1024, 64));
    EXPECT_EQ(fits.activeBlocksPerSm, 1);
    EXPECT_DOUBLE_EQ(fits.occupancy, 0.5);
    const auto over = computeOccupancy(preset("sm_90"), launchOf(1024, 65));
    EXPECT_EQ(over.activeBlocksPerSm, 0);
    EXPECT_FALSE(over.launchable());
    EXPECT_NE(over.explanation.find("cannot run"), std::string::npos);
}

TEST(Occupancy, VoltaSharedUses256ByteUnitsAndNoReservation)
{
    // sm_70: 10000 bytes -> 10240 (256-byte units, nothing reserved); 96 KB = 98304 / 10240 = 9.6 -> 9
    // blocks = 36 warps = 56.25 %.
    const auto r = computeOccupancy(preset("sm_70"), launchOf(128, 32, 10000));
    EXPECT_EQ(r.sharedPerBlock, 10240u);
    EXPECT_EQ(r.activeBlocksPerSm, 9);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.5625);
}

TEST(Occupancy, CarveoutStepsLimitShared)
{
    // sm_90, 16 KB static + 1 KB = 17408 per block. Carveout 50 % of 228 KB = 114 KB, rounded up to
    // the next supported step, 132 KB = 135168 -> 7 blocks = 28 warps = 43.75 %.
    OccupancyInput input = launchOf(128, 32, 16 * 1024);
    input.carveoutPercent = 50;
    const auto half = computeOccupancy(preset("sm_90"), input);
    EXPECT_EQ(half.sharedPerSm, 135168u);
    EXPECT_EQ(half.activeBlocksPerSm, 7);
    EXPECT_DOUBLE_EQ(half.occupancy, 0.4375);
    EXPECT_NE(half.explanation.find("raise the carveout"), std::string::npos);
    // The default carveout uses all 228 KB: 233472 / 17408 = 13 blocks = 81.25 %.
    input.carveoutPercent = -1;
    EXPECT_EQ(computeOccupancy(preset("sm_90"), input).activeBlocksPerSm, 13);
    // Carveout 0 is smaller than one block: the driver picks the smallest step that fits, 32 KB -> 1.
    input.carveoutPercent = 0;
    const auto none = computeOccupancy(preset("sm_90"), input);
    EXPECT_EQ(none.sharedPerSm, 32768u);
    EXPECT_EQ(none.activeBlocksPerSm, 1);
}

TEST(Occupancy, OptInDynamicShared)
{
    // 100 KB dynamic + 1 KB = 103424; 233472 / 103424 = 2 blocks. Above 48 KB it needs the opt-in.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(256, 32, 0, 100 * 1024));
    EXPECT_EQ(r.activeBlocksPerSm, 2);
    EXPECT_TRUE(r.needsOptin);
    // The whole opt-in limit: 227 KB + 1 KB = 228 KB -> exactly 1 block.
    EXPECT_EQ(computeOccupancy(preset("sm_90"), launchOf(256, 32, 0, 227 * 1024)).activeBlocksPerSm, 1);
}

TEST(Occupancy, BarriersLimitFromHopper)
{
    // sm_90: 2 barriers per block slot x 32 slots = 64; 16 barriers per block -> 4 blocks of 1 warp.
    OccupancyInput input = launchOf(32, 16);
    input.barriersPerBlock = 16;
    const auto r = computeOccupancy(preset("sm_90"), input);
    EXPECT_EQ(r.activeBlocksPerSm, 4);
    EXPECT_EQ(r.binding, only(Limiter::Barriers));
    // cuda_occupancy.h applies no barrier limit before 9.0.
    const auto a100 = computeOccupancy(preset("sm_80"), input);
    EXPECT_EQ(limitOf(a100, Limiter::Barriers), INT_MAX);
    EXPECT_EQ(a100.activeBlocksPerSm, 32);
}

TEST(Occupancy, RejectsOutOfRangeInput)
{
    const auto h100 = preset("sm_90");
    EXPECT_THROW(computeOccupancy(h100, launchOf(0, 32)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(1025, 32)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(256, 0)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(256, 256)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(256, 32, 48 * 1024 + 1)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(256, 32, 0, 227 * 1024 + 1)), InputError);
    EXPECT_THROW(computeOccupancy(h100, launchOf(256, 32, 40 * 1024, 200 * 1024)), InputError);
    OccupancyInput input = launchOf(256, 32);
    input.carveoutPercent = 101;
    EXPECT_THROW(computeOccupancy(h100, input), InputError);
    try {
        computeOccupancy(h100, launchOf(256, 300));
        FAIL() << "300 registers accepted";
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "registers per thread: 300 is out of range (allowed: 1..255)");
    }
}

TEST(Occupancy, ImpossibleRegisterCountExplainsTheFourWarpRounding)
{
    // 800 threads = 25 warps; 80 regs -> 2560 per warp. 25 x 2560 = 64,000 fits 65,536, but the
    // launch check counts 28 warps (a multiple of 4 sub-partitions): 71,680 > 65,536 -> 0 blocks.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(800, 80));
    EXPECT_EQ(r.activeBlocksPerSm, 0);
    EXPECT_NE(r.explanation.find("counted as 28"), std::string::npos) << r.explanation;
    EXPECT_NE(r.explanation.find("71,680"), std::string::npos) << r.explanation;
}

TEST(Occupancy, AdviceOnlyWhenLiftingOneFactorHelps)
{
    // sm_86, 1024 threads, 64 regs: warps (48 / 32 = 1) and registers (32 warps = 1 block) both
    // allow 1 block; fewer registers alone would not add a block, and the text must say so.
    const auto r = computeOccupancy(preset("sm_86"), launchOf(1024, 64));
    EXPECT_EQ(r.activeBlocksPerSm, 1);
    EXPECT_EQ(r.binding.size(), 2u);
    EXPECT_NE(r.explanation.find("bind together"), std::string::npos) << r.explanation;
    // sm_70, 256 threads, 32 regs is already 100 %: no advice to lower registers.
    const auto full = computeOccupancy(preset("sm_70"), launchOf(256, 32));
    EXPECT_DOUBLE_EQ(full.occupancy, 1.0);
    EXPECT_EQ(full.explanation.find("at most"), std::string::npos) << full.explanation;
}

// --- Suggestions: only changes that, on their own, raise the occupancy computed above ----------

// Every suggestion, recomputed, gives the warps it promises, more than the input's; best first.
void expectEverySuggestionHelps(const gpu::GpuPreset& gpu, const OccupancyResult& r)
{
    int previous = INT_MAX;
    for (const OccupancySuggestion& s : r.suggestions) {
        const OccupancyResult changed = computeOccupancy(gpu, s.input);
        EXPECT_EQ(changed.activeWarpsPerSm, s.activeWarpsPerSm) << s.text;
        EXPECT_GT(s.activeWarpsPerSm, r.activeWarpsPerSm) << r.explanation;
        EXPECT_LE(s.activeWarpsPerSm, previous) << r.explanation;
        previous = s.activeWarpsPerSm;
    }
}

bool hasKind(const OccupancyResult& r, SuggestionKind kind)
{
    return std::any_of(r.suggestions.begin(), r.suggestions.end(),
                       [kind](const OccupancySuggestion& s) { return s.kind == kind; });
}

TEST(OccupancySuggestions, NinetySixThreadsThirtyTwoRegistersOnH100)
{
    // 96 threads = 3 warps. Warps: floor(64 / 3) = 21 blocks. Registers: 32 x 32 = 1024 per warp,
    // 16384 / 1024 = 16 warps per sub-partition, 64 per SM, floor(64 / 3) = 21 blocks. 21 x 3 = 63 of 64
    // warps = 98.44 %. 24 registers (768 per warp, 21 per sub-partition, 84 warps, 28 blocks) leave the
    // warp limit at 21: no change. 128 threads = 4 warps: 16 blocks by warps and registers = 64 warps;
    // 256 threads: 8 blocks of 8 = 64 warps. Both 100 %.
    const auto h100 = preset("sm_90");
    const auto r = computeOccupancy(h100, launchOf(96, 32));
    EXPECT_EQ(r.activeWarpsPerSm, 63);
    ASSERT_EQ(r.suggestions.size(), 1u) << r.explanation;
    EXPECT_EQ(r.suggestions[0].kind, SuggestionKind::BlockSize);
    EXPECT_EQ(r.suggestions[0].activeWarpsPerSm, 64);
    EXPECT_EQ(r.suggestions[0].input.threadsPerBlock, 128);
    EXPECT_NE(r.explanation.find("use 128 or 256 threads per block (100 %, 64 of 64 warps)"), std::string::npos)
        << r.explanation;
    EXPECT_EQ(r.explanation.find("24 registers"), std::string::npos) << r.explanation;
    EXPECT_EQ(r.explanation.find("28 blocks"), std::string::npos) << r.explanation;
    EXPECT_FALSE(hasKind(r, SuggestionKind::Registers));
    expectEverySuggestionHelps(h100, r);
}

TEST(OccupancySuggestions, FortyRegistersOnH100NeedFewerRegisters)
{
    // 96 threads, 40 regs: 1280 per warp, 12 warps per sub-partition = 48 per SM = 16 blocks = 75 %.
    // 39 down to 33 registers still round up to 1280; 32 gives 1024 -> 21 blocks = 63 warps. No block
    // size helps: 40 registers cap the SM at 48 warps whatever the block.
    const auto h100 = preset("sm_90");
    const auto r = computeOccupancy(h100, launchOf(96, 40));
    ASSERT_EQ(r.suggestions.size(), 1u) << r.explanation;
    EXPECT_EQ(r.suggestions[0].kind, SuggestionKind::Registers);
    EXPECT_EQ(r.suggestions[0].input.registersPerThread, 32);
    EXPECT_EQ(r.suggestions[0].activeWarpsPerSm, 63);
    expectEverySuggestionHelps(h100, r);
}

TEST(OccupancySuggestions, RegistersNameTheFirstStepAndTheBest)
{
    // 256 threads, 64 regs: 2048 per warp, 8 per sub-partition, 32 warps = 4 blocks = 50 %. 56 regs
    // (1792): 9 -> 36 warps, still 4 blocks of 8. 48 (1536): 10 -> 40 warps = 5 blocks = 62.5 %.
    // 40 (1280): 12 -> 48 = 75 %. 32 (1024): 16 -> 64 = 100 %.
    const auto h100 = preset("sm_90");
    const auto r = computeOccupancy(h100, launchOf(256, 64));
    ASSERT_EQ(r.suggestions.size(), 1u) << r.explanation;
    EXPECT_NE(r.explanation.find("at most 48 registers per thread, with __launch_bounds__ or -maxrregcount "
                                 "(62.5 %, 40 of 64 warps), or at most 32 (100 %, 64 of 64 warps)"),
              std::string::npos)
        << r.explanation;
    expectEverySuggestionHelps(h100, r);
}

TEST(OccupancySuggestions, SharedMemoryCaseLeadsWithTheBiggestGain)
{
    // 128 threads, 32 regs, 16 KB static, carveout 50 % -> the 132 KB step: 135168 / 17408 = 7 blocks =
    // 28 warps (43.75 %). 512 threads (16 warps): warps allow 4, shared 7 -> 64 warps = 100 %. Shared
    // memory: 8 blocks need at most 135168 / 8 = 16896 allocated = 15872 B + 1 KB (50 %); 16 blocks
    // (the register limit) need 8448 = 7424 B + 1 KB (100 %). Carveout 100 %: 233472 / 17408 = 13
    // blocks = 81.25 %.
    const auto h100 = preset("sm_90");
    OccupancyInput input = launchOf(128, 32, 16 * 1024);
    input.carveoutPercent = 50;
    const auto r = computeOccupancy(h100, input);
    EXPECT_EQ(r.activeWarpsPerSm, 28);
    ASSERT_EQ(r.suggestions.size(), 3u) << r.explanation;
    EXPECT_EQ(r.suggestions[0].kind, SuggestionKind::BlockSize);
    EXPECT_EQ(r.suggestions[0].activeWarpsPerSm, 64);
    EXPECT_NE(r.explanation.find("use 512 or 1024 threads per block"), std::string::npos) << r.explanation;
    EXPECT_EQ(r.suggestions[1].kind, SuggestionKind::SharedMemory);
    EXPECT_NE(r.explanation.find("at most 15,872 B of shared memory (static + dynamic) per block (50 %, 32 of 64 "
                                 "warps), or at most 7,424 B (100 %, 64 of 64 warps)"),
              std::string::npos)
        << r.explanation;
    EXPECT_EQ(r.suggestions[2].kind, SuggestionKind::Carveout);
    EXPECT_EQ(r.suggestions[2].activeWarpsPerSm, 52);
    expectEverySuggestionHelps(h100, r);
}

TEST(OccupancySuggestions, WhenNoSingleChangeHelpsBlockAndRegistersTogether)
{
    // sm_86 (48 warps), 1024 threads, 64 regs: 2048 per warp, 8 per sub-partition = 32 warps = 1 block,
    // and warps allow floor(48 / 32) = 1. Fewer registers alone: warps still allow 1 block of 32. Any
    // block size alone: 64 registers cap the SM at 32 warps. Together: 40 regs (1280 per warp, 12 per
    // sub-partition = 48 warps) with 768 threads (24 warps, 2 blocks) or 512 (16 warps, 3 blocks) = 100 %.
    const auto rtx3090 = preset("sm_86");
    const auto r = computeOccupancy(rtx3090, launchOf(1024, 64));
    ASSERT_EQ(r.suggestions.size(), 1u) << r.explanation;
    EXPECT_EQ(r.suggestions[0].kind, SuggestionKind::BlockSizeAndRegisters);
    EXPECT_EQ(r.suggestions[0].input.registersPerThread, 40);
    EXPECT_EQ(r.suggestions[0].activeWarpsPerSm, 48);
    EXPECT_NE(r.explanation.find("no single change raises it"), std::string::npos) << r.explanation;
    EXPECT_NE(r.explanation.find("Use 512 or 768 threads per block with at most 40 registers per thread (100 %"),
              std::string::npos)
        << r.explanation;
    EXPECT_EQ(computeOccupancy(rtx3090, r.suggestions[0].input).activeWarpsPerSm, 48);
}

TEST(OccupancySuggestions, AnImpossibleLaunchIsToldWhatMakesItLaunch)
{
    // 800 threads (25 warps), 80 regs: the per-block check counts 28 warps x 2560 > 65536 -> 0 blocks.
    // 72 regs (2304): 28 x 2304 = 64512 fits; 7 per sub-partition = 28 warps = 1 block of 25. 32 regs
    // (1024): 64 warps, warps allow floor(64 / 25) = 2 blocks = 50 warps, the best. Block sizes at 80
    // regs (6 per sub-partition = 24 warps): 384 or 768 threads reach 24 warps.
    const auto h100 = preset("sm_90");
    const auto r = computeOccupancy(h100, launchOf(800, 80));
    EXPECT_FALSE(r.launchable());
    ASSERT_EQ(r.suggestions.size(), 2u) << r.explanation;
    EXPECT_EQ(r.suggestions[0].kind, SuggestionKind::Registers);
    EXPECT_EQ(r.suggestions[0].activeWarpsPerSm, 50);
    EXPECT_NE(r.explanation.find("at most 72 registers per thread"), std::string::npos) << r.explanation;
    EXPECT_EQ(r.suggestions[1].kind, SuggestionKind::BlockSize);
    EXPECT_EQ(r.suggestions[1].activeWarpsPerSm, 24);
    EXPECT_NE(r.explanation.find("use 384 or 768 threads per block"), std::string::npos) << r.explanation;
    // The 4-warp rounding is said in words where it is used.
    EXPECT_NE(r.explanation.find("in groups of 4 warps, one per sub-partition"), std::string::npos) << r.explanation;
    expectEverySuggestionHelps(h100, r);
}

TEST(OccupancySuggestions, NoSuggestionEverLeavesOccupancyUnchanged)
{
    // A sweep over every preset: block sizes, registers and shared memory, each suggestion recomputed.
    for (const gpu::GpuPreset& gpu : gpu::allPresets()) {
        for (int threads : {32, 64, 96, 100, 160, 192, 256, 384, 640, 768, 1024}) {
            for (int regs : {16, 32, 40, 64, 96, 128, 255}) {
                for (std::size_t shared : {std::size_t{0}, std::size_t{12 * 1024}, std::size_t{40 * 1024}}) {
                    const OccupancyInput input = launchOf(threads, regs, shared);
                    const OccupancyResult r = computeOccupancy(gpu, input);
                    SCOPED_TRACE(std::string(gpu.arch) + " " + std::to_string(threads) + " threads, " +
                                 std::to_string(regs) + " regs, " + std::to_string(shared) + " B");
                    expectEverySuggestionHelps(gpu, r);
                    if (r.activeWarpsPerSm == r.maxWarpsPerSm)
                        EXPECT_TRUE(r.suggestions.empty());
                }
            }
        }
    }
}

TEST(OccupancySuggestions, CountsArePluralisedAsEnglish)
{
    // One block of 32 warps (sm_86, 1024 threads): "1 block of 32 warps", never "1 blocks"; 3-warp
    // blocks on H100 leave "1 slot", never "1 warp slots".
    const auto one = computeOccupancy(preset("sm_86"), launchOf(1024, 64));
    EXPECT_NE(one.explanation.find("1 block of 32 warps"), std::string::npos) << one.explanation;
    const auto leftover = computeOccupancy(preset("sm_90"), launchOf(96, 32));
    EXPECT_NE(leftover.explanation.find("leaving 1 slot unused"), std::string::npos) << leftover.explanation;
    for (const OccupancyResult& r : {one, leftover, computeOccupancy(preset("sm_90"), launchOf(32, 16)),
                                     computeOccupancy(preset("sm_75"), launchOf(1024, 32))}) {
        std::string all = r.explanation;
        for (const auto& detail : r.limits)
            all += " " + detail.reasoning;
        for (const char* wrong : {" 1 blocks", " 1 warps", " 1 warp slots", " 1 slots", " 1 registers", " 1 barriers",
                                  " 1 times", " 1 threads", " 1 idle lanes"})
            EXPECT_EQ(all.find(wrong), std::string::npos) << wrong << " in: " << all;
    }
}

TEST(Occupancy, IdleLanesStillTakeAWarpSlot)
{
    // 100 threads = 4 warps, the last holding 4 threads and 28 idle lanes. H100, 32 regs: 16 blocks of 4
    // warps = 64 warps = 100 %, yet 16 x 100 = 1,600 threads on 64 x 32 = 2,048 lanes.
    const auto r = computeOccupancy(preset("sm_90"), launchOf(100, 32));
    EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
    EXPECT_EQ(r.idleLanesPerBlock, 28);
    EXPECT_EQ(r.activeThreadsPerSm, 1600);
    EXPECT_NE(r.explanation.find("last warp holds 4 threads and 28 idle lanes, which still take a warp slot"),
              std::string::npos)
        << r.explanation;
    EXPECT_NE(r.explanation.find("1,600 threads on 2,048 lanes (78.13 %) do work"), std::string::npos) << r.explanation;
    EXPECT_NE(r.explanation.find("96 or 128 threads per block leave no lane idle"), std::string::npos) << r.explanation;
    // A whole number of warps has none.
    EXPECT_EQ(computeOccupancy(preset("sm_90"), launchOf(128, 32)).idleLanesPerBlock, 0);
}

TEST(Occupancy, PresetsMatchTheIssueTable)
{
    struct Row { const char* arch; int threads, blocks, sms; std::size_t shared, optin, reserved; };
    const Row rows[] = {
        {"sm_70", 2048, 32, 80, 96 * 1024, 96 * 1024, 0},
        {"sm_75", 1024, 16, 40, 64 * 1024, 64 * 1024, 0},
        {"sm_80", 2048, 32, 108, 164 * 1024, 163 * 1024, 1024},
        {"sm_86", 1536, 16, 82, 100 * 1024, 99 * 1024, 1024},
        {"sm_89", 1536, 24, 128, 100 * 1024, 99 * 1024, 1024},
        {"sm_90", 2048, 32, 132, 228 * 1024, 227 * 1024, 1024},
        {"sm_100", 2048, 32, 148, 228 * 1024, 227 * 1024, 1024},
        {"sm_120", 1536, 24, 170, 100 * 1024, 99 * 1024, 1024},
    };
    ASSERT_EQ(gpu::allPresets().size(), std::size(rows));
    for (const Row& row : rows) {
        const auto p = preset(row.arch);
        EXPECT_EQ(p.maxThreadsPerSm, row.threads) << row.arch;
        EXPECT_EQ(p.maxBlocksPerSm, row.blocks) << row.arch;
        EXPECT_EQ(p.smCount, row.sms) << row.arch;
        EXPECT_EQ(p.sharedPerSm, row.shared) << row.arch;
        EXPECT_EQ(p.sharedPerBlockOptin, row.optin) << row.arch;
        EXPECT_EQ(p.reservedSharedPerBlock, row.reserved) << row.arch;
        EXPECT_EQ(p.registersPerSm, 65536);
        EXPECT_EQ(p.sharedPerBlock, 48u * 1024);
        EXPECT_FALSE(p.source.empty());
    }
    EXPECT_TRUE(gpu::findPreset("9.0").has_value());
    EXPECT_TRUE(gpu::findPreset("86").has_value());
    EXPECT_EQ(gpu::findPreset("10.0")->name, "B200");
    EXPECT_EQ(gpu::findPreset("120")->name, "RTX 5090");
    EXPECT_EQ(gpu::findPreset("b200")->arch, "sm_100");
    EXPECT_EQ(gpu::findPreset("RTX 5090")->arch, "sm_120");
    EXPECT_FALSE(gpu::findPreset("sm_110").has_value());
    EXPECT_EQ(gpu::knownArchList(), "sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120");
}

// Every preset against the toolkit's own calculator, queried directly: the limits it applies per
// architecture must be the preset's, or the explorer would explain limits the calculator does not use.
TEST(Occupancy, PresetsAgreeWithCudaOccupancyHeader)
{
    std::vector<gpu::GpuPreset> all(gpu::allPresets().begin(), gpu::allPresets().end());
    all.insert(all.end(), gpu::variantPresets().begin(), gpu::variantPresets().end());
    for (const gpu::GpuPreset& p : all) {
        SCOPED_TRACE(std::string(p.name));
        cudaOccDeviceProp prop;
        prop.computeMajor = p.computeMajor;
        prop.computeMinor = p.computeMinor;
        int blocks = 0, subPartitions = 0, granularity = 0;
        ASSERT_EQ(cudaOccMaxBlocksPerMultiprocessor(&blocks, &prop), CUDA_OCC_SUCCESS);
        EXPECT_EQ(p.maxBlocksPerSm, blocks);
        ASSERT_EQ(cudaOccSubPartitionsPerMultiprocessor(&subPartitions, &prop), CUDA_OCC_SUCCESS);
        EXPECT_EQ(subPartitions, 4);
        ASSERT_EQ(cudaOccSMemAllocationGranularity(&granularity, &prop), CUDA_OCC_SUCCESS);
        EXPECT_EQ(granularity, p.computeMajor >= 8 ? 128 : 256);
        // The SM's shared memory is the largest carveout step the calculator knows: it rounds it to
        // itself, and one byte more is beyond every step.
        std::size_t size = p.sharedPerSm;
        ASSERT_EQ(cudaOccAlignUpShmemSizeVoltaPlus(&size, &prop), CUDA_OCC_SUCCESS);
        EXPECT_EQ(size, p.sharedPerSm);
        size = p.sharedPerSm + 1;
        EXPECT_EQ(cudaOccAlignUpShmemSizeVoltaPlus(&size, &prop), CUDA_OCC_ERROR_INVALID_INPUT);
        // Opt-in: the SM's shared memory less the per-block reservation from sm_80.
        EXPECT_EQ(p.sharedPerBlockOptin + p.reservedSharedPerBlock, p.sharedPerSm);
        EXPECT_EQ(p.maxThreadsPerSm % p.warpSize, 0);
    }
}

TEST(Occupancy, BlackwellPresetsHandWorked)
{
    // B200 (sm_100) has Hopper's SM limits: 96 threads, 40 regs -> 1280 per warp, 12 warps per
    // sub-partition -> 48 warps -> 16 blocks, as on sm_90.
    const auto b200 = computeOccupancy(preset("sm_100"), launchOf(96, 40));
    EXPECT_EQ(b200.activeBlocksPerSm, 16);
    EXPECT_DOUBLE_EQ(b200.occupancy, 0.75);
    // RTX 5090 (sm_120): 48 warps and 24 blocks per SM. 32 threads, 16 regs: blocks bind at 24 = 24
    // of 48 warps = 50 %. cuda_occupancy.h gives 12.x one barrier per block slot (sm_90 two), so the
    // default one barrier per block allows 24 blocks too: both bind.
    const auto small = computeOccupancy(preset("sm_120"), launchOf(32, 16));
    EXPECT_EQ(small.activeBlocksPerSm, 24);
    EXPECT_DOUBLE_EQ(small.occupancy, 0.5);
    EXPECT_EQ(small.binding, (std::vector<Limiter>{Limiter::Blocks, Limiter::Barriers}));
    EXPECT_EQ(limitOf(small, Limiter::Barriers), 24);
    // 256 threads with 32 KB dynamic shared: 32768 + 1024 = 33792 per block; 100 KB = 102400 / 33792
    // = 3 blocks = 24 of 48 warps = 50 % (sm_90's 228 KB holds 6).
    const auto shared = computeOccupancy(preset("sm_120"), launchOf(256, 32, 0, 32 * 1024));
    EXPECT_EQ(shared.activeBlocksPerSm, 3);
    EXPECT_DOUBLE_EQ(shared.occupancy, 0.5);
    EXPECT_EQ(shared.binding, only(Limiter::SharedMemory));
    // Its opt-in limit is 99 KB: one byte more cannot launch.
    EXPECT_EQ(computeOccupancy(preset("sm_120"), launchOf(256, 32, 0, 99 * 1024)).activeBlocksPerSm, 1);
    EXPECT_THROW(computeOccupancy(preset("sm_120"), launchOf(256, 32, 0, 99 * 1024 + 1)), InputError);
}

TEST(OccupancySweep, PointsAgreeWithSingleComputations)
{
    const auto h100 = preset("sm_90");
    const OccupancyInput base = launchOf(96, 40);
    const auto byBlock = sweepBlockSize(h100, base);
    ASSERT_EQ(byBlock.size(), 32u);
    EXPECT_EQ(byBlock[2].x, 96);
    EXPECT_DOUBLE_EQ(byBlock[2].occupancy, 0.75);
    const auto byRegs = sweepRegisters(h100, base);
    ASSERT_EQ(byRegs.size(), 255u);
    EXPECT_EQ(byRegs[39].x, 40);
    EXPECT_EQ(byRegs[39].activeBlocks, 16);
    // Occupancy never rises as registers grow.
    for (std::size_t i = 1; i < byRegs.size(); ++i)
        EXPECT_LE(byRegs[i].occupancy, byRegs[i - 1].occupancy) << "regs " << byRegs[i].x;
    const auto byShared = sweepSharedMemory(h100, launchOf(256, 32), 1024);
    EXPECT_EQ(byShared.front().x, 0);
    EXPECT_EQ(byShared[32].x, 32 * 1024);
    EXPECT_EQ(byShared[32].activeBlocks, 6);
    const auto grid = sweepBlockSizeByRegisters(h100, base);
    ASSERT_EQ(grid.blockSizes.size(), 32u);
    ASSERT_EQ(grid.registers.size(), 255u);
    EXPECT_DOUBLE_EQ(grid.at(39, 2), 0.75); // 40 regs, 96 threads
    EXPECT_DOUBLE_EQ(grid.at(15, 31), 1.0); // 16 regs, 1024 threads
}
