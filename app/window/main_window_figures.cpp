// The lesson leads, the window follows (split from main_window.cpp): a lesson's home figure is set
// up when it opens and each section's figure when the reader reaches it; a view that lives in a dock
// (occupancy, profile, number formats, precision lab, performance models, study) takes the centre,
// docks the figure does not use are hidden, and View > Pin Layout keeps the learner's own arrangement
// instead (remembered between sessions).
#include "window/main_window.h"

#include "execution/execution_panel.h"
#include "gpu/gpu_preset.h"
#include "occupancy/occupancy.h"
#include "occupancy/occupancy_panel.h"
#include "ptx/ptx_ir.h"
#include "ptx/sass.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QTabBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <utility>

namespace warpscope::app {

namespace {

const QString kPinnedKey = QStringLiteral("window/layoutPinned");

} // namespace

void MainWindow::buildCentreHost()
{
    // The page a docked view's panel moves to when it takes the centre; its tab is named after the dock.
    m_centreHost = new QWidget(m_centralStack);
    m_centreHost->setObjectName(QStringLiteral("centreHost"));
    auto* layout = new QVBoxLayout(m_centreHost);
    layout->setContentsMargins(0, 0, 0, 0);
    m_centralStack->addWidget(m_centreHost);
    m_viewTabs->addTab(QString());
    m_viewTabs->setTabVisible(static_cast<int>(CanvasView::DockView), false);

    m_sectionTimer = new QTimer(this);
    m_sectionTimer->setSingleShot(true);
    m_sectionTimer->setInterval(250); // once the reader stops scrolling, not at every wheel step
    connect(m_sectionTimer, &QTimer::timeout, this, &MainWindow::followLessonSection);
}

void MainWindow::connectLessonSections()
{
    connect(m_lessonView->verticalScrollBar(), &QScrollBar::valueChanged, m_sectionTimer,
            qOverload<>(&QTimer::start));
}

QDockWidget* MainWindow::centreDock() const { return m_centreDock; }

QList<QDockWidget*> MainWindow::dockedViews() const
{
    return {m_occupancyDock, m_profileDock, m_formatsDock, m_labDock, m_studyDock, m_modelsDock};
}

QWidget* MainWindow::centralFigure() const
{
    switch (canvasView()) {
    case CanvasView::Execution: return m_execution->canvasWidget();
    case CanvasView::DockView: return m_centreHost;
    case CanvasView::Hierarchy:
    case CanvasView::Placement: break;
    }
    return m_canvasWidget;
}

void MainWindow::setLayoutPinned(bool pinned)
{
    if (m_pinLayoutAction->isChecked() != pinned)
        m_pinLayoutAction->setChecked(pinned); // toggled -> here again
    if (m_layoutPinned == pinned)
        return;
    m_layoutPinned = pinned;
    if (m_options.restoreSettings)
        QSettings().setValue(kPinnedKey, pinned);
    if (!pinned) {
        // Back to the lesson's lead: its figure where the reader is, in the window's own arrangement.
        arrangeDocksForFigure();
        m_appliedFigure.clear();
        followLessonSection();
    }
}

void MainWindow::restorePinnedLayout()
{
    m_layoutPinned = QSettings().value(kPinnedKey, m_layoutPinned).toBool();
    m_pinLayoutAction->setChecked(m_layoutPinned);
}

void MainWindow::presentDockView(QDockWidget* dock)
{
    if (m_layoutPinned && dock != m_centreDock) {
        dock->show();
        dock->raise();
        if (!m_settingLessonFigure)
            widenRightDock(dock); // asked for by the learner: the width the docks share; a lesson keeps the layout
        return;
    }
    moveDockToCentre(dock);
    showCanvasView(CanvasView::DockView);
}

void MainWindow::moveDockToCentre(QDockWidget* dock)
{
    if (m_centreDock == dock)
        return;
    returnCentreToDock();
    QWidget* content = dock->widget();
    auto* placeholder = new QLabel(QStringLiteral("Shown in the centre of the window."), dock);
    placeholder->setAlignment(Qt::AlignCenter);
    dock->setWidget(placeholder);
    content->setParent(m_centreHost);
    m_centreHost->layout()->addWidget(content);
    content->show();
    dock->hide();
    m_centreDock = dock;
    const int tab = static_cast<int>(CanvasView::DockView);
    m_viewTabs->setTabText(tab, dock->windowTitle());
    m_viewTabs->setTabToolTip(tab, QStringLiteral("%1, in the centre while a lesson uses it (View > Pin Layout keeps "
                                                  "the docks where you put them)").arg(dock->windowTitle()));
    m_viewTabs->setTabVisible(tab, true);
}

void MainWindow::returnCentreToDock()
{
    if (!m_centreDock)
        return;
    QDockWidget* dock = std::exchange(m_centreDock, nullptr);
    QLayoutItem* item = m_centreHost->layout()->takeAt(0);
    QWidget* content = item ? item->widget() : nullptr;
    delete item;
    QWidget* placeholder = dock->widget();
    dock->setWidget(content);
    delete placeholder;
    const int tab = static_cast<int>(CanvasView::DockView);
    if (m_viewTabs->currentIndex() == tab)
        m_viewTabs->setCurrentIndex(static_cast<int>(CanvasView::Hierarchy));
    m_viewTabs->setTabVisible(tab, false);
}

void MainWindow::arrangeDocksForFigure()
{
    if (m_layoutPinned || !m_modelsDock)
        return; // pinned, or the window is still being built
    // One figure at a time beside the lesson: the docks on the right are closed (their views come to
    // the centre when a lesson or the View menu asks for them), and the Details line stays only with
    // the Hierarchy and Placement figures, whose launch and selection it describes.
    for (QDockWidget* dock : dockedViews())
        if (!dock->isFloating())
            dock->hide();
    const CanvasView view = canvasView();
    m_detailsDock->setVisible(view == CanvasView::Hierarchy || view == CanvasView::Placement);
    m_lessonDock->show();
    resizeDocks({m_lessonDock}, {lessonWidth()}, Qt::Horizontal);
}

int MainWindow::lessonSectionAtReadingPosition() const
{
    // The section whose "## " heading the reader has scrolled past: above a third of the panel's height.
    // At the top of the lesson, none (the home figure), however close the first heading is.
    const QScrollBar* bar = m_lessonView->verticalScrollBar();
    if (bar->value() <= bar->minimum())
        return -1;
    const qreal line = bar->value() + m_lessonView->viewport()->height() / 3.0;
    QTextDocument* document = m_lessonView->document();
    int section = -1, index = -1;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() != 2)
            continue;
        ++index;
        if (document->documentLayout()->blockBoundingRect(block).top() > line)
            break;
        section = index;
    }
    return section;
}

