#include "numerics/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace warpscope::numerics {

const std::vector<FormatInfo>& allFormats()
{
    static const std::vector<FormatInfo> formats = {
        {Format::FP32, "fp32", "FP32 (IEEE binary32)", 32, true, 8, 23, 127, true, 0, 0, 0, "IEEE 754-2019"},
        {Format::TF32, "tf32", "TF32 (NVIDIA TensorFloat-32)", 19, true, 8, 10, 127, true, 13, 0, 0,
         "NVIDIA A100 Tensor Core GPU Architecture whitepaper, 2020: FP32's 8-bit exponent, FP16's 10-bit mantissa"},
        {Format::FP16, "fp16", "FP16 (IEEE binary16)", 16, true, 5, 10, 15, true, 0, 0, 0, "IEEE 754-2019"},
        {Format::BF16, "bf16", "BF16 (bfloat16)", 16, true, 8, 7, 127, true, 0, 0, 0,
         "Google Brain bfloat16; FP32 with the mantissa cut to 7 bits"},
        {Format::FP8E4M3, "fp8e4m3", "FP8 E4M3 (OCP, no infinity)", 8, true, 4, 3, 7, false, 0, 0, 0,
         "OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023: E4M3, max 448, NaN = S.1111.111"},
        {Format::FP8E5M2, "fp8e5m2", "FP8 E5M2 (OCP, IEEE-like)", 8, true, 5, 2, 15, true, 0, 0, 0,
         "OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023: E5M2, max 57344"},
        {Format::INT8, "int8", "INT8 (two's complement)", 8, false, 0, 0, 0, false, 0, -128, 127, "two's complement"},
        {Format::UINT8, "uint8", "UINT8", 8, false, 0, 0, 0, false, 0, 0, 255, "unsigned"},
        {Format::INT4, "int4", "INT4 (two's complement)", 4, false, 0, 0, 0, false, 0, -8, 7, "two's complement"},
    };
    return formats;
}

const FormatInfo& formatInfo(Format format)
{
    return allFormats()[static_cast<std::size_t>(format)];
}

std::optional<Format> parseFormat(std::string_view key)
{
    for (const FormatInfo& info : allFormats())
        if (info.key == key)
            return info.format;
    return std::nullopt;
}

std::string formatKeys()
{
    std::string keys;
    for (const FormatInfo& info : allFormats())
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    return keys;
}

