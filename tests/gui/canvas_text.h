// Reads back the words a Dear ImGui canvas painted in its last frame, from the frame's draw data
// rather than from what the scene meant to draw: each glyph ImGui emits is a quad whose texture
// corners are that glyph's corners in the font atlas, so matching them against the atlas's glyphs
// gives the character and where it was painted. A glyph cut by a clip rectangle has other texture
// corners and is not read, so a word read here was painted whole. Glyphs on one line closer than a
// quarter of the font size join into a word.
#pragma once

#include "canvas/imgui_canvas.h"

#include <imgui.h>

#include <QString>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace warpscope::gui_test {

struct PaintedWord {
    QString text;
    float left = 0, right = 0, top = 0, bottom = 0; // canvas pixels
    float centre() const { return (left + right) / 2; }
};

// One glyph as painted, in canvas pixels.
struct PaintedGlyph {
    QChar character;
    float left = 0, right = 0, top = 0, bottom = 0;
    float centreX() const { return (left + right) / 2; }
};

inline std::vector<PaintedGlyph> paintedGlyphs(const viz::ImGuiCanvas& canvas)
{
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(canvas.context());
    std::vector<PaintedGlyph> glyphs;
    if (const ImDrawData* data = ImGui::GetDrawData()) {
        struct GlyphCorners {
            unsigned int codepoint;
            float u1, v1;
        };
        std::map<std::pair<float, float>, GlyphCorners> byCorner; // (U0, V0) -> the glyph
        for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
            for (const ImFontGlyph& glyph : font->Glyphs)
                if (glyph.Visible)
                    byCorner[{glyph.U0, glyph.V0}] = {glyph.Codepoint, glyph.U1, glyph.V1};
        for (int l = 0; l < data->CmdListsCount; ++l) {
            const ImVector<ImDrawVert>& vertices = data->CmdLists[l]->VtxBuffer;
            // A glyph is 4 vertices: top-left (U0, V0), top-right, bottom-right (U1, V1), bottom-left.
            for (int v = 0; v + 3 < vertices.Size; ++v) {
                const auto found = byCorner.find({vertices[v].uv.x, vertices[v].uv.y});
                if (found == byCorner.end() || vertices[v + 2].uv.x != found->second.u1 ||
                    vertices[v + 2].uv.y != found->second.v1)
                    continue;
                glyphs.push_back({QChar(static_cast<char16_t>(found->second.codepoint)), vertices[v].pos.x,
                                  vertices[v + 2].pos.x, vertices[v].pos.y, vertices[v + 2].pos.y});
                v += 3;
            }
        }
    }
    ImGui::SetCurrentContext(previous);
    return glyphs;
}

// The glyphs joined into words: on one line (tops within half the font size) and closer than a
// quarter of the font size.
inline std::vector<PaintedWord> paintedWords(const viz::ImGuiCanvas& canvas)
{
    std::vector<PaintedGlyph> glyphs = paintedGlyphs(canvas);
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(canvas.context());
    const float fontSize = std::max(1.0f, ImGui::GetFontSize());
    ImGui::SetCurrentContext(previous);
    std::vector<PaintedWord> words;
    std::sort(glyphs.begin(), glyphs.end(), [](const PaintedGlyph& a, const PaintedGlyph& b) {
        return std::tie(a.top, a.left) < std::tie(b.top, b.left);
    });
    std::vector<std::vector<PaintedGlyph>> lines;
    for (const PaintedGlyph& glyph : glyphs) {
        auto line = std::find_if(lines.begin(), lines.end(), [&](const std::vector<PaintedGlyph>& candidate) {
            return std::abs(candidate.front().top - glyph.top) < fontSize * 0.5f;
        });
        if (line == lines.end())
            lines.push_back({glyph});
        else
            line->push_back(glyph);
    }
    for (std::vector<PaintedGlyph>& line : lines) {
        std::sort(line.begin(), line.end(), [](const PaintedGlyph& a, const PaintedGlyph& b) { return a.left < b.left; });
        PaintedWord word;
        for (const PaintedGlyph& glyph : line) {
            if (!word.text.isEmpty() && glyph.left - word.right > fontSize * 0.25f) {
                words.push_back(word);
                word = {};
            }
            if (word.text.isEmpty()) {
                word.left = glyph.left;
                word.top = glyph.top;
                word.bottom = glyph.bottom;
            }
            word.text += glyph.character;
            word.right = glyph.right;
            word.top = std::min(word.top, glyph.top);
            word.bottom = std::max(word.bottom, glyph.bottom);
        }
        if (!word.text.isEmpty())
            words.push_back(word);
    }
    return words;
}

} // namespace warpscope::gui_test
