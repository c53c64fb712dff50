// The Execution view: pick a demo kernel or type CUDA C++ in the playground (NVRTC compiles it on
// Ctrl+Enter, no GPU needed, errors marked on their lines), choose the launch and the block (fields
// checked as typed and recorded on Enter, on leaving them or after a pause, as every view applies
// its fields), run the simulator on a worker thread (progress, Cancel), then step through the
// recorded block forwards and backwards: by warp-instruction, source line, barrier, memory access,
// divergence or hazard, play at a chosen speed, or scrub the timeline. The CUDA source and the PTX
// follow the current instruction; the canvas (ExecutionScene) shows the warps, the stack, the
// registers and the memory access.
//
// Keys (wherever the focus is while the view is shown; an editable listing keeps Ctrl+Home and
// Ctrl+End): F11 / Shift+F11 one warp-instruction, F10 / Shift+F10 one source line, F9 barrier, F8
// memory, F7 divergence, F6 hazard (Shift goes back; in any warp, then in the launch's other
// blocks, recording them), Ctrl+Home / Ctrl+End the ends, F5 play or pause, Ctrl+Shift+R run
// (record), Ctrl+Shift+M the memory hierarchy (MemoryScene) or the warps on the canvas; Esc (with
// the focus in the view) cancels or pauses. The moves are icons with tooltips; the CUDA, PTX and
// hazard panes collapse (switches, or drag a divider shut) to give the canvas the width. After a
// run, a list shows each distinct hazard of the launch where it first happened (kind, block, warp,
// lanes, line) and how often the launch raised them: choosing one goes there. The playground's
// compiler messages show in a pane under the editor. "Export Timeline for Perfetto…" (a button, the
// canvas's context menu, File menu) writes the timing model's timeline of the launch for
// ui.perfetto.dev.
#pragma once

#include "execution/code_view.h"
#include "execution/execution_scene.h"
#include "execution/step_icons.h"
#include "execution/stepper.h"
#include "kernel_target.h"
#include "memory/memory_scene.h"
#include "sim/launch_fields_check.h"
#include "sim/simulator.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QEvent;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSlider;
class QSplitter;
class QTabBar;
class QTimer;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;
class QVBoxLayout;

namespace warpscope::viz {

// A launch the stepper (or a timeline export) would take longer than this to simulate, estimated
// first, is refused (sim/work_estimate.h).
inline constexpr double kMaxStepperSeconds = 120;
// Every block's instances of the launch's hazards are found by recording each block in turn, for
// launches of at most this many blocks that take at most this long all together (execution_panel_census.cpp).
inline constexpr std::uint64_t kCensusMaxBlocks = 64;
inline constexpr double kCensusMaxSeconds = 5;

class CodeView;
class ImGuiCanvas;
class LabWorker;
class SassPane;
class ValidatedField;

class ExecutionPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExecutionPanel(QWidget* parent = nullptr);
    ~ExecutionPanel() override;

    // The launch to record; empty fields keep the kernel's defaults. Unknown kernel -> false.
    bool selectKernel(const QString& id);                 // a demo id, or "playground"
    void setLaunchFields(const QString& args, const QString& grid, const QString& block, const QString& blockIndex);
    void setPlaygroundSource(const QString& source);
    // How a warp's lanes take turns in the next runs: the reconvergence stack (pre-Volta SIMT, the
    // default) or Volta's independent thread scheduling. Changing it re-records the block.
    void setWarpModel(sim::WarpModel model);
    sim::WarpModel warpModel() const;
    void run();                                           // records the block on the worker
    void focusLaunch();                                   // the grid field, selected (Ctrl+L)
    void cancel();
    bool busy() const;
    // The timing model's timeline of the launch in the fields, traced on the chosen block's SM, as a
    // Perfetto / Chrome trace (timeline_export.h): on the worker with progress and Cancel; the status
    // line says what was written or why not. Refused while a run works.
    void exportTimeline(const QString& path);
    void exportTimelineInteractive();                     // asks where to save, then exportTimeline
    QAction* exportTimelineAction() const { return m_exportTimelineAction; } // "Export Timeline for Perfetto…"

