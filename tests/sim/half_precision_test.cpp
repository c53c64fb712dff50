// Half precision (issue 15): .f16, .f16x2, .bf16 and .bf16x2 arithmetic and conversions against values
// worked out by hand (overflow, NaN, ties, subnormals with and without .ftz, .sat, .relu,
// .satfinite), the rounding checked against an independent nearest-value search, the contraction
// rule (a mul and a dependent add with no rounding modifier become one fma, as ptxas makes them),
// and an fp16 dot product and a bf16 kernel compiled by NVRTC against CPU references.
#include "ptx_harness.h"
#include "sim_test_support.h"

#include "sim/float_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

using sim::HalfFormat;

// Every finite value of a half format, decoded by the textbook formula, with its pattern.
struct HalfValue {
    double value;
    std::uint16_t bits;
};

std::vector<HalfValue> finiteHalves(HalfFormat format)
{
    const int fractionBits = format == HalfFormat::F16 ? 10 : 7;
    const int exponentBits = format == HalfFormat::F16 ? 5 : 8;
    const int bias = (1 << (exponentBits - 1)) - 1;
    std::vector<HalfValue> values;
    for (std::uint32_t pattern = 0; pattern < 0x8000u; ++pattern) { // the non-negative ones
        const int exponent = static_cast<int>(pattern >> fractionBits);
        const int fraction = static_cast<int>(pattern & ((1u << fractionBits) - 1));
        if (exponent == (1 << exponentBits) - 1)
            continue;
        const double significand = exponent == 0 ? fraction / std::ldexp(1.0, fractionBits)
                                                 : 1 + fraction / std::ldexp(1.0, fractionBits);
        values.push_back({significand * std::ldexp(1.0, (exponent == 0 ? 1 : exponent) - bias),
                          static_cast<std::uint16_t>(pattern)});
    }
    std::sort(values.begin(), values.end(), [](const HalfValue& a, const HalfValue& b) { return a.value < b.value; });
    return values;
}

// The nearest half to x, ties to the even pattern; past the largest value by half an ulp or more:
// infinity. Independent of sim::halfFromDouble.
std::uint16_t nearestHalf(double x, HalfFormat format)
{
    static const std::vector<HalfValue> f16 = finiteHalves(HalfFormat::F16);
    static const std::vector<HalfValue> bf16 = finiteHalves(HalfFormat::BF16);
    const std::vector<HalfValue>& table = format == HalfFormat::F16 ? f16 : bf16;
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    const double magnitude = std::fabs(x);
    const std::uint16_t infinity = format == HalfFormat::F16 ? 0x7c00u : 0x7f80u;
    const HalfValue& largest = table.back();
    const double halfUlpAbove = (largest.value - table[table.size() - 2].value) / 2;
    if (magnitude >= largest.value + halfUlpAbove)
        return static_cast<std::uint16_t>(sign | infinity);
    auto above = std::lower_bound(table.begin(), table.end(), magnitude,
                                  [](const HalfValue& v, double m) { return v.value < m; });
    if (above == table.end())
        return static_cast<std::uint16_t>(sign | largest.bits);
    if (above->value == magnitude || above == table.begin())
        return static_cast<std::uint16_t>(sign | above->bits);
    const auto below = above - 1;
    const double up = above->value - magnitude, down = magnitude - below->value;
    const bool pickAbove = up < down || (up == down && (above->bits & 1u) == 0);
    return static_cast<std::uint16_t>(sign | (pickAbove ? above->bits : below->bits));
}

std::uint32_t bits(float value) { return std::bit_cast<std::uint32_t>(value); }
std::uint32_t pack(std::uint16_t low, std::uint16_t high) { return static_cast<std::uint32_t>(low) | (static_cast<std::uint32_t>(high) << 16); }

std::uint32_t one(const std::string& body, Inputs in) { return run32(body, {in}).front(); }

} // namespace

