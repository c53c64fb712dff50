// Dear ImGui platform backend for Qt widgets: Qt input events -> ImGui's IO, time, display size.
//
// Implemented:
//  [x] Mouse position, buttons (left/right/middle), vertical and horizontal wheel.
//  [x] A press and release inside one frame still registers as a click (the release is deferred).
//  [x] Keyboard: navigation/edit keys via io.KeyMap/KeysDown, modifiers, text input (UTF-8).
//  [x] Focus in/out (io.AddFocusEvent).
//  [x] Device pixel ratio: DisplaySize in logical pixels, DisplayFramebufferScale = ratio.
//  [x] Mouse cursor shape from ImGui -> Qt::CursorShape.
//  [x] Each handler returns true only when ImGui wants the event (io.WantCaptureMouse/Keyboard of
//      the last frame), so the widget consumes just those and passes the rest on.
// Debian ships ImGui 1.86, which predates the queued event API (AddMousePosEvent, AddKeyEvent,
// 1.87); this backend writes the IO state fields instead, the documented way for 1.86.
#pragma once

#include <QPointF>
#include <QSize>
#include <Qt>

#include <array>

struct ImGuiContext;
class QFocusEvent;
class QKeyEvent;
class QMouseEvent;
class QWheelEvent;

namespace warpscope::viz {

class ImGuiQtPlatform {
public:
    explicit ImGuiQtPlatform(ImGuiContext* context); // sets up io.KeyMap and backend flags

    bool mouseMove(const QMouseEvent& event);         // true: ImGui wants the mouse
    bool mousePress(const QMouseEvent& event);
    bool mouseRelease(const QMouseEvent& event);
    bool wheel(const QWheelEvent& event);
    bool keyPress(const QKeyEvent& event);            // true: ImGui wants the keyboard
    bool keyRelease(const QKeyEvent& event);
    void focusChanged(bool focused);
    void mouseLeft();                                 // the pointer left the widget

    // Before ImGui::NewFrame: display size (logical px), pixel ratio, time since the last frame.
    void newFrame(QSize logicalSize, double devicePixelRatio, double deltaSeconds);

    bool wantsMouse() const;
    bool wantsKeyboard() const;
    Qt::CursorShape cursorShape() const;              // ImGui's requested cursor, for setCursor
    QPointF mousePosition() const { return m_mouse; } // logical px, (-1,-1) when outside

private:
    void applyModifiers(Qt::KeyboardModifiers modifiers);
    ImGuiContext* m_context;
    QPointF m_mouse{-1.0, -1.0};
    std::array<bool, 5> m_buttonDown{};     // current Qt state
    std::array<bool, 5> m_pressedInFrame{}; // pressed since the last frame (kept down for one frame)
};

} // namespace warpscope::viz
