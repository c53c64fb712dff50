#include "numerics/amp_trainer.h"

#include "numerics/half_rounding.h"
#include "numerics/mlp_kernels.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace warpscope::numerics {

const std::vector<AmpModeInfo>& allAmpModes()
{
    static const std::vector<AmpModeInfo> modes = {
        {AmpMode::FP32, "fp32", "FP32"},
        {AmpMode::FP16, "fp16", "FP16, no loss scaling"},
        {AmpMode::FP16Static, "fp16-static", "FP16, static loss scale"},
        {AmpMode::FP16Dynamic, "fp16-dynamic", "FP16, dynamic loss scaling"},
        {AmpMode::BF16, "bf16", "BF16, no loss scaling"},
    };
    return modes;
}

const AmpModeInfo& ampModeInfo(AmpMode mode) { return allAmpModes()[static_cast<std::size_t>(mode)]; }

std::optional<AmpMode> parseAmpMode(std::string_view key)
{
    for (const AmpModeInfo& info : allAmpModes())
        if (info.key == key)
            return info.mode;
    return std::nullopt;
}

std::string ampModeKeys()
{
    std::string keys;
    for (const AmpModeInfo& info : allAmpModes())
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    return keys;
}

Format ampComputeFormat(AmpMode mode)
{
    switch (mode) {
    case AmpMode::FP32: return Format::FP32;
    case AmpMode::BF16: return Format::BF16;
    default: return Format::FP16;
    }
}

std::vector<AmpMode> standardAmpModes() { return {AmpMode::FP32, AmpMode::FP16, AmpMode::FP16Dynamic, AmpMode::BF16}; }

void validateAmpConfig(const AmpConfig& config)
{
    auto fail = [](const std::string& message) { throw std::invalid_argument(message); };
    if (config.steps < 0 || config.steps > 10'000'000)
        fail("steps must be 0 to 10000000, got " + std::to_string(config.steps));
    if (config.batchSize < 1 || config.batchSize > 65536)
        fail("batch size must be 1 to 65536, got " + std::to_string(config.batchSize));
    if (!(config.learningRate > 0.0f) || !std::isfinite(config.learningRate))
        fail("learning rate must be positive and finite");
    if (!(config.tokensPerBatch >= 1.0) || !std::isfinite(config.tokensPerBatch))
        fail("tokens per batch must be at least 1 and finite");
    if (!(config.staticScale > 0.0f) || !std::isfinite(config.staticScale))
        fail("the static loss scale must be positive and finite, got " + std::to_string(config.staticScale));
    if (config.histogramInterval < 0)
        fail("the histogram interval must be 0 (none) or positive");
    if (config.shape.inputs != 2)
        fail("the MLP's inputs must be 2 (the spiral data's plane), got " + std::to_string(config.shape.inputs));
    if (config.shape.hidden < 1 || config.shape.hidden > 4096)
        fail("the hidden width must be 1 to 4096, got " + std::to_string(config.shape.hidden));
    if (config.shape.classes != config.data.classes)
        fail("the MLP's classes (" + std::to_string(config.shape.classes) + ") must match the data's spiral arms ("
             + std::to_string(config.data.classes) + ")");
    GradScaler check(config.scaler); // throws on a bad factor or interval
    if (config.initialWeights) {
        const MlpShape shape = config.initialWeights->shape();
        if (config.initialWeights->layers.size() != 3 || shape.inputs != config.shape.inputs
            || shape.hidden != config.shape.hidden || shape.classes != config.shape.classes)
            fail("the initial weights do not have the configured shape");
    }
    if (config.fixedMask) {
        if (config.fixedMask->keep.size() != 3)
            fail("the weight mask needs one entry per layer (3)");
        const int widths[4] = {config.shape.inputs, config.shape.hidden, config.shape.hidden, config.shape.classes};
        for (std::size_t l = 0; l < 3; ++l) {
            const std::size_t size = config.fixedMask->keep[l].size();
            if (size != 0 && size != static_cast<std::size_t>(widths[l]) * widths[l + 1])
                fail("the weight mask of layer " + std::to_string(l) + " has " + std::to_string(size)
                     + " entries, the layer has " + std::to_string(widths[l] * widths[l + 1]) + " weights");
        }
    }
}

