// Launch geometry and wave placement against hand-computed indices.
#include "launch/launch_geometry.h"
#include "launch/wave_placement.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::launch;

TEST(LaunchGeometry, PartialWarps)
{
    const LaunchShape full{{4, 2, 1}, {96, 1, 1}};
    EXPECT_EQ(full.warpsPerBlock(), 3);
    EXPECT_EQ(full.idleLanesPerBlock(), 0);
    const LaunchShape partial{{1, 1, 1}, {100, 1, 1}};
    EXPECT_EQ(partial.warpsPerBlock(), 4);
    EXPECT_EQ(partial.lanesInLastWarp(), 4);
    EXPECT_EQ(partial.idleLanesPerBlock(), 28);
    EXPECT_FALSE(coordinatesOf(partial, 0, 3, 3).idle); // thread 99
    EXPECT_TRUE(coordinatesOf(partial, 0, 3, 4).idle);  // would be thread 100
}

TEST(LaunchGeometry, GlobalIdsIn2DGrid)
{
    // grid 4x2, block 96: blockIdx (1,1) is block 1 + 1*4 = 5; its thread 10 is global 5*96+10 = 490.
    const LaunchShape shape{{4, 2, 1}, {96, 1, 1}};
    const ThreadCoordinates c = coordinatesOf(shape, 5, 0, 10);
    EXPECT_EQ(c.blockIdx, (Dim3{1, 1, 0}));
    EXPECT_EQ(c.threadIdx, (Dim3{10, 0, 0}));
    EXPECT_TRUE(c.globalLinear == 490);
    EXPECT_EQ(c.warpInBlock, 0);
    EXPECT_EQ(c.lane, 10);
    EXPECT_TRUE(shape.threadCount() == 768);
}

TEST(LaunchGeometry, ThreeDimensionalBlocksFlattenXFastest)
{
    // block 8x8x4 = 256 threads: thread id = x + 8y + 64z. Warp 1 lane 0 = thread 32 = (0,4,0);
    // warp 7 lane 31 = thread 255 = (7,7,3); thread 100 = 100 - 64 = 36 -> (4,4,1).
    const LaunchShape shape{{2, 2, 2}, {8, 8, 4}};
    EXPECT_EQ(shape.warpsPerBlock(), 8);
    EXPECT_EQ(coordinatesOf(shape, 0, 1, 0).threadIdx, (Dim3{0, 4, 0}));
    EXPECT_EQ(coordinatesOf(shape, 0, 7, 31).threadIdx, (Dim3{7, 7, 3}));
    EXPECT_EQ(coordinatesOf(shape, 0, 3, 4).threadIdx, (Dim3{4, 4, 1}));
    // blockIdx from linear 7 in a 2x2x2 grid = (1,1,1); global id of its thread 0 = 7 * 256.
    const ThreadCoordinates last = coordinatesOf(shape, 7, 0, 0);
    EXPECT_EQ(last.blockIdx, (Dim3{1, 1, 1}));
    EXPECT_TRUE(last.globalLinear == 7 * 256);
    for (std::int64_t i = 0; i < 256; ++i)
        EXPECT_EQ(linearIndex(indexFromLinear(i, shape.block), shape.block), i);
}

TEST(LaunchGeometry, LargestLaunchCountsPast2To63)
{
    // (2^31-1) x 65535 x 65535 = 9,223,090,559,730,712,575 blocks (just under 2^63); x 1024 threads
    // = 9,444,444,733,164,249,676,800 threads, which needs more than 64 bits.
    const LaunchShape largest{{2147483647, 65535, 65535}, {1024, 1, 1}};
    const std::int64_t blocks = largest.blockCount();
    EXPECT_EQ(blocks, INT64_C(9223090559730712575));
    EXPECT_EQ(withThousandsBig(largest.threadCount()), "9,444,444,733,164,249,676,800");
    EXPECT_EQ(withThousandsBig(largest.warpCount()), "295,138,897,911,382,802,400");
    const ThreadCoordinates last = coordinatesOf(largest, blocks - 1, 31, 31);
    EXPECT_EQ(withThousandsBig(last.globalLinear), "9,444,444,733,164,249,676,799");
    EXPECT_EQ(last.blockIdx, (Dim3{2147483646, 65534, 65534}));
    EXPECT_EQ(withThousandsBig(static_cast<BigCount>(1) << 70), "1,180,591,620,717,411,303,424");
}

TEST(LaunchGeometry, ValidatesCudaLimits)
{
    EXPECT_NO_THROW(validateLaunch({{2147483647, 65535, 65535}, {1024, 1, 1}}));
    EXPECT_NO_THROW(validateLaunch({{1, 1, 1}, {16, 1, 64}}));
    EXPECT_THROW(validateLaunch({{1, 65536, 1}, {32, 1, 1}}), InputError);
    EXPECT_THROW(validateLaunch({{1, 1, 1}, {1, 1, 65}}), InputError);
    EXPECT_THROW(validateLaunch({{1, 1, 1}, {1025, 1, 1}}), InputError);
    EXPECT_THROW(validateLaunch({{0, 1, 1}, {32, 1, 1}}), InputError);
    try {
        validateLaunch({{1, 1, 1}, {64, 32, 1}});
        FAIL() << "2048 threads accepted";
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "block 64,32 has 2048 threads (allowed: at most 1024 threads per block)");
    }
}

