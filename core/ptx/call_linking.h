// Calls: each kernel that calls device functions gets a copy of every function it can reach after
// its own code (ptx_ir.h, FunctionRegion), and each call site learns its callee's region or the
// builtin it stands for (vprintf, __assertfail). A call to a function that has no body in the module
// and that the simulator does not provide is noted as unsupported.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <string_view>

namespace warpscope::ptx {

// The stack a thread gets when its call graph is recursive: CUDA's default cudaLimitStackSize
// (CUDA Runtime API, cudaDeviceSetLimit: "cudaLimitStackSize ... the stack size in bytes of each GPU
// thread"; 1 KiB unless the program raises it).
inline constexpr std::uint64_t kDeviceStackBytes = 1024;

// The builtin a callee name stands for (Builtin::None for any other name).
Builtin builtinNamed(std::string_view name);

// Run once the module's functions are finished (CFGs built): resolves calls and links every kernel
// that makes them.
void linkCalls(Module& module);

} // namespace warpscope::ptx
