// The MLP and its kernels against independent references: a hand-computed two-class network, the
// backward kernels against central differences of a double-precision forward pass written here, the
// FP32-accumulate-then-round rule on a hand-made sum that FP16 accumulation would get wrong, the
// portable exp/log/sin/cos against libm, and the spiral data's properties.
#include "numerics/half_rounding.h"
#include "numerics/mlp.h"
#include "numerics/mlp_kernels.h"
#include "numerics/synthetic_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

using namespace warpscope::numerics;

namespace {

MlpLayer layer(int inputs, int outputs, std::vector<float> weights, std::vector<float> bias)
{
    MlpLayer l;
    l.inputs = inputs;
    l.outputs = outputs;
    l.weights = std::move(weights);
    l.bias = std::move(bias);
    return l;
}

// Double-precision forward of the whole network on one sample; returns the cross-entropy.
double referenceLoss(const MlpWeights& model, const std::vector<double>& x, int label)
{
    std::vector<double> a = x;
    for (std::size_t l = 0; l < model.layers.size(); ++l) {
        const MlpLayer& layer = model.layers[l];
        std::vector<double> z(static_cast<std::size_t>(layer.outputs));
        for (int o = 0; o < layer.outputs; ++o) {
            double sum = layer.bias[o];
            for (int i = 0; i < layer.inputs; ++i)
                sum += static_cast<double>(layer.weight(o, i)) * a[i];
            z[o] = l + 1 < model.layers.size() ? std::max(sum, 0.0) : sum;
        }
        a = z;
    }
    const double largest = *std::max_element(a.begin(), a.end());
    double sum = 0;
    for (double v : a)
        sum += std::exp(v - largest);
    return std::log(sum) - (a[label] - largest);
}

} // namespace

TEST(Mlp, HandComputedTwoClassNetwork)
{
    // Hidden layers pass |x| features through; logits = (h0 - h1, h1 - h0).
    MlpWeights model;
    model.layers.push_back(layer(2, 2, {1, 0, 0, 1}, {0, 0}));
    model.layers.push_back(layer(2, 2, {1, 0, 0, 1}, {0, 0}));
    model.layers.push_back(layer(2, 2, {1, -1, -1, 1}, {0, 0}));
    LabelledSamples samples;
    samples.features = 2;
    samples.inputs = {1.0f, 0.0f, 0.0f, 2.0f, -1.0f, -1.0f};
    samples.labels = {0, 1, 0};
    // Sample 1: logits (1, -1): loss ln(1 + e^-2). Sample 2: (-2, 2), label 1: ln(1 + e^-4).
    // Sample 3: ReLU kills both inputs, logits (0, 0): ln 2, and a tie counts as class 0 (first max).
    const double expected = (std::log1p(std::exp(-2.0)) + std::log1p(std::exp(-4.0)) + std::log(2.0)) / 3.0;
    const MlpEvaluation evaluation = evaluateMlp(model, samples);
    EXPECT_NEAR(evaluation.meanLoss, expected, 1e-6);
    EXPECT_DOUBLE_EQ(evaluation.accuracy, 1.0);
    EXPECT_EQ(model.shape().hidden, 2);
    EXPECT_EQ(model.parameterCount(), 18u);

    // A hook that zeroes the last hidden layer leaves logits = bias = (0, 0): everything is class 0.
    const ActivationHook zeroHidden = [](int l, std::span<float> values) {
        if (l == 2)
            std::fill(values.begin(), values.end(), 0.0f);
    };
    EXPECT_NEAR(mlpAccuracy(model, samples, zeroHidden), 2.0 / 3.0, 1e-12);

    const MlpActivations activations = mlpActivations(model, samples);
    ASSERT_EQ(activations.layerInputs.size(), 3u);
    EXPECT_EQ(activations.layerInputs[1], (std::vector<float>{1, 0, 0, 2, 0, 0}));
    EXPECT_EQ(activations.logits, (std::vector<float>{1, -1, -2, 2, 0, 0}));
}

TEST(Mlp, NanWeightsCountAsWrong)
{
    MlpWeights model = initialMlp({2, 4, 2}, 7);
    model.layers[2].bias[0] = std::numeric_limits<float>::quiet_NaN();
    LabelledSamples samples;
    samples.features = 2;
    samples.inputs = {0.5f, 0.5f};
    samples.labels = {0};
    const MlpEvaluation evaluation = evaluateMlp(model, samples);
    EXPECT_EQ(evaluation.accuracy, 0.0);
    EXPECT_TRUE(std::isnan(evaluation.meanLoss));
}

TEST(Mlp, RejectsMismatchedShapes)
{
    const MlpWeights model = initialMlp({2, 4, 3}, 1);
    LabelledSamples samples;
    samples.features = 3;
    samples.inputs = {1, 2, 3};
    samples.labels = {0};
    EXPECT_THROW(evaluateMlp(model, samples), std::invalid_argument);
    samples.features = 2;
    samples.inputs = {1, 2};
    samples.labels = {5};
    EXPECT_THROW(evaluateMlp(model, samples), std::invalid_argument);
}

