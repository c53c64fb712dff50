// Shared look of the precision lab's figures (mixed precision, quantization, 2:4 sparsity), on top
// of plot_style.h: a bold title row, legend and axes in the palette's colours, a centred note for
// empty figures, and labels for powers of two.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;
class QCPItemText;
class QCPTextElement;

namespace warpscope::viz {

bool isDarkPalette(const QPalette& palette);              // a dark Base colour
QColor withAlpha(QColor colour, double alpha);
QColor warningColour(const QPalette& palette);            // red that reads on the palette's Base
QCPTextElement* addFigureTitle(QCustomPlot* plot, const QString& text); // a new first layout row
void styleFigure(QCustomPlot* plot, QCPTextElement* title, bool logX, bool logY);
QCPItemText* addFigureNote(QCustomPlot* plot);            // centred in the axis rect, hidden by callers when not needed
void styleFigureNote(QCPItemText* note, const QPalette& palette);
QString powerOfTwoText(int exponent);                     // "2⁻²⁴"
QString scaleText(double scale);                          // "2¹⁶" for a power of two, else "1000"

} // namespace warpscope::viz
