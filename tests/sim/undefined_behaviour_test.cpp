// Undefined behaviour is a hazard, not a value (issue 15): a shuffle that reads a lane outside its
// member mask, or an inactive lane, is reported with the reading and the source lanes and never hands
// out a register's leftover value; a lane outside the mask it passes, a __syncwarp naming lanes on
// another path and a __syncthreads reached by part of a warp are reported with their lanes.
#include "sim_test_support.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

const sim::Hazard* find(const sim::SimResult& result, sim::HazardKind kind)
{
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == kind)
            return &hazard;
    return nullptr;
}

sim::SimResult run(const char* source, const char* entry, std::vector<std::int32_t>& out, int threads = 32)
{
    const CompiledKernel kernel = compileKernel(source, entry);
    sim::SimOptions options;
    options.hostThreads = 1;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {threads, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(threads, 0))},
                                                   options);
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    out = bufferValues<std::int32_t>(result, "out");
    return result;
}

} // namespace

TEST(DescribeLanes, RangesAndSingles)
{
    EXPECT_EQ(sim::describeLanes(0), "no lane");
    EXPECT_EQ(sim::describeLanes(1u << 5), "lane 5");
    EXPECT_EQ(sim::describeLanes(0x0000ffffu), "lanes 0-15");
    EXPECT_EQ(sim::describeLanes(0x80001d0fu), "lanes 0-3, 8, 10-12, 31");
}

// Lanes 0-15 shuffle down by 16 inside `if (lane < 16)`: lanes 16-31 do not execute the shuffle.
// Their registers still hold what they computed before (1000 + lane); that is never the result.
TEST(UndefinedBehaviour, ShuffleFromInactiveLanesIsAHazardNotALeftoverValue)
{
    std::vector<std::int32_t> out;
    const sim::SimResult result = run(R"(
extern "C" __global__ void partial(int* out)
{
    int lane = threadIdx.x;
    int v = lane < 16 ? lane : 1000 + lane;
    if (lane < 16)
        v += __shfl_down_sync(0x0000ffff, v, 16);
    out[lane] = v;
}
)", "partial", out);
    const sim::Hazard* hazard = find(result, sim::HazardKind::ShflInactiveSource);
    ASSERT_NE(hazard, nullptr);
    EXPECT_EQ(hazard->lanes, 0x0000ffffu);      // the readers
    EXPECT_EQ(hazard->otherLanes, 0xffff0000u); // the lanes they read
    EXPECT_NE(hazard->message.find("lanes 0-15 read lanes 16-31, which do not execute this shuffle"), std::string::npos)
        << hazard->message;
    for (int lane = 0; lane < 16; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], 2 * lane) << lane; // its own value, not 1016 + lane's
    for (int lane = 16; lane < 32; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], 1000 + lane) << lane;
}

// The reduction pattern the issue measured: every lane executes the shuffle with a member mask of
// half the warp (a mask from a ballot of "lane < 16"), so lanes 0-15 read lanes 16-31 outside it,
// and lanes 16-31 execute it outside their own mask. Both are reported, with the lanes.
TEST(UndefinedBehaviour, ShuffleOutsideTheMemberMaskNamesTheLanes)
{
    std::vector<std::int32_t> out;
    const sim::SimResult result = run(R"(
extern "C" __global__ void reduce(int* out)
{
    int lane = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffff, lane < 16);
    int v = lane;
    v += __shfl_down_sync(mask, v, 16);
    out[lane] = v;
}
)", "reduce", out);
    const sim::Hazard* read = find(result, sim::HazardKind::ShflInactiveSource);
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->lanes, 0x0000ffffu);
    EXPECT_EQ(read->otherLanes, 0xffff0000u);
    EXPECT_NE(read->message.find("outside the member mask 0x0000ffff"), std::string::npos) << read->message;
    const sim::Hazard* outside = find(result, sim::HazardKind::WarpSyncMismatch);
    ASSERT_NE(outside, nullptr);
    EXPECT_EQ(outside->lanes, 0xffff0000u);
    EXPECT_NE(outside->message.find("lanes 16-31 execute a warp-synchronous instruction outside its member mask 0x0000ffff"),
              std::string::npos) << outside->message;
    // Active sources give their current values (what the hardware reads from lanes that execute it).
    for (int lane = 0; lane < 16; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], lane + lane + 16) << lane;
}

// A correct mask: no hazard, the sums as intended.
TEST(UndefinedBehaviour, AMaskThatCoversTheSourcesIsClean)
{
    std::vector<std::int32_t> out;
    const sim::SimResult result = run(R"(
extern "C" __global__ void reduce(int* out)
{
    int v = threadIdx.x;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    out[threadIdx.x] = v;
}
)", "reduce", out);
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    EXPECT_EQ(out[0], 31 * 32 / 2);
}

