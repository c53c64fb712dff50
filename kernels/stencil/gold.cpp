// Gold reference for stencil.cu. The kernel adds the 2 * RADIUS + 1 window left to right starting
// from 0.0f (plain adds, nothing to contract into an fma); the reference does the same: exact.
#include "gold_functions.h"
#include "gold_support.h"

#include <cstdint>

namespace warpscope::kernels::gold {

namespace {

constexpr std::int64_t kRadius = 3; // RADIUS in stencil.cu

} // namespace

void stencil1d(GoldContext& context)
{
    if (context.launch().block.x < kRadius)
        support::unsupported("stencil_1d", "blockDim.x must be at least RADIUS to load the halo");
    const std::int64_t total = context.integer("n");
    const std::int64_t n = support::coveredElements(context.launch(), total);
    const auto in = context.input<float>("in");
    auto out = context.expected<float>("out");
    support::requireElements(in, total, "stencil_1d", "in");
    support::requireElements(out, n, "stencil_1d", "out");
    for (std::int64_t g = 0; g < n; ++g) {
        float sum = 0.0f;
        for (std::int64_t j = g - kRadius; j <= g + kRadius; ++j)
            sum += (j >= 0 && j < total) ? in[j] : 0.0f;
        out[g] = sum;
    }
}

} // namespace warpscope::kernels::gold
