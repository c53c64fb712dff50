// How the Execution view shows scheduling beyond one warp's stack (issue 31): under independent
// thread scheduling (Warps: ITS) each lane's pc and the lanes issued next; the same spin lock under
// the reconvergence stack stopped as a livelock; a kernel that calls cooperative groups' grid.sync()
// stepped as a cooperative launch, and at the step where the recorded block waits at the grid
// barrier the page says so, with how many blocks had arrived.
#include "canvas_text.h"
#include "execution_test_support.h"
#include "gui_test_support.h"

#include "execution/execution_panel.h"
#include "execution/execution_scene.h"
#include "execution/stepper.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// A grid total with grid.sync() (tests/fixtures/kernels/grid_total.cu).
QString gridTotal()
{
    QFile file(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/kernels/grid_total.cu"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The page's text, letters and digits only, in painting order.
QString paintedLettersAndDigits(const viz::ExecutionPanel& panel)
{
    QString text;
    for (const gui_test::PaintedGlyph& glyph : gui_test::paintedGlyphs(*panel.canvas()))
        if (glyph.character.isLetterOrNumber())
            text += glyph.character;
    return text;
}

} // namespace

class ExecutionScheduleTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // warp_spin_lock: lanes of one warp take a lock in turn. Under ITS the block completes with no
    // hazard, and where warp 0's lanes are split the page lists each pc with its lanes (the masks
    // partition the warp's lanes still running) and marks those the recording issues next; switched
    // to the stack model the block is re-recorded and stops with a warp_livelock.
    void independentThreadSchedulingShowsEachLanesPc()
    {
        ShownWindow shown(QSize(1366, 768));
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("warp_spin_lock")));
        panel.setWarpModel(sim::WarpModel::IndependentThreads);
        {
            QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
            panel.run();
            QVERIFY(finished.wait(kRunTimeoutMs) && finished.first().first().toBool());
        }
        const sim::BlockRecording& recording = panel.stepper()->recording();
        QCOMPARE(recording.lanePcs.size(), recording.steps.size());
        QVERIFY(panel.stepper()->run().hazards.empty());
        // Warp 0's first step after which its lanes are in two groups or more.
        const std::vector<std::size_t>& ofWarp = recording.stepsOfWarp[0];
        std::size_t k = 0;
        while (k < ofWarp.size() && recording.lanePcs[ofWarp[k]].groups < 2)
            ++k;
        QVERIFY(k + 1 < ofWarp.size());
        panel.followWarp(0);
        panel.seekWarpStep(0, static_cast<std::uint32_t>(k + 1));
        gui_test::settle(*panel.canvasWidget(), 300);
        const sim::RecordedLanePcs& after = recording.lanePcs[ofWarp[k]];
        const std::uint32_t next = recording.lanePcs[ofWarp[k + 1]].group;
        std::uint32_t running = 0;
        for (int lane = 0; lane < 32; ++lane)
            running |= after.pc[static_cast<std::size_t>(lane)] >= 0 ? 1u << lane : 0u;
        const std::vector<std::string>& lines = panel.scene()->lastLanePcs();
        QVERIFY2(lines.size() >= 2, qPrintable(QString::number(lines.size())));
        std::uint32_t covered = 0;
        for (const std::string& line : lines) {
            int pc = -1;
            unsigned mask = 0;
            QCOMPARE(std::sscanf(line.c_str() + 1, " pc %d 0x%x", &pc, &mask), 2);
            QVERIFY((covered & mask) == 0);
            covered |= mask;
            for (int lane = 0; lane < 32; ++lane)
                if ((mask >> lane) & 1u)
                    QCOMPARE(after.pc[static_cast<std::size_t>(lane)], pc);
            QCOMPARE(line[0] == '>', (mask & next) != 0);
        }
        QCOMPARE(covered, running);
        // The stack model: re-recorded on the switch, stopped as a livelock.
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        panel.setWarpModel(sim::WarpModel::ReconvergenceStack);
        QVERIFY(finished.wait(kRunTimeoutMs) && finished.first().first().toBool());
        QVERIFY(panel.stepper()->recording().lanePcs.empty());
        const auto& hazards = panel.stepper()->run().hazards;
        QVERIFY(std::any_of(hazards.begin(), hazards.end(),
                            [](const sim::Hazard& h) { return h.kind == sim::HazardKind::WarpLivelock; }));
        gui_test::settle(*panel.canvasWidget(), 300);
        QVERIFY(panel.scene()->lastLanePcs().empty());
    }

    // A step link chooses the warp model (warp_model=its), and one without the key runs the stack
    // model whatever the combo shows, so a lesson's figure is the same for every reader.
    void stepLinksSetTheWarpModel()
    {
        ShownWindow shown(QSize(1366, 768));
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=warp_spin_lock&warp=0&at=20&warp_model=its")));
        QCOMPARE(panel.warpModel(), sim::WarpModel::IndependentThreads);
        const sim::BlockRecording& its = panel.stepper()->recording();
        QVERIFY(!its.lanePcs.empty());
        QVERIFY(panel.stepper()->run().hazards.empty());
        QCOMPARE(panel.stepper()->position(), its.stepsOfWarp[0][20]);

        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=warp_spin_lock&warp=0&at=5")));
        QCOMPARE(panel.warpModel(), sim::WarpModel::ReconvergenceStack);
        QVERIFY(panel.stepper()->recording().lanePcs.empty());
        const auto& hazards = panel.stepper()->run().hazards;
        QVERIFY(std::any_of(hazards.begin(), hazards.end(),
                            [](const sim::Hazard& h) { return h.kind == sim::HazardKind::WarpLivelock; }));
        QCOMPARE(panel.stepper()->position(), panel.stepper()->recording().stepsOfWarp[0][5]);

        const auto error = shown.window.openLink(QUrl(QStringLiteral("warpscope:step?kernel=warp_spin_lock&warp_model=simt")));
        QVERIFY(error);
        QVERIFY2(error->contains(QLatin1String("warp_model: unknown warp model 'simt' (allowed: stack")), qPrintable(*error));
        QCOMPARE(panel.warpModel(), sim::WarpModel::ReconvergenceStack);
    }

    // Blocks take turns in block order (sim/grid_barrier.h), so block 2 of 6 reaches grid.sync()
    // third: 3 of 6 blocks have arrived, and blocks 3, 4 and 5 are on their way.
    void aBlockWaitingAtTheGridBarrierSaysSo()
    {
        QTemporaryDir dir;
        ShownWindow shown(QSize(1366, 768));
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY2(runPlayground(panel, dir.filePath(QStringLiteral("grid_total.cu")), gridTotal(),
                               QStringLiteral("in=i32[1000]:iota partial=i32[6] total=i32[1] n=i32:1000"),
                               QStringLiteral("6"), QStringLiteral("64"), QStringLiteral("2")),
                 qPrintable(panel.lastError()));
        const viz::Stepper& stepper = *panel.stepper();
        const std::vector<sim::RecordedGridWait>& waits = stepper.recording().gridWaits;
        QCOMPARE(waits.size(), std::size_t{1});
        QCOMPARE(waits.front().arrived, std::uint64_t{3});
        QCOMPARE(waits.front().blocks, std::uint64_t{6});
        QCOMPARE(waits.front().notArrived, (std::vector<std::uint64_t>{3, 4, 5}));
        // Stand at the wait: the state before the step the block resumed with.
        const std::size_t position = waits.front().step;
        const std::int32_t warp = static_cast<std::int32_t>(stepper.recording().steps[position].warp);
        const std::vector<std::size_t>& ofWarp = stepper.recording().stepsOfWarp[static_cast<std::size_t>(warp)];
        const auto at = std::find(ofWarp.begin(), ofWarp.end(), position);
        QVERIFY(at != ofWarp.end());
        panel.seekWarpStep(warp, static_cast<std::uint32_t>(at - ofWarp.begin()));
        QCOMPARE(stepper.position(), position);
        gui_test::settle(*panel.canvasWidget(), 300);
        const QString text = paintedLettersAndDigits(panel);
        QVERIFY2(text.contains(QStringLiteral("Thisblockwaitshereatgridbarrier0")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("3of6blockshavearrived")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("345")), qPrintable(text));
        // One step on, it has passed the barrier: the line is gone.
        QVERIFY(panel.step(sim::StepUnit::Instruction, true));
        gui_test::settle(*panel.canvasWidget(), 300);
        QVERIFY(!paintedLettersAndDigits(panel).contains(QStringLiteral("waitshereatgridbarrier")));
    }
};

QTEST_MAIN(ExecutionScheduleTest)
#include "execution_schedule_test.moc"
