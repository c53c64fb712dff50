#include "study/study_dock.h"

#include "study/advisor_panel.h"
#include "study/flashcard_panel.h"
#include "study/progress_store.h"
#include "study/quiz_panel.h"

namespace warpscope::app {

StudyDock::StudyDock(ProgressStore& store, QWidget* parent) : QTabWidget(parent)
{
    m_quiz = new QuizPanel(store, this);
    m_cards = new FlashcardPanel(store, this);
    m_advisor = new AdvisorPanel(store, this);
    addTab(m_quiz, QStringLiteral("Quiz"));
    addTab(m_cards, QStringLiteral("Flashcards"));
    addTab(m_advisor, QStringLiteral("Advisor"));
    connect(m_quiz, &QuizPanel::linkRequested, this, &StudyDock::linkRequested);
    connect(m_advisor, &AdvisorPanel::linkRequested, this, &StudyDock::linkRequested);
    connect(m_advisor, &AdvisorPanel::cardsRequested, this, [this] {
        m_cards->restart();
        showTab(StudyTab::Flashcards);
    });
    connect(m_advisor, &AdvisorPanel::quizRequested, this, [this](const QString& topic, const QString& question) {
        m_quiz->setTopic(topic);
        if (!question.isEmpty())
            m_quiz->showQuestion(question, static_cast<std::uint64_t>(ProgressStore::now() % 1000000));
        showTab(StudyTab::Quiz);
    });
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == static_cast<int>(StudyTab::Advisor))
            m_advisor->refresh();
    });
}

} // namespace warpscope::app
