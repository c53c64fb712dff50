// Nsight Compute CSV in the window (issue 13, section 4), offscreen and without a GPU: File > Import
// Nsight Compute CSV... exists; importing tests/fixtures/ncu fills the metrics table with the
// catalog's plain names and explanations for metrics Warpscope knows and the ncu name for the
// others, the bandwidth view and the roofline with the converted values; the title says the session
// came from ncu; a malformed file is named with its line and leaves the shown session as it was;
// the imported session saves as a .wsprof that reopens whole.
#include "gui_test_support.h"
#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_views.h"
#include "profile/session_file.h"
#include "session/metric_catalog.h"
#include "session/ncu_import.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>

using namespace warpscope;
using app::MainWindow;
using app::ProfilePanel;
using session::MemoryLevel;
using viz::ProfileMetricsTable;
namespace metric = warpscope::session::metric;

namespace {

const QString kNcuFixtures = QStringLiteral(WARPSCOPE_FIXTURES_DIR) + QStringLiteral("/ncu/");

struct WindowUnderTest {
    WindowUnderTest()
    {
        qunsetenv("WARPSCOPE_PROBE");
        qputenv("WARPSCOPE_RECORDED_DIR", emptyDir.path().toLocal8Bit());
        MainWindow::Options options;
        options.restoreSettings = false;
        window = std::make_unique<MainWindow>(options);
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
    }
    ~WindowUnderTest() { qunsetenv("WARPSCOPE_RECORDED_DIR"); }
    QTemporaryDir emptyDir;
    std::unique_ptr<MainWindow> window;
    ProfilePanel* panel = nullptr;
};

using warpscope::gui_test::saveShot;

QString fromView(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

} // namespace

class NcuImportTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void fileMenuOffersTheImport()
    {
        WindowUnderTest w;
        QAction* import = nullptr;
        for (QAction* menu : w.window->menuBar()->actions())
            if (menu->menu() != nullptr && menu->text().remove(QLatin1Char('&')) == QLatin1String("File"))
                for (QAction* action : menu->menu()->actions())
                    if (action->text().remove(QLatin1Char('&')) == QLatin1String("Import Nsight Compute CSV..."))
                        import = action;
        QVERIFY(import != nullptr);
        QVERIFY(import->isEnabled());
    }

    void importedMetricsShowExplanationsAndNcuNames()
    {
        WindowUnderTest w;
        const QString path = kNcuFixtures + QStringLiteral("details_metrics.csv");
        QVERIFY(w.panel->importNcuCsv(path));
        QVERIFY(w.panel->hasSession());
        QCOMPARE(w.panel->session().kernels.size(), std::size_t{3});
        QVERIFY2(w.panel->titleText().contains(QStringLiteral("imported from Nsight Compute (ncu): ") + QFileInfo(path).absoluteFilePath()),
                 qPrintable(w.panel->titleText()));
        QVERIFY2(w.panel->bannerText().contains(QStringLiteral("Imported 3 launch")), qPrintable(w.panel->bannerText()));
        QVERIFY2(w.panel->bannerText().contains(QStringLiteral("11 metric(s) in Warpscope's catalog")), qPrintable(w.panel->bannerText()));
        QVERIFY2(w.panel->noticeText().isEmpty(), qPrintable(w.panel->noticeText())); // nothing went wrong

        const ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const QString kernel = QStringLiteral("#0 vectorAdd");
        QVERIFY(table->kernels().contains(kernel));
        // A metric Warpscope knows: its plain name and the catalog's explanation, the value converted
        // from 41.28 usecond to 41,280 ns and formatted as the table formats nanoseconds.
        const QString duration = QLatin1String(metric::kDuration);
        const session::MetricInfo* info = session::findMetric(metric::kDuration);
        QVERIFY(info != nullptr);
        QCOMPARE(table->cellText(kernel, duration, ProfileMetricsTable::TitleColumn), fromView(info->title));
        QCOMPARE(table->cellText(kernel, duration, ProfileMetricsTable::NameColumn), duration);
        QVERIFY2(table->cellToolTip(kernel, duration, ProfileMetricsTable::TitleColumn).contains(fromView(info->explanation).toHtmlEscaped()),
                 qPrintable(table->cellToolTip(kernel, duration, ProfileMetricsTable::TitleColumn)));
        QCOMPARE(table->cellText(kernel, duration, ProfileMetricsTable::ValueColumn),
                 viz::profile::formatMetricValue(41280.0, QStringLiteral("ns")));
        // 8.39 Mbyte = 8,390,000 bytes.
        QCOMPARE(table->cellText(kernel, QLatin1String(metric::kDramRead), ProfileMetricsTable::ValueColumn),
                 viz::profile::formatMetricValue(8390000.0, QStringLiteral("bytes")));
        // One it does not know: shown by its ncu name, in the unit converted from the CSV's.
        const QString unknown = QStringLiteral("lts__t_sectors_srcunit_tex_op_read.sum");
        QCOMPARE(table->cellText(kernel, unknown, ProfileMetricsTable::NameColumn), unknown);
        QCOMPARE(table->cellText(kernel, unknown, ProfileMetricsTable::TitleColumn), QStringLiteral("(not in the catalog)"));
        QVERIFY(table->cellToolTip(kernel, unknown, ProfileMetricsTable::TitleColumn).contains(QStringLiteral("not in Warpscope's metric catalog")));
        QCOMPARE(table->cellText(kernel, unknown, ProfileMetricsTable::ValueColumn),
                 viz::profile::formatMetricValue(1310720.0, QStringLiteral("sector")));
        const QString perSecond = QStringLiteral("dram__bytes_read.sum.per_second");
        QCOMPARE(table->cellText(kernel, perSecond, ProfileMetricsTable::ValueColumn),
                 viz::profile::formatMetricValue(203.25e9, QStringLiteral("bytes/s")));
        saveShot(*w.window, QStringLiteral("ncu_import_details"), 200);
    }

