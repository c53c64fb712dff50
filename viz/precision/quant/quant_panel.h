// The quantization lab panel: data (synthetic Gaussian, Laplace, uniform or Gaussian with outliers,
// or the trained MLP's weights or activations of one layer) quantized to INT8, INT4 or FP8 with a
// scheme, a granularity and a calibrator (core/numerics/quantizer.h, calibration.h). Shows the value
// histogram with the grid and the clip bounds, the error histogram, SQNR by format and calibrator,
// the error statistics, and the MLP's held-out accuracy after post-training quantization with every
// method. Everything is computed off the GUI thread; a change replaces a queued computation.
#pragma once

#include "numerics/amp_trainer.h"
#include "numerics/quant_config.h"
#include "numerics/quant_lab.h"
#include "numerics/quantizer.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QTableWidget;

namespace warpscope::viz {

class ValidatedField;

class LabWorker;
class QuantErrorPlot;
class QuantSqnrPlot;
class QuantValuePlot;

enum class QuantSource : std::uint8_t { Gaussian, Laplace, Uniform, Outliers, MlpWeights, MlpActivations };

struct QuantSourceInfo {
    QuantSource source;
    std::string_view key;   // links: "gaussian", ..., "mlp-weights", "mlp-activations"
    QString name;           // "MLP weights"
};
const std::vector<QuantSourceInfo>& quantSources();
std::optional<QuantSource> parseQuantSource(std::string_view key);
std::string quantSourceKeys();                             // "gaussian, laplace, ..." for messages
bool isSynthetic(QuantSource source);

inline constexpr std::size_t kQuantMinValues = 16;         // synthetic n: at least a few values per bin edge
inline constexpr std::size_t kQuantMaxValues = 10'000'000; // and at most 10^7 (the SQNR table quantizes them 16 times)
inline constexpr int kQuantMlpLayers = 3;                  // the MLP of numerics/mlp.h

struct QuantLabRequest {                       // everything one computation depends on
    QuantSource source = QuantSource::Gaussian;
    int layer = 1;                             // MLP sources: which layer's weights or input activations
    std::size_t count = 100'000;               // synthetic: n
    std::uint64_t seed = 1;                    // synthetic: the generator's seed
    std::size_t rows = 1;                      // synthetic: laid out rows x (n / rows); channels are rows
    numerics::QuantConfig config;
    std::size_t slice = 0;                     // the slice whose values and grid the histogram shows
};

struct QuantData {                             // the values quantized, with their layout
    std::vector<float> values;
    numerics::QuantShape shape;
    QString description;                       // "layer 2 weights, 32 x 32 (outputs x inputs)"
};

struct QuantPtqRow {                           // one method's accuracy after post-training quantization
    numerics::QuantConfig config;              // FP8 rows are symmetric whatever the chosen scheme
    double weightsAccuracy = 0;                // weights quantized (per layer, channels = outputs), FP32 activations
    double fullAccuracy = 0;                   // weights and every layer's input activations quantized
};

struct QuantPtqTable {
    double fp32Accuracy = 0;                   // the trained model, unquantized
    std::vector<QuantPtqRow> rows;             // kQuantTargets x kCalibrators, format-major
};

struct QuantLabResult {                        // one computation's results: immutable once delivered
    QuantLabRequest request;
    std::shared_ptr<const QuantData> data;
    numerics::QuantResult result;              // quantize(data, request.config, data.shape)
    numerics::QuantPlotData plot;              // for request.slice
    std::shared_ptr<const std::vector<numerics::SqnrTableCell>> sqnr;
    std::shared_ptr<const QuantPtqTable> ptq;
};

// The trained FP32 model the MLP sources and the accuracy table use: AmpConfig's defaults in FP32.
numerics::AmpConfig quantModelConfig();
// The values a request quantizes, and their shape (the MLP sources need the trained model).
QuantData quantData(const QuantLabRequest& request, const numerics::AmpResult* model);
// Held-out accuracy after quantizing `weights` (and, with activations, every layer's input) with `config`.
QuantPtqRow quantPtqRow(const numerics::MlpWeights& weights, const numerics::LabelledSamples& test,
                        const numerics::QuantConfig& config);

class QuantPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuantPanel(QWidget* parent = nullptr); // Gaussian, 10^5 values, INT8 symmetric per-tensor max; computes when first shown

