// Number formats against independent references: GCC's own _Float16 conversion (all edge cases and
// tens of millions of random floats), the classic bit-trick BF16 rounding, every 8- and 16-bit
// pattern round-tripping, and hand-checked boundaries of each format.
#include "numerics/number_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace warpscope::numerics;

namespace {

std::uint16_t gccHalfBits(float value)
{
    const _Float16 half = static_cast<_Float16>(value);
    std::uint16_t bits;
    std::memcpy(&bits, &half, 2);
    return bits;
}

// Round-to-nearest-even FP32 -> BF16 by the widely used bit trick (NaN handled separately).
std::uint16_t bitTrickBf16(float value)
{
    const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
    return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

bool isNanBits(Format format, std::uint32_t bits) { return std::isnan(decode(format, bits)); }

} // namespace

TEST(NumberFormat, EveryPatternRoundTrips)
{
    for (Format format : {Format::FP16, Format::BF16, Format::FP8E4M3, Format::FP8E5M2, Format::INT8, Format::UINT8, Format::INT4}) {
        const int bits = formatInfo(format).bits;
        int nans = 0;
        for (std::uint32_t pattern = 0; pattern < (1u << bits); ++pattern) {
            if (isNanBits(format, pattern)) {
                ++nans;
                continue;
            }
            ASSERT_EQ(encode(format, decode(format, pattern)), pattern) << formatInfo(format).key << " " << pattern;
        }
        // NaN patterns, counted by hand: FP16 2 x (2^10 - 1), BF16 2 x (2^7 - 1), E4M3 two (S.1111.111),
        // E5M2 2 x 3, integers none.
        const int expected = format == Format::FP16 ? 2046 : format == Format::BF16 ? 254 : format == Format::FP8E4M3 ? 2
                           : format == Format::FP8E5M2 ? 6 : 0;
        EXPECT_EQ(nans, expected) << formatInfo(format).key;
    }
}

TEST(NumberFormat, Fp16MatchesGccOnEdgeCases)
{
    const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e9f,
                           std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           6.103515625e-05f /* 2^-14 */, 6.0975552e-05f /* largest subnormal */,
                           5.9604645e-08f /* 2^-24 */, 2.9802322e-08f /* 2^-25: tie to 0 */, 2.9802326e-08f,
                           8.940697e-08f /* 1.5 x 2^-24: tie to 2^-23 */, 1.0009765625f /* 1 + 2^-10 */,
                           1.00048828125f /* 1 + 2^-11: tie to 1 */, 1.00146484375f /* tie up to even */,
                           std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(), 0.1f, 1.0f / 3.0f};
    for (float value : edges)
        EXPECT_EQ(encode(Format::FP16, value), gccHalfBits(value)) << value;
}

TEST(NumberFormat, Fp16MatchesGccOnRandomFloats)
{
    std::mt19937 generator(20261122);
    int compared = 0;
    // 16 M random bit patterns (every exponent and sign), plus 4 M values near FP16's range.
    for (int i = 0; i < (1 << 24); ++i) {
        const float value = std::bit_cast<float>(static_cast<std::uint32_t>(generator()));
        if (std::isnan(value))
            continue;
        ASSERT_EQ(encode(Format::FP16, value), gccHalfBits(value)) << std::hexfloat << value;
        ++compared;
    }
    std::uniform_real_distribution<float> nearRange(-70000.0f, 70000.0f);
    std::uniform_real_distribution<float> tiny(-1e-4f, 1e-4f);
    for (int i = 0; i < (1 << 21); ++i) {
        const float a = nearRange(generator), b = tiny(generator);
        ASSERT_EQ(encode(Format::FP16, a), gccHalfBits(a)) << std::hexfloat << a;
        ASSERT_EQ(encode(Format::FP16, b), gccHalfBits(b)) << std::hexfloat << b;
        compared += 2;
    }
    EXPECT_GT(compared, 20'000'000);
}

TEST(NumberFormat, Bf16MatchesTheBitTrick)
{
    std::mt19937 generator(7);
    for (int i = 0; i < (1 << 22); ++i) {
        const float value = std::bit_cast<float>(static_cast<std::uint32_t>(generator()));
        if (std::isnan(value))
            continue;
        ASSERT_EQ(encode(Format::BF16, value), bitTrickBf16(value)) << std::hexfloat << value;
    }
    // BF16's max is 3.3895e38; 3.4e38 lies past the halfway point to 2^128 (3.3962e38): infinity.
    EXPECT_EQ(encode(Format::BF16, 3.4e38f), 0x7F80u);
    EXPECT_EQ(encode(Format::BF16, 3.3e38f), 0x7F78u);
}

