// Canvas layout and hit-testing math, without painting.
#include "hierarchy/hierarchy_layout.h"
#include "placement/placement_layout.h"
#include "canvas/view_transform.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace warpscope;
using namespace warpscope::viz;

namespace {

Point centre(const Rect& r) { return {r.x + r.w / 2, r.y + r.h / 2}; }

} // namespace

TEST(ViewTransform, ZoomKeepsTheAnchorStill)
{
    ViewTransform view;
    view.panBy(40, -12);
    const Point anchor{300, 200};
    const Point before = view.toWorld(anchor);
    view.zoomAt(anchor, 2.5);
    const Point after = view.toWorld(anchor);
    EXPECT_NEAR(before.x, after.x, 1e-9);
    EXPECT_NEAR(before.y, after.y, 1e-9);
    EXPECT_DOUBLE_EQ(view.scale(), 2.5);
}

TEST(ViewTransform, FitCentresTheWorld)
{
    ViewTransform view;
    // 1000 x 500 world into 600 x 600 with 50 px margins: scale 0.5, 250 px tall, centred.
    view.fit({0, 0, 1000, 500}, {0, 0, 600, 600}, 50);
    EXPECT_DOUBLE_EQ(view.scale(), 0.5);
    const Point topLeft = view.toScreen(Point{0, 0});
    EXPECT_DOUBLE_EQ(topLeft.x, 50);
    EXPECT_DOUBLE_EQ(topLeft.y, 175);
    const Point world = view.toWorld(Point{300, 300});
    EXPECT_DOUBLE_EQ(world.x, 500);
    EXPECT_DOUBLE_EQ(world.y, 250);
}

TEST(HierarchyLayout, TwoDimensionalGridKeepsRowsAndColumns)
{
    const HierarchyLayout layout({{4, 2, 1}, {96, 1, 1}});
    EXPECT_EQ(layout.columns(), 4);
    EXPECT_EQ(layout.rows(), 2);
    EXPECT_FALSE(layout.wrapped());
    // blockIdx (1,1) is linear block 5: column 1, row 1.
    EXPECT_EQ(layout.rowOf(5), 1);
    EXPECT_EQ(layout.columnOf(5), 1);
    EXPECT_EQ(layout.blockAt(1, 1), 5);
    const Rect block = layout.blockRect(5);
    EXPECT_DOUBLE_EQ(block.x, layout.blockWidth() + layout.metrics().blockGap);
    const HierarchyHit hit = layout.hitTest(centre(layout.laneRect(5, 2, 17)));
    EXPECT_EQ(hit.block, 5);
    EXPECT_EQ(hit.warp, 2);
    EXPECT_EQ(hit.lane, 17);
    // The gap between blocks and the header hit nothing / only the block.
    EXPECT_LT(layout.hitTest({block.x - 1, block.y + 20}).block, 0); // the gap before it
    EXPECT_LT(layout.hitTest({block.right() + 1, block.y + 20}).block, 0);
    const HierarchyHit header = layout.hitTest({block.x + 20, block.y + 2});
    EXPECT_EQ(header.block, 5);
    EXPECT_EQ(header.warp, -1);
}

TEST(HierarchyLayout, EveryLaneOfA3DLaunchHitsItself)
{
    // 3-D grid: z-slices stack with a wider gap; every lane's centre must map back to it.
    const launch::LaunchShape shape{{3, 2, 2}, {8, 4, 3}}; // 96 threads = 3 warps
    const HierarchyLayout layout(shape);
    EXPECT_EQ(layout.rows(), 4);
    EXPECT_GT(layout.rowTop(2) - layout.rowTop(1), layout.rowTop(1) - layout.rowTop(0)); // slice gap
    for (std::int64_t block = 0; block < shape.blockCount(); ++block)
        for (int warp = 0; warp < 3; ++warp)
            for (int lane = 0; lane < 32; ++lane) {
                const HierarchyHit hit = layout.hitTest(centre(layout.laneRect(block, warp, lane)));
                ASSERT_EQ(hit.block, block);
                ASSERT_EQ(hit.warp, warp);
                ASSERT_EQ(hit.lane, lane);
            }
}

TEST(HierarchyLayout, OneDimensionalGridsWrap)
{
    // 528 blocks of 512 threads (a full H100 wave): wrapped into a near-viewport-shaped grid.
    const HierarchyLayout layout({{528, 1, 1}, {512, 1, 1}}, 1.6);
    EXPECT_TRUE(layout.wrapped());
    EXPECT_GE(layout.columns() * layout.rows(), 528);
    EXPECT_LT((layout.columns()) * (layout.rows() - 1), 528);
    // The last block sits in the last row; a cell past it is empty.
    EXPECT_EQ(layout.rowOf(527), layout.rows() - 1);
    const std::int64_t lastColumn = layout.columnOf(527);
    if (lastColumn + 1 < layout.columns()) {
        EXPECT_FALSE(layout.blockAt(layout.rows() - 1, lastColumn + 1).has_value());
    }
    const HierarchyHit hit = layout.hitTest(centre(layout.laneRect(527, 15, 31)));
    EXPECT_EQ(hit.block, 527);
    EXPECT_EQ(hit.warp, 15);
    EXPECT_EQ(hit.lane, 31);
    // A small 1-D grid is not wrapped.
    EXPECT_FALSE(HierarchyLayout({{8, 1, 1}, {32, 1, 1}}).wrapped());
}

