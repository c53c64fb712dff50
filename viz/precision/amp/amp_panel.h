// The mixed-precision trainer panel: pick modes (FP32, FP16 without scaling, FP16 with a static
// scale, FP16 with dynamic scaling, BF16), steps, seed, growth interval and static scale, and train
// them side by side off the GUI thread (core/numerics/amp_trainer.h). Then: the loss curves, the
// loss-scale trajectory with skipped steps, a gradient histogram for a chosen mode and step with
// FP16's range marked and the underflowed share, and a summary table per mode.
#pragma once

#include "numerics/amp_trainer.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;

namespace warpscope::viz {

class ValidatedField;

class AmpHistogramPlot;
class AmpLossPlot;
class AmpScalePlot;
class LabWorker;

// The tab's default growth interval: 20, not PyTorch's 2000. This MLP's gradients first overflow FP16
// at a scale of 2^34, 18 doublings above the initial 2^16: with 2000 steps between doublings that is
// about 36,000 steps, and a 1000-step run would draw a flat scale. With 20 the scale first overflows at step
// 372 and saws up and down from there (24 skipped steps in 1000, seed 1).
inline constexpr int kAmpDefaultGrowthInterval = 20;
inline constexpr int kPyTorchGrowthInterval = 2000; // torch.amp.GradScaler's growth_interval default

struct AmpRunRequest {                     // what one Run trains
    std::vector<numerics::AmpMode> modes;  // in the order they are drawn and listed
    int steps = 1000;
    std::uint64_t seed = 1;
    int growthInterval = kAmpDefaultGrowthInterval; // FP16 dynamic: clean steps before the scale doubles
    float staticScale = 65536.0f;          // FP16 static: 2^16
};

struct AmpRunSet {                         // one Run's results: immutable once delivered
    AmpRunRequest request;
    std::vector<numerics::AmpResult> runs;  // one per mode of the request, in its order
    bool cancelled = false;
    const numerics::AmpResult* find(numerics::AmpMode mode) const; // null when the mode did not run
};

inline constexpr int kAmpMaxSteps = 100000;        // as `warpscope numerics amp --steps`
inline constexpr int kAmpHistogramsPerRun = 100;   // gradient histograms kept per mode (every steps/100)

// The trainer's configuration for one mode of a request (histograms every steps/100 steps).
numerics::AmpConfig ampConfigFor(const AmpRunRequest& request, numerics::AmpMode mode);

class AmpPanel : public QWidget {
    Q_OBJECT
public:
    explicit AmpPanel(QWidget* parent = nullptr); // FP32, FP16, FP16 dynamic and BF16 ticked; nothing run

    void setRequest(const AmpRunRequest& request); // sets the controls (modes ticked in the given order)
    AmpRunRequest request() const;                 // what the controls say (a field's last valid value while it is marked)
    QString fieldErrors() const;                   // each marked field's message, one per line; empty when all are valid
    void run();                                    // trains request() in the background (replaces a queued run)
    void cancel();
    bool busy() const;
    std::shared_ptr<const AmpRunSet> results() const { return m_results; }

    // The histogram shown: a mode of the results and the index of one of its histograms.
    void showHistogram(numerics::AmpMode mode, int index);
    numerics::AmpMode histogramMode() const;
    int histogramIndex() const;
    QString underflowText() const;
    double shownUnderflowShare() const;            // the share printed under the histogram (NaN: none)
    QString statusText() const;

    AmpLossPlot* lossPlot() const { return m_lossPlot; }
    AmpScalePlot* scalePlot() const { return m_scalePlot; }
    AmpHistogramPlot* histogramPlot() const { return m_histogramPlot; }
    QTableWidget* summaryTable() const { return m_table; }
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QSlider* stepSlider() const { return m_stepSlider; }

signals:
    void runFinished(); // results() changed, or a run was cancelled or failed (statusText says which)

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    QWidget* buildHistogramBox();
    void arrangeFigures(bool wide);
    void showResults(std::shared_ptr<const AmpRunSet> results);
    void refreshHistogram();
    void fillTable();
    void setRunning(bool running);
    void setStatus(const QString& text, bool error = false);
    void fieldsChanged(); // a field turned valid or invalid: Run follows, and the status says why it cannot

    LabWorker* m_worker = nullptr;
    bool m_cancelRequested = false;
    std::vector<numerics::AmpMode> m_requestedOrder; // setRequest's order, kept while those boxes stay ticked
    std::shared_ptr<const AmpRunSet> m_results;
    std::vector<std::pair<numerics::AmpMode, QCheckBox*>> m_modeBoxes;
    // Checked as typed, like the explorer's (viz/common/validated_field.h): marked with their range,
    // never clamped; Run waits until all are valid, and the figures keep the last run meanwhile.
    ValidatedField* m_stepsField = nullptr;
    ValidatedField* m_seedField = nullptr;
    ValidatedField* m_growthField = nullptr;
    ValidatedField* m_scaleField = nullptr;
    AmpRunRequest m_lastValid;       // the fields' last valid values
    QString m_statusBeforeErrors;    // restored when the fields are valid again
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;

    QGridLayout* m_figures = nullptr;
    bool m_wide = true;
    AmpLossPlot* m_lossPlot = nullptr;
    AmpScalePlot* m_scalePlot = nullptr;
    QWidget* m_histogramBox = nullptr;
    AmpHistogramPlot* m_histogramPlot = nullptr;
    QComboBox* m_histogramModeCombo = nullptr;
    QSlider* m_stepSlider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QCheckBox* m_exactBox = nullptr;
    QCheckBox* m_scaledBox = nullptr;
    QLabel* m_underflowLabel = nullptr;
    QWidget* m_tableBox = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace warpscope::viz