    void rawPageFillsTheBandwidthViewAndTheRoofline()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->importNcuCsv(kNcuFixtures + QStringLiteral("raw_page.csv")));
        // The device named by device__attribute_display_name is in the title.
        QVERIFY2(w.panel->titleText().contains(QStringLiteral("NVIDIA H200")), qPrintable(w.panel->titleText()));

        // DRAM bandwidth of the naive launch: (12,582,912 + 4,194,304) bytes in 1,234,567 ns.
        const auto& model = w.panel->views()->bandwidthPanel()->model();
        QCOMPARE(model.size(), std::size_t{2});
        QCOMPARE(model[0].kernel, std::string("#0 matmul_naive"));
        QVERIFY(!model[0].bars.empty());
        QCOMPARE(model[0].bars[0].level, QStringLiteral("DRAM"));
        QVERIFY(qFuzzyCompare(model[0].bars[0].achieved, (12582912.0 + 4194304.0) / 1234567e-9));

        // Both launches on the roofline at DRAM and L2, under the roofs the CSV's peaks and clocks give.
        w.window->focusProfiler();
        w.panel->views()->showTab(viz::ProfileViews::Tab::Roofline);
        const viz::ProfileRooflinePlot* roofline = w.panel->views()->rooflinePlot();
        QCOMPARE(roofline->kernelPoints(MemoryLevel::Dram)->dataCount(), 2);
        QCOMPARE(roofline->kernelPoints(MemoryLevel::L2)->dataCount(), 2);
        QCOMPARE(roofline->kernelPoints(MemoryLevel::L1)->dataCount(), 0); // no l1tex__t_bytes.sum in the CSV
        QVERIFY(qFuzzyCompare(roofline->roofs().at(MemoryLevel::Dram).peak.bytesPerSecond, 1504.0 * 2619000000.0));
        QVERIFY(qFuzzyCompare(roofline->roofs().peakFlopsPerSecond, 2.0 * 16896.0 * 1755000000.0));
        saveShot(*w.window, QStringLiteral("ncu_import_raw_roofline"), 200);
    }

    void malformedCsvIsNamedWithItsLineAndKeepsTheSession()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->importNcuCsv(kNcuFixtures + QStringLiteral("details_metrics.csv")));
        const std::size_t before = w.panel->session().kernels.size();
        const QString title = w.panel->titleText();
        const QString bad = kNcuFixtures + QStringLiteral("malformed/unterminated_quote.csv");
        QVERIFY(!w.panel->importNcuCsv(bad));
        const QString banner = w.panel->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("unterminated_quote.csv could not be imported as Nsight Compute CSV")), qPrintable(banner));
        QVERIFY2(banner.contains(bad + QStringLiteral(": line 3: field 15 opens a quote that is not closed")), qPrintable(banner));
        QCOMPARE(w.panel->session().kernels.size(), before);
        QCOMPARE(w.panel->titleText(), title);
        saveShot(*w.window, QStringLiteral("ncu_import_malformed"), 200);

        QVERIFY(!w.panel->importNcuCsv(kNcuFixtures + QStringLiteral("malformed/grid_outside_limits.csv")));
        QVERIFY2(w.panel->bannerText().contains(QStringLiteral("line 2: Grid Size '(-1, 0, 99999999999999)'")),
                 qPrintable(w.panel->bannerText()));
        QVERIFY(!w.panel->importNcuCsv(kNcuFixtures + QStringLiteral("no/such/file.csv")));
        QVERIFY2(w.panel->bannerText().contains(QStringLiteral("cannot open")), qPrintable(w.panel->bannerText()));
        QCOMPARE(w.panel->session().kernels.size(), before);
    }

    // Bytes that are not UTF-8 (a Latin-1 kernel name) are refused with their line, as any other
    // malformed CSV; they once reached the session's JSON writer, whose exception ended the program.
    void csvThatIsNotUtf8IsRefusedWithItsLine()
    {
        WindowUnderTest w;
        QFile fixture(kNcuFixtures + QStringLiteral("details_metrics.csv"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QByteArray bytes = fixture.readAll();
        bytes.replace("vectorAdd", "vector\xe9" "Add"); // é in Latin-1
        const qsizetype at = bytes.indexOf('\xe9');
        const int line = static_cast<int>(bytes.left(at).count('\n')) + 1;
        const qsizetype column = at - bytes.lastIndexOf('\n', at); // from 1
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latin1.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        QVERIFY(!w.panel->importNcuCsv(path));
        const QString banner = w.panel->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("latin1.csv could not be imported as Nsight Compute CSV")), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("%1: line %2: byte 0xE9 at column %3 is not UTF-8").arg(path).arg(line).arg(column)), qPrintable(banner));
        QVERIFY(!w.panel->hasSession());
    }

    // An ncu warning longer than the 300 bytes a session keeps of it is cut between characters,
    // never inside one, so the imported session still saves.
    void longWarningIsCutBetweenCharacters()
    {
        WindowUnderTest w;
        QFile fixture(kNcuFixtures + QStringLiteral("details_metrics.csv"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QByteArray bytes = fixture.readAll();
        // "==WARNING== " and 287 letters: byte 300 is the second of "é" (UTF-8 C3 A9).
        const QByteArray warning = "==WARNING== " + QByteArray(287, 'a') + "\xc3\xa9" + QByteArray(40, 'b');
        bytes.replace("==WARNING== Fixture warning line: the kernel ran for a short time.", warning);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long_warning.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        QVERIFY2(w.panel->importNcuCsv(path), qPrintable(w.panel->bannerText()));
        bool kept = false;
        for (const session::LogRecord& log : w.panel->session().logs)
            if (log.level == "warning") {
                kept = true;
                QCOMPARE(log.message, "ncu, line 5: ==WARNING== " + std::string(287, 'a') + "...");
            }
        QVERIFY(kept);
        const QString saved = dir.filePath(QStringLiteral("imported.wsprof"));
        QVERIFY(!w.panel->saveSessionAs(saved).has_value());
        const app::LoadedSession loaded = app::loadSessionFile(saved);
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(QLatin1Char('\n'))));
    }

    void importedSessionSavesAndReopensWhole()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->importNcuCsv(kNcuFixtures + QStringLiteral("raw_page.csv")));
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("imported.wsprof"));
        QVERIFY(!w.panel->saveSessionAs(saved).has_value());
        const app::LoadedSession loaded = app::loadSessionFile(saved);
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(QLatin1Char('\n'))));
        QVERIFY(loaded.complete);
        QCOMPARE(loaded.session.kernels.size(), std::size_t{2});
        QCOMPARE(loaded.session.metrics[0].values, w.panel->session().metrics[0].values);
        QVERIFY(QString::fromStdString(loaded.session.header.producer).contains(QStringLiteral("Nsight Compute (ncu) CSV")));
    }
};

QTEST_MAIN(NcuImportTest)
#include "ncu_import_test.moc"
