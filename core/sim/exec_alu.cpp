// Register reads and writes, arithmetic, bit operations, comparisons and conversions.
//
// Lane values live in 64-bit slots. Every write stores the instruction type's value extended to 64
// bits (sign-extended for .s types, zero-extended otherwise, floats as their IEEE bits), so a later
// read of any width sees the right low bits.
//
// Floating point follows IEEE-754 with round-to-nearest-even, as the GPU does for .rn; .rz .rm .rp
// and the approximate transcendentals are in exec_float.cpp. For .approx and .full (div, rcp, sqrt)
// the simulator computes the correctly rounded result; the GPU's answer can differ in the last bits
// (PTX ISA: div.full.f32 is within 2 ulp; float_math.h lists every bound).
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"
#include "sim/lane_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace warpscope::sim {

namespace {

using ptx::Op;
using ptx::Type;
using namespace lanes;

std::int64_t clampSigned(Int128 value, int bits)
{
    const Int128 high = (static_cast<Int128>(1) << (bits - 1)) - 1;
    const Int128 low = -high - 1;
    return static_cast<std::int64_t>(value > high ? high : value < low ? low : value);
}

} // namespace

void BlockRunner::read(const WarpState& warp, const ptx::Operand& operand, LaneValues& out) const
{
    using K = ptx::Operand::Kind;
    switch (operand.kind) {
    case K::Reg: {
        const std::uint64_t* source = warp.regs + static_cast<std::size_t>(operand.reg) * 32;
        if (operand.negate) {
            for (int lane = 0; lane < 32; ++lane)
                out[static_cast<std::size_t>(lane)] = (source[lane] & 1u) ^ 1u;
        } else {
            std::copy(source, source + 32, out.begin());
        }
        return;
    }
    case K::Imm:
        out.fill(operand.imm);
        return;
    case K::Symbol: {
        const ptx::Symbol& symbol = m_function.symbols[static_cast<std::size_t>(operand.symbol)];
        std::uint64_t address = static_cast<std::uint64_t>(operand.offset);
        if (symbol.space == ptx::Space::Global || symbol.space == ptx::Space::Const)
            address += m_context.symbolAddress[static_cast<std::size_t>(operand.symbol)];
        else if (symbol.space == ptx::Space::Local || symbol.frameParam)
            address += warp.frameBase; // the running function's frame (exec_call.cpp)
        out.fill(address);
        return;
    }
    case K::Special: {
        using S = ptx::SpecialReg;
        auto fill = [&](std::int64_t value) { out.fill(static_cast<std::uint64_t>(value)); };
        switch (operand.special) {
        case S::TidX: out = warp.tid[0]; return;
        case S::TidY: out = warp.tid[1]; return;
        case S::TidZ: out = warp.tid[2]; return;
        case S::NtidX: fill(m_context.block.x); return;
        case S::NtidY: fill(m_context.block.y); return;
        case S::NtidZ: fill(m_context.block.z); return;
        case S::CtaidX: fill(m_blockIdx.x); return;
        case S::CtaidY: fill(m_blockIdx.y); return;
        case S::CtaidZ: fill(m_blockIdx.z); return;
        case S::NctaidX: fill(m_context.grid.x); return;
        case S::NctaidY: fill(m_context.grid.y); return;
        case S::NctaidZ: fill(m_context.grid.z); return;
        case S::LaneId: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(l); return;
        case S::WarpId: fill(warp.index); return;
        case S::NWarpId: fill(static_cast<std::int64_t>(m_warps.size())); return;
        case S::SmId: fill(static_cast<std::int64_t>(m_linearBlock % static_cast<std::uint64_t>(m_context.smCount))); return;
        case S::NSmId: fill(m_context.smCount); return;
        case S::GridId: fill(0); return;
        case S::LanemaskEq: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = 1ull << l; return;
        case S::LanemaskLt: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = (1ull << l) - 1; return;
        case S::LanemaskLe: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = (2ull << l) - 1; return;
        case S::LanemaskGt: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = 0xffffffffull & ~((2ull << l) - 1); return;
        case S::LanemaskGe: for (int l = 0; l < 32; ++l) out[static_cast<std::size_t>(l)] = 0xffffffffull & ~((1ull << l) - 1); return;
        case S::Clock: case S::Clock64: case S::GlobalTimer:
            // The functional model has no clock: the block's warp-instructions issued so far.
            fill(static_cast<std::int64_t>(m_blockIssued)); return;
        // The grid workspace's address, high and low halves; 0 outside a cooperative launch, where
        // grid.is_valid() is then false (grid_barrier.h).
        case S::EnvReg1: fill(static_cast<std::int64_t>(m_context.gridWorkspace >> 32)); return;
        case S::EnvReg2: fill(static_cast<std::int64_t>(m_context.gridWorkspace & 0xffffffffull)); return;
        }
        return;
    }
    default:
        throw ptx::PtxError("operand cannot be read as a value", 0);
    }
}

