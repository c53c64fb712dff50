// The roofline's kernel labels spread so that none covers another or a marker (declared in
// profile_roofline_plot.h): view math, tested without drawing (gui.roofline).
#include "profile/profile_roofline_plot.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace warpscope::viz {

namespace {

// They share columns and rows: touching edges do not overlap.
bool overlaps(const QRectF& a, const QRectF& b)
{
    return a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom();
}

} // namespace

std::vector<QRectF> spreadLabels(const std::vector<QRectF>& rects, double bottom, const std::vector<QRectF>& obstacles)
{
    std::vector<std::size_t> order(rects.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rects[a].top() < rects[b].top(); });
    std::vector<QRectF> placed = rects;
    std::vector<std::size_t> done;
    for (std::size_t i : order) {
        // Push below every placed label and every marker it overlaps, until it overlaps none (each
        // push only goes down).
        auto pushBelow = [&](const QRectF& other) {
            const bool hit = overlaps(placed[i], other);
            if (hit)
                placed[i].moveTop(other.bottom());
            return hit;
        };
        for (bool moved = true; moved;) {
            moved = false;
            for (std::size_t j : done)
                moved = pushBelow(placed[j]) || moved;
            for (const QRectF& marker : obstacles)
                moved = pushBelow(marker) || moved;
        }
        done.push_back(i);
    }
    // Past the bottom edge a label is cut: lift the lowest back inside, then any it now overlaps above
    // it, clear of the markers too (each lift only goes up, from the bottom of the stack).
    std::vector<std::size_t> upward(order.rbegin(), order.rend());
    std::stable_sort(upward.begin(), upward.end(), [&](std::size_t a, std::size_t b) { return placed[a].bottom() > placed[b].bottom(); });
    std::vector<std::size_t> lifted;
    for (std::size_t i : upward) {
        if (placed[i].bottom() > bottom)
            placed[i].moveBottom(bottom);
        auto liftAbove = [&](const QRectF& other) {
            const bool hit = overlaps(placed[i], other);
            if (hit)
                placed[i].moveBottom(other.top());
            return hit;
        };
        for (bool moved = true; moved;) {
            moved = false;
            for (std::size_t j : lifted)
                moved = liftAbove(placed[j]) || moved;
            for (const QRectF& marker : obstacles)
                moved = liftAbove(marker) || moved;
        }
        lifted.push_back(i);
    }
    return placed;
}

} // namespace warpscope::viz
