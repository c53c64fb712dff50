#include "precision/sparsity/sparsity_pattern_view.h"

#include "common/plot_style.h"
#include "precision/precision_lab_style.h"

#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {

namespace {

constexpr int kMargin = 6;
constexpr int kMinCell = 5;
constexpr int kMaxCell = 26;

// Viridis (van der Walt and Smith, matplotlib 2015) at five stops: perceptually even, colour-blind safe.
const QColor kViridis[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                           QColor(0xfd, 0xe7, 0x25)};

QString hexByte(std::uint8_t byte) { return QStringLiteral("%1").arg(byte, 2, 16, QLatin1Char('0')).toUpper(); }

QString bits2(int index) { return QStringLiteral("%1%2").arg((index >> 1) & 1).arg(index & 1); }

} // namespace

SparsityPatternView::SparsityPatternView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sparsityPattern"));
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(false);
    setFocusPolicy(Qt::ClickFocus);
    clear(tr("The pattern appears once the model is trained and pruned."));
}

void SparsityPatternView::setPattern(const numerics::TwoFourPattern* pattern, std::vector<float> weights, std::vector<float> dense,
                                     const QString& title)
{
    if (pattern == nullptr) {
        clear(title);
        return;
    }
    const bool sameShape = m_pattern && m_pattern->rows == pattern->rows && m_pattern->columns == pattern->columns;
    m_pattern = *pattern;
    m_weights = std::move(weights);
    m_dense = std::move(dense);
    m_title = title;
    m_message.clear();
    m_largest = 0;
    for (std::size_t i = 0; i < m_weights.size(); ++i)
        if (m_pattern->keep[i])
            m_largest = std::max(m_largest, static_cast<double>(std::abs(m_weights[i])));
    if (!sameShape)
        m_selected = SparsityGroupRef{0, 0};
    updateGeometry();
    update();
    emit groupSelected();
}

void SparsityPatternView::clear(const QString& message)
{
    m_pattern.reset();
    m_weights.clear();
    m_dense.clear();
    m_largest = 0;
    m_message = message;
    m_selected.reset();
    update();
}

SparsityPatternView::Geometry SparsityPatternView::geometry() const { return geometryFor(size()); }

int SparsityPatternView::heightForWidth(int width) const
{
    if (!m_pattern)
        return 200;
    const QFontMetrics metrics(plotFont(font()));
    const int line = metrics.height();
    const Geometry g = geometryFor(QSize(width, 1 << 20)); // as wide as given, as tall as the cells want
    return g.origin.y() + m_pattern->rows * g.cell + kMargin + 2 * line + 14 + captionHeight(width);
}

void SparsityPatternView::setMaximumCell(int pixels)
{
    const int cell = std::clamp(pixels, kMinCell, kMaxCell);
    if (cell == m_maxCell)
        return;
    m_maxCell = cell;
    updateGeometry();
    update();
}

int SparsityPatternView::cellSize() const { return geometry().cell; }

QString SparsityPatternView::caption() const
{
    return tr("Outlined: groups of 4 along the inputs, the dimension a matrix product sums over");
}

int SparsityPatternView::captionHeight(int width) const
{
    const QFontMetrics metrics(plotFont(font()));
    const int left = kMargin + metrics.horizontalAdvance(QStringLiteral("out 00")) + 6;
    return metrics.boundingRect(QRect(0, 0, std::max(40, width - left - kMargin), 1 << 20), Qt::TextWordWrap, caption()).height();
}

QRect SparsityPatternView::captionRect() const
{
    if (!m_pattern)
        return {};
    const Geometry g = geometry();
    const int line = QFontMetrics(plotFont(font())).height();
    const int top = g.origin.y() + m_pattern->rows * g.cell + 10 + (line - 2) + 2 + line;
    return QRect(g.origin.x(), top, std::max(40, width() - g.origin.x() - kMargin), captionHeight(width()));
}

