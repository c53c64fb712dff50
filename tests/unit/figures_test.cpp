// The stepper's figures speak the lessons' terms (viz/memory/memory_model.h): masks in hex as the
// lessons write them, which bank and wavefront a shared-memory lane hits, which sector and line a
// global lane falls in and whether it is out of bounds, the lane under the pointer, and the memory
// view's packets that travel once and stop, and the placement view's slots sized to the window. Expected values are worked out by hand, then checked
// against what the simulator recorded for small kernels.
#include "memory/memory_model.h"
#include "placement/placement_layout.h"

#include "gpu/gpu_preset.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_parser.h"
#include "sim/kernel_args.h"
#include "sim/memory_analysis.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;

namespace {

sim::RecordedAccess sharedAccess(std::uint32_t bytesPerLane, const std::function<std::uint64_t(std::uint32_t)>& address,
                                 std::uint32_t laneMask = 0xffffffffu)
{
    sim::RecordedAccess access;
    access.space = ptx::Space::Shared;
    access.bytesPerLane = bytesPerLane;
    access.laneMask = laneMask;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        access.addresses[lane] = address(lane);
    return access;
}

std::uint32_t gridWavefronts(const sim::RecordedAccess& access)
{
    std::uint32_t total = 0;
    for (const viz::SharedPhase& phase : viz::sharedBankGrid(access))
        total += phase.wavefronts;
    return total;
}

std::uint32_t simulatorWavefronts(const sim::RecordedAccess& access)
{
    std::vector<sim::LaneAccess> lanes;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((access.laneMask >> lane) & 1u)
            lanes.push_back({access.addresses[lane], lane});
    return sim::analyzeSharedAccess(lanes, access.bytesPerLane).wavefronts;
}

// Compiles `source`, runs it as one block of `threads` and records that block.
sim::SimResult recordOneBlock(const char* source, const char* kernel, std::uint32_t threads, std::vector<std::string> args)
{
    const ptx::CompileResult compiled = ptx::compileCuda(source, "figures.cu", {});
    EXPECT_TRUE(compiled.ok) << compiled.log;
    static std::vector<std::shared_ptr<ptx::Module>> modules; // the recording refers to the module's code
    modules.push_back(std::make_shared<ptx::Module>(ptx::parseModule(compiled.ptx)));
    sim::LaunchRequest request;
    request.module = modules.back().get();
    request.function = modules.back()->findFunction(kernel);
    request.grid = {1, 1, 1};
    request.block = {threads, 1, 1};
    std::vector<sim::ArgSpec> specs;
    for (const std::string& arg : args)
        specs.push_back(sim::parseArgSpec(arg));
    request.args = sim::resolveArgs(specs, 1 << 20);
    request.preset = *gpu::findPreset("sm_90");
    request.options.recordBlock = 0;
    return sim::simulate(std::move(request));
}

} // namespace

TEST(FigureText, MasksAreWrittenInHexAsTheLessonsDo)
{
    // The even lanes (bits 0, 2, ..., 30), the odd ones, and warp rejoin masks from 05-stepping.md.
    EXPECT_EQ(viz::laneMaskHex(0x55555555u), "0x55555555");
    EXPECT_EQ(viz::laneMaskHex(0xaaaaaaaau), "0xaaaaaaaa");
    EXPECT_EQ(viz::laneMaskHex(0xffffffffu), "0xffffffff");
    // Lanes 8-31 (08-divergence.md) and single lanes keep all eight digits.
    EXPECT_EQ(viz::laneMaskHex(0xffffff00u), "0xffffff00");
    EXPECT_EQ(viz::laneMaskHex(1u), "0x00000001");
    EXPECT_EQ(viz::laneMaskHex(0u), "0x00000000");
}

TEST(FigureHitTest, TheLaneUnderThePointer)
{
    // 32 cells of 10 px from x = 100: lane k covers [100 + 10k, 110 + 10k).
    EXPECT_EQ(viz::laneAtX(100.0, 100.0, 10.0), 0);
    EXPECT_EQ(viz::laneAtX(109.9, 100.0, 10.0), 0);
    EXPECT_EQ(viz::laneAtX(110.0, 100.0, 10.0), 1);
    EXPECT_EQ(viz::laneAtX(255.0, 100.0, 10.0), 15);
    EXPECT_EQ(viz::laneAtX(419.9, 100.0, 10.0), 31);
    EXPECT_EQ(viz::laneAtX(420.0, 100.0, 10.0), -1);
    EXPECT_EQ(viz::laneAtX(99.9, 100.0, 10.0), -1);
    EXPECT_EQ(viz::laneAtX(150.0, 100.0, 0.0), -1);
    // A half-warp phase of 8-byte lanes: 16 cells of 20 px over the same 320 px.
    EXPECT_EQ(viz::laneAtX(119.9, 100.0, 20.0, 16), 0);
    EXPECT_EQ(viz::laneAtX(410.0, 100.0, 20.0, 16), 15);
    EXPECT_EQ(viz::laneAtX(420.0, 100.0, 20.0, 16), -1);
}

