#include "placement/placement_layout.h"

#include <algorithm>
#include <cmath>

namespace warpscope::viz {

PlacementLayout::PlacementLayout(int smCount, int blocksPerSm, int slotColumns, int smColumns)
    : m_smCount(std::max(1, smCount)), m_blocksPerSm(std::max(1, blocksPerSm))
{
    m_slotColumns = std::clamp(slotColumns, 1, m_blocksPerSm);
    m_slotRows = (m_blocksPerSm + m_slotColumns - 1) / m_slotColumns;
    m_smWidth = 2 * kPadding + m_slotColumns * (kSlot + kSlotGap) - kSlotGap;
    m_smHeight = kHeader + kPadding + m_slotRows * (kSlot + kSlotGap) - kSlotGap;
    m_smColumns = std::clamp(smColumns, 1, m_smCount);
    m_smRows = (m_smCount + m_smColumns - 1) / m_smColumns;
}

PlacementLayout::PlacementLayout(int smCount, int blocksPerSm, double aspect)
    : PlacementLayout(smCount, blocksPerSm, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(1, blocksPerSm))))), 1)
{
    // Columns so that the SM grid's shape is close to the viewport's aspect.
    const double cellW = m_smWidth + kSmGap, cellH = m_smHeight + kSmGap;
    const double columns = std::sqrt(m_smCount * aspect * cellH / cellW);
    m_smColumns = std::clamp(static_cast<int>(std::ceil(columns)), 1, m_smCount);
    m_smRows = (m_smCount + m_smColumns - 1) / m_smColumns;
}

PlacementLayout PlacementLayout::fitting(int smCount, int blocksPerSm, double width, double height)
{
    PlacementLayout best(smCount, blocksPerSm, 1.0);
    double bestScale = best.scaleToFit(width, height);
    int bestEmpty = best.m_slotColumns * best.m_slotRows - best.m_blocksPerSm;
    // At most 32 slot columns (an SM holds at most 32 blocks) by each SM column count: a few
    // thousand rectangles, only when the area changes size.
    const int blocks = std::max(1, blocksPerSm);
    for (int slotColumns = 1; slotColumns <= std::min(blocks, 64); ++slotColumns) {
        const int empty = slotColumns * ((blocks + slotColumns - 1) / slotColumns) - blocks;
        for (int smColumns = 1; smColumns <= std::max(1, smCount); ++smColumns) {
            const PlacementLayout candidate(smCount, blocksPerSm, slotColumns, smColumns);
            const double scale = candidate.scaleToFit(width, height);
            // Larger slots win; at (nearly) equal size, fewer empty places in each SM's grid.
            if (scale > bestScale * 1.0001 || (scale > bestScale * 0.9999 && empty < bestEmpty)) {
                best = candidate;
                bestScale = scale;
                bestEmpty = empty;
            }
        }
    }
    return best;
}

double PlacementLayout::scaleToFit(double width, double height) const
{
    const Rect all = bounds();
    if (all.w <= 0 || all.h <= 0)
        return 0.0;
    return std::min(width / all.w, height / all.h);
}

Rect PlacementLayout::bounds() const
{
    return {0.0, 0.0, m_smColumns * (m_smWidth + kSmGap) - kSmGap, m_smRows * (m_smHeight + kSmGap) - kSmGap};
}

Rect PlacementLayout::smRect(int sm) const
{
    const int column = sm % m_smColumns, row = sm / m_smColumns;
    return {column * (m_smWidth + kSmGap), row * (m_smHeight + kSmGap), m_smWidth, m_smHeight};
}

Rect PlacementLayout::slotRect(int sm, int slot) const
{
    const Rect tile = smRect(sm);
    const int column = slot % m_slotColumns, row = slot / m_slotColumns;
    return {tile.x + kPadding + column * (kSlot + kSlotGap), tile.y + kHeader + row * (kSlot + kSlotGap), kSlot, kSlot};
}

PlacementHit PlacementLayout::hitTest(Point world) const
{
    PlacementHit hit;
    if (world.x < 0 || world.y < 0)
        return hit;
    const double columnF = world.x / (m_smWidth + kSmGap), rowF = world.y / (m_smHeight + kSmGap);
    if (columnF >= m_smColumns || rowF >= m_smRows)
        return hit;
    const int column = static_cast<int>(columnF), row = static_cast<int>(rowF);
    const int sm = row * m_smColumns + column;
    if (column >= m_smColumns || sm >= m_smCount || !smRect(sm).contains(world))
        return hit;
    hit.sm = sm;
    for (int slot = 0; slot < m_blocksPerSm; ++slot)
        if (slotRect(sm, slot).contains(world))
            hit.slot = slot;
    return hit;
}

} // namespace warpscope::viz