SparsityPatternView::Geometry SparsityPatternView::geometryFor(QSize size) const
{
    Geometry g;
    if (!m_pattern)
        return g;
    const QFontMetrics metrics(plotFont(font()));
    const int line = metrics.height();
    const int top = kMargin + line + 6 + line + 2;   // title, column numbers
    const int left = kMargin + metrics.horizontalAdvance(QStringLiteral("out 00")) + 6;
    const int bottom = kMargin + 2 * line + 14 + captionHeight(size.width()); // colour scale, its labels, the outline's meaning
    const int bytesPerRow = std::max(1, m_pattern->columns / 8);
    const int metadataWidth = 12 + metrics.horizontalAdvance(QStringLiteral("00 ")) * bytesPerRow + kMargin;
    const int byWidth = (size.width() - left - metadataWidth) / std::max(1, m_pattern->columns);
    const int byHeight = (size.height() - top - bottom) / std::max(1, m_pattern->rows);
    g.cell = std::clamp(std::min(byWidth, byHeight), kMinCell, m_maxCell);
    g.origin = QPoint(left, top);
    g.metadataX = left + g.cell * m_pattern->columns + 12;
    g.labelFont = plotFont(font());
    const int fitting = std::max(7, g.cell);
    if (QFontMetrics(g.labelFont).height() > fitting)
        g.labelFont.setPixelSize(std::max(7, fitting - 2));
    const int labelHeight = QFontMetrics(g.labelFont).height();
    g.rowStep = labelHeight <= g.cell + 3 ? 1 : (labelHeight + g.cell - 1) / g.cell;
    return g;
}

QRect SparsityPatternView::cellRect(int row, int column) const
{
    const Geometry g = geometry();
    return QRect(g.origin.x() + column * g.cell, g.origin.y() + row * g.cell, g.cell, g.cell);
}

std::optional<SparsityGroupRef> SparsityPatternView::groupAt(QPoint point) const
{
    if (!m_pattern)
        return std::nullopt;
    const Geometry g = geometry();
    const QPoint local = point - g.origin;
    if (local.x() < 0 || local.y() < 0 || g.cell <= 0)
        return std::nullopt;
    const int column = local.x() / g.cell, row = local.y() / g.cell;
    if (row >= m_pattern->rows || column >= m_pattern->columns)
        return std::nullopt;
    return SparsityGroupRef{row, column / 4};
}

void SparsityPatternView::selectGroup(std::optional<SparsityGroupRef> group)
{
    m_selected = group;
    update();
    emit groupSelected();
}

QString SparsityPatternView::rowMetadataText(int row) const
{
    if (!m_pattern || row < 0 || row >= m_pattern->rows)
        return {};
    const int indicesPerRow = m_pattern->columns / 2;
    QStringList parts;
    if (indicesPerRow % 4 == 0) {
        // Whole bytes per row: this row's slice of the packed stream, four indices a byte.
        const int bytes = indicesPerRow / 4;
        for (int b = 0; b < bytes; ++b)
            parts << hexByte(m_pattern->packedMetadata[static_cast<std::size_t>(row * bytes + b)]);
    } else {
        // Rows share bytes: show this row's indices themselves.
        for (int i = 0; i < indicesPerRow; ++i)
            parts << QString::number(m_pattern->indices[static_cast<std::size_t>(row * indicesPerRow + i)]);
    }
    return parts.join(QLatin1Char(' '));
}

