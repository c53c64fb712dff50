// The statistics of `warpscope session validate-timing` (core/session/timing_validation.h) on
// samples whose results are worked out by hand below.
#include "session/timing_validation.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace warpscope;

namespace {

session::TimingSample sample(const char* kernel, double measured, double predicted, double spread = 10)
{
    session::TimingSample s;
    s.session = "s.wsprof";
    s.kernel = kernel;
    s.ladder = "x";
    s.measuredNs = measured;
    s.measuredMinNs = measured - spread;
    s.measuredMaxNs = measured + spread;
    s.predictedNs = predicted;
    return s;
}

} // namespace

TEST(TimingValidation, StatisticsWorkedByHand)
{
    // Ratios: A 1.2, B 0.75, C 1.25, E 140/300 = 0.4667; D has no prediction and is left out.
    const session::TimingValidation v = session::summarizeTiming(
        {sample("A", 100, 120), sample("B", 200, 150), sample("C", 400, 500), sample("D", 50, 0), sample("E", 300, 140)});
    EXPECT_EQ(v.samples.size(), 5u);
    EXPECT_EQ(v.compared, 4);
    // (0.2 + 0.25 + 0.25 + 0.5333) / 4
    EXPECT_NEAR(v.meanAbsoluteError, (0.2 + 0.25 + 0.25 + (1.0 - 140.0 / 300.0)) / 4.0, 1e-12);
    EXPECT_NEAR(v.minRatio, 140.0 / 300.0, 1e-12);
    EXPECT_DOUBLE_EQ(v.maxRatio, 1.25);
    EXPECT_DOUBLE_EQ(v.medianRatio, (0.75 + 1.2) / 2.0);
    EXPECT_EQ(v.ratiosWithin2x, 3);
    // Ranks: predicted A1 E2 B3 C4, measured A1 B2 E3 C4: sum d^2 = 2, rho = 1 - 6 x 2 / (4 x 15) = 0.8.
    EXPECT_NEAR(v.spearman, 0.8, 1e-12);
    // The ladder: measured A < B < E < C, predicted A < E < B < C; B (190..210) and E (290..310) do
    // not overlap, so the swap counts.
    ASSERT_EQ(v.ladders.size(), 1u);
    EXPECT_EQ(v.ladders[0].measured, (std::vector<std::string>{"A", "B", "E", "C"}));
    EXPECT_EQ(v.ladders[0].predicted, (std::vector<std::string>{"A", "E", "B", "C"}));
    EXPECT_FALSE(v.ladders[0].equal);
    EXPECT_FALSE(v.laddersEqual());
}

TEST(TimingValidation, RungsWhoseRunsOverlapMaySwap)
{
    // 100 (95..105) and 102 (97..107) overlap: the measurement cannot order them.
    const session::TimingValidation v = session::summarizeTiming({sample("P", 100, 90, 5), sample("Q", 102, 80, 5)});
    ASSERT_EQ(v.ladders.size(), 1u);
    EXPECT_TRUE(v.ladders[0].equal);
    EXPECT_EQ(v.ladders[0].predicted, (std::vector<std::string>{"Q", "P"}));
}

TEST(TimingValidation, SpearmanGivesTiesTheirMeanRank)
{
    // Ranks 1, 2.5, 2.5, 4 against 1, 2, 3, 4: covariance 4.5, variances 4.5 and 5.
    EXPECT_NEAR(session::spearmanRankCorrelation({1, 2, 2, 3}, {1, 2, 3, 4}), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
    EXPECT_NEAR(session::spearmanRankCorrelation({1, 2, 3}, {30, 20, 10}), -1.0, 1e-12);
    EXPECT_TRUE(std::isnan(session::spearmanRankCorrelation({1}, {1})));
    EXPECT_TRUE(std::isnan(session::spearmanRankCorrelation({2, 2}, {1, 3})));
}
