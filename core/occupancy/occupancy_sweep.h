// Occupancy as one input varies, for the explorer's plots (like Nsight Compute's occupancy graphs).
#pragma once

#include "occupancy/occupancy.h"

#include <cstddef>
#include <vector>

namespace warpscope::occupancy {

struct SweepPoint {
    int x = 0;                 // the varied input: threads, registers or bytes
    int activeBlocks = 0;
    int activeWarps = 0;
    double occupancy = 0.0;    // 0..1
};

// Block size 32, 64, ... up to the preset's limit; other inputs as given.
std::vector<SweepPoint> sweepBlockSize(const gpu::GpuPreset& preset, const OccupancyInput& input);
// Registers per thread 1..255.
std::vector<SweepPoint> sweepRegisters(const gpu::GpuPreset& preset, const OccupancyInput& input);
// Shared memory per block (static + dynamic, as dynamic) from 0 to the opt-in limit, in `step` bytes.
std::vector<SweepPoint> sweepSharedMemory(const gpu::GpuPreset& preset, const OccupancyInput& input,
                                          int step = 512);

struct OccupancyGrid {
    std::vector<int> blockSizes;      // columns: 32, 64, ..., 1024
    std::vector<int> registers;       // rows: 1, 2, ..., 255
    std::vector<double> occupancy;    // row-major: occupancy[r * blockSizes.size() + c]
    double at(std::size_t row, std::size_t column) const
    {
        return occupancy[row * blockSizes.size() + column];
    }
};

// Occupancy over block size x registers per thread, every other input as given.
OccupancyGrid sweepBlockSizeByRegisters(const gpu::GpuPreset& preset, const OccupancyInput& input);

} // namespace warpscope::occupancy
