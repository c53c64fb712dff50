#include "window/main_window.h"

#include "common/export_actions.h"
#include "canvas/canvas_widget.h"
#include "canvas/imgui_canvas.h"
#include "common/validated_field.h"
#include "execution/execution_panel.h"
#include "links/view_link.h"
#include "numerics/quant_config.h"
#include "occupancy/occupancy.h"
#include "precision/amp/amp_panel.h"
#include "formats/format_explorer_panel.h"
#include "models/models_dock.h"
#include "occupancy/occupancy_panel.h"
#include "precision/quant/quant_panel.h"
#include "precision/sparsity/sparsity_panel.h"
#include "profile/profile_format.h"
#include "ptx/ptx_ir.h"
#include "profile/profile_panel.h"
#include "hierarchy/hierarchy_scene.h"
#include "lessons/lesson_measurements.h"
#include "placement/placement_scene.h"
#include "util/input_error.h"
#include "util/parse.h"
#include "window/about_text.h"
#include "window/save_image.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace warpscope::app {

namespace {

QString dimText(const launch::Dim3& d)
{
    return QStringLiteral("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z);
}

} // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), m_options(options), m_lessons(LessonLibrary::load())
{
    setWindowTitle(QStringLiteral("Warpscope"));
    setObjectName(QStringLiteral("WarpscopeMainWindow"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_canvas = std::make_unique<viz::ImGuiCanvas>();
    m_hierarchy = std::make_unique<viz::HierarchyScene>();
    m_placement = std::make_unique<viz::PlacementScene>();
    m_hierarchy->onSelectionChanged = [this](const auto&) { updateDetails(); };

    buildCanvasArea();
    buildDocks();
    connectLessonSections();
    buildStudyDock();
    buildModelsDock();
    buildMenus();
    connectDockToggles();
    statusBar()->showMessage(QStringLiteral("Ready"));

    connect(m_occupancy, &viz::OccupancyPanel::resultChanged, this,
            [this](const QString&, const occupancy::OccupancyResult& result) {
                // The explorer's block size is the launch's thread count: keep them in step.
                if (result.input.threadsPerBlock != m_launch.threadsPerBlock()) {
                    launch::LaunchShape shape = m_launch;
                    shape.block = {result.input.threadsPerBlock, 1, 1};
                    m_launch = shape;
                    m_blockField->setText(QString::fromStdString(launch::formatDim3(shape.block)));
                    m_hierarchy->setLaunch(shape);
                }
                updatePlacement();
                updateDetails();
                m_canvasWidget->update();
            });

    connect(m_execution, &viz::ExecutionPanel::runFinished, this, &MainWindow::followSteppedLaunch);
    connect(m_execution, &viz::ExecutionPanel::runFinished, this, &MainWindow::applyPendingStep);
    // The memory view compares with the open session, and re-runs for the explorer's block size.
    connect(m_profile, &ProfilePanel::stateChanged, this,
            [this] { m_execution->setSession(m_profile->hasSession() ? &m_profile->session() : nullptr); });
    m_explorerThreads = m_occupancy->inputs().threadsPerBlock;
    m_explorerRegisters = m_occupancy->inputs().registersPerThread;
    connect(m_occupancy, &viz::OccupancyPanel::resultChanged, this,
            [this](const QString&, const occupancy::OccupancyResult& result) {
                const bool changed = result.input.threadsPerBlock != m_explorerThreads ||
                                     result.input.registersPerThread != m_explorerRegisters;
                m_explorerThreads = result.input.threadsPerBlock;
                m_explorerRegisters = result.input.registersPerThread;
                if (changed && !m_applyingLink && canvasView() == CanvasView::Execution)
                    m_execution->applyOccupancy(result.input.threadsPerBlock, result.input.registersPerThread);
            });

    setLaunch(m_launch);
    // Dock tab bars come and go with the layout: each new one shows whole titles (main_window_layout.cpp).
    installEventFilter(this);
    QTimer::singleShot(0, this, &MainWindow::keepDockTabsReadable);
    // 1600 x 1000, or the screen's free area on a smaller one (a 1366 x 768 laptop): never a window
    // whose edges are off the screen.
    QSize size(1600, 1000);
    if (const QScreen* shown = screen())
        size = size.boundedTo(shown->availableGeometry().size());
    resize(size);
    m_layoutPinned = m_options.pinnedLayout;
    m_pinLayoutAction->setChecked(m_layoutPinned);
    if (m_options.restoreSettings)
        restoreLayout();
    arrangeDocksForFigure();
    if (!m_lessons.lessons().isEmpty())
        openLesson(m_lessons.lessons().front().id);
    startInputHistory(); // after the first lesson's figure: a new window has nothing to undo
    if (!m_lessons.problems().isEmpty())
        showMessage(m_lessons.problems().join(QStringLiteral("\n")), true);
    if (!m_pendingStudyMessage.isEmpty())
        showMessage(m_pendingStudyMessage, true);
}

MainWindow::~MainWindow()
{
    // Its stack announces its clearing while the window's actions are still alive; the member is
    // null by then, so updateUndoActions does not reach into the history being destroyed (UBSan).
    delete std::exchange(m_inputHistory, nullptr);
    // The canvas widget renders through m_canvas: destroy it first.
    delete m_canvasWidget;
    m_canvasWidget = nullptr;
}

void MainWindow::buildCanvasArea()
{
    auto* area = new QWidget(this);
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bar = new QWidget(area);
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(6, 4, 6, 4);
    m_viewTabs = new QTabBar(bar);
    m_viewTabs->addTab(QStringLiteral("Hierarchy"));
    m_viewTabs->addTab(QStringLiteral("Placement"));
    m_viewTabs->addTab(QStringLiteral("Execution"));
    m_viewTabs->setToolTip(QStringLiteral("Ctrl+1: hierarchy, Ctrl+2: placement on SMs, Ctrl+9: execution (step through a kernel)"));
    m_viewTabs->setUsesScrollButtons(false);
    m_viewTabs->setExpanding(false);
    barLayout->addWidget(m_viewTabs);
    barLayout->addStretch(1);
    // The hierarchy's and placement's launch; the execution view has its own.
    m_launchFields = new QWidget(bar);
    auto* fieldsLayout = new QHBoxLayout(m_launchFields);
    fieldsLayout->setContentsMargins(0, 0, 0, 0);
    barLayout->addWidget(m_launchFields);
    // Each field is checked as typed and marked under itself with its own range; the canvas keeps the
    // last valid launch, and says so, until both are valid again (viz/common/validated_field.h).
    auto addField = [&, fieldsLayout](const QString& label, const QString& name, const QString& tip,
                                      viz::ValidatedField::Parser parser) {
        auto* caption = new QLabel(label, m_launchFields);
        auto* field = new viz::ValidatedField(name, std::move(parser), m_launchFields);
        field->lineEdit()->setMinimumWidth(52);
        field->lineEdit()->setMaximumWidth(120);
        field->setShowsMessage(false); // too narrow for a sentence: the row under the bar says it
        field->setToolTip(tip);
        caption->setBuddy(field->lineEdit());
        fieldsLayout->addWidget(caption);
        fieldsLayout->addWidget(field);
        // Applied on Enter, on leaving the field or after a pause (valueEdited): typing 100000,70000
        // never applies 100000,7 on the way. The row under the bar follows each key.
        connect(field, &viz::ValidatedField::valueEdited, this, &MainWindow::applyLaunchFields);
        connect(field, &viz::ValidatedField::textChecked, this, [this] {
            if (!m_gridField || !m_blockField)
                return; // still being built
            if (!m_gridField->valid() || !m_blockField->valid())
                applyLaunchFields(); // with a bad field it only says what is wrong; it applies nothing
            else
                m_launchStale->hide();
            updateUndoActions();
        });
        return field;
    };
    m_gridField = addField(QStringLiteral("&Grid"), QStringLiteral("launchGrid"),
                           QStringLiteral("gridDim as x, x,y or x,y,z (x up to 2^31-1, y and z up to 65535)"),
                           [](const QString& text) { return launch::parseGridDim(text.toStdString(), "grid").x; });
    m_blockField = addField(QStringLiteral("&Block"), QStringLiteral("launchBlock"),
                            QStringLiteral("blockDim as x, x,y or x,y,z (x, y up to 1024, z up to 64, "
                                           "at most 1024 threads)"),
                            [](const QString& text) { return launch::parseBlockDim(text.toStdString(), "block").volume(); });
    layout->addWidget(bar);
    m_launchStale = new QLabel(area);
    m_launchStale->setObjectName(QStringLiteral("launchStale"));
    m_launchStale->setWordWrap(true);
    m_launchStale->setContentsMargins(8, 0, 8, 4);
    m_launchStale->hide();
    layout->addWidget(m_launchStale);

    m_centralStack = new QStackedWidget(area);
    m_canvasWidget = viz::createCanvasWidget(*m_canvas, m_centralStack);
    viz::installFigureExport(m_canvasWidget, QStringLiteral("canvas"));
    m_canvasWidget->setObjectName(QStringLiteral("canvas"));
    m_centralStack->addWidget(m_canvasWidget);
    // In a scroll area, so the stepper's controls do not set the central area's minimum width
    // (which would squeeze the docks in the other views); a narrow window scrolls it instead.
    m_executionScroll = new QScrollArea(m_centralStack);
    m_executionScroll->setWidgetResizable(true);
    m_executionScroll->setFrameShape(QFrame::NoFrame);
    m_execution = new viz::ExecutionPanel(m_executionScroll);
    m_executionScroll->setWidget(m_execution);
    m_centralStack->addWidget(m_executionScroll);
    layout->addWidget(m_centralStack, 1);
    setCentralWidget(area);

    buildCentreHost();
    connect(m_viewTabs, &QTabBar::currentChanged, this, [this](int index) {
        const bool execution = index == static_cast<int>(CanvasView::Execution);
        const bool docked = index == static_cast<int>(CanvasView::DockView);
        m_centralStack->setCurrentWidget(execution ? static_cast<QWidget*>(m_executionScroll)
                                         : docked  ? m_centreHost
                                                   : m_canvasWidget);
        m_launchFields->setVisible(!execution && !docked);
        arrangeDocksForFigure();
        updateDetails();
        if (execution) {
            m_execution->setFocus();
            return;
        }
        if (docked)
            return;
        m_canvas->setScene(index == 0 ? static_cast<viz::CanvasScene*>(m_hierarchy.get()) : m_placement.get());
        m_canvasWidget->update();
    });
    m_canvas->setScene(m_hierarchy.get());
}

void MainWindow::buildDocks()
{
    // Lessons: navigator above the text.
    auto* lessons = new QSplitter(Qt::Vertical, this);
    m_lessonList = new QListWidget(lessons);
    for (const Lesson& lesson : m_lessons.lessons()) {
        auto* item = new QListWidgetItem(lesson.title, m_lessonList);
        item->setData(Qt::UserRole, lesson.id);
        item->setToolTip(lesson.title); // the whole name where the panel is too narrow for it
    }
    // Names longer than the panel end in "…" (the whole name on hover), never a sideways scroll bar;
    // up to seven rows show at once.
    m_lessonList->setObjectName(QStringLiteral("lessonList"));
    m_lessonList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lessonList->setTextElideMode(Qt::ElideRight);
    m_lessonList->setWordWrap(false);
    m_lessonList->setUniformItemSizes(true);
    const int rowHeight = std::max(m_lessonList->fontMetrics().height() + 2, m_lessonList->sizeHintForRow(0));
    for (int i = 0; i < m_lessonList->count(); ++i)
        m_lessonList->item(i)->setSizeHint(QSize(1, rowHeight)); // rows as wide as the list, not as their names: longer names elide
    const int listHeight = std::min<int>(7, std::max<int>(1, m_lessonList->count())) * rowHeight + 2 * m_lessonList->frameWidth() + 2;
    m_lessonList->setMinimumHeight(std::min(listHeight, 5 * rowHeight + 2 * m_lessonList->frameWidth() + 2));
    m_lessonList->setMaximumHeight(listHeight);
    auto* textArea = new QWidget(lessons);
    auto* textLayout = new QVBoxLayout(textArea);
    textLayout->setContentsMargins(0, 0, 0, 0);
    m_messageBanner = new QLabel(textArea);
    m_messageBanner->setTextFormat(Qt::PlainText); // it shows links, paths and lesson problems as written
    m_messageBanner->setWordWrap(true);
    m_messageBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageBanner->hide();
    m_lessonView = new QTextBrowser(textArea);
    m_lessonView->setOpenLinks(false);
    m_lessonView->document()->setDocumentMargin(12);
    QFont lessonFont = m_lessonView->font();
    lessonFont.setPointSizeF(lessonFont.pointSizeF() + 1.0);
    m_lessonView->setFont(lessonFont);
    textLayout->addWidget(m_messageBanner);
    textLayout->addWidget(m_lessonView, 1);
    lessons->addWidget(m_lessonList);
    lessons->addWidget(textArea);
    lessons->setStretchFactor(1, 1);
    lessons->setSizes({listHeight, 900});
    lessons->setCollapsible(0, false);
    connect(m_lessonList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_lessons.lessons().size())
            openLesson(m_lessons.lessons().at(row).id);
    });
    connect(m_lessonView, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("warpscope"))
            openLink(url);
        else if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
            QDesktopServices::openUrl(url);
        else if (!url.fragment().isEmpty())
            m_lessonView->scrollToAnchor(url.fragment());
    });

    m_lessonDock = new QDockWidget(QStringLiteral("Lessons"), this);
    m_lessonDock->setObjectName(QStringLiteral("LessonsDock"));
    m_lessonDock->setWidget(lessons);
    lessons->setMinimumWidth(kLessonMinimumWidth); // no dock beside it squeezes a lesson to a column of word pieces
    addDockWidget(Qt::LeftDockWidgetArea, m_lessonDock);

    m_occupancy = new viz::OccupancyPanel(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_occupancy);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_occupancyDock = new QDockWidget(QStringLiteral("Occupancy"), this);
    m_occupancyDock->setObjectName(QStringLiteral("OccupancyDock"));
    m_occupancyDock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, m_occupancyDock);

    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setContentsMargins(8, 0, 8, 4);
    m_details->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum); // its lines, no more
    m_detailsDock = new QDockWidget(QStringLiteral("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("DetailsDock"));
    m_detailsDock->setWidget(m_details);
    buildDetailsTitleBar();
    addDockWidget(Qt::BottomDockWidgetArea, m_detailsDock);

    m_profile = new ProfilePanel(this);
    // In a scroll area, like the occupancy explorer: the form's minimum width must not widen the window.
    auto* profileScroll = new QScrollArea(this);
    profileScroll->setWidget(m_profile);
    profileScroll->setWidgetResizable(true);
    profileScroll->setFrameShape(QFrame::NoFrame);
    m_profileDock = new QDockWidget(QStringLiteral("Profile"), this);
    m_profileDock->setObjectName(QStringLiteral("ProfileDock"));
    m_profileDock->setWidget(profileScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_profileDock);
    tabifyDockWidget(m_occupancyDock, m_profileDock);
    m_occupancyDock->raise();
    connect(m_profile, &ProfilePanel::statusMessage, this, [this](const QString& message) {
        statusBar()->showMessage(message, 10000);
    });
    connect(m_profile, &ProfilePanel::stateChanged, this, &MainWindow::updateProfileActions);

    m_formats = new viz::FormatExplorerPanel(this);
    auto* formatsScroll = new QScrollArea(this);
    formatsScroll->setWidget(m_formats);
    formatsScroll->setWidgetResizable(true);
    formatsScroll->setFrameShape(QFrame::NoFrame);
    m_formatsDock = new QDockWidget(QStringLiteral("Number Formats"), this);
    m_formatsDock->setObjectName(QStringLiteral("FormatsDock"));
    m_formatsDock->setWidget(formatsScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_formatsDock);
    tabifyDockWidget(m_profileDock, m_formatsDock);
    buildPrecisionLabDock();
    m_occupancyDock->raise();

    resizeDocks({m_lessonDock, m_occupancyDock}, {lessonWidth(), 500}, Qt::Horizontal);
    resizeDocks({m_detailsDock}, {detailsHeight()}, Qt::Vertical);
}

void MainWindow::buildPrecisionLabDock()
{
    // One dock, three tabs: the trainer, the quantization lab and 2:4 sparsity share the lessons'
    // "Number formats and mixed precision" and "Quantization and pruning". Each panel scrolls when
    // the dock is narrower than its figures need. Their work runs on each panel's own worker thread.
    m_labTabs = new QTabWidget(this);
    m_labTabs->setObjectName(QStringLiteral("PrecisionLabTabs"));
    m_labTabs->setDocumentMode(true);
    m_amp = new viz::AmpPanel(this);
    m_quant = new viz::QuantPanel(this);
    m_sparsity = new viz::SparsityPanel(this);
    const std::pair<QWidget*, QString> tabs[] = {{m_amp, QStringLiteral("Mixed Precision")},
                                                 {m_quant, QStringLiteral("Quantization")},
                                                 {m_sparsity, QStringLiteral("2:4 Sparsity")}};
    for (const auto& [panel, title] : tabs) {
        auto* scroll = new QScrollArea(m_labTabs);
        scroll->setWidget(panel);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        m_labTabs->addTab(scroll, title);
    }
    m_labTabs->setTabToolTip(0, QStringLiteral("Ctrl+6: train FP32, FP16 with and without loss scaling and BF16 side by side"));
    m_labTabs->setTabToolTip(1, QStringLiteral("Ctrl+7: INT8, INT4 and FP8 with the calibrators, SQNR and the MLP's accuracy"));
    m_labTabs->setTabToolTip(2, QStringLiteral("Ctrl+8: 2:4 pruning, its metadata, the bytes saved and the accuracy"));
    m_labDock = new QDockWidget(QStringLiteral("Precision Lab"), this);
    m_labDock->setObjectName(QStringLiteral("PrecisionLabDock"));
    m_labDock->setWidget(m_labTabs);
    addDockWidget(Qt::RightDockWidgetArea, m_labDock);
    tabifyDockWidget(m_formatsDock, m_labDock);
    connect(m_amp, &viz::AmpPanel::runFinished, this, [this] { statusBar()->showMessage(m_amp->statusText(), 8000); });
}

void MainWindow::buildModelsDock()
{
    // Among the docks on the right, behind the Occupancy tab as the others, until a link or the View
    // menu brings it to the front. The panels scroll inside their tabs, so the dock's minimum width
    // stays small and never widens the window.
    m_models = new viz::ModelsDock(this);
    m_modelsDock = new QDockWidget(QStringLiteral("Performance Models"), this);
    m_modelsDock->setObjectName(QStringLiteral("ModelsDock"));
    m_modelsDock->setWidget(m_models);
    addDockWidget(Qt::RightDockWidgetArea, m_modelsDock);
    tabifyDockWidget(m_studyDock, m_modelsDock);
    m_occupancyDock->raise();
}

void MainWindow::focusModels(viz::ModelsTab tab)
{
    m_models->showTab(tab);
    presentDockView(m_modelsDock);
}

viz::ModelsTab MainWindow::modelsTab() const { return m_models->currentTab(); }

int MainWindow::lessonWidth() const
{
    // The lessons are written for a panel of about 420 px (assets/lessons/README.md); below about
    // 320 px a heading breaks inside its words. 320 px at 1280 and 1600, 420 px from 2100.
    return std::clamp(width() * 20 / 100, 320, 420);
}

int MainWindow::rightDockWidth() const
{
    // One width for every dock on the right, so moving between them by menu or link does not make the
    // dock jump: most of the window for the figures (FP32's 32 bit toggles, the lab's plots, the
    // profiler's tables), the lesson kept readable beside them, and the canvas the strip its launch
    // fields need (about 400 px). 560 px at 1280, 880 px at 1600.
    return std::max(480, std::min(width() * 60 / 100, width() - lessonWidth() - 400));
}

void MainWindow::widenRightDock(QDockWidget* dock)
{
    resizeDocks({m_lessonDock, dock}, {lessonWidth(), rightDockWidth()}, Qt::Horizontal);
}

void MainWindow::focusProfiler() { presentDockView(m_profileDock); }

void MainWindow::focusFormats() { presentDockView(m_formatsDock); }

void MainWindow::focusPrecisionLab(PrecisionLabTab tab)
{
    m_labTabs->setCurrentIndex(static_cast<int>(tab));
    presentDockView(m_labDock);
}

PrecisionLabTab MainWindow::precisionLabTab() const { return static_cast<PrecisionLabTab>(m_labTabs->currentIndex()); }

bool MainWindow::precisionLabBusy() const { return m_amp->busy() || m_quant->busy() || m_sparsity->busy(); }

void MainWindow::openSessionInteractive()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open Session"), QString(),
                                                      QStringLiteral("Warpscope sessions (*.wsprof);;All files (*)"));
    if (path.isEmpty())
        return;
    focusProfiler();
    m_profile->openSessionFile(path);
}

