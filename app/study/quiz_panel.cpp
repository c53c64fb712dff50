#include "study/quiz_panel.h"

#include "study/progress_store.h"
#include "util/input_error.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QShortcut>
#include <QVBoxLayout>

#include <functional>
#include <utility>

namespace warpscope::app {

namespace {

// A choice's text, wrapped to the dock's width; a click picks the choice as a click on its button would.
class ChoiceLabel : public QLabel {
public:
    ChoiceLabel(const QString& text, std::function<void()> picked, QWidget* parent)
        : QLabel(text, parent), m_picked(std::move(picked))
    {
        setTextFormat(Qt::PlainText);
        setWordWrap(true);
        setCursor(Qt::PointingHandCursor);
    }

protected:
    void mousePressEvent(QMouseEvent* event) override
    {
        m_picked();
        QLabel::mousePressEvent(event);
    }

private:
    std::function<void()> m_picked;
};

} // namespace

QuizPanel::QuizPanel(ProgressStore& store, QWidget* parent)
    : QWidget(parent), m_store(store), m_seedCounter(static_cast<std::uint64_t>(QDateTime::currentMSecsSinceEpoch()))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    m_topic = new QComboBox(this);
    m_topic->addItem(QStringLiteral("All topics"), QString());
    for (const study::Topic& topic : study::topics())
        m_topic->addItem(QString::fromUtf8(topic.title.data(), static_cast<int>(topic.title.size())),
                         QString::fromUtf8(topic.key.data(), static_cast<int>(topic.key.size())));
    m_topic->setToolTip(QStringLiteral("Practise one topic, or all of them"));
    m_topic->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_topic->setMinimumContentsLength(12);
    auto* next = new QPushButton(QStringLiteral("&New Question"), this);
    next->setToolTip(QStringLiteral("A new question with freshly drawn numbers (Ctrl+N in this panel)"));
    top->addWidget(m_topic, 1);
    top->addWidget(next);
    layout->addLayout(top);

    m_header = new QLabel(this);
    m_header->setTextFormat(Qt::PlainText);
    m_header->setWordWrap(true); // a long topic title must not widen the dock (and the window)
    m_header->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    layout->addWidget(m_header);
    m_prompt = new QLabel(this);
    m_prompt->setTextFormat(Qt::PlainText);
    m_prompt->setWordWrap(true);
    m_prompt->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont promptFont = m_prompt->font();
    promptFont.setPointSizeF(promptFont.pointSizeF() * 1.1);
    m_prompt->setFont(promptFont);
    layout->addWidget(m_prompt);

    m_choicesBox = new QWidget(this);
    m_choicesLayout = new QVBoxLayout(m_choicesBox);
    m_choicesLayout->setContentsMargins(0, 0, 0, 0);
    m_choices = new QButtonGroup(this);
    layout->addWidget(m_choicesBox);

    auto* answerRow = new QHBoxLayout;
    m_answer = new QLineEdit(this);
    m_answer->setAccessibleName(QStringLiteral("Answer"));
    m_check = new QPushButton(QStringLiteral("&Check"), this);
    m_check->setDefault(true);
    answerRow->addWidget(m_answer, 1);
    answerRow->addWidget(m_check);
    layout->addLayout(answerRow);
    m_fieldError = new QLabel(this);
    m_fieldError->setTextFormat(Qt::PlainText);
    m_fieldError->setWordWrap(true);
    m_fieldError->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_fieldError->hide();
    layout->addWidget(m_fieldError);

    m_result = new QLabel(this);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);
    auto* links = new QHBoxLayout;
    m_figure = new QPushButton(QStringLiteral("Show in the &Figure"), this);
    m_lesson = new QPushButton(QStringLiteral("Open the &Lesson"), this);
    links->addWidget(m_figure);
    links->addWidget(m_lesson);
    links->addStretch(1);
    layout->addLayout(links);
    layout->addStretch(1);

    connect(next, &QPushButton::clicked, this, &QuizPanel::nextQuestion);
    auto* nextShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_N), this, [this] { nextQuestion(); });
    nextShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(m_topic, &QComboBox::currentIndexChanged, this, [this] { nextQuestion(); });
    connect(m_check, &QPushButton::clicked, this, &QuizPanel::check);
    connect(m_answer, &QLineEdit::returnPressed, this, &QuizPanel::check);
    connect(m_answer, &QLineEdit::textEdited, this, [this] { m_fieldError->hide(); });
    connect(m_figure, &QPushButton::clicked, this, [this] {
        if (m_item)
            emit linkRequested(QString::fromStdString(m_item->figureLink));
    });
    connect(m_lesson, &QPushButton::clicked, this, [this] {
        if (m_item)
            emit linkRequested(QString::fromStdString(m_item->lessonLink));
    });
    nextQuestion();
}

void QuizPanel::setTopic(const QString& topic)
{
    const int index = m_topic->findData(topic);
    if (index >= 0 && index != m_topic->currentIndex())
        m_topic->setCurrentIndex(index); // asks a new question
}

void QuizPanel::nextQuestion()
{
    const QString topic = m_topic->currentData().toString();
    std::vector<const study::Question*> candidates;
    for (const study::Question& question : study::questionBank())
        if (topic.isEmpty() || QString::fromUtf8(question.topic.data(), static_cast<int>(question.topic.size())) == topic)
            candidates.push_back(&question);
    if (candidates.empty())
        return;
    study::QuizRng pick(++m_seedCounter);
    const study::Question* question = candidates[static_cast<std::size_t>(pick.uniform(0, static_cast<int>(candidates.size()) - 1))];
    showQuestion(QString::fromUtf8(question->id.data(), static_cast<int>(question->id.size())), pick.next() % 1000000);
}

