// The CPU gold references of the demo kernels, one function per manifest "gold" name. Each reads
// the launch, the scalar arguments and the initial buffers from a GoldContext and writes the
// contents every checked buffer must have after the kernel ran. findGold (gold_registry.cpp) maps
// the names to these functions.
//
// Floating-point results are reproduced bit for bit: each reference performs the same float
// operations in the same order as the kernel's PTX, including the fused multiply-adds nvcc emits.
#pragma once

#include "gold_context.h"

namespace warpscope::kernels::gold {

// vector_add
void vectorAdd(GoldContext& context);

// copy
void copyCoalesced(GoldContext& context);
void copyStrided(GoldContext& context);
void copyOffset(GoldContext& context);
void copyVec4GridStride(GoldContext& context);

// reduction
void reduceInterleavedDivergent(GoldContext& context);
void reduceInterleavedBankConflicts(GoldContext& context);
void reduceSequential(GoldContext& context);
void reduceFirstAddDuringLoad(GoldContext& context);
void reduceUnrollLastWarp(GoldContext& context);
void reduceWarpShuffle(GoldContext& context);
void reduceVec4GridStride(GoldContext& context);

// transpose
void transposeNaive(GoldContext& context);
void transposeTiled(GoldContext& context);
void transposePadded(GoldContext& context);

// matmul
void matmulNaive(GoldContext& context);
void matmulTiled(GoldContext& context);
void matmul1dBlocktile(GoldContext& context);
void matmul2dBlocktile(GoldContext& context);
void matmulVectorized(GoldContext& context);
void matmulWarptile(GoldContext& context);
void matmulPrefetch(GoldContext& context);
void matmulWmma(GoldContext& context);

// mma
void matmulMma(GoldContext& context);

// divergence
void divergenceOddEven(GoldContext& context);
void divergenceDataLoop(GoldContext& context);

// histogram
void histogramSharedAtomics(GoldContext& context);

// stencil
void stencil1d(GoldContext& context);

// attention
void attentionScores(GoldContext& context);
void attentionSoftmax(GoldContext& context);
void attentionPv(GoldContext& context);
void attentionFused(GoldContext& context);

} // namespace warpscope::kernels::gold
