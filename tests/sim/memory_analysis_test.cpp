// Global-memory sectors/lines and shared-memory bank conflicts for one warp instruction, against
// answers worked out by hand from the model in sim/memory_analysis.h:
//   global: sectors = distinct 32-byte blocks touched, lines = distinct 128-byte blocks, one request,
//           bytes moved = 32 x sectors;
//   shared: 32 banks of 4 bytes, bank = (address / 4) % 32; 8-byte accesses in 2 phases of 16 lanes,
//           16-byte accesses in 4 phases of 8 lanes; per phase the degree is the most distinct words
//           in one bank, wavefronts = degree, conflicts = wavefronts - phases.
#include "sim/memory_analysis.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

using namespace warpscope::sim;

namespace {

// A 128-byte aligned base well away from zero, so that "aligned" is a property of the test.
constexpr std::uint64_t kBase = 0x7f0000001000ull;

// Lanes [first, first + count) accessing address(lane).
std::vector<LaneAccess> lanes(std::uint32_t first, std::uint32_t count,
                              const std::function<std::uint64_t(std::uint32_t)>& address)
{
    std::vector<LaneAccess> accesses;
    for (std::uint32_t lane = first; lane < first + count; ++lane)
        accesses.push_back({address(lane), lane});
    return accesses;
}

std::vector<LaneAccess> fullWarp(const std::function<std::uint64_t(std::uint32_t)>& address)
{
    return lanes(0, 32, address);
}

void expectGlobal(const GlobalAccessCost& cost, std::uint32_t sectors, std::uint32_t lines, std::uint64_t requested)
{
    EXPECT_EQ(cost.requests, 1u);
    EXPECT_EQ(cost.sectors, sectors);
    EXPECT_EQ(cost.lines, lines);
    EXPECT_EQ(cost.bytesRequested, requested);
    EXPECT_EQ(cost.bytesMoved, 32u * sectors);
}

void expectShared(const SharedAccessCost& cost, std::uint32_t phases, std::uint32_t wavefronts, std::uint32_t degree,
                  std::uint32_t conflicts)
{
    EXPECT_EQ(cost.phases, phases);
    EXPECT_EQ(cost.wavefronts, wavefronts);
    EXPECT_EQ(cost.conflictDegree, degree);
    EXPECT_EQ(cost.bankConflicts, conflicts);
}

} // namespace

// ---- global memory ------------------------------------------------------------------------------

TEST(GlobalAccess, FullWarpConsecutiveFloatsIsOneLineFourSectors)
{
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 4ull * lane; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 4, 1, 128);
    EXPECT_EQ(cost.bytesMoved, 128u);
}

TEST(GlobalAccess, StrideTwoFloatsTouchesEightSectorsTwoLines)
{
    // 32 lanes x 8 bytes apart span 256 bytes; every sector holds 4 of the used floats.
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 8ull * lane; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 8, 2, 128);
    EXPECT_EQ(cost.bytesMoved, 256u);
}

TEST(GlobalAccess, StrideOfALineTouchesThirtyTwoSectorsAndLines)
{
    // Stride 32 floats = 128 bytes: every lane in its own line and its own sector.
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 128ull * lane; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 32, 32, 128);
    EXPECT_EQ(cost.bytesMoved, 1024u);
}

TEST(GlobalAccess, MisalignedStartNeedsAFifthSector)
{
    // Bytes base+4 .. base+131: sectors at +0, +32, +64, +96, +128; lines at +0 and +128.
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 4 + 4ull * lane; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 5, 2, 128);
    EXPECT_EQ(cost.bytesMoved, 160u);
}

