// The roofline (Williams, Waterman and Patterson, CACM 2009), log-log: x is arithmetic intensity
// (FP32 FLOP per DRAM byte), y is achieved FP32 FLOP/s. The roofs come from the session's measured
// ceilings (solid) beside the theoretical ones from the device's attributes (dashed). One point per
// kernel; the rungs of a ladder joined in rung order. Kernels that cannot sit on log axes (no FLOP,
// no DRAM bytes, no counters) are listed under the plot with the reason.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QCustomPlot;
class QCPCurve;
class QCPGraph;
class QCPItemText;
class QLabel;
class QMouseEvent;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

struct RooflinePoint {
    std::string kernel;
    std::string ladder;            // "" when the kernel is not a ladder rung
    int rung = 0;
    double intensity = 0;          // FLOP per DRAM byte
    double flopsPerSecond = 0;
    double dramBytesPerSecond = 0;
    bool plotted = false;
    QString notPlottedReason;      // why not, when !plotted
};

struct RooflineCeilings {         // SI units; 0 = not in the session
    double measuredBytesPerSecond = 0;
    double measuredFlopsPerSecond = 0;
    double theoreticalBytesPerSecond = 0;
    double theoreticalFlopsPerSecond = 0;
};

// Every kernel of the session, in stream order, with its place on the roofline or why it has none.
std::vector<RooflinePoint> rooflinePoints(const session::Session& session);
RooflineCeilings rooflineCeilings(const session::Session& session);
// The attainable FLOP/s at `intensity`: min(intensity x bandwidth, compute); a ceiling of 0 is absent.
double roofAt(double intensity, double bytesPerSecond, double flopsPerSecond);

class ProfileRooflinePlot : public QWidget {
    Q_OBJECT
public:
    explicit ProfileRooflinePlot(QWidget* parent = nullptr);

    // Redraws for `current`; `baseline` (may be null) adds its kernels as hollow points.
    void setSession(const session::Session& current, const session::Session* baseline);

    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* kernelPoints() const { return m_points; }     // one data point per plotted kernel
    QCPGraph* baselinePoints() const { return m_baselinePoints; }
    QCPGraph* measuredRoof() const { return m_measuredRoof; }
    QCPGraph* theoreticalRoof() const { return m_theoreticalRoof; }
    QCPCurve* ladderCurve(const QString& ladder) const;     // null when the ladder has no line
    QStringList ladders() const;
    const std::vector<RooflinePoint>& points() const { return m_model; }
    QString noteText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void applyStyle();
    void placeCeilingLabels();
    void hover(QMouseEvent* event);

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_points = nullptr;
    QCPGraph* m_baselinePoints = nullptr;
    QCPGraph* m_measuredRoof = nullptr;
    QCPGraph* m_theoreticalRoof = nullptr;
    std::map<QString, QCPCurve*> m_ladderCurves;
    QLabel* m_note = nullptr;
    std::vector<RooflinePoint> m_model;
    std::vector<RooflinePoint> m_baselineModel;
    RooflineCeilings m_ceilings;
    struct CeilingLabel {
        QCPItemText* item = nullptr;
        double x0 = 0, x1 = 0;     // two intensities on the roof segment the label follows
        double bytesPerSecond = 0; // the segment's slope: 0 for a flat (compute) roof
        double flopsPerSecond = 0;
    };
    std::vector<CeilingLabel> m_ceilingLabels;
};

} // namespace warpscope::viz
