// The Warpscope window: lessons on the left, the canvas (hierarchy / placement scenes) or the
// execution view (the stepper) in the centre with the launch controls above it, the occupancy explorer, the profiler, the number-format
// explorer, the precision lab (mixed-precision trainer, quantization, 2:4 sparsity: one dock, three
// tabs), the performance models (streams, pipeline, memory budget, all-reduce: one dock, four tabs)
// and a details panel in docks. Lesson links (warpscope:...) drive all of them
// through openLink().
#pragma once

#include "launch/launch_geometry.h"
#include "lessons/lesson_library.h"
#include "window/input_history.h"
#include "window/shortcut_list.h"
#include "window/view_help.h"

#include <QDialog>
#include <QList>
#include <QMainWindow>
#include <QPointer>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QLineEdit;
class QListWidget;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTabWidget;
class QTextBrowser;
class QTimer;
class QToolButton;
class QUrl;

namespace warpscope::viz {
class AmpPanel;
class ExecutionPanel;
class HierarchyScene;
class FormatExplorerPanel;
class ImGuiCanvas;
class ModelsDock;
class OccupancyPanel;
class PlacementScene;
class QuantPanel;
class ValidatedField;
class SparsityPanel;
enum class ModelsTab;
} // namespace warpscope::viz

namespace warpscope::app {

class ProfilePanel;
class ProgressStore;
class StudyDock;
struct SearchEntry;
struct ViewLink;
enum class StudyTab;

// The central view tabs; DockView is a docked view's panel that took the centre (its tab is named after it).
enum class CanvasView { Hierarchy = 0, Placement = 1, Execution = 2, DockView = 3 };
enum class PrecisionLabTab { MixedPrecision = 0, Quantization = 1, Sparsity = 2 }; // the Precision Lab dock's tabs

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool restoreSettings = true; // false for screenshots and tests: a fixed, default layout
        QString progressFile;        // study progress; empty: the user's data folder, or in memory only
                                     // when restoreSettings is false
        bool pinnedLayout = false;   // start pinned (View > Pin Layout) when no setting says otherwise
    };
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openLesson(const QString& id);                // false when unknown; sets up the lesson's home figure
    QString currentLessonId() const;
    // The lesson leads (main_window_figures.cpp): its figures take the centre and unused docks close,
    // unless the learner pinned the layout (View > Pin Layout, remembered).
    void setLayoutPinned(bool pinned);
    bool layoutPinned() const { return m_layoutPinned; }
    QAction* pinLayoutAction() const { return m_pinLayoutAction; }
    QDockWidget* centreDock() const;                   // the dock whose view is in the centre, or null
    QString appliedLessonFigure() const;               // the lesson figure last set up ("warpscope:...")
    void followLessonSection();                        // set up the figure of the section the reader has reached
    QTextBrowser* lessonView() const { return m_lessonView; }
    void showCanvasView(CanvasView view);
    CanvasView canvasView() const;
    void focusOccupancy();                             // raise and widen the occupancy dock
    void focusProfiler();                              // raise and widen the profile dock
    void focusFormats();                               // raise and widen the number-format dock
    void focusPrecisionLab(PrecisionLabTab tab);       // raise and widen the precision lab on one tab
    PrecisionLabTab precisionLabTab() const;
    void focusModels(viz::ModelsTab tab);              // raise and widen the performance models on one tab
    int rightDockWidth() const;                        // the width every dock on the right gets when raised by menu or link
    viz::ModelsTab modelsTab() const;
    bool precisionLabBusy() const;                     // a training or quantization is running or queued
    void setLaunch(const launch::LaunchShape& shape);  // must be valid
    const launch::LaunchShape& launchShape() const { return m_launch; }

    // Applies a warpscope: link. On bad input it changes nothing, shows the message and returns it.
    std::optional<QString> openLink(const QUrl& url);
    // What `warpscope ARG` and the desktop entry pass: a warpscope: link, a session file (.wsprof) as
    // a path or a file: URL. The one-line message on bad input, or nullopt.
    std::optional<QString> openArgument(const QString& argument);
    QString lastMessage() const { return m_lastMessage; }

    viz::OccupancyPanel* occupancyPanel() const { return m_occupancy; }
    ProfilePanel* profilePanel() const { return m_profile; }
    viz::FormatExplorerPanel* formatExplorer() const { return m_formats; }
    viz::AmpPanel* ampPanel() const { return m_amp; }
    viz::QuantPanel* quantPanel() const { return m_quant; }
    viz::SparsityPanel* sparsityPanel() const { return m_sparsity; }
    viz::ModelsDock* modelsDock() const { return m_models; }
    StudyDock* studyDock() const { return m_study; }
    ProgressStore* progressStore() const { return m_progressStore; }
    void focusStudy(StudyTab tab);
    std::vector<SearchEntry> studySearchEntries() const; // what Ctrl+K searches
    void openSearchResult(const SearchEntry& entry);
    viz::ExecutionPanel* executionPanel() const { return m_execution; }
    viz::HierarchyScene* hierarchyScene() const { return m_hierarchy.get(); }
    viz::PlacementScene* placementScene() const { return m_placement.get(); }
    QWidget* canvasWidget() const { return m_canvasWidget; }
    QWidget* centralFigure() const;                    // what the centre shows now: the canvas, the stepper's or a docked view's
    const LessonLibrary& lessons() const { return m_lessons; }

    // Help for the view `widget` belongs to (the central view shown when it belongs to none); F1
    // shows it for the focused widget.
    HelpTopic helpTopicFor(const QWidget* widget) const;
    ViewHelp viewHelpFor(const QWidget* widget) const;
    void showViewHelp();
    // Every key of the menus and views, collected from their actions now (Help > Keyboard Shortcuts).
    std::vector<ShortcutEntry> shortcutEntries() const;
    void showShortcuts();
    QDialog* viewHelpDialog() const { return m_viewHelpDialog; }
    // The Details dock folded to its title bar, or showing its lines (main_window_layout.cpp).
    void setDetailsFolded(bool folded);
    bool detailsFolded() const;
    ShortcutsDialog* shortcutsDialog() const { return m_shortcutsDialog; }

    // Edit > Undo / Redo (Ctrl+Z, Ctrl+Shift+Z): the launch and the explorer's inputs, step by step.
    InputSnapshot inputSnapshot() const;
    InputHistory* inputHistory() const { return m_inputHistory; }
    void undoInputs();
    void redoInputs();
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override; // undo keys inside the input fields

