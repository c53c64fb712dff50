// The hierarchy scene: grid -> blocks -> warps -> lanes of one launch, with hover and selection.
// Level of detail keeps any grid smooth: lanes when a lane cell is a few pixels, warps as bars below
// that, blocks as tiles below that, and whole rows of blocks when even tiles would be sub-pixel.
#pragma once

#include "canvas/canvas_scene.h"
#include "launch/launch_geometry.h"
#include "hierarchy/hierarchy_layout.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace warpscope::viz {

enum class HierarchyDetail { Rows, Blocks, Warps, Lanes };

struct HierarchyFrameStats {
    HierarchyDetail detail = HierarchyDetail::Blocks;
    std::int64_t blocksDrawn = 0;
    std::int64_t warpsDrawn = 0;
    std::int64_t lanesDrawn = 0;
};

class HierarchyScene : public CanvasScene {
public:
    HierarchyScene();

    void setLaunch(const launch::LaunchShape& shape); // must be valid (validateLaunch)
    const launch::LaunchShape& launchShape() const { return m_shape; }
    const HierarchyLayout& layout() const { return m_layout; }

    void draw(const SceneFrame& frame) override;
    void click(Point screen) override;

    std::optional<launch::ThreadCoordinates> hovered() const { return m_hovered; }
    std::optional<launch::ThreadCoordinates> selected() const { return m_selected; }
    const HierarchyFrameStats& lastFrameStats() const { return m_stats; }
    // Where the last frame fitted the figure: the viewport less the launch overlay above and the
    // legend below, which never cover it.
    const Rect& lastFigureArea() const { return m_figureArea; }
    double overlayBottom() const { return m_overlayBottom; } // the launch overlay's lower edge, screen px

    // Called when a click selects a lane (or clears the selection with nullopt).
    std::function<void(const std::optional<launch::ThreadCoordinates>&)> onSelectionChanged;

    // The level of detail for a given on-screen lane size (px) and visible block count.
    static HierarchyDetail detailFor(double lanePixels, std::int64_t visibleBlocks);

private:
    void drawRows(const SceneFrame& frame, const HierarchyLayout::Range& rows);
    void drawBlocks(const SceneFrame& frame, const HierarchyLayout::Range& rows, const HierarchyLayout::Range& columns);
    void drawOverlay(const SceneFrame& frame);
    void drawLegend(const SceneFrame& frame);    // a row is a warp, the shade is threadIdx.y + z, idle lanes
    Rect figureArea(const Rect& viewport) const; // the viewport less the overlays' bands
    void drawTooltip(const launch::ThreadCoordinates& c);
    std::optional<launch::ThreadCoordinates> threadAt(Point screen) const;

    launch::LaunchShape m_shape;
    HierarchyLayout m_layout;
    double m_layoutAspect = 1.6;
    std::optional<launch::ThreadCoordinates> m_hovered;
    std::optional<launch::ThreadCoordinates> m_selected;
    std::int64_t m_hoveredBlock = -1;
    int m_hoveredWarp = -1;
    HierarchyFrameStats m_stats;
    double m_topBand = 0.0;    // the launch overlay's height last frame: the figure is fitted below it
    double m_bottomBand = 0.0; // the legend's
    Rect m_figureArea;
    double m_overlayBottom = 0.0;
};

} // namespace warpscope::viz
