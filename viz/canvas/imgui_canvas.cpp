#include "canvas/imgui_canvas.h"

#include "canvas/canvas_scene.h"

#include <QEvent>
#include <QFile>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

#include "canvas/imgui_context_scope.h"

#include <imgui.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace warpscope::viz {
namespace {

constexpr float kFontPixels = 15.0f; // logical px
// Debian's fonts-dejavu-core (installed by scripts/setup.sh); ImGui's built-in font otherwise.
constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
// Latin-1 and the few symbols the figures write: dashes, the ellipsis, arrows (a hovered lane's
// "lane 5 → byte 20 → bank 5 → wavefront 1"), the minus sign. ImGui keeps the pointer: static.
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2013, 0x2014, 0x2026, 0x2026, 0x2190, 0x2193, 0x2212, 0x2212, 0};


void applyStyle()
{
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.WindowBorderSize = 1.0f;
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.11f, 0.14f, 0.92f);
    style.Colors[ImGuiCol_PopupBg] = ImVec4(0.10f, 0.11f, 0.14f, 0.96f);
}

// FNV-1a over a frame's draw data (vertices, indices, commands), eight bytes at a time: enough to
// tell whether a frame repeated the one before.
std::uint64_t hashDrawData(const ImDrawData& data)
{
    std::uint64_t hash = 0xcbf29ce484222325ull;
    const auto mix = [&hash](const void* bytes, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(bytes);
        std::size_t i = 0;
        for (; i + 8 <= size; i += 8) {
            std::uint64_t word;
            std::memcpy(&word, p + i, 8);
            hash = (hash ^ word) * 0x100000001b3ull;
        }
        for (; i < size; ++i)
            hash = (hash ^ p[i]) * 0x100000001b3ull;
    };
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList& list = *data.CmdLists[n];
        mix(list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.Size) * sizeof(ImDrawVert));
        mix(list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            mix(&cmd.ClipRect, sizeof cmd.ClipRect);
            mix(&cmd.ElemCount, sizeof cmd.ElemCount);
        }
    }
    return hash;
}

} // namespace

ImGuiCanvas::ImGuiCanvas()
{
    ImGuiContext* previous = ImGui::GetCurrentContext();
    m_context = ImGui::CreateContext();
    ImGui::SetCurrentContext(m_context);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // window placement inside the canvas is not persisted
    io.LogFilename = nullptr;
    // Both renderers draw with ImDrawCmd::VtxOffset, so one draw list may exceed 64K vertices
    // (16-bit indices); the GL widget requires GL 3.2, where ImGui's renderer supports it too.
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    applyStyle();
    ImGui::SetCurrentContext(previous);
    m_platform = std::make_unique<ImGuiQtPlatform>(m_context);
    m_clock.start();
}

ImGuiCanvas::~ImGuiCanvas()
{
    ImGui::DestroyContext(m_context);
}

void ImGuiCanvas::setScene(CanvasScene* scene)
{
    m_scene = scene;
    m_settleFrames = 2;
}

bool ImGuiCanvas::ensureFonts(double devicePixelRatio)
{
    if (devicePixelRatio == m_fontRatio)
        return false;
    ImGuiContextScope scope(m_context);
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    // Rasterise at physical size and scale back, so text is sharp on high-DPI screens.
    const auto pixels = static_cast<float>(std::round(kFontPixels * devicePixelRatio));
    ImFontConfig config;
    config.OversampleH = 2;
    if (QFile::exists(kFontPath)) {
        io.Fonts->AddFontFromFileTTF(kFontPath, pixels, &config, kGlyphRanges);
    } else {
        config.SizePixels = pixels;
        io.Fonts->AddFontDefault(&config);
    }
    io.FontGlobalScale = static_cast<float>(1.0 / devicePixelRatio);
    unsigned char* data = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&data, &width, &height); // builds the atlas now
    m_fontRatio = devicePixelRatio;
    return true;
}

