// The profiler in the window, offscreen and without a GPU: the fixture sessions fill every view with
// the values computed here by hand; damaged files show their problems and keep what was read; a
// baseline shows the change; a probe that crashes, hangs, finds no GPU or is cancelled leaves the
// window working with the partial session and the probe's stderr; `warpscope screenshot --view
// profile` renders a session.
#include "gui_test_support.h"
#include "session_fixtures.h"

#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_roofline_table.h"
#include "profile/profile_session_panel.h"
#include "profile/profile_views.h"
#include "profile/probe_request.h"
#include "profile/profile_form.h"
#include "profile/profile_panel.h"
#include "profile/recorded_sessions.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <qcustomplot.h>

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

#include <cmath>

using namespace warpscope;
using app::MainWindow;
using app::ProfilePanel;
using viz::ProfileMetricsTable;
using viz::ProfilePredictionPanel;
namespace metric = warpscope::session::metric;

namespace {

const QString kFixtures = QStringLiteral(WARPSCOPE_FIXTURES_DIR);

QString sessionFixture(const QString& name) { return kFixtures + QStringLiteral("/sessions/") + name; }
QString probeFixture(const QString& name) { return kFixtures + QStringLiteral("/probe/") + name; }

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    file.write(bytes);
}

// A fresh window with the probe named by `probe` (empty: none set) and no recorded sessions unless
// `recordedDir` says where they are.
struct WindowUnderTest {
    explicit WindowUnderTest(const QString& probe = {}, const QString& recordedDir = {})
    {
        if (probe.isEmpty())
            qunsetenv("WARPSCOPE_PROBE");
        else
            qputenv("WARPSCOPE_PROBE", probe.toLocal8Bit());
        qputenv("WARPSCOPE_RECORDED_DIR", (recordedDir.isEmpty() ? emptyDir.path() : recordedDir).toLocal8Bit());
        window = std::make_unique<MainWindow>(MainWindow::Options{.restoreSettings = false});
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
        panel->setTerminateGrace(300);
    }
    ~WindowUnderTest() { qunsetenv("WARPSCOPE_RECORDED_DIR"); }
    QTemporaryDir emptyDir;
    std::unique_ptr<MainWindow> window;
    ProfilePanel* panel = nullptr;
};

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

    void valuesAreHumanScaledWithTheirUnits()
    {
        using namespace viz::profile;
        QCOMPARE(formatMetricValue(10000, QStringLiteral("ns")), QStringLiteral("10.0 µs"));
        QCOMPARE(formatMetricValue(812, QStringLiteral("nsecond")), QStringLiteral("812 ns"));
        QCOMPARE(formatMetricValue(999.7, QStringLiteral("ns")), QStringLiteral("1.00 µs"));
        QCOMPARE(formatMetricValue(1.5e7, QStringLiteral("ns")), QStringLiteral("15.0 ms"));
        QCOMPARE(formatMetricValue(1.2e12, QStringLiteral("bytes/s")), QStringLiteral("1,200 GB/s"));
        QCOMPARE(formatMetricValue(8.12e11, QStringLiteral("byte/second")), QStringLiteral("812 GB/s"));
        QCOMPARE(formatMetricValue(3.52e7, QStringLiteral("bytes/s")), QStringLiteral("35.2 MB/s"));
        QCOMPARE(formatMetricValue(8.0e6, QStringLiteral("bytes")), QStringLiteral("8.00 MB"));
        QCOMPARE(formatMetricValue(512, QStringLiteral("bytes")), QStringLiteral("512 B"));
        QCOMPARE(formatMetricValue(87.5, QStringLiteral("%")), QStringLiteral("87.5 %"));
        QCOMPARE(formatMetricValue(262144, QStringLiteral("sectors")), QStringLiteral("262.1 K sectors"));
        QCOMPARE(formatMetricValue(1048576, QStringLiteral("sector")), QStringLiteral("1.049 M sectors"));
        QCOMPARE(formatMetricValue(9999, QStringLiteral("requests")), QStringLiteral("9,999 requests"));
        QCOMPARE(formatMetricValue(1.98e9, QStringLiteral("Hz")), QStringLiteral("1.98 GHz"));
        QCOMPARE(formatMetricValue(std::nan(""), QStringLiteral("ns")), QStringLiteral("n/a"));
        QCOMPARE(formatFlopsPerSecond(4.0e11), QStringLiteral("400 GFLOP/s"));
        QCOMPARE(formatChange(5000, 10000), QStringLiteral("\u221250.0 %"));
        QCOMPARE(formatChange(12, 10), QStringLiteral("+20.0 %"));
        QCOMPARE(formatChange(3, 0), QStringLiteral("from 0"));
        QCOMPARE(formatChange(0, 0), QStringLiteral("0 %"));
        QCOMPARE(cudaVersionText(12040), QStringLiteral("12.4"));
        QCOMPARE(agreementOf(4.0, 4.05), Agreement::Agrees);
        QCOMPARE(agreementOf(4.0, 4.3), Agreement::Close);
        QCOMPARE(agreementOf(512, 0), Agreement::Differs);
        QCOMPARE(agreementOf(0, 0), Agreement::Agrees);
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

    void fixtureFilesMatchTheirBuilders()
    {
        const std::pair<const char*, std::string> files[] = {
            {"ladder.wsprof", fixtures::ladderStream()},
            {"truncated.wsprof", fixtures::truncatedStream()},
            {"counters_not_permitted.wsprof", fixtures::countersNotPermittedStream()},
            {"probe_details.wsprof", fixtures::probeDetailsStream()},
        };
        for (const auto& [name, text] : files) {
            const QString path = sessionFixture(QLatin1String(name));
            const QByteArray expected = QByteArray::fromStdString(text);
            if (qEnvironmentVariableIsSet("WARPSCOPE_REGENERATE_FIXTURES"))
                writeAll(path, expected);
            QVERIFY2(readAll(path) == expected,
                     qPrintable(path + QStringLiteral(" differs from its builder in session_fixtures.h "
                                                      "(WARPSCOPE_REGENERATE_FIXTURES=1 rewrites it)")));
        }
    }

    void ladderSessionFillsEveryView()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        QVERIFY(w.panel->problems().isEmpty());
        viz::ProfileViews* views = w.panel->views();

        // Metrics table: both kernels; Activity median, catalogued metrics with units, an
        // uncatalogued one by its ncu name, an unavailable one, the pass count.
        ProfileMetricsTable* table = views->metricsTable();
        QCOMPARE(table->kernels(), (QStringList{"fixture_naive", "fixture_tiled"}));
        const QString naive = QStringLiteral("fixture_naive"), tiled = QStringLiteral("fixture_tiled");
        auto value = [&](const QString& kernel, const QString& key) { return table->cellText(kernel, key, ProfileMetricsTable::ValueColumn); };
        QCOMPARE(value(naive, ProfileMetricsTable::kActivityDuration), QStringLiteral("11.0 µs")); // median of 10, 12, 11 us
        QCOMPARE(value(tiled, ProfileMetricsTable::kActivityDuration), QStringLiteral("5.00 µs"));
        QCOMPARE(value(tiled, ProfileMetricsTable::kActivityStaticShared), QStringLiteral("4,224 B"));
        QCOMPARE(value(naive, metric::kDuration), QStringLiteral("10.0 µs"));
        QCOMPARE(value(naive, metric::kDramRead), QStringLiteral("8.00 MB"));
        QCOMPARE(value(naive, metric::kGlobalLoadSectors), QStringLiteral("262.1 K sectors"));
        QCOMPARE(value(naive, metric::kBranchUniformPct), QStringLiteral("87.5 %"));
        QCOMPARE(value(naive, QStringLiteral("smsp__warps_eligible.avg.per_cycle_active")), QStringLiteral("0.420 warps"));
        QCOMPARE(value(naive, QStringLiteral("l1tex__m_xbar2l1tex_read_bytes.sum")), QStringLiteral("unavailable on this GPU"));
        QCOMPARE(value(naive, ProfileMetricsTable::kReplayPasses), QStringLiteral("7 passes"));
        QCOMPARE(table->cellText(naive, metric::kDramRead, ProfileMetricsTable::TitleColumn), QStringLiteral("DRAM bytes read"));
        QCOMPARE(table->cellText(naive, metric::kDramRead, ProfileMetricsTable::NameColumn), QLatin1String(metric::kDramRead));
        QVERIFY(table->cellToolTip(naive, metric::kDramRead, ProfileMetricsTable::TitleColumn).contains(QStringLiteral("device memory")));
        QCOMPARE(table->cellToolTip(naive, metric::kDramRead, ProfileMetricsTable::ValueColumn), QStringLiteral("8,000,000 bytes"));

        // Bandwidth: DRAM = (read + write) / duration; L2 = lts bytes / duration; against 3,000 GB/s measured.
        const auto& bandwidth = views->bandwidthPanel()->model();
        QCOMPARE(bandwidth.size(), std::size_t(2));
        QCOMPARE(bandwidth[0].bars.size(), std::size_t(2));
        QCOMPARE(bandwidth[0].bars[0].achieved, 12.0e6 / 10.0e-6);  // 1.2e12 B/s
        QCOMPARE(bandwidth[0].bars[0].reference, 3000.0e9);
        QCOMPARE(bandwidth[0].bars[1].achieved, 24.0e6 / 10.0e-6);
        QCOMPARE(bandwidth[1].bars[0].achieved, 8.0e6 / 5.0e-6);
        QVERIFY2(bandwidth[0].bars[0].caption.startsWith(QStringLiteral("DRAM: 1,200 GB/s = 40.0 % of the measured 3,000 GB/s")),
                 qPrintable(bandwidth[0].bars[0].caption));
        QVERIFY(bandwidth[0].meaning.contains(QStringLiteral("40.0 % of the measured peak")));
        QVERIFY(bandwidth[1].bars[1].caption.contains(QStringLiteral("L2 hit rate 75.0 %")));

        // Roofline: both kernels plotted at DRAM and L2 (the fixture has no L1 bytes); DRAM intensity =
        // FLOP / DRAM bytes, y = FLOP / duration. The per-level math: tests/unit/roofline_test.cpp.
        viz::ProfileRooflinePlot* roofline = views->rooflinePlot();
        QCOMPARE(roofline->kernelPoints()->dataCount(), 2);
        QCOMPARE(roofline->kernelPoints(session::MemoryLevel::L2)->dataCount(), 2);
        QCOMPARE(roofline->kernelPoints(session::MemoryLevel::L1)->dataCount(), 0);
        QCOMPARE(roofline->ladders(), QStringList{QStringLiteral("fixture")});
        QCPCurve* ladder = roofline->ladderCurve(QStringLiteral("fixture"));
        QVERIFY(ladder != nullptr);
        QCOMPARE(ladder->dataCount(), 2);
        // Rung order: naive (4 MFLOP / 12 MB, 4 MFLOP / 10 us), then tiled (8 MFLOP / 8 MB, 8 MFLOP / 5 us).
        QVERIFY(std::fabs(ladder->data()->at(0)->key - 4.0e6 / 12.0e6) < 1e-12);
        QCOMPARE(ladder->data()->at(0)->value, 4.0e6 / 10.0e-6);
        QCOMPARE(ladder->data()->at(1)->key, 1.0);
        QCOMPARE(ladder->data()->at(1)->value, 8.0e6 / 5.0e-6);
        // Measured DRAM roof: x * 3,000 GB/s from the left edge up to the ridge with 50,000 GFLOP/s; the peak one too.
        QCOMPARE(roofline->measuredRoof()->dataCount(), 2);
        QCOMPARE(roofline->peakRoof()->dataCount(), 2);
        const double ridge = 50000.0 / 3000.0;
        QVERIFY(std::fabs(roofline->measuredRoof()->data()->at(1)->key - ridge) < 1e-9);
        QVERIFY(std::fabs(roofline->measuredRoof()->data()->at(1)->value - 50000.0e9) < 1.0);
        QCOMPARE(roofline->computeRoof(true)->data()->at(1)->value, 50000.0e9);
        QVERIFY(!roofline->noteText().contains(QStringLiteral("Not on the plot")));
        QCOMPARE(roofline->baselinePoints()->dataCount(), 0);

        // Predicted vs measured: values from the prediction records and the metrics, the difference coloured.
        ProfilePredictionPanel* prediction = views->predictionPanel();
        auto cell = [&](const QString& kernel, const char* key, ProfilePredictionPanel::Column column) {
            return prediction->cellText(kernel, QLatin1String(key), column);
        };
        QCOMPARE(cell(naive, "global_load_sectors_per_request", ProfilePredictionPanel::PredictedColumn), QStringLiteral("8.00")); // 262144 / 32768
        QCOMPARE(cell(naive, "global_load_sectors_per_request", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("8.00"));
        QCOMPARE(cell(naive, "global_load_sectors_per_request", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("same"));
        QCOMPARE(cell(tiled, "global_load_sectors_per_request", ProfilePredictionPanel::PredictedColumn), QStringLiteral("4.00")); // 131072 / 32768
        QCOMPARE(cell(naive, "global_store_sectors_per_request", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("4.00")); // 65536 / 16384
        QCOMPARE(cell(naive, "shared_bank_conflicts", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("1,024"));        // 1000 + 24
        QCOMPARE(cell(tiled, "shared_bank_conflicts", ProfilePredictionPanel::PredictedColumn), QStringLiteral("512"));
        QCOMPARE(cell(tiled, "shared_bank_conflicts", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("\u2212512 (\u2212100.0 %)"));
        QCOMPARE(cell(naive, "branch_uniformity", ProfilePredictionPanel::PredictedColumn), QStringLiteral("87.5 %")); // 7 of 8
        QCOMPARE(cell(tiled, "occupancy", ProfilePredictionPanel::PredictedColumn), QStringLiteral("100.0 %"));
        QCOMPARE(cell(tiled, "occupancy", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("80.0 %"));
        QCOMPARE(cell(tiled, "occupancy", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("\u221220.0 pts"));
        QCOMPARE(cell(naive, "fp32_flop", ProfilePredictionPanel::PredictedColumn), QStringLiteral("4.000 M")); // 2e6 + 2 x 1e6
        QCOMPARE(cell(naive, "check", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("matches"));
        const QPalette palette = prediction->palette();
        QCOMPARE(prediction->differenceColour(naive, QStringLiteral("global_load_sectors_per_request")),
                 viz::profile::agreementColor(viz::profile::Agreement::Agrees, palette));
        QCOMPARE(prediction->differenceColour(tiled, QStringLiteral("shared_bank_conflicts")),
                 viz::profile::agreementColor(viz::profile::Agreement::Differs, palette));

        // Session page: the device record, the ceilings and the non-fatal error record.
        const QString page = views->sessionPanel()->plainText().simplified();
        for (const char* text : {"Synthetic test fixture (not a measurement)", "Compute capability 9.0", "SMs 132",
                                 "SM 1,980 MHz", "000.00 (fixture) (CUDA driver API 13.0)", "CUPTI fixture",
                                 "Counters allowed yes", "3,000 GB/s", "50.0 TFLOP/s", "fixture_notice", "fixture log line"})
            QVERIFY2(page.contains(QLatin1String(text)), text);
        QVERIFY(w.panel->titleText().contains(QStringLiteral("2 kernel(s)")));
        QVERIFY(w.panel->noticeText().contains(QStringLiteral("fixture_notice")));
    }

    void truncatedSessionKeepsWhatWasRead()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("truncated.wsprof"))));
        QCOMPARE(w.panel->problems().size(), 2);
        QVERIFY(w.panel->problems().at(0).contains(QStringLiteral("not JSON")));
        QVERIFY(w.panel->problems().at(1).contains(QStringLiteral("truncated")));
        QVERIFY(w.panel->noticeText().contains(QStringLiteral("2 problem(s) reading the session")));
        viz::ProfileViews* views = w.panel->views();
        QCOMPARE(views->metricsTable()->kernels().size(), 2);
        QCOMPARE(views->metricsTable()->cellText(QStringLiteral("fixture_naive"), QLatin1String(metric::kDuration),
                                                 ProfileMetricsTable::ValueColumn),
                 QStringLiteral("10.0 µs"));
        QCOMPARE(views->metricsTable()->cellText(QStringLiteral("fixture_tiled"), QLatin1String(ProfileMetricsTable::kActivityDuration),
                                                 ProfileMetricsTable::ValueColumn),
                 QStringLiteral("5.00 µs"));
        QCOMPARE(views->metricsTable()->cellText(QStringLiteral("fixture_tiled"), QLatin1String(ProfileMetricsTable::kNoMetrics),
                                                 ProfileMetricsTable::ValueColumn),
                 QStringLiteral("not measured"));
        QCOMPARE(views->rooflinePlot()->kernelPoints()->dataCount(), 1);
        QCOMPARE(views->rooflinePlot()->table()->cellText(QStringLiteral("fixture_tiled"), viz::ProfileRooflineTable::FlopsColumn),
                 QStringLiteral("no counters"));
        QVERIFY(views->sessionPanel()->plainText().contains(QStringLiteral("incomplete (no end record)")));
        QVERIFY(views->sessionPanel()->plainText().contains(QStringLiteral("truncated after line")));
    }

    void countersNotPermittedIsShownProminently()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("counters_not_permitted.wsprof"))));
        QVERIFY(w.panel->problems().isEmpty());
        const QString notice = w.panel->noticeText();
        QVERIFY2(notice.contains(QStringLiteral("GPU performance counters are not permitted")), qPrintable(notice));
        QVERIFY(notice.contains(QStringLiteral("NVreg_RestrictProfilingToAdminUsers=0")));
        viz::ProfileViews* views = w.panel->views();
        const QString naive = QStringLiteral("fixture_naive");
        QCOMPARE(views->metricsTable()->cellText(naive, QLatin1String(ProfileMetricsTable::kActivityDuration), ProfileMetricsTable::ValueColumn),
                 QStringLiteral("11.0 µs"));
        QCOMPARE(views->metricsTable()->cellText(naive, QLatin1String(ProfileMetricsTable::kNoMetrics), ProfileMetricsTable::ValueColumn),
                 QStringLiteral("not measured"));
        QVERIFY(views->metricsTable()->cellToolTip(naive, QLatin1String(ProfileMetricsTable::kNoMetrics), ProfileMetricsTable::ValueColumn)
                    .contains(QStringLiteral("not permitted")));
        QCOMPARE(views->rooflinePlot()->kernelPoints()->dataCount(), 0);
        QVERIFY(views->rooflinePlot()->table()->cellToolTip(naive, viz::ProfileRooflineTable::FlopsColumn).contains(QStringLiteral("not permitted")));
        QCOMPARE(views->rooflinePlot()->measuredRoof()->dataCount(), 2); // the roofs still come from the ceilings
        QVERIFY(views->bandwidthPanel()->model().at(0).bars.empty());
        QCOMPARE(views->predictionPanel()->cellText(naive, QStringLiteral("global_load_sectors_per_request"), ProfilePredictionPanel::PredictedColumn),
                 QStringLiteral("8.00"));
        QCOMPARE(views->predictionPanel()->cellText(naive, QStringLiteral("global_load_sectors_per_request"), ProfilePredictionPanel::MeasuredColumn),
                 QStringLiteral("not measured"));
        QVERIFY(views->sessionPanel()->plainText().simplified().contains(QStringLiteral("Counters allowed no")));
    }

    void baselineShowsValueAndChange()
    {
        // The baseline: the ladder with fixture_naive twice as slow (20 us) and half the DRAM reads.
        std::string text = fixtures::ladderStream();
        auto replace = [&](const std::string& from, const std::string& to) {
            const auto at = text.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            text.replace(at, from.size(), to);
        };
        replace("\"dram__bytes_read.sum\":8000000.0", "\"dram__bytes_read.sum\":4000000.0");
        replace("\"gpu__time_duration.sum\":10000.0", "\"gpu__time_duration.sum\":20000.0");
        QTemporaryDir dir;
        const QString baselinePath = dir.filePath(QStringLiteral("baseline.wsprof"));
        writeAll(baselinePath, QByteArray::fromStdString(text));

        WindowUnderTest w;
        QVERIFY(w.panel->openBaselineFile(baselinePath));
        QVERIFY(w.panel->hasBaseline());
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const QString naive = QStringLiteral("fixture_naive");
        QCOMPARE(table->cellText(naive, QLatin1String(metric::kDuration), ProfileMetricsTable::BaselineColumn), QStringLiteral("20.0 µs"));
        QCOMPARE(table->cellText(naive, QLatin1String(metric::kDuration), ProfileMetricsTable::ChangeColumn), QStringLiteral("\u221250.0 %"));
        QCOMPARE(table->cellText(naive, QLatin1String(metric::kDramRead), ProfileMetricsTable::ChangeColumn), QStringLiteral("+100.0 %"));
        QCOMPARE(table->cellText(naive, QLatin1String(metric::kDramWrite), ProfileMetricsTable::ChangeColumn), QStringLiteral("0 %"));
        QVERIFY(!table->tree()->isColumnHidden(ProfileMetricsTable::BaselineColumn));
        ProfilePredictionPanel* prediction = w.panel->views()->predictionPanel();
        // FP32 FLOP did not change; load sectors per request did not either.
        QCOMPARE(prediction->cellText(naive, QStringLiteral("fp32_flop"), ProfilePredictionPanel::ChangeColumn), QStringLiteral("0 %"));
        QCOMPARE(prediction->cellText(naive, QStringLiteral("global_load_sectors_per_request"), ProfilePredictionPanel::BaselineColumn),
                 QStringLiteral("8.00"));
        // The roofline shows the baseline's kernels, hollow.
        QCOMPARE(w.panel->views()->rooflinePlot()->baselinePoints()->dataCount(), 2);
        QVERIFY(w.panel->titleText().contains(QStringLiteral("Baseline")));

        // "Set as Baseline" takes the shown session; "Clear" removes the columns.
        w.panel->clearBaseline();
        QVERIFY(table->tree()->isColumnHidden(ProfileMetricsTable::BaselineColumn));
        QVERIFY(w.panel->setCurrentAsBaseline());
        QCOMPARE(table->cellText(naive, QLatin1String(metric::kDuration), ProfileMetricsTable::ChangeColumn), QStringLiteral("0 %"));
    }

    void savedSessionIsTheStream()
    {
        WindowUnderTest w;
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("saved.wsprof"));
        QVERIFY(w.panel->saveSessionAs(saved).has_value()); // nothing to save yet
        for (const char* name : {"ladder.wsprof", "truncated.wsprof"}) {
            const QString original = sessionFixture(QLatin1String(name));
            QVERIFY(w.panel->openSessionFile(original));
            QVERIFY(!w.panel->saveSessionAs(saved).has_value());
            QCOMPARE(readAll(saved), readAll(original));
        }
        // The saved file reopens to the same views.
        QVERIFY(w.panel->openSessionFile(saved));
        QCOMPARE(w.panel->views()->metricsTable()->kernels().size(), 2);
        QVERIFY(w.panel->saveSessionAs(dir.filePath(QStringLiteral("no/such/folder/x.wsprof"))).has_value());
    }

    void unreadableFilesShowProblemsAndKeepTheSession()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        QTemporaryDir dir;
        const QString garbage = dir.filePath(QStringLiteral("garbage.wsprof"));
        writeAll(garbage, "this is not a session\n");
        QVERIFY(!w.panel->openSessionFile(garbage));
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("not a warpscope session")));
        QCOMPARE(w.panel->views()->metricsTable()->kernels().size(), 2); // the ladder is still shown

        const QString future = dir.filePath(QStringLiteral("future.wsprof"));
        writeAll(future, "{\"format\":\"warpscope-session\",\"version\":99}\n");
        QVERIFY(!w.panel->openSessionFile(future));
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("version 99")));

        QVERIFY(!w.panel->openSessionFile(dir.filePath(QStringLiteral("missing.wsprof"))));
        QVERIFY(w.panel->bannerText().contains(QStringLiteral("cannot open")));

        // Damaged lines inside a session: skipped, listed, the rest shown.
        QByteArray damaged = readAll(sessionFixture(QStringLiteral("ladder.wsprof")));
        damaged.insert(damaged.indexOf('\n') + 1, "garbage line\n{\"type\":\"wat\"}\n");
        const QString damagedPath = dir.filePath(QStringLiteral("damaged.wsprof"));
        writeAll(damagedPath, damaged);
        QVERIFY(w.panel->openSessionFile(damagedPath));
        QCOMPARE(w.panel->problems().size(), 2);
        QVERIFY(w.panel->views()->sessionPanel()->plainText().contains(QStringLiteral("unknown record type 'wat'")));
        QCOMPARE(w.panel->views()->rooflinePlot()->kernelPoints()->dataCount(), 2);
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

    void probeDetailsAreShownWhereTheyMatter()
    {
        // tests/fixtures/sessions/probe_details.wsprof: session_fixtures.h, probeDetailsStream().
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("probe_details.wsprof"))));
        QVERIFY(w.panel->problems().isEmpty());
        viz::ProfileViews* views = w.panel->views();

        // Session page: the clocks seen while measuring (SM 1,900 and 1,980 MHz, DRAM 2,600 and 2,620 MHz)
        // beside the device's peaks, each kernel's launch size, cache control, architecture and timer, the memory ladder.
        const QString page = views->sessionPanel()->plainText().simplified();
        for (const char* text :
             {"SM clock while measured 1,900\u20131,980 MHz, median 1,940 MHz over 2 kernels; peak 1,980 MHz (98.0 %)",
              "DRAM clock while measured 2,600\u20132,620 MHz, median 2,610 MHz over 2 kernels; peak 2,619 MHz (99.7 %)",
              "the demo's GPU size (fills the GPU for measurement): fixture_branchless",
              "the demo's simulator size (small, as the stepper runs it): fixture_predicated",
              "L2 flushed before every timed run and every replay pass (as ncu --cache-control all): fixture_branchless",
              "not flushed: each run finds what the previous one left in L2: fixture_predicated",
              "Compiled for compute_75 PTX (runs on compute capability 7.5 and newer): fixture_branchless",
              "compute_90 PTX (runs on compute capability 9.0 and newer): fixture_predicated",
              "compiled for: compute_75 PTX (runs on compute capability 7.5 and newer)",
              "CUDA events around each launch: CUPTI Activity was unavailable because another profiler (such as ncu) "
              "held it: fixture_branchless",
              "CUPTI Activity (the GPU's own kernel start and end times): fixture_predicated",
              "Memory ladder measured on this GPU", "Shared memory 30 cycles 15.0 ns",
              "L2 hit 260 cycles 130.0 ns 11,000 GB/s 8 MiB fixture: pointer chase in 8 MiB",
              "DRAM with a TLB miss 1100 cycles 550.0 ns", "Cycles converted to nanoseconds at 2000 MHz."})
            QVERIFY2(page.contains(QString::fromUtf8(text)), text);
        // An older session says what it does not know.
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        const QString older = views->sessionPanel()->plainText().simplified();
        QVERIFY(older.contains(QStringLiteral("Launch size not recorded (older session) (all 2 kernels)")));
        QVERIFY(older.contains(QStringLiteral("the caches were warm, the inputs uploaded just before each run")));
        QVERIFY(older.contains(QStringLiteral("Compiled for not recorded (a .ptx file, whose own .target line says; an older "
                                              "session; an Nsight Compute import) (all 2 kernels)")));
        QVERIFY(older.contains(QStringLiteral("SM clock while measured not measured")));
        QVERIFY(!older.contains(QStringLiteral("Memory ladder")));
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("probe_details.wsprof"))));

        using viz::profile::Agreement;
        ProfilePredictionPanel* prediction = views->predictionPanel();
        const QPalette palette = prediction->palette();
        const QString branchless = QStringLiteral("fixture_branchless"), predicated = QStringLiteral("fixture_predicated");
        auto cell = [&](const QString& kernel, const char* key, ProfilePredictionPanel::Column column) {
            return prediction->cellText(kernel, QLatin1String(key), column);
        };
        auto agreement = [&](const QString& kernel, const char* key) { return prediction->agreement(kernel, QLatin1String(key)); };
        auto note = [&](const QString& kernel, const char* key) { return prediction->noteText(kernel, QLatin1String(key)); };

        // No branches on either side (ncu's 0 % means nothing to count): said so, not 0 % against 100 % in red.
        QCOMPARE(cell(branchless, "branch_uniformity", ProfilePredictionPanel::PredictedColumn), QStringLiteral("no branches"));
        QCOMPARE(cell(branchless, "branch_uniformity", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("no branches"));
        QCOMPARE(cell(branchless, "branch_uniformity", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("same"));
        QCOMPARE(agreement(branchless, "branch_uniformity"), Agreement::Agrees);
        // 32 PTX branches (30 uniform) and smsp__sass_branch_targets.sum = 0: none in the SASS, said in a neutral colour.
        QCOMPARE(cell(predicated, "branch_uniformity", ProfilePredictionPanel::PredictedColumn), QStringLiteral("93.8 %"));
        QCOMPARE(cell(predicated, "branch_uniformity", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("no branches"));
        QCOMPARE(cell(predicated, "branch_uniformity", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("none on the GPU"));
        QCOMPARE(agreement(predicated, "branch_uniformity"), Agreement::Explained);
        QCOMPARE(prediction->differenceColour(predicated, QStringLiteral("branch_uniformity")),
                 viz::profile::agreementColor(Agreement::Explained, palette));
        QVERIFY2(note(predicated, "branch_uniformity").contains(QStringLiteral("ptxas removed")), qPrintable(note(predicated, "branch_uniformity")));

        // The simulator ran 64 of the 4,096 blocks: the panel says its counts are scaled, and exact only when
        // every block does the same work (core/session/prediction_comparison.h, as `session show` says it).
        QCOMPARE(cell(branchless, "simulated_blocks", ProfilePredictionPanel::PredictedColumn), QStringLiteral("64 of 4,096"));
        QCOMPARE(note(branchless, "simulated_blocks"),
                 QStringLiteral("counts scaled from 64 of 4,096 blocks; exact if all blocks do the same work"));
        QVERIFY(cell(predicated, "simulated_blocks", ProfilePredictionPanel::PredictedColumn).isNull()); // the whole grid

        // Shared loads: 3,072 wavefronts measured for 4,096 predicted, no conflicts on either side: fewer, wider
        // SASS loads, explained; the stores and the conflicts agree. No shared memory: no shared rows.
        QCOMPARE(cell(branchless, "shared_load_wavefronts", ProfilePredictionPanel::PredictedColumn), QStringLiteral("4,096"));
        QCOMPARE(cell(branchless, "shared_load_wavefronts", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("3,072"));
        QCOMPARE(agreement(branchless, "shared_load_wavefronts"), Agreement::Explained);
        QVERIFY(note(branchless, "shared_load_wavefronts").startsWith(QStringLiteral("fewer on the GPU")));
        QCOMPARE(cell(branchless, "shared_store_wavefronts", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("same"));
        QCOMPARE(agreement(branchless, "shared_bank_conflicts"), Agreement::Agrees);
        QVERIFY(cell(predicated, "shared_load_wavefronts", ProfilePredictionPanel::PredictedColumn).isNull());

        // Occupancy: a comparison with its likely reason, never red.
        QCOMPARE(cell(branchless, "occupancy", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("\u221225.0 pts"));
        QCOMPARE(agreement(branchless, "occupancy"), Agreement::Explained);
        QVERIFY2(note(branchless, "occupancy").contains(QStringLiteral("3.88 waves")) &&
                     note(branchless, "occupancy").contains(QStringLiteral("tail effect")),
                 qPrintable(note(branchless, "occupancy")));
        QVERIFY(note(predicated, "occupancy").contains(QStringLiteral("0.06 of one wave")));
        QCOMPARE(agreement(QStringLiteral("fixture_predicated"), "check"), Agreement::Agrees);
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
