// Half precision (PTX ISA, "Half Precision Floating-Point Instructions", "cvt", "setp"): .f16
// (IEEE binary16) and .bf16 values in 16-bit registers, .f16x2 and .bf16x2 pairs in 32-bit ones
// (element 0 in bits 0-15). Arithmetic is exact in double (or rounded to odd there) and then rounded
// once to the format, to nearest even, so every result is the correctly rounded one; a NaN result is
// the canonical 0x7fff. .ftz flushes subnormal inputs and results, .sat clamps to [0, 1] (NaN to
// +0), .relu clamps negative results to +0 (NaN stays NaN).
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"
#include "sim/lane_math.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace warpscope::sim {

using namespace lanes;
using ptx::Op;
using ptx::Type;

namespace {

HalfFormat formatOf(Type type) { return type == Type::BF16 || type == Type::BF16x2 ? HalfFormat::BF16 : HalfFormat::F16; }

std::uint16_t halfAt(std::uint64_t value, int index) { return static_cast<std::uint16_t>(value >> (16 * index)); }

std::uint16_t halfOne(HalfFormat format) { return format == HalfFormat::F16 ? 0x3c00u : 0x3f80u; }

// The modifiers that shape a half-precision result.
struct HalfResult {
    HalfFormat format;
    bool ftz = false, saturate = false, relu = false;

    std::uint16_t input(std::uint16_t x) const
    {
        return ftz && isHalfSubnormal(x, format) ? static_cast<std::uint16_t>(x & 0x8000u) : x;
    }
    double value(std::uint16_t x) const { return halfToDouble(input(x), format); }
    // `exact` (or its round-to-odd stand-in) rounded to the format, then .ftz, .sat, .relu.
    std::uint16_t finish(double exact) const
    {
        std::uint16_t r = halfFromDouble(exact, format, RoundingDirection::NearestEven);
        if (ftz && isHalfSubnormal(r, format))
            r &= 0x8000u;
        if (saturate) {
            if (isHalfNan(r, format))
                return 0;
            const double v = halfToDouble(r, format);
            if (v <= 0)
                return 0;
            if (v > 1)
                return halfOne(format);
        }
        if (relu && !isHalfNan(r, format) && halfToDouble(r, format) < 0)
            return 0;
        return r;
    }
};

// min/max (PTX ISA, half-precision "min"): a NaN operand yields the other one (both NaN, or .NaN:
// canonical NaN); -0 is below +0; .xorsign.abs compares magnitudes and gives the result the XOR
// of the signs.
std::uint16_t halfMinMax(std::uint16_t a, std::uint16_t b, bool isMin, const ptx::Instruction& in, const HalfResult& shape)
{
    a = shape.input(a);
    b = shape.input(b);
    const HalfFormat format = shape.format;
    const std::uint16_t xorSign = static_cast<std::uint16_t>((a ^ b) & 0x8000u);
    if (in.xorsignAbs) {
        a &= 0x7fffu;
        b &= 0x7fffu;
    }
    const bool aNan = isHalfNan(a, format), bNan = isHalfNan(b, format);
    std::uint16_t d = 0;
    if ((aNan && bNan) || (in.nanResult && (aNan || bNan)))
        return kCanonicalNanHalf;
    if (aNan)
        d = b;
    else if (bNan)
        d = a;
    else {
        const double x = halfToDouble(a, format), y = halfToDouble(b, format);
        if (x == y) // +0 and -0: min is -0, max is +0
            d = isMin ? static_cast<std::uint16_t>(a | b) : static_cast<std::uint16_t>(a & b);
        else
            d = (x < y) == isMin ? a : b;
    }
    if (in.xorsignAbs)
        d = static_cast<std::uint16_t>((d & 0x7fffu) | xorSign);
    return d;
}

bool compareHalf(ptx::CmpOp cmp, double x, double y)
{
    using C = ptx::CmpOp;
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (cmp) {
    case C::Eq: return !unordered && x == y;
    case C::Ne: return !unordered && x != y;
    case C::Lt: return !unordered && x < y;
    case C::Le: return !unordered && x <= y;
    case C::Gt: return !unordered && x > y;
    case C::Ge: return !unordered && x >= y;
    case C::Equ: return unordered || x == y;
    case C::Neu: return unordered || x != y;
    case C::Ltu: return unordered || x < y;
    case C::Leu: return unordered || x <= y;
    case C::Gtu: return unordered || x > y;
    case C::Geu: return unordered || x >= y;
    case C::Num: return !unordered;
    case C::Nan: return unordered;
    default: return false;
    }
}

bool combine(ptx::BoolOp op, bool value, bool other)
{
    switch (op) {
    case ptx::BoolOp::And: return value && other;
    case ptx::BoolOp::Or: return value || other;
    case ptx::BoolOp::Xor: return value != other;
    case ptx::BoolOp::None: break;
    }
    return value;
}

} // namespace