void MainWindow::saveSessionInteractive()
{
    if (!m_profile->hasSession())
        return;
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save Session As"), QStringLiteral("session.wsprof"),
                                                QStringLiteral("Warpscope sessions (*.wsprof)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".wsprof")))
        path += QStringLiteral(".wsprof");
    if (const auto error = m_profile->saveSessionAs(path))
        showMessage(*error, true);
}

void MainWindow::openBaselineInteractive()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open Baseline Session"), QString(),
                                                      QStringLiteral("Warpscope sessions (*.wsprof);;All files (*)"));
    if (path.isEmpty())
        return;
    focusProfiler();
    m_profile->openBaselineFile(path);
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restorePinnedLayout();
    // The docks' arrangement is the learner's only when pinned; otherwise each lesson sets it up.
    if (m_layoutPinned)
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_options.restoreSettings) {
        if (m_layoutPinned)
            returnCentreToDock(); // the docks as the learner left them, each with its own panel
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
    }
    QMainWindow::closeEvent(event);
}

bool MainWindow::openLesson(const QString& id)
{
    const Lesson* lesson = m_lessons.find(id);
    if (!lesson)
        return false;
    // Lessons may come from someone else (WARPSCOPE_LESSONS_DIR): raw HTML in them is shown as text,
    // never rendered (assets/lessons/README.md allows no HTML).
    // A measurement line shows the open session's numbers (lesson_measurements.h).
    const QString markdown = expandLessonMeasurements(renderedLessonMarkdown(lesson->markdown), m_profile && m_profile->hasSession() ? &m_profile->session() : nullptr);
    m_lessonView->document()->setMarkdown(markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML));
    wrapLessonCode();
    m_lessonView->moveCursor(QTextCursor::Start); // a new lesson opens at its title, not where the last one was left
    m_lessonView->verticalScrollBar()->setValue(0);
    m_sectionTimer->stop();
    int row = 0;
    while (row < m_lessons.lessons().size() && m_lessons.lessons().at(row).id != id)
        ++row;
    if (m_lessonList->currentRow() != row) {
        const QSignalBlocker blocker(m_lessonList);
        m_lessonList->setCurrentRow(row);
    }
    setWindowTitle(QStringLiteral("%1 — Warpscope").arg(lesson->title));
    // The lesson leads: its home figure, in the centre (main_window_figures.cpp).
    m_lessonSection = -1;
    m_appliedFigure.clear();
    applyLessonFigure(figureAtSection(*lesson, -1));
    return true;
}

