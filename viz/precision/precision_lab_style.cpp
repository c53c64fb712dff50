#include "precision/precision_lab_style.h"

#include "common/plot_style.h"

#include <qcustomplot.h>

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
