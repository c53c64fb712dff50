#include "models/memory_budget_panel.h"

#include "common/export_actions.h"
#include "common/scroll_page.h"
#include "common/text_label.h"
#include "common/plot_style.h"
#include "common/validated_field.h"

#include "perf/serving.h"
#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::viz {
namespace {

using training::Optimizer;
using training::Precision;

constexpr double kMaxParameters = 1e13;
constexpr int kMaxBarsInFull = 8; // more GPUs than this: GPU 0, 1, 2, a gap, and the last

QString toQString(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

// The width a control would take to show all of its text: a combo's longest choice, a field's
// own size hint. Used as the field columns' stretch, never as a minimum.
int wantedFieldWidth(const QWidget* widget)
{
    const auto* combo = qobject_cast<const QComboBox*>(widget);
    if (combo == nullptr)
        return std::max(1, widget->sizeHint().width());
    int text = 0;
    for (int i = 0; i < combo->count(); ++i)
        text = std::max(text, combo->fontMetrics().horizontalAdvance(combo->itemText(i)));
    return text + 4 * combo->fontMetrics().averageCharWidth() + 24; // frame, padding and arrow
}

// Gigabytes (10^9 bytes): "2,160", "151.4", "31.4", "1.88", "0.234".
QString gigabytes(double bytes)
{
    const double gb = bytes / 1e9;
    if (gb == 0)
        return QStringLiteral("0");
    if (gb >= 1000)
        return QLocale(QLocale::English).toString(gb, 'f', 0);
    if (gb >= 10)
        return QString::number(gb, 'f', 1);
    if (gb >= 1)
        return QString::number(gb, 'f', 2);
    return QString::number(gb, 'g', 3);
}

QString bytesPerParameterText(double bytes)
{
    return QString::number(bytes, 'g', 4);
}

// A parameter count as links write it: "7e9", "7.5e9", "1.3e11", "350" below 10^4.
QString parametersText(double parameters)
{
    if (parameters < 1e4)
        return QString::number(parameters, 'g', 15);
    const int exponent = static_cast<int>(std::floor(std::log10(parameters)));
    const double mantissa = parameters / std::pow(10.0, exponent);
    const QString m = QString::number(mantissa, 'g', 12);
    if (m.size() <= 6 && m.toDouble() * std::pow(10.0, exponent) == parameters)
        return m + QStringLiteral("e") + QString::number(exponent);
    return QString::number(parameters, 'g', 15);
}

void checkRange(const char* key, std::int64_t value, std::int64_t low, std::int64_t high)
{
    if (value < low || value > high)
        throw InputError(std::string(key) + ": " + std::to_string(value) + " is out of range (allowed: " + std::to_string(low) +
                         ".." + std::to_string(high) + ")");
}

constexpr const char* kParametersAllowed = "a number of parameters above 0 and at most 1e13, such as 7e9";

void checkParameters(double parameters, const std::string& text)
{
    if (!std::isfinite(parameters) || !(parameters > 0) || parameters > kMaxParameters)
        throw InputError(outOfRangeMessage("params", text, kParametersAllowed));
}

double parseParameters(const QString& text)
{
    // Above 0: the smallest positive double is the range's lower end.
    return parseRealInRange(text, QStringLiteral("params"), std::numeric_limits<double>::denorm_min(), kMaxParameters,
                            QString::fromLatin1(kParametersAllowed));
}

std::int64_t parseIntegerField(const QString& text, const char* key, std::int64_t low, std::int64_t high)
{
    return parseInteger(text.toStdString(), key, low, high);
}

struct Component {
    const char* name;
    QColor color;
};

// Tableau 10: distinct in print and for the common colour-vision deficiencies.
const std::array<Component, 6> kComponents = {{{"Weights", QColor(0x4e, 0x79, 0xa7)},
                                               {"Gradients", QColor(0xf2, 0x8e, 0x2b)},
                                               {"Master weights (FP32)", QColor(0x76, 0xb7, 0xb2)},
                                               {"Optimizer states", QColor(0xe1, 0x57, 0x59)},
                                               {"Activations", QColor(0x59, 0xa1, 0x4f)},
                                               {"KV cache", QColor(0xed, 0xc9, 0x48)}}};

// The datasheet capacities grouped by size: one line for A100 80GB and H100 SXM together.
std::vector<std::pair<double, QString>> capacityLines()
{
    std::map<double, QStringList> byBytes;
    for (const training::GpuMemoryCapacity& gpu : training::gpuMemoryCapacities())
        byBytes[gpu.bytes].append(toQString(gpu.name));
    std::vector<std::pair<double, QString>> lines;
    for (const auto& [bytes, names] : byBytes)
        lines.emplace_back(bytes, names.join(QStringLiteral(", ")));
    return lines;
}

QString zeroItemText(int stage)
{
    switch (stage) {
    case 0: return QObject::tr("0: none (each GPU keeps everything)");
    case 1: return QObject::tr("1: P_os (optimizer states split)");
    case 2: return QObject::tr("2: P_os+g (+ gradients split)");
    default: return QObject::tr("3: P_os+g+p (+ weights split)");
    }
}

} // namespace

MemoryBudgetPanel::MemoryBudgetPanel(QWidget* parent) : QWidget(parent)
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(buildControls());