TEST(FigureSharedBanks, AStrideOfTwoWordsPutsTwoLanesInEachEvenBank)
{
    // Lane i reads the float at byte 8i: word 2i, bank 2i mod 32. Lanes i and i + 16 share bank
    // 2i with different words (2i and 2i + 32): 2 wavefronts, one bank conflict.
    const sim::RecordedAccess access = sharedAccess(4, [](std::uint32_t lane) { return 8ull * lane; });
    const std::vector<viz::SharedPhase> grid = viz::sharedBankGrid(access);
    ASSERT_EQ(grid.size(), 1u);
    EXPECT_EQ(grid[0].wavefronts, 2u);
    EXPECT_EQ(grid[0].banks[0].size(), 2u);
    EXPECT_EQ(grid[0].banks[0][0].word, 0u);
    EXPECT_EQ(grid[0].banks[0][0].lanes, 1u << 0);
    EXPECT_EQ(grid[0].banks[0][1].word, 32u);
    EXPECT_EQ(grid[0].banks[0][1].lanes, 1u << 16);
    EXPECT_TRUE(grid[0].banks[1].empty()); // odd banks are idle
    EXPECT_EQ(gridWavefronts(access), simulatorWavefronts(access));

    const viz::SharedLaneInspection lane16 = viz::inspectSharedLane(access, 16);
    ASSERT_TRUE(lane16.active);
    ASSERT_EQ(lane16.words.size(), 1u);
    EXPECT_EQ(lane16.words[0].bank, 0u);
    EXPECT_EQ(lane16.words[0].wavefront, 2u);
    EXPECT_EQ(viz::describeSharedLane(16, lane16), "lane 16 → byte 128 (0x80) → bank 0 → wavefront 2 of 2");
    EXPECT_EQ(viz::describeSharedLane(3, viz::inspectSharedLane(access, 3)), "lane 3 → byte 24 (0x18) → bank 6 → wavefront 1 of 2");
}

TEST(FigureSharedBanks, OneWordForAllLanesIsABroadcast)
{
    const sim::RecordedAccess access = sharedAccess(4, [](std::uint32_t) { return 64ull; });
    EXPECT_EQ(gridWavefronts(access), 1u);
    EXPECT_EQ(gridWavefronts(access), simulatorWavefronts(access));
    EXPECT_EQ(viz::describeSharedLane(7, viz::inspectSharedLane(access, 7)),
              "lane 7 → byte 64 (0x40) → bank 16 → wavefront 1 of 1 (a word shared with other lanes: broadcast)");
}

TEST(FigureSharedBanks, SixteenByteQuarterWarpsReadingTheSameWordsShareWavefronts)
{
    // matmul_tiled's LDS.128 of As[ty][k..k+3] with 16 x 16 threads: lanes 0-15 (ty = 0) all read
    // bytes 0-15, lanes 16-31 (ty = 1) bytes 64-79 (a 16-float row further). Quarter-warp 1 reads the
    // words quarter-warp 0 read, and 3 those of 2, so the figure draws 2 wavefronts, as the simulator
    // counts them (and as the recorded H200 measured), not 4.
    const sim::RecordedAccess access = sharedAccess(16, [](std::uint32_t lane) { return lane < 16 ? 0ull : 64ull; });
    const std::vector<viz::SharedPhase> grid = viz::sharedBankGrid(access);
    ASSERT_EQ(grid.size(), 4u);
    EXPECT_FALSE(grid[0].sharesPrevious);
    EXPECT_TRUE(grid[1].sharesPrevious);
    EXPECT_FALSE(grid[2].sharesPrevious);
    EXPECT_TRUE(grid[3].sharesPrevious);
    EXPECT_EQ(grid[1].wavefronts, 0u);
    EXPECT_EQ(grid[3].firstWavefront, grid[2].firstWavefront);
    EXPECT_EQ(gridWavefronts(access), 2u);
    EXPECT_EQ(gridWavefronts(access), simulatorWavefronts(access));
    EXPECT_EQ(viz::describeSharedLane(9, viz::inspectSharedLane(access, 9)),
              "lane 9 → byte 0 (0x0) → banks 0, 1, 2, 3 → wavefront 1 of 2 (a word shared with other lanes: broadcast)");
    EXPECT_EQ(viz::describeSharedLane(25, viz::inspectSharedLane(access, 25)),
              "lane 25 → byte 64 (0x40) → banks 16, 17, 18, 19 → wavefront 2 of 2 (a word shared with other lanes: broadcast)");
    // Quarter-warps of different words keep their own: lane i reads 16 bytes at 16 i, 4 wavefronts.
    const sim::RecordedAccess rows = sharedAccess(16, [](std::uint32_t lane) { return 16ull * lane; });
    EXPECT_EQ(gridWavefronts(rows), 4u);
    EXPECT_EQ(gridWavefronts(rows), simulatorWavefronts(rows));
}

