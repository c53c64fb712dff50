// The window's study side: the Study dock (quiz, flashcards, advisor), the Study menu, search
// (Ctrl+K), progress export and import, and lessons marked read once scrolled to their end.
#include "window/main_window.h"

#include "lessons/lesson_measurements.h"
#include "profile/profile_panel.h"
#include "study/cards.h"
#include "study/flashcard_panel.h"
#include "study/advisor_panel.h"
#include "study/progress_store.h"
#include "study/quiz.h"
#include "study/quiz_panel.h"
#include "study/search_dialog.h"
#include "study/study_dock.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QStatusBar>
#include <QTextBrowser>
#include <QUrl>

namespace warpscope::app {

void MainWindow::buildStudyDock()
{
    const QString file = !m_options.progressFile.isEmpty() ? m_options.progressFile
                         : m_options.restoreSettings       ? ProgressStore::defaultPath()
                                                           : QString();
    m_progressStore = new ProgressStore(file, this);
    const std::optional<QString> loadError = m_progressStore->load();
    m_study = new StudyDock(*m_progressStore, this);
    std::vector<std::string> order;
    for (const Lesson& lesson : m_lessons.lessons())
        order.push_back(lesson.id.toStdString());
    m_study->advisor()->setLessonOrder(order);
    m_studyDock = new QDockWidget(QStringLiteral("Study"), this);
    m_studyDock->setObjectName(QStringLiteral("StudyDock"));
    m_studyDock->setWidget(m_study);
    addDockWidget(Qt::RightDockWidgetArea, m_studyDock);
    tabifyDockWidget(m_labDock, m_studyDock);
    connect(m_study, &StudyDock::linkRequested, this, [this](const QString& link) {
        if (!link.isEmpty())
            openLink(QUrl(link));
    });
    // A session with a measured memory ladder puts the learner's own latencies on the cards.
    connect(m_profile, &ProfilePanel::stateChanged, this, [this] {
        std::vector<study::Card> cards = study::deck();
        if (m_profile->hasSession() && m_profile->session().hierarchy && !m_profile->session().hierarchy->levels.empty()) {
            const auto& devices = m_profile->session().devices;
            cards = study::deckWithMeasurements(*m_profile->session().hierarchy, devices.empty() ? "GPU" : devices.front().name);
        }
        m_study->flashcards()->setCards(cards);
        m_study->advisor()->setCards(cards);
        // A lesson that shows the learner's measurements follows the open session, where it was.
        if (const Lesson* lesson = m_lessons.find(currentLessonId()); lesson && lessonShowsMeasurements(lesson->markdown)) {
            const int scroll = m_lessonView->verticalScrollBar()->value();
            openLesson(lesson->id);
            m_lessonView->verticalScrollBar()->setValue(scroll);
        }
    });
    // A lesson counts as read once the reader reaches its end.
    connect(m_lessonView->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        const QScrollBar* bar = m_lessonView->verticalScrollBar();
        if (bar->maximum() > 0 && value >= bar->maximum() && !currentLessonId().isEmpty())
            if (const auto error = m_progressStore->markLessonRead(currentLessonId()))
                showMessage(QStringLiteral("Study progress was not saved: %1").arg(*error), true);
    });
    if (loadError)
        m_pendingStudyMessage = *loadError;
}

void MainWindow::buildStudyMenu()
{
    QMenu* menu = menuBar()->addMenu(QStringLiteral("&Study"));
    QAction* quiz = menu->addAction(QStringLiteral("Practice &Quiz"), this, [this] { focusStudy(StudyTab::Quiz); });
    quiz->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    QAction* cards = menu->addAction(QStringLiteral("&Flashcards"), this, [this] { focusStudy(StudyTab::Flashcards); });
    cards->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QAction* advisor = menu->addAction(QStringLiteral("Study &Advisor"), this, [this] { focusStudy(StudyTab::Advisor); });
    advisor->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    QAction* search = menu->addAction(QStringLiteral("&Search Lessons, Cards and Questions..."), this, [this] { openStudySearch(); });
    search->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    menu->addSeparator();
    menu->addAction(QStringLiteral("&Export Progress..."), this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, QStringLiteral("Export Study Progress"), QStringLiteral("warpscope-progress.json"),
                                                          QStringLiteral("Progress (*.json)"));
        if (file.isEmpty())
            return;
        if (const auto error = m_progressStore->exportTo(file))
            showMessage(QStringLiteral("Progress was not exported: %1").arg(*error), true);
        else
            statusBar()->showMessage(QStringLiteral("Progress exported to %1").arg(file), 5000);
    });
    menu->addAction(QStringLiteral("&Import Progress..."), this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Import Study Progress"), QString(), QStringLiteral("Progress (*.json)"));
        if (file.isEmpty())
            return;
        if (const auto error = m_progressStore->importFrom(file))
            showMessage(QStringLiteral("Progress was not imported: %1").arg(*error), true);
        else
            statusBar()->showMessage(QStringLiteral("Progress from %1 merged with yours").arg(file), 5000);
    });
}

void MainWindow::focusStudy(StudyTab tab)
{
    m_study->showTab(tab);
    presentDockView(m_studyDock);
    if (tab == StudyTab::Flashcards)
        m_study->flashcards()->setFocus();
}

std::vector<SearchEntry> MainWindow::studySearchEntries() const
{
    std::vector<SearchEntry> entries;
    for (const Lesson& lesson : m_lessons.lessons())
        entries.push_back({SearchEntry::Kind::Lesson, lesson.id, lesson.title, lesson.markdown});
    for (const study::Card& card : study::deck())
        entries.push_back({SearchEntry::Kind::Card, QString::fromStdString(card.id), QString::fromStdString(card.front),
                           QString::fromStdString(card.back + " " + card.topic)});
    for (const study::Question& question : study::questionBank()) {
        const study::Topic* topic = study::findTopic(question.topic);
        entries.push_back({SearchEntry::Kind::Question, QString::fromUtf8(question.id.data(), static_cast<int>(question.id.size())),
                           QString::fromUtf8(question.title.data(), static_cast<int>(question.title.size())),
                           topic ? QString::fromUtf8(topic->title.data(), static_cast<int>(topic->title.size())) : QString()});
    }
    return entries;
}

void MainWindow::openSearchResult(const SearchEntry& entry)
{
    switch (entry.kind) {
    case SearchEntry::Kind::Lesson: openLesson(entry.key); break;
    case SearchEntry::Kind::Card:
        focusStudy(StudyTab::Flashcards);
        m_study->flashcards()->showCard(entry.key);
        break;
    case SearchEntry::Kind::Question:
        focusStudy(StudyTab::Quiz);
        m_study->quiz()->showQuestion(entry.key, static_cast<std::uint64_t>(ProgressStore::now() % 1000000));
        break;
    }
}

void MainWindow::openStudySearch()
{
    auto* dialog = new SearchDialog(studySearchEntries(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SearchDialog::chosen, this, &MainWindow::openSearchResult);
    dialog->open();
}

} // namespace warpscope::app
