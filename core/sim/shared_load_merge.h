// Where ptxas merges scalar shared loads into one wider load (issue 29, section 4). The GPU runs the
// SASS, not the PTX: in matmul_tiled's inner loop, acc += As[ty][k] * Bs[k][tx] unrolled over k, the
// PTX has 16 scalar ld.shared.f32 of As at [%r+0], [%r+4], ... [%r+60], and ptxas 13 makes them
// four LDS.128 (`warpscope compile --sass` shows it; tests/sim/sass_test.cpp checks it). An H200
// then counts 24 shared-load wavefronts per warp and tile, not the PTX's 32
// (assets/recorded/h200/ladder-matmul.wsprof: 98,304 for n = 128, 512 warps x 8 tiles x 24).
//
// The rule, which reproduces those LDS.128 and LDS.64: scalar 32-bit ld.shared (weak, unguarded,
// not volatile) of one base (register or symbol) in one basic block, with no store, atomic, barrier,
// fence, call or write of the base register between them, whose immediate offsets are the four words
// g, g+4, g+8, g+12 of a 16-byte aligned g (else the two words g, g+4 of an 8-byte aligned g) are one
// load. The simulator counts them as one request of 16 (or 8) bytes per lane at the first of them
// in PTX order, when every active lane's address of word g is 16 (8) byte aligned (ptxas proves the
// alignment statically; the simulator checks it on the addresses); the others then count nothing.
// Each still loads its own value: only the counters follow the SASS. A model of what ptxas did,
// not a documented guarantee: another ptxas may merge differently.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>

namespace warpscope::sim {

struct SharedLoadMerge {
    std::uint32_t bytes = 0;     // 16 or 8 when the load is part of a merged group; 0 when alone
    std::int64_t startOffset = 0; // the group's first word's immediate offset (the load's own minus this is its place)
    bool leader = false;         // the group's first load in PTX order: it carries the group's cost
};

// The merge of function.instructions[index] (a scan of its basic block).
SharedLoadMerge sharedLoadMerge(const ptx::Function& function, std::int32_t index);

// The same, remembered per thread for the last few basic blocks asked about (the simulator asks on
// every shared load; a hot loop is one block).
SharedLoadMerge cachedSharedLoadMerge(const ptx::Function& function, std::int32_t index);

} // namespace warpscope::sim