namespace {

struct FloatLayout {
    int e, m, bias, shift;
    bool inf;
    std::uint64_t signBit() const { return std::uint64_t{1} << (e + m); }
    std::uint64_t expMask() const { return (std::uint64_t{1} << e) - 1; }
    std::uint64_t magnitudeMask() const { return signBit() - 1; }
    // The largest finite magnitude field: IEEE-like formats stop below the all-ones exponent;
    // E4M3 uses it for normal values except mantissa all ones (NaN).
    std::uint64_t maxFiniteField() const
    {
        return inf ? ((expMask() - 1) << m) | ((std::uint64_t{1} << m) - 1) : magnitudeMask() - 1;
    }
    std::uint64_t nanField() const { return inf ? (expMask() << m) | (std::uint64_t{1} << (m - 1)) : magnitudeMask(); }
    std::uint64_t infField() const { return expMask() << m; }
};

FloatLayout layoutOf(const FormatInfo& info)
{
    return {info.exponentBits, info.mantissaBits, info.bias, info.storageShift, info.hasInfinity};
}

// Round half to even of a non-negative double to an integer (exact for |x| < 2^53).
std::uint64_t roundHalfEven(double x)
{
    const double floor = std::floor(x);
    const double fraction = x - floor;
    std::uint64_t n = static_cast<std::uint64_t>(floor);
    if (fraction > 0.5 || (fraction == 0.5 && (n & 1) != 0))
        ++n;
    return n;
}

std::uint32_t encodeFloat(const FormatInfo& info, double value, Overflow overflow)
{
    const FloatLayout f = layoutOf(info);
    const bool negative = std::signbit(value);
    const std::uint64_t sign = negative ? f.signBit() : 0;
    std::uint64_t field = 0;
    if (std::isnan(value)) {
        field = f.nanField();
    } else if (std::isinf(value)) {
        field = overflow == Overflow::Saturate ? f.maxFiniteField() : (f.inf ? f.infField() : f.nanField());
    } else if (value == 0) {
        field = 0;
    } else {
        const double magnitude = std::abs(value);
        int exponent2 = 0;
        std::frexp(magnitude, &exponent2); // magnitude = fraction x 2^exponent2, fraction in [0.5, 1)
        int exponent = exponent2 - 1;      // magnitude in [2^exponent, 2^(exponent+1))
        const int minExponent = 1 - f.bias;
        if (exponent < minExponent) {
            // Subnormal: multiples of 2^(minExponent - m); a carry to 2^m is the smallest normal,
            // which the combined exponent|mantissa field expresses without a special case.
            field = roundHalfEven(std::ldexp(magnitude, f.m - minExponent));
        } else {
            std::uint64_t significand = roundHalfEven(std::ldexp(magnitude, f.m - exponent));
            if (significand == (std::uint64_t{1} << (f.m + 1))) {
                significand >>= 1;
                ++exponent;
            }
            const std::int64_t biased = static_cast<std::int64_t>(exponent) + f.bias;
            field = biased > static_cast<std::int64_t>(f.expMask()) + 1
                        ? f.magnitudeMask() + 1 // certainly past the maximum
                        : (static_cast<std::uint64_t>(biased) << f.m) | (significand - (std::uint64_t{1} << f.m));
        }
        if (field > f.maxFiniteField())
            field = overflow == Overflow::Saturate ? f.maxFiniteField() : (f.inf ? f.infField() : f.nanField());
    }
    return static_cast<std::uint32_t>((sign | field) << f.shift);
}

double decodeFloat(const FormatInfo& info, std::uint32_t bits)
{
    const FloatLayout f = layoutOf(info);
    const std::uint64_t raw = (static_cast<std::uint64_t>(bits) >> f.shift) & ((f.signBit() << 1) - 1);
    const bool negative = (raw & f.signBit()) != 0;
    const std::uint64_t field = raw & f.magnitudeMask();
    const std::uint64_t exponent = field >> f.m;
    const std::uint64_t mantissa = field & ((std::uint64_t{1} << f.m) - 1);
    double value = 0;
    if (!f.inf && field == f.magnitudeMask())
        value = std::numeric_limits<double>::quiet_NaN();
    else if (f.inf && exponent == f.expMask())
        value = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        value = std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.m);
    else
        value = std::ldexp(static_cast<double>(mantissa | (std::uint64_t{1} << f.m)), static_cast<int>(exponent) - f.bias - f.m);
    return negative ? -value : value;
}

std::uint32_t intMask(const FormatInfo& info) { return info.bits >= 32 ? 0xFFFFFFFFu : (1u << info.bits) - 1; }

} // namespace

std::uint32_t encode(Format format, double value, Overflow overflow)
{
    const FormatInfo& info = formatInfo(format);
    if (info.isFloat)
        return encodeFloat(info, value, overflow);
    // Integers: round half to even, saturate; NaN becomes 0 (as a saturating cvt does).
    std::int64_t n = 0;
    if (!std::isnan(value)) {
        const double clamped = std::clamp(value, static_cast<double>(info.intMin), static_cast<double>(info.intMax));
        const double magnitude = static_cast<double>(roundHalfEven(std::abs(clamped)));
        n = static_cast<std::int64_t>(clamped < 0 ? -magnitude : magnitude);
    }
    return static_cast<std::uint32_t>(n) & intMask(info);
}

double decode(Format format, std::uint32_t bits)
{
    const FormatInfo& info = formatInfo(format);
    if (info.isFloat)
        return decodeFloat(info, bits);
    bits &= intMask(info);
    if (info.intMin < 0 && (bits & (1u << (info.bits - 1))) != 0)
        return static_cast<double>(static_cast<std::int64_t>(bits) - (std::int64_t{1} << info.bits));
    return static_cast<double>(bits);
}

double roundTo(Format format, double value, Overflow overflow) { return decode(format, encode(format, value, overflow)); }

float roundTo(Format format, float value, Overflow overflow)
{
    return static_cast<float>(decode(format, encode(format, static_cast<double>(value), overflow)));
}

ValueClass classify(Format format, std::uint32_t bits)
{
    const FormatInfo& info = formatInfo(format);
    if (!info.isFloat)
        return ValueClass::Integer;
    const double value = decodeFloat(info, bits);
    if (std::isnan(value)) return ValueClass::NaN;
    if (std::isinf(value)) return ValueClass::Infinity;
    if (value == 0) return ValueClass::Zero;
    return std::abs(value) < minNormal(format) ? ValueClass::Subnormal : ValueClass::Normal;
}

