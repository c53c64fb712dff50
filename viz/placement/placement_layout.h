// Where the placement scene draws each SM and each of its resident-block slots (world units), and
// hit-testing. SMs are tiles in rows; inside a tile the slots form a near-square grid.
#pragma once

#include "canvas/view_transform.h"

namespace warpscope::viz {

struct PlacementHit {
    int sm = -1;
    int slot = -1; // -1: the SM's header or padding
};

class PlacementLayout {
public:
    PlacementLayout() = default;
    PlacementLayout(int smCount, int blocksPerSm, double aspect = 1.6);

    int smCount() const { return m_smCount; }
    int blocksPerSm() const { return m_blocksPerSm; }
    int smColumns() const { return m_smColumns; }
    int smRows() const { return m_smRows; }
    int slotColumns() const { return m_slotColumns; }
    int slotRows() const { return m_slotRows; }

    Rect bounds() const;
    Rect smRect(int sm) const;
    Rect slotRect(int sm, int slot) const;
    PlacementHit hitTest(Point world) const;

    static constexpr double kSlot = 10.0;
    static constexpr double kSlotGap = 2.0;
    static constexpr double kPadding = 4.0;
    static constexpr double kHeader = 12.0;
    static constexpr double kSmGap = 6.0;

private:
    int m_smCount = 0;
    int m_blocksPerSm = 0;
    int m_smColumns = 1;
    int m_smRows = 1;
    int m_slotColumns = 1;
    int m_slotRows = 1;
    double m_smWidth = 0.0;
    double m_smHeight = 0.0;
};

} // namespace warpscope::viz
