// Tensor Core instructions (issue 15), continued from tensor_core_test.cpp: bf16 and f16-accumulator
// mma.sync, .satfinite, f64 WMMA, and the hazards of fragment accesses. Expected values come from
// hand-worked sums and from the encoders below, written here from the IEEE 754 binary16 and bfloat16
// layouts (not the simulator's conversions); fragments are packed by the PTX ISA's figures in
// tensor_core_test_support.h.
//
// Sections: reference encoders and a typed one-mma kernel; bf16 mma and f16 accumulators against
// CPU GEMMs; wmma .satfinite on f16; bf16 and f64 wmma from mma.h; divergence and out-of-bounds or
// misaligned fragment accesses as hazards.
#include "sim_test_support.h"
#include "tensor_core_test_support.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;
using namespace warpscope::tensor_core_test;

namespace {

// binary16 bits of `x` rounded to nearest even (overflow to infinity), by scaling to the format's
// quantum at x's exponent and rounding with std::nearbyint (ties to even).
std::uint16_t f16Rne(double x)
{
    if (std::isnan(x))
        return 0x7e00;
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double magnitude = std::fabs(x);
    if (std::isinf(magnitude))
        return sign | 0x7c00;
    if (magnitude == 0)
        return sign;
    int e = 0;
    (void)std::frexp(magnitude, &e);
    const int exponent = std::max(e - 1, -14); // subnormals share 2^-14's quantum, 2^-24
    const double quantum = std::ldexp(1.0, exponent - 10);
    const double rounded = std::nearbyint(magnitude / quantum) * quantum;
    if (rounded >= 65536.0)
        return sign | 0x7c00;
    if (rounded < std::ldexp(1.0, -14))
        return sign | static_cast<std::uint16_t>(rounded / std::ldexp(1.0, -24));
    (void)std::frexp(rounded, &e);
    const int biased = e - 1 + 15;
    const auto fraction = static_cast<std::uint16_t>(rounded / std::ldexp(1.0, e - 1 - 10) - 1024);
    return static_cast<std::uint16_t>(sign | (biased << 10) | fraction);
}

double f16Value(std::uint16_t bits)
{
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int biased = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    if (biased == 0x1f)
        return fraction ? std::nan("") : sign * INFINITY;
    if (biased == 0)
        return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(1024 + fraction, biased - 25);
}

bool f16IsNan(std::uint16_t bits) { return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0; }

// bfloat16 bits of a value it holds exactly: the high half of the binary32 encoding.
std::uint16_t bf16Exact(double x)
{
    const float f = static_cast<float>(x);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    EXPECT_EQ(static_cast<double>(f), x);
    EXPECT_EQ(bits & 0xffffu, 0u) << x << " is not a bfloat16 value";
    return static_cast<std::uint16_t>(bits >> 16);
}

// mma.sync.aligned.m16n8k{k}.row.col with `atype` multiplicands and f32 or f16 accumulators, one
// warp, fragments laid out by lane: A and B as in tensor_core_test.cpp's mmaKernel; C and D as four
// f32 registers or two f16x2 registers per lane.
std::string typedMmaKernel(int k, const std::string& atype, bool halfAccumulators)
{
    const bool k16 = k == 16;
    const std::string aRegs = k16 ? "{%r10, %r11, %r12, %r13}" : "{%r10, %r11}";
    const std::string bRegs = k16 ? "{%r14, %r15}" : "{%r14}";
    const std::string acc = halfAccumulators ? "f16" : "f32";
    std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry mma(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
                       "\t.reg .b32 %r<32>;\n\t.reg .f32 %f<16>;\n\t.reg .b64 %rd<16>;\n"
                       "\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [b];\n\tld.param.u64 %rd3, [c];\n\tld.param.u64 %rd4, [d];\n"
                       "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                       "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
                       "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd5, %r1, 16;\n\tmul.wide.u32 %rd12, %r1, 8;\n";
    text += k16 ? "\tadd.s64 %rd6, %rd1, %rd5;\n\tld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%rd6];\n"
                  "\tadd.s64 %rd8, %rd2, %rd12;\n\tld.global.v2.b32 {%r14, %r15}, [%rd8];\n"
                : "\tadd.s64 %rd6, %rd1, %rd12;\n\tld.global.v2.b32 {%r10, %r11}, [%rd6];\n"
                  "\tmul.wide.u32 %rd9, %r1, 4;\n\tadd.s64 %rd8, %rd2, %rd9;\n\tld.global.b32 %r14, [%rd8];\n";
    const std::string shape = "\tmma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col." + acc + "." + atype + "." + atype + "." + acc;
    if (halfAccumulators)
        text += "\tadd.s64 %rd10, %rd3, %rd12;\n\tld.global.v2.b32 {%r20, %r21}, [%rd10];\n" + shape + " {%r22, %r23}, " + aRegs +
                ", " + bRegs + ", {%r20, %r21};\n\tadd.s64 %rd11, %rd4, %rd12;\n\tst.global.v2.b32 [%rd11], {%r22, %r23};\n";
    else
        text += "\tadd.s64 %rd10, %rd3, %rd5;\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd10];\n" + shape +
                " {%f5, %f6, %f7, %f8}, " + aRegs + ", " + bRegs +
                ", {%f1, %f2, %f3, %f4};\n\tadd.s64 %rd11, %rd4, %rd5;\n\tst.global.v4.f32 [%rd11], {%f5, %f6, %f7, %f8};\n";
    return text + "\tret;\n}\n";
}

// Runs typedMmaKernel on A (16 x k), B (k x 8) given as 16-bit encodings, and C (16 x 8) as f32
// or f16 bits; returns D's bits (16 x 8, row-major) read back through the ISA's C/D layout.
std::vector<std::uint32_t> runTypedMma(int k, const std::string& atype, bool halfAccumulators, const std::vector<std::uint16_t>& a,
                                       const std::vector<std::uint16_t>& b, const std::vector<std::uint32_t>& c)
{
    const CompiledKernel kernel = parsePtxKernel(typedMmaKernel(k, atype, halfAccumulators), "mma");
    const int aRegisters = k / 4, bRegisters = k / 8, cWords = halfAccumulators ? 2 : 4;
    std::vector<std::uint32_t> aWords(32 * static_cast<std::size_t>(aRegisters)), bWords(32 * static_cast<std::size_t>(bRegisters)),
        cLane(32 * static_cast<std::size_t>(cWords), 0);
    for (int lane = 0; lane < 32; ++lane) {
        for (int r = 0; r < aRegisters; ++r) {
            const Coord lo = k == 16 ? a16816(lane, 2 * r) : a1688(lane, 2 * r);
            const Coord hi = k == 16 ? a16816(lane, 2 * r + 1) : a1688(lane, 2 * r + 1);
            aWords[static_cast<std::size_t>(lane * aRegisters + r)] =
                pack(a[static_cast<std::size_t>(lo.row * k + lo.col)], a[static_cast<std::size_t>(hi.row * k + hi.col)]);
        }
        for (int r = 0; r < bRegisters; ++r) {
            const Coord lo = k == 16 ? b16816(lane, 2 * r) : b1688(lane, 2 * r);
            const Coord hi = k == 16 ? b16816(lane, 2 * r + 1) : b1688(lane, 2 * r + 1);
            bWords[static_cast<std::size_t>(lane * bRegisters + r)] =
                pack(b[static_cast<std::size_t>(lo.row * 8 + lo.col)], b[static_cast<std::size_t>(hi.row * 8 + hi.col)]);
        }
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            const std::uint32_t bits = c[static_cast<std::size_t>(at.row * 8 + at.col)];
            if (halfAccumulators)
                cLane[static_cast<std::size_t>(lane * 2 + i / 2)] |= bits << (16 * (i % 2));
            else
                cLane[static_cast<std::size_t>(lane * 4 + i)] = bits;
        }
    }
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                         {bufferArg("a", sim::ElementType::U32, aWords), bufferArg("b", sim::ElementType::U32, bWords),
                          bufferArg("c", sim::ElementType::U32, cLane),
                          bufferArg("d", sim::ElementType::U32, std::vector<std::uint32_t>(cLane.size(), 0xdeadbeefu))});
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<std::uint32_t> laneValues = bufferValues<std::uint32_t>(result, "d");
    std::vector<std::uint32_t> d(16 * 8, 0xdeadbeefu);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            d[static_cast<std::size_t>(at.row * 8 + at.col)] =
                halfAccumulators ? (laneValues[static_cast<std::size_t>(lane * 2 + i / 2)] >> (16 * (i % 2))) & 0xffffu
                                 : laneValues[static_cast<std::size_t>(lane * 4 + i)];
        }
    return d;
}

} // namespace

