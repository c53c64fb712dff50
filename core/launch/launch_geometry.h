// The shape of a kernel launch (gridDim, blockDim) and the index arithmetic of the CUDA programming
// model: linear thread ids, warps of 32 consecutive threads, lanes, global ids.
// CUDA C++ Programming Guide, "Thread Hierarchy": thread ID = x + y*Dx + z*Dx*Dy; "SIMT Architecture":
// a block's threads are split into warps of consecutive, increasing thread IDs, the first warp
// holding thread 0.
#pragma once

#include "util/parse.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace warpscope::launch {

struct Dim3 {
    std::int64_t x = 1, y = 1, z = 1;
    std::int64_t volume() const { return x * y * z; }
    bool operator==(const Dim3&) const = default;
};

// Launch limits, CUDA C++ Programming Guide, "Compute Capabilities" (all of sm_70..sm_90).
struct LaunchLimits {
    static constexpr std::int64_t maxGridX = 2147483647; // 2^31 - 1
    static constexpr std::int64_t maxGridYZ = 65535;
    static constexpr std::int64_t maxBlockXY = 1024;
    static constexpr std::int64_t maxBlockZ = 64;
    static constexpr std::int64_t maxThreadsPerBlock = 1024;
    static constexpr int warpSize = 32;
};

struct LaunchShape {
    Dim3 grid;
    Dim3 block;

    std::int64_t blockCount() const { return grid.volume(); }
    std::int64_t threadsPerBlock() const { return block.volume(); }
    // Totals past 2^63 are possible ((2^31-1) x 65535 x 65535 blocks): counted in 128 bits.
    BigCount threadCount() const { return static_cast<BigCount>(blockCount()) * static_cast<BigCount>(threadsPerBlock()); }
    BigCount warpCount() const { return static_cast<BigCount>(blockCount()) * static_cast<BigCount>(warpsPerBlock()); }
    int warpsPerBlock() const;
    int lanesInLastWarp() const;   // 32 when the block is a multiple of 32
    int idleLanesPerBlock() const; // lanes of the partial warp that hold no thread
    bool operator==(const LaunchShape&) const = default;
};

// Throws InputError naming the dimension and its allowed range.
void validateLaunch(const LaunchShape& shape);

// "4,2" / "96" / "8,8,4" -> Dim3; missing components are 1. Throws InputError.
Dim3 parseDim3(std::string_view text, std::string_view what);
// The same with each axis checked against its own maximum, so a message quotes the field's range.
Dim3 parseDim3(std::string_view text, std::string_view what, const std::int64_t (&axisMax)[3]);
std::string formatDim3(const Dim3& dim); // "4,2" (trailing 1s dropped), "1" for 1,1,1
std::string formatIndex(const Dim3& index); // "(1, 0, 0)": a blockIdx or threadIdx, every component
// "1,2" -> (1, 2, 0): a blockIdx or threadIdx of one to three components, missing ones 0, each
// below `extent`'s. Throws InputError naming `what` ("--block-index x: ...") and the allowed range.
Dim3 parseIndex(std::string_view text, std::string_view what, const Dim3& extent);

// parseDim3 plus the limits of blockDim / gridDim, with messages that name `what` and the limits.
Dim3 parseBlockDim(std::string_view text, std::string_view what);
Dim3 parseGridDim(std::string_view text, std::string_view what);

// Linear index of blockIdx within the grid, and of threadIdx within a block (x fastest).
std::int64_t linearIndex(const Dim3& index, const Dim3& extent);
Dim3 indexFromLinear(std::int64_t linear, const Dim3& extent);

// Everything the canvas shows about one lane.
struct ThreadCoordinates {
    Dim3 blockIdx;
    Dim3 threadIdx;
    std::int64_t blockLinear = 0;   // blockIdx flattened
    std::int64_t threadInBlock = 0; // threadIdx flattened
    BigCount globalLinear = 0;      // blockLinear * threadsPerBlock + threadInBlock (may pass 2^63)
    int warpInBlock = 0;            // threadInBlock / 32
    int lane = 0;                   // threadInBlock % 32
    bool idle = false;              // a lane of the partial last warp with no thread
};

// Coordinates of lane `lane` of warp `warp` in block `blockLinear`.
ThreadCoordinates coordinatesOf(const LaunchShape& shape, std::int64_t blockLinear, int warp, int lane);

} // namespace warpscope::launch
