// printf on the device: CUDA compiles printf(fmt, ...) to vprintf(fmt, args), with the arguments
// packed in a local buffer, each aligned to its size (ints and floats promoted as in C: 4-byte
// int, 8-byte long long, double, pointer). This formats one call the way the CUDA runtime prints it.
#pragma once

#include "launch/launch_geometry.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::sim {

// One printf call of one thread, as the device prints it.
struct PrintfLine {
    std::uint64_t linearBlock = 0;
    launch::Dim3 block;
    launch::Dim3 thread;
    std::string text;
};

struct DevicePrintfResult {
    std::string text;
    int arguments = 0; // what printf returns: the number of arguments the format consumed
};

// `argument(offset, bytes)` reads the packed argument buffer (nullopt past its end: the conversion
// prints "<missing>"); `string(address)` reads a NUL-terminated string from device memory for %s.
DevicePrintfResult formatDevicePrintf(std::string_view format,
                                      const std::function<std::optional<std::uint64_t>(std::size_t, std::size_t)>& argument,
                                      const std::function<std::string(std::uint64_t)>& string);

} // namespace warpscope::sim
