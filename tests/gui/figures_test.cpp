// The canvas figures, offscreen with the software canvas: they speak the lessons' terms (masks in
// hex as 05-stepping.md's table writes them; a hovered shared-memory lane followed to its bank and
// wavefront, a hovered global lane to its sector and line, out-of-bounds lanes named), each checked
// against `warpscope step --json` run as a separate process; and an idle window paints nothing: the
// memory view's packets travel once per step and stop, also when the view is switched away, and
// the placement view plays its waves once.
#include "execution/execution_panel.h"
#include "execution/execution_scene.h"
#include "memory/memory_scene.h"
#include "placement/placement_scene.h"
#include "sim/block_recording.h"
#include "window/main_window.h"

#include "gui_test_support.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QMouseEvent>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

constexpr int kRunTimeoutMs = 120000;

nlohmann::json cliStep(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral(WARPSCOPE_BINARY), QStringList{QStringLiteral("step")} + arguments + QStringList{QStringLiteral("--json")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return nullptr;
    return nlohmann::json::parse(process.readAllStandardOutput().toStdString());
}

std::string hex(std::uint64_t value)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
    }
    app::MainWindow window{{.restoreSettings = false}};
    viz::ExecutionPanel& panel() { return *window.executionPanel(); }
};

bool openStep(ShownWindow& shown, const QString& link)
{
    QSignalSpy finished(&shown.panel(), &viz::ExecutionPanel::runFinished);
    if (shown.window.openLink(QUrl(link)))
        return false;
    if (!finished.wait(kRunTimeoutMs))
        return false;
    gui_test::settle(shown.window, 200); // the pending step is applied by the same signal, then drawn
    return finished.first().first().toBool();
}

// Counts the paint events `widget` receives.
class PaintCounter : public QObject {
public:
    explicit PaintCounter(QWidget* widget) { widget->installEventFilter(this); }
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};

// Moves the pointer over lane `lane` of the access's first row of lanes and lets the canvas draw
// until its inspector speaks of that lane (or 2 s pass), aiming again at where the row is now: a
// frame may still move it, and the OpenGL canvas paints when the event loop lets it.
QString hoverLane(ShownWindow& shown, int lane)
{
    QWidget* canvas = shown.panel().canvasWidget();
    const std::string prefix = "lane " + std::to_string(lane) + " ";
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 2000) {
        const auto& rows = shown.panel().scene()->lastAccessLaneRows();
        if (rows.empty())
            return QStringLiteral("no lane row drawn");
        const auto row = rows.front();
        const QPointF at(row.left + (lane - static_cast<int>(row.firstLane) + 0.5) * row.cell, row.top + row.cell / 2.0);
        if (!canvas->rect().contains(at.toPoint()))
            return QStringLiteral("lane row at %1,%2 is outside the canvas").arg(at.x()).arg(at.y());
        QMouseEvent move(QEvent::MouseMove, at, canvas->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &move);
        QTest::qWait(30);
        if (shown.panel().scene()->lastLaneInspection().starts_with(prefix))
            break;
    }
    return QString::fromStdString(shown.panel().scene()->lastLaneInspection());
}

} // namespace