QString MainWindow::currentLessonId() const
{
    const int row = m_lessonList->currentRow();
    return row >= 0 && row < m_lessons.lessons().size() ? m_lessons.lessons().at(row).id : QString();
}

void MainWindow::showCanvasView(CanvasView view)
{
    if (view == CanvasView::DockView && !m_centreDock)
        return; // nothing has taken the centre
    m_viewTabs->setCurrentIndex(static_cast<int>(view));
    if (view == CanvasView::Execution && m_layoutPinned) {
        // The stepper is dense: give it most of the width, keeping the lesson and the docks readable.
        resizeDocks({m_lessonDock, m_occupancyDock}, {lessonWidth(), std::max(240, width() / 6)}, Qt::Horizontal);
        m_execution->setFocus(); // the step keys work at once, also after a lesson link
    }
}

CanvasView MainWindow::canvasView() const
{
    return static_cast<CanvasView>(m_viewTabs->currentIndex());
}

void MainWindow::focusOccupancy()
{
    presentDockView(m_occupancyDock);
    m_occupancy->setFocus();
}

void MainWindow::setLaunch(const launch::LaunchShape& shape)
{
    // Setting the fields' text may turn one valid again: applyLaunchFields must not apply the new grid
    // with the old block meanwhile. The caller records the step, once (recordInputs).
    const QScopedValueRollback setting(m_settingInputs, true);
    m_launch = shape;
    m_gridField->setText(QString::fromStdString(launch::formatDim3(shape.grid)));
    m_blockField->setText(QString::fromStdString(launch::formatDim3(shape.block)));
    m_launchStale->hide();
    m_hierarchy->setLaunch(shape);
    occupancy::OccupancyInput input = m_occupancy->inputs();
    if (input.threadsPerBlock != shape.threadsPerBlock()) {
        input.threadsPerBlock = static_cast<int>(shape.threadsPerBlock());
        m_occupancy->setInputs(m_occupancy->arch(), input); // emits resultChanged -> placement
    }
    updatePlacement();
    updateDetails();
    m_canvasWidget->update();
}

