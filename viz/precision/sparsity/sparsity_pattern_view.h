// The 2:4 pattern of one weight matrix, drawn: one cell per weight W[out][in] coloured by |w| (kept)
// or hatched blank (pruned), every group of 4 along the reduction (input) dimension outlined, and
// beside each row its packed 2-bit metadata in hex (numerics::TwoFourPattern::packedMetadata). A
// click picks a group; groupText() explains its indices and bits. The geometry is plain functions
// of the widget's size, so tests can click a cell without reading pixels.
#pragma once

#include "numerics/sparsity.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace warpscope::viz {

struct SparsityGroupRef {
    int row = 0;
    int group = 0; // columns 4 group .. 4 group + 3
    bool operator==(const SparsityGroupRef&) const = default;
};

class SparsityPatternView : public QWidget {
    Q_OBJECT
public:
    explicit SparsityPatternView(QWidget* parent = nullptr);

    // The pattern, the weights to colour (same [rows][columns] layout; pruned ones are not drawn) and
    // the weights before pruning (what groupText() quotes for the pruned ones).
    void setPattern(const numerics::TwoFourPattern* pattern, std::vector<float> weights, std::vector<float> dense,
                    const QString& title);
    void clear(const QString& message);
    const numerics::TwoFourPattern* pattern() const { return m_pattern ? &*m_pattern : nullptr; }

    QRect cellRect(int row, int column) const;             // where a weight is drawn
    std::optional<SparsityGroupRef> groupAt(QPoint point) const;
    void selectGroup(std::optional<SparsityGroupRef> group);
    std::optional<SparsityGroupRef> selectedGroup() const { return m_selected; }
    QString groupText() const;                             // the selected group's weights, indices and metadata bits
    QString rowMetadataText(int row) const;                // "0xC9 0xE8 ...": the row's packed bytes
    double largestMagnitude() const { return m_largest; }  // the colour scale's top

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;   // just the rows the pattern has, at that width's cell size
    void setMaximumCell(int pixels);                 // the largest cell side (a narrow panel keeps the figure short)
    int cellSize() const;                            // the cell side at the widget's size
    QString caption() const;                         // the note under the colour scale on what is outlined
    QRect captionRect() const;                       // where it is drawn, in lines at the widget's width

signals:
    void groupSelected();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Geometry {
        int cell = 0;          // cell side in pixels
        QPoint origin;         // top-left of cell (0, 0)
        int metadataX = 0;     // where the hex column starts
        int rowStep = 1;       // label every rowStep-th row (cells shorter than the smallest label font)
        QFont labelFont;       // row numbers and metadata: shrunk to the cell height, down to 7 px
    };
    Geometry geometry() const;
    Geometry geometryFor(QSize size) const;
    int captionHeight(int width) const;              // the caption's lines at a widget width
    QColor magnitudeColour(double magnitude) const;

    std::optional<numerics::TwoFourPattern> m_pattern;
    std::vector<float> m_weights;
    std::vector<float> m_dense;
    double m_largest = 0;
    QString m_title;
    QString m_message;
    std::optional<SparsityGroupRef> m_selected;
    int m_maxCell = 26;
};

} // namespace warpscope::viz
