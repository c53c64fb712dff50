// Tensor Core instructions, second part (issue 15): tf32 and 8-bit integer mma.sync, their fragments
// checked element by element against the PTX ISA's figures ("Matrix Fragments for mma.m16n8k4",
// "... mma.m16n8k8", "... mma.m16n8k16 with integer type", "... mma.m16n8k32"), written out here
// from the ISA's formulas rather than taken from the simulator; tf32 truncation and integer
// .satfinite on hand-worked values. wmma tf32 and integer GEMMs from mma.h, stmatrix, .satfinite
// with NaN, wmma alignment, cvt to tf32 and the forms still left out are in
// tensor_core_more_wmma_test.cpp.
//
// Sections: the ISA's figures as helpers (the C/D figure is in tensor_core_test_support.h), and a
// one-mma kernel that packs fragments by them; tf32 mma (figures, truncation, CPU GEMM); integer
// mma (figures, CPU GEMM, .satfinite).
#include "sim_test_support.h"
#include "tensor_core_test_support.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;
using namespace warpscope::tensor_core_test;

namespace {

// The ISA's figures, with g = groupID = lane >> 2 and t = threadID_in_group = lane % 4.
// m16n8k4 .tf32 A (a0, a1): row g for a0, g + 8 for a1; column t.
Coord a1684Tf32(int lane, int i) { return {i == 0 ? lane >> 2 : (lane >> 2) + 8, lane % 4}; }
// m16n8k4 .tf32 B (b0): row t; column g.
Coord b1684Tf32(int lane, int) { return {lane % 4, lane >> 2}; }
// m16n8k8 .tf32 A (a0..a3): row g for a0 and a2, g + 8 for a1 and a3; column t for a0 and a1,
// t + 4 for a2 and a3.
Coord a1688Tf32(int lane, int i)
{
    const int g = lane >> 2, t = lane % 4;
    return {(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
}
// m16n8k8 .tf32 B (b0, b1): row t for b0, t + 4 for b1; column g.
Coord b1688Tf32(int lane, int i) { return {i == 0 ? lane % 4 : lane % 4 + 4, lane >> 2}; }
// m16n8k16 .s8/.u8 A (a0..a7): row g for i < 4, g + 8 for i >= 4; column t * 4 + (i & 3).
Coord a16816I8(int lane, int i) { return {i < 4 ? lane >> 2 : (lane >> 2) + 8, (lane % 4) * 4 + (i & 3)}; }
// m16n8k16 .s8/.u8 B (b0..b3): row t * 4 + i; column g.
Coord b16816I8(int lane, int i) { return {(lane % 4) * 4 + i, lane >> 2}; }
// m16n8k32 .s8/.u8 A (a0..a15): row g for 0 <= i < 4 or 8 <= i < 12, else g + 8; column
// t * 4 + (i & 3), plus 16 for i >= 8.
Coord a16832I8(int lane, int i)
{
    const int g = lane >> 2, t = lane % 4;
    const bool lowRow = i < 4 || (i >= 8 && i < 12);
    return {lowRow ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
}
// m16n8k32 .s8/.u8 B (b0..b7): row t * 4 + (i & 3), plus 16 for i >= 4; column g.
Coord b16832I8(int lane, int i) { return {(lane % 4) * 4 + (i & 3) + (i >= 4 ? 16 : 0), lane >> 2}; }

// One mma.sync shape and type: its opcode, K, registers per lane and the ISA's figures.
struct MmaForm {
    std::string opcode;
    int k = 0;
    int aRegisters = 0, bRegisters = 0;
    int perRegister = 1; // elements per 32-bit register: 4 for .s8/.u8, 1 for .tf32
    std::function<Coord(int, int)> a, b;
};

MmaForm tf32Form(int k)
{
    if (k == 4)
        return {"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 4, 2, 1, 1, a1684Tf32, b1684Tf32};
    return {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, 4, 2, 1, a1688Tf32, b1688Tf32};
}

MmaForm integerForm(int k, const std::string& types, bool satfinite = false)
{
    const std::string prefix = "mma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col" + (satfinite ? ".satfinite" : "");
    if (k == 16)
        return {prefix + ".s32." + types + ".s32", 16, 2, 1, 4, a16816I8, b16816I8};
    return {prefix + ".s32." + types + ".s32", 32, 4, 2, 4, a16832I8, b16832I8};
}

// One mma per warp: lane L loads its A, B and C registers from a, b and c (laid out by lane) and
// stores its four D registers to d. The registers are .b32 throughout.
std::string mmaKernel(const MmaForm& form)
{
    std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                      ".visible .entry mma(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
                      "\t.reg .b32 %r<48>;\n\t.reg .b64 %rd<16>;\n"
                      "\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [b];\n\tld.param.u64 %rd3, [c];\n\tld.param.u64 %rd4, [d];\n"
                      "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                      "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
                      "\tmov.u32 %r1, %tid.x;\n";
    auto loads = [&](const std::string& base, int count, int firstRegister, const std::string& address) {
        ptx += "\tmul.wide.u32 %rd10, %r1, " + std::to_string(count * 4) + ";\n\tadd.s64 " + address + ", " + base + ", %rd10;\n";
        std::string list;
        for (int r = 0; r < count; ++r) {
            const std::string reg = "%r" + std::to_string(firstRegister + r);
            ptx += "\tld.global.b32 " + reg + ", [" + address + "+" + std::to_string(4 * r) + "];\n";
            list += (r ? ", " : "") + reg;
        }
        return "{" + list + "}";
    };
    const std::string aList = loads("%rd1", form.aRegisters, 10, "%rd5");
    const std::string bList = loads("%rd2", form.bRegisters, 20, "%rd6");
    const std::string cList = loads("%rd3", 4, 30, "%rd7");
    ptx += "\t" + form.opcode + " {%r40, %r41, %r42, %r43}, " + aList + ", " + bList + ", " + cList + ";\n"
           "\tmul.wide.u32 %rd10, %r1, 16;\n\tadd.s64 %rd8, %rd4, %rd10;\n"
           "\tst.global.b32 [%rd8], %r40;\n\tst.global.b32 [%rd8+4], %r41;\n"
           "\tst.global.b32 [%rd8+8], %r42;\n\tst.global.b32 [%rd8+12], %r43;\n\tret;\n}\n";
    return ptx;
}

// Runs `form` on A (16 x k), B (k x 8) and C (16 x 8), row-major raw element bits (the low 8 bits for
// .s8/.u8 multiplicands, the f32 or s32 bits otherwise), packed into registers by the figures above;
// returns D (16 x 8) read back through the C/D figure.
std::vector<std::uint32_t> runMma(const MmaForm& form, const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                                  const std::vector<std::uint32_t>& c, sim::SimResult* resultOut = nullptr)
{
    const CompiledKernel kernel = parsePtxKernel(mmaKernel(form), "mma");
    const int k = form.k, per = form.perRegister, elementBits = per == 4 ? 8 : 32;
    std::vector<std::uint32_t> aWords(32 * static_cast<std::size_t>(form.aRegisters), 0);
    std::vector<std::uint32_t> bWords(32 * static_cast<std::size_t>(form.bRegisters), 0);
    std::vector<std::uint32_t> cWords(32 * 4);
    for (int lane = 0; lane < 32; ++lane) {
        for (int i = 0; i < form.aRegisters * per; ++i) {
            const Coord at = form.a(lane, i);
            const std::uint32_t bits = a[static_cast<std::size_t>(at.row * k + at.col)] & (per == 4 ? 0xffu : 0xffffffffu);
            aWords[static_cast<std::size_t>(lane * form.aRegisters + i / per)] |= bits << (elementBits * (i % per));
        }
        for (int i = 0; i < form.bRegisters * per; ++i) {
            const Coord at = form.b(lane, i);
            const std::uint32_t bits = b[static_cast<std::size_t>(at.row * 8 + at.col)] & (per == 4 ? 0xffu : 0xffffffffu);
            bWords[static_cast<std::size_t>(lane * form.bRegisters + i / per)] |= bits << (elementBits * (i % per));
        }
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            cWords[static_cast<std::size_t>(lane * 4 + i)] = c[static_cast<std::size_t>(at.row * 8 + at.col)];
        }
    }
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U32, aWords), bufferArg("b", sim::ElementType::U32, bWords),
                                                    bufferArg("c", sim::ElementType::U32, cWords),
                                                    bufferArg("d", sim::ElementType::U32, std::vector<std::uint32_t>(32 * 4, 0xdeadbeefu))});
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<std::uint32_t> laneValues = bufferValues<std::uint32_t>(result, "d");
    std::vector<std::uint32_t> d(16 * 8, 0xdeadbeefu);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            d[static_cast<std::size_t>(at.row * 8 + at.col)] = laneValues[static_cast<std::size_t>(lane * 4 + i)];
        }
    if (resultOut)
        *resultOut = result;
    return d;
}

