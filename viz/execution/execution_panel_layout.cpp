// ExecutionPanel, continued: the view's layout (step row, panes) and how the panes show, hide and collapse.
#include "execution/execution_panel.h"

#include "canvas/canvas_widget.h"
#include "canvas/imgui_canvas.h"
#include "common/export_actions.h"
#include "execution/code_view.h"
#include "execution/sass_pane.h"
#include "execution/step_icons.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QList>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSizePolicy>
#include <QSplitter>
#include <QTabBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>
#include <utility>

namespace warpscope::viz {

// How to move: icons (their tooltips name the move and its key) in a tool bar, Play and its speed,
// and the switches that show or hide the panes.
void ExecutionPanel::buildStepRow(QVBoxLayout* layout)
{
    auto* stepRow = new QHBoxLayout;
    auto* moveBar = new QToolBar(this);
    moveBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    moveBar->setIconSize(QSize(20, 20));
    stepRow->addWidget(moveBar, 1);
    struct Move {
        const char* tip;
        StepGlyph glyph;
        sim::StepUnit unit;
        bool forward;
        QKeySequence key;
    };
    const Move moves[] = {
        {"To the first instruction (Ctrl+Home)", StepGlyph::End, sim::StepUnit::End, false, QKeySequence(Qt::CTRL | Qt::Key_Home)},
        {"Back to the previous hazard, in any warp or an earlier block (Shift+F6)", StepGlyph::Hazard, sim::StepUnit::Hazard, false, QKeySequence(Qt::SHIFT | Qt::Key_F6)},
        {"Back to the previous divergence or reconvergence (Shift+F7)", StepGlyph::Divergence, sim::StepUnit::Divergence, false, QKeySequence(Qt::SHIFT | Qt::Key_F7)},
        {"Back to the previous memory access (Shift+F8)", StepGlyph::Memory, sim::StepUnit::Memory, false, QKeySequence(Qt::SHIFT | Qt::Key_F8)},
        {"Back to the previous barrier (Shift+F9)", StepGlyph::Barrier, sim::StepUnit::Barrier, false, QKeySequence(Qt::SHIFT | Qt::Key_F9)},
        {"Back one source line (Shift+F10)", StepGlyph::SourceLine, sim::StepUnit::SourceLine, false, QKeySequence(Qt::SHIFT | Qt::Key_F10)},
        {"Back one warp-instruction (Shift+F11)", StepGlyph::Instruction, sim::StepUnit::Instruction, false, QKeySequence(Qt::SHIFT | Qt::Key_F11)},
        {"One warp-instruction (F11)", StepGlyph::Instruction, sim::StepUnit::Instruction, true, QKeySequence(Qt::Key_F11)},
        {"One source line (F10)", StepGlyph::SourceLine, sim::StepUnit::SourceLine, true, QKeySequence(Qt::Key_F10)},
        {"To the next barrier (F9)", StepGlyph::Barrier, sim::StepUnit::Barrier, true, QKeySequence(Qt::Key_F9)},
        {"To the next memory access (F8)", StepGlyph::Memory, sim::StepUnit::Memory, true, QKeySequence(Qt::Key_F8)},
        {"To the next divergence or reconvergence (F7)", StepGlyph::Divergence, sim::StepUnit::Divergence, true, QKeySequence(Qt::Key_F7)},
        {"To the next hazard, in any warp or a later block (F6)", StepGlyph::Hazard, sim::StepUnit::Hazard, true, QKeySequence(Qt::Key_F6)},
        {"To the end (Ctrl+End)", StepGlyph::End, sim::StepUnit::End, true, QKeySequence(Qt::CTRL | Qt::Key_End)},
    };
    for (const Move& move : moves) {
        const QString tip = QString::fromLatin1(move.tip);
        auto* action = new QAction(tip.left(tip.indexOf(QLatin1String(" ("))), this);
        m_moveIcons.push_back({action, move.glyph, move.forward});
        action->setToolTip(tip);
        action->setShortcut(move.key);
        // The keys work wherever the focus is while the view is shown; editors keep theirs (CodeView
        // claims Ctrl+Home and Ctrl+End while editable).
        action->setShortcutContext(Qt::WindowShortcut);
        const sim::StepUnit unit = move.unit;
        const bool forward = move.forward;
        connect(action, &QAction::triggered, this, [this, unit, forward] {
            setPlaying(false);
            if (unit == sim::StepUnit::Hazard)
                goToNextHazard(forward);
            else
                step(unit, forward);
        });
        addAction(action);
        moveBar->addAction(action);
    }
    m_play = new QToolButton(this);
    m_play->setCheckable(true);
    m_play->setAutoRaise(true);
    m_play->setToolTip(QStringLiteral("Play or pause (F5): one warp-instruction at the chosen speed"));
    auto* playAction = new QAction(QStringLiteral("Play or pause"), this); // named for Help > Keyboard Shortcuts
    playAction->setShortcut(QKeySequence(Qt::Key_F5));
    playAction->setShortcutContext(Qt::WindowShortcut);
    connect(playAction, &QAction::triggered, this, [this] { setPlaying(!m_timer->isActive()); });
    addAction(playAction);
    connect(m_play, &QToolButton::clicked, this, [this](bool checked) { setPlaying(checked); });
    moveBar->addWidget(m_play);
    m_speed = new QComboBox(this);
    for (int perSecond : {1, 2, 5, 10, 25, 60})
        m_speed->addItem(QStringLiteral("%1 / s").arg(perSecond), perSecond);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(QStringLiteral("Playing speed: warp-instructions per second"));
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (m_timer->isActive())
            m_timer->start(1000 / std::max(1, m_speed->currentData().toInt()));
    });
    moveBar->addWidget(m_speed);
    paintIcons();
    // Panes: each one hides to give the others (the canvas's register table first) the width.
    auto addToggle = [&](const QString& text, const QString& tip) {
        auto* toggle = new QToolButton(this);
        toggle->setText(text);
        toggle->setToolTip(tip);
        toggle->setCheckable(true);
        toggle->setChecked(true);
        toggle->setAutoRaise(true);
        stepRow->addWidget(toggle);
        return toggle;
    };
    m_showSource = addToggle(QStringLiteral("CUDA"), QStringLiteral("Show or hide the CUDA source (and the compiler's messages)"));
    m_showPtx = addToggle(QStringLiteral("PTX"), QStringLiteral("Show or hide the PTX listing"));
    m_showSass = addToggle(QStringLiteral("SASS"), QStringLiteral("Show or hide the SASS: what ptxas makes of this PTX for the "
                                                                  "chosen GPU, each instruction by its source line (ptxas and nvdisasm)"));
    m_showHazards = addToggle(QStringLiteral("Hazards"), QStringLiteral("Show or hide the list of the launch's hazards"));
    layout->addLayout(stepRow);

    m_follow = new QComboBox(this);
    m_follow->setToolTip(QStringLiteral("Step along one warp's instructions, or every warp's in the order the "
                                        "simulator issued them"));
    connect(m_follow, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_stepper && index >= 0) {
            m_stepper->follow(index - 1);
            refresh();
        }
    });
    m_heat = new QComboBox(this);
    m_heat->addItem(QStringLiteral("Heat: sectors"));
    m_heat->addItem(QStringLiteral("Heat: banks"));
    m_heat->addItem(QStringLiteral("Heat: divergence"));
    m_heat->addItem(QStringLiteral("Heat: SASS"));
    m_heat->setToolTip(QStringLiteral("What the source view's heat column shows, for the whole launch: sectors per "
                                      "request (wasted bytes), shared-memory bank conflicts, or divergent branches; or the SASS instructions ptxas made of each line"));
    connect(m_heat, &QComboBox::currentIndexChanged, this, &ExecutionPanel::updateHeat);
    m_warpModel = new QComboBox(this);
    m_warpModel->addItem(QStringLiteral("Warps: stack"), static_cast<int>(sim::WarpModel::ReconvergenceStack));
    m_warpModel->addItem(QStringLiteral("Warps: ITS"), static_cast<int>(sim::WarpModel::IndependentThreads));
    m_warpModel->setToolTip(QStringLiteral(
        "How a warp's lanes take turns. Stack: one path at a time, rejoined where the branches meet (pre-Volta "
        "SIMT). ITS: Volta's independent thread scheduling; lanes that spin waiting for other lanes of their warp "
        "let those run, and the lanes meet again at __syncwarp and the .sync collectives. Re-records the block."));
    connect(m_warpModel, &QComboBox::currentIndexChanged, this, [this] {
        if (m_stepper && !m_runInFlight)
            run();
    });
}

