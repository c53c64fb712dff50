// The instructions real-world kernels need (issue 15), each against values worked out by hand from
// the PTX ISA's semantics, edge cases included: WARP_SZ, bfind (of 0, of -1, .shiftamt), shf,
// copysign, the rounding modes of add/mul/fma/div/sqrt/cvt, the approximate transcendentals (their
// special values, .ftz on subnormals, and the ISA's error bounds over their ranges), match.sync,
// redux.sync and nanosleep.
#include "ptx_harness.h"
#include "sim_test_support.h"

#include "sim/float_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

std::uint32_t bits(float value) { return std::bit_cast<std::uint32_t>(value); }
std::uint32_t hi(double value) { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(value) >> 32); }
std::uint32_t lo(double value) { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(value)); }
Inputs doubles(double a, double b) { return {lo(a), hi(a), lo(b), hi(b)}; }

constexpr std::uint32_t kFloatMax = 0x7f7fffffu;
constexpr std::uint32_t kInf = 0x7f800000u;
constexpr std::uint32_t kNegInf = 0xff800000u;
constexpr std::uint32_t kOne = 0x3f800000u;
constexpr std::uint32_t kOnePlusUlp = 0x3f800001u;   // 1 + 2^-23

} // namespace

// warpSize compiles to the predefined constant WARP_SZ.
TEST(PtxInstructions, WarpSzIsThirtyTwo)
{
    EXPECT_EQ(run32("\tmov.u32 %r3, WARP_SZ;\n", {{}}), std::vector<std::uint32_t>{32u});
    EXPECT_EQ(run32("\tadd.u32 %r3, %r10, WARP_SZ;\n", {{5}}), std::vector<std::uint32_t>{37u});
}

// bfind: the position of the most significant non-sign bit; 0xffffffff when there is none.
TEST(PtxInstructions, BfindFindsTheMostSignificantNonSignBit)
{
    const std::vector<Inputs> u32 = {{0}, {1}, {0x80000000u}, {0x00f00000u}, {0xffffffffu}};
    EXPECT_EQ(run32("\tbfind.u32 %r3, %r10;\n", u32),
              (std::vector<std::uint32_t>{0xffffffffu, 0, 31, 23, 31}));
    // .shiftamt: how far left the found bit must go to reach bit 31 (__clz for non-zero values).
    EXPECT_EQ(run32("\tbfind.shiftamt.u32 %r3, %r10;\n", u32),
              (std::vector<std::uint32_t>{0xffffffffu, 31, 0, 8, 0}));
    // Signed: for negative values the most significant 0. -1 and 0 have no non-sign bit.
    const std::vector<Inputs> s32 = {{0}, {0xffffffffu}, {0xfffffffeu}, {0x40000000u}, {0x80000000u}, {0xffff0000u}};
    EXPECT_EQ(run32("\tbfind.s32 %r3, %r10;\n", s32),
              (std::vector<std::uint32_t>{0xffffffffu, 0xffffffffu, 0, 30, 30, 15}));
    EXPECT_EQ(run32("\tbfind.shiftamt.s32 %r3, %r10;\n", s32),
              (std::vector<std::uint32_t>{0xffffffffu, 0xffffffffu, 31, 1, 1, 16}));
    // 64-bit sources, 32-bit result.
    EXPECT_EQ(run32("\tmov.b64 %rd6, {%r10, %r11};\n\tbfind.u64 %r3, %rd6;\n",
                    {{0, 0}, {1, 0}, {0, 0x100u}, {0, 0x80000000u}}),
              (std::vector<std::uint32_t>{0xffffffffu, 0, 40, 63}));
    EXPECT_EQ(run32("\tmov.b64 %rd6, {%r10, %r11};\n\tbfind.shiftamt.s64 %r3, %rd6;\n",
                    {{0xffffffffu, 0xffffffffu}, {1, 0}, {0xfffffffeu, 0xffffffffu}}),
              (std::vector<std::uint32_t>{0xffffffffu, 63, 63}));
}

