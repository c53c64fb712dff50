// Flashcards with spaced repetition (SM-2, core/study/srs.h). The session's queue holds the cards
// that are due, then new cards; Space or a click reveals the answer with its source and memory hook;
// 1-4 grade it (Again, Hard, Good, Easy) and schedule the next review. Cards graded Again or Hard come
// back once more before the session ends.
#pragma once

#include "study/cards.h"
#include "study/srs.h"

#include <QWidget>

#include <deque>

class QComboBox;
class QLabel;
class QPushButton;

namespace warpscope::app {

class ProgressStore;

class FlashcardPanel : public QWidget {
    Q_OBJECT
public:
    explicit FlashcardPanel(ProgressStore& store, QWidget* parent = nullptr);

    void setCards(std::vector<study::Card> cards); // the deck (with the learner's measurements, if any)
    void setTopic(const QString& topic);           // "" for all
    void restart();                                // rebuilds the queue: due first, then new
    void showCard(const QString& id);              // puts one card in front (from search)
    void reveal();
    void grade(study::Grade grade);                // only after reveal

    QString currentCardId() const;
    bool revealed() const { return m_revealed; }
    int queued() const { return static_cast<int>(m_queue.size()); }

private:
    void showFront();

    ProgressStore& m_store;
    std::vector<study::Card> m_cards;
    std::deque<std::string> m_queue;
    bool m_revealed = false;
    QComboBox* m_topic = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_front = nullptr;
    QLabel* m_back = nullptr;
    QPushButton* m_reveal = nullptr;
    QWidget* m_grades = nullptr;
};

} // namespace warpscope::app
