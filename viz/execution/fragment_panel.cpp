#include "execution/fragment_panel.h"

#include "canvas/scene_style.h"
#include "sim/exec_tensor_layout.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace warpscope::viz {

namespace {

using sim::tensor::FragmentTile;
using sim::tensor::TileElement;

constexpr ImU32 kCellZero = IM_COL32(44, 48, 58, 255);
constexpr ImU32 kCellEdge = IM_COL32(24, 26, 32, 255);
constexpr ImU32 kCellText = IM_COL32(236, 240, 246, 255);
constexpr float kStepSeconds = 0.4f; // one product of the walk

// Warm for positive values, blue for negative, stronger the larger |value| is against the tile's
// largest; dark enough everywhere for light text.
ImU32 valueColour(double value, double largest)
{
    if (!(largest > 0.0) || value == 0.0 || !std::isfinite(value))
        return std::isnan(value) ? IM_COL32(150, 60, 150, 255) : kCellZero;
    const float t = static_cast<float>(std::clamp(std::fabs(value) / largest, 0.0, 1.0));
    const float strength = 0.25f + 0.75f * t;
    const ImVec4 base(44 / 255.0f, 48 / 255.0f, 58 / 255.0f, 1.0f);
    const ImVec4 to = value > 0 ? ImVec4(0.78f, 0.36f, 0.18f, 1.0f) : ImVec4(0.20f, 0.42f, 0.82f, 1.0f);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(base.x + (to.x - base.x) * strength, base.y + (to.y - base.y) * strength,
                                                 base.z + (to.z - base.z) * strength, 1.0f));
}

// Lane `lane`'s colour in the lanes view: neighbours apart on the hue wheel, dark enough for light text.
ImU32 laneColour(int lane)
{
    const double turns = 0.58 + lane * 0.618033988749895;
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(static_cast<float>(turns - std::floor(turns)), 0.65f, 0.52f, r, g, b);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

double largestMagnitude(const FragmentTile& tile)
{
    double largest = 0.0;
    for (const TileElement& element : tile.elements)
        if (std::isfinite(element.value))
            largest = std::max(largest, std::fabs(element.value));
    return largest;
}

// A value in as many significant digits (up to 5) as fit in `room` pixels at the current font.
std::string fittedNumber(double value, float room, float fontSize)
{
    ImFont* font = ImGui::GetFont();
    char text[32];
    for (int digits = 5; digits >= 1; --digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (font->CalcTextSizeA(fontSize, FLT_MAX, 0.0f, text).x <= room)
            return text;
        // Without the leading zero, as dense tables write it: -.05
        std::string shorter = text;
        const std::size_t zero = shorter.find("0.");
        if (zero <= 1 && (zero == 0 || shorter[0] == '-')) {
            shorter.erase(zero, 1);
            if (font->CalcTextSizeA(fontSize, FLT_MAX, 0.0f, shorter.c_str()).x <= room)
                return shorter;
        }
    }
    return "";
}

const char* typeText(ptx::Type type) { return ptx::typeName(type); }

// "A", or "matrix 0" for ldmatrix's and stmatrix's numbered matrices.
std::string tileName(const FragmentTile& tile)
{
    return tile.name < 'A' ? std::string("matrix ") + tile.name : std::string(1, tile.name);
}

// A register's 32 lanes after the step: the step's recorded write where it wrote the lane, else the
// value before it.
std::array<std::uint64_t, 32> lanesAfter(const Stepper& stepper, std::size_t index, std::int32_t warp, std::int32_t reg)
{
    std::array<std::uint64_t, 32> lanes{};
    const std::uint64_t* before = stepper.replay().registers(warp, reg);
    std::copy(before, before + 32, lanes.begin());
    const sim::BlockRecording& recording = stepper.recording();
    const sim::RecordedStep& step = recording.steps[index];
    for (std::uint32_t w = step.writeOffset; w < step.writeOffset + step.writeCount; ++w) {
        const sim::RecordedWrite& write = recording.writes[w];
        if (write.reg != reg)
            continue;
        for (int lane = 0; lane < 32; ++lane)
            if ((write.mask >> lane) & 1u)
                lanes[static_cast<std::size_t>(lane)] = write.after[static_cast<std::size_t>(lane)];
    }
    return lanes;
}

} // namespace