void MainWindow::applyLaunchFields()
{
    // Each field shows its own error under itself; here only: apply when both are valid, else say that
    // the canvas still shows the last valid launch.
    if (!m_gridField->valid() || !m_blockField->valid()) {
        QStringList lines;
        for (const viz::ValidatedField* field : {m_gridField, m_blockField})
            if (!field->valid())
                lines << field->errorText();
        lines << QStringLiteral("Not applied: the canvas shows the last valid launch, grid %1 × block %2.")
                     .arg(QString::fromStdString(launch::formatDim3(m_launch.grid)),
                          QString::fromStdString(launch::formatDim3(m_launch.block)));
        m_launchStale->setText(lines.join(QLatin1Char('\n')));
        const bool dark = palette().color(QPalette::Window).lightness() < 128;
        m_launchStale->setStyleSheet(QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#ff6b6b") : QStringLiteral("#c62828")));
        m_launchStale->show();
        updateUndoActions(); // Undo now puts the last valid launch back
        return;
    }
    m_launchStale->hide();
    launch::LaunchShape shape;
    shape.grid = launch::parseGridDim(m_gridField->text().toStdString(), "grid");
    shape.block = launch::parseBlockDim(m_blockField->text().toStdString(), "block");
    if (shape == m_launch || m_settingInputs || m_applyingLink) {
        updateUndoActions(); // a field turned valid again: nothing left to undo but steps
        return;
    }
    setLaunch(shape); // the explorer follows: one step for both
    recordInputs();
}

void MainWindow::updatePlacement()
{
    const auto& result = m_occupancy->result();
    const auto preset = gpu::findPreset(m_occupancy->arch().toStdString());
    if (!preset)
        return;
    const std::string label = std::string(preset->name) + " (" + std::string(preset->arch) + ")";
    std::string note;
    int blocksPerSm = 0;
    if (result) {
        blocksPerSm = result->activeBlocksPerSm;
        // The summary sentences only ("Occupancy ...: ... Limited by ..."); the panel has the rest.
        note = result->explanation;
        if (const auto limited = note.find("Limited by"); limited != std::string::npos)
            if (const auto end = note.find('.', limited); end != std::string::npos)
                note.resize(end + 1);
    } else {
        note = "The occupancy inputs are invalid; see the Occupancy panel.";
    }
    m_placement->setPlacement(m_launch, preset->smCount, blocksPerSm, label, note);
}

void MainWindow::updateDetails()
{
    // The launch the Hierarchy and Placement figures and the occupancy explorer share; the Execution
    // and Memory views name their own kernel's launch in their fields, so say whose this is.
    if (!m_details)
        return;
    // One launch, or a clear label: when it is the launch the Execution view stepped, say so.
    QString whose = QStringLiteral("Hierarchy and Placement launch");
    QString explorerNote;
    if (const viz::Stepper* stepper = m_execution->stepper()) {
        const auto& run = stepper->run();
        const occupancy::OccupancyInput& explorer = m_occupancy->inputs();
        const QString kernel = QString::fromStdString(run.kernelName);
        // The explorer says whose block it describes, as the Details line says whose launch.
        const std::uint64_t shared = (run.function ? run.function->staticSharedBytes : 0) + run.dynamicSharedBytes;
        const QString block = QStringLiteral("%1 threads, %2 registers per thread and %3 B of shared memory")
                                  .arg(run.block.volume())
                                  .arg(run.registersPerThread)
                                  .arg(QString::fromStdString(withThousands(static_cast<long long>(shared))));
        explorerNote = explorer.threadsPerBlock == run.block.volume() && explorer.registersPerThread == run.registersPerThread &&
                               explorer.staticSharedBytes + explorer.dynamicSharedBytes == shared &&
                               m_occupancy->arch() == QString::fromLatin1(run.preset.arch.data(), static_cast<qsizetype>(run.preset.arch.size()))
                           ? QStringLiteral("The stepped launch's block: %1 with %2, as the Execution view ran it.").arg(kernel, block)
                           : QStringLiteral("Not the stepped launch (%1 ran blocks of %2): these inputs are your own.").arg(kernel, block);
        if (run.grid == m_launch.grid && run.block == m_launch.block && explorer.registersPerThread == run.registersPerThread)
            whose = QStringLiteral("Launch of %1 (stepped in Execution, shown in Hierarchy, Placement and Occupancy)")
                        .arg(kernel.toHtmlEscaped());
        else if (canvasView() == CanvasView::Execution)
            whose = QStringLiteral("Hierarchy and Placement launch (not the stepped %1, grid %2 × block %3, %4 registers per thread)")
                        .arg(QString::fromStdString(run.kernelName).toHtmlEscaped(), dimText(run.grid), dimText(run.block))
                        .arg(run.registersPerThread);
    }
    QString text = QStringLiteral("<b>%1</b> grid %2 × block %3 = %4 blocks, %5 warps, %6 threads.")
                       .arg(whose, dimText(m_launch.grid), dimText(m_launch.block),
                            QString::fromStdString(withThousands(m_launch.blockCount())),
                            QString::fromStdString(withThousandsBig(m_launch.warpCount())),
                            QString::fromStdString(withThousandsBig(m_launch.threadCount())));
    if (const auto& result = m_occupancy->result()) {
        const auto& plan = m_placement->plan();
        text += QStringLiteral(" On %1: %2 blocks per SM → %3 wave(s).")
                    .arg(QString::fromStdString(result->gpuName))
                    .arg(result->activeBlocksPerSm)
                    .arg(QString::fromStdString(withThousands(plan.waves)));
    }
    if (const auto selected = m_hierarchy->selected()) {
        if (selected->idle)
            text += QStringLiteral("<br><b>Selected</b> idle lane %1 of warp %2 in block %3 (no thread).")
                        .arg(selected->lane).arg(selected->warpInBlock).arg(dimText(selected->blockIdx));
        else
            text += QStringLiteral("<br><b>Selected</b> blockIdx %1, threadIdx %2: global thread %3, warp %4, lane %5.")
                        .arg(dimText(selected->blockIdx), dimText(selected->threadIdx),
                             QString::fromStdString(withThousandsBig(selected->globalLinear)))
                        .arg(selected->warpInBlock)
                        .arg(selected->lane);
    } else {
        text += QStringLiteral("<br><span style='color:gray'>Click a lane in the hierarchy to select it.</span>");
    }
    m_details->setText(text);
    m_occupancy->setLaunchNote(explorerNote);
}

void MainWindow::showMessage(const QString& message, bool error)
{
    m_lastMessage = message;
    if (message.isEmpty()) {
        m_messageBanner->hide();
        return;
    }
    m_messageBanner->setText(message);
    m_messageBanner->setStyleSheet(error ? QStringLiteral("QLabel { background: #5c1f1f; color: #ffdede; padding: 6px; border-radius: 3px; }")
                                         : QStringLiteral("QLabel { background: #1f3d5c; color: #deeeff; padding: 6px; border-radius: 3px; }"));
    m_messageBanner->show();
    statusBar()->showMessage(message, 10000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, QStringLiteral("About Warpscope"), aboutText(viz::canvasRendererDescription()));
}

void MainWindow::saveScreenshotInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save Screenshot"),
                                                      QStringLiteral("warpscope.png"), QStringLiteral("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (const auto error = savePngAtomically(grab().toImage(), path))
        showMessage(*error, true);
    else
        statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
}

} // namespace warpscope::app
