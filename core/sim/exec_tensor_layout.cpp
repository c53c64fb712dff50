// Tensor Core fragment layouts and element arithmetic (core/sim/README.md, "Tensor Cores").
//
// mma.sync: the PTX ISA's figures, element by element, with groupID = lane >> 2 and
// threadID_in_group = lane % 4 ("Matrix Fragments for mma.m16n8k4", "... mma.m16n8k8",
// "... mma.m16n8k16 with floating point type", "... mma.m16n8k16 with integer type",
// "... mma.m16n8k32"). wmma.m8n8k4.f64: the layout of mma.m8n8k4.f64.
//
// wmma.m16n16kK: the ISA leaves the layout open, and only load -> mma -> store can be observed, so
// the simulator chooses one and keeps it: the 16 x 16 tile as two mma.m16n8kK tiles of the same
// element type side by side (modelled on the mma operations sm_80 builds it from; not checked
// against a GPU's registers). A's elements are the mma's A fragment; B's first half is the mma's B
// fragment for columns 0-7 and its second half that for columns 8-15; C's elements 0-3 are c0-c3 of
// columns 0-7 and 4-7 those of columns 8-15. An .f16 A or B fragment has 16 elements for 8 distinct
// values per lane: elements 8-15 repeat 0-7 (wmma.load writes both, wmma.mma reads 0-7).
// wmma.m32n8k16 and wmma.m8n32k16 follow the same rule: m32n8k16 is two m16n8k16 tiles one above
// the other (A: the upper tile's A fragment, then the lower one's; C: c0-c3 of rows 0-15, then of
// rows 16-31), m8n32k16 the top halves (rows 0-7) of four side by side (A: a0, a1, a4, a5 of .f16
// and .bf16, a0-a3 of .s8/.u8; B: four B fragments, columns 0-7 first; C: c0, c1 of each tile). An
// .f16 A or B fragment still has 16 elements (the ISA's eight .f16x2 registers): element e repeats
// element e mod the distinct count (m32n8k16 B and m8n32k16 A: 4 distinct, each four times).
#include "sim/exec_tensor_layout.h"

#include "sim/float_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace warpscope::sim::tensor {

using ptx::Op;
using ptx::Type;

namespace {

// mma.m16n8kK's A fragment (16 x K), element e of a lane in group g, thread tg of its group.
MatrixCoord mmaA(Type type, int k, int g, int tg, int e)
{
    if (type == Type::TF32) {
        if (k == 4) // a0 at row groupID, a1 at groupID + 8; column threadID_in_group
            return {g + 8 * e, tg};
        // k8: rows groupID (a0, a2) and groupID + 8 (a1, a3); columns tg (a0, a1) and tg + 4 (a2, a3)
        return {g + 8 * (e & 1), tg + 4 * (e >> 1)};
    }
    if (isByteType(type)) {
        if (k == 16) // rows groupID (a0-a3), groupID + 8 (a4-a7); column tg * 4 + (i & 3)
            return {g + 8 * (e >> 2), tg * 4 + (e & 3)};
        // k32: rows groupID (a0-a3, a8-a11), groupID + 8 (others); column tg * 4 + (i & 3), +16 from a8
        return {g + 8 * ((e >> 2) & 1), tg * 4 + (e & 3) + 16 * (e >> 3)};
    }
    if (k == 8) // .f16/.bf16: rows groupID (a0, a1), groupID + 8 (a2, a3); column tg * 2 + (i & 1)
        return {g + 8 * (e >> 1), tg * 2 + (e & 1)};
    // k16: rows groupID (a0, a1, a4, a5), groupID + 8 (a2, a3, a6, a7); column tg * 2 + (i & 1), +8 from a4
    return {g + 8 * ((e >> 1) & 1), tg * 2 + (e & 1) + 8 * (e >> 2)};
}

// mma.m16n8kK's B fragment (K x 8): column groupID throughout.
MatrixCoord mmaB(Type type, int k, int g, int tg, int e)
{
    if (type == Type::TF32) // k4: b0 at row tg; k8: b0 at row tg, b1 at tg + 4
        return {tg + 4 * e, g};
    if (isByteType(type)) // k16: row tg * 4 + i; k32: row tg * 4 + (i & 3), +16 from b4
        return {tg * 4 + (e & 3) + 16 * (e >> 2), g};
    if (k == 8) // .f16/.bf16: row tg * 2 + i
        return {tg * 2 + e, g};
    return {tg * 2 + (e & 1) + 8 * (e >> 1), g}; // k16: row tg * 2 + (i & 1), +8 for b2, b3
}

// C and D of every m16n8kK: rows groupID (c0, c1) and groupID + 8 (c2, c3); column tg * 2 + (i & 1).
MatrixCoord mmaC(int g, int tg, int e) { return {g + 8 * (e >> 1), tg * 2 + (e & 1)}; }

// The index in mma.m16n8kK's A fragment of the j-th element in rows 0-7 (row groupID): m8n32k16's A
// is the top half of that fragment (.f16/.bf16 k16: a0, a1, a4, a5; .s8/.u8 k16: a0-a3).
int topHalfElement(Type type, int k, int j)
{
    for (int i = 0; i < k / 2; ++i)
        if (mmaA(type, k, 0, 0, i).row < 8 && j-- == 0)
            return i;
    return 0;
}

} // namespace

