// The mixed-precision trainer's figures, each fed an immutable AmpRunSet (amp_panel.h):
//   AmpLossPlot       every mode's loss per step on one chart, log y
//   AmpScalePlot      the loss scale per step of the modes that scale (log2 y), skipped steps marked
//   AmpHistogramPlot  one step's gradient magnitudes in log2 bins (exact and scaled), with FP16's
//                     smallest subnormal (2^-24), smallest normal (2^-14) and largest value (65504)
// Every value drawn is an AmpResult field; the landmarks come from number_format.h.
#pragma once

#include "numerics/amp_trainer.h"
#include "precision/precision_lab_style.h"

#include <QColor>
#include <QString>

#include <qcustomplot.h>

#include <map>
#include <memory>
#include <vector>

namespace warpscope::viz {

struct AmpRunSet;

QColor ampModeColor(numerics::AmpMode mode, const QPalette& palette); // one colour per mode, all figures
QString ampRunLabel(const numerics::AmpResult& run);                   // "FP16, static loss scale 2^16"
QString ampShortLabel(const numerics::AmpResult& run);                 // "FP16 static 2^16", for tables

// Log axis ticks at powers of two, labelled 2^k, spaced to stay readable.
class PowerOfTwoTicker : public QCPAxisTicker {
public:
    explicit PowerOfTwoTicker(int targetTicks = 7) : m_targetTicks(targetTicks) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    int m_targetTicks;
};

class AmpLossPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit AmpLossPlot(QWidget* parent = nullptr);
    void setRuns(const std::shared_ptr<const AmpRunSet>& runs);
    QCPGraph* graphFor(numerics::AmpMode mode) const; // null when the mode did not run
    void setRunning(bool running); // an empty figure says a run is under way instead of how to start one
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch
    void resizeEvent(QResizeEvent* event) override; // the legend's columns and the note's lines follow the width

private:
    std::shared_ptr<const AmpRunSet> m_runs;
    bool m_running = false;
    std::map<numerics::AmpMode, QCPGraph*> m_graphs;
    QCPTextElement* m_title = nullptr;
    QCPItemText* m_note = nullptr;
};

class AmpScalePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit AmpScalePlot(QWidget* parent = nullptr);
    void setRuns(const std::shared_ptr<const AmpRunSet>& runs);
    QCPGraph* scaleGraphFor(numerics::AmpMode mode) const;   // the scale per step (scaling modes only)
    QCPGraph* skippedGraphFor(numerics::AmpMode mode) const; // one point per skipped step, at its scale
    QString noteText() const;                    // the empty figure's note, as one text (it is drawn wrapped)
    void setRunning(bool running);
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch
    void resizeEvent(QResizeEvent* event) override;

private:
    std::shared_ptr<const AmpRunSet> m_runs;
    bool m_running = false;
    std::map<numerics::AmpMode, QCPGraph*> m_scaleGraphs, m_skippedGraphs;
    QCPTextElement* m_title = nullptr;
    QCPItemText* m_note = nullptr;
};

struct HistogramLandmark {
    double value = 0;   // FP16's smallest subnormal, smallest normal, largest finite
    QString label;
    QCPItemStraightLine* line = nullptr;
    QCPItemText* text = nullptr;
};

class AmpHistogramPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit AmpHistogramPlot(QWidget* parent = nullptr);
    // One histogram of `run` (run.histograms[index]); the x range fits every histogram of the run.
    void setHistogram(const numerics::AmpResult* run, int index, bool showExact, bool showScaled);
    QCPGraph* exactGraph() const { return m_exact; }
    QCPGraph* scaledGraph() const { return m_scaled; }
    const std::vector<HistogramLandmark>& landmarks() const { return m_landmarks; }
    void restyle();

protected:
    void changeEvent(QEvent* event) override; // restyles on a light/dark palette switch

private:
    void placeLandmarkLabels();

    QCPGraph* m_exact = nullptr;
    QCPGraph* m_scaled = nullptr;
    QCPItemRect* m_underflowZone = nullptr;
    QCPItemRect* m_subnormalZone = nullptr;
    std::vector<HistogramLandmark> m_landmarks;
    QCPTextElement* m_title = nullptr;
    numerics::AmpMode m_mode = numerics::AmpMode::FP32; // the shown run's: the fill's colour
};

} // namespace warpscope::viz
