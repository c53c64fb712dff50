#include "perf/serving.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

namespace warpscope::perf {

namespace {

void checkRequests(const std::vector<int>& outputTokens, int slots)
{
    if (slots < 1)
        throw InputError("batching model: slots " + std::to_string(slots) + " is out of range (allowed: 1 or more)");
    for (std::size_t i = 0; i < outputTokens.size(); ++i)
        if (outputTokens[i] < 1)
            throw InputError("batching model: request " + std::to_string(i) + " asks for " +
                             std::to_string(outputTokens[i]) + " tokens (allowed: 1 or more)");
}

std::int64_t sum(const std::vector<int>& values)
{
    std::int64_t total = 0;
    for (int value : values)
        total += value;
    return total;
}

} // namespace

double kvCacheBytesPerToken(const KvCacheShape& shape, double bytesPerElement)
{
    if (shape.layers < 1 || shape.kvHeads < 1 || shape.headDim < 1)
        throw InputError("KV cache: layers, KV heads and head dimension must be 1 or more");
    if (!(bytesPerElement > 0) || !std::isfinite(bytesPerElement))
        throw InputError("KV cache: bytes per element must be positive (2 for FP16, 1 for FP8)");
    return 2.0 * shape.layers * shape.kvHeads * shape.headDim * bytesPerElement;
}

double kvCacheBytes(const KvCacheShape& shape, std::int64_t tokens, std::int64_t sequences, double bytesPerElement)
{
    if (tokens < 0 || sequences < 0)
        throw InputError("KV cache: tokens and sequences must not be negative");
    return kvCacheBytesPerToken(shape, bytesPerElement) * static_cast<double>(tokens) * static_cast<double>(sequences);
}

const std::vector<ServingModel>& servingModels()
{
    // head dimension = hidden size / attention heads: 4096 / 32 and 8192 / 64, both 128.
    static const std::vector<ServingModel> models = {
        {"Llama 2 7B", 32, {32, 32, 128}, 4096,
         "meta-llama/Llama-2-7b-hf config.json: 32 layers, hidden 4096, 32 heads, 32 key-value heads, "
         "4096 positions; Touvron et al., \"Llama 2\", arXiv:2307.09288 (2023), Table 1"},
        {"Llama 2 70B", 64, {80, 8, 128}, 4096,
         "meta-llama/Llama-2-70b-hf config.json: 80 layers, hidden 8192, 64 heads, 8 key-value heads "
         "(grouped-query attention), 4096 positions; Touvron et al., \"Llama 2\", arXiv:2307.09288 (2023), Table 1"},
    };
    return models;
}

const ServingModel* findServingModel(std::string_view name)
{
    for (const ServingModel& model : servingModels())
        if (model.name == name)
            return &model;
    return nullptr;
}

BatchingResult staticBatching(const std::vector<int>& outputTokens, int slots)
{
    checkRequests(outputTokens, slots);
    BatchingResult result;
    for (std::size_t first = 0; first < outputTokens.size(); first += static_cast<std::size_t>(slots)) {
        const auto begin = outputTokens.begin() + static_cast<std::ptrdiff_t>(first);
        const auto end = outputTokens.begin() + static_cast<std::ptrdiff_t>(std::min(outputTokens.size(), first + slots));
        result.steps += *std::max_element(begin, end);
    }
    result.usefulSlotSteps = sum(outputTokens);
    result.heldSlotSteps = result.steps * slots;
    return result;
}

BatchingResult continuousBatching(const std::vector<int>& outputTokens, int slots)
{
    checkRequests(outputTokens, slots);
    BatchingResult result;
    // The step at which each slot frees up; a waiting request takes the earliest free slot.
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> freeAt;
    for (int i = 0; i < slots; ++i)
        freeAt.push(0);
    for (int tokens : outputTokens) {
        const std::int64_t start = freeAt.top();
        freeAt.pop();
        freeAt.push(start + tokens);
        result.steps = std::max(result.steps, start + tokens);
    }
    result.usefulSlotSteps = sum(outputTokens);
    result.heldSlotSteps = result.steps * slots;
    return result;
}

} // namespace warpscope::perf
