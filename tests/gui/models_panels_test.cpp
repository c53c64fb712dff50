// The training models' panels draw the engine's numbers: the memory calculator's bars are
// training::memoryBudget's (with the ZeRO paper's own example), the all-reduce's cells are
// ringContributions' and a run of the schedule on real numbers, its bytes and times ringAllReduce's.
// Bad settings throw InputError naming the key and change nothing; Play reaches the end and stops.
// With WARPSCOPE_PANEL_PNG_DIR set, each panel is also rendered to a PNG at 900 x 700 for review.
#include "models/allreduce_panel.h"
#include "models/memory_budget_panel.h"
#include "common/validated_field.h"

#include "training/collectives.h"
#include "training/memory_budget.h"
#include "util/input_error.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::viz;

namespace {

double barTotal(const MemoryBudgetPanel& panel)
{
    const std::vector<double> bars = panel.barGigabytes();
    return std::accumulate(bars.begin(), bars.end(), 0.0);
}

// The value the plot itself holds for component `index` (weights .. activations) at bar key 1.
double plottedGigabytes(const MemoryBudgetPanel& panel, int index)
{
    auto* bars = qobject_cast<QCPBars*>(panel.plot()->plottable(index));
    if (bars == nullptr || bars->data()->isEmpty())
        return std::nan("");
    return bars->data()->begin()->value;
}

// Throws and leaves the settings as they were; the message names `key`.
template <typename Panel, typename Settings>
void expectRefused(Panel& panel, const Settings& bad, const char* key, const std::function<bool(const Settings&, const Settings&)>& same)
{
    const Settings before = panel.settings();
    try {
        panel.setSettings(bad);
        QFAIL(qPrintable(QStringLiteral("accepted a bad %1").arg(QLatin1String(key))));
    } catch (const InputError& error) {
        const QString message = QString::fromUtf8(error.what());
        QVERIFY2(message.startsWith(QLatin1String(key) + QStringLiteral(":")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("allowed")), qPrintable(message));
    }
    QVERIFY(same(panel.settings(), before));
}

bool sameBudget(const MemoryBudgetSettings& a, const MemoryBudgetSettings& b)
{
    return a.parameters == b.parameters && a.precision == b.precision && a.optimizer == b.optimizer && a.zeroStage == b.zeroStage &&
           a.dataParallel == b.dataParallel && a.shape.layers == b.shape.layers && a.shape.hidden == b.shape.hidden &&
           a.shape.heads == b.shape.heads && a.shape.sequence == b.shape.sequence && a.shape.microBatch == b.shape.microBatch &&
           a.shape.recompute == b.shape.recompute && a.kvHeads == b.kvHeads;
}

bool sameRing(const AllReduceSettings& a, const AllReduceSettings& b)
{
    return a.gpus == b.gpus && a.bufferBytes == b.bufferBytes && a.link == b.link && a.step == b.step;
}

void savePng(QWidget& widget, const QString& name)
{
    widget.resize(900, 700);
    widget.show();
    QCoreApplication::processEvents();
    if (auto* plot = widget.findChild<QCustomPlot*>())
        plot->replot();
    const QPixmap pixmap = widget.grab();
    QVERIFY(!pixmap.isNull());
    const QString dir = qEnvironmentVariable("WARPSCOPE_PANEL_PNG_DIR");
    if (!dir.isEmpty())
        QVERIFY(pixmap.save(QDir(dir).filePath(name)));
}

} // namespace

class ModelsPanelsTest : public QObject {
    Q_OBJECT
private slots:
    void budgetDrawsMemoryBudget();
    void budgetServingAddsTheKvCache();
    void budgetZeroStagesOfThePaper();
    void budgetRefusesBadSettings();
    void budgetFields();
    void allReduceNumbersAreRingAllReduces();
    void allReduceCellsReplayTheSchedule();
    void allReduceRefusesBadSettings();
    void allReducePlaysToTheEnd();
    void allReduceBufferField();
    void renderPanels();
};