// Every element of A, then of B, lands in a known place of D: in pass p, B selects columns
// p * bs .. p * bs + bs - 1 of A (bs = min(8, k)), and A holds values only there, so an element read
// from anywhere else gives 0; then A selects rows of B the same way. C adds 1000 + its position, so
// C's and D's figure is checked too. `encode` writes a small non-negative integer in the form's type.
void checkFragmentsFollowTheFigures(const MmaForm& form, const std::function<std::uint32_t(int)>& encode,
                                    const std::function<long long(std::uint32_t)>& decode)
{
    const int k = form.k, bs = std::min(8, k);
    std::vector<std::uint32_t> c(16 * 8);
    for (int r = 0; r < 16; ++r)
        for (int n = 0; n < 8; ++n)
            c[static_cast<std::size_t>(r * 8 + n)] = encode(1000 + r * 8 + n) ; // accumulator type
    for (int pass = 0; pass < k / bs; ++pass) {
        std::vector<std::uint32_t> a(static_cast<std::size_t>(16 * k), 0), b(static_cast<std::size_t>(k * 8), 0);
        for (int r = 0; r < 16; ++r)
            for (int j = 0; j < bs; ++j)
                a[static_cast<std::size_t>(r * k + pass * bs + j)] = encode(r * 8 + j + 1); // 1..128
        for (int n = 0; n < bs; ++n)
            b[static_cast<std::size_t>((pass * bs + n) * 8 + n)] = encode(1);
        const std::vector<std::uint32_t> d = runMma(form, a, b, c);
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n) {
                const long long expected = 1000 + r * 8 + n + (n < bs ? r * 8 + n + 1 : 0);
                EXPECT_EQ(decode(d[static_cast<std::size_t>(r * 8 + n)]), expected) << form.opcode << " A pass " << pass << " at " << r << "," << n;
            }
        // B: A[r][pass * bs + r % bs] = 1; B holds values only in rows pass * bs .. + bs - 1.
        std::fill(a.begin(), a.end(), 0u);
        std::fill(b.begin(), b.end(), 0u);
        for (int r = 0; r < 16; ++r)
            a[static_cast<std::size_t>(r * k + pass * bs + r % bs)] = encode(1);
        for (int j = 0; j < bs; ++j)
            for (int n = 0; n < 8; ++n)
                b[static_cast<std::size_t>((pass * bs + j) * 8 + n)] = encode(j * 8 + n + 1);
        const std::vector<std::uint32_t> e = runMma(form, a, b, c);
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n) {
                const long long expected = 1000 + r * 8 + n + (r % bs) * 8 + n + 1;
                EXPECT_EQ(decode(e[static_cast<std::size_t>(r * 8 + n)]), expected) << form.opcode << " B pass " << pass << " at " << r << "," << n;
            }
    }
}

} // namespace

