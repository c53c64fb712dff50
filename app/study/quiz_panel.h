// The practice quiz: one question at a time, from all topics or one, with its parameters drawn from
// a fresh seed each time. Multiple choice by radio buttons (or the keys 1-4 / a-d), numbers typed in a
// field that says beside it what is wrong with a malformed answer. After each answer: right or not,
// the expected value, the explanation, and links to the figure and the lesson. A predict-then-reveal
// question opens its figure once answered, so the figure shows what was predicted.
#pragma once

#include "study/quiz.h"

#include <QWidget>

#include <optional>
#include <vector>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

namespace warpscope::app {

class ProgressStore;

class QuizPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuizPanel(ProgressStore& store, QWidget* parent = nullptr);

    void setTopic(const QString& topic);                 // "" for all topics
    void showQuestion(const QString& id, std::uint64_t seed);
    void nextQuestion();                                 // a random question of the topic, new seed
    // Checks `answer` (as typed or the choice's letter). Returns the error shown beside the field
    // for a malformed answer; nullopt when it was graded.
    std::optional<QString> submit(const QString& answer);

    const std::optional<study::QuizItem>& item() const { return m_item; }
    std::optional<bool> lastCorrect() const { return m_lastCorrect; }
    QString resultText() const;
    QString fieldError() const;

signals:
    void linkRequested(const QString& link);

private:
    void check();
    void showResult(const study::AnswerResult& result);

    ProgressStore& m_store;
    std::optional<study::QuizItem> m_item;
    std::optional<bool> m_lastCorrect;
    std::uint64_t m_seedCounter;
    QComboBox* m_topic = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_prompt = nullptr;
    QWidget* m_choicesBox = nullptr;
    QVBoxLayout* m_choicesLayout = nullptr;
    QButtonGroup* m_choices = nullptr;
    std::vector<QWidget*> m_choiceRows; // one per choice: its radio button and its wrapped text
    QLineEdit* m_answer = nullptr;
    QLabel* m_fieldError = nullptr;
    QPushButton* m_check = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_figure = nullptr;
    QPushButton* m_lesson = nullptr;
};

} // namespace warpscope::app
