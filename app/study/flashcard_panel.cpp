#include "study/flashcard_panel.h"

#include "study/progress_store.h"
#include "study/quiz.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace warpscope::app {

namespace {
constexpr int kNewCardsPerSession = 20;
}

FlashcardPanel::FlashcardPanel(ProgressStore& store, QWidget* parent) : QWidget(parent), m_store(store), m_cards(study::deck())
{
    auto* layout = new QVBoxLayout(this);
    m_topic = new QComboBox(this);
    m_topic->addItem(QStringLiteral("All topics"), QString());
    for (const study::Topic& topic : study::topics())
        m_topic->addItem(QString::fromUtf8(topic.title.data(), static_cast<int>(topic.title.size())),
                         QString::fromUtf8(topic.key.data(), static_cast<int>(topic.key.size())));
    m_topic->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_topic->setMinimumContentsLength(12);
    layout->addWidget(m_topic);
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    layout->addWidget(m_status);
    m_front = new QLabel(this);
    m_front->setTextFormat(Qt::PlainText);
    m_front->setWordWrap(true);
    QFont big = m_front->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_front->setFont(big);
    m_front->setMinimumHeight(60);
    layout->addWidget(m_front);
    m_reveal = new QPushButton(QStringLiteral("Show Answer (Space)"), this);
    layout->addWidget(m_reveal);
    m_back = new QLabel(this);
    m_back->setTextFormat(Qt::PlainText);
    m_back->setWordWrap(true);
    m_back->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_back);
    m_grades = new QWidget(this);
    auto* grades = new QHBoxLayout(m_grades);
    grades->setContentsMargins(0, 0, 0, 0);
    for (study::Grade grade : {study::Grade::Again, study::Grade::Hard, study::Grade::Good, study::Grade::Easy}) {
        const int key = static_cast<int>(grade);
        auto* button = new QPushButton(QStringLiteral("%1 %2").arg(key).arg(QString::fromUtf8(study::gradeName(grade).data())), m_grades);
        button->setToolTip(QStringLiteral("Key %1").arg(key));
        grades->addWidget(button);
        connect(button, &QPushButton::clicked, this, [this, grade] { this->grade(grade); });
        auto* shortcut = new QShortcut(QKeySequence(Qt::Key_0 + key), this, [this, grade] { this->grade(grade); });
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    }
    layout->addWidget(m_grades);
    layout->addStretch(1);
    auto* space = new QShortcut(QKeySequence(Qt::Key_Space), this, [this] { reveal(); });
    space->setContext(Qt::WidgetWithChildrenShortcut);
    connect(m_reveal, &QPushButton::clicked, this, &FlashcardPanel::reveal);
    connect(m_topic, &QComboBox::currentIndexChanged, this, &FlashcardPanel::restart);
    restart();
}

void FlashcardPanel::setCards(std::vector<study::Card> cards)
{
    m_cards = std::move(cards);
    restart();
}

void FlashcardPanel::setTopic(const QString& topic)
{
    const int index = m_topic->findData(topic);
    if (index >= 0)
        m_topic->setCurrentIndex(index);
}

void FlashcardPanel::restart()
{
    const std::string topic = m_topic->currentData().toString().toStdString();
    const std::int64_t today = ProgressStore::today();
    const auto& scheduled = m_store.progress().cards;
    m_queue.clear();
    std::vector<std::string> fresh;
    for (const study::Card& card : m_cards) {
        if (!topic.empty() && card.topic != topic)
            continue;
        const auto found = scheduled.find(card.id);
        if (found == scheduled.end() || found->second.reviews == 0)
            fresh.push_back(card.id);
        else if (found->second.dueDay <= today)
            m_queue.push_back(card.id);
    }
    for (std::size_t i = 0; i < fresh.size() && i < static_cast<std::size_t>(kNewCardsPerSession); ++i)
        m_queue.push_back(fresh[i]);
    showFront();
}

void FlashcardPanel::showCard(const QString& id)
{
    if (!study::findCard(m_cards, id.toStdString()))
        return;
    m_topic->blockSignals(true);
    m_topic->setCurrentIndex(0);
    m_topic->blockSignals(false);
    m_queue.push_front(id.toStdString());
    showFront();
}

QString FlashcardPanel::currentCardId() const { return m_queue.empty() ? QString() : QString::fromStdString(m_queue.front()); }

void FlashcardPanel::showFront()
{
    m_revealed = false;
    m_back->clear();
    m_grades->setEnabled(false);
    if (m_queue.empty()) {
        std::int64_t next = -1;
        for (const auto& [id, schedule] : m_store.progress().cards)
            if (schedule.reviews > 0 && (next < 0 || schedule.dueDay < next))
                next = schedule.dueDay;
        const std::int64_t days = next < 0 ? -1 : next - ProgressStore::today();
        m_front->setText(QStringLiteral("No cards due."));
        m_status->setText(days < 0 ? QStringLiteral("Nothing scheduled yet.")
                                   : QStringLiteral("The next review is due in %1 day%2.").arg(days).arg(days == 1 ? "" : "s"));
        m_reveal->setEnabled(false);
        return;
    }
    const study::Card* card = study::findCard(m_cards, m_queue.front());
    m_front->setText(QString::fromStdString(card->front));
    m_status->setText(QStringLiteral("%1 card%2 in this session%3")
                          .arg(m_queue.size())
                          .arg(m_queue.size() == 1 ? "" : "s")
                          .arg(card->keyNumber ? QStringLiteral(" · key number") : QString()));
    m_reveal->setEnabled(true);
}

void FlashcardPanel::reveal()
{
    if (m_queue.empty() || m_revealed)
        return;
    const study::Card* card = study::findCard(m_cards, m_queue.front());
    QString back = QString::fromStdString(card->back) + QStringLiteral("\n\nSource: ") + QString::fromStdString(card->source);
    if (!card->hook.empty())
        back += QStringLiteral("\nHook: ") + QString::fromStdString(card->hook);
    m_back->setText(back);
    m_revealed = true;
    m_grades->setEnabled(true);
}

void FlashcardPanel::grade(study::Grade grade)
{
    if (m_queue.empty() || !m_revealed)
        return;
    const std::string id = m_queue.front();
    m_queue.pop_front();
    const auto& cards = m_store.progress().cards;
    const auto found = cards.find(id);
    const study::CardSchedule before = found == cards.end() ? study::CardSchedule{} : found->second;
    const study::ReviewOutcome outcome = study::review(before, grade, ProgressStore::today());
    const auto error = m_store.recordReview(QString::fromStdString(id), outcome.next);
    if (outcome.againThisSession)
        m_queue.push_back(id);
    showFront();
    if (error)
        m_status->setText(QStringLiteral("Not saved: %1").arg(*error));
}

} // namespace warpscope::app