    // Once a run has finished: where to stand. Out-of-range values are clamped by the caller's checks.
    void followWarp(std::int32_t warp);                   // -1 follows every warp
    void seekWarpStep(std::int32_t warp, std::uint32_t step); // before the warp's step-th instruction
    bool step(sim::StepUnit unit, bool forward);            // a hazard: in whichever warp raised it
    // F6 / Shift+F6: the next (previous) hazard of the block, else the launch's in a later (earlier)
    // block, which is recorded first; false (and a status line) when there is none.
    bool goToNextHazard(bool forward);
    // Stands on the launch's hazard `index` (the list's row), recording its block first if needed.
    bool goToLaunchHazard(std::size_t index);
    // Stands on a hazard of the launch, one of a row's instances too: recording its block first if needed.
    bool goToHazard(const sim::Hazard& hazard);
    void setPlaying(bool playing);

    // The canvas shows the warps and registers, or the memory hierarchy (Ctrl+Shift+M toggles).
    void showMemoryView(bool memory);
    bool memoryViewShown() const;
    MemoryScene* memoryScene() const { return m_memoryScene.get(); }
    // The open profile session (not owned; null for none): the memory view compares its bytes.
    void setSession(const session::Session* session);
    // The occupancy explorer's block size and registers per thread. The next run uses the registers
    // for resident blocks; when the memory view shows a 1-D launch of a kernel without shared memory
    // (one whose buffers do not depend on its block size), it re-runs with the new block size and as
    // many threads in all (false, with the reason in the status line when it cannot).
    bool applyOccupancy(int threadsPerBlock, int registersPerThread);
    int registersPerThread() const { return m_registersPerThread; }

    const Stepper* stepper() const { return m_stepper.get(); }
    QString lastError() const { return m_lastError; }      // the last run's or compile's failure, or empty
    QString statusText() const;
    CodeView* sourceView() const { return m_source; }
    CodeView* ptxView() const { return m_ptx; }
    QWidget* canvasWidget() const { return m_canvasWidget; }
    ExecutionScene* scene() const { return m_scene.get(); }
    ImGuiCanvas* canvas() const { return m_canvas.get(); } // its ImGui context holds the last frame's draw data
    QTreeWidget* hazardList() const { return m_hazardList; }      // the launch's hazards, one row each, every block's under it
    // Each distinct hazard's instances in every block (block, then warp order), once the census of a
    // small launch has run; empty lists before or for larger launches.
    const std::vector<std::vector<sim::Hazard>>& hazardInstances() const { return m_instances; }
    bool censusBusy() const;
    QListWidget* compilerMessages() const { return m_diagnostics; } // the playground's, under the editor
    QToolButton* sourceToggle() const { return m_showSource; }    // shows or hides the CUDA pane
    QToolButton* ptxToggle() const { return m_showPtx; }
    QToolButton* sassToggle() const { return m_showSass; }       // shows or hides the SASS pane (hidden at first)
    SassPane* sassPane() const { return m_sass; }                 // what ptxas makes of the stepped PTX
    QToolButton* hazardToggle() const { return m_showHazards; }
    // The launch fields' mistakes, one line each, rebuilt from the fields as they are typed; hidden
    // while every field can be run.
    QLabel* launchFieldErrors() const { return m_fieldErrors; }

signals:
    void runFinished(bool ok);                            // a run delivered (ok) or failed / was cancelled
    void timelineExported(bool ok, const QString& message); // an export wrote its file (ok), or why not
    void positionChanged();

protected:
    void changeEvent(QEvent* event) override;             // repaints the icons in a new palette's colours

private:
    void buildControls();
    // The launch fields (execution_panel_fields.cpp): each is a ValidatedField, checked as typed by
    // sim::checkLaunchFields against the other fields, marked at once, and applied (recorded, when
    // the launch differs from the last one started) on Enter, on leaving it, or after a pause.
    enum class LaunchField { Args, Grid, Block, BlockIndex };
    static constexpr int kSassHeat = 3; // the heat menu's entry after the stepper's three (HeatMetric)
    void buildLaunchFields(QHBoxLayout* kernelRow, QHBoxLayout* launchRow);
    sim::LaunchFieldsCheck checkFields(std::optional<LaunchField> typed = std::nullopt, const QString& text = {}) const;
    void fieldsChecked();                                 // a field's text changed: the others again, the error row
    void fieldsApplied();                                 // a field applied its text: record the launch once
    void applyFieldsNow();
    QStringList launchFieldTexts() const;                 // the kernel, the four fields, the playground's source
    void buildStepRow(QVBoxLayout* layout);
    void buildPanes(QVBoxLayout* layout);
    void paintIcons();                                    // the moves and Play in the palette's text colour
    void updatePanes();                                   // each pane as its switch says
    void syncPaneToggles();                               // each switch as its pane was dragged
    void kernelChanged();
    void compilePlayground();
    void setCompilerMessages(std::vector<CodeView::Marker> markers);
    // Records the block in the fields; `then`: a hazard of that block to stand on once it is recorded.
    void startRun(std::optional<sim::Hazard> then);
    void deliver(std::shared_ptr<StepperRun> run, QString error, std::optional<sim::Hazard> then);
    void fillHazardList();
    // What a GPU does with the hazard where the PTX does not decide it, and the SASS it ran (plain text; empty for none).
    static QString hazardOnTheGpu(const StepperRun& run, const sim::Hazard& hazard);
    void startHazardCensus();                             // every block's hazards, for a small launch
    void deliverCensus(const std::vector<sim::Hazard>& found, const QStringList& key);
    const sim::Hazard* hazardOfItem(QTreeWidgetItem* item) const; // a row's, or an instance's
    // The census's nearest instance in a later (earlier) block: the first (last) by block, then warp.
    const sim::Hazard* nearestInstance(bool forward) const;
    bool hasInstances() const;                            // the census has run for this launch
    void syncFollow();                                    // the warp selector, as the stepper follows
    kernels::TargetRequest launchTarget();                // the kernel and launch in the fields
    std::string blockIndexText() const;
    void refresh();                                       // every view from the stepper's position
    void updateHeat();
    void updateSass();                                    // compiles the run's SASS once it is wanted (pane or heat)
    void showSassHeat();                                  // the heat column from the SASS per line
    void tick();

