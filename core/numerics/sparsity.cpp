#include "numerics/sparsity.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace warpscope::numerics {

TwoFourPattern pruneTwoFour(std::span<const float> weights, int rows, int columns)
{
    if (rows < 1 || columns < 4 || columns % 4 != 0)
        throw std::invalid_argument("2:4 pruning needs rows >= 1 and columns a positive multiple of 4, got "
                                    + std::to_string(rows) + " x " + std::to_string(columns));
    if (weights.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns))
        throw std::invalid_argument("2:4 pruning: " + std::to_string(weights.size()) + " weights for a "
                                    + std::to_string(rows) + " x " + std::to_string(columns) + " matrix");
    TwoFourPattern pattern;
    pattern.rows = rows;
    pattern.columns = columns;
    pattern.keep.assign(weights.size(), 0);
    const std::size_t kept = weights.size() / 2;
    pattern.values.reserve(kept);
    pattern.indices.reserve(kept);
    pattern.packedMetadata.assign((kept + 3) / 4, 0);
    for (std::size_t group = 0; group < weights.size(); group += 4) {
        // The two largest magnitudes; strict comparisons keep the lower index on ties.
        int first = 0, second = 1;
        if (std::abs(weights[group + 1]) > std::abs(weights[group]))
            first = 1, second = 0;
        for (int k = 2; k < 4; ++k) {
            const float magnitude = std::abs(weights[group + k]);
            if (magnitude > std::abs(weights[group + first])) {
                second = first;
                first = k;
            } else if (magnitude > std::abs(weights[group + second])) {
                second = k;
            }
        }
        const int low = first < second ? first : second;
        const int high = first < second ? second : first;
        for (int k : {low, high}) {
            pattern.keep[group + k] = 1;
            const std::size_t slot = pattern.values.size();
            pattern.values.push_back(weights[group + k]);
            pattern.indices.push_back(static_cast<std::uint8_t>(k));
            pattern.packedMetadata[slot / 4] |= static_cast<std::uint8_t>(k << (2 * (slot % 4)));
        }
    }
    return pattern;
}

std::vector<float> expandTwoFour(const TwoFourPattern& pattern)
{
    std::vector<float> dense(static_cast<std::size_t>(pattern.rows) * static_cast<std::size_t>(pattern.columns), 0.0f);
    for (std::size_t slot = 0; slot < pattern.values.size(); ++slot) {
        const std::size_t group = slot / 2; // two kept values per group of four
        dense[group * 4 + pattern.indices[slot]] = pattern.values[slot];
    }
    return dense;
}

double SparseStorage::compressedShare() const
{
    return denseBytes == 0 ? 0.0 : static_cast<double>(compressedBytes()) / static_cast<double>(denseBytes);
}

SparseStorage fp16Storage(const TwoFourPattern& pattern)
{
    constexpr std::size_t fp16Bytes = 2;
    SparseStorage storage;
    storage.denseBytes = pattern.keep.size() * fp16Bytes;
    storage.valueBytes = pattern.values.size() * fp16Bytes;
    storage.metadataBytes = pattern.packedMetadata.size();
    return storage;
}

MlpMask twoFourMask(const MlpWeights& weights)
{
    MlpMask mask;
    for (const MlpLayer& layer : weights.layers) {
        if (layer.inputs % 4 == 0)
            mask.keep.push_back(pruneTwoFour(layer.weights, layer.outputs, layer.inputs).keep);
        else
            mask.keep.emplace_back();
    }
    return mask;
}

SparsityStudy pruneAndFineTune(const MlpWeights& trained, const SparsityStudyConfig& config,
                               const AmpProgress& progress, const std::atomic<bool>* cancel)
{
    if (config.fineTuneSteps < 0)
        throw std::invalid_argument("fine-tuning steps must be 0 or more, got " + std::to_string(config.fineTuneSteps));
    SparsityStudy study;
    study.dense = trained;
    study.pruned = trained;
    for (std::size_t l = 0; l < trained.layers.size(); ++l) {
        const MlpLayer& layer = trained.layers[l];
        SparsityLayer entry;
        entry.layer = static_cast<int>(l);
        if (layer.inputs % 4 == 0) {
            entry.pattern = pruneTwoFour(layer.weights, layer.outputs, layer.inputs);
            entry.storage = fp16Storage(*entry.pattern);
            study.pruned.layers[l].weights = expandTwoFour(*entry.pattern);
        } else {
            entry.storage.denseBytes = layer.weights.size() * 2;
            entry.storage.valueBytes = entry.storage.denseBytes;
        }
        study.total.denseBytes += entry.storage.denseBytes;
        study.total.valueBytes += entry.storage.valueBytes;
        study.total.metadataBytes += entry.storage.metadataBytes;
        study.layers.push_back(std::move(entry));
    }

    AmpConfig fineTune = config.training;
    fineTune.steps = config.fineTuneSteps;
    fineTune.learningRate = config.fineTuneLearningRate;
    fineTune.seed = deriveSeed(config.training.seed, 3); // fresh batches, not a replay of training's
    fineTune.initialWeights = study.pruned;
    MlpMask mask;
    for (const SparsityLayer& entry : study.layers)
        mask.keep.push_back(entry.pattern ? entry.pattern->keep : std::vector<std::uint8_t>{});
    fineTune.fixedMask = std::move(mask);
    fineTune.histogramInterval = 0;
    study.fineTuneRun = runAmpTraining(fineTune, progress, cancel);
    study.fineTuned = study.fineTuneRun.weights;
    study.cancelled = study.fineTuneRun.cancelled;

    const SpiralDataset data = makeSpirals(config.training.data);
    study.denseTest = evaluateMlp(study.dense, data.test);
    study.prunedTest = evaluateMlp(study.pruned, data.test);
    study.fineTunedTest = study.fineTuneRun.test;
    return study;
}

SparsityStudy runSparsityStudy(const SparsityStudyConfig& config, const AmpProgress& progress,
                               const std::atomic<bool>* cancel)
{
    const int total = config.training.steps + config.fineTuneSteps;
    AmpProgress trainingProgress, fineTuneProgress;
    if (progress) {
        trainingProgress = [&](int done, int) { progress(done, total); };
        fineTuneProgress = [&](int done, int) { progress(config.training.steps + done, total); };
    }
    const AmpResult dense = runAmpTraining(config.training, trainingProgress, cancel);
    if (dense.cancelled) {
        SparsityStudy study;
        study.dense = dense.weights;
        study.cancelled = true;
        return study;
    }
    return pruneAndFineTune(dense.weights, config, fineTuneProgress, cancel);
}

} // namespace warpscope::numerics
