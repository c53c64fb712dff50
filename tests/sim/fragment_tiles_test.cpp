// The fragment view's model (core/sim/fragment_tiles.h): which lane, register and half hold each
// element of A, B, C/D, worked out by hand from the PTX ISA's figures ("Matrix Fragments for
// mma.m16n8k16 with floating point type", "... with integer type", "... mma.m16n8k8" for .tf32,
// and ldmatrix's description), and the decoded values the view shows.
#include "sim_test_support.h"
#include "tensor_core_test_support.h"

#include "sim/float_math.h"
#include "sim/fragment_tiles.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

using namespace warpscope;
using namespace warpscope::testing_support;
using namespace warpscope::tensor_core_test;
using sim::tensor::FragmentTile;
using sim::tensor::FragmentView;
using sim::tensor::TileElement;

namespace {

const char* const kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry frag()
{
	.reg .b32 %r<40>;
	.reg .f32 %f<16>;
	.reg .b64 %rd<4>;
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r10, %r11, %r12, %r13}, {%r14, %r15}, {%f1, %f2, %f3, %f4};
	mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%r20, %r21, %r22, %r23}, {%r24, %r25}, {%r26}, {%r27, %r28, %r29, %r30};
	mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f5, %f6, %f7, %f8}, {%r10, %r11, %r12, %r13}, {%r14, %r15}, {%f1, %f2, %f3, %f4};
	ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r1, %r2}, [%rd1];
	wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
	mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f5, %f6, %f7, %f8}, {%r1, %r2}, {%r9}, {%f1, %f2, %f3, %f4};
	ret;
}
)";

// Register values by PTX register number, before and after the instruction.
struct Registers {
    std::map<std::int32_t, std::array<std::uint64_t, 32>> before, after;
    sim::tensor::LaneRegisters source() const
    {
        return [this](std::int32_t reg, bool isAfter) -> const std::uint64_t* {
            const auto& map = isAfter ? after : before;
            const auto found = map.find(reg);
            return found == map.end() ? nullptr : found->second.data();
        };
    }
};

class FragmentTiles : public ::testing::Test {
protected:
    void SetUp() override { kernel = parsePtxKernel(kPtx, "frag"); }
    const ptx::Instruction& instruction(int index) const { return kernel.function->instructions[static_cast<std::size_t>(index)]; }
    std::int32_t reg(int instructionIndex, int operand, int index) const
    {
        return instruction(instructionIndex).operands[static_cast<std::size_t>(operand)].vector[static_cast<std::size_t>(index)];
    }
    CompiledKernel kernel;
};

std::uint16_t half(double value) { return sim::halfFromDouble(value, sim::HalfFormat::F16, sim::RoundingDirection::NearestEven); }

void expectHeld(const FragmentTile& tile, int row, int col, int lane, int registerIndex, int part, const char* what)
{
    const TileElement& element = tile.at(row, col);
    EXPECT_TRUE(element.held) << what;
    EXPECT_EQ(element.lane, lane) << what;
    EXPECT_EQ(element.registerIndex, registerIndex) << what;
    EXPECT_EQ(element.part, part) << what;
}

} // namespace