TEST(UndefinedBehaviour, SyncwarpAndBarrierNameTheLanesLeftOut)
{
    std::vector<std::int32_t> out;
    const sim::SimResult sync = run(R"(
extern "C" __global__ void sync(int* out)
{
    if (threadIdx.x % 2 == 0) { out[threadIdx.x] = 1; __syncwarp(); }
    else out[threadIdx.x] = 2;
    out[threadIdx.x] += 1;
}
)", "sync", out);
    const sim::Hazard* mismatch = find(sync, sim::HazardKind::WarpSyncMismatch);
    ASSERT_NE(mismatch, nullptr);
    EXPECT_EQ(mismatch->lanes, 0x55555555u);
    EXPECT_EQ(mismatch->otherLanes, 0xaaaaaaaau);
    EXPECT_NE(mismatch->message.find("names lanes 1, 3, 5"), std::string::npos) << mismatch->message;

    const sim::SimResult barrier = run(R"(
extern "C" __global__ void barrier(int* out)
{
    if (threadIdx.x < 40) { out[threadIdx.x] = 1; __syncthreads(); }
    out[threadIdx.x] += 1;
}
)", "barrier", out, 64);
    const sim::Hazard* divergence = find(barrier, sim::HazardKind::BarrierDivergence);
    ASSERT_NE(divergence, nullptr);
    EXPECT_EQ(divergence->warp, 1);
    EXPECT_EQ(divergence->lanes, 0x000000ffu);
    EXPECT_EQ(divergence->otherLanes, 0xffffff00u);
    EXPECT_NE(divergence->message.find("lanes 0-7; lanes 8-31 elsewhere"), std::string::npos) << divergence->message;
}

// Every lane passes its own member mask: here each tile of 8 lanes passes its tile's mask (what
// cg::tiled_partition<8> emits, `0xff << (lane & ~7)`). Each tile is its own collective; nothing is
// undefined. Expected values worked out by hand for tile t = lane / 8 (lanes 8t .. 8t+7).
TEST(PerLaneMemberMasks, EachTileIsItsOwnCollective)
{
    std::vector<std::int32_t> out;
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void tiles(int* out)
{
    unsigned lane = threadIdx.x;
    unsigned m = 0xffu << (lane & ~7u);
    int v = lane;
    for (int offset = 4; offset > 0; offset /= 2) v += __shfl_xor_sync(m, v, offset);
    int pred = 0;
    out[lane] = v;
    out[32 + lane] = __ballot_sync(m, lane % 2 == 0);
    out[64 + lane] = __reduce_add_sync(m, lane);
    out[96 + lane] = __match_any_sync(m, lane / 4);
    out[128 + lane] = __all_sync(m, lane < 12);
    out[160 + lane] = __match_all_sync(m, lane / 8, &pred);
    out[192 + lane] = pred;
    out[224 + lane] = __any_sync(m, lane == 9);
}
)", "tiles", "compute_80");
    sim::SimOptions options;
    options.hostThreads = 1;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(256, 0))},
                                                   options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    out = bufferValues<std::int32_t>(result, "out");
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        const std::uint32_t t = lane / 8, tileMask = 0xffu << (8 * t);
        const std::size_t i = lane;
        EXPECT_EQ(out[i], static_cast<std::int32_t>(64 * t + 28)) << lane;                  // 8t + ... + 8t+7
        EXPECT_EQ(static_cast<std::uint32_t>(out[32 + i]), 0x55u << (8 * t)) << lane;      // the tile's even lanes
        EXPECT_EQ(out[64 + i], static_cast<std::int32_t>(64 * t + 28)) << lane;             // lane 8 gets 92, not 28
        EXPECT_EQ(static_cast<std::uint32_t>(out[96 + i]), 0xfu << (4 * (lane / 4))) << lane; // same lane / 4
        EXPECT_EQ(out[128 + i], t == 0 ? 1 : 0) << lane;                                    // only tile 0 is all < 12
        EXPECT_EQ(static_cast<std::uint32_t>(out[160 + i]), tileMask) << lane;             // lane / 8 is the tile's own
        EXPECT_EQ(out[192 + i], 1) << lane;
        EXPECT_EQ(out[224 + i], t == 1 ? 1 : 0) << lane;                                    // lane 9 is in tile 1
    }
}

// What CUDA emits for a tile: cg::reduce over tiled_partition<16> at compute_80 (redux.sync with
// each half's mask). Lane 16 gets 16 + ... + 31 = 376 (it got lane 0's tile's 120 when the first
// lane's mask stood for the whole warp).
TEST(PerLaneMemberMasks, CooperativeGroupsTileReduce)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void tileSum(const int* in, int* out)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
}
)", "tileSum", "compute_80");
    std::vector<std::int32_t> in(32);
    for (int i = 0; i < 32; ++i)
        in[static_cast<std::size_t>(i)] = i;
    sim::SimOptions options;
    options.hostThreads = 1;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("in", sim::ElementType::I32, in),
                                                    bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(32, 0))},
                                                   options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(out[lane], lane < 16 ? 120 : 376) << lane;
}

// Lanes that name each other with different masks: lanes 0-15 pass the whole warp, lanes 16-31
// their half. CUDA requires every lane a collective names to pass the same mask; the lanes and
// both masks are named.
TEST(PerLaneMemberMasks, LanesNamingEachOtherWithDifferentMasksAreAHazard)
{
    std::vector<std::int32_t> out;
    const sim::SimResult result = run(R"(
extern "C" __global__ void mixed(int* out)
{
    unsigned lane = threadIdx.x;
    unsigned m = lane < 16 ? 0xffffffffu : 0xffff0000u;
    out[lane] = __ballot_sync(m, 1);
}
)", "mixed", out);
    const sim::Hazard* mismatch = find(result, sim::HazardKind::WarpSyncMismatch);
    ASSERT_NE(mismatch, nullptr);
    EXPECT_EQ(mismatch->lanes, 0x0000ffffu);
    EXPECT_EQ(mismatch->otherLanes, 0xffff0000u);
    EXPECT_NE(mismatch->message.find("lane 0: 0xffffffff, lane 16: 0xffff0000"), std::string::npos) << mismatch->message;
}
