// Serving a transformer: the key-value cache a generating model keeps, and two ways of batching
// requests onto a fixed number of sequence slots. Plain arithmetic, checked against hand-worked
// numbers in tests/study/serving_test.cpp; the inference lesson quotes it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace warpscope::perf {

// What the cache's size depends on: every layer keeps a key and a value vector of `headDim` numbers
// per key-value head and token. With grouped-query attention kvHeads < query heads.
struct KvCacheShape {
    int layers = 0;
    int kvHeads = 0;
    int headDim = 0;
};

// 2 (K and V) x layers x KV heads x head dim x bytes per element: the cache one token adds.
// Throws InputError for a shape or element size that is not positive.
double kvCacheBytesPerToken(const KvCacheShape& shape, double bytesPerElement);
// The cache for `sequences` sequences of `tokens` tokens each.
double kvCacheBytes(const KvCacheShape& shape, std::int64_t tokens, std::int64_t sequences, double bytesPerElement);

// Published model shapes the lesson works through, each with its source.
struct ServingModel {
    std::string_view name;        // "Llama 2 7B"
    int queryHeads = 0;
    KvCacheShape cache;
    int contextTokens = 0;        // the longest sequence it was trained for
    std::string_view source;
};
const std::vector<ServingModel>& servingModels();
const ServingModel* findServingModel(std::string_view name);

// Requests on `slots` sequence slots, one token per request per decode step.
struct BatchingResult {
    std::int64_t steps = 0;          // decode steps until the last request ends
    std::int64_t usefulSlotSteps = 0; // slot-steps that produced a token (the sum of the outputs)
    std::int64_t heldSlotSteps = 0;  // slot-steps a slot (and its cache) was held: slots x steps
    double utilisation() const { return heldSlotSteps ? double(usefulSlotSteps) / double(heldSlotSteps) : 0.0; }
};

// Static batching: requests in arrival order fill the slots in groups; a group runs until its
// longest request ends, and the next group starts only then.
BatchingResult staticBatching(const std::vector<int>& outputTokens, int slots);
// Continuous (iteration-level) batching: after every step a finished request's slot takes the next
// waiting request. Throws InputError for slots < 1 or an output that is not positive.
BatchingResult continuousBatching(const std::vector<int>& outputTokens, int slots);

} // namespace warpscope::perf