// __ffs and warpSize as NVRTC compiles them (brev + bfind.shiftamt, WARP_SZ).
TEST(PtxInstructions, FfsAndWarpSizeFromCuda)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void ffs(const unsigned* x, unsigned* y)
{
    int i = threadIdx.x;
    y[i] = __ffs(x[i]) * 100 + warpSize + __ffsll((long long)x[i] << 20) * 1000000;
}
)", "ffs");
    const std::vector<std::uint32_t> in = {0, 1, 0x80000000u, 12, 0x00010000u};
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {5, 1, 1},
                                                   {bufferArg("x", sim::ElementType::U32, in),
                                                    bufferArg("y", sim::ElementType::U32, std::vector<std::uint32_t>(5, 0))});
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(result, "y");
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::uint32_t ffs = in[i] == 0 ? 0 : static_cast<std::uint32_t>(std::countr_zero(in[i])) + 1;
        const std::uint32_t ffsll = in[i] == 0 ? 0 : ffs + 20;
        EXPECT_EQ(out[i], ffs * 100 + 32 + ffsll * 1000000) << "x = " << in[i];
    }
}

// shf: funnel shift of {b:a}; .wrap takes the amount mod 32, .clamp caps it at 32.
TEST(PtxInstructions, FunnelShiftWrapsOrClamps)
{
    const std::uint32_t a = 0x12345678u, b = 0x9abcdef0u;
    const std::vector<Inputs> in = {{a, b, 0}, {a, b, 8}, {a, b, 40}, {a, b, 32}};
    EXPECT_EQ(run32("\tshf.l.wrap.b32 %r3, %r10, %r11, %r12;\n", in),
              (std::vector<std::uint32_t>{b, 0xbcdef012u, 0xbcdef012u, b}));
    EXPECT_EQ(run32("\tshf.l.clamp.b32 %r3, %r10, %r11, %r12;\n", in),
              (std::vector<std::uint32_t>{b, 0xbcdef012u, a, a}));
    EXPECT_EQ(run32("\tshf.r.wrap.b32 %r3, %r10, %r11, %r12;\n", in),
              (std::vector<std::uint32_t>{a, 0xf0123456u, 0xf0123456u, a}));
    EXPECT_EQ(run32("\tshf.r.clamp.b32 %r3, %r10, %r11, %r12;\n", in),
              (std::vector<std::uint32_t>{a, 0xf0123456u, b, b}));
    // A rotate: both halves the same word.
    EXPECT_EQ(run32("\tshf.l.wrap.b32 %r3, %r10, %r10, 4;\n", {{0xf000000fu}}), std::vector<std::uint32_t>{0x000000ffu});
}

// copysign d, a, b: b's magnitude with a's sign.
TEST(PtxInstructions, CopysignTakesTheSignOfTheFirstOperand)
{
    EXPECT_EQ(run32("\tcopysign.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n",
                    {{bits(-1.0f), bits(2.0f)}, {bits(0.0f), bits(-3.0f)}, {bits(-0.0f), 0x7fc00001u}, {bits(5.0f), kNegInf}}),
              (std::vector<std::uint32_t>{bits(-2.0f), bits(3.0f), 0xffc00001u, kInf}));
    const std::vector<std::uint64_t> wide =
        runHarness("\tcopysign.f64 %fd3, %fd10, %fd11;\n\tmov.b64 %rd3, %fd3;\n", {doubles(-1.0, 2.5), doubles(1.0, -0.0)}, true);
    EXPECT_EQ(wide[0], std::bit_cast<std::uint64_t>(-2.5));
    EXPECT_EQ(wide[1], std::bit_cast<std::uint64_t>(0.0));
}

