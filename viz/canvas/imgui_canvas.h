// ImGuiCanvas: one ImGui context, its Qt platform backend and the current scene; builds frames.
// Rendering is left to the widget that hosts it: GlCanvasWidget (ImGui's OpenGL 3 renderer) or
// SoftwareCanvasWidget (our CPU rasterizer, for platforms without OpenGL such as `offscreen`).
#pragma once

#include "canvas/imgui_qt_platform.h"

#include <QElapsedTimer>
#include <QSize>

#include <cstdint>
#include <memory>

class QEvent;
class QWidget;
struct ImDrawData;
struct ImGuiContext;

namespace warpscope::viz {

class CanvasScene;

class ImGuiCanvas {
public:
    ImGuiCanvas();
    ~ImGuiCanvas();
    ImGuiCanvas(const ImGuiCanvas&) = delete;
    ImGuiCanvas& operator=(const ImGuiCanvas&) = delete;

    ImGuiContext* context() const { return m_context; }
    void setScene(CanvasScene* scene);          // not owned; nullptr shows an empty canvas
    CanvasScene* scene() const { return m_scene; }

    // Rebuilds the font atlas for this pixel ratio when it changed; true when the renderer must
    // upload the atlas again.
    bool ensureFonts(double devicePixelRatio);

    // NewFrame, the scene, Render. The draw data stays valid until the next call.
    ImDrawData* buildFrame(QSize logicalSize, double devicePixelRatio);

    // Input from the hosting widget. Returns true when the event was used (ImGui or the scene) and
    // should be accepted; false lets it propagate (e.g. to the window's shortcuts).
    bool handleEvent(QEvent* event, QWidget* widget);

    // True while the scene animates, ImGui still settles after input (hover, tooltips), or the last
    // frame differed from the one before (ImGui lays out tables and auto-sized windows from the
    // previous frame, so a change can take a frame or two to come to rest; at most
    // kMaxSettlingFrames in a row, so a frame that never repeats cannot keep the CPU busy).
    bool wantsAnotherFrame() const;
    static constexpr int kMaxSettlingFrames = 8;

    double lastFrameMilliseconds() const { return m_lastFrameMs; }

private:
    ImGuiContext* m_context = nullptr;
    std::unique_ptr<ImGuiQtPlatform> m_platform;
    CanvasScene* m_scene = nullptr;
    QElapsedTimer m_clock;
    double m_lastFrameTime = 0.0;
    double m_lastFrameMs = 0.0;
    double m_fontRatio = 0.0;
    int m_settleFrames = 2;
    std::uint64_t m_frameHash = 0; // of the last frame's draw data
    int m_changedFrames = 0;       // frames in a row that differed from the one before
    bool m_dragging = false;
    QPointF m_dragLast;
    QPointF m_pressPosition;
};

} // namespace warpscope::viz
