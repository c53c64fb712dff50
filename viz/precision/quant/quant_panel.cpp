#include "precision/quant/quant_panel.h"

#include "common/export_actions.h"
#include "common/validated_field.h"
#include "precision/precision_lab_flow_layout.h"
#include "precision/precision_lab_worker.h"
#include "precision/quant/quant_plots.h"
#include "precision/quant/quant_stats_csv.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <tuple>

namespace warpscope::viz {

using numerics::Calibrator;
using numerics::Format;
using numerics::Granularity;
using numerics::QuantConfig;
using numerics::QuantScheme;

namespace {

constexpr int kWideWidth = 860; // below this the figures stack in one column
constexpr std::size_t kHistogramBins = 256;

QString text(std::string_view view) { return QString::fromUtf8(view.data(), static_cast<int>(view.size())); }

QString number(double value) { return QString::number(value, 'g', 6); }

QString shortFormat(Format format)
{
    switch (format) {
    case Format::INT8: return QStringLiteral("INT8");
    case Format::INT4: return QStringLiteral("INT4");
    case Format::FP8E4M3: return QStringLiteral("FP8 E4M3");
    case Format::FP8E5M2: return QStringLiteral("FP8 E5M2");
    default: return text(numerics::formatInfo(format).name);
    }
}

QString methodText(const QuantConfig& config)
{
    return shortFormat(config.format) + QLatin1Char(' ') + QString::fromStdString(numerics::calibratorText(config));
}

// What a cached piece depends on.
std::string dataKey(const QuantLabRequest& r)
{
    if (isSynthetic(r.source))
        return std::to_string(static_cast<int>(r.source)) + "|" + std::to_string(r.count) + "|" + std::to_string(r.seed) + "|" +
               std::to_string(r.rows);
    return std::to_string(static_cast<int>(r.source)) + "|layer" + std::to_string(r.layer);
}

std::string methodKey(const QuantConfig& c)
{
    return std::string(numerics::schemeKey(c.scheme)) + "|" + numerics::granularityText(c) + "|" + number(c.percentile).toStdString();
}

QTableWidgetItem* cellItem(const QString& value, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(value);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %"); }

} // namespace

struct QuantPanel::Cache {
    std::mutex mutex;
    std::shared_ptr<const numerics::AmpResult> model;
    std::string dataKey;
    std::shared_ptr<const QuantData> data;
    std::string sqnrKey;
    std::shared_ptr<const std::vector<numerics::SqnrTableCell>> sqnr;
    std::string ptqKey;
    std::shared_ptr<const QuantPtqTable> ptq;
};

QuantPanel::QuantPanel(QWidget* parent) : QWidget(parent), m_cache(std::make_shared<Cache>())
{
    setObjectName(QStringLiteral("quantPanel"));
    m_worker = new LabWorker(this);
    connect(m_worker, &LabWorker::started, this, [this] { m_progress->setVisible(true); });
    connect(m_worker, &LabWorker::finished, this, [this] {
        m_progress->setVisible(false);
        emit resultChanged();
    });

    m_valuePlot = new QuantValuePlot(this);
    m_errorPlot = new QuantErrorPlot(this);
    m_sqnrPlot = new QuantSqnrPlot(this);
    installFigureExport(m_valuePlot, QStringLiteral("quant-values"));
    installFigureExport(m_errorPlot, QStringLiteral("quant-error"));
    installFigureExport(m_sqnrPlot, QStringLiteral("quant-sqnr"));
    m_statsBox = buildStats();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    m_figures = new QGridLayout;
    m_figures->setSpacing(8);
    layout->addLayout(m_figures, 1);
    arrangeFigures(true);
    syncControlVisibility();
    m_progress->setVisible(false);
    setStatus(tr("Computed when the panel is first shown."));
}

QWidget* QuantPanel::buildControls()
{
    auto* box = new QWidget(this);
    auto* rows = new QVBoxLayout(box);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* data = new FlowLayout(nullptr, 14, 4);
    auto* method = new FlowLayout(nullptr, 14, 4);
    auto* status = new QHBoxLayout;

    m_sourceCombo = new QComboBox(box);
    for (const QuantSourceInfo& info : quantSources())
        m_sourceCombo->addItem(info.name, static_cast<int>(info.source));
    data->addWidget(fieldGroup(tr("&Data"), m_sourceCombo,
                               tr("Synthetic values at unit variance, or the weights or input activations of one layer of the "
                                  "MLP trained in FP32")));
    m_layerCombo = new QComboBox(box);
    m_layerCombo->addItems({tr("layer 0 (2 → 32)"), tr("layer 1 (32 → 32)"), tr("layer 2 (32 → 3)")});
    m_mlpOnly << fieldGroup(tr("&Layer"), m_layerCombo, tr("Which layer of the 2-32-32-3 MLP"));
    data->addWidget(m_mlpOnly.back());
    // The ranges are the links' (app/links/view_link.cpp); counts take "100,000" and 64K / 1M too.
    m_countField = new ValidatedField(QStringLiteral("quantCount"),
                                      countParser(QStringLiteral("n"), static_cast<std::int64_t>(kQuantMinValues),
                                                  static_cast<std::int64_t>(kQuantMaxValues)),
                                      box);
    m_countField->setFormatter([](std::int64_t value) { return QString::fromStdString(withThousands(value)); });
    m_countField->setValue(100000);
    m_syntheticOnly << fieldGroup(tr("&n"), m_countField,
                                  tr("Number of values (%1 to %2, or with K = 1024, M = 1024 K)")
                                      .arg(kQuantMinValues)
                                      .arg(QString::fromStdString(withThousands(kQuantMaxValues))));
    data->addWidget(m_syntheticOnly.back());
    m_seedField = new ValidatedField(QStringLiteral("quantSeed"), countParser(QStringLiteral("seed"), 0, std::numeric_limits<int>::max(), false), box);
    m_seedField->setValue(1);
    m_seedField->setStepping(1, 0, std::numeric_limits<int>::max());
    m_syntheticOnly << fieldGroup(tr("S&eed"), m_seedField, tr("Seed of the generator: the same seed gives the same values everywhere"));
    data->addWidget(m_syntheticOnly.back());
    m_rowsField = new ValidatedField(QStringLiteral("quantRows"), countParser(QStringLiteral("rows"), 1, 1000000), box);
    m_rowsField->setValue(1);
    m_rowsField->setStepping(1, 1, 1000000);
    m_syntheticOnly << fieldGroup(tr("&Rows"), m_rowsField,
                                  tr("Lay the values out as rows × (n / rows): per-channel and group-wise scales run along the rows; "
                                     "rows must divide n"));
    data->addWidget(m_syntheticOnly.back());

    m_formatCombo = new QComboBox(box);
    for (Format format : numerics::kQuantTargets)
        m_formatCombo->addItem(shortFormat(format), static_cast<int>(format));
    method->addWidget(fieldGroup(tr("&Format"), m_formatCombo, tr("The target: INT8, INT4, FP8 E4M3 (max 448) or FP8 E5M2 (max 57344)")));
    m_schemeCombo = new QComboBox(box);
    m_schemeCombo->addItem(tr("symmetric"), static_cast<int>(QuantScheme::Symmetric));
    m_schemeCombo->addItem(tr("asymmetric"), static_cast<int>(QuantScheme::Asymmetric));
    method->addWidget(fieldGroup(tr("S&cheme"), m_schemeCombo,
                                 tr("Symmetric: the narrow grid ±(2^(b-1)-1), zero point 0. Asymmetric: 2^b levels with a zero point "
                                    "(integers only)")));
    m_granularityCombo = new QComboBox(box);
    m_granularityCombo->addItem(tr("per tensor"), static_cast<int>(Granularity::Tensor));
    m_granularityCombo->addItem(tr("per channel"), static_cast<int>(Granularity::Channel));
    m_granularityCombo->addItem(tr("group of"), static_cast<int>(Granularity::Group));
    m_groupField = new ValidatedField(QStringLiteral("quantGroup"), countParser(QStringLiteral("group size"), 1, 1 << 24), box);
    m_groupField->setValue(static_cast<std::int64_t>(numerics::kDefaultGroupSize));
    m_groupField->setToolTip(tr("Group size G: values along a row that share one scale (GPTQ and AWQ use 128); 1 to 16M"));
    method->addWidget(fieldGroup(tr("&Granularity"), m_granularityCombo,
                                 tr("What shares one scale: the tensor, each row (channel), or G values along a row"), m_groupField));
    m_calibratorCombo = new QComboBox(box);
    m_calibratorCombo->addItem(tr("max"), static_cast<int>(Calibrator::Max));
    m_calibratorCombo->addItem(tr("percentile"), static_cast<int>(Calibrator::Percentile));
    m_calibratorCombo->addItem(tr("MSE-optimal"), static_cast<int>(Calibrator::Mse));
    m_calibratorCombo->addItem(tr("entropy (KL)"), static_cast<int>(Calibrator::Entropy));
    m_percentileField = new ValidatedField(QStringLiteral("quantPercentile"), {}, box);
    {
        // "99.99" or "99.99 %": the percent sign is the field's unit, not a rewrite.
        const ValidatedField::RealParser percent =
            realParser(QStringLiteral("percentile"), 0.0001, 100.0, QStringLiteral("0.0001 to 100 %, e.g. 99.99"));
        m_percentileField->setRealParser([percent](const QString& text) {
            QString number = text.trimmed();
            if (number.endsWith(QLatin1Char('%')))
                number.chop(1);
            return percent(number);
        });
    }
    m_percentileField->setRealValue(numerics::kDefaultPercentile);
    m_percentileField->lineEdit()->setPlaceholderText(tr("%"));
    m_percentileField->setToolTip(tr("Percentile P of |x| in % (0 < P ≤ 100); pytorch-quantization's default is 99.99"));
    method->addWidget(fieldGroup(tr("Cali&brator"), m_calibratorCombo,
                                 tr("How the clip is chosen: the largest |x|, a percentile of |x|, the clip of least MSE, or "
                                    "TensorRT's KL-divergence search"),
                                 m_percentileField));
    m_sliceField = new ValidatedField(QStringLiteral("quantSlice"), countParser(QStringLiteral("slice"), 1, 1, false), box);
    m_sliceField->setValue(1);
    m_sliceField->setStepping(1, 1, 1);
    method->addWidget(fieldGroup(tr("&Slice"), m_sliceField, tr("Which slice (channel or group) the value histogram and the grid show")));
    for (ValidatedField* field : {m_countField, m_seedField, m_rowsField, m_groupField, m_percentileField, m_sliceField}) {
        field->lineEdit()->setMaximumWidth(field == m_countField ? 110 : 90);
        field->setMaximumWidth(240); // the message under the field wraps within this
    }
    m_lastValid.count = 100000;
    m_lastValid.seed = 1;
    m_lastValid.rows = 1;
    m_lastValid.config.groupSize = numerics::kDefaultGroupSize;
    m_lastValid.config.percentile = numerics::kDefaultPercentile;
    m_lastValid.slice = 0;
    m_logBox = new QCheckBox(tr("Log c&ounts"), box);
    m_logBox->setToolTip(tr("Both histograms' counts on a log scale: the few clipped values and outliers become visible"));
    method->addWidget(m_logBox);
    connect(m_logBox, &QCheckBox::toggled, this, [this](bool log) {
        m_valuePlot->setLogCounts(log);
        m_errorPlot->setLogCounts(log);
        m_valuePlot->setResult(m_result.get());
        m_errorPlot->setResult(m_result.get());
    });

    m_progress = new QProgressBar(box);
    m_worker->driveProgressBar(m_progress);
    m_progress->setMaximumWidth(200);
    m_status = new QLabel(box);
    m_status->setObjectName(QStringLiteral("quantStatus"));
    m_status->setWordWrap(true);
    status->addWidget(m_progress);
    status->addWidget(m_status, 1);

    rows->addLayout(data);
    rows->addLayout(method);
    rows->addLayout(status);

    auto changed = [this] { fieldsChanged(); }; // fields and choices alike: recompute unless a field is marked
    for (QComboBox* combo : {m_sourceCombo, m_layerCombo, m_formatCombo, m_schemeCombo, m_granularityCombo, m_calibratorCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, changed);
    for (ValidatedField* field : {m_countField, m_seedField, m_rowsField, m_groupField, m_percentileField, m_sliceField}) {
        // Marks and the status line follow each keystroke; a value is computed when it is applied.
        connect(field, &ValidatedField::textChecked, this, [this] { checkFields(); });
        connect(field, &ValidatedField::valueEdited, this, changed);
        connect(field, &ValidatedField::realValueEdited, this, changed);
    }
    return box;
}

QWidget* QuantPanel::buildStats()
{
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    // The header line and the statistics: one block with its own CSV export (they are labels, not a table).
    auto* block = new QWidget(box);
    block->setObjectName(QStringLiteral("quantStatsBlock"));
    auto* blockLayout = new QVBoxLayout(block);
    blockLayout->setContentsMargins(0, 0, 0, 0);
    m_dataLabel = new QLabel(block);
    m_dataLabel->setWordWrap(true);
    m_dataLabel->setObjectName(QStringLiteral("quantData"));
    blockLayout->addWidget(m_dataLabel);
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(14);
    grid->setVerticalSpacing(2);
    const struct {
        const char* key;
        QString label;
        QString tip;
    } stats[] = {
        {"sqnr", tr("SQNR"), tr("10 log10(mean x² / mean (x' − x)²), over every value")},
        {"mse", tr("MSE"), tr("Mean (x' − x)² over every value")},
        {"max_error", tr("max |error|"), tr("The largest |x' − x|")},
        {"clipped", tr("clipped"), tr("Values outside their slice's clip range")},
        {"clip", tr("clip"), tr("The shown slice's grid ends")},
        {"scale", tr("scale"), tr("The shown slice's step (integers) or divisor into the format (FP8)")},
        {"zero_point", tr("zero point"), tr("The shown slice's zero point (asymmetric integers; 0 otherwise)")},
        {"slices", tr("slices"), tr("How many scales the tensor has (tensor: 1; channel: rows; group: rows × groups per row)")},
    };
    int index = 0;
    for (const auto& stat : stats) {
        auto* caption = new QLabel(stat.label + QLatin1Char(':'), block);
        caption->setToolTip(stat.tip);
        auto* value = new QLabel(block);
        value->setObjectName(QStringLiteral("quantStat_") + QLatin1String(stat.key));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setContextMenuPolicy(Qt::NoContextMenu); // a right click reaches the block's CSV actions
        value->setToolTip(stat.tip);
        const int row = index % 4, column = (index / 4) * 2;
        grid->addWidget(caption, row, column);
        grid->addWidget(value, row, column + 1);
        m_stats[QLatin1String(stat.key)] = value;
        ++index;
    }
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    blockLayout->addLayout(grid);
    layout->addWidget(block);
    std::tie(m_saveStatsAction, m_copyStatsAction) = installCsvExport(
        block,
        {tr("Save Statistics as CSV\u2026"), tr("Copy Statistics as CSV"), QStringLiteral("exportStatsCsv"),
         QStringLiteral("copyStatsCsv"), QStringLiteral("quant-statistics")},
        [this] { return m_result ? quantStatsCsv(*m_result) : QString(); });
    m_saveStatsAction->setEnabled(false); // until the first result
    m_copyStatsAction->setEnabled(false);
    m_accuracyNote = new QLabel(box);
    m_accuracyNote->setWordWrap(true);
    layout->addWidget(m_accuracyNote);
    m_accuracyTable = new QTableWidget(0, 3, box);
    m_accuracyTable->setObjectName(QStringLiteral("quantAccuracyTable"));
    installTableExport(m_accuracyTable, QStringLiteral("quant-accuracy"));
    m_accuracyTable->setHorizontalHeaderLabels({tr("Method"), tr("Weights"), tr("Weights + activations")});
    m_accuracyTable->verticalHeader()->hide();
    m_accuracyTable->verticalHeader()->setDefaultSectionSize(m_accuracyTable->fontMetrics().height() + 6);
    m_accuracyTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_accuracyTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_accuracyTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_accuracyTable->setMinimumHeight(140);
    layout->addWidget(m_accuracyTable, 1);
    return box;
}

void QuantPanel::arrangeFigures(bool wide)
{
    m_wide = wide;
    for (QWidget* figure : {static_cast<QWidget*>(m_valuePlot), static_cast<QWidget*>(m_errorPlot),
                            static_cast<QWidget*>(m_sqnrPlot), m_statsBox})
        m_figures->removeWidget(figure);
    if (wide) {
        m_figures->addWidget(m_valuePlot, 0, 0);
        m_figures->addWidget(m_errorPlot, 0, 1);
        m_figures->addWidget(m_sqnrPlot, 1, 0);
        m_figures->addWidget(m_statsBox, 1, 1);
        m_figures->setColumnStretch(1, 1);
        for (int r = 0; r < 4; ++r)
            m_figures->setRowStretch(r, r < 2 ? 1 : 0);
    } else {
        m_figures->addWidget(m_valuePlot, 0, 0);
        m_figures->addWidget(m_errorPlot, 1, 0);
        m_figures->addWidget(m_sqnrPlot, 2, 0);
        m_figures->addWidget(m_statsBox, 3, 0);
        m_figures->setColumnStretch(1, 0);
        for (int r = 0; r < 4; ++r)
            m_figures->setRowStretch(r, 1);
    }
    m_figures->setColumnStretch(0, 1);
}

void QuantPanel::syncControlVisibility()
{
    const auto source = static_cast<QuantSource>(m_sourceCombo->currentData().toInt());
    for (QWidget* widget : m_syntheticOnly)
        widget->setVisible(isSynthetic(source));
    for (QWidget* widget : m_mlpOnly)
        widget->setVisible(!isSynthetic(source));
    m_groupField->setVisible(m_granularityCombo->currentData().toInt() == static_cast<int>(Granularity::Group));
    m_percentileField->setVisible(m_calibratorCombo->currentData().toInt() == static_cast<int>(Calibrator::Percentile));
}

void QuantPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const bool wide = event->size().width() >= kWideWidth;
    if (wide != m_wide)
        arrangeFigures(wide);
}

void QuantPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    if (!m_result && !m_worker->busy())
        recompute();
}

void QuantPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The figures restyle themselves (a parent hears of a palette change before its children do).
    if (event->type() == QEvent::PaletteChange && m_valuePlot != nullptr)
        QMetaObject::invokeMethod(this, [this] { showResult(m_result); }, Qt::QueuedConnection);
}