TEST(FigureSharedBanks, EightByteLanesAreServedByHalfWarps)
{
    // Lane i reads the double at byte 8i: words 2i and 2i + 1. Lanes 0-15 cover words 0-31, one per
    // bank (wavefront 1); lanes 16-31 cover words 32-63 (wavefront 2).
    const sim::RecordedAccess access = sharedAccess(8, [](std::uint32_t lane) { return 8ull * lane; });
    const std::vector<viz::SharedPhase> grid = viz::sharedBankGrid(access);
    ASSERT_EQ(grid.size(), 2u);
    EXPECT_EQ(grid[1].firstLane, 16u);
    EXPECT_EQ(grid[1].lastLane, 31u);
    EXPECT_EQ(grid[1].firstWavefront, 1u);
    EXPECT_EQ(gridWavefronts(access), 2u);
    EXPECT_EQ(gridWavefronts(access), simulatorWavefronts(access));
    EXPECT_EQ(viz::describeSharedLane(17, viz::inspectSharedLane(access, 17)),
              "lane 17 → byte 136 (0x88) → banks 2, 3 → wavefront 2 of 2");
    // An inactive lane says so.
    const sim::RecordedAccess half = sharedAccess(4, [](std::uint32_t lane) { return 4ull * lane; }, 0x0000ffffu);
    EXPECT_EQ(viz::describeSharedLane(20, viz::inspectSharedLane(half, 20)), "lane 20: no access (inactive or guarded off)");
}

TEST(FigureSharedBanks, TheGridCountsWhatTheSimulatorCounts)
{
    // Column reads of a 32 x 32 float tile (the transpose lesson): every lane in bank 0, 32 words.
    const sim::RecordedAccess column = sharedAccess(4, [](std::uint32_t lane) { return 128ull * lane; });
    EXPECT_EQ(gridWavefronts(column), 32u);
    EXPECT_EQ(viz::inspectSharedLane(column, 31).words[0].wavefront, 32u);
    // Padded to 33 columns: one word per bank again.
    const sim::RecordedAccess padded = sharedAccess(4, [](std::uint32_t lane) { return 132ull * lane; });
    EXPECT_EQ(gridWavefronts(padded), 1u);
    // 16-byte lanes in quarter-warps, with every other lane off.
    const sim::RecordedAccess wide = sharedAccess(16, [](std::uint32_t lane) { return 32ull * lane; }, 0x55555555u);
    for (const sim::RecordedAccess* access : {&column, &padded, &wide})
        EXPECT_EQ(gridWavefronts(*access), simulatorWavefronts(*access));
}