// The listings (CUDA over its compiler messages, PTX) and the launch's hazards on the left, the
// canvas on the right; every pane collapses (drag a divider to the edge, or its switch).
void ExecutionPanel::buildPanes(QVBoxLayout* layout)
{
    m_split = new QSplitter(Qt::Horizontal, this);
    m_codeSplit = new QSplitter(Qt::Vertical, m_split);
    m_sourceBox = new QWidget(m_codeSplit);
    auto* sourceLayout = new QVBoxLayout(m_sourceBox);
    sourceLayout->setContentsMargins(0, 0, 0, 0);
    sourceLayout->setSpacing(2);
    m_source = new CodeView(CodeView::Language::Cuda, m_sourceBox);
    m_source->setHeatLabel(QStringLiteral("sectors per request"));
    sourceLayout->addWidget(m_source, 1);
    m_diagnostics = new QListWidget(m_sourceBox);
    m_diagnostics->setObjectName(QStringLiteral("compilerMessages"));
    m_diagnostics->setToolTip(QStringLiteral("The compiler's messages: click one to go to its line"));
    m_diagnostics->setMaximumHeight(m_diagnostics->fontMetrics().lineSpacing() * 5 + 8);
    m_diagnostics->setWordWrap(true);
    m_diagnostics->hide(); // shown while the playground has compiler messages
    sourceLayout->addWidget(m_diagnostics);
    connect(m_diagnostics, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int line = item->data(Qt::UserRole).toInt();
        const int column = item->data(Qt::UserRole + 1).toInt();
        QTextCursor cursor(m_source->document()->findBlockByNumber(std::max(0, line - 1)));
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::max(0, column - 1));
        m_source->setTextCursor(cursor);
        m_source->centerCursor();
        m_source->setFocus();
    });
    m_ptx = new CodeView(CodeView::Language::Ptx, m_codeSplit);
    m_sass = new SassPane(m_codeSplit);
    m_sass->setObjectName(QStringLiteral("sassPane"));
    connect(m_sass, &SassPane::lineActivated, this, [this](int line) {
        if (line > 0)
            m_source->setCurrentLine(line); // the CUDA line an instruction was made from
    });
    connect(m_sass, &SassPane::ready, this, [this] {
        if (m_heat->currentIndex() == kSassHeat)
            showSassHeat();
    });
    m_hazardPane = new QWidget(m_codeSplit);
    auto* hazardLayout = new QVBoxLayout(m_hazardPane);
    hazardLayout->setContentsMargins(0, 0, 0, 0);
    hazardLayout->setSpacing(2);
    m_hazardCaption = new QLabel(m_hazardPane);
    m_hazardCaption->setObjectName(QStringLiteral("hazardCaption"));
    m_hazardCaption->setWordWrap(true);
    hazardLayout->addWidget(m_hazardCaption);
    m_hazardList = new QTreeWidget(m_hazardPane);
    m_hazardList->setObjectName(QStringLiteral("hazardList"));
    m_hazardList->setRootIsDecorated(false);
    m_hazardList->setUniformRowHeights(true);
    m_hazardList->setHeaderLabels({QStringLiteral("Hazard"), QStringLiteral("Block"), QStringLiteral("Warp"),
                                   QStringLiteral("Lanes"), QStringLiteral("Line")});
    m_hazardList->setToolTip(QStringLiteral("Every hazard the whole launch raised: choose one to go there (another "
                                            "block is recorded first)"));
    hazardLayout->addWidget(m_hazardList, 1);
    // A row goes to its hazard where it first happened; an instance under it to that block and warp.
    const auto choose = [this](QTreeWidgetItem* item) {
        if (item->childCount() > 0)
            item->setExpanded(true); // every block's instances
        if (const sim::Hazard* hazard = hazardOfItem(item))
            goToHazard(sim::Hazard(*hazard));
    };
    connect(m_hazardList, &QTreeWidget::itemClicked, this, choose);
    connect(m_hazardList, &QTreeWidget::itemActivated, this, choose);
    m_codeSplit->setStretchFactor(0, 3);
    m_codeSplit->setStretchFactor(1, 2);
    m_codeSplit->setStretchFactor(2, 1);
    auto* canvasBox = new QWidget(m_split);
    auto* canvasLayout = new QVBoxLayout(canvasBox);
    canvasLayout->setContentsMargins(0, 0, 0, 0);
    canvasLayout->setSpacing(0);
    m_canvasTabs = new QTabBar(canvasBox);
    m_canvasTabs->addTab(QStringLiteral("Warps and registers"));
    m_canvasTabs->addTab(QStringLiteral("Memory hierarchy"));
    m_canvasTabs->setToolTip(QStringLiteral("Ctrl+Shift+M switches between the warps and the memory hierarchy"));
    m_canvasTabs->setExpanding(false);
    canvasLayout->addWidget(m_canvasTabs);
    m_canvasWidget = createCanvasWidget(*m_canvas, canvasBox);
    installFigureExport(m_canvasWidget, QStringLiteral("execution"));
    m_canvasWidget->addAction(m_exportTimelineAction);
    m_canvasWidget->setObjectName(QStringLiteral("executionCanvas"));
    canvasLayout->addWidget(m_canvasWidget, 1);
    connect(m_canvasTabs, &QTabBar::currentChanged, this, [this](int index) {
        m_canvas->setScene(index == 1 ? static_cast<CanvasScene*>(m_memoryScene.get()) : m_scene.get());
        m_canvasWidget->update();
    });
    auto* memoryAction = new QAction(QStringLiteral("Show the memory hierarchy or the warps on the canvas"), this);
    memoryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    memoryAction->setShortcutContext(Qt::WindowShortcut);
    connect(memoryAction, &QAction::triggered, this, [this] { showMemoryView(!memoryViewShown()); });
    addAction(memoryAction);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
    m_split->setSizes({400, 600});
    m_split->setCollapsible(1, false); // the canvas is the figure; the listings give way to it
    // The panes take the height the rows leave, whatever their preferred heights add up to: those
    // (three listings' worth) would otherwise make the view taller than a laptop's window and scroll.
    m_split->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    m_split->setMinimumHeight(320);
    layout->addWidget(m_split, 1);

    for (QToolButton* toggle : {m_showSource, m_showPtx, m_showSass, m_showHazards})
        connect(toggle, &QToolButton::toggled, this, &ExecutionPanel::updatePanes);
    connect(m_showSass, &QToolButton::toggled, this, &ExecutionPanel::updateSass);
    // A pane dragged shut turns its switch off; one dragged open turns it on.
    connect(m_codeSplit, &QSplitter::splitterMoved, this, [this] { syncPaneToggles(); });
    connect(m_split, &QSplitter::splitterMoved, this, [this] { syncPaneToggles(); });
    m_hazardPane->hide();
    m_showHazards->setChecked(false);
    m_sass->hide(); // the listings the learner reads first keep the room; SASS is one switch away
    m_showSass->setChecked(false);
    m_showHazards->setEnabled(false);
}

