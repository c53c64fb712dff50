// SM-2 schedules against sequences worked by hand from the thesis's rules (srs.h).
#include "study/srs.h"

#include <gtest/gtest.h>

#include <vector>

using namespace warpscope::study;

namespace {

struct Step {
    int interval;
    double easiness;
};

std::vector<Step> run(const std::vector<Grade>& grades)
{
    CardSchedule schedule;
    std::vector<Step> steps;
    std::int64_t today = 100;
    for (Grade grade : grades) {
        const ReviewOutcome outcome = review(schedule, grade, today);
        EXPECT_EQ(outcome.next.dueDay, today + outcome.next.intervalDays);
        schedule = outcome.next;
        steps.push_back({schedule.intervalDays, schedule.easiness});
        today = schedule.dueDay;
    }
    return steps;
}

} // namespace

TEST(Sm2, GoodKeepsTheEasinessAndGrowsOneSixFifteenThirtyEight)
{
    // q = 4: EF' = EF + 0.1 - 1 x (0.08 + 0.02) = EF. Intervals 1, 6, 6 x 2.5 = 15, 15 x 2.5 = 37.5 -> 38.
    const auto steps = run({Grade::Good, Grade::Good, Grade::Good, Grade::Good});
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[0].interval, 1);
    EXPECT_EQ(steps[1].interval, 6);
    EXPECT_EQ(steps[2].interval, 15);
    EXPECT_EQ(steps[3].interval, 38);
    for (const Step& s : steps)
        EXPECT_DOUBLE_EQ(s.easiness, 2.5);
}

TEST(Sm2, EasyRaisesTheEasinessByATenthBeforeEachNextInterval)
{
    // q = 5: EF' = EF + 0.1. I(3) = 6 x 2.7 = 16.2 -> 16 (EF before the third review: 2.7);
    // I(4) = 16 x 2.8 = 44.8 -> 45.
    const auto steps = run({Grade::Easy, Grade::Easy, Grade::Easy, Grade::Easy});
    EXPECT_EQ(steps[0].interval, 1);
    EXPECT_NEAR(steps[0].easiness, 2.6, 1e-12);
    EXPECT_EQ(steps[1].interval, 6);
    EXPECT_NEAR(steps[1].easiness, 2.7, 1e-12);
    EXPECT_EQ(steps[2].interval, 16);
    EXPECT_NEAR(steps[2].easiness, 2.8, 1e-12);
    EXPECT_EQ(steps[3].interval, 45);
}

TEST(Sm2, HardLowersTheEasinessToTheFloorOfOnePointThree)
{
    // q = 3: EF' = EF + 0.1 - 2 x (0.08 + 0.04) = EF - 0.14. 2.5 - 8 x 0.14 = 1.38, then 1.24 -> 1.3.
    std::vector<Grade> grades(10, Grade::Hard);
    const auto steps = run(grades);
    EXPECT_NEAR(steps[7].easiness, 1.38, 1e-9);
    EXPECT_DOUBLE_EQ(steps[8].easiness, 1.3);
    EXPECT_DOUBLE_EQ(steps[9].easiness, 1.3);
    // The third interval uses EF as it stood after two Hard reviews, 2.5 - 0.28 = 2.22: 6 x 2.22 = 13.32 -> 13.
    EXPECT_EQ(steps[2].interval, 13);
}

TEST(Sm2, AgainRestartsTheRepetitionsAndKeepsTheEasiness)
{
    CardSchedule schedule;
    schedule = review(schedule, Grade::Good, 0).next;
    schedule = review(schedule, Grade::Good, 1).next;
    schedule = review(schedule, Grade::Easy, 7).next; // 6 x 2.5 = 15, EF 2.6
    EXPECT_EQ(schedule.intervalDays, 15);
    const ReviewOutcome lapse = review(schedule, Grade::Again, 22);
    EXPECT_EQ(lapse.next.repetitions, 0);
    EXPECT_EQ(lapse.next.intervalDays, 1);
    EXPECT_EQ(lapse.next.dueDay, 23);
    EXPECT_DOUBLE_EQ(lapse.next.easiness, schedule.easiness);
    EXPECT_EQ(lapse.next.lapses, 1);
    EXPECT_EQ(lapse.next.reviews, 4);
    EXPECT_TRUE(lapse.againThisSession);
    const ReviewOutcome relearn = review(lapse.next, Grade::Good, 23);
    EXPECT_EQ(relearn.next.intervalDays, 1);
    EXPECT_EQ(review(relearn.next, Grade::Good, 24).next.intervalDays, 6);
}

TEST(Sm2, CardsGradedBelowGoodComeBackThisSession)
{
    EXPECT_TRUE(review({}, Grade::Again, 0).againThisSession);
    EXPECT_TRUE(review({}, Grade::Hard, 0).againThisSession);
    EXPECT_FALSE(review({}, Grade::Good, 0).againThisSession);
    EXPECT_FALSE(review({}, Grade::Easy, 0).againThisSession);
}

TEST(Sm2, NewCardsAreDueAndScheduledOnesWaitForTheirDay)
{
    CardSchedule fresh;
    EXPECT_TRUE(isDue(fresh, 0));
    const CardSchedule next = review(fresh, Grade::Good, 10).next;
    EXPECT_FALSE(isDue(next, 10));
    EXPECT_TRUE(isDue(next, 11));
}