    QComboBox* m_kernel = nullptr;
    ValidatedField* m_args = nullptr;
    ValidatedField* m_grid = nullptr;
    ValidatedField* m_block = nullptr;
    ValidatedField* m_blockIndex = nullptr;
    QLabel* m_fieldErrors = nullptr;
    bool m_recheckingFields = false;
    bool m_applyQueued = false;
    bool m_enterPressed = false;
    bool m_statusShowsFieldError = false;                 // "Not run: ...": replaced once the fields are fixed
    QStringList m_startedFields;                          // launchFieldTexts() when the last run started
    bool m_runInFlight = false;                           // that run has not delivered yet
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_exportTimelineButton = nullptr;
    QAction* m_exportTimelineAction = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_follow = nullptr;
    QComboBox* m_speed = nullptr;
    QComboBox* m_heat = nullptr;
    QComboBox* m_warpModel = nullptr;                     // stack | ITS (sim::WarpModel)
    QToolButton* m_play = nullptr;
    QSlider* m_timeline = nullptr;
    QLabel* m_position = nullptr;
    QLabel* m_status = nullptr;
    CodeView* m_source = nullptr;
    CodeView* m_ptx = nullptr;
    SassPane* m_sass = nullptr;                           // compiled only while shown (ptxas and nvdisasm)
    bool m_sassStale = true;                              // the run changed since the pane was given its PTX
    QWidget* m_sourceBox = nullptr;                       // the CUDA listing over the compiler's messages
    QListWidget* m_diagnostics = nullptr;
    QWidget* m_hazardPane = nullptr;
    QLabel* m_hazardCaption = nullptr;
    QTreeWidget* m_hazardList = nullptr;
    LabWorker* m_censusWorker = nullptr;
    QStringList m_censusKey;                              // the launch (less its block index) the instances are of
    std::vector<std::vector<sim::Hazard>> m_instances;    // per row of the list: the hazard in every block
    QSplitter* m_split = nullptr;                         // the listings | the canvas
    QSplitter* m_codeSplit = nullptr;                     // CUDA / PTX / SASS / hazards
    QToolButton* m_showSource = nullptr;
    QToolButton* m_showPtx = nullptr;
    QToolButton* m_showSass = nullptr;
    QToolButton* m_showHazards = nullptr;
    struct MoveIcon {
        QAction* action;
        StepGlyph glyph;
        bool forward;
    };
    std::vector<MoveIcon> m_moveIcons;
    std::unique_ptr<ImGuiCanvas> m_canvas;
    std::unique_ptr<ExecutionScene> m_scene;
    std::unique_ptr<MemoryScene> m_memoryScene;
    QTabBar* m_canvasTabs = nullptr;
    int m_registersPerThread = 32;                        // the last run's, or the explorer's what-if
    bool m_registersFromExplorer = false;                 // the explorer changed them: the next run of this kernel uses them, not ptxas's
    QWidget* m_canvasWidget = nullptr;
    LabWorker* m_worker = nullptr;
    QTimer* m_timer = nullptr;
    std::unique_ptr<Stepper> m_stepper;
    QString m_playgroundSource;
    QString m_lastError;
    bool m_updatingTimeline = false;
};

} // namespace warpscope::viz
