#include "study/advisor.h"

#include "study/quiz.h"

#include <algorithm>
#include <cmath>
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

// A lesson as the learner knows it: its title in quotation marks, or its id when no title is known.
std::string lessonName(const LessonTitles& titles, const std::string& id)
{
    const auto found = titles.find(id);
    return "\u201c" + (found != titles.end() && !found->second.empty() ? found->second : id) + "\u201d";
}

std::string score(const TopicMastery& m)
{
    return std::to_string(m.correct) + " of your last " + std::to_string(m.answered) + " answers on " + topicTitle(m.topic) +
           " were right (" + std::to_string(m.correct * 100 / m.answered) + " %, under the " +
           std::to_string(std::lround(kWeakShare * 100)) + " % that counts as known)";
}

} // namespace

Advice advise(const Progress& progress, const std::vector<Card>& cards, const std::vector<std::string>& lessonOrder, std::int64_t today,
              std::size_t limit, const LessonTitles& lessonTitles)
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
    if (due > 0) {
        const std::string cardsText = std::to_string(due) + (due == 1 ? " card" : " cards");
        add({SuggestionKind::Cards, "", "", cardsText + (due == 1 ? " is" : " are") + " due for review today", "",
             "Review " + cardsText + " due today",
             "Spaced repetition works on schedule (SM-2): each card recalled when it falls due comes back after a longer "
             "interval (1 day, 6 days, then the last interval times the card's ease, 2.5 to start); one forgotten starts "
             "again at 1 day."});
    }

    // 2. Weak topics, weakest first.
    std::vector<const TopicMastery*> weak;
    for (const TopicMastery& m : advice.topics)
        if (m.answered >= kWeakMinimum && static_cast<double>(m.correct) / m.answered < kWeakShare)
            weak.push_back(&m);
    std::stable_sort(weak.begin(), weak.end(), [](const TopicMastery* a, const TopicMastery* b) {
        return static_cast<double>(a->correct) / a->answered < static_cast<double>(b->correct) / b->answered;
    });
    for (const TopicMastery* m : weak) {
        const std::string brief = topicTitle(m->topic) + ": " + std::to_string(m->correct) + " of " + std::to_string(m->answered) + " right";
        const Topic* topic = findTopic(m->topic);
        if (topic && !topic->lesson.empty() && !m->lessonRead) {
            const std::string lesson(topic->lesson);
            add({SuggestionKind::Lesson, m->topic, lesson, brief + "; its lesson is not read yet", "warpscope:lesson?id=" + lesson,
                 "Read " + lessonName(lessonTitles, lesson),
                 score(*m) + ", and you have not read the lesson that teaches it: reading it first makes the next "
                             "questions practice rather than guesswork."});
            continue;
        }
        std::string question;
        for (auto it = progress.answers.rbegin(); it != progress.answers.rend(); ++it)
            if (it->topic == m->topic && !it->correct && findQuestion(it->question)) {
                question = it->question;
                break;
            }
        add({SuggestionKind::Quiz, m->topic, question, brief + (question.empty() ? "" : "; try " + question + " again with a new seed"), "",
             "Practise " + topicTitle(m->topic) + (question.empty() ? "" : ": " + question + " again"),
             score(*m) + (question.empty() ? ": more questions on it will show where it goes wrong."
                                           : ". " + question + " is the one you missed most recently; it comes back with new "
                                             "numbers, so the method is practised, not the answer remembered.")});
    }

    // 3. Read but never practised (two at most, so the next lesson still shows).
    int unpractised = 0;
    for (const TopicMastery& m : advice.topics)
        if (m.lessonRead && m.answered == 0 && unpractised < kUnpractisedShown) {
            ++unpractised;
            const Topic* topic = findTopic(m.topic);
            const std::string lesson = topic != nullptr ? std::string(topic->lesson) : std::string();
            add({SuggestionKind::Quiz, m.topic, "", topicTitle(m.topic) + ": lesson read, no quiz answered yet", "",
                 "Quiz yourself on " + topicTitle(m.topic),
                 "You read " + (lesson.empty() ? std::string("its lesson") : lessonName(lessonTitles, lesson)) +
                     " but have answered no question on " + topicTitle(m.topic) +
                     " yet: a few questions show whether it stuck, and start its mastery score."});
        }

    // 4. The next unread lesson.
    for (const std::string& lesson : lessonOrder)
        if (!progress.hasRead(lesson)) {
            add({SuggestionKind::Lesson, "", lesson, "next lesson not read yet", "warpscope:lesson?id=" + lesson,
                 "Read " + lessonName(lessonTitles, lesson),
                 "The next lesson in order that you have not read: each lesson builds on the ones before it."});
            break;
        }
    return advice;
}

} // namespace warpscope::study