TEST(GlobalAccess, AllLanesSameAddressIsOneSector)
{
    const auto a = fullWarp([](std::uint32_t) { return kBase + 64; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 1, 1, 128); // every lane still asks for its 4 bytes
    EXPECT_EQ(cost.bytesMoved, 32u);
}

TEST(GlobalAccess, PartialWarpCountsOnlyActiveLanes)
{
    // Lanes 0..4: bytes base .. base+19, one sector.
    const auto a = lanes(0, 5, [](std::uint32_t lane) { return kBase + 4ull * lane; });
    const GlobalAccessCost cost = analyzeGlobalAccess(a, 4);
    expectGlobal(cost, 1, 1, 20);
    EXPECT_EQ(cost.bytesMoved, 32u);

    // Five scattered lanes of a consecutive pattern: lanes 0, 8, 16, 24, 31 fall in sectors 0, 1, 2,
    // 3, 3.
    std::vector<LaneAccess> scattered;
    for (std::uint32_t lane : {0u, 8u, 16u, 24u, 31u})
        scattered.push_back({kBase + 4ull * lane, lane});
    const GlobalAccessCost cost2 = analyzeGlobalAccess(scattered, 4);
    expectGlobal(cost2, 4, 1, 20);
}

TEST(GlobalAccess, EightAndSixteenBytesPerLane)
{
    // 8 bytes: 256 contiguous bytes -> 8 sectors, 2 lines.
    const auto a8 = fullWarp([](std::uint32_t lane) { return kBase + 8ull * lane; });
    expectGlobal(analyzeGlobalAccess(a8, 8), 8, 2, 256);
    // 16 bytes (float4): 512 contiguous bytes -> 16 sectors, 4 lines.
    const auto a16 = fullWarp([](std::uint32_t lane) { return kBase + 16ull * lane; });
    expectGlobal(analyzeGlobalAccess(a16, 16), 16, 4, 512);
    // 16 bytes with a stride of 64 bytes: each lane one sector (half of every other sector pair),
    // 32 sectors over 2048 bytes = 16 lines.
    const auto s16 = fullWarp([](std::uint32_t lane) { return kBase + 64ull * lane; });
    expectGlobal(analyzeGlobalAccess(s16, 16), 32, 16, 512);
}

TEST(GlobalAccess, OneLaneStraddlingASectorBoundaryCountsBoth)
{
    // 8 bytes at +28: bytes 28..35, sectors 0 and 1.
    const std::vector<LaneAccess> a{{kBase + 28, 0}};
    expectGlobal(analyzeGlobalAccess(a, 8), 2, 1, 8);
    // 16 bytes at +120: bytes 120..135, sectors 3 and 4, lines 0 and 1.
    const std::vector<LaneAccess> b{{kBase + 120, 7}};
    expectGlobal(analyzeGlobalAccess(b, 16), 2, 2, 16);
}

TEST(GlobalAccess, LaneOrderDoesNotMatter)
{
    // The same addresses handed over in a scrambled order cost the same as in ascending order.
    auto scramble = [](std::vector<LaneAccess> a) {
        std::vector<LaneAccess> out;
        for (std::uint32_t i = 0; i < a.size(); ++i)
            out.push_back(a[(i * 7 + 3) % a.size()]); // 7 is coprime with 32: a permutation
        return out;
    };
    const auto stride2 = fullWarp([](std::uint32_t lane) { return kBase + 8ull * lane; });
    expectGlobal(analyzeGlobalAccess(scramble(stride2), 4), 8, 2, 128);
    const auto misaligned = fullWarp([](std::uint32_t lane) { return kBase + 4 + 4ull * lane; });
    expectGlobal(analyzeGlobalAccess(scramble(misaligned), 4), 5, 2, 128);
    const auto lines = fullWarp([](std::uint32_t lane) { return kBase + 128ull * lane; });
    expectGlobal(analyzeGlobalAccess(scramble(lines), 4), 32, 32, 128);
    // Descending, with every address used twice (lanes 2k and 2k+1 share one float).
    const auto pairs = fullWarp([](std::uint32_t lane) { return kBase + 4ull * ((31 - lane) / 2); });
    expectGlobal(analyzeGlobalAccess(pairs, 4), 2, 1, 128); // bytes 0..63: two sectors
}

TEST(GlobalAccess, OverlappingStraddlingLanesCountSharedSectorsOnce)
{
    // 16 bytes at +24 (sectors 0, 1), +40 (sector 1), +56 (sectors 1, 2): sectors {0, 1, 2}.
    const std::vector<LaneAccess> a{{kBase + 24, 0}, {kBase + 40, 1}, {kBase + 56, 2}};
    expectGlobal(analyzeGlobalAccess(a, 16), 3, 1, 48);
    std::uint64_t sectors[4] = {};
    ASSERT_EQ(collectSectors(a, 16, sectors, 4), 3u);
    EXPECT_EQ(sectors[0], kBase);
    EXPECT_EQ(sectors[1], kBase + 32);
    EXPECT_EQ(sectors[2], kBase + 64);
    // 8 bytes at +120 (sector 3, line 0) and +124 (sectors 3 and 4, lines 0 and 1).
    const std::vector<LaneAccess> b{{kBase + 120, 0}, {kBase + 124, 1}};
    expectGlobal(analyzeGlobalAccess(b, 8), 2, 2, 16);
}

TEST(GlobalAccess, NoActiveLanesCostsNothing)
{
    const std::vector<LaneAccess> none;
    const GlobalAccessCost cost = analyzeGlobalAccess(none, 4);
    EXPECT_EQ(cost.requests, 0u);
    EXPECT_EQ(cost.sectors, 0u);
    EXPECT_EQ(cost.lines, 0u);
    EXPECT_EQ(cost.bytesRequested, 0u);
    EXPECT_EQ(cost.bytesMoved, 0u);
}

TEST(GlobalAccess, CollectSectorsListsDistinctSectorStartsAscending)
{
    // Lanes in descending address order, stride 2 floats: sectors base, base+32, ..., base+224.
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 8ull * (31 - lane); });
    std::uint64_t sectors[64] = {};
    const std::uint32_t n = collectSectors(a, 4, sectors, 64);
    ASSERT_EQ(n, 8u);
    for (std::uint32_t i = 0; i < 8; ++i)
        EXPECT_EQ(sectors[i], kBase + 32ull * i) << "sector " << i;
}

