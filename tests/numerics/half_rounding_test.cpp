// The trainer's fast FP16/BF16 rounding against number_format's reference roundTo, bit for bit: every
// float whose top 24 bits differ, each with its low byte 0x00 (exact multiples and exact ties at every
// rounding position from bit 8 up) and 0xFF (values just below a tie, and just above one when the tie
// bit is set), which covers both signs, zeros, subnormals, both formats' subnormal and normal ranges,
// the overflow boundary, infinities and NaNs; then hand-checked cases.
#include "numerics/half_rounding.h"
#include "numerics/number_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace warpscope::numerics;

namespace {

bool sameFloat(float a, float b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

template <class Fast>
void expectEquivalent(Format format, Fast fast)
{
    std::uint64_t checked = 0, mismatches = 0;
    for (std::uint32_t top = 0; top < (1u << 24); ++top) {
        for (std::uint32_t low : {0x00u, 0xFFu}) {
            const float x = std::bit_cast<float>((top << 8) | low);
            const float expected = roundTo(format, x);
            const float actual = fast(x);
            ++checked;
            if (!sameFloat(expected, actual) && ++mismatches <= 5)
                ADD_FAILURE() << formatInfo(format).key << " of " << std::hexfloat << x << ": reference " << expected
                              << ", fast " << actual;
        }
    }
    EXPECT_EQ(checked, std::uint64_t{1} << 25);
    EXPECT_EQ(mismatches, 0u);
}

} // namespace

TEST(HalfRounding, Fp16MatchesNumberFormatOnEveryTopPattern)
{
    expectEquivalent(Format::FP16, [](float x) { return roundToFp16Fast(x); });
}

TEST(HalfRounding, Bf16MatchesNumberFormatOnEveryTopPattern)
{
    expectEquivalent(Format::BF16, [](float x) { return roundToBf16Fast(x); });
}

TEST(HalfRounding, Fp16HandCheckedCases)
{
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(roundToFp16Fast(65504.0f), 65504.0f);        // largest FP16
    EXPECT_EQ(roundToFp16Fast(65519.99f), 65504.0f);       // below 65504 + half an ULP (16)
    EXPECT_EQ(roundToFp16Fast(65520.0f), inf);             // the tie goes to even: 2^16, past the range
    EXPECT_EQ(roundToFp16Fast(-1e9f), -inf);
    EXPECT_EQ(roundToFp16Fast(1.0f + 0x1p-11f), 1.0f);     // tie between 1 and 1 + 2^-10: even is 1
    EXPECT_EQ(roundToFp16Fast(1.0f + 0x3p-11f), 1.0f + 0x1p-9f); // tie between 1+2^-10 and 1+2^-9: even
    EXPECT_EQ(roundToFp16Fast(0x1p-24f), 0x1p-24f);        // smallest subnormal
    EXPECT_EQ(roundToFp16Fast(0x1p-25f), 0.0f);            // half of it: tie to even, zero
    EXPECT_EQ(roundToFp16Fast(0x1.000002p-25f), 0x1p-24f); // just above half: rounds up
    EXPECT_EQ(roundToFp16Fast(0x3p-25f), 0x2p-24f);        // 1.5 x 2^-24: tie to even, 2 x 2^-24
    EXPECT_EQ(roundToFp16Fast(0x1.ffcp-15f), 0x1p-14f);    // 1023.5 x 2^-24 ties to the even 1024 x 2^-24 = 2^-14
    EXPECT_EQ(roundToFp16Fast(0x1.ff4p-15f), 0x1.ff0p-15f); // 1022.5 x 2^-24 ties to the even 1022 x 2^-24
    EXPECT_TRUE(std::signbit(roundToFp16Fast(-1e-30f)));  // flushes to -0
    EXPECT_TRUE(std::isnan(roundToFp16Fast(std::numeric_limits<float>::quiet_NaN())));
}

TEST(HalfRounding, Bf16HandCheckedCases)
{
    EXPECT_EQ(roundToBf16Fast(1.0f + 0x1p-8f), 1.0f);                 // tie: even is 1
    EXPECT_EQ(roundToBf16Fast(1.0f + 0x3p-8f), 1.0f + 0x1p-6f);       // tie: even is 1 + 2^-6
    EXPECT_EQ(roundToBf16Fast(0x1p-130f), 0x1p-130f);                 // BF16 keeps FP32's subnormal range
    EXPECT_EQ(roundToBf16Fast(std::numeric_limits<float>::max()), std::numeric_limits<float>::infinity());
    EXPECT_EQ(roundToBf16Fast(0x1.fep127f), 0x1.fep127f);             // largest BF16
    EXPECT_TRUE(std::isnan(roundToBf16Fast(-std::numeric_limits<float>::quiet_NaN())));
}