// The test's own encoder against values worked by hand from the binary16 layout.
TEST(TensorCores, ReferenceHalfEncoderMatchesHandWorkedBits)
{
    EXPECT_EQ(f16Rne(1.0), 0x3c00u);
    EXPECT_EQ(f16Rne(1.0 + std::ldexp(1.0, -11)), 0x3c00u); // halfway: even
    EXPECT_EQ(f16Rne(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02u);
    EXPECT_EQ(f16Rne(65504.0), 0x7bffu);
    EXPECT_EQ(f16Rne(65519.0), 0x7bffu);
    EXPECT_EQ(f16Rne(65520.0), 0x7c00u);
    EXPECT_EQ(f16Rne(-2.0), 0xc000u);
    EXPECT_EQ(f16Rne(std::ldexp(1.0, -24)), 0x0001u);
    EXPECT_EQ(f16Rne(std::ldexp(1.0, -25)), 0x0000u); // halfway to the smallest subnormal: even
    EXPECT_EQ(f16Rne(std::ldexp(1.0, -14)), 0x0400u);
    EXPECT_EQ(f16Value(0x3555), 1365.0 / 4096.0); // exponent 13 - 15, significand 1 + 341/1024
    EXPECT_EQ(f16Value(0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(bf16Exact(1.0), 0x3f80u);
    EXPECT_EQ(bf16Exact(-0.5), 0xbf00u);
}

// bf16 multiplicands (m16n8k16 and m16n8k8, f32 accumulators) against a CPU GEMM: small integers
// and multiples of 1/64 below 4, exact in bfloat16 and in every sum, so D is the exact result.
TEST(TensorCores, MmaBf16MatchesACpuGemm)
{
    std::mt19937 random(18);
    for (int k : {16, 8})
        for (bool integers : {true, false}) {
            std::uniform_int_distribution<int> small(-8, 8), fine(-255, 255);
            std::vector<double> a(static_cast<std::size_t>(16 * k)), b(static_cast<std::size_t>(k * 8)), c(16 * 8);
            for (double& x : a) x = integers ? small(random) : fine(random) / 64.0;
            for (double& x : b) x = integers ? small(random) : fine(random) / 64.0;
            for (double& x : c) x = small(random) * 0.25;
            std::vector<std::uint16_t> aBits, bBits;
            for (double x : a) aBits.push_back(bf16Exact(x));
            for (double x : b) bBits.push_back(bf16Exact(x));
            std::vector<std::uint32_t> cBits;
            for (double x : c) cBits.push_back(floatBits(static_cast<float>(x)));
            const std::vector<std::uint32_t> d = runTypedMma(k, "bf16", false, aBits, bBits, cBits);
            for (int r = 0; r < 16; ++r)
                for (int n = 0; n < 8; ++n) {
                    double expected = c[static_cast<std::size_t>(r * 8 + n)];
                    for (int i = 0; i < k; ++i)
                        expected += a[static_cast<std::size_t>(r * k + i)] * b[static_cast<std::size_t>(i * 8 + n)];
                    EXPECT_EQ(d[static_cast<std::size_t>(r * 8 + n)], floatBits(static_cast<float>(expected)))
                        << "k " << k << " at " << r << "," << n << ": expected " << expected;
                }
        }
}

// f16 accumulators: D is the exact sum rounded once to binary16, to nearest even. Hand-worked
// elements of row 0 (A[0] = 1, 2^-6, 2^-11, 255, then zeros):
//   D[0][0] = 1 + 2^-11 + 2^-22: just above halfway between 1 and 1 + 2^-10, so 1 + 2^-10 (0x3c01);
//     rounding after each product would give 1.0.
//   D[0][1] = 1 + 2^-11: exactly halfway, to the even 1.0 (0x3c00).
//   D[0][2] = 255 * 256 + 240 = 65520: halfway between 65504 and 2^16, so infinity (0x7c00).
//   D[0][3] = 255 * 256 + 224 = 65504, the largest half (0x7bff).
//   D[0][4] = -65520: -infinity (0xfc00).
//   D[0][5] = 2^-11 * 2^-13 = 2^-24, the smallest subnormal (0x0001).
//   D[0][6] = 2^-11 * 2^-14 = 2^-25: halfway between 0 and 2^-24, to the even 0 (0x0000).
//   D[0][7] = C = -2 (0xc000).
// Rows 1-15 of A are zero: D = C there. Then random halves against f16Rne of the exact sum.
TEST(TensorCores, MmaHalfAccumulatorsRoundOnceToNearestEven)
{
    for (int k : {16, 8}) {
        std::vector<double> a(static_cast<std::size_t>(16 * k), 0.0), b(static_cast<std::size_t>(k * 8), 0.0), c(16 * 8, 0.0);
        auto at = [](std::vector<double>& m, int columns, int r, int col) -> double& { return m[static_cast<std::size_t>(r * columns + col)]; };
        at(a, k, 0, 0) = 1;
        at(a, k, 0, 1) = std::ldexp(1.0, -6);
        at(a, k, 0, 2) = std::ldexp(1.0, -11);
        at(a, k, 0, 3) = 255;
        at(b, 8, 0, 0) = 1; at(b, 8, 1, 0) = std::ldexp(1.0, -5); at(b, 8, 2, 0) = std::ldexp(1.0, -11);
        at(b, 8, 0, 1) = 1; at(b, 8, 1, 1) = std::ldexp(1.0, -5);
        at(b, 8, 3, 2) = 256; at(c, 8, 0, 2) = 240;
        at(b, 8, 3, 3) = 256; at(c, 8, 0, 3) = 224;
        at(b, 8, 3, 4) = -256; at(c, 8, 0, 4) = -240;
        at(b, 8, 2, 5) = std::ldexp(1.0, -13);
        at(b, 8, 2, 6) = std::ldexp(1.0, -14);
        at(c, 8, 0, 7) = -2;
        for (int r = 1; r < 16; ++r)
            for (int n = 0; n < 8; ++n)
                at(c, 8, r, n) = r * 8 + n;
        std::vector<std::uint16_t> aBits, bBits;
        for (double x : a) aBits.push_back(f16Rne(x));
        for (double x : b) bBits.push_back(f16Rne(x));
        std::vector<std::uint32_t> cBits;
        for (double x : c) cBits.push_back(f16Rne(x));
        const std::vector<std::uint32_t> d = runTypedMma(k, "f16", true, aBits, bBits, cBits);
        const std::uint32_t row0[8] = {0x3c01, 0x3c00, 0x7c00, 0x7bff, 0xfc00, 0x0001, 0x0000, 0xc000};
        for (int n = 0; n < 8; ++n)
            EXPECT_EQ(d[static_cast<std::size_t>(n)], row0[n]) << "k " << k << " D[0][" << n << "]";
        for (int r = 1; r < 16; ++r)
            for (int n = 0; n < 8; ++n)
                EXPECT_EQ(d[static_cast<std::size_t>(r * 8 + n)], f16Rne(r * 8 + n)) << "k " << k << " at " << r << "," << n;
    }
    std::mt19937 random(19);
    std::uniform_real_distribution<double> real(-2.0, 2.0);
    for (int k : {16, 8}) {
        std::vector<std::uint16_t> aBits(static_cast<std::size_t>(16 * k)), bBits(static_cast<std::size_t>(k * 8));
        std::vector<std::uint32_t> cBits(16 * 8);
        for (std::uint16_t& h : aBits) h = f16Rne(real(random));
        for (std::uint16_t& h : bBits) h = f16Rne(real(random));
        for (std::uint32_t& h : cBits) h = f16Rne(real(random));
        const std::vector<std::uint32_t> d = runTypedMma(k, "f16", true, aBits, bBits, cBits);
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n) {
                double exact = f16Value(static_cast<std::uint16_t>(cBits[static_cast<std::size_t>(r * 8 + n)]));
                for (int i = 0; i < k; ++i) // products of halves are exact in double, and so is this sum
                    exact += f16Value(aBits[static_cast<std::size_t>(r * k + i)]) * f16Value(bBits[static_cast<std::size_t>(i * 8 + n)]);
                EXPECT_EQ(d[static_cast<std::size_t>(r * 8 + n)], f16Rne(exact)) << "k " << k << " at " << r << "," << n;
            }
    }
}

namespace {

// wmma m16n16k16 with f16 multiplicands and f16 accumulators, all row-major and packed in global
// memory: D = A B + C with or without .satfinite.
std::string wmmaHalfKernel(bool satfinite)
{
    return std::string(".version 8.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry wm(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
                       "\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n"
                       "\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [b];\n\tld.param.u64 %rd3, [c];\n\tld.param.u64 %rd4, [d];\n"
                       "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                       "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
                       "\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];\n"
                       "\twmma.load.b.sync.aligned.row.m16n16k16.global.f16 {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, [%rd2];\n"
                       "\twmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r17, %r18, %r19, %r20}, [%rd3];\n"
                       "\twmma.mma.sync.aligned.row.row.m16n16k16.f16.f16") +
           (satfinite ? ".satfinite" : "") +
           " {%r21, %r22, %r23, %r24}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
           "{%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, {%r17, %r18, %r19, %r20};\n"
           "\twmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd4], {%r21, %r22, %r23, %r24};\n\tret;\n}\n";
}

} // namespace

// .satfinite (PTX ISA, wmma.mma): a result that would be infinite becomes the largest finite value
// of D's type with its sign, 65504 for f16; NaN stays NaN. Hand-worked elements:
//   D[0][0] = 255 * 256 + 240 = 65520 (infinity when rounded): 65504 (0x7bff);
//   D[0][1] = 255 * 256 + 1000 = 66280: 65504;
//   D[0][2] = -(255 * 256) - 240: -65504 (0xfbff);
//   D[0][3] = C = NaN: NaN; D[0][4] = 255 * 2 + 0.5 = 510.5, in range, unchanged (0x5ffa);
//   D[1][4] = inf * 1 = inf: 65504; D[1][n] for n != 4 = inf * 0 = NaN.
// Without .satfinite the first three are +inf, +inf and -inf, D[1][4] +inf.
TEST(TensorCores, WmmaSatfiniteSaturatesHalfResults)
{
    std::vector<std::uint16_t> a(256, 0), b(256, 0), c(256, 0);
    a[0] = f16Rne(255);
    a[16 + 1] = 0x7c00; // A[1][1] = +inf
    b[0] = f16Rne(256); b[1] = f16Rne(256); b[2] = f16Rne(-256); b[4] = f16Rne(2);
    b[16 + 4] = f16Rne(1); // B[1][4]
    c[0] = f16Rne(240); c[1] = f16Rne(1000); c[2] = f16Rne(-240); c[3] = 0x7e00; c[4] = f16Rne(0.5);
    for (bool satfinite : {true, false}) {
        const CompiledKernel kernel = parsePtxKernel(wmmaHalfKernel(satfinite), "wm");
        const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                       {bufferArg("a", sim::ElementType::U16, a), bufferArg("b", sim::ElementType::U16, b),
                                                        bufferArg("c", sim::ElementType::U16, c),
                                                        bufferArg("d", sim::ElementType::U16, std::vector<std::uint16_t>(256, 0x1234))});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << hazard.message;
        const std::vector<std::uint16_t> d = bufferValues<std::uint16_t>(result, "d");
        const std::string what = satfinite ? ".satfinite" : "plain";
        EXPECT_EQ(d[0], satfinite ? 0x7bffu : 0x7c00u) << what;
        EXPECT_EQ(d[1], satfinite ? 0x7bffu : 0x7c00u) << what;
        EXPECT_EQ(d[2], satfinite ? 0xfbffu : 0xfc00u) << what;
        EXPECT_TRUE(f16IsNan(d[3])) << what << ": " << d[3];
        EXPECT_EQ(d[4], 0x5ffau) << what; // 510.5 = 2^8 * (1 + 1018/1024): exponent 8 + 15 = 23, fraction 0x3fa
        for (int n = 0; n < 16; ++n)
            if (n == 4)
                EXPECT_EQ(d[16 + 4], satfinite ? 0x7bffu : 0x7c00u) << what;
            else
                EXPECT_TRUE(f16IsNan(d[static_cast<std::size_t>(16 + n)])) << what << " D[1][" << n << "] = " << d[static_cast<std::size_t>(16 + n)];
        for (int r = 2; r < 16; ++r)
            for (int n = 0; n < 16; ++n)
                EXPECT_EQ(d[static_cast<std::size_t>(r * 16 + n)], 0u) << what << " at " << r << "," << n;
        for (int n = 5; n < 16; ++n)
            EXPECT_EQ(d[static_cast<std::size_t>(n)], 0u) << what << " D[0][" << n << "]";
    }
}

// The bf16 WMMA of mma.h at compute_80 (wmma.load.a/b .bf16, four registers each,
// wmma.mma .f32.bf16.bf16.f32): one warp per 16 x 16 tile, against a CPU GEMM on values that make
// every sum exact.
TEST(TensorCores, WmmaBf16GemmFromMmaHMatchesACpuGemm)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;
extern "C" __global__ void wmma_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k)
{
    const int tileRow = blockIdx.y * 16, tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.5f);
    for (int i = 0; i < k; i += 16) {
        wmma::load_matrix_sync(fa, a + tileRow * k + i, k);
        wmma::load_matrix_sync(fb, b + tileCol * k + i, k);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tileRow * n + tileCol, fc, n, wmma::mem_row_major);
}
)", "wmma_bf16", "compute_80");
    const int m = 32, n = 32, k = 48;
    std::mt19937 random(20);
    std::uniform_int_distribution<int> fine(-255, 255);
    std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)); // b column-major: b[col * k + i]
    for (double& x : a) x = fine(random) / 32.0;
    for (double& x : b) x = fine(random) / 128.0;
    std::vector<std::uint16_t> aBits, bBits;
    for (double x : a) aBits.push_back(bf16Exact(x));
    for (double x : b) bBits.push_back(bf16Exact(x));
    auto scalar = [](const char* name, int v) {
        sim::ResolvedArg arg;
        arg.name = name;
        arg.scalarBits = static_cast<std::uint32_t>(v);
        arg.integerValue = v;
        return arg;
    };
    const sim::SimResult result = simulateWithArgs(
        kernel, {n / 16, m / 16, 1}, {32, 1, 1},
        {bufferArg("a", sim::ElementType::U16, aBits), bufferArg("b", sim::ElementType::U16, bBits),
         bufferArg("c", sim::ElementType::F32, std::vector<float>(static_cast<std::size_t>(m * n), -1.0f)), scalar("m", m),
         scalar("n", n), scalar("k", k)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<float> c = bufferValues<float>(result, "c");
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double expected = 0.5;
            for (int i = 0; i < k; ++i)
                expected += a[static_cast<std::size_t>(r * k + i)] * b[static_cast<std::size_t>(col * k + i)];
            EXPECT_EQ(c[static_cast<std::size_t>(r * n + col)], static_cast<float>(expected)) << r << "," << col;
        }
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(4 * k / 16));
}

