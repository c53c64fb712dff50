#include "precision/sparsity/sparsity_panel.h"

#include "common/validated_field.h"

#include "common/export_actions.h"
#include "common/plot_style.h"
#include "precision/precision_lab_style.h"
#include "precision/precision_lab_flow_layout.h"
#include "precision/precision_lab_worker.h"
#include "precision/sparsity/sparsity_pattern_view.h"
#include "util/parse.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStringList>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpscope::viz {

using numerics::SparseStorage;
using numerics::SparsityStudy;

namespace {

constexpr int kWideWidth = 860; // below this the figures stack in one column

QString bytes(std::size_t count) { return QString::fromStdString(withThousands(static_cast<std::int64_t>(count))) + QStringLiteral(" B"); }

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %"); }

} // namespace

numerics::SparsityStudyConfig sparsityStudyConfig(const SparsityRequest& request)
{
    numerics::SparsityStudyConfig config;
    config.training.seed = request.seed;
    config.training.histogramInterval = 0;
    config.fineTuneSteps = request.fineTuneSteps;
    return config;
}

SparsityPanel::SparsityPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sparsityPanel"));
    m_worker = new LabWorker(this);
    connect(m_worker, &LabWorker::started, this, [this] {
        m_progress->setVisible(true);
        m_cancelButton->setEnabled(true);
    });
    connect(m_worker, &LabWorker::finished, this, [this] {
        m_progress->setVisible(false);
        m_cancelButton->setEnabled(false);
        if (m_cancelRequested && m_status->text() == tr("Cancelling…"))
            setStatus(tr("Cancelled before the study started."));
        m_cancelRequested = false;
        emit studyFinished();
    });

    m_pattern = new SparsityPatternView(this);
    installFigureExport(m_pattern, QStringLiteral("sparsity-pattern"));
    m_groupLabel = new QLabel(this);
    m_groupLabel->setObjectName(QStringLiteral("sparsityGroup"));
    m_groupLabel->setWordWrap(true);
    m_groupLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_groupLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_pattern, &SparsityPatternView::groupSelected, this, [this] {
        m_groupLabel->setText(m_pattern->groupText().isEmpty() ? tr("Click a group of four to read its metadata.") : m_pattern->groupText());
    });
    buildPlots();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    m_figures = new QGridLayout;
    m_figures->setSpacing(8);
    layout->addLayout(m_figures, 1);
    arrangeFigures(true);
    m_progress->setVisible(false);
    m_cancelButton->setEnabled(false);
    restyle();
    refresh();
    setStatus(tr("Trains, prunes and fine-tunes when the panel is first shown."));
}

