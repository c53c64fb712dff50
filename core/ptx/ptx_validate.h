// Operand shapes the executor relies on: every instruction the parser accepts has them.
#pragma once

#include "ptx/ptx_ir.h"

#include <string_view>

namespace warpscope::ptx {

// Throws PtxError (with the instruction's PTX line) when the operands do not fit the opcode.
void validateOperands(const Function& function, const Instruction& instruction, std::string_view opcode);

} // namespace warpscope::ptx
