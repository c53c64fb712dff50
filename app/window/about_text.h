// The About dialog's text: the versions of Qt, Dear ImGui, QCustomPlot and the CUDA toolkit in use.
#pragma once

#include <QString>

namespace warpscope::app {

QString aboutText(const QString& canvasRenderer);

} // namespace warpscope::app
