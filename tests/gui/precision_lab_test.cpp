// The precision lab's three panels, offscreen, checked against core/numerics called independently
// here: the mixed-precision plots hold runAmpTraining's losses and scales step for step, mark exactly
// its skipped steps and draw its gradient histograms with FP16's landmarks at 2^-24, 2^-14 and 65504;
// the quantization panel's statistics are quantize()'s and its grid has the format's level count;
// the sparsity panel's bytes are fp16Storage()'s and its metadata the packed bytes. Links set the
// panels up (a bad one gives one clear message and changes nothing), Cancel stops a run, a second
// run replaces the first, and `warpscope screenshot --view amp|quant|sparsity` waits for the work.
// Runs are kept short (200 steps, a few thousand values).
#include "gui_test_support.h"
#include "links/view_link.h"
#include "numerics/amp_trainer.h"
#include "numerics/distributions.h"
#include "numerics/mlp.h"
#include "numerics/number_format.h"
#include "numerics/quant_config.h"
#include "numerics/quantizer.h"
#include "numerics/sparsity.h"
#include "common/validated_field.h"
#include "precision/amp/amp_panel.h"
#include "precision/amp/amp_plots.h"
#include "precision/quant/quant_panel.h"
#include "precision/quant/quant_plots.h"
#include "precision/sparsity/sparsity_panel.h"
#include "precision/sparsity/sparsity_pattern_view.h"
#include "util/parse.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QLabel>
#include <QSpinBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <qcustomplot.h>

#include <cmath>

using namespace warpscope;
using numerics::AmpMode;
using numerics::Format;

namespace {

constexpr int kWorkTimeoutMs = 60000;

using warpscope::gui_test::saveShot;

QVector<double> keysOf(const QCPGraph* graph)
{
    QVector<double> keys;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        keys << it->key;
    return keys;
}

QVector<double> valuesOf(const QCPGraph* graph)
{
    QVector<double> values;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        values << it->value;
    return values;
}

// The trainer's configuration written out here, not taken from the panel.
numerics::AmpConfig independentConfig(AmpMode mode, int steps, std::uint64_t seed, int growth)
{
    numerics::AmpConfig config;
    config.mode = mode;
    config.steps = steps;
    config.seed = seed;
    config.scaler.growthInterval = growth;
    return config;
}

// Every finite value of an FP8 format, counted from its bit patterns: the grid's level count.
int finiteValues(Format format)
{
    int count = 0;
    for (std::uint32_t pattern = 0; pattern < 256; ++pattern)
        if (std::isfinite(numerics::decode(format, pattern)) && !(pattern == 0x80)) // -0 is the same level as +0
            ++count;
    return count;
}

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
    }
    app::MainWindow window{{.restoreSettings = false, .pinnedLayout = true}}; // the lab in its dock, tabbed with the others
};

} // namespace

class PrecisionLabTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void linksParseIntoTheirFields()
    {
        const app::ViewLink amp =
            app::parseViewLink("warpscope:amp?modes=fp32,fp16,fp16-dynamic&steps=1000&growth=200&seed=5&scale=1024");
        QCOMPARE(amp.view, app::LinkView::Amp);
        QCOMPARE(amp.ampModes, (std::vector<std::string>{"fp32", "fp16", "fp16-dynamic"}));
        QCOMPARE(*amp.steps, 1000);
        QCOMPARE(*amp.growthInterval, 200);
        QCOMPARE(*amp.seed, std::uint64_t{5});
        QCOMPARE(*amp.staticScale, 1024.0);
        const app::ViewLink quant = app::parseViewLink(
            "warpscope:quant?dist=mlp-activations&format=fp8e4m3&scheme=symmetric&granularity=group:16&calib=percentile:99.9&layer=2");
        QCOMPARE(quant.view, app::LinkView::Quant);
        QCOMPARE(*quant.quantSource, std::string("mlp-activations"));
        QCOMPARE(*quant.quantFormat, std::string("fp8e4m3"));
        QCOMPARE(*quant.quantGranularity, std::string("group:16"));
        QCOMPARE(*quant.quantCalibrator, std::string("percentile:99.9"));
        QCOMPARE(*quant.layer, 2);
        QVERIFY(!quant.count && !quant.seed);
        const app::ViewLink sparsity = app::parseViewLink("warpscope:sparsity?layer=1");
        QCOMPARE(sparsity.view, app::LinkView::Sparsity);
        QCOMPARE(*sparsity.layer, 1);
        QVERIFY(!app::parseViewLink("warpscope:sparsity").layer);
    }

    void ampLinkTrainsAndThePlotsHoldTheTrainersNumbers()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::AmpPanel* panel = window.ampPanel();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:amp?modes=fp32,fp16,fp16-dynamic&steps=200&growth=5&seed=3"))));
        QCOMPARE(window.precisionLabTab(), app::PrecisionLabTab::MixedPrecision);
        QVERIFY(!panel->visibleRegion().isEmpty()); // the link brings the dock and the tab to the front
        QVERIFY(panel->busy());                      // and starts training at once
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        const auto results = panel->results();
        QVERIFY(results);
        QCOMPARE(results->runs.size(), std::size_t{3});

        const AmpMode modes[] = {AmpMode::FP32, AmpMode::FP16, AmpMode::FP16Dynamic};
        QCOMPARE(panel->lossPlot()->graphCount(), 3);
        for (AmpMode mode : modes) {
            const numerics::AmpResult expected = numerics::runAmpTraining(independentConfig(mode, 200, 3, 5));
            const QCPGraph* loss = panel->lossPlot()->graphFor(mode);
            QVERIFY(loss);
            QCOMPARE(loss->dataCount(), 200);
            const QVector<double> keys = keysOf(loss), values = valuesOf(loss);
            for (int i = 0; i < 200; ++i) {
                QCOMPARE(keys[i], static_cast<double>(i));
                QCOMPARE(values[i], static_cast<double>(expected.steps[static_cast<std::size_t>(i)].loss));
            }
            // The scale plot: only the scaling mode has a trajectory, and its marks are exactly the skipped steps.
            const QCPGraph* scale = panel->scalePlot()->scaleGraphFor(mode);
            const QCPGraph* skipped = panel->scalePlot()->skippedGraphFor(mode);
            if (mode != AmpMode::FP16Dynamic) {
                QVERIFY(!scale && !skipped);
                continue;
            }
            QVERIFY(scale && skipped);
            QVector<double> skippedSteps, scales;
            for (int i = 0; i < 200; ++i) {
                scales << expected.steps[static_cast<std::size_t>(i)].scale;
                if (expected.steps[static_cast<std::size_t>(i)].skipped)
                    skippedSteps << i;
            }
            QCOMPARE(skippedSteps.size(), expected.skippedSteps);
            QVERIFY(skippedSteps.size() >= 5); // growth 5 overflows FP16 again and again (16 times for seed 3)
            QCOMPARE(valuesOf(scale), scales);
            QCOMPARE(keysOf(skipped), skippedSteps);
            // The table: one row per mode, the trainer's own skipped count.
            QCOMPARE(panel->summaryTable()->item(2, 4)->text(), QString::number(expected.skippedSteps));
        }
        QCOMPARE(panel->summaryTable()->rowCount(), 3);

        // The histogram of FP16 without scaling at its second kept step.
        const numerics::AmpResult expected = numerics::runAmpTraining(independentConfig(AmpMode::FP16, 200, 3, 5));
        panel->showHistogram(AmpMode::FP16, 1);
        QCOMPARE(panel->histogramMode(), AmpMode::FP16);
        const numerics::GradientHistogram& ours = results->find(AmpMode::FP16)->histograms.at(1);
        const numerics::AmpStepRecord& step = expected.steps.at(static_cast<std::size_t>(ours.step));
        QCOMPARE(panel->shownUnderflowShare(), step.underflowShare);
        const QString printed = QString::number(100.0 * step.underflowShare, 'f', 2) + QStringLiteral(" %");
        QVERIFY2(panel->underflowText().contains(printed), qPrintable(panel->underflowText() + QStringLiteral(" lacks ") + printed));
        QVERIFY(panel->underflowText().contains(QStringLiteral("step %1").arg(ours.step)));
        const QVector<double> counts = valuesOf(panel->histogramPlot()->exactGraph());
        QCOMPARE(counts.size(), numerics::GradientHistogram::binCount() + 1);
        for (int bin = 0; bin < numerics::GradientHistogram::binCount(); ++bin)
            QCOMPARE(counts[bin], static_cast<double>(ours.exact[static_cast<std::size_t>(bin)]));
        QCOMPARE(keysOf(panel->histogramPlot()->exactGraph()).front(), numerics::GradientHistogram::binLow(0));
        // FP16's landmarks, by value: 2^-24, 2^-14 and 65504 (IEEE 754 binary16).
        const auto& landmarks = panel->histogramPlot()->landmarks();
        QCOMPARE(landmarks.size(), std::size_t{3});
        const double where[] = {std::ldexp(1.0, -24), std::ldexp(1.0, -14), 65504.0};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(landmarks[static_cast<std::size_t>(i)].value, where[i]);
            QCOMPARE(landmarks[static_cast<std::size_t>(i)].line->point1->coords().x(), where[i]);
            QCOMPARE(landmarks[static_cast<std::size_t>(i)].line->point2->coords().x(), where[i]);
            QVERIFY(landmarks[static_cast<std::size_t>(i)].line->visible());
        }
        // Dynamic scaling: the scaled histogram is drawn too, shifted by the step's scale.
        panel->showHistogram(AmpMode::FP16Dynamic, 0);
        QVERIFY(panel->histogramPlot()->scaledGraph()->dataCount() > 0);
        QVERIFY(panel->underflowText().contains(QStringLiteral("loss scale 2")));
        saveShot(window, QStringLiteral("precision-amp"));
    }

    void theDefaultRunShowsTheSawtoothAndSaysPyTorchsInterval()
    {
        // PyTorch's growth interval, 2000, leaves this model's scale flat for a whole 1000-step run (it
        // first overflows at 2^34, 18 doublings up); the tab defaults to 20 and says PyTorch's beside it.
        viz::AmpPanel panel;
        panel.resize(1400, 900);
        const viz::AmpRunRequest defaults = panel.request();
        QCOMPARE(defaults.growthInterval, 20);
        QCOMPARE(defaults.steps, 1000);
        QVERIFY(std::find(defaults.modes.begin(), defaults.modes.end(), AmpMode::FP16Dynamic) != defaults.modes.end());
        auto* note = panel.findChild<QLabel*>(QStringLiteral("ampGrowthNote"));
        QVERIFY(note != nullptr);
        QCOMPARE(note->text(), QStringLiteral("(PyTorch: 2000)"));
        auto* growth = panel.findChild<viz::ValidatedField*>(QStringLiteral("ampGrowth"));
        QVERIFY(growth != nullptr && growth->toolTip().contains(QStringLiteral("default 2000")));

        panel.run();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy(), 60000);
        QVERIFY(panel.results());
        const QVector<double> scale = valuesOf(panel.scalePlot()->scaleGraphFor(AmpMode::FP16Dynamic));
        QCOMPARE(scale.size(), 1000);
        // The sawtooth: the scale climbs from 2^16 to 2^34, then halves and climbs again, 24 times.
        QCOMPARE(scale.front(), 65536.0);
        QCOMPARE(*std::max_element(scale.begin(), scale.end()), std::ldexp(1.0, 35));
        int drops = 0;
        for (int s = 1; s < scale.size(); ++s)
            if (scale[s] < scale[s - 1])
                ++drops;
        QCOMPARE(drops, 24);
        QCOMPARE(panel.scalePlot()->skippedGraphFor(AmpMode::FP16Dynamic)->dataCount(), 24);
        QCOMPARE(keysOf(panel.scalePlot()->skippedGraphFor(AmpMode::FP16Dynamic)).front(), 372.0);
    }

    void cancelStopsARun()
    {
        viz::AmpPanel panel;
        panel.resize(1200, 900);
        viz::AmpRunRequest request;
        request.modes = {AmpMode::FP16Dynamic, AmpMode::BF16};
        request.steps = 60000; // about ten seconds: cancelled long before
        panel.setRequest(request);
        QSignalSpy finished(&panel, &viz::AmpPanel::runFinished);
        panel.run();
        QVERIFY(panel.busy());
        QVERIFY(panel.cancelButton()->isEnabled());
        QTest::qWait(50);
        QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy(), 5000);
        QCOMPARE(finished.count(), 1);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(panel.statusText()));
        QVERIFY(!panel.results()); // nothing half-trained is shown
        QVERIFY(!panel.cancelButton()->isEnabled());
    }

    void aSecondRunReplacesTheFirst()
    {
        viz::AmpPanel panel;
        panel.resize(1200, 900);
        viz::AmpRunRequest slow;
        slow.modes = {AmpMode::FP32, AmpMode::FP16};
        slow.steps = 60000;
        panel.setRequest(slow);
        QSignalSpy finished(&panel, &viz::AmpPanel::runFinished);
        panel.run();
        QTest::qWait(30);
        viz::AmpRunRequest quick;
        quick.modes = {AmpMode::BF16};
        quick.steps = 50;
        quick.seed = 9;
        panel.setRequest(quick);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy(), 10000);
        QCOMPARE(finished.count(), 1); // the first run's result never arrives
        QVERIFY(panel.results());
        QCOMPARE(panel.results()->request.steps, 50);
        QCOMPARE(panel.results()->runs.size(), std::size_t{1});
        QCOMPARE(panel.lossPlot()->graphCount(), 1);
        QCOMPARE(panel.lossPlot()->graphFor(AmpMode::BF16)->dataCount(), 50);
        const numerics::AmpResult expected = numerics::runAmpTraining(independentConfig(AmpMode::BF16, 50, 9, 2000));
        QCOMPARE(valuesOf(panel.lossPlot()->graphFor(AmpMode::BF16)).back(), static_cast<double>(expected.steps.back().loss));
    }

    void quantLinkStatsAreQuantizesAndTheGridHasEveryLevel()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::QuantPanel* panel = window.quantPanel();
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:quant?dist=laplace&format=int4&scheme=asymmetric&granularity=group:64&calib=percentile:99.9&n=4096&seed=7&rows=4"))));
        QCOMPARE(window.precisionLabTab(), app::PrecisionLabTab::Quantization);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        const auto result = panel->result();
        QVERIFY(result);

        const std::vector<float> values = numerics::generateValues(numerics::Distribution::Laplace, 4096, 7);
        const numerics::QuantConfig config = numerics::parseQuantConfig("int4", "asymmetric", "group:64", "percentile:99.9");
        const numerics::QuantResult expected = numerics::quantize(values, config, numerics::QuantShape{4, 1024});
        QCOMPARE(result->result.stats.sqnrDb, expected.stats.sqnrDb);
        QCOMPARE(result->result.stats.mse, expected.stats.mse);
        QCOMPARE(result->result.stats.maxAbsError, expected.stats.maxAbsError);
        QCOMPARE(result->result.stats.clipped, expected.stats.clipped);
        QCOMPARE(result->result.slices.size(), expected.slices.size()); // 4 rows x 1024 / 64 = 64 groups
        QCOMPARE(expected.slices.size(), std::size_t{64});
        const numerics::QuantParams& first = expected.slices.front().params;
        QCOMPARE(panel->statText(QStringLiteral("sqnr")), QString::number(expected.stats.sqnrDb, 'g', 6) + QStringLiteral(" dB"));
        QCOMPARE(panel->statText(QStringLiteral("mse")), QString::number(expected.stats.mse, 'g', 6));
        QCOMPARE(panel->statText(QStringLiteral("max_error")), QString::number(expected.stats.maxAbsError, 'g', 6));
        QCOMPARE(panel->statText(QStringLiteral("scale")), QString::number(first.scale, 'g', 6));
        QCOMPARE(panel->statText(QStringLiteral("zero_point")), QString::number(first.zeroPoint));
        QCOMPARE(panel->statText(QStringLiteral("clip")),
                 QStringLiteral("[%1, %2]").arg(QString::number(first.clipLow, 'g', 6), QString::number(first.clipHigh, 'g', 6)));
        QCOMPARE(panel->statText(QStringLiteral("slices")), QStringLiteral("64"));
        // Asymmetric INT4: 2^4 = 16 levels, each drawn, between the clip lines.
        const QCPGraph* grid = panel->valuePlot()->gridGraph();
        QCOMPARE(grid->dataCount(), 16);
        QCOMPARE(keysOf(grid).front(), static_cast<double>(0 - first.zeroPoint) * first.scale);
        QCOMPARE(panel->valuePlot()->clipLine(false)->point1->coords().x(), keysOf(grid).front());
        QCOMPARE(panel->valuePlot()->clipLine(true)->point1->coords().x(), keysOf(grid).back());
        // The SQNR table: every format x calibrator on the same data.
        QCOMPARE(result->sqnr->size(), std::size_t{16});
        QCOMPARE(panel->sqnrPlot()->barsFor(numerics::Calibrator::Max)->dataCount(), 4);
        // The accuracy table: FP32 and the 16 methods.
        QCOMPARE(panel->accuracyTable()->rowCount(), 17);

        // Symmetric INT8: 2 x 127 + 1 = 255 levels. FP8 E4M3: every finite value, both signs, one zero.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:quant?dist=gaussian&format=int8&scheme=symmetric&granularity=tensor&calib=max&n=20000&seed=1&rows=1"))));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        QCOMPARE(panel->valuePlot()->gridGraph()->dataCount(), 255);
        const std::vector<float> gaussian = numerics::generateValues(numerics::Distribution::Gaussian, 20000, 1);
        QCOMPARE(panel->result()->result.stats.sqnrDb, numerics::quantize(gaussian, numerics::parseQuantConfig("int8", "symmetric", "tensor", "max")).stats.sqnrDb);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:quant?format=fp8e4m3&calib=mse"))));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        QCOMPARE(panel->valuePlot()->gridGraph()->dataCount(), finiteValues(Format::FP8E4M3));
        QCOMPARE(finiteValues(Format::FP8E4M3), 253); // 126 positive, 126 negative, zero (S.1111.111 is NaN)
        QCOMPARE(panel->result()->result.stats.sqnrDb,
                 numerics::quantize(gaussian, numerics::parseQuantConfig("fp8e4m3", "symmetric", "tensor", "mse")).stats.sqnrDb);
        saveShot(window, QStringLiteral("precision-quant"));

        // Log counts: outliers' clipping errors, a few values far from the spike at 0, become visible;
        // an empty bin is a gap (NaN), never a count of 0 on a log axis.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:quant?dist=outliers&format=int4&calib=mse&n=20000"))));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        QVERIFY(panel->result()->result.stats.clipped > 0);
        panel->logCountsBox()->setChecked(true);
        QCOMPARE(panel->errorPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(panel->valuePlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        const QVector<double> errorCounts = valuesOf(panel->errorPlot()->errorGraph());
        const auto& bins = panel->result()->plot.errors.counts;
        for (std::size_t k = 0; k < bins.size(); ++k)
            QVERIFY(bins[k] == 0 ? std::isnan(errorCounts[static_cast<int>(k)]) : errorCounts[static_cast<int>(k)] == static_cast<double>(bins[k]));
        saveShot(window, QStringLiteral("precision-quant-log"));
        panel->logCountsBox()->setChecked(false);
        QCOMPARE(panel->errorPlot()->yAxis->scaleType(), QCPAxis::stLinear);
    }

    void quantOfTheTrainedMlpsWeights()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::QuantPanel* panel = window.quantPanel();
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:quant?dist=mlp-weights&layer=1&format=int8&scheme=symmetric&granularity=channel&calib=max"))));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        QVERIFY(panel->result());
        const numerics::AmpResult model = numerics::runAmpTraining(numerics::AmpConfig{}); // FP32, 1000 steps, seed 1
        const numerics::MlpLayer& layer = model.weights.layers[1];
        const numerics::QuantConfig config = numerics::parseQuantConfig("int8", "symmetric", "channel", "max");
        const numerics::QuantResult expected = numerics::quantizeWeights(layer.weights, 32, 32, config);
        QCOMPARE(panel->result()->result.stats.mse, expected.stats.mse);
        QCOMPARE(panel->result()->result.slices.size(), std::size_t{32});
        // Held-out accuracy with every layer's weights quantized by INT8 per-channel max: the table's INT8 max row.
        numerics::MlpWeights quantized = model.weights;
        for (numerics::MlpLayer& each : quantized.layers)
            each.weights = numerics::quantizeWeights(each.weights, static_cast<std::size_t>(each.outputs),
                                                     static_cast<std::size_t>(each.inputs), config)
                               .dequantized;
        const double accuracy = numerics::mlpAccuracy(quantized, numerics::makeSpirals(model.config.data).test);
        QCOMPARE(panel->accuracyTable()->item(1, 0)->text(), QStringLiteral("INT8 max"));
        QCOMPARE(panel->accuracyTable()->item(1, 1)->text(), QString::number(100.0 * accuracy, 'f', 1) + QStringLiteral(" %"));
        QCOMPARE(panel->result()->ptq->rows.front().weightsAccuracy, accuracy);
    }

    void sparsityShowsTheBytesAndTheMetadata()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::SparsityPanel* panel = window.sparsityPanel();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:sparsity?layer=2"))));
        QCOMPARE(window.precisionLabTab(), app::PrecisionLabTab::Sparsity);
        QCOMPARE(panel->layer(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy(), kWorkTimeoutMs);
        QVERIFY(panel->study());

        // Trained here again from the same configuration (deterministic), pruned and counted.
        const numerics::AmpResult dense = numerics::runAmpTraining(viz::sparsityStudyConfig({}).training);
        for (int layer : {2, 1}) {
            panel->setLayer(layer);
            const numerics::MlpLayer& weights = dense.weights.layers[static_cast<std::size_t>(layer)];
            const numerics::TwoFourPattern pattern = numerics::pruneTwoFour(weights.weights, weights.outputs, weights.inputs);
            const numerics::SparseStorage bytes = numerics::fp16Storage(pattern);
            QCOMPARE(panel->layerStorage().denseBytes, bytes.denseBytes);
            QCOMPARE(panel->layerStorage().valueBytes, bytes.valueBytes);
            QCOMPARE(panel->layerStorage().metadataBytes, bytes.metadataBytes);
            QVERIFY2(panel->storageText().contains(
                         QStringLiteral("dense %1 B").arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(bytes.denseBytes))))),
                     qPrintable(panel->storageText()));
            // 32 inputs: 16 two-bit indices a row, 4 bytes; the first row's bytes as the view prints them.
            QString firstRow;
            for (int b = 0; b < 4; ++b)
                firstRow += (b ? QStringLiteral(" ") : QString()) + QStringLiteral("%1").arg(pattern.packedMetadata[static_cast<std::size_t>(b)], 2, 16, QLatin1Char('0')).toUpper();
            QCOMPARE(panel->patternView()->rowMetadataText(0), firstRow);
            QCOMPARE(panel->patternView()->pattern()->keep, pattern.keep);
            // The bars are the same numbers.
            QCOMPARE(panel->bytesPlot()->plottable(0)->interface1D()->dataMainValue(0), static_cast<double>(bytes.denseBytes));
        }
        // Layer 1 in FP16: 32 x 32 x 2 = 2048 bytes dense; 512 kept x 2 = 1024 bytes plus 512 x 2 bits = 128 bytes.
        QCOMPARE(panel->layerStorage().denseBytes, std::size_t{2048});
        QCOMPARE(panel->layerStorage().compressedBytes(), std::size_t{1152});

        // A click on a cell picks its group of four and explains its metadata.
        viz::SparsityPatternView* view = panel->patternView();
        QTest::mouseClick(view, Qt::LeftButton, {}, view->cellRect(5, 13).center());
        QVERIFY(view->selectedGroup() && *view->selectedGroup() == (viz::SparsityGroupRef{5, 3}));
        QVERIFY2(view->groupText().contains(QStringLiteral("Row 5, group 3")), qPrintable(view->groupText()));
        // Accuracy before, after pruning and after the fine-tune: the study's.
        QVERIFY(panel->accuracyText().contains(QString::number(100.0 * panel->study()->prunedTest.accuracy, 'f', 1) + QStringLiteral(" %")));
        saveShot(window, QStringLiteral("precision-sparsity"));
    }

    void badLinksGiveOneClearMessageAndChangeNothing()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::AmpPanel* amp = window.ampPanel();
        viz::QuantPanel* quant = window.quantPanel();
        const viz::AmpRunRequest ampBefore = amp->request();
        const struct {
            const char* link;
            const char* says;
        } bad[] = {
            {"warpscope:amp?modes=fp32,fp64", "modes: unknown mode 'fp64' (allowed: fp32, fp16, fp16-static, fp16-dynamic, bf16, separated by commas)"},
            {"warpscope:amp?modes=fp16,fp16", "modes: mode 'fp16' is given twice"},
            {"warpscope:amp?modes=fp16,,bf16", "modes: an empty mode"},
            {"warpscope:amp?modes=fp16-static:1024", "write the static scale as scale=1024 and the mode as fp16-static"},
            {"warpscope:amp?steps=0", "steps: 0 is out of range"},
            {"warpscope:amp?steps=100001", "steps: 100001 is out of range"},
            {"warpscope:amp?scale=0.5", "scale: 0.5 is out of range (allowed: 1 to 3e38"},
            {"warpscope:amp?growth=abc", "growth: 'abc' is not an integer"},
            {"warpscope:amp?seed=-1", "seed: -1 is out of range"},
            {"warpscope:amp?colour=red", "unknown key 'colour' for amp (allowed: modes, steps, growth, seed, scale)"},
            {"warpscope:amp?steps=10&steps=20", "'steps' is given twice"},
            {"warpscope:quant?dist=cauchy", "dist: unknown data 'cauchy' (allowed: gaussian, laplace, uniform, outliers, mlp-weights, mlp-activations)"},
            {"warpscope:quant?format=int9", "format 'int9' is not a quantization format"},
            {"warpscope:quant?format=fp8e4m3&scheme=asymmetric", "asymmetric needs an integer format"},
            {"warpscope:quant?granularity=group:0", "has a bad group size"},
            {"warpscope:quant?calib=percentile:101", "has a bad percentile"},
            {"warpscope:quant?n=5", "n: 5 is out of range"},
            {"warpscope:quant?n=1000&rows=3", "rows 3 does not divide n 1000"},
            {"warpscope:quant?layer=3", "layer: 3 is out of range"},
            {"warpscope:sparsity?layer=0", "layer 0 has 2 inputs, too few for a group of 4, and stays dense"},
            {"warpscope:sparsity?layer=3", "layer: 3 is out of range"},
            {"warpscope:sparsity?steps=10", "unknown key 'steps' for sparsity (allowed: layer)"},
        };
        for (const auto& [link, says] : bad) {
            const auto message = window.openLink(QUrl(QString::fromLatin1(link)));
            QVERIFY2(message.has_value(), link);
            QVERIFY2(message->contains(QString::fromUtf8(says)), qPrintable(*message));
            QVERIFY2(message->startsWith(QStringLiteral("link '") + QString::fromLatin1(link) + QStringLiteral("': ")), qPrintable(*message));
            QVERIFY2(!message->contains(QLatin1Char('\n')), qPrintable(*message));
            QCOMPARE(window.lastMessage(), *message);
            QVERIFY(!amp->busy() && !amp->results());
            QCOMPARE(amp->request().modes, ampBefore.modes);
            QCOMPARE(amp->request().steps, ampBefore.steps);
            QCOMPARE(quant->request().config.format, Format::INT8);
        }
        // Checks against the state a link keeps: FP8 set, then asymmetric alone.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:quant?format=fp8e5m2&n=2000"))));
        QTRY_VERIFY_WITH_TIMEOUT(!quant->busy(), kWorkTimeoutMs);
        const auto asymmetric = window.openLink(QUrl(QStringLiteral("warpscope:quant?scheme=asymmetric")));
        QVERIFY(asymmetric && asymmetric->contains(QStringLiteral("fp8e5m2 has a sign bit and no zero point")));
        QCOMPARE(quant->request().config.scheme, numerics::QuantScheme::Symmetric);
        const auto rows = window.openLink(QUrl(QStringLiteral("warpscope:quant?rows=7")));
        QVERIFY(rows && rows->contains(QStringLiteral("rows 7 does not divide n 2000")));
        // Nothing ticked and no modes= in the link: nothing to train.
        amp->setRequest({});
        const auto none = window.openLink(QUrl(QStringLiteral("warpscope:amp?steps=10")));
        QVERIFY(none && none->contains(QStringLiteral("no mode is ticked")));
        QVERIFY(!amp->busy());
        // The unknown-view message lists the new views; a good link clears the message.
        const auto unknown = window.openLink(QUrl(QStringLiteral("warpscope:amps")));
        QVERIFY(unknown && unknown->contains(QStringLiteral("amp, quant, sparsity")));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:sparsity?layer=1"))));
        QVERIFY(window.lastMessage().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), kWorkTimeoutMs);
    }

    void windowHasTheDockTabsAndShortcuts()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("PrecisionLabDock"));
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Precision Lab"));
        QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("FormatsDock"))));
        QVERIFY(window.ampPanel()->visibleRegion().isEmpty()); // the Occupancy tab is in front
        QVERIFY(!window.precisionLabBusy());                  // and nothing is computed while hidden
        const struct {
            const char* text;
            int key;
            app::PrecisionLabTab tab;
        } actions[] = {
            {"Mixed-Precision Trainer", Qt::Key_6, app::PrecisionLabTab::MixedPrecision},
            {"Quantization Lab", Qt::Key_7, app::PrecisionLabTab::Quantization},
            {"2:4 Sparsity", Qt::Key_8, app::PrecisionLabTab::Sparsity},
        };
        for (const auto& [text, key, tab] : actions) {
            QAction* action = nullptr;
            for (QAction* menu : window.menuBar()->actions())
                if (menu->menu())
                    for (QAction* item : menu->menu()->actions())
                        if (item->text().remove(QLatin1Char('&')) == QString::fromLatin1(text))
                            action = item;
            QVERIFY2(action, text);
            QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | key));
            action->trigger();
            QTest::qWait(30);
            QCOMPARE(window.precisionLabTab(), tab);
            QVERIFY(!dock->visibleRegion().isEmpty());
            // Two columns of figures at 1600 px (AmpPanel stacks them below 820 px), beside a 320 px lesson.
            QVERIFY2(dock->width() >= 830, qPrintable(QString::number(dock->width())));
        }
        // Shown, the quantization and sparsity tabs computed on their own.
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), kWorkTimeoutMs);
        QVERIFY(window.quantPanel()->result());
        QVERIFY(window.sparsityPanel()->study());

        // Reset Layout brings a floated or closed dock back among the others.
        dock->setFloating(true);
        dock->hide();
        QAction* reset = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* item : menu->menu()->actions())
                    if (item->text().remove(QLatin1Char('&')) == QStringLiteral("Reset Layout"))
                        reset = item;
        QVERIFY(reset);
        reset->trigger();
        QVERIFY(!dock->isFloating());
        QVERIFY(!dock->isHidden());
        QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("FormatsDock"))));
    }

    void figuresFollowADarkPalette()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        window.setPalette(dark);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:amp?modes=fp32,fp16,fp16-dynamic,bf16&steps=200&growth=5&seed=3"))));
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), kWorkTimeoutMs);
        viz::AmpPanel* panel = window.ampPanel();
        QCOMPARE(panel->lossPlot()->axisRect()->backgroundBrush().color(), dark.color(QPalette::Base));
        QCOMPARE(panel->lossPlot()->xAxis->tickLabelColor(), dark.color(QPalette::Text));
        // Every mode's colour stands out from the dark base (WCAG contrast ratio of at least 3 for graphics).
        auto luminance = [](const QColor& c) {
            auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
        };
        const double base = luminance(dark.color(QPalette::Base));
        for (AmpMode mode : {AmpMode::FP32, AmpMode::FP16, AmpMode::FP16Static, AmpMode::FP16Dynamic, AmpMode::BF16}) {
            const double ratio = (luminance(viz::ampModeColor(mode, panel->palette())) + 0.05) / (base + 0.05);
            QVERIFY2(ratio >= 3.0, qPrintable(QString::number(ratio)));
        }
        saveShot(window, QStringLiteral("precision-amp-dark"));
        window.focusPrecisionLab(app::PrecisionLabTab::Quantization);
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), kWorkTimeoutMs);
        QCOMPARE(window.quantPanel()->valuePlot()->axisRect()->backgroundBrush().color(), dark.color(QPalette::Base));
        saveShot(window, QStringLiteral("precision-quant-dark"));
        window.focusPrecisionLab(app::PrecisionLabTab::Sparsity);
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), kWorkTimeoutMs);
        saveShot(window, QStringLiteral("precision-sparsity-dark"));
    }

    void screenshotWaitsForTheWork()
    {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const struct {
            const char* view;
            const char* link;
        } shots[] = {
            {"amp", "warpscope:amp?modes=fp32,fp16,fp16-dynamic,bf16&steps=200&growth=5&seed=3"},
            {"quant", "warpscope:quant?dist=outliers&format=int4&calib=mse&n=20000"},
            {"sparsity", ""},
        };
        for (const auto& [view, link] : shots) {
            const QString out = dir.filePath(QString::fromLatin1(view) + QStringLiteral(".png"));
            QStringList arguments = {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--view"),
                                     QString::fromLatin1(view), QStringLiteral("--size"), QStringLiteral("1100x720")};
            if (*link)
                arguments << QStringLiteral("--link") << QString::fromLatin1(link);
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(WARPSCOPE_BINARY), arguments);
            QVERIFY(process.waitForFinished(120000));
            QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
            const QImage image(out);
            QCOMPARE(image.size(), QSize(1100, 720));
            const QString shotsFolder = qEnvironmentVariable("WARPSCOPE_GUI_TEST_SHOTS");
            if (!shotsFolder.isEmpty())
                image.save(QDir(shotsFolder).filePath(QStringLiteral("precision-screenshot-%1.png").arg(QLatin1String(view))));
        }
        // A bad link is bad input before any window opens: exit 2, one line.
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(WARPSCOPE_BINARY),
                      {QStringLiteral("screenshot"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.png")), QStringLiteral("--view"),
                       QStringLiteral("amp"), QStringLiteral("--link"), QStringLiteral("warpscope:amp?modes=fp8")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
        const QString error = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
        QVERIFY2(error.contains(QStringLiteral("unknown mode 'fp8'")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
    }
};

QTEST_MAIN(PrecisionLabTest)
#include "precision_lab_test.moc"
