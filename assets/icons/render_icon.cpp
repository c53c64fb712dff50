// Renders the scalable icon to one square PNG for the hicolor theme's fixed sizes, at build time:
//   render_icon IN.svg SIZE OUT.png
// Qt's own SVG renderer (qt6-svg-dev, already a build dependency) instead of a converter package.
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: render_icon IN.svg SIZE OUT.png\n");
        return 2;
    }
    bool sizeIsNumber = false;
    const int size = QString::fromLocal8Bit(argv[2]).toInt(&sizeIsNumber);
    if (!sizeIsNumber || size < 8 || size > 1024) {
        std::fprintf(stderr, "render_icon: size '%s': allowed are whole pixels 8..1024\n", argv[2]);
        return 2;
    }
    QSvgRenderer renderer(QString::fromLocal8Bit(argv[1]));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "render_icon: %s: not a readable SVG file\n", argv[1]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    if (!image.save(QString::fromLocal8Bit(argv[3]), "PNG")) {
        std::fprintf(stderr, "render_icon: %s: cannot write the PNG\n", argv[3]);
        return 1;
    }
    return 0;
}
