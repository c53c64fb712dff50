// Floating point beyond IEEE round-to-nearest arithmetic: the approximate instructions (ex2, lg2,
// rsqrt, sin, cos, tanh), copysign, and directed rounding (.rz .rm .rp) of add, sub, mul, fma, mad,
// div, rcp and sqrt. The numbers come from float_math.h, which documents how close they are to the
// GPU's.
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"
#include "sim/lane_math.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace warpscope::sim {

using namespace lanes;
using ptx::Op;
using ptx::Type;

void BlockRunner::executeFloatFunction(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    if (ptx::isHalf(in.type)) {
        executeHalf(warp, in, mask);
        return;
    }
    LaneValues aStore, bStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const bool ftz = in.ftz;
    const bool isF64 = in.type == Type::F64;
    switch (in.op) {
    case Op::Ex2: forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateEx2(toF32(a[l]), ftz)); }); break;
    case Op::Lg2: forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateLg2(toF32(a[l]), ftz)); }); break;
    case Op::Sin: forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateSin(toF32(a[l]), ftz)); }); break;
    case Op::Cos: forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateCos(toF32(a[l]), ftz)); }); break;
    case Op::Tanh: forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateTanh(toF32(a[l]))); }); break;
    case Op::Rsqrt:
        if (isF64)
            forLanes(mask, [&](std::uint32_t l) { r[l] = fromF64(approximateRsqrt(toF64(a[l]))); });
        else
            forLanes(mask, [&](std::uint32_t l) { r[l] = fromF32(approximateRsqrt(toF32(a[l]), ftz)); });
        break;
    case Op::Copysign: {
        // copysign d, a, b: b's magnitude with a's sign (PTX ISA: "Copy sign bit of a into value of b").
        const std::uint64_t* b = source(warp, in.operands[2], bStore);
        const std::uint64_t sign = isF64 ? 1ull << 63 : 1ull << 31;
        forLanes(mask, [&](std::uint32_t l) { r[l] = (b[l] & ~sign & (isF64 ? ~0ull : 0xffffffffull)) | (a[l] & sign); });
        break;
    }
    default:
        throw ptx::PtxError::unsupported(in.text, in.ptxLine);
    }
    write(warp, in.operands[0].reg, r, mask);
}

// An f32/f64 add or sub that takes the product of a mul ptxas fuses into it (contraction.h): one
// fma, a*b + c, with the mul's operands as they are now (the contraction rule ensures they have not
// changed since the mul).
void BlockRunner::executeContractedFloat(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const ptx::Instruction& mul = m_function.instructions[static_cast<std::size_t>(in.contractedMul)];
    LaneValues aStore, bStore, otherStore, r;
    const std::uint64_t* a = source(warp, mul.operands[1], aStore);
    const std::uint64_t* b = source(warp, mul.operands[2], bStore);
    const std::uint64_t* other = source(warp, in.operands[in.contractedOperand == 1 ? 2 : 1], otherStore);
    // add: p + o; sub with the product first: p - o; with it second: o - p = (-a) * b + o.
    const bool negateProduct = in.op == Op::Sub && in.contractedOperand == 2;
    const bool negateOther = in.op == Op::Sub && in.contractedOperand == 1;
    const bool ftz = in.ftz;
    if (in.type == Type::F32) {
        forLanes(mask, [&](std::uint32_t l) {
            const float x = flushF32(toF32(a[l]), ftz), y = flushF32(toF32(b[l]), ftz), z = flushF32(toF32(other[l]), ftz);
            float v = std::fma(negateProduct ? -x : x, y, negateOther ? -z : z);
            v = flushF32(v, ftz);
            if (in.saturate) v = saturateFloat(v);
            r[l] = fromF32(v);
        });
    } else {
        forLanes(mask, [&](std::uint32_t l) {
            const double x = toF64(a[l]), y = toF64(b[l]), z = toF64(other[l]);
            double v = std::fma(negateProduct ? -x : x, y, negateOther ? -z : z);
            if (in.saturate) v = saturateFloat(v);
            r[l] = fromF64(v);
        });
    }
    write(warp, in.operands[0].reg, r, mask);
}

// An f32/f64 add, sub, mul, fma, mad, div, rcp or sqrt with .rz, .rm or .rp: one rounding, in that
// direction, of the exact result. .ftz and .sat apply as for .rn.
void BlockRunner::executeRoundedFloat(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const int sources = in.operandCount - 1;
    LaneValues aStore, bStore, cStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = sources >= 2 ? source(warp, in.operands[2], bStore) : aStore.data();
    const std::uint64_t* c = sources >= 3 ? source(warp, in.operands[3], cStore) : aStore.data();
    FloatOp op = FloatOp::Add;
    switch (in.op) {
    case Op::Add: op = FloatOp::Add; break;
    case Op::Sub: op = FloatOp::Sub; break;
    case Op::Mul: op = FloatOp::Mul; break;
    case Op::Fma: case Op::Mad: op = FloatOp::Fma; break;
    case Op::Div: op = FloatOp::Div; break;
    case Op::Rcp: op = FloatOp::Rcp; break;
    case Op::Sqrt: op = FloatOp::Sqrt; break;
    default: throw ptx::PtxError::unsupported(in.text, in.ptxLine);
    }
    const RoundingDirection direction = roundingDirection(in.rounding);
    const bool ftz = in.ftz;
    if (in.type == Type::F32) {
        forLanes(mask, [&](std::uint32_t l) {
            float v = roundedF32(op, flushF32(toF32(a[l]), ftz), flushF32(toF32(b[l]), ftz), flushF32(toF32(c[l]), ftz),
                                 direction);
            v = flushF32(v, ftz);
            if (in.saturate) v = saturateFloat(v);
            r[l] = fromF32(v);
        });
    } else {
        forLanes(mask, [&](std::uint32_t l) {
            double v = roundedF64(op, toF64(a[l]), toF64(b[l]), toF64(c[l]), direction);
            if (in.saturate) v = saturateFloat(v);
            r[l] = fromF64(v);
        });
    }
    write(warp, in.operands[0].reg, r, mask);
}

} // namespace warpscope::sim