void QuizPanel::showQuestion(const QString& id, std::uint64_t seed)
{
    try {
        m_item = study::askQuestion(id.toStdString(), seed);
    } catch (const InputError& error) { // a question the engine refuses is said, never a crash
        m_item.reset();
        m_header->setText(QStringLiteral("%1 (seed %2) could not be asked").arg(id).arg(seed));
        m_prompt->setText(QStringLiteral("%1. Press New Question for another.").arg(QString::fromUtf8(error.what())));
        return;
    }
    m_lastCorrect.reset();
    const study::Topic* topic = study::findTopic(m_item->topic);
    QString kind = m_item->kind == study::QuestionKind::Predict
                       ? (m_item->figureLink.empty() ? QStringLiteral("predict") : QStringLiteral("predict, then the figure reveals it"))
                   : m_item->kind == study::QuestionKind::Choice ? QStringLiteral("multiple choice")
                                                                 : QStringLiteral("number");
    m_header->setText(QStringLiteral("%1 · %2 · %3 (seed %4)")
                          .arg(topic ? QString::fromUtf8(topic->title.data(), static_cast<int>(topic->title.size())) : QString(), kind,
                               QString::fromStdString(m_item->id))
                          .arg(seed));
    m_prompt->setText(QString::fromStdString(m_item->prompt));
    const bool choice = m_item->kind == study::QuestionKind::Choice;
    for (QWidget* row : m_choiceRows)
        delete row; // and its radio button, which leaves the group as it is destroyed
    m_choiceRows.clear();
    for (std::size_t i = 0; i < m_item->choices.size(); ++i) {
        // A radio button's text never wraps, so a long choice would widen the dock and the window:
        // the button carries the letter and a wrapping label beside it the choice (a click on it picks).
        auto* row = new QWidget(m_choicesBox);
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto* radio = new QRadioButton(QStringLiteral("%1)").arg(QChar('a' + static_cast<int>(i))), row);
        auto* text = new ChoiceLabel(QString::fromStdString(m_item->choices[i]), [radio] { radio->setChecked(true); }, row);
        radio->setAccessibleName(text->text());
        rowLayout->addWidget(radio, 0, Qt::AlignTop);
        rowLayout->addWidget(text, 1);
        m_choices->addButton(radio, static_cast<int>(i));
        m_choicesLayout->addWidget(row);
        m_choiceRows.push_back(row);
    }
    m_choicesBox->setVisible(choice);
    m_answer->setVisible(!choice);
    m_answer->clear();
    m_answer->setPlaceholderText(m_item->unit.empty() ? QStringLiteral("a number, such as 0.75 or 3e-8")
                                 : m_item->unit == "mask" ? QStringLiteral("a mask in hex, such as 0x0000FFFF")
                                 : m_item->unit == "%"    ? QStringLiteral("a percentage, such as 75 or 75%")
                                                          : QStringLiteral("in %1").arg(QString::fromStdString(m_item->unit)));
    m_fieldError->hide();
    m_result->clear();
    m_figure->setEnabled(false);
    m_lesson->setEnabled(!m_item->lessonLink.empty());
    if (!choice)
        m_answer->setFocus();
}

std::optional<QString> QuizPanel::submit(const QString& answer)
{
    if (!m_item)
        return QStringLiteral("no question");
    try {
        const study::AnswerResult result = study::checkAnswer(*m_item, answer.toStdString());
        m_fieldError->hide();
        showResult(result);
        return std::nullopt;
    } catch (const InputError& error) {
        m_fieldError->setText(QString::fromStdString(error.what()));
        m_fieldError->show();
        return m_fieldError->text();
    }
}

void QuizPanel::check()
{
    if (!m_item)
        return;
    if (m_item->kind == study::QuestionKind::Choice) {
        const int chosen = m_choices->checkedId();
        if (chosen < 0) {
            m_fieldError->setText(QStringLiteral("Pick one of the choices first."));
            m_fieldError->show();
            return;
        }
        submit(QString(QChar('a' + chosen)));
        return;
    }
    submit(m_answer->text());
}

void QuizPanel::showResult(const study::AnswerResult& result)
{
    m_lastCorrect = result.correct;
    m_result->setText(QStringLiteral("%1 Expected: %2\n\n%3")
                          .arg(result.correct ? QStringLiteral("✔ Correct.") : QStringLiteral("✘ Not quite (you answered %1).").arg(QString::fromStdString(result.given)),
                               QString::fromStdString(result.expected), QString::fromStdString(result.explanation)));
    m_result->setStyleSheet(result.correct ? QStringLiteral("color: #1e8449;") : QString());
    m_figure->setEnabled(!m_item->figureLink.empty());
    study::QuizAnswer answer;
    answer.question = m_item->id;
    answer.topic = m_item->topic;
    answer.seed = m_item->seed;
    answer.correct = result.correct;
    answer.at = ProgressStore::now();
    if (const auto error = m_store.recordAnswer(answer))
        m_result->setText(m_result->text() + QStringLiteral("\n\nYour answer was not saved: %1").arg(*error));
    if (m_item->kind == study::QuestionKind::Predict && !m_item->figureLink.empty())
        emit linkRequested(QString::fromStdString(m_item->figureLink)); // the reveal
}

QString QuizPanel::resultText() const { return m_result->text(); }

QString QuizPanel::fieldError() const { return m_fieldError->isHidden() ? QString() : m_fieldError->text(); }

} // namespace warpscope::app
