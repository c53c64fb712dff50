// Untrusted input stays harmless (issue 13, section 3), offscreen and without a GPU:
// - a session whose names, messages and metrics hold HTML and Markdown (tests/fixtures/sessions/
//   hostile.wsprof) is shown as the literal text everywhere the window shows it, and no label,
//   tooltip or page renders it as markup (no image, no link), also while a probe streams it;
//   `warpscope session show` prints it literally;
// - the probe is started with an argument list, never through a shell: a stand-in probe receives a
//   kernel path holding spaces, quotes, backquotes and $(...) as one argument, byte for byte, from
//   the window and from `warpscope profile`, and nothing in it runs;
// - a session saved into a read-only folder or a missing one says so and leaves the earlier file as
//   it was; `warpscope profile --out` keeps an earlier file when the probe refuses its input.
#include "session/metric_catalog.h"
#include "session/roofline.h"
#include "session/session_io.h"

#include "profile/probe_request.h"
#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_panel.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_roofline_table.h"
#include "profile/profile_session_panel.h"
#include "profile/profile_views.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>

#include <fcntl.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>

using namespace warpscope;
using app::MainWindow;
using app::ProfilePanel;
using viz::ProfileMetricsTable;
using viz::ProfilePredictionPanel;
using viz::ProfileRooflineTable;

