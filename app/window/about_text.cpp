#include "window/about_text.h"

#include "occupancy/occupancy.h"

#include <QtGlobal>

#include <imgui.h>
#include <qcustomplot.h>

#ifndef WARPSCOPE_CUDA_TOOLKIT_VERSION
#define WARPSCOPE_CUDA_TOOLKIT_VERSION "not found at build time"
#endif
#ifndef WARPSCOPE_VERSION
#define WARPSCOPE_VERSION "dev"
#endif

namespace warpscope::app {

QString aboutText(const QString& canvasRenderer)
{
    return QStringLiteral(
               "<h3>Warpscope %1</h3>"
               "<p>See how NVIDIA GPUs execute code: lessons beside figures that move.</p>"
               "<table>"
               "<tr><td>Qt</td><td>%2 (built with %3)</td></tr>"
               "<tr><td>Dear ImGui</td><td>%4</td></tr>"
               "<tr><td>QCustomPlot</td><td>%5</td></tr>"
               "<tr><td>CUDA toolkit</td><td>%6</td></tr>"
               "<tr><td>Occupancy calculator</td><td>%7</td></tr>"
               "<tr><td>Canvas renderer</td><td>%8</td></tr>"
               "</table>")
        .arg(QStringLiteral(WARPSCOPE_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
             QStringLiteral(IMGUI_VERSION), QStringLiteral(QCUSTOMPLOT_VERSION_STR),
             QStringLiteral(WARPSCOPE_CUDA_TOOLKIT_VERSION),
             QString::fromStdString(occupancy::calculatorDescription()), canvasRenderer.toHtmlEscaped());
}

} // namespace warpscope::app
