// The profile views as a learner meets them (issue 14, section 4), on the sessions recorded on an
// H200 (assets/recorded/h200): the metrics table groups each kernel's rows into time, memory,
// compute and occupancy with a filter box, shows long ncu names in full on hover, and explains an
// L2 hit rate that ncu reports past 100 %; without a GPU, Profile says so in one sentence and keeps
// the driver's error under Details; the Profile form follows the session that is open, and offers
// --compute for a .cu file only.
#include "gui_test_support.h"
#include "common/validated_field.h"
#include "profile/profile_form.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_panel.h"
#include "profile/profile_session_panel.h"
#include "profile/profile_views.h"
#include "profile/recorded_sessions.h"
#include "profile/probe_request.h"
#include "ptx/cuda_compiler.h"
#include "session/metric_catalog.h"
#include "session/session.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QDir>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>

#include <memory>
#include <string>
#include <string_view>

using namespace warpscope;
using app::ProfilePanel;
using viz::ProfileMetricsTable;
namespace metric = warpscope::session::metric;

namespace {

using warpscope::gui_test::saveShot;

QString visibleText(const QString& html)
{
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

// Pastes `text` over the field's text in one edit, as a user pasting does.
void typeInto(viz::ValidatedField* field, const QString& text)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    if (text.isEmpty())
        QTest::keyClick(edit, Qt::Key_Backspace);
    else
        edit->insert(text);
}

// A fresh window listing the program's own recorded sessions, with no probe or the stand-in `probe`.
struct WindowUnderTest {
    explicit WindowUnderTest(const QString& probe = {})
    {
        if (probe.isEmpty())
            qunsetenv("WARPSCOPE_PROBE");
        else
            qputenv("WARPSCOPE_PROBE", probe.toLocal8Bit());
        qunsetenv("WARPSCOPE_RECORDED_DIR");
        window = std::make_unique<app::MainWindow>(app::MainWindow::Options{.restoreSettings = false});
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
    }
    // Opens h200/<file> from the recorded sessions.
    bool openRecorded(const QString& file)
    {
        const QList<app::RecordedSession> recorded = panel->recordedSessions();
        for (int i = 0; i < recorded.size(); ++i)
            if (recorded.at(i).path.endsWith(QStringLiteral("h200/") + file))
                return panel->openRecordedSession(i);
        return false;
    }
    std::unique_ptr<app::MainWindow> window;
    ProfilePanel* panel = nullptr;
};

} // namespace

class ProfileLearnerTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // Every row of every kernel sits in one section; sections come in a fixed order; a few rows by
    // hand: what each measures decides its section.
    void metricsAreGroupedBySection()
    {
        WindowUnderTest w;
        QVERIFY(w.openRecorded(QStringLiteral("demo-kernels.wsprof")));
        ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const session::Session& s = w.panel->session();
        QCOMPARE(table->kernels().size(), 19);
        const QStringList order = {QStringLiteral("time"),      QStringLiteral("memory"), QStringLiteral("compute"),
                                   QStringLiteral("occupancy"), QStringLiteral("other"),  QStringLiteral("profiler")};
        for (const QString& kernel : table->kernels()) {
            const QStringList sections = table->sections(kernel);
            QVERIFY(sections.size() >= 4);
            int last = -1;
            for (const QString& section : sections) {
                QVERIFY2(order.indexOf(section) > last, qPrintable(kernel + ": " + sections.join(',')));
                last = static_cast<int>(order.indexOf(section));
            }
            // Every measured metric, unavailable metric and Activity value is a row, once.
            const session::MetricsRecord* metrics = s.metricsFor(kernel.toStdString());
            QVERIFY(metrics != nullptr);
            const QStringList keys = table->rowKeys(kernel);
            QCOMPARE(keys.size(), static_cast<qsizetype>(metrics->values.size() + metrics->unavailable.size() + 5 + 1));
            for (const auto& [name, value] : metrics->values)
                QVERIFY2(keys.count(QString::fromStdString(name)) == 1, name.c_str());
        }
        const QString kernel = table->kernels().front();
        auto section = [&](const QString& key) { return table->sectionOf(kernel, key); };
        QCOMPARE(section(QLatin1String(ProfileMetricsTable::kActivityDuration)), QStringLiteral("time"));
        QCOMPARE(section(QLatin1String(metric::kDuration)), QStringLiteral("time"));
        QCOMPARE(section(QLatin1String(metric::kSmClock)), QStringLiteral("time"));
        QCOMPARE(section(QLatin1String(metric::kDramRead)), QStringLiteral("memory"));
        QCOMPARE(section(QLatin1String(metric::kL2HitRate)), QStringLiteral("memory"));
        QCOMPARE(section(QLatin1String(metric::kSharedLoadConflicts)), QStringLiteral("memory"));
        QCOMPARE(section(QLatin1String(ProfileMetricsTable::kActivityLocal)), QStringLiteral("memory"));
        QCOMPARE(section(QLatin1String(metric::kFfma)), QStringLiteral("compute"));
        QCOMPARE(section(QLatin1String(metric::kBranchUniformPct)), QStringLiteral("compute"));
        QCOMPARE(section(QLatin1String(metric::kSmThroughputPct)), QStringLiteral("compute"));
        QCOMPARE(section(QLatin1String(metric::kWarpsActive)), QStringLiteral("occupancy"));
        QCOMPARE(section(QLatin1String(ProfileMetricsTable::kActivityRegisters)), QStringLiteral("occupancy"));
        QCOMPARE(section(QLatin1String(ProfileMetricsTable::kActivityStaticShared)), QStringLiteral("occupancy"));
        QCOMPARE(section(QLatin1String(ProfileMetricsTable::kReplayPasses)), QStringLiteral("profiler"));
        saveShot(*w.window, QStringLiteral("profile-metrics-sections"));
    }

    // The filter keeps the rows whose name, ncu name or section contains the text, in every kernel,
    // and says when none does; clearing it shows every row again.
    void theFilterKeepsMatchingRows()
    {
        WindowUnderTest w;
        QVERIFY(w.openRecorded(QStringLiteral("ladder-copy.wsprof")));
        ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const QStringList kernels = table->kernels();
        QCOMPARE(kernels.size(), 3);
        auto shownKeys = [&](const QString& kernel) {
            QStringList shown;
            for (const QString& key : table->rowKeys(kernel))
                if (table->rowShown(kernel, key))
                    shown << key;
            return shown;
        };
        QTest::keyClicks(table->filterEdit(), QStringLiteral("hit rate"));
        for (const QString& kernel : kernels)
            QCOMPARE(shownKeys(kernel), (QStringList{QLatin1String(metric::kL1HitRate), QLatin1String(metric::kL2HitRate)}));
        saveShot(*w.window, QStringLiteral("profile-metrics-filter"));

        table->setFilter(QStringLiteral("DRAM__BYTES_READ")); // the ncu name, any case
        for (const QString& kernel : kernels)
            QCOMPARE(shownKeys(kernel), QStringList{QLatin1String(metric::kDramRead)});

        table->setFilter(QStringLiteral("occupancy")); // a section's name shows the whole section
        for (const QString& kernel : kernels)
            for (const QString& key : table->rowKeys(kernel))
                QCOMPARE(table->rowShown(kernel, key), table->sectionOf(kernel, key) == QStringLiteral("occupancy") ||
                                                           key == QLatin1String(metric::kWarpsActive));

        table->setFilter(QStringLiteral("no such metric"));
        for (const QString& kernel : kernels)
            QVERIFY(shownKeys(kernel).isEmpty());
        auto* status = table->findChild<QLabel*>(QStringLiteral("profileMetricsFilterStatus"));
        QVERIFY(status != nullptr && status->isVisibleTo(table));
        QCOMPARE(status->text(), QStringLiteral("no row matches"));

        table->setFilter(QString());
        for (const QString& kernel : kernels)
            QCOMPARE(shownKeys(kernel), table->rowKeys(kernel));
        QVERIFY(!status->isVisibleTo(table));
    }

    // The ncu-name column elides long names; hovering shows the whole name first, then what it measures.
    void longNcuNamesAreShownInFullOnHover()
    {
        WindowUnderTest w;
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-vector_add.wsprof")));
        ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const QString kernel = table->kernels().front();
        const QString longName = QLatin1String(metric::kFfmaPeak);
        QVERIFY(longName.size() > 60);
        const QString tip = visibleText(table->cellToolTip(kernel, longName, ProfileMetricsTable::NameColumn));
        QVERIFY2(tip.startsWith(longName), qPrintable(tip));
        const std::string_view title = session::findMetric(longName.toStdString())->title;
        QVERIFY(tip.contains(QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size()))));
        QCOMPARE(table->cellText(kernel, longName, ProfileMetricsTable::NameColumn), longName);
    }

    // A hit rate past 100 % is never shown bare: the value is marked, a line under it says it is not a
    // share, and its tooltip explains why with this kernel's replay passes and the source; rates
    // inside 0..100 % have no note. The H200 reduction ladder reports 106.2 % for its first rung.
    void anL2HitRatePast100IsExplained()
    {
        WindowUnderTest w;
        QVERIFY(w.openRecorded(QStringLiteral("ladder-reduction.wsprof")));
        ProfileMetricsTable* table = w.panel->views()->metricsTable();
        const session::Session& s = w.panel->session();
        const QString l2 = QLatin1String(metric::kL2HitRate);
        int past100 = 0;
        for (const QString& kernel : table->kernels()) {
            const session::MetricsRecord* metrics = s.metricsFor(kernel.toStdString());
            QVERIFY(metrics != nullptr);
            const double reported = metrics->values.at(metric::kL2HitRate);
            const QString value = table->cellText(kernel, l2, ProfileMetricsTable::ValueColumn);
            if (reported <= 100.0) {
                QVERIFY(table->rowNote(kernel, l2).isEmpty());
                QVERIFY(!value.contains(QStringLiteral("\u26a0")));
                continue;
            }
            ++past100;
            QCOMPARE(value, QStringLiteral("%1 % \u26a0").arg(reported, 0, 'f', 1));
            QVERIFY(table->rowNote(kernel, l2).startsWith(QStringLiteral("above 100 %: not a share")));
            const QString why = visibleText(table->rowNoteToolTip(kernel, l2));
            QVERIFY2(why.contains(QStringLiteral("replayed %1 times").arg(metrics->passes)), qPrintable(why));
            QVERIFY(why.contains(QStringLiteral("forums.developer.nvidia.com/t/weird-number-for-l2-cache-hitrate/120341")));
            QVERIFY(visibleText(table->cellToolTip(kernel, l2, ProfileMetricsTable::ValueColumn))
                        .contains(QStringLiteral("could not be collected accurately")));
        }
        QCOMPARE(past100, 6); // every rung of the recorded ladder: 106.2, 103.7, 103.8, 105.2, 102.9, 106.1 %
        const QString first = table->kernels().front();
        QCOMPARE(table->cellText(first, l2, ProfileMetricsTable::ValueColumn), QStringLiteral("106.2 % \u26a0"));
        saveShot(*w.window, QStringLiteral("profile-metrics-l2-note"));

        // A GPU-sized launch stays inside 0..100 %: no note.
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-vector_add.wsprof")));
        const QString kernel = table->kernels().front();
        QCOMPARE(table->cellText(kernel, l2, ProfileMetricsTable::ValueColumn), QStringLiteral("33.6 %"));
        QVERIFY(table->rowNote(kernel, l2).isEmpty());
    }

    // A probe that finds no NVIDIA driver (tests/fixtures/probe/no_gpu.sh, exit 3): the banner says so
    // in one sentence that points to the recorded sessions; the driver's error, which the probe gives
    // twice (its error record and its stderr), is shown only under Details, and only once asked.
    void noGpuIsOneSentenceWithTheErrorUnderDetails()
    {
        WindowUnderTest w(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/probe/no_gpu.sh"));
        QVERIFY(w.panel->startProfile());
        QElapsedTimer timer;
        timer.start();
        while (w.panel->isProfiling() && timer.elapsed() < 8000)
            QTest::qWait(20);
        QVERIFY(!w.panel->isProfiling());
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::NoGpu);
        const QString sentence = ProfilePanel::noGpuSentence(QString());
        QCOMPARE(sentence, QStringLiteral("This machine has no NVIDIA driver or GPU, so kernels cannot be profiled here; "
                                          "sessions recorded on real GPUs are under File > Open Recorded Session."));
        // What the panel shows: the sentence once, no raw error anywhere, the recorded sessions to open.
        const QString shown = w.panel->visibleBannerText() + QLatin1Char('\n') + w.panel->noticeText() + QLatin1Char('\n') +
                              w.panel->titleText();
        QCOMPARE(shown.count(sentence), 1);
        QVERIFY2(!shown.contains(QStringLiteral("libcuda")), qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("exit 3")));
        QVERIFY(shown.contains(QStringLiteral("vector_add, 1,048,576 blocks of 256 threads"))); // a recorded session to open
        QVERIFY(w.panel->visibleBannerText().contains(QStringLiteral("Details \u25b8")));
        QCOMPARE(w.window->statusBar()->currentMessage(), sentence);
        saveShot(*w.window, QStringLiteral("profile-no-gpu"));

        // Details: the probe's own words, as it wrote them.
        w.panel->setBannerDetailsShown(true);
        QVERIFY(w.panel->bannerDetailsShown());
        const QString details = w.panel->visibleBannerText();
        QVERIFY(details.contains(QStringLiteral("Details \u25be")));
        QVERIFY(details.contains(QStringLiteral("no NVIDIA driver: libcuda.so.1 was not found (no_driver)")));
        QVERIFY(details.contains(QStringLiteral("warpscope-probe: no NVIDIA driver (libcuda.so.1 not found)")));
        QCOMPARE(details.count(sentence), 1);
        saveShot(*w.window, QStringLiteral("profile-no-gpu-details"));
        w.panel->setBannerDetailsShown(false);
        QVERIFY(!w.panel->visibleBannerText().contains(QStringLiteral("libcuda")));
    }

    // The form starts on copy_coalesced; opening a recorded session makes it show what that session
    // measured, so Profile would measure the same again: a kernel with its launch, a ladder with the
    // argument specs its rungs share, the kernel picked in the metrics table, a .cu file with the
    // architecture it was compiled for. Picking another kernel clears the launch that came from the session.
    void theFormFollowsTheOpenSession()
    {
        WindowUnderTest w;
        app::ProfileForm* form = w.panel->form();
        QCOMPARE(form->request().kind, app::ProbeTargetKind::DemoKernel);
        QCOMPARE(form->request().target, QStringLiteral("copy_coalesced"));
        QVERIFY(form->followNote().isEmpty());

        // One kernel at the GPU size: reduce_warp_shuffle, 131,072 blocks of 256 threads, n = 2^26.
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-reduce_warp_shuffle.wsprof")));
        app::ProbeRequest request = form->request();
        QCOMPARE(request.kind, app::ProbeTargetKind::DemoKernel);
        QCOMPARE(request.target, QStringLiteral("reduce_warp_shuffle"));
        QCOMPARE(request.grid, QStringLiteral("131072"));
        QCOMPARE(request.block, QStringLiteral("256"));
        QCOMPARE(request.smem, QString());
        QCOMPARE(request.args, (QStringList{"in=f32[n]:random(1)", "out=f32[cdiv(n,512)]", "n=i32:67108864"}));
        QVERIFY(!app::validateProbeRequest(request).has_value());
        QCOMPARE(form->followNote(), QStringLiteral("Following the open session: reduce_warp_shuffle, grid 131072 \u00d7 block 256"));
        saveShot(*w.window, QStringLiteral("profile-form-follows-kernel"));

        // The reduction ladder: the whole ladder, with the specs all six rungs ran with (their out
        // buffers differ: cdiv(n,256) for rungs 1-3, cdiv(n,512) for 4-6).
        QVERIFY(w.openRecorded(QStringLiteral("ladder-reduction.wsprof")));
        request = form->request();
        QCOMPARE(request.kind, app::ProbeTargetKind::Ladder);
        QCOMPARE(request.target, QStringLiteral("reduction"));
        QCOMPARE(request.args, (QStringList{"in=f32[n]:random(1)", "n=i32:131072"}));
        QVERIFY(request.grid.isEmpty() && request.block.isEmpty());
        QVERIFY(form->followNote().startsWith(QStringLiteral("Following the open session: the reduction ladder, 6 rungs")));

        // 19 kernels, no ladder: the first, then the one picked in the metrics table.
        QVERIFY(w.openRecorded(QStringLiteral("demo-kernels.wsprof")));
        const session::Session& s = w.panel->session();
        QCOMPARE(form->request().target, QString::fromStdString(s.kernels.front().id));
        QTreeWidget* tree = w.panel->views()->metricsTable()->tree();
        QTreeWidgetItem* picked = nullptr;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0).startsWith(QStringLiteral("transpose_naive")))
                picked = tree->topLevelItem(i)->child(1)->child(0); // a row under its second section
        QVERIFY(picked != nullptr);
        tree->setCurrentItem(picked);
        request = form->request();
        const session::KernelRecord* transpose = s.findKernel("transpose_naive");
        QVERIFY(transpose != nullptr);
        QCOMPARE(request.target, QStringLiteral("transpose_naive"));
        QCOMPARE(request.grid, QStringLiteral("%1,%2").arg(transpose->grid[0]).arg(transpose->grid[1]));
        QCOMPARE(request.block, QStringLiteral("%1,%2").arg(transpose->block[0]).arg(transpose->block[1]));

        // Picking another kernel by hand: the session's launch does not belong to it.
        auto* kernels = form->findChild<QComboBox*>(QStringLiteral("profileKernel"));
        QVERIFY(kernels != nullptr);
        kernels->setCurrentIndex(kernels->findData(QStringLiteral("vector_add")));
        request = form->request();
        QCOMPARE(request.target, QStringLiteral("vector_add"));
        QVERIFY(request.grid.isEmpty() && request.block.isEmpty() && request.args.isEmpty());
        QVERIFY(form->followNote().isEmpty());

        // A session of kernels that are not demos, whose source is not here: the form keeps its choice
        // (still one Profile can run) and says why.
        QVERIFY(w.panel->openSessionFile(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/sessions/ladder.wsprof")));
        request = form->request();
        QCOMPARE(request.target, QStringLiteral("vector_add"));
        QVERIFY(!app::validateProbeRequest(request).has_value());
        QVERIFY2(form->followNote().contains(QStringLiteral("fixture_naive")) &&
                     form->followNote().contains(QStringLiteral("not a demo kernel")),
                 qPrintable(form->followNote()));

        // A .cu file whose source is here, compiled for compute_80 (issue 15): Compute follows the
        // session's record, so Profile compiles it for the same architecture again.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cuPath = dir.filePath(QStringLiteral("scale.cu"));
        QFile cu(cuPath);
        QVERIFY(cu.open(QIODevice::WriteOnly));
        cu.write("extern \"C\" __global__ void scale(float* x, int n)\n"
                 "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] *= 2.0f;\n}\n");
        cu.close();
        auto writeSession = [&](const QString& name, const QJsonObject& kernel) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::WriteOnly))
                return QString();
            file.write("{\"format\":\"warpscope-session\",\"version\":1,\"producer\":\"profile_learner_test\"}\n");
            file.write(QJsonDocument(kernel).toJson(QJsonDocument::Compact) + '\n');
            file.write("{\"type\":\"end\",\"status\":\"ok\"}\n");
            return file.fileName();
        };
        QJsonObject kernel{{QStringLiteral("type"), QStringLiteral("kernel")},
                           {QStringLiteral("id"), QStringLiteral("scale")},
                           {QStringLiteral("entry"), QStringLiteral("scale")},
                           {QStringLiteral("source_name"), cuPath},
                           {QStringLiteral("grid"), QJsonArray{4, 1, 1}},
                           {QStringLiteral("block"), QJsonArray{32, 1, 1}},
                           {QStringLiteral("args"), QJsonArray{QStringLiteral("x=f32[n]:random(1)"), QStringLiteral("n=i32:128")}},
                           {QStringLiteral("launch_size"), QStringLiteral("custom")},
                           {QStringLiteral("cache_control"), QStringLiteral("all")},
                           {QStringLiteral("compute"), QStringLiteral("compute_80")}};
        const QString compute80 = writeSession(QStringLiteral("compute80.wsprof"), kernel);
        QVERIFY(!compute80.isEmpty());
        QVERIFY(w.panel->openSessionFile(compute80));
        auto* compute = form->findChild<viz::ValidatedField*>(QStringLiteral("profileCompute"));
        QVERIFY(compute != nullptr);
        QCOMPARE(compute->text(), QStringLiteral("compute_80"));
        QVERIFY(compute->isEnabled() && compute->valid());
        request = form->request();
        QCOMPARE(request.kind, app::ProbeTargetKind::File);
        QCOMPARE(request.target, cuPath);
        QCOMPARE(request.entry, QStringLiteral("scale"));
        QCOMPARE(request.compute, QStringLiteral("compute_80"));
        QVERIFY(!app::validateProbeRequest(request).has_value());
        QVERIFY(form->fieldErrors().isEmpty());
        QCOMPARE(form->followNote(), QStringLiteral("Following the open session: scale, grid 4 \u00d7 block 32, compiled for compute_80"));

        // The same kernel from a session written before the field: the default, compute_75, as then.
        kernel.remove(QStringLiteral("compute"));
        QVERIFY(w.panel->openSessionFile(writeSession(QStringLiteral("older.wsprof"), kernel)));
        QCOMPARE(compute->text(), QString());
        QCOMPARE(form->request().compute, QString());
        QCOMPARE(form->followNote(), QStringLiteral("Following the open session: scale, grid 4 \u00d7 block 32"));

        // A demo kernel's session: its PTX is the build's, so Compute is left empty, not kept from the file.
        QVERIFY(w.panel->openSessionFile(compute80));
        QCOMPARE(compute->text(), QStringLiteral("compute_80"));
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-reduce_warp_shuffle.wsprof")));
        QCOMPARE(form->request().kind, app::ProbeTargetKind::DemoKernel);
        QCOMPARE(compute->text(), QString());
        QVERIFY(!compute->isEnabled());
    }

    // Runs, Device and Hang timeout handle bad input as every other field (issue 14, section 2): checked
    // as typed, marked with the field's own range (the probe's: runs 0..1000, device 0..255, hang
    // timeout 1..86400 s), every bad field at once, nothing rewritten, and Profile waits and says why.
    void theFormsNumberFieldsAreCheckedAsTyped()
    {
        WindowUnderTest w;
        app::ProfileForm* form = w.panel->form();
        auto* runs = form->findChild<viz::ValidatedField*>(QStringLiteral("profileRuns"));
        auto* device = form->findChild<viz::ValidatedField*>(QStringLiteral("profileDevice"));
        auto* hang = form->findChild<viz::ValidatedField*>(QStringLiteral("profileHangTimeout"));
        auto* errors = form->findChild<QLabel*>(QStringLiteral("profileFieldErrors"));
        QVERIFY(runs && device && hang && errors);
        QPushButton* profile = w.panel->profileButton();
        form->setHangTimeoutSeconds(180);
        QVERIFY(runs->valid() && device->valid() && hang->valid());
        QCOMPARE(hang->text(), QStringLiteral("180 s"));
        QCOMPARE(form->request().runs, 0); // empty: the probe's default
        QCOMPARE(form->request().device, 0);
        QVERIFY(profile->isEnabled());
        QVERIFY(form->fieldErrors().isEmpty() && errors->isHidden());

        // Out of range: kept as typed (the spin box refused 2000), marked with the runs range.
        typeInto(runs, QStringLiteral("2000"));
        QVERIFY(!runs->valid());
        QCOMPARE(runs->text(), QStringLiteral("2000"));
        const QString runsError = QStringLiteral("runs: 2000 is out of range (allowed: 0..1,000; empty or 0: the probe's default)");
        QCOMPARE(runs->errorText(), runsError);
        QVERIFY(!profile->isEnabled());
        QVERIFY(profile->toolTip().contains(runsError));
        QVERIFY(errors->isVisible());
        QVERIFY(errors->text().contains(runsError) && errors->text().contains(QStringLiteral("Profile waits")));
        QVERIFY(!w.panel->startProfile()); // Ctrl+R and Return in a field wait too
        QVERIFY(!w.panel->isProfiling());

        // Garbage in a second field: both marked at once, each with its own range.
        typeInto(device, QStringLiteral("gpu1"));
        QCOMPARE(device->errorText(), QStringLiteral("device: 'gpu1' is not an integer (allowed: 0..255)"));
        QCOMPARE(form->fieldErrors(), runsError + QLatin1Char('\n') + device->errorText());
        typeInto(device, QStringLiteral("256"));
        QCOMPARE(device->errorText(), QStringLiteral("device: 256 is out of range (allowed: 0..255)"));
        QCOMPARE(device->text(), QStringLiteral("256"));

        // Units: thousands separators; K is not a count of runs.
        typeInto(runs, QStringLiteral("1,000"));
        QVERIFY(runs->valid());
        QCOMPARE(form->request().runs, 1000);
        typeInto(runs, QStringLiteral("1K"));
        QCOMPARE(runs->errorText(), QStringLiteral("runs: '1K' is not an integer (allowed: 0..1,000; empty or 0: the probe's default)"));
        typeInto(runs, QString());
        QVERIFY(runs->valid());
        QCOMPARE(form->request().runs, 0);
        typeInto(device, QStringLiteral("3"));
        QCOMPARE(form->request().device, 3);
        QVERIFY(profile->isEnabled());
        QVERIFY(errors->isHidden());

        // The hang timeout in seconds, minutes or hours; the runner follows each valid value once typing
        // pauses (Enter here would start profiling).
        const struct {
            const char* typed;
            int seconds;
        } durations[] = {{"90", 90}, {"90 s", 90}, {"3 min", 180}, {"1h", 3600}, {"86,400 s", 86400}, {"2 MIN", 120}};
        for (const auto& duration : durations) {
            typeInto(hang, QString::fromLatin1(duration.typed));
            QVERIFY2(hang->valid(), duration.typed);
            QCOMPARE(form->hangTimeoutSeconds(), duration.seconds);
            QTRY_COMPARE_WITH_TIMEOUT(w.panel->hangTimeout(), duration.seconds * 1000, 5000);
        }
        const QString hangRange = QStringLiteral("allowed: 1..86,400 s, or in min or h: 3 min, 1 h");
        typeInto(hang, QStringLiteral("25 h"));
        QCOMPARE(hang->errorText(), QStringLiteral("hang timeout: 25 h is out of range (%1)").arg(hangRange));
        QCOMPARE(hang->text(), QStringLiteral("25 h"));
        QCOMPARE(form->hangTimeoutSeconds(), 120); // the last valid value still applies
        QCOMPARE(w.panel->hangTimeout(), 120 * 1000);
        QVERIFY(!profile->isEnabled());
        typeInto(hang, QStringLiteral("0"));
        QCOMPARE(hang->errorText(), QStringLiteral("hang timeout: 0 is out of range (%1)").arg(hangRange));
        typeInto(hang, QStringLiteral("soon"));
        QCOMPARE(hang->errorText(), QStringLiteral("hang timeout: 'soon' is not a duration (%1)").arg(hangRange));
        QVERIFY2(errors->text().startsWith(hang->errorText() + QLatin1Char('\n')), qPrintable(errors->text())); // the new message, not 0's
        saveShot(*w.window, QStringLiteral("profile-form-marked-fields"));
        // Set from outside (the saved setting): shown as given and marked, never clamped.
        form->setHangTimeoutSeconds(100000);
        QCOMPARE(hang->text(), QStringLiteral("100000 s"));
        QVERIFY(!hang->valid());
        QVERIFY(errors->text().startsWith(QStringLiteral("hang timeout: 100000 s is out of range")));
        form->setHangTimeoutSeconds(300);
        QVERIFY(hang->valid());
        QCOMPARE(form->hangTimeoutSeconds(), 300);
        QVERIFY(profile->isEnabled());

        // Up/Down step a valid value as the spin boxes did.
        typeInto(runs, QStringLiteral("5"));
        QTest::keyClick(runs->lineEdit(), Qt::Key_Up);
        QCOMPARE(runs->text(), QStringLiteral("6"));
        QTest::keyClick(hang->lineEdit(), Qt::Key_Down);
        QCOMPARE(hang->text(), QStringLiteral("290 s"));
        QCOMPARE(form->hangTimeoutSeconds(), 290);
        typeInto(hang, QStringLiteral("180")); // the saved setting the next test window reads
    }

    // Compute (issue 15): the virtual architecture NVRTC compiles a .cu file for, offered only for a .cu
    // file, from the architectures NVRTC itself lists (ptx::supportedVirtualArchs), checked as typed by
    // the command line's check, handed to the probe as --compute (the stand-in no_gpu.sh echoes the
    // arguments it got on stderr) and left out for the default.
    void computeIsOfferedForCudaFilesAndReachesTheProbe()
    {
        WindowUnderTest w(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/probe/no_gpu.sh"));
        app::ProfileForm* form = w.panel->form();
        auto* compute = form->findChild<viz::ValidatedField*>(QStringLiteral("profileCompute"));
        auto* choices = form->findChild<QToolButton*>(QStringLiteral("profileComputeChoices"));
        auto* errors = form->findChild<QLabel*>(QStringLiteral("profileFieldErrors"));
        QVERIFY(compute && choices && choices->menu() && errors);
        QPushButton* profile = w.panel->profileButton();

        // A demo kernel is compiled already: the field is off and nothing is sent.
        QCOMPARE(form->request().kind, app::ProbeTargetKind::DemoKernel);
        QVERIFY(!compute->isEnabled() && !choices->isEnabled());
        QCOMPARE(compute->lineEdit()->placeholderText(), QStringLiteral("default (compute_75)"));
        QVERIFY(form->request().compute.isEmpty());

        QTemporaryDir dir;
        const QString cu = dir.filePath(QStringLiteral("saxpy.cu"));
        QFile source(cu);
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("__global__ void saxpy(float* y) { y[threadIdx.x] *= 2.0f; }\n");
        source.close();
        app::ProbeRequest file;
        file.kind = app::ProbeTargetKind::File;
        file.target = cu;
        form->setRequest(file);
        QVERIFY(compute->isEnabled() && choices->isEnabled());

        // The choices: the default, then every architecture NVRTC lists.
        QStringList offered;
        for (QAction* action : choices->menu()->actions())
            offered << action->text();
        QStringList expected{QStringLiteral("default (compute_75)")};
        for (const std::string& arch : ptx::supportedVirtualArchs())
            expected << QString::fromStdString(arch);
        QCOMPARE(offered, expected);
        QVERIFY(offered.contains(QStringLiteral("compute_80")) && offered.contains(QStringLiteral("compute_90")));

        // compute_80 chosen: the probe gets --compute compute_80.
        choices->menu()->actions().at(offered.indexOf(QStringLiteral("compute_80")))->trigger();
        QCOMPARE(compute->text(), QStringLiteral("compute_80"));
        QCOMPARE(form->request().compute, QStringLiteral("compute_80"));
        QVERIFY(profile->isEnabled());
        auto run = [&]() -> QString {
            if (!w.panel->startProfile())
                return QStringLiteral("(not started)");
            QElapsedTimer timer;
            timer.start();
            while (w.panel->isProfiling() && timer.elapsed() < 8000)
                QTest::qWait(20);
            if (w.panel->isProfiling() || !w.panel->lastResult())
                return QStringLiteral("(still running)");
            const QString tail = w.panel->lastResult()->stderrTail;
            const QString marker = QStringLiteral("fixture probe arguments: ");
            const int at = tail.indexOf(marker);
            return at < 0 ? tail : tail.mid(at + marker.size()).section(QLatin1Char('\n'), 0, 0);
        };
        QCOMPARE(run(), QStringLiteral("--metrics headline --compute compute_80 ") + cu);
        // The default: no --compute at all.
        choices->menu()->actions().front()->trigger();
        QVERIFY(compute->text().isEmpty() && compute->valid());
        QCOMPARE(run(), QStringLiteral("--metrics headline ") + cu);

        // Typed: the command line's check and words, the field marked, Profile waits.
        const QString allowed = QString::fromStdString(ptx::supportedVirtualArchList());
        typeInto(compute, QStringLiteral("compute_99"));
        QVERIFY(!compute->valid());
        const QString unknown = QStringLiteral("compute: unknown virtual architecture 'compute_99' (allowed: %1)").arg(allowed);
        QCOMPARE(compute->errorText(), unknown);
        QCOMPARE(compute->text(), QStringLiteral("compute_99"));
        QCOMPARE(form->fieldErrors(), unknown);
        QVERIFY(errors->isVisible() && errors->text().contains(QStringLiteral("Profile waits")));
        QVERIFY(!profile->isEnabled());
        QVERIFY(!w.panel->startProfile());
        QVERIFY(form->request().compute.isEmpty());
        typeInto(compute, QStringLiteral("sm_80")); // a real architecture, not a virtual one
        QCOMPARE(compute->errorText(), QStringLiteral("compute: unknown virtual architecture 'sm_80' (allowed: %1)").arg(allowed));
        saveShot(*w.window, QStringLiteral("profile-form-compute-marked"));

        // A .ptx file is compiled already: the mark no longer holds Profile back, and comes back with a .cu.
        auto* path = form->findChild<QLineEdit*>(QStringLiteral("profileFile"));
        QVERIFY(path != nullptr);
        const QString ptxPath = dir.filePath(QStringLiteral("saxpy.ptx"));
        QFile ptx(ptxPath);
        QVERIFY(ptx.open(QIODevice::WriteOnly));
        ptx.close();
        path->setText(ptxPath);
        QVERIFY(!compute->isEnabled() && !choices->isEnabled());
        QCOMPARE(compute->text(), QStringLiteral("sm_80")); // kept as typed
        QVERIFY(form->fieldErrors().isEmpty() && errors->isHidden());
        QVERIFY(profile->isEnabled());
        QVERIFY(form->request().compute.isEmpty());
        path->setText(cu);
        QVERIFY(compute->isEnabled() && !profile->isEnabled());
        QVERIFY(errors->isVisible());
        typeInto(compute, QStringLiteral(" compute_90 "));
        QVERIFY(compute->valid() && profile->isEnabled());
        QCOMPARE(form->request().compute, QStringLiteral("compute_90"));

        // Set from outside (a request): shown and checked.
        app::ProbeRequest set = form->request();
        set.compute = QStringLiteral("compute_86");
        form->setRequest(set);
        QCOMPARE(compute->text(), QStringLiteral("compute_86"));
        QCOMPARE(form->request().compute, QStringLiteral("compute_86"));

        // Back to a demo kernel: off, not sent, and Profile runs.
        app::ProbeRequest demo;
        demo.target = QStringLiteral("vector_add");
        demo.compute = QStringLiteral("compute_80");
        form->setRequest(demo);
        QVERIFY(!compute->isEnabled() && profile->isEnabled());
        QVERIFY(form->request().compute.isEmpty());
        QCOMPARE(run(), QStringLiteral("--metrics headline vector_add"));
        // A session that is open (a demo kernel's) turns it off as well: sessions do not record --compute.
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-reduce_warp_shuffle.wsprof")));
        QVERIFY(!compute->isEnabled());
        QVERIFY(form->request().compute.isEmpty());
    }

    // The probe refuses --compute newer than the device in one line on stderr with exit 2 (probe_run.cpp,
    // computeTooNewForDevice): the window shows that line as it shows every refusal of bad input.
    void aComputeTooNewForTheDeviceIsShownAsTheProbeSaidIt()
    {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("too_new.sh"));
        const QByteArray line = "warpscope-probe: --compute compute_90 needs a GPU of compute capability 9.0 or newer; device 0 "
                                "(NVIDIA GeForce RTX 2080) has compute capability 7.5: choose an older --compute or another --device";
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\n# Test stand-in: the probe's refusal of a --compute newer than the device.\necho '" + line + "' >&2\nexit 2\n");
        file.close();
        QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));
        WindowUnderTest w(script);
        QTemporaryDir sources;
        const QString cu = sources.filePath(QStringLiteral("k.cu"));
        QFile source(cu);
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.close();
        app::ProbeRequest request;
        request.kind = app::ProbeTargetKind::File;
        request.target = cu;
        request.compute = QStringLiteral("compute_90");
        w.panel->form()->setRequest(request);
        QVERIFY(w.panel->startProfile());
        QElapsedTimer timer;
        timer.start();
        while (w.panel->isProfiling() && timer.elapsed() < 8000)
            QTest::qWait(20);
        QVERIFY(!w.panel->isProfiling());
        QCOMPARE(w.panel->lastResult()->outcome, app::ProbeOutcome::BadInput);
        QCOMPARE(w.panel->lastResult()->summary, QStringLiteral("warpscope-probe refused the request (exit 2): ") + QString::fromUtf8(line));
        QVERIFY2(w.panel->bannerText().contains(QString::fromUtf8(line)), qPrintable(w.panel->bannerText()));
    }

    // A value the file did not record reads as unknown, never as a measured 0: the ncu raw page names
    // the GPU, its compute capability, SMs and L2 but no clocks, limits, driver or replay passes; a
    // hand-written session's device record may hold only a name and an SM count.
    void unrecordedValuesReadAsUnknown()
    {
        WindowUnderTest w;
        QVERIFY(w.panel->importNcuCsv(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/ncu/raw_page.csv")));
        viz::ProfileViews* views = w.panel->views();
        auto* browser = views->sessionPanel()->findChild<QTextBrowser*>(QStringLiteral("profileSessionText"));
        QVERIFY(browser != nullptr);
        QString page = views->sessionPanel()->plainText().simplified();
        const QString dash = QStringLiteral("\u2014");
        // What the CSV holds (device__attribute_* columns): 9.0, 132 SMs, 62,914,560 bytes of L2 = 60 MiB.
        for (const char* text : {"Name NVIDIA H200", "Compute capability 9.0", "SMs 132", "L2 60 MiB"})
            QVERIFY2(page.contains(QLatin1String(text)), text);
        for (const QString& text : {QStringLiteral("Clocks (peak) SM —, memory —"), QStringLiteral("Memory —, bus width —; L2 60 MiB"),
                                    QStringLiteral("Per SM — threads, — blocks, — registers, — shared memory"),
                                    QStringLiteral("Per block — threads, — registers, — shared memory (— opt-in, — reserved)"),
                                    QStringLiteral("Driver release — (CUDA driver API —)"), QStringLiteral("CUDA toolkit — CUPTI —"),
                                    QStringLiteral("Status ok after —"), QStringLiteral("grid (32, 32, 1) × block (32, 32, 1), dynamic shared memory —"),
                                    QStringLiteral("PTX hash —"), QStringLiteral("— : Not recorded: the file did not record this value")})
            QVERIFY2(page.contains(text), qPrintable(text));
        for (const char* measuredZero : {"0 threads", "0-bit", "0 B", "0.00 s", "unknown"})
            QVERIFY2(!page.contains(QLatin1String(measuredZero)), measuredZero);
        // Each dash says why on hover.
        const QTextCursor first = browser->document()->find(dash);
        QVERIFY(!first.isNull());
        QCOMPARE(first.charFormat().toolTip(), QString::fromLatin1(viz::profile::kNotRecordedToolTip));
        views->showTab(viz::ProfileViews::Tab::Session);
        QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
        const QPoint at = browser->cursorRect(first).center() - QPoint(2, 0);
        QHelpEvent hover(QEvent::ToolTip, at, browser->viewport()->mapToGlobal(at));
        QApplication::sendEvent(browser->viewport(), &hover);
        QTRY_COMPARE(QToolTip::text(), QString::fromLatin1(viz::profile::kNotRecordedToolTip));
        QToolTip::hideText();

        // Replay passes: ncu prints them only in its progress lines, so the CSV has none.
        ProfileMetricsTable* table = views->metricsTable();
        const QString passes = QLatin1String(ProfileMetricsTable::kReplayPasses);
        for (const QString& kernel : table->kernels()) {
            QCOMPARE(table->cellText(kernel, passes, ProfileMetricsTable::ValueColumn), dash);
            QVERIFY(table->cellToolTip(kernel, passes, ProfileMetricsTable::ValueColumn).contains(QStringLiteral("did not record")));
            QCOMPARE(table->cellText(kernel, passes, ProfileMetricsTable::NameColumn), QStringLiteral("Nsight Compute"));
        }
        saveShot(*w.window, QStringLiteral("profile-ncu-unrecorded"));

        // A device record with only a name, an ordinal and an SM count.
        QTemporaryDir dir;
        const QString partial = dir.filePath(QStringLiteral("partial.wsprof"));
        QFile file(partial);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"format":"warpscope-session","version":1,"producer":"hand-written (not a measurement)","created":"2026-11-24T00:00:00Z","host":"box"}
{"type":"device","ordinal":1,"name":"Partial GPU","sm_count":80}
{"type":"end","status":"ok","wall_seconds":1.5}
)json");
        file.close();
        QVERIFY(w.panel->openSessionFile(partial));
        page = views->sessionPanel()->plainText().simplified();
        for (const QString& text : {QStringLiteral("Device ordinal 1"), QStringLiteral("Compute capability —"), QStringLiteral("SMs 80"),
                                    QStringLiteral("Memory —, bus width —; L2 —"), QStringLiteral("Status ok after 1.50 s")})
            QVERIFY2(page.contains(text), qPrintable(text));
        QVERIFY(!page.contains(QStringLiteral("0.0")) && !page.contains(QStringLiteral("0 threads")));

        // The probe records every field: the recorded H200 session has no dash in its device section,
        // and its metrics count replay passes.
        QVERIFY(w.openRecorded(QStringLiteral("gpu-size-vector_add.wsprof")));
        page = views->sessionPanel()->plainText().simplified();
        const QString device = page.section(QStringLiteral("Device Name"), 1).section(QStringLiteral("Measurement"), 0, 0);
        QVERIFY2(!device.isEmpty() && !device.contains(dash), qPrintable(device));
        QVERIFY(device.contains(QStringLiteral("1 KB reserved")) || device.contains(QStringLiteral("1 KiB reserved")));
        const session::MetricsRecord* measured = w.panel->session().metricsFor("vector_add");
        QVERIFY(measured != nullptr && measured->passes > 0);
        QCOMPARE(table->cellText(QStringLiteral("vector_add"), passes, ProfileMetricsTable::ValueColumn),
                 QStringLiteral("%1 passes").arg(measured->passes));
    }
};

QTEST_MAIN(ProfileLearnerTest)
#include "profile_learner_test.moc"
