// Out-of-bounds reports (issue 27): one report per warp-wide access, naming the first element it
// touched in the access type's units, how far outside the buffer it lies, the buffer's size in
// those units and every lane involved. The sentences are worked out by hand below.
#include "sim/global_memory.h"
#include "sim/hazards.h"
#include "sim_test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// A buffer of `bytes` bytes at a GPU-like address, as GlobalMemory::allocate lays them out.
sim::DeviceBuffer buffer(const std::string& name, std::uint64_t bytes)
{
    return {name, sim::kGlobalBase, std::vector<std::uint8_t>(bytes)};
}

const sim::Hazard* onlyHazardAt(const sim::SimResult& result, sim::HazardKind kind, bool store,
                                const ptx::Function& function)
{
    const sim::Hazard* found = nullptr;
    for (const sim::Hazard& hazard : result.hazards) {
        if (hazard.kind != kind)
            continue;
        const ptx::Op op = function.instructions[static_cast<std::size_t>(hazard.pc)].op;
        if ((op == ptx::Op::St) != store)
            continue;
        if (found)
            return nullptr; // more than one: the caller's expectation fails
        found = &hazard;
    }
    return found;
}

} // namespace

// a: 1,000 floats = 4,000 bytes. a[1000] starts at byte 4,000, the end: 1 element past it.
TEST(OutOfBoundsText, OneFloatPastTheEnd)
{
    const sim::DeviceBuffer a = buffer("a", 4000);
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 4000, 4, ptx::Type::F32), "a[1000], 1 element past the end (1,000 floats)");
    // a[1002]: elements 1000, 1001 and 1002 lie past the end.
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 4008, 4, ptx::Type::F32), "a[1002], 3 elements past the end (1,000 floats)");
    // 4 bytes before the start: a[-1].
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base - 4, 4, ptx::Type::F32), "a[-1], 1 element before the start (1,000 floats)");
}

// Vector accesses name the elements they cover: ld.v4.f32 at byte 3,992 reads a[998..1001], of which
// 1000 and 1001 are past the end; at byte 4,000 all four are, the first of them 1 element past.
TEST(OutOfBoundsText, VectorAccessesNameTheirElements)
{
    const sim::DeviceBuffer a = buffer("a", 4000);
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 3992, 16, ptx::Type::F32),
              "a[998..1001], its last 2 elements past the end (1,000 floats)");
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 4000, 16, ptx::Type::F32),
              "a[1000..1003], starting 1 element past the end (1,000 floats)");
    // 8 bytes before the start, 16 wide: a[-2..1], the first two outside.
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base - 8, 16, ptx::Type::F32),
              "a[-2..1], its first 2 elements before the start (1,000 floats)");
}

// The PTX type names the elements; untyped .b32 says only their size; a buffer of one element is
// singular.
TEST(OutOfBoundsText, ElementsAreNamedByTheAccessType)
{
    const sim::DeviceBuffer d = buffer("d", 8 * 10);
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 80, 8, ptx::Type::F64), "d[10], 1 element past the end (10 doubles)");
    // A C int is loaded as .s32 or .u32: either is an int.
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 80, 4, ptx::Type::S32), "d[20], 1 element past the end (20 ints)");
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 80, 4, ptx::Type::U32), "d[20], 1 element past the end (20 ints)");
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 80, 8, ptx::Type::U64), "d[10], 1 element past the end (10 64-bit ints)");
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 84, 4, ptx::Type::B32),
              "d[21], 2 elements past the end (20 4-byte elements)");
    EXPECT_EQ(sim::describeOutOfBounds(&d, d.base + 80, 2, ptx::Type::F16), "d[40], 1 element past the end (40 halves)");
    const sim::DeviceBuffer one = buffer("x", 4);
    EXPECT_EQ(sim::describeOutOfBounds(&one, one.base + 4, 4, ptx::Type::F32), "x[1], 1 element past the end (1 float)");
}

