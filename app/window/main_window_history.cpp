// Undo and redo of the launch and explorer inputs (the Edit menu), split from main_window.cpp. The
// history is app/window/input_history.h; here: what a step holds, where steps are recorded, and the
// keys, which reach the window even from inside a launch or explorer field.
#include "window/main_window.h"

#include "common/validated_field.h"
#include "occupancy/occupancy_panel.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScopedValueRollback>
#include <QTabBar>
#include <QTimer>
#include <QUndoStack>

namespace warpscope::app {
namespace {

const QKeySequence kRedoKey(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);

} // namespace

InputSnapshot MainWindow::inputSnapshot() const { return {m_launch, m_occupancy->arch(), m_occupancy->inputs()}; }

void MainWindow::applyInputSnapshot(const InputSnapshot& snapshot)
{
    const QScopedValueRollback guard(m_settingInputs, true);
    // As a link does: the launch first, so the explorer's resultChanged finds the block in step.
    m_launch = snapshot.launch;
    m_occupancy->setInputs(snapshot.arch, snapshot.explorer);
    setLaunch(snapshot.launch);
    updateUndoActions();
}

bool MainWindow::inputsHaveUnappliedEdits() const
{
    // A bad value, or typing not applied yet (the field waits for Enter or a pause): Undo takes it back first.
    return !m_gridField->valid() || !m_blockField->valid() || m_gridField->hasPendingEdit() || m_blockField->hasPendingEdit() ||
           m_occupancy->stale();
}

void MainWindow::undoInputs()
{
    // Typing that was never applied (an invalid value) is undone first: back to the inputs the
    // figures show.
    if (inputsHaveUnappliedEdits())
        m_inputHistory->reapplyCurrent();
    else
        m_inputHistory->stack()->undo();
    updateUndoActions();
}

void MainWindow::redoInputs()
{
    m_inputHistory->stack()->redo();
    updateUndoActions();
}

void MainWindow::recordInputs(const QString& text)
{
    if (m_inputHistory != nullptr && !m_settingInputs)
        m_inputHistory->record(inputSnapshot(), text);
    updateUndoActions();
}

void MainWindow::buildEditMenu()
{
    m_inputHistory = new InputHistory(inputSnapshot(), [this](const InputSnapshot& snapshot) { applyInputSnapshot(snapshot); }, this);
    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    m_undoAction = edit->addAction(QStringLiteral("&Undo"), this, &MainWindow::undoInputs);
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = edit->addAction(QStringLiteral("&Redo"), this, &MainWindow::redoInputs);
    m_redoAction->setShortcut(kRedoKey);
    for (QAction* action : {m_undoAction, m_redoAction})
        action->setToolTip(QStringLiteral("The launch (grid, block) and the occupancy explorer's inputs"));
    connect(m_inputHistory->stack(), &QUndoStack::indexChanged, this, &MainWindow::updateUndoActions);
    // Inside a launch or explorer field, the keys undo inputs (not the field's own text editing), so
    // a step applied while typing can be taken back from where it was typed.
    QList<QLineEdit*> edits = {m_gridField->lineEdit(), m_blockField->lineEdit()};
    for (viz::ValidatedField* field : m_occupancy->findChildren<viz::ValidatedField*>()) {
        edits << field->lineEdit();
        connect(field, &viz::ValidatedField::validityChanged, this, &MainWindow::updateUndoActions);
    }
    for (QLineEdit* lineEdit : edits)
        lineEdit->installEventFilter(this);
    // Typing merges into one step only while the focus stays in one place.
    connect(qApp, &QApplication::focusChanged, m_inputHistory, &InputHistory::closeMerge);
    updateUndoActions();
}

void MainWindow::startInputHistory()
{
    m_inputHistory->reset(inputSnapshot());
    // After the handlers that keep the launch and the explorer in step: the step holds both.
    connect(m_occupancy, &viz::OccupancyPanel::resultChanged, this, [this] {
        if (!m_applyingLink)
            recordInputs();
    });
    updateUndoActions();
}

void MainWindow::updateUndoActions()
{
    if (m_undoAction == nullptr || m_inputHistory == nullptr)
        return;
    const QUndoStack* stack = m_inputHistory->stack();
    const bool unapplied = inputsHaveUnappliedEdits();
    m_undoAction->setEnabled(unapplied || stack->canUndo());
    m_undoAction->setText(unapplied          ? QStringLiteral("&Undo Typing (back to the inputs shown)")
                          : stack->canUndo() ? QStringLiteral("&Undo %1").arg(stack->undoText())
                                             : QStringLiteral("&Undo"));
    m_redoAction->setEnabled(stack->canRedo());
    m_redoAction->setText(stack->canRedo() ? QStringLiteral("&Redo %1").arg(stack->redoText()) : QStringLiteral("&Redo"));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // A dock tab bar QMainWindow just made: it sets its eliding after this, so ours comes next turn.
    if (watched == this && event->type() == QEvent::ChildAdded &&
        qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()) != nullptr)
        QTimer::singleShot(0, this, &MainWindow::keepDockTabsReadable);
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const QKeySequence pressed(key->keyCombination());
        // Not accepted: the line edit does not take the key, so the Edit menu's action does.
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) || pressed == kRedoKey)
            return true;
    }
    return QMainWindow::eventFilter(watched, event);
}

} // namespace warpscope::app
