// A small CPU renderer for ImGui draw data: textured, vertex-coloured triangles with scissor rects,
// alpha-blended into a QImage. Used when the platform has no OpenGL (Qt's `offscreen` platform in
// CI, remote sessions); slower than the GL renderer but pixel-compatible for screenshots.
#pragma once

#include <QImage>

struct ImDrawData;

namespace warpscope::viz {

struct FontAtlasView {
    const unsigned char* rgba = nullptr; // ImFontAtlas::GetTexDataAsRGBA32
    int width = 0;
    int height = 0;
};

// Draws `data` over `target` (Format_RGBA8888, physical pixels; DisplayFramebufferScale applied).
void rasterizeDrawData(const ImDrawData& data, const FontAtlasView& atlas, QImage& target);

} // namespace warpscope::viz
