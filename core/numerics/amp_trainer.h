// The mixed-precision trainer: the MLP of mlp.h trained with Adam on the spiral data in FP32, in
// FP16 without loss scaling, FP16 with a static scale, FP16 with PyTorch's dynamic GradScaler, or
// BF16, the half-precision modes emulated as autocast and Tensor Cores run them:
//   - master weights stay FP32; each step the model uses copies rounded to the format;
//   - every matrix product takes format inputs, accumulates in FP32, rounds its output once
//     (mlp_kernels.h); ReLU is exact; the inputs are rounded to the format;
//   - softmax cross-entropy runs in FP32 (autocast's FP32 list), its gradient is rounded to the
//     format on the way back into the last layer, and the backward products round as the forward;
//   - weight gradients reach the FP32 masters exactly; unscaling and Adam run in FP32.
// Why gradients underflow here: the loss is the batch's summed cross-entropy divided by
// tokensPerBatch (default 2^22, about the 4 M tokens per batch of Llama 2 pretraining, Touvron et al.
// 2023), as a language model's loss is averaged over every token of a batch. Each logit gradient is
// then (p - y) / 2^22, below 2^-22, at and under FP16's smallest subnormal 2^-24: unscaled FP16 flushes
// most of them, and those behind them, to zero. Adam divides by the gradients' own size, so FP32
// training is the same as with a mean loss. A loss scale of 2^16 lifts them back into FP16's range.
//
// Underflow, precisely: in each half-precision step the backward pass is also run in FP32 from the
// same forward values (the same rounded weights and activations, no rounding, no scale). A weight or
// bias gradient element underflowed when that FP32 value is nonzero but the format's (scaled)
// gradient is exactly zero; the share is over the elements nonzero in FP32 (dead ReLUs excluded).
// In FP32 mode both passes are the same pass and nothing underflows.
//
// Runs are deterministic: the same config gives the same result bit for bit on any machine (our own
// generator, exp and log; sums in a fixed order). One caveat: a compiler that fuses a*b+c into an FMA
// (GCC does on aarch64 in its GNU modes; this project builds in ISO C++20, where it does not) would
// change last bits.
#pragma once

#include "numerics/grad_scaler.h"
#include "numerics/mlp.h"
#include "numerics/number_format.h"
#include "numerics/synthetic_data.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::numerics {

enum class AmpMode : std::uint8_t { FP32, FP16, FP16Static, FP16Dynamic, BF16 };

struct AmpModeInfo {
    AmpMode mode;
    std::string_view key;   // "fp16-dynamic": command lines and links
    std::string_view name;  // "FP16, dynamic loss scaling"
};

const std::vector<AmpModeInfo>& allAmpModes();
const AmpModeInfo& ampModeInfo(AmpMode mode);
std::optional<AmpMode> parseAmpMode(std::string_view key); // "fp32", "fp16", "fp16-static", "fp16-dynamic", "bf16"
std::string ampModeKeys();                                  // "fp32, fp16, ..." for messages
Format ampComputeFormat(AmpMode mode);                      // FP32, FP16 or BF16
// The four standard runs of the lesson and the benchmark: FP32, FP16, FP16 dynamic, BF16.
std::vector<AmpMode> standardAmpModes();

struct AmpConfig {
    AmpMode mode = AmpMode::FP32;
    int steps = 1000;                      // optimizer iterations (skipped ones included)
    std::uint64_t seed = 1;                // initial weights and batch order (the data has its own seed)
    int batchSize = 64;                    // samples per step
    float learningRate = 0.01f;            // Adam (betas 0.9, 0.999, eps 1e-8: PyTorch's defaults)
    double tokensPerBatch = 4194304.0;     // 2^22: the loss is the batch's summed cross-entropy over this
    float staticScale = 65536.0f;          // FP16Static: the loss is multiplied by this, gradients divided
    GradScalerOptions scaler;              // FP16Dynamic: initial scale, factors, growth interval
    MlpShape shape;                        // layer widths (shape.inputs must be 2: the spiral's plane)
    SpiralOptions data;                    // the training and held-out sets
    bool measureUnderflow = true;          // run the FP32 shadow backward every step (half modes)
    int histogramInterval = 100;           // gradient histograms at steps 0, k, 2k, ... and the last (0: none)
    std::optional<MlpWeights> initialWeights; // start from these instead of initialMlp(shape, seed)
    std::optional<MlpMask> fixedMask;      // pruned weights stay zero (gradients masked, weights re-masked)
};

// Throws std::invalid_argument naming the first field out of range and its allowed range.
void validateAmpConfig(const AmpConfig& config);

struct AmpStepRecord {
    float loss = 0;                 // mean cross-entropy of the step's batch, FP32, before any scaling
    float scale = 1;                // loss scale this step's backward used (1 without scaling)
    bool skipped = false;           // dynamic scaling found inf/NaN and skipped the optimizer step
    bool nonFinite = false;         // some gradient was inf/NaN (without a scaler it reaches the weights)
    double underflowShare = 0;      // gradient elements nonzero in FP32 but zero in the format; NaN if not measured
};

// Magnitudes of one step's weight and bias gradients in log2 bins, from the FP32 shadow backward
// (FP32 mode: its own backward). FP16's landmarks to mark on it come from number_format.h:
// minSubnormal(Format::FP16) = 2^-24, minNormal = 2^-14, maxFinite = 65504.
struct GradientHistogram {
    static constexpr int kMinExponent = -60;   // bin 0 holds |g| < 2^-59 (nonzero)
    static constexpr int kMaxExponent = 20;    // the last bin holds |g| >= 2^19
    int step = 0;
    float scale = 1;                            // the step's loss scale
    std::vector<std::uint32_t> exact;           // |g|: bin k is [2^(kMinExponent+k), 2^(kMinExponent+k+1))
    std::vector<std::uint32_t> scaled;          // |g * scale|: what the format has to hold
    std::uint32_t zeros = 0;                    // exactly zero in FP32 (ReLUs off for the whole batch)
    double underflowShare = 0;                  // as AmpStepRecord's
    static int binCount() { return kMaxExponent - kMinExponent; }
    static double binLow(int bin);              // 2^(kMinExponent + bin)
    static int binOf(double magnitude);         // the bin a positive magnitude falls in (clamped to the ends)
};

struct AmpResult {
    AmpConfig config;
    std::vector<AmpStepRecord> steps;           // one per completed step
    std::vector<GradientHistogram> histograms;  // in step order
    MlpWeights weights;                         // FP32 master weights after training
    MlpEvaluation train;                        // FP32 evaluation of `weights` on the whole training set
    MlpEvaluation test;                         // ... and on the held-out set
    int skippedSteps = 0;
    int nonFiniteSteps = 0;
    bool cancelled = false;                     // stopped early: `steps` holds the completed ones
    double meanUnderflowShare() const;          // over the measured steps (0 if none)
    float finalLoss() const;                    // the training set's mean loss after training
};

using AmpProgress = std::function<void(int done, int total)>;

// Trains one configuration. Safe to call from a worker thread (it touches no shared state); progress
// is called after every step from the calling thread; `cancel` is polled before every step.
AmpResult runAmpTraining(const AmpConfig& config, const AmpProgress& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

} // namespace warpscope::numerics
