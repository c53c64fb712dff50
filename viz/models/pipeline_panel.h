// The pipeline bubble (the Pipeline tab): P stages and M micro-batches, the GPipe schedule drawn
// from viz::gpipeSchedule (rows = stages, time in forward-pass units; F1..FM one unit each, then the
// backward passes BM..B1 two units each, idle time shaded as the bubble), and the idle share measured
// from the chart beside (P-1)/(M+P-1) from training::pipelineBubbleFraction.
#pragma once

#include "models/pipeline_schedule.h"

#include <QWidget>

#include <cstddef>

class QEvent;
class QLabel;

namespace warpscope::viz {

class PipelineChartView;
class ValidatedField;

struct PipelineSettings {
    int stages = 4;        // P, 1..16
    int microbatches = 8;  // M, 1..64
    bool operator==(const PipelineSettings&) const = default;
};

class PipelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit PipelinePanel(QWidget* parent = nullptr);

    // Checks both settings (ranges as the pipeline link's keys) and redraws; throws InputError naming
    // the key and its allowed range, and changes nothing then.
    void setSettings(const PipelineSettings& settings);
    PipelineSettings settings() const { return m_settings; }
    static void validate(const PipelineSettings& settings);

    const PipelineSchedule& schedule() const { return m_schedule; } // what the chart draws
    double measuredIdleShare() const;   // idle stage-units / all stage-units, counted on the chart
    double formulaIdleShare() const;    // training::pipelineBubbleFraction(P, M)
    QString numbersText() const;        // the two shares and the batch's time, as plain text
    PipelineChartView* chart() const { return m_chart; }
    ValidatedField* field(const char* key) const; // "stages", "microbatches"
    bool stale() const { return m_stale; }

signals:
    void settingsChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    void syncControls();
    QString fieldProblems() const; // every marked field's message, as its text reads now
    void controlsEdited();         // a value was applied: redraw with it
    void redraw();
    void setStale(const QString& reason);

    PipelineSettings m_settings;
    PipelineSchedule m_schedule;
    bool m_stale = false;
    bool m_syncing = false;

    ValidatedField* m_stagesField = nullptr;
    ValidatedField* m_microbatchesField = nullptr;
    QLabel* m_staleLabel = nullptr;
    PipelineChartView* m_chart = nullptr;
    QLabel* m_numbersLabel = nullptr;
    QLabel* m_captionLabel = nullptr;
};

// The chart. Geometry is a plain function of the widget's width, so tests can find a pass.
class PipelineChartView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineChartView(QWidget* parent = nullptr);
    void setSchedule(const PipelineSchedule& schedule);

    double unitToX(double unit) const;
    QRectF opRect(std::size_t index) const;    // schedule().ops[index]
    QRectF idleRect(std::size_t index) const;  // schedule().idle[index]
    // The chart's idle share counted from what it draws: the shaded width over all rows' width.
    double drawnIdleShare() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowTop(int stage) const;
    int rowHeight() const;
    int plotLeft() const;
    int plotRight() const;
    int axisTop() const;

    PipelineSchedule m_schedule;
    double m_tickStep = 1;
};

} // namespace warpscope::viz