    void setRequest(const QuantLabRequest& request); // sets the controls and recomputes
    QuantLabRequest request() const;                  // what the controls say (a marked field's last valid value)
    QString fieldErrors() const;                      // each marked field's message, one per line
    void recompute();                                 // in the background, replacing a queued computation
    bool busy() const;
    std::shared_ptr<const QuantLabResult> result() const { return m_result; }
    QString statusText() const;
    QString statText(const QString& name) const;      // "sqnr", "mse", "max_error", "clipped", "clip", "scale", "zero_point"

    QuantValuePlot* valuePlot() const { return m_valuePlot; }
    QuantErrorPlot* errorPlot() const { return m_errorPlot; }
    QuantSqnrPlot* sqnrPlot() const { return m_sqnrPlot; }
    QTableWidget* accuracyTable() const { return m_accuracyTable; }
    QAction* saveStatsAction() const { return m_saveStatsAction; } // "Save Statistics as CSV…" (quant_stats_csv.h)
    QAction* copyStatsAction() const { return m_copyStatsAction; } // "Copy Statistics as CSV"
    QCheckBox* logCountsBox() const { return m_logBox; }

signals:
    void resultChanged(); // a computation finished (or failed: statusText says why)

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    QWidget* buildStats();
    void arrangeFigures(bool wide);
    void syncControlVisibility();
    // A field changed: recompute when every field is valid (and rows divides n), else keep the
    // figures and say which inputs they show.
    // Marks the rule across fields and says in the status line which fields are marked; returns their messages.
    QString checkFields();
    void fieldsChanged(bool force = false); // force: recompute even before the panel was first shown (a link)
    void showResult(std::shared_ptr<const QuantLabResult> result);
    void fillAccuracyTable();
    void setStatus(const QString& text, bool error = false);

    struct Cache;
    std::shared_ptr<Cache> m_cache;  // trained model, data, SQNR and accuracy tables, shared with the worker
    LabWorker* m_worker = nullptr;
    std::shared_ptr<const QuantLabResult> m_result;
    bool m_shownOnce = false;
    bool m_syncing = false;          // controls being set from code: no recompute per control
    bool m_fieldErrorShown = false;  // the status line names marked fields

    QComboBox* m_sourceCombo = nullptr;
    QComboBox* m_layerCombo = nullptr;
    // Checked as typed, never clamped (viz/common/validated_field.h); the figures keep the last valid inputs.
    ValidatedField* m_countField = nullptr;
    ValidatedField* m_seedField = nullptr;
    ValidatedField* m_rowsField = nullptr;
    QuantLabRequest m_lastValid;     // the fields' last valid values
    QComboBox* m_formatCombo = nullptr;
    QComboBox* m_schemeCombo = nullptr;
    QComboBox* m_granularityCombo = nullptr;
    ValidatedField* m_groupField = nullptr;
    QComboBox* m_calibratorCombo = nullptr;
    ValidatedField* m_percentileField = nullptr;
    ValidatedField* m_sliceField = nullptr; // 1..slices of the shown result
    QCheckBox* m_logBox = nullptr;
    QList<QWidget*> m_syntheticOnly, m_mlpOnly;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;

    QGridLayout* m_figures = nullptr;
    bool m_wide = true;
    QuantValuePlot* m_valuePlot = nullptr;
    QuantErrorPlot* m_errorPlot = nullptr;
    QuantSqnrPlot* m_sqnrPlot = nullptr;
    QWidget* m_statsBox = nullptr;
    std::map<QString, QLabel*> m_stats;
    QLabel* m_dataLabel = nullptr;
    QAction* m_saveStatsAction = nullptr;
    QAction* m_copyStatsAction = nullptr;
    QTableWidget* m_accuracyTable = nullptr;
    QLabel* m_accuracyNote = nullptr;
};

} // namespace warpscope::viz
