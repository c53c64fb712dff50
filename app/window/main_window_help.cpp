// Help for the view in focus (F1) and the list of keyboard shortcuts, split from main_window.cpp.
#include "window/main_window.h"

#include "execution/execution_panel.h"
#include "links/view_link.h"
#include "study/quiz_panel.h"
#include "study/study_dock.h"
#include "util/input_error.h"
#include "models/models_dock.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "window/shortcut_list.h"
#include "window/view_help.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace warpscope::app {

HelpTopic MainWindow::helpTopicFor(const QWidget* widget) const
{
    for (const QWidget* w = widget; w != nullptr; w = w->parentWidget()) {
        if (w == m_centreHost && m_centreDock)
            w = m_centreDock; // a docked view in the centre is still that view
        if (w == m_lessonDock)
            return HelpTopic::Lessons;
        if (w == m_occupancyDock)
            return HelpTopic::Occupancy;
        if (w == m_detailsDock)
            return HelpTopic::Details;
        if (w == m_formatsDock)
            return HelpTopic::Formats;
        if (w == m_studyDock)
            return HelpTopic::Study;
        if (w == m_executionScroll)
            return m_execution->memoryViewShown() ? HelpTopic::ExecutionMemory : HelpTopic::Execution;
        if (w == m_profileDock) {
            switch (m_profile->views()->currentTab()) {
            case viz::ProfileViews::Tab::Metrics: return HelpTopic::ProfileMetrics;
            case viz::ProfileViews::Tab::Bandwidth: return HelpTopic::ProfileBandwidth;
            case viz::ProfileViews::Tab::Roofline: return HelpTopic::ProfileRoofline;
            case viz::ProfileViews::Tab::Prediction: return HelpTopic::ProfilePrediction;
            case viz::ProfileViews::Tab::Session: return HelpTopic::ProfileSession;
            }
        }
        if (w == m_labDock) {
            switch (precisionLabTab()) {
            case PrecisionLabTab::MixedPrecision: return HelpTopic::MixedPrecision;
            case PrecisionLabTab::Quantization: return HelpTopic::Quantization;
            case PrecisionLabTab::Sparsity: return HelpTopic::Sparsity;
            }
        }
        if (w == m_modelsDock) {
            switch (m_models->currentTab()) {
            case viz::ModelsTab::Streams: return HelpTopic::Streams;
            case viz::ModelsTab::Pipeline: return HelpTopic::Pipeline;
            case viz::ModelsTab::MemoryBudget: return HelpTopic::MemoryBudget;
            case viz::ModelsTab::AllReduce: return HelpTopic::AllReduce;
            }
        }
    }
    // The canvas, the launch bar, or nothing of the window in focus: the central view that is shown.
    switch (canvasView()) {
    case CanvasView::Placement: return HelpTopic::Placement;
    case CanvasView::Execution: return m_execution->memoryViewShown() ? HelpTopic::ExecutionMemory : HelpTopic::Execution;
    case CanvasView::DockView:
        if (m_centreDock)
            return helpTopicFor(m_centreDock);
        break;
    case CanvasView::Hierarchy: break;
    }
    return HelpTopic::Hierarchy;
}

ViewHelp MainWindow::viewHelpFor(const QWidget* widget) const
{
    ViewHelp help = viewHelp(helpTopicFor(widget));
    // Practice has no lesson of its own: the question on screen names the one that explains it.
    if (help.topic == HelpTopic::Study && help.lessonId.isEmpty())
        if (const auto& item = m_study->quiz()->item(); item && !item->lessonLink.empty()) {
            try {
                help.lessonId = QString::fromStdString(parseViewLink(item->lessonLink).lessonId);
            } catch (const InputError&) {
                // A question's link is checked by its own tests (cli_study_test); none here.
            }
        }
    return help;
}

