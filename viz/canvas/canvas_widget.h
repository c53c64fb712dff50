// The widgets that show an ImGuiCanvas: OpenGL when the platform has it (ImGui's OpenGL 3
// renderer, compiled into Debian's libimgui), otherwise our software rasterizer. Both repaint only
// after input or while the scene animates.
#pragma once

#include <QString>

class QWidget;

namespace warpscope::viz {

class ImGuiCanvas;

// True when an OpenGL 3.2+ context can be created here (false on Qt's `offscreen` platform without
// a display, or when WARPSCOPE_SOFTWARE_CANVAS=1 asks for the software renderer).
bool openGlAvailable();

// A GL widget when openGlAvailable(), else a software one. The canvas must outlive the widget.
QWidget* createCanvasWidget(ImGuiCanvas& canvas, QWidget* parent = nullptr);

// "OpenGL 4.5 (llvmpipe ...)" or "software rasterizer", for the About dialog and logs.
QString canvasRendererDescription();

} // namespace warpscope::viz