QString SparsityPatternView::groupText() const
{
    if (!m_pattern || !m_selected)
        return {};
    const int row = m_selected->row, group = m_selected->group;
    const int columns = m_pattern->columns;
    const std::size_t first = static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(group) * 4;
    QStringList values;
    for (int k = 0; k < 4; ++k) {
        const std::size_t i = first + static_cast<std::size_t>(k);
        if (m_pattern->keep[i])
            values << QStringLiteral("<b>%1</b>").arg(QString::number(m_weights[i], 'g', 4));
        else
            values << QStringLiteral("<s>%1</s>").arg(QString::number(i < m_dense.size() ? m_dense[i] : 0.0f, 'g', 4));
    }
    // The group's two indices: entries 2g, 2g+1 of the row's, i.e. of the whole stream at groupIndex * 2.
    const std::size_t groupIndex = static_cast<std::size_t>(row) * static_cast<std::size_t>(columns / 4) + static_cast<std::size_t>(group);
    const int a = m_pattern->indices[groupIndex * 2], b = m_pattern->indices[groupIndex * 2 + 1];
    const std::size_t byte = groupIndex * 2 / 4;
    const int shift = static_cast<int>((groupIndex * 2) % 4) * 2;
    return tr("<b>Row %1, group %2</b> (inputs %3–%4): %5 (struck out: pruned, as trained). Kept positions %6 and %7 → metadata bits %8 %9, "
              "in byte %10 (0x%11) at bits %12–%13 (four 2-bit indices a byte, the first in the low bits).")
        .arg(row)
        .arg(group)
        .arg(group * 4)
        .arg(group * 4 + 3)
        .arg(values.join(QStringLiteral(", ")))
        .arg(a)
        .arg(b)
        .arg(bits2(a), bits2(b))
        .arg(byte)
        .arg(hexByte(m_pattern->packedMetadata[byte]))
        .arg(shift)
        .arg(shift + 3);
}

