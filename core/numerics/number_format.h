// Bit-exact number formats of deep learning: FP32, TF32, FP16 (IEEE binary16), BF16, FP8 E4M3
// (OCP "E4M3FN": no infinity, max 448, NaN only S.1111.111), FP8 E5M2 (IEEE-like, max 57344),
// INT8, UINT8 and INT4. Encoding rounds to nearest, ties to even, in one step from the exact value;
// overflow follows PyTorch's casts (FP16/BF16/E5M2 -> inf, E4M3 -> NaN) or, on request, saturates
// to the largest finite value as CUDA's __NV_SATFINITE does (infinities too). Integers always
// saturate. Sources: IEEE 754-2019; OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023;
// NVIDIA A100 whitepaper (TF32: 8-bit exponent, 10-bit mantissa).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::numerics {

enum class Format : std::uint8_t { FP32, TF32, FP16, BF16, FP8E4M3, FP8E5M2, INT8, UINT8, INT4 };

enum class Overflow : std::uint8_t {
    Ieee,     // as PyTorch's casts: to infinity, or NaN for E4M3 (which has no infinity)
    Saturate, // to the largest finite value of the same sign (CUDA's __NV_SATFINITE)
};

struct FormatInfo {
    Format format;
    std::string_view key;         // "fp16": command lines and links
    std::string_view name;        // "FP16 (IEEE binary16)"
    int bits = 0;                 // storage bits (TF32: 19 significant bits held in 32)
    bool isFloat = true;
    int exponentBits = 0, mantissaBits = 0, bias = 0;
    bool hasInfinity = true;      // E4M3: false (its all-ones exponent still holds normal values)
    int storageShift = 0;         // TF32: its 19 bits are the top of an FP32 word (13 zero bits)
    std::int64_t intMin = 0, intMax = 0; // integer formats
    std::string_view source;
};

const std::vector<FormatInfo>& allFormats();
const FormatInfo& formatInfo(Format format);
std::optional<Format> parseFormat(std::string_view key); // "fp16", "bf16", "fp8e4m3", "int8", ...
std::string formatKeys();                                 // "fp32, tf32, fp16, ..." for messages

enum class ValueClass : std::uint8_t { Zero, Subnormal, Normal, Infinity, NaN, Integer };

// Bits of the nearest value in the format (in the low `bits`; TF32 as its FP32 word).
std::uint32_t encode(Format format, double value, Overflow overflow = Overflow::Ieee);
// The value of a bit pattern (bits beyond the format's width are ignored).
double decode(Format format, std::uint32_t bits);
// decode(encode(value)): what storing `value` in the format keeps.
double roundTo(Format format, double value, Overflow overflow = Overflow::Ieee);
float roundTo(Format format, float value, Overflow overflow = Overflow::Ieee);

ValueClass classify(Format format, std::uint32_t bits);
std::string_view valueClassName(ValueClass kind); // "normal", "subnormal", ...

// The next representable value above / below (one ULP), as bits; nullopt past the ends (the
// largest finite value has no finite neighbour above it) or from NaN.
std::optional<std::uint32_t> nextUp(Format format, std::uint32_t bits);
std::optional<std::uint32_t> nextDown(Format format, std::uint32_t bits);

// The format's landmarks (floats), from its parameters.
double maxFinite(Format format);
double minNormal(Format format);    // 0 for integers
double minSubnormal(Format format); // 0 for integers

// The bit pattern as text: "0x3C00" with the fields split "0 01111 0000000000".
std::string hexBits(Format format, std::uint32_t bits);
std::string fieldBits(Format format, std::uint32_t bits);

} // namespace warpscope::numerics