// Spot values of the figures, worked by hand for lane 5 (groupID 1, threadID_in_group 1) and lane 30
// (groupID 7, threadID_in_group 2), so the helpers above are checked too.
TEST(TensorCoresMore, FigureHelpersMatchHandWorkedLanes)
{
    EXPECT_EQ(a1684Tf32(5, 1).row, 9);   EXPECT_EQ(a1684Tf32(5, 1).col, 1);
    EXPECT_EQ(b1684Tf32(30, 0).row, 2);  EXPECT_EQ(b1684Tf32(30, 0).col, 7);
    EXPECT_EQ(a1688Tf32(5, 0).row, 1);   EXPECT_EQ(a1688Tf32(5, 0).col, 1);
    EXPECT_EQ(a1688Tf32(5, 1).row, 9);   EXPECT_EQ(a1688Tf32(5, 1).col, 1);
    EXPECT_EQ(a1688Tf32(5, 2).row, 1);   EXPECT_EQ(a1688Tf32(5, 2).col, 5);
    EXPECT_EQ(a1688Tf32(30, 3).row, 15); EXPECT_EQ(a1688Tf32(30, 3).col, 6);
    EXPECT_EQ(b1688Tf32(5, 1).row, 5);   EXPECT_EQ(b1688Tf32(5, 1).col, 1);
    EXPECT_EQ(a16816I8(5, 5).row, 9);    EXPECT_EQ(a16816I8(5, 5).col, 5);
    EXPECT_EQ(a16816I8(30, 3).row, 7);   EXPECT_EQ(a16816I8(30, 3).col, 11);
    EXPECT_EQ(b16816I8(5, 2).row, 6);    EXPECT_EQ(b16816I8(5, 2).col, 1);
    EXPECT_EQ(a16832I8(5, 9).row, 1);    EXPECT_EQ(a16832I8(5, 9).col, 21);
    EXPECT_EQ(a16832I8(5, 6).row, 9);    EXPECT_EQ(a16832I8(5, 6).col, 6);
    EXPECT_EQ(a16832I8(30, 13).row, 15); EXPECT_EQ(a16832I8(30, 13).col, 25);
    EXPECT_EQ(b16832I8(5, 6).row, 22);   EXPECT_EQ(b16832I8(5, 6).col, 1);
    EXPECT_EQ(c168(30, 3).row, 15);      EXPECT_EQ(c168(30, 3).col, 5);
}