namespace {

const QString kFixtures = QStringLiteral(WARPSCOPE_FIXTURES_DIR);
const QString kHostileFixture = kFixtures + QStringLiteral("/sessions/hostile.wsprof");

// The hostile strings. None is a measurement; each holds markup a label could render (tags, a
// file: link, an image), Markdown, an entity that makes Qt take a whole line for rich text, and
// QString::arg placeholders a chained arg() would fill in.
const char* const kKernel = "k<b>bold</b>";
const char* const kTitle = "<img src=x> **md** &lt;title&gt; %1 %2";
const char* const kEntry = "<a href=\"file:///etc/passwd\">entry</a>";
const char* const kSourceName = "&lt;b&gt;src&lt;/b&gt; <i>source</i>.cu";
const char* const kLadder = "<b>ladder</b> _md_ %2";
const char* const kArg = "n=<b>arg</b>";
const char* const kHost = "<b>host</b> &amp; <img src=x>";
const char* const kDevice = "<img src=x>GPU **md** <a href=\"file:///etc/passwd\">x</a>";
const char* const kMethod = "<b>method</b> &lt;m&gt;";
const char* const kTheoreticalSource = "<img src=x>datasheet";
const char* const kMetric = "<b>metric</b>.sum";
const char* const kUnit = "<i>unit</i>";
const char* const kLimiter = "<b>limiter</b>";
const char* const kPreset = "<b>sm_90</b>";
const char* const kCheckReference = "<b>gold</b>";
const char* const kCheckDetail = "&lt;detail&gt; <b>mismatch</b>";
const char* const kSecondKernel = "k2 &lt;two&gt;";
const char* const kSecondTitle = "<b>two</b> # heading";
const char* const kErrorCode = "<b>code</b>";
const char* const kErrorMessage = "<a href=\"file:///etc/passwd\">click</a> &lt;script&gt; %1%2";
const char* const kLog = "<b>log</b> [md](file:///etc/passwd)";
const char* const kStage = "<b>stage</b>";
const char* const kUnknownType = "<b>wat</b>";
const char* const kStderr = "warpscope-probe: <b>stderr</b> <img src=x> &lt;died&gt;";

QString q(const char* text) { return QString::fromUtf8(text); }

// The fixture, record by record: two rungs of a ladder, the first measured (with a metric the
// catalog does not know, in a unit of its own) and checked, the second failed with an error; and
// one line of an unknown record type, which the reader skips and reports.
std::string hostileStream()
{
    using namespace session;
    std::ostringstream out;
    SessionWriter w(out);
    SessionHeader header;
    header.producer = "warpscope gui tests (hostile fixture, not a measurement)";
    header.createdUtc = "2026-01-02T03:04:05Z";
    header.host = kHost;
    w.write(header);
    w.write(ProgressRecord{kStage, kKernel, 1, 4});
    out << "{\"type\":\"" << kUnknownType << "\"}\n";
    DeviceRecord device;
    device.name = kDevice;
    device.chip = "FIXTURE";
    device.computeMajor = 9;
    device.smCount = 132;
    device.coreClockKHz = 1980000;
    device.memoryClockKHz = 2619000;
    device.driverVersion = 13000;
    device.toolkitVersion = 13000;
    device.countersAllowed = true;
    w.write(device);
    w.write(CeilingsRecord{3000.0, kMethod, 50000.0, kMethod, 3352.0, 66908.0, kTheoreticalSource, 0, 0, "", 0, ""});

    KernelRecord first;
    first.id = kKernel;
    first.entry = kEntry;
    first.title = kTitle;
    first.ladder = kLadder;
    first.ladderRung = 1;
    first.sourceName = kSourceName;
    first.ptxHash = fnv1a64Hex(kKernel);
    first.grid = {1024, 1, 1};
    first.block = {256, 1, 1};
    first.args = {kArg};
    w.write(first);
    w.write(ActivityRecord{kKernel, {10000, 12000, 11000}, 16, 0, 0, 0, {1024, 1, 1}, {256, 1, 1}, 0, ""});
    MetricsRecord metrics;
    metrics.kernel = kKernel;
    metrics.passes = 3;
    metrics.values = {{metric::kDuration, 10000.0}, {metric::kDramRead, 8.0e6},  {metric::kDramWrite, 4.0e6},
                      {metric::kFadd, 2.0e6},       {metric::kFmul, 0.0},        {metric::kFfma, 1.0e6},
                      {metric::kL2Bytes, 24.0e6},   {kMetric, 42.0}};
    metrics.units = {{metric::kDuration, "nsecond"}, {kMetric, kUnit}};
    w.write(metrics);
    w.write(OccupancyRecord{kKernel, 1.0, 8, 16, kLimiter, 0.97});
    PredictionRecord prediction;
    prediction.kernel = kKernel;
    prediction.preset = kPreset;
    prediction.fadd = 2000000;
    prediction.ffma = 1000000;
    prediction.theoreticalOccupancy = 1.0;
    w.write(prediction);
    w.write(CheckRecord{kKernel, kCheckReference, false, kCheckDetail});

    KernelRecord second = first;
    second.id = kSecondKernel;
    second.entry = "second_entry";
    second.title = kSecondTitle;
    second.ladderRung = 2;
    second.ptxHash = fnv1a64Hex(kSecondKernel);
    w.write(second);
    w.write(ErrorRecord{kErrorCode, kErrorMessage, kSecondKernel, true});
    w.write(LogRecord{"info", kLog});
    w.write(EndRecord{"ok", 0.5});
    return out.str();
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

bool writeScript(const QString& path, const QByteArray& text)
{
    return writeAll(path, text) && QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                                  QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                                  QFile::ExeOther);
}

// How Qt shows `text` in a label of `format` or in a tooltip (AutoText): as rich text when the
// format says so or, for AutoText, when Qt::mightBeRichText takes it for HTML.
bool shownAsRichText(const QString& text, Qt::TextFormat format)
{
    return format == Qt::RichText || (format == Qt::AutoText && Qt::mightBeRichText(text));
}

// What a person reads: rich text laid out by Qt's HTML reader, anything else as it is.
QString visibleText(const QString& text, Qt::TextFormat format = Qt::AutoText)
{
    if (!shownAsRichText(text, format))
        return text;
    QTextDocument document;
    document.setHtml(text);
    return document.toPlainText();
}

// Markup that only a session string can have brought in: an image, or a link anywhere but to a
// recorded session (the only links the profile panel writes). Empty when there is none.
QString foreignMarkup(const QString& html)
{
    QTextDocument document;
    document.setHtml(html);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isImageFormat())
                return QStringLiteral("an image (%1)").arg(format.toImageFormat().name());
            if (format.isAnchor() && !format.anchorHref().isEmpty() && !format.anchorHref().startsWith(QLatin1String("recorded:")))
                return QStringLiteral("a link to %1").arg(format.anchorHref());
        }
    return {};
}