std::vector<ShortcutEntry> MainWindow::shortcutEntries() const
{
    return collectShortcuts(this, [this](const QWidget* widget) {
        // Named by the view, not by what it shows at the moment (a key of the Execution view works in
        // both of its canvases).
        HelpTopic topic = helpTopicFor(widget);
        if (topic == HelpTopic::ExecutionMemory)
            topic = HelpTopic::Execution;
        bool inView = false;
        for (const QWidget* w = widget; w != nullptr && !inView; w = w->parentWidget())
            inView = w == m_executionScroll || qobject_cast<const QDockWidget*>(w) != nullptr;
        return inView ? viewHelp(topic).view : QStringLiteral("Main window");
    });
}

void MainWindow::showShortcuts()
{
    if (m_shortcutsDialog != nullptr)
        m_shortcutsDialog->deleteLater();
    m_shortcutsDialog = new ShortcutsDialog(shortcutEntries(), this);
    m_shortcutsDialog->setAttribute(Qt::WA_DeleteOnClose);
    m_shortcutsDialog->show();
    m_shortcutsDialog->raise();
}

void MainWindow::showViewHelp()
{
    QWidget* focus = QApplication::focusWidget();
    if (focus != nullptr && focus->window() != this)
        focus = nullptr; // a dialog of ours, or another window: help for the view shown
    const ViewHelp help = viewHelpFor(focus);
    if (m_viewHelpDialog != nullptr)
        m_viewHelpDialog->deleteLater();
    auto* dialog = new QDialog(this);
    m_viewHelpDialog = dialog;
    dialog->setObjectName(QStringLiteral("viewHelpDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QStringLiteral("Help: %1").arg(help.view));
    auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(help.view.toHtmlEscaped()), dialog);
    auto* text = new QLabel(help.text, dialog);
    text->setObjectName(QStringLiteral("viewHelpText"));
    text->setTextFormat(Qt::PlainText);
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto heading = [dialog](const QString& text) { return new QLabel(QStringLiteral("<b>%1</b>").arg(text), dialog); };
    auto* tryFirst = new QLabel(help.tryFirst, dialog);
    tryFirst->setObjectName(QStringLiteral("viewHelpTryFirst"));
    tryFirst->setTextFormat(Qt::PlainText);
    tryFirst->setWordWrap(true);
    tryFirst->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const Lesson* lesson = help.lessonId.isEmpty() ? nullptr : m_lessons.find(help.lessonId);
    auto* explained = new QLabel(lesson ? QStringLiteral("The lesson \u201c%1\u201d.").arg(lesson->title)
                                        : QStringLiteral("No one lesson: the list on the left, in order, builds up to it."),
                                 dialog);
    explained->setObjectName(QStringLiteral("viewHelpExplainedIn"));
    explained->setTextFormat(Qt::PlainText);
    explained->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    if (lesson != nullptr) {
        QPushButton* open = buttons->addButton(QStringLiteral("Open the Lesson \u201c%1\u201d").arg(lesson->title),
                                               QDialogButtonBox::ActionRole);
        open->setObjectName(QStringLiteral("viewHelpLesson"));
        const QString id = lesson->id;
        connect(open, &QPushButton::clicked, this, [this, id, dialog] {
            m_lessonDock->show();
            m_lessonDock->raise();
            openLesson(id);
            dialog->close();
        });
    }
    QPushButton* keys = buttons->addButton(QStringLiteral("Keyboard Shortcuts"), QDialogButtonBox::HelpRole);
    connect(keys, &QPushButton::clicked, this, [this, dialog] {
        dialog->close();
        showShortcuts();
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(title);
    layout->addWidget(heading(QStringLiteral("What you are looking at")));
    layout->addWidget(text);
    layout->addWidget(heading(QStringLiteral("Try this first")));
    layout->addWidget(tryFirst);
    layout->addWidget(heading(QStringLiteral("Explained in")));
    layout->addWidget(explained);
    layout->addWidget(buttons);
    dialog->setMinimumWidth(440);
    dialog->resize(520, dialog->sizeHint().height());
    dialog->show();
    dialog->raise();
}

} // namespace warpscope::app
