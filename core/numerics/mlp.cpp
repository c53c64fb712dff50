#include "numerics/mlp.h"

#include "numerics/half_rounding.h"
#include "numerics/mlp_kernels.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace warpscope::numerics {

MlpShape MlpWeights::shape() const
{
    if (layers.size() != 3)
        return {};
    return {layers[0].inputs, layers[0].outputs, layers[2].outputs};
}

std::size_t MlpWeights::parameterCount() const
{
    std::size_t count = 0;
    for (const MlpLayer& layer : layers)
        count += layer.weights.size() + layer.bias.size();
    return count;
}

MlpWeights initialMlp(const MlpShape& shape, std::uint64_t seed)
{
    if (shape.inputs < 1 || shape.hidden < 1 || shape.classes < 2)
        throw std::invalid_argument("MLP shape needs at least 1 input, 1 hidden unit and 2 classes");
    TrainingRandom random(seed);
    MlpWeights model;
    const int widths[4] = {shape.inputs, shape.hidden, shape.hidden, shape.classes};
    for (int l = 0; l < 3; ++l) {
        MlpLayer layer;
        layer.inputs = widths[l];
        layer.outputs = widths[l + 1];
        const float bound = static_cast<float>(1.0 / std::sqrt(static_cast<double>(layer.inputs)));
        layer.weights.resize(static_cast<std::size_t>(layer.inputs) * layer.outputs);
        for (float& w : layer.weights)
            w = (2.0f * random.uniformFloat() - 1.0f) * bound;
        layer.bias.assign(static_cast<std::size_t>(layer.outputs), 0.0f);
        model.layers.push_back(std::move(layer));
    }
    return model;
}

namespace {

void checkShapes(const MlpWeights& weights, const LabelledSamples& samples)
{
    if (weights.layers.size() != 3)
        throw std::invalid_argument("an MLP needs 3 layers, got " + std::to_string(weights.layers.size()));
    for (std::size_t l = 0; l < 3; ++l) {
        const MlpLayer& layer = weights.layers[l];
        if (layer.weights.size() != static_cast<std::size_t>(layer.inputs) * layer.outputs
            || layer.bias.size() != static_cast<std::size_t>(layer.outputs)
            || (l > 0 && layer.inputs != weights.layers[l - 1].outputs))
            throw std::invalid_argument("MLP layer " + std::to_string(l) + " has inconsistent sizes");
    }
    if (samples.features != weights.layers[0].inputs
        || samples.inputs.size() != samples.size() * static_cast<std::size_t>(samples.features))
        throw std::invalid_argument("samples have " + std::to_string(samples.features) + " features, the MLP takes "
                                    + std::to_string(weights.layers[0].inputs));
    for (int label : samples.labels)
        if (label < 0 || label >= weights.layers[2].outputs)
            throw std::invalid_argument("sample label " + std::to_string(label) + " is not a class of the MLP");
}

// The FP32 forward pass over all samples; fills each layer's input and the logits.
MlpActivations forwardAll(const MlpWeights& weights, const LabelledSamples& samples, const ActivationHook& hook)
{
    checkShapes(weights, samples);
    const int batch = static_cast<int>(samples.size());
    MlpActivations result;
    std::vector<float> current = samples.inputs;
    std::vector<float> weightsT;
    for (int l = 0; l < 3; ++l) {
        const MlpLayer& layer = weights.layers[static_cast<std::size_t>(l)];
        if (hook)
            hook(l, std::span<float>(current));
        result.layerInputs.push_back(current);
        weightsT.resize(layer.weights.size());
        mlp_kernels::transpose(layer.weights.data(), layer.outputs, layer.inputs, weightsT.data());
        std::vector<float> next(static_cast<std::size_t>(batch) * layer.outputs);
        mlp_kernels::linearForward(current.data(), batch, layer.inputs, weightsT.data(), layer.bias.data(),
                                   layer.outputs, next.data(), KeepFp32{});
        if (l < 2)
            mlp_kernels::reluInPlace(next.data(), next.size());
        current = std::move(next);
    }
    result.logits = std::move(current);
    return result;
}

} // namespace

