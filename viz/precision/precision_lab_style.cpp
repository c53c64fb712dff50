#include "precision/precision_lab_style.h"

#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace warpscope::viz {

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

QColor withAlpha(QColor colour, double alpha)
{
    colour.setAlphaF(alpha);
    return colour;
}

QColor warningColour(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QCPTextElement* addFigureTitle(QCustomPlot* plot, const QString& text)
{
    plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(plot, text, plotFont(plot->font(), true));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

void styleFigure(QCustomPlot* plot, QCPTextElement* title, bool logX, bool logY)
{
    const QPalette& pal = plot->palette();
    plot->setBackground(pal.brush(QPalette::Base));
    plot->axisRect()->setBackground(pal.brush(QPalette::Base));
    styleAxis(plot->xAxis, pal, plot->font(), logX);
    styleAxis(plot->yAxis, pal, plot->font(), logY);
    const QColor text = pal.color(QPalette::Text);
    if (title != nullptr) {
        title->setTextColor(text);
        title->setFont(plotFont(plot->font(), true));
    }
    plot->legend->setFont(plotFont(plot->font()));
    plot->legend->setTextColor(text);
    plot->legend->setBrush(withAlpha(pal.color(QPalette::Base), 0.85));
    plot->legend->setBorderPen(QPen(withAlpha(text, 0.35), 1));
    plot->legend->setIconSize(18, 10);
}

QCPItemText* addFigureNote(QCustomPlot* plot)
{
    auto* note = new QCPItemText(plot);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
    note->setPositionAlignment(Qt::AlignCenter);
    note->setTextAlignment(Qt::AlignCenter);
    note->setClipToAxisRect(false);
    note->setPadding(QMargins(6, 4, 6, 4));
    return note;
}

void styleFigureNote(QCPItemText* note, const QPalette& palette)
{
    note->setColor(palette.color(QPalette::Text));
    note->setFont(plotFont(note->parentPlot()->font()));
    note->setBrush(withAlpha(palette.color(QPalette::Base), 0.9));
}

void setWrappedFigureNote(QCPItemText* note, const QString& text)
{
    note->setProperty("unwrappedText", text);
    rewrapFigureNote(note);
}

void rewrapFigureNote(QCPItemText* note)
{
    const QString text = note->property("unwrappedText").toString();
    const QFontMetrics metrics(note->font());
    // The axis rect's width less the note's padding; the plot's own width before its first layout.
    const QCustomPlot* plot = note->parentPlot();
    const int rectWidth = plot->axisRect()->width() > 40 ? plot->axisRect()->width() : plot->width() - 80;
    const int width = std::max(120, rectWidth - 24);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    note->setText(lines.join(QLatin1Char('\n')));
}

void placeLegendBelow(QCustomPlot* plot)
{
    plot->axisRect()->insetLayout()->take(plot->legend);
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void setLegendBelowShown(QCustomPlot* plot, bool shown)
{
    // An empty legend's largest size is its margins, and a layout column is no wider than the
    // largest size of the elements in it: in the plot's layout, an empty legend shrank the axes to
    // a sliver. Hidden, it waits in the axis rect's inset layout, which sizes nothing.
    QCPLegend* legend = plot->legend;
    const bool below = legend->layout() == plot->plotLayout();
    if (shown && !below) {
        plot->axisRect()->insetLayout()->take(legend);
        const int row = plot->plotLayout()->rowCount();
        plot->plotLayout()->addElement(row, 0, legend);
        plot->plotLayout()->setRowStretchFactor(row, 0.001);
    } else if (!shown && below) {
        plot->plotLayout()->take(legend);
        plot->plotLayout()->simplify();
        plot->axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    }
    legend->setVisible(shown);
}

void fitLegendColumns(QCustomPlot* plot)
{
    int widest = 1;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = plot->legend->item(i)) // a wrapped grid has empty cells
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int columns = std::max(1, (plot->width() - 16) / (widest + 8));
    if (plot->legend->wrap() != columns) {
        plot->legend->setWrap(columns);
        plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

QString powerOfTwoText(int exponent)
{
    static constexpr char16_t superscripts[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString text = QStringLiteral("2");
    if (exponent < 0)
        text += QChar(0x207B); // superscript minus
    for (QChar digit : QString::number(std::abs(exponent)))
        text += QChar(superscripts[digit.digitValue()]);
    return text;
}

QString scaleText(double scale)
{
    int exponent = 0;
    const double mantissa = std::frexp(scale, &exponent);
    return mantissa == 0.5 ? powerOfTwoText(exponent - 1) : QString::number(scale, 'g', 7);
}

} // namespace warpscope::viz