// The buffer's declared type comes first: x[i] = 2.0f stores the float's bits with st.u32, and an
// f32 buffer still counts floats. A declared type that does not tile the access (a 2-byte store into
// a float buffer, at a half-float's offset) gives way to the access's type; an untyped one (.b8, as
// module variables are often declared) to the access's too.
TEST(OutOfBoundsText, TheDeclaredTypeNamesTheElements)
{
    sim::DeviceBuffer x = buffer("x", 4000);
    x.elementType = ptx::Type::F32;
    EXPECT_EQ(sim::describeOutOfBounds(&x, x.base + 4000, 4, ptx::Type::U32), "x[1000], 1 element past the end (1,000 floats)");
    EXPECT_EQ(sim::describeOutOfBounds(&x, x.base + 4002, 2, ptx::Type::U16),
              "x[2001], 2 elements past the end (2,000 16-bit ints)");
    sim::DeviceBuffer table = buffer("table", 400);
    table.elementType = ptx::Type::B8;
    EXPECT_EQ(sim::describeOutOfBounds(&table, table.base + 400, 4, ptx::Type::F32),
              "table[100], 1 element past the end (100 floats)");
}

// Bytes when the elements do not tile: an address 1 byte off a float, or a buffer of 4,002 bytes.
TEST(OutOfBoundsText, BytesWhenTheElementsDoNotFit)
{
    const sim::DeviceBuffer a = buffer("a", 4000);
    // Bytes 4,001-4,004: byte 4,000 is the first past the end, so 4,001 is the second.
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 4001, 4, ptx::Type::F32),
              "bytes 4,001 to 4,004 of 'a', starting 2 bytes past the end (4,000 bytes)");
    const sim::DeviceBuffer odd = buffer("b", 4002);
    EXPECT_EQ(sim::describeOutOfBounds(&odd, odd.base + 4004, 4, ptx::Type::F32),
              "bytes 4,004 to 4,007 of 'b', starting 3 bytes past the end (4,002 bytes)");
    // A copy has no element type.
    EXPECT_EQ(sim::describeOutOfBounds(&a, a.base + 4000, 1, ptx::Type::None), "byte 4,000 of 'a', 1 byte past the end (4,000 bytes)");
}

// No buffer at all, or one a null pointer's distance away: the address.
TEST(OutOfBoundsText, FarAddressesAreGivenAsAddresses)
{
    EXPECT_EQ(sim::describeOutOfBounds(nullptr, 0x10, 4, ptx::Type::F32), "address 0x10, in no allocation");
    const sim::DeviceBuffer a = buffer("a", 4000);
    EXPECT_EQ(sim::describeOutOfBounds(&a, 0, 4, ptx::Type::F32), "address 0x0, far from every allocation (the nearest is 'a')");
}

// Lane lists as compact ranges.
TEST(OutOfBoundsText, LanesAreCompactRanges)
{
    EXPECT_EQ(sim::describeLanes(0xffffff00u), "lanes 8-31");
    EXPECT_EQ(sim::describeLanes((1u << 3) | (1u << 5) | (0xfu << 9)), "lanes 3, 5, 9-12");
    EXPECT_EQ(sim::describeLanes(1u << 8), "lane 8");
}

// The lanes of one access: the lowest address is the one named, every lane is kept, and each lane
// access counts.
TEST(OutOfBoundsLanes, KeepsEveryLaneAndTheLowestAddress)
{
    sim::OutOfBoundsLanes lanes;
    EXPECT_TRUE(lanes.empty());
    lanes.add(9, 0x1040, 4);
    lanes.add(3, 0x1020, 4);
    lanes.add(5, 0x1020, 8); // the same address from a higher lane: lane 3 stays the one named
    lanes.add(12, 0x1100, 4);
    EXPECT_FALSE(lanes.empty());
    EXPECT_EQ(lanes.lanes(), (1u << 3) | (1u << 5) | (1u << 9) | (1u << 12));
    EXPECT_EQ(lanes.lowestLane(), 3u);
    EXPECT_EQ(lanes.lowestAddress(), 0x1020u);
    EXPECT_EQ(lanes.lowestBytes(), 4u);
    EXPECT_EQ(lanes.accesses(), 4u);
}