void ModelsPanelsTest::budgetDrawsMemoryBudget()
{
    MemoryBudgetPanel panel;
    const MemoryBudgetSettings s = panel.settings();
    QCOMPARE(s.parameters, 7e9);
    const training::MemoryBudget expected =
        training::memoryBudget(7e9, training::Precision::Mixed16, training::Optimizer::Adam, {32, 4096, 32, 4096, 1, false});
    const double components[] = {expected.weightBytes, expected.gradientBytes, expected.masterBytes, expected.optimizerBytes,
                                 expected.activationBytes};
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(panel.barGigabytes()[static_cast<std::size_t>(i)], components[i] / 1e9);
        QCOMPARE(plottedGigabytes(panel, i), components[i] / 1e9);
    }
    // 16 bytes per parameter: 112 GB of model states, as the link spec's example says.
    QCOMPARE(expected.modelStateBytes(), 112e9);
    QCOMPARE(panel.barCount(), 1);
    // Table: the model-state row's bytes per parameter and the GB column.
    QCOMPARE(panel.componentTable()->item(4, 0)->text(), QStringLiteral("16"));
    QCOMPARE(panel.componentTable()->item(0, 2)->text(), QStringLiteral("2"));
    QCOMPARE(panel.componentTable()->item(4, 3)->text(), QStringLiteral("112.0"));
    // 4096 x 4096 x (34 + 5 x 32 x 4096 / 4096) = 3,254,779,904 bytes per layer, x 32 = 104.2 GB: 216 GB in all.
    QCOMPARE(expected.activationBytes, 32 * 3254779904.0);
    QVERIFY2(panel.fitText().contains(QStringLiteral("Does not fit on A100 40GB")), qPrintable(panel.fitText()));
    QVERIFY(!panel.fitText().contains(QStringLiteral("Fits on")));
}

void ModelsPanelsTest::budgetServingAddsTheKvCache()
{
    // Inference in 16 bits with the shape of Llama 2 7B (32 layers, hidden 4096, 32 heads) and 32
    // sequences of 4096 tokens: 2 x 32 x 32 x 128 x 4096 x 32 x 2 = 68,719,476,736 bytes of KV cache
    // on 14 GB of weights (the serving lesson's numbers).
    MemoryBudgetPanel panel;
    MemoryBudgetSettings s = panel.settings();
    s.precision = training::Precision::Inference16;
    s.shape = {32, 4096, 32, 4096, 32, false};
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 68719476736.0);
    QCOMPARE(panel.barGigabytes().size(), std::size_t{6});
    QCOMPARE(panel.barGigabytes()[5], 68.719476736);
    QCOMPARE(plottedGigabytes(panel, 5), 68.719476736);
    QCOMPARE(panel.totalBytes(), 14e9 + 68719476736.0);
    QCOMPARE(panel.componentTable()->item(6, 3)->text(), QStringLiteral("68.7"));
    // 82.7 GB: under the figure's 85.9 GB line for the 80 GB GPUs (their GB read as 2^30 bytes).
    QVERIFY2(panel.fitText().contains(QStringLiteral("H100 SXM (3.18 GB spare of 85.9)")), qPrintable(panel.fitText()));
    // Grouped-query attention with 8 key-value heads, each serving 4 of the 32 query heads: a quarter of
    // the cache, 2 x 32 x 8 x 128 x 4096 x 32 x 2 = 17,179,869,184 bytes; multi-query (1 head) an eighth of that.
    s.kvHeads = 8;
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 17179869184.0);
    QCOMPARE(panel.totalBytes(), 14e9 + 17179869184.0);
    s.kvHeads = 1;
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 2147483648.0);
    s.kvHeads = 32; // as many as the heads: the same as 0
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 68719476736.0);
    s.kvHeads = 0;
    // Training keeps no KV cache; neither does inference with layers = 0.
    s.shape.layers = 0;
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 0.0);
    s.shape.layers = 32;
    s.precision = training::Precision::Mixed16;
    panel.setSettings(s);
    QCOMPARE(panel.kvCacheBytes(), 0.0);
}