TEST(Mlp, InitialWeightsFollowPyTorchBounds)
{
    const MlpWeights model = initialMlp({2, 16, 3}, 42);
    for (const MlpLayer& l : model.layers) {
        const float bound = 1.0f / std::sqrt(static_cast<float>(l.inputs));
        for (float w : l.weights)
            EXPECT_LE(std::abs(w), bound);
        for (float b : l.bias)
            EXPECT_EQ(b, 0.0f);
    }
    EXPECT_EQ(initialMlp({2, 16, 3}, 42).layers[1].weights, model.layers[1].weights);
    EXPECT_NE(initialMlp({2, 16, 3}, 43).layers[1].weights, model.layers[1].weights);
}

TEST(MlpKernels, BackwardMatchesFiniteDifferences)
{
    const MlpWeights model = initialMlp({2, 6, 3}, 11);
    const int batch = 4;
    const std::vector<float> x = {0.3f, -0.7f, -0.2f, 0.9f, 0.8f, 0.1f, -0.5f, -0.4f};
    const std::vector<int> labels = {0, 2, 1, 2};
    const int widths[4] = {2, 6, 6, 3};

    // Forward with the kernels (FP32), keeping every layer's input.
    std::vector<std::vector<float>> acts = {x};
    for (int l = 0; l < 3; ++l) {
        const MlpLayer& lay = model.layers[l];
        std::vector<float> wT(lay.weights.size()), out(static_cast<std::size_t>(batch) * lay.outputs);
        mlp_kernels::transpose(lay.weights.data(), lay.outputs, lay.inputs, wT.data());
        mlp_kernels::linearForward(acts.back().data(), batch, lay.inputs, wT.data(), lay.bias.data(), lay.outputs,
                                   out.data(), KeepFp32{});
        if (l < 2)
            mlp_kernels::reluInPlace(out.data(), out.size());
        acts.push_back(out);
    }
    // Gradient of the summed cross-entropy.
    std::vector<float> dOut(static_cast<std::size_t>(batch) * 3), probabilities(3);
    for (int b = 0; b < batch; ++b) {
        mlp_kernels::softmaxCrossEntropy(acts[3].data() + b * 3, 3, labels[b], probabilities.data());
        for (int c = 0; c < 3; ++c)
            dOut[b * 3 + c] = probabilities[c] - (c == labels[b] ? 1.0f : 0.0f);
    }
    std::vector<std::vector<float>> dW(3), dB(3);
    for (int l = 2; l >= 0; --l) {
        dW[l].resize(model.layers[l].weights.size());
        dB[l].resize(model.layers[l].bias.size());
        mlp_kernels::linearWeightGrad(dOut.data(), acts[l].data(), batch, widths[l], widths[l + 1], dW[l].data(),
                                      dB[l].data(), KeepFp32{});
        if (l > 0) {
            std::vector<float> dIn(static_cast<std::size_t>(batch) * widths[l]);
            mlp_kernels::linearInputGrad(dOut.data(), batch, widths[l + 1], model.layers[l].weights.data(), widths[l],
                                         acts[l].data(), dIn.data(), KeepFp32{});
            dOut = dIn;
        }
    }
    // Central differences of the double-precision loss, parameter by parameter.
    auto totalLoss = [&](const MlpWeights& m) {
        double sum = 0;
        for (int b = 0; b < batch; ++b)
            sum += referenceLoss(m, {x[2 * b], x[2 * b + 1]}, labels[b]);
        return sum;
    };
    const double h = 1e-3;
    for (int l = 0; l < 3; ++l) {
        for (std::size_t k = 0; k < model.layers[l].weights.size() + model.layers[l].bias.size(); ++k) {
            MlpWeights plus = model, minus = model;
            const bool isWeight = k < model.layers[l].weights.size();
            const std::size_t index = isWeight ? k : k - model.layers[l].weights.size();
            float& p = isWeight ? plus.layers[l].weights[index] : plus.layers[l].bias[index];
            float& m = isWeight ? minus.layers[l].weights[index] : minus.layers[l].bias[index];
            p += static_cast<float>(h);
            m -= static_cast<float>(h);
            const double numeric = (totalLoss(plus) - totalLoss(minus)) / (static_cast<double>(p) - m);
            const double analytic = isWeight ? dW[l][index] : dB[l][index];
            EXPECT_NEAR(analytic, numeric, 2e-3) << "layer " << l << " parameter " << k;
        }
    }
}

