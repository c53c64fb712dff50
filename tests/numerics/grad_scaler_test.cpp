// GradScaler against PyTorch's rules worked by hand (torch/amp/grad_scaler.py and
// _amp_update_scale_cpu_kernel): the tracker counts clean steps and is compared after incrementing,
// inf/NaN halves the scale and resets the tracker, growth past FP32's range is refused, unscaling
// multiplies by the FP64-computed reciprocal and reports non-finite values.
#include "numerics/grad_scaler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace warpscope::numerics;

TEST(GradScaler, StartsAtPyTorchDefaults)
{
    const GradScalerOptions defaults;
    EXPECT_EQ(defaults.initScale, 65536.0f);
    EXPECT_EQ(defaults.growthFactor, 2.0);
    EXPECT_EQ(defaults.backoffFactor, 0.5);
    EXPECT_EQ(defaults.growthInterval, 2000);
    const GradScaler scaler;
    EXPECT_EQ(scaler.scale(), 65536.0f);
    EXPECT_EQ(scaler.growthTracker(), 0);
    EXPECT_EQ(scaler.inverseScale(), 0x1p-16f);
}

TEST(GradScaler, HandWorkedSequence)
{
    // growth_interval 3. Steps (inf found?) and the state after update(), worked by hand from the
    // kernel: tracker+1 == 3 doubles the scale; inf halves it and resets the tracker.
    GradScaler scaler({1024.0f, 2.0, 0.5, 3});
    struct Expected {
        bool foundInf;
        float scale;
        int tracker;
    };
    const Expected steps[] = {
        {false, 1024.0f, 1}, {false, 1024.0f, 2}, {false, 2048.0f, 0}, // third clean step: grow
        {false, 2048.0f, 1}, {true, 1024.0f, 0},                       // inf: back off, reset
        {true, 512.0f, 0},                                              // again
        {false, 512.0f, 1}, {false, 512.0f, 2}, {true, 256.0f, 0},      // inf just before growing
        {false, 256.0f, 1}, {false, 256.0f, 2}, {false, 512.0f, 0},
    };
    int index = 0;
    for (const Expected& e : steps) {
        scaler.update(e.foundInf);
        EXPECT_EQ(scaler.scale(), e.scale) << "after step " << index;
        EXPECT_EQ(scaler.growthTracker(), e.tracker) << "after step " << index;
        ++index;
    }
}

TEST(GradScaler, IntervalOfOneGrowsEveryCleanStep)
{
    GradScaler scaler({1.0f, 2.0, 0.5, 1});
    for (int k = 1; k <= 10; ++k) {
        scaler.update(false);
        EXPECT_EQ(scaler.scale(), std::ldexp(1.0f, k));
        EXPECT_EQ(scaler.growthTracker(), 0);
    }
}

TEST(GradScaler, DoesNotGrowPastFp32)
{
    GradScaler scaler({0x1p127f, 2.0, 0.5, 1});
    scaler.update(false); // 2^128 would be inf in FP32: the scale stays, the tracker still resets
    EXPECT_EQ(scaler.scale(), 0x1p127f);
    EXPECT_EQ(scaler.growthTracker(), 0);
}

TEST(GradScaler, UnscaleMultipliesByReciprocalAndReportsNonFinite)
{
    const GradScaler scaler({4.0f, 2.0, 0.5, 10});
    std::vector<float> clean = {8.0f, -2.0f, 0.0f, 1e-30f};
    EXPECT_FALSE(scaler.unscale(clean));
    EXPECT_EQ(clean, (std::vector<float>{2.0f, -0.5f, 0.0f, 1e-30f * 0.25f}));

    std::vector<float> withInf = {4.0f, std::numeric_limits<float>::infinity(), 12.0f};
    EXPECT_TRUE(scaler.unscale(withInf));
    EXPECT_EQ(withInf[0], 1.0f);
    EXPECT_EQ(withInf[2], 3.0f); // values after the inf are still unscaled, as PyTorch's kernel does
    std::vector<float> withNan = {std::numeric_limits<float>::quiet_NaN()};
    EXPECT_TRUE(scaler.unscale(withNan));

    // A scale that is not a power of two: the reciprocal is 1/3 rounded to FP32 once.
    const GradScaler third({3.0f, 2.0, 0.5, 10});
    EXPECT_EQ(third.inverseScale(), static_cast<float>(1.0 / 3.0));
    std::vector<float> g = {3.0f};
    third.unscale(g);
    EXPECT_EQ(g[0], 3.0f * static_cast<float>(1.0 / 3.0)); // FP32 product, not an exact division
}

TEST(GradScaler, RejectsWhatPyTorchAssertsAgainst)
{
    EXPECT_THROW(GradScaler({65536.0f, 1.0, 0.5, 2000}), std::invalid_argument);  // growth must be > 1
    EXPECT_THROW(GradScaler({65536.0f, 2.0, 1.0, 2000}), std::invalid_argument);  // backoff must be < 1
    EXPECT_THROW(GradScaler({65536.0f, 2.0, 0.5, 0}), std::invalid_argument);     // interval >= 1
    EXPECT_THROW(GradScaler({0.0f, 2.0, 0.5, 2000}), std::invalid_argument);
}
