#include "canvas/canvas_widget.h"

#include "canvas/imgui_canvas.h"
#include "canvas/imgui_context_scope.h"
#include "canvas/software_rasterizer.h"

#include <QEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <imgui.h>
#include <imgui_impl_opengl3.h>

namespace warpscope::viz {
namespace {

constexpr int kAnimationIntervalMs = 16;
const QColor kBackground(24, 26, 32);

QString g_rendererDescription = QStringLiteral("not created yet");

// Schedules the next frame while the canvas still wants one (animation, settling hover state).
void scheduleNextFrame(QWidget* widget, const ImGuiCanvas& canvas)
{
    if (!canvas.wantsAnotherFrame())
        return;
    QPointer<QWidget> guard(widget);
    QTimer::singleShot(kAnimationIntervalMs, widget, [guard] {
        if (guard)
            guard->update();
    });
}

// Input first goes to the canvas (ImGui, then zoom and pan); what it leaves goes to the widget's
// base class and on to the window. Anything that can change hover state asks for a repaint.
bool routeEvent(ImGuiCanvas& canvas, QWidget* widget, QEvent* event)
{
    const bool used = canvas.handleEvent(event, widget);
    const QEvent::Type type = event->type();
    if (used || type == QEvent::Leave || type == QEvent::FocusIn || type == QEvent::FocusOut)
        widget->update();
    if (used)
        event->accept();
    return used;
}

class GlCanvasWidget : public QOpenGLWidget {
public:
    GlCanvasWidget(ImGuiCanvas& canvas, QWidget* parent) : QOpenGLWidget(parent), m_canvas(canvas)
    {
        setMouseTracking(true);
        setFocusPolicy(Qt::StrongFocus);
        setMinimumSize(200, 150);
    }
    ~GlCanvasWidget() override
    {
        // ~QOpenGLWidget destroys the context after this object is gone: no slot may run then.
        disconnect(m_contextConnection);
        releaseRenderer();
    }

protected:
    void initializeGL() override
    {
        ImGuiContextScope scope(m_canvas.context());
        m_ready = ImGui_ImplOpenGL3_Init("#version 130");
        m_contextConnection = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
                                      [this] { releaseRenderer(); }, Qt::DirectConnection);
        const auto* version = reinterpret_cast<const char*>(context()->functions()->glGetString(GL_VERSION));
        const auto* renderer = reinterpret_cast<const char*>(context()->functions()->glGetString(GL_RENDERER));
        g_rendererDescription = QStringLiteral("OpenGL %1 (%2)").arg(version ? version : "?", renderer ? renderer : "?");
    }

    void paintGL() override
    {
        QOpenGLFunctions* gl = context()->functions();
        gl->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
        gl->glClear(GL_COLOR_BUFFER_BIT);
        if (!m_ready)
            return;
        ImGuiContextScope scope(m_canvas.context());
        if (m_canvas.ensureFonts(devicePixelRatioF()) && m_fontsUploaded) {
            // A new pixel ratio rebuilt the atlas: upload it again (ImGui 1.86's NewFrame only
            // creates the font texture together with the shaders, on the first frame).
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
        ImGui_ImplOpenGL3_NewFrame();
        m_fontsUploaded = true;
        ImDrawData* data = m_canvas.buildFrame(size(), devicePixelRatioF());
        ImGui_ImplOpenGL3_RenderDrawData(data);
        scheduleNextFrame(this, m_canvas);
    }

    bool event(QEvent* event) override
    {
        return routeEvent(m_canvas, this, event) || QOpenGLWidget::event(event);
    }

private:
    void releaseRenderer()
    {
        if (!m_ready)
            return;
        makeCurrent();
        ImGuiContextScope scope(m_canvas.context());
        ImGui_ImplOpenGL3_Shutdown();
        doneCurrent();
        m_ready = false;
        m_fontsUploaded = false;
    }

    ImGuiCanvas& m_canvas;
    QMetaObject::Connection m_contextConnection;
    bool m_ready = false;
    bool m_fontsUploaded = false;
};

class SoftwareCanvasWidget : public QWidget {
public:
    SoftwareCanvasWidget(ImGuiCanvas& canvas, QWidget* parent) : QWidget(parent), m_canvas(canvas)
    {
        setMouseTracking(true);
        setFocusPolicy(Qt::StrongFocus);
        setMinimumSize(200, 150);
        setAttribute(Qt::WA_OpaquePaintEvent);
        g_rendererDescription = QStringLiteral("software rasterizer (no OpenGL on this platform)");
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        const double ratio = devicePixelRatioF();
        m_canvas.ensureFonts(ratio);
        ImDrawData* data = m_canvas.buildFrame(size(), ratio);
        QImage image(size() * ratio, QImage::Format_RGBA8888);
        image.fill(kBackground);
        FontAtlasView atlas;
        {
            ImGuiContextScope scope(m_canvas.context());
            unsigned char* pixels = nullptr;
            ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &atlas.width, &atlas.height);
            atlas.rgba = pixels;
        }
        rasterizeDrawData(*data, atlas, image);
        image.setDevicePixelRatio(ratio);
        QPainter painter(this);
        painter.drawImage(QPointF(0, 0), image);
        scheduleNextFrame(this, m_canvas);
    }

    bool event(QEvent* event) override
    {
        return routeEvent(m_canvas, this, event) || QWidget::event(event);
    }

private:
    ImGuiCanvas& m_canvas;
};

} // namespace

bool openGlAvailable()
{
    static const bool available = [] {
        if (qEnvironmentVariableIntValue("WARPSCOPE_SOFTWARE_CANVAS") == 1)
            return false;
        QOpenGLContext context;
        if (!context.create())
            return false;
        QOffscreenSurface surface;
        surface.setFormat(context.format());
        surface.create();
        if (!surface.isValid() || !context.makeCurrent(&surface))
            return false;
        const QSurfaceFormat format = context.format();
        const bool modern = format.majorVersion() > 3 || (format.majorVersion() == 3 && format.minorVersion() >= 2);
        context.doneCurrent();
        return modern;
    }();
    return available;
}

QWidget* createCanvasWidget(ImGuiCanvas& canvas, QWidget* parent)
{
    if (openGlAvailable())
        return new GlCanvasWidget(canvas, parent);
    return new SoftwareCanvasWidget(canvas, parent);
}

QString canvasRendererDescription()
{
    return g_rendererDescription;
}

} // namespace warpscope::viz