// Every label and tooltip under `root` that Qt renders as rich text carries no foreign markup.
void checkNoLabelOrToolTipRendersMarkup(QWidget* root)
{
    auto check = [](const QString& text, Qt::TextFormat format, const QString& where) {
        if (!shownAsRichText(text, format))
            return;
        const QString found = foreignMarkup(text);
        QVERIFY2(found.isEmpty(), qPrintable(where + QStringLiteral(" renders ") + found + QStringLiteral(": ") + text));
    };
    for (QLabel* label : root->findChildren<QLabel*>()) {
        check(label->text(), label->textFormat(), QStringLiteral("label '%1'").arg(label->objectName()));
        if (QTest::currentTestFailed())
            return;
    }
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        check(widget->toolTip(), Qt::AutoText, QStringLiteral("the tooltip of '%1'").arg(widget->objectName()));
        if (QTest::currentTestFailed())
            return;
    }
    for (QTreeWidget* tree : root->findChildren<QTreeWidget*>())
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            QList<QTreeWidgetItem*> items{tree->topLevelItem(i)};
            for (qsizetype j = 0; j < items.size(); ++j) // every level (the metrics table nests rows in sections)
                for (int k = 0; k < items.at(j)->childCount(); ++k)
                    items << items.at(j)->child(k);
            for (QTreeWidgetItem* item : items)
                for (int c = 0; c < tree->columnCount(); ++c) {
                    check(item->toolTip(c), Qt::AutoText, QStringLiteral("a tooltip in '%1'").arg(tree->objectName()));
                    if (QTest::currentTestFailed())
                        return;
                }
        }
    for (QTableWidget* table : root->findChildren<QTableWidget*>())
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (const QTableWidgetItem* item = table->item(r, c)) {
                    check(item->toolTip(), Qt::AutoText, QStringLiteral("a tooltip in '%1'").arg(table->objectName()));
                    if (QTest::currentTestFailed())
                        return;
                }
    for (QTextBrowser* browser : root->findChildren<QTextBrowser*>()) {
        check(browser->toHtml(), Qt::RichText, QStringLiteral("the page '%1'").arg(browser->objectName()));
        if (QTest::currentTestFailed())
            return;
    }
}

QLabel* labelNamed(QWidget* root, const QString& name)
{
    return root->findChild<QLabel*>(name);
}

// A fresh window with the probe named by `probe` (empty: none) and recorded sessions from
// `recordedDir` (empty: none).
struct WindowUnderTest {
    explicit WindowUnderTest(const QString& probe = {}, const QString& recordedDir = {})
    {
        if (probe.isEmpty())
            qunsetenv("WARPSCOPE_PROBE");
        else
            qputenv("WARPSCOPE_PROBE", QFile::encodeName(probe));
        qputenv("WARPSCOPE_RECORDED_DIR", QFile::encodeName(recordedDir.isEmpty() ? emptyDir.path() : recordedDir));
        window = std::make_unique<MainWindow>(MainWindow::Options{.restoreSettings = false, .progressFile = {}});
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
        panel->setTerminateGrace(300);
    }
    ~WindowUnderTest()
    {
        qunsetenv("WARPSCOPE_RECORDED_DIR");
        qunsetenv("WARPSCOPE_PROBE");
    }
    QTemporaryDir emptyDir;
    std::unique_ptr<MainWindow> window;
    ProfilePanel* panel = nullptr;
};

bool waitUntilIdle(ProfilePanel* panel, int milliseconds = 10000)
{
    QElapsedTimer timer;
    timer.start();
    while (panel->isProfiling() && timer.elapsed() < milliseconds)
        QTest::qWait(20);
    return !panel->isProfiling();
}

struct CommandResult {
    int exitCode = -1;
    QString out, err;
};

