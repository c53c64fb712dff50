// The study advisor in the window: mastery per topic (from quiz answers and card retention) and the
// suggested next steps, each with its reason; activating a suggestion goes there.
#pragma once

#include "study/advisor.h"

#include <QWidget>

class QListWidget;
class QTableWidget;

namespace warpscope::app {

class ProgressStore;

class AdvisorPanel : public QWidget {
    Q_OBJECT
public:
    AdvisorPanel(ProgressStore& store, QWidget* parent = nullptr);

    void setLessonOrder(std::vector<std::string> lessons);
    // The lessons' titles by id, which the suggestions name lessons by; at first those of the lessons
    // compiled into the program.
    void setLessonTitles(study::LessonTitles titles);
    QString suggestionText(int suggestion) const; // as the list shows it: the step, then why
    void setCards(std::vector<study::Card> cards);
    void refresh();
    const study::Advice& advice() const { return m_advice; }
    void activate(int suggestion); // as a double-click on it

signals:
    void linkRequested(const QString& link);
    void quizRequested(const QString& topic, const QString& questionId);
    void cardsRequested();

private:
    ProgressStore& m_store;
    std::vector<std::string> m_lessons;
    study::LessonTitles m_titles;
    std::vector<study::Card> m_cards;
    study::Advice m_advice;
    QListWidget* m_suggestions = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace warpscope::app
