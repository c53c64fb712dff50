// World <-> screen mapping for zoomable canvases (plain math: unit-tested without painting).
#pragma once

#include <algorithm>

namespace warpscope::viz {

struct Point {
    double x = 0.0, y = 0.0;
};

struct Rect {
    double x = 0.0, y = 0.0, w = 0.0, h = 0.0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    bool contains(Point p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
    bool intersects(const Rect& o) const
    {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
};

class ViewTransform {
public:
    static constexpr double kMinScale = 1e-13; // the largest 3-D grid (~1e12 x 3e12 units) still fits
    static constexpr double kMaxScale = 64.0;

    double scale() const { return m_scale; }
    Point offset() const { return {m_offsetX, m_offsetY}; }

    Point toScreen(Point world) const { return {world.x * m_scale + m_offsetX, world.y * m_scale + m_offsetY}; }
    Point toWorld(Point screen) const { return {(screen.x - m_offsetX) / m_scale, (screen.y - m_offsetY) / m_scale}; }
    Rect toScreen(const Rect& world) const
    {
        const Point p = toScreen(Point{world.x, world.y});
        return {p.x, p.y, world.w * m_scale, world.h * m_scale};
    }
    Rect toWorld(const Rect& screen) const
    {
        const Point p = toWorld(Point{screen.x, screen.y});
        return {p.x, p.y, screen.w / m_scale, screen.h / m_scale};
    }

    // Zooms by `factor` keeping the world point under `screenAnchor` where it is.
    void zoomAt(Point screenAnchor, double factor)
    {
        const Point anchorWorld = toWorld(screenAnchor);
        m_scale = std::clamp(m_scale * factor, kMinScale, kMaxScale);
        m_offsetX = screenAnchor.x - anchorWorld.x * m_scale;
        m_offsetY = screenAnchor.y - anchorWorld.y * m_scale;
    }

    void panBy(double dx, double dy)
    {
        m_offsetX += dx;
        m_offsetY += dy;
    }

    // Fits `world` into `viewport` (screen px) with `margin` px around, centred.
    void fit(const Rect& world, const Rect& viewport, double margin = 16.0)
    {
        const double availableW = std::max(1.0, viewport.w - 2 * margin);
        const double availableH = std::max(1.0, viewport.h - 2 * margin);
        const double w = std::max(world.w, 1e-9), h = std::max(world.h, 1e-9);
        m_scale = std::clamp(std::min(availableW / w, availableH / h), kMinScale, kMaxScale);
        m_offsetX = viewport.x + (viewport.w - w * m_scale) / 2 - world.x * m_scale;
        m_offsetY = viewport.y + (viewport.h - h * m_scale) / 2 - world.y * m_scale;
    }

private:
    double m_scale = 1.0;
    double m_offsetX = 0.0;
    double m_offsetY = 0.0;
};

} // namespace warpscope::viz