std::string_view valueClassName(ValueClass kind)
{
    switch (kind) {
    case ValueClass::Zero: return "zero";
    case ValueClass::Subnormal: return "subnormal";
    case ValueClass::Normal: return "normal";
    case ValueClass::Infinity: return "infinity";
    case ValueClass::NaN: return "NaN";
    case ValueClass::Integer: return "integer";
    }
    return "?";
}

namespace {

// Floats ordered by value: the magnitude field, negated for negative patterns.
std::optional<std::uint32_t> stepFloat(Format format, std::uint32_t bits, int direction)
{
    const FormatInfo& info = formatInfo(format);
    const FloatLayout f = layoutOf(info);
    const double value = decodeFloat(info, bits);
    if (std::isnan(value))
        return std::nullopt;
    const std::uint64_t raw = static_cast<std::uint64_t>(bits) >> f.shift;
    const std::int64_t magnitude = static_cast<std::int64_t>(raw & f.magnitudeMask());
    std::int64_t ordinal = (raw & f.signBit()) ? -magnitude : magnitude;
    if (std::isinf(value)) {
        // From +inf only down (to the maximum), from -inf only up.
        if ((value > 0) == (direction > 0))
            return std::nullopt;
        ordinal = value > 0 ? static_cast<std::int64_t>(f.maxFiniteField()) : -static_cast<std::int64_t>(f.maxFiniteField());
    } else {
        ordinal += direction; // -0 and +0 both have ordinal 0
    }
    const std::int64_t limit = static_cast<std::int64_t>(f.maxFiniteField());
    if (ordinal > limit || ordinal < -limit)
        return std::nullopt;
    const std::uint64_t out = ordinal < 0 ? (f.signBit() | static_cast<std::uint64_t>(-ordinal)) : static_cast<std::uint64_t>(ordinal);
    return static_cast<std::uint32_t>(out << f.shift);
}

std::optional<std::uint32_t> stepInt(Format format, std::uint32_t bits, int direction)
{
    const FormatInfo& info = formatInfo(format);
    const std::int64_t value = static_cast<std::int64_t>(decode(format, bits)) + direction;
    if (value < info.intMin || value > info.intMax)
        return std::nullopt;
    return static_cast<std::uint32_t>(value) & intMask(info);
}

} // namespace

std::optional<std::uint32_t> nextUp(Format format, std::uint32_t bits)
{
    return formatInfo(format).isFloat ? stepFloat(format, bits, +1) : stepInt(format, bits, +1);
}

std::optional<std::uint32_t> nextDown(Format format, std::uint32_t bits)
{
    return formatInfo(format).isFloat ? stepFloat(format, bits, -1) : stepInt(format, bits, -1);
}

double maxFinite(Format format)
{
    const FormatInfo& info = formatInfo(format);
    if (!info.isFloat)
        return static_cast<double>(info.intMax);
    return decodeFloat(info, static_cast<std::uint32_t>(layoutOf(info).maxFiniteField() << info.storageShift));
}

double minNormal(Format format)
{
    const FormatInfo& info = formatInfo(format);
    return info.isFloat ? std::ldexp(1.0, 1 - info.bias) : 0.0;
}

double minSubnormal(Format format)
{
    const FormatInfo& info = formatInfo(format);
    return info.isFloat ? std::ldexp(1.0, 1 - info.bias - info.mantissaBits) : 0.0;
}

std::string hexBits(Format format, std::uint32_t bits)
{
    const FormatInfo& info = formatInfo(format);
    const int width = info.format == Format::TF32 ? 32 : info.bits;
    char text[16];
    std::snprintf(text, sizeof text, "0x%0*X", (width + 3) / 4, bits);
    return text;
}

std::string fieldBits(Format format, std::uint32_t bits)
{
    const FormatInfo& info = formatInfo(format);
    std::string out;
    if (!info.isFloat) {
        for (int i = info.bits - 1; i >= 0; --i)
            out += ((bits >> i) & 1) ? '1' : '0';
        return out;
    }
    const std::uint32_t raw = bits >> info.storageShift;
    const int total = 1 + info.exponentBits + info.mantissaBits;
    for (int i = total - 1; i >= 0; --i) {
        out += ((raw >> i) & 1) ? '1' : '0';
        if (i == total - 1 || i == info.mantissaBits)
            out += ' ';
    }
    return out;
}

} // namespace warpscope::numerics
