#include "training/memory_budget.h"

#include "util/input_error.h"

#include <cmath>
#include <string>
#include <vector>

namespace warpscope::training {

std::string_view precisionKey(Precision precision)
{
    switch (precision) {
    case Precision::Fp32: return "fp32";
    case Precision::Mixed16: return "mixed";
    case Precision::Inference16: return "inference-16";
    case Precision::InferenceInt8: return "inference-int8";
    }
    return "?";
}

std::string_view optimizerKey(Optimizer optimizer)
{
    switch (optimizer) {
    case Optimizer::Adam: return "adam";
    case Optimizer::SgdMomentum: return "sgd-momentum";
    case Optimizer::Sgd: return "sgd";
    }
    return "?";
}

BytesPerParameter bytesPerParameter(Precision precision, Optimizer optimizer)
{
    const double moments = optimizer == Optimizer::Adam ? 2 : optimizer == Optimizer::SgdMomentum ? 1 : 0;
    BytesPerParameter bytes;
    switch (precision) {
    case Precision::Fp32:
        bytes.weights = 4;
        bytes.gradients = 4;
        bytes.optimizerStates = 4 * moments;
        break;
    case Precision::Mixed16:
        bytes.weights = 2;
        bytes.gradients = 2;
        bytes.masterWeights = 4;
        bytes.optimizerStates = 4 * moments;
        break;
    case Precision::Inference16: bytes.weights = 2; break;
    case Precision::InferenceInt8: bytes.weights = 1; break;
    }
    return bytes;
}

double activationBytesPerLayer(const TransformerShape& shape)
{
    if (shape.hidden < 1 || shape.heads < 1 || shape.sequence < 1 || shape.microBatch < 1)
        throw InputError("transformer shape: hidden, heads, sequence and micro-batch must be at least 1");
    const double s = shape.sequence, b = shape.microBatch, h = shape.hidden, a = shape.heads;
    if (shape.recompute)
        return 2 * s * b * h;
    return s * b * h * (34 + 5 * a * s / h);
}

std::string_view zeroStageName(int stage)
{
    switch (stage) {
    case 0: return "none";
    case 1: return "P_os";
    case 2: return "P_os+g";
    case 3: return "P_os+g+p";
    default: return "?";
    }
}

BytesPerParameter partitionedBytesPerParameter(const BytesPerParameter& bytes, const ZeroPartitioning& zero)
{
    if (zero.stage < 0 || zero.stage > 3)
        throw InputError("ZeRO stage " + std::to_string(zero.stage) + " does not exist (allowed: 0..3)");
    if (zero.dataParallel < 1)
        throw InputError("ZeRO: " + std::to_string(zero.dataParallel) + " data-parallel GPUs (allowed: at least 1)");
    const double n = zero.dataParallel;
    BytesPerParameter perGpu = bytes;
    if (zero.stage >= 1) { // P_os: the optimizer states, the FP32 master weights among them
        perGpu.optimizerStates = bytes.optimizerStates / n;
        perGpu.masterWeights = bytes.masterWeights / n;
    }
    if (zero.stage >= 2) // P_os+g
        perGpu.gradients = bytes.gradients / n;
    if (zero.stage >= 3) // P_os+g+p
        perGpu.weights = bytes.weights / n;
    return perGpu;
}

MemoryBudget memoryBudget(double parameters, Precision precision, Optimizer optimizer, const TransformerShape& shape,
                          const ZeroPartitioning& zero)
{
    if (!(parameters > 0) || !std::isfinite(parameters))
        throw InputError("parameters must be a positive number (e.g. 7e9)");
    if (shape.layers < 0)
        throw InputError("transformer shape: layers must not be negative");
    MemoryBudget budget;
    budget.parameters = parameters;
    budget.zero = zero;
    budget.perParameter = bytesPerParameter(precision, optimizer);
    budget.perParameterPerGpu = partitionedBytesPerParameter(budget.perParameter, zero);
    budget.weightBytes = parameters * budget.perParameterPerGpu.weights;
    budget.gradientBytes = parameters * budget.perParameterPerGpu.gradients;
    budget.masterBytes = parameters * budget.perParameterPerGpu.masterWeights;
    budget.optimizerBytes = parameters * budget.perParameterPerGpu.optimizerStates;
    // The activation formula counts 16-bit activations, so it applies to mixed precision only.
    if (precision == Precision::Mixed16 && shape.layers > 0)
        budget.activationBytes = shape.layers * activationBytesPerLayer(shape);
    return budget;
}

const std::vector<GpuMemoryCapacity>& gpuMemoryCapacities()
{
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    static const std::vector<GpuMemoryCapacity> gpus = {
        {"A100 40GB", 40, 40 * gib, "NVIDIA A100 Tensor Core GPU datasheet: GPU memory 40GB HBM2 (A100 40GB)"},
        {"A100 80GB", 80, 80 * gib, "NVIDIA A100 Tensor Core GPU datasheet: GPU memory 80GB HBM2e (A100 80GB)"},
        {"H100 SXM", 80, 80 * gib, "NVIDIA H100 Tensor Core GPU datasheet: GPU memory 80GB (H100 SXM)"},
        {"H200", 141, 141 * gib, "NVIDIA H200 Tensor Core GPU datasheet: GPU memory 141GB HBM3e (H200 SXM and NVL)"},
        {"B200", 180, 180 * gib, "NVIDIA Blackwell datasheet, Individual Blackwell GPU Specifications: GPU memory 180GB HBM3e (HGX B200)"},
    };
    return gpus;
}

} // namespace warpscope::training