ImDrawData* ImGuiCanvas::buildFrame(QSize logicalSize, double devicePixelRatio)
{
    ImGuiContextScope scope(m_context);
    const double now = static_cast<double>(m_clock.nsecsElapsed()) * 1e-9;
    const double delta = m_lastFrameTime > 0.0 ? now - m_lastFrameTime : 1.0 / 60.0;
    m_lastFrameTime = now;
    QElapsedTimer frameTimer;
    frameTimer.start();

    m_platform->newFrame(logicalSize, devicePixelRatio, delta);
    ImGui::NewFrame();
    if (m_scene) {
        SceneFrame frame;
        frame.draw = ImGui::GetBackgroundDrawList();
        frame.viewport = {0.0, 0.0, static_cast<double>(logicalSize.width()), static_cast<double>(logicalSize.height())};
        const QPointF mouse = m_platform->mousePosition();
        frame.mouse = {mouse.x(), mouse.y()};
        frame.mouseFree = mouse.x() >= 0 && !ImGui::GetIO().WantCaptureMouse;
        frame.time = now;
        frame.deltaTime = delta;
        m_scene->draw(frame);
    }
    ImGui::Render();
    if (m_settleFrames > 0)
        --m_settleFrames;
    const std::uint64_t hash = hashDrawData(*ImGui::GetDrawData());
    m_changedFrames = hash == m_frameHash ? 0 : m_changedFrames + 1;
    m_frameHash = hash;
    m_lastFrameMs = static_cast<double>(frameTimer.nsecsElapsed()) * 1e-6;
    return ImGui::GetDrawData();
}

bool ImGuiCanvas::wantsAnotherFrame() const
{
    return m_settleFrames > 0 || (m_scene && m_scene->animating()) ||
           (m_changedFrames > 0 && m_changedFrames <= kMaxSettlingFrames);
}

bool ImGuiCanvas::handleEvent(QEvent* event, QWidget* widget)
{
    const auto settle = [this] { m_settleFrames = 3; };
    switch (event->type()) {
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const bool imguiWants = m_platform->mouseMove(*mouse);
        if (m_dragging && m_scene) {
            const QPointF delta = mouse->position() - m_dragLast;
            m_scene->panBy(delta.x(), delta.y());
            m_dragLast = mouse->position();
            widget->setCursor(Qt::ClosedHandCursor);
        } else {
            widget->setCursor(imguiWants ? m_platform->cursorShape() : Qt::CrossCursor);
        }
        settle();
        return true;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: { // Qt sends a double-click instead of the second press
        auto* mouse = static_cast<QMouseEvent*>(event);
        const bool imguiWants = m_platform->mousePress(*mouse);
        widget->setFocus(Qt::MouseFocusReason);
        if (!imguiWants && mouse->button() == Qt::LeftButton) {
            m_dragging = true;
            m_dragLast = m_pressPosition = mouse->position();
        }
        settle();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        m_platform->mouseRelease(*mouse);
        if (m_dragging && mouse->button() == Qt::LeftButton) {
            m_dragging = false;
            // A press and release within a few pixels is a click, not a drag.
            if (m_scene && (mouse->position() - m_pressPosition).manhattanLength() < 4.0)
                m_scene->click({mouse->position().x(), mouse->position().y()});
            widget->setCursor(Qt::CrossCursor);
        }
        settle();
        return true;
    }
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (!m_platform->wheel(*wheel) && m_scene) {
            const double notches = wheel->angleDelta().y() / 120.0;
            m_scene->zoomAt({wheel->position().x(), wheel->position().y()}, std::pow(1.25, notches));
        }
        settle();
        return true;
    }
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool press = event->type() == QEvent::KeyPress;
        const bool imguiWants = press ? m_platform->keyPress(*key) : m_platform->keyRelease(*key);
        settle();
        if (imguiWants)
            return true;
        if (!press || !m_scene || key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
            return false;
        const QPointF centre(widget->width() / 2.0, widget->height() / 2.0);
        switch (key->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: m_scene->zoomAt({centre.x(), centre.y()}, 1.25); return true;
        case Qt::Key_Minus: m_scene->zoomAt({centre.x(), centre.y()}, 0.8); return true;
        case Qt::Key_0:
        case Qt::Key_Home: m_scene->resetView(); return true;
        case Qt::Key_Left: m_scene->panBy(60, 0); return true;
        case Qt::Key_Right: m_scene->panBy(-60, 0); return true;
        case Qt::Key_Up: m_scene->panBy(0, 60); return true;
        case Qt::Key_Down: m_scene->panBy(0, -60); return true;
        default: return false;
        }
    }
    case QEvent::FocusIn:
    case QEvent::FocusOut:
        m_platform->focusChanged(event->type() == QEvent::FocusIn);
        settle();
        return false;
    case QEvent::Leave:
        m_platform->mouseLeft();
        m_dragging = false;
        settle();
        return false;
    default:
        return false;
    }
}

} // namespace warpscope::viz