void QuantPanel::setRequest(const QuantLabRequest& request)
{
    {
        m_syncing = true;
        m_sourceCombo->setCurrentIndex(m_sourceCombo->findData(static_cast<int>(request.source)));
        m_layerCombo->setCurrentIndex(request.layer);
        m_countField->setValue(static_cast<std::int64_t>(request.count));
        m_seedField->setValue(static_cast<std::int64_t>(request.seed));
        m_rowsField->setValue(static_cast<std::int64_t>(request.rows));
        m_formatCombo->setCurrentIndex(m_formatCombo->findData(static_cast<int>(request.config.format)));
        m_schemeCombo->setCurrentIndex(m_schemeCombo->findData(static_cast<int>(request.config.scheme)));
        m_granularityCombo->setCurrentIndex(m_granularityCombo->findData(static_cast<int>(request.config.granularity)));
        m_groupField->setValue(static_cast<std::int64_t>(request.config.groupSize));
        m_calibratorCombo->setCurrentIndex(m_calibratorCombo->findData(static_cast<int>(request.config.calibrator)));
        m_percentileField->setRealValue(request.config.percentile);
        // The slice is checked against the result's slices once it is computed (showResult).
        m_sliceField->setParser(countParser(QStringLiteral("slice"), 1, static_cast<std::int64_t>(request.slice) + 1, false));
        m_sliceField->setValue(static_cast<std::int64_t>(request.slice) + 1);
        m_syncing = false;
    }
    fieldsChanged(true);
}