// The f64 WMMA of mma.h (m8n8k4, compute_80): C = A B over 16 x 16 tiles of 8 x 8, k = 12, against
// a CPU reference of one fused multiply-add per k step in k order (the DMMA model): integers
// exactly, random doubles within a few units in the last place.
TEST(TensorCores, WmmaF64M8n8k4MatchesACpuReference)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void dgemm(const double* a, const double* b, double* c, int n, int k)
{
    const int tileRow = blockIdx.y * 8, tileCol = blockIdx.x * 8;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fc, c + tileRow * n + tileCol, n, wmma::mem_row_major);
    for (int i = 0; i < k; i += 4) {
        wmma::load_matrix_sync(fa, a + tileRow * k + i, k);
        wmma::load_matrix_sync(fb, b + i * n + tileCol, n);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tileRow * n + tileCol, fc, n, wmma::mem_row_major);
}
)", "dgemm", "compute_80");
    const int m = 16, n = 16, k = 12;
    std::mt19937 random(21);
    for (bool integers : {true, false}) {
        std::uniform_int_distribution<int> small(-50, 50);
        std::uniform_real_distribution<double> real(-1.0, 1.0);
        std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
        for (std::vector<double>* matrix : {&a, &b, &c})
            for (double& x : *matrix)
                x = integers ? small(random) : real(random);
        sim::ResolvedArg nArg, kArg;
        nArg.name = "n"; nArg.scalarBits = n; nArg.integerValue = n;
        kArg.name = "k"; kArg.scalarBits = k; kArg.integerValue = k;
        const sim::SimResult result = simulateWithArgs(kernel, {n / 8, m / 8, 1}, {32, 1, 1},
                                                       {bufferArg("a", sim::ElementType::F64, a), bufferArg("b", sim::ElementType::F64, b),
                                                        bufferArg("c", sim::ElementType::F64, c), nArg, kArg});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << hazard.message;
        const std::vector<double> d = bufferValues<double>(result, "c");
        for (int r = 0; r < m; ++r)
            for (int col = 0; col < n; ++col) {
                double expected = c[static_cast<std::size_t>(r * n + col)], magnitude = std::fabs(expected);
                for (int i = 0; i < k; ++i) {
                    expected = std::fma(a[static_cast<std::size_t>(r * k + i)], b[static_cast<std::size_t>(i * n + col)], expected);
                    magnitude += std::fabs(a[static_cast<std::size_t>(r * k + i)] * b[static_cast<std::size_t>(i * n + col)]);
                }
                const double got = d[static_cast<std::size_t>(r * n + col)];
                if (integers)
                    EXPECT_EQ(got, expected) << r << "," << col;
                else
                    EXPECT_NEAR(got, expected, 4 * k * 1.1e-16 * magnitude) << r << "," << col;
            }
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(4 * k / 4));
    }
}

