// The profiler's views on the fixture sessions, offscreen and without a GPU: every view filled with
// the values computed here by hand; damaged files show their problems and keep what was read; a
// baseline shows the change; a saved session is the stream it was read from. The probe in the
// window and `warpscope screenshot --view profile`: profile_test.cpp.
#include "profile_test_support.h"
#include "session_fixtures.h"

#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_roofline_table.h"
#include "profile/profile_session_panel.h"
#include "profile/profile_views.h"
#include "profile/profile_panel.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QLabel>
#include <QPalette>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string>

using namespace warpscope;
using namespace warpscope::profile_gui_test;
using viz::ProfileMetricsTable;
using viz::ProfilePredictionPanel;
namespace metric = warpscope::session::metric;

class ProfileSessionTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
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

    void stallSharesBesideNcusWarpStates()
    {
        // tests/fixtures/sessions/warp_states.wsprof, its shares worked out in tests/unit/stall_comparison_test.cpp.
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("warp_states.wsprof"))));
        QVERIFY(w.panel->problems().isEmpty());
        using viz::profile::Agreement;
        ProfilePredictionPanel* prediction = w.panel->views()->predictionPanel();
        const QString both = QStringLiteral("stalls_both");
        const QString key = QStringLiteral("stall_long_scoreboard");
        QCOMPARE(prediction->cellText(both, key, ProfilePredictionPanel::QuantityColumn).trimmed(),
                 QStringLiteral("Stall long_scoreboard (model: global memory)"));
        QCOMPARE(prediction->cellText(both, key, ProfilePredictionPanel::PredictedColumn), QStringLiteral("70.0 %"));
        QCOMPARE(prediction->cellText(both, key, ProfilePredictionPanel::MeasuredColumn), QStringLiteral("50.0 %"));
        QCOMPARE(prediction->cellText(both, key, ProfilePredictionPanel::DifferenceColumn), QStringLiteral("\u221220.0 pts"));
        QCOMPARE(prediction->differenceColour(both, key), viz::profile::agreementColor(Agreement::Differs, prediction->palette()));
        QCOMPARE(prediction->agreement(both, QStringLiteral("stall_lg_throttle_and_mio_throttle")), Agreement::Agrees);
        QCOMPARE(prediction->cellText(both, QStringLiteral("stall_not_modelled"), ProfilePredictionPanel::PredictedColumn),
                 QStringLiteral("not modelled"));
        QVERIFY(prediction->noteText(both, QStringLiteral("stall_not_modelled")).startsWith(QStringLiteral("the model never predicts these: math_pipe_throttle")));
        QCOMPARE(prediction->cellText(QStringLiteral("stalls_measured_only"), key, ProfilePredictionPanel::PredictedColumn),
                 QStringLiteral("no timing model run"));
        QVERIFY(prediction->findChild<QLabel*>(QStringLiteral("predictionLegend"))->text().contains(QStringLiteral("Stall rows")));
        // A session without warp states has no stall rows and says nothing of them.
        QVERIFY(w.panel->openSessionFile(sessionFixture(QStringLiteral("ladder.wsprof"))));
        QVERIFY(prediction->cellText(QStringLiteral("fixture_naive"), key, ProfilePredictionPanel::PredictedColumn).isNull());
        QVERIFY(!prediction->findChild<QLabel*>(QStringLiteral("predictionLegend"))->text().contains(QStringLiteral("Stall rows")));
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
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    ProfileSessionTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "profile_session_test.moc"
