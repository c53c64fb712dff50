// The precision lab's model: a three-layer perceptron, inputs -> hidden -> hidden -> classes, with
// ReLU between layers and softmax cross-entropy on top. Weights are stored as PyTorch's nn.Linear
// stores them, [outputs][inputs] row-major, so the reduction (input) dimension is contiguous: the
// dimension 2:4 sparsity prunes along. This header holds the model and its FP32 evaluation (loss,
// accuracy, activations), which the quantization and sparsity labs call with modified weights;
// training in emulated precisions is in amp_trainer.h.
#pragma once

#include "numerics/synthetic_data.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace warpscope::numerics {

struct MlpShape {
    int inputs = 2;    // features per sample
    int hidden = 32;   // width of both hidden layers
    int classes = 3;   // outputs (logits)
};

struct MlpLayer {
    int inputs = 0, outputs = 0;  // y = W x + b maps `inputs` values to `outputs`
    std::vector<float> weights;   // [outputs][inputs], row-major (reduction dimension contiguous)
    std::vector<float> bias;      // [outputs]
    float weight(int out, int in) const { return weights[static_cast<std::size_t>(out) * inputs + in]; } // W[out][in]
};

struct MlpWeights {
    std::vector<MlpLayer> layers;       // three layers, first to last
    MlpShape shape() const;             // read back from the layers
    std::size_t parameterCount() const; // weights and biases of all layers
};

// Which weights exist (1) and which are pruned (0), per layer in the layout of MlpLayer::weights; an
// empty layer entry keeps that whole layer dense.
struct MlpMask {
    std::vector<std::vector<std::uint8_t>> keep; // one entry per layer
};

// Weights drawn as PyTorch's nn.Linear default does, uniform in +-1/sqrt(fan_in) (kaiming_uniform_
// with a = sqrt(5)), from our own seeded stream; biases start at zero, not PyTorch's uniform draw,
// which on 2-D inputs in the unit disc leaves about a third of the first layer's ReLUs dead.
MlpWeights initialMlp(const MlpShape& shape, std::uint64_t seed);

// Called on each layer's input (layer 0: the samples) before that layer multiplies it, with the
// values of all samples, [sample][feature]: lets a caller quantize or inspect activations.
using ActivationHook = std::function<void(int layer, std::span<float> values)>;

struct MlpEvaluation {
    double meanLoss = 0;     // mean softmax cross-entropy (natural log); NaN if any logit is NaN
    double accuracy = 0;     // share of samples whose largest logit is their class (NaN logits: wrong)
};

// FP32 forward pass over all samples (throws std::invalid_argument when the shapes disagree).
MlpEvaluation evaluateMlp(const MlpWeights& weights, const LabelledSamples& samples, const ActivationHook& hook = {});
// evaluateMlp's accuracy alone: what the quantization and sparsity labs compare.
double mlpAccuracy(const MlpWeights& weights, const LabelledSamples& samples, const ActivationHook& hook = {});

struct MlpActivations {
    std::vector<std::vector<float>> layerInputs; // per layer: its input for every sample, [sample][feature]
    std::vector<float> logits;                   // [sample][class]
};

// Every layer's input (the samples, then the two post-ReLU hidden layers) and the logits, in FP32.
MlpActivations mlpActivations(const MlpWeights& weights, const LabelledSamples& samples);

// e^x and ln x from range reduction and series in double, rounded once to float: the same on every
// IEEE machine (libm may differ in the last place between libraries). Within 1 ULP of the true value.
float portableExpf(float x); // e^x; 0 below -110, infinity above 100
float portableLogf(float x); // ln x; NaN for negative x, -infinity at 0

} // namespace warpscope::numerics
