// The advisor on fixture progress files (tests/fixtures/progress), with the expected suggestions
// worked out by hand from the rules in advisor.h.
#include "study/advisor.h"
#include "study/cards.h"
#include "study/progress.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace warpscope::study;

namespace {

Progress load(const std::string& name)
{
    const std::string path = std::string(WARPSCOPE_FIXTURES_DIR) + "/progress/" + name;
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return readProgress(text.str(), path);
}

const std::vector<std::string> kLessons = {"hierarchy", "occupancy", "precision", "quantization", "stepping", "memory", "shared-memory"};
constexpr std::int64_t kToday = 20780; // 2026-11-23

const TopicMastery& topic(const Advice& advice, const std::string& key)
{
    for (const TopicMastery& m : advice.topics)
        if (m.topic == key)
            return m;
    throw std::runtime_error("no topic " + key);
}

} // namespace

TEST(Advisor, DueCardsFirstThenTheWeakTopicsMissedQuestion)
{
    const Advice advice = advise(load("weak_bank_conflicts.json"), deck(), kLessons, kToday);
    ASSERT_EQ(advice.suggestions.size(), 5u);
    EXPECT_EQ(advice.suggestions[0].kind, SuggestionKind::Cards);
    EXPECT_EQ(advice.suggestions[0].reason, "1 card is due for review today");
    EXPECT_EQ(advice.suggestions[1].kind, SuggestionKind::Quiz);
    EXPECT_EQ(advice.suggestions[1].topic, "shared-memory");
    EXPECT_EQ(advice.suggestions[1].target, "shared-memory.stride");
    EXPECT_EQ(advice.suggestions[1].reason, "Shared memory and bank conflicts: 2 of 6 right; try shared-memory.stride again with a new seed");
    EXPECT_EQ(advice.suggestions[2].topic, "hierarchy");
    EXPECT_EQ(advice.suggestions[2].reason, "Threads, warps, blocks and grids: lesson read, no quiz answered yet");
    EXPECT_EQ(advice.suggestions[3].topic, "waves");
    EXPECT_EQ(advice.suggestions[4].kind, SuggestionKind::Lesson);
    EXPECT_EQ(advice.suggestions[4].target, "precision");
    EXPECT_EQ(advice.suggestions[4].link, "warpscope:lesson?id=precision");

    const TopicMastery& shared = topic(advice, "shared-memory");
    EXPECT_EQ(shared.answered, 6);
    EXPECT_EQ(shared.correct, 2);
    EXPECT_EQ(shared.cardReviews, 3);
    EXPECT_EQ(shared.cardLapses, 1);
    EXPECT_EQ(shared.cardsDue, 0);
    EXPECT_NEAR(shared.mastery, 0.7 * 2.0 / 6.0 + 0.3 * 2.0 / 3.0, 1e-12);
    EXPECT_DOUBLE_EQ(topic(advice, "occupancy").mastery, 1.0);
    EXPECT_EQ(topic(advice, "roofline").mastery, -1);
}

TEST(Advisor, AWeakTopicWithAnUnreadLessonSendsToTheLesson)
{
    const Advice advice = advise(load("unread_weak_topic.json"), deck(), kLessons, kToday);
    ASSERT_EQ(advice.suggestions.size(), 2u);
    EXPECT_EQ(advice.suggestions[0].kind, SuggestionKind::Lesson);
    EXPECT_EQ(advice.suggestions[0].target, "memory");
    EXPECT_EQ(advice.suggestions[0].reason, "Global memory and coalescing: 1 of 4 right; its lesson is not read yet");
    EXPECT_EQ(advice.suggestions[0].link, "warpscope:lesson?id=memory");
    EXPECT_EQ(advice.suggestions[1].target, "occupancy");
}