TEST(TensorCoresMore, MmaTf32FragmentsFollowTheIsaFigures)
{
    auto encode = [](int v) { return floatBits(static_cast<float>(v)); }; // integers below 2^11: exact in tf32
    auto decode = [](std::uint32_t bits) { return static_cast<long long>(bitsFloat(bits)); };
    checkFragmentsFollowTheFigures(tf32Form(8), encode, decode);
    checkFragmentsFollowTheFigures(tf32Form(4), encode, decode);
}

TEST(TensorCoresMore, MmaIntegerFragmentsFollowTheIsaFigures)
{
    auto encode = [](int v) { return static_cast<std::uint32_t>(v); }; // u8 multiplicands up to 128, s32 C
    auto decode = [](std::uint32_t bits) { return static_cast<long long>(static_cast<std::int32_t>(bits)); };
    checkFragmentsFollowTheFigures(integerForm(16, "u8.u8"), encode, decode);
    checkFragmentsFollowTheFigures(integerForm(32, "u8.u8"), encode, decode);
}

// The Tensor Core reads the top 19 bits of a .tf32 register (sign, exponent, 10 mantissa bits): the
// low 13 bits are ignored. Hand-worked, with B = [1 0 ...; ...] selecting A's column 0 and C = 0:
//   A[0][0] = 0x3f801fff = 1 + 8191 * 2^-23: read as 1.0 (bits 0x3f800000);
//   A[1][0] = 0x3f802000 = 1 + 2^-10, the smallest step above 1 in tf32: kept;
//   A[2][0] = 0xbfffffff = -(2 - 2^-23): read as -(2 - 2^-10) = -1.9990234375;
//   A[3][0] = 0x00001fff, a subnormal below tf32's resolution there: read as +0.
// B too: B[0][1] = 0x40401fff (3 + 8191 * 2^-22) is read as 3, so D[r][1] = 3 A[r][0].
TEST(TensorCoresMore, MmaTf32TruncatesTheLow13Bits)
{
    for (int k : {8, 4}) {
        const MmaForm form = tf32Form(k);
        std::vector<std::uint32_t> a(static_cast<std::size_t>(16 * k), 0), b(static_cast<std::size_t>(k * 8), 0), c(16 * 8, 0);
        a[0] = 0x3f801fffu;
        a[static_cast<std::size_t>(1 * k)] = 0x3f802000u;
        a[static_cast<std::size_t>(2 * k)] = 0xbfffffffu;
        a[static_cast<std::size_t>(3 * k)] = 0x00001fffu;
        b[0] = floatBits(1.0f);
        b[1] = 0x40401fffu;
        const std::vector<std::uint32_t> d = runMma(form, a, b, c);
        EXPECT_EQ(bitsFloat(d[0 * 8 + 0]), 1.0f) << k;
        EXPECT_EQ(bitsFloat(d[1 * 8 + 0]), 1.0009765625f) << k;
        EXPECT_EQ(bitsFloat(d[2 * 8 + 0]), -1.9990234375f) << k;
        EXPECT_EQ(d[3 * 8 + 0], 0u) << k; // +0
        EXPECT_EQ(bitsFloat(d[0 * 8 + 1]), 3.0f) << k;
        EXPECT_EQ(bitsFloat(d[1 * 8 + 1]), 3.0029296875f) << k;
        EXPECT_EQ(bitsFloat(d[2 * 8 + 1]), -5.9970703125f) << k;
    }
}

