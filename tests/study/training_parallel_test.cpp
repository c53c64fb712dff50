// Data-parallel training arithmetic against hand-worked numbers: ZeRO's partitioned model states
// (Rajbhandari et al., SC 2020) and the chunk-by-chunk state of the ring all-reduce.
#include "training/collectives.h"
#include "training/memory_budget.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

using namespace warpscope;
using namespace warpscope::training;

TEST(ZeroPartitioning, ThePapersFigureOneExample)
{
    // 7.5B parameters, N_d = 64, Adam in mixed precision: 2 + 2 bytes of 16-bit weights and gradients and
    // K = 12 bytes of optimizer states (4 of FP32 master weights, 4 + 4 of moments).
    const double psi = 7.5e9;
    const auto budget = [&](int stage) { return memoryBudget(psi, Precision::Mixed16, Optimizer::Adam, {}, {stage, 64}); };
    // Stage 0: (2 + 2 + 12) x 7.5e9 = 120e9.
    EXPECT_DOUBLE_EQ(budget(0).totalBytes(), 120e9);
    // Stage 1: 4 x 7.5e9 + 12 x 7.5e9 / 64 = 30e9 + 1.40625e9 (the paper: 31.4 GB).
    EXPECT_DOUBLE_EQ(budget(1).totalBytes(), 31.40625e9);
    EXPECT_DOUBLE_EQ(budget(1).masterBytes, 0.46875e9);   // 4 x 7.5e9 / 64
    EXPECT_DOUBLE_EQ(budget(1).optimizerBytes, 0.9375e9); // 8 x 7.5e9 / 64
    EXPECT_DOUBLE_EQ(budget(1).gradientBytes, 15e9);
    // Stage 2: 2 x 7.5e9 + 14 x 7.5e9 / 64 = 15e9 + 1.640625e9 (the paper: 16.6 GB).
    EXPECT_DOUBLE_EQ(budget(2).totalBytes(), 16.640625e9);
    EXPECT_DOUBLE_EQ(budget(2).gradientBytes, 0.234375e9);
    EXPECT_DOUBLE_EQ(budget(2).weightBytes, 15e9);
    // Stage 3: 16 x 7.5e9 / 64 = 1.875e9 (the paper: 1.9 GB).
    EXPECT_DOUBLE_EQ(budget(3).totalBytes(), 1.875e9);
    EXPECT_DOUBLE_EQ(budget(3).perParameterPerGpu.total(), 0.25);
    // The whole model's bytes per parameter stay as they were.
    EXPECT_DOUBLE_EQ(budget(3).perParameter.total(), 16);
    EXPECT_EQ(budget(2).zero.stage, 2);
    EXPECT_EQ(budget(2).zero.dataParallel, 64);
}

TEST(ZeroPartitioning, OtherRecipesAndOneGpu)
{
    // FP32 Adam over 4 GPUs, stage 1: 4 + 4 + 8 / 4 = 10 bytes per parameter on each GPU.
    EXPECT_DOUBLE_EQ(partitionedBytesPerParameter(bytesPerParameter(Precision::Fp32, Optimizer::Adam), {1, 4}).total(), 10);
    // Plain SGD keeps no optimizer state: stage 1 changes nothing (4 + 4), stage 2 halves the gradients.
    EXPECT_DOUBLE_EQ(partitionedBytesPerParameter(bytesPerParameter(Precision::Fp32, Optimizer::Sgd), {1, 2}).total(), 8);
    EXPECT_DOUBLE_EQ(partitionedBytesPerParameter(bytesPerParameter(Precision::Fp32, Optimizer::Sgd), {2, 2}).total(), 6);
    // Inference weights split over 2 GPUs only at stage 3.
    EXPECT_DOUBLE_EQ(partitionedBytesPerParameter(bytesPerParameter(Precision::Inference16, Optimizer::Adam), {2, 2}).total(), 2);
    EXPECT_DOUBLE_EQ(partitionedBytesPerParameter(bytesPerParameter(Precision::Inference16, Optimizer::Adam), {3, 2}).total(), 1);
    // One GPU: every stage keeps everything.
    for (int stage = 0; stage <= 3; ++stage)
        EXPECT_DOUBLE_EQ(memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam, {}, {stage, 1}).totalBytes(), 112e9);
    // Activations are not partitioned: 32 layers x 956,301,312 bytes (models_test.cpp) at every stage.
    const TransformerShape shape{32, 4096, 32, 2048, 1, false};
    const MemoryBudget b = memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam, shape, {3, 8});
    EXPECT_DOUBLE_EQ(b.activationBytes, 32 * 956301312.0);
    EXPECT_DOUBLE_EQ(b.modelStateBytes(), 14e9); // 112e9 / 8
    EXPECT_DOUBLE_EQ(b.totalBytes(), 14e9 + 32 * 956301312.0);
    EXPECT_THROW(memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam, {}, {4, 8}), InputError);
    EXPECT_THROW(memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam, {}, {-1, 8}), InputError);
    EXPECT_THROW(memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam, {}, {1, 0}), InputError);
    EXPECT_EQ(zeroStageName(2), "P_os+g");
}