const std::uint64_t* BlockRunner::source(const WarpState& warp, const ptx::Operand& operand, LaneValues& scratch) const
{
    if (operand.kind == ptx::Operand::Kind::Reg && !operand.negate)
        return warp.regs + static_cast<std::size_t>(operand.reg) * 32;
    read(warp, operand, scratch);
    return scratch.data();
}

void BlockRunner::write(WarpState& warp, std::int32_t reg, const LaneValues& values, std::uint32_t mask)
{
    if (reg < 0)
        return;
    if (m_recordingActive)
        recordWrite(warp, reg, values, mask);
    std::uint64_t* target = warp.regs + static_cast<std::size_t>(reg) * 32;
    if (mask == 0xffffffffu) {
        std::copy(values.begin(), values.end(), target);
        return;
    }
    forLanes(mask, [&](std::uint32_t lane) { target[lane] = values[lane]; });
}

void BlockRunner::executeAlu(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const Type type = in.type;
    const int bits = ptx::typeBits(type);
    const bool isF32 = type == Type::F32;
    const bool isF64 = type == Type::F64;
    const bool isSignedType = ptx::isSigned(type);
    LaneValues aStore, bStore, cStore, dStore, r; // operand copies when not plain registers; the result
    const int sources = in.operandCount - 1;
    if (in.op == Op::Mov && in.operands[0].kind == ptx::Operand::Kind::Vector) {
        // mov.b64 {lo, hi}, %rd: unpack into equal parts.
        LaneValues& a = aStore;
        read(warp, in.operands[1], a);
        const ptx::Operand& vector = in.operands[0];
        const int partBits = bits / vector.vectorCount;
        for (int part = 0; part < vector.vectorCount; ++part) {
            LaneValues piece;
            for (int lane = 0; lane < 32; ++lane)
                piece[static_cast<std::size_t>(lane)] = (a[static_cast<std::size_t>(lane)] >> (part * partBits)) &
                                                        (partBits == 64 ? ~0ull : ((1ull << partBits) - 1));
            write(warp, vector.vector[static_cast<std::size_t>(part)], piece, mask);
        }
        return;
    }
    if (in.op == Op::Mov && in.operands[1].kind == ptx::Operand::Kind::Vector) {
        LaneValues& a = aStore;
        const ptx::Operand& vector = in.operands[1];
        const int partBits = bits / vector.vectorCount;
        r.fill(0);
        for (int part = 0; part < vector.vectorCount; ++part) {
            ptx::Operand reg;
            reg.kind = ptx::Operand::Kind::Reg;
            reg.reg = vector.vector[static_cast<std::size_t>(part)];
            if (reg.reg == ptx::kVectorImmediate)
                a.fill(vector.vectorImm[static_cast<std::size_t>(part)]);
            else
                read(warp, reg, a);
            for (int lane = 0; lane < 32; ++lane)
                r[static_cast<std::size_t>(lane)] |= (a[static_cast<std::size_t>(lane)] &
                                                      (partBits == 64 ? ~0ull : ((1ull << partBits) - 1))) << (part * partBits);
        }
        write(warp, in.operands[0].reg, r, mask);
        return;
    }
    if ((isF32 || isF64) && (in.rounding == ptx::Rounding::Rz || in.rounding == ptx::Rounding::Rm ||
                             in.rounding == ptx::Rounding::Rp)) {
        executeRoundedFloat(warp, in, mask);
        return;
    }
    if (ptx::isHalf(type) && in.op != Op::Mov) {
        executeHalf(warp, in, mask);
        return;
    }
    if (in.carryIn || in.carryOut) {
        executeWithCarry(warp, in, mask);
        return;
    }
    if (in.contractedMul >= 0 && (isF32 || isF64)) { // a mul ptxas fuses into this add (contraction.h)
        executeContractedFloat(warp, in, mask);
        return;
    }
    // Register operands are read in place; r is separate, so a destination that is also a source
    // is only overwritten after every lane has been computed.
    const std::uint64_t* a = sources >= 1 ? source(warp, in.operands[1], aStore) : aStore.data();
    const std::uint64_t* b = sources >= 2 ? source(warp, in.operands[2], bStore) : bStore.data();
    const std::uint64_t* c = sources >= 3 ? source(warp, in.operands[3], cStore) : cStore.data();
    const std::uint64_t* d = sources >= 4 ? source(warp, in.operands[4], dStore) : dStore.data();
    const bool ftz = in.ftz;

    auto binaryFloat = [&](auto f32op, auto f64op) {
        if (isF32)
            forLanes(mask, [&](std::uint32_t l) {
                float v = f32op(flushF32(toF32(a[l]), ftz), flushF32(toF32(b[l]), ftz));
                v = flushF32(v, ftz);
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF32(v);
            });
        else
            forLanes(mask, [&](std::uint32_t l) {
                double v = f64op(toF64(a[l]), toF64(b[l]));
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF64(v);
            });
    };
    // mul/mad .wide and .hi: the full product of two `type` values.
    const Type wideType = isSignedType ? (bits == 32 ? Type::S64 : Type::S32) : (bits == 32 ? Type::U64 : Type::U32);
    auto wideProduct = [&](std::uint32_t l) {
        return isSignedType ? static_cast<std::uint64_t>(asSigned(a[l], type) * asSigned(b[l], type))
                            : asUnsigned(a[l], type) * asUnsigned(b[l], type);
    };
    auto highProduct = [&](std::uint32_t l) {
        const Int128 product = isSignedType
            ? static_cast<Int128>(asSigned(a[l], type)) * asSigned(b[l], type)
            : static_cast<Int128>(static_cast<UInt128>(asUnsigned(a[l], type)) * asUnsigned(b[l], type));
        return static_cast<std::uint64_t>(product >> bits);
    };
    auto notFloat = [&] {
        if (isF32 || isF64)
            throw ptx::PtxError::unsupported(in.text, in.ptxLine);
    };

    switch (in.op) {
    case Op::Mov:
        forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l], type); });
        break;
    case Op::Add:
    case Op::Sub:
        if (isF32 || isF64) {
            if (in.op == Op::Add)
                binaryFloat([](float x, float y) { return x + y; }, [](double x, double y) { return x + y; });
            else
                binaryFloat([](float x, float y) { return x - y; }, [](double x, double y) { return x - y; });
        } else if (in.saturate) {
            forLanes(mask, [&](std::uint32_t l) {
                const Int128 x = asSigned(a[l], type), y = asSigned(b[l], type);
                r[l] = extend(static_cast<std::uint64_t>(clampSigned(in.op == Op::Add ? x + y : x - y, bits)), type);
            });
        } else {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(in.op == Op::Add ? a[l] + b[l] : a[l] - b[l], type); });
        }
        break;
    case Op::Mul:
        if (isF32 || isF64) {
            binaryFloat([](float x, float y) { return x * y; }, [](double x, double y) { return x * y; });
        } else if (in.mulMode == ptx::MulMode::Wide) {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(wideProduct(l), wideType); });
        } else if (in.mulMode == ptx::MulMode::Hi) {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(highProduct(l), type); });
        } else {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l] * b[l], type); });
        }
        break;
    case Op::Mad:
    case Op::Fma:
        if (isF32) {
            forLanes(mask, [&](std::uint32_t l) {
                float v = std::fma(flushF32(toF32(a[l]), ftz), flushF32(toF32(b[l]), ftz), flushF32(toF32(c[l]), ftz));
                v = flushF32(v, ftz);
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF32(v);
            });
        } else if (isF64) {
            forLanes(mask, [&](std::uint32_t l) { r[l] = fromF64(std::fma(toF64(a[l]), toF64(b[l]), toF64(c[l]))); });
        } else if (in.mulMode == ptx::MulMode::Wide) {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(wideProduct(l) + c[l], wideType); });
        } else if (in.mulMode == ptx::MulMode::Hi) {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(highProduct(l) + c[l], type); });
        } else {
            forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l] * b[l] + c[l], type); });
        }
        break;
    case Op::Div:
    case Op::Rem:
        if (isF32 || isF64) {
            if (in.op == Op::Rem)
                throw ptx::PtxError::unsupported(in.text, in.ptxLine);
            binaryFloat([](float x, float y) { return x / y; }, [](double x, double y) { return x / y; });
            break;
        }
        forLanes(mask, [&](std::uint32_t l) {
            if (asUnsigned(b[l], type) == 0) {
                reportHazard(HazardKind::DivisionByZero, warp, static_cast<int>(l), 0, "",
                             "integer division by zero: the result is undefined (the simulator gives all ones)");
                r[l] = extend(~0ull, type);
                return;
            }
            if (isSignedType) {
                const std::int64_t x = asSigned(a[l], type), y = asSigned(b[l], type);
                if (y == -1) { // avoids INT_MIN / -1 overflow on the host; the low bits wrap as on the GPU
                    r[l] = extend(in.op == Op::Div ? 0 - static_cast<std::uint64_t>(x) : 0, type);
                    return;
                }
                r[l] = extend(static_cast<std::uint64_t>(in.op == Op::Div ? x / y : x % y), type);
            } else {
                const std::uint64_t x = asUnsigned(a[l], type), y = asUnsigned(b[l], type);
                r[l] = extend(in.op == Op::Div ? x / y : x % y, type);
            }
        });
        break;
    case Op::Min:
    case Op::Max: {
        const bool isMin = in.op == Op::Min;
        if (isF32 || isF64) {
            if (isMin) binaryFloat([](float x, float y) { return std::fmin(x, y); }, [](double x, double y) { return std::fmin(x, y); });
            else binaryFloat([](float x, float y) { return std::fmax(x, y); }, [](double x, double y) { return std::fmax(x, y); });
        } else if (isSignedType) {
            forLanes(mask, [&](std::uint32_t l) {
                const std::int64_t x = asSigned(a[l], type), y = asSigned(b[l], type);
                r[l] = extend(static_cast<std::uint64_t>(isMin ? std::min(x, y) : std::max(x, y)), type);
            });
        } else {
            forLanes(mask, [&](std::uint32_t l) {
                const std::uint64_t x = asUnsigned(a[l], type), y = asUnsigned(b[l], type);
                r[l] = extend(isMin ? std::min(x, y) : std::max(x, y), type);
            });
        }
        break;
    }
    case Op::Abs:
        if (isF32) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(flushF32(std::fabs(toF32(a[l])), ftz)); });
        else if (isF64) forLanes(mask, [&](std::uint32_t l) { r[l] = a[l] & ~(1ull << 63); });
        else forLanes(mask, [&](std::uint32_t l) {
            const std::int64_t x = asSigned(a[l], type);
            r[l] = extend(x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x), type);
        });
        break;
    case Op::Neg:
        if (isF32) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(flushF32(-toF32(a[l]), ftz)); });
        else if (isF64) forLanes(mask, [&](std::uint32_t l) { r[l] = a[l] ^ (1ull << 63); });
        else forLanes(mask, [&](std::uint32_t l) { r[l] = extend(0 - a[l], type); });
        break;
    case Op::Rcp:
        if (isF32) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(flushF32(1.0f / flushF32(toF32(a[l]), ftz), ftz)); });
        else if (isF64) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF64(1.0 / toF64(a[l])); });
        else notFloat();
        break;
    case Op::Sqrt:
        if (isF32) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(flushF32(std::sqrt(flushF32(toF32(a[l]), ftz)), ftz)); });
        else if (isF64) forLanes(mask, [&](std::uint32_t l) { r[l] = fromF64(std::sqrt(toF64(a[l]))); });
        else throw ptx::PtxError::unsupported(in.text, in.ptxLine);
        break;
    case Op::Sad:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t difference = isSignedType
                ? static_cast<std::uint64_t>(std::abs(asSigned(a[l], type) - asSigned(b[l], type)))
                : (asUnsigned(a[l], type) > asUnsigned(b[l], type) ? asUnsigned(a[l], type) - asUnsigned(b[l], type)
                                                                   : asUnsigned(b[l], type) - asUnsigned(a[l], type));
            r[l] = extend(difference + c[l], type);
        });
        break;
    case Op::And: notFloat(); forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l] & b[l], type); }); break;
    case Op::Or: notFloat(); forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l] | b[l], type); }); break;
    case Op::Xor: notFloat(); forLanes(mask, [&](std::uint32_t l) { r[l] = extend(a[l] ^ b[l], type); }); break;
    case Op::Not: notFloat(); forLanes(mask, [&](std::uint32_t l) { r[l] = extend(~a[l], type); }); break;
    case Op::Cnot: notFloat(); forLanes(mask, [&](std::uint32_t l) { r[l] = asUnsigned(a[l], type) == 0 ? 1 : 0; }); break;
    case Op::Shl:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t shift = b[l] & 0xffffffffu; // clamped to the width, as PTX specifies
            r[l] = shift >= static_cast<std::uint64_t>(bits) ? 0 : extend(a[l] << shift, type);
        });
        break;
    case Op::Shr:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t shift = std::min<std::uint64_t>(b[l] & 0xffffffffu, static_cast<std::uint64_t>(bits));
            if (isSignedType) {
                const std::int64_t x = asSigned(a[l], type);
                r[l] = extend(static_cast<std::uint64_t>(shift >= 64 ? (x < 0 ? -1 : 0) : x >> shift), type);
            } else {
                const std::uint64_t x = asUnsigned(a[l], type);
                r[l] = shift >= static_cast<std::uint64_t>(bits) ? 0 : extend(x >> shift, type);
            }
        });
        break;
    case Op::Popc:
        forLanes(mask, [&](std::uint32_t l) { r[l] = static_cast<std::uint64_t>(std::popcount(asUnsigned(a[l], type))); });
        break;
    case Op::Clz:
        forLanes(mask, [&](std::uint32_t l) {
            r[l] = static_cast<std::uint64_t>(std::countl_zero(asUnsigned(a[l], type)) - (64 - bits));
        });
        break;
    case Op::Bfind:
        // The most significant non-sign bit (PTX ISA, "bfind"): of ~a for negative signed values;
        // 0xffffffff when there is none (0, or -1 signed); .shiftamt gives msb - position instead.
        forLanes(mask, [&](std::uint32_t l) {
            std::uint64_t x = asUnsigned(a[l], type);
            if (isSignedType && ((x >> (bits - 1)) & 1u))
                x = asUnsigned(~x, type);
            if (x == 0) {
                r[l] = 0xffffffffu;
                return;
            }
            const std::uint64_t position = static_cast<std::uint64_t>(63 - std::countl_zero(x));
            r[l] = in.shiftAmount ? static_cast<std::uint64_t>(bits - 1) - position : position;
        });
        break;
    case Op::Shf:
        // Funnel shift of the 64 bits {b:a} (PTX ISA, "shf"): .wrap shifts by c mod 32, .clamp by
        // min(c, 32); .l keeps the upper 32 bits of the result, .r the lower.
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t shift = in.clampShift ? std::min<std::uint64_t>(c[l] & 0xffffffffu, 32) : c[l] & 31u;
            const std::uint64_t wide = ((b[l] & 0xffffffffu) << 32) | (a[l] & 0xffffffffu);
            r[l] = in.funnelLeft ? ((wide << shift) >> 32) & 0xffffffffu : (wide >> shift) & 0xffffffffu;
        });
        break;
    case Op::Brev:
        forLanes(mask, [&](std::uint32_t l) {
            std::uint64_t x = asUnsigned(a[l], type), y = 0;
            for (int i = 0; i < bits; ++i)
                y |= ((x >> i) & 1u) << (bits - 1 - i);
            r[l] = y;
        });
        break;
    case Op::Bfe:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t position = b[l] & 0xff, length = c[l] & 0xff;
            const std::uint64_t x = asUnsigned(a[l], type);
            const std::uint64_t msb = static_cast<std::uint64_t>(bits - 1);
            const std::uint64_t signBit = isSignedType && length > 0
                ? (x >> std::min(position + length - 1, msb)) & 1u : 0;
            std::uint64_t y = 0;
            for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(bits); ++i) {
                const std::uint64_t bit = (i < length && position + i <= msb) ? (x >> (position + i)) & 1u : signBit;
                y |= bit << i;
            }
            r[l] = extend(y, type);
        });
        break;
    case Op::Bfi:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t position = c[l] & 0xff, length = d[l] & 0xff;
            std::uint64_t y = asUnsigned(b[l], type);
            for (std::uint64_t i = 0; i < length && position + i < static_cast<std::uint64_t>(bits); ++i) {
                const std::uint64_t bit = (a[l] >> i) & 1u;
                y = (y & ~(1ull << (position + i))) | (bit << (position + i));
            }
            r[l] = extend(y, type);
        });
        break;
    case Op::Prmt:
        notFloat();
        forLanes(mask, [&](std::uint32_t l) {
            const std::uint64_t bytes = (a[l] & 0xffffffffu) | ((b[l] & 0xffffffffu) << 32);
            const std::uint32_t selector = static_cast<std::uint32_t>(c[l]);
            std::uint32_t y = 0;
            for (int i = 0; i < 4; ++i) {
                const std::uint32_t select = (selector >> (4 * i)) & 0xfu;
                std::uint32_t byte = static_cast<std::uint32_t>((bytes >> (8 * (select & 7u))) & 0xffu);
                if (select & 8u) // replicate the sign bit
                    byte = (byte & 0x80u) ? 0xffu : 0u;
                y |= byte << (8 * i);
            }
            r[l] = y;
        });
        break;
    case Op::Lop3: {
        notFloat();
        const std::uint64_t table = in.operands[4].imm & 0xff;
        forLanes(mask, [&](std::uint32_t l) {
            std::uint64_t y = 0;
            for (int minterm = 0; minterm < 8; ++minterm) {
                if (!((table >> minterm) & 1u))
                    continue;
                y |= ((minterm & 4) ? a[l] : ~a[l]) & ((minterm & 2) ? b[l] : ~b[l]) & ((minterm & 1) ? c[l] : ~c[l]);
            }
            r[l] = extend(y, type);
        });
        break;
    }
    case Op::Selp:
        forLanes(mask, [&](std::uint32_t l) { r[l] = extend((c[l] & 1u) ? a[l] : b[l], type); });
        break;
    default:
        throw ptx::PtxError::unsupported(in.text, in.ptxLine);
    }
    write(warp, in.operands[0].reg, r, mask);
}

