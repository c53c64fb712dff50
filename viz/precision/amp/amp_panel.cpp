#include "precision/amp/amp_panel.h"

#include "common/export_actions.h"
#include "common/validated_field.h"
#include "numerics/number_format.h"
#include "precision/amp/amp_plots.h"
#include "precision/precision_lab_flow_layout.h"
#include "precision/precision_lab_worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QSlider>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace warpscope::viz {

using numerics::AmpMode;
using numerics::AmpResult;
using numerics::Format;
using numerics::GradientHistogram;

namespace {

constexpr int kWideWidth = 820; // below this the figures stack in one column (two of about 400 px fit above)

QString formatName(Format format)
{
    const std::string_view name = numerics::formatInfo(format).name;
    return QString::fromUtf8(name.data(), static_cast<int>(name.size()));
}

QString percentText(double share) { return QString::number(100.0 * share, 'f', 2) + QStringLiteral(" %"); }

QTableWidgetItem* cellItem(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

} // namespace

const AmpResult* AmpRunSet::find(AmpMode mode) const
{
    for (const AmpResult& run : runs)
        if (run.config.mode == mode)
            return &run;
    return nullptr;
}

numerics::AmpConfig ampConfigFor(const AmpRunRequest& request, AmpMode mode)
{
    numerics::AmpConfig config;
    config.mode = mode;
    config.steps = request.steps;
    config.seed = request.seed;
    config.scaler.growthInterval = request.growthInterval;
    config.staticScale = request.staticScale;
    config.histogramInterval = std::max(1, request.steps / kAmpHistogramsPerRun);
    return config;
}

AmpPanel::AmpPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("ampPanel"));
    m_worker = new LabWorker(this);
    connect(m_worker, &LabWorker::finished, this, [this] {
        setRunning(false);
        emit runFinished();
    });

    m_lossPlot = new AmpLossPlot(this);
    m_scalePlot = new AmpScalePlot(this);
    installFigureExport(m_lossPlot, QStringLiteral("amp-loss"));
    installFigureExport(m_scalePlot, QStringLiteral("amp-loss-scale"));
    m_histogramBox = buildHistogramBox();

    m_tableBox = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(m_tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    auto* tableTitle = new QLabel(tr("<b>Per mode</b> (held-out accuracy on the spiral test set)"), m_tableBox);
    m_table = new QTableWidget(0, 6, m_tableBox);
    m_table->setObjectName(QStringLiteral("ampSummaryTable"));
    installTableExport(m_table, QStringLiteral("amp-modes"));
    m_table->setHorizontalHeaderLabels({tr("Mode"), tr("Final loss"), tr("Held-out\naccuracy"), tr("Mean\nunderflow"),
                                        tr("Skipped\nsteps"), tr("inf/NaN\nsteps")});
    m_table->horizontalHeaderItem(1)->setToolTip(tr("Mean cross-entropy of the FP32 master weights on the whole training set after training"));
    m_table->horizontalHeaderItem(3)->setToolTip(tr("Share of the gradient elements, nonzero in an FP32 backward pass, that were zero in the "
                                                    "mode's format; mean over the steps"));
    m_table->horizontalHeaderItem(4)->setToolTip(tr("Steps the dynamic scaler skipped because a gradient was inf or NaN"));
    m_table->horizontalHeaderItem(5)->setToolTip(tr("Steps with an inf or NaN gradient; without a scaler to catch them they reach the weights"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->setMinimumHeight(150);
    tableLayout->addWidget(tableTitle);
    tableLayout->addWidget(m_table, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    m_figures = new QGridLayout;
    m_figures->setSpacing(8);
    layout->addLayout(m_figures, 1);
    arrangeFigures(true);
    showResults(nullptr);
    setRunning(false);
    setStatus(tr("Tick the modes to compare and press Run. Training runs on the CPU, off the window's thread."));
}

QWidget* AmpPanel::buildControls()
{
    auto* box = new QWidget(this);
    auto* rows = new QVBoxLayout(box);
    rows->setContentsMargins(0, 0, 0, 0);

    auto* modes = new FlowLayout(nullptr, 12, 2);
    modes->addWidget(new QLabel(tr("<b>Modes</b>"), box));
    const struct {
        AmpMode mode;
        QString label;
        bool ticked;
        QString tip;
    } choices[] = {
        {AmpMode::FP32, tr("FP32"), true, tr("The reference: everything in FP32")},
        {AmpMode::FP16, tr("FP16"), true, tr("FP16 forward and backward, no loss scaling: small gradients flush to zero")},
        {AmpMode::FP16Static, tr("FP16 static S"), false, tr("FP16 with the loss multiplied by the static scale S below")},
        {AmpMode::FP16Dynamic, tr("FP16 dynamic"), true,
         tr("FP16 with PyTorch's GradScaler: start at 2^16, halve and skip the step on inf/NaN, double after the growth interval")},
        {AmpMode::BF16, tr("BF16"), true, tr("BF16: FP32's exponent range with 8 significant bits, no scaler")},
    };
    for (const auto& choice : choices) {
        auto* check = new QCheckBox(choice.label, box);
        check->setChecked(choice.ticked);
        check->setToolTip(choice.tip);
        check->setObjectName(QStringLiteral("ampMode_") +
                             QString::fromLatin1(numerics::ampModeInfo(choice.mode).key.data(),
                                                 static_cast<int>(numerics::ampModeInfo(choice.mode).key.size())));
        modes->addWidget(check);
        m_modeBoxes.emplace_back(choice.mode, check);
    }
    rows->addLayout(modes);

    auto* settings = new FlowLayout(nullptr, 14, 4);
    // The ranges are the links' (app/links/view_link.cpp) and `warpscope numerics amp`'s.
    m_stepsField = new ValidatedField(QStringLiteral("ampSteps"), countParser(QStringLiteral("steps"), 1, kAmpMaxSteps), box);
    m_stepsField->setValue(1000);
    m_stepsField->setStepping(100, 1, kAmpMaxSteps);
    settings->addWidget(fieldGroup(tr("&Steps"), m_stepsField,
                                   tr("Optimizer steps per mode (1 to %1, or with K = 1024), skipped ones included; Up/Down: 100 more or less")
                                       .arg(kAmpMaxSteps)));
    m_seedField = new ValidatedField(QStringLiteral("ampSeed"), countParser(QStringLiteral("seed"), 0, std::numeric_limits<int>::max(), false), box);
    m_seedField->setValue(1);
    m_seedField->setStepping(1, 0, std::numeric_limits<int>::max());
    settings->addWidget(fieldGroup(tr("S&eed"), m_seedField, tr("Seed of the initial weights and the batch order: the same seed gives the same run")));
    m_growthField = new ValidatedField(QStringLiteral("ampGrowth"), countParser(QStringLiteral("growth interval"), 1, 1000000), box);
    m_growthField->setValue(kAmpDefaultGrowthInterval);
    m_growthField->setStepping(1, 1, 1000000);
    // Said beside the field, not only in a tooltip: the default here is not PyTorch's.
    auto* growthNote = new QLabel(tr("(PyTorch: %1)").arg(kPyTorchGrowthInterval), box);
    growthNote->setObjectName(QStringLiteral("ampGrowthNote"));
    growthNote->setToolTip(tr("torch.amp.GradScaler's growth_interval defaults to %1. This small model first overflows FP16 "
                              "at a scale of 2^34, 18 doublings above 2^16: with %1 steps per doubling that takes about 36,000 steps, "
                              "so the scale would stay flat for a whole run. %2 shows the sawtooth within 1000 steps.")
                               .arg(kPyTorchGrowthInterval)
                               .arg(kAmpDefaultGrowthInterval));
    settings->addWidget(fieldGroup(tr("&Growth interval"), m_growthField,
                                   tr("FP16 dynamic: clean steps in a row before the scale doubles (PyTorch's growth_interval, "
                                      "default %1; %2 here so that the scale's sawtooth shows within a run)")
                                       .arg(kPyTorchGrowthInterval)
                                       .arg(kAmpDefaultGrowthInterval),
                                   growthNote));
    m_scaleField = new ValidatedField(QStringLiteral("ampScale"), {}, box);
    m_scaleField->setRealParser(realParser(QStringLiteral("static scale"), 1.0, 3.0e38, QStringLiteral("1 to 3e38, e.g. 65536")));
    m_scaleField->setRealValue(65536);
    settings->addWidget(fieldGroup(tr("Static s&cale"), m_scaleField, tr("FP16 static: the fixed loss scale S (1 to 3e38, as 65536 or 6.5e4); 65536 = 2^16")));
    for (ValidatedField* field : {m_stepsField, m_seedField, m_growthField, m_scaleField}) {
        field->lineEdit()->setMaximumWidth(120);
        field->setMaximumWidth(240); // the message under the field wraps within this
        // Nothing runs until Run: the status line and the button follow each keystroke.
        connect(field, &ValidatedField::textChecked, this, &AmpPanel::fieldsChanged);
    }
    m_lastValid.steps = 1000;
    m_lastValid.seed = 1;
    m_lastValid.growthInterval = kAmpDefaultGrowthInterval;
    m_lastValid.staticScale = 65536;
    rows->addLayout(settings);

    auto* actions = new QHBoxLayout;
    m_runButton = new QPushButton(tr("&Run"), box);
    m_runButton->setObjectName(QStringLiteral("ampRun"));
    m_runButton->setToolTip(tr("Train every ticked mode; a new Run replaces one in progress"));
    m_cancelButton = new QPushButton(tr("Cancel"), box);
    m_cancelButton->setObjectName(QStringLiteral("ampCancel"));
    m_progress = new QProgressBar(box);
    m_worker->driveProgressBar(m_progress);
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(true);
    m_status = new QLabel(box);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("ampStatus"));
    m_status->setMinimumWidth(120);
    actions->addWidget(m_runButton);
    actions->addWidget(m_cancelButton);
    actions->addWidget(m_progress);
    actions->addWidget(m_status, 1);
    rows->addLayout(actions);

    connect(m_runButton, &QPushButton::clicked, this, &AmpPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &AmpPanel::cancel);
    return box;
}

QWidget* AmpPanel::buildHistogramBox()
{
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    m_histogramModeCombo = new QComboBox(box);
    m_histogramModeCombo->setToolTip(tr("The mode whose gradients are shown"));
    m_histogramModeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_histogramModeCombo->setMinimumContentsLength(12);
    m_stepSlider = new QSlider(Qt::Horizontal, box);
    m_stepSlider->setObjectName(QStringLiteral("ampStepSlider"));
    m_stepSlider->setToolTip(tr("The step whose gradients are shown (a histogram is kept every steps/%1 steps and at the last)")
                                 .arg(kAmpHistogramsPerRun));
    m_stepSlider->setMinimumWidth(100);
    m_stepLabel = new QLabel(box);
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 100000")));
    m_exactBox = new QCheckBox(tr("|g|"), box);
    m_exactBox->setChecked(true);
    m_exactBox->setToolTip(tr("The gradients as an FP32 backward pass computes them from the same forward values"));
    m_scaledBox = new QCheckBox(tr("|g| × S"), box);
    m_scaledBox->setChecked(true);
    m_scaledBox->setToolTip(tr("The same gradients multiplied by the step's loss scale: what FP16 has to hold"));
    auto* modeCaption = new QLabel(tr("Histogram of"), box);
    modeCaption->setBuddy(m_histogramModeCombo);
    row->addWidget(modeCaption);
    row->addWidget(m_histogramModeCombo, 1);
    row->addWidget(m_exactBox);
    row->addWidget(m_scaledBox);
    layout->addLayout(row);
    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(m_stepSlider, 1);
    stepRow->addWidget(m_stepLabel);
    layout->addLayout(stepRow);
    m_histogramPlot = new AmpHistogramPlot(box);
    installFigureExport(m_histogramPlot, QStringLiteral("amp-gradient-histogram"));
    layout->addWidget(m_histogramPlot, 1);
    m_underflowLabel = new QLabel(box);
    m_underflowLabel->setObjectName(QStringLiteral("ampUnderflow"));
    m_underflowLabel->setWordWrap(true);
    m_underflowLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_underflowLabel);

    connect(m_histogramModeCombo, &QComboBox::currentIndexChanged, this, [this] {
        // Keep the step as close as the new mode's histograms allow.
        const int previousStep = m_stepLabel->property("step").toInt();
        const AmpResult* run = m_results ? m_results->find(histogramMode()) : nullptr;
        if (run != nullptr && !run->histograms.empty()) {
            int best = 0;
            for (int i = 0; i < static_cast<int>(run->histograms.size()); ++i)
                if (std::abs(run->histograms[static_cast<std::size_t>(i)].step - previousStep) <
                    std::abs(run->histograms[static_cast<std::size_t>(best)].step - previousStep))
                    best = i;
            const QSignalBlocker blocker(m_stepSlider);
            m_stepSlider->setRange(0, static_cast<int>(run->histograms.size()) - 1);
            m_stepSlider->setValue(best);
        }
        refreshHistogram();
    });
    connect(m_stepSlider, &QSlider::valueChanged, this, &AmpPanel::refreshHistogram);
    connect(m_exactBox, &QCheckBox::toggled, this, &AmpPanel::refreshHistogram);
    connect(m_scaledBox, &QCheckBox::toggled, this, &AmpPanel::refreshHistogram);
    return box;
}

void AmpPanel::arrangeFigures(bool wide)
{
    m_wide = wide;
    for (QWidget* figure : {static_cast<QWidget*>(m_lossPlot), static_cast<QWidget*>(m_scalePlot), m_histogramBox, m_tableBox})
        m_figures->removeWidget(figure);
    if (wide) {
        m_figures->addWidget(m_lossPlot, 0, 0);
        m_figures->addWidget(m_scalePlot, 0, 1);
        m_figures->addWidget(m_histogramBox, 1, 0);
        m_figures->addWidget(m_tableBox, 1, 1);
        m_figures->setColumnStretch(0, 1);
        m_figures->setColumnStretch(1, 1);
        m_figures->setRowStretch(0, 4);
        m_figures->setRowStretch(1, 5);
        m_figures->setRowStretch(2, 0);
        m_figures->setRowStretch(3, 0);
    } else {
        m_figures->addWidget(m_lossPlot, 0, 0);
        m_figures->addWidget(m_scalePlot, 1, 0);
        m_figures->addWidget(m_histogramBox, 2, 0);
        m_figures->addWidget(m_tableBox, 3, 0);
        m_figures->setColumnStretch(0, 1);
        m_figures->setColumnStretch(1, 0);
        for (int r = 0; r < 4; ++r)
            m_figures->setRowStretch(r, r == 2 ? 3 : r == 3 ? 1 : 2);
    }
}

void AmpPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const bool wide = event->size().width() >= kWideWidth;
    if (wide != m_wide)
        arrangeFigures(wide);
}

void AmpPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The figures restyle themselves; the table's mode colours follow once every child has the new
    // palette (a parent hears of the change before its children do).
    if (event->type() == QEvent::PaletteChange && m_table != nullptr)
        QMetaObject::invokeMethod(this, &AmpPanel::fillTable, Qt::QueuedConnection);
}

void AmpPanel::setRequest(const AmpRunRequest& request)
{
    for (auto& [mode, box] : m_modeBoxes)
        box->setChecked(std::find(request.modes.begin(), request.modes.end(), mode) != request.modes.end());
    m_stepsField->setValue(request.steps);
    m_seedField->setValue(static_cast<std::int64_t>(request.seed));
    m_growthField->setValue(request.growthInterval);
    m_scaleField->setRealValue(request.staticScale);
    m_requestedOrder = request.modes;
    fieldsChanged();
}

AmpRunRequest AmpPanel::request() const
{
    AmpRunRequest request;
    // The order a link gave, then any other ticked mode in the checkboxes' order.
    for (AmpMode mode : m_requestedOrder)
        for (const auto& [boxMode, box] : m_modeBoxes)
            if (boxMode == mode && box->isChecked())
                request.modes.push_back(mode);
    for (const auto& [mode, box] : m_modeBoxes)
        if (box->isChecked() && std::find(request.modes.begin(), request.modes.end(), mode) == request.modes.end())
            request.modes.push_back(mode);
    request.steps = static_cast<int>(m_stepsField->value().value_or(m_lastValid.steps));
    request.seed = static_cast<std::uint64_t>(m_seedField->value().value_or(static_cast<std::int64_t>(m_lastValid.seed)));
    request.growthInterval = static_cast<int>(m_growthField->value().value_or(m_lastValid.growthInterval));
    request.staticScale = static_cast<float>(m_scaleField->realValue().value_or(m_lastValid.staticScale));
    return request;
}

