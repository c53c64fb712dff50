// Fast float -> FP16 / BF16 -> float rounding for the trainer's inner loops: branch-free bit
// arithmetic that compilers vectorise, giving bit for bit what roundTo(Format::FP16 / BF16, float)
// in number_format.h gives (round to nearest even, overflow to infinity as PyTorch's casts, signed
// zeros, subnormals), only much faster. tests/numerics/half_rounding_test.cpp checks the equality on
// every float whose top 24 bits differ (each with several low-byte patterns: exact ties, just above
// and just below them). NaN stays NaN (its payload is not preserved).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

namespace warpscope::numerics {

// x rounded to the nearest FP16 value, returned as a float. Written with integer selects only (no
// branches, no float compares) so that loops over it vectorise; for non-negative floats the order of
// the bit patterns, as signed integers, is the order of the values.
inline float roundToFp16Fast(float x)
{
    const std::int32_t bits = std::bit_cast<std::int32_t>(x);
    const std::int32_t magnitudeBits = bits & 0x7FFFFFFF;
    // Normal FP16 range: keep 10 of FP32's 23 mantissa bits, ties to even (the carry may move the
    // value up a binade, which the exponent field absorbs). Unsigned, because a NaN's bits near
    // 0x7FFFFFFF would overflow a signed sum (that result is replaced by the NaN below).
    const auto magnitudeUnsigned = static_cast<std::uint32_t>(magnitudeBits);
    const auto normalBits =
        static_cast<std::int32_t>((magnitudeUnsigned + 0x0FFFu + ((magnitudeUnsigned >> 13) & 1u)) & ~0x1FFFu);
    // Below FP16's smallest normal (2^-14) the grid is multiples of 2^-24: adding 0.5 moves the value
    // to the binade [0.5, 1) whose FP32 spacing is exactly 2^-24, so the FPU's own ties-to-even
    // addition rounds it; subtracting 0.5 again is exact.
    const float magnitude = std::bit_cast<float>(magnitudeBits);
    const std::int32_t subnormalBits = std::bit_cast<std::int32_t>((magnitude + 0.5f) - 0.5f);
    const std::int32_t isSubnormal = -static_cast<std::int32_t>(magnitudeBits < 0x38800000); // 2^-14
    std::int32_t rounded = (subnormalBits & isSubnormal) | (normalBits & ~isSubnormal);
    // Past 65504 + 16 (half an ULP) the nearest-even result is 2^16, which FP16 cannot hold: infinity.
    const std::int32_t overflows = -static_cast<std::int32_t>(rounded >= 0x47800000); // 65536.0f
    rounded = (0x7F800000 & overflows) | (rounded & ~overflows);
    const std::int32_t isNan = -static_cast<std::int32_t>(magnitudeBits > 0x7F800000);
    rounded = (magnitudeBits & isNan) | (rounded & ~isNan); // NaN stays NaN
    return std::bit_cast<float>(rounded | (bits & static_cast<std::int32_t>(0x80000000u)));
}

// x rounded to the nearest BF16 value (FP32 with 7 mantissa bits), returned as a float.
inline float roundToBf16Fast(float x)
{
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    // Ties to even on bit 16; a carry out of the mantissa is the next binade, or infinity past the
    // largest BF16 value, exactly as IEEE overflow wants.
    const std::uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
    const std::uint32_t isNan = 0u - static_cast<std::uint32_t>((bits & 0x7FFFFFFFu) > 0x7F800000u);
    return std::bit_cast<float>((bits & isNan) | (rounded & ~isNan)); // NaN stays NaN
}

// Rounding policies for the trainer's templated kernels: each rounds one float to its format.
struct KeepFp32 {
    float operator()(float x) const { return x; }
};
struct RoundFp16 {
    float operator()(float x) const { return roundToFp16Fast(x); }
};
struct RoundBf16 {
    float operator()(float x) const { return roundToBf16Fast(x); }
};

} // namespace warpscope::numerics
