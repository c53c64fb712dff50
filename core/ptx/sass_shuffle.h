// Which SASS SHFL a PTX shfl became, and the register it reads in the source lane (issue 29,
// section 5). A lane that reads a lane not executing the shuffle gets, on a GPU, whatever that
// register holds there: ptxas's allocation decides it, so the SASS is what explains the value.
// Qt-free.
#pragma once

#include "ptx/ptx_ir.h"
#include "ptx/sass.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

// The register a SHFL reads in its source lane: "R7" of "SHFL.DOWN PT, R0, R7, 0x10, 0x1f" (its
// operands are the valid predicate, the destination, the source value, the lane or offset and the
// clamp); empty for an instruction that is not a SHFL or whose source is not a register.
std::string shuffleSourceRegister(const SassInstruction& instruction);

// The SHFLs of `function` that `shfl` (a PTX shfl.sync) may have become: the same mode (DOWN, UP,
// BFLY, IDX) and, where the PTX's lane or offset is a number, the same number; of those, the ones
// nvdisasm names at the PTX instruction's source line (any line of their inlining chain) when any is.
// In the function's order; empty when none matches.
std::vector<const SassInstruction*> sassShufflesOf(const SassFunction& function, const Instruction& shfl);
// The same for instruction `index` of `ptxFunction`, whose offset may be a register that a mov of a
// number set earlier in its basic block (NVRTC's unrolled loops: mov.u32 %r8, 16): that number counts.
std::vector<const SassInstruction*> sassShufflesOf(const SassFunction& function, const Function& ptxFunction,
                                                   std::int32_t index);

// One line for a hazard's details: "SASS for sm_90: SHFL.DOWN PT, R0, R7, 0x10, 0x1f (/*0060*/): it
// reads R7 in the source lane", one clause per SHFL found, or why none is named.
std::string describeSassShuffles(const SassFunction& function, const Instruction& shfl, const std::string& arch);
std::string describeSassShuffles(const SassFunction& function, const Function& ptxFunction, std::int32_t index,
                                 const std::string& arch);

// For each PTX line of `ptxLines` (a hazard's): describeSassShuffles of the shfl at that line in
// `entry` or a function it calls, with `ptx` compiled for options.arch (compileSass, cached); an empty
// text where no shfl is at the line. Throws what compileSass throws (SassToolMissing, ...).
std::map<int, std::string> describeSassShufflesAt(std::string_view ptx, const Module& module, const Function& entry,
                                                  const std::vector<int>& ptxLines, const SassOptions& options);

} // namespace warpscope::ptx
