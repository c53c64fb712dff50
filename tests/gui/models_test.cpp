// The Performance Models dock in the window, offscreen: each link (streams, pipeline, memory-budget,
// allreduce) sets its panel's fields and figure, checked against the engine called here on its own
// (perf::planStreams and the closed form, training::pipelineBubbleFraction, memoryBudget,
// ringContributions and ringAllReduce) and against hand-worked values; a profile link opens a
// recorded session on the named tab; bad links give one message and change nothing; the dock is
// behind the others until opened and never widens the window; `warpscope screenshot --view` renders each tab.
#include "gui_test_support.h"
#include "links/view_link.h"
#include "models/allreduce_panel.h"
#include "models/memory_budget_panel.h"
#include "models/models_dock.h"
#include "models/models_style.h"
#include "models/pipeline_panel.h"
#include "models/pipeline_schedule.h"
#include "models/graph_launch_panel.h"
#include "models/streams_panel.h"
#include "common/validated_field.h"
#include "perf/kernel_chain.h"
#include "perf/stream_overlap.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "profile/recorded_sessions.h"
#include "profile/session_file.h"
#include "training/collectives.h"
#include "training/memory_budget.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

using namespace warpscope;
using viz::ModelsTab;

namespace {

using warpscope::gui_test::saveShot;

int distinctColours(const QImage& image, const QRect& area)
{
    QSet<QRgb> colours;
    for (int y = area.top(); y <= area.bottom(); y += 2)
        for (int x = area.left(); x <= area.right(); x += 2)
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return static_cast<int>(colours.size());
}

struct ShownWindow {
    explicit ShownWindow(QSize size = {1280, 800})
    {
        window.resize(size);
        window.show();
        exposed = QTest::qWaitForWindowExposed(&window);
    }
    app::MainWindow window{{.restoreSettings = false, .progressFile = {}, .pinnedLayout = true}}; // the models in their dock
    bool exposed = false;
};

QAction* findAction(const app::MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* item : menu->menu()->actions())
                if (item->text().remove(QLatin1Char('&')) == text)
                    return item;
    return nullptr;
}

// Every panel's settings, to check that a refused link changed none of them.
struct AllSettings {
    viz::StreamsSettings streams;
    viz::PipelineSettings pipeline;
    viz::MemoryBudgetSettings budget;
    viz::AllReduceSettings ring;
    ModelsTab tab;
    bool dockShown;
    QString session;
    viz::ProfileViews::Tab profileTab;
    bool operator==(const AllSettings& other) const
    {
        auto sameBudget = [](const viz::MemoryBudgetSettings& a, const viz::MemoryBudgetSettings& b) {
            return a.parameters == b.parameters && a.precision == b.precision && a.optimizer == b.optimizer &&
                   a.zeroStage == b.zeroStage && a.dataParallel == b.dataParallel && a.shape.layers == b.shape.layers &&
                   a.shape.hidden == b.shape.hidden && a.shape.heads == b.shape.heads && a.shape.sequence == b.shape.sequence &&
                   a.shape.microBatch == b.shape.microBatch && a.shape.recompute == b.shape.recompute;
        };
        return streams == other.streams && pipeline == other.pipeline && sameBudget(budget, other.budget) &&
               ring.gpus == other.ring.gpus && ring.bufferBytes == other.ring.bufferBytes && ring.link == other.ring.link &&
               ring.step == other.ring.step && tab == other.tab && dockShown == other.dockShown && session == other.session &&
               profileTab == other.profileTab;
    }
};

AllSettings allSettings(const app::MainWindow& window)
{
    const viz::ModelsDock* dock = window.modelsDock();
    const app::ProfilePanel* profile = window.profilePanel();
    return {dock->streams()->settings(),
            dock->pipeline()->settings(),
            dock->memoryBudget()->settings(),
            dock->allReduce()->settings(),
            dock->currentTab(),
            !window.findChild<QDockWidget*>(QStringLiteral("ModelsDock"))->isHidden(),
            profile->hasSession() ? profile->titleText() : QString(),
            profile->views()->currentTab()};
}

} // namespace

class ModelsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void dockIsHiddenUntilOpenedAndKeepsTheWindowSize()
    {
        for (QSize size : {QSize(1280, 800), QSize(1600, 1000)}) {
            ShownWindow shown(size);
            app::MainWindow& window = shown.window;
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("ModelsDock"));
            QVERIFY(dock);
            QCOMPARE(dock->windowTitle(), QStringLiteral("Performance Models"));
            // Behind the Occupancy tab, as the other docks on the right, until opened.
            QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("StudyDock"))));
            QVERIFY(dock->widget()->visibleRegion().isEmpty());
            QTRY_VERIFY(!window.findChild<QDockWidget*>(QStringLiteral("OccupancyDock"))->visibleRegion().isEmpty());

            // View > Performance Models (Ctrl+Shift+P, taken by nothing else) opens it on its current tab.
            QAction* open = findAction(window, QStringLiteral("Performance Models"));
            QVERIFY(open);
            QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
            int users = 0;
            for (QAction* action : window.findChildren<QAction*>())
                users += !action->shortcut().isEmpty() && action->shortcut() == open->shortcut();
            QCOMPARE(users, 1);
            open->trigger();
            QTest::qWait(30);
            QVERIFY(!dock->isHidden());
            QVERIFY(!dock->visibleRegion().isEmpty());
            QCOMPARE(window.modelsTab(), ModelsTab::Streams);
            QVERIFY2(dock->width() >= 480, qPrintable(QString::number(dock->width())));

            // No tab widens the window: each panel scrolls inside the dock instead.
            for (ModelsTab tab : {ModelsTab::Streams, ModelsTab::Pipeline, ModelsTab::MemoryBudget, ModelsTab::AllReduce}) {
                window.focusModels(tab);
                QTest::qWait(30);
                QCOMPARE(window.modelsTab(), tab);
                // (The window's own minimum also depends on the Study dock's random quiz question.)
                QVERIFY2(dock->minimumSizeHint().width() <= 240, qPrintable(QString::number(dock->minimumSizeHint().width())));
                QVERIFY2(dock->minimumSize().width() <= 240, qPrintable(QString::number(dock->minimumSize().width())));
            }
            saveShot(window, QStringLiteral("models-allreduce-%1").arg(size.width()));

            // Reset Layout docks it back among the others.
            dock->setFloating(true);
            dock->hide();
            findAction(window, QStringLiteral("Reset Layout"))->trigger();
            QVERIFY(!dock->isFloating());
            QVERIFY(!dock->isHidden());
            QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("StudyDock"))));
        }
    }

    void streamsLinkSetsFieldsAndFigure()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::StreamsPanel* panel = window.modelsDock()->streams();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?h2d=4&kernel=6&d2h=4&chunks=4&engines=2"))));
        QCOMPARE(window.modelsTab(), ModelsTab::Streams);
        QVERIFY(!panel->visibleRegion().isEmpty());
        QCOMPARE(panel->field("h2d")->text(), QStringLiteral("4"));
        QCOMPARE(panel->field("kernel")->text(), QStringLiteral("6"));
        QCOMPARE(panel->field("d2h")->text(), QStringLiteral("4"));
        QCOMPARE(panel->field("chunks")->text(), QStringLiteral("4"));
        QCOMPARE(panel->field("engines")->text(), QStringLiteral("2"));
        // The CUDA-graph model's keys set its fields and its plan (50 kernels of 1 us, the cited overheads:
        // one by one 2.7 + 50 x (6.4 + 1) = 372.7 us; as a graph 15 + 50 x 1 + 49 x 0.58 = 93.42 us).
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?chain=50&kernel_us=1&launch_us=2.7&gap_us=6.4&graph_us=15&node_us=0.58"))));
        viz::GraphLaunchPanel* graph = panel->graphLaunch();
        QCOMPARE(graph->input().kernels, 50);
        QCOMPARE(graph->field("kernels")->text(), QStringLiteral("50"));
        QCOMPARE(graph->field("kernel")->text(), QStringLiteral("1"));
        QVERIFY(qAbs(graph->plan().streamSeconds - 372.7e-6) < 1e-12);
        QVERIFY(qAbs(graph->plan().graphSeconds - 93.42e-6) < 1e-12);
        QCOMPARE(panel->field("kernel")->text(), QStringLiteral("6")); // the streams model's kernel is untouched

        // The figure is the engine's plan: planStreams called here, the closed form, and by hand:
        // chunks of 1, 1.5 and 1 ms; the last D2H ends at 4 x 1.5 + 1 + 1 = 8 ms.
        perf::StreamOverlapInput input;
        input.hostToDeviceSeconds = 4e-3;
        input.kernelSeconds = 6e-3;
        input.deviceToHostSeconds = 4e-3;
        input.chunks = 4;
        input.copyEngines = 2;
        const perf::StreamTimeline expected = perf::planStreams(input);
        const perf::StreamTimeline& drawn = panel->timeline();
        QCOMPARE(drawn.stages.size(), expected.stages.size());
        for (std::size_t i = 0; i < drawn.stages.size(); ++i) {
            QCOMPARE(drawn.stages[i].start, expected.stages[i].start);
            QCOMPARE(drawn.stages[i].end, expected.stages[i].end);
            QCOMPARE(drawn.stages[i].engine, expected.stages[i].engine);
        }
        QCOMPARE(drawn.overlappedSeconds, expected.overlappedSeconds);
        QVERIFY(std::abs(drawn.overlappedSeconds - 8e-3) < 1e-12);
        QVERIFY(std::abs(drawn.serialSeconds - 14e-3) < 1e-12);
        QVERIFY(panel->closedFormSeconds());
        QVERIFY(std::abs(*panel->closedFormSeconds() - drawn.overlappedSeconds) < 1e-12);
        QVERIFY(std::abs(*panel->closedFormSeconds() - perf::pipelinedSeconds(4e-3, 6e-3, 4e-3, 4)) < 1e-15);
        const QString numbers = panel->numbersText();
        QVERIFY2(numbers.contains(QStringLiteral("4 + 6 + 4 = 14 ms")), qPrintable(numbers));
        QVERIFY2(numbers.contains(QStringLiteral("8 ms, a speedup of 1.75×")), qPrintable(numbers));
        QVERIFY2(numbers.contains(QStringLiteral("(4 + 6 + 4)/4 + 3 × 6/4 = 8 ms, as the plan above")), qPrintable(numbers));

        // The bars sit on the shared time axis, one row per engine: copy engine 0, copy engine 1, SMs.
        viz::StreamTimelineView* view = panel->timelineView();
        QCOMPARE(view->rowCount(), 3);
        for (std::size_t i = 0; i < drawn.stages.size(); ++i) {
            const QRectF bar = view->stageRect(i);
            QCOMPARE(bar.left(), view->timeToX(drawn.stages[i].start));
            QCOMPARE(bar.right(), view->timeToX(drawn.stages[i].end));
        }
        QVERIFY(view->stageRect(0).top() < view->stageRect(11).top()); // an H2D copy above a D2H copy
        QVERIFY(view->stageRect(11).top() < view->stageRect(4).top()); // the D2H engine above the SMs
        QCOMPARE(view->serialBarRect(perf::StreamStageKind::DeviceToHost).right(), view->timeToX(14e-3));
        const QImage image = view->grab().toImage();
        const QPoint kernelBar = view->stageRect(4).topLeft().toPoint() + QPoint(2, 3); // chunk 0's kernel, off its label
        QCOMPARE(image.pixelColor(kernelBar), viz::modelColour(viz::ModelColour::Compute, false));
        saveShot(window, QStringLiteral("models-streams"));

        // One copy engine: both directions queue on it. By hand with chunks of 2, 0.5 and 2 ms: the four
        // H2D copies end at 8, so the D2H copies run 8..16. Two engines: (8+2+8)/4 + 3 x 8/4 = 10.5 ms.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?h2d=8&kernel=2&d2h=8&engines=1"))));
        QCOMPARE(panel->settings().chunks, 4); // kept
        QCOMPARE(view->rowCount(), 2);
        QVERIFY(std::abs(panel->timeline().overlappedSeconds - 16e-3) < 1e-12);
        QVERIFY(!panel->closedFormSeconds());
        input.hostToDeviceSeconds = 8e-3;
        input.kernelSeconds = 2e-3;
        input.deviceToHostSeconds = 8e-3;
        input.copyEngines = 1;
        QCOMPARE(panel->timeline().overlappedSeconds, perf::planStreams(input).overlappedSeconds);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?engines=2"))));
        QVERIFY(std::abs(panel->timeline().overlappedSeconds - 10.5e-3) < 1e-12);
        QVERIFY(std::abs(*panel->closedFormSeconds() - panel->timeline().overlappedSeconds) < 1e-12);

        // Typing: a bad value is marked in place and the figure keeps the last valid inputs.
        panel->field("chunks")->setTextAsTyped(QStringLiteral("65"));
        QVERIFY(panel->stale());
        QVERIFY2(panel->field("chunks")->errorText().contains(QStringLiteral("1..64")), qPrintable(panel->field("chunks")->errorText()));
        QCOMPARE(panel->settings().chunks, 4);
        panel->field("chunks")->setTextAsTyped(QStringLiteral("8"));
        QVERIFY(!panel->stale());
        QCOMPARE(panel->settings().chunks, 8);
        QVERIFY(std::abs(panel->timeline().overlappedSeconds - perf::pipelinedSeconds(8e-3, 2e-3, 8e-3, 8)) < 1e-12);
    }

    void graphLaunchUnderTheStreamsFigureIsTheModel()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?h2d=4&kernel=6&d2h=4&chunks=4&engines=2"))));
        viz::GraphLaunchPanel* graph = window.modelsDock()->streams()->graphLaunch();
        QVERIFY(graph);
        // The defaults, by hand: one by one 2.7 + 6.4 + 2 + 19 x (6.4 + 2) = 170.7 us; as a graph
        // 15 + 20 x 2 + 19 x 0.58 = 66.02 us.
        QCOMPARE(graph->field("kernels")->text(), QStringLiteral("20"));
        QCOMPARE(graph->field("node")->text(), QStringLiteral("0.58"));
        QVERIFY(std::abs(graph->plan().streamSeconds - 170.7e-6) < 1e-12);
        QVERIFY(std::abs(graph->plan().graphSeconds - 66.02e-6) < 1e-12);
        const QString numbers = graph->numbersText();
        QVERIFY2(numbers.contains(QStringLiteral("One by one: 170.7 µs, the GPU busy 40 µs")), qPrintable(numbers));
        QVERIFY2(numbers.contains(QStringLiteral("As one graph: 66.02 µs")), qPrintable(numbers));
        QVERIFY2(numbers.contains(QStringLiteral("2.59× faster")), qPrintable(numbers));
        // The bars sit on the axis where the model puts them: the last graph kernel ends at 66.02 us.
        viz::GraphLaunchView* view = graph->view();
        QVERIFY(view->timeToX(66.02e-6) < view->timeToX(170.7e-6));
        QVERIFY(view->timeToX(170.7e-6) <= view->plotRight());

        // Typed: 1 ms kernels hide the launches; the model called here agrees.
        graph->field("kernel")->setTextAsTyped(QStringLiteral("1000"));
        perf::KernelChainInput input;
        input.kernelSeconds = 1e-3;
        QCOMPARE(graph->plan().streamSeconds, perf::planKernelChain(input).streamSeconds);
        QVERIFY(graph->plan().speedup() < 1.01);
        // A bad value is marked and changes nothing.
        graph->field("kernels")->setTextAsTyped(QStringLiteral("1001"));
        QVERIFY2(graph->field("kernels")->errorText().contains(QStringLiteral("1..1000")), qPrintable(graph->field("kernels")->errorText()));
        QCOMPARE(graph->input().kernels, 20);
    }

    void pipelineChartIdleShareIsTheFormula()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::PipelinePanel* panel = window.modelsDock()->pipeline();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:pipeline?stages=4&microbatches=8"))));
        QCOMPARE(window.modelsTab(), ModelsTab::Pipeline);
        QVERIFY(!panel->visibleRegion().isEmpty());
        QCOMPARE(panel->field("stages")->text(), QStringLiteral("4"));
        QCOMPARE(panel->field("microbatches")->text(), QStringLiteral("8"));
        QCOMPARE(panel->schedule().makespan, 33); // 3 (M + P - 1)
        QVERIFY(std::abs(panel->chart()->drawnIdleShare() - 3.0 / 11.0) < 1e-12);
        QVERIFY2(panel->numbersText().contains(QStringLiteral("36 of 132 stage-units = 27.27 %")), qPrintable(panel->numbersText()));
        QVERIFY2(panel->numbersText().contains(QStringLiteral("3/11 = 27.27 %")), qPrintable(panel->numbersText()));
        saveShot(window, QStringLiteral("models-pipeline"));

        const int shapes[][2] = {{1, 1}, {2, 1}, {2, 64}, {3, 5}, {8, 32}, {16, 1}, {16, 64}};
        for (const auto& [stages, microbatches] : shapes) {
            const QString link = QStringLiteral("warpscope:pipeline?stages=%1&microbatches=%2").arg(stages).arg(microbatches);
            QVERIFY2(!window.openLink(QUrl(link)), qPrintable(link));
            const double formula = training::pipelineBubbleFraction(stages, microbatches);
            QVERIFY2(std::abs(panel->measuredIdleShare() - formula) < 1e-12, qPrintable(link));
            QVERIFY2(std::abs(panel->chart()->drawnIdleShare() - formula) < 1e-9, qPrintable(link));
            QCOMPARE(panel->formulaIdleShare(), formula);
            // The shaded gaps are drawn exactly where the stages idle, inside the chart.
            for (std::size_t i = 0; i < panel->schedule().idle.size(); ++i) {
                const QRectF gap = panel->chart()->idleRect(i);
                QVERIFY(gap.left() >= panel->chart()->unitToX(0) && gap.right() <= panel->chart()->unitToX(panel->schedule().makespan));
            }
        }
        // The 16 x 64 chart fits in the tab: its height does not grow with the micro-batches.
        QVERIFY(panel->chart()->sizeHint().height() < 520);
    }

    void memoryBudgetAndAllReduceLinksReachTheirPanels()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        viz::MemoryBudgetPanel* budget = window.modelsDock()->memoryBudget();
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:memory-budget?params=7e9&precision=mixed&optimizer=adam&zero=0&gpus=1&layers=32&hidden=4096&heads=32"
            "&seq=4096&batch=1&recompute=0"))));
        QCOMPARE(window.modelsTab(), ModelsTab::MemoryBudget);
        QTRY_VERIFY(!budget->visibleRegion().isEmpty());
        const training::TransformerShape shape{32, 4096, 32, 4096, 1, false};
        training::MemoryBudget expected = training::memoryBudget(7e9, training::Precision::Mixed16, training::Optimizer::Adam, shape);
        QCOMPARE(budget->budget().modelStateBytes(), 112e9); // 16 B per parameter
        QCOMPARE(budget->budget().totalBytes(), expected.totalBytes());
        saveShot(window, QStringLiteral("models-memory-budget"));
        // A link with some keys keeps the rest: ZeRO-3 over 8 GPUs on the same model.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:memory-budget?zero=3&gpus=8"))));
        QCOMPARE(budget->settings().parameters, 7e9);
        QCOMPARE(budget->settings().shape.hidden, 4096);
        expected = training::memoryBudget(7e9, training::Precision::Mixed16, training::Optimizer::Adam, shape, {3, 8});
        QCOMPARE(budget->budget().totalBytes(), expected.totalBytes());
        QCOMPARE(budget->budget().modelStateBytes(), 14e9); // 16 B / 8
        // Serving with grouped-query attention: kv_heads=8 keeps a quarter of the KV cache,
        // 2 x 32 x 8 x 128 x 4096 x 32 x 2 bytes; a link that sets heads without kv_heads goes back to
        // one key-value head per head (2 x 32 x 32 x 128 x 4096 x 32 x 2).
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:memory-budget?precision=inference-16&zero=0&gpus=1&seq=4096&batch=32&kv_heads=8"))));
        QCOMPARE(budget->settings().kvHeads, 8);
        QCOMPARE(budget->kvCacheBytes(), 17179869184.0);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:memory-budget?heads=32"))));
        QCOMPARE(budget->settings().kvHeads, 0);
        QCOMPARE(budget->kvCacheBytes(), 68719476736.0);

        viz::AllReducePanel* ring = window.modelsDock()->allReduce();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:allreduce?gpus=4&bytes=1G&link=nvlink4&step=3"))));
        QCOMPARE(window.modelsTab(), ModelsTab::AllReduce);
        QTRY_VERIFY(!ring->visibleRegion().isEmpty()); // once the tab's layout has run
        QCOMPARE(ring->settings().gpus, 4);
        QCOMPARE(ring->settings().bufferBytes, 1073741824.0);
        QCOMPARE(ring->settings().link, std::string("nvlink4"));
        QCOMPARE(ring->settings().step, 3);
        QCOMPARE(ring->contributions(), training::ringContributions(4, 3));
        // Reduce-scatter done: each GPU holds exactly one fully summed chunk.
        for (const std::vector<int>& chunks : ring->contributions())
            QCOMPARE(static_cast<int>(std::count(chunks.begin(), chunks.end(), 4)), 1);
        QCOMPARE(ring->cost().seconds, training::ringAllReduce(4, 1073741824.0, training::findLink("nvlink4")->bytesPerSecondEachWay).seconds);
        saveShot(window, QStringLiteral("models-allreduce"));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:allreduce?step=6"))));
        QCOMPARE(ring->contributions(), training::ringContributions(4, 6));
    }

    void profileLinkOpensTheRecordedSession()
    {
        const QList<app::RecordedSession> recorded = app::listRecordedSessions();
        if (recorded.isEmpty())
            QSKIP("no recorded sessions in this build");
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        const QString name = QStringLiteral("h200/ladder-matmul.wsprof");
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:profile?session=%1&tab=roofline").arg(name))));
        app::ProfilePanel* profile = window.profilePanel();
        QVERIFY(profile->hasSession());
        const app::LoadedSession expected = app::loadSessionFile(QDir(app::recordedSessionsRoot()).filePath(name));
        QCOMPARE(profile->session().kernels.size(), expected.session.kernels.size());
        QCOMPARE(profile->session().header.createdUtc, expected.session.header.createdUtc);
        QCOMPARE(profile->views()->currentTab(), viz::ProfileViews::Tab::Roofline);
        QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("ProfileDock"))->visibleRegion().isEmpty());

        // Another session on the current tab; then only the tab.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:profile?session=h200/demo-kernels.wsprof"))));
        QCOMPARE(profile->views()->currentTab(), viz::ProfileViews::Tab::Roofline);
        QCOMPARE(profile->session().kernels.size(),
                 app::loadSessionFile(QDir(app::recordedSessionsRoot()).filePath(QStringLiteral("h200/demo-kernels.wsprof"))).session.kernels.size());
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:profile?tab=session"))));
        QCOMPARE(profile->views()->currentTab(), viz::ProfileViews::Tab::Session);

        // An unknown session names the allowed ones and changes nothing.
        const AllSettings before = allSettings(window);
        const auto error = window.openLink(QUrl(QStringLiteral("warpscope:profile?session=h200/nothing.wsprof&tab=metrics")));
        QVERIFY(error);
        QVERIFY2(error->contains(QStringLiteral("unknown recorded session 'h200/nothing.wsprof' (allowed: ")), qPrintable(*error));
        for (const app::RecordedSession& session : recorded)
            QVERIFY(error->contains(QDir(app::recordedSessionsRoot()).relativeFilePath(session.path)));
        QVERIFY(allSettings(window) == before);
    }

    void badLinksGiveOneMessageAndChangeNothing()
    {
        ShownWindow shown;
        app::MainWindow& window = shown.window;
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:streams?h2d=4&kernel=6&d2h=0&chunks=4&engines=2"))));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:allreduce?gpus=4&step=2"))));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:pipeline?stages=4&microbatches=8"))));
        const struct {
            const char* link;
            const char* says;
        } bad[] = {
            {"warpscope:streams?chunks=65", "chunks: 65 is out of range (allowed: 1..64)"},
            {"warpscope:streams?engines=3", "engines: 3 is out of range (allowed: 1..2)"},
            {"warpscope:streams?h2d=-2", "h2d: -2 is out of range"},
            {"warpscope:streams?h2d=0&kernel=0", "h2d, kernel and d2h are all 0"},  // d2h=0 is kept
            {"warpscope:streams?h2d=1&h2d=2", "'h2d' is given twice"},
            {"warpscope:pipeline?stages=17", "stages: 17 is out of range (allowed: 1..16)"},
            {"warpscope:pipeline?microbatches=0", "microbatches: 0 is out of range (allowed: 1..64)"},
            {"warpscope:pipeline?bubble=1", "unknown key 'bubble' for pipeline"},
            {"warpscope:memory-budget?precision=fp8", "precision: unknown value 'fp8'"},
            {"warpscope:memory-budget?heads=3", "heads"},                           // 3 does not divide the kept 4096
            {"warpscope:memory-budget?zero=4", "zero: 4 is out of range (allowed: 0..3)"},
            {"warpscope:allreduce?step=7", "step"},                                 // past the kept ring of 4
            {"warpscope:allreduce?link=infiniband", "unknown link 'infiniband'"},
            {"warpscope:allreduce?bytes=2T", "is not a byte count"},
            {"warpscope:profile?tab=flame", "unknown tab 'flame'"},
        };
        for (const auto& [link, says] : bad) {
            const AllSettings before = allSettings(window);
            const auto error = window.openLink(QUrl(QString::fromLatin1(link)));
            QVERIFY2(error, link);
            QVERIFY2(error->startsWith(QStringLiteral("link '%1': ").arg(QString::fromLatin1(link))), qPrintable(*error));
            QVERIFY2(error->contains(QString::fromUtf8(says)), qPrintable(*error));
            QVERIFY2(!error->contains(QLatin1Char('\n')), qPrintable(*error));
            QCOMPARE(window.lastMessage(), *error);
            QVERIFY2(allSettings(window) == before, link);
        }
        // The next good link clears the message.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:pipeline?stages=2"))));
        QVERIFY(window.lastMessage().isEmpty());
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
        window.setPalette(dark);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:pipeline?stages=4&microbatches=8"))));
        QTest::qWait(30);
        viz::PipelineChartView* chart = window.modelsDock()->pipeline()->chart();
        const QImage image = chart->grab().toImage();
        QCOMPARE(image.pixelColor(2, 2), dark.color(QPalette::Base));
        const QPoint forward = chart->opRect(0).topLeft().toPoint() + QPoint(2, 3); // off its label
        QCOMPARE(image.pixelColor(forward), viz::modelColour(viz::ModelColour::Forward, true));
        // Every kind's colour stands out from the dark base (WCAG contrast of at least 3 for graphics).
        auto luminance = [](const QColor& c) {
            auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
        };
        for (bool darkPalette : {true, false}) {
            const QColor base = darkPalette ? dark.color(QPalette::Base) : QColor(Qt::white);
            for (viz::ModelColour kind : {viz::ModelColour::Copy, viz::ModelColour::Compute, viz::ModelColour::CopyBack,
                                          viz::ModelColour::Forward, viz::ModelColour::Backward}) {
                const double a = luminance(viz::modelColour(kind, darkPalette)), b = luminance(base);
                const double ratio = (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
                QVERIFY2(ratio >= 3.0, qPrintable(QString::number(ratio)));
            }
        }
        saveShot(window, QStringLiteral("models-pipeline-dark"));
    }

    void screenshotsRenderEachTab()
    {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const struct {
            const char* view; // empty: the link's
            const char* link;
        } shots[] = {
            {"streams", ""},
            {"", "warpscope:streams?h2d=4&kernel=6&d2h=4&chunks=4&engines=2"},
            {"pipeline", "warpscope:pipeline?stages=4&microbatches=8"},
            {"memory-budget", ""},
            {"", "warpscope:memory-budget?params=7e9&zero=3&gpus=8"},
            {"allreduce", "warpscope:allreduce?gpus=4&bytes=1G&link=nvlink4&step=3"},
            {"", "warpscope:profile?session=h200/ladder-matmul.wsprof&tab=roofline"},
        };
        int index = 0;
        for (const auto& [view, link] : shots) {
            const QString out = dir.filePath(QStringLiteral("shot-%1.png").arg(index++));
            QStringList arguments = {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--size"),
                                     QStringLiteral("1280x800")};
            if (*view)
                arguments << QStringLiteral("--view") << QString::fromLatin1(view);
            if (*link)
                arguments << QStringLiteral("--link") << QString::fromLatin1(link);
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(WARPSCOPE_BINARY), arguments);
            QVERIFY(process.waitForFinished(120000));
            QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
            const QImage image(out);
            // The models dock never widens the window (the Study dock's quiz may, for a long answer).
            QCOMPARE(image.height(), 800);
            QVERIFY(image.width() >= 1280);
            // The right half holds the dock with its figure: many colours, not an empty page.
            QVERIFY2(distinctColours(image, QRect(image.width() - 580, 60, 560, 400)) >= 12, qPrintable(out));
            const QString shotsFolder = qEnvironmentVariable("WARPSCOPE_GUI_TEST_SHOTS");
            if (!shotsFolder.isEmpty())
                image.save(QDir(shotsFolder).filePath(QStringLiteral("models-screenshot-%1.png").arg(index)));
        }
        // Bad input before any window: exit 2 and one line.
        const QStringList badRuns[] = {
            {QStringLiteral("--view"), QStringLiteral("bubble")},
            {QStringLiteral("--link"), QStringLiteral("warpscope:pipeline?stages=99")},
        };
        for (const QStringList& extra : badRuns) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(WARPSCOPE_BINARY),
                          QStringList{QStringLiteral("screenshot"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.png"))} + extra);
            QVERIFY(process.waitForFinished(60000));
            QCOMPARE(process.exitCode(), 2);
            const QString error = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
            QVERIFY2(!error.isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(error));
        }
    }
};

QTEST_MAIN(ModelsTest)
#include "models_test.moc"
