// Gold references for copy.cu. Copies move bits unchanged, so every check is exact.
#include "gold_functions.h"
#include "gold_support.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace warpscope::kernels::gold {

namespace {

// out[i] = in[i * stride + offset] for every i < n a thread reaches.
void stridedCopy(GoldContext& context, std::string_view kernel, std::int64_t stride, std::int64_t offset)
{
    const std::int64_t n = support::coveredElements(context.launch(), context.integer("n"));
    const auto in = context.input<float>("in");
    auto out = context.expected<float>("out");
    support::requireElements(out, n, kernel, "out");
    if (n > 0)
        support::requireElements(in, (n - 1) * stride + offset + 1, kernel, "in");
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = in[i * stride + offset];
}

} // namespace

void copyCoalesced(GoldContext& context)
{
    stridedCopy(context, "copy_coalesced", 1, 0);
}

void copyStrided(GoldContext& context)
{
    const std::int64_t stride = context.integer("stride");
    if (stride < 0)
        support::unsupported("copy_strided", "stride must not be negative");
    stridedCopy(context, "copy_strided", stride, 0);
}

void copyOffset(GoldContext& context)
{
    const std::int64_t offset = context.integer("offset");
    if (offset < 0)
        support::unsupported("copy_offset", "offset must not be negative");
    stridedCopy(context, "copy_offset", 1, offset);
}

void copyVec4GridStride(GoldContext& context)
{
    // The float4 loop copies all n / 4 vectors whatever the grid (it strides over them); the scalar
    // tail's n % 4 elements are copied by the first n % 4 threads of the grid.
    const std::int64_t n = std::max<std::int64_t>(0, context.integer("n"));
    const std::int64_t vectorised = n / 4 * 4;
    const std::int64_t tail = std::min(n - vectorised, support::threadsX(context.launch()));
    const auto in = context.input<float>("in");
    auto out = context.expected<float>("out");
    support::requireElements(in, vectorised + tail, "copy_vec4_grid_stride", "in");
    support::requireElements(out, vectorised + tail, "copy_vec4_grid_stride", "out");
    for (std::int64_t i = 0; i < vectorised + tail; ++i)
        out[i] = in[i];
}

} // namespace warpscope::kernels::gold