QuantLabRequest QuantPanel::request() const
{
    QuantLabRequest request;
    request.source = static_cast<QuantSource>(m_sourceCombo->currentData().toInt());
    request.layer = m_layerCombo->currentIndex();
    request.count = static_cast<std::size_t>(m_countField->value().value_or(static_cast<std::int64_t>(m_lastValid.count)));
    request.seed = static_cast<std::uint64_t>(m_seedField->value().value_or(static_cast<std::int64_t>(m_lastValid.seed)));
    request.rows = static_cast<std::size_t>(m_rowsField->value().value_or(static_cast<std::int64_t>(m_lastValid.rows)));
    request.config.format = static_cast<Format>(m_formatCombo->currentData().toInt());
    request.config.scheme = static_cast<QuantScheme>(m_schemeCombo->currentData().toInt());
    request.config.granularity = static_cast<Granularity>(m_granularityCombo->currentData().toInt());
    request.config.groupSize =
        static_cast<std::size_t>(m_groupField->value().value_or(static_cast<std::int64_t>(m_lastValid.config.groupSize)));
    request.config.calibrator = static_cast<Calibrator>(m_calibratorCombo->currentData().toInt());
    request.config.percentile = m_percentileField->realValue().value_or(m_lastValid.config.percentile);
    request.slice = static_cast<std::size_t>(m_sliceField->value().value_or(static_cast<std::int64_t>(m_lastValid.slice) + 1) - 1);
    return request;
}

