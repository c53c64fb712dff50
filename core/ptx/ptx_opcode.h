// Opcode decoding: "setp.ge.s32" -> Op::Setp, CmpOp::Ge, Type::S32. Throws PtxError::unsupported.
#pragma once

#include "ptx/ptx_ir.h"

#include <optional>
#include <string_view>

namespace warpscope::ptx {

// Fills instruction.op and its modifiers from the opcode text; instruction.ptxLine must be set.
void decodeOpcode(std::string_view opcode, Instruction& instruction);

} // namespace warpscope::ptx