QWidget* SparsityPanel::buildControls()
{
    auto* box = new QWidget(this);
    auto* rows = new QVBoxLayout(box);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* first = new FlowLayout(nullptr, 14, 4);
    auto* second = new QHBoxLayout;
    m_layerCombo = new QComboBox(box);
    m_layerCombo->addItem(tr("layer 1 (32 → 32)"), 1);
    m_layerCombo->addItem(tr("layer 2 (32 → 3)"), 2);
    first->addWidget(fieldGroup(tr("&Layer"), m_layerCombo,
                                tr("The weight matrix shown. Layer 0 has only 2 inputs, too few for a group of 4, so it stays dense")));
    m_weightsCombo = new QComboBox(box);
    m_weightsCombo->addItem(tr("just pruned"));
    m_weightsCombo->addItem(tr("after the fine-tune"));
    first->addWidget(fieldGroup(tr("&Weights"), m_weightsCombo,
                                tr("Colour the kept weights as pruning left them, or as fine-tuning changed them")));
    m_fineTuneField = new ValidatedField(QStringLiteral("sparsityFineTune"),
                                         countParser(QStringLiteral("fine-tune steps"), 0, kSparsityMaxFineTuneSteps), box);
    m_fineTuneField->setValue(200);
    m_fineTuneField->setStepping(50, 0, kSparsityMaxFineTuneSteps);
    first->addWidget(fieldGroup(tr("&Fine-tune steps"), m_fineTuneField,
                                tr("Steps of training with the mask fixed after pruning (0 to %1; gradients masked, weights re-masked)")
                                    .arg(kSparsityMaxFineTuneSteps)));
    m_seedField = new ValidatedField(QStringLiteral("sparsitySeed"), countParser(QStringLiteral("seed"), 0, std::numeric_limits<int>::max(), false), box);
    m_seedField->setValue(1);
    m_seedField->setStepping(1, 0, std::numeric_limits<int>::max());
    first->addWidget(fieldGroup(tr("S&eed"), m_seedField, tr("Seed of the dense model's initial weights and batch order")));
    for (ValidatedField* field : {m_fineTuneField, m_seedField}) {
        field->lineEdit()->setMaximumWidth(110);
        field->setMaximumWidth(240);
        // Nothing runs until Run: the status line and the button follow each keystroke.
        connect(field, &ValidatedField::textChecked, this, &SparsityPanel::fieldsChanged);
    }
    m_lastValid.fineTuneSteps = 200;
    m_lastValid.seed = 1;
    m_runButton = new QPushButton(tr("&Run"), box);
    m_runButton->setObjectName(QStringLiteral("sparsityRun"));
    m_runButton->setToolTip(tr("Train the dense model in FP32 (1000 steps), prune it 2:4 and fine-tune"));
    m_cancelButton = new QPushButton(tr("Cancel"), box);
    m_progress = new QProgressBar(box);
    m_worker->driveProgressBar(m_progress);
    m_progress->setMaximumWidth(200);
    m_status = new QLabel(box);
    m_status->setObjectName(QStringLiteral("sparsityStatus"));
    m_status->setWordWrap(true);
    second->addWidget(m_runButton);
    second->addWidget(m_cancelButton);
    second->addWidget(m_progress);
    second->addWidget(m_status, 1);
    rows->addLayout(first);
    rows->addLayout(second);

    connect(m_layerCombo, &QComboBox::currentIndexChanged, this, &SparsityPanel::refresh);
    connect(m_weightsCombo, &QComboBox::currentIndexChanged, this, &SparsityPanel::refresh);
    connect(m_runButton, &QPushButton::clicked, this, &SparsityPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &SparsityPanel::cancel);
    return box;
}