double GradientHistogram::binLow(int bin) { return std::ldexp(1.0, kMinExponent + bin); }

int GradientHistogram::binOf(double magnitude)
{
    int exponent = 0;
    std::frexp(magnitude, &exponent); // magnitude in [2^(exponent-1), 2^exponent)
    const int bin = exponent - 1 - kMinExponent;
    return bin < 0 ? 0 : bin >= binCount() ? binCount() - 1 : bin;
}

double AmpResult::meanUnderflowShare() const
{
    double sum = 0;
    int count = 0;
    for (const AmpStepRecord& record : steps)
        if (!std::isnan(record.underflowShare)) {
            sum += record.underflowShare;
            ++count;
        }
    return count == 0 ? 0.0 : sum / count;
}

float AmpResult::finalLoss() const { return static_cast<float>(train.meanLoss); }

namespace {

constexpr int kLayers = 3;

// Gradients of every layer's weights and biases.
struct Gradients {
    std::vector<float> weights[kLayers];
    std::vector<float> bias[kLayers];
};

// Adam as torch.optim.Adam's single-tensor path computes it (defaults betas 0.9, 0.999, eps 1e-8):
// FP32 moments, lerp for the first, bias corrections from the step count in FP64.
struct AdamState {
    std::vector<float> m, v;
    int step = 0;
    double beta1Power = 1.0, beta2Power = 1.0;

    void beginStep()
    {
        ++step;
        beta1Power *= 0.9;
        beta2Power *= 0.999;
    }

    void apply(std::vector<float>& parameters, const std::vector<float>& gradients, std::size_t offset, float lr)
    {
        const float stepSize = static_cast<float>(lr / (1.0 - beta1Power));
        const float correction2Sqrt = static_cast<float>(std::sqrt(1.0 - beta2Power));
        float* mp = m.data() + offset;
        float* vp = v.data() + offset;
        for (std::size_t k = 0; k < parameters.size(); ++k) {
            const float g = gradients[k];
            mp[k] += 0.1f * (g - mp[k]);
            vp[k] = vp[k] * 0.999f + 0.001f * g * g;
            const float denominator = std::sqrt(vp[k]) / correction2Sqrt + 1e-8f;
            parameters[k] -= stepSize * (mp[k] / denominator);
        }
    }
};

struct Trainer {
    const AmpConfig& config;
    SpiralDataset data;
    MlpWeights master;
    int widths[kLayers + 1];
    // Per step, in the compute format: weights ([out][in] and transposed), biases, the batch's inputs,
    // each layer's output (post-ReLU for hidden layers), the logits' gradient and the hidden ones.
    std::vector<float> weights[kLayers], weightsT[kLayers], bias[kLayers];
    std::vector<float> activations[kLayers + 1];
    std::vector<float> probabilities;
    std::vector<float> dOut[kLayers];
    std::vector<int> labels;
    Gradients gradients, shadow;
    AdamState adam;
    std::vector<std::uint32_t> order;
    std::size_t orderPosition = 0;
    TrainingRandom batchRandom;