// mma.m16n8k16 .f16, by hand from the ISA's figure (groupID = lane >> 2, threadID_in_group = lane % 4):
// A(1, 10): row groupID 1, column 2 * 1 + 8 -> a4 of lane 5, register 2's low half.
// A(9, 3): row groupID + 8 (g 1), column 2 * 1 + 1 -> a3 of lane 5, register 1's high half.
// B(9, 6): column groupID 6, row 2 * 0 + 1 + 8 -> b3 of lane 24, register 1's high half.
// D(10, 5): row groupID + 8 (g 2), column 2 * 2 + 1 -> d3 of lane 10, register 3.
TEST_F(FragmentTiles, MmaM16n8k16F16ElementsAreWhereTheIsaFigurePutsThem)
{
    Registers regs;
    // A's register r of lane L holds (10 L + 2 r) low and (10 L + 2 r + 1) high: exact in f16.
    for (int r = 0; r < 4; ++r)
        for (int lane = 0; lane < 32; ++lane)
            regs.before[reg(0, 1, r)][static_cast<std::size_t>(lane)] = pack(half(10 * lane + 2 * r), half(10 * lane + 2 * r + 1));
    for (int r = 0; r < 4; ++r)
        for (int lane = 0; lane < 32; ++lane)
            regs.after[reg(0, 0, r)][static_cast<std::size_t>(lane)] = floatBits(static_cast<float>(lane) + 0.25f * static_cast<float>(r));
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(0), regs.source());
    ASSERT_TRUE(view);
    EXPECT_TRUE(view->multiply);
    EXPECT_EQ(view->title, "mma.sync m16n8k16: D = A x B + C");
    ASSERT_EQ(view->tiles.size(), 4u);
    const FragmentTile &a = view->tiles[0], &b = view->tiles[1], &c = view->tiles[2], &d = view->tiles[3];
    EXPECT_EQ(a.rows, 16);
    EXPECT_EQ(a.cols, 16);
    EXPECT_EQ(b.rows, 16);
    EXPECT_EQ(b.cols, 8);
    EXPECT_EQ(d.rows, 16);
    EXPECT_EQ(d.cols, 8);
    EXPECT_TRUE(d.written);
    EXPECT_FALSE(c.written);
    expectHeld(a, 1, 10, 5, 2, 0, "A(1,10)");
    EXPECT_EQ(a.at(1, 10).value, 54.0); // 10 * 5 + 2 * 2
    EXPECT_EQ(sim::tensor::fragmentElementName(instruction(0), a, a.at(1, 10)), "a4");
    EXPECT_EQ(sim::tensor::elementBitsText(a, a.at(1, 10)), "f16 0x52c0"); // 54 = 1.6875 x 2^5
    expectHeld(a, 9, 3, 5, 1, 1, "A(9,3)");
    EXPECT_EQ(a.at(9, 3).value, 53.0);
    EXPECT_EQ(a.at(9, 3).reg, reg(0, 1, 1));
    expectHeld(b, 9, 6, 24, 1, 1, "B(9,6)");
    expectHeld(d, 10, 5, 10, 3, 0, "D(10,5)");
    EXPECT_EQ(d.at(10, 5).value, 10.75);
    EXPECT_EQ(sim::tensor::fragmentElementName(instruction(0), d, d.at(10, 5)), "d3");
    // Every element is held once: 32 lanes x 8 A elements = 256 = 16 x 16.
    for (const TileElement& element : a.elements) {
        EXPECT_TRUE(element.held);
        EXPECT_EQ(element.copies, 1);
    }
}

// mma.m16n8k16 .s8 (ISA, "... with integer type"): A row groupID for a0-a3, groupID + 8 for a4-a7,
// column threadID_in_group * 4 + (i & 3); B row threadID_in_group * 4 + i, column groupID.
// A(11, 6): g 3, i >= 4; tg 1, i & 3 = 2 -> a6 of lane 13, register 1, byte 2.
// B(13, 2): tg 3, i 1, g 2 -> b1 of lane 4 g + tg = 11, register 0, byte 1.
TEST_F(FragmentTiles, MmaM16n8k16S8ElementsAndSignedDecoding)
{
    Registers regs;
    regs.before[reg(1, 1, 1)][13] = 0x00fb0000u;  // byte 2 = 0xfb = -5 as .s8
    regs.before[reg(1, 2, 0)][11] = 0x00007f00u;  // byte 1 = 127
    regs.before[reg(1, 3, 0)][0] = 0xfffffff6u;   // C(0, 0) = c0 of lane 0: -10 as .s32
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(1), regs.source());
    ASSERT_TRUE(view);
    const FragmentTile &a = view->tiles[0], &b = view->tiles[1], &c = view->tiles[2];
    EXPECT_EQ(a.type, ptx::Type::S8);
    expectHeld(a, 11, 6, 13, 1, 2, "A(11,6)");
    EXPECT_EQ(a.at(11, 6).value, -5.0);
    EXPECT_EQ(sim::tensor::elementBitsText(a, a.at(11, 6)), "s8 0xfb");
    expectHeld(b, 13, 2, 11, 0, 1, "B(13,2)");
    EXPECT_EQ(b.at(13, 2).value, 127.0);
    expectHeld(c, 0, 0, 0, 0, 0, "C(0,0)");
    EXPECT_EQ(c.at(0, 0).value, -10.0);
}