// Rounding to half precision, against the independent search: every value a format holds, every
// midpoint between neighbours (the ties), and random doubles over the whole range.
TEST(HalfPrecision, RoundingToNearestMatchesANearestValueSearch)
{
    for (HalfFormat format : {HalfFormat::F16, HalfFormat::BF16}) {
        const std::vector<HalfValue> table = finiteHalves(format);
        std::vector<double> probes;
        for (std::size_t i = 0; i + 1 < table.size(); ++i) {
            probes.push_back(table[i].value);
            probes.push_back((table[i].value + table[i + 1].value) / 2);
            probes.push_back(std::nextafter((table[i].value + table[i + 1].value) / 2, 0.0));
        }
        std::mt19937_64 random(7);
        for (int i = 0; i < 200000; ++i) {
            const std::uint64_t pattern = random();
            const double x = std::bit_cast<double>(pattern);
            if (std::isfinite(x) && std::fabs(x) < 1e40 && std::fabs(x) > 1e-45)
                probes.push_back(x);
        }
        for (double x : probes)
            for (double signed_ : {x, -x})
                ASSERT_EQ(sim::halfFromDouble(signed_, format, sim::RoundingDirection::NearestEven), nearestHalf(signed_, format))
                    << (format == HalfFormat::F16 ? "f16 " : "bf16 ") << signed_;
        // Decoding is exact.
        for (const HalfValue& v : table)
            ASSERT_EQ(sim::halfToDouble(v.bits, format), v.value);
    }
}

TEST(HalfPrecision, ConversionsFromAndToF32)
{
    auto toF16 = [](const char* opcode, float x) { return one(std::string("\t") + opcode + " %rs1, %f10;\n\tcvt.u32.u16 %r3, %rs1;\n", {bits(x)}); };
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 1.0f), 0x3c00u);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 65504.0f), 0x7bffu);                    // the largest f16
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 65519.0f), 0x7bffu);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 65520.0f), 0x7c00u);                    // halfway to 65536: overflow
    EXPECT_EQ(toF16("cvt.rz.f16.f32", 70000.0f), 0x7bffu);                    // toward zero stays finite
    EXPECT_EQ(toF16("cvt.rm.f16.f32", -70000.0f), 0xfc00u);
    EXPECT_EQ(toF16("cvt.rn.satfinite.f16.f32", 1e6f), 0x7bffu);
    EXPECT_EQ(toF16("cvt.rn.satfinite.f16.f32", INFINITY), 0x7bffu);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", std::numeric_limits<float>::quiet_NaN()), 0x7fffu); // canonical NaN
    EXPECT_EQ(toF16("cvt.rn.f16.f32", std::ldexp(1.0f, -24)), 0x0001u);        // the smallest subnormal
    EXPECT_EQ(toF16("cvt.rn.f16.f32", std::ldexp(1.0f, -25)), 0x0000u);        // halfway to it: to even, 0
    EXPECT_EQ(toF16("cvt.rn.f16.f32", std::ldexp(1.5f, -25)), 0x0001u);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", -0.0f), 0x8000u);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 0.1f), 0x2e66u);
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 1.0f + std::ldexp(1.0f, -11)), 0x3c00u);       // a tie, to even
    EXPECT_EQ(toF16("cvt.rn.f16.f32", 1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02u);   // a tie, to even (up)
    EXPECT_EQ(toF16("cvt.rp.f16.f32", 1.0f + std::ldexp(1.0f, -20)), 0x3c01u);
    EXPECT_EQ(toF16("cvt.rn.relu.f16.f32", -2.0f), 0x0000u);
    EXPECT_EQ(toF16("cvt.rn.relu.f16.f32", std::numeric_limits<float>::quiet_NaN()), 0x7fffu);
    // bf16: the upper half of an f32, rounded.
    EXPECT_EQ(toF16("cvt.rn.bf16.f32", 1.0f), 0x3f80u);
    EXPECT_EQ(toF16("cvt.rn.bf16.f32", std::bit_cast<float>(0x3f808000u)), 0x3f80u); // tie: to even
    EXPECT_EQ(toF16("cvt.rn.bf16.f32", std::bit_cast<float>(0x3f818000u)), 0x3f82u); // tie: to even (up)
    EXPECT_EQ(toF16("cvt.rn.bf16.f32", std::numeric_limits<float>::max()), 0x7f80u);
    EXPECT_EQ(toF16("cvt.rz.bf16.f32", std::numeric_limits<float>::max()), 0x7f7fu);
    // Back to f32: exact; a NaN becomes the canonical f32 NaN.
    auto fromHalf = [](const char* opcode, std::uint16_t h) {
        return one(std::string("\tcvt.u16.u32 %rs1, %r10;\n\t") + opcode + " %f3, %rs1;\n\tmov.b32 %r3, %f3;\n", {h});
    };
    EXPECT_EQ(fromHalf("cvt.f32.f16", 0x3c00u), bits(1.0f));
    EXPECT_EQ(fromHalf("cvt.f32.f16", 0x0001u), bits(std::ldexp(1.0f, -24)));
    EXPECT_EQ(fromHalf("cvt.f32.f16", 0x7bffu), bits(65504.0f));
    EXPECT_EQ(fromHalf("cvt.f32.f16", 0xfc00u), bits(-INFINITY));
    EXPECT_EQ(fromHalf("cvt.f32.f16", 0x7e00u), sim::kCanonicalNanF32);
    EXPECT_EQ(fromHalf("cvt.f32.bf16", 0x3f80u), bits(1.0f));
    EXPECT_EQ(fromHalf("cvt.f32.bf16", 0xc049u), bits(std::bit_cast<float>(0xc0490000u)));
    // Two f32 into one .f16x2 / .bf16x2: a to the upper half, b to the lower.
    EXPECT_EQ(one("\tcvt.rn.f16x2.f32 %r3, %f10, %f11;\n", {bits(1.0f), bits(2.0f)}), pack(0x4000u, 0x3c00u));
    EXPECT_EQ(one("\tcvt.rn.bf16x2.f32 %r3, %f10, %f11;\n", {bits(1.0f), bits(-2.0f)}), pack(0xc000u, 0x3f80u));
    // Integers: f16 to s32 with integer rounding, and back.
    EXPECT_EQ(one("\tcvt.u16.u32 %rs1, %r10;\n\tcvt.rni.s32.f16 %r3, %rs1;\n", {0xc100u}), static_cast<std::uint32_t>(-2)); // -2.5 to even
    EXPECT_EQ(one("\tcvt.rn.f16.s32 %rs1, %r10;\n\tcvt.u32.u16 %r3, %rs1;\n", {2049u}), 0x6800u); // 2049 -> 2048 (tie, even)
}

