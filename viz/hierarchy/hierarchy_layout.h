// Where the hierarchy scene draws each block, warp and lane, in world units, and the inverse
// (hit-testing). Plain functions over LaunchShape: no storage per block, so any valid grid (up to
// 2^31-1 x 65535 x 65535 blocks) lays out in constant time.
//
// Arrangement: blocks in rows of gridDim.x (blockIdx.x across, blockIdx.y down); z-slices stacked
// below each other with a wider gap. A 1-D grid with many blocks wraps into rows of `columns` to
// stay near the viewport's aspect. Inside a block, each warp is one row of 32 lane cells, warp 0 on
// top; the lanes of a partial last warp past blockDim's thread count are idle.
#pragma once

#include "launch/launch_geometry.h"
#include "canvas/view_transform.h"

#include <cstdint>
#include <optional>

namespace warpscope::viz {

struct HierarchyMetrics {
    double lane = 8.0;        // lane cell width
    double laneHeight = 14.0; // lane cell height: tall cells use the canvas' height better
    double laneGap = 1.0;     // between lane cells
    double warpGap = 3.0;     // between warp rows
    double blockPadding = 5.0;
    double blockHeader = 18.0; // room for the blockIdx label
    double blockGap = 12.0;
    double sliceGap = 48.0;   // between z-slices of the grid
};

struct HierarchyHit {
    std::int64_t block = -1; // linear block index
    int warp = -1;           // -1: the block's header or padding
    int lane = -1;           // -1: between lanes
};

// A lane cell on screen, snapped to whole pixels: it starts on the pixel nearest its true left
// edge and is as wide as every other lane at this zoom (its own width rounded, but at most the lane
// pitch less one pixel), so no lane looks wider than its neighbour and at least one pixel separates
// neighbours whose pitch is two pixels or more. `lane` is the cell in screen units, `pitch` the
// distance between neighbouring lanes' left edges on screen.
Rect snapLaneToPixels(const Rect& lane, double pitch);

class HierarchyLayout {
public:
    HierarchyLayout() = default;
    // `aspect` = viewport width / height, used only to wrap 1-D grids.
    HierarchyLayout(const launch::LaunchShape& shape, double aspect = 1.6, HierarchyMetrics metrics = {});

    const launch::LaunchShape& shape() const { return m_shape; }
    const HierarchyMetrics& metrics() const { return m_metrics; }
    std::int64_t columns() const { return m_columns; }   // blocks per row
    std::int64_t rows() const { return m_rows; }         // block rows, all slices
    bool wrapped() const { return m_wrapped; }           // a 1-D grid wrapped into rows
    double blockWidth() const { return m_blockWidth; }
    double blockHeight() const { return m_blockHeight; }
    Rect bounds() const;

    // Row and column of a block, and back.
    std::int64_t rowOf(std::int64_t block) const;
    std::int64_t columnOf(std::int64_t block) const;
    std::optional<std::int64_t> blockAt(std::int64_t row, std::int64_t column) const;

    double rowTop(std::int64_t row) const;
    Rect blockRect(std::int64_t block) const;
    Rect warpRect(std::int64_t block, int warp) const;
    Rect laneRect(std::int64_t block, int warp, int lane) const;

    // Rows and columns that intersect a world rectangle (clamped, may be empty: first > last).
    struct Range { std::int64_t first = 0, last = -1; };
    Range visibleRows(const Rect& world) const;
    Range visibleColumns(const Rect& world) const;

    HierarchyHit hitTest(Point world) const;

    // The row whose band (top to the next row's top) holds y, clamped to [0, rows-1].
    std::int64_t rowAtY(double y) const;

private:
    launch::LaunchShape m_shape;
    HierarchyMetrics m_metrics;
    std::int64_t m_columns = 1;
    std::int64_t m_rowsPerSlice = 1;
    std::int64_t m_rows = 1;
    bool m_wrapped = false;
    double m_blockWidth = 0.0;
    double m_blockHeight = 0.0;
};

} // namespace warpscope::viz