bool FragmentPanel::draw(const Stepper& stepper, float width)
{
    const ptx::Instruction* in = stepper.currentInstruction();
    const std::optional<std::size_t> index = stepper.currentIndex();
    if (!in || !index || !sim::tensor::showsFragments(*in)) {
        m_view.reset();
        m_playing = false;
        m_cellTexts.clear();
        m_termsText.clear();
        return false;
    }
    const sim::RecordedStep& step = stepper.recording().steps[*index];
    const auto warp = static_cast<std::int32_t>(step.warp);
    std::map<std::int32_t, std::array<std::uint64_t, 32>> after;
    const sim::tensor::LaneRegisters registers = [&](std::int32_t reg, bool isAfter) -> const std::uint64_t* {
        if (reg < 0 || reg >= stepper.recording().registerCount)
            return nullptr;
        if (!isAfter)
            return stepper.replay().registers(warp, reg);
        auto [at, inserted] = after.try_emplace(reg);
        if (inserted)
            at->second = lanesAfter(stepper, *index, warp, reg);
        return at->second.data();
    };
    const std::optional<ptx::Type> usedAs = sim::tensor::ldmatrixElementType(*stepper.run().function, static_cast<std::size_t>(step.pc));
    const ptx::Type halfType = usedAs.value_or(ptx::Type::F16);
    const bool arriving = !m_view; // from a step without fragments
    m_view = sim::tensor::fragmentView(*in, registers, halfType);
    m_instruction = in;
    m_function = stepper.run().function;
    m_warp = warp;
    if (m_step != index) { // a new step: the walk starts over, on D(0, 0)
        m_step = index;
        m_walk = -1;
        m_playing = false;
        m_outRow = m_outCol = 0;
        m_hover = Hover();
    }
    const sim::tensor::FragmentView& view = *m_view;
    const bool known = std::any_of(view.tiles.begin(), view.tiles.end(), [&](const FragmentTile& t) { return t.name == m_focus; });
    if (!known)
        m_focus = view.multiply ? 'D' : view.tiles.front().name;
    m_nextHover = Hover();
    m_tooltip.clear();

    // Arriving at a Tensor Core step: its tiles at the top of the page. For two more frames too, as
    // the page's height (which bounds the scroll) is known only once the tiles have been drawn.
    if (arriving)
        m_scrollFrames = 3;
    if (m_scrollFrames > 0) {
        --m_scrollFrames;
        ImGui::SetScrollY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y);
    }
    ImGui::TextWrapped("Fragments: %s", view.title.c_str());
    std::string types;
    for (const FragmentTile& tile : view.tiles)
        types += (types.empty() ? "" : ", ") + tileName(tile) + " ." + typeText(tile.type) + (tile.written ? " (after)" : "");
    if (in->op == ptx::Op::Ldmatrix || in->matrixCount > 0)
        types += "; .b16 elements shown as ." + std::string(typeText(halfType)) +
                 (usedAs ? ", the type the next mma reads them as" : " (no later mma reads these registers)");
    const bool model = view.layoutSource.starts_with("A model");
    types += model ? ". Layout: the simulator's model (hover)" : ". Layout: the PTX ISA's (hover)";
    style::textDisabledWrapped(types.c_str());
    if (ImGui::IsItemHovered())
        style::wrappedTooltip(view.layoutSource.c_str());
    int label = static_cast<int>(m_label);
    ImGui::RadioButton("values", &label, 0);
    ImGui::SameLine();
    ImGui::RadioButton("lanes", &label, 1);
    ImGui::SameLine();
    ImGui::RadioButton("registers", &label, 2);
    if (ImGui::IsItemHovered())
        style::wrappedTooltip("What each cell of the large tile shows: its decoded value, the lane that holds it, or its "
                              "name in the lane's fragment (mma: a0, a1, ... as the PTX ISA names them; wmma: x0, x1, ... "
                              "CUDA's frag.x[i]; ldmatrix: register and half). Hover a cell for all three and the bits.");
    m_label = static_cast<CellLabel>(label);
    if (view.tiles.size() > 1)
        drawStrip(width);
    drawFocused(width);
    if (view.multiply)
        drawTerms();
    m_hover = m_nextHover;
    return true;
}