TEST(NumberFormat, BoundariesByHand)
{
    // FP16: max 65504 = 0x7BFF; min normal 2^-14 = 0x0400; min subnormal 2^-24 = 0x0001.
    EXPECT_EQ(maxFinite(Format::FP16), 65504.0);
    EXPECT_EQ(minNormal(Format::FP16), std::ldexp(1.0, -14));
    EXPECT_EQ(minSubnormal(Format::FP16), std::ldexp(1.0, -24));
    EXPECT_EQ(encode(Format::FP16, 65504.0), 0x7BFFu);
    EXPECT_EQ(encode(Format::FP16, 65520.0), 0x7C00u);                      // half an ULP past max: inf
    EXPECT_EQ(encode(Format::FP16, 65520.0, Overflow::Saturate), 0x7BFFu);
    EXPECT_EQ(encode(Format::FP16, std::ldexp(1.0, -25)), 0x0000u);        // tie between 0 and 2^-24: even
    EXPECT_EQ(encode(Format::FP16, std::ldexp(1.5, -24)), 0x0002u);        // tie between 1 and 2 ULPs: even
    // BF16: max (2 - 2^-7) x 2^127 = 0x7F7F; min normal 2^-126; min subnormal 2^-133.
    EXPECT_EQ(maxFinite(Format::BF16), std::ldexp(2.0 - std::ldexp(1.0, -7), 127));
    EXPECT_EQ(minSubnormal(Format::BF16), std::ldexp(1.0, -133));
    EXPECT_EQ(encode(Format::BF16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);    // tie: stays at even 1.0
    EXPECT_EQ(encode(Format::BF16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u); // tie: up to even
    // TF32: FP32's range, 10 mantissa bits, stored in the top 19 bits of an FP32 word.
    EXPECT_EQ(encode(Format::TF32, 1.0 + std::ldexp(1.0, -11)), 0x3F800000u);
    EXPECT_EQ(encode(Format::TF32, 1.0 + std::ldexp(1.0, -10)), 0x3F802000u);
    EXPECT_EQ(maxFinite(Format::TF32), std::ldexp(2.0 - std::ldexp(1.0, -10), 127));
    EXPECT_EQ(*nextUp(Format::TF32, 0x3F800000u), 0x3F802000u);
    // E4M3: max 448 = S.1111.110; 464 ties to 448; past it NaN (no infinity); min normal 2^-6,
    // min subnormal 2^-9.
    EXPECT_EQ(maxFinite(Format::FP8E4M3), 448.0);
    EXPECT_EQ(encode(Format::FP8E4M3, 448.0), 0x7Eu);
    EXPECT_EQ(encode(Format::FP8E4M3, 464.0), 0x7Eu);
    EXPECT_EQ(encode(Format::FP8E4M3, 465.0), 0x7Fu);
    EXPECT_TRUE(std::isnan(decode(Format::FP8E4M3, encode(Format::FP8E4M3, 1e6))));
    EXPECT_EQ(encode(Format::FP8E4M3, -1e6, Overflow::Saturate), 0xFEu);
    EXPECT_EQ(encode(Format::FP8E4M3, INFINITY, Overflow::Saturate), 0x7Eu);
    EXPECT_EQ(decode(Format::FP8E4M3, 0x78), 256.0); // all-ones exponent is still a normal value
    EXPECT_EQ(minNormal(Format::FP8E4M3), std::ldexp(1.0, -6));
    EXPECT_EQ(minSubnormal(Format::FP8E4M3), std::ldexp(1.0, -9));
    EXPECT_EQ(encode(Format::FP8E4M3, std::ldexp(1.0, -10)), 0x00u);      // tie to even 0
    // E5M2: max 57344 = 0x7B; 61440 (half an ULP past) -> inf; min normal 2^-14, subnormal 2^-16.
    EXPECT_EQ(maxFinite(Format::FP8E5M2), 57344.0);
    EXPECT_EQ(encode(Format::FP8E5M2, 61439.0), 0x7Bu);
    EXPECT_EQ(encode(Format::FP8E5M2, 61440.0), 0x7Cu);
    EXPECT_EQ(minSubnormal(Format::FP8E5M2), std::ldexp(1.0, -16));
    // Integers: round half to even, saturate.
    EXPECT_EQ(decode(Format::INT8, encode(Format::INT8, 2.5)), 2.0);
    EXPECT_EQ(decode(Format::INT8, encode(Format::INT8, -3.5)), -4.0);
    EXPECT_EQ(decode(Format::INT8, encode(Format::INT8, 300.0)), 127.0);
    EXPECT_EQ(decode(Format::INT8, encode(Format::INT8, -300.0)), -128.0);
    EXPECT_EQ(decode(Format::INT4, encode(Format::INT4, 7.6)), 7.0);
    EXPECT_EQ(decode(Format::INT4, encode(Format::INT4, -9.0)), -8.0);
    EXPECT_EQ(decode(Format::UINT8, encode(Format::UINT8, -1.0)), 0.0);
}

TEST(NumberFormat, SignedZerosNanAndNeighbours)
{
    EXPECT_EQ(encode(Format::FP16, -0.0), 0x8000u);
    EXPECT_EQ(encode(Format::FP8E4M3, -0.0), 0x80u);
    EXPECT_EQ(encode(Format::FP16, std::nan("")), 0x7E00u);
    EXPECT_EQ(encode(Format::FP8E4M3, std::nan("")), 0x7Fu);
    EXPECT_EQ(classify(Format::FP16, 0x0001), ValueClass::Subnormal);
    EXPECT_EQ(classify(Format::FP16, 0x0400), ValueClass::Normal);
    EXPECT_EQ(classify(Format::FP16, 0x7C00), ValueClass::Infinity);
    EXPECT_EQ(classify(Format::FP8E4M3, 0x7F), ValueClass::NaN);
    EXPECT_EQ(classify(Format::FP8E4M3, 0x7E), ValueClass::Normal);
    EXPECT_EQ(*nextUp(Format::FP16, 0x3C00), 0x3C01u);          // 1 + 2^-10
    EXPECT_EQ(*nextDown(Format::FP16, 0x3C00), 0x3BFFu);        // 1 - 2^-11
    EXPECT_EQ(*nextUp(Format::FP16, 0x8000), 0x0001u);          // -0 -> smallest subnormal
    EXPECT_EQ(*nextDown(Format::FP16, 0x0000), 0x8001u);
    EXPECT_EQ(*nextDown(Format::FP16, 0x0001), 0x0000u);
    EXPECT_FALSE(nextUp(Format::FP16, 0x7BFF).has_value());      // max has no finite neighbour above
    EXPECT_EQ(*nextDown(Format::FP16, 0x7C00), 0x7BFFu);
    EXPECT_FALSE(nextUp(Format::FP8E4M3, 0x7E).has_value());
    EXPECT_FALSE(nextUp(Format::FP8E4M3, 0x7F).has_value());     // NaN
    EXPECT_EQ(*nextUp(Format::INT8, 0x7E), 0x7Fu);
    EXPECT_FALSE(nextUp(Format::INT8, 0x7F).has_value());
    EXPECT_EQ(*nextDown(Format::INT8, 0x80 + 1), 0x80u);
    EXPECT_EQ(hexBits(Format::FP16, 0x3C00), "0x3C00");
    EXPECT_EQ(fieldBits(Format::FP16, 0x3C00), "0 01111 0000000000");
    EXPECT_EQ(fieldBits(Format::FP8E4M3, 0x7E), "0 1111 110");
    EXPECT_EQ(parseFormat("bf16"), Format::BF16);
    EXPECT_FALSE(parseFormat("fp64").has_value());
}

#include "numerics/stored_value.h"

TEST(StoredValue, OutcomesAreClassifiedByWhatHappened)
{
    // 65510 lies between FP16's max 65504 and the overflow threshold 65520: it rounds, it does not saturate.
    EXPECT_EQ(storeIn(Format::FP16, 65510.0, Overflow::Ieee).outcome, StoreOutcome::Rounded);
    EXPECT_EQ(storeIn(Format::FP16, 65510.0, Overflow::Saturate).outcome, StoreOutcome::Rounded);
    EXPECT_EQ(storeIn(Format::FP16, 70000.0, Overflow::Ieee).outcome, StoreOutcome::OverflowInfinity);
    EXPECT_EQ(storeIn(Format::FP16, 70000.0, Overflow::Saturate).outcome, StoreOutcome::Saturated);
    EXPECT_EQ(storeIn(Format::FP8E4M3, 500.0, Overflow::Ieee).outcome, StoreOutcome::OverflowNaN);
    EXPECT_EQ(storeIn(Format::INT8, 127.3, Overflow::Ieee).outcome, StoreOutcome::Rounded);
    EXPECT_EQ(storeIn(Format::INT8, 300.0, Overflow::Ieee).outcome, StoreOutcome::Saturated);
    EXPECT_EQ(storeIn(Format::FP16, 1e-8, Overflow::Ieee).outcome, StoreOutcome::FlushedToZero);
    EXPECT_EQ(storeIn(Format::FP16, 3e-8, Overflow::Ieee).outcome, StoreOutcome::RoundedSubnormal);
    EXPECT_EQ(storeIn(Format::FP16, 0.5, Overflow::Ieee).outcome, StoreOutcome::Exact);
    const StoredValue tenth = storeIn(Format::FP16, 0.1, Overflow::Ieee);
    EXPECT_EQ(tenth.bits, 0x2E66u);
    EXPECT_EQ(tenth.error, 0.0999755859375 - 0.1);
    EXPECT_EQ(storeInEveryFormat(0.1, Overflow::Ieee).size(), allFormats().size());
}

// --- The numbers lesson 03 (assets/lessons/03-precision.md) states, computed by the engine ---------

TEST(LessonNumbers, Fp16OverflowAndUnderflowThresholds)
{
    // Overflow: 65519 rounds down to the largest value, 65504; infinity starts at 65520, half an ULP
    // (32 / 2 = 16) above it.
    EXPECT_EQ(roundTo(Format::FP16, 65519.0), 65504.0);
    EXPECT_EQ(storeIn(Format::FP16, 65519.0, Overflow::Ieee).outcome, StoreOutcome::Rounded);
    EXPECT_TRUE(std::isinf(roundTo(Format::FP16, 65520.0)));
    EXPECT_EQ(storeIn(Format::FP16, 65520.0, Overflow::Ieee).outcome, StoreOutcome::OverflowInfinity);
    // Underflow: a gradient below the smallest subnormal 2^-24 is not lost by that alone. 3e-8 rounds
    // up to 2^-24; only magnitudes at or below 2^-25 (2.98e-8, half of it) become 0.
    EXPECT_EQ(roundTo(Format::FP16, 3e-8), std::ldexp(1.0, -24));
    EXPECT_EQ(roundTo(Format::FP16, std::ldexp(1.0, -25)), 0.0);
    EXPECT_EQ(storeIn(Format::FP16, std::ldexp(1.0, -25), Overflow::Ieee).outcome, StoreOutcome::FlushedToZero);
    EXPECT_EQ(roundTo(Format::FP16, std::nextafter(std::ldexp(1.0, -25), 1.0)), std::ldexp(1.0, -24));
    EXPECT_NEAR(std::ldexp(1.0, -25), 2.98e-8, 0.01e-8);
}

TEST(LessonNumbers, E4M3OverflowsToNanOnlyAbove464)
{
    // 448 = 1.75 x 2^8 is the largest E4M3 value; the next step would be 480, so 450 and 464 (the tie,
    // to even 448) round down; anything above 464 becomes NaN without saturation.
    EXPECT_EQ(roundTo(Format::FP8E4M3, 450.0), 448.0);
    EXPECT_EQ(roundTo(Format::FP8E4M3, 464.0), 448.0);
    EXPECT_TRUE(std::isnan(roundTo(Format::FP8E4M3, std::nextafter(464.0, 500.0))));
    EXPECT_TRUE(std::isnan(roundTo(Format::FP8E4M3, 500.0)));
    EXPECT_EQ(roundTo(Format::FP8E4M3, 500.0, Overflow::Saturate), 448.0);
}

TEST(LessonNumbers, Bf16RangeIsFp32sButNotAllOfIt)
{
    // Largest BF16 value 0x7F7F = (2 - 2^-7) x 2^127 = 3.3895e38, written 3.39e38; 3.4e38 (a finite
    // FP32 value) is past it by more than half a step and becomes infinity.
    EXPECT_EQ(encode(Format::BF16, maxFinite(Format::BF16)), 0x7F7Fu);
    EXPECT_NEAR(maxFinite(Format::BF16), 3.39e38, 0.005e38);
    EXPECT_TRUE(std::isinf(roundTo(Format::BF16, 3.4e38)));
    EXPECT_TRUE(std::isfinite(roundTo(Format::FP32, 3.4e38)));
    EXPECT_EQ(roundTo(Format::BF16, 3.39e38), maxFinite(Format::BF16));
    // The small end: BF16's smallest subnormal is 2^-133 = 9.2e-41; FP32's goes down to 2^-149. FP32
    // values at or below 2^-134 (4.6e-41) become zero in BF16, the smallest FP32 subnormal included.
    EXPECT_NEAR(minSubnormal(Format::BF16), 9.18e-41, 0.01e-41);
    EXPECT_EQ(minSubnormal(Format::FP32), std::ldexp(1.0, -149));
    EXPECT_EQ(roundTo(Format::BF16, std::ldexp(1.0, -134)), 0.0);
    EXPECT_EQ(roundTo(Format::BF16, std::ldexp(1.0, -149)), 0.0);
    EXPECT_EQ(roundTo(Format::BF16, 8e-41), std::ldexp(1.0, -133));
}

TEST(LessonNumbers, E5M2IsNotFp16sRange)
{
    // E5M2: largest 57344 = 1.75 x 2^15 (FP16: 65504); smallest subnormal 2^-16 with 2 mantissa bits
    // (FP16: 2^-24), smallest normal 2^-14 as FP16's.
    EXPECT_EQ(maxFinite(Format::FP8E5M2), 57344.0);
    EXPECT_EQ(minSubnormal(Format::FP8E5M2), std::ldexp(1.0, -16));
    EXPECT_EQ(minNormal(Format::FP8E5M2), minNormal(Format::FP16));
    EXPECT_EQ(roundTo(Format::FP8E5M2, std::ldexp(1.0, -20)), 0.0);  // an FP16 subnormal, gone in E5M2
    EXPECT_EQ(roundTo(Format::FP16, std::ldexp(1.0, -20)), std::ldexp(1.0, -20));
    EXPECT_NEAR(minSubnormal(Format::FP8E5M2), 1.53e-5, 0.01e-5);
}

TEST(LessonNumbers, SubnormalsUseExponentOneMinusBias)
{
    // value = 2^(1 - bias) x 0.m for e = 0: FP16's 0x0001 is 2^-14 x 2^-10 = 2^-24 and 0x0200 is
    // 2^-14 x 0.5 = 2^-15. Reading it as 2^(0 - bias) x 0.m would halve both.
    EXPECT_EQ(decode(Format::FP16, 0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(decode(Format::FP16, 0x0200), std::ldexp(1.0, -15));
    EXPECT_EQ(decode(Format::FP16, 0x03FF) + std::ldexp(1.0, -24), minNormal(Format::FP16)); // no gap
    EXPECT_EQ(decode(Format::FP8E4M3, 0x01), std::ldexp(1.0, 1 - 7 - 3));
}

TEST(LessonNumbers, Tf32KeepsTenMantissaBits)
{
    // 1 + 0.75 x 2^-10: rounding to 10 mantissa bits (what a library does before the Tensor Core, and
    // what Warpscope's TF32 row shows) gives 1 + 2^-10; the Tensor Core reading only the top 10 bits
    // of an unrounded FP32 operand would see 1.
    EXPECT_EQ(roundTo(Format::TF32, 1.0 + 0.75 * std::ldexp(1.0, -10)), 1.0 + std::ldexp(1.0, -10));
    EXPECT_EQ(roundTo(Format::TF32, 1.0 + 0.25 * std::ldexp(1.0, -10)), 1.0);
}

TEST(LessonNumbers, SaturationSaysWhichEndItClampedTo)
{
    // UINT8 -1 is clamped to its smallest value, 0: "saturated to the largest finite value" was wrong.
    const StoredValue minusOne = storeIn(Format::UINT8, -1.0, Overflow::Ieee);
    EXPECT_EQ(minusOne.stored, 0.0);
    EXPECT_EQ(minusOne.outcome, StoreOutcome::Saturated);
    EXPECT_EQ(storeOutcomeWords(minusOne), "saturated to the smallest value, 0");
    EXPECT_EQ(storeOutcomeWords(storeIn(Format::UINT8, 300.0, Overflow::Ieee)), "saturated to the largest value, 255");
    EXPECT_EQ(storeOutcomeWords(storeIn(Format::INT8, -300.0, Overflow::Ieee)), "saturated to the smallest value, -128");
    EXPECT_EQ(storeOutcomeWords(storeIn(Format::FP16, 70000.0, Overflow::Saturate)),
              "saturated to the largest finite value, 65504");
    EXPECT_EQ(storeOutcomeWords(storeIn(Format::FP16, -70000.0, Overflow::Saturate)),
              "saturated to the most negative finite value, -65504");
}
