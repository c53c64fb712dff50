// Contraction: which multiply-adds ptxas fuses. PTX lets the code generator fuse a mul and a
// dependent add or sub into one fma when neither names a rounding modifier (PTX ISA, "add": "mul/add
// sequences with no rounding modifiers may be optimized to use fused-multiply-add instructions"),
// and ptxas does: an fp16 dot product written as mul.f16x2 + add.f16x2 gives on an H200 exactly
// what fma.rn.f16x2 gives. The simulator follows the same rule so that its results match the GPU's.
#pragma once

#include "ptx/ptx_ir.h"

namespace warpscope::ptx {

// Marks each add or sub (f16, f16x2, bf16, bf16x2, f32, f64; no rounding modifier) that takes the
// product of a mul (same type, no rounding modifier, same .ftz, no .sat) as one of its operands,
// when that product is used nowhere else, the mul is in the same basic block before it under the
// same guard, and neither of the mul's operands changes in between (Instruction::contractedMul).
// Where both operands qualify, the first is fused. Needs the basic blocks (cfg.h).
void markContractions(Function& function);

} // namespace warpscope::ptx