void BlockRunner::executeCompare(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const Type type = in.type;
    if (ptx::isHalf(type)) {
        executeHalfCompare(warp, in, mask);
        return;
    }
    LaneValues aStore, bStore, c, r, q;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = source(warp, in.operands[2], bStore);
    if (in.boolOp != ptx::BoolOp::None)
        read(warp, in.operands[3], c);
    else
        c.fill(0);
    using C = ptx::CmpOp;
    const C cmp = in.cmp;
    // Integer comparisons without a boolean combine: one tight loop per comparison.
    if (!ptx::isFloat(type) && in.boolOp == ptx::BoolOp::None) {
        const bool signedCompare = ptx::isSigned(type);
        auto compareAll = [&](auto&& predicate) {
            forLanes(mask, [&](std::uint32_t l) {
                const bool result = predicate(l);
                r[l] = result ? 1 : 0;
                q[l] = result ? 0 : 1;
            });
        };
        auto s = [&](std::uint32_t l, const std::uint64_t* v) { return asSigned(v[l], type); };
        auto u = [&](std::uint32_t l, const std::uint64_t* v) { return asUnsigned(v[l], type); };
        switch (cmp) {
        case C::Eq: compareAll([&](std::uint32_t l) { return u(l, a) == u(l, b); }); break;
        case C::Ne: compareAll([&](std::uint32_t l) { return u(l, a) != u(l, b); }); break;
        case C::Lt:
            if (signedCompare)
                compareAll([&](std::uint32_t l) { return s(l, a) < s(l, b); });
            else
                compareAll([&](std::uint32_t l) { return u(l, a) < u(l, b); });
            break;
        case C::Le:
            if (signedCompare)
                compareAll([&](std::uint32_t l) { return s(l, a) <= s(l, b); });
            else
                compareAll([&](std::uint32_t l) { return u(l, a) <= u(l, b); });
            break;
        case C::Gt:
            if (signedCompare)
                compareAll([&](std::uint32_t l) { return s(l, a) > s(l, b); });
            else
                compareAll([&](std::uint32_t l) { return u(l, a) > u(l, b); });
            break;
        case C::Ge:
            if (signedCompare)
                compareAll([&](std::uint32_t l) { return s(l, a) >= s(l, b); });
            else
                compareAll([&](std::uint32_t l) { return u(l, a) >= u(l, b); });
            break;
        case C::Lo: compareAll([&](std::uint32_t l) { return u(l, a) < u(l, b); }); break;
        case C::Ls: compareAll([&](std::uint32_t l) { return u(l, a) <= u(l, b); }); break;
        case C::Hi: compareAll([&](std::uint32_t l) { return u(l, a) > u(l, b); }); break;
        case C::Hs: compareAll([&](std::uint32_t l) { return u(l, a) >= u(l, b); }); break;
        default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
        }
        write(warp, in.operands[0].reg, r, mask);
        if (in.operands[0].pairReg >= 0)
            write(warp, in.operands[0].pairReg, q, mask);
        return;
    }
    forLanes(mask, [&](std::uint32_t l) {
        bool result = false;
        if (ptx::isFloat(type)) {
            const double x = type == Type::F32 ? static_cast<double>(flushF32(toF32(a[l]), in.ftz)) : toF64(a[l]);
            const double y = type == Type::F32 ? static_cast<double>(flushF32(toF32(b[l]), in.ftz)) : toF64(b[l]);
            const bool unordered = std::isnan(x) || std::isnan(y);
            switch (cmp) {
            case C::Eq: result = !unordered && x == y; break;
            case C::Ne: result = !unordered && x != y; break;
            case C::Lt: result = !unordered && x < y; break;
            case C::Le: result = !unordered && x <= y; break;
            case C::Gt: result = !unordered && x > y; break;
            case C::Ge: result = !unordered && x >= y; break;
            case C::Equ: result = unordered || x == y; break;
            case C::Neu: result = unordered || x != y; break;
            case C::Ltu: result = unordered || x < y; break;
            case C::Leu: result = unordered || x <= y; break;
            case C::Gtu: result = unordered || x > y; break;
            case C::Geu: result = unordered || x >= y; break;
            case C::Num: result = !unordered; break;
            case C::Nan: result = unordered; break;
            default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
            }
        } else {
            const bool signedCompare = ptx::isSigned(type);
            const std::int64_t sx = asSigned(a[l], type), sy = asSigned(b[l], type);
            const std::uint64_t ux = asUnsigned(a[l], type), uy = asUnsigned(b[l], type);
            switch (cmp) {
            case C::Eq: result = ux == uy; break;
            case C::Ne: result = ux != uy; break;
            case C::Lt: result = signedCompare ? sx < sy : ux < uy; break;
            case C::Le: result = signedCompare ? sx <= sy : ux <= uy; break;
            case C::Gt: result = signedCompare ? sx > sy : ux > uy; break;
            case C::Ge: result = signedCompare ? sx >= sy : ux >= uy; break;
            case C::Lo: result = ux < uy; break;
            case C::Ls: result = ux <= uy; break;
            case C::Hi: result = ux > uy; break;
            case C::Hs: result = ux >= uy; break;
            default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
            }
        }
        bool complement = !result;
        const bool other = (c[l] & 1u) != 0;
        switch (in.boolOp) {
        case ptx::BoolOp::And: result = result && other; complement = complement && other; break;
        case ptx::BoolOp::Or: result = result || other; complement = complement || other; break;
        case ptx::BoolOp::Xor: result = result != other; complement = complement != other; break;
        case ptx::BoolOp::None: break;
        }
        r[l] = result ? 1 : 0;
        q[l] = complement ? 1 : 0;
    });
    write(warp, in.operands[0].reg, r, mask);
    if (in.operands[0].pairReg >= 0)
        write(warp, in.operands[0].pairReg, q, mask);
}