    explicit Trainer(const AmpConfig& c)
        : config(c), data(makeSpirals(c.data)),
          master(c.initialWeights ? *c.initialWeights : initialMlp(c.shape, deriveSeed(c.seed, 1))),
          widths{c.shape.inputs, c.shape.hidden, c.shape.hidden, c.shape.classes}, batchRandom(deriveSeed(c.seed, 2))
    {
        const std::size_t batch = static_cast<std::size_t>(c.batchSize);
        for (int l = 0; l < kLayers; ++l) {
            const std::size_t count = static_cast<std::size_t>(widths[l]) * widths[l + 1];
            weights[l].resize(count);
            weightsT[l].resize(count);
            bias[l].resize(static_cast<std::size_t>(widths[l + 1]));
            dOut[l].resize(batch * widths[l + 1]);
            for (Gradients* g : {&gradients, &shadow}) {
                g->weights[l].resize(count);
                g->bias[l].resize(static_cast<std::size_t>(widths[l + 1]));
            }
        }
        for (int l = 0; l <= kLayers; ++l)
            activations[l].resize(batch * widths[l]);
        probabilities.resize(batch * widths[kLayers]);
        labels.resize(batch);
        adam.m.assign(master.parameterCount(), 0.0f);
        adam.v.assign(master.parameterCount(), 0.0f);
        order.resize(data.train.size());
        std::iota(order.begin(), order.end(), 0u);
        orderPosition = order.size(); // shuffle before the first batch
        applyMask();
    }

    void applyMask()
    {
        if (!config.fixedMask)
            return;
        for (int l = 0; l < kLayers; ++l) {
            const std::vector<std::uint8_t>& keep = config.fixedMask->keep[static_cast<std::size_t>(l)];
            std::vector<float>& w = master.layers[static_cast<std::size_t>(l)].weights;
            for (std::size_t k = 0; k < keep.size(); ++k)
                w[k] = keep[k] ? w[k] : 0.0f;
        }
    }

    // The next batch: consecutive slices of a Fisher-Yates shuffle of the training set, reshuffled
    // when fewer than a batch remain.
    void nextBatch()
    {
        const std::size_t batch = static_cast<std::size_t>(config.batchSize);
        if (orderPosition + batch > order.size()) {
            for (std::size_t k = order.size(); k > 1; --k)
                std::swap(order[k - 1], order[batchRandom.below(static_cast<std::uint32_t>(k))]);
            orderPosition = 0;
        }
        for (std::size_t b = 0; b < batch; ++b) {
            const std::uint32_t sample = order[(orderPosition + b) % order.size()];
            labels[b] = data.train.labels[sample];
            for (int f = 0; f < widths[0]; ++f)
                activations[0][b * widths[0] + f] = data.train.inputs[static_cast<std::size_t>(sample) * widths[0] + f];
        }
        orderPosition += batch;
    }

    // Forward pass in the format; returns the batch's mean loss and leaves the probabilities.
    template <class Round>
    float forward(Round round)
    {
        mlp_kernels::roundInPlace(activations[0].data(), activations[0].size(), round);
        for (int l = 0; l < kLayers; ++l) {
            const MlpLayer& layer = master.layers[static_cast<std::size_t>(l)];
            mlp_kernels::roundCopy(weights[l].data(), layer.weights.data(), weights[l].size(), round);
            mlp_kernels::roundCopy(bias[l].data(), layer.bias.data(), bias[l].size(), round);
            mlp_kernels::transpose(weights[l].data(), widths[l + 1], widths[l], weightsT[l].data());
            mlp_kernels::linearForward(activations[l].data(), config.batchSize, widths[l], weightsT[l].data(),
                                       bias[l].data(), widths[l + 1], activations[l + 1].data(), round);
            if (l + 1 < kLayers)
                mlp_kernels::reluInPlace(activations[l + 1].data(), activations[l + 1].size());
        }
        const int classes = widths[kLayers];
        float lossSum = 0.0f;
        for (int b = 0; b < config.batchSize; ++b) {
            const std::size_t row = static_cast<std::size_t>(b) * classes;
            lossSum += mlp_kernels::softmaxCrossEntropy(activations[kLayers].data() + row, classes, labels[b],
                                                        probabilities.data() + row);
        }
        return lossSum / static_cast<float>(config.batchSize);
    }

