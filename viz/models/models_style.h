// Shared look of the Performance Models figures (streams timeline, pipeline chart), on top of the
// precision lab's palette helpers: one colour per kind of work, light and dark variants, and the
// text colour that reads on each.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

class QFontMetrics;
class QLabel;
class QPainter;
class QWidget;

namespace warpscope::viz {

enum class ModelColour { Copy, Compute, CopyBack, Forward, Backward };

QColor modelColour(ModelColour kind, bool dark); // Okabe-Ito hues (colour-blind safe), lighter on dark
QColor textOn(const QColor& fill);               // black or white, whichever contrasts more
QColor modelTrackColour(const QPalette& palette); // a row's empty track: a faint tint of the text
QColor bubbleColour(const QPalette& palette);     // idle time, hatched over the track
double niceTickStep(double range, int maxTicks);  // 1, 2, 2.5 or 5 x 10^k, at most maxTicks steps
// A panel's text under its figure (numbers, caption, stale notice): wrapped, selectable, named for tests.
QLabel* modelTextLabel(const QString& objectName, QWidget* parent);

// A timeline's time axis at height y from x = left to right, which stand for 0 and `end` (in the
// axis's unit): a tick every `step`, each labelled by `label` unless it would run into the one before.
void drawTimeAxis(QPainter& painter, const QFontMetrics& metrics, double left, double right, int y, double end, double step,
                  const std::function<QString(double)>& label);
// A legend row from x at height y: a swatch and a name per entry, then the axis's unit ending at
// `right` (or after the last entry, where they would meet). Names in `text`.
void drawLegend(QPainter& painter, const QFontMetrics& metrics, int x, int y, int right,
                const std::vector<std::pair<QColor, QString>>& entries, const QString& unit, const QColor& text);

} // namespace warpscope::viz
