#include "canvas/imgui_qt_platform.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include "canvas/imgui_context_scope.h"

#include <imgui.h>

namespace warpscope::viz {
namespace {

// Scoped switch to our context: several canvases (and tests) may each own one.

int buttonIndex(Qt::MouseButton button)
{
    switch (button) {
    case Qt::LeftButton: return 0;
    case Qt::RightButton: return 1;
    case Qt::MiddleButton: return 2;
    case Qt::BackButton: return 3;
    case Qt::ForwardButton: return 4;
    default: return -1;
    }
}

// io.KeysDown is indexed by ImGuiKey_ values themselves (io.KeyMap[k] = k).
int imguiKey(int qtKey)
{
    switch (qtKey) {
    case Qt::Key_Tab: return ImGuiKey_Tab;
    case Qt::Key_Left: return ImGuiKey_LeftArrow;
    case Qt::Key_Right: return ImGuiKey_RightArrow;
    case Qt::Key_Up: return ImGuiKey_UpArrow;
    case Qt::Key_Down: return ImGuiKey_DownArrow;
    case Qt::Key_PageUp: return ImGuiKey_PageUp;
    case Qt::Key_PageDown: return ImGuiKey_PageDown;
    case Qt::Key_Home: return ImGuiKey_Home;
    case Qt::Key_End: return ImGuiKey_End;
    case Qt::Key_Insert: return ImGuiKey_Insert;
    case Qt::Key_Delete: return ImGuiKey_Delete;
    case Qt::Key_Backspace: return ImGuiKey_Backspace;
    case Qt::Key_Space: return ImGuiKey_Space;
    case Qt::Key_Return: return ImGuiKey_Enter;
    case Qt::Key_Escape: return ImGuiKey_Escape;
    case Qt::Key_Enter: return ImGuiKey_KeyPadEnter;
    case Qt::Key_A: return ImGuiKey_A;
    case Qt::Key_C: return ImGuiKey_C;
    case Qt::Key_V: return ImGuiKey_V;
    case Qt::Key_X: return ImGuiKey_X;
    case Qt::Key_Y: return ImGuiKey_Y;
    case Qt::Key_Z: return ImGuiKey_Z;
    default: return -1;
    }
}

} // namespace

ImGuiQtPlatform::ImGuiQtPlatform(ImGuiContext* context) : m_context(context)
{
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "warpscope_qt";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    for (int key = 0; key < ImGuiKey_COUNT; ++key)
        io.KeyMap[key] = key;
}

bool ImGuiQtPlatform::mouseMove(const QMouseEvent& event)
{
    m_mouse = event.position();
    return wantsMouse();
}

bool ImGuiQtPlatform::mousePress(const QMouseEvent& event)
{
    m_mouse = event.position();
    const int index = buttonIndex(event.button());
    if (index >= 0) {
        m_buttonDown[static_cast<std::size_t>(index)] = true;
        m_pressedInFrame[static_cast<std::size_t>(index)] = true;
    }
    return wantsMouse();
}

bool ImGuiQtPlatform::mouseRelease(const QMouseEvent& event)
{
    m_mouse = event.position();
    const int index = buttonIndex(event.button());
    if (index >= 0)
        m_buttonDown[static_cast<std::size_t>(index)] = false;
    return wantsMouse();
}

bool ImGuiQtPlatform::wheel(const QWheelEvent& event)
{
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    m_mouse = event.position();
    // One wheel notch is 120 eighths of a degree; ImGui counts notches.
    io.MouseWheel += static_cast<float>(event.angleDelta().y()) / 120.0f;
    io.MouseWheelH += static_cast<float>(event.angleDelta().x()) / 120.0f;
    return io.WantCaptureMouse;
}

void ImGuiQtPlatform::applyModifiers(Qt::KeyboardModifiers modifiers)
{
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = modifiers.testFlag(Qt::ControlModifier);
    io.KeyShift = modifiers.testFlag(Qt::ShiftModifier);
    io.KeyAlt = modifiers.testFlag(Qt::AltModifier);
    io.KeySuper = modifiers.testFlag(Qt::MetaModifier);
}

bool ImGuiQtPlatform::keyPress(const QKeyEvent& event)
{
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    applyModifiers(event.modifiers());
    const int key = imguiKey(event.key());
    if (key >= 0)
        io.KeysDown[key] = true;
    const QString text = event.text();
    if (!text.isEmpty() && text.at(0).isPrint())
        io.AddInputCharactersUTF8(text.toUtf8().constData());
    return io.WantCaptureKeyboard || io.WantTextInput;
}

bool ImGuiQtPlatform::keyRelease(const QKeyEvent& event)
{
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    applyModifiers(event.modifiers());
    const int key = imguiKey(event.key());
    if (key >= 0)
        io.KeysDown[key] = false;
    return io.WantCaptureKeyboard || io.WantTextInput;
}

void ImGuiQtPlatform::focusChanged(bool focused)
{
    ImGuiContextScope scope(m_context);
    ImGui::GetIO().AddFocusEvent(focused);
}

void ImGuiQtPlatform::mouseLeft()
{
    m_mouse = QPointF(-1.0, -1.0);
}

void ImGuiQtPlatform::newFrame(QSize logicalSize, double devicePixelRatio, double deltaSeconds)
{
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(logicalSize.width()), static_cast<float>(logicalSize.height()));
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(devicePixelRatio), static_cast<float>(devicePixelRatio));
    io.DeltaTime = deltaSeconds > 0.0 ? static_cast<float>(deltaSeconds) : 1.0f / 60.0f;
    // -FLT_MAX tells ImGui the mouse is unavailable.
    io.MousePos = m_mouse.x() < 0 ? ImVec2(-FLT_MAX, -FLT_MAX)
                                  : ImVec2(static_cast<float>(m_mouse.x()), static_cast<float>(m_mouse.y()));
    for (std::size_t i = 0; i < m_buttonDown.size(); ++i) {
        io.MouseDown[i] = m_buttonDown[i] || m_pressedInFrame[i];
        m_pressedInFrame[i] = false;
    }
}

bool ImGuiQtPlatform::wantsMouse() const
{
    ImGuiContextScope scope(m_context);
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiQtPlatform::wantsKeyboard() const
{
    ImGuiContextScope scope(m_context);
    const ImGuiIO& io = ImGui::GetIO();
    return io.WantCaptureKeyboard || io.WantTextInput;
}

Qt::CursorShape ImGuiQtPlatform::cursorShape() const
{
    ImGuiContextScope scope(m_context);
    switch (ImGui::GetMouseCursor()) {
    case ImGuiMouseCursor_TextInput: return Qt::IBeamCursor;
    case ImGuiMouseCursor_ResizeAll: return Qt::SizeAllCursor;
    case ImGuiMouseCursor_ResizeNS: return Qt::SizeVerCursor;
    case ImGuiMouseCursor_ResizeEW: return Qt::SizeHorCursor;
    case ImGuiMouseCursor_ResizeNESW: return Qt::SizeBDiagCursor;
    case ImGuiMouseCursor_ResizeNWSE: return Qt::SizeFDiagCursor;
    case ImGuiMouseCursor_Hand: return Qt::PointingHandCursor;
    case ImGuiMouseCursor_NotAllowed: return Qt::ForbiddenCursor;
    default: return Qt::ArrowCursor;
    }
}

} // namespace warpscope::viz