void ModelsPanelsTest::budgetZeroStagesOfThePaper()
{
    // Rajbhandari et al., Figure 1: 7.5B parameters, N_d = 64, K = 12: 120, 31.4, 16.6 and 1.9 GB per GPU.
    MemoryBudgetPanel panel;
    const double handWorked[] = {120, 31.40625, 16.640625, 1.875};
    const char* tableText[] = {"120.0", "31.4", "16.6", "1.88"};
    for (int stage = 0; stage <= 3; ++stage) {
        MemoryBudgetSettings s = panel.settings();
        s.parameters = 7.5e9;
        s.zeroStage = stage;
        s.dataParallel = 64;
        s.shape.layers = 0;
        panel.setSettings(s);
        const training::MemoryBudget engine =
            training::memoryBudget(7.5e9, training::Precision::Mixed16, training::Optimizer::Adam, s.shape, {stage, 64});
        QCOMPARE(barTotal(panel), engine.totalBytes() / 1e9);
        QVERIFY(std::abs(barTotal(panel) - handWorked[stage]) < 1e-9);
        QCOMPARE(panel.componentTable()->item(4, 3)->text(), QString::fromLatin1(tableText[stage]));
        QCOMPARE(panel.barCount(), 4); // GPU 0, 1, 2 and 63
        QCOMPARE(panel.budget().zero.stage, stage);
    }
    // Stage 3 over 64 GPUs: 16 / 64 = 0.25 bytes per parameter on each GPU, "÷ 64" on every row.
    QCOMPARE(panel.componentTable()->item(4, 2)->text(), QStringLiteral("0.25"));
    QCOMPARE(panel.componentTable()->item(0, 1)->text(), QStringLiteral("÷ 64"));
    // 1.875 GB fits everywhere; 120 GB (stage 0) fits only on the H200 (141 x 2^30 bytes = 151.4 GB) and
    // the B200 (180 x 2^30 = 193.3 GB).
    QVERIFY(!panel.fitText().contains(QStringLiteral("Does not fit")));
    MemoryBudgetSettings s = panel.settings();
    s.zeroStage = 0;
    panel.setSettings(s);
    QVERIFY2(panel.fitText().startsWith(QStringLiteral("Fits on H200 (31.4 GB spare of 151.4), B200 (73.3 GB spare of 193.3).")),
             qPrintable(panel.fitText()));
    QVERIFY(panel.fitText().contains(QStringLiteral("H100 SXM (34.1 GB short of 85.9)")));
}

void ModelsPanelsTest::budgetRefusesBadSettings()
{
    MemoryBudgetPanel panel;
    const std::vector<double> barsBefore = panel.barGigabytes();
    const auto refuse = [&](const char* key, const std::function<void(MemoryBudgetSettings&)>& change) {
        MemoryBudgetSettings bad = panel.settings();
        change(bad);
        expectRefused<MemoryBudgetPanel, MemoryBudgetSettings>(panel, bad, key, sameBudget);
    };
    refuse("params", [](auto& s) { s.parameters = 0; });
    refuse("params", [](auto& s) { s.parameters = 2e13; });
    refuse("params", [](auto& s) { s.parameters = std::nan(""); });
    refuse("zero", [](auto& s) { s.zeroStage = 4; });
    refuse("gpus", [](auto& s) { s.dataParallel = 0; });
    refuse("gpus", [](auto& s) { s.dataParallel = 4097; });
    refuse("layers", [](auto& s) { s.shape.layers = 1001; });
    refuse("hidden", [](auto& s) { s.shape.hidden = 0; });
    refuse("heads", [](auto& s) { s.shape.heads = 2048; });
    refuse("heads", [](auto& s) { s.shape.heads = 7; }); // 4096 % 7 != 0
    refuse("kv_heads", [](auto& s) { s.kvHeads = 3; });  // 32 % 3 != 0
    refuse("kv_heads", [](auto& s) { s.kvHeads = -1; });
    refuse("kv_heads", [](auto& s) { s.kvHeads = 1025; });
    refuse("seq", [](auto& s) { s.shape.sequence = 10000001; });
    refuse("batch", [](auto& s) { s.shape.microBatch = 65537; });
    refuse("precision", [](auto& s) { s.precision = static_cast<training::Precision>(9); });
    QCOMPARE(panel.barGigabytes(), barsBefore);
    // The edges are allowed.
    MemoryBudgetSettings edge = panel.settings();
    edge.parameters = 1e13;
    edge.dataParallel = 4096;
    edge.zeroStage = 3;
    edge.shape = {1000, 1000000, 1000, 10000000, 65536, true};
    panel.setSettings(edge);
    QCOMPARE(barTotal(panel),
             training::memoryBudget(1e13, training::Precision::Mixed16, training::Optimizer::Adam, edge.shape, {3, 4096}).totalBytes() / 1e9);
}