void SparsityPanel::buildPlots()
{
    m_side = new QWidget(this);
    m_sideLayout = new QGridLayout(m_side); // a column beside the pattern, or two plots side by side under it (arrangeFigures)
    m_sideLayout->setContentsMargins(0, 0, 0, 0);

    m_bytesPlot = new QCustomPlot(m_side);
    m_bytesPlot->setObjectName(QStringLiteral("sparsityBytesPlot"));
    installFigureExport(m_bytesPlot, QStringLiteral("sparsity-bytes"));
    m_bytesPlot->setMinimumSize(220, 200);
    m_bytesTitle = addFigureTitle(m_bytesPlot, tr("FP16 weight bytes: dense vs 2:4"));
    auto bytesTicker = QSharedPointer<QCPAxisTickerText>::create();
    m_bytesPlot->xAxis->setTicker(bytesTicker);
    m_bytesPlot->xAxis->grid()->setVisible(false);
    m_bytesPlot->xAxis->setRange(0.45, 2.55);
    m_bytesPlot->yAxis->setLabel(tr("bytes"));
    m_denseBars = new QCPBars(m_bytesPlot->xAxis, m_bytesPlot->yAxis);
    m_denseBars->setName(tr("dense"));
    m_valueBars = new QCPBars(m_bytesPlot->xAxis, m_bytesPlot->yAxis);
    m_valueBars->setName(tr("values"));
    m_metadataBars = new QCPBars(m_bytesPlot->xAxis, m_bytesPlot->yAxis);
    m_metadataBars->setName(tr("metadata"));
    m_metadataBars->moveAbove(m_valueBars);
    for (QCPBars* bars : {m_denseBars, m_valueBars, m_metadataBars})
        bars->setWidth(0.34);
    m_bytesPlot->axisRect()->insetLayout()->take(m_bytesPlot->legend);
    m_bytesPlot->plotLayout()->addElement(2, 0, m_bytesPlot->legend);
    m_bytesPlot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_bytesPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_bytesPlot->legend->setVisible(true);
    m_storageLabel = new QLabel(m_side);
    m_storageLabel->setObjectName(QStringLiteral("sparsityStorage"));
    m_storageLabel->setWordWrap(true);
    m_storageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_accuracyPlot = new QCustomPlot(m_side);
    m_accuracyPlot->setObjectName(QStringLiteral("sparsityAccuracyPlot"));
    installFigureExport(m_accuracyPlot, QStringLiteral("sparsity-accuracy"));
    m_accuracyPlot->setMinimumSize(220, 200);
    m_accuracyTitle = addFigureTitle(m_accuracyPlot, tr("Held-out accuracy"));
    m_accuracyPlot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_accuracyPlot->xAxis->grid()->setVisible(false);
    m_accuracyPlot->xAxis->setRange(0.45, 3.55);
    m_accuracyPlot->yAxis->setLabel(tr("accuracy (%)"));
    m_accuracyPlot->yAxis->setRange(0, 112);
    m_accuracyBars = new QCPBars(m_accuracyPlot->xAxis, m_accuracyPlot->yAxis);
    m_accuracyBars->setWidth(0.5);
    for (int i = 0; i < 3; ++i) {
        auto* label = new QCPItemText(m_accuracyPlot);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(0, 0, 0, 3));
        m_accuracyLabels.push_back(label);
    }
    m_accuracyLabel = new QLabel(m_side);
    m_accuracyLabel->setObjectName(QStringLiteral("sparsityAccuracy"));
    m_accuracyLabel->setWordWrap(true);
}

void SparsityPanel::arrangeFigures(bool wide)
{
    m_wide = wide;
    for (QWidget* figure : {static_cast<QWidget*>(m_pattern), static_cast<QWidget*>(m_groupLabel), m_side})
        m_figures->removeWidget(figure);
    for (QWidget* figure : {static_cast<QWidget*>(m_bytesPlot), static_cast<QWidget*>(m_storageLabel),
                            static_cast<QWidget*>(m_accuracyPlot), static_cast<QWidget*>(m_accuracyLabel)})
        m_sideLayout->removeWidget(figure);
    for (int r = 0; r < 4; ++r)
        m_sideLayout->setRowStretch(r, 0);
    if (wide) {
        // The plots and their notes in a column beside the pattern.
        m_sideLayout->addWidget(m_bytesPlot, 0, 0);
        m_sideLayout->addWidget(m_storageLabel, 1, 0);
        m_sideLayout->addWidget(m_accuracyPlot, 2, 0);
        m_sideLayout->addWidget(m_accuracyLabel, 3, 0);
        m_sideLayout->setRowStretch(0, 1);
        m_sideLayout->setRowStretch(2, 1);
        m_sideLayout->setColumnStretch(1, 0);
        m_pattern->setMaximumCell(26);
        m_figures->addWidget(m_pattern, 0, 0);
        m_figures->addWidget(m_groupLabel, 1, 0);
        m_figures->addWidget(m_side, 0, 1, 2, 1);
        m_figures->setColumnStretch(0, 2);
        m_figures->setColumnStretch(1, 1);
        m_figures->setRowStretch(0, 0);
        m_figures->setRowStretch(1, 1); // the pattern takes the height its rows need; the group text sits under it
    } else {
        // Under the pattern, the two plots side by side, each note under its plot; the pattern's cells
        // at most 8 px, so at 1280 x 800 the plots begin on the first screen, as the other lab tabs'
        // figures do, instead of a whole screen down.
        m_sideLayout->addWidget(m_bytesPlot, 0, 0);
        m_sideLayout->addWidget(m_accuracyPlot, 0, 1);
        m_sideLayout->addWidget(m_storageLabel, 1, 0, Qt::AlignTop);
        m_sideLayout->addWidget(m_accuracyLabel, 1, 1, Qt::AlignTop);
        m_sideLayout->setRowStretch(0, 1);
        m_sideLayout->setColumnStretch(0, 1);
        m_sideLayout->setColumnStretch(1, 1);
        m_pattern->setMaximumCell(8);
        m_figures->addWidget(m_pattern, 0, 0);
        m_figures->addWidget(m_groupLabel, 1, 0);
        m_figures->addWidget(m_side, 2, 0);
        m_figures->setColumnStretch(0, 1);
        m_figures->setColumnStretch(1, 0);
        m_figures->setRowStretch(0, 0);
        m_figures->setRowStretch(1, 0);
        m_figures->setRowStretch(2, 1);
    }
}

void SparsityPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const bool wide = event->size().width() >= kWideWidth;
    if (wide != m_wide)
        arrangeFigures(wide);
}

void SparsityPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    runIfNeeded();
}

void SparsityPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Once the children have the new palette too (a parent hears of the change first).
    if (event->type() == QEvent::PaletteChange && m_bytesPlot != nullptr)
        QMetaObject::invokeMethod(
            this, [this] {
                restyle();
                refresh();
            },
            Qt::QueuedConnection);
}

void SparsityPanel::setLayer(int layer)
{
    const int index = m_layerCombo->findData(layer);
    if (index >= 0)
        m_layerCombo->setCurrentIndex(index);
}

int SparsityPanel::layer() const { return m_layerCombo->currentData().toInt(); }

void SparsityPanel::setShowFineTuned(bool fineTuned) { m_weightsCombo->setCurrentIndex(fineTuned ? 1 : 0); }

void SparsityPanel::setRequest(const SparsityRequest& request)
{
    m_fineTuneField->setValue(request.fineTuneSteps);
    m_seedField->setValue(static_cast<std::int64_t>(request.seed));
    fieldsChanged();
}

SparsityRequest SparsityPanel::request() const
{
    SparsityRequest request;
    request.fineTuneSteps = static_cast<int>(m_fineTuneField->value().value_or(m_lastValid.fineTuneSteps));
    request.seed = static_cast<std::uint64_t>(m_seedField->value().value_or(static_cast<std::int64_t>(m_lastValid.seed)));
    return request;
}

QString SparsityPanel::fieldErrors() const
{
    QStringList errors;
    for (const ValidatedField* field : {m_fineTuneField, m_seedField})
        if (!field->valid())
            errors << field->errorText();
    return errors.join(QLatin1Char('\n'));
}

void SparsityPanel::fieldsChanged()
{
    const QString errors = fieldErrors();
    if (errors.isEmpty()) {
        m_lastValid.fineTuneSteps = static_cast<int>(*m_fineTuneField->value());
        m_lastValid.seed = static_cast<std::uint64_t>(*m_seedField->value());
    }
    m_runButton->setEnabled(errors.isEmpty());
    if (!errors.isEmpty()) {
        if (m_statusBeforeErrors.isNull())
            m_statusBeforeErrors = m_status->text();
        setStatus(tr("Not run while a field is marked (%1). The figures show the last study.")
                      .arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; "))),
                  true);
    } else if (!m_statusBeforeErrors.isNull()) {
        setStatus(m_statusBeforeErrors);
        m_statusBeforeErrors = QString();
    }
}

bool SparsityPanel::busy() const { return m_worker->busy(); }

QString SparsityPanel::statusText() const { return m_status->text(); }

void SparsityPanel::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void SparsityPanel::runIfNeeded()
{
    if (!m_study && !m_worker->busy())
        run();
}