CommandResult runWarpscope(const QStringList& arguments, const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(WARPSCOPE_BINARY), arguments);
    CommandResult result;
    if (!process.waitForFinished(60000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// A stand-in for warpscope-probe that writes its arguments, each ended by a NUL byte, to
// `argumentsFile`, then an empty but complete session.
QByteArray argumentRecorderScript(const QString& argumentsFile)
{
    return "#!/bin/sh\n"
           "# Test stand-in for warpscope-probe (not a measurement): records its arguments, NUL-separated.\n"
           "for argument in \"$@\"; do printf '%s\\0' \"$argument\"; done > '" +
           QFile::encodeName(argumentsFile) +
           "'\n"
           "printf '%s\\n' '{\"format\":\"warpscope-session\",\"version\":1,\"producer\":\"stand-in probe\","
           "\"created\":\"2026-01-02T03:04:05Z\",\"host\":\"stand-in\"}'\n"
           "printf '%s\\n' '{\"type\":\"end\",\"status\":\"ok\",\"wall_seconds\":0.0}'\n"
           "exit 0\n";
}

QList<QByteArray> recordedArguments(const QString& argumentsFile)
{
    QList<QByteArray> arguments = readAll(argumentsFile).split('\0');
    if (!arguments.isEmpty() && arguments.back().isEmpty())
        arguments.removeLast(); // after the last NUL
    return arguments;
}

} // namespace

class UntrustedTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void hostileFixtureMatchesItsBuilder()
    {
        const QByteArray expected = QByteArray::fromStdString(hostileStream());
        if (qEnvironmentVariableIsSet("WARPSCOPE_REGENERATE_FIXTURES"))
            QVERIFY(writeAll(kHostileFixture, expected));
        QVERIFY2(readAll(kHostileFixture) == expected,
                 qPrintable(kHostileFixture + QStringLiteral(" differs from hostileStream() in untrusted_test.cpp "
                                                             "(WARPSCOPE_REGENERATE_FIXTURES=1 rewrites it)")));
    }

    void hostileSessionIsShownAsPlainText()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(kHostileFixture));
        viz::ProfileViews* views = w.panel->views();
        const QString first = q(kKernel);
        const QString second = q(kSecondKernel);
        const QString firstLabel = first + QStringLiteral(" \u2014 ") + q(kTitle);
        const QString secondLabel = second + QStringLiteral(" \u2014 ") + q(kSecondTitle);

        // The panel's own labels: rich text with every session string escaped.
        QLabel* title = labelNamed(w.window.get(), QStringLiteral("profileTitle"));
        QVERIFY(title != nullptr);
        QCOMPARE(title->textFormat(), Qt::RichText);
        QVERIFY2(title->text().contains(QStringLiteral("&lt;img src=x&gt;GPU")), qPrintable(title->text()));
        QVERIFY2(visibleText(title->text(), title->textFormat()).contains(q(kDevice)), qPrintable(title->text()));
        QVERIFY(w.panel->titleText().contains(q(kDevice)));
        const QString notice = w.panel->noticeText();
        for (const QString& expected : {q(kErrorCode), second, q(kErrorMessage), first, q(kCheckReference), q(kCheckDetail),
                                        q(kUnknownType)})
            QVERIFY2(notice.contains(expected), qPrintable(expected + QStringLiteral(" not in the notice: ") + notice));
        QCOMPARE(w.panel->problems().size(), 1);
        QVERIFY(w.panel->problems().front().contains(QStringLiteral("unknown record type '%1'").arg(q(kUnknownType))));

        // Metrics: plain items; tooltips that Qt would take for HTML are escaped.
        ProfileMetricsTable* metrics = views->metricsTable();
        QCOMPARE(metrics->kernels(), (QStringList{first, second}));
        QTreeWidget* tree = metrics->tree();
        QCOMPARE(tree->topLevelItem(0)->text(ProfileMetricsTable::TitleColumn), firstLabel);
        QCOMPARE(tree->topLevelItem(1)->text(ProfileMetricsTable::TitleColumn), secondLabel);
        QCOMPARE(visibleText(tree->topLevelItem(0)->toolTip(ProfileMetricsTable::TitleColumn)),
                 QStringLiteral("%1 (entry %2)").arg(q(kSourceName), q(kEntry)));
        QCOMPARE(metrics->cellText(first, q(kMetric), ProfileMetricsTable::NameColumn), q(kMetric));
        QCOMPARE(metrics->cellText(first, q(kMetric), ProfileMetricsTable::ValueColumn), QStringLiteral("42 ") + q(kUnit));
        QCOMPARE(visibleText(metrics->cellToolTip(first, q(kMetric), ProfileMetricsTable::ValueColumn)),
                 QStringLiteral("42 ") + q(kUnit));
        QVERIFY(visibleText(metrics->cellToolTip(first, q(kMetric), ProfileMetricsTable::TitleColumn)).contains(q(kMetric)));
        // The failed kernel's reason quotes the probe's error record.
        const QString reason = QStringLiteral("The probe reported an error for this kernel (%1): %2").arg(q(kErrorCode), q(kErrorMessage));
        QCOMPARE(visibleText(metrics->cellToolTip(second, QLatin1String(ProfileMetricsTable::kNoMetrics), ProfileMetricsTable::ValueColumn)),
                 reason);

        // Bandwidth: the kernel titles escaped in bold, the reason as a plain label.
        viz::ProfileBandwidthPanel* bandwidth = views->bandwidthPanel();
        QVERIFY(visibleText(bandwidth->headerText(), Qt::RichText).contains(q(kMethod)));
        QVERIFY(visibleText(bandwidth->headerText(), Qt::RichText).contains(q(kTheoreticalSource)));
        QStringList titles, meanings;
        for (QLabel* label : bandwidth->findChildren<QLabel*>(QStringLiteral("bandwidthKernelTitle")))
            titles << visibleText(label->text(), label->textFormat());
        for (QLabel* label : bandwidth->findChildren<QLabel*>(QStringLiteral("bandwidthMeaning"))) {
            QCOMPARE(label->textFormat(), Qt::PlainText);
            meanings << label->text();
        }
        QCOMPARE(titles, (QStringList{firstLabel, secondLabel}));
        QVERIFY2(meanings.contains(reason), qPrintable(meanings.join(QLatin1Char('\n'))));

        // Roofline: the table's names are plain, their tooltips and the hover text escaped.
        viz::ProfileRooflinePlot* roofline = views->rooflinePlot();
        ProfileRooflineTable* rooflineTable = roofline->table();
        QCOMPARE(rooflineTable->cellText(first, ProfileRooflineTable::KernelColumn), first);
        QCOMPARE(visibleText(rooflineTable->cellToolTip(first, ProfileRooflineTable::KernelColumn)), firstLabel);
        QCOMPARE(visibleText(rooflineTable->cellToolTip(second, ProfileRooflineTable::FlopsColumn)), reason);
        const QString hover = roofline->hoverText(first, session::MemoryLevel::Dram);
        QVERIFY2(!hover.isEmpty(), "the first kernel has a DRAM point");
        QVERIFY2(visibleText(hover).contains(first + QStringLiteral(" (") + q(kLadder) + QStringLiteral(" ladder, rung 1)")),
                 qPrintable(hover));
        QVERIFY(visibleText(roofline->noteText(), Qt::RichText).contains(QStringLiteral("Roofs")));

        // Predicted vs measured: plain cells; tooltips and the legend keep the session's words.
        ProfilePredictionPanel* predictionPanel = views->predictionPanel();
        QTableWidget* predictions = predictionPanel->table();
        QCOMPARE(predictions->item(0, ProfilePredictionPanel::QuantityColumn)->text(), firstLabel);
        QCOMPARE(predictionPanel->cellText(first, QStringLiteral("check"), ProfilePredictionPanel::DifferenceColumn), q(kCheckDetail));
        const int checkRow = [&] {
            for (int r = 0; r < predictions->rowCount(); ++r)
                if (predictions->item(r, ProfilePredictionPanel::DifferenceColumn) != nullptr &&
                    predictions->item(r, ProfilePredictionPanel::DifferenceColumn)->text() == q(kCheckDetail))
                    return r;
            return -1;
        }();
        QVERIFY(checkRow >= 0);
        QCOMPARE(visibleText(predictions->item(checkRow, ProfilePredictionPanel::DifferenceColumn)->toolTip()), q(kCheckDetail));
        QCOMPARE(visibleText(predictions->item(checkRow, ProfilePredictionPanel::MeasuredColumn)->toolTip()), q(kCheckDetail));
        bool limiterShown = false;
        for (int r = 0; r < predictions->rowCount(); ++r)
            if (const QTableWidgetItem* item = predictions->item(r, ProfilePredictionPanel::PredictedColumn))
                limiterShown = limiterShown || visibleText(item->toolTip()).contains(QStringLiteral("limited by %1").arg(q(kLimiter)));
        QVERIFY(limiterShown);
        QLabel* legend = labelNamed(predictionPanel, QStringLiteral("predictionLegend"));
        QVERIFY(legend != nullptr);
        QCOMPARE(legend->textFormat(), Qt::PlainText);
        QVERIFY(legend->text().contains(QStringLiteral("(preset %1)").arg(q(kPreset))));

        // The session page: every string, literally, and placeholders left as they are.
        const QString page = views->sessionPanel()->plainText();
        for (const char* expected : {kHost, kDevice, kMethod, kTheoreticalSource, kKernel, kTitle, kEntry, kSourceName,
                                     kLadder, kArg, kSecondKernel, kSecondTitle, kErrorCode, kErrorMessage, kLog, kUnknownType})
            QVERIFY2(page.contains(q(expected)), qPrintable(q(expected) + QStringLiteral(" not on the session page")));
        QVERIFY(page.contains(QStringLiteral("ok after 0.50 s")));

        // And nothing in the Profile dock renders as an image or a link.
        checkNoLabelOrToolTipRendersMarkup(w.panel);
    }

    void streamedHostileSessionIsShownAsPlainText()
    {
        // A stand-in probe streams the fixture: its progress record, a pause, the rest, then a
        // hostile line on stderr and exit 1 (a kernel failed).
        QTemporaryDir dir;
        const QString probe = dir.filePath(QStringLiteral("streams_hostile.sh"));
        QVERIFY(writeScript(probe, "#!/bin/sh\n"
                                   "# Test stand-in for warpscope-probe (not a measurement): streams a hostile session.\n"
                                   "head -n 2 '" + QFile::encodeName(kHostileFixture) + "'\n"
                                   "sleep 2\n"
                                   "tail -n +3 '" + QFile::encodeName(kHostileFixture) + "'\n"
                                   "printf '%s\\n' '" + QByteArray(kStderr) + "' >&2\n"
                                   "exit 1\n"));
        WindowUnderTest w(probe);
        QVERIFY(w.panel->startProfile());
        QLabel* progress = labelNamed(w.window.get(), QStringLiteral("profileProgressText"));
        QVERIFY(progress != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(progress->text().contains(q(kStage)), 5000);
        QCOMPARE(progress->textFormat(), Qt::PlainText);
        QCOMPARE(progress->text(), QStringLiteral("%1: %2").arg(q(kStage), q(kKernel)));
        QVERIFY(waitUntilIdle(w.panel));
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::KernelFailed);
        const QString banner = w.panel->bannerText();
        // The outcome quotes the last error record, and the probe's stderr, as they were written.
        QVERIFY2(banner.contains(QStringLiteral("It said: %1: %2 (%3).").arg(q(kSecondKernel), q(kErrorMessage), q(kErrorCode))),
                 qPrintable(banner));
        QVERIFY2(banner.contains(q(kStderr)), qPrintable(banner));
        QVERIFY(w.panel->titleText().contains(q(kDevice)));
        QCOMPARE(w.panel->views()->metricsTable()->kernels(), (QStringList{q(kKernel), q(kSecondKernel)}));
        checkNoLabelOrToolTipRendersMarkup(w.panel);
    }

    void recordedSessionListShowsNamesAsPlainText()
    {
        // A recorded-session folder holding the hostile session: the empty panel lists it as a link
        // whose words are the session's, escaped; opening it names it the same way.
        QTemporaryDir recorded;
        QVERIFY(QDir().mkpath(recorded.filePath(QStringLiteral("gpu"))));
        QVERIFY(QFile::copy(kHostileFixture, recorded.filePath(QStringLiteral("gpu/hostile.wsprof"))));
        WindowUnderTest w({}, recorded.path());
        QCOMPARE(w.panel->recordedSessions().size(), 1);
        const QString title = w.panel->titleText();
        QVERIFY2(title.contains(q(kDevice)), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("the %1 ladder, 2 kernels").arg(q(kLadder))), qPrintable(title));
        checkNoLabelOrToolTipRendersMarkup(w.panel);
        QVERIFY(w.panel->openRecordedSession(0));
        QVERIFY(w.panel->titleText().contains(QStringLiteral("recorded session: %1").arg(q(kDevice))));
        checkNoLabelOrToolTipRendersMarkup(w.panel);
    }

    void sessionShowPrintsTheLiteralStrings()
    {
        const CommandResult result = runWarpscope({QStringLiteral("session"), QStringLiteral("show"), kHostileFixture});
        QVERIFY2(result.exitCode >= 0, "warpscope session show did not finish");
        for (const char* expected : {kHost, kDevice, kKernel, kTitle, kSecondKernel, kErrorCode, kErrorMessage})
            QVERIFY2(result.out.contains(q(expected)),
                     qPrintable(q(expected) + QStringLiteral(" not in the output of session show:\n") + result.out));
        QVERIFY2(result.err.contains(QStringLiteral("unknown record type '%1'").arg(q(kUnknownType))), qPrintable(result.err));
    }

    void probeGetsAPathWithShellCharactersAsOneArgument()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("ran"));
        // Every way a shell would split the path or run part of it: spaces, both quotes, $(...),
        // backquotes, ; | & and a newline. '/' inside $(...) makes folders of its own.
        const QString kernel = dir.path() + QStringLiteral("/it's a \"dir\" $(touch ") + marker + QStringLiteral(") `touch ") +
                               marker + QStringLiteral("`; touch ") + marker + QStringLiteral(" | & \n#/k $(touch ") + marker +
                               QStringLiteral(").cu");
        QVERIFY(QDir().mkpath(QFileInfo(kernel).path()));
        QVERIFY(writeAll(kernel, "// never compiled: the stand-in probe only records its arguments\n"));
        QVERIFY(QFileInfo(kernel).isFile());
        const QString entry = QStringLiteral("entry $(touch %1) '; touch %1").arg(marker);
        const QString argumentsFile = dir.filePath(QStringLiteral("arguments"));
        const QString probe = dir.filePath(QStringLiteral("records_arguments.sh"));
        QVERIFY(writeScript(probe, argumentRecorderScript(argumentsFile)));

        // The window.
        {
            WindowUnderTest w(probe);
            app::ProbeRequest request;
            request.kind = app::ProbeTargetKind::File;
            request.target = kernel;
            request.entry = entry;
            request.args = {QStringLiteral("n=i32:4")};
            QVERIFY(w.panel->startProfile(request));
            QVERIFY(waitUntilIdle(w.panel));
            QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::Succeeded);
            const QList<QByteArray> expected{"--metrics", "headline", "--kernel", entry.toUtf8(), "--arg", "n=i32:4",
                                             QFile::encodeName(kernel)};
            QCOMPARE(recordedArguments(argumentsFile), expected);
            QVERIFY2(!QFile::exists(marker), "a shell ran part of the path");
        }

        // The command line.
        QVERIFY(QFile::remove(argumentsFile));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("WARPSCOPE_PROBE"), probe);
        const CommandResult result =
            runWarpscope({QStringLiteral("profile"), kernel, QStringLiteral("--kernel"), entry}, environment);
        QCOMPARE(result.exitCode, 0);
        const QList<QByteArray> arguments = recordedArguments(argumentsFile);
        QVERIFY(!arguments.isEmpty());
        QCOMPARE(arguments.back(), QFile::encodeName(kernel));
        const qsizetype kernelFlag = arguments.indexOf("--kernel");
        QVERIFY(kernelFlag >= 0 && kernelFlag + 1 < arguments.size());
        QCOMPARE(arguments.at(kernelFlag + 1), entry.toUtf8());
        QCOMPARE(arguments.count(QFile::encodeName(kernel)), 1);
        QVERIFY2(!QFile::exists(marker), "a shell ran part of the path");
    }

    void failedSaveSaysSoAndKeepsTheEarlierFile()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->openSessionFile(kHostileFixture));
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                      QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));

        // A folder that does not exist: the message names the path and why.
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/saved.wsprof"));
        const std::optional<QString> missingError = w.panel->saveSessionAs(missing);
        QVERIFY(missingError.has_value());
        QCOMPARE(*missingError, QStringLiteral("Cannot write %1 (No such file or directory)").arg(missing));
        QVERIFY(!QFileInfo::exists(missing));

        // A read-only folder holding an earlier session: the save fails, the earlier file is intact
        // and no temporary file is left beside it.
        const QString folder = dir.filePath(QStringLiteral("read-only"));
        QVERIFY(QDir().mkpath(folder));
        const QString earlier = folder + QStringLiteral("/earlier.wsprof");
        const QByteArray earlierBytes = readAll(kFixtures + QStringLiteral("/sessions/ladder.wsprof"));
        QVERIFY(!earlierBytes.isEmpty());
        QVERIFY(writeAll(earlier, earlierBytes));
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                                                  QFile::ReadOther | QFile::ExeOther));
        // Root ignores permission bits: check files as an unprivileged user on this thread
        // (setfsuid), as a learner's account would be checked.
        const bool asRoot = ::geteuid() == 0;
        if (asRoot)
            ::setfsuid(65534);
        const int probe = ::open(QFile::encodeName(folder + QStringLiteral("/probe")).constData(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        const std::optional<QString> error = probe >= 0 ? std::nullopt : w.panel->saveSessionAs(earlier);
        if (asRoot)
            ::setfsuid(0);
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (probe >= 0) {
            ::close(probe);
            QSKIP("this account can write into a read-only folder; the read-only case cannot be checked here");
        }
        QVERIFY(error.has_value());
        QCOMPARE(*error, QStringLiteral("Cannot write %1 (Permission denied)").arg(earlier));
        QCOMPARE(readAll(earlier), earlierBytes);
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList{QStringLiteral("earlier.wsprof")});

        // Once the folder can be written again, the same save replaces the file whole.
        QVERIFY(!w.panel->saveSessionAs(earlier).has_value());
        QCOMPARE(readAll(earlier), readAll(kHostileFixture));
    }

    void profileOutKeepsTheEarlierFileWhenTheProbeRefuses()
    {
        QTemporaryDir dir;
        const QString probe = dir.filePath(QStringLiteral("refuses.sh"));
        QVERIFY(writeScript(probe, "#!/bin/sh\n"
                                   "# Test stand-in for warpscope-probe: refuses its input before writing a session.\n"
                                   "echo \"warpscope-probe: --grid 'x': not a number\" >&2\n"
                                   "exit 2\n"));
        const QString earlier = dir.filePath(QStringLiteral("earlier.wsprof"));
        const QByteArray earlierBytes = readAll(kHostileFixture);
        QVERIFY(writeAll(earlier, earlierBytes));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("WARPSCOPE_PROBE"), probe);
        CommandResult result = runWarpscope({QStringLiteral("profile"), QStringLiteral("vector_add"), QStringLiteral("--out"), earlier},
                                            environment);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(QStringLiteral("--grid 'x': not a number")), qPrintable(result.err));
        QCOMPARE(readAll(earlier), earlierBytes);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), (QStringList{QStringLiteral("earlier.wsprof"),
                                                                                       QStringLiteral("refuses.sh")}));

        // --out in a folder that does not exist: exit 2 before the probe starts, with the reason.
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/out.wsprof"));
        result = runWarpscope({QStringLiteral("profile"), QStringLiteral("vector_add"), QStringLiteral("--out"), missing}, environment);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(QStringLiteral("--out: cannot write '%1': No such file or directory").arg(missing)),
                 qPrintable(result.err));
    }
};

QTEST_MAIN(UntrustedTest)
#include "untrusted_test.moc"
