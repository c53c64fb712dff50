#include "occupancy/occupancy_sweep.h"

namespace warpscope::occupancy {
namespace {

SweepPoint pointFor(const gpu::GpuPreset& preset, const OccupancyInput& input, int x)
{
    SweepPoint point;
    point.x = x;
    point.activeBlocks = activeBlocksPerSm(preset, input);
    const int warpsPerBlock = (input.threadsPerBlock + preset.warpSize - 1) / preset.warpSize;
    point.activeWarps = point.activeBlocks * warpsPerBlock;
    point.occupancy = static_cast<double>(point.activeWarps) / preset.maxWarpsPerSm();
    return point;
}

} // namespace

std::vector<SweepPoint> sweepBlockSize(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    std::vector<SweepPoint> points;
    OccupancyInput varied = input;
    for (int threads = preset.warpSize; threads <= preset.maxThreadsPerBlock; threads += preset.warpSize) {
        varied.threadsPerBlock = threads;
        points.push_back(pointFor(preset, varied, threads));
    }
    return points;
}

std::vector<SweepPoint> sweepRegisters(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    std::vector<SweepPoint> points;
    OccupancyInput varied = input;
    for (int regs = 1; regs <= preset.maxRegistersPerThread; ++regs) {
        varied.registersPerThread = regs;
        points.push_back(pointFor(preset, varied, regs));
    }
    return points;
}

std::vector<SweepPoint> sweepSharedMemory(const gpu::GpuPreset& preset, const OccupancyInput& input,
                                          int step)
{
    std::vector<SweepPoint> points;
    OccupancyInput varied = input;
    varied.staticSharedBytes = 0;
    for (std::size_t bytes = 0; bytes <= preset.sharedPerBlockOptin;
         bytes += static_cast<std::size_t>(step)) {
        varied.dynamicSharedBytes = bytes;
        points.push_back(pointFor(preset, varied, static_cast<int>(bytes)));
    }
    return points;
}

OccupancyGrid sweepBlockSizeByRegisters(const gpu::GpuPreset& preset, const OccupancyInput& input)
{
    OccupancyGrid grid;
    for (int threads = preset.warpSize; threads <= preset.maxThreadsPerBlock; threads += preset.warpSize)
        grid.blockSizes.push_back(threads);
    for (int regs = 1; regs <= preset.maxRegistersPerThread; ++regs)
        grid.registers.push_back(regs);
    grid.occupancy.reserve(grid.blockSizes.size() * grid.registers.size());
    OccupancyInput varied = input;
    for (int regs : grid.registers) {
        varied.registersPerThread = regs;
        for (int threads : grid.blockSizes) {
            varied.threadsPerBlock = threads;
            grid.occupancy.push_back(pointFor(preset, varied, threads).occupancy);
        }
    }
    return grid;
}

} // namespace warpscope::occupancy
