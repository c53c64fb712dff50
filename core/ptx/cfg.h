// Control flow: basic blocks, their edges, and immediate post-dominators, which are where a
// divergent warp reconverges in the classic SIMT stack model.
#pragma once

#include "ptx/ptx_ir.h"

namespace warpscope::ptx {

// Splits function.instructions into blocks, links them, and computes immediate post-dominators
// (block index, or -1 for the virtual exit that every ret/exit reaches) and reconvergence points:
// the immediate post-dominators once early-return paths are set aside (see cfg.cpp). Branch
// operands are rewritten from instruction indices to block indices.
void buildControlFlow(Function& function);

} // namespace warpscope::ptx