// A warp-wide matrix instruction executed by part of the warp is undefined behaviour (.sync.aligned
// needs all 32 lanes): a warp_sync_mismatch hazard naming the lanes that executed it and the lanes
// missing, and the instruction is not computed (its destinations keep their values).
TEST(TensorCores, MatrixInstructionsUnderDivergenceAreHazardsNotResults)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry diverged(.param .u64 a, .param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<40>;
	.reg .f32 %f<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [out];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r1, %tid.x;
	mov.b32 %r10, 0x3c003c00;
	mov.b32 %r11, 0x3c003c00;
	mov.b32 %r12, 0x3c003c00;
	mov.b32 %r13, 0x3c003c00;
	mov.b32 %r14, 0x3c003c00;
	mov.b32 %r15, 0x3c003c00;
	mov.f32 %f1, 0f00000000;
	mov.f32 %f5, 0f40E00000;
	mov.f32 %f6, 0f40E00000;
	mov.f32 %f7, 0f40E00000;
	mov.f32 %f8, 0f40E00000;
	mov.b32 %r20, 7;
	setp.lt.u32 %p1, %r1, 31;
	@%p1 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r10, %r11, %r12, %r13}, {%r14, %r15}, {%f1, %f1, %f1, %f1};
	setp.lt.u32 %p2, %r1, 16;
	@%p2 bra SKIP;
	wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r20, %r21, %r22, %r23}, [%rd1];
