// How much GPU memory training a model takes: the model states per parameter and the activations.
//
// Model states (Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
// Models", SC 2020, section 3.1): with mixed-precision Adam, each parameter keeps a 16-bit weight
// (2 bytes) and a 16-bit gradient (2), plus an FP32 master weight (4) and Adam's two FP32 moments
// (4 + 4): 16 bytes. Plain FP32 Adam keeps a 4-byte weight, gradient and two moments: 16 bytes too;
// mixed precision saves activation memory and time, not model-state memory. SGD with momentum keeps
// one moment, plain SGD none. Inference keeps only the weights.
//
// Activations of one transformer layer, 16-bit, no tensor or sequence parallelism (Korthikanti et
// al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023, equation 1):
//     s x b x h x (34 + 5 a s / h) bytes
// for sequence length s, micro-batch b, hidden size h and a attention heads. With full activation
// recomputation only each layer's input is kept: 2 s b h bytes.
#pragma once

#include <string_view>

namespace warpscope::training {

enum class Precision { Fp32, Mixed16, Inference16, InferenceInt8 }; // Mixed16: FP16 or BF16 with FP32 master weights
enum class Optimizer { Adam, SgdMomentum, Sgd };

std::string_view precisionKey(Precision precision); // "fp32", "mixed", "inference-16", "inference-int8"
std::string_view optimizerKey(Optimizer optimizer); // "adam", "sgd-momentum", "sgd"

struct BytesPerParameter {
    double weights = 0;     // the copy the forward pass reads
    double gradients = 0;
    double masterWeights = 0; // FP32 copy the optimizer updates (mixed precision)
    double optimizerStates = 0;
    double total() const { return weights + gradients + masterWeights + optimizerStates; }
};

// Inference precisions ignore the optimizer.
BytesPerParameter bytesPerParameter(Precision precision, Optimizer optimizer);

struct TransformerShape {
    int layers = 0;          // 0: no activations counted
    int hidden = 0;          // h
    int heads = 0;           // a
    int sequence = 0;        // s
    int microBatch = 1;      // b
    bool recompute = false;  // full activation recomputation
};

// Bytes of activations one layer keeps (formula above). Throws InputError for a shape with a
// non-positive field.
double activationBytesPerLayer(const TransformerShape& shape);

struct MemoryBudget {
    double parameters = 0;
    BytesPerParameter perParameter;
    double weightBytes = 0, gradientBytes = 0, masterBytes = 0, optimizerBytes = 0;
    double activationBytes = 0; // all layers, mixed precision only (the formula is for 16-bit activations)
    double totalBytes() const { return weightBytes + gradientBytes + masterBytes + optimizerBytes + activationBytes; }
};

// Throws InputError when parameters is not positive and finite.
MemoryBudget memoryBudget(double parameters, Precision precision, Optimizer optimizer,
                          const TransformerShape& shape = {});

} // namespace warpscope::training