QString AmpPanel::fieldErrors() const
{
    QStringList errors;
    for (const ValidatedField* field : {m_stepsField, m_seedField, m_growthField, m_scaleField})
        if (!field->valid())
            errors << field->errorText();
    return errors.join(QLatin1Char('\n'));
}

void AmpPanel::fieldsChanged()
{
    const QString errors = fieldErrors();
    if (errors.isEmpty()) {
        m_lastValid.steps = static_cast<int>(*m_stepsField->value());
        m_lastValid.seed = static_cast<std::uint64_t>(*m_seedField->value());
        m_lastValid.growthInterval = static_cast<int>(*m_growthField->value());
        m_lastValid.staticScale = static_cast<float>(*m_scaleField->realValue());
    }
    m_runButton->setEnabled(errors.isEmpty());
    m_runButton->setToolTip(errors.isEmpty() ? tr("Train every ticked mode; a new Run replaces one in progress")
                                             : tr("Not until the marked fields are valid:\n%1").arg(errors));
    if (!errors.isEmpty()) {
        if (m_statusBeforeErrors.isNull())
            m_statusBeforeErrors = m_status->text();
        // Every marked field at once; the figures are the last run's, which said what it ran with.
        setStatus(tr("Not run while a field is marked (%1). The figures show the last run.")
                      .arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; "))),
                  true);
    } else if (!m_statusBeforeErrors.isNull()) {
        setStatus(m_statusBeforeErrors);
        m_statusBeforeErrors = QString();
    }
}

