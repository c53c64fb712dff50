// The GPipe schedule the Pipeline tab draws (viz/models/pipeline_schedule.h), laid out from its
// rules, against the bubble fraction's closed form (training::pipelineBubbleFraction) and a
// hand-drawn chart.
#include "models/pipeline_schedule.h"
#include "training/collectives.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace warpscope;

TEST(PipelineSchedule, IdleShareIsTheBubbleFraction)
{
    for (int stages : {1, 2, 3, 4, 8, 16})
        for (int microbatches : {1, 2, 4, 8, 13, 32, 64}) {
            const viz::PipelineSchedule schedule = viz::gpipeSchedule(stages, microbatches);
            EXPECT_NEAR(schedule.idleShare(), training::pipelineBubbleFraction(stages, microbatches), 1e-12)
                << stages << " stages, " << microbatches << " micro-batches";
            // Every stage does all its work: M forwards of 1 unit and M backwards of 2.
            EXPECT_EQ(schedule.busyUnits(), stages * microbatches * 3);
            EXPECT_EQ(static_cast<int>(schedule.ops.size()), 2 * stages * microbatches);
            // The idle gaps are exactly the rest of the chart.
            int idle = 0;
            for (const viz::PipelineIdle& gap : schedule.idle)
                idle += gap.end - gap.start;
            EXPECT_EQ(idle, schedule.idleUnits());
        }
}

TEST(PipelineSchedule, FourStagesEightMicrobatchesByHand)
{
    // P = 4, M = 8: the batch takes 3 (M + P - 1) = 33 units; the bubble is 3/11.
    const viz::PipelineSchedule schedule = viz::gpipeSchedule(4, 8);
    EXPECT_EQ(schedule.makespan, 33);
    EXPECT_EQ(schedule.idleUnits(), 4 * 33 - 4 * 24);
    EXPECT_DOUBLE_EQ(schedule.idleShare(), 3.0 / 11.0);
    auto find = [&](int stage, int microbatch, bool backward) {
        const auto it = std::find_if(schedule.ops.begin(), schedule.ops.end(), [&](const viz::PipelineOp& op) {
            return op.stage == stage && op.microbatch == microbatch && op.backward == backward;
        });
        EXPECT_NE(it, schedule.ops.end());
        return *it;
    };
    // Stage 3 (the last) starts F1 at 3, ends its forwards at 11, runs B8 at once: 11..13.
    EXPECT_EQ(find(3, 1, false).start, 3);
    EXPECT_EQ(find(3, 8, false).end, 11);
    EXPECT_EQ(find(3, 8, true).start, 11);
    EXPECT_EQ(find(3, 8, true).end, 13);
    // Stage 0 waits for B8 to come back up: 11 + 2 x 3 = 17, and ends B1 at 17 + 16 = 33.
    EXPECT_EQ(find(0, 8, true).start, 17);
    EXPECT_EQ(find(0, 1, true).end, 33);
    // Stage 0's gaps: 8..17 between its passes; stage 3's: 0..3 before and 27..33 after.
    std::vector<std::pair<int, int>> stage0, stage3;
    for (const viz::PipelineIdle& gap : schedule.idle) {
        if (gap.stage == 0)
            stage0.emplace_back(gap.start, gap.end);
        if (gap.stage == 3)
            stage3.emplace_back(gap.start, gap.end);
    }
    EXPECT_EQ(stage0, (std::vector<std::pair<int, int>>{{8, 17}}));
    EXPECT_EQ(stage3, (std::vector<std::pair<int, int>>{{0, 3}, {27, 33}}));
}

TEST(PipelineSchedule, OneStageHasNoBubble)
{
    const viz::PipelineSchedule schedule = viz::gpipeSchedule(1, 5);
    EXPECT_EQ(schedule.makespan, 15);
    EXPECT_TRUE(schedule.idle.empty());
    EXPECT_EQ(schedule.idleShare(), 0.0);
}

TEST(PipelineSchedule, RefusesOutOfRangeShapes)
{
    EXPECT_THROW(viz::gpipeSchedule(0, 4), InputError);
    EXPECT_THROW(viz::gpipeSchedule(17, 4), InputError);
    EXPECT_THROW(viz::gpipeSchedule(4, 0), InputError);
    EXPECT_THROW(viz::gpipeSchedule(4, 65), InputError);
}
