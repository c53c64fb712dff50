// The hierarchical roofline (Williams, Waterman and Patterson, CACM 2009; per memory level as Nsight
// Compute draws it), log-log: x is FP32 FLOP per byte moved at a level, y is achieved FP32 FLOP/s.
// One point per kernel per level (L1 triangles, L2 squares, DRAM discs, one colour per level) under
// that level's bandwidth roof and the FP32 roof: measured on this GPU solid, peak dashed. A ladder's
// rungs are joined in rung order at each level; a DRAM point below the kernel's compulsory bytes is
// ringed as served by warm caches, with a dotted arrow to where a cold run would sit; cuBLAS SGEMM, the matmul ladder's reference, is a
// dotted line at its FLOP/s when the session measured it. The math is core/session/roofline.h; kernels or
// levels without a point are in the table under the plot, with the reason on hover.
#pragma once

#include "session/roofline.h"

#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <map>
#include <utility>
#include <limits>
#include <vector>

class QCustomPlot;
class QCPCurve;
class QCPGraph;
class QCPItemLine;
class QCPItemText;
class QLabel;
class QMouseEvent;
class QResizeEvent;
class QSplitter;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

class ProfileRooflineTable;

// Moves label rectangles (pixels, in any order) down just enough that none overlaps another one
// it shares columns with, nor any of the `obstacles` (the points' markers); the one nearest the top
// keeps its place if it is clear. Labels pushed past `bottom` (the plot's lower edge, where they
// would be cut) are lifted back above it, and the ones they then overlap above them. Returns them in
// the same order.
std::vector<QRectF> spreadLabels(const std::vector<QRectF>& rects, double bottom = std::numeric_limits<double>::infinity(),
                                 const std::vector<QRectF>& obstacles = {});

class ProfileRooflinePlot : public QWidget {
    Q_OBJECT
public:
    using MemoryLevel = session::MemoryLevel;

    explicit ProfileRooflinePlot(QWidget* parent = nullptr);

    // Redraws for `current`; `baseline` (may be null) adds its kernels as hollow points.
    void setSession(const session::Session& current, const session::Session* baseline);

    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* kernelPoints(MemoryLevel level = MemoryLevel::Dram) const { return m_points[index(level)]; }
    QCPGraph* baselinePoints(MemoryLevel level = MemoryLevel::Dram) const { return m_baselinePoints[index(level)]; }
    // Rings around the DRAM points that moved fewer bytes than the kernel's compulsory traffic (warm
    // caches); each has a dotted arrow to where a cold run would sit (warmCacheArrows).
    QCPGraph* warmCachePoints() const { return m_warmPoints; }
    const std::vector<QCPItemLine*>& warmCacheArrows() const { return m_warmArrows; }
    // A level's bandwidth roof, from the left edge to where it meets the FP32 roof (two points).
    QCPGraph* measuredRoof(MemoryLevel level = MemoryLevel::Dram) const { return m_slopes[index(level)][0]; }
    QCPGraph* peakRoof(MemoryLevel level = MemoryLevel::Dram) const { return m_slopes[index(level)][1]; }
    // The flat FP32 roof, from the leftmost ridge to the right edge (two points).
    QCPGraph* computeRoof(bool measured) const { return m_computeRoofs[measured ? 0 : 1]; }
    // cuBLAS SGEMM, the matmul ladder's reference: a dotted line across at its FLOP/s (empty without one).
    QCPGraph* sgemmReferenceLine() const { return m_sgemmReference; }
    QCPCurve* ladderCurve(const QString& ladder, MemoryLevel level = MemoryLevel::Dram) const; // null: no line
    QStringList ladders() const;
    ProfileRooflineTable* table() const { return m_table; }
    const std::vector<session::KernelRoofline>& kernels() const { return m_kernels; }
    const session::RooflineRoofs& roofs() const { return m_roofs; }
    QString noteText() const;
    // What hovering the kernel's point at `level` shows; empty when it has no point there.
    QString hoverText(const QString& kernel, MemoryLevel level) const;
    // The kernels labelled on the plot, and where each label's box is now (pixels), after a replot.
    std::vector<std::pair<QString, QRectF>> kernelLabelBoxes() const;
    // Every plotted point's marker (pixels, a little larger than drawn), which labels keep clear of.
    std::vector<QRectF> markerBoxes() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override; // keeps the note under the plot whole
    void showEvent(QShowEvent* event) override;

private:
    static int index(MemoryLevel level) { return static_cast<int>(level); }
    void rebuild();
    void setAxisRanges();
    void drawRoofs();
    void drawPoints();
    void drawBaseline();
    void applyStyle();
    void placeLabels();
    void hover(QMouseEvent* event);
    QString buildNote() const;

    QCustomPlot* m_plot = nullptr;
    ProfileRooflineTable* m_table = nullptr;
    QLabel* m_note = nullptr;
    QSplitter* m_splitter = nullptr;
    void fitNote(); // the part under the plot is never shorter than the wrapped note and a few table rows
    bool m_splitSet = false;
    std::array<QCPGraph*, 2> m_computeRoofs{};                  // measured, peak
    QCPGraph* m_sgemmReference = nullptr;
    double m_sgemmFlopsPerSecond = 0;                            // 0: the session holds no reference
    int m_sgemmN = 0;
    std::array<std::array<QCPGraph*, 2>, 3> m_slopes{};          // [level][measured, peak]
    std::array<QCPGraph*, 3> m_points{};
    std::array<QCPGraph*, 3> m_baselinePoints{};
    QCPGraph* m_warmPoints = nullptr;
    std::vector<QCPItemLine*> m_warmArrows;
    std::map<std::pair<QString, int>, QCPCurve*> m_ladderCurves; // (ladder, level)
    std::vector<session::KernelRoofline> m_kernels;
    std::vector<session::KernelRoofline> m_baselineKernels;
    session::RooflineRoofs m_roofs;
    double m_xLow = 0.01, m_xHigh = 100.0;
    struct SlopeLabel {
        QCPItemText* item = nullptr;
        double x0 = 0, x1 = 0;     // two intensities on the roof segment the label follows
        double bytesPerSecond = 0; // the segment's slope
    };
    std::vector<SlopeLabel> m_slopeLabels;
    struct KernelLabel {
        QString kernel;
        QCPItemText* item = nullptr;
        QCPItemLine* leader = nullptr; // drawn when the label had to move away from its point
        double x = 0, y = 0;           // the point it names (plot coordinates)
    };
    std::vector<KernelLabel> m_kernelLabels;
};

} // namespace warpscope::viz
