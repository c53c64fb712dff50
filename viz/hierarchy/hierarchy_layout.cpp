#include "hierarchy/hierarchy_layout.h"

#include <algorithm>
#include <cmath>

namespace warpscope::viz {

using launch::LaunchLimits;

Rect snapLaneToPixels(const Rect& lane, double pitch)
{
    const double widest = std::floor(pitch) - 1.0; // leaves a pixel to the next lane's left edge
    const double width = std::max(1.0, std::min(std::round(lane.w), widest));
    return {std::round(lane.x), lane.y, width, lane.h};
}

HierarchyLayout::HierarchyLayout(const launch::LaunchShape& shape, double aspect, HierarchyMetrics metrics)
    : m_shape(shape), m_metrics(metrics)
{
    const double laneStride = m_metrics.lane + m_metrics.laneGap;
    const int warps = m_shape.warpsPerBlock();
    m_blockWidth = 2 * m_metrics.blockPadding + LaunchLimits::warpSize * laneStride - m_metrics.laneGap;
    m_blockHeight = m_metrics.blockHeader + m_metrics.blockPadding +
                    warps * (m_metrics.laneHeight + m_metrics.warpGap) - m_metrics.warpGap;

    const bool oneDimensional = m_shape.grid.y == 1 && m_shape.grid.z == 1;
    if (oneDimensional && m_shape.grid.x > 16) {
        // Choose columns so that columns*W : rows*H is close to the viewport aspect.
        const double cellW = m_blockWidth + m_metrics.blockGap;
        const double cellH = m_blockHeight + m_metrics.blockGap;
        const double n = static_cast<double>(m_shape.grid.x);
        const double columns = std::sqrt(n * aspect * cellH / cellW);
        m_columns = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(columns)), 1, m_shape.grid.x);
        m_rowsPerSlice = (m_shape.grid.x + m_columns - 1) / m_columns;
        m_wrapped = m_columns < m_shape.grid.x;
    } else {
        m_columns = m_shape.grid.x;
        m_rowsPerSlice = m_shape.grid.y;
    }
    m_rows = m_rowsPerSlice * m_shape.grid.z;
}

Rect HierarchyLayout::bounds() const
{
    const double width = m_columns * (m_blockWidth + m_metrics.blockGap) - m_metrics.blockGap;
    const double height = rowTop(m_rows - 1) + m_blockHeight;
    return {0.0, 0.0, width, height};
}

std::int64_t HierarchyLayout::rowOf(std::int64_t block) const
{
    if (m_wrapped)
        return block / m_columns;
    const launch::Dim3 index = launch::indexFromLinear(block, m_shape.grid);
    return index.y + index.z * m_rowsPerSlice;
}

std::int64_t HierarchyLayout::columnOf(std::int64_t block) const
{
    return m_wrapped ? block % m_columns : block % m_shape.grid.x;
}

std::optional<std::int64_t> HierarchyLayout::blockAt(std::int64_t row, std::int64_t column) const
{
    if (row < 0 || row >= m_rows || column < 0 || column >= m_columns)
        return std::nullopt;
    if (m_wrapped) {
        const std::int64_t block = row * m_columns + column;
        return block < m_shape.blockCount() ? std::optional(block) : std::nullopt;
    }
    const std::int64_t z = row / m_rowsPerSlice;
    const std::int64_t y = row % m_rowsPerSlice;
    return launch::linearIndex({column, y, z}, m_shape.grid);
}

double HierarchyLayout::rowTop(std::int64_t row) const
{
    const std::int64_t slice = row / m_rowsPerSlice;
    return row * (m_blockHeight + m_metrics.blockGap) + slice * (m_metrics.sliceGap - m_metrics.blockGap);
}

Rect HierarchyLayout::blockRect(std::int64_t block) const
{
    return {columnOf(block) * (m_blockWidth + m_metrics.blockGap), rowTop(rowOf(block)), m_blockWidth,
            m_blockHeight};
}