void BlockRunner::executeHalf(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const int sources = in.operandCount - 1;
    LaneValues aStore, bStore, cStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = sources >= 2 ? source(warp, in.operands[2], bStore) : aStore.data();
    const std::uint64_t* c = sources >= 3 ? source(warp, in.operands[3], cStore) : aStore.data();
    const HalfResult shape{formatOf(in.type), in.ftz, in.saturate, in.relu};
    const int count = ptx::isPackedHalf(in.type) ? 2 : 1;

    // A contracted add/sub (contraction.h): the mul's operands, read now (they have not changed).
    LaneValues mulAStore, mulBStore;
    const std::uint64_t* mulA = nullptr;
    const std::uint64_t* mulB = nullptr;
    if (in.contractedMul >= 0) {
        const ptx::Instruction& mul = m_function.instructions[static_cast<std::size_t>(in.contractedMul)];
        mulA = source(warp, mul.operands[1], mulAStore);
        mulB = source(warp, mul.operands[2], mulBStore);
    }

    forLanes(mask, [&](std::uint32_t l) {
        std::uint64_t packed = 0;
        for (int h = 0; h < count; ++h) {
            const std::uint16_t x = halfAt(a[l], h), y = halfAt(b[l], h), z = halfAt(c[l], h);
            std::uint16_t d = 0;
            switch (in.op) {
            case Op::Add:
            case Op::Sub: {
                const double sign = in.op == Op::Sub ? -1.0 : 1.0;
                if (mulA) {
                    // fma(p, q, other) for add; sub: other - p*q or p*q - other.
                    const double product = shape.value(halfAt(mulA[l], h)) * shape.value(halfAt(mulB[l], h));
                    const double other = shape.value(in.contractedOperand == 1 ? y : x);
                    d = in.contractedOperand == 1 ? shape.finish(sumRoundedToOdd(product, sign * other))
                                                  : shape.finish(sumRoundedToOdd(other, sign * product));
                } else {
                    d = shape.finish(sumRoundedToOdd(shape.value(x), sign * shape.value(y)));
                }
                break;
            }
            case Op::Mul: d = shape.finish(shape.value(x) * shape.value(y)); break; // exact in double
            case Op::Fma: d = shape.finish(sumRoundedToOdd(shape.value(x) * shape.value(y), shape.value(z))); break;
            case Op::Neg: d = static_cast<std::uint16_t>(shape.input(x) ^ 0x8000u); break; // a sign flip, NaN too
            case Op::Abs: d = static_cast<std::uint16_t>(shape.input(x) & 0x7fffu); break;
            case Op::Min: d = halfMinMax(x, y, true, in, shape); break;
            case Op::Max: d = halfMinMax(x, y, false, in, shape); break;
            case Op::Ex2: d = approximateEx2(x, shape.format, in.ftz); break;
            case Op::Tanh: d = approximateTanh(x, shape.format); break;
            default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
            }
            packed |= static_cast<std::uint64_t>(d) << (16 * h);
        }
        r[l] = packed;
    });
    write(warp, in.operands[0].reg, r, mask);
}

// setp on halves: .f16x2 / .bf16x2 compare both halves, p from the low pair and q from the high one
// (PTX ISA, half-precision "setp"); the scalar forms write q as the complement, like setp on floats.
void BlockRunner::executeHalfCompare(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    LaneValues aStore, bStore, c, p, q;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = source(warp, in.operands[2], bStore);
    if (in.boolOp != ptx::BoolOp::None)
        read(warp, in.operands[3], c);
    else
        c.fill(0);
    const HalfResult shape{formatOf(in.type), in.ftz, false, false};
    const bool packed = ptx::isPackedHalf(in.type);
    forLanes(mask, [&](std::uint32_t l) {
        const bool other = (c[l] & 1u) != 0;
        const bool low = compareHalf(in.cmp, shape.value(halfAt(a[l], 0)), shape.value(halfAt(b[l], 0)));
        if (packed) {
            const bool high = compareHalf(in.cmp, shape.value(halfAt(a[l], 1)), shape.value(halfAt(b[l], 1)));
            p[l] = combine(in.boolOp, low, other) ? 1 : 0;
            q[l] = combine(in.boolOp, high, other) ? 1 : 0;
        } else {
            p[l] = combine(in.boolOp, low, other) ? 1 : 0;
            q[l] = combine(in.boolOp, !low, other) ? 1 : 0;
        }
    });
    write(warp, in.operands[0].reg, p, mask);
    if (in.operands[0].pairReg >= 0)
        write(warp, in.operands[0].pairReg, q, mask);
}

