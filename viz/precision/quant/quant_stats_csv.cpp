#include "precision/quant/quant_stats_csv.h"

#include "common/export_actions.h"
#include "numerics/number_format.h"
#include "numerics/quant_config.h"
#include "numerics/quantizer.h"

#include <QStringList>

#include <cstddef>
#include <string_view>

namespace warpscope::viz {

namespace {

QString text(std::string_view view) { return QString::fromUtf8(view.data(), static_cast<qsizetype>(view.size())); }

// 17 significant digits: enough for any double to read back as itself ("inf" and "nan" as they are).
QString exact(double value) { return QString::number(value, 'g', 17); }

// The values' own units (synthetic data has none; the MLP's weights and activations are plain numbers).
const QString kUnits = QStringLiteral("data units");
const QString kSquared = QStringLiteral("data units^2");

QString count(std::size_t value) { return QString::number(static_cast<qulonglong>(value)); }

} // namespace

QString quantStatsCsv(const QuantLabResult& r)
{
    const QuantLabRequest& request = r.request;
    const numerics::QuantConfig& config = request.config;
    const numerics::QuantResult& result = r.result;
    const numerics::QuantStats& stats = result.stats;
    QString csv = csvRecord({QStringLiteral("quantity"), QStringLiteral("value"), QStringLiteral("unit")});
    const auto row = [&csv](const QString& quantity, const QString& value, const QString& unit = {}) {
        csv += csvRecord({quantity, value, unit});
    };

    // What was quantized, and how: the panel's header line, one setting per row.
    QString source;
    for (const QuantSourceInfo& info : quantSources())
        if (info.source == request.source)
            source = text(info.key);
    row(QStringLiteral("source"), source);
    if (r.data)
        row(QStringLiteral("data"), r.data->description);
    if (isSynthetic(request.source)) {
        row(QStringLiteral("n"), count(request.count), QStringLiteral("values"));
        row(QStringLiteral("seed"), QString::number(static_cast<qulonglong>(request.seed)));
        row(QStringLiteral("rows"), count(request.rows));
    } else {
        row(QStringLiteral("layer"), QString::number(request.layer));
    }
    row(QStringLiteral("shape rows"), count(result.shape.rows));
    row(QStringLiteral("shape columns"), count(result.shape.cols));
    row(QStringLiteral("format"), text(numerics::formatInfo(config.format).key));
    row(QStringLiteral("scheme"), text(numerics::schemeKey(config.scheme)));
    row(QStringLiteral("granularity"), QString::fromStdString(numerics::granularityText(config)));
    row(QStringLiteral("calibrator"), QString::fromStdString(numerics::calibratorText(config)));

    // What quantization lost, over every value.
    row(QStringLiteral("values"), count(stats.count), QStringLiteral("values"));
    row(QStringLiteral("SQNR"), exact(stats.sqnrDb), QStringLiteral("dB"));
    row(QStringLiteral("signal power"), exact(stats.signalPower), kSquared);
    row(QStringLiteral("MSE"), exact(stats.mse), kSquared);
    row(QStringLiteral("max |error|"), exact(stats.maxAbsError), kUnits);
    row(QStringLiteral("clipped"), count(stats.clipped), QStringLiteral("values"));
    row(QStringLiteral("slices"), count(result.slices.size()));

    // The grid of the slice the histogram shows.
    if (request.slice < result.slices.size()) {
        const numerics::QuantParams& params = result.slices[request.slice].params;
        row(QStringLiteral("slice shown"), count(request.slice + 1));
        row(QStringLiteral("clip low"), exact(params.clipLow), kUnits);
        row(QStringLiteral("clip high"), exact(params.clipHigh), kUnits);
        row(QStringLiteral("scale"), exact(params.scale), kUnits);
        row(QStringLiteral("zero point"), QString::number(params.zeroPoint), QStringLiteral("code"));
    }
    return csv;
}

} // namespace warpscope::viz