TEST(HalfPrecision, ArithmeticRoundsOnceToNearestEven)
{
    // add: a tie in the low half rounds to even, the high half rounds up.
    EXPECT_EQ(one("\tadd.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0x3c00u), pack(0x1000u, 0x1400u)}), pack(0x3c00u, 0x3c01u));
    EXPECT_EQ(one("\tadd.rn.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0x3c00u), pack(0x1000u, 0x1400u)}), pack(0x3c00u, 0x3c01u));
    // Overflow: 65504 + 16 is halfway to 65536, which rounds to even: infinity; + 8 stays.
    EXPECT_EQ(one("\tmov.b32 {%rs1, %rs2}, %r10;\n\tmov.b32 {%rs3, %rs4}, %r11;\n\tadd.f16 %rs5, %rs1, %rs3;\n"
                  "\tadd.f16 %rs6, %rs2, %rs4;\n\tmov.b32 %r3, {%rs5, %rs6};\n",
                  {pack(0x7bffu, 0x7bffu), pack(0x4c00u, 0x4800u)}),
              pack(0x7c00u, 0x7bffu));
    EXPECT_EQ(one("\tmul.f16x2 %r3, %r10, %r10;\n", {pack(0x5c00u, 0x5bffu)}), pack(0x7c00u, 0x7bfeu)); // 256^2 = inf
    // NaN in, or inf - inf: the canonical NaN.
    EXPECT_EQ(one("\tadd.f16x2 %r3, %r10, %r11;\n", {pack(0x7e01u, 0x7c00u), pack(0x3c00u, 0xfc00u)}), pack(0x7fffu, 0x7fffu));
    // Subnormals count, unless .ftz flushes them.
    EXPECT_EQ(one("\tadd.f16x2 %r3, %r10, %r10;\n", {pack(0x0001u, 0x8003u)}), pack(0x0002u, 0x8006u));
    EXPECT_EQ(one("\tadd.ftz.f16x2 %r3, %r10, %r10;\n", {pack(0x0001u, 0x8003u)}), pack(0x0000u, 0x8000u));
    // .sat: [0, 1], NaN to +0.
    EXPECT_EQ(one("\tadd.sat.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0xbc00u), pack(0x3c00u, 0x0000u)}), pack(0x3c00u, 0x0000u));
    EXPECT_EQ(one("\tadd.sat.f16x2 %r3, %r10, %r11;\n", {pack(0x7e00u, 0x3800u), pack(0x0000u, 0x0000u)}), pack(0x0000u, 0x3800u));
    // fma rounds once: (1 + 3*2^-10)^2 - 1 = 1.5*2^-8 + 9*2^-20, 2.25 ulps (2^-18) above 1.5*2^-8
    // (0x1e00): 0x1e02. Rounding the product first loses the 9*2^-20.
    EXPECT_EQ(one("\tfma.rn.f16x2 %r3, %r10, %r10, %r11;\n", {pack(0x3c03u, 0x3c03u), pack(0xbc00u, 0xbc00u)}), pack(0x1e02u, 0x1e02u));
    EXPECT_EQ(one("\tmul.rn.f16x2 %r4, %r10, %r10;\n\tadd.rn.f16x2 %r3, %r4, %r11;\n", {pack(0x3c03u, 0x3c03u), pack(0xbc00u, 0xbc00u)}),
              pack(0x1e00u, 0x1e00u)); // two roundings
    EXPECT_EQ(one("\tfma.rn.relu.f16x2 %r3, %r10, %r11, %r11;\n", {pack(0x3c00u, 0x4000u), pack(0xbc00u, 0x3c00u)}), pack(0x0000u, 0x4200u));
    // bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7.
    EXPECT_EQ(one("\tadd.rn.bf16x2 %r3, %r10, %r11;\n", {pack(0x3f80u, 0x3f80u), pack(0x3b80u, 0x3c00u)}), pack(0x3f80u, 0x3f81u));
    EXPECT_EQ(one("\tfma.rn.bf16x2 %r3, %r10, %r11, %r12;\n", {pack(0x4040u, 0x4000u), pack(0x3f80u, 0x4000u), pack(0x3f80u, 0xc080u)}),
              pack(0x4080u, 0x0000u)); // 3*1 + 1 = 4; 2*2 - 4 = 0
    // neg, abs, min, max.
    EXPECT_EQ(one("\tneg.f16x2 %r3, %r10;\n", {pack(0x3c00u, 0x8000u)}), pack(0xbc00u, 0x0000u));
    EXPECT_EQ(one("\tabs.bf16x2 %r3, %r10;\n", {pack(0xbf80u, 0x3f80u)}), pack(0x3f80u, 0x3f80u));
    EXPECT_EQ(one("\tmin.f16x2 %r3, %r10, %r11;\n", {pack(0x8000u, 0x7e00u), pack(0x0000u, 0x4000u)}), pack(0x8000u, 0x4000u));
    EXPECT_EQ(one("\tmax.f16x2 %r3, %r10, %r11;\n", {pack(0x8000u, 0x7e00u), pack(0x0000u, 0x4000u)}), pack(0x0000u, 0x4000u));
    EXPECT_EQ(one("\tmin.NaN.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0x7e00u), pack(0x4000u, 0x4000u)}), pack(0x3c00u, 0x7fffu));
    EXPECT_EQ(one("\tmin.xorsign.abs.f16x2 %r3, %r10, %r11;\n", {pack(0xc000u, 0xc000u), pack(0x4200u, 0xc200u)}),
              pack(0xc000u, 0x4000u)); // |min| with the XOR of the signs
    EXPECT_EQ(one("\tmax.xorsign.abs.bf16x2 %r3, %r10, %r11;\n", {pack(0xc000u, 0x4000u), pack(0x4040u, 0x4040u)}), pack(0xc040u, 0x4040u));
    // ex2 and tanh on halves.
    EXPECT_EQ(one("\tex2.approx.f16x2 %r3, %r10;\n", {pack(0x3c00u, 0xfc00u)}), pack(0x4000u, 0x0000u));
    EXPECT_EQ(one("\tex2.approx.ftz.bf16x2 %r3, %r10;\n", {pack(0x4040u, 0x0001u)}), pack(0x4100u, 0x3f80u));
    EXPECT_EQ(one("\ttanh.approx.f16x2 %r3, %r10;\n", {pack(0xfc00u, 0x8000u)}), pack(0xbc00u, 0x8000u));
}

// setp on .f16x2: p from the low halves, q from the high ones.
TEST(HalfPrecision, SetpComparesEachHalf)
{
    const std::string body = "\tsetp.lt.f16x2 %p1|%p2, %r10, %r11;\n\tselp.u32 %r4, 1, 0, %p1;\n\tselp.u32 %r5, 2, 0, %p2;\n"
                             "\tor.b32 %r3, %r4, %r5;\n";
    EXPECT_EQ(one(body, {pack(0x3c00u, 0x4200u), pack(0x4000u, 0x4000u)}), 1u); // 1 < 2, not 3 < 2
    EXPECT_EQ(one(body, {pack(0x4200u, 0x3c00u), pack(0x4000u, 0x4000u)}), 2u);
    EXPECT_EQ(one("\tsetp.nan.bf16x2 %p1|%p2, %r10, %r11;\n\tselp.u32 %r4, 1, 0, %p1;\n\tselp.u32 %r5, 2, 0, %p2;\n"
                  "\tor.b32 %r3, %r4, %r5;\n", {pack(0x7fc0u, 0x3f80u), pack(0x3f80u, 0x3f80u)}), 1u);
    EXPECT_EQ(one("\tmov.b32 {%rs1, %rs2}, %r10;\n\tsetp.ge.ftz.f16 %p1, %rs1, %rs2;\n\tselp.u32 %r3, 1, 0, %p1;\n",
                  {pack(0x0001u, 0x8000u)}), 1u); // flushed, +0 >= -0
}

// set writes a comparison as a number: all ones or 1.0 in the destination type, per half for pairs.
TEST(HalfPrecision, SetWritesTheComparisonAsANumber)
{
    EXPECT_EQ(one("\tset.eq.u32.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0x4000u), pack(0x3c00u, 0x4200u)}), 0x0000ffffu);
    EXPECT_EQ(one("\tset.lt.f16x2.f16x2 %r3, %r10, %r11;\n", {pack(0x3c00u, 0x4200u), pack(0x4000u, 0x4000u)}), pack(0x3c00u, 0));
    EXPECT_EQ(one("\tset.gt.bf16x2.bf16x2 %r3, %r10, %r11;\n", {pack(0x4000u, 0x3f80u), pack(0x3f80u, 0x3f80u)}), pack(0x3f80u, 0));
    EXPECT_EQ(one("\t{.reg.b16 h;\n\tmov.b32 {%rs1, %rs2}, %r10;\n\tset.eq.f16.f16 h, %rs1, %rs2;\n\tcvt.u32.u16 %r3, h;}\n",
                  {pack(0x3c00u, 0x3c00u)}), 0x3c00u);
    EXPECT_EQ(one("\tset.ge.f32.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {bits(2.0f), bits(1.0f)}), bits(1.0f));
    EXPECT_EQ(one("\tset.nan.u32.f32 %r3, %f10, %f11;\n", {0x7fc00000u, bits(1.0f)}), 0xffffffffu);
    EXPECT_EQ(one("\tset.lt.u32.s32 %r3, %r10, %r11;\n", {0xffffffffu, 0}), 0xffffffffu);
    EXPECT_EQ(one("\tset.lo.u32.u32 %r3, %r10, %r11;\n", {0xffffffffu, 0}), 0u);
    EXPECT_EQ(one("\tsetp.eq.u32 %p1, %r1, 0;\n\tset.eq.and.u32.s32 %r3, %r10, %r11, !%p1;\n", {5, 5}), 0u); // thread 0: !p false
}

// A mul and a dependent add with no rounding modifier are one fma, as ptxas compiles them; a
// rounding modifier on either, a second use of the product, or a changed operand keeps them apart.
TEST(HalfPrecision, ContractionFusesMulAndDependentAdd)
{
    // f32: (1 + 3*2^-23)^2 - 1 = 1.5*2^-21 + 9*2^-46: fused, 2.25 ulps (2^-44) above 1.5*2^-21.
    const Inputs f32 = {0x3f800003u, bits(-1.0f), bits(1.0f)};
    const std::uint32_t fused = 0x35400002u, separate = 0x35400000u;
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tadd.f32 %f3, %f1, %f11;\n\tmov.b32 %r3, %f3;\n", f32), fused);
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tadd.f32 %f3, %f11, %f1;\n\tmov.b32 %r3, %f3;\n", f32), fused);
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tsub.f32 %f3, %f1, %f12;\n\tmov.b32 %r3, %f3;\n", f32), fused);
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tsub.f32 %f3, %f12, %f1;\n\tmov.b32 %r3, %f3;\n", f32), fused | 0x80000000u);
    EXPECT_EQ(one("\tmul.rn.f32 %f1, %f10, %f10;\n\tadd.f32 %f3, %f1, %f11;\n\tmov.b32 %r3, %f3;\n", f32), separate);
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tadd.rn.f32 %f3, %f1, %f11;\n\tmov.b32 %r3, %f3;\n", f32), separate);
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tadd.f32 %f3, %f1, %f11;\n\tadd.f32 %f4, %f1, %f13;\n\tmov.b32 %r3, %f3;\n", f32),
              separate); // the product is used twice
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tmov.f32 %f10, 0f3F800000;\n\tadd.f32 %f3, %f1, %f11;\n\tmov.b32 %r3, %f3;\n", f32),
              separate); // the mul's operand changed in between
    EXPECT_EQ(one("\tmul.f32 %f1, %f10, %f10;\n\tbra.uni $L_next;\n$L_next:\n\tadd.f32 %f3, %f1, %f11;\n\tmov.b32 %r3, %f3;\n", f32),
              separate); // another basic block
    // f16x2: the same in half precision (1.5*2^-8 + 9*2^-20).
    const Inputs f16 = {pack(0x3c03u, 0x3c03u), pack(0xbc00u, 0xbc00u)};
    EXPECT_EQ(one("\tmul.f16x2 %r4, %r10, %r10;\n\tadd.f16x2 %r3, %r4, %r11;\n", f16), pack(0x1e02u, 0x1e02u));
    EXPECT_EQ(one("\tmul.rn.f16x2 %r4, %r10, %r10;\n\tadd.f16x2 %r3, %r4, %r11;\n", f16), pack(0x1e00u, 0x1e00u));
    // The parser marks which add takes which mul.
    const CompiledKernel kernel = parsePtxKernel(harness("\tmul.f32 %f1, %f10, %f10;\n\tadd.f32 %f3, %f11, %f1;\n", false), "t");
    bool marked = false;
    for (const ptx::Instruction& instruction : kernel.function->instructions)
        if (instruction.op == ptx::Op::Add && instruction.type == ptx::Type::F32) {
            ASSERT_GE(instruction.contractedMul, 0);
            EXPECT_EQ(kernel.function->instructions[static_cast<std::size_t>(instruction.contractedMul)].op, ptx::Op::Mul);
            EXPECT_EQ(instruction.contractedOperand, 2);
            marked = true;
        }
    EXPECT_TRUE(marked);
}

// The fp16 dot product as cuda_fp16.h users write it: __hmul2 then __hadd2, which ptxas fuses. The
// reference rounds a fused multiply-add to f16 after each step; rounding the product and the sum
// separately gives a different answer for some outputs, which the simulator must not.
TEST(HalfPrecision, Fp16DotProductMatchesTheFusedReference)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <cuda_fp16.h>
extern "C" __global__ void dot(const __half2* a, const __half2* b, float* out, int n)
{
    int row = threadIdx.x;
    __half2 acc = __float2half2_rn(0.0f);
    for (int k = 0; k < n; ++k)
        acc = __hadd2(acc, __hmul2(a[row * n + k], b[k]));
    out[2 * row] = __low2float(acc);
    out[2 * row + 1] = __high2float(acc);
}
)", "dot");
    const int rows = 16, n = 24;
    std::mt19937 random(2024);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    std::vector<std::uint16_t> a(static_cast<std::size_t>(rows * n * 2)), b(static_cast<std::size_t>(n * 2));
    for (std::uint16_t& h : a) h = nearestHalf(distribution(random), HalfFormat::F16);
    for (std::uint16_t& h : b) h = nearestHalf(distribution(random), HalfFormat::F16);
    sim::ResolvedArg count;
    count.name = "n";
    count.scalarBits = static_cast<std::uint32_t>(n);
    count.integerValue = n;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {rows, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U16, a), bufferArg("b", sim::ElementType::U16, b),
                                                    bufferArg("out", sim::ElementType::F32, std::vector<float>(rows * 2, 0)), count});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    const std::vector<float> out = bufferValues<float>(result, "out");
    auto value = [](std::uint16_t h) { return sim::halfToDouble(h, HalfFormat::F16); };
    int differsUnfused = 0;
    for (int row = 0; row < rows; ++row)
        for (int half = 0; half < 2; ++half) {
            std::uint16_t fused = 0, unfused = 0;
            for (int k = 0; k < n; ++k) {
                const double x = value(a[static_cast<std::size_t>((row * n + k) * 2 + half)]);
                const double y = value(b[static_cast<std::size_t>(k * 2 + half)]);
                fused = nearestHalf(x * y + value(fused), HalfFormat::F16); // exact in double for halves
                unfused = nearestHalf(value(nearestHalf(x * y, HalfFormat::F16)) + value(unfused), HalfFormat::F16);
            }
            EXPECT_EQ(out[static_cast<std::size_t>(2 * row + half)], static_cast<float>(value(fused))) << row << "." << half;
            differsUnfused += value(fused) != value(unfused);
        }
    EXPECT_GT(differsUnfused, 0) << "the data should tell fused from unfused apart";
}

// bf16 at compute_80: cuda_bf16.h's __hfma2 and conversions (fma.rn.bf16x2, cvt.rn.bf16x2.f32).
TEST(HalfPrecision, Bf16KernelMatchesTheReference)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <cuda_bf16.h>
extern "C" __global__ void axpy(const float* x, const float* y, float alpha, float* out)
{
    int i = threadIdx.x;
    __nv_bfloat162 xs = __floats2bfloat162_rn(x[2 * i], x[2 * i + 1]);
    __nv_bfloat162 ys = __floats2bfloat162_rn(y[2 * i], y[2 * i + 1]);
    __nv_bfloat162 r = __hfma2(__float2bfloat162_rn(alpha), xs, ys);
    out[2 * i] = __low2float(r);
    out[2 * i + 1] = __high2float(r);
}
)", "axpy", "compute_80");
    std::vector<float> x(64), y(64);
    std::mt19937 random(5);
    std::uniform_real_distribution<float> distribution(-100.0f, 100.0f);
    for (float& v : x) v = distribution(random);
    for (float& v : y) v = distribution(random);
    const float alpha = 1.7f;
    sim::ResolvedArg scalar;
    scalar.name = "alpha";
    scalar.type = sim::ElementType::F32;
    scalar.scalarBits = bits(alpha);
    scalar.realValue = alpha;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("x", sim::ElementType::F32, x), bufferArg("y", sim::ElementType::F32, y),
                                                    scalar, bufferArg("out", sim::ElementType::F32, std::vector<float>(64, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<float> out = bufferValues<float>(result, "out");
    auto bf16 = [](double v) { return sim::halfToDouble(nearestHalf(v, HalfFormat::BF16), HalfFormat::BF16); };
    for (std::size_t i = 0; i < 64; ++i) {
        // bf16 products have 16 significant bits: x * alpha + y is exact in double.
        const double expected = bf16(bf16(alpha) * bf16(x[i]) + bf16(y[i]));
        EXPECT_EQ(out[i], static_cast<float>(expected)) << i;
    }
}