// cvt to or from .f16 / .bf16, and two .f32 into .f16x2 / .bf16x2 (a to the upper half, b to the
// lower): to a half, one rounding in the named direction (.satfinite keeps overflow finite, .relu
// clamps negatives); from a half, exact.
void BlockRunner::executeHalfConvert(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const Type to = in.type, from = in.type2;
    LaneValues aStore, bStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = ptx::isPackedHalf(to) ? source(warp, in.operands[2], bStore) : aStore.data();
    const RoundingDirection direction = roundingDirection(in.rounding);
    // A source value as a double (f32 subnormals flushed with .ftz).
    auto sourceValue = [&](std::uint64_t bits) -> double {
        if (ptx::isHalf(from))
            return halfToDouble(static_cast<std::uint16_t>(bits), formatOf(from));
        if (from == Type::F32)
            return static_cast<double>(flushF32(toF32(bits), in.ftz));
        if (from == Type::F64)
            return toF64(bits);
        return ptx::isSigned(from) ? static_cast<double>(asSigned(bits, from)) : static_cast<double>(asUnsigned(bits, from));
    };
    auto toHalf = [&](std::uint64_t bits) -> std::uint16_t {
        const HalfFormat format = formatOf(to);
        std::uint16_t h = halfFromDouble(sourceValue(bits), format, direction, in.satfinite);
        if (in.relu && !isHalfNan(h, format) && halfToDouble(h, format) < 0)
            h = 0;
        return h;
    };
    forLanes(mask, [&](std::uint32_t l) {
        if (ptx::isPackedHalf(to)) {
            r[l] = (static_cast<std::uint64_t>(toHalf(a[l])) << 16) | toHalf(b[l]);
        } else if (ptx::isHalf(to)) {
            r[l] = toHalf(a[l]);
        } else if (to == Type::F32) {
            const double x = sourceValue(a[l]);
            float v = std::isnan(x) ? std::bit_cast<float>(kCanonicalNanF32) : flushF32(static_cast<float>(x), in.ftz);
            if (in.saturate) v = saturateFloat(v);
            r[l] = fromF32(v);
        } else if (to == Type::F64) {
            double x = sourceValue(a[l]);
            if (in.saturate) x = saturateFloat(x);
            r[l] = fromF64(x);
        } else {
            // To an integer: .rni .rzi .rmi .rpi, clamped to the destination's range; NaN gives 0.
            double x = sourceValue(a[l]);
            switch (in.rounding) {
            case ptx::Rounding::Rni: x = std::nearbyint(x); break;
            case ptx::Rounding::Rzi: x = std::trunc(x); break;
            case ptx::Rounding::Rmi: x = std::floor(x); break;
            case ptx::Rounding::Rpi: x = std::ceil(x); break;
            default: break;
            }
            const int bits = ptx::typeBits(to);
            if (std::isnan(x)) {
                r[l] = 0;
            } else if (ptx::isSigned(to)) {
                const double high = std::ldexp(1.0, bits - 1);
                const std::int64_t v = x >= high ? static_cast<std::int64_t>(high - 1) : x < -high ? static_cast<std::int64_t>(-high)
                                                                                                   : static_cast<std::int64_t>(x);
                r[l] = extend(static_cast<std::uint64_t>(v), to);
            } else {
                const double high = std::ldexp(1.0, bits);
                r[l] = x <= 0 ? 0 : x >= high ? extend(~0ull, to) : static_cast<std::uint64_t>(x);
            }
        }
    });
    write(warp, in.operands[0].reg, r, mask);
}