bool FragmentPanel::lit(const FragmentTile& tile, int row, int col) const
{
    const TileElement& element = tile.at(row, col);
    if (m_hover.tile != 0) {
        if (m_label == CellLabel::Lane || !m_view->multiply) // a lane's whole fragment
            return element.held && element.lane == m_hover.lane;
        const int r = m_hover.row, c = m_hover.col;
        switch (m_hover.tile) {
        case 'C':
        case 'D': // D(r, c) comes from row r of A, column c of B and C(r, c)
            return (tile.name == 'A' && row == r) || (tile.name == 'B' && col == c) ||
                   ((tile.name == 'C' || tile.name == 'D') && row == r && col == c);
        case 'A': // A(r, k) meets row k of B and feeds row r of C and D
            return (tile.name == 'A' && row == r && col == c) || (tile.name == 'B' && row == c) ||
                   ((tile.name == 'C' || tile.name == 'D') && row == r);
        case 'B': // B(k, c) meets column k of A and feeds column c of C and D
            return (tile.name == 'B' && row == r && col == c) || (tile.name == 'A' && col == r) ||
                   ((tile.name == 'C' || tile.name == 'D') && col == c);
        default: return false;
        }
    }
    if (m_view->multiply && m_walk >= 0) {
        if (tile.name == 'A')
            return row == m_outRow && col == m_walk;
        if (tile.name == 'B')
            return row == m_walk && col == m_outCol;
        return row == m_outRow && col == m_outCol;
    }
    return false;
}

bool FragmentPanel::lastLit(char tile, int row, int col) const
{
    if (!m_view)
        return false;
    for (const FragmentTile& t : m_view->tiles)
        if (t.name == tile && row >= 0 && row < t.rows && col >= 0 && col < t.cols)
            return lit(t, row, col);
    return false;
}

std::string FragmentPanel::cellText(const FragmentTile& tile, const TileElement& element, float room) const
{
    if (!element.held)
        return "";
    const float fontSize = std::max(9.0f, std::floor(ImGui::GetFontSize() * 0.85f)); // as drawFocused draws it
    std::string text;
    switch (m_label) {
    case CellLabel::Value: return fittedNumber(element.value, room, fontSize);
    case CellLabel::Lane: text = std::to_string(element.lane); break;
    case CellLabel::Register:
        if (m_instruction->op == ptx::Op::Mma)
            text = sim::tensor::fragmentElementName(*m_instruction, tile, element);
        else if (m_instruction->op == ptx::Op::Ldmatrix || m_instruction->matrixCount > 0)
            text = "r" + std::to_string(element.registerIndex) + (element.part ? "h" : "l");
        else
            text = "x" + std::to_string(element.fragmentIndex);
        break;
    }
    return ImGui::GetFont()->CalcTextSizeA(fontSize, FLT_MAX, 0.0f, text.c_str()).x <= room ? text : std::string();
}

void FragmentPanel::tooltip(const FragmentTile& tile, int row, int col)
{
    const TileElement& element = tile.at(row, col);
    const std::string name = tileName(tile);
    if (!element.held) {
        ImGui::SetTooltip("%s(%d, %d): no lane holds it", name.c_str(), row, col);
        return;
    }
    char value[40];
    std::snprintf(value, sizeof value, "%.9g", element.value);
    const std::string reg = element.reg >= 0 && static_cast<std::size_t>(element.reg) < m_function->registers.size()
                                ? m_function->registers[static_cast<std::size_t>(element.reg)].name
                                : std::string(element.reg == ptx::kVectorImmediate ? "an immediate" : "no register");
    std::string text = name + "(" + std::to_string(row) + ", " + std::to_string(col) + ") = " + value + " (" +
                       sim::tensor::elementBitsText(tile, element) + ")\nlane " + std::to_string(element.lane) + " (thread " +
                       std::to_string(m_warp * 32 + element.lane) + " of the block), " + sim::tensor::fragmentElementName(*m_instruction, tile, element) +
                       ": register " + std::to_string(element.registerIndex) + " of the list, " + reg;
    const int perRegister = sim::tensor::elementsPerRegister(tile.type);
    if (perRegister > 1)
        text += ", bits " + std::to_string(element.part * 32 / perRegister) + "-" +
                std::to_string((element.part + 1) * 32 / perRegister - 1);
    if (element.copies > 1)
        text += "\nThe lane's fragment holds it " + std::to_string(element.copies) + " times (the simulator's wmma .f16 "
                "model repeats elements to fill its registers; wmma.mma reads the first).";
    if (tile.written)
        text += "\nThe value after the instruction.";
    style::wrappedTooltip(text.c_str());
    m_tooltip = std::move(text);
}

