#include "training/memory_budget.h"

#include "util/input_error.h"

#include <cmath>

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

MemoryBudget memoryBudget(double parameters, Precision precision, Optimizer optimizer, const TransformerShape& shape)
{
    if (!(parameters > 0) || !std::isfinite(parameters))
        throw InputError("parameters must be a positive number (e.g. 7e9)");
    if (shape.layers < 0)
        throw InputError("transformer shape: layers must not be negative");
    MemoryBudget budget;
    budget.parameters = parameters;
    budget.perParameter = bytesPerParameter(precision, optimizer);
    budget.weightBytes = parameters * budget.perParameter.weights;
    budget.gradientBytes = parameters * budget.perParameter.gradients;
    budget.masterBytes = parameters * budget.perParameter.masterWeights;
    budget.optimizerBytes = parameters * budget.perParameter.optimizerStates;
    // The activation formula counts 16-bit activations, so it applies to mixed precision only.
    if (precision == Precision::Mixed16 && shape.layers > 0)
        budget.activationBytes = shape.layers * activationBytesPerLayer(shape);
    return budget;
}

} // namespace warpscope::training