// cvt{.rna,.rn,.rz}{.relu}{.satfinite}.tf32.f32 (PTX ISA, cvt). The ISA leaves tf32's layout in its
// .b32 register to the implementation; the simulator keeps f32's, rounded to tf32's 10 mantissa
// bits with the low 13 bits zero, the bits its mma reads (core/sim/README.md, "Tensor Cores"): .rna
// rounds to nearest with ties away from zero, .rn with ties to even, .rz toward zero; a carry out of
// the largest binade gives infinity, or with .satfinite tf32's largest finite value (as do
// infinite inputs); NaN stays NaN (quiet; .relu: the canonical 0x7FFFFFFF); .relu makes negatives +0.
void BlockRunner::executeTf32Convert(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    constexpr std::uint32_t kLowBits = 0x1FFFu, kMaxFinite = 0x7F7FE000u, kInfinity = 0x7F800000u;
    LaneValues aStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    forLanes(mask, [&](std::uint32_t l) {
        const auto bits = static_cast<std::uint32_t>(a[l]);
        const std::uint32_t sign = bits & 0x80000000u, magnitude = bits & 0x7FFFFFFFu;
        std::uint32_t result = 0;
        if (magnitude > kInfinity) { // quiet, its top payload bits kept; .relu gives the canonical NaN
            result = in.relu ? 0x7FFFFFFFu : (bits | 0x00400000u) & ~kLowBits;
        } else if (in.relu && sign != 0) {
            result = 0;
        } else {
            std::uint32_t rounded = magnitude;
            if (magnitude != kInfinity) {
                if (in.rounding == ptx::Rounding::Rna)
                    rounded = magnitude + 0x1000u;
                else if (in.rounding == ptx::Rounding::Rn)
                    rounded = magnitude + 0x0FFFu + ((magnitude >> 13) & 1u);
                rounded &= ~kLowBits;
            }
            if (rounded >= kInfinity && in.satfinite)
                rounded = kMaxFinite;
            result = sign | rounded;
        }
        r[l] = result;
    });
    write(warp, in.operands[0].reg, r, mask);
}

// set.CmpOp{.BoolOp}.dtype.stype (PTX ISA, "set" and half-precision "set"): the comparison, combined
// with c, written as all ones (.u32 .s32: 0xffffffff, .u16 .s16: 0xffff) or 1.0 (.f32, .f16, .bf16)
// when true, else 0; a pair of halves gives one result per half.
void BlockRunner::executeSet(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    LaneValues aStore, bStore, c, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = source(warp, in.operands[2], bStore);
    if (in.boolOp != ptx::BoolOp::None)
        read(warp, in.operands[3], c);
    else
        c.fill(0);
    const Type to = in.type, from = in.type2;
    const HalfResult shape{formatOf(from), in.ftz, false, false};
    auto compareAt = [&](std::uint32_t l, int half) -> bool {
        if (ptx::isHalf(from))
            return compareHalf(in.cmp, shape.value(halfAt(a[l], half)), shape.value(halfAt(b[l], half)));
        if (from == Type::F32)
            return compareHalf(in.cmp, flushF32(toF32(a[l]), in.ftz), flushF32(toF32(b[l]), in.ftz));
        if (from == Type::F64)
            return compareHalf(in.cmp, toF64(a[l]), toF64(b[l]));
        using C = ptx::CmpOp;
        const std::int64_t sx = asSigned(a[l], from), sy = asSigned(b[l], from);
        const std::uint64_t ux = asUnsigned(a[l], from), uy = asUnsigned(b[l], from);
        const bool isSignedCompare = ptx::isSigned(from);
        switch (in.cmp) {
        case C::Eq: return ux == uy;
        case C::Ne: return ux != uy;
        case C::Lt: return isSignedCompare ? sx < sy : ux < uy;
        case C::Le: return isSignedCompare ? sx <= sy : ux <= uy;
        case C::Gt: return isSignedCompare ? sx > sy : ux > uy;
        case C::Ge: return isSignedCompare ? sx >= sy : ux >= uy;
        case C::Lo: return ux < uy;
        case C::Ls: return ux <= uy;
        case C::Hi: return ux > uy;
        case C::Hs: return ux >= uy;
        default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
        }
    };
    auto one = [&](Type type) -> std::uint64_t {
        switch (type) {
        case Type::F32: return fromF32(1.0f);
        case Type::F16: case Type::F16x2: return halfOne(HalfFormat::F16);
        case Type::BF16: case Type::BF16x2: return halfOne(HalfFormat::BF16);
        case Type::U16: case Type::S16: return 0xffffu;
        default: return 0xffffffffu;
        }
    };
    forLanes(mask, [&](std::uint32_t l) {
        const bool other = (c[l] & 1u) != 0;
        if (ptx::isPackedHalf(from)) {
            const std::uint64_t yes = ptx::isPackedHalf(to) ? one(to) : 0xffffu;
            r[l] = (combine(in.boolOp, compareAt(l, 0), other) ? yes : 0) |
                   ((combine(in.boolOp, compareAt(l, 1), other) ? yes : 0) << 16);
        } else {
            r[l] = combine(in.boolOp, compareAt(l, 0), other) ? one(to) : 0;
        }
    });
    write(warp, in.operands[0].reg, r, mask);
}

} // namespace warpscope::sim
