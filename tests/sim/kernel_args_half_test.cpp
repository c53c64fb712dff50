// The argument-spec language's f16 and bf16 types (kernels/README.md): scalars and buffer
// initialisers rounded to nearest even, out-of-range and non-number values refused, elements
// printed as numbers that read back, and a CUDA kernel taking both end to end. Expected patterns
// come from the textbook formulas and a search over every pattern, not from the implementation.
#include "sim_test_support.h"
#include "kernel_args_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::sim;
using namespace warpscope::sim::args_test;

// ---- f16 and bf16 ----------------------------------------------------------------------------------

namespace {

// A 16-bit pattern's value by the textbook formula: binary16 has 5 exponent bits biased by 15 and
// 10 fraction bits, bfloat16 8 and 7 (biased by 127); exponent 0 is subnormal, all ones inf/NaN.
double halfValue(std::uint16_t bits, bool bfloat)
{
    const int fractionBits = bfloat ? 7 : 10, bias = bfloat ? 127 : 15, allOnes = bfloat ? 0xff : 0x1f;
    const int exponent = (bits >> fractionBits) & allOnes, fraction = bits & ((1 << fractionBits) - 1);
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (exponent == allOnes)
        return fraction ? std::nan("") : sign * HUGE_VAL;
    if (exponent == 0)
        return sign * std::ldexp(fraction, 1 - bias - fractionBits);
    return sign * std::ldexp((1 << fractionBits) + fraction, exponent - bias - fractionBits);
}

// The pattern nearest to `value` by search over every finite pattern, ties to the even pattern.
std::uint16_t nearestHalf(double value, bool bfloat)
{
    std::uint16_t best = 0;
    double bestDistance = HUGE_VAL;
    for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
        const double candidate = halfValue(static_cast<std::uint16_t>(bits), bfloat);
        if (!std::isfinite(candidate))
            continue;
        const double distance = std::fabs(candidate - value);
        if (distance < bestDistance || (distance == bestDistance && (bits & 1u) == 0 && candidate != 0)) {
            best = static_cast<std::uint16_t>(bits);
            bestDistance = distance;
        }
    }
    return best;
}

std::uint16_t halfBits(const ResolvedArg& arg, std::size_t index = 0)
{
    return arg.isBuffer ? element<std::uint16_t>(arg, index) : static_cast<std::uint16_t>(arg.scalarBits);
}

} // namespace

// Scalars round to nearest even; the patterns are worked out by hand.
TEST(ArgHalf, ScalarsRoundToNearestEven)
{
    const auto args = resolve({"a=f16:1.5", "b=bf16:-2.5", "c=f16:0.1", "d=bf16:0.1", "e=f16:2049", "f=f16:2051",
                               "g=f16:65504", "h=f16:65519", "i=f16:1e-8", "j=f16:6e-8", "k=bf16:3.39e38", "l=f16:-0"});
    EXPECT_EQ(halfBits(byName(args, "a")), 0x3e00u); // 1.5: exponent 15, fraction .5
    EXPECT_EQ(halfBits(byName(args, "b")), 0xc020u); // -2.5 = -1.25 * 2: sign, exponent 128, fraction .25
    EXPECT_EQ(halfBits(byName(args, "c")), 0x2e66u); // 0.1 = 1.6 * 2^-4: fraction 0.6 * 1024 = 614.4 -> 614
    EXPECT_EQ(halfBits(byName(args, "d")), 0x3dcdu); // 0.1: fraction 0.6 * 128 = 76.8 -> 77
    EXPECT_EQ(halfBits(byName(args, "e")), 0x6800u); // 2049: tie between 2048 and 2050, to even 2048
    EXPECT_EQ(halfBits(byName(args, "f")), 0x6802u); // 2051: tie between 2050 and 2052, to even 2052
    EXPECT_EQ(halfBits(byName(args, "g")), 0x7bffu); // the largest f16
    EXPECT_EQ(halfBits(byName(args, "h")), 0x7bffu); // below the tie at 65520: rounds down to it
    EXPECT_EQ(halfBits(byName(args, "i")), 0x0000u); // below half the smallest subnormal 2^-24
    EXPECT_EQ(halfBits(byName(args, "j")), 0x0001u); // nearest to 2^-24 = 5.96e-8
    EXPECT_EQ(halfBits(byName(args, "k")), 0x7f7fu); // nearest: the largest bf16, 3.3895e38 (spacing 2^120)
    EXPECT_EQ(halfBits(byName(args, "l")), 0x8000u);
    EXPECT_DOUBLE_EQ(byName(args, "a").realValue, 1.5);
    EXPECT_TRUE(integerScalars(args).empty()); // f16 and bf16 are not integer scalars
    EXPECT_TRUE(contains(resolveError({"h=f16:1", "n=i32:h"}), "'h' is not an integer scalar argument"));
}

