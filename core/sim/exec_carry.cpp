// Extended-precision integer arithmetic (PTX ISA, "Extended-Precision Integer Arithmetic
// Instructions"): add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{.hi,.lo}.cc and madc{.hi,.lo}{.cc} on
// .u32 .s32 .u64 .s64. Each thread has one carry flag, CC.CF, kept per lane in
// WarpState::carryFlags: an instruction with .cc writes it, addc/subc/madc read it, and it keeps
// its value across any other instructions in between (core/sim/README.md, "Carry").
//
// The carry is that of the operands' bit patterns added as unsigned numbers, for the signed types
// too (the ISA defines no signed carry; two's complement addition is the same either way). For sub
// and subc the flag is the borrow: d = a - (b + CC.CF), CC.CF = 1 when b + CC.CF exceeds a.
#include "sim/block_runner.h"

#include "sim/lane_math.h"

#include <cstdint>

namespace warpscope::sim {

using ptx::Op;
using namespace lanes;

void BlockRunner::executeWithCarry(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const ptx::Type type = in.type;
    const int bits = ptx::typeBits(type); // 32 or 64 (ptx_opcode.cpp admits nothing else)
    LaneValues aStore, bStore, cStore, r;
    const std::uint64_t* a = source(warp, in.operands[1], aStore);
    const std::uint64_t* b = source(warp, in.operands[2], bStore);
    const std::uint64_t* c = in.op == Op::Mad ? source(warp, in.operands[3], cStore) : nullptr;
    std::uint32_t carries = warp.carryFlags;
    forLanes(mask, [&](std::uint32_t l) {
        const UInt128 carryIn = in.carryIn ? (warp.carryFlags >> l) & 1u : 0u;
        const UInt128 x = asUnsigned(a[l], type), y = asUnsigned(b[l], type);
        UInt128 wide = 0;  // the exact result before it is cut to `bits`
        bool carryOut = false;
        if (in.op == Op::Sub) {
            const UInt128 subtrahend = y + carryIn;
            carryOut = x < subtrahend; // the borrow
            wide = x - subtrahend;
        } else {
            UInt128 addend = y;
            if (in.op == Op::Mad) { // the .lo or .hi half of a * b, plus c
                UInt128 half = 0;
                if (in.mulMode == ptx::MulMode::Lo) {
                    half = asUnsigned(a[l] * b[l], type);
                } else if (ptx::isSigned(type)) {
                    const Int128 product = static_cast<Int128>(asSigned(a[l], type)) * asSigned(b[l], type);
                    half = asUnsigned(static_cast<std::uint64_t>(product >> bits), type);
                } else {
                    half = asUnsigned(static_cast<std::uint64_t>((x * y) >> bits), type);
                }
                wide = half;
                addend = asUnsigned(c[l], type);
            } else {
                wide = x;
            }
            wide += addend + carryIn;
            carryOut = (wide >> bits) != 0;
        }
        r[l] = extend(static_cast<std::uint64_t>(wide), type);
        if (in.carryOut)
            carries = carryOut ? carries | (1u << l) : carries & ~(1u << l);
    });
    write(warp, in.operands[0].reg, r, mask);
    warp.carryFlags = carries;
}

} // namespace warpscope::sim
