// The stepper's move icons, drawn (no image files): a triangle that points the way, towards a mark
// for what the move stops at (a source line, a barrier, a memory cell, a fork, a warning sign, the
// end), and Play and Pause. Drawn in the palette's text colour so light and dark palettes both
// read; "back" is the mirror image of "forward".
#pragma once

#include <QColor>
#include <QIcon>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QPixmap>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QTransform>

#include <cstdint>

namespace warpscope::viz {

enum class StepGlyph : std::uint8_t { Instruction, SourceLine, Barrier, Memory, Divergence, Hazard, End, Play, Pause };

// Draws `glyph` pointing right in a 20 x 20 box.
inline void paintStepGlyph(QPainter& painter, StepGlyph glyph, const QColor& ink, const QColor& warning)
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(ink);
    const auto triangle = [&](double left, double width) {
        painter.drawPolygon(QPolygonF{QPointF(left, 4), QPointF(left + width, 10), QPointF(left, 16)});
    };
    QPen line(ink, 2.0, Qt::SolidLine, Qt::FlatCap);
    switch (glyph) {
    case StepGlyph::Instruction:
        triangle(6, 9);
        break;
    case StepGlyph::SourceLine: // the arrow, then lines of text
        triangle(1, 7);
        painter.setPen(line);
        for (double y : {5.0, 10.0, 15.0})
            painter.drawLine(QPointF(10, y), QPointF(y == 10.0 ? 19 : 17, y));
        break;
    case StepGlyph::Barrier: // the arrow up to a dashed wall
        triangle(2, 8);
        painter.setPen(QPen(ink, 2.0, Qt::DashLine, Qt::FlatCap));
        painter.drawLine(QPointF(14, 2), QPointF(14, 18));
        painter.drawLine(QPointF(18, 2), QPointF(18, 18));
        break;
    case StepGlyph::Memory: // the arrow, then a 2 x 2 grid of cells
        triangle(1, 7);
        painter.setPen(QPen(ink, 1.4));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(10.5, 4.5, 8, 11));
        painter.drawLine(QPointF(14.5, 4.5), QPointF(14.5, 15.5));
        painter.drawLine(QPointF(10.5, 10), QPointF(18.5, 10));
        break;
    case StepGlyph::Divergence: { // the arrow, then a path that forks
        triangle(1, 7);
        painter.setPen(line);
        painter.setBrush(Qt::NoBrush);
        QPainterPath fork;
        fork.moveTo(10, 10);
        fork.lineTo(13, 10);
        fork.lineTo(18, 4);
        fork.moveTo(13, 10);
        fork.lineTo(18, 16);
        painter.drawPath(fork);
        break;
    }
    case StepGlyph::Hazard: // the arrow, then a warning sign
        triangle(1, 7);
        painter.setBrush(warning);
        painter.drawPolygon(QPolygonF{QPointF(14.5, 3), QPointF(20, 17), QPointF(9, 17)});
        painter.setPen(QPen(Qt::white, 1.8, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(QPointF(14.5, 7.5), QPointF(14.5, 12.5));
        painter.drawPoint(QPointF(14.5, 15));
        break;
    case StepGlyph::End: // the arrow against a bar
        triangle(4, 9);
        painter.setPen(QPen(ink, 2.5, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(QPointF(15, 4), QPointF(15, 16));
        break;
    case StepGlyph::Play: // a ring round the arrow: it keeps going
        painter.setPen(QPen(ink, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(QPointF(10, 10), 8.5, 8.5);
        painter.setPen(Qt::NoPen);
        painter.setBrush(ink);
        painter.drawPolygon(QPolygonF{QPointF(7.5, 5.5), QPointF(14.5, 10), QPointF(7.5, 14.5)});
        break;
    case StepGlyph::Pause:
        painter.setPen(QPen(ink, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(QPointF(10, 10), 8.5, 8.5);
        painter.setPen(Qt::NoPen);
        painter.setBrush(ink);
        painter.drawRect(QRectF(6.5, 5.5, 2.5, 9));
        painter.drawRect(QRectF(11, 5.5, 2.5, 9));
        break;
    }
}

// The icon for a move: `glyph`, pointing right (forward) or left (back), at 1x and 2x.
inline QIcon stepIcon(StepGlyph glyph, bool forward, const QColor& ink, const QColor& warning = QColor(0xd0, 0x60, 0x20))
{
    QIcon icon;
    for (int scale : {1, 2}) {
        QImage image(20 * scale, 20 * scale, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.scale(scale, scale);
            if (!forward) // the mirror image, so the mark stays next to the arrow's tail
                painter.setTransform(QTransform(-1, 0, 0, 1, 20.0 * scale, 0).scale(scale, scale));
            paintStepGlyph(painter, glyph, ink, warning);
        }
        QPixmap pixmap = QPixmap::fromImage(image);
        pixmap.setDevicePixelRatio(scale);
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace warpscope::viz