SKIP:
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd2, %rd3;
	st.global.v2.f32 [%rd4], {%f5, %f8};
	ret;
}
)", "diverged");
    std::vector<std::uint16_t> a(256, 0x3c00);
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U16, a),
                                                    bufferArg("out", sim::ElementType::F32, std::vector<float>(64, -1.0f))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 2u);
    const sim::Hazard* mma = nullptr;
    const sim::Hazard* load = nullptr;
    for (const sim::Hazard& hazard : result.hazards) {
        EXPECT_EQ(hazard.kind, sim::HazardKind::WarpSyncMismatch) << hazard.message;
        (hazard.ptxLine == 28 ? mma : load) = &hazard;
    }
    ASSERT_TRUE(mma && load);
    EXPECT_EQ(mma->lanes, 0x7fffffffu);
    EXPECT_EQ(mma->otherLanes, 0x80000000u);
    EXPECT_EQ(mma->lane, 0);
    EXPECT_EQ(mma->message, "lanes 0-30 execute 'mma' without lane 31 (undefined behaviour: .sync.aligned needs the whole warp); "
                            "the instruction is skipped");
    EXPECT_EQ(load->ptxLine, 31);
    EXPECT_EQ(load->lanes, 0xffff0000u);
    EXPECT_EQ(load->otherLanes, 0x0000ffffu);
    EXPECT_EQ(load->lane, 16);
    EXPECT_NE(load->message.find("lanes 16-31 execute"), std::string::npos) << load->message;
    EXPECT_NE(load->message.find("without lanes 0-15"), std::string::npos) << load->message;
    // Not computed: D keeps 7.0 in every lane (computed, it would be 16.0 in lanes 0-30).
    const std::vector<float> out = bufferValues<float>(result, "out");
    for (std::size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], 7.0f) << i;
}

