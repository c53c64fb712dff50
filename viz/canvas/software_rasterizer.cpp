#include "canvas/software_rasterizer.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {
namespace {

struct Vertex {
    float x, y, u, v;
    float r, g, b, a; // 0..1
};

Vertex toVertex(const ImDrawVert& in, ImVec2 offset, ImVec2 scale)
{
    const ImU32 c = in.col;
    return {(in.pos.x - offset.x) * scale.x, (in.pos.y - offset.y) * scale.y, in.uv.x, in.uv.y,
            static_cast<float>((c >> IM_COL32_R_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_G_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_B_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_A_SHIFT) & 0xFF) / 255.0f};
}

float edge(const Vertex& a, const Vertex& b, float px, float py)
{
    return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

// Top-left fill rule, so that two triangles sharing an edge never both cover a pixel.
bool isTopLeft(const Vertex& a, const Vertex& b)
{
    return (a.y == b.y && b.x < a.x) || b.y < a.y;
}

void drawTriangle(Vertex v0, Vertex v1, Vertex v2, const FontAtlasView& atlas, QImage& target,
                  int clipX0, int clipY0, int clipX1, int clipY1)
{
    float area = edge(v0, v1, v2.x, v2.y);
    if (area == 0.0f)
        return;
    if (area < 0.0f) { // make the winding consistent
        std::swap(v1, v2);
        area = -area;
    }
    // Clamp in floating point before converting: far off-screen vertices exceed int's range.
    auto clampTo = [](float value, int low, int high) {
        return static_cast<int>(std::clamp(value, static_cast<float>(low), static_cast<float>(high)));
    };
    const int x0 = clampTo(std::floor(std::min({v0.x, v1.x, v2.x})), clipX0, clipX1);
    const int x1 = clampTo(std::ceil(std::max({v0.x, v1.x, v2.x})), clipX0, clipX1);
    const int y0 = clampTo(std::floor(std::min({v0.y, v1.y, v2.y})), clipY0, clipY1);
    const int y1 = clampTo(std::ceil(std::max({v0.y, v1.y, v2.y})), clipY0, clipY1);
    if (x0 >= x1 || y0 >= y1)
        return;
    const bool tl0 = isTopLeft(v1, v2), tl1 = isTopLeft(v2, v0), tl2 = isTopLeft(v0, v1);
    // Solid shapes sample one texel (ImGui's white pixel): check once whether uv is constant.
    const bool constantUv = v0.u == v1.u && v1.u == v2.u && v0.v == v1.v && v1.v == v2.v;
    const bool constantColour = v0.r == v1.r && v1.r == v2.r && v0.g == v1.g && v1.g == v2.g &&
                                v0.b == v1.b && v1.b == v2.b && v0.a == v1.a && v1.a == v2.a;
    auto texel = [&](float u, float v) -> float {
        const int tx = std::clamp(static_cast<int>(u * atlas.width), 0, atlas.width - 1);
        const int ty = std::clamp(static_cast<int>(v * atlas.height), 0, atlas.height - 1);
        return atlas.rgba[(ty * atlas.width + tx) * 4 + 3] / 255.0f; // the atlas is white + alpha
    };
    const float constantTexel = constantUv ? texel(v0.u, v0.v) : 1.0f;
    const float invArea = 1.0f / area;
    for (int y = y0; y < y1; ++y) {
        auto* row = reinterpret_cast<unsigned char*>(target.scanLine(y));
        const float py = static_cast<float>(y) + 0.5f;
        for (int x = x0; x < x1; ++x) {
            const float px = static_cast<float>(x) + 0.5f;
            const float w0 = edge(v1, v2, px, py), w1 = edge(v2, v0, px, py), w2 = edge(v0, v1, px, py);
            if ((w0 < 0 || (w0 == 0 && !tl0)) || (w1 < 0 || (w1 == 0 && !tl1)) || (w2 < 0 || (w2 == 0 && !tl2)))
                continue;
            const float b0 = w0 * invArea, b1 = w1 * invArea, b2 = w2 * invArea;
            float r = v0.r, g = v0.g, b = v0.b, a = v0.a;
            if (!constantColour) {
                r = b0 * v0.r + b1 * v1.r + b2 * v2.r;
                g = b0 * v0.g + b1 * v1.g + b2 * v2.g;
                b = b0 * v0.b + b1 * v1.b + b2 * v2.b;
                a = b0 * v0.a + b1 * v1.a + b2 * v2.a;
            }
            a *= constantUv ? constantTexel : texel(b0 * v0.u + b1 * v1.u + b2 * v2.u, b0 * v0.v + b1 * v1.v + b2 * v2.v);
            if (a <= 0.0f)
                continue;
            unsigned char* pixel = row + x * 4;
            const float keep = 1.0f - a;
            pixel[0] = static_cast<unsigned char>(r * a * 255.0f + pixel[0] * keep + 0.5f);
            pixel[1] = static_cast<unsigned char>(g * a * 255.0f + pixel[1] * keep + 0.5f);
            pixel[2] = static_cast<unsigned char>(b * a * 255.0f + pixel[2] * keep + 0.5f);
            pixel[3] = static_cast<unsigned char>(std::min(255.0f, a * 255.0f + pixel[3] * keep + 0.5f));
        }
    }
}

} // namespace

void rasterizeDrawData(const ImDrawData& data, const FontAtlasView& atlas, QImage& target)
{
    if (!atlas.rgba || target.format() != QImage::Format_RGBA8888)
        return;
    const ImVec2 offset = data.DisplayPos;
    const ImVec2 scale = data.FramebufferScale;
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList* list = data.CmdLists[n];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback)
                continue; // no callbacks are used by our scenes
            const int clipX0 = std::max(0, static_cast<int>((cmd.ClipRect.x - offset.x) * scale.x));
            const int clipY0 = std::max(0, static_cast<int>((cmd.ClipRect.y - offset.y) * scale.y));
            const int clipX1 = std::min(target.width(), static_cast<int>(std::ceil((cmd.ClipRect.z - offset.x) * scale.x)));
            const int clipY1 = std::min(target.height(), static_cast<int>(std::ceil((cmd.ClipRect.w - offset.y) * scale.y)));
            if (clipX0 >= clipX1 || clipY0 >= clipY1)
                continue;
            const ImDrawIdx* indices = list->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vertices = list->VtxBuffer.Data + cmd.VtxOffset;
            for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3)
                drawTriangle(toVertex(vertices[indices[i]], offset, scale),
                             toVertex(vertices[indices[i + 1]], offset, scale),
                             toVertex(vertices[indices[i + 2]], offset, scale), atlas, target, clipX0,
                             clipY0, clipX1, clipY1);
        }
    }
}

} // namespace warpscope::viz
