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
    // Slots in a near-square grid per SM; SM columns so that the whole is close to `aspect`.
    PlacementLayout(int smCount, int blocksPerSm, double aspect = 1.6);
    // The slot and SM columns that draw the slots largest in a `width` x `height` area (any units):
    // 21 slots on each of 132 SMs in a laptop's 880 x 420 px become 7 x 3 per SM, 12 SMs a row.
    static PlacementLayout fitting(int smCount, int blocksPerSm, double width, double height);
    // How many area units one world unit is when the layout is fitted into `width` x `height`.
    double scaleToFit(double width, double height) const;

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

    // World units. SMs carry no header band: their numbers label the rows (the scene draws them
    // beside the grid) and the hovered slot's tooltip, so the slots get the room.
    static constexpr double kSlot = 10.0;
    static constexpr double kSlotGap = 2.0;
    static constexpr double kPadding = 3.0;
    static constexpr double kHeader = 3.0; // above the first slot row: the padding
    static constexpr double kSmGap = 5.0;

private:
    PlacementLayout(int smCount, int blocksPerSm, int slotColumns, int smColumns);

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