void ExecutionPanel::paintIcons()
{
    const QColor ink = palette().color(QPalette::WindowText);
    for (const MoveIcon& move : m_moveIcons)
        move.action->setIcon(stepIcon(move.glyph, move.forward, ink));
    m_play->setIcon(stepIcon(m_timer->isActive() ? StepGlyph::Pause : StepGlyph::Play, true, ink));
}

void ExecutionPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_play)
        paintIcons(); // drawn in the text colour: light on a dark palette
}

void ExecutionPanel::updatePanes()
{
    const std::pair<QToolButton*, QWidget*> panes[] = {
        {m_showSource, m_sourceBox}, {m_showPtx, m_ptx}, {m_showSass, m_sass}, {m_showHazards, m_hazardPane}};
    QList<int> sizes = m_codeSplit->sizes();
    bool any = false;
    for (int i = 0; i < static_cast<int>(std::size(panes)); ++i) {
        const auto& [toggle, pane] = panes[i];
        pane->setVisible(toggle->isChecked());
        // Opened (by its switch, or again after a drag shut it): half the column, the others sharing
        // the rest as they did, so a pane with a header of its own (SASS) shows more than two rows.
        if (toggle->isChecked() && sizes[i] == 0)
            sizes[i] = std::max(80, m_codeSplit->height() / 2);
        any = any || toggle->isChecked();
    }
    m_codeSplit->setSizes(sizes);
    m_codeSplit->setVisible(any);
    if (any && m_split->sizes().value(0) == 0)
        m_split->setSizes({std::max(200, m_split->width() * 2 / 5), m_split->width() * 3 / 5});
}

void ExecutionPanel::syncPaneToggles()
{
    const QList<int> sizes = m_codeSplit->sizes();
    const bool columnShut = m_split->sizes().value(0) == 0;
    const std::pair<QToolButton*, QWidget*> panes[] = {
        {m_showSource, m_sourceBox}, {m_showPtx, m_ptx}, {m_showSass, m_sass}, {m_showHazards, m_hazardPane}};
    for (int i = 0; i < static_cast<int>(std::size(panes)); ++i) {
        const auto& [toggle, pane] = panes[i];
        const QSignalBlocker blocker(toggle);
        toggle->setChecked(pane->isVisible() && sizes.value(i) > 0 && !columnShut);
    }
}

} // namespace warpscope::viz
