// The table from manifest "gold" names to the gold reference functions declared in
// gold_functions.h. Every manifest's "gold" value must appear here.
#include "gold_context.h"
#include "gold_functions.h"

#include <array>
#include <string_view>
#include <utility>

namespace warpscope::kernels {

namespace {

constexpr std::array<std::pair<std::string_view, GoldFunction>, 32> kGoldReferences = {{
    {"vector_add", &gold::vectorAdd},
    {"copy_coalesced", &gold::copyCoalesced},
    {"copy_strided", &gold::copyStrided},
    {"copy_offset", &gold::copyOffset},
    {"copy_vec4_grid_stride", &gold::copyVec4GridStride},
    {"reduce_interleaved_divergent", &gold::reduceInterleavedDivergent},
    {"reduce_interleaved_bank_conflicts", &gold::reduceInterleavedBankConflicts},
    {"reduce_sequential", &gold::reduceSequential},
    {"reduce_first_add_during_load", &gold::reduceFirstAddDuringLoad},
    {"reduce_unroll_last_warp", &gold::reduceUnrollLastWarp},
    {"reduce_warp_shuffle", &gold::reduceWarpShuffle},
    {"reduce_vec4_grid_stride", &gold::reduceVec4GridStride},
    {"transpose_naive", &gold::transposeNaive},
    {"transpose_tiled", &gold::transposeTiled},
    {"transpose_padded", &gold::transposePadded},
    {"matmul_naive", &gold::matmulNaive},
    {"matmul_tiled", &gold::matmulTiled},
    {"matmul_1d_blocktile", &gold::matmul1dBlocktile},
    {"matmul_2d_blocktile", &gold::matmul2dBlocktile},
    {"matmul_vectorized", &gold::matmulVectorized},
    {"matmul_warptile", &gold::matmulWarptile},
    {"matmul_prefetch", &gold::matmulPrefetch},
    {"matmul_wmma", &gold::matmulWmma},
    {"matmul_mma", &gold::matmulMma},
    {"divergence_odd_even", &gold::divergenceOddEven},
    {"divergence_data_loop", &gold::divergenceDataLoop},
    {"histogram_shared_atomics", &gold::histogramSharedAtomics},
    {"stencil_1d", &gold::stencil1d},
    {"attention_scores", &gold::attentionScores},
    {"attention_softmax", &gold::attentionSoftmax},
    {"attention_pv", &gold::attentionPv},
    {"attention_fused", &gold::attentionFused},
}};

} // namespace

GoldFunction findGold(std::string_view name)
{
    for (const auto& [key, function] : kGoldReferences)
        if (key == name)
            return function;
    return nullptr;
}

} // namespace warpscope::kernels