bool AmpPanel::busy() const { return m_worker->busy(); }

void AmpPanel::run()
{
    const AmpRunRequest request = this->request();
    if (const QString errors = fieldErrors(); !errors.isEmpty()) {
        setStatus(tr("Not run while a field is marked (%1).").arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; "))), true);
        return;
    }
    if (request.modes.empty()) {
        setStatus(tr("Tick at least one mode to train."), true);
        return;
    }
    m_cancelRequested = false;
    m_worker->submit([this, request](const LabWorker::Progress& progress, const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        QElapsedTimer timer;
        timer.start();
        auto set = std::make_shared<AmpRunSet>();
        set->request = request;
        const int total = request.steps * static_cast<int>(request.modes.size());
        try {
            for (std::size_t i = 0; i < request.modes.size(); ++i) {
                const int before = static_cast<int>(i) * request.steps;
                set->runs.push_back(numerics::runAmpTraining(
                    ampConfigFor(request, request.modes[i]), [&](int done, int) { progress(before + done, total); }, &cancel));
                if (set->runs.back().cancelled || cancel) {
                    set->cancelled = true;
                    break;
                }
            }
        } catch (const std::exception& error) {
            const QString message = QString::fromUtf8(error.what());
            return [this, message] { setStatus(tr("Training failed: %1").arg(message), true); };
        }
        const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
        std::shared_ptr<const AmpRunSet> done = std::move(set);
        return [this, done, seconds] {
            if (done->cancelled) {
                int completed = 0;
                for (const AmpResult& run : done->runs)
                    completed += static_cast<int>(run.steps.size());
                setStatus(tr("Cancelled after %1 of %2 steps; the figures still show the previous run.")
                              .arg(completed)
                              .arg(done->request.steps * static_cast<int>(done->request.modes.size())));
                return;
            }
            showResults(done);
            setStatus(tr("Trained %n mode(s) × %1 steps in %2 s (seed %3).", nullptr, static_cast<int>(done->runs.size()))
                          .arg(done->request.steps)
                          .arg(seconds, 0, 'f', 2)
                          .arg(done->request.seed));
        };
    });
    m_progress->setRange(0, request.steps * static_cast<int>(request.modes.size()));
    m_progress->setValue(0);
    setRunning(true);
    setStatus(tr("Training %n mode(s)…", nullptr, static_cast<int>(request.modes.size())));
}

void AmpPanel::cancel()
{
    if (!m_worker->busy())
        return;
    m_cancelRequested = true;
    setStatus(tr("Cancelling…"));
    m_worker->cancel();
}

void AmpPanel::setRunning(bool running)
{
    m_lossPlot->setRunning(running);
    m_scalePlot->setRunning(running);
    m_cancelButton->setEnabled(running);
    m_progress->setVisible(running);
    if (!running && m_cancelRequested && m_status->text() == tr("Cancelling…"))
        setStatus(tr("Cancelled before training started; the figures still show the previous run."));
    if (!running)
        m_cancelRequested = false;
}

void AmpPanel::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

QString AmpPanel::statusText() const { return m_status->text(); }

void AmpPanel::showResults(std::shared_ptr<const AmpRunSet> results)
{
    m_results = std::move(results);
    m_lossPlot->setRuns(m_results);
    m_scalePlot->setRuns(m_results);
    {
        const QSignalBlocker blocker(m_histogramModeCombo);
        m_histogramModeCombo->clear();
        if (m_results) {
            int preferred = 0;
            for (const AmpResult& run : m_results->runs) {
                m_histogramModeCombo->addItem(ampRunLabel(run), static_cast<int>(run.config.mode));
                // FP16 without scaling shows the underflow best; then FP16 dynamic.
                if (run.config.mode == AmpMode::FP16)
                    preferred = m_histogramModeCombo->count() - 1;
            }
            m_histogramModeCombo->setCurrentIndex(preferred);
        }
    }
    {
        const QSignalBlocker blocker(m_stepSlider);
        const AmpResult* run = m_results ? m_results->find(histogramMode()) : nullptr;
        m_stepSlider->setRange(0, run != nullptr ? std::max(0, static_cast<int>(run->histograms.size()) - 1) : 0);
        m_stepSlider->setValue(0);
    }
    m_histogramModeCombo->setEnabled(m_results != nullptr);
    m_stepSlider->setEnabled(m_results != nullptr);
    refreshHistogram();
    fillTable();
}

AmpMode AmpPanel::histogramMode() const
{
    return m_histogramModeCombo->count() > 0 ? static_cast<AmpMode>(m_histogramModeCombo->currentData().toInt()) : AmpMode::FP32;
}

int AmpPanel::histogramIndex() const { return m_stepSlider->value(); }

void AmpPanel::showHistogram(AmpMode mode, int index)
{
    const int comboIndex = m_histogramModeCombo->findData(static_cast<int>(mode));
    if (comboIndex < 0)
        return;
    m_histogramModeCombo->setCurrentIndex(comboIndex);
    m_stepSlider->setValue(index);
    refreshHistogram();
}

QString AmpPanel::underflowText() const { return m_underflowLabel->text(); }

void AmpPanel::refreshHistogram()
{
    const AmpResult* run = m_results ? m_results->find(histogramMode()) : nullptr;
    const int index = m_stepSlider->value();
    if (run == nullptr || index < 0 || index >= static_cast<int>(run->histograms.size())) {
        m_histogramPlot->setHistogram(nullptr, 0, true, true);
        m_stepLabel->clear();
        m_underflowLabel->setText(tr("After a Run: the share of gradients that underflow, step by step."));
        return;
    }
    const GradientHistogram& h = run->histograms[static_cast<std::size_t>(index)];
    m_stepLabel->setText(tr("step %1").arg(h.step));
    m_stepLabel->setProperty("step", h.step);
    m_scaledBox->setEnabled(h.scale != 1.0f);
    m_histogramPlot->setHistogram(run, index, m_exactBox->isChecked(), m_scaledBox->isChecked());

    // Of the nonzero FP32 gradients, how many lie wholly below FP16's smallest subnormal.
    std::uint64_t nonzero = 0, below = 0;
    for (int bin = 0; bin < GradientHistogram::binCount(); ++bin) {
        nonzero += h.exact[static_cast<std::size_t>(bin)];
        if (GradientHistogram::binLow(bin + 1) <= numerics::minSubnormal(Format::FP16))
            below += h.exact[static_cast<std::size_t>(bin)];
    }
    const QString belowText = nonzero > 0 ? percentText(static_cast<double>(below) / static_cast<double>(nonzero)) : QStringLiteral("0 %");
    const AmpMode mode = run->config.mode;
    QString text;
    if (mode == AmpMode::FP32) {
        text = tr("<b>FP32</b> is the reference: nothing underflows. For comparison, %1 of its nonzero gradients at step %2 "
                  "are below FP16's smallest subnormal, %3.")
                   .arg(belowText)
                   .arg(h.step)
                   .arg(powerOfTwoText(-24));
    } else {
        const Format format = numerics::ampComputeFormat(mode);
        text = tr("<b>Underflow at step %1: %2</b> of the gradient elements that are nonzero in FP32 were zero in %3 "
                  "(%4). Unscaled, %5 of them lie below %6.")
                   .arg(h.step)
                   .arg(percentText(h.underflowShare))
                   .arg(formatName(format))
                   .arg(h.scale == 1.0f ? tr("no loss scale") : tr("loss scale %1").arg(scaleText(h.scale)))
                   .arg(belowText)
                   .arg(powerOfTwoText(-24));
        if (format == Format::BF16) {
            int exponent = 0;
            std::frexp(numerics::minSubnormal(Format::BF16), &exponent);
            text += tr(" The lines mark FP16's range; BF16's smallest subnormal is %1, off this axis.").arg(powerOfTwoText(exponent - 1));
        }
    }
    if (h.zeros > 0)
        text += tr(" %n element(s) are exactly zero even in FP32 (ReLUs off for the whole batch) and are not drawn.", nullptr,
                   static_cast<int>(h.zeros));
    m_underflowLabel->setText(text);
    m_underflowLabel->setProperty("share", h.underflowShare);
}

double AmpPanel::shownUnderflowShare() const
{
    const QVariant share = m_underflowLabel->property("share");
    return share.isValid() ? share.toDouble() : std::nan("");
}

void AmpPanel::fillTable()
{
    m_table->setRowCount(0);
    if (!m_results)
        return;
    m_table->setRowCount(static_cast<int>(m_results->runs.size()));
    for (int r = 0; r < static_cast<int>(m_results->runs.size()); ++r) {
        const AmpResult& run = m_results->runs[static_cast<std::size_t>(r)];
        auto* name = cellItem(ampShortLabel(run), Qt::AlignLeft | Qt::AlignVCenter);
        name->setToolTip(ampRunLabel(run));
        name->setForeground(ampModeColor(run.config.mode, palette()));
        m_table->setItem(r, 0, name);
        const double loss = run.finalLoss();
        m_table->setItem(r, 1, cellItem(std::isfinite(loss) ? QString::number(loss, 'g', 4) : tr("NaN")));
        m_table->setItem(r, 2, cellItem(QString::number(100.0 * run.test.accuracy, 'f', 1) + QStringLiteral(" %")));
        auto* underflow = cellItem(run.config.mode == AmpMode::FP32 ? tr("—") : percentText(run.meanUnderflowShare()));
        if (run.config.mode == AmpMode::FP32)
            underflow->setToolTip(tr("FP32 is the reference the other modes' underflow is measured against"));
        m_table->setItem(r, 3, underflow);
        m_table->setItem(r, 4, cellItem(QString::number(run.skippedSteps)));
        m_table->setItem(r, 5, cellItem(QString::number(run.nonFiniteSteps)));
    }
}

} // namespace warpscope::viz