    // Backward pass in the format: `lossFactor` is d(scaled loss)/d(cross-entropy of one sample).
    template <class Round>
    void backward(float lossFactor, Gradients& out, Round round)
    {
        const int classes = widths[kLayers];
        for (int b = 0; b < config.batchSize; ++b)
            for (int c = 0; c < classes; ++c) {
                const std::size_t k = static_cast<std::size_t>(b) * classes + c;
                const float target = c == labels[b] ? 1.0f : 0.0f;
                dOut[kLayers - 1][k] = round((probabilities[k] - target) * lossFactor);
            }
        for (int l = kLayers - 1; l >= 0; --l) {
            mlp_kernels::linearWeightGrad(dOut[l].data(), activations[l].data(), config.batchSize, widths[l],
                                          widths[l + 1], out.weights[l].data(), out.bias[l].data(), round);
            if (l > 0)
                mlp_kernels::linearInputGrad(dOut[l].data(), config.batchSize, widths[l + 1], weights[l].data(),
                                             widths[l], activations[l].data(), dOut[l - 1].data(), round);
        }
    }

    void applyAdam()
    {
        adam.beginStep();
        std::size_t offset = 0;
        for (int l = 0; l < kLayers; ++l) {
            MlpLayer& layer = master.layers[static_cast<std::size_t>(l)];
            if (config.fixedMask) {
                const std::vector<std::uint8_t>& keep = config.fixedMask->keep[static_cast<std::size_t>(l)];
                for (std::size_t k = 0; k < keep.size(); ++k)
                    gradients.weights[l][k] = keep[k] ? gradients.weights[l][k] : 0.0f;
            }
            adam.apply(layer.weights, gradients.weights[l], offset, config.learningRate);
            offset += layer.weights.size();
            adam.apply(layer.bias, gradients.bias[l], offset, config.learningRate);
            offset += layer.bias.size();
        }
        applyMask();
    }
};

// Counts gradient elements that are nonzero in the FP32 shadow pass but zero in the format's pass.
double underflowShare(const Gradients& format, const Gradients& exact)
{
    std::size_t nonzero = 0, flushed = 0;
    auto count = [&](const std::vector<float>& f, const std::vector<float>& e) {
        for (std::size_t k = 0; k < e.size(); ++k)
            if (e[k] != 0.0f) {
                ++nonzero;
                flushed += f[k] == 0.0f ? 1 : 0;
            }
    };
    for (int l = 0; l < kLayers; ++l) {
        count(format.weights[l], exact.weights[l]);
        count(format.bias[l], exact.bias[l]);
    }
    return nonzero == 0 ? 0.0 : static_cast<double>(flushed) / static_cast<double>(nonzero);
}

GradientHistogram makeHistogram(const Gradients& exact, int step, float scale, double share)
{
    GradientHistogram histogram;
    histogram.step = step;
    histogram.scale = scale;
    histogram.underflowShare = share;
    histogram.exact.assign(static_cast<std::size_t>(GradientHistogram::binCount()), 0);
    histogram.scaled.assign(static_cast<std::size_t>(GradientHistogram::binCount()), 0);
    auto add = [&](const std::vector<float>& values) {
        for (float g : values) {
            if (g == 0.0f) {
                ++histogram.zeros;
                continue;
            }
            const double magnitude = std::abs(static_cast<double>(g));
            ++histogram.exact[static_cast<std::size_t>(GradientHistogram::binOf(magnitude))];
            ++histogram.scaled[static_cast<std::size_t>(GradientHistogram::binOf(magnitude * scale))];
        }
    };
    for (int l = 0; l < kLayers; ++l) {
        add(exact.weights[l]);
        add(exact.bias[l]);
    }
    return histogram;
}

bool anyNonFinite(const Gradients& g)
{
    bool found = false;
    for (int l = 0; l < kLayers; ++l) {
        for (float x : g.weights[l])
            found = found || !std::isfinite(x);
        for (float x : g.bias[l])
            found = found || !std::isfinite(x);
    }
    return found;
}

template <class Round>
void train(Trainer& trainer, AmpResult& result, const AmpProgress& progress, const std::atomic<bool>* cancel, Round round)
{
    const AmpConfig& config = trainer.config;
    const bool half = config.mode != AmpMode::FP32;
    GradScaler scaler(config.scaler);
    const GradScaler fixedScale({config.staticScale, 2.0, 0.5, 1}); // only unscales (FP16Static)
    const float tokens = static_cast<float>(config.tokensPerBatch);
    for (int step = 0; step < config.steps; ++step) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        AmpStepRecord record;
        record.scale = config.mode == AmpMode::FP16Dynamic ? scaler.scale()
                     : config.mode == AmpMode::FP16Static  ? config.staticScale
                                                           : 1.0f;
        trainer.nextBatch();
        record.loss = trainer.forward(round);
        // d(loss * scale)/d(sample's cross-entropy) = scale / tokensPerBatch, in FP32.
        trainer.backward(record.scale / tokens, trainer.gradients, round);

        const bool histogramStep = config.histogramInterval > 0
                                && (step % config.histogramInterval == 0 || step == config.steps - 1);
        record.underflowShare = std::numeric_limits<double>::quiet_NaN();
        if (!half) {
            record.underflowShare = 0.0;
        } else if (config.measureUnderflow || histogramStep) {
            trainer.backward(1.0f / tokens, trainer.shadow, KeepFp32{});
            record.underflowShare = underflowShare(trainer.gradients, trainer.shadow);
        }
        if (histogramStep)
            result.histograms.push_back(
                makeHistogram(half ? trainer.shadow : trainer.gradients, step, record.scale, record.underflowShare));

        // Unscale in FP32, as GradScaler.unscale_ (or a hand-written static scale: grads * (1/S)).
        if (config.mode == AmpMode::FP16Dynamic) {
            bool foundInf = false;
            for (int l = 0; l < kLayers; ++l) {
                foundInf = scaler.unscale(trainer.gradients.weights[l]) || foundInf;
                foundInf = scaler.unscale(trainer.gradients.bias[l]) || foundInf;
            }
            record.nonFinite = foundInf;
            record.skipped = foundInf;
            if (!foundInf)
                trainer.applyAdam();
            scaler.update(foundInf);
        } else {
            if (config.mode == AmpMode::FP16Static) {
                for (int l = 0; l < kLayers; ++l) {
                    fixedScale.unscale(trainer.gradients.weights[l]);
                    fixedScale.unscale(trainer.gradients.bias[l]);
                }
            }
            // Without a scaler nothing checks: inf/NaN gradients go straight into Adam, whose moments
            // become inf and whose update inf/inf = NaN poisons the weights for good.
            record.nonFinite = anyNonFinite(trainer.gradients);
            trainer.applyAdam();
        }
        result.skippedSteps += record.skipped ? 1 : 0;
        result.nonFiniteSteps += record.nonFinite ? 1 : 0;
        result.steps.push_back(record);
        if (progress)
            progress(step + 1, config.steps);
    }
}

} // namespace

AmpResult runAmpTraining(const AmpConfig& config, const AmpProgress& progress, const std::atomic<bool>* cancel)
{
    validateAmpConfig(config);
    AmpResult result;
    result.config = config;
    result.steps.reserve(static_cast<std::size_t>(config.steps));
    Trainer trainer(config);
    switch (ampComputeFormat(config.mode)) {
    case Format::FP16: train(trainer, result, progress, cancel, RoundFp16{}); break;
    case Format::BF16: train(trainer, result, progress, cancel, RoundBf16{}); break;
    default: train(trainer, result, progress, cancel, KeepFp32{}); break;
    }
    result.weights = std::move(trainer.master);
    result.train = evaluateMlp(result.weights, trainer.data.train);
    result.test = evaluateMlp(result.weights, trainer.data.test);
    return result;
}

} // namespace warpscope::numerics
