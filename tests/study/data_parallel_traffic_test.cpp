// DDP against FSDP (ZeRO-3) traffic per GPU and step (core/perf/data_parallel_traffic.h), by hand.
#include "perf/data_parallel_traffic.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

using namespace warpscope;

TEST(DataParallelTraffic, FsdpSendsHalfAgainWhatDdpSends)
{
    // 7e9 parameters, 16-bit weights and gradients (14 GB each), 8 GPUs: DDP 2 x 7/8 x 14 = 24.5 GB;
    // FSDP 3 x 7/8 x 14 = 36.75 GB, 12.25 GB in each collective.
    const perf::DataParallelTraffic t = perf::dataParallelTraffic(8, 14e9, 14e9);
    EXPECT_DOUBLE_EQ(t.ddpBytes(), 24.5e9);
    EXPECT_DOUBLE_EQ(t.allGatherForwardBytes, 12.25e9);
    EXPECT_DOUBLE_EQ(t.allGatherBackwardBytes, 12.25e9);
    EXPECT_DOUBLE_EQ(t.reduceScatterBytes, 12.25e9);
    EXPECT_DOUBLE_EQ(t.fsdpBytes(), 36.75e9);
    EXPECT_DOUBLE_EQ(t.fsdpBytes() / t.ddpBytes(), 1.5);
    // Two GPUs: each sends half of every gathered buffer.
    EXPECT_DOUBLE_EQ(perf::dataParallelTraffic(2, 4, 8).fsdpBytes(), 2 + 2 + 4);
    EXPECT_THROW(perf::dataParallelTraffic(1, 1, 1), InputError);
    EXPECT_THROW(perf::dataParallelTraffic(8, 0, 1), InputError);
}