// .rn .rz .rm .rp: one rounding of the exact result, in the named direction.
TEST(PtxInstructions, RoundingModesOfAddMulFmaF32)
{
    const std::uint32_t halfUlp = 0x33800000u; // 2^-24: 1 + 2^-24 is halfway between 1 and 1 + 2^-23
    const std::vector<Inputs> sums = {{kOne, halfUlp}, {kOne | 0x80000000u, halfUlp | 0x80000000u}, {kFloatMax, kFloatMax},
                                      {kFloatMax | 0x80000000u, kFloatMax | 0x80000000u}};
    auto add = [&](const char* mode) {
        return run32(std::string("\tadd") + mode + ".f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", sums);
    };
    EXPECT_EQ(add(""), (std::vector<std::uint32_t>{kOne, kOne | 0x80000000u, kInf, kNegInf}));   // ties to even
    EXPECT_EQ(add(".rn"), (std::vector<std::uint32_t>{kOne, kOne | 0x80000000u, kInf, kNegInf}));
    EXPECT_EQ(add(".rz"), (std::vector<std::uint32_t>{kOne, kOne | 0x80000000u, kFloatMax, kFloatMax | 0x80000000u}));
    EXPECT_EQ(add(".rm"), (std::vector<std::uint32_t>{kOne, kOnePlusUlp | 0x80000000u, kFloatMax, kNegInf}));
    EXPECT_EQ(add(".rp"), (std::vector<std::uint32_t>{kOnePlusUlp, kOne | 0x80000000u, kInf, kFloatMax | 0x80000000u}));

    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: the last term decides only .rp.
    auto mul = [&](const char* mode) {
        return run32(std::string("\tmul") + mode + ".f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{kOnePlusUlp, kOnePlusUlp}});
    };
    EXPECT_EQ(mul(".rn"), std::vector<std::uint32_t>{0x3f800002u});
    EXPECT_EQ(mul(".rz"), std::vector<std::uint32_t>{0x3f800002u});
    EXPECT_EQ(mul(".rm"), std::vector<std::uint32_t>{0x3f800002u});
    EXPECT_EQ(mul(".rp"), std::vector<std::uint32_t>{0x3f800003u});

    // fma rounds once: (1 + 2^-23)^2 - 1 = 2^-22 (1 + 2^-24) exactly, halfway between two floats.
    auto fma = [&](const char* mode) {
        return run32(std::string("\tfma") + mode + ".f32 %f3, %f10, %f11, %f12;\n\tmov.b32 %r3, %f3;\n",
                     {{kOnePlusUlp, kOnePlusUlp, bits(-1.0f)}});
    };
    EXPECT_EQ(fma(".rn"), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -22))});              // to even
    EXPECT_EQ(fma(".rz"), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -22))});
    EXPECT_EQ(fma(".rm"), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -22))});
    EXPECT_EQ(fma(".rp"), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -22)) + 1});
    EXPECT_EQ(run32("\tmad.rp.f32 %f3, %f10, %f11, %f12;\n\tmov.b32 %r3, %f3;\n", {{kOnePlusUlp, kOnePlusUlp, bits(-1.0f)}}),
              std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -22)) + 1});

    // .ftz flushes subnormal inputs and results; without it they count.
    EXPECT_EQ(run32("\tadd.rz.ftz.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{1, 1}}), std::vector<std::uint32_t>{0u});
    EXPECT_EQ(run32("\tadd.rz.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{1, 1}}), std::vector<std::uint32_t>{2u});
    EXPECT_EQ(run32("\tmul.rp.ftz.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{bits(std::ldexp(1.0f, -100)), bits(std::ldexp(1.0f, -30))}}),
              std::vector<std::uint32_t>{0u}); // 2^-130 is subnormal: flushed to +0
    // .sat after the rounding.
    EXPECT_EQ(run32("\tadd.rp.sat.f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{kOne, halfUlp}, {bits(-2.0f), kOne}}),
              (std::vector<std::uint32_t>{kOne, 0u}));
}

TEST(PtxInstructions, RoundingModesOfDivSqrtRcpAndF64)
{
    // 1/3 = 0x3eaaaaab rounded to nearest (it rounds up), 0x3eaaaaaa toward zero.
    auto div = [&](const char* mode) {
        return run32(std::string("\tdiv") + mode + ".f32 %f3, %f10, %f11;\n\tmov.b32 %r3, %f3;\n", {{kOne, bits(3.0f)}});
    };
    EXPECT_EQ(div(".rn"), std::vector<std::uint32_t>{0x3eaaaaabu});
    EXPECT_EQ(div(".rz"), std::vector<std::uint32_t>{0x3eaaaaaau});
    EXPECT_EQ(div(".rm"), std::vector<std::uint32_t>{0x3eaaaaaau});
    EXPECT_EQ(div(".rp"), std::vector<std::uint32_t>{0x3eaaaaabu});
    EXPECT_EQ(run32("\trcp.rz.f32 %f3, %f10;\n\tmov.b32 %r3, %f3;\n", {{bits(3.0f)}}), std::vector<std::uint32_t>{0x3eaaaaaau});
    // sqrt(2) lies between 0x3fb504f3 (nearest, below) and 0x3fb504f4.
    EXPECT_EQ(run32("\tsqrt.rn.f32 %f3, %f10;\n\tmov.b32 %r3, %f3;\n", {{bits(2.0f)}}), std::vector<std::uint32_t>{0x3fb504f3u});
    EXPECT_EQ(run32("\tsqrt.rp.f32 %f3, %f10;\n\tmov.b32 %r3, %f3;\n", {{bits(2.0f)}}), std::vector<std::uint32_t>{0x3fb504f4u});
    EXPECT_EQ(run32("\tsqrt.rm.f32 %f3, %f10;\n\tmov.b32 %r3, %f3;\n", {{bits(2.0f)}}), std::vector<std::uint32_t>{0x3fb504f3u});

    // f64: 1 + 2^-60 is below half an ulp of 1 (2^-53).
    const double tiny = std::ldexp(1.0, -60);
    auto add64 = [&](const char* mode) {
        return runHarness(std::string("\tadd") + mode + ".f64 %fd3, %fd10, %fd11;\n\tmov.b64 %rd3, %fd3;\n",
                          {doubles(1.0, tiny), doubles(-1.0, -tiny)}, true);
    };
    const std::uint64_t one = std::bit_cast<std::uint64_t>(1.0), up = one + 1;
    const std::uint64_t sign = 1ull << 63;
    EXPECT_EQ(add64(".rn"), (std::vector<std::uint64_t>{one, one | sign}));
    EXPECT_EQ(add64(".rz"), (std::vector<std::uint64_t>{one, one | sign}));
    EXPECT_EQ(add64(".rm"), (std::vector<std::uint64_t>{one, up | sign}));
    EXPECT_EQ(add64(".rp"), (std::vector<std::uint64_t>{up, one | sign}));
    const std::vector<std::uint64_t> fma64 = runHarness(
        "\tmov.f64 %fd12, 0dBFF0000000000000;\n\tfma.rp.f64 %fd3, %fd10, %fd10, %fd12;\n\tmov.b64 %rd3, %fd3;\n",
        {doubles(1.0 + std::ldexp(1.0, -52), 0)}, true);
    EXPECT_EQ(fma64[0], std::bit_cast<std::uint64_t>(std::ldexp(1.0, -51)) + 1); // 2^-51 + 2^-104, rounded up
}

TEST(PtxInstructions, RoundingModesOfConversions)
{
    // 0.1 as a double lies between two floats; the nearest is above it.
    const Inputs tenth = doubles(0.1, 0);
    auto fromDouble = [&](const char* mode) {
        return run32(std::string("\tcvt") + mode + ".f32.f64 %f3, %fd10;\n\tmov.b32 %r3, %f3;\n", {tenth});
    };
    EXPECT_EQ(fromDouble(".rn"), std::vector<std::uint32_t>{0x3dcccccdu});
    EXPECT_EQ(fromDouble(".rz"), std::vector<std::uint32_t>{0x3dccccccu});
    EXPECT_EQ(fromDouble(".rm"), std::vector<std::uint32_t>{0x3dccccccu});
    EXPECT_EQ(fromDouble(".rp"), std::vector<std::uint32_t>{0x3dcccccdu});
    // 2^24 + 1 is the first integer a float cannot hold.
    auto fromInt = [&](const char* mode) {
        return run32(std::string("\tcvt") + mode + ".f32.s32 %f3, %r10;\n\tmov.b32 %r3, %f3;\n", {{16777217u}, {static_cast<std::uint32_t>(-16777217)}});
    };
    EXPECT_EQ(fromInt(".rn"), (std::vector<std::uint32_t>{0x4b800000u, 0xcb800000u}));
    EXPECT_EQ(fromInt(".rz"), (std::vector<std::uint32_t>{0x4b800000u, 0xcb800000u}));
    EXPECT_EQ(fromInt(".rm"), (std::vector<std::uint32_t>{0x4b800000u, 0xcb800001u}));
    EXPECT_EQ(fromInt(".rp"), (std::vector<std::uint32_t>{0x4b800001u, 0xcb800000u}));
    EXPECT_EQ(run32("\tcvt.rp.f32.u32 %f3, %r10;\n\tmov.b32 %r3, %f3;\n", {{0xffffffffu}}), std::vector<std::uint32_t>{0x4f800000u});
    EXPECT_EQ(run32("\tcvt.rz.f32.u32 %f3, %r10;\n\tmov.b32 %r3, %f3;\n", {{0xffffffffu}}), std::vector<std::uint32_t>{0x4f7fffffu});
}

// The approximate instructions at the special values the ISA's tables give, and with .ftz.
TEST(PtxInstructions, ApproximateTranscendentalsSpecialValues)
{
    auto unary = [&](const std::string& opcode, const std::vector<std::uint32_t>& in) {
        std::vector<Inputs> inputs;
        for (std::uint32_t value : in)
            inputs.push_back({value});
        return run32("\t" + opcode + " %f3, %f10;\n\tmov.b32 %r3, %f3;\n", inputs);
    };
    const std::uint32_t nan = sim::kCanonicalNanF32;
    const std::uint32_t negZero = 0x80000000u;
    const std::uint32_t subnormal = 0x00000010u, negSubnormal = 0x80000010u;
    // ex2: 2^x.
    EXPECT_EQ(unary("ex2.approx.f32", {kNegInf, negZero, 0, kInf, 0x7fc12345u, bits(3.0f), bits(-1.0f), bits(128.0f)}),
              (std::vector<std::uint32_t>{0, kOne, kOne, kInf, nan, bits(8.0f), bits(0.5f), kInf}));
    EXPECT_EQ(unary("ex2.approx.f32", {bits(-140.0f)}), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, -140))}); // subnormal result
    EXPECT_EQ(unary("ex2.approx.ftz.f32", {bits(-140.0f), subnormal}), (std::vector<std::uint32_t>{0, kOne}));
    EXPECT_EQ(unary("ex2.approx.f32", {bits(0.5f)}), std::vector<std::uint32_t>{bits(static_cast<float>(std::sqrt(2.0)))});
    // lg2: log2(x).
    EXPECT_EQ(unary("lg2.approx.f32", {kNegInf, bits(-1.0f), negZero, 0, kInf, bits(8.0f), bits(0.25f)}),
              (std::vector<std::uint32_t>{nan, nan, kNegInf, kNegInf, kInf, bits(3.0f), bits(-2.0f)}));
    EXPECT_EQ(unary("lg2.approx.f32", {1}), std::vector<std::uint32_t>{bits(-149.0f)});         // the smallest subnormal
    EXPECT_EQ(unary("lg2.approx.ftz.f32", {1, negSubnormal}), (std::vector<std::uint32_t>{kNegInf, kNegInf}));
    // rsqrt: 1/sqrt(x).
    EXPECT_EQ(unary("rsqrt.approx.f32", {kNegInf, bits(-4.0f), negZero, 0, kInf, bits(4.0f), bits(0.25f)}),
              (std::vector<std::uint32_t>{nan, nan, kNegInf, kInf, 0, bits(0.5f), bits(2.0f)}));
    EXPECT_EQ(unary("rsqrt.approx.ftz.f32", {subnormal, negSubnormal}), (std::vector<std::uint32_t>{kInf, kNegInf}));
    EXPECT_EQ(unary("rsqrt.approx.f32", {bits(std::ldexp(1.0f, -148))}), std::vector<std::uint32_t>{bits(std::ldexp(1.0f, 74))});
    // sin and cos.
    EXPECT_EQ(unary("sin.approx.f32", {kNegInf, negZero, 0, kInf, nan}), (std::vector<std::uint32_t>{nan, negZero, 0, nan, nan}));
    EXPECT_EQ(unary("cos.approx.f32", {kNegInf, negZero, 0, kInf}), (std::vector<std::uint32_t>{nan, kOne, kOne, nan}));
    EXPECT_EQ(unary("sin.approx.f32", {negSubnormal}), std::vector<std::uint32_t>{negSubnormal}); // sin(x) = x for tiny x
    EXPECT_EQ(unary("sin.approx.ftz.f32", {negSubnormal}), std::vector<std::uint32_t>{negZero});
    // tanh: subnormals pass through (the ISA's note); +-inf give +-1.
    EXPECT_EQ(unary("tanh.approx.f32", {kNegInf, negZero, 0, kInf, negSubnormal, bits(20.0f)}),
              (std::vector<std::uint32_t>{bits(-1.0f), negZero, 0, kOne, negSubnormal, kOne}));
    // rsqrt.approx.f64.
    const std::vector<std::uint64_t> wide =
        runHarness("\trsqrt.approx.f64 %fd3, %fd10;\n\tmov.b64 %rd3, %fd3;\n", {doubles(4.0, 0), doubles(-0.0, 0)}, true);
    EXPECT_EQ(wide[0], std::bit_cast<std::uint64_t>(0.5));
    EXPECT_EQ(wide[1], std::bit_cast<std::uint64_t>(-std::numeric_limits<double>::infinity()));
}

// Every approximate instruction stays within the error bound the PTX ISA publishes for it, checked
// against a long-double reference on inputs spread over the whole range the bound covers.
TEST(PtxInstructions, ApproximationsStayWithinThePublishedBounds)
{
    auto reference = [](const std::string& name, long double x) -> long double {
        if (name.starts_with("ex2")) return std::exp2(x);
        if (name.starts_with("lg2")) return std::log2(x);
        if (name.starts_with("rsqrt")) return 1.0L / std::sqrt(x);
        if (name.starts_with("sin")) return std::sin(x);
        if (name.starts_with("cos")) return std::cos(x);
        if (name.starts_with("tanh")) return std::tanh(x);
        if (name.starts_with("rcp")) return 1.0L / x;
        if (name.starts_with("sqrt")) return std::sqrt(x);
        return 1.0L / x; // div: a / b with a = 1
    };
    auto simulated = [](const std::string& name, float x) -> float {
        if (name.starts_with("ex2")) return sim::approximateEx2(x, false);
        if (name.starts_with("lg2")) return sim::approximateLg2(x, false);
        if (name.starts_with("rsqrt")) return sim::approximateRsqrt(x, false);
        if (name.starts_with("sin")) return sim::approximateSin(x, false);
        if (name.starts_with("cos")) return sim::approximateCos(x, false);
        if (name.starts_with("tanh")) return sim::approximateTanh(x);
        if (name.starts_with("sqrt")) return std::sqrt(x);  // sqrt.approx and rcp.approx: correctly rounded
        return 1.0f / x;                                     // rcp.approx, div.approx, div.full
    };
    for (const sim::ApproximationBound& bound : sim::approximationBounds()) {
        const std::string name = bound.instruction;
        if (name.find("16") != std::string::npos) { // the half-precision rows: every 16-bit pattern
            const sim::HalfFormat format = name.find("bf16") != std::string::npos ? sim::HalfFormat::BF16 : sim::HalfFormat::F16;
            int checked = 0;
            for (std::uint32_t pattern = 0; pattern < 0x10000u; ++pattern) {
                const auto x = static_cast<std::uint16_t>(pattern);
                const double value = sim::halfToDouble(x, format);
                if (!std::isfinite(value))
                    continue;
                const bool ex2 = name.starts_with("ex2");
                const std::uint16_t got = ex2 ? sim::approximateEx2(x, format, format == sim::HalfFormat::BF16)
                                              : sim::approximateTanh(x, format);
                const double result = sim::halfToDouble(got, format);
                const long double exact = ex2 ? std::exp2(static_cast<long double>(value)) : std::tanh(static_cast<long double>(value));
                if (!std::isfinite(result) || exact == 0 || std::fabs(static_cast<double>(exact)) < 1e-30)
                    continue; // overflow, and results a format cannot hold (relative error of a flushed 0)
                if (ex2 && (std::fabs(static_cast<double>(exact)) < (format == sim::HalfFormat::F16 ? 6.2e-5 : 1.2e-38)))
                    continue; // subnormal results: the ISA's relative bound is for normal ones
                const double error = bound.kind == sim::ApproximationBound::Kind::Absolute
                                         ? static_cast<double>(std::fabs(result - exact))
                                         : static_cast<double>(std::fabs((result - exact) / exact));
                ASSERT_LE(error, bound.bound) << name << " at " << value;
                ++checked;
            }
            EXPECT_GT(checked, 1000) << name;
            continue;
        }
        // Inputs: every 4099th float (both signs), kept where the bound applies and the result is finite.
        double worst = 0;
        int checked = 0;
        for (std::uint64_t pattern = 0; pattern < 0x100000000ull; pattern += 4099) {
            const float x = std::bit_cast<float>(static_cast<std::uint32_t>(pattern));
            if (!std::isfinite(x) || x < bound.low || x > bound.high)
                continue;
            if ((name.starts_with("lg2") || name.starts_with("rsqrt") || name.starts_with("sqrt")) && x <= 0)
                continue;
            if (name.starts_with("lg2") && bound.kind == sim::ApproximationBound::Kind::Relative && x > 0.5f && x < 2.0f)
                continue; // that range has the absolute bound
            if (name.starts_with("div.approx") && (std::fabs(x) < bound.low || std::fabs(x) > bound.high))
                continue;
            const float got = simulated(name, x);
            const long double exact = reference(name, x);
            if (!std::isfinite(got) || !std::isfinite(static_cast<double>(exact)) || std::fabs(exact) > 3.4e38L)
                continue;
            double error = 0;
            switch (bound.kind) {
            case sim::ApproximationBound::Kind::Absolute:
                error = static_cast<double>(std::fabs(static_cast<long double>(got) - exact));
                break;
            case sim::ApproximationBound::Kind::Relative:
                if (exact == 0) continue;
                error = static_cast<double>(std::fabs((static_cast<long double>(got) - exact) / exact));
                break;
            case sim::ApproximationBound::Kind::Ulp: {
                const float nearest = static_cast<float>(exact);
                const long double ulp = std::fabs(static_cast<long double>(std::nextafter(nearest, INFINITY)) - nearest);
                if (ulp == 0 || !std::isfinite(static_cast<double>(ulp))) continue;
                error = static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
                break;
            }
            }
            worst = std::max(worst, error);
            ++checked;
            ASSERT_LE(error, bound.bound) << name << " at x = " << x << " (0x" << std::hex << pattern << ")";
        }
        EXPECT_GT(checked, 1000) << name;
        // Correctly rounded results sit far inside the bounds: at most half an ulp.
        if (bound.kind == sim::ApproximationBound::Kind::Ulp) {
            EXPECT_LE(worst, 0.5001) << name;
        } else if (bound.kind == sim::ApproximationBound::Kind::Relative) {
            EXPECT_LE(worst, std::ldexp(1.0, -24) * 1.0001) << name;
        }
    }
}

// match.any groups lanes by value; match.all says whether every member agrees.
TEST(PtxInstructions, MatchSyncAnyAndAll)
{
    std::vector<Inputs> in(32);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        in[lane] = {lane % 3, 7, lane < 16 ? 1u : 2u, 0};
    const std::vector<std::uint32_t> any = run32("\tmatch.any.sync.b32 %r3, %r10, 0xffffffff;\n", in);
    std::uint32_t byResidue[3] = {0, 0, 0};
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        byResidue[lane % 3] |= 1u << lane;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(any[lane], byResidue[lane % 3]) << lane;
    // All 7: the full mask, and p set.
    const std::vector<std::uint32_t> all =
        run32("\tmatch.all.sync.b32 %r3|%p1, %r11, 0xffffffff;\n\tselp.u32 %r4, 1, 0, %p1;\n\tshl.b32 %r4, %r4, 31;\n"
              "\tand.b32 %r3, %r3, 0x7fffffff;\n\tor.b32 %r3, %r3, %r4;\n", in);
    for (std::uint32_t value : all)
        EXPECT_EQ(value, 0xffffffffu); // lanes 0-30 from the mask, bit 31 from p
    // Not all the same: 0 and p clear; over a member mask of half the warp they agree again.
    const std::vector<std::uint32_t> split = run32("\tmatch.all.sync.b32 %r3|%p1, %r12, 0xffffffff;\n"
                                                   "\t@%p1 mov.u32 %r3, 99;\n", in);
    for (std::uint32_t value : split)
        EXPECT_EQ(value, 0u);
    const std::vector<std::uint32_t> lowHalf = run32("\tsetp.lt.u32 %p2, %r1, 16;\n"
                                                     "\t@%p2 match.all.sync.b32 %r3, %r12, 0x0000ffff;\n", in);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(lowHalf[lane], lane < 16 ? 0x0000ffffu : 0u) << lane;
    // 64-bit values: equal low words, different high words do not match.
    std::vector<Inputs> wide(32);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        wide[lane] = {5, lane & 1, 0, 0};
    const std::vector<std::uint32_t> any64 =
        run32("\tmov.b64 %rd6, {%r10, %r11};\n\tmatch.any.sync.b64 %r3, %rd6, 0xffffffff;\n", wide);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(any64[lane], (lane & 1) ? 0xaaaaaaaau : 0x55555555u) << lane;
}

// redux.sync: every member gets the reduction of the members' values.
TEST(PtxInstructions, ReduxSyncReducesOverTheMembers)
{
    std::vector<Inputs> in(32);
    std::int64_t sum = 0;
    std::int32_t low = INT32_MAX, high = INT32_MIN;
    std::uint32_t andAll = ~0u, orAll = 0, xorAll = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        const std::int32_t value = static_cast<std::int32_t>(lane * 37) - 500;
        in[lane] = {static_cast<std::uint32_t>(value)};
        sum += value;
        low = std::min(low, value);
        high = std::max(high, value);
        andAll &= static_cast<std::uint32_t>(value);
        orAll |= static_cast<std::uint32_t>(value);
        xorAll ^= static_cast<std::uint32_t>(value);
    }
    auto all = [&](const char* op) { return run32(std::string("\tredux.sync.") + op + " %r3, %r10, 0xffffffff;\n", in); };
    EXPECT_EQ(all("add.s32"), std::vector<std::uint32_t>(32, static_cast<std::uint32_t>(sum)));
    EXPECT_EQ(all("add.u32"), std::vector<std::uint32_t>(32, static_cast<std::uint32_t>(sum)));
    EXPECT_EQ(all("min.s32"), std::vector<std::uint32_t>(32, static_cast<std::uint32_t>(low)));
    EXPECT_EQ(all("max.s32"), std::vector<std::uint32_t>(32, static_cast<std::uint32_t>(high)));
    // Unsigned, the negative values are the largest: 18 (lane 14) is the least, -19 (lane 13) the most.
    EXPECT_EQ(all("min.u32"), std::vector<std::uint32_t>(32, 18u));
    EXPECT_EQ(all("max.u32"), std::vector<std::uint32_t>(32, static_cast<std::uint32_t>(-19)));
    EXPECT_EQ(all("and.b32"), std::vector<std::uint32_t>(32, andAll));
    EXPECT_EQ(all("or.b32"), std::vector<std::uint32_t>(32, orAll));
    EXPECT_EQ(all("xor.b32"), std::vector<std::uint32_t>(32, xorAll));
    // Lanes 8..15 only, with their member mask: the other lanes keep their 0.
    const std::vector<std::uint32_t> part = run32("\tsetp.ge.u32 %p1, %r1, 8;\n\tsetp.lt.and.u32 %p1, %r1, 16, %p1;\n"
                                                  "\t@%p1 redux.sync.add.u32 %r3, %r1, 0x0000ff00;\n", in);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(part[lane], lane >= 8 && lane < 16 ? 8u + 9 + 10 + 11 + 12 + 13 + 14 + 15 : 0u) << lane;
}

TEST(PtxInstructions, NanosleepOnlyPasses)
{
    EXPECT_EQ(run32("\tnanosleep.u32 100;\n\tnanosleep.u32 %r10;\n\tadd.u32 %r3, %r10, 1;\n", {{41}}), std::vector<std::uint32_t>{42u});
}

// What real kernels compile to: expf, rsqrtf, __expf, tanhf, __logf, __sinf/__cosf each match the
// host's function to the bound their instructions allow (a few float ulps end to end).
TEST(PtxInstructions, FastMathFromCudaIsCloseToTheHostsFunctions)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void fast(const float* x, float* y)
{
    int i = threadIdx.x;
    float v = x[i];
    y[8 * i + 0] = expf(v);
    y[8 * i + 1] = rsqrtf(fabsf(v) + 0.5f);
    y[8 * i + 2] = __expf(v);
    y[8 * i + 3] = tanhf(v);
    y[8 * i + 4] = __logf(fabsf(v) + 0.5f);
    y[8 * i + 5] = __sinf(v);
    y[8 * i + 6] = __cosf(v);
    y[8 * i + 7] = logf(fabsf(v) + 0.5f);
}
)", "fast");
    std::vector<float> in;
    for (int i = 0; i < 64; ++i)
        in.push_back(-8.0f + 0.25f * static_cast<float>(i) + 0.013f);
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {64, 1, 1},
                                                   {bufferArg("x", sim::ElementType::F32, in),
                                                    bufferArg("y", sim::ElementType::F32, std::vector<float>(8 * 64, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed);
    EXPECT_TRUE(result.hazards.empty());
    const std::vector<float> out = bufferValues<float>(result, "y");
    for (int i = 0; i < 64; ++i) {
        const double v = in[static_cast<std::size_t>(i)];
        const double expected[8] = {std::exp(v), 1 / std::sqrt(std::fabs(v) + 0.5), std::exp(v), std::tanh(v),
                                    std::log(std::fabs(v) + 0.5), std::sin(v), std::cos(v), std::log(std::fabs(v) + 0.5)};
        // expf, logf, tanhf: CUDA's accurate functions (2 ulp); the intrinsics: their bounds plus the
        // scaling by log2(e) in float.
        const double relative[8] = {4e-7, 4e-7, 2e-6, 2e-6, 0, 0, 0, 4e-7};
        const double absolute[8] = {0, 0, 0, 1e-6, 2e-6, 2e-6, 2e-6, 2e-7};
        for (int k = 0; k < 8; ++k) {
            const double got = out[static_cast<std::size_t>(8 * i + k)];
            EXPECT_LE(std::fabs(got - expected[k]), relative[k] * std::fabs(expected[k]) + absolute[k])
                << "function " << k << " at " << v;
        }
    }
}
