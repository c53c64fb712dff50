// Small helpers shared by the gold references: launch coverage and argument checks that turn a
// launch the reference cannot model into a clear error instead of a wrong expectation.
#pragma once

#include "gold_context.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpscope::kernels::gold::support {

// Threads along x in the whole grid: the highest 1-D global index a kernel computes, plus one.
inline std::int64_t threadsX(const GoldLaunch& launch)
{
    return static_cast<std::int64_t>(launch.grid.x) * launch.block.x;
}

// The number of elements a 1-D kernel with a bounds check on `n` touches: every i < n that some
// thread's global index reaches.
inline std::int64_t coveredElements(const GoldLaunch& launch, std::int64_t n)
{
    return std::max<std::int64_t>(0, std::min(n, threadsX(launch)));
}

[[noreturn]] inline void unsupported(std::string_view kernel, std::string_view why)
{
    throw std::invalid_argument("gold reference for " + std::string(kernel) + ": " + std::string(why));
}

// Throws unless `buffer` holds at least `count` elements.
template <class T>
void requireElements(std::span<T> buffer, std::int64_t count, std::string_view kernel, std::string_view name)
{
    if (count > 0 && static_cast<std::uint64_t>(count) > buffer.size())
        unsupported(kernel, "buffer '" + std::string(name) + "' holds " + std::to_string(buffer.size()) +
                                " elements, the launch touches " + std::to_string(count));
}

inline bool isPowerOfTwo(std::uint32_t value)
{
    return value != 0 && (value & (value - 1)) == 0;
}

} // namespace warpscope::kernels::gold::support