QString QuantPanel::fieldErrors() const
{
    QStringList errors;
    for (const ValidatedField* field : {m_countField, m_seedField, m_rowsField, m_groupField, m_percentileField, m_sliceField})
        if (!field->valid() || !field->errorText().isEmpty())
            errors << field->errorText();
    return errors.join(QLatin1Char('\n'));
}

QString QuantPanel::checkFields()
{
    // A rule across fields, as the links check it: the values are laid out as rows x (n / rows).
    if (m_countField->valid() && m_rowsField->valid() && isSynthetic(static_cast<QuantSource>(m_sourceCombo->currentData().toInt())) &&
        *m_countField->value() % *m_rowsField->value() != 0)
        m_rowsField->setExternalError(tr("rows: %1 does not divide n %2 (allowed: a divisor of n; the values are laid out as "
                                         "rows x (n / rows))")
                                          .arg(*m_rowsField->value())
                                          .arg(QString::fromStdString(withThousands(*m_countField->value()))));
    else
        m_rowsField->setExternalError({});
    const QString errors = fieldErrors();
    if (!errors.isEmpty()) {
        // Every marked field at once; the figures stay on the inputs they were computed from.
        const QuantLabRequest& shown = m_result ? m_result->request : m_lastValid;
        setStatus(tr("Not recomputed while a field is marked (%1). The figures show n = %2, seed %3, rows %4.")
                      .arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; ")),
                           QString::fromStdString(withThousands(static_cast<std::int64_t>(shown.count))))
                      .arg(shown.seed)
                      .arg(shown.rows),
                  true);
    } else if (m_fieldErrorShown) {
        setStatus(QString()); // no longer true; the next computation says what it does
    }
    m_fieldErrorShown = !errors.isEmpty();
    return errors;
}