TEST(GlobalAccess, CollectSectorsRoundsDownToTheSectorStart)
{
    // Misaligned by 4: bytes base+4 .. base+131.
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 4 + 4ull * lane; });
    std::uint64_t sectors[8] = {};
    ASSERT_EQ(collectSectors(a, 4, sectors, 8), 5u);
    const std::uint64_t expected[5] = {kBase, kBase + 32, kBase + 64, kBase + 96, kBase + 128};
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(sectors[i], expected[i]) << "sector " << i;
}

TEST(GlobalAccess, CollectSectorsCountsBeyondCapacityButWritesOnlyCapacity)
{
    const auto a = fullWarp([](std::uint32_t lane) { return kBase + 128ull * lane; });
    std::uint64_t sectors[5] = {1, 1, 1, 1, 0xdead};
    EXPECT_EQ(collectSectors(a, 4, sectors, 4), 32u); // the count is still the true count
    for (std::uint32_t i = 0; i < 4; ++i)
        EXPECT_EQ(sectors[i], kBase + 128ull * i);
    EXPECT_EQ(sectors[4], 0xdeadu); // untouched
    EXPECT_EQ(collectSectors(a, 4, nullptr, 0), 32u);
}

TEST(GlobalAccess, AnalyzeListsTheSameSectorsAsCollectSectors)
{
    // The timing model's log takes the sectors from analyzeGlobalAccess's pass: the same list as
    // collectSectors, for lanes in order (misaligned, straddling, overlapping) and out of order, and
    // only `capacity` of them written.
    const std::vector<std::vector<LaneAccess>> cases{
        fullWarp([](std::uint32_t lane) { return kBase + 4 + 4ull * lane; }),
        fullWarp([](std::uint32_t lane) { return kBase + 8ull * (31 - lane); }),
        fullWarp([](std::uint32_t lane) { return kBase + 128ull * lane; }),
        {{kBase + 24, 0}, {kBase + 40, 1}, {kBase + 56, 2}},
    };
    for (std::size_t c = 0; c < cases.size(); ++c) {
        for (std::uint32_t bytes : {4u, 16u}) {
            std::uint64_t expected[64] = {}, listed[64] = {};
            const std::uint32_t count = collectSectors(cases[c], bytes, expected, 64);
            const GlobalAccessCost cost = analyzeGlobalAccess(cases[c], bytes, listed, 64);
            ASSERT_EQ(cost.sectors, count) << "case " << c << ", " << bytes << " bytes";
            for (std::uint32_t i = 0; i < count; ++i)
                EXPECT_EQ(listed[i], expected[i]) << "case " << c << ", sector " << i;
        }
    }
    std::uint64_t few[5] = {1, 1, 1, 1, 0xdead};
    EXPECT_EQ(analyzeGlobalAccess(cases[2], 4, few, 4).sectors, 32u);
    EXPECT_EQ(few[3], kBase + 128ull * 3);
    EXPECT_EQ(few[4], 0xdeadu); // untouched
}