void ModelsPanelsTest::budgetFields()
{
    MemoryBudgetPanel panel;
    auto* heads = panel.findChild<ValidatedField*>(QStringLiteral("memoryBudgetHeads"));
    auto* params = panel.findChild<ValidatedField*>(QStringLiteral("memoryBudgetParams"));
    auto* zero = panel.findChild<QComboBox*>(QStringLiteral("memoryBudgetZero"));
    auto* gpus = panel.findChild<ValidatedField*>(QStringLiteral("memoryBudgetGpus"));
    QVERIFY(heads && params && zero && gpus);
    QCOMPARE(params->text(), QStringLiteral("7e9"));
    const MemoryBudgetSettings before = panel.settings();
    heads->setTextAsTyped(QStringLiteral("7"));
    QVERIFY(panel.stale());
    QVERIFY2(heads->errorText().contains(QStringLiteral("does not divide hidden 4096")), qPrintable(heads->errorText()));
    QVERIFY(sameBudget(panel.settings(), before));
    heads->setTextAsTyped(QStringLiteral("64"));
    QVERIFY(!panel.stale());
    QCOMPARE(panel.settings().shape.heads, 64);
    auto* kvHeads = panel.findChild<ValidatedField*>(QStringLiteral("memoryBudgetKvHeads"));
    QVERIFY(kvHeads);
    kvHeads->setTextAsTyped(QStringLiteral("5"));
    QVERIFY(panel.stale());
    QVERIFY2(kvHeads->errorText().contains(QStringLiteral("does not divide heads 64")), qPrintable(kvHeads->errorText()));
    QVERIFY(heads->errorText().isEmpty());
    kvHeads->setTextAsTyped(QStringLiteral("8"));
    QVERIFY(!panel.stale());
    QCOMPARE(panel.settings().kvHeads, 8);
    params->setTextAsTyped(QStringLiteral("1.3e11"));
    QCOMPARE(panel.settings().parameters, 1.3e11);
    params->setTextAsTyped(QStringLiteral("-5"));
    QVERIFY(panel.stale());
    QVERIFY(params->errorText().startsWith(QStringLiteral("params:")));
    params->setTextAsTyped(QStringLiteral("7.5e9"));
    gpus->setTextAsTyped(QStringLiteral("64"));
    zero->setCurrentIndex(2);
    QCOMPARE(panel.settings().zeroStage, 2);
    QCOMPARE(panel.budget().modelStateBytes(), 16.640625e9);
}

void ModelsPanelsTest::allReduceNumbersAreRingAllReduces()
{
    AllReducePanel panel;
    panel.setSettings({4, 1073741824.0, "nvlink4", 3});
    const training::RingAllReduce engine = training::ringAllReduce(4, 1073741824.0, training::findLink("nvlink4")->bytesPerSecondEachWay);
    QCOMPARE(panel.cost().chunkBytes, engine.chunkBytes);
    QCOMPARE(panel.cost().bytesSentPerGpu, engine.bytesSentPerGpu);
    QCOMPARE(panel.cost().seconds, engine.seconds);
    // 2 x 3/4 x 2^30 = 1,610,612,736 bytes; 6 x 2^28 / 450e9 = 3.579 ms.
    QCOMPARE(engine.bytesSentPerGpu, 1610612736.0);
    QVERIFY2(panel.numbersText().contains(QStringLiteral("1,610,612,736 B")), qPrintable(panel.numbersText()));
    QVERIFY2(panel.numbersText().contains(QStringLiteral("3.58 ms")), qPrintable(panel.numbersText()));
    QVERIFY(panel.numbersText().contains(QStringLiteral("256 MiB")));
    // FSDP: two all-gathers and a reduce-scatter, 3 x 3/4 x 2^30 = 2,415,919,104 bytes, 5.37 ms at 450 GB/s.
    QVERIFY2(panel.numbersText().contains(QStringLiteral("2,415,919,104 B")), qPrintable(panel.numbersText()));
    QVERIFY2(panel.numbersText().contains(QStringLiteral("5.37 ms on NVLink")), qPrintable(panel.numbersText()));
    const auto& links = training::linkFigures();
    QCOMPARE(panel.linkTable()->rowCount(), static_cast<int>(links.size()));
    for (int row = 0; row < panel.linkTable()->rowCount(); ++row) {
        const training::LinkFigure& link = links[static_cast<std::size_t>(row)];
        const double ms = training::ringAllReduce(4, 1073741824.0, link.bytesPerSecondEachWay).seconds * 1e3;
        QCOMPARE(panel.linkTable()->item(row, 2)->text(), QString::number(ms, 'g', 3) + QStringLiteral(" ms"));
        QCOMPARE(panel.linkTable()->item(row, 3)->text(), QString::fromUtf8(link.source.data(), static_cast<qsizetype>(link.source.size())));
    }
    // Another link, another time: PCIe 4.0 x16 at 32 GB/s each way, 6 x 2^28 / 32e9 = 50.3 ms.
    AllReduceSettings s = panel.settings();
    s.link = "pcie4";
    panel.setSettings(s);
    QCOMPARE(panel.cost().seconds, 6 * 268435456.0 / 32e9);
    QVERIFY(panel.numbersText().contains(QStringLiteral("50.3 ms")));
}

