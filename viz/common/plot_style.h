// Shared look of the QCustomPlot figures (occupancy curves, roofline): fonts and axis styling from
// the widget's palette, so plots follow light and dark themes alike.
#pragma once

#include <QFont>
#include <QPalette>

class QCPAxis;

namespace warpscope::viz {

inline constexpr double kPlotFontPoints = 9.0;

QFont plotFont(const QFont& base, bool bold = false);
// Pens, labels and a dotted grid in the palette's text colour; `subGrid` adds a fainter minor grid
// (for log axes).
void styleAxis(QCPAxis* axis, const QPalette& palette, const QFont& font, bool subGrid = false);

} // namespace warpscope::viz
