// One line per hazard (sim::describeHazard), as `warpscope sim` prints it, for its summary and for
// standard error when --dump prints only the buffers (issue 29, section 6).
#include "sim/hazards.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpscope;

TEST(HazardLine, namesKindPlaceThreadMessageAndCount)
{
    sim::Hazard hazard;
    hazard.kind = sim::HazardKind::ShflInactiveSource;
    hazard.ptxLine = 212;
    hazard.sourceFile = "/home/learner/kernels/reduce.cu";
    hazard.source.line = 17;
    hazard.block = {3, 1, 1};
    hazard.thread = {64, 1, 1};
    hazard.warp = 2;
    hazard.lane = 0;
    hazard.message = "lanes 0-7 read lanes 16-23, which do not execute the shuffle";
    hazard.occurrences = 1024;
    EXPECT_EQ(sim::describeHazard(hazard),
              "shfl_inactive_source at PTX line 212 (reduce.cu:17), block 3 thread 64 (warp 2 lane 0): lanes 0-7 read "
              "lanes 16-23, which do not execute the shuffle [1,024 times]. On a GPU the value depends on ptxas's "
              "register allocation, not on the PTX: a GPU may well give the intended result, so a test that passes "
              "on one GPU proves nothing");
    // Without line information and seen once: no place in brackets, no count.
    hazard.sourceFile.clear();
    hazard.occurrences = 1;
    hazard.block = {0, 2, 1};
    EXPECT_EQ(sim::describeHazard(hazard),
              "shfl_inactive_source at PTX line 212, block 0,2 thread 64 (warp 2 lane 0): lanes 0-7 read lanes 16-23, "
              "which do not execute the shuffle. On a GPU the value depends on ptxas's register allocation, not on the "
              "PTX: a GPU may well give the intended result, so a test that passes on one GPU proves nothing");
    // Other kinds: the line alone.
    hazard.kind = sim::HazardKind::SharedRace;
    EXPECT_EQ(sim::describeHazard(hazard).find("On a GPU"), std::string::npos);
    hazard.kind = sim::HazardKind::ShflInactiveSource;
    hazard.occurrences = 1234567;
    EXPECT_NE(sim::describeHazard(hazard).find("[1,234,567 times]"), std::string::npos);
}
