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
// Sets the note's text broken into lines that fit the plot's width (a note never runs past its
// figure); call again from the plot's resizeEvent with the same text.
void setWrappedFigureNote(QCPItemText* note, const QString& text);
void rewrapFigureNote(QCPItemText* note);                 // after a resize: the last text, wrapped again
// The legend in a row of its own under the axes, so it never covers a curve; its entries fill as
// many columns as the plot's width holds (fitLegendColumns, again after a resize).
void placeLegendBelow(QCustomPlot* plot);
void setLegendBelowShown(QCustomPlot* plot, bool shown); // hidden (an empty legend), it leaves the layout
void fitLegendColumns(QCustomPlot* plot);
QString powerOfTwoText(int exponent);                     // "2⁻²⁴"
QString scaleText(double scale);                          // "2¹⁶" for a power of two, else "1000"

} // namespace warpscope::viz