    m_staleLabel = selectableTextLabel(LabelWeight::Bold, QStringLiteral("memoryBudgetStale"));
    m_staleLabel->hide();
    m_summaryLabel = selectableTextLabel(LabelWeight::Bold, QStringLiteral("memoryBudgetSummary"));
    m_fitLabel = selectableTextLabel(LabelWeight::Normal, QStringLiteral("memoryBudgetFit"));
    layout->addWidget(m_staleLabel);
    layout->addWidget(m_summaryLabel);
    layout->addWidget(m_fitLabel);

    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("memoryBudgetPlot"));
    installFigureExport(m_plot, QStringLiteral("memory-budget"));
    m_plot->setMinimumSize(360, 300);
    m_plot->yAxis->setLabel(tr("GB per GPU (10⁹ bytes)"));
    m_plot->xAxis->setLabel(tr("Data-parallel GPU (each holds as much)"));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));

    m_table = new QTableWidget(7, 4);
    m_table->setObjectName(QStringLiteral("memoryBudgetTable"));
    installTableExport(m_table, QStringLiteral("memory-budget"));
    m_table->setHorizontalHeaderLabels({tr("Bytes/param\nmodel"), tr("Split"), tr("Bytes/param\neach GPU"), tr("GB\neach GPU")});
    m_table->setVerticalHeaderLabels({tr("Weights"), tr("Gradients"), tr("Master (FP32)"), tr("Optimizer"), tr("Model states"),
                                      tr("Activations"), tr("KV cache")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_figureRow = new QBoxLayout(QBoxLayout::LeftToRight);
    m_figureRow->addWidget(m_plot, 3);
    auto* tableColumn = new QVBoxLayout;
    tableColumn->addWidget(m_table);
    tableColumn->addStretch(1);
    m_figureRow->addLayout(tableColumn);
    layout->addLayout(m_figureRow, 1);

    m_captionLabel = selectableTextLabel(LabelWeight::Normal, QStringLiteral("memoryBudgetCaption"));
    m_captionLabel->setText(
        tr("GB = 10⁹ bytes. Model states per parameter: Rajbhandari et al., \"ZeRO\", SC 2020, section 3.1; ZeRO stage 1 "
           "splits the optimizer states (the FP32 master weights among them) over the data-parallel GPUs, stage 2 also "
           "the gradients, stage 3 also the 16-bit weights (section 5). Activations: Korthikanti et al., MLSys 2023, "
           "equation 1 (16-bit, no tensor or sequence parallelism), counted for mixed precision only; never split by ZeRO. "
           "Capacities: NVIDIA's A100 datasheet (40GB HBM2, 80GB HBM2e), H100 datasheet (H100 SXM 80GB), H200 datasheet "
           "(141GB HBM3e) and Blackwell datasheet (HGX B200, 180GB HBM3e). Their GB are 2³⁰ bytes (the H200 recorded in "
           "assets/recorded/h200 reports 150.1 × 10⁹ bytes), so the lines stand at 42.9, 85.9, 151.4 and 193.3 GB. "
           "KV cache: 2 × layers × KV heads × head size × tokens × sequences × 2 bytes. Not counted: the CUDA context, "
           "framework workspaces, "
           "temporary buffers and fragmentation."));
    QFont captionFont = font();
    captionFont.setPointSizeF(kPlotFontPoints);
    m_captionLabel->setFont(captionFont);
    layout->addWidget(m_captionLabel);

    fillWithScrollArea(*this, content);

    syncControls();
    redraw();
}

QWidget* MemoryBudgetPanel::buildControls()
{
    const auto integer = [](const char* key, std::int64_t low, std::int64_t high) {
        return [key, low, high](const QString& text) { return parseIntegerField(text, key, low, high); };
    };
    // The field's value is only a token of validity: the settings read the decimal itself (parseParameters).
    m_parametersField = new ValidatedField(QStringLiteral("memoryBudgetParams"), [](const QString& text) {
        return static_cast<std::int64_t>(std::llround(parseParameters(text)));
    });
    m_gpusField = new ValidatedField(QStringLiteral("memoryBudgetGpus"), integer("gpus", 1, 4096));
    m_layersField = new ValidatedField(QStringLiteral("memoryBudgetLayers"), integer("layers", 0, 1000));
    m_hiddenField = new ValidatedField(QStringLiteral("memoryBudgetHidden"), integer("hidden", 1, 1000000));
    m_headsField = new ValidatedField(QStringLiteral("memoryBudgetHeads"), integer("heads", 1, 1024));
    m_kvHeadsField = new ValidatedField(QStringLiteral("memoryBudgetKvHeads"), integer("kv_heads", 0, 1024));
    m_sequenceField = new ValidatedField(QStringLiteral("memoryBudgetSeq"), integer("seq", 1, 10000000));
    m_batchField = new ValidatedField(QStringLiteral("memoryBudgetBatch"), integer("batch", 1, 65536));
    m_gpusField->setStepping(1, 1, 4096);
    m_layersField->setStepping(1, 0, 1000);
    m_headsField->setStepping(1, 1, 1024);
    m_kvHeadsField->setStepping(1, 0, 1024);
    m_batchField->setStepping(1, 1, 65536);
    m_parametersField->lineEdit()->setPlaceholderText(tr("such as 7e9"));
    m_parametersField->setToolTip(tr("Parameters of the model, a decimal such as 7e9 or 1.3e11. Allowed: above 0, at most 1e13."));
    m_gpusField->setToolTip(tr("Data-parallel GPUs (N_d) that ZeRO splits the model states over. Allowed: 1..4096."));
    m_layersField->setToolTip(tr("Transformer layers; 0 counts no activations (training) and no KV cache (inference). Allowed: 0..1000."));
    m_hiddenField->setToolTip(tr("Hidden size h. Allowed: 1..1000000."));
    m_headsField->setToolTip(tr("Attention heads a; they must divide the hidden size. Allowed: 1..1024."));
    m_kvHeadsField->setToolTip(tr("Serving: the key-value heads the KV cache keeps. Grouped-query attention shares one between "
                                  "several query heads (Llama 2 70B: 8 for 64), multi-query attention has 1; 0 keeps one per "
                                  "attention head. Allowed: 0, or a divisor of the heads."));
    m_sequenceField->setToolTip(tr("Sequence length s in tokens. Allowed: 1..10000000."));
    m_batchField->setToolTip(tr("Micro-batch b: the sequences one GPU holds activations for (training) or a KV cache for (inference). Allowed: 1..65536."));

    m_precisionCombo = new QComboBox;
    m_precisionCombo->setObjectName(QStringLiteral("memoryBudgetPrecision"));
    m_precisionCombo->addItem(tr("Mixed (16-bit, FP32 master)"), static_cast<int>(Precision::Mixed16));
    m_precisionCombo->addItem(tr("FP32"), static_cast<int>(Precision::Fp32));
    m_precisionCombo->addItem(tr("Inference, 16-bit"), static_cast<int>(Precision::Inference16));
    m_precisionCombo->addItem(tr("Inference, INT8"), static_cast<int>(Precision::InferenceInt8));
    m_optimizerCombo = new QComboBox;
    m_optimizerCombo->setObjectName(QStringLiteral("memoryBudgetOptimizer"));
    m_optimizerCombo->addItem(tr("Adam"), static_cast<int>(Optimizer::Adam));
    m_optimizerCombo->addItem(tr("SGD with momentum"), static_cast<int>(Optimizer::SgdMomentum));
    m_optimizerCombo->addItem(tr("SGD"), static_cast<int>(Optimizer::Sgd));
    m_optimizerCombo->setToolTip(tr("Adam keeps two FP32 moments per parameter, SGD with momentum one, plain SGD none. "
                                    "Inference keeps no optimizer."));
    m_zeroCombo = new QComboBox;
    m_zeroCombo->setObjectName(QStringLiteral("memoryBudgetZero"));
    for (int stage = 0; stage <= 3; ++stage)
        m_zeroCombo->addItem(zeroItemText(stage), stage);
    m_zeroCombo->setToolTip(tr("ZeRO stage (Rajbhandari et al., SC 2020): which model states are split over the "
                               "data-parallel GPUs instead of copied to each."));
    m_recomputeBox = new QCheckBox(tr("Recompute activations"));
    m_recomputeBox->setObjectName(QStringLiteral("memoryBudgetRecompute"));
    m_recomputeBox->setToolTip(tr("Full activation recomputation: each layer keeps only its input (2 s b h bytes) and "
                                  "recomputes the rest in the backward pass."));

    for (ValidatedField* field : {m_parametersField, m_gpusField, m_layersField, m_hiddenField, m_headsField,
                                  m_kvHeadsField, m_sequenceField, m_batchField}) {
        // Marks (heads that do not divide hidden too) and the row follow each keystroke; the figure
        // changes when a value is applied.
        connect(field, &ValidatedField::textChecked, this, [this] {
            if (!m_syncing)
                setStale(!readControls());
        });
        connect(field, &ValidatedField::valueEdited, this, &MemoryBudgetPanel::controlsEdited);
    }
    for (QComboBox* combo : {m_precisionCombo, m_optimizerCombo, m_zeroCombo}) {
        // A narrow dock may show a long choice shortened rather than push the panel sideways.
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(10);
        connect(combo, &QComboBox::currentIndexChanged, this, &MemoryBudgetPanel::controlsEdited);
    }
    connect(m_recomputeBox, &QCheckBox::toggled, this, &MemoryBudgetPanel::controlsEdited);

    auto* controls = new QWidget;
    m_controlsGrid = new QGridLayout(controls);
    m_controlsGrid->setContentsMargins(0, 0, 0, 0);
    m_controlsGrid->setHorizontalSpacing(8);
    m_controlsGrid->setVerticalSpacing(4);
    const auto add = [this](const QString& label, QWidget* widget) {
        auto* name = new QLabel(label);
        name->setBuddy(widget);
        m_controlCells.push_back({name, widget});
    };
    add(tr("Parameters"), m_parametersField);
    add(tr("Precision"), m_precisionCombo);
    add(tr("Optimizer"), m_optimizerCombo);
    add(tr("Data-parallel GPUs"), m_gpusField);
    add(tr("ZeRO stage"), m_zeroCombo);
    m_controlCells.push_back({nullptr, m_recomputeBox});
    add(tr("Layers"), m_layersField);
    add(tr("Hidden size"), m_hiddenField);
    add(tr("Heads"), m_headsField);
    add(tr("Sequence"), m_sequenceField);
    add(tr("Micro-batch"), m_batchField);
    add(tr("KV heads"), m_kvHeadsField);
    layOutForWidth(1200);
    return controls;
}

void MemoryBudgetPanel::layOutForWidth(int width)
{
    // Three label-and-field pairs a row where they fit, two in a dock beside a 1280-pixel window's
    // canvas, one in a narrower one; the table goes under the plot when both would be squeezed.
    const int columns = width >= 820 ? 3 : width >= 480 ? 2 : 1;
    if (m_figureRow != nullptr)
        m_figureRow->setDirection(width >= 820 ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    if (m_plot != nullptr && m_plot->legend->wrap() != (columns == 3 ? 3 : 2)) {
        m_plot->legend->setWrap(columns == 3 ? 3 : 2);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    if (columns == m_controlColumns || m_controlsGrid == nullptr)
        return;
    m_controlColumns = columns;
    for (const ControlCell& cell : m_controlCells) {
        if (cell.label != nullptr)
            m_controlsGrid->removeWidget(cell.label);
        m_controlsGrid->removeWidget(cell.widget);
    }
    // Each field column grows in proportion to the widest text it holds, so a combo with long
    // choices gets the room that a short number field does not need.
    std::array<int, 3> wanted{};
    for (std::size_t i = 0; i < m_controlCells.size(); ++i) {
        if (m_controlCells[i].label == nullptr)
            continue;
        int& column = wanted[i % static_cast<std::size_t>(columns)];
        column = std::max(column, wantedFieldWidth(m_controlCells[i].widget));
    }
    for (int column = 0; column < 6; ++column)
        m_controlsGrid->setColumnStretch(column, column % 2 == 1 && column < 2 * columns ? wanted[column / 2] : 0);
    for (std::size_t i = 0; i < m_controlCells.size(); ++i) {
        const int row = static_cast<int>(i) / columns, column = static_cast<int>(i) % columns;
        const ControlCell& cell = m_controlCells[i];
        if (cell.label == nullptr) {
            m_controlsGrid->addWidget(cell.widget, row, 2 * column, 1, 2, Qt::AlignTop);
            continue;
        }
        m_controlsGrid->addWidget(cell.label, row, 2 * column, Qt::AlignRight | Qt::AlignTop);
        m_controlsGrid->addWidget(cell.widget, row, 2 * column + 1, Qt::AlignTop);
    }
}

void MemoryBudgetPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layOutForWidth(width());
}

void MemoryBudgetPanel::validate(const MemoryBudgetSettings& s)
{
    checkParameters(s.parameters, parametersText(s.parameters).toStdString());
    const int precision = static_cast<int>(s.precision), optimizer = static_cast<int>(s.optimizer);
    if (precision < 0 || precision > 3)
        throw InputError("precision: " + std::to_string(precision) + " is not a precision (allowed: fp32, mixed, inference-16, inference-int8)");
    if (optimizer < 0 || optimizer > 2)
        throw InputError("optimizer: " + std::to_string(optimizer) + " is not an optimizer (allowed: adam, sgd-momentum, sgd)");
    checkRange("zero", s.zeroStage, 0, 3);
    checkRange("gpus", s.dataParallel, 1, 4096);
    checkRange("layers", s.shape.layers, 0, 1000);
    checkRange("hidden", s.shape.hidden, 1, 1000000);
    checkRange("heads", s.shape.heads, 1, 1024);
    checkRange("seq", s.shape.sequence, 1, 10000000);
    checkRange("batch", s.shape.microBatch, 1, 65536);
    if (s.shape.hidden % s.shape.heads != 0)
        throw InputError("heads: " + std::to_string(s.shape.heads) + " does not divide hidden " + std::to_string(s.shape.hidden) +
                         " (allowed: a divisor of hidden, at most 1024)");
    checkRange("kv_heads", s.kvHeads, 0, 1024);
    if (s.kvHeads > 0 && s.shape.heads % s.kvHeads != 0)
        throw InputError("kv_heads: " + std::to_string(s.kvHeads) + " does not divide heads " + std::to_string(s.shape.heads) +
                         " (allowed: 0 for one per head, or a divisor of heads: each key-value head serves heads / kv_heads "
                         "query heads)");
}

void MemoryBudgetPanel::setSettings(const MemoryBudgetSettings& settings)
{
    validate(settings);
    m_settings = settings;
    syncControls();
    redraw();
    setStale(false);
}

void MemoryBudgetPanel::syncControls()
{
    m_syncing = true;
    const QSignalBlocker b1(m_precisionCombo), b2(m_optimizerCombo), b3(m_zeroCombo), b4(m_recomputeBox);
    m_parametersField->setText(parametersText(m_settings.parameters));
    m_gpusField->setValue(m_settings.dataParallel);
    m_layersField->setValue(m_settings.shape.layers);
    m_hiddenField->setValue(m_settings.shape.hidden);
    m_headsField->setValue(m_settings.shape.heads);
    m_kvHeadsField->setValue(m_settings.kvHeads);
    m_sequenceField->setValue(m_settings.shape.sequence);
    m_batchField->setValue(m_settings.shape.microBatch);
    m_headsField->setExternalError({});
    m_kvHeadsField->setExternalError({});
    m_precisionCombo->setCurrentIndex(m_precisionCombo->findData(static_cast<int>(m_settings.precision)));
    m_optimizerCombo->setCurrentIndex(m_optimizerCombo->findData(static_cast<int>(m_settings.optimizer)));
    m_zeroCombo->setCurrentIndex(m_settings.zeroStage);
    m_recomputeBox->setChecked(m_settings.shape.recompute);
    const bool inference = m_settings.precision == Precision::Inference16 || m_settings.precision == Precision::InferenceInt8;
    m_optimizerCombo->setEnabled(!inference);
    m_syncing = false;
}

std::optional<MemoryBudgetSettings> MemoryBudgetPanel::readControls()
{
    for (ValidatedField* field : {m_parametersField, m_gpusField, m_layersField, m_hiddenField, m_sequenceField, m_batchField})
        if (!field->valid())
            return std::nullopt;
    if (!m_headsField->value() || !m_kvHeadsField->value())
        return std::nullopt;
    MemoryBudgetSettings next;
    next.parameters = parseParameters(m_parametersField->text());
    next.precision = static_cast<Precision>(m_precisionCombo->currentData().toInt());
    next.optimizer = static_cast<Optimizer>(m_optimizerCombo->currentData().toInt());
    next.zeroStage = m_zeroCombo->currentData().toInt();
    next.dataParallel = static_cast<int>(*m_gpusField->value());
    next.shape.layers = static_cast<int>(*m_layersField->value());
    next.shape.hidden = static_cast<int>(*m_hiddenField->value());
    next.shape.heads = static_cast<int>(*m_headsField->value());
    next.shape.sequence = static_cast<int>(*m_sequenceField->value());
    next.shape.microBatch = static_cast<int>(*m_batchField->value());
    next.shape.recompute = m_recomputeBox->isChecked();
    next.kvHeads = static_cast<int>(*m_kvHeadsField->value());
    try {
        validate(next);
    } catch (const InputError& error) {
        // Every field is in range on its own, so only heads-divides-hidden or kv_heads-divides-heads is
        // left: mark the field the message names.
        const QString message = QString::fromUtf8(error.what());
        (message.startsWith(QLatin1String("kv_heads")) ? m_kvHeadsField : m_headsField)->setExternalError(message);
        (message.startsWith(QLatin1String("kv_heads")) ? m_headsField : m_kvHeadsField)->setExternalError({});
        return std::nullopt;
    }
    m_headsField->setExternalError({});
    m_kvHeadsField->setExternalError({});
    return next;
}

void MemoryBudgetPanel::controlsEdited()
{
    if (m_syncing)
        return;
    const bool inference = m_precisionCombo->currentData().toInt() == static_cast<int>(Precision::Inference16) ||
                           m_precisionCombo->currentData().toInt() == static_cast<int>(Precision::InferenceInt8);
    m_optimizerCombo->setEnabled(!inference);
    const std::optional<MemoryBudgetSettings> next = readControls();
    if (!next) {
        setStale(true);
        return;
    }
    m_settings = *next;
    redraw();
    setStale(false);
}

void MemoryBudgetPanel::setStale(bool stale)
{
    m_stale = stale;
    m_staleLabel->setVisible(stale);
    if (stale)
        m_staleLabel->setText(tr("A field is not valid (marked): the figure still shows the last valid settings."));
}

std::vector<double> MemoryBudgetPanel::barGigabytes() const
{
    return {m_budget.weightBytes / 1e9, m_budget.gradientBytes / 1e9, m_budget.masterBytes / 1e9,
            m_budget.optimizerBytes / 1e9, m_budget.activationBytes / 1e9, m_kvCacheBytes / 1e9};
}

int MemoryBudgetPanel::barCount() const { return m_barCount; }

QString MemoryBudgetPanel::fitText() const { return m_fitLabel->text(); }

void MemoryBudgetPanel::redraw()
{
    const MemoryBudgetSettings& s = m_settings;
    m_budget = training::memoryBudget(s.parameters, s.precision, s.optimizer, s.shape, {s.zeroStage, s.dataParallel});

    const QString precisionName = m_precisionCombo->itemText(m_precisionCombo->findData(static_cast<int>(s.precision)));
    const bool inference = s.precision == Precision::Inference16 || s.precision == Precision::InferenceInt8;
    // Serving: the KV cache of `batch` sequences of `seq` tokens, 16-bit, with kvHeads key-value heads
    // (one per attention head when 0).
    const int kvHeads = s.kvHeads > 0 ? s.kvHeads : s.shape.heads;
    m_kvCacheBytes = inference && s.shape.layers > 0
                         ? perf::kvCacheBytes({s.shape.layers, kvHeads, s.shape.hidden / s.shape.heads}, s.shape.sequence,
                                              s.shape.microBatch, 2)
                         : 0;
    QString recipe = inference ? precisionName : precisionName + QStringLiteral(", ") +
                                                     m_optimizerCombo->itemText(m_optimizerCombo->findData(static_cast<int>(s.optimizer)));
    if (s.dataParallel > 1 || s.zeroStage > 0)
        recipe += tr(", ZeRO stage %1 (%2) over %3 GPU%4")
                      .arg(s.zeroStage)
                      .arg(toQString(training::zeroStageName(s.zeroStage)))
                      .arg(s.dataParallel)
                      .arg(s.dataParallel == 1 ? QString() : QStringLiteral("s"));
    QString summary = inference && s.shape.layers > 0
        ? tr("%1 parameters, %2: %3 GB per GPU = %4 GB of weights + %5 GB of KV cache (2 x %6 layers x %7 KV heads x %8 x %9 "
             "tokens x %10 sequences x 2 bytes; %11).")
              .arg(parametersText(s.parameters), recipe, gigabytes(totalBytes()), gigabytes(m_budget.modelStateBytes()),
                   gigabytes(m_kvCacheBytes))
              .arg(s.shape.layers)
              .arg(kvHeads)
              .arg(s.shape.hidden / s.shape.heads)
              .arg(s.shape.sequence)
              .arg(s.shape.microBatch)
              .arg(kvHeads == s.shape.heads ? tr("one key-value head per attention head, no GQA")
                                            : tr("grouped-query attention, each key-value head serving %1 query heads")
                                                  .arg(s.shape.heads / kvHeads))
        : tr("%1 parameters, %2: %3 GB per GPU = %4 GB of model states + %5 GB of activations.")
              .arg(parametersText(s.parameters), recipe, gigabytes(m_budget.totalBytes()),
                   gigabytes(m_budget.modelStateBytes()), gigabytes(m_budget.activationBytes));
    if (s.zeroStage > 0 && s.dataParallel > 1) {
        const training::MemoryBudget replicated = training::memoryBudget(s.parameters, s.precision, s.optimizer, s.shape);
        summary += tr(" Without ZeRO each GPU would keep %1 GB of model states.").arg(gigabytes(replicated.modelStateBytes()));
    }
    if (!inference && s.precision != Precision::Mixed16 && s.shape.layers > 0)
        summary += tr(" Activations are not counted for FP32 (the formula is for 16-bit activations).");
    m_summaryLabel->setText(summary);

    QStringList fits, tooBig;
    for (const training::GpuMemoryCapacity& gpu : training::gpuMemoryCapacities()) {
        const QString name = toQString(gpu.name);
        const double spare = gpu.bytes - totalBytes();
        if (spare >= 0)
            fits << tr("%1 (%2 GB spare of %3)").arg(name, gigabytes(spare), gigabytes(gpu.bytes));
        else
            tooBig << tr("%1 (%2 GB short of %3)").arg(name, gigabytes(-spare), gigabytes(gpu.bytes));
    }
    QStringList fitParts;
    if (!fits.isEmpty())
        fitParts << tr("Fits on %1.").arg(fits.join(QStringLiteral(", ")));
    if (!tooBig.isEmpty())
        fitParts << tr("Does not fit on %1.").arg(tooBig.join(QStringLiteral(", ")));
    m_fitLabel->setText(fitParts.join(QLatin1Char(' ')));

    drawPlot();
    fillTable();
    emit settingsChanged();
}

void MemoryBudgetPanel::drawPlot()
{
    const QPalette& pal = palette();
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->setBackground(pal.brush(QPalette::Base));
    m_plot->axisRect()->setBackground(pal.brush(QPalette::Base));
    m_plot->legend->setBrush(pal.brush(QPalette::Base));
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setTextColor(pal.color(QPalette::Text));
    m_plot->legend->setFont(plotFont(font()));
    styleAxis(m_plot->xAxis, pal, font());
    styleAxis(m_plot->yAxis, pal, font());
    styleAxis(m_plot->yAxis2, pal, font());
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis2->grid()->setVisible(false);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setSubTicks(false);

    // The GPUs drawn: all of them up to 8; past that GPU 0, 1, 2, a gap and the last (they are all alike).
    const int gpus = m_settings.dataParallel;
    std::vector<std::pair<double, QString>> bars;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    if (gpus <= kMaxBarsInFull) {
        for (int g = 0; g < gpus; ++g)
            bars.emplace_back(g + 1, QString::number(g));
    } else {
        for (int g = 0; g < 3; ++g)
            bars.emplace_back(g + 1, QString::number(g));
        ticker->addTick(4, QStringLiteral("⋯"));
        bars.emplace_back(5, QString::number(gpus - 1));
    }
    for (const auto& [x, label] : bars)
        ticker->addTick(x, label);
    m_barCount = static_cast<int>(bars.size());
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(0.3, bars.back().first + 0.7);

    const std::vector<double> values = barGigabytes();
    QCPBars* below = nullptr;
    QVector<double> keys;
    for (const auto& bar : bars)
        keys << bar.first;
    const double width = std::min(0.7, 0.35 + 0.05 * static_cast<double>(bars.size()));
    for (std::size_t c = 0; c < kComponents.size(); ++c) {
        auto* component = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        component->setName(tr(kComponents[c].name));
        component->setWidth(width);
        component->setPen(QPen(pal.color(QPalette::Base), 1));
        component->setBrush(kComponents[c].color);
        component->setData(keys, QVector<double>(keys.size(), values[c]));
        if (below != nullptr)
            component->moveAbove(below);
        below = component;
        if (values[c] == 0)
            component->removeFromLegend();
    }

    // The capacity lines, named on the right axis at their heights; in GB of 10^9 bytes (the datasheets'
    // GB are 2^30 bytes). Lines closer than a fourteenth of the axis share one label, a line per GPU.
    const std::vector<std::pair<double, QString>> lines = capacityLines();
    const double total = totalBytes() / 1e9;
    const double top = std::max(total, lines.back().first / 1e9) * 1.12;
    m_plot->yAxis->setRange(0, top);
    m_plot->yAxis2->setRange(0, top);
    QColor lineColor = pal.color(QPalette::Text);
    lineColor.setAlphaF(0.7);
    QSharedPointer<QCPAxisTickerText> capacityTicker(new QCPAxisTickerText);
    std::vector<std::pair<double, QString>> group; // lines too close to label apart
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const double y = lines[i].first / 1e9;
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(0, y);
        line->point2->setCoords(1, y);
        line->setPen(QPen(lineColor, 1, Qt::DashLine));
        group.emplace_back(y, lines[i].second + QStringLiteral(" ") + gigabytes(lines[i].first) + QStringLiteral(" GB"));
        const bool last = i + 1 == lines.size();
        if (!last && (lines[i + 1].first - lines[i].first) / 1e9 < top / 14)
            continue;
        if (group.size() == 1) { // the name over its size, at the line's height
            capacityTicker->addTick(y, lines[i].second + QStringLiteral("\n") + gigabytes(lines[i].first) + QStringLiteral(" GB"));
        } else { // one line of text per GPU, highest first, centred on the group
            QStringList text;
            double sum = 0;
            for (auto it = group.rbegin(); it != group.rend(); ++it) {
                text << it->second;
                sum += it->first;
            }
            capacityTicker->addTick(sum / static_cast<double>(group.size()), text.join(QLatin1Char('\n')));
        }
        group.clear();
    }
    m_plot->yAxis2->setTicker(capacityTicker);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryBudgetPanel::fillTable()
{
    const training::BytesPerParameter& whole = m_budget.perParameter;
    const training::BytesPerParameter& each = m_budget.perParameterPerGpu;
    const int stage = m_settings.zeroStage, n = m_settings.dataParallel;
    const auto split = [stage, n](int fromStage) {
        return stage >= fromStage && n > 1 ? QStringLiteral("÷ %1").arg(n) : QObject::tr("no");
    };
    const QString dash = QStringLiteral("–");
    const std::array<std::array<QString, 4>, 7> rows = {{
        {bytesPerParameterText(whole.weights), split(3), bytesPerParameterText(each.weights), gigabytes(m_budget.weightBytes)},
        {bytesPerParameterText(whole.gradients), split(2), bytesPerParameterText(each.gradients), gigabytes(m_budget.gradientBytes)},
        {bytesPerParameterText(whole.masterWeights), split(1), bytesPerParameterText(each.masterWeights), gigabytes(m_budget.masterBytes)},
        {bytesPerParameterText(whole.optimizerStates), split(1), bytesPerParameterText(each.optimizerStates),
         gigabytes(m_budget.optimizerBytes)},
        {bytesPerParameterText(whole.total()), dash, bytesPerParameterText(each.total()), gigabytes(m_budget.modelStateBytes())},
        {dash, tr("no"), dash, gigabytes(m_budget.activationBytes)},
        {dash, tr("no"), dash, gigabytes(m_kvCacheBytes)},
    }};
    for (int r = 0; r < 7; ++r)
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r == 4) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(r, c, item);
        }
    m_table->resizeColumnsToContents();
    m_table->setToolTip(tr("Bytes per parameter as the ZeRO paper counts them (section 3.1): mixed-precision Adam keeps "
                           "2 (16-bit weights) + 2 (16-bit gradients) + 4 (FP32 master weights) + 8 (two FP32 moments) = "
                           "16 bytes. Activations grow with the shape, not the parameters."));
}

void MemoryBudgetPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_plot != nullptr) {
        drawPlot();
        QFont captionFont = font();
        captionFont.setPointSizeF(kPlotFontPoints);
        m_captionLabel->setFont(captionFont);
    }
}

} // namespace warpscope::viz