private:
    static constexpr int kLessonMinimumWidth = 260; // the least a dock beside may leave the lesson (the window fits 1100 px)
    int lessonWidth() const;                             // the lesson panel's width for this window
    void widenRightDock(QDockWidget* dock); // give a right dock rightDockWidth(), keeping the lesson readable

    void buildCanvasArea();
    void buildCentreHost();
    void connectLessonSections();
    void restorePinnedLayout();
    QList<QDockWidget*> dockedViews() const; // the docks on the right whose views may take the centre
    void presentDockView(QDockWidget* dock);  // a docked view asked for: the centre, or its dock when pinned
    void moveDockToCentre(QDockWidget* dock);
    void returnCentreToDock();
    void arrangeDocksForFigure();             // close the docks the central figure does not use (unless pinned)
    int lessonSectionAtReadingPosition() const; // -1: the lesson's top
    void applyLessonFigure(const QString& link);
    void connectDockToggles();
    void followSteppedLaunch(bool ok);        // the shared launch becomes the stepped one
    void buildDocks();
    void buildMenus();
    void buildDetailsTitleBar();
    int detailsHeight() const;   // the Details dock's title bar and text at its width
    void keepDockTabsReadable(); // whole dock titles in the tabs, with scroll arrows when needed
    void wrapLessonCode();       // the lesson's code blocks wrap instead of scrolling sideways
    void buildEditMenu();
    void startInputHistory();                                // once the window's inputs are set
    void recordInputs(const QString& text = {});             // the inputs changed: a step (unless undoing)
    void applyInputSnapshot(const InputSnapshot& snapshot);  // an undo or redo
    bool inputsHaveUnappliedEdits() const;                   // a launch or explorer field holds an invalid value
    void updateUndoActions();
    void restoreLayout();
    void showMessage(const QString& message, bool error);
    void applyLaunchFields();
    void updatePlacement();
    void updateDetails();
    void showAbout();
    void saveScreenshotInteractive();
    void buildProfileMenu();
    void openSessionInteractive();
    void saveSessionInteractive();
    void openBaselineInteractive();
    void updateProfileActions();
    void buildPrecisionLabDock();
    void buildStudyDock();
    void buildModelsDock();
    void applyModelLink(const ViewLink& link, const QUrl& url);
    void applyProfileLink(const ViewLink& link, const QUrl& url);
    void buildStudyMenu();
    void openStudySearch();
    void applyPrecisionLabLink(const ViewLink& link, const QUrl& url);
    void applyStepLink(const ViewLink& link, const QUrl& url);
    void applyPendingStep(bool ok);

    Options m_options;
    LessonLibrary m_lessons;
    launch::LaunchShape m_launch{{4, 2, 1}, {96, 1, 1}};
    std::unique_ptr<viz::ImGuiCanvas> m_canvas;
    std::unique_ptr<viz::HierarchyScene> m_hierarchy;
    std::unique_ptr<viz::PlacementScene> m_placement;
    QWidget* m_canvasWidget = nullptr;
    viz::ExecutionPanel* m_execution = nullptr;
    QScrollArea* m_executionScroll = nullptr;
    QStackedWidget* m_centralStack = nullptr;
    QWidget* m_launchFields = nullptr;
    QTabBar* m_viewTabs = nullptr;
    viz::ValidatedField* m_gridField = nullptr;   // checked as typed; a bad value is marked in place
    viz::ValidatedField* m_blockField = nullptr;
    QLabel* m_launchStale = nullptr;              // under the bar: each bad field's message, and that the
                                                  // canvas shows the last valid launch
    QListWidget* m_lessonList = nullptr;
    QTextBrowser* m_lessonView = nullptr;
    QLabel* m_messageBanner = nullptr;
    QLabel* m_details = nullptr;
    QToolButton* m_detailsFold = nullptr;
    viz::OccupancyPanel* m_occupancy = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QDockWidget* m_occupancyDock = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QDockWidget* m_profileDock = nullptr;
    ProfilePanel* m_profile = nullptr;
    QDockWidget* m_formatsDock = nullptr;
    viz::FormatExplorerPanel* m_formats = nullptr;
    QDockWidget* m_labDock = nullptr;
    QTabWidget* m_labTabs = nullptr;
    viz::AmpPanel* m_amp = nullptr;
    viz::QuantPanel* m_quant = nullptr;
    viz::SparsityPanel* m_sparsity = nullptr;
    QDockWidget* m_studyDock = nullptr;
    QDockWidget* m_modelsDock = nullptr;
    viz::ModelsDock* m_models = nullptr;
    StudyDock* m_study = nullptr;
    ProgressStore* m_progressStore = nullptr;
    QString m_pendingStudyMessage;            // a damaged progress file, said once the window is up
    QMenu* m_recordedMenu = nullptr;
    QAction* m_saveSessionAction = nullptr;
    QAction* m_exportSessionAction = nullptr;
    QAction* m_profileAction = nullptr;
    QAction* m_cancelProfileAction = nullptr;
    QAction* m_setBaselineAction = nullptr;
    QAction* m_clearBaselineAction = nullptr;
    QString m_lastMessage;
    QPointer<QDialog> m_viewHelpDialog;
    InputHistory* m_inputHistory = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    bool m_settingInputs = false;             // an undo or the launch bar is setting inputs: one step, recorded after
    QPointer<ShortcutsDialog> m_shortcutsDialog;
    struct PendingStep {
        int warp = 0;
        std::uint64_t at = 0;
        QString where;                    // "link '...': " for messages
    };
    std::optional<PendingStep> m_pendingStep; // a step link waiting for its block to be recorded
    // The explorer's block size and registers as last seen: only a change of these re-runs the
    // memory view, and not while a link sets them.
    int m_explorerThreads = 0, m_explorerRegisters = 0;
    bool m_applyingLink = false;
    // The lesson-led layout (main_window_figures.cpp).
    QWidget* m_centreHost = nullptr;
    QDockWidget* m_centreDock = nullptr;
    QAction* m_pinLayoutAction = nullptr;
    bool m_layoutPinned = false;
    QTimer* m_sectionTimer = nullptr;
    int m_lessonSection = -1;
    QString m_appliedFigure;
    bool m_settingLessonFigure = false;
};

} // namespace warpscope::app