void ModelsPanelsTest::allReduceCellsReplayTheSchedule()
{
    AllReducePanel panel;
    for (int gpus : {2, 3, 4, 5, 16}) {
        // GPU g's buffer: N elements (one per chunk), each 1: part way through, an element is its count.
        const std::vector<std::vector<double>> ones(static_cast<std::size_t>(gpus), std::vector<double>(static_cast<std::size_t>(gpus), 1.0));
        for (int step = 0; step <= 2 * (gpus - 1); ++step) {
            panel.setSettings({gpus, 1 << 20, "nvlink3", step});
            QCOMPARE(panel.contributions(), training::ringContributions(gpus, step));
            const auto values = training::runRingAllReduce(ones, step);
            for (int g = 0; g < gpus; ++g)
                for (int c = 0; c < gpus; ++c)
                    QCOMPARE(static_cast<double>(panel.contributions()[static_cast<std::size_t>(g)][static_cast<std::size_t>(c)]),
                             values[static_cast<std::size_t>(g)][static_cast<std::size_t>(c)]);
        }
        for (const auto& gpu : panel.contributions())
            for (int count : gpu)
                QCOMPARE(count, gpus);
    }
    // Hand-worked, N = 4. Step 1 (reduce-scatter): GPU i sends chunk i. Step 4 (the first all-gather):
    // GPU i passes chunk (i + 1) mod 4, the one it summed.
    panel.setSettings({4, 1 << 20, "nvlink4", 0});
    QCOMPARE(panel.arrowLabel(0), QString());
    panel.setSettings({4, 1 << 20, "nvlink4", 1});
    QCOMPARE(panel.arrowLabel(0), QStringLiteral("chunk 0 RS"));
    QCOMPARE(panel.arrowLabel(3), QStringLiteral("chunk 3 RS"));
    panel.setSettings({4, 1 << 20, "nvlink4", 4});
    QCOMPARE(panel.arrowLabel(0), QStringLiteral("chunk 1 AG"));
    QCOMPARE(panel.arrowLabel(3), QStringLiteral("chunk 0 AG"));
    panel.setSettings({4, 1 << 20, "nvlink4", 3});
    const std::vector<std::vector<int>> afterReduceScatter = {{1, 4, 3, 2}, {2, 1, 4, 3}, {3, 2, 1, 4}, {4, 3, 2, 1}};
    QCOMPARE(panel.contributions(), afterReduceScatter);
}

void ModelsPanelsTest::allReduceRefusesBadSettings()
{
    AllReducePanel panel;
    panel.setSettings({4, 1073741824.0, "nvlink4", 3});
    const auto contributions = panel.contributions();
    const auto refuse = [&](const char* key, const AllReduceSettings& bad) {
        expectRefused<AllReducePanel, AllReduceSettings>(panel, bad, key, sameRing);
    };
    refuse("gpus", {1, 1024, "nvlink4", 0});
    refuse("gpus", {17, 1024, "nvlink4", 0});
    refuse("bytes", {4, 0, "nvlink4", 0});
    refuse("bytes", {4, 1.5, "nvlink4", 0});
    refuse("bytes", {4, 2199023255552.0, "nvlink4", 0}); // 2T
    refuse("link", {4, 1024, "nvlink9", 0});
    refuse("step", {4, 1024, "nvlink4", 7});
    refuse("step", {4, 1024, "nvlink4", -1});
    QCOMPARE(panel.contributions(), contributions);
    try {
        panel.setSettings({4, 1024, "ethernet", 0});
    } catch (const InputError& error) {
        QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("nvlink4, nvlink3, pcie5, pcie4")));
    }
    panel.setSettings({16, 1099511627776.0, "pcie5", 30}); // the edges are allowed
    QCOMPARE(panel.settings().step, 30);
}

