// 2:4 sparsity: hand-worked matrices (which weights stay, the 2-bit metadata and its packing, the
// bytes), ties, the pattern's invariants on the trained model, and the ASP recipe's effect measured:
// pruning costs accuracy, fine-tuning with the mask fixed wins it back and keeps the pattern.
#include "numerics/sparsity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace warpscope::numerics;

TEST(TwoFour, HandWorkedMatrix)
{
    // Two rows of eight: four groups. Kept (by magnitude), in index order:
    //   [ 0.1 -0.9  0.5  0.2 |  3.0  0.0 -1.0  2.0 ]  -> indices 1,2 | 0,3
    //   [-4.0  1.0 -2.0  0.5 |  0.0  0.0  0.3 -0.1 ]  -> indices 0,2 | 2,3
    const std::vector<float> w = {0.1f, -0.9f, 0.5f, 0.2f, 3.0f, 0.0f, -1.0f, 2.0f,
                                  -4.0f, 1.0f, -2.0f, 0.5f, 0.0f, 0.0f, 0.3f, -0.1f};
    const TwoFourPattern p = pruneTwoFour(w, 2, 8);
    EXPECT_EQ(p.keep, (std::vector<std::uint8_t>{0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1}));
    EXPECT_EQ(p.values, (std::vector<float>{-0.9f, 0.5f, 3.0f, 2.0f, -4.0f, -2.0f, 0.3f, -0.1f}));
    EXPECT_EQ(p.indices, (std::vector<std::uint8_t>{1, 2, 0, 3, 0, 2, 2, 3}));
    // Packed four indices a byte, first in the low bits: 1 | 2<<2 | 0<<4 | 3<<6 = 0xC9;
    // 0 | 2<<2 | 2<<4 | 3<<6 = 0xE8.
    EXPECT_EQ(p.packedMetadata, (std::vector<std::uint8_t>{0xC9, 0xE8}));
    EXPECT_EQ(expandTwoFour(p), (std::vector<float>{0.0f, -0.9f, 0.5f, 0.0f, 3.0f, 0.0f, 0.0f, 2.0f,
                                                     -4.0f, 0.0f, -2.0f, 0.0f, 0.0f, 0.0f, 0.3f, -0.1f}));
    // FP16 bytes: 16 weights x 2 = 32 dense; 8 kept x 2 = 16 of values; 8 x 2 bits = 2 of metadata.
    const SparseStorage bytes = fp16Storage(p);
    EXPECT_EQ(bytes.denseBytes, 32u);
    EXPECT_EQ(bytes.valueBytes, 16u);
    EXPECT_EQ(bytes.metadataBytes, 2u);
    EXPECT_EQ(bytes.compressedBytes(), 18u);
    EXPECT_DOUBLE_EQ(bytes.compressedShare(), 18.0 / 32.0);
}

TEST(TwoFour, TiesKeepTheLowerIndices)
{
    const std::vector<float> w = {1.0f, -1.0f, 1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    const TwoFourPattern p = pruneTwoFour(w, 1, 8);
    EXPECT_EQ(p.indices, (std::vector<std::uint8_t>{0, 1, 0, 1}));
    EXPECT_EQ(p.packedMetadata, (std::vector<std::uint8_t>{0x44})); // 0 | 1<<2 | 0<<4 | 1<<6
}

TEST(TwoFour, RejectsShapesWithoutGroupsOfFour)
{
    const std::vector<float> w(6, 1.0f);
    EXPECT_THROW(pruneTwoFour(w, 1, 6), std::invalid_argument);
    EXPECT_THROW(pruneTwoFour(w, 2, 4), std::invalid_argument); // 6 values for 8 slots
}

TEST(TwoFour, LargeMatrixIsNineSixteenthsOfDense)
{
    // A 32 x 32 FP16 matrix: 2048 bytes dense; 512 kept x 2 = 1024 bytes + 512 x 2 bits = 128 bytes.
    const MlpWeights model = initialMlp({2, 32, 3}, 9);
    const TwoFourPattern p = pruneTwoFour(model.layers[1].weights, 32, 32);
    const SparseStorage bytes = fp16Storage(p);
    EXPECT_EQ(bytes.denseBytes, 2048u);
    EXPECT_EQ(bytes.valueBytes, 1024u);
    EXPECT_EQ(bytes.metadataBytes, 128u);
    EXPECT_DOUBLE_EQ(bytes.compressedShare(), 9.0 / 16.0);
    // Every group keeps exactly two, and nothing pruned is larger than anything kept in its group.
    for (std::size_t g = 0; g < p.keep.size(); g += 4) {
        int kept = 0;
        float smallestKept = INFINITY, largestPruned = 0;
        for (int k = 0; k < 4; ++k) {
            const float magnitude = std::abs(model.layers[1].weights[g + k]);
            if (p.keep[g + k]) {
                ++kept;
                smallestKept = std::min(smallestKept, magnitude);
            } else {
                largestPruned = std::max(largestPruned, magnitude);
            }
        }
        ASSERT_EQ(kept, 2);
        ASSERT_GE(smallestKept, largestPruned);
    }
}

TEST(TwoFour, PruningCostsAccuracyAndFineTuningWinsItBack)
{
    // Measured with the defaults: held-out accuracy 99.2% dense, 85.4% just pruned, 99.2% after 200
    // fine-tuning steps with the mask fixed.
    SparsityStudyConfig config;
    int progressCalls = 0;
    const SparsityStudy study = runSparsityStudy(config, [&](int, int total) {
        ++progressCalls;
        EXPECT_EQ(total, config.training.steps + config.fineTuneSteps);
    });
    EXPECT_EQ(progressCalls, config.training.steps + config.fineTuneSteps);
    EXPECT_GT(study.denseTest.accuracy, 0.97);
    EXPECT_LT(study.prunedTest.accuracy, study.denseTest.accuracy - 0.05);
    EXPECT_GT(study.fineTunedTest.accuracy, study.prunedTest.accuracy + 0.08);
    EXPECT_GT(study.fineTunedTest.accuracy, study.denseTest.accuracy - 0.01);
    ASSERT_EQ(study.fineTuneRun.steps.size(), static_cast<std::size_t>(config.fineTuneSteps));

    // Layer 0 has 2 inputs, too few for a group of 4: it stays dense. Layers 1 and 2 are pruned and
    // stay pruned through fine-tuning, in the same places.
    ASSERT_EQ(study.layers.size(), 3u);
    EXPECT_FALSE(study.layers[0].pattern.has_value());
    for (int l : {1, 2}) {
        ASSERT_TRUE(study.layers[l].pattern.has_value());
        const std::vector<std::uint8_t>& keep = study.layers[l].pattern->keep;
        const std::vector<float>& tuned = study.fineTuned.layers[l].weights;
        int moved = 0;
        for (std::size_t k = 0; k < keep.size(); ++k) {
            if (!keep[k])
                ASSERT_EQ(tuned[k], 0.0f) << "layer " << l << " weight " << k;
            else
                moved += tuned[k] != study.pruned.layers[l].weights[k] ? 1 : 0;
        }
        EXPECT_GT(moved, 0); // the kept weights did train
    }
    // Whole model in FP16: layer 0 dense (64 weights, 128 bytes), layers 1 and 2 compressed:
    // 2048 + 192 dense bytes become 1024 + 96 of values and 128 + 12 of metadata.
    EXPECT_EQ(study.total.denseBytes, 128u + 2048u + 192u);
    EXPECT_EQ(study.total.valueBytes, 128u + 1024u + 96u);
    EXPECT_EQ(study.total.metadataBytes, 128u + 12u);
}
