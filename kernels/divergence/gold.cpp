// Gold references for divergence.cu: the same 32-bit unsigned arithmetic, exact.
#include "gold_functions.h"
#include "gold_support.h"

#include <cstdint>

namespace warpscope::kernels::gold {

void divergenceOddEven(GoldContext& context)
{
    const std::uint32_t threads = context.launch().block.x;
    const std::int64_t n = support::coveredElements(context.launch(), context.integer("n"));
    const auto in = context.input<std::uint32_t>("in");
    auto out = context.expected<std::uint32_t>("out");
    support::requireElements(in, n, "divergence_odd_even", "in");
    support::requireElements(out, n, "divergence_odd_even", "out");
    for (std::int64_t i = 0; i < n; ++i) {
        // The branch follows threadIdx.x, the index within the block.
        const bool odd = (static_cast<std::uint64_t>(i) % threads) % 2 == 1;
        std::uint32_t v = in[i];
        if (odd) {
            v *= 0x9e3779b1u;
            v ^= v >> 15;
            v *= 0x85ebca77u;
            v ^= v >> 13;
            v *= 0xc2b2ae3du;
            v ^= v >> 16;
        } else {
            v += 0x7f4a7c15u;
            v ^= v << 7;
            v += 0x165667b1u;
            v ^= v >> 11;
            v += 0x27d4eb2fu;
            v ^= v << 5;
        }
        out[i] = v;
    }
}

void divergenceDataLoop(GoldContext& context)
{
    const std::int64_t n = support::coveredElements(context.launch(), context.integer("n"));
    const auto count = context.input<std::int32_t>("count");
    auto out = context.expected<std::uint32_t>("out");
    support::requireElements(count, n, "divergence_data_loop", "count");
    support::requireElements(out, n, "divergence_data_loop", "out");
    for (std::int64_t i = 0; i < n; ++i) {
        auto v = static_cast<std::uint32_t>(i);
        for (std::int32_t r = 0; r < count[i]; ++r)
            v = v * 1664525u + 1013904223u;
        out[i] = v;
    }
}

} // namespace warpscope::kernels::gold
