#include "window/save_image.h"

#include <QImageWriter>
#include <QSaveFile>

namespace warpscope::app {

std::optional<QString> savePngAtomically(const QImage& image, const QString& path)
{
    if (image.isNull())
        return QStringLiteral("cannot write %1: the window gave an empty image").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        file.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(path, writer.errorString());
    }
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return std::nullopt;
}

} // namespace warpscope::app