TEST(HierarchyLayout, PartialWarpLanesAreLaidOutAndHit)
{
    const launch::LaunchShape shape{{1, 1, 1}, {100, 1, 1}};
    const HierarchyLayout layout(shape);
    const HierarchyHit hit = layout.hitTest(centre(layout.laneRect(0, 3, 20)));
    EXPECT_EQ(hit.warp, 3);
    EXPECT_EQ(hit.lane, 20);
    EXPECT_TRUE(launch::coordinatesOf(shape, hit.block, hit.warp, hit.lane).idle);
}

TEST(HierarchyLayout, LargestGridIsArithmeticOnly)
{
    const launch::LaunchShape shape{{2147483647, 65535, 1}, {1024, 1, 1}};
    const HierarchyLayout layout(shape);
    const Rect bounds = layout.bounds();
    EXPECT_GT(bounds.w, 0);
    EXPECT_GT(bounds.h, 0);
    const std::int64_t last = shape.blockCount() - 1;
    const HierarchyHit hit = layout.hitTest(centre(layout.laneRect(last, 31, 0)));
    EXPECT_EQ(hit.block, last);
    EXPECT_EQ(hit.warp, 31);
    const auto rows = layout.visibleRows({0, bounds.h / 2, 100, 500});
    EXPECT_GE(rows.first, 0);
    EXPECT_LE(rows.last, layout.rows() - 1);
    EXPECT_LE(rows.last - rows.first, 3);
}

TEST(HierarchyLayout, VisibleRangesCoverExactlyTheWindow)
{
    const HierarchyLayout layout({{10, 10, 3}, {64, 1, 1}});
    const Rect window{layout.blockRect(23).x + 1, layout.rowTop(12) + 1, layout.blockWidth() * 2, layout.blockHeight()};
    const auto rows = layout.visibleRows(window);
    const auto columns = layout.visibleColumns(window);
    EXPECT_EQ(rows.first, 12);
    EXPECT_LE(rows.last, 13);
    EXPECT_EQ(columns.first, 3);
    EXPECT_EQ(columns.last, 4); // 2 block widths from inside column 3 stop short of column 5
    // Every block intersecting the window is inside the ranges.
    for (std::int64_t block = 0; block < 300; ++block)
        if (layout.blockRect(block).intersects(window)) {
            EXPECT_GE(layout.rowOf(block), rows.first);
            EXPECT_LE(layout.rowOf(block), rows.last);
            EXPECT_GE(layout.columnOf(block), columns.first);
            EXPECT_LE(layout.columnOf(block), columns.last);
        }
}

TEST(PlacementLayout, EverySlotHitsItself)
{
    const PlacementLayout layout(132, 4, 1.6);
    EXPECT_GE(layout.smColumns() * layout.smRows(), 132);
    EXPECT_EQ(layout.slotColumns(), 2);
    EXPECT_EQ(layout.slotRows(), 2);
    for (int sm = 0; sm < 132; ++sm)
        for (int slot = 0; slot < 4; ++slot) {
            const PlacementHit hit = layout.hitTest(centre(layout.slotRect(sm, slot)));
            ASSERT_EQ(hit.sm, sm);
            ASSERT_EQ(hit.slot, slot);
        }
    EXPECT_LT(layout.hitTest({-5, 3}).sm, 0);
}

// Lane cells on screen: at every zoom from the first lane detail (3-pixel lanes) to 40-pixel lanes,
// and at fractional pans, each cell starts on a whole pixel, all 32 of a warp are equally wide, a
// pixel or more separates neighbours, and the cells stay inside the warp's own span (to a pixel).
TEST(HierarchyLayout, SnappedLanesAreEvenAtEveryZoom)
{
    const HierarchyLayout layout(launch::LaunchShape{{4, 1, 1}, {96, 1, 1}});
    const HierarchyMetrics& m = layout.metrics();
    for (double laneOnScreen = 3.0; laneOnScreen <= 40.0; laneOnScreen += 0.0625) {
        const double scale = laneOnScreen / m.lane;
        const double pitch = (m.lane + m.laneGap) * scale;
        for (const double pan : {0.0, 0.25, 0.5, 0.73}) {
            ViewTransform view;
            view.zoomAt({0, 0}, scale);
            view.panBy(pan + 17.0, 3.0);
            const Rect warp = view.toScreen(layout.warpRect(1, 2));
            double width = -1, previousRight = -1e9;
            for (int lane = 0; lane < 32; ++lane) {
                const Rect cell = snapLaneToPixels(view.toScreen(layout.laneRect(1, 2, lane)), pitch);
                SCOPED_TRACE(testing::Message() << "lane " << lane << ", " << laneOnScreen << " px lanes, pan " << pan);
                EXPECT_EQ(cell.x, std::floor(cell.x));
                EXPECT_EQ(cell.w, std::floor(cell.w));
                if (width < 0)
                    width = cell.w;
                EXPECT_EQ(cell.w, width);
                EXPECT_GE(cell.w, std::floor(laneOnScreen) - 1.0); // no thinner than the true lane by more than a pixel
                EXPECT_GE(cell.x - previousRight, 1.0);
                EXPECT_GE(cell.x, warp.x - 0.5);
                EXPECT_LE(cell.right(), warp.right() + 1.0); // both roundings may add half a pixel
                previousRight = cell.right();
            }
        }
    }
}