// The issue's case: a = b + 1 over 1,000 floats with no guard, 32 blocks of 32 threads. Block 31
// holds threads 992-1023: its lanes 8-31 read b[1000..1023] and write a[1000..1023]. Each access
// is one report naming b[1000] (or a[1000]), 1 element past the end, and lanes 8-31.
TEST(OutOfBoundsReport, AMissingGuardNamesTheElementAndEveryLane)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void unguarded(float* a, const float* b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = b[i] + 1.0f;
}
)", "unguarded");
    const sim::SimResult result = simulateKernel(kernel, {32, 1, 1}, {32, 1, 1}, {"a=f32[1000]:fill(0)", "b=f32[1000]:iota"});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 2u);
    const sim::Hazard* read = onlyHazardAt(result, sim::HazardKind::OutOfBoundsGlobal, false, *kernel.function);
    const sim::Hazard* write = onlyHazardAt(result, sim::HazardKind::OutOfBoundsGlobal, true, *kernel.function);
    ASSERT_TRUE(read && write);
    EXPECT_EQ(read->message, "reads b[1000], 1 element past the end (1,000 floats); lanes 8-31 "
                             "(on a GPU: an illegal-address error or silent corruption)");
    EXPECT_EQ(write->message, "writes a[1000], 1 element past the end (1,000 floats); lanes 8-31 "
                              "(on a GPU: an illegal-address error or silent corruption)");
    for (const sim::Hazard* hazard : {read, write}) {
        EXPECT_EQ(hazard->block.x, 31);
        EXPECT_EQ(hazard->warp, 0);
        EXPECT_EQ(hazard->lane, 8); // the lowest address: thread 1000 - 992
        EXPECT_EQ(hazard->thread.x, 8);
        EXPECT_EQ(hazard->lanes, 0xffffff00u);
        EXPECT_EQ(hazard->occurrences, 24u); // one per lane access
    }
    EXPECT_EQ(write->buffer, "a");
    EXPECT_EQ(read->buffer, "b");
}

// A guard off by one (i <= n) on 1,000 floats in blocks of 256: only thread 1000 is out, block 3's
// thread 232 = warp 7, lane 8.
TEST(OutOfBoundsReport, AGuardOffByOneNamesOneLane)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void offByOne(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        x[i] = 2.0f;
}
)", "offByOne");
    const sim::SimResult result = simulateKernel(kernel, {4, 1, 1}, {256, 1, 1}, {"x=f32[n]:fill(0)", "n=i32:1000"});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 1u);
    const sim::Hazard& hazard = result.hazards.front();
    EXPECT_EQ(hazard.kind, sim::HazardKind::OutOfBoundsGlobal);
    EXPECT_EQ(hazard.message, "writes x[1000], 1 element past the end (1,000 floats); lane 8 "
                              "(on a GPU: an illegal-address error or silent corruption)");
    EXPECT_EQ(hazard.block.x, 3);
    EXPECT_EQ(hazard.thread.x, 232);
    EXPECT_EQ(hazard.warp, 7);
    EXPECT_EQ(hazard.lane, 8);
    EXPECT_EQ(hazard.lanes, 1u << 8);
    EXPECT_EQ(hazard.occurrences, 1u);
}

// Scattered lanes: lanes 3, 5 and 9-12 of one warp write x[n + lane] into 32 floats, the others
// x[lane]. The lowest address out of bounds is lane 3's x[35], 4 elements past the end.
TEST(OutOfBoundsReport, ScatteredLanesAreListedAsRanges)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void scattered(int* x, int n)
{
    int lane = threadIdx.x;
    bool out = lane == 3 || lane == 5 || (lane >= 9 && lane <= 12);
    x[out ? n + lane : lane] = lane;
}
)", "scattered");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"x=i32[n]:fill(0)", "n=i32:32"});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 1u);
    const sim::Hazard& hazard = result.hazards.front();
    EXPECT_EQ(hazard.message, "writes x[35], 4 elements past the end (32 ints); lanes 3, 5, 9-12 "
                              "(on a GPU: an illegal-address error or silent corruption)");
    EXPECT_EQ(hazard.lane, 3);
    EXPECT_EQ(hazard.lanes, (1u << 3) | (1u << 5) | (0xfu << 9));
    EXPECT_EQ(hazard.occurrences, 6u);
}
