// The profiler in the window, offscreen and without a GPU: the Profile menus and shortcuts, the probe's
// arguments; a probe that crashes, hangs, finds no GPU or is cancelled leaves the window working with
// the partial session and the probe's stderr; `warpscope screenshot --view profile` renders a session.
// The fixture sessions in every view, damaged files and baselines: profile_session_test.cpp.
#include "gui_test_support.h"
#include "profile_test_support.h"

#include "profile/profile_metrics_table.h"
#include "profile/profile_views.h"
#include "profile/probe_request.h"
#include "profile/profile_form.h"
#include "profile/profile_panel.h"
#include "profile/recorded_sessions.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace warpscope;
using namespace warpscope::profile_gui_test;
using app::ProfilePanel;
using viz::ProfileMetricsTable;

namespace {

bool waitUntilIdle(ProfilePanel* panel, int milliseconds = 8000)
{
    QElapsedTimer timer;
    timer.start();
    while (panel->isProfiling() && timer.elapsed() < milliseconds)
        QTest::qWait(20);
    return !panel->isProfiling();
}

using warpscope::gui_test::saveShot;

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return static_cast<int>(colours.size());
}

} // namespace

class ProfileTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void menusHaveTheProfileActionsAndShortcuts()
    {
        WindowUnderTest w;
        QMap<QString, QAction*> actions;
        for (QAction* menu : w.window->menuBar()->actions())
            if (menu->menu() != nullptr)
                for (QAction* action : menu->menu()->actions())
                    actions.insert(action->text().remove(QLatin1Char('&')), action);
        const std::pair<const char*, QKeySequence> expected[] = {
            {"Open Session...", QKeySequence::Open},
            {"Save Session As...", QKeySequence::Save},
            {"Profile Kernel", QKeySequence(Qt::CTRL | Qt::Key_R)},
            {"Cancel Profiling", QKeySequence(Qt::CTRL | Qt::Key_Period)},
            {"Set as Baseline", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)},
            {"Profiler", QKeySequence(Qt::CTRL | Qt::Key_4)},
        };
        for (const auto& [text, shortcut] : expected) {
            QAction* action = actions.value(QLatin1String(text));
            QVERIFY2(action != nullptr, text);
            QCOMPARE(action->shortcut(), shortcut);
        }
        QVERIFY(actions.contains(QStringLiteral("Open Recorded Session")));
        QVERIFY(actions.contains(QStringLiteral("Open Baseline Session...")));
        QVERIFY(actions.contains(QStringLiteral("Clear Baseline")));
        // Nothing to save, compare or cancel yet.
        QVERIFY(!actions.value(QStringLiteral("Save Session As..."))->isEnabled());
        QVERIFY(!actions.value(QStringLiteral("Set as Baseline"))->isEnabled());
        QVERIFY(!actions.value(QStringLiteral("Cancel Profiling"))->isEnabled());
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        QVERIFY(actions.value(QStringLiteral("Save Session As..."))->isEnabled());
        QVERIFY(actions.value(QStringLiteral("Set as Baseline"))->isEnabled());
    }

    void probeArgumentsFollowTheContract()
    {
        app::ProbeRequest demo;
        demo.target = QStringLiteral("reduce_sequential");
        demo.grid = QStringLiteral("64");
        demo.args = {QStringLiteral("n=i32:16384")};
        demo.runs = 5;
        QCOMPARE(app::probeArguments(demo),
                 (QStringList{"--metrics", "headline", "--runs", "5", "--grid", "64", "--arg", "n=i32:16384", "reduce_sequential"}));
        QVERIFY(!app::validateProbeRequest(demo));

        app::ProbeRequest ladder;
        ladder.kind = app::ProbeTargetKind::Ladder;
        ladder.target = QStringLiteral("reduction");
        ladder.block = QStringLiteral("128"); // each rung keeps its own launch shape
        ladder.metrics = QStringLiteral("full");
        ladder.device = 1;
        QCOMPARE(app::probeArguments(ladder), (QStringList{"--device", "1", "--metrics", "full", "ladder:reduction"}));
        QVERIFY(!app::validateProbeRequest(ladder));

        app::ProbeRequest file;
        file.kind = app::ProbeTargetKind::File;
        file.target = sessionFixture(QStringLiteral("ladder.wsprof"));
        QVERIFY(app::validateProbeRequest(file)->contains(QStringLiteral("not a .cu or .ptx")));
        file.target = QStringLiteral("/nonexistent/k.cu");
        QVERIFY(app::validateProbeRequest(file)->contains(QStringLiteral("does not exist")));
        demo.target = QStringLiteral("no_such_kernel");
        QVERIFY(app::validateProbeRequest(demo)->contains(QStringLiteral("unknown demo kernel")));
        demo.target = QStringLiteral("reduce_sequential");
        demo.args = {QStringLiteral("n=")};
        QVERIFY(app::validateProbeRequest(demo)->startsWith(QStringLiteral("Arguments:")));

        // --compute (issue 15): before --kernel, as `warpscope profile` hands it on; for a .cu file only,
        // with the command line's check and words.
        file.target = QStringLiteral("/remote/saxpy.cu");
        file.entry = QStringLiteral("saxpy");
        file.compute = QStringLiteral("compute_80");
        QCOMPARE(app::probeArguments(file),
                 (QStringList{"--metrics", "headline", "--compute", "compute_80", "--kernel", "saxpy", "/remote/saxpy.cu"}));
        file.remote = QStringLiteral("gpu-host");
        QVERIFY(!app::validateProbeRequest(file));
        const QStringList ssh = app::probeCommand(file, QStringLiteral("unused")).arguments;
        QVERIFY2(ssh.join(QLatin1Char(' ')).endsWith(QStringLiteral("'warpscope-probe' '--metrics' 'headline' '--compute' 'compute_80' '--kernel' 'saxpy' '/remote/saxpy.cu'")), qPrintable(ssh.join(QLatin1Char(' '))));
        file.compute = QStringLiteral("compute_99");
        QVERIFY2(app::validateProbeRequest(file)->startsWith(QStringLiteral("compute: unknown virtual architecture 'compute_99' (allowed: compute_75, ")),
                 qPrintable(*app::validateProbeRequest(file)));
        file.compute.clear();
        QVERIFY(!app::probeArguments(file).contains(QStringLiteral("--compute")));
        demo.args.clear();
        demo.compute = QStringLiteral("compute_80");
        QCOMPARE(*app::validateProbeRequest(demo),
                 QStringLiteral("compute is for .cu files, which NVRTC compiles; 'reduce_sequential' is not one"));
        ladder.compute = QStringLiteral("compute_80");
        QCOMPARE(*app::validateProbeRequest(ladder),
                 QStringLiteral("compute is for .cu files, which NVRTC compiles; 'ladder:reduction' is not one"));
    }

    void killedProbeLeavesTheAppWorking()
    {
        WindowUnderTest w(probeFixture(QStringLiteral("killed_mid_run.sh")));
        QVERIFY(w.panel->startProfile());
        QVERIFY(w.panel->isProfiling());
        QVERIFY(!w.panel->profileButton()->isEnabled());
        QVERIFY(waitUntilIdle(w.panel));
        QVERIFY(w.panel->lastResult().has_value());
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::Crashed);
        const QString banner = w.panel->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("crashed")), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("replay pass 3 of 10 for fixture_naive")), qPrintable(banner)); // stderr's tail
        // The partial session: the kernel and its Activity timings, with the missing end reported.
        QCOMPARE(w.panel->views()->metricsTable()->kernels(), QStringList{QStringLiteral("fixture_naive")});
        QCOMPARE(w.panel->views()->metricsTable()->cellText(QStringLiteral("fixture_naive"),
                                                            QLatin1String(ProfileMetricsTable::kActivityDuration),
                                                            ProfileMetricsTable::ValueColumn),
                 QStringLiteral("11.0 µs"));
        QVERIFY(w.panel->problems().join('\n').contains(QStringLiteral("truncated")));
        saveShot(*w.window, QStringLiteral("probe_killed"), 200);
        QCOMPARE(w.panel->progressBar()->value(), 0);
        QCOMPARE(w.panel->progressBar()->maximum(), 1);
        QVERIFY(w.panel->profileButton()->isEnabled());
        // The partial session can be saved, and a second run starts.
        QTemporaryDir dir;
        QVERIFY(!w.panel->saveSessionAs(dir.filePath(QStringLiteral("partial.wsprof"))).has_value());
        QVERIFY(w.panel->startProfile());
        QVERIFY(waitUntilIdle(w.panel));
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::Crashed);
    }

    void faultingKernelIsReportedAndTheRestKept()
    {
        WindowUnderTest w(probeFixture(QStringLiteral("kernel_fault.sh")));
        QVERIFY(w.panel->startProfile());
        QVERIFY(waitUntilIdle(w.panel));
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::KernelFailed);
        QCOMPARE(w.panel->lastResult()->exitCode, 1);
        const QString banner = w.panel->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("fixture_tiled: CUDA_ERROR_ILLEGAL_ADDRESS while running the kernel (kernel_fault)")),
                 qPrintable(banner));
        QVERIFY(banner.contains(QStringLiteral("an out-of-bounds access"))); // stderr's tail
        QVERIFY(!w.panel->noticeText().contains(QStringLiteral("kernel_fault"))); // said once, in the banner
        QCOMPARE(w.panel->views()->metricsTable()->kernels(), (QStringList{"fixture_naive", "fixture_tiled"}));
        QVERIFY(w.panel->views()->metricsTable()
                    ->cellToolTip(QStringLiteral("fixture_tiled"), QLatin1String(ProfileMetricsTable::kNoMetrics), ProfileMetricsTable::ValueColumn)
                    .contains(QStringLiteral("CUDA_ERROR_ILLEGAL_ADDRESS")));
        QVERIFY(w.panel->problems().isEmpty());
        saveShot(*w.window, QStringLiteral("probe_kernel_fault"), 200);
    }

    void hungProbeIsStopped()
    {
        WindowUnderTest w(probeFixture(QStringLiteral("hangs.sh")));
        w.panel->setHangTimeout(600);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(w.panel->startProfile());
        QTRY_COMPARE_WITH_TIMEOUT(w.panel->progressBar()->maximum(), 10, 3000); // the progress record arrived
        QCOMPARE(w.panel->progressBar()->value(), 1);
        QVERIFY(waitUntilIdle(w.panel));
        QVERIFY(timer.elapsed() < 5000); // SIGTERM is ignored: SIGKILL after the grace period
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::Hung);
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("wrote nothing for 0.6 s")));
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("waiting for the GPU forever")));
        QCOMPARE(w.panel->progressBar()->value(), 0);
        QVERIFY(w.panel->hasSession()); // the header was read: the (empty) session stays viewable
        saveShot(*w.window, QStringLiteral("probe_hung"), 200);
    }

    void noGpuOffersTheRecordedSessions()
    {
        {
            WindowUnderTest w(probeFixture(QStringLiteral("no_gpu.sh")));
            // The menu says there are none rather than disappearing.
            QMenu* recorded = nullptr;
            for (QAction* action : w.window->menuBar()->actions())
                if (action->menu() != nullptr)
                    for (QAction* item : action->menu()->actions())
                        if (item->menu() != nullptr && item->text().contains(QStringLiteral("Recorded")))
                            recorded = item->menu();
            QVERIFY(recorded != nullptr);
            QCOMPARE(recorded->actions().size(), 1);
            QCOMPARE(recorded->actions().front()->text(), app::noRecordedSessionsText());
            QVERIFY(!recorded->actions().front()->isEnabled());

            app::ProbeRequest request;
            request.target = QStringLiteral("vector_add");
            request.block = QStringLiteral("128");
            QVERIFY(w.panel->startProfile(request));
            QVERIFY(waitUntilIdle(w.panel));
            QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::NoGpu);
            QCOMPARE(w.panel->lastResult()->exitCode, 3);
            const QString banner = w.panel->bannerText();
            QVERIFY2(banner.contains(QStringLiteral("Live profiling needs an NVIDIA GPU and its driver")), qPrintable(banner));
            QVERIFY(banner.contains(QStringLiteral("libcuda.so.1 was not found (no_driver)")));
            QVERIFY(banner.contains(app::noRecordedSessionsText()));
            QVERIFY(banner.contains(QStringLiteral("--metrics headline --block 128 vector_add"))); // the arguments it got
            saveShot(*w.window, QStringLiteral("probe_no_gpu"), 200);
        }
        {
            // With a recorded-sessions folder (a synthetic fixture, in a temporary folder) the message lists it.
            QTemporaryDir recordedDir;
            QVERIFY(QDir(recordedDir.path()).mkdir(QStringLiteral("fixture_gpu")));
            QVERIFY(QFile::copy(sessionFixture(QStringLiteral("ladder.wsprof")), recordedDir.filePath(QStringLiteral("fixture_gpu/ladder.wsprof"))));
            WindowUnderTest w(probeFixture(QStringLiteral("no_gpu.sh")), recordedDir.path());
            QCOMPARE(w.panel->recordedSessions().size(), 1);
            const QString label = w.panel->recordedSessions().front().label;
            QCOMPARE(label, QStringLiteral("Synthetic test fixture (not a measurement): the fixture ladder, 2 kernels \u00b7 "
                                           "driver 000.00 (fixture) \u00b7 CUDA 13.0 \u00b7 2026-01-02 \u00b7 fixture_gpu/ladder.wsprof"));
            QVERIFY(w.panel->startProfile());
            QVERIFY(waitUntilIdle(w.panel));
            QVERIFY(w.panel->bannerText().contains(w.panel->recordedSessions().front().origin));
            QVERIFY(w.panel->bannerText().contains(QStringLiteral("the fixture ladder, 2 kernels \u00b7 fixture_gpu/ladder.wsprof")));
            saveShot(*w.window, QStringLiteral("probe_no_gpu_recorded"), 200);
            QVERIFY(w.panel->openRecordedSession(0));
            QCOMPARE(w.panel->views()->metricsTable()->kernels().size(), 2);
            QVERIFY(w.panel->titleText().contains(QStringLiteral("recorded session")));
        }
    }

    void cancelStopsTheProbeAndKeepsItsRecords()
    {
        WindowUnderTest w(probeFixture(QStringLiteral("waits_for_cancel.sh")));
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        QVERIFY(w.panel->startProfile());
        QTRY_COMPARE_WITH_TIMEOUT(w.panel->progressBar()->value(), 3, 3000);
        QVERIFY(w.panel->cancelButton()->isEnabled());
        QVERIFY(!w.panel->openSessionFile(sessionFixture(QStringLiteral("truncated.wsprof")))); // not while it runs
        QVERIFY(!w.panel->startProfile());                                                       // one run at a time
        saveShot(*w.window, QStringLiteral("probe_running"), 200);
        QTest::mouseClick(w.panel->cancelButton(), Qt::LeftButton);
        QVERIFY(waitUntilIdle(w.panel, 3000));
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::Cancelled);
        QCOMPARE(w.panel->lastResult()->exitCode, 4);
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("Profiling cancelled")));
        // What it measured replaced the ladder, and the stream ended properly.
        QCOMPARE(w.panel->views()->metricsTable()->kernels(), QStringList{QStringLiteral("fixture_naive")});
        QVERIFY(w.panel->session().end.has_value());
        QCOMPARE(w.panel->session().end->status, std::string("cancelled"));
        QVERIFY(w.panel->problems().isEmpty());
        QCOMPARE(w.panel->progressBar()->value(), 0);
        QVERIFY(!w.panel->cancelButton()->isEnabled());
        saveShot(*w.window, QStringLiteral("probe_cancelled"), 200);
    }

    void realProbeRunsOrSaysWhyNot()
    {
#ifndef WARPSCOPE_PROBE_BINARY
        QSKIP("warpscope-probe is not built (no CUDA toolkit): the real probe is not exercised");
#else
        WindowUnderTest w(QStringLiteral(WARPSCOPE_PROBE_BINARY));
        app::ProbeRequest request;
        request.target = QStringLiteral("vector_add");
        request.args = {QStringLiteral("n=i32:4096")};
        QVERIFY(w.panel->startProfile(request));
        QVERIFY(waitUntilIdle(w.panel, 240000)); // a GPU run measures the ceilings and replays the kernel
        const app::ProbeResult& result = *w.panel->lastResult();
        saveShot(*w.window, QStringLiteral("probe_real"), 200);
        if (result.outcome == app::ProbeOutcome::NoGpu) {
            QCOMPARE(result.exitCode, 3);
            QVERIFY(w.panel->bannerText().contains(QStringLiteral("Live profiling needs an NVIDIA GPU and its driver")));
            QVERIFY(w.panel->bannerText().contains(app::noRecordedSessionsText()));
            QVERIFY(w.panel->session().end.has_value());
            QCOMPARE(w.panel->session().end->status, std::string("error"));
            qInfo("no usable GPU here: %s", qPrintable(result.summary));
            return;
        }
        QVERIFY2(result.outcome == app::ProbeOutcome::Succeeded, qPrintable(result.summary + "\n" + result.stderrTail));
        QCOMPARE(w.panel->views()->metricsTable()->kernels(), QStringList{QStringLiteral("vector_add")});
        QVERIFY(w.panel->problems().isEmpty());
        QVERIFY(w.panel->session().checkFor("vector_add") != nullptr);
        QVERIFY(w.panel->session().checkFor("vector_add")->matches);
#endif
    }

    void missingProbeSaysWhereItLooked()
    {
        WindowUnderTest w(QStringLiteral("/nonexistent/warpscope-probe"));
        QVERIFY(!w.panel->startProfile());
        QVERIFY(!w.panel->isProfiling());
        const QString banner = w.panel->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("warpscope-probe was not found at /nonexistent/warpscope-probe")), qPrintable(banner));
        QVERIFY(banner.contains(app::noRecordedSessionsText()));
        qunsetenv("WARPSCOPE_PROBE");
        // Next to the program (the test binary here, which has no probe beside it): says how it is built.
        QVERIFY(!w.panel->startProfile());
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("only when CMake finds the CUDA toolkit")));
    }

    void screenshotRendersTheProfileViews_data()
    {
        QTest::addColumn<QString>("tab");
        QTest::newRow("metrics") << "metrics";
        QTest::newRow("roofline") << "roofline";
        QTest::newRow("prediction") << "prediction";
    }

    void screenshotRendersTheProfileViews()
    {
        QFETCH(QString, tab);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("profile.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(WARPSCOPE_BINARY),
                      {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--view"), QStringLiteral("profile"),
                       QStringLiteral("--session"), sessionFixture(QStringLiteral("ladder.wsprof")), QStringLiteral("--baseline"),
                       sessionFixture(QStringLiteral("truncated.wsprof")), QStringLiteral("--profile-tab"), tab,
                       QStringLiteral("--size"), QStringLiteral("1400x900")});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, qPrintable(QString::fromLocal8Bit(process.readAllStandardError())));
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1400, 900));
        QVERIFY(distinctColours(image) >= 30);
    }

    void screenshotRefusesABadSessionFile()
    {
        QTemporaryDir dir;
        const QString garbage = dir.filePath(QStringLiteral("garbage.wsprof"));
        writeAll(garbage, "not a session\n");
        for (const QString& session : {garbage, dir.filePath(QStringLiteral("missing.wsprof"))}) {
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(WARPSCOPE_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--out"),
                                                             dir.filePath(QStringLiteral("x.png")), QStringLiteral("--view"),
                                                             QStringLiteral("profile"), QStringLiteral("--session"), session});
            QVERIFY(process.waitForFinished(30000));
            QCOMPARE(process.exitCode(), 2);
            const QString error = QString::fromLocal8Bit(process.readAllStandardError());
            QCOMPARE(error.count(QLatin1Char('\n')), 1);
            QVERIFY2(error.startsWith(QStringLiteral("warpscope screenshot: --session: ")), qPrintable(error));
            QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
        }
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    ProfileTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "profile_test.moc"