// mma.m16n8k8 .tf32 (ISA figures 72 and 75): A rows groupID (a0, a2) and groupID + 8 (a1, a3), columns
// threadID_in_group (a0, a1) and + 4 (a2, a3); B rows threadID_in_group (b0) and + 4 (b1), column groupID.
// A(10, 5): g 2, row + 8; tg 1, column + 4 -> a3 of lane 9, register 3. B(6, 7): tg 2, b1; g 7 -> lane 30.
// A .tf32 element reads the register's top 19 bits: 1 + 2^-10 + 2^-20 reads as 1 + 2^-10.
TEST_F(FragmentTiles, MmaM16n8k8Tf32ElementsReadTheTop19Bits)
{
    Registers regs;
    regs.before[reg(2, 1, 3)][9] = floatBits(1.0f + 0x1p-10f + 0x1p-20f);
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(2), regs.source());
    ASSERT_TRUE(view);
    const FragmentTile &a = view->tiles[0], &b = view->tiles[1];
    EXPECT_EQ(a.rows, 16);
    EXPECT_EQ(a.cols, 8);
    expectHeld(a, 10, 5, 9, 3, 0, "A(10,5)");
    EXPECT_EQ(a.at(10, 5).value, 1.0 + 0x1p-10);
    expectHeld(b, 6, 7, 30, 1, 0, "B(6,7)");
}

// ldmatrix .x2 .trans: register i of lane L holds the transposed matrix's row L / 4, columns 2 (L % 4)
// and one more, so the stored matrix's (row, col) is in lane 4 col + row / 2, half row % 2.
// Matrix 1's (5, 3): lane 14, register 1, high half. Its values are the ones after the load.
TEST_F(FragmentTiles, LdmatrixTransposedElementsAndTheirLanes)
{
    Registers regs;
    regs.after[reg(3, 0, 1)][14] = pack(half(0.5), half(-2.0));
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(3), regs.source(), ptx::Type::F16);
    ASSERT_TRUE(view);
    EXPECT_FALSE(view->multiply);
    ASSERT_EQ(view->tiles.size(), 2u);
    const FragmentTile& m1 = view->tiles[1];
    EXPECT_EQ(m1.name, '1');
    EXPECT_TRUE(m1.written);
    expectHeld(m1, 5, 3, 14, 1, 1, "matrix 1 (5,3)");
    EXPECT_EQ(m1.at(5, 3).value, -2.0);
    expectHeld(m1, 4, 3, 14, 1, 0, "matrix 1 (4,3)");
    EXPECT_EQ(m1.at(4, 3).value, 0.5);
}

// wmma m16n16k16 .f16 A (the simulator's model, not the ISA's): 8 registers of two halves hold 16
// elements per lane, 8 distinct; each element is held by one lane, in two of its registers.
TEST_F(FragmentTiles, WmmaF16FragmentHoldsEachElementTwice)
{
    Registers regs;
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(4), regs.source());
    ASSERT_TRUE(view);
    EXPECT_EQ(view->title, "wmma.load.a m16n16k16, row-major in memory");
    ASSERT_EQ(view->tiles.size(), 1u);
    const FragmentTile& a = view->tiles[0];
    EXPECT_TRUE(a.written);
    std::array<int, 32> perLane{};
    for (const TileElement& element : a.elements) {
        ASSERT_TRUE(element.held);
        EXPECT_EQ(element.copies, 2);
        EXPECT_LT(element.registerIndex, 4); // the first copy: registers 0-3; 4-7 repeat them
        ++perLane[static_cast<std::size_t>(element.lane)];
    }
    for (int count : perLane)
        EXPECT_EQ(count, 8);
    EXPECT_NE(view->layoutSource.find("A model"), std::string::npos);
}