TEST(LaunchGeometry, DimensionErrorsQuoteTheirOwnRange)
{
    // Garbage in a block component names the block's range (1..1024, z 1..64), never the grid's 2^31 - 1.
    const auto messageOf = [](auto parse, const char* text, const char* what) {
        try {
            parse(text, what);
        } catch (const InputError& error) {
            return std::string(error.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(messageOf(parseBlockDim, "abc,2", "block"), "block.x: 'abc' is not an integer (allowed: 1..1024)");
    EXPECT_EQ(messageOf(parseBlockDim, "2,2000", "block"), "block.y: 2000 is out of range (allowed: 1..1024)");
    EXPECT_EQ(messageOf(parseBlockDim, "1,1,65", "block"), "block.z: 65 is out of range (allowed: 1..64)");
    EXPECT_EQ(messageOf(parseBlockDim, "abc", "block"), "block: 'abc' is not an integer (allowed: 1..1024)");
    EXPECT_EQ(messageOf(parseBlockDim, "64,32", "block"), "block: 64,32 has 2048 threads (allowed: at most 1024 threads per block)");
    EXPECT_EQ(messageOf(parseGridDim, "4,70000", "grid"), "grid.y: 70000 is out of range (allowed: 1..65535)");
    EXPECT_EQ(messageOf(parseGridDim, "x", "grid"), "grid: 'x' is not an integer (allowed: 1..2147483647)");
    EXPECT_EQ(parseBlockDim("16,16", "block"), (Dim3{16, 16, 1}));
    EXPECT_EQ(parseGridDim("2147483647,65535,65535", "grid"), (Dim3{2147483647, 65535, 65535}));
}

TEST(LaunchGeometry, ByteSizesTakeKAndM)
{
    EXPECT_EQ(parseByteSize("32K", "static", 48 * 1024), 32768u);
    EXPECT_EQ(parseByteSize("32k", "static", 48 * 1024), 32768u);
    EXPECT_EQ(parseByteSize("1M", "n", 2 * 1024 * 1024), 1048576u);
    try {
        parseByteSize("64K", "static shared memory", 48 * 1024);
        FAIL() << "64K accepted";
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "static shared memory: 64K is out of range (allowed: 0..49152 bytes = 48 KB)");
    }
    EXPECT_THROW(parseByteSize("1M", "dynamic", 227 * 1024), InputError);
    EXPECT_THROW(parseByteSize("12KB", "static", 48 * 1024), InputError);
}

TEST(LaunchGeometry, ParsesDim3)
{
    EXPECT_EQ(parseDim3("96", "block"), (Dim3{96, 1, 1}));
    EXPECT_EQ(parseDim3("4,2", "grid"), (Dim3{4, 2, 1}));
    EXPECT_EQ(parseDim3("8,8,4", "block"), (Dim3{8, 8, 4}));
    EXPECT_THROW(parseDim3("", "grid"), InputError);
    EXPECT_THROW(parseDim3("4,", "grid"), InputError);
    EXPECT_THROW(parseDim3("1,2,3,4", "grid"), InputError);
    EXPECT_THROW(parseDim3("0", "grid"), InputError);
    EXPECT_THROW(parseDim3("x", "grid"), InputError);
    EXPECT_THROW(parseDim3("-3", "grid"), InputError);
    EXPECT_EQ(formatDim3({4, 2, 1}), "4,2");
    EXPECT_EQ(formatDim3({4, 1, 3}), "4,1,3");
}

TEST(Parse, IntegersAndByteSizes)
{
    EXPECT_EQ(parseInteger("42", "n", 0, 100), 42);
    EXPECT_EQ(parseInteger(" 7 ", "n", 0, 100), 7);
    EXPECT_THROW(parseInteger("4x", "n", 0, 100), InputError);
    EXPECT_THROW(parseInteger("1e3", "n", 0, 100000), InputError);
    EXPECT_THROW(parseInteger("99999999999999999999", "n", 0, 100), InputError);
    EXPECT_EQ(parseByteSize("48K", "s", 1 << 20), 49152u);
    EXPECT_EQ(parseByteSize("100", "s", 1 << 20), 100u);
    EXPECT_THROW(parseByteSize("-1", "s", 1 << 20), InputError);
    EXPECT_THROW(parseByteSize("2M", "s", 1 << 20), InputError);
    EXPECT_THROW(parseByteSize("1025K", "s", 1 << 20), InputError);
    EXPECT_EQ(withThousands(1234567), "1,234,567");
    EXPECT_EQ(formatBytes(17408), "17 KB");
    EXPECT_EQ(formatBytes(10000), "10,000 B");
}

TEST(WavePlacement, H100FullWaveAndTail)
{
    // 528 blocks of 512 threads on H100: 4 blocks per SM x 132 SMs = 528 slots -> exactly one wave.
    const WavePlan exact = planWaves(528, 132, 4);
    EXPECT_EQ(exact.waves, 1);
    EXPECT_EQ(exact.tailBlocks, 528);
    EXPECT_DOUBLE_EQ(exact.tailUtilization, 1.0);
    // One block more: a second wave with a single block; 529 / 1056 slot-waves used.
    const WavePlan tail = planWaves(529, 132, 4);
    EXPECT_EQ(tail.waves, 2);
    EXPECT_EQ(tail.tailBlocks, 1);
    EXPECT_DOUBLE_EQ(tail.averageUtilization, 529.0 / 1056.0);
    // Block 133 of the first wave: index 133 -> SM 133 mod 132 = 1, slot 133 / 132 = 1.
    const BlockSlot slot = placeBlock(tail, 133);
    EXPECT_EQ(slot.wave, 0);
    EXPECT_EQ(slot.sm, 1);
    EXPECT_EQ(slot.slot, 1);
    EXPECT_EQ(placeBlock(tail, 528).wave, 1);
    EXPECT_FALSE(planWaves(10, 132, 0).runnable());
}
