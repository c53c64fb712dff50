#include "common/plot_style.h"

#include <qcustomplot.h>

namespace warpscope::viz {

QFont plotFont(const QFont& base, bool bold)
{
    QFont font = base;
    font.setPointSizeF(kPlotFontPoints);
    font.setBold(bold);
    return font;
}

void styleAxis(QCPAxis* axis, const QPalette& palette, const QFont& font, bool subGrid)
{
    const QColor text = palette.color(QPalette::Text);
    QColor gridColor = text;
    gridColor.setAlphaF(0.15);
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->setTickLabelFont(plotFont(font));
    axis->setLabelFont(plotFont(font));
    axis->grid()->setPen(QPen(gridColor, 1, Qt::DotLine));
    if (subGrid) {
        QColor subGridColor = text;
        subGridColor.setAlphaF(0.06);
        axis->grid()->setSubGridPen(QPen(subGridColor, 1, Qt::DotLine));
        axis->grid()->setSubGridVisible(true);
    }
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

} // namespace warpscope::viz