void ModelsPanelsTest::allReducePlaysToTheEnd()
{
    AllReducePanel panel;
    panel.setSettings({4, 1 << 20, "nvlink4", 0});
    panel.setPlayIntervalMs(5);
    QSignalSpy spy(&panel, &AllReducePanel::stepChanged);
    panel.play();
    QVERIFY(panel.playing());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.playing(), 5000);
    QCOMPARE(panel.settings().step, 6);
    QCOMPARE(spy.count(), 6);
    for (int i = 0; i < spy.count(); ++i)
        QCOMPARE(spy.at(i).at(0).toInt(), i + 1);
    // At the end, Play starts again from step 0; stop() stops it where it is.
    spy.clear();
    panel.play();
    QCOMPARE(panel.settings().step, 0);
    QCOMPARE(spy.count(), 1);
    panel.stop();
    QVERIFY(!panel.playing());
    const int where = panel.settings().step;
    QTest::qWait(30);
    QCOMPARE(panel.settings().step, where);
    panel.stepForward();
    QCOMPARE(panel.settings().step, where + 1);
    panel.stepBack();
    panel.stepBack();
    QCOMPARE(panel.settings().step, std::max(0, where - 1));
}

void ModelsPanelsTest::allReduceBufferField()
{
    QCOMPARE(AllReducePanel::parseBufferBytes(QStringLiteral("1G")), 1073741824.0);
    QCOMPARE(AllReducePanel::parseBufferBytes(QStringLiteral("48k")), 49152.0);
    QCOMPARE(AllReducePanel::parseBufferBytes(QStringLiteral(" 3M ")), 3145728.0);
    QCOMPARE(AllReducePanel::parseBufferBytes(QStringLiteral("1024G")), 1099511627776.0);
    for (const char* bad : {"0", "1025G", "1.5G", "abc", "", "-4K", "1T"})
        QVERIFY_THROWS_EXCEPTION(InputError, AllReducePanel::parseBufferBytes(QString::fromLatin1(bad)));
    QCOMPARE(AllReducePanel::bufferBytesText(1073741824.0), QStringLiteral("1G"));
    QCOMPARE(AllReducePanel::bufferBytesText(1536.0), QStringLiteral("1536"));

    AllReducePanel panel;
    auto* bytes = panel.findChild<ValidatedField*>(QStringLiteral("allReduceBytes"));
    auto* gpus = panel.findChild<ValidatedField*>(QStringLiteral("allReduceGpus"));
    auto* link = panel.findChild<QComboBox*>(QStringLiteral("allReduceLink"));
    QVERIFY(bytes && gpus && link);
    QCOMPARE(bytes->text(), QStringLiteral("1G"));
    panel.setSettings({4, 1073741824.0, "nvlink4", 2});
    bytes->setTextAsTyped(QStringLiteral("64M"));
    QCOMPARE(panel.settings().bufferBytes, 67108864.0);
    QCOMPARE(panel.settings().step, 2); // a new size keeps the step
    gpus->setTextAsTyped(QStringLiteral("20"));
    QVERIFY(panel.stale());
    QCOMPARE(panel.settings().gpus, 4);
    gpus->setTextAsTyped(QStringLiteral("8"));
    QCOMPARE(panel.settings().gpus, 8);
    QCOMPARE(panel.settings().step, 0); // a new ring starts over
    QCOMPARE(panel.contributions().size(), std::size_t{8});
    link->setCurrentIndex(link->findData(QStringLiteral("pcie5")));
    QCOMPARE(panel.settings().link, std::string("pcie5"));
}

void ModelsPanelsTest::renderPanels()
{
    MemoryBudgetPanel budget;
    savePng(budget, QStringLiteral("memory_budget.png"));
    MemoryBudgetSettings zero = budget.settings();
    zero.zeroStage = 3;
    zero.dataParallel = 64;
    budget.setSettings(zero);
    savePng(budget, QStringLiteral("memory_budget_zero3.png"));
    MemoryBudgetSettings large = budget.settings(); // 70B: the capacity lines crowd at the bottom and share a label
    large.parameters = 70e9;
    large.zeroStage = 1;
    large.dataParallel = 8;
    large.precision = training::Precision::Fp32;
    budget.setSettings(large);
    savePng(budget, QStringLiteral("memory_budget_70b.png"));
    AllReducePanel ring;
    ring.setSettings({4, 1073741824.0, "nvlink4", 3});
    savePng(ring, QStringLiteral("allreduce_4.png"));
    ring.setSettings({16, 1073741824.0, "nvlink4", 20});
    savePng(ring, QStringLiteral("allreduce_16.png"));
    ring.setSettings({2, 1073741824.0, "pcie4", 1});
    savePng(ring, QStringLiteral("allreduce_2.png"));
}

QTEST_MAIN(ModelsPanelsTest)
#include "models_panels_test.moc"
