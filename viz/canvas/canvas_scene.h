// A scene drawn on the canvas: the hierarchy, the placement, and later the simulator's views.
// Scenes draw with ImGui's draw lists (shapes) and ImGui windows (instrument panels, tooltips);
// zoom and pan live in a ViewTransform the canvas drives from input ImGui did not want.
#pragma once

#include "canvas/view_transform.h"

struct ImDrawList;

namespace warpscope::viz {

struct SceneFrame {
    ImDrawList* draw = nullptr; // the background draw list, under every ImGui window
    Rect viewport;              // logical px
    Point mouse{-1.0, -1.0};    // logical px; negative when outside
    bool mouseFree = false;     // the pointer is over the scene, not over an ImGui window
    double time = 0.0;          // seconds since the canvas started
    double deltaTime = 0.0;     // seconds since the last frame
};

class CanvasScene {
public:
    virtual ~CanvasScene() = default;

    virtual void draw(const SceneFrame& frame) = 0;        // one frame
    virtual bool animating() const { return false; }       // keep repainting while true
    virtual void click(Point /*screen*/) {}                // a left click that ImGui did not take

    void zoomAt(Point screen, double factor) { m_view.zoomAt(screen, factor); m_autoFitOnResize = false; }
    void panBy(double dx, double dy) { m_view.panBy(dx, dy); m_autoFitOnResize = false; }
    void resetView() { m_fitPending = true; m_autoFitOnResize = true; } // fit on the next frame
    const ViewTransform& view() const { return m_view; }

protected:
    // Fits `world` into the viewport when a fit is pending (first frame, new data, reset).
    void fitIfPending(const Rect& world, const Rect& viewport)
    {
        if (m_fitPending || viewport.w != m_lastViewport.w || viewport.h != m_lastViewport.h) {
            if (m_fitPending || m_autoFitOnResize)
                m_view.fit(world, viewport, 24.0);
            m_fitPending = false;
            m_lastViewport = viewport;
        }
    }
    ViewTransform m_view;
    bool m_fitPending = true;
    bool m_autoFitOnResize = true; // until the user zooms or pans
    Rect m_lastViewport;
};

} // namespace warpscope::viz
