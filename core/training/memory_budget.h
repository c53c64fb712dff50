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
//
// ZeRO (Rajbhandari et al., SC 2020, section 5): plain data parallelism over N_d GPUs keeps all the
// model states on every GPU; ZeRO partitions them instead. Stage 1 (P_os) divides the optimizer
// states by N_d (with mixed precision the FP32 master weights count among them), stage 2 (P_os+g)
// also the gradients, stage 3 (P_os+g+p) also the weights. Activations are not partitioned: each GPU
// keeps those of its own micro-batch. The paper's Figure 1 (7.5B parameters, N_d = 64, Adam in mixed
// precision, K = 12): 120 GB, 31.4 GB, 16.6 GB and 1.9 GB per GPU for stages 0 to 3.
#pragma once

#include <string_view>
#include <vector>

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

struct ZeroPartitioning {
    int stage = 0;        // 0: none (plain data parallelism), 1: P_os, 2: P_os+g, 3: P_os+g+p
    int dataParallel = 1; // N_d, the data-parallel GPUs the states are partitioned over
};

// "P_os", "P_os+g", "P_os+g+p", or "none" for stage 0.
std::string_view zeroStageName(int stage);

// What each GPU keeps per parameter of the model once ZeRO partitions `bytes` (section above).
// Throws InputError for a stage outside 0..3 or fewer than 1 data-parallel GPU.
BytesPerParameter partitionedBytesPerParameter(const BytesPerParameter& bytes, const ZeroPartitioning& zero);

struct MemoryBudget {
    double parameters = 0;
    ZeroPartitioning zero;
    BytesPerParameter perParameter;       // the whole model's states, per parameter
    BytesPerParameter perParameterPerGpu; // what each GPU keeps per parameter (perParameter without ZeRO)
    // Bytes on each GPU (the whole model's without ZeRO).
    double weightBytes = 0, gradientBytes = 0, masterBytes = 0, optimizerBytes = 0;
    double activationBytes = 0; // all layers, mixed precision only (the formula is for 16-bit activations)
    double modelStateBytes() const { return weightBytes + gradientBytes + masterBytes + optimizerBytes; }
    double totalBytes() const { return modelStateBytes() + activationBytes; }
};

// Throws InputError when parameters is not positive and finite, or for a bad `zero` (above).
MemoryBudget memoryBudget(double parameters, Precision precision, Optimizer optimizer,
                          const TransformerShape& shape = {}, const ZeroPartitioning& zero = {});

// The memory of data-centre GPUs, from NVIDIA's datasheets. Their "GB" are 2^30 bytes: the driver of
// the H200 recorded in assets/recorded/h200 reports 150,109,880,320 bytes, more than 141 x 10^9.
struct GpuMemoryCapacity {
    std::string_view name;         // "H200"
    double datasheetGigabytes = 0; // the datasheet's figure: 141
    double bytes = 0;              // datasheetGigabytes x 2^30
    std::string_view source;
};
const std::vector<GpuMemoryCapacity>& gpuMemoryCapacities();

} // namespace warpscope::training
