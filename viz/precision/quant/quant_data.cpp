// The quantization lab's data and its post-training quantization of the MLP, apart from the panel
// that shows them (quant_panel.cpp): the sources a link or the panel may name, the values of one
// request, and one method's accuracy. Declared in quant_panel.h.
#include "precision/quant/quant_panel.h"

#include "numerics/distributions.h"
#include "numerics/mlp.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::viz {

using numerics::QuantConfig;

const std::vector<QuantSourceInfo>& quantSources()
{
    static const std::vector<QuantSourceInfo> sources = {
        {QuantSource::Gaussian, "gaussian", QObject::tr("Gaussian N(0, 1)")},
        {QuantSource::Laplace, "laplace", QObject::tr("Laplace (unit variance)")},
        {QuantSource::Uniform, "uniform", QObject::tr("Uniform (unit variance)")},
        {QuantSource::Outliers, "outliers", QObject::tr("Gaussian + outliers")},
        {QuantSource::MlpWeights, "mlp-weights", QObject::tr("MLP weights")},
        {QuantSource::MlpActivations, "mlp-activations", QObject::tr("MLP activations")},
    };
    return sources;
}

std::optional<QuantSource> parseQuantSource(std::string_view key)
{
    for (const QuantSourceInfo& info : quantSources())
        if (info.key == key)
            return info.source;
    return std::nullopt;
}

std::string quantSourceKeys()
{
    std::string keys;
    for (const QuantSourceInfo& info : quantSources())
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    return keys;
}

bool isSynthetic(QuantSource source) { return source != QuantSource::MlpWeights && source != QuantSource::MlpActivations; }

numerics::AmpConfig quantModelConfig()
{
    numerics::AmpConfig config; // FP32, 1000 steps, seed 1: the model the sparsity lab trains too
    config.histogramInterval = 0;
    return config;
}

QuantData quantData(const QuantLabRequest& request, const numerics::AmpResult* model)
{
    QuantData data;
    if (isSynthetic(request.source)) {
        if (request.rows < 1 || request.count % request.rows != 0)
            throw InputError("Rows " + std::to_string(request.rows) + " do not divide n " + std::to_string(request.count) +
                             " (the values are laid out as rows x columns).");
        const numerics::Distribution kind = request.source == QuantSource::Gaussian  ? numerics::Distribution::Gaussian
                                            : request.source == QuantSource::Laplace ? numerics::Distribution::Laplace
                                            : request.source == QuantSource::Uniform ? numerics::Distribution::Uniform
                                                                                     : numerics::Distribution::GaussianOutliers;
        data.values = numerics::generateValues(kind, request.count, request.seed);
        data.shape = {request.rows, request.count / request.rows};
        data.description = QObject::tr("%1 %2 values, seed %3, as %4 × %5 (rows are channels)")
                               .arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(request.count))),
                                    QString::fromUtf8(numerics::distributionInfo(kind).name.data(), static_cast<int>(numerics::distributionInfo(kind).name.size())))
                               .arg(request.seed)
                               .arg(data.shape.rows)
                               .arg(data.shape.cols);
        return data;
    }
    if (model == nullptr)
        throw InputError("The MLP has not been trained.");
    if (request.layer < 0 || request.layer >= static_cast<int>(model->weights.layers.size()))
        throw InputError("Layer " + std::to_string(request.layer) + " does not exist (the MLP has layers 0 to " +
                         std::to_string(model->weights.layers.size() - 1) + ").");
    const numerics::MlpLayer& layer = model->weights.layers[static_cast<std::size_t>(request.layer)];
    if (request.source == QuantSource::MlpWeights) {
        data.values = layer.weights;
        data.shape = {static_cast<std::size_t>(layer.outputs), static_cast<std::size_t>(layer.inputs)};
        data.description = QObject::tr("layer %1's weights W[out][in], %2 × %3 (channels are outputs), of the MLP trained in FP32")
                               .arg(request.layer)
                               .arg(layer.outputs)
                               .arg(layer.inputs);
        return data;
    }
    const numerics::SpiralDataset spirals = numerics::makeSpirals(model->config.data);
    numerics::MlpActivations activations = numerics::mlpActivations(model->weights, spirals.train);
    data.values = std::move(activations.layerInputs[static_cast<std::size_t>(request.layer)]);
    data.shape = {spirals.train.size(), static_cast<std::size_t>(layer.inputs)};
    data.description = request.layer == 0
                           ? QObject::tr("layer 0's input: the %1 training samples (x, y), %1 × 2 (channels are samples)")
                                 .arg(spirals.train.size())
                           : QObject::tr("layer %1's input activations (after ReLU) for the %2 training samples, %2 × %3 "
                                         "(channels are samples)")
                                 .arg(request.layer)
                                 .arg(spirals.train.size())
                                 .arg(layer.inputs);
    return data;
}

QuantPtqRow quantPtqRow(const numerics::MlpWeights& weights, const numerics::LabelledSamples& test, const QuantConfig& config)
{
    QuantPtqRow row;
    row.config = config;
    numerics::MlpWeights quantized = weights;
    for (numerics::MlpLayer& layer : quantized.layers)
        layer.weights = numerics::quantizeWeights(layer.weights, static_cast<std::size_t>(layer.outputs),
                                                  static_cast<std::size_t>(layer.inputs), config)
                            .dequantized;
    row.weightsAccuracy = numerics::mlpAccuracy(quantized, test);
    // Activations quantized as each layer receives them, calibrated on the batch itself (dynamic quantization).
    const numerics::ActivationHook hook = [&](int layer, std::span<float> values) {
        const auto features = static_cast<std::size_t>(quantized.layers[static_cast<std::size_t>(layer)].inputs);
        numerics::quantizeInPlace(values, config, numerics::QuantShape{values.size() / features, features});
    };
    row.fullAccuracy = numerics::mlpAccuracy(quantized, test, hook);
    return row;
}

} // namespace warpscope::viz
