#include "study/advisor_panel.h"

#include "lessons/lesson_library.h"
#include "study/progress_store.h"
#include "study/quiz.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

study::LessonTitles compiledLessonTitles()
{
    study::LessonTitles titles;
    const LessonLibrary library = LessonLibrary::load(); // kept: lessons() is a reference into it
    for (const Lesson& lesson : library.lessons())
        titles[lesson.id.toStdString()] = lesson.title.toStdString();
    return titles;
}

} // namespace

AdvisorPanel::AdvisorPanel(ProgressStore& store, QWidget* parent)
    : QWidget(parent), m_store(store), m_titles(compiledLessonTitles()), m_cards(study::deck())
{
    auto* layout = new QVBoxLayout(this);
    auto* next = new QLabel(QStringLiteral("Next steps (double-click or Enter to go):"), this);
    layout->addWidget(next);
    m_suggestions = new QListWidget(this);
    m_suggestions->setWordWrap(true);
    m_suggestions->setSpacing(2);
    m_suggestions->setMaximumHeight(260); // five steps, each with its reason on a line or two
    layout->addWidget(m_suggestions);
    layout->addWidget(new QLabel(QStringLiteral("Mastery by topic (last 10 answers; card reviews recalled):"), this));
    m_table = new QTableWidget(0, 3, this);
    m_table->setHorizontalHeaderLabels({QStringLiteral("Topic"), QStringLiteral("Mastery"), QStringLiteral("Evidence")});
    // Interactive columns sized once per refresh: content-sized columns would make the dock (and the
    // window) as wide as the longest topic name.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumWidth(200);
    m_table->setWordWrap(true);
    m_suggestions->setMinimumWidth(200);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    layout->addWidget(m_table, 1);
    connect(m_suggestions, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { activate(m_suggestions->row(item)); });
    connect(&m_store, &ProgressStore::changed, this, &AdvisorPanel::refresh);
}

void AdvisorPanel::setLessonOrder(std::vector<std::string> lessons)
{
    m_lessons = std::move(lessons);
    refresh();
}

void AdvisorPanel::setLessonTitles(study::LessonTitles titles)
{
    m_titles = std::move(titles);
    refresh();
}

QString AdvisorPanel::suggestionText(int suggestion) const
{
    const QListWidgetItem* item = m_suggestions->item(suggestion);
    return item != nullptr ? item->text() : QString();
}

void AdvisorPanel::setCards(std::vector<study::Card> cards)
{
    m_cards = std::move(cards);
    refresh();
}

void AdvisorPanel::refresh()
{
    m_advice = study::advise(m_store.progress(), m_cards, m_lessons, ProgressStore::today(), 5, m_titles);
    m_suggestions->clear();
    for (const study::Suggestion& s : m_advice.suggestions) {
        // The step, lessons named by their titles, and on the next line why the advisor suggests it.
        auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(QString::fromStdString(s.step), QString::fromStdString(s.why)),
                                         m_suggestions);
        item->setToolTip(QString::fromStdString(s.reason));
    }
    m_table->setRowCount(0);
    for (const study::TopicMastery& m : m_advice.topics) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const study::Topic* topic = study::findTopic(m.topic);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromUtf8(topic->title.data(), static_cast<int>(topic->title.size()))));
        m_table->setItem(row, 1, new QTableWidgetItem(m.mastery < 0 ? QStringLiteral("—") : QStringLiteral("%1 %").arg(std::lround(m.mastery * 100))));
        QStringList evidence;
        if (m.answered > 0)
            evidence << QStringLiteral("%1 of %2 right").arg(m.correct).arg(m.answered);
        if (m.cardReviews > 0)
            evidence << QStringLiteral("%1 of %2 review%3 recalled").arg(m.cardReviews - m.cardLapses).arg(m.cardReviews).arg(m.cardReviews == 1 ? "" : "s");
        if (m.cardsDue > 0)
            evidence << QStringLiteral("%1 due").arg(m.cardsDue);
        if (evidence.isEmpty())
            evidence << (m.lessonRead ? QStringLiteral("lesson read; not practised") : QStringLiteral("not started"));
        m_table->setItem(row, 2, new QTableWidgetItem(evidence.join(QStringLiteral("; "))));
    }
    m_table->resizeColumnToContents(0);
    m_table->resizeColumnToContents(1);
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), 220));
}

void AdvisorPanel::activate(int index)
{
    if (index < 0 || index >= static_cast<int>(m_advice.suggestions.size()))
        return;
    const study::Suggestion& s = m_advice.suggestions[static_cast<std::size_t>(index)];
    switch (s.kind) {
    case study::SuggestionKind::Cards: emit cardsRequested(); break;
    case study::SuggestionKind::Lesson: emit linkRequested(QString::fromStdString(s.link)); break;
    case study::SuggestionKind::Quiz: emit quizRequested(QString::fromStdString(s.topic), QString::fromStdString(s.target)); break;
    }
}

} // namespace warpscope::app