// ---- shared memory ------------------------------------------------------------------------------

TEST(SharedAccess, ConsecutiveWordsAreConflictFree)
{
    const auto a = fullWarp([](std::uint32_t lane) { return 4ull * lane; });
    expectShared(analyzeSharedAccess(a, 4), 1, 1, 1, 0);
}

TEST(SharedAccess, ColumnOfA32x32FloatTileIsA32WayConflict)
{
    // tile[lane][c]: address lane*128, every lane in bank 0 with a different word.
    const auto a = fullWarp([](std::uint32_t lane) { return 128ull * lane; });
    expectShared(analyzeSharedAccess(a, 4), 1, 32, 32, 31);
    // The same column at c = 5: bank 5 for everyone, still 32-way.
    const auto b = fullWarp([](std::uint32_t lane) { return 128ull * lane + 20; });
    expectShared(analyzeSharedAccess(b, 4), 1, 32, 32, 31);
}

TEST(SharedAccess, PaddedTileColumnIsConflictFree)
{
    // tile[32][33]: address lane*132 = word lane*33, bank (lane*33) % 32 = lane.
    const auto a = fullWarp([](std::uint32_t lane) { return 132ull * lane; });
    expectShared(analyzeSharedAccess(a, 4), 1, 1, 1, 0);
}

TEST(SharedAccess, SameWordIsABroadcast)
{
    const auto a = fullWarp([](std::uint32_t) { return 256ull; });
    expectShared(analyzeSharedAccess(a, 4), 1, 1, 1, 0);
    // Two words of bank 0, each read by half the warp: 2 distinct words in one bank.
    const auto b = fullWarp([](std::uint32_t lane) { return lane < 16 ? 0ull : 128ull; });
    expectShared(analyzeSharedAccess(b, 4), 1, 2, 2, 1);
}

TEST(SharedAccess, TwoLanesDifferentWordsSameBankIsTwoWay)
{
    const std::vector<LaneAccess> pair{{0, 0}, {128, 1}};
    expectShared(analyzeSharedAccess(pair, 4), 1, 2, 2, 1);
    // A whole conflict-free warp except lane 1, which moves to word 32 (bank 0, next to lane 0's word 0).
    auto a = fullWarp([](std::uint32_t lane) { return 4ull * lane; });
    a[1].address = 128;
    expectShared(analyzeSharedAccess(a, 4), 1, 2, 2, 1);
}

TEST(SharedAccess, StrideTwoWordsIsTwoWay)
{
    // Words 0, 2, ..., 62: banks 0, 2, ..., 30, each holding two of them (2k and 2k+32).
    const auto a = fullWarp([](std::uint32_t lane) { return 8ull * lane; });
    expectShared(analyzeSharedAccess(a, 4), 1, 2, 2, 1);
}

TEST(SharedAccess, SubWordAccessesInOneWordShareIt)
{
    // Bytes 0..31 read one byte each: words 0..7, one per bank.
    const auto a = fullWarp([](std::uint32_t lane) { return static_cast<std::uint64_t>(lane); });
    expectShared(analyzeSharedAccess(a, 1), 1, 1, 1, 0);
}

TEST(SharedAccess, SixtyFourBitConsecutiveIsTwoConflictFreePhases)
{
    // Half-warp 0: words 0..31; half-warp 1: words 32..63. Each bank once per phase.
    const auto a = fullWarp([](std::uint32_t lane) { return 8ull * lane; });
    expectShared(analyzeSharedAccess(a, 8), 2, 2, 1, 0);
}

TEST(SharedAccess, SixtyFourBitStrideTwoIsTwoWayInEachPhase)
{
    // Lane k of a half-warp reads words 4k and 4k+1; lanes k and k+8 share banks 4k%32 and 4k%32+1.
    const auto a = fullWarp([](std::uint32_t lane) { return 16ull * lane; });
    expectShared(analyzeSharedAccess(a, 8), 2, 4, 2, 2);
}