// Past the range (a value that rounds to infinity) or not a finite number: one line naming the
// argument, the value and the limit.
TEST(ArgHalf, OutOfRangeAndNotANumberAreRejected)
{
    EXPECT_EQ(parseError("h=f16:65520"),
              "argument 'h=f16:65520': 65520 is out of range for f16 (it rounds to infinity; the largest f16 is 65504)");
    EXPECT_TRUE(contains(parseError("h=f16:-1e5"), "-1e+05 is out of range for f16"));
    EXPECT_TRUE(contains(parseError("b=bf16:3.4e38"), "out of range for bf16 (it rounds to infinity; the largest bf16 is 3.3895314e+38)"));
    EXPECT_TRUE(contains(parseError("h=f16[4]:fill(70000)"), "70000 is out of range for f16"));
    EXPECT_EQ(parseError("h=f16:abc"), "argument 'h=f16:abc': 'abc' is not a finite number");
    parseError("h=f16:nan");
    parseError("h=bf16:inf");
    parseError("h=f16[4]:fill(x)");
    parseError("h=f16[4]:random_int(0,1,2)");
    // iota up to 65519 ends at 65504; one more element would be 65520, which rounds to infinity.
    EXPECT_EQ(halfBits(byName(resolve({"h=f16[65520]:iota"}), "h"), 65519), 0x7bffu);
    EXPECT_TRUE(contains(resolveError({"h=f16[65521]:iota"}), "65520 is out of range for f16"));
}

TEST(ArgHalf, BufferInitialisers)
{
    const auto args = resolve({"h=f16[5]:iota", "b=bf16[3]:fill(-1)", "r=f16[64]:random(0)", "s=bf16[64]:random(0)",
                               "z=bf16[2]", "i=bf16[300]:iota"});
    const std::uint16_t iota[] = {0x0000, 0x3c00, 0x4000, 0x4200, 0x4400}; // 0, 1, 2, 3, 4
    for (std::size_t k = 0; k < 5; ++k)
        EXPECT_EQ(halfBits(byName(args, "h"), k), iota[k]);
    EXPECT_EQ(byName(args, "h").bytes.size(), 10u);
    for (std::size_t k = 0; k < 3; ++k)
        EXPECT_EQ(halfBits(byName(args, "b"), k), 0xbf80u);
    EXPECT_EQ(byName(args, "z").bytes, std::vector<std::uint8_t>(4, 0));
    // bf16 holds integers exactly up to 256; 257 ties to even (256), 259 to 260.
    EXPECT_EQ(halfBits(byName(args, "i"), 256), 0x4380u);
    EXPECT_EQ(halfBits(byName(args, "i"), 257), 0x4380u);
    EXPECT_EQ(halfBits(byName(args, "i"), 259), 0x4382u);
    // random(SEED): the README's value for each SplitMix64 output, rounded to the nearest pattern.
    ReferenceSplitMix64 random{0};
    for (std::size_t k = 0; k < 64; ++k) {
        const double unit = unitFromDraw(random.next());
        EXPECT_EQ(halfBits(byName(args, "r"), k), nearestHalf(unit, false)) << unit;
        EXPECT_EQ(halfBits(byName(args, "s"), k), nearestHalf(unit, true)) << unit;
    }
}

