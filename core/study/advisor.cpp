#include "study/advisor.h"

#include "study/quiz.h"

#include <algorithm>
#include <utility>

namespace warpscope::study {
namespace {

constexpr int kRecentAnswers = 10;
constexpr int kWeakMinimum = 3;
constexpr double kWeakShare = 0.7;
constexpr int kUnpractisedShown = 2;

std::string topicTitle(const std::string& key)
{
    const Topic* topic = findTopic(key);
    return topic ? std::string(topic->title) : key;
}

} // namespace

Advice advise(const Progress& progress, const std::vector<Card>& cards, const std::vector<std::string>& lessonOrder, std::int64_t today,
              std::size_t limit)
{
    Advice advice;
    for (const Topic& topic : topics()) {
        TopicMastery m;
        m.topic = std::string(topic.key);
        m.lessonRead = !topic.lesson.empty() && progress.hasRead(topic.lesson);
        int seen = 0;
        for (auto it = progress.answers.rbegin(); it != progress.answers.rend() && seen < kRecentAnswers; ++it)
            if (it->topic == topic.key) {
                ++seen;
                m.correct += it->correct ? 1 : 0;
            }
        m.answered = seen;
        for (const Card& card : cards) {
            if (card.topic != topic.key)
                continue;
            const auto found = progress.cards.find(card.id);
            if (found == progress.cards.end())
                continue;
            m.cardReviews += found->second.reviews;
            m.cardLapses += found->second.lapses;
            if (isDue(found->second, today))
                ++m.cardsDue;
        }
        const bool quizKnown = m.answered > 0, cardsKnown = m.cardReviews > 0;
        const double quiz = quizKnown ? static_cast<double>(m.correct) / m.answered : 0;
        const double retention = cardsKnown ? 1.0 - static_cast<double>(m.cardLapses) / m.cardReviews : 0;
        if (quizKnown && cardsKnown)
            m.mastery = 0.7 * quiz + 0.3 * retention;
        else if (quizKnown)
            m.mastery = quiz;
        else if (cardsKnown)
            m.mastery = retention;
        advice.topics.push_back(m);
    }

    auto add = [&](Suggestion suggestion) {
        if (advice.suggestions.size() < limit)
            advice.suggestions.push_back(std::move(suggestion));
    };

    // 1. Due cards (only cards already started: new cards are not "due" for the advisor).
    int due = 0;
    for (const auto& [id, schedule] : progress.cards)
        if (schedule.reviews > 0 && schedule.dueDay <= today && findCard(cards, id))
            ++due;
    if (due > 0)
        add({SuggestionKind::Cards, "", "", std::to_string(due) + (due == 1 ? " card is" : " cards are") + " due for review today", ""});

    // 2. Weak topics, weakest first.
    std::vector<const TopicMastery*> weak;
    for (const TopicMastery& m : advice.topics)
        if (m.answered >= kWeakMinimum && static_cast<double>(m.correct) / m.answered < kWeakShare)
            weak.push_back(&m);
    std::stable_sort(weak.begin(), weak.end(), [](const TopicMastery* a, const TopicMastery* b) {
        return static_cast<double>(a->correct) / a->answered < static_cast<double>(b->correct) / b->answered;
    });
    for (const TopicMastery* m : weak) {
        const std::string score = topicTitle(m->topic) + ": " + std::to_string(m->correct) + " of " + std::to_string(m->answered) + " right";
        const Topic* topic = findTopic(m->topic);
        if (topic && !topic->lesson.empty() && !m->lessonRead) {
            add({SuggestionKind::Lesson, m->topic, std::string(topic->lesson), score + "; its lesson is not read yet",
                 "warpscope:lesson?id=" + std::string(topic->lesson)});
            continue;
        }
        std::string question;
        for (auto it = progress.answers.rbegin(); it != progress.answers.rend(); ++it)
            if (it->topic == m->topic && !it->correct && findQuestion(it->question)) {
                question = it->question;
                break;
            }
        add({SuggestionKind::Quiz, m->topic, question, score + (question.empty() ? "" : "; try " + question + " again with a new seed"), ""});
    }

    // 3. Read but never practised (two at most, so the next lesson still shows).
    int unpractised = 0;
    for (const TopicMastery& m : advice.topics)
        if (m.lessonRead && m.answered == 0 && unpractised < kUnpractisedShown) {
            ++unpractised;
            add({SuggestionKind::Quiz, m.topic, "", topicTitle(m.topic) + ": lesson read, no quiz answered yet", ""});
        }

    // 4. The next unread lesson.
    for (const std::string& lesson : lessonOrder)
        if (!progress.hasRead(lesson)) {
            add({SuggestionKind::Lesson, "", lesson, "next lesson not read yet", "warpscope:lesson?id=" + lesson});
            break;
        }
    return advice;
}

} // namespace warpscope::study
