// The stepper's fragment view (Dear ImGui, inside the execution scene): at a wmma.load, wmma.store,
// wmma.mma, mma.sync, ldmatrix or stmatrix, the tiles the instruction reads or writes as matrices of
// decoded values (sim/fragment_tiles.h). A strip of small tiles shows them all; one of them, chosen
// by a click, is drawn large with its values, or with the lane or register name that holds each
// element. Hovering an element names its lane, register and bits; hovering a D element of an mma
// lights row i of A, column j of B and C(i, j), and the play button walks the multiply-accumulate
// along k, one product at a time (it animates only while playing).
#pragma once

#include "execution/stepper.h"
#include "sim/fragment_tiles.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::viz {

class FragmentPanel {
public:
    // Draws the view of the stepper's current instruction when it moves or multiplies fragments;
    // false (and nothing drawn) otherwise.
    bool draw(const Stepper& stepper, float width);
    bool animating() const { return m_playing; }

    // At the last frame, for tests: the view drawn (nullopt when none), the tile drawn large, and
    // the text in each of its cells, row-major.
    const std::optional<sim::tensor::FragmentView>& lastView() const { return m_view; }
    char lastFocusedTile() const { return m_focus; }
    const std::vector<std::string>& lastCellTexts() const { return m_cellTexts; }
    const std::string& lastTermsText() const { return m_termsText; }
    const std::string& lastTooltip() const { return m_tooltip; } // the hovered element's, "" when none
    // Where the large tile's cells were at the last frame (screen px), to aim the pointer; and
    // whether element (row, col) of `tile` is lit by the hover or the walk.
    struct CellGrid {
        float left = 0, top = 0, cellWidth = 0, cellHeight = 0;
    };
    const CellGrid& lastFocusedGrid() const { return m_grid; }
    bool lastLit(char tile, int row, int col) const;
    int walkStep() const { return m_walk; } // products summed in the walk so far, -1 before any
    void walkTo(int k) { m_walk = k; m_playing = false; }
    void play() { m_playing = true; m_clock = 0.0f; }

    enum class CellLabel : int { Value, Lane, Register };
    void setCellLabel(CellLabel label) { m_label = label; }
    void focusTile(char name) { m_focus = name; }

private:
    struct Hover {
        char tile = 0; // 0: none
        int row = -1, col = -1, lane = -1;
    };
    void drawStrip(float width);
    void drawFocused(float width);
    void drawTerms();
    bool lit(const sim::tensor::FragmentTile& tile, int row, int col) const; // lit by the hover or the walk
    std::string cellText(const sim::tensor::FragmentTile& tile, const sim::tensor::TileElement& element, float room) const;
    void tooltip(const sim::tensor::FragmentTile& tile, int row, int col);

    std::optional<sim::tensor::FragmentView> m_view;
    const ptx::Instruction* m_instruction = nullptr;
    const ptx::Function* m_function = nullptr;
    std::int32_t m_warp = 0; // the warp whose registers hold the tiles
    std::optional<std::size_t> m_step; // the step shown: a new one resets the walk
    char m_focus = 0;
    CellLabel m_label = CellLabel::Value;
    Hover m_hover, m_nextHover;
    int m_outRow = 0, m_outCol = 0; // the D element the walk follows
    int m_walk = -1;                // products summed so far in the walk; -1: no walk
    bool m_playing = false;
    float m_clock = 0.0f;
    int m_scrollFrames = 0; // frames left that scroll the page to the view's title
    std::vector<std::string> m_cellTexts;
    CellGrid m_grid;
    std::string m_termsText, m_tooltip;
};

} // namespace warpscope::viz