class FiguresTest : public QObject {
    Q_OBJECT

private slots:
    // 05-stepping.md's table at divergence_odd_even's odd side (pc 20, rejoins at 40, 0xaaaaaaaa;
    // pc 21, rejoins at 40, 0x55555555; pc 40, exit, 0xffffffff) and warp 1's row: the same hex as
    // the lesson and as `warpscope step --json`.
    void masksAreInHexAsTheLessonsWriteThem()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=20")));
        const viz::ExecutionScene& scene = *shown.panel().scene();
        QCOMPARE(scene.lastStackMasks(), (std::vector<std::string>{"0xaaaaaaaa", "0x55555555", "0xffffffff"}));
        QVERIFY(scene.lastWarpMasks().size() > 1);
        QCOMPARE(scene.lastWarpMasks()[1], std::string("0xaaaaaaaa"));
        const nlohmann::json cli = cliStep({QStringLiteral("divergence_odd_even"), QStringLiteral("--warp"), QStringLiteral("1"),
                                            QStringLiteral("--at"), QStringLiteral("20")});
        QVERIFY(!cli.is_null());
        QCOMPARE(cli["path_mask"].get<std::string>(), scene.lastWarpMasks()[1]);
        std::vector<std::string> cliStack; // the CLI lists the bottom first
        for (auto entry = cli["stack"].rbegin(); entry != cli["stack"].rend(); ++entry)
            cliStack.push_back((*entry)["mask"].get<std::string>());
        QCOMPARE(cliStack, scene.lastStackMasks());
    }

    // 08-divergence.md on the branch (step 19): "The path mask is 0xffffffff, but only the even
    // lanes (0x55555555) have %p5 set and take the jump." The figure names both masks so.
    void theIssuingWarpsPathAndActiveMasksAreNamed()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=19")));
        QCOMPARE(shown.panel().scene()->lastIssueMasks(),
                 std::string("W1 issues pc 19: path mask 0xffffffff, active mask 0x55555555 (guard true: 16 lanes)"));
        const nlohmann::json cli = cliStep({QStringLiteral("divergence_odd_even"), QStringLiteral("--warp"), QStringLiteral("1"),
                                            QStringLiteral("--at"), QStringLiteral("19")});
        QVERIFY(!cli.is_null());
        QCOMPARE(cli["path_mask"].get<std::string>(), std::string("0xffffffff"));
        QCOMPARE(cli["active_mask"].get<std::string>(), std::string("0x55555555"));
        QCOMPARE(cli["pc"].get<int>(), 19);
    }

    // transpose_tiled's column read: lane k reads the float at byte 128k of the tile, all in bank 0,
    // 32 distinct words: 32 wavefronts. Lane 5 is the sixth.
    void hoveringASharedLaneFollowsItToItsBankAndWavefront()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=transpose_tiled&block=0&warp=0&at=65")));
        const nlohmann::json cli = cliStep({QStringLiteral("transpose_tiled"), QStringLiteral("--warp"), QStringLiteral("0"),
                                            QStringLiteral("--at"), QStringLiteral("65")});
        QVERIFY(!cli.is_null());
        QCOMPARE(cli["access"]["space"].get<std::string>(), std::string("shared"));
        QCOMPARE(cli["access"]["wavefronts"].get<int>(), 32);
        QCOMPARE(cli["access"]["lanes"][5]["address"].get<std::uint64_t>(), std::uint64_t{640});
        QCOMPARE(hoverLane(shown, 5), QStringLiteral("lane 5 → byte 640 (0x280) → bank 0 → wavefront 6 of 32"));
        QCOMPARE(hoverLane(shown, 31), QStringLiteral("lane 31 → byte 3968 (0xf80) → bank 0 → wavefront 32 of 32"));
        gui_test::saveShot(shown.window, QStringLiteral("figures-shared-hover"));
    }

    // hazard_out_of_bounds, block 3, warp 7: elements 992-1023 of a 1,000-float buffer, so lanes
    // 8-31 are out of bounds (the CLI's hazard names them). 32 floats from a 128-byte line: lane 8 is
    // 32 bytes in, in the second of the 4 sectors, all from DRAM on cold caches.
    void hoveringAGlobalLaneFollowsItToItsSectorAndLine()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=3&warp=7&at=12")));
        const nlohmann::json cli = cliStep({QStringLiteral("hazard_out_of_bounds"), QStringLiteral("--block-index"), QStringLiteral("3"),
                                            QStringLiteral("--warp"), QStringLiteral("7"), QStringLiteral("--at"), QStringLiteral("12")});
        QVERIFY(!cli.is_null());
        QCOMPARE(cli["access"]["served"]["dram_sectors"].get<int>(), 4);
        QCOMPARE(cli["hazard"]["lanes"].size(), std::size_t{24});
        QCOMPARE(cli["hazard"]["lanes"][0].get<int>(), 8);
        const std::uint64_t lane0 = cli["access"]["lanes"][0]["address"].get<std::uint64_t>();
        const std::uint64_t lane8 = cli["access"]["lanes"][8]["address"].get<std::uint64_t>();
        QCOMPARE(lane0 % 128, std::uint64_t{0});
        QCOMPARE(lane8, lane0 + 32);
        QCOMPARE(hoverLane(shown, 8).toStdString(), "lane 8 → " + hex(lane8) + " → sector 2 of 4 (" + hex(lane8) +
                                                        ", from DRAM) → line 1 of 1 (" + hex(lane0) +
                                                        "); out of bounds: no allocation holds these bytes");
        QCOMPARE(hoverLane(shown, 7).toStdString(), "lane 7 → " + hex(lane0 + 28) + " → sector 1 of 4 (" + hex(lane0) +
                                                        ", from DRAM) → line 1 of 1 (" + hex(lane0) + ")");
        gui_test::saveShot(shown.window, QStringLiteral("figures-global-hover"));
    }

    // The memory view on a load: its packets travel once, then nothing repaints; the next load
    // animates again, and switching to another view while it does stops the painting too.
    void memoryViewAnimatesOnceThenIdles()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:memory?kernel=copy_coalesced&warp=0&at=12")));
        viz::ExecutionPanel& panel = shown.panel();
        QWidget* canvas = panel.canvasWidget();
        PaintCounter counter(canvas);
        QVERIFY(panel.memoryScene()->animating());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.memoryScene()->animating(), 10000);
        QTest::qWait(200); // a frame already scheduled
        counter.paints = 0;
        QTest::qWait(1500);
        QCOMPARE(counter.paints, 0);

        QVERIFY(panel.step(sim::StepUnit::Memory, true));
        canvas->repaint();
        QVERIFY(panel.memoryScene()->animating());
        shown.window.showCanvasView(app::CanvasView::Hierarchy);
        QWidget* mainCanvas = shown.window.findChild<QWidget*>(QStringLiteral("canvas"));
        QVERIFY(mainCanvas);
        PaintCounter mainCounter(mainCanvas);
        QTest::qWait(300);
        counter.paints = 0;
        mainCounter.paints = 0;
        QTest::qWait(1000);
        QCOMPARE(counter.paints, 0);
        QCOMPARE(mainCounter.paints, 0); // the hierarchy, untouched

        shown.window.showCanvasView(app::CanvasView::Placement);
        QTest::qWait(500); // its overlay takes a frame or two to size the SMs below it
        mainCounter.paints = 0;
        QTest::qWait(1000);
        QCOMPARE(mainCounter.paints, 0);
    }

    // The placement view's Play walks the waves once and stops on the tail wave; then nothing paints.
    void placementPlaysTheWavesOnceThenIdles()
    {
        ShownWindow shown;
        // 1,100 blocks of 512 threads on an H100: 4 resident per SM, 528 slots a wave: 3 waves.
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:placement?grid=1100&block=512"))));
        viz::PlacementScene* scene = shown.window.placementScene();
        QCOMPARE(scene->plan().waves, 3LL);
        scene->setWave(0);
        scene->setPlaying(true);
        QWidget* canvas = shown.window.findChild<QWidget*>(QStringLiteral("canvas"));
        QVERIFY(canvas);
        canvas->update();
        QTRY_VERIFY_WITH_TIMEOUT(!scene->playing(), 10000);
        QCOMPARE(scene->wave(), 2LL);
        PaintCounter counter(canvas);
        QTest::qWait(300);
        counter.paints = 0;
        QTest::qWait(1000);
        QCOMPARE(counter.paints, 0);
    }
};

QTEST_MAIN(FiguresTest)
#include "figures_test.moc"