// cvt (PTX ISA, "cvt"): integer <-> integer by truncation or extension (.sat clamps), float -> integer
// with an integer rounding mode, saturating, NaN -> 0; integer -> float and float -> float rounded
// to nearest even.
void BlockRunner::executeConvert(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const Type to = in.type, from = in.type2;
    if (ptx::isHalf(to) || ptx::isHalf(from)) {
        executeHalfConvert(warp, in, mask);
        return;
    }
    if (to == Type::TF32) {
        executeTf32Convert(warp, in, mask);
        return;
    }
    LaneValues a, r;
    read(warp, in.operands[1], a);
    const bool toFloat = ptx::isFloat(to), fromFloat = ptx::isFloat(from);
    const int toBits = ptx::typeBits(to);
    using R = ptx::Rounding;
    const RoundingDirection direction = roundingDirection(in.rounding); // .rn .rz .rm .rp of a float result
    const bool directed = direction != RoundingDirection::NearestEven;
    auto roundInteger = [&](double x) {
        switch (in.rounding) {
        case R::Rni: return std::nearbyint(x); // the host rounds to nearest even by default
        case R::Rzi: return std::trunc(x);
        case R::Rmi: return std::floor(x);
        case R::Rpi: return std::ceil(x);
        default: return x;
        }
    };
    forLanes(mask, [&](std::uint32_t l) {
        if (fromFloat && !toFloat) {
            double x = from == Type::F32 ? static_cast<double>(flushF32(toF32(a[l]), in.ftz)) : toF64(a[l]);
            if (std::isnan(x)) { // PTX ISA, cvt: 0, or 1 << (bits - 1) from .f64 or into 64 bits
                r[l] = from == Type::F64 || toBits == 64 ? extend(1ull << (toBits - 1), to) : 0;
                return;
            }
            x = roundInteger(x);
            if (ptx::isSigned(to)) {
                const double high = std::ldexp(1.0, toBits - 1);
                const std::int64_t v = x >= high ? static_cast<std::int64_t>((static_cast<UInt128>(1) << (toBits - 1)) - 1)
                                     : x < -high ? static_cast<std::int64_t>(-(static_cast<Int128>(1) << (toBits - 1)))
                                                 : static_cast<std::int64_t>(x);
                r[l] = extend(static_cast<std::uint64_t>(v), to);
            } else {
                const double high = std::ldexp(1.0, toBits);
                const std::uint64_t v = x <= 0 ? 0 : x >= high ? (toBits == 64 ? ~0ull : (1ull << toBits) - 1)
                                                               : static_cast<std::uint64_t>(x);
                r[l] = extend(v, to);
            }
        } else if (!fromFloat && toFloat) {
            const bool signedSource = ptx::isSigned(from);
            if (to == Type::F32) {
                float v = !directed ? (signedSource ? static_cast<float>(asSigned(a[l], from)) : static_cast<float>(asUnsigned(a[l], from)))
                        : signedSource ? roundedF32(asSigned(a[l], from), direction) : roundedF32(asUnsigned(a[l], from), direction);
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF32(v);
            } else {
                double v = !directed ? (signedSource ? static_cast<double>(asSigned(a[l], from)) : static_cast<double>(asUnsigned(a[l], from)))
                         : signedSource ? roundedF64(asSigned(a[l], from), direction) : roundedF64(asUnsigned(a[l], from), direction);
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF64(v);
            }
        } else if (fromFloat && toFloat) {
            double x = from == Type::F32 ? static_cast<double>(flushF32(toF32(a[l]), in.ftz)) : toF64(a[l]);
            if (in.rounding == R::Rni || in.rounding == R::Rzi || in.rounding == R::Rmi || in.rounding == R::Rpi)
                x = roundInteger(x);
            if (to == Type::F32) {
                float v = flushF32(directed ? roundedF32(x, direction) : static_cast<float>(x), in.ftz);
                if (in.saturate) v = saturateFloat(v);
                r[l] = fromF32(v);
            } else {
                if (in.saturate) x = saturateFloat(x);
                r[l] = fromF64(x);
            }
        } else {
            // Integer to integer: the source value, then truncation or extension to the destination.
            const bool signedSource = ptx::isSigned(from);
            if (in.saturate) {
                const Int128 v = signedSource ? static_cast<Int128>(asSigned(a[l], from))
                                                : static_cast<Int128>(asUnsigned(a[l], from));
                const Int128 high = ptx::isSigned(to) ? (static_cast<Int128>(1) << (toBits - 1)) - 1
                                                        : (static_cast<Int128>(1) << toBits) - 1;
                const Int128 low = ptx::isSigned(to) ? -(static_cast<Int128>(1) << (toBits - 1)) : 0;
                r[l] = extend(static_cast<std::uint64_t>(v > high ? high : v < low ? low : v), to);
            } else {
                const std::uint64_t v = signedSource ? static_cast<std::uint64_t>(asSigned(a[l], from)) : asUnsigned(a[l], from);
                r[l] = extend(v, to);
            }
        }
    });
    write(warp, in.operands[0].reg, r, mask);
}

} // namespace warpscope::sim