// Every tile, small, side by side: their shapes and how the hover or the walk relates them. A click
// draws a tile large below.
void FragmentPanel::drawStrip(float width)
{
    const sim::tensor::FragmentView& view = *m_view;
    int columns = 0;
    int rows = 0;
    for (const FragmentTile& tile : view.tiles) {
        columns += tile.cols;
        rows = std::max(rows, tile.rows);
    }
    const float gap = 14.0f;
    const float room = width - gap * static_cast<float>(view.tiles.size() - 1) - 4.0f;
    const float cell = std::clamp(std::floor(room / static_cast<float>(columns)), 3.0f, 10.0f);
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float labelHeight = ImGui::GetTextLineHeight() + 2.0f;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    float x = origin.x;
    for (const FragmentTile& tile : view.tiles) {
        char caption[40];
        std::snprintf(caption, sizeof caption, "%s %dx%d", tile.name < 'A' ? (std::string("#") + tile.name).c_str() : std::string(1, tile.name).c_str(),
                      tile.rows, tile.cols);
        const bool focused = tile.name == m_focus;
        list->AddText(ImVec2(x, origin.y), focused ? style::kHover : style::kTextDim, caption);
        const float top = origin.y + labelHeight;
        const double largest = largestMagnitude(tile);
        for (int r = 0; r < tile.rows; ++r)
            for (int c = 0; c < tile.cols; ++c) {
                const ImVec2 a(x + static_cast<float>(c) * cell, top + static_cast<float>(r) * cell);
                const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
                const TileElement& element = tile.at(r, c);
                const ImU32 fill = m_label == CellLabel::Lane ? laneColour(element.lane)
                                                               : valueColour(element.value, largest);
                list->AddRectFilled(a, b, lit(tile, r, c) ? style::kHover : fill);
                if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < a.x + cell && mouse.y >= a.y && mouse.y < a.y + cell) {
                    m_nextHover = {tile.name, r, c, element.lane};
                    tooltip(tile, r, c);
                    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
                        m_focus = tile.name;
                        if (tile.name == 'D' || tile.name == 'C') {
                            m_outRow = r;
                            m_outCol = c;
                            m_walk = -1;
                        }
                    }
                }
            }
        const float tileWidth = static_cast<float>(tile.cols) * cell;
        if (focused)
            list->AddRect(ImVec2(x - 2, top - 2), ImVec2(x + tileWidth + 1, top + static_cast<float>(tile.rows) * cell + 1),
                          style::kHover);
        x += std::max(tileWidth, ImGui::CalcTextSize(caption).x) + gap;
    }
    ImGui::Dummy(ImVec2(x - origin.x, labelHeight + static_cast<float>(rows) * cell + 4.0f));
    style::textDisabledWrapped(view.multiply ? "Small tiles: hover an element of D to light the row of A and the column of B "
                                               "that make it; click a tile to show its values below."
                                             : "Click a matrix to show its values below.");
}

// The focused tile, large: a number (or a lane, or a name) in every cell, row and column indices.
void FragmentPanel::drawFocused(float width)
{
    const FragmentTile* focused = nullptr;
    for (const FragmentTile& tile : m_view->tiles)
        if (tile.name == m_focus)
            focused = &tile;
    if (!focused)
        return;
    const FragmentTile& tile = *focused;
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float indexWidth = ImGui::CalcTextSize("00").x + 6.0f;
    const float cellWidth = std::clamp(std::floor((width - indexWidth - 4.0f) / static_cast<float>(tile.cols)), 12.0f, 64.0f);
    ImFont* font = ImGui::GetFont();
    const float cellFont = std::max(9.0f, std::floor(ImGui::GetFontSize() * 0.85f)); // a digit more per cell
    const float cellHeight = cellFont + 5.0f;
    const std::string name = tileName(tile);
    ImGui::Text("%s: %d x %d .%s%s", name.c_str(), tile.rows, tile.cols, typeText(tile.type),
                tile.written ? ", after the instruction" : "");
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float left = origin.x + indexWidth, top = origin.y + cellHeight;
    m_grid = {left, top, cellWidth, cellHeight};
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const double largest = largestMagnitude(tile);
    char index[8];
    for (int c = 0; c < tile.cols; ++c) { // column numbers where they fit
        std::snprintf(index, sizeof index, "%d", c);
        const float w = ImGui::CalcTextSize(index).x;
        if (w <= cellWidth - 2.0f)
            list->AddText(ImVec2(left + static_cast<float>(c) * cellWidth + (cellWidth - w) / 2, origin.y), style::kTextDim, index);
    }
    m_cellTexts.assign(static_cast<std::size_t>(tile.rows * tile.cols), std::string());
    for (int r = 0; r < tile.rows; ++r) {
        std::snprintf(index, sizeof index, "%d", r);
        list->AddText(ImVec2(origin.x, top + static_cast<float>(r) * cellHeight + 1.0f), style::kTextDim, index);
        for (int c = 0; c < tile.cols; ++c) {
            const ImVec2 a(left + static_cast<float>(c) * cellWidth, top + static_cast<float>(r) * cellHeight);
            const ImVec2 b(a.x + cellWidth, a.y + cellHeight);
            const TileElement& element = tile.at(r, c);
            const bool isLit = lit(tile, r, c);
            const ImU32 fill = m_label == CellLabel::Lane ? laneColour(element.lane) : valueColour(element.value, largest);
            list->AddRectFilled(a, b, fill);
            list->AddRect(a, ImVec2(b.x + 1.0f, b.y + 1.0f), isLit ? style::kHover : kCellEdge, 0.0f, 0, isLit ? 2.0f : 1.0f);
            const std::string text = cellText(tile, element, cellWidth - 3.0f);
            m_cellTexts[static_cast<std::size_t>(r * tile.cols + c)] = text;
            if (!text.empty()) {
                const float w = font->CalcTextSizeA(cellFont, FLT_MAX, 0.0f, text.c_str()).x;
                list->AddText(font, cellFont, ImVec2(a.x + (cellWidth - w) / 2, a.y + (cellHeight - cellFont) / 2), kCellText,
                              text.c_str());
            }
            if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
                m_nextHover = {tile.name, r, c, element.lane};
                tooltip(tile, r, c);
                if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && (tile.name == 'D' || tile.name == 'C')) {
                    m_outRow = r;
                    m_outCol = c;
                    m_walk = -1;
                }
            }
        }
    }
    ImGui::Dummy(ImVec2(indexWidth + static_cast<float>(tile.cols) * cellWidth + 2.0f,
                        cellHeight * static_cast<float>(tile.rows + 1) + 2.0f));
}

