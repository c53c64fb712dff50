// Copy/compute overlap with CUDA streams (the Streams tab): the whole host-to-device copy, kernel and
// device-to-host copy times, the chunks (one stream each) and the copy engines, and the timeline
// perf::planStreams lays out: the serial case (one stream) on top, the overlapped plan below with one
// row per engine, bars labelled by chunk and coloured by kind, on one time axis in ms. Under it the
// serial and overlapped times, the speedup and, for two copy engines, the closed form with its value.
// Below all that, launch overhead and CUDA graphs (GraphLaunchPanel, graph_launch_panel.h).
#pragma once

#include "perf/stream_overlap.h"

#include <QWidget>

#include <QString>

#include <cstddef>
#include <optional>
#include <utility>

class QEvent;
class QLabel;

namespace warpscope::viz {

class GraphLaunchPanel;
class StreamTimelineView;
class ValidatedField;

inline constexpr double kStreamsMaxMs = 1e6;   // as the streams link allows
inline constexpr int kStreamsMaxChunks = 64;

struct StreamsSettings {
    double hostToDeviceMs = 4;   // the whole transfer, before splitting
    double kernelMs = 6;
    double deviceToHostMs = 4;
    int chunks = 4;              // 1..64, one stream each
    int copyEngines = 2;         // 1 or 2
    bool operator==(const StreamsSettings&) const = default;
};

class StreamsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StreamsPanel(QWidget* parent = nullptr);

    // Checks every setting (ranges as the streams link's keys; h2d, kernel and d2h not all 0) and
    // redraws; throws InputError naming the key and its allowed range, and changes nothing then.
    void setSettings(const StreamsSettings& settings);
    StreamsSettings settings() const { return m_settings; } // what the figure shows
    static void validate(const StreamsSettings& settings);

    static perf::StreamOverlapInput overlapInput(const StreamsSettings& settings); // ms -> s
    const perf::StreamTimeline& timeline() const { return m_timeline; }              // what the figure draws
    // (a+c+d)/n + (n-1) x max(a,c,d)/n in seconds, shown for two copy engines only.
    std::optional<double> closedFormSeconds() const;
    QString numbersText() const;   // serial, overlapped, speedup and the closed form, as plain text
    StreamTimelineView* timelineView() const { return m_view; }
    GraphLaunchPanel* graphLaunch() const { return m_graphLaunch; } // launch overhead and CUDA graphs, under the figure
    ValidatedField* field(const char* key) const; // "h2d", "kernel", "d2h", "chunks", "engines"
    bool stale() const { return m_stale; }        // a field holds an invalid value; the figure shows settings()

signals:
    void settingsChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    void syncControls();
    // The settings the fields hold now, or why they cannot be applied (every marked field's message).
    std::pair<std::optional<StreamsSettings>, QString> readControls() const;
    void controlsEdited(); // a value was applied: redraw with it
    void redraw();
    void setStale(const QString& reason);

    StreamsSettings m_settings;
    perf::StreamTimeline m_timeline;
    bool m_stale = false;
    bool m_syncing = false;

    GraphLaunchPanel* m_graphLaunch = nullptr;
    ValidatedField* m_h2dField = nullptr;
    ValidatedField* m_kernelField = nullptr;
    ValidatedField* m_d2hField = nullptr;
    ValidatedField* m_chunksField = nullptr;
    ValidatedField* m_enginesField = nullptr;
    QLabel* m_staleLabel = nullptr;
    StreamTimelineView* m_view = nullptr;
    QLabel* m_numbersLabel = nullptr;
    QLabel* m_captionLabel = nullptr;
};

// The timeline figure. Geometry is a plain function of the widget's width, so tests can find a bar
// without reading pixels.
class StreamTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit StreamTimelineView(QWidget* parent = nullptr);
    void setTimeline(const perf::StreamTimeline& timeline, int copyEngines);

    double timeToX(double seconds) const;  // the shared time axis
    double axisEndSeconds() const;         // the axis' last tick (at least the serial time)
    QRectF serialBarRect(perf::StreamStageKind kind) const;
    QRectF stageRect(std::size_t index) const; // timeline().stages[index] in its engine's row
    int rowCount() const;                  // overlapped rows: one per engine in use
    QString rowLabel(int row) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowOf(int engine) const;
    int rowTop(int row) const;             // overlapped rows
    int serialTop() const;
    int axisTop() const;
    int plotLeft() const;
    int plotRight() const;

    perf::StreamTimeline m_timeline;
    int m_copyEngines = 2;
    double m_axisEnd = 1;
    double m_tickStep = 1;
};

} // namespace warpscope::viz
