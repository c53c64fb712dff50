// Saving a picture of the window (File > Save Screenshot, `warpscope screenshot`) the way every file
// the app writes is saved: to a temporary file beside the target, renamed over it only once the
// whole image is written (QSaveFile), so a failed write leaves the earlier file as it was.
#pragma once

#include <QImage>
#include <QString>

#include <optional>

namespace warpscope::app {

// Writes `image` as PNG to `path`. Returns nullopt on success, or the reason it failed
// ("cannot write /x/y.png: Permission denied").
std::optional<QString> savePngAtomically(const QImage& image, const QString& path);

} // namespace warpscope::app