void MainWindow::followLessonSection()
{
    const Lesson* lesson = m_lessons.find(currentLessonId());
    if (!lesson)
        return;
    m_lessonSection = lessonSectionAtReadingPosition();
    applyLessonFigure(figureAtSection(*lesson, m_lessonSection));
}

void MainWindow::applyLessonFigure(const QString& link)
{
    // Only a change of figure is applied: scrolling within a section keeps what the reader did there.
    if (link.isEmpty() || link == m_appliedFigure)
        return;
    m_appliedFigure = link;
    const QScopedValueRollback setting(m_settingLessonFigure, true);
    openLink(QUrl(link)); // a bad figure was reported when the lesson was loaded; openLink says why too
}

QString MainWindow::appliedLessonFigure() const { return m_appliedFigure; }

void MainWindow::connectDockToggles()
{
    // View > (a dock) while its view is in the centre: the learner wants it docked again.
    for (QDockWidget* dock : dockedViews())
        connect(dock->toggleViewAction(), &QAction::triggered, this, [this, dock](bool checked) {
            if (checked && dock == m_centreDock) {
                returnCentreToDock();
                dock->show();
                dock->raise();
            }
        });
}

void MainWindow::followSteppedLaunch(bool ok)
{
    // One launch: the Hierarchy, Placement and Occupancy figures (and the Details line) describe the
    // launch the Execution view stepped, with the GPU and registers per thread it ran with.
    if (!ok || !m_execution->stepper())
        return;
    const viz::StepperRun& run = m_execution->stepper()->run();
    launch::LaunchShape shape{run.grid, run.block};
    try {
        launch::validateLaunch(shape);
    } catch (const std::exception&) {
        return; // not a launch the figures can draw; the Details line names the stepped one
    }
    const QScopedValueRollback applying(m_applyingLink, true); // not a re-run of the memory view
    occupancy::OccupancyInput input = m_occupancy->inputs();
    input.threadsPerBlock = static_cast<int>(shape.threadsPerBlock());
    // Registers and static shared memory as ptxas reports them for this kernel and GPU (the stepper
    // ran with ptxas's registers unless the explorer's what-if asked for others); without ptxas, the
    // run's assumption, and the explorer says there is no report.
    input.registersPerThread = run.registersPerThread;
    input.staticSharedBytes = run.function ? run.function->staticSharedBytes : 0;
    if (run.ptxas)
        input.staticSharedBytes = static_cast<std::size_t>(run.ptxas->staticSharedBytes);
    input.dynamicSharedBytes = run.dynamicSharedBytes;
    const QString arch = QString::fromLatin1(run.preset.arch.data(), static_cast<qsizetype>(run.preset.arch.size()));
    viz::OccupancyPanel::PtxasCounts counts;
    counts.kernel = QString::fromStdString(run.kernelName);
    counts.arch = arch;
    if (run.ptxas) {
        counts.registers = run.ptxas->registers;
        counts.staticSharedBytes = static_cast<std::size_t>(run.ptxas->staticSharedBytes);
        counts.spills = QString::fromStdString(ptx::describeSpills(*run.ptxas));
    } else {
        counts.problem = QString::fromStdString(run.ptxasProblem);
    }
    m_occupancy->setPtxasCounts(counts);
    const auto preset = gpu::findPreset(run.preset.arch);
    if (preset) {
        try {
            occupancy::validateInput(*preset, input);
            m_occupancy->setInputs(arch, input);
        } catch (const std::exception&) {
            // The explorer keeps its inputs; the launch below still follows.
        }
    }
    setLaunch(shape);
    recordInputs();
}

} // namespace warpscope::app
