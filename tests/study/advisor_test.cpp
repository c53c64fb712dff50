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