// D(i, j) built term by term: a slider (and a play button) over k, the product added at each k and
// the running sum, which ends at the value the instruction wrote.
void FragmentPanel::drawTerms()
{
    const sim::tensor::FragmentView& view = *m_view;
    const sim::tensor::MultiplyTerms terms = sim::tensor::multiplyTerms(view, m_outRow, m_outCol);
    if (m_playing) {
        m_clock += ImGui::GetIO().DeltaTime;
        while (m_clock >= kStepSeconds && m_playing) {
            m_clock -= kStepSeconds;
            if (++m_walk >= view.k - 1) {
                m_walk = view.k - 1;
                m_playing = false;
            }
        }
    }
    char line[200];
    std::snprintf(line, sizeof line, "D(%d, %d) = C(%d, %d) + sum over k of A(%d, k) x B(k, %d), k = 0..%d", m_outRow, m_outCol,
                  m_outRow, m_outCol, m_outRow, m_outCol, view.k - 1);
    ImGui::TextWrapped("%s", line);
    if (ImGui::Button(m_playing ? "Pause" : "Play")) {
        if (!m_playing && m_walk >= view.k - 1)
            m_walk = -1;
        m_playing = !m_playing;
        m_clock = 0.0f;
    }
    if (ImGui::IsItemHovered())
        style::wrappedTooltip("Walk along k: each step lights A(i, k) and B(k, j) and adds their product to the sum. Click "
                              "an element of D (or C) to follow another.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::min(220.0f, ImGui::GetContentRegionAvail().x * 0.5f));
    int k = m_walk;
    if (ImGui::SliderInt("k##walk", &k, -1, view.k - 1, k < 0 ? "C only" : "k = %d")) {
        m_walk = k;
        m_playing = false;
    }
    if (m_walk >= 0 && m_walk < static_cast<int>(terms.products.size())) {
        const std::size_t at = static_cast<std::size_t>(m_walk);
        std::snprintf(line, sizeof line, "k = %d: A(%d, %d) x B(%d, %d) = %.6g x %.6g = %.6g; sum so far %.9g", m_walk, m_outRow,
                      m_walk, m_walk, m_outCol, view.tiles[0].at(m_outRow, m_walk).value, view.tiles[1].at(m_walk, m_outCol).value,
                      terms.products[at], terms.partial[at]);
    } else {
        std::snprintf(line, sizeof line, "C(%d, %d) = %.9g: the sum starts here", m_outRow, m_outCol, terms.c);
    }
    m_termsText = line;
    ImGui::TextWrapped("%s", line);
    const double sum = terms.partial.empty() ? terms.c : terms.partial.back();
    std::snprintf(line, sizeof line, "All %d products summed in double: %.9g; the instruction wrote D = %.9g (.%s, rounded once)",
                  view.k, sum, terms.d, typeText(view.tiles[3].type));
    style::textDisabledWrapped(line);
}

} // namespace warpscope::viz