// Random tf32 products against a CPU GEMM that truncates each input to 19 bits itself: one rounding
// to f32 at the end, so within f32's half-ulp of the exact sum.
TEST(TensorCoresMore, MmaTf32MatchesACpuGemm)
{
    std::mt19937 random(80);
    std::uniform_real_distribution<float> real(-2.0f, 2.0f);
    for (int k : {8, 4}) {
        std::vector<std::uint32_t> a(static_cast<std::size_t>(16 * k)), b(static_cast<std::size_t>(k * 8)), c(16 * 8);
        for (std::vector<std::uint32_t>* m : {&a, &b, &c})
            for (std::uint32_t& x : *m)
                x = floatBits(real(random));
        sim::SimResult result;
        const std::vector<std::uint32_t> d = runMma(tf32Form(k), a, b, c, &result);
        auto tf32 = [](std::uint32_t bits) { return static_cast<double>(bitsFloat(bits & ~0x1fffu)); };
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n) {
                double expected = bitsFloat(c[static_cast<std::size_t>(r * 8 + n)]);
                for (int i = 0; i < k; ++i)
                    expected += tf32(a[static_cast<std::size_t>(r * k + i)]) * tf32(b[static_cast<std::size_t>(i * 8 + n)]);
                EXPECT_EQ(bitsFloat(d[static_cast<std::size_t>(r * 8 + n)]), static_cast<float>(expected)) << k << " at " << r << "," << n;
            }
        const CompiledKernel kernel = parsePtxKernel(mmaKernel(tf32Form(k)), "mma");
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mma).warpExecutions, 1u);
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mma).threadExecutions, 32u);
    }
}