TEST(GpuMemoryCapacities, DatasheetFiguresInBinaryGigabytes)
{
    const auto& gpus = gpuMemoryCapacities();
    ASSERT_EQ(gpus.size(), 5u);
    const double expected[] = {40, 80, 80, 141, 180};
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        EXPECT_DOUBLE_EQ(gpus[i].datasheetGigabytes, expected[i]) << gpus[i].name;
        EXPECT_DOUBLE_EQ(gpus[i].bytes, expected[i] * 1073741824.0) << gpus[i].name;
        EXPECT_FALSE(gpus[i].source.empty());
    }
    // The H200 recorded in assets/recorded/h200 reports 150,109,880,320 bytes (total_memory_bytes): more than
    // 141 x 10^9, and within 1 % of 141 x 2^30 = 151,397,597,184 (the driver keeps a little for itself).
    EXPECT_GT(150109880320.0, 141e9);
    EXPECT_NEAR(150109880320.0 / gpus[3].bytes, 1.0, 0.01);
    // A B200 reports 178.35 x 2^30 bytes (github.com/pytorch/ao pull request 4002): within 1 % of 180 x 2^30.
    EXPECT_EQ(gpus[4].name, "B200");
    EXPECT_NEAR(178.35 * 1073741824.0 / gpus[4].bytes, 1.0, 0.01);
}

TEST(RingContributions, ThreeGpusStepByStep)
{
    // Reduce-scatter step k: GPU i sends chunk (i - k) mod 3 to GPU i + 1, which adds it.
    // All-gather step k: GPU i sends chunk (i + 1 - k) mod 3, which the next GPU copies.
    const std::vector<std::vector<std::vector<int>>> expected = {
        {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
        {{1, 1, 2}, {2, 1, 1}, {1, 2, 1}}, // GPU 2 -> 0 chunk 2, 0 -> 1 chunk 0, 1 -> 2 chunk 1
        {{1, 3, 2}, {2, 1, 3}, {3, 2, 1}}, // reduce-scatter done: GPU i holds the sum of chunk (i + 1) mod 3
        {{3, 3, 2}, {2, 3, 3}, {3, 2, 3}}, // the sums move on by one GPU
        {{3, 3, 3}, {3, 3, 3}, {3, 3, 3}},
    };
    for (int step = 0; step <= 4; ++step)
        EXPECT_EQ(ringContributions(3, step), expected[static_cast<std::size_t>(step)]) << "step " << step;
}

TEST(RingContributions, FourGpusAfterTheReduceScatter)
{
    const std::vector<std::vector<int>> afterThree = {{1, 4, 3, 2}, {2, 1, 4, 3}, {3, 2, 1, 4}, {4, 3, 2, 1}};
    EXPECT_EQ(ringContributions(4, 3), afterThree);
    EXPECT_EQ(ringContributions(4, 6), std::vector<std::vector<int>>(4, std::vector<int>(4, 4)));
    EXPECT_THROW(ringContributions(4, 7), InputError);
    EXPECT_THROW(ringContributions(4, -1), InputError);
    EXPECT_THROW(ringContributions(1, 0), InputError);
}

TEST(RingContributions, MatchRunningTheScheduleOnRealNumbers)
{
    // GPU g starts with 2^g in every element. Part way through, an element's value is the sum of the
    // distinct GPUs it has heard from: its popcount is the count (a GPU counted twice would carry).
    for (int gpus : {2, 3, 4, 5, 8, 16}) {
        for (std::size_t length : {std::size_t{1}, std::size_t{7}, static_cast<std::size_t>(2 * gpus)}) {
            std::vector<std::vector<double>> buffers(static_cast<std::size_t>(gpus), std::vector<double>(length));
            for (int g = 0; g < gpus; ++g)
                for (double& value : buffers[static_cast<std::size_t>(g)])
                    value = static_cast<double>(std::uint64_t{1} << g);
            for (int step = 0; step <= 2 * (gpus - 1); ++step) {
                const auto values = runRingAllReduce(buffers, step);
                const auto counts = ringContributions(gpus, step);
                for (int g = 0; g < gpus; ++g)
                    for (std::size_t e = 0; e < length; ++e) {
                        // The chunk holding element e: the last whose first element (length x c / N) is at or before e.
                        std::size_t chunk = 0;
                        for (std::size_t c = 0; c < static_cast<std::size_t>(gpus); ++c)
                            if (length * c / static_cast<std::size_t>(gpus) <= e)
                                chunk = c;
                        const auto bits = static_cast<std::uint64_t>(values[static_cast<std::size_t>(g)][e]);
                        EXPECT_EQ(std::popcount(bits), counts[static_cast<std::size_t>(g)][chunk])
                            << gpus << " GPUs, length " << length << ", step " << step << ", GPU " << g << ", element " << e;
                    }
            }
            EXPECT_EQ(runRingAllReduce(buffers, 2 * (gpus - 1)), runRingAllReduce(buffers));
        }
    }
    EXPECT_THROW(runRingAllReduce(std::vector<std::vector<double>>(3, std::vector<double>(3, 1.0)), 5), InputError);
}
