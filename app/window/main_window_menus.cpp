// The menu bar: File, View, Lessons, Help and Profile, with their shortcuts. Split from
// main_window.cpp; the Study menu is built in main_window_study.cpp.
#include "window/main_window.h"

#include "canvas/imgui_canvas.h"
#include "common/validated_field.h"
#include "execution/execution_panel.h"
#include "models/models_dock.h"
#include "profile/profile_format.h"
#include "profile/profile_panel.h"
#include "profile/session_file.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QKeySequence>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace warpscope::app {

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* openSession = file->addAction(QStringLiteral("&Open Session..."), this, &MainWindow::openSessionInteractive);
    openSession->setShortcut(QKeySequence::Open);
    m_recordedMenu = file->addMenu(QStringLiteral("Open &Recorded Session"));
    const auto& recorded = m_profile->recordedSessions();
    if (recorded.isEmpty()) {
        QAction* none = m_recordedMenu->addAction(noRecordedSessionsText());
        none->setEnabled(false);
    }
    // A section per GPU, driver and date; each entry says what the session holds.
    QString origin;
    for (int i = 0; i < recorded.size(); ++i) {
        if (recorded.at(i).origin != origin) {
            origin = recorded.at(i).origin;
            m_recordedMenu->addSection(QString(origin).replace(QLatin1Char('&'), QStringLiteral("&&"))); // text from the session, no mnemonic
        }
        QAction* open = m_recordedMenu->addAction(QString(recorded.at(i).item).replace(QLatin1Char('&'), QStringLiteral("&&")), this, [this, i] {
            focusProfiler();
            m_profile->openRecordedSession(i);
        });
        open->setStatusTip(recorded.at(i).label);
        open->setToolTip(viz::profile::plainToolTip(recorded.at(i).label)); // session text is never rich text
    }
    m_recordedMenu->setToolTipsVisible(true);
    QAction* importNcu = file->addAction(QStringLiteral("&Import Nsight Compute CSV..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Import Nsight Compute CSV"), QString(),
                                                          QStringLiteral("Nsight Compute CSV (*.csv);;All files (*)"));
        if (path.isEmpty())
            return;
        focusProfiler();
        m_profile->importNcuCsv(path); // a malformed file is named, with its line, in the Profile panel
    });
    importNcu->setStatusTip(QStringLiteral("Open what ncu --csv --metrics ... (or ncu --import X.ncu-rep --csv --page raw) "
                                           "printed as a session: metrics table, bandwidth and roofline"));
    m_saveSessionAction = file->addAction(QStringLiteral("Save Session &As..."), this, &MainWindow::saveSessionInteractive);
    m_saveSessionAction->setShortcut(QKeySequence::Save);
    m_exportSessionAction = file->addAction(QStringLiteral("&Export Session (Perfetto Trace or CSV)..."), this, [this] {
        if (!m_profile->hasSession())
            return;
        const QString path = QFileDialog::getSaveFileName(
            this, QStringLiteral("Export Session"), QStringLiteral("session.json"),
            QStringLiteral("Perfetto / Chrome trace of the measured runs (*.json);;Metrics as CSV (*.csv)"));
        if (path.isEmpty())
            return;
        if (const auto error = exportSession(path, m_profile->session()))
            showMessage(*error, true);
        else
            statusBar()->showMessage(QStringLiteral("Exported %1").arg(path), 8000);
    });
    file->addAction(QStringLiteral("Export &Timeline for Perfetto..."), this, [this] {
        showCanvasView(CanvasView::Execution); // the launch in the Execution view's fields
        m_execution->exportTimelineInteractive();
    })->setStatusTip(QStringLiteral("The timing model's timeline of the Execution view's launch, for ui.perfetto.dev"));
    file->addSeparator();
    QAction* shot = file->addAction(QStringLiteral("Save &Screenshot..."), this, &MainWindow::saveScreenshotInteractive);
    shot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    buildEditMenu(); // undo and redo of the launch and explorer inputs (main_window_history.cpp)

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* hierarchy = view->addAction(QStringLiteral("&Hierarchy"), this, [this] { showCanvasView(CanvasView::Hierarchy); });
    hierarchy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction* placement = view->addAction(QStringLiteral("&Placement on SMs"), this, [this] { showCanvasView(CanvasView::Placement); });
    placement->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    QAction* occupancy = view->addAction(QStringLiteral("&Occupancy Explorer"), this, &MainWindow::focusOccupancy);
    occupancy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    QAction* profiler = view->addAction(QStringLiteral("P&rofiler"), this, &MainWindow::focusProfiler);
    profiler->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_4));
    QAction* formats = view->addAction(QStringLiteral("&Number Format Explorer"), this, &MainWindow::focusFormats);
    formats->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_5));
    QAction* amp = view->addAction(QStringLiteral("&Mixed-Precision Trainer"), this,
                                   [this] { focusPrecisionLab(PrecisionLabTab::MixedPrecision); });
    amp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_6));
    QAction* quant = view->addAction(QStringLiteral("&Quantization Lab"), this, [this] { focusPrecisionLab(PrecisionLabTab::Quantization); });
    quant->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_7));
    QAction* sparsity = view->addAction(QStringLiteral("2:4 &Sparsity"), this, [this] { focusPrecisionLab(PrecisionLabTab::Sparsity); });
    sparsity->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_8));
    QAction* execution = view->addAction(QStringLiteral("&Execution (Step Through a Kernel)"), this,
                                         [this] { showCanvasView(CanvasView::Execution); });
    execution->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_9));
    QAction* models = view->addAction(QStringLiteral("Performance Mo&dels"), this, [this] { focusModels(m_models->currentTab()); });
    models->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    models->setToolTip(QStringLiteral("Streams, the pipeline bubble, training memory per GPU and the ring all-reduce"));
    view->addSeparator();
    QAction* fit = view->addAction(QStringLiteral("&Fit Canvas"), this, [this] {
        if (canvasView() == CanvasView::Execution)
            return;
        m_canvas->scene()->resetView();
        m_canvasWidget->update();
    });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* editLaunch = view->addAction(QStringLiteral("Edit &Launch"), this, [this] {
        if (canvasView() == CanvasView::Execution) { // the Execution view has its own launch
            m_execution->focusLaunch();
            return;
        }
        m_gridField->lineEdit()->setFocus();
        m_gridField->lineEdit()->selectAll();
    });
    editLaunch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addSeparator();
    view->addAction(m_lessonDock->toggleViewAction());
    view->addAction(m_occupancyDock->toggleViewAction());
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_profileDock->toggleViewAction());
    view->addAction(m_formatsDock->toggleViewAction());
    view->addAction(m_labDock->toggleViewAction());
    view->addAction(m_studyDock->toggleViewAction());
    view->addAction(m_modelsDock->toggleViewAction());
    m_pinLayoutAction = view->addAction(QStringLiteral("P&in Layout"));
    m_pinLayoutAction->setCheckable(true);
    m_pinLayoutAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_pinLayoutAction->setToolTip(QStringLiteral("Keep the docks where you put them: lessons set up their figures "
                                                 "without moving views to the centre (remembered)"));
    connect(m_pinLayoutAction, &QAction::toggled, this, &MainWindow::setLayoutPinned);
    view->addAction(QStringLiteral("&Reset Layout"), this, [this] {
        returnCentreToDock();
        for (QDockWidget* dock : {m_lessonDock, m_occupancyDock, m_detailsDock, m_profileDock, m_formatsDock, m_labDock, m_studyDock,
                                   m_modelsDock}) {
            dock->setFloating(false);
            dock->show();
        }
        addDockWidget(Qt::RightDockWidgetArea, m_occupancyDock);
        tabifyDockWidget(m_occupancyDock, m_profileDock);
        tabifyDockWidget(m_profileDock, m_formatsDock);
        tabifyDockWidget(m_formatsDock, m_labDock);
        tabifyDockWidget(m_labDock, m_studyDock);
        tabifyDockWidget(m_studyDock, m_modelsDock);
        m_occupancyDock->raise();
        resizeDocks({m_lessonDock, m_occupancyDock}, {lessonWidth(), 500}, Qt::Horizontal);
    });

    buildProfileMenu();

    QMenu* lessons = menuBar()->addMenu(QStringLiteral("&Lessons"));
    QAction* previous = lessons->addAction(QStringLiteral("&Previous Lesson"), this, [this] {
        m_lessonList->setCurrentRow(std::max(0, m_lessonList->currentRow() - 1));
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    QAction* next = lessons->addAction(QStringLiteral("&Next Lesson"), this, [this] {
        m_lessonList->setCurrentRow(std::min(m_lessonList->count() - 1, m_lessonList->currentRow() + 1));
    });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    lessons->addSeparator();
    for (const Lesson& lesson : m_lessons.lessons()) {
        const QString id = lesson.id;
        lessons->addAction(lesson.title, this, [this, id] { openLesson(id); });
    }

    buildStudyMenu();

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    QAction* viewHelp = help->addAction(QStringLiteral("&Help for This View"), this, &MainWindow::showViewHelp);
    viewHelp->setShortcut(QKeySequence::HelpContents); // F1: what the focused view shows and its lesson
    QAction* keys = help->addAction(QStringLiteral("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(QStringLiteral("&About Warpscope"), this, &MainWindow::showAbout);
    help->addAction(QStringLiteral("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::buildProfileMenu()
{
    QMenu* profile = menuBar()->addMenu(QStringLiteral("&Profile"));
    m_profileAction = profile->addAction(QStringLiteral("&Profile Kernel"), this, [this] {
        focusProfiler();
        m_profile->startProfile();
    });
    m_profileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_profileAction->setToolTip(QStringLiteral("Run warpscope-probe on the GPU for the kernel chosen in the Profile panel"));
    m_cancelProfileAction = profile->addAction(QStringLiteral("&Cancel Profiling"), m_profile, &ProfilePanel::cancelProfile);
    m_cancelProfileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    profile->addSeparator();
    m_setBaselineAction = profile->addAction(QStringLiteral("Set as &Baseline"), this, [this] {
        if (m_profile->setCurrentAsBaseline())
            statusBar()->showMessage(QStringLiteral("The shown session is now the baseline; open or profile another to compare"), 8000);
    });
    m_setBaselineAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    profile->addAction(QStringLiteral("Open Baseline &Session..."), this, &MainWindow::openBaselineInteractive);
    m_clearBaselineAction = profile->addAction(QStringLiteral("C&lear Baseline"), m_profile, &ProfilePanel::clearBaseline);
    updateProfileActions();
}

void MainWindow::updateProfileActions()
{
    const bool running = m_profile->isProfiling();
    m_profileAction->setEnabled(!running);
    m_cancelProfileAction->setEnabled(running);
    m_saveSessionAction->setEnabled(m_profile->hasSession());
    m_exportSessionAction->setEnabled(m_profile->hasSession());
    m_setBaselineAction->setEnabled(m_profile->hasSession());
    m_clearBaselineAction->setEnabled(m_profile->hasBaseline());
}

} // namespace warpscope::app