// Every signedness pair (.s8.s8, .s8.u8, .u8.s8, .u8.u8) over the whole 8-bit range, both shapes,
// against an exact CPU GEMM: .s8 elements sign-extended, .u8 zero-extended.
TEST(TensorCoresMore, MmaIntegerMatchesACpuGemm)
{
    std::mt19937 random(81);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> accumulator(-100000, 100000);
    for (int k : {16, 32})
        for (const char* types : {"s8.s8", "s8.u8", "u8.s8", "u8.u8"}) {
            const bool aSigned = types[0] == 's', bSigned = types[3] == 's';
            std::vector<std::uint32_t> a(static_cast<std::size_t>(16 * k)), b(static_cast<std::size_t>(k * 8)), c(16 * 8);
            for (std::uint32_t& x : a) x = static_cast<std::uint32_t>(byte(random));
            for (std::uint32_t& x : b) x = static_cast<std::uint32_t>(byte(random));
            for (std::uint32_t& x : c) x = static_cast<std::uint32_t>(accumulator(random));
            sim::SimResult result;
            const std::vector<std::uint32_t> d = runMma(integerForm(k, types), a, b, c, &result);
            auto value = [](std::uint32_t bits, bool isSigned) {
                return isSigned ? static_cast<long long>(static_cast<std::int8_t>(bits)) : static_cast<long long>(bits);
            };
            for (int r = 0; r < 16; ++r)
                for (int n = 0; n < 8; ++n) {
                    long long expected = static_cast<std::int32_t>(c[static_cast<std::size_t>(r * 8 + n)]);
                    for (int i = 0; i < k; ++i)
                        expected += value(a[static_cast<std::size_t>(r * k + i)], aSigned) * value(b[static_cast<std::size_t>(i * 8 + n)], bSigned);
                    EXPECT_EQ(static_cast<std::int32_t>(d[static_cast<std::size_t>(r * 8 + n)]), expected) << types << " k " << k << " at " << r << "," << n;
                }
            const CompiledKernel kernel = parsePtxKernel(mmaKernel(integerForm(k, types)), "mma");
            EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mma).warpExecutions, 1u);
        }
}

// PTX ISA, mma, "Integer operations": .satfinite limits the accumulated value to MIN_INT32..MAX_INT32;
// without it the value wraps. Row 0 of A is 127 throughout; column 0 of B is 127, column 1 is -128:
//   D[0][0] = (2^31 - 1 - 100) + 16 * 127 * 127 = 2147741611: .satfinite 2147483647; wrapped
//            2147741611 - 2^32 = -2147225685;
//   D[0][1] = (-2^31 + 100) - 16 * 127 * 128 = -2147743644: .satfinite -2147483648; wrapped 2147223652;
//   D[0][2] = 5 + 0 (B's column 2 is 0): 5 either way.
TEST(TensorCoresMore, MmaIntegerSatfiniteClampsAndPlainWraps)
{
    for (bool satfinite : {true, false}) {
        const MmaForm form = integerForm(16, "s8.s8", satfinite);
        std::vector<std::uint32_t> a(16 * 16, 0), b(16 * 8, 0), c(16 * 8, 0);
        for (int i = 0; i < 16; ++i) {
            a[static_cast<std::size_t>(i)] = 127;
            b[static_cast<std::size_t>(i * 8 + 0)] = 127;
            b[static_cast<std::size_t>(i * 8 + 1)] = static_cast<std::uint32_t>(-128) & 0xffu;
        }
        c[0] = static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max() - 100);
        c[1] = static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::min() + 100);
        c[2] = 5;
        const std::vector<std::uint32_t> d = runMma(form, a, b, c);
        EXPECT_EQ(static_cast<std::int32_t>(d[0]), satfinite ? 2147483647 : -2147225685);
        EXPECT_EQ(static_cast<std::int32_t>(d[1]), satfinite ? std::numeric_limits<std::int32_t>::min() : 2147223652);
        EXPECT_EQ(static_cast<std::int32_t>(d[2]), 5);
    }
}