QColor SparsityPatternView::magnitudeColour(double magnitude) const
{
    const double t = m_largest > 0 ? std::clamp(magnitude / m_largest, 0.0, 1.0) : 0.0;
    const double position = t * 4.0;
    const int low = std::min(3, static_cast<int>(position));
    const double f = position - low;
    const QColor& a = kViridis[low];
    const QColor& b = kViridis[low + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QSize SparsityPatternView::sizeHint() const { return {620, 560}; }

QSize SparsityPatternView::minimumSizeHint() const { return {300, m_pattern && m_pattern->rows <= 4 ? 150 : 260}; }

void SparsityPatternView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().brush(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    const QFont font = plotFont(this->font());
    const QFont bold = plotFont(this->font(), true);
    const QFontMetrics metrics(font);
    painter.setFont(font);
    if (!m_pattern) {
        painter.setPen(text);
        painter.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const Geometry g = geometry();
    const int rows = m_pattern->rows, columns = m_pattern->columns;
    const int line = metrics.height();

    painter.setFont(bold);
    painter.setPen(text);
    painter.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, line + 4), Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, width() - 2 * kMargin));
    painter.setFont(font);

    // Column numbers at each group's start; row numbers every row the label font allows.
    const int rowStep = g.rowStep;
    const int labelLine = QFontMetrics(g.labelFont).height();
    for (int group = 0; group < columns / 4; ++group) {
        const QRect first = cellRect(0, group * 4);
        painter.drawText(QRect(first.left(), g.origin.y() - line - 2, 4 * g.cell, line), Qt::AlignHCenter | Qt::AlignBottom,
                         QString::number(group * 4));
    }
    painter.setFont(g.labelFont);
    for (int row = 0; row < rows; row += rowStep) {
        const QRect cell = cellRect(row, 0);
        painter.drawText(QRect(kMargin, cell.top() + (g.cell - labelLine) / 2, g.origin.x() - kMargin - 6, labelLine),
                         Qt::AlignRight | Qt::AlignVCenter, row == 0 ? QStringLiteral("out 0") : QString::number(row));
    }
    painter.setFont(font);

    // Cells.
    QColor hatch = text;
    hatch.setAlphaF(0.35);
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column) {
            const std::size_t i = static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(column);
            const QRect cell = cellRect(row, column).adjusted(0, 0, -1, -1);
            if (m_pattern->keep[i]) {
                painter.fillRect(cell, magnitudeColour(std::abs(m_weights[i])));
            } else {
                painter.fillRect(cell, palette().brush(QPalette::Base));
                if (g.cell >= 8)
                    painter.fillRect(cell, QBrush(hatch, Qt::BDiagPattern));
            }
        }
    // Group outlines: a thin line between cells, a strong one around each group of 4.
    QColor thin = text;
    thin.setAlphaF(0.15);
    painter.setPen(QPen(thin, 1));
    for (int column = 0; column <= columns; ++column)
        if (column % 4 != 0)
            painter.drawLine(cellRect(0, column).topLeft(), cellRect(rows - 1, column).bottomLeft());
    painter.setPen(QPen(text, g.cell >= 10 ? 1.6 : 1.0));
    for (int row = 0; row <= rows; ++row)
        painter.drawLine(QPoint(g.origin.x(), g.origin.y() + row * g.cell), QPoint(g.origin.x() + columns * g.cell, g.origin.y() + row * g.cell));
    for (int column = 0; column <= columns; column += 4)
        painter.drawLine(QPoint(g.origin.x() + column * g.cell, g.origin.y()), QPoint(g.origin.x() + column * g.cell, g.origin.y() + rows * g.cell));
    if (m_selected) {
        const QRect group = cellRect(m_selected->row, m_selected->group * 4).united(cellRect(m_selected->row, m_selected->group * 4 + 3));
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(group.adjusted(-1, -1, 0, 0));
    }

    // Metadata bytes beside each row.
    painter.setPen(text);
    painter.drawText(QRect(g.metadataX, g.origin.y() - line - 2, width() - g.metadataX, line), Qt::AlignLeft | Qt::AlignBottom,
                     tr("metadata"));
    QFont mono = g.labelFont;
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    painter.setFont(mono);
    for (int row = 0; row < rows; row += rowStep) {
        const QRect cell = cellRect(row, 0);
        painter.setPen(m_selected && m_selected->row == row ? palette().color(QPalette::Highlight) : text);
        painter.drawText(QRect(g.metadataX, cell.top() + (g.cell - labelLine) / 2, width() - g.metadataX, labelLine),
                         Qt::AlignLeft | Qt::AlignVCenter, rowMetadataText(row));
    }
    painter.setFont(font);

    // Colour scale and the pruned swatch under the grid.
    const int scaleTop = g.origin.y() + rows * g.cell + 10;
    const int scaleWidth = std::min(220, columns * g.cell / 2);
    QLinearGradient gradient(g.origin.x(), 0, g.origin.x() + scaleWidth, 0);
    for (int s = 0; s < 5; ++s)
        gradient.setColorAt(s / 4.0, kViridis[s]);
    const QRect bar(g.origin.x(), scaleTop, scaleWidth, line - 2);
    painter.fillRect(bar, gradient);
    painter.setPen(text);
    painter.drawText(QRect(bar.left(), bar.bottom() + 2, scaleWidth, line), Qt::AlignLeft, QStringLiteral("0"));
    painter.drawText(QRect(bar.left(), bar.bottom() + 2, scaleWidth, line), Qt::AlignRight,
                     tr("|w| %1").arg(QString::number(m_largest, 'g', 3)));
    const QRect swatch(bar.right() + 18, scaleTop, line - 2, line - 2);
    painter.fillRect(swatch, palette().brush(QPalette::Base));
    painter.fillRect(swatch, QBrush(hatch, Qt::BDiagPattern));
    painter.drawRect(swatch);
    painter.drawText(QRect(swatch.right() + 6, scaleTop - 2, width() - swatch.right() - 6, line + 2), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("pruned: zero, not stored"));
    painter.drawText(captionRect(), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption()); // in lines, never cut
}

void SparsityPatternView::mousePressEvent(QMouseEvent* event)
{
    if (const auto group = groupAt(event->position().toPoint()))
        selectGroup(group);
    QWidget::mousePressEvent(event);
}

} // namespace warpscope::viz