// --dump prints the number each pattern holds, with enough digits to read back as the same pattern.
TEST(ArgHalf, FormatPrintsNumbers)
{
    ResolvedArg arg;
    arg.isBuffer = true;
    auto text = [&](ElementType type, std::uint16_t bits) {
        arg.type = type;
        const std::vector<std::uint8_t> bytes{static_cast<std::uint8_t>(bits), static_cast<std::uint8_t>(bits >> 8)};
        return formatElement(arg, bytes, 0);
    };
    EXPECT_EQ(text(ElementType::F16, 0x3e00), "1.5");
    EXPECT_EQ(text(ElementType::F16, 0x2e66), "0.099976"); // 0.0999755859375
    EXPECT_EQ(text(ElementType::F16, 0x7bff), "65504");
    EXPECT_EQ(text(ElementType::F16, 0xc000), "-2");
    EXPECT_EQ(text(ElementType::F16, 0x8000), "-0");
    EXPECT_EQ(text(ElementType::F16, 0x0001), "5.9605e-08"); // 2^-24
    EXPECT_EQ(text(ElementType::F16, 0x7c00), "inf");
    EXPECT_EQ(text(ElementType::F16, 0xfc00), "-inf");
    EXPECT_EQ(text(ElementType::BF16, 0x3dcd), "0.1001"); // 0.10009765625
    EXPECT_EQ(text(ElementType::BF16, 0xc020), "-2.5");
    EXPECT_EQ(text(ElementType::BF16, 0x7f7f), "3.39e+38");
    EXPECT_TRUE(contains(text(ElementType::BF16, 0x7fc0), "nan"));
    // Every finite pattern of both formats reads back as itself through a scalar spec.
    for (const auto& [type, name, bfloat] : {std::tuple{ElementType::F16, "f16", false}, std::tuple{ElementType::BF16, "bf16", true}})
        for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
            if (!std::isfinite(halfValue(static_cast<std::uint16_t>(bits), bfloat)))
                continue;
            const std::string printed = text(type, static_cast<std::uint16_t>(bits));
            const auto back = resolve({std::string("x=") + name + ":" + printed});
            ASSERT_EQ(back[0].scalarBits, bits) << name << " " << printed;
        }
    EXPECT_DOUBLE_EQ(floatElementValue(ElementType::F16, 0x3e00), 1.5);
    EXPECT_DOUBLE_EQ(floatElementValue(ElementType::BF16, 0xc020), -2.5);
}

// End to end: a kernel takes f16 and bf16 buffers and scalars (2 bytes by value) from specs, and
// --dump's formatting shows the products as numbers.
TEST(ArgHalf, KernelsReceiveHalfBuffersAndScalars)
{
    const testing_support::CompiledKernel kernel = testing_support::compileKernel(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void scale(const __half* x, __half s, __half* y, const __nv_bfloat16* bx, __nv_bfloat16 bs,
                                 __nv_bfloat16* by, int n)
{
    const int i = threadIdx.x;
    if (i < n) {
        y[i] = __hmul(x[i], s);
        by[i] = __hmul(bx[i], bs);
    }
}
)", "scale", "compute_80");
    const sim::SimResult result = testing_support::simulateKernel(
        kernel, {1, 1, 1}, {8, 1, 1}, {"x=f16[8]:iota", "s=f16:0.5", "y=f16[8]", "bx=bf16[8]:iota", "bs=bf16:-1.5", "by=bf16[8]", "n=i32:8"});
    ASSERT_EQ(result.status, SimStatus::Completed) << result.statusMessage;
    const char* halves[] = {"0", "0.5", "1", "1.5", "2", "2.5", "3", "3.5"};
    const char* products[] = {"-0", "-1.5", "-3", "-4.5", "-6", "-7.5", "-9", "-10.5"};
    const ResolvedArg& y = byName(result.args, "y");
    const ResolvedArg& by = byName(result.args, "by");
    for (std::uint64_t i = 0; i < 8; ++i) {
        EXPECT_EQ(formatElement(y, y.bytes, i), halves[i]);
        EXPECT_EQ(formatElement(by, by.bytes, i), products[i]);
    }
}
