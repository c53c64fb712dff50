// Colours and small drawing helpers shared by the canvas scenes.
#pragma once

#include "canvas/view_transform.h"

#include <imgui.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace warpscope::viz::style {

inline constexpr ImU32 kBlockFill = IM_COL32(38, 44, 56, 255);
inline constexpr ImU32 kBlockBorder = IM_COL32(96, 108, 132, 255);
inline constexpr ImU32 kWarpEven = IM_COL32(66, 135, 200, 255);
inline constexpr ImU32 kWarpOdd = IM_COL32(48, 104, 164, 255);
inline constexpr ImU32 kWarpEvenAlt = IM_COL32(96, 160, 220, 255); // odd threadIdx.y rows
inline constexpr ImU32 kWarpOddAlt = IM_COL32(74, 130, 190, 255);
inline constexpr ImU32 kIdleLane = IM_COL32(62, 62, 68, 255);
inline constexpr ImU32 kIdleMark = IM_COL32(120, 120, 128, 255);
inline constexpr ImU32 kHover = IM_COL32(255, 204, 64, 255);
inline constexpr ImU32 kSelected = IM_COL32(255, 120, 48, 255);
inline constexpr ImU32 kText = IM_COL32(220, 226, 236, 255);
inline constexpr ImU32 kTextDim = IM_COL32(150, 158, 172, 255);
inline constexpr ImU32 kTail = IM_COL32(232, 96, 80, 255);
inline constexpr ImU32 kTailDim = IM_COL32(150, 70, 64, 200); // unused slots of the tail wave

inline ImVec2 toImVec(Point p) { return ImVec2(static_cast<float>(p.x), static_cast<float>(p.y)); }

inline void fillRect(ImDrawList* list, const Rect& r, ImU32 colour, float rounding = 0.0f)
{
    list->AddRectFilled(ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
                        ImVec2(static_cast<float>(r.right()), static_cast<float>(r.bottom())), colour, rounding);
}

inline void strokeRect(ImDrawList* list, const Rect& r, ImU32 colour, float thickness = 1.0f, float rounding = 0.0f)
{
    list->AddRect(ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
                  ImVec2(static_cast<float>(r.right()), static_cast<float>(r.bottom())), colour, rounding, 0, thickness);
}

// The colour of wave `wave` out of many: a hue wheel that keeps neighbours distinct.
inline ImU32 waveColour(long long wave, float alpha = 1.0f)
{
    // Golden-ratio steps around the hue wheel, starting at blue (red is kept for the tail).
    const double turns = 0.58 + static_cast<double>(wave % 1000003) * 0.618033988749895;
    const float hue = static_cast<float>(turns - static_cast<long long>(turns));
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(hue, 0.55f, 0.85f, r, g, b);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, alpha));
}

// Puts the next item on the current line when `nextWidth` pixels still fit beside the last one, and
// on a new line otherwise: legends and status lines wrap instead of running past a narrow panel.
inline void sameLineIfFits(float nextWidth)
{
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < nextWidth)
        ImGui::NewLine();
}

// The width of a line of text as the next item, for sameLineIfFits.
inline float textWidth(const char* text) { return ImGui::CalcTextSize(text).x; }

// A tooltip that wraps at about 32 ems instead of running across the screen on one line.
inline void wrappedTooltip(const char* text)
{
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// Text wrapped to `width` pixels (the region's width when negative), breaking only between words:
// ImGui's own wrapping also breaks after '.' and ',', which splits numbers ("98." | "44 %").
inline void textWrappedAtSpaces(std::string_view text, float width = -1.0f)
{
    if (width < 0.0f)
        width = ImGui::GetContentRegionAvail().x;
    std::string line;
    auto flush = [&line] {
        ImGui::TextUnformatted(line.c_str());
        line.clear();
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t space = text.find_first_of(" \n", start);
        const std::size_t end = space == std::string_view::npos ? text.size() : space;
        const std::string_view word = text.substr(start, end - start);
        std::string longer = line.empty() ? std::string(word) : line + ' ' + std::string(word);
        if (!line.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
            flush();
            longer = std::string(word);
        }
        line = std::move(longer);
        if (end < text.size() && text[end] == '\n')
            flush();
        if (end >= text.size())
            break;
        start = end + 1;
    }
    if (!line.empty())
        flush();
}

// Dimmed text that wraps at the window's (or column's) right edge.
inline void textDisabledWrapped(const char* text)
{
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

// An ImGui window that fills the viewport, without title or border: the instrument panels' page,
// with a scroll bar when its content is taller. Call ImGui::End() whatever it returns.
inline bool beginPanelWindow(const char* id, const Rect& viewport)
{
    ImGui::SetNextWindowPos(ImVec2(static_cast<float>(viewport.x), static_cast<float>(viewport.y)));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(viewport.w), static_cast<float>(viewport.h)));
    return ImGui::Begin(id, nullptr,
                        ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                            ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                            ImGuiWindowFlags_NoBringToFrontOnFocus);
}

} // namespace warpscope::viz::style