MlpEvaluation evaluateMlp(const MlpWeights& weights, const LabelledSamples& samples, const ActivationHook& hook)
{
    const MlpActivations activations = forwardAll(weights, samples, hook);
    const int classes = weights.layers[2].outputs;
    std::vector<float> probabilities(static_cast<std::size_t>(classes));
    double lossSum = 0;
    std::size_t correct = 0;
    for (std::size_t s = 0; s < samples.size(); ++s) {
        const float* logits = activations.logits.data() + s * static_cast<std::size_t>(classes);
        lossSum += mlp_kernels::softmaxCrossEntropy(logits, classes, samples.labels[s], probabilities.data());
        int best = 0;
        bool finite = true;
        for (int c = 0; c < classes; ++c) {
            finite = finite && std::isfinite(logits[c]);
            if (logits[c] > logits[best])
                best = c;
        }
        if (finite && best == samples.labels[s])
            ++correct;
    }
    MlpEvaluation evaluation;
    const double count = static_cast<double>(samples.size());
    evaluation.meanLoss = samples.size() == 0 ? 0.0 : lossSum / count;
    evaluation.accuracy = samples.size() == 0 ? 0.0 : static_cast<double>(correct) / count;
    return evaluation;
}

double mlpAccuracy(const MlpWeights& weights, const LabelledSamples& samples, const ActivationHook& hook)
{
    return evaluateMlp(weights, samples, hook).accuracy;
}

MlpActivations mlpActivations(const MlpWeights& weights, const LabelledSamples& samples)
{
    return forwardAll(weights, samples, {});
}

namespace {

// 1/n! for n = 0..13 and 1/n for odd n = 1..23, computed once at compile time (exact divisions of
// IEEE doubles, so the same everywhere).
struct SeriesCoefficients {
    double inverseFactorial[14] = {};
    double inverseOdd[24] = {};
    constexpr SeriesCoefficients()
    {
        double factorial = 1.0;
        for (int n = 0; n < 14; ++n) {
            factorial *= n == 0 ? 1.0 : n;
            inverseFactorial[n] = 1.0 / factorial;
        }
        for (int n = 1; n < 24; n += 2)
            inverseOdd[n] = 1.0 / n;
    }
};
constexpr SeriesCoefficients kSeries;

} // namespace

float portableExpf(float x)
{
    if (x != x)
        return x;
    if (x > 100.0f)
        return std::numeric_limits<float>::infinity();
    if (x < -110.0f)
        return 0.0f;
    // x = k ln2 + r, |r| <= ln2 / 2 (ln 2 split in two so that k ln2 stays exact enough).
    constexpr double ln2High = 0.6931471804855391;      // ln 2 with its low 20 mantissa bits cleared
    constexpr double ln2Low = 7.440617110012397e-11;     // ln 2 - ln2High
    constexpr double invLn2 = 1.4426950408889634;
    const double value = static_cast<double>(x);
    const double scaled = value * invLn2;
    const int k = static_cast<int>(scaled + (scaled >= 0 ? 0.5 : -0.5));
    const double r = (value - k * ln2High) - k * ln2Low;
    // Taylor series of e^r to r^13 (Horner): the first omitted term is below 1e-17 for |r| <= 0.35.
    double p = kSeries.inverseFactorial[13];
    for (int n = 12; n >= 0; --n)
        p = p * r + kSeries.inverseFactorial[n];
    // times 2^k, built from its bits: k is within [-159, 145], a normal double.
    const double twoToK = std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
    return static_cast<float>(p * twoToK);
}

float portableLogf(float x)
{
    if (x != x || x < 0.0f)
        return std::numeric_limits<float>::quiet_NaN();
    if (x == 0.0f)
        return -std::numeric_limits<float>::infinity();
    if (x == std::numeric_limits<float>::infinity())
        return x;
    // x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(f), f = (m - 1) / (m + 1), |f| < 0.172.
    int e = 0;
    double m = std::frexp(static_cast<double>(x), &e);
    if (m < 0.7071067811865476) {
        m *= 2.0;
        --e;
    }
    const double f = (m - 1.0) / (m + 1.0);
    const double f2 = f * f;
    double series = 0.0;
    for (int n = 23; n >= 1; n -= 2)
        series = kSeries.inverseOdd[n] + f2 * series;
    constexpr double ln2 = 0.6931471805599453;
    return static_cast<float>(2.0 * f * series + e * ln2);
}

} // namespace warpscope::numerics