TEST(MlpKernels, AccumulatesInFp32AndRoundsOnce)
{
    // 1 + 2^-11 + 2^-11 = 1 + 2^-10 exactly in FP32, which FP16 holds. Accumulating in FP16 instead
    // would round 1 + 2^-11 to 1 (a tie, to even) twice and return 1.
    const std::vector<float> x = {1.0f, 1.0f, 1.0f};
    const std::vector<float> weightsT = {1.0f, 0x1p-11f, 0x1p-11f}; // [3 inputs][1 output]
    const std::vector<float> bias = {0.0f};
    float out = 0;
    mlp_kernels::linearForward(x.data(), 1, 3, weightsT.data(), bias.data(), 1, &out, RoundFp16{});
    EXPECT_EQ(out, 1.0f + 0x1p-10f);
    // The bias joins the FP32 sum before the one rounding: 1 + 2^-11 + bias 2^-12 rounds up, not to 1.
    const std::vector<float> one = {1.0f, 0x1p-11f};
    const std::vector<float> smallBias = {0x1p-12f};
    mlp_kernels::linearForward(x.data(), 1, 2, one.data(), smallBias.data(), 1, &out, RoundFp16{});
    EXPECT_EQ(out, 1.0f + 0x1p-10f);
    // Gradients below FP16's half-subnormal flush to zero; BF16 keeps them.
    const std::vector<float> dOut = {0x1p-30f};
    const std::vector<float> input = {1.0f};
    float dW = 1, dB = 1;
    mlp_kernels::linearWeightGrad(dOut.data(), input.data(), 1, 1, 1, &dW, &dB, RoundFp16{});
    EXPECT_EQ(dW, 0.0f);
    mlp_kernels::linearWeightGrad(dOut.data(), input.data(), 1, 1, 1, &dW, &dB, RoundBf16{});
    EXPECT_EQ(dW, 0x1p-30f);
}

TEST(PortableMath, ExpAndLogWithinOneUlpOfLibm)
{
    TrainingRandom random(5);
    for (int k = 0; k < 200000; ++k) {
        const float x = (random.uniformFloat() - 0.5f) * 200.0f;
        const float expected = static_cast<float>(std::exp(static_cast<double>(x)));
        const float actual = portableExpf(x);
        if (expected > 1e-37f && std::isfinite(expected)) {
            ASSERT_LE(std::abs(actual - expected), std::abs(std::nextafter(expected, 0.0f) - expected) * 1.01f) << x;
        }
        const float positive = std::ldexp(0.5f + random.uniformFloat(), static_cast<int>(random.below(200)) - 100);
        const float log = static_cast<float>(std::log(static_cast<double>(positive)));
        ASSERT_LE(std::abs(portableLogf(positive) - log), std::max(std::abs(std::nextafter(log, 0.0f) - log), 1e-7f)) << positive;
    }
    EXPECT_EQ(portableExpf(0.0f), 1.0f);
    EXPECT_EQ(portableLogf(1.0f), 0.0f);
    EXPECT_EQ(portableExpf(-200.0f), 0.0f);
    EXPECT_TRUE(std::isinf(portableExpf(200.0f)));
}

TEST(PortableMath, SinCosMatchLibm)
{
    for (int k = -2000; k <= 2000; ++k) {
        const double angle = k * 0.0123;
        double s = 0, c = 0;
        portableSinCos(angle, s, c);
        EXPECT_NEAR(s, std::sin(angle), 4e-16) << angle;
        EXPECT_NEAR(c, std::cos(angle), 4e-16) << angle;
    }
}

TEST(SyntheticData, SpiralsAreDeterministicBalancedAndInTheUnitDisc)
{
    SpiralOptions options;
    const SpiralDataset a = makeSpirals(options), b = makeSpirals(options);
    EXPECT_EQ(a.train.inputs, b.train.inputs);
    EXPECT_EQ(a.test.inputs, b.test.inputs);
    EXPECT_NE(a.train.inputs, a.test.inputs);
    ASSERT_EQ(a.train.size(), static_cast<std::size_t>(options.classes * options.trainPerClass));
    ASSERT_EQ(a.test.size(), static_cast<std::size_t>(options.classes * options.testPerClass));
    for (std::size_t s = 0; s < a.train.size(); ++s) {
        EXPECT_EQ(a.train.labels[s], static_cast<int>(s % options.classes));
        const float radius = std::hypot(a.train.inputs[2 * s], a.train.inputs[2 * s + 1]);
        EXPECT_LE(radius, 1.0f + 1e-6f);
    }
    options.seed += 1;
    EXPECT_NE(makeSpirals(options).train.inputs, a.train.inputs);
    options.classes = 1;
    EXPECT_THROW(makeSpirals(options), std::invalid_argument);
}

TEST(SyntheticData, RandomStreamIsSplitMix64)
{
    // Vigna's splitmix64.c from state 0: the first output is 0xE220A8397B1DCDAF.
    TrainingRandom random(0);
    EXPECT_EQ(random.next(), 0xE220A8397B1DCDAFull);
    TrainingRandom bounded(3);
    std::set<std::uint32_t> seen;
    for (int k = 0; k < 1000; ++k) {
        const std::uint32_t v = bounded.below(7);
        ASSERT_LT(v, 7u);
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 7u);
}
