// Strict parsing of numbers typed by users: the whole text must be a number in range, or InputError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace warpscope {

// Parses a decimal integer in [min, max]. `what` names the field in the error ("--block").
std::int64_t parseInteger(std::string_view text, std::string_view what, std::int64_t min,
                          std::int64_t max);

// Parses a decimal such as 0.1, -3e-8 or 70000 (inf and nan too), as the nearest double; surrounding
// spaces are ignored. Errors read "WHAT: 'x' is not a number (...)" ("'x' is not ..." without WHAT).
double parseReal(std::string_view text, std::string_view what);

// Parses a byte count: "49152", "48K" or "48k" (K = 1024 bytes), "1M" (M = 1024 K), in [0, max].
std::size_t parseByteSize(std::string_view text, std::string_view what, std::size_t max);

// Counts that can pass 2^63: the threads of the largest launch CUDA allows
// ((2^31-1) x 65535 x 65535 blocks x 1024 threads, about 9.4e21).
__extension__ using BigCount = unsigned __int128;

// "1,024" style grouping for messages and labels.
std::string withThousands(std::int64_t value);
std::string withThousandsBig(BigCount value);

// "48 KB" when a multiple of 1024, else "1,234 B".
std::string formatBytes(std::size_t bytes);

} // namespace warpscope
