// Gold reference for histogram.cu. Integer atomics commute, so the final bins are exactly the
// initial bins plus the count of each byte value, whatever order the threads ran in.
#include "gold_functions.h"
#include "gold_support.h"

#include <algorithm>
#include <cstdint>

namespace warpscope::kernels::gold {

void histogramSharedAtomics(GoldContext& context)
{
    // The grid-stride loop visits every element below n as long as there is at least one thread.
    const bool anyThread = support::threadsX(context.launch()) > 0;
    const std::int64_t n = anyThread ? std::max<std::int64_t>(0, context.integer("n")) : 0;
    const auto data = context.input<std::uint8_t>("data");
    auto bins = context.expected<std::uint32_t>("bins");
    support::requireElements(data, n, "histogram_shared_atomics", "data");
    support::requireElements(bins, 256, "histogram_shared_atomics", "bins");
    for (std::int64_t i = 0; i < n; ++i)
        ++bins[data[i]];
}

} // namespace warpscope::kernels::gold
