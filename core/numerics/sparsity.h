// 2:4 structured sparsity as NVIDIA's Sparse Tensor Cores (A100 onwards) use it: in every group of 4
// consecutive weights along the reduction dimension (a row of nn.Linear's [outputs][inputs] weights),
// 2 are zero. The hardware stores only the 2 kept values per group plus, for each, its 2-bit position
// in the group (the metadata): for FP16 that is 2 x 2 bytes of values + 2 x 2 bits per 4 weights, 9/16
// of the dense bytes (NVIDIA A100 Tensor Core GPU Architecture whitepaper, 2020, "Fine-grained
// structured sparsity"). Pruning here is by magnitude (keep the 2 largest |w| of each group), and the
// recipe is NVIDIA ASP's (apex/contrib/sparsity): prune a trained model once, then fine-tune with the
// mask fixed, gradients masked before and weights re-masked after every optimizer step.
#pragma once

#include "numerics/amp_trainer.h"
#include "numerics/mlp.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace warpscope::numerics {

struct TwoFourPattern {
    int rows = 0, columns = 0;                  // outputs, inputs (columns a multiple of 4)
    std::vector<std::uint8_t> keep;             // [rows][columns]: 1 kept, 0 pruned; 2 per group of 4
    std::vector<float> values;                  // the kept values, row by row, each group's in index order
    std::vector<std::uint8_t> indices;          // each kept value's position in its group, 0..3 (the metadata)
    std::vector<std::uint8_t> packedMetadata;   // the indices at 2 bits each, 4 per byte, first in the low bits
};

// Keeps the 2 largest magnitudes of every 4 consecutive weights of each row; on equal magnitudes the
// lower index wins. Throws std::invalid_argument unless columns is a positive multiple of 4 and
// weights has rows x columns values.
TwoFourPattern pruneTwoFour(std::span<const float> weights, int rows, int columns);

// The dense [rows][columns] matrix the compressed form stands for (pruned positions zero), rebuilt
// from values and indices alone.
std::vector<float> expandTwoFour(const TwoFourPattern& pattern);

// Bytes of a weight matrix stored in FP16, dense and 2:4-compressed, counted from what is stored.
struct SparseStorage {
    std::size_t denseBytes = 0;        // every weight, 2 bytes
    std::size_t valueBytes = 0;        // the kept weights, 2 bytes each
    std::size_t metadataBytes = 0;     // the packed 2-bit indices
    std::size_t compressedBytes() const { return valueBytes + metadataBytes; }
    double compressedShare() const;    // compressed / dense
};

SparseStorage fp16Storage(const TwoFourPattern& pattern);

struct SparsityStudyConfig {
    AmpConfig training;                // trains the dense model (its mode, steps, seed, ...)
    int fineTuneSteps = 200;           // steps of fine-tuning with the mask fixed (same mode and batch size)
    float fineTuneLearningRate = 0.003f;
};

struct SparsityLayer {
    int layer = 0;                             // index in MlpWeights::layers
    std::optional<TwoFourPattern> pattern;     // empty: left dense (inputs not a multiple of 4)
    SparseStorage storage;                     // pruned: as fp16Storage; dense: dense bytes in both columns
};

struct SparsityStudy {
    MlpWeights dense, pruned, fineTuned;       // before pruning, just pruned, after fine-tuning
    std::vector<SparsityLayer> layers;         // one per layer
    SparseStorage total;                       // all weight matrices (biases excluded), FP16
    MlpEvaluation denseTest, prunedTest, fineTunedTest; // on the held-out set
    AmpResult fineTuneRun;                     // the fine-tuning's per-step record
    bool cancelled = false;
};

// The 2:4 masks of a model: every layer whose inputs are a multiple of 4 is pruned; others stay dense.
MlpMask twoFourMask(const MlpWeights& weights);

// Prunes `trained` 2:4 and fine-tunes it with the mask fixed (config.training describes the data and
// the optimizer; its initial weights are ignored). progress counts the fine-tuning steps.
SparsityStudy pruneAndFineTune(const MlpWeights& trained, const SparsityStudyConfig& config,
                               const AmpProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

// Trains the dense model with config.training, then pruneAndFineTune; progress counts all steps.
SparsityStudy runSparsityStudy(const SparsityStudyConfig& config, const AmpProgress& progress = {},
                               const std::atomic<bool>* cancel = nullptr);

} // namespace warpscope::numerics