Rect HierarchyLayout::warpRect(std::int64_t block, int warp) const
{
    const Rect b = blockRect(block);
    const double laneStride = m_metrics.lane + m_metrics.laneGap;
    return {b.x + m_metrics.blockPadding, b.y + m_metrics.blockHeader + warp * (m_metrics.laneHeight + m_metrics.warpGap),
            LaunchLimits::warpSize * laneStride - m_metrics.laneGap, m_metrics.laneHeight};
}

Rect HierarchyLayout::laneRect(std::int64_t block, int warp, int lane) const
{
    const Rect w = warpRect(block, warp);
    return {w.x + lane * (m_metrics.lane + m_metrics.laneGap), w.y, m_metrics.lane, m_metrics.laneHeight};
}

std::int64_t HierarchyLayout::rowAtY(double y) const
{
    const double stride = m_blockHeight + m_metrics.blockGap;
    const double sliceStride = m_rowsPerSlice * stride + (m_metrics.sliceGap - m_metrics.blockGap);
    if (y <= 0)
        return 0;
    if (y >= bounds().h)
        return m_rows - 1;
    const auto slice = static_cast<std::int64_t>(std::floor(y / sliceStride));
    const double inSlice = y - slice * sliceStride;
    const auto rowInSlice = std::min<std::int64_t>(m_rowsPerSlice - 1,
                                                   static_cast<std::int64_t>(std::floor(inSlice / stride)));
    return std::clamp<std::int64_t>(slice * m_rowsPerSlice + rowInSlice, 0, m_rows - 1);
}

HierarchyLayout::Range HierarchyLayout::visibleRows(const Rect& world) const
{
    if (world.bottom() < 0 || world.y > bounds().bottom())
        return {};
    return {rowAtY(world.y), rowAtY(world.bottom())};
}

HierarchyLayout::Range HierarchyLayout::visibleColumns(const Rect& world) const
{
    const double stride = m_blockWidth + m_metrics.blockGap;
    // Clamp as doubles first: a far pan must not overflow the conversion to an integer.
    const double last = static_cast<double>(m_columns - 1);
    Range range;
    range.first = static_cast<std::int64_t>(std::clamp(std::floor(world.x / stride), 0.0, last + 1));
    range.last = static_cast<std::int64_t>(std::clamp(std::floor(world.right() / stride), -1.0, last));
    return range;
}

HierarchyHit HierarchyLayout::hitTest(Point world) const
{
    HierarchyHit hit;
    const double strideX = m_blockWidth + m_metrics.blockGap;
    if (world.x < 0 || world.y < 0)
        return hit;
    if (world.x >= bounds().w || world.y >= bounds().h)
        return hit;
    const auto column = static_cast<std::int64_t>(world.x / strideX);
    const std::int64_t row = rowAtY(world.y);
    const auto block = blockAt(row, column);
    if (!block)
        return hit;
    const Rect rect = blockRect(*block);
    if (!rect.contains(world))
        return hit;
    hit.block = *block;
    const double laneStride = m_metrics.lane + m_metrics.laneGap;
    const double warpStride = m_metrics.laneHeight + m_metrics.warpGap;
    const double inX = world.x - rect.x - m_metrics.blockPadding;
    const double inY = world.y - rect.y - m_metrics.blockHeader;
    if (inX < 0 || inY < 0)
        return hit;
    const auto warp = static_cast<int>(inY / warpStride);
    if (warp >= m_shape.warpsPerBlock() || inY - warp * warpStride >= m_metrics.laneHeight)
        return hit;
    hit.warp = warp;
    const auto lane = static_cast<int>(inX / laneStride);
    if (lane < LaunchLimits::warpSize && inX - lane * laneStride < m_metrics.lane)
        hit.lane = lane;
    return hit;
}

} // namespace warpscope::viz
