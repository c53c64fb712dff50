// The quantization lab's figures, each drawn from an immutable QuantLabResult (quant_panel.h):
//   QuantValuePlot  one slice's values, its quantization grid (one tick per level) and clip bounds
//   QuantErrorPlot  the error x' - x over the whole tensor
//   QuantSqnrPlot   SQNR of every format x calibrator on the same data, grouped by format
// Every value drawn comes from numerics::quantPlotData and numerics::sqnrTable.
#pragma once

#include "numerics/quant_lab.h"

#include <qcustomplot.h>

#include <vector>

namespace warpscope::viz {

struct QuantLabResult;

class QuantValuePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit QuantValuePlot(QWidget* parent = nullptr);
    void setResult(const QuantLabResult* result);
    void setLogCounts(bool log) { m_log = log; }          // takes effect at the next setResult
    QCPGraph* valuesGraph() const { return m_values; }
    QCPGraph* gridGraph() const { return m_grid; }     // one impulse per grid level
    QCPItemStraightLine* clipLine(bool high) const { return high ? m_clipHigh : m_clipLow; }
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch

private:
    void placeClipLabels();

    QCPTextElement* m_title = nullptr;
    QCPGraph* m_values = nullptr;
    QCPGraph* m_grid = nullptr;
    QCPItemStraightLine* m_clipLow = nullptr;
    QCPItemStraightLine* m_clipHigh = nullptr;
    QCPItemText* m_clipLowText = nullptr;
    QCPItemText* m_clipHighText = nullptr;
    bool m_log = false;
};

class QuantErrorPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit QuantErrorPlot(QWidget* parent = nullptr);
    void setResult(const QuantLabResult* result);
    void setLogCounts(bool log) { m_log = log; }          // takes effect at the next setResult
    QCPGraph* errorGraph() const { return m_errors; }
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch

private:
    QCPTextElement* m_title = nullptr;
    QCPGraph* m_errors = nullptr;
    QCPItemStraightLine* m_halfStep[2] = {nullptr, nullptr};
    QCPItemText* m_halfStepText = nullptr;
    bool m_log = false;
};

class QuantSqnrPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit QuantSqnrPlot(QWidget* parent = nullptr);
    void setResult(const QuantLabResult* result);
    // The bars of one calibrator: one per format, keyed 1 .. formats (+ the calibrator's offset).
    QCPBars* barsFor(numerics::Calibrator calibrator) const;
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch

private:
    QCPTextElement* m_title = nullptr;
    std::vector<QCPBars*> m_bars;     // in kCalibrators order
    QCPItemText* m_selected = nullptr; // the value of the chosen format and calibrator
};

} // namespace warpscope::viz
