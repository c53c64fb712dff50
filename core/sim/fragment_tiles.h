// The stepper's fragment view, apart from any drawing: the matrices a Tensor Core instruction
// (wmma.load, wmma.store, wmma.mma, mma.sync, ldmatrix, stmatrix) reads or writes, rebuilt from the
// warp's registers as tiles of decoded values, each element with the lane, register and half that
// hold it. The layouts are the simulator's own (exec_tensor_layout.h): the PTX ISA's figures for
// mma.sync and ldmatrix, the simulator's chosen model for wmma (the ISA leaves it open).
#pragma once

#include "ptx/ptx_ir.h"
#include "sim/block_recording.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::sim::tensor {

// One element of a tile and where the warp holds it.
struct TileElement {
    bool held = false;       // a lane of the fragment holds it (false only for a tile left partly unread)
    int lane = 0;            // the lane that holds it
    int registerIndex = 0;   // which register of the operand's {...} list, from 0
    std::int32_t reg = -1;   // that PTX register (ptx::kVectorImmediate or ptx::kSink when not a register)
    int part = 0;            // which element of the register: 0 is the lowest bits
    int fragmentIndex = 0;   // the element's index in the lane's fragment (CUDA's frag.x[i], mma's a0, a1, ...)
    int copies = 1;          // registers of the lane that hold it (wmma's .f16 A and B repeat elements)
    std::uint64_t bits = 0;  // the element's bits
    double value = 0;        // decoded: the float or the integer it stands for
};

struct FragmentTile {
    char name = 'A';           // 'A', 'B', 'C', 'D'; ldmatrix and stmatrix: '0'..'3', one per 8 x 8 matrix
    ptx::Type type = ptx::Type::None; // the elements' type (.b16 of ldmatrix: the type it is decoded as)
    int rows = 0, cols = 0;
    int operand = 0;           // the instruction's operand that holds the registers
    bool written = false;      // the instruction writes these registers: the values are the ones after it
    std::vector<TileElement> elements; // row-major, rows x cols

    const TileElement& at(int row, int col) const { return elements[static_cast<std::size_t>(row * cols + col)]; }
};

struct FragmentView {
    std::string title;         // "wmma.mma m16n16k16: D = A x B + C"
    bool multiply = false;     // tiles A, B, C, D in that order
    int m = 0, n = 0, k = 0;
    std::vector<FragmentTile> tiles;
    std::string layoutSource;  // where the layout comes from (the ISA's figure, or the simulator's wmma model)
};

// A register's 32 lanes before the instruction (`after` false) or after it; null when unknown.
using LaneRegisters = std::function<const std::uint64_t*(std::int32_t reg, bool after)>;

// Whether the instruction moves or multiplies fragments: wmma.*, mma.sync, ldmatrix, stmatrix.
bool showsFragments(const ptx::Instruction& in);
// The tiles of `in`, from its registers; `halfType` is how ldmatrix's and stmatrix's .b16 elements
// are decoded (ldmatrixElementType). nullopt when `in` does not show fragments.
std::optional<FragmentView> fragmentView(const ptx::Instruction& in, const LaneRegisters& registers,
                                         ptx::Type halfType = ptx::Type::F16);
// The type an ldmatrix's (or stmatrix's) .b16 elements are used as: that of the first mma after
// instruction `pc` whose A or B list names one of its registers; nullopt when none does.
std::optional<ptx::Type> ldmatrixElementType(const ptx::Function& function, std::size_t pc);

// D(row, col) of a multiply view, term by term as the simulator sums it: C first, then A(row, i) x
// B(i, col) for i = 0 .. k-1, each partial sum exact in double (see exec_tensor.cpp).
struct MultiplyTerms {
    double c = 0;
    std::vector<double> products; // A(row, i) * B(i, col)
    std::vector<double> partial;  // C + the products up to and including i
    double d = 0;                 // D's element as the instruction wrote it
};
MultiplyTerms multiplyTerms(const FragmentView& view, int row, int col);

// The caption of a matrix instruction's memory access (wmma.load, wmma.store, ldmatrix, stmatrix),
// which the simulator counts as several warp-wide requests: one per fragment register (one per
// element where a register's elements are not adjacent in memory), or one per 8 x 8 matrix. Says
// how many, and that lesson 07's "bank conflicts = wavefronts - 1" holds per request: conflicts =
// wavefronts - requests. Empty for any other instruction.
std::string matrixAccessCaption(const ptx::Instruction& in, const RecordedAccess& access);

// "f16 0x3c00", "s8 -3": an element's type and bits as the tooltips write them.
std::string elementBitsText(const FragmentTile& tile, const TileElement& element);
// "a4" (mma's names, PTX ISA) or "x[4]" (wmma: CUDA's fragment element): the element's name in its lane.
std::string fragmentElementName(const ptx::Instruction& in, const FragmentTile& tile, const TileElement& element);

} // namespace warpscope::sim::tensor
