// The PTX front end: text as nvcc or NVRTC emits it -> Module (functions, decoded instructions,
// registers, symbols with their layout, basic blocks with immediate post-dominators, line map).
#pragma once

#include "ptx/ptx_ir.h"

#include <string_view>

namespace warpscope::ptx {

// Parses a whole module. Throws PtxError (an InputError) naming the PTX line for malformed text and
// "unsupported PTX instruction 'X' at line N" for anything the simulator cannot execute faithfully.
Module parseModule(std::string_view text);

} // namespace warpscope::ptx