MatrixCoord fragmentElement(const ptx::Instruction& in, Role role, int lane, int e)
{
    const int g = lane >> 2;
    const int tg = lane & 3;
    if (in.shapeM == 8 && in.shapeN == 8) { // m8n8k4 .f64
        switch (role) {
        case Role::A: return {g, tg};
        case Role::B: return {tg, g};
        case Role::C: return {g, tg * 2 + (e & 1)};
        }
    }
    const int k = in.shapeK;
    const Type type = fragmentType(in, role, false);
    if (in.op == Op::Mma) {
        switch (role) {
        case Role::A: return mmaA(type, k, g, tg, e);
        case Role::B: return mmaB(type, k, g, tg, e);
        case Role::C: return mmaC(g, tg, e);
        }
    }
    // wmma m16n16kK, m32n8k16 and m8n32k16: a grid of mma.m16n8kK tiles, N / 8 across and M / 16
    // down (m8n32k16: the top halves, rows 0-7, of four tiles). A lane holds M * K / 32 distinct
    // elements of A and K * N / 32 of B (an .f16 fragment repeats them to fill its 16), numbered tile
    // by tile: A down the tiles, B and C across, then down.
    const int m = in.shapeM, n = in.shapeN;
    const int tilesAcross = n / 8;
    switch (role) {
    case Role::A: {
        const int j = e % (m * k / 32);
        if (m == 8) // the mma A elements of row groupID, in their order
            return mmaA(type, k, g, tg, topHalfElement(type, k, j));
        const int perTile = k / 2;
        MatrixCoord at = mmaA(type, k, g, tg, j % perTile);
        at.row += 16 * (j / perTile);
        return at;
    }
    case Role::B: {
        const int j = e % (k * n / 32), perTile = k / 4;
        MatrixCoord at = mmaB(type, k, g, tg, j % perTile);
        at.col += 8 * (j / perTile);
        return at;
    }
    case Role::C: {
        const int perTile = m == 8 ? 2 : 4, tile = e / perTile; // m8: c0, c1 (row groupID) only
        MatrixCoord at = mmaC(g, tg, e % perTile);
        at.col += 8 * (tile % tilesAcross);
        at.row += 16 * (tile / tilesAcross);
        return at;
    }
    }
    return {};
}

Type fragmentType(const ptx::Instruction& in, Role role, bool destination)
{
    if (role == Role::A)
        return in.multiplicandType;
    if (role == Role::B)
        return in.multiplicandTypeB != Type::None ? in.multiplicandTypeB : in.multiplicandType;
    return destination ? in.type : in.type2;
}

Role roleOf(ptx::MatrixFragment fragment)
{
    return fragment == ptx::MatrixFragment::A ? Role::A : fragment == ptx::MatrixFragment::B ? Role::B : Role::C;
}

int elementsPerRegister(Type type)
{
    const int bits = ptx::typeBits(type);
    return bits < 32 ? 32 / bits : 1;
}

std::uint64_t elementBits(std::uint64_t registerValue, Type type, int e)
{
    const int bits = ptx::typeBits(type);
    if (bits < 32) {
        const int perRegister = 32 / bits;
        return (registerValue >> (bits * (e % perRegister))) & ((std::uint64_t{1} << bits) - 1);
    }
    if (bits == 32)
        return registerValue & 0xffffffffu;
    return registerValue;
}

double elementValue(std::uint64_t bits, Type type)
{
    switch (type) {
    case Type::F16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::F16);
    case Type::BF16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::BF16);
    case Type::F32: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    // .tf32: the sign, the 8 exponent bits and the top 10 mantissa bits of the register; the low 13
    // bits are ignored (truncation). The ISA leaves the number of mantissa bits used open ("at least
    // 10", CUDA Math API, __nv_tf32); programs that want rounding use cvt.rna.tf32.f32 first.
    case Type::TF32: return std::bit_cast<float>(static_cast<std::uint32_t>(bits) & 0xffffe000u);
    default: return std::bit_cast<double>(bits);
    }
}

std::int64_t integerElementValue(std::uint64_t bits, Type type)
{
    switch (type) {
    case Type::S8: return static_cast<std::int8_t>(static_cast<std::uint8_t>(bits));
    case Type::U8: return static_cast<std::uint8_t>(bits);
    default: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)); // .s32
    }
}

// .satfinite on floating-point D (the .f16-multiplicand wmma.mma of PTX ISA 6.0-6.4): a result that
// would be infinite becomes the largest finite value of D's type with its sign. NaN stays NaN: the
// ISA no longer defines .satfinite on floating-point wmma (removed in PTX ISA 6.5), and its
// definition for the conversions to these formats (cvt, ".satfinite") keeps NaN a NaN.
std::uint64_t roundedElement(double value, Type type, bool satfinite)
{
    if (type == Type::F16 || type == Type::BF16)
        return halfFromDouble(value, type == Type::F16 ? HalfFormat::F16 : HalfFormat::BF16,
                              RoundingDirection::NearestEven, satfinite);
    if (type == Type::F32) {
        float rounded = static_cast<float>(value);
        if (satfinite && std::isinf(rounded))
            rounded = std::copysign(std::numeric_limits<float>::max(), rounded);
        return std::bit_cast<std::uint32_t>(rounded);
    }
    return std::bit_cast<std::uint64_t>(value);
}

// PTX ISA, mma, "Integer operations": with .satfinite "on overflow, the accumulated value is limited
// to the range MIN_INT32..MAX_INT32"; otherwise "the accumulated value is wrapped". The sum is exact
// here (at most 32 products of 8-bit values plus C), so the clamp applies once, to the final value.
std::uint64_t integerResult(std::int64_t sum, bool satfinite)
{
    if (satfinite)
        sum = std::clamp<std::int64_t>(sum, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum));
}

} // namespace warpscope::sim::tensor
