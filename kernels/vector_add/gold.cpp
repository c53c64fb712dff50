// Gold reference for vector_add.cu.
#include "gold_functions.h"
#include "gold_support.h"

#include <cstdint>

namespace warpscope::kernels::gold {

void vectorAdd(GoldContext& context)
{
    const std::int64_t n = support::coveredElements(context.launch(), context.integer("n"));
    const auto a = context.input<float>("a");
    const auto b = context.input<float>("b");
    auto c = context.expected<float>("c");
    support::requireElements(a, n, "vector_add", "a");
    support::requireElements(b, n, "vector_add", "b");
    support::requireElements(c, n, "vector_add", "c");
    for (std::int64_t i = 0; i < n; ++i)
        c[i] = a[i] + b[i];
}

} // namespace warpscope::kernels::gold