// The steps name lessons by their titles and say why (issue 27, section 9): with the titles the
// lessons' files give, never the id; without a title, the id rather than nothing.
TEST(Advisor, StepsNameLessonsByTitleAndSayWhy)
{
    const LessonTitles titles = {{"hierarchy", "Threads, warps, blocks and grids"}, {"occupancy", "Occupancy"},
                                 {"precision", "Number formats and mixed precision"}, {"memory", "The memory hierarchy"}};
    Advice advice = advise(load("unread_weak_topic.json"), deck(), kLessons, kToday, 5, titles);
    ASSERT_EQ(advice.suggestions.size(), 2u);
    // 1 of 4 answers on coalescing right: 25 %, under 70 %; its lesson ("memory") unread.
    EXPECT_EQ(advice.suggestions[0].step, "Read \u201cThe memory hierarchy\u201d");
    EXPECT_EQ(advice.suggestions[0].why,
              "1 of your last 4 answers on Global memory and coalescing were right (25 %, under the 70 % that counts as "
              "known), and you have not read the lesson that teaches it: reading it first makes the next questions "
              "practice rather than guesswork.");
    EXPECT_EQ(advice.suggestions[1].step, "Read \u201cOccupancy\u201d");
    EXPECT_EQ(advice.suggestions[1].why, "The next lesson in order that you have not read: each lesson builds on the ones before it.");

    advice = advise(load("weak_bank_conflicts.json"), deck(), kLessons, kToday, 5, titles);
    ASSERT_EQ(advice.suggestions.size(), 5u);
    EXPECT_EQ(advice.suggestions[0].step, "Review 1 card due today");
    EXPECT_NE(advice.suggestions[0].why.find("SM-2"), std::string::npos);
    EXPECT_EQ(advice.suggestions[1].step, "Practise Shared memory and bank conflicts: shared-memory.stride again");
    EXPECT_EQ(advice.suggestions[1].why.rfind("2 of your last 6 answers on Shared memory and bank conflicts were right (33 %", 0), 0u);
    EXPECT_NE(advice.suggestions[1].why.find("shared-memory.stride is the one you missed most recently"), std::string::npos);
    EXPECT_EQ(advice.suggestions[2].step, "Quiz yourself on Threads, warps, blocks and grids");
    EXPECT_EQ(advice.suggestions[2].why.rfind("You read \u201cThreads, warps, blocks and grids\u201d but have answered no question", 0), 0u);
    EXPECT_EQ(advice.suggestions[4].step, "Read \u201cNumber formats and mixed precision\u201d");
    for (const Suggestion& s : advice.suggestions)
        for (const std::string& id : kLessons)
            EXPECT_EQ(s.step.find("\u201c" + id + "\u201d"), std::string::npos) << s.step;

    // No titles given: the id, quoted, so the step still reads.
    advice = advise(load("fresh.json"), deck(), kLessons, kToday);
    ASSERT_EQ(advice.suggestions.size(), 1u);
    EXPECT_EQ(advice.suggestions[0].step, "Read \u201chierarchy\u201d");
}

TEST(Advisor, ANewLearnerStartsWithTheFirstLesson)
{
    const Advice advice = advise(load("fresh.json"), deck(), kLessons, kToday);
    ASSERT_EQ(advice.suggestions.size(), 1u);
    EXPECT_EQ(advice.suggestions[0].target, "hierarchy");
    for (const TopicMastery& m : advice.topics)
        EXPECT_EQ(m.mastery, -1) << m.topic;
}

TEST(Advisor, OnlyTheLastTenAnswersOfATopicCount)
{
    Progress progress;
    for (int i = 0; i < 10; ++i)
        progress.answers.push_back({"reduction.steps", "reduction", 1, false, 1000 + i});
    for (int i = 0; i < 10; ++i)
        progress.answers.push_back({"reduction.steps", "reduction", 1, true, 2000 + i});
    const Advice advice = advise(progress, deck(), kLessons, kToday);
    EXPECT_EQ(topic(advice, "reduction").answered, 10);
    EXPECT_EQ(topic(advice, "reduction").correct, 10);
}