void QuantPanel::fieldsChanged(bool force)
{
    syncControlVisibility();
    if (!checkFields().isEmpty())
        return;
    m_lastValid = request();
    if (!m_syncing && (force || m_shownOnce || m_result))
        recompute();
}

bool QuantPanel::busy() const { return m_worker->busy(); }

QString QuantPanel::statusText() const { return m_status->text(); }

QString QuantPanel::statText(const QString& name) const
{
    const auto it = m_stats.find(name);
    return it == m_stats.end() ? QString() : it->second->text();
}

void QuantPanel::setStatus(const QString& message, bool error)
{
    m_status->setText(message);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void QuantPanel::recompute()
{
    const QuantLabRequest request = this->request();
    try {
        numerics::validateQuantConfig(request.config);
    } catch (const InputError& error) {
        setStatus(QString::fromUtf8(error.what()), true);
        return;
    }
    setStatus(tr("Quantizing…"));
    std::shared_ptr<Cache> cache = m_cache;
    m_worker->submit([this, cache, request](const LabWorker::Progress& progress, const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        try {
            std::shared_ptr<const numerics::AmpResult> model;
            std::shared_ptr<const QuantData> data;
            std::shared_ptr<const std::vector<numerics::SqnrTableCell>> sqnr;
            std::shared_ptr<const QuantPtqTable> ptq;
            const std::string keyData = dataKey(request);
            const std::string keySqnr = keyData + "|" + methodKey(request.config);
            const std::string keyPtq = methodKey(request.config);
            {
                const std::lock_guard lock(cache->mutex);
                model = cache->model;
                if (cache->dataKey == keyData)
                    data = cache->data;
                if (cache->sqnrKey == keySqnr)
                    sqnr = cache->sqnr;
                if (cache->ptqKey == keyPtq)
                    ptq = cache->ptq;
            }
            const numerics::AmpConfig modelConfig = quantModelConfig();
            const int cells = static_cast<int>(std::size(numerics::kQuantTargets) * std::size(numerics::kCalibrators));
            const int total = (model ? 0 : modelConfig.steps) + 1 + (sqnr ? 0 : cells) + (ptq ? 0 : cells);
            int done = 0;
            if (!model) {
                numerics::AmpResult trained =
                    numerics::runAmpTraining(modelConfig, [&](int step, int) { progress(step, total); }, &cancel);
                if (trained.cancelled)
                    return {};
                model = std::make_shared<const numerics::AmpResult>(std::move(trained));
                done += modelConfig.steps;
                const std::lock_guard lock(cache->mutex);
                cache->model = model;
            }
            if (!data) {
                data = std::make_shared<const QuantData>(quantData(request, model.get()));
                const std::lock_guard lock(cache->mutex);
                cache->dataKey = keyData;
                cache->data = data;
            }
            auto result = std::make_shared<QuantLabResult>();
            result->request = request;
            result->data = data;
            result->result = numerics::quantize(data->values, request.config, data->shape);
            result->request.slice = std::min(request.slice, result->result.slices.size() - 1);
            result->plot = numerics::quantPlotData(data->values, result->result, kHistogramBins, result->request.slice);
            progress(++done, total);
            if (!sqnr) {
                auto table = std::make_shared<std::vector<numerics::SqnrTableCell>>();
                for (Format format : numerics::kQuantTargets)
                    for (Calibrator calibrator : numerics::kCalibrators) {
                        if (cancel)
                            return {};
                        const auto cell = numerics::sqnrTable(data->values, request.config, data->shape, std::span(&format, 1),
                                                              std::span(&calibrator, 1));
                        table->push_back(cell.front());
                        progress(++done, total);
                    }
                sqnr = table;
                const std::lock_guard lock(cache->mutex);
                cache->sqnrKey = keySqnr;
                cache->sqnr = sqnr;
            }
            if (!ptq) {
                auto table = std::make_shared<QuantPtqTable>();
                const numerics::SpiralDataset spirals = numerics::makeSpirals(model->config.data);
                table->fp32Accuracy = numerics::mlpAccuracy(model->weights, spirals.test);
                for (Format format : numerics::kQuantTargets)
                    for (Calibrator calibrator : numerics::kCalibrators) {
                        if (cancel)
                            return {};
                        QuantConfig config = request.config;
                        config.format = format;
                        config.calibrator = calibrator;
                        if (numerics::formatInfo(format).isFloat)
                            config.scheme = QuantScheme::Symmetric;
                        table->rows.push_back(quantPtqRow(model->weights, spirals.test, config));
                        progress(++done, total);
                    }
                ptq = table;
                const std::lock_guard lock(cache->mutex);
                cache->ptqKey = keyPtq;
                cache->ptq = ptq;
            }
            result->sqnr = sqnr;
            result->ptq = ptq;
            std::shared_ptr<const QuantLabResult> finished = std::move(result);
            return [this, finished] { showResult(finished); };
        } catch (const std::exception& error) {
            const QString message = QString::fromUtf8(error.what());
            return [this, message] { setStatus(message, true); };
        }
    });
}

void QuantPanel::showResult(std::shared_ptr<const QuantLabResult> result)
{
    m_result = std::move(result);
    const QuantLabResult* r = m_result.get();
    m_valuePlot->setResult(r);
    m_errorPlot->setResult(r);
    m_sqnrPlot->setResult(r);
    fillAccuracyTable();
    m_saveStatsAction->setEnabled(r != nullptr);
    m_copyStatsAction->setEnabled(r != nullptr);
    if (r == nullptr) {
        for (auto& [key, label] : m_stats)
            label->clear();
        return;
    }
    {
        m_syncing = true;
        const auto slices = static_cast<std::int64_t>(r->result.slices.size());
        const QSignalBlocker blocker(m_sliceField); // the new range and value together, not a mark in between
        m_sliceField->setParser(countParser(QStringLiteral("slice"), 1, slices, false));
        m_sliceField->setStepping(1, 1, slices);
        m_sliceField->setValue(static_cast<std::int64_t>(r->request.slice) + 1);
        m_sliceField->setEnabled(slices > 1);
        m_lastValid.slice = r->request.slice;
        m_syncing = false;
    }
    const numerics::QuantStats& stats = r->result.stats;
    const numerics::QuantParams& params = r->result.slices[r->request.slice].params;
    m_stats[QStringLiteral("sqnr")]->setText(std::isfinite(stats.sqnrDb) ? number(stats.sqnrDb) + tr(" dB")
                                                                          : tr("n/a (no error or no signal)"));
    m_stats[QStringLiteral("mse")]->setText(number(stats.mse));
    m_stats[QStringLiteral("max_error")]->setText(number(stats.maxAbsError));
    m_stats[QStringLiteral("clipped")]->setText(
        tr("%1 of %2").arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(stats.clipped))),
                           QString::fromStdString(withThousands(static_cast<std::int64_t>(stats.count)))));
    m_stats[QStringLiteral("clip")]->setText(QStringLiteral("[%1, %2]").arg(number(params.clipLow), number(params.clipHigh)));
    m_stats[QStringLiteral("scale")]->setText(number(params.scale));
    m_stats[QStringLiteral("zero_point")]->setText(QString::number(params.zeroPoint));
    m_stats[QStringLiteral("slices")]->setText(QString::number(r->result.slices.size()));
    m_dataLabel->setText(tr("<b>%1</b> of %2").arg(text(numerics::describeQuantConfig(r->request.config).c_str()), r->data->description));
    setStatus(QString());
}