TEST(FigureGlobalLanes, LaneAddressSectorAndLine)
{
    // 32 floats from byte 3,968 of a buffer at 0x10000: 0x10f80 .. 0x10fff, sectors 0x10f80,
    // 0x10fa0, 0x10fc0, 0x10fe0 in one 128-byte line at 0x10f80. Lane 8 is at 0x10fa0: sector 2.
    sim::RecordedAccess access;
    access.space = ptx::Space::Global;
    access.bytesPerLane = 4;
    access.laneMask = 0xffffffffu;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        access.addresses[lane] = 0x10000 + 3968 + 4ull * lane;
    access.sectors = 4;
    access.timed = true;
    access.dramMask = 0b1111;
    const viz::GlobalLaneInspection lane8 = viz::inspectGlobalLane(access, 8, 0xffffff00u);
    EXPECT_TRUE(lane8.outOfBounds);
    EXPECT_EQ(lane8.sector, 0x10fa0u);
    EXPECT_EQ(lane8.sectorIndex, 1u);
    EXPECT_EQ(lane8.line, 0x10f80u);
    EXPECT_EQ(viz::describeGlobalLane(8, lane8),
              "lane 8 → 0x10fa0 → sector 2 of 4 (0x10fa0, from DRAM) → line 1 of 1 (0x10f80); out of bounds: no "
              "allocation holds these bytes");
    EXPECT_FALSE(viz::inspectGlobalLane(access, 7, 0xffffff00u).outOfBounds);

    // A stride of 128 bytes: every lane has its own sector and line; lane 5 has the sixth of each.
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        access.addresses[lane] = 0x20000 + 128ull * lane;
    access.sectors = 32;
    access.timed = false;
    EXPECT_EQ(viz::describeGlobalLane(5, viz::inspectGlobalLane(access, 5, 0)),
              "lane 5 → 0x20280 → sector 6 of 32 (0x20280) → line 6 of 32 (0x20280)");

    // A misaligned 8-byte lane at byte 28 covers two sectors.
    access.bytesPerLane = 8;
    access.laneMask = 1u;
    access.addresses[0] = 0x30000 + 28;
    const viz::GlobalLaneInspection misaligned = viz::inspectGlobalLane(access, 0, 0);
    EXPECT_EQ(misaligned.sectorSpan, 2u);
    EXPECT_EQ(misaligned.sectors, 2u);
    EXPECT_EQ(viz::describeGlobalLane(0, misaligned), "lane 0 → 0x3001c → sector 1-2 of 2 (0x30000) → line 1 of 1 (0x30000)");
}

TEST(FigureGlobalLanes, OutOfBoundsLanesComeFromTheRecordedHazards)
{
    // A copy without its bounds check: 64 threads, 40 floats. Warp 1 (threads 32-63) has lanes
    // 0-7 in bounds (elements 32-39) and lanes 8-31 past the end, for the load and the store.
    const char* source = R"(
extern "C" __global__ void copy_unchecked(const float* in, float* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
)";
    const sim::SimResult result = recordOneBlock(source, "copy_unchecked", 64, {"in=f32[40]:iota", "out=f32[40]"});
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    std::vector<std::uint32_t> warp1Masks, warp0Masks;
    for (std::size_t s = 0; s < recording.steps.size(); ++s) {
        const sim::RecordedStep& step = recording.steps[s];
        if (step.access < 0 || recording.accesses[static_cast<std::size_t>(step.access)].space != ptx::Space::Global)
            continue;
        (step.warp == 1 ? warp1Masks : warp0Masks).push_back(viz::outOfBoundsLanes(recording, s));
        if (step.warp == 1) {
            const sim::RecordedAccess& access = recording.accesses[static_cast<std::size_t>(step.access)];
            const viz::GlobalLaneInspection lane8 = viz::inspectGlobalLane(access, 8, warp1Masks.back());
            EXPECT_TRUE(lane8.outOfBounds);
            EXPECT_EQ(lane8.address, access.addresses[0] + 32); // 8 floats after lane 0
            EXPECT_FALSE(viz::inspectGlobalLane(access, 7, warp1Masks.back()).outOfBounds);
        }
    }
    EXPECT_EQ(warp1Masks, (std::vector<std::uint32_t>{0xffffff00u, 0xffffff00u})); // the load, the store
    EXPECT_EQ(warp0Masks, (std::vector<std::uint32_t>{0u, 0u}));
}

TEST(FigureSharedBanks, TheGridMatchesTheRecordedAccess)
{
    // Each thread writes its own float, then reads with a stride of 4 words: banks 0, 4, ..., 28,
    // each serving 4 distinct words (lanes i, i + 8, i + 16, i + 24): 4 wavefronts, 3 conflicts.
    const char* source = R"(
extern "C" __global__ void strided_read(float* out)
{
    __shared__ float tile[128];
    tile[threadIdx.x] = threadIdx.x;
    tile[threadIdx.x + 32] = threadIdx.x;
    tile[threadIdx.x + 64] = threadIdx.x;
    tile[threadIdx.x + 96] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x * 4) % 128];
}
)";
    const sim::SimResult result = recordOneBlock(source, "strided_read", 32, {"out=f32[32]"});
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    bool sawRead = false;
    for (const sim::RecordedAccess& access : recording.accesses) {
        if (access.space != ptx::Space::Shared)
            continue;
        EXPECT_EQ(gridWavefronts(access), access.wavefronts);
        if (access.isStore)
            continue;
        sawRead = true;
        EXPECT_EQ(access.wavefronts, 4u);
        EXPECT_EQ(viz::describeSharedLane(9, viz::inspectSharedLane(access, 9)),
                  "lane 9 → byte 144 (0x90) → bank 4 → wavefront 2 of 4");
    }
    EXPECT_TRUE(sawRead);
}

