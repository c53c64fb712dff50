// The occupancy explorer: kernel launch inputs for a GPU preset, the theoretical occupancy that
// cuda_occupancy.h computes from them with every limiter, and plots of how occupancy changes as
// block size, registers and shared memory vary (like Nsight Compute's occupancy graphs).
#pragma once

#include "occupancy/occupancy.h"
#include "occupancy/occupancy_sweep.h"

#include <QString>
#include <QWidget>

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QBoxLayout;
class QComboBox;
class QEvent;
class QGridLayout;
class QLabel;
class QMouseEvent;
class QResizeEvent;
class QTimer;
class QCustomPlot;
class QCPGraph;
class QCPColorMap;
class QCPColorScale;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPTextElement;

namespace warpscope::viz {

class ValidatedField;

class OccupancyPanel : public QWidget {
    Q_OBJECT
public:
    // Builds the controls and plots and computes the default inputs on sm_90 (H100).
    explicit OccupancyPanel(QWidget* parent = nullptr);

    // Sets every input (updates the controls without feedback loops) and recomputes once.
    void setInputs(const QString& arch, const occupancy::OccupancyInput& input);
    // The preset arch the inputs refer to, "sm_90".
    QString arch() const;
    // The inputs the last successful recompute used (the figure's), not a field's invalid text.
    occupancy::OccupancyInput inputs() const;
    // The last successful result: while a field is invalid it stays, marked stale (stale()).
    const std::optional<occupancy::OccupancyResult>& result() const;
    // True while a field holds an invalid value: the result and plots show inputs() instead.
    bool stale() const { return m_stale; }
    // A line above the fields naming the launch these inputs describe (the window's); empty hides it.
    void setLaunchNote(const QString& note);
    QString launchNote() const;
    // Where a kernel's registers per thread and static shared memory come from: ptxas -v for one GPU.
    struct PtxasCounts {
        QString kernel, arch;               // "matmul_tiled", "sm_90"
        int registers = -1;                 // -1: no report (problem says why)
        std::size_t staticSharedBytes = 0;
        QString spills;                     // "no spills", or the spill stores and loads (local-memory traffic)
        QString problem;                    // why ptxas gave no report (ptxas missing, the PTX rejected)
    };
    // A line under the fields says whether the inputs are ptxas's for that kernel, or the user's own;
    // nullopt hides it.
    void setPtxasCounts(std::optional<PtxasCounts> counts);
    QString ptxasNote() const;

signals:
    // After every recompute that succeeded (the placement view and the status bar listen).
    void resultChanged(const QString& arch, const warpscope::occupancy::OccupancyResult& result);

protected:
    // Restyles the plots and labels when the application switches between light and dark.
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override; // one column of fields and plots when narrow

private:
    // One of the three "active warps vs one input" plots.
    struct SweepPlot {
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        QCPGraph* graph = nullptr;
        QCPItemTracer* marker = nullptr;
        QCPItemStraightLine* markerLine = nullptr;
        double xScale = 1.0;                  // sweep x (threads, registers, bytes) per axis unit
        QString (*describeX)(int x) = nullptr; // "256 threads per block", for hover tooltips
        std::vector<occupancy::SweepPoint> points;
        QString sweptFor; // the inputs `points` were swept with, to skip identical sweeps
    };

    struct HeatmapPlot {
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        QCPColorMap* map = nullptr;
        QCPColorScale* scale = nullptr;
        QCPItemTracer* markerCross = nullptr;
        QCPItemTracer* markerRing = nullptr;
        occupancy::OccupancyGrid grid;
        QString sweptFor;
    };

    QWidget* buildControls();
    QWidget* buildResultArea();
    QWidget* buildPlots();
    void initSweepPlot(SweepPlot& sweep, const QString& title, const QString& xLabel);
    void initHeatmap();

    void applyPresetLimits();
    void syncControlsFromInput();
    // The inputs the fields hold now, or nullopt with the bad fields marked (the rule across fields too).
    std::optional<occupancy::OccupancyInput> readFields();
    void fieldsEdited(); // a value was applied: recompute from the fields if every one is valid
    void recompute();
    void showResult();
    void showError(const QString& message);
    void setStale(bool stale);
    void setResultVisible(bool visible);
    void rebuildPlots();
    void rebuildSweep(SweepPlot& sweep, const QString& key, double currentX, double currentY,
                      const std::function<std::vector<occupancy::SweepPoint>()>& sweepFunction);
    void rebuildHeatmap();
    void applyPlotStyle();

    void hoverSweep(const SweepPlot& sweep, QMouseEvent* event) const;
    // (row, column) of the heatmap grid under the mouse; nullopt outside the plot or without data.
    std::optional<std::pair<std::size_t, std::size_t>> heatmapCellAt(QMouseEvent* event) const;
    void hoverHeatmap(QMouseEvent* event) const;

    std::optional<gpu::GpuPreset> currentPreset() const;

    QString m_arch;
    occupancy::OccupancyInput m_input;
    std::optional<occupancy::OccupancyResult> m_result;

    QComboBox* m_presetCombo = nullptr;
    ValidatedField* m_blockField = nullptr;
    ValidatedField* m_registersField = nullptr;
    ValidatedField* m_staticSharedField = nullptr;
    ValidatedField* m_dynamicSharedField = nullptr;
    ValidatedField* m_carveoutField = nullptr;
    ValidatedField* m_barriersField = nullptr;
    bool m_stale = false;
    QLabel* m_staleLabel = nullptr;     // says the figure shows the last valid inputs, and which

    QLabel* m_summaryLabel = nullptr;
    QLabel* m_limitedByLabel = nullptr;
    QLabel* m_lanesLabel = nullptr;      // threads on lanes: a partial last warp's idle lanes still take a slot
    QLabel* m_errorLabel = nullptr;
    QWidget* m_limiterTable = nullptr;
    std::array<QLabel*, 5> m_limiterNames{};
    std::array<QLabel*, 5> m_limiterValues{};
    QLabel* m_explanationLabel = nullptr;
    QLabel* m_footnoteLabel = nullptr;
    QLabel* m_launchNote = nullptr;
    QLabel* m_ptxasNote = nullptr;           // whose registers: ptxas's for the stepped kernel, or the user's
    std::optional<PtxasCounts> m_ptxasCounts;
    void updatePtxasNote();
    QBoxLayout* m_fieldColumns = nullptr; // launch and shared memory fields: side by side, or stacked
    QGridLayout* m_plotGrid = nullptr;    // the four plots: 2 x 2, or one column
    bool m_narrow = false;
    void arrangeForWidth(int width);

    SweepPlot m_blockPlot;
    SweepPlot m_registersPlot;
    SweepPlot m_sharedPlot;
    HeatmapPlot m_heatmap;
    QTimer* m_plotTimer = nullptr;
};

} // namespace warpscope::viz
