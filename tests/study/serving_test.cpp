// The serving models (core/perf/serving.h) against numbers worked by hand.
#include "perf/data_parallel_traffic.h"
#include "perf/serving.h"
#include "study/cards.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using namespace warpscope;

TEST(KvCache, Llama2SevenBInFp16AndFp8)
{
    // 2 x 32 layers x 32 KV heads x 128 x 2 bytes = 524,288 bytes per token; x 4096 tokens = 2 GiB.
    const perf::ServingModel* model = perf::findServingModel("Llama 2 7B");
    ASSERT_NE(model, nullptr);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytesPerToken(model->cache, 2), 524288);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(model->cache, 4096, 1, 2), 2147483648.0);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(model->cache, 4096, 1, 1), 1073741824.0);
    // A batch of 32 full contexts: 64 GiB, 68.7 x 10^9 bytes, far more than the 14 GB of weights.
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(model->cache, 4096, 32, 2), 68719476736.0);
}

TEST(KvCache, GroupedQueryAttentionDividesTheCacheByTheGroupSize)
{
    // Llama 2 70B: 2 x 80 x 8 x 128 x 2 = 327,680 bytes per token, 1,342,177,280 per 4096-token sequence.
    const perf::ServingModel* model = perf::findServingModel("Llama 2 70B");
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->queryHeads / model->cache.kvHeads, 8);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytesPerToken(model->cache, 2), 327680);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(model->cache, 4096, 1, 2), 1342177280.0);
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(model->cache, 4096, 1, 1), 671088640.0);
    // With one KV head per query head (64) it would be 8 times as much: 10 GiB per sequence.
    perf::KvCacheShape full = model->cache;
    full.kvHeads = model->queryHeads;
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(full, 4096, 1, 2), 10737418240.0);
    EXPECT_EQ(perf::findServingModel("Llama 3 8B"), nullptr);
}

TEST(KvCache, BadShapesAreInputErrors)
{
    EXPECT_THROW(perf::kvCacheBytesPerToken({0, 8, 128}, 2), InputError);
    EXPECT_THROW(perf::kvCacheBytesPerToken({80, 8, 128}, 0), InputError);
    EXPECT_THROW(perf::kvCacheBytes({80, 8, 128}, -1, 1, 2), InputError);
}

TEST(Batching, StaticWaitsForTheLongestRequestContinuousRefillsSlots)
{
    // Eight requests on four slots. Static: groups {1000,100,200,300} and {100,400,100,200} take
    // 1000 + 400 = 1400 steps; 2400 tokens over 5600 slot-steps is 42.9 %.
    const std::vector<int> outputs{1000, 100, 200, 300, 100, 400, 100, 200};
    const perf::BatchingResult fixed = perf::staticBatching(outputs, 4);
    EXPECT_EQ(fixed.steps, 1400);
    EXPECT_EQ(fixed.usefulSlotSteps, 2400);
    EXPECT_EQ(fixed.heldSlotSteps, 5600);
    EXPECT_NEAR(fixed.utilisation(), 2400.0 / 5600.0, 1e-12);
    // Continuous: the fifth request takes the slot freed at step 100 (ends 200), the sixth one freed at
    // 200 (ends 600), the seventh the other freed at 200 (ends 300), the eighth the one freed at 300
    // (ends 500). The 1000-token request ends last: 1000 steps, 60 %.
    const perf::BatchingResult continuous = perf::continuousBatching(outputs, 4);
    EXPECT_EQ(continuous.steps, 1000);
    EXPECT_EQ(continuous.heldSlotSteps, 4000);
    EXPECT_NEAR(continuous.utilisation(), 0.6, 1e-12);
    // Equal requests gain nothing: both take 2 x 50 steps.
    EXPECT_EQ(perf::staticBatching({50, 50, 50, 50}, 2).steps, 100);
    EXPECT_EQ(perf::continuousBatching({50, 50, 50, 50}, 2).steps, 100);
    EXPECT_THROW(perf::staticBatching(outputs, 0), InputError);
    EXPECT_THROW(perf::continuousBatching({10, 0}, 2), InputError);
}

// The flashcards quote the same engine: the card's numbers are the models' own.
TEST(KvCache, FlashcardsQuoteTheEngine)
{
    const auto card = [](std::string_view id) -> const study::Card& {
        for (const study::Card& c : study::deck())
            if (c.id == id)
                return c;
        throw std::runtime_error("no card " + std::string(id));
    };
    const perf::ServingModel* small = perf::findServingModel("Llama 2 7B");
    const perf::ServingModel* large = perf::findServingModel("Llama 2 70B");
    ASSERT_NE(small, nullptr);
    ASSERT_NE(large, nullptr);
    EXPECT_EQ(perf::kvCacheBytesPerToken(small->cache, 2), 524288.0);
    EXPECT_NE(card("serving.kv-per-token").back.find("524,288 B"), std::string::npos);
    // 2.15 GB: 2,147,483,648 bytes per 4096-token sequence, in decimal gigabytes.
    EXPECT_NEAR(perf::kvCacheBytes(small->cache, 4096, 1, 2) / 1e9, 2.15, 0.005);
    EXPECT_NE(card("serving.kv-per-token").back.find("2.15 GB"), std::string::npos);
    // GQA's 8x: the same 70B shape with a key-value head per query head.
    perf::KvCacheShape everyHead = large->cache;
    everyHead.kvHeads = large->queryHeads;
    EXPECT_EQ(perf::kvCacheBytesPerToken(everyHead, 2) / perf::kvCacheBytesPerToken(large->cache, 2), 8.0);
    EXPECT_NE(card("serving.gqa").back.find("8x"), std::string::npos);
    // FSDP's 1.5x of DDP's bytes per GPU.
    const perf::DataParallelTraffic traffic = perf::dataParallelTraffic(8, 14e9, 14e9);
    EXPECT_DOUBLE_EQ(traffic.fsdpBytes() / traffic.ddpBytes(), 1.5);
    EXPECT_NE(card("multi-gpu.fsdp-traffic").back.find("1.5x"), std::string::npos);
}