void QuantPanel::fillAccuracyTable()
{
    m_accuracyTable->setRowCount(0);
    const QuantLabResult* r = m_result.get();
    if (r == nullptr || !r->ptq) {
        m_accuracyNote->clear();
        return;
    }
    const QuantPtqTable& ptq = *r->ptq;
    const QuantConfig& chosen = r->request.config;
    m_accuracyNote->setText(tr("<b>MLP held-out accuracy after post-training quantization</b>, %1 %2 (FP8: symmetric); "
                               "activations calibrated on the batch itself (dynamic).")
                                .arg(text(numerics::schemeKey(chosen.scheme)), QString::fromStdString(numerics::granularityText(chosen))));
    m_accuracyTable->setRowCount(static_cast<int>(ptq.rows.size()) + 1);
    m_accuracyTable->setItem(0, 0, cellItem(tr("FP32 (not quantized)"), Qt::AlignLeft | Qt::AlignVCenter));
    m_accuracyTable->setItem(0, 1, cellItem(percent(ptq.fp32Accuracy)));
    m_accuracyTable->setItem(0, 2, cellItem(percent(ptq.fp32Accuracy)));
    QFont bold = m_accuracyTable->font();
    bold.setBold(true);
    int chosenRow = -1;
    for (int i = 0; i < static_cast<int>(ptq.rows.size()); ++i) {
        const QuantPtqRow& row = ptq.rows[static_cast<std::size_t>(i)];
        const bool isChosen = row.config.format == chosen.format && row.config.calibrator == chosen.calibrator;
        QTableWidgetItem* items[] = {cellItem(methodText(row.config), Qt::AlignLeft | Qt::AlignVCenter), cellItem(percent(row.weightsAccuracy)),
                                     cellItem(percent(row.fullAccuracy))};
        for (int c = 0; c < 3; ++c) {
            if (isChosen)
                items[c]->setFont(bold);
            m_accuracyTable->setItem(i + 1, c, items[c]);
        }
        if (isChosen)
            chosenRow = i + 1;
    }
    if (chosenRow >= 0)
        m_accuracyTable->scrollToItem(m_accuracyTable->item(chosenRow, 0));
}

} // namespace warpscope::viz