// Fragment loads and stores are checked as ld and st are: an element outside every allocation is an
// out_of_bounds_global hazard naming the buffer (a load gives 0 there, a store is dropped), and an
// address that is not a multiple of the access size is misaligned_access.
TEST(TensorCores, FragmentAccessesOutOfBoundsOrMisalignedAreHazards)
{
    // d (256 floats) is allocated first, a (256 halves) last, with nothing below d or above a. A
    // 16 x 16 f16 matrix is read from a with a stride of 32 elements: rows 8-15 lie past a's end.
    // An f32 matrix is written with a stride of 32 from 1024 bytes before d: rows 0-7 lie before d,
    // rows 8-15 land in d. Then a load from a + 2 bytes: the two adjacent halves of each register
    // are one 4-byte access at an address 2 mod 4.
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry oob(.param .u64 d, .param .u64 a)
{
	.reg .b32 %r<40>;
	.reg .f32 %f<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [d];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r30, 32;
	wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r30;
	mov.f32 %f1, 0f3F800000;
	wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2+-1024], {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1}, %r30;
	add.s64 %rd3, %rd1, 2;
	wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%rd3];
	ret;
}
)", "oob");
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                         {bufferArg("d", sim::ElementType::F32, std::vector<float>(256, -1.0f)),
                          bufferArg("a", sim::ElementType::F16, std::vector<std::uint16_t>(256, 0x3c00))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const sim::Hazard* read = nullptr;
    const sim::Hazard* write = nullptr;
    const sim::Hazard* misaligned = nullptr;
    for (const sim::Hazard& hazard : result.hazards) {
        if (hazard.kind == sim::HazardKind::MisalignedAccess)
            misaligned = &hazard;
        else if (hazard.kind == sim::HazardKind::OutOfBoundsGlobal)
            (hazard.ptxLine == 14 ? read : write) = &hazard;
        else
            ADD_FAILURE() << hazard.message;
    }
    ASSERT_TRUE(read && write && misaligned);
    // Lane 0's first element past the end: A[8][0] at 8 * 32 * 2 = 512 bytes, a's end, element 256
    // of a's 256 halves, read with A[8][1] as one 4-byte access. Every lane reads rows 8-15.
    EXPECT_EQ(read->buffer, "a");
    EXPECT_EQ(read->lane, 0);
    EXPECT_EQ(read->message, "reads a[256..257], starting 1 element past the end (256 halves); lanes 0-31 "
                             "(on a GPU: an illegal-address error or silent corruption)");
    EXPECT_EQ(read->lanes, 0xffffffffu);
    // Per lane, registers 1, 3, 5 and 7 (rows 8-15; 5 and 7 repeat 1 and 3) are out of bounds, each
    // one 4-byte access.
    EXPECT_EQ(read->occurrences, 32u * 4u);
    // D[0][0] at 1024 bytes before d; per lane, the f32 registers 0, 1, 4 and 5 (rows 0-7).
    EXPECT_EQ(write->ptxLine, 16);
    EXPECT_EQ(write->buffer, "d");
    EXPECT_EQ(write->lane, 0);
    // 1024 bytes before d: 256 floats before d[0].
    EXPECT_EQ(write->message, "writes d[-256], 256 elements before the start (256 floats); lanes 0-31 "
                              "(on a GPU: an illegal-address error or silent corruption)");
    EXPECT_EQ(write->lanes, 0xffffffffu);
    EXPECT_EQ(write->occurrences, 32u * 4u);
    EXPECT_EQ(misaligned->ptxLine, 18);
    EXPECT_EQ(misaligned->lane, 0);
    EXPECT_EQ(misaligned->message, "a 4-byte matrix element at an address that is not a multiple of 4 (the GPU raises a misaligned-address error)");
    // The store wrote rows 8-15 into d (row r at element (r - 8) * 32, columns 0-15) and nothing else.
    const std::vector<float> d = bufferValues<float>(result, "d");
    for (int i = 0; i < 256; ++i)
        EXPECT_EQ(d[static_cast<std::size_t>(i)], i % 32 < 16 ? 1.0f : -1.0f) << i;
}