void SparsityPanel::run()
{
    if (const QString errors = fieldErrors(); !errors.isEmpty()) {
        setStatus(tr("Not run while a field is marked (%1).").arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; "))), true);
        return;
    }
    const SparsityRequest request = this->request();
    m_cancelRequested = false;
    m_worker->submit([this, request](const LabWorker::Progress& progress, const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        QElapsedTimer timer;
        timer.start();
        try {
            auto study = std::make_shared<const SparsityStudy>(numerics::runSparsityStudy(sparsityStudyConfig(request), progress, &cancel));
            const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
            if (study->cancelled)
                return [this] { setStatus(tr("Cancelled; the figures still show the previous study.")); };
            return [this, study, seconds, request] {
                m_study = study;
                refresh();
                setStatus(tr("Trained %1 steps in FP32, pruned 2:4 and fine-tuned %2 steps in %3 s (seed %4).")
                              .arg(sparsityStudyConfig(request).training.steps)
                              .arg(request.fineTuneSteps)
                              .arg(seconds, 0, 'f', 2)
                              .arg(request.seed));
            };
        } catch (const std::exception& error) {
            const QString message = QString::fromUtf8(error.what());
            return [this, message] { setStatus(tr("The study failed: %1").arg(message), true); };
        }
    });
    m_progress->setValue(0);
    setStatus(tr("Training, pruning and fine-tuning…"));
}

void SparsityPanel::cancel()
{
    if (!m_worker->busy())
        return;
    m_cancelRequested = true;
    setStatus(tr("Cancelling…"));
    m_worker->cancel();
}

SparseStorage SparsityPanel::layerStorage() const
{
    if (!m_study)
        return {};
    for (const numerics::SparsityLayer& each : m_study->layers)
        if (each.layer == layer())
            return each.storage;
    return {};
}

SparseStorage SparsityPanel::modelStorage() const { return m_study ? m_study->total : SparseStorage{}; }

QString SparsityPanel::storageText() const { return m_storageLabel->text(); }

QString SparsityPanel::accuracyText() const { return m_accuracyLabel->text(); }

void SparsityPanel::refresh()
{
    const int shown = layer();
    const numerics::SparsityLayer* entry = nullptr;
    if (m_study)
        for (const numerics::SparsityLayer& each : m_study->layers)
            if (each.layer == shown)
                entry = &each;
    if (entry == nullptr || !entry->pattern) {
        m_pattern->clear(m_study ? tr("Layer %1 is not pruned.").arg(shown) : tr("The pattern appears once the model is trained and pruned."));
        m_groupLabel->setText(QString());
    } else {
        const bool fineTuned = m_weightsCombo->currentIndex() == 1;
        const numerics::MlpLayer& weights = (fineTuned ? m_study->fineTuned : m_study->pruned).layers[static_cast<std::size_t>(shown)];
        m_pattern->setPattern(&*entry->pattern, weights.weights, m_study->dense.layers[static_cast<std::size_t>(shown)].weights,
                              tr("Layer %1: W[out][in], %2 × %3 (%4)")
                                  .arg(shown)
                                  .arg(entry->pattern->rows)
                                  .arg(entry->pattern->columns)
                                  .arg(fineTuned ? tr("after the fine-tune") : tr("just pruned")));
    }

    // Bytes: this layer and the whole model (layer 0 dense in both columns).
    const SparseStorage layerBytes = layerStorage(), modelBytes = modelStorage();
    auto* ticker = static_cast<QCPAxisTickerText*>(m_bytesPlot->xAxis->ticker().data());
    ticker->clear();
    ticker->addTick(1, tr("layer %1").arg(shown));
    ticker->addTick(2, tr("whole model"));
    if (m_study) {
        m_denseBars->setData({0.81, 1.81}, {static_cast<double>(layerBytes.denseBytes), static_cast<double>(modelBytes.denseBytes)});
        m_valueBars->setData({1.19, 2.19}, {static_cast<double>(layerBytes.valueBytes), static_cast<double>(modelBytes.valueBytes)});
        m_metadataBars->setData({1.19, 2.19}, {static_cast<double>(layerBytes.metadataBytes), static_cast<double>(modelBytes.metadataBytes)});
        m_bytesPlot->yAxis->setRange(0, static_cast<double>(std::max(layerBytes.denseBytes, modelBytes.denseBytes)) * 1.12);
        m_storageLabel->setText(
            tr("<b>Layer %1</b>: dense %2; compressed %3 of values + %4 of metadata = %5 (%6 of dense). "
               "<b>Whole model</b> (layer 0 stays dense): %7 → %8 (%9).")
                .arg(shown)
                .arg(bytes(layerBytes.denseBytes), bytes(layerBytes.valueBytes), bytes(layerBytes.metadataBytes),
                     bytes(layerBytes.compressedBytes()), percent(layerBytes.compressedShare()), bytes(modelBytes.denseBytes),
                     bytes(modelBytes.compressedBytes()), percent(modelBytes.compressedShare())));
    } else {
        for (QCPBars* bars : {m_denseBars, m_valueBars, m_metadataBars})
            bars->data()->clear();
        m_storageLabel->clear();
    }
    m_bytesPlot->replot();

    auto* accuracyTicker = static_cast<QCPAxisTickerText*>(m_accuracyPlot->xAxis->ticker().data());
    accuracyTicker->clear();
    accuracyTicker->addTick(1, tr("dense"));
    accuracyTicker->addTick(2, tr("2:4 pruned"));
    accuracyTicker->addTick(3, m_study ? tr("fine-tuned\n(%1 steps)").arg(m_study->fineTuneRun.steps.size()) : tr("fine-tuned"));
    if (m_study) {
        const double values[] = {m_study->denseTest.accuracy, m_study->prunedTest.accuracy, m_study->fineTunedTest.accuracy};
        m_accuracyBars->setData({1, 2, 3}, {100 * values[0], 100 * values[1], 100 * values[2]});
        for (int i = 0; i < 3; ++i) {
            m_accuracyLabels[static_cast<std::size_t>(i)]->position->setCoords(i + 1, 100 * values[i]);
            m_accuracyLabels[static_cast<std::size_t>(i)]->setText(percent(values[i]));
            m_accuracyLabels[static_cast<std::size_t>(i)]->setVisible(true);
        }
        m_accuracyLabel->setText(tr("On the %1 held-out spiral samples: %2 dense, %3 just after pruning, %4 after %5 fine-tuning "
                                    "steps with the mask fixed.")
                                     .arg(3 * numerics::SpiralOptions{}.testPerClass)
                                     .arg(percent(values[0]), percent(values[1]), percent(values[2]))
                                     .arg(m_study->fineTuneRun.steps.size()));
    } else {
        m_accuracyBars->data()->clear();
        for (QCPItemText* label : m_accuracyLabels)
            label->setVisible(false);
        m_accuracyLabel->clear();
    }
    m_accuracyPlot->replot();
}

void SparsityPanel::restyle()
{
    for (auto [plot, title] : {std::pair{m_bytesPlot, m_bytesTitle}, std::pair{m_accuracyPlot, m_accuracyTitle}})
        styleFigure(plot, title, false, false);
    const bool dark = isDarkPalette(palette());
    const QColor dense = dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75);
    const QColor values = dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    const QColor metadata = dark ? QColor(0xff, 0x8c, 0x4a) : QColor(0xd5, 0x5e, 0x00);
    for (auto [bars, colour] : {std::pair{m_denseBars, dense}, std::pair{m_valueBars, values}, std::pair{m_metadataBars, metadata}}) {
        bars->setPen(QPen(colour.darker(120), 1));
        bars->setBrush(withAlpha(colour, 0.85));
    }
    m_bytesPlot->legend->setBorderPen(Qt::NoPen);
    m_bytesPlot->legend->setBrush(Qt::NoBrush);
    const QColor accuracy = dark ? QColor(0x3c, 0xd1, 0xa4) : QColor(0x00, 0x9e, 0x73);
    m_accuracyBars->setPen(QPen(accuracy.darker(120), 1));
    m_accuracyBars->setBrush(withAlpha(accuracy, 0.85));
    for (QCPItemText* label : m_accuracyLabels) {
        label->setColor(palette().color(QPalette::Text));
        label->setFont(plotFont(font(), true));
    }
}

} // namespace warpscope::viz
