#include "launch/launch_geometry.h"

#include "util/input_error.h"
#include "util/parse.h"

#include <cstddef>
#include <vector>

namespace warpscope::launch {

int LaunchShape::warpsPerBlock() const
{
    return static_cast<int>((threadsPerBlock() + LaunchLimits::warpSize - 1) / LaunchLimits::warpSize);
}

int LaunchShape::lanesInLastWarp() const
{
    const int rest = static_cast<int>(threadsPerBlock() % LaunchLimits::warpSize);
    return rest == 0 ? LaunchLimits::warpSize : rest;
}

int LaunchShape::idleLanesPerBlock() const
{
    return LaunchLimits::warpSize - lanesInLastWarp();
}

void validateLaunch(const LaunchShape& shape)
{
    auto check = [](std::int64_t value, std::int64_t max, const char* what) {
        if (value < 1 || value > max)
            throw InputError(std::string(what) + " = " + std::to_string(value) +
                             " is out of range (allowed: 1.." + std::to_string(max) + ")");
    };
    check(shape.grid.x, LaunchLimits::maxGridX, "gridDim.x");
    check(shape.grid.y, LaunchLimits::maxGridYZ, "gridDim.y");
    check(shape.grid.z, LaunchLimits::maxGridYZ, "gridDim.z");
    check(shape.block.x, LaunchLimits::maxBlockXY, "blockDim.x");
    check(shape.block.y, LaunchLimits::maxBlockXY, "blockDim.y");
    check(shape.block.z, LaunchLimits::maxBlockZ, "blockDim.z");
    if (shape.block.volume() > LaunchLimits::maxThreadsPerBlock)
        throw InputError("block " + formatDim3(shape.block) + " has " +
                         std::to_string(shape.block.volume()) +
                         " threads (allowed: at most 1024 threads per block)");
}

namespace {

std::vector<std::string_view> commaParts(std::string_view text)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        parts.push_back(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos)
            return parts;
        start = comma + 1;
    }
}

} // namespace

Dim3 parseIndex(std::string_view text, std::string_view what, const Dim3& extent)
{
    const std::vector<std::string_view> parts = commaParts(text);
    if (parts.size() > 3)
        throw InputError(std::string(what) + " '" + std::string(text) + "': at most three components, X[,Y[,Z]]");
    const char* axes[] = {" x", " y", " z"};
    const std::int64_t extents[] = {extent.x, extent.y, extent.z};
    std::int64_t values[3] = {0, 0, 0};
    for (std::size_t i = 0; i < parts.size(); ++i)
        values[i] = parseInteger(parts[i], std::string(what) + axes[i], 0, extents[i] - 1);
    return Dim3{values[0], values[1], values[2]};
}

Dim3 parseDim3(std::string_view text, std::string_view what)
{
    const std::int64_t any[3] = {LaunchLimits::maxGridX, LaunchLimits::maxGridX, LaunchLimits::maxGridX};
    return parseDim3(text, what, any);
}

Dim3 parseDim3(std::string_view text, std::string_view what, const std::int64_t (&axisMax)[3])
{
    const std::vector<std::string_view> parts = commaParts(text);
    if (parts.size() > 3)
        throw InputError(std::string(what) + ": '" + std::string(text) +
                         "' has more than 3 dimensions (allowed: x, x,y or x,y,z)");
    const char* axes[] = {".x", ".y", ".z"};
    std::int64_t values[3] = {1, 1, 1};
    for (std::size_t i = 0; i < parts.size(); ++i)
        values[i] = parseInteger(parts[i], parts.size() == 1 ? std::string(what) : std::string(what) + axes[i], 1,
                                 axisMax[i]);
    return Dim3{values[0], values[1], values[2]};
}

Dim3 parseBlockDim(std::string_view text, std::string_view what)
{
    const std::string label(what);
    if (text.find(',') == std::string_view::npos)
        return {parseInteger(text, label, 1, LaunchLimits::maxThreadsPerBlock), 1, 1};
    const std::int64_t axisMax[3] = {LaunchLimits::maxBlockXY, LaunchLimits::maxBlockXY, LaunchLimits::maxBlockZ};
    const Dim3 block = parseDim3(text, what, axisMax);
    if (block.volume() > LaunchLimits::maxThreadsPerBlock)
        throw InputError(label + ": " + formatDim3(block) + " has " + std::to_string(block.volume()) +
                         " threads (allowed: at most " + std::to_string(LaunchLimits::maxThreadsPerBlock) +
                         " threads per block)");
    try {
        validateLaunch({{1, 1, 1}, block});
    } catch (const InputError& error) {
        throw InputError(label + ": " + error.what());
    }
    return block;
}

Dim3 parseGridDim(std::string_view text, std::string_view what)
{
    const std::int64_t axisMax[3] = {LaunchLimits::maxGridX, LaunchLimits::maxGridYZ, LaunchLimits::maxGridYZ};
    const Dim3 grid = parseDim3(text, what, axisMax);
    try {
        validateLaunch({grid, {1, 1, 1}});
    } catch (const InputError& error) {
        throw InputError(std::string(what) + ": " + error.what());
    }
    return grid;
}

std::string formatDim3(const Dim3& dim)
{
    if (dim.z != 1)
        return std::to_string(dim.x) + "," + std::to_string(dim.y) + "," + std::to_string(dim.z);
    if (dim.y != 1)
        return std::to_string(dim.x) + "," + std::to_string(dim.y);
    return std::to_string(dim.x);
}

std::string formatIndex(const Dim3& index)
{
    return "(" + std::to_string(index.x) + ", " + std::to_string(index.y) + ", " + std::to_string(index.z) + ")";
}

std::int64_t linearIndex(const Dim3& index, const Dim3& extent)
{
    return index.x + index.y * extent.x + index.z * extent.x * extent.y;
}

Dim3 indexFromLinear(std::int64_t linear, const Dim3& extent)
{
    Dim3 index;
    index.x = linear % extent.x;
    index.y = (linear / extent.x) % extent.y;
    index.z = linear / (extent.x * extent.y);
    return index;
}

ThreadCoordinates coordinatesOf(const LaunchShape& shape, std::int64_t blockLinear, int warp, int lane)
{
    ThreadCoordinates c;
    c.blockLinear = blockLinear;
    c.blockIdx = indexFromLinear(blockLinear, shape.grid);
    c.warpInBlock = warp;
    c.lane = lane;
    c.threadInBlock = static_cast<std::int64_t>(warp) * LaunchLimits::warpSize + lane;
    c.idle = c.threadInBlock >= shape.threadsPerBlock();
    if (!c.idle) {
        c.threadIdx = indexFromLinear(c.threadInBlock, shape.block);
        c.globalLinear = static_cast<BigCount>(blockLinear) * static_cast<BigCount>(shape.threadsPerBlock()) +
                         static_cast<BigCount>(c.threadInBlock);
    }
    return c;
}

} // namespace warpscope::launch