TEST(FigurePackets, TheyTravelOnceThenRest)
{
    EXPECT_DOUBLE_EQ(viz::packetAnimationSeconds(0), 0.0);
    EXPECT_DOUBLE_EQ(viz::packetAnimationSeconds(1), viz::kPacketTripSeconds);
    EXPECT_DOUBLE_EQ(viz::packetAnimationSeconds(4), viz::kPacketTripSeconds + 3 * viz::kPacketStaggerSeconds);
    EXPECT_DOUBLE_EQ(viz::packetProgress(0.0, 0), 0.0);
    EXPECT_DOUBLE_EQ(viz::packetProgress(viz::kPacketTripSeconds / 2, 0), 0.5);
    EXPECT_DOUBLE_EQ(viz::packetProgress(viz::kPacketStaggerSeconds, 1), 0.0); // the second leaves one stagger later
    // Every packet has arrived when the animation ends, and stays there.
    for (std::size_t i = 0; i < 64; ++i) {
        EXPECT_DOUBLE_EQ(viz::packetProgress(viz::packetAnimationSeconds(64), i), 1.0) << i;
        EXPECT_DOUBLE_EQ(viz::packetProgress(1e6, i), 1.0) << i;
    }
    EXPECT_LT(viz::packetProgress(viz::packetAnimationSeconds(64) - 0.01, 63), 1.0);
}

// H100 at the default launch: 21 resident blocks on each of 132 SMs, in the 880 x 420 px the
// placement view has for its SMs at 1280 x 800. An SM of 7 x 3 slots is 88 x 40 world units (93 x
// 45 with the gap); 12 SMs a row (11 rows) is 1,111 x 490, drawn at min(880 / 1111, 420 / 490) =
// 0.792: 7.9 px slots. The near-square 5 x 5 grid (64 x 64, 4 places empty) with columns for the
// area's aspect, 17 SMs a row (8 rows, 1,168 x 547), fits at 880 / 1,168 = 0.753.
TEST(FigurePlacement, SlotsAreSizedToTheArea)
{
    const viz::PlacementLayout fitted = viz::PlacementLayout::fitting(132, 21, 880, 420);
    EXPECT_EQ(fitted.slotColumns(), 7);
    EXPECT_EQ(fitted.slotRows(), 3);
    EXPECT_EQ(fitted.smColumns(), 12);
    EXPECT_EQ(fitted.smRows(), 11);
    EXPECT_NEAR(fitted.scaleToFit(880, 420), 880.0 / 1111.0, 1e-9);
    EXPECT_GE(viz::PlacementLayout::kSlot * fitted.scaleToFit(880, 420), 7.9);
    const viz::PlacementLayout square(132, 21, 880.0 / 420.0);
    EXPECT_EQ(square.slotColumns(), 5);
    EXPECT_EQ(square.smColumns(), 17);
    EXPECT_NEAR(square.scaleToFit(880, 420), 880.0 / 1168.0, 1e-9);
    for (int sm = 0; sm < 132; ++sm)
        for (int slot = 0; slot < 21; ++slot) {
            const viz::Rect r = fitted.slotRect(sm, slot);
            const viz::PlacementHit hit = fitted.hitTest({r.x + r.w / 2, r.y + r.h / 2});
            ASSERT_EQ(hit.sm, sm);
            ASSERT_EQ(hit.slot, slot);
        }
    // One block per SM on a tall area: one slot each, SMs in a column-heavy grid; never 0 columns.
    const viz::PlacementLayout one = viz::PlacementLayout::fitting(4, 1, 100, 400);
    EXPECT_EQ(one.slotColumns(), 1);
    EXPECT_EQ(one.smColumns(), 1);
    EXPECT_EQ(viz::PlacementLayout::fitting(0, 0, 10, 10).smColumns(), 1);
}
