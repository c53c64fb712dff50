// Gold references for transpose.cu: out[c * n + r] = in[r * n + c] for every element the grid's
// 32 x 32 tiles cover. Elements are moved, not computed, so the checks are exact.
#include "gold_functions.h"
#include "gold_support.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace warpscope::kernels::gold {

namespace {

constexpr std::int64_t kTile = 32;

void transposeTiles(GoldContext& context, std::string_view kernel)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != 32 || launch.block.y != 8 || launch.block.z != 1)
        support::unsupported(kernel, "the kernels are written for 32 x 8 blocks");
    const std::int64_t n = std::max<std::int64_t>(0, context.integer("n"));
    const auto in = context.input<float>("in");
    auto out = context.expected<float>("out");
    support::requireElements(in, n * n, kernel, "in");
    support::requireElements(out, n * n, kernel, "out");

    // Input rows come from blockIdx.y, input columns from blockIdx.x.
    const std::int64_t rows = std::min(n, launch.grid.y * kTile);
    const std::int64_t columns = std::min(n, launch.grid.x * kTile);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < columns; ++c)
            out[c * n + r] = in[r * n + c];
}

} // namespace

void transposeNaive(GoldContext& context)
{
    transposeTiles(context, "transpose_naive");
}

void transposeTiled(GoldContext& context)
{
    transposeTiles(context, "transpose_tiled");
}

void transposePadded(GoldContext& context)
{
    transposeTiles(context, "transpose_padded");
}

} // namespace warpscope::kernels::gold