// An ldmatrix's .b16 elements are decoded as the type of the mma that reads its registers.
TEST_F(FragmentTiles, LdmatrixElementsTakeTheTypeOfTheMmaThatReadsThem)
{
    EXPECT_EQ(sim::tensor::ldmatrixElementType(*kernel.function, 3), std::optional(ptx::Type::BF16)); // %r1, %r2 -> the bf16 mma's A
    EXPECT_EQ(sim::tensor::ldmatrixElementType(*kernel.function, 5), std::nullopt); // the last mma: nothing after it reads them
}

// D(i, j) term by term: A all ones, B(k, j) = k, C = 0.5: 0.5 + 0 + 1 + ... + 15 = 120.5.
TEST_F(FragmentTiles, MultiplyTermsSumRowTimesColumnOntoC)
{
    Registers regs;
    for (int r = 0; r < 4; ++r)
        regs.before[reg(0, 1, r)].fill(pack(half(1.0), half(1.0)));
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < 2; ++r) {
            const Coord low = b16816(lane, 2 * r), high = b16816(lane, 2 * r + 1);
            regs.before[reg(0, 2, r)][static_cast<std::size_t>(lane)] = pack(half(low.row), half(high.row));
        }
    for (int r = 0; r < 4; ++r)
        regs.before[reg(0, 3, r)].fill(floatBits(0.5f));
    const std::optional<FragmentView> view = sim::tensor::fragmentView(instruction(0), regs.source());
    ASSERT_TRUE(view);
    const sim::tensor::MultiplyTerms terms = sim::tensor::multiplyTerms(*view, 3, 6);
    EXPECT_EQ(terms.c, 0.5);
    ASSERT_EQ(terms.products.size(), 16u);
    EXPECT_EQ(terms.products[7], 7.0);
    EXPECT_EQ(terms.partial[0], 0.5);
    EXPECT_EQ(terms.partial[3], 6.5);
    EXPECT_EQ(terms.partial[15], 120.5);
}

// The shared-memory caption of a fragment load: matmul_wmma's wmma.load.a of .f16 (two adjacent
// halves per register: one 4-byte request per register, 8 in all) with the recorded 16 wavefronts
// and 8 conflicts says why that is not lesson 07's "wavefronts - 1": 16 - 8 requests = 8.
TEST_F(FragmentTiles, WmmaLoadCaptionCountsOneRequestPerRegister)
{
    sim::RecordedAccess access;
    access.space = ptx::Space::Shared;
    access.bytesPerLane = 4;
    access.laneMask = 0xffffffffu;
    access.wavefronts = 16;
    access.bankConflicts = 8;
    EXPECT_EQ(sim::tensor::matrixAccessCaption(instruction(4), access),
              "Shared load (wmma.load.a): the simulator counts 8 requests, one per fragment register, each 32 lanes x 4 "
              "bytes. All told 16 wavefronts and 8 bank conflicts: each request needs at least one wavefront, so the "
              "'wavefronts - 1' rule holds per request: 16 - 8 = 8. The figure shows the first request.");
    // ldmatrix .x2: one request per 8 x 8 matrix.
    access.bytesPerLane = 16;
    access.wavefronts = 2;
    access.bankConflicts = 0;
    EXPECT_EQ(sim::tensor::matrixAccessCaption(instruction(3), access),
              "Shared load (ldmatrix): the simulator counts 2 requests, one per 8 x 8 matrix, each 8 lanes x 16 bytes "
              "(lane 8i + r gives row r of matrix i). All told 2 wavefronts and 0 bank conflicts: each request needs at "
              "least one wavefront, so the 'wavefronts - 1' rule holds per request: 2 - 2 = 0.");
    EXPECT_EQ(sim::tensor::matrixAccessCaption(instruction(0), access), ""); // mma.sync touches no memory
}
