// The Study dock: the practice quiz, the flashcards and the advisor as three tabs over one
// ProgressStore, plus the search (Ctrl+K) over lessons, cards and quiz questions.
#pragma once

#include <QTabWidget>

namespace warpscope::app {

class AdvisorPanel;
class FlashcardPanel;
class ProgressStore;
class QuizPanel;

enum class StudyTab { Quiz = 0, Flashcards = 1, Advisor = 2 };

class StudyDock : public QTabWidget {
    Q_OBJECT
public:
    StudyDock(ProgressStore& store, QWidget* parent = nullptr);

    QuizPanel* quiz() const { return m_quiz; }
    FlashcardPanel* flashcards() const { return m_cards; }
    AdvisorPanel* advisor() const { return m_advisor; }
    void showTab(StudyTab tab) { setCurrentIndex(static_cast<int>(tab)); }

signals:
    void linkRequested(const QString& link);

private:
    QuizPanel* m_quiz = nullptr;
    FlashcardPanel* m_cards = nullptr;
    AdvisorPanel* m_advisor = nullptr;
};

} // namespace warpscope::app