TEST(SharedAccess, SixtyFourBitLanesInDifferentHalvesDoNotConflict)
{
    // Lanes 0 and 16 both in bank 0 and 1, but in different phases.
    const std::vector<LaneAccess> split{{0, 0}, {256, 16}};
    expectShared(analyzeSharedAccess(split, 8), 2, 2, 1, 0);
    // The same two words for lanes 0 and 1 (one phase): 2-way.
    const std::vector<LaneAccess> together{{0, 0}, {256, 1}};
    expectShared(analyzeSharedAccess(together, 8), 1, 2, 2, 1);
    // 4-byte accesses are one phase regardless of lane: lanes 0 and 16 at words 0 and 64 conflict.
    expectShared(analyzeSharedAccess(split, 4), 1, 2, 2, 1);
}

TEST(SharedAccess, HundredTwentyEightBitConsecutiveIsFourConflictFreePhases)
{
    // Quarter-warps of 8 lanes, 16 bytes each: 32 consecutive words per phase.
    const auto a = fullWarp([](std::uint32_t lane) { return 16ull * lane; });
    expectShared(analyzeSharedAccess(a, 16), 4, 4, 1, 0);
}

TEST(SharedAccess, HundredTwentyEightBitColumnConflicts)
{
    // Stride 128 bytes, 16 bytes per lane: the 8 lanes of a phase all use banks 0..3 with distinct
    // words -> 8-way in each of the 4 phases.
    const auto a = fullWarp([](std::uint32_t lane) { return 128ull * lane; });
    expectShared(analyzeSharedAccess(a, 16), 4, 32, 8, 28);
}

TEST(SharedAccess, PartialWarpAndNoLanes)
{
    // Lanes 0..4 consecutive: conflict-free, one phase.
    const auto a = lanes(0, 5, [](std::uint32_t lane) { return 4ull * lane; });
    expectShared(analyzeSharedAccess(a, 4), 1, 1, 1, 0);
    // Only the first half-warp active for an 8-byte access: one phase has work.
    const auto h = lanes(0, 16, [](std::uint32_t lane) { return 8ull * lane; });
    expectShared(analyzeSharedAccess(h, 8), 1, 1, 1, 0);
    const std::vector<LaneAccess> none;
    expectShared(analyzeSharedAccess(none, 4), 0, 0, 0, 0);
}

// 16 bytes per lane: the two quarter-warps of a half-warp that read the same words share their
// wavefronts. An H200 counts matmul_tiled's LDS.128 (lanes 0-15 read As[ty][k..k+3], lanes 16-31
// As[ty+1][k..k+3], 64 bytes further) as 2 wavefronts (assets/recorded/h200/ladder-matmul.wsprof:
// 98,304 = 512 warps x 8 tiles x (16 LDS + 4 LDS.128 x 2)); quarter-warp phases alone would say 4.
TEST(SharedAccess, HundredTwentyEightBitHalfWarpsReadingOneRowEachAreTwoWavefronts)
{
    const auto rows = fullWarp([](std::uint32_t lane) { return lane < 16 ? 0ull : 64ull; });
    expectShared(analyzeSharedAccess(rows, 16), 2, 2, 1, 0);
    // One address for the whole warp: one wavefront per half-warp.
    const auto one = fullWarp([](std::uint32_t) { return 32ull; });
    expectShared(analyzeSharedAccess(one, 16), 2, 2, 1, 0);
    // Quarter-warps of different half-warps reading the same words do not share (not measured: the
    // model's choice): X, Y, X, Y by quarter-warp is 4 phases.
    const auto alternating = fullWarp([](std::uint32_t lane) { return (lane / 8) % 2 == 0 ? 0ull : 16ull; });
    expectShared(analyzeSharedAccess(alternating, 16), 4, 4, 1, 0);
    // Two quarter-warps of one half-warp that differ by one word are two phases.
    const auto differ = fullWarp([](std::uint32_t lane) { return lane < 8 ? 0ull : lane < 16 ? 4ull : 128ull; });
    expectShared(analyzeSharedAccess(differ, 16), 3, 3, 1, 0);
    // 8 bytes per lane keeps its half-warp phases: one address for the warp is 2 wavefronts.
    expectShared(analyzeSharedAccess(one, 8), 2, 2, 1, 0);
}
