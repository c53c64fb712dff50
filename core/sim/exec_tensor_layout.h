// Tensor Core fragments: which matrix element each lane's register holds, how elements are packed in
// a register, and how they are read and rounded (core/sim/README.md, "Tensor Cores"). Used by
// exec_tensor.cpp; plain functions of the instruction, so they need no simulator state.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>

namespace warpscope::sim::tensor {

enum class Role : std::uint8_t { A, B, C }; // C stands for D too: they share a layout

struct MatrixCoord {
    int row = 0;
    int col = 0;
};

// The (row, column) of element `e` of `lane`'s fragment. A is M x K, B is K x N, C and D are M x N.
MatrixCoord fragmentElement(const ptx::Instruction& in, Role role, int lane, int e);
// The element type an operand holds (destination: D's, else C's for Role::C).
ptx::Type fragmentType(const ptx::Instruction& in, Role role, bool destination);
Role roleOf(ptx::MatrixFragment fragment);
// Elements per 32-bit (or 64-bit .f64) register: 4 for .s8/.u8, 2 for .f16/.bf16, else 1.
int elementsPerRegister(ptx::Type type);
// Element `e`'s bits within its register (element e % perRegister, lowest first).
std::uint64_t elementBits(std::uint64_t registerValue, ptx::Type type, int e);
// A floating-point element's value; .tf32 reads the top 19 bits of the register (truncation).
double elementValue(std::uint64_t bits, ptx::Type type);
// An integer element's value: .s8 and .s32 sign-extended, .u8 zero-extended.
std::int64_t integerElementValue(std::uint64_t bits, ptx::Type type);
// `value` rounded once to nearest even in `type` (.f16 .bf16 .f32 .f64); satfinite: see the .cpp.
std::uint64_t roundedElement(double value, ptx::Type type, bool satfinite);
// An exact integer sum as D's .s32: wrapped modulo 2^32, or clamped to the s32 range with satfinite.
std::uint64_t integerResult(std::int64_t sum, bool satfinite);
constexpr bool isByteType(ptx::Type type) { return type == ptx::Type::S8 || type == ptx::Type::U8; }

} // namespace warpscope::sim::tensor
