// The sessions recorded on real GPUs (assets/recorded/), as the program ships them: compiled in and
// read through its resources (:/recorded), offscreen and without a GPU. Each opens with no problem
// and fills every profile view (metrics, bandwidth, roofline, predicted vs measured, session page);
// the Profiler's empty page and File > Open Recorded Session list them by GPU, driver and date; and
// where the simulator's PTX and the GPU's SASS differ by design, the real numbers are explained
// rather than marked wrong.
#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_panel.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_roofline_table.h"
#include "profile/profile_session_panel.h"
#include "profile/profile_views.h"
#include "profile/recorded_sessions.h"
#include "session/metric_catalog.h"
#include "session/roofline.h"
#include "session/session.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QList>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace warpscope;
using app::ProfilePanel;
using viz::ProfileMetricsTable;
using viz::ProfilePredictionPanel;
namespace metric = warpscope::session::metric;

namespace {

// A fresh window listing the program's own recorded sessions (no WARPSCOPE_RECORDED_DIR), no probe.
struct WindowUnderTest {
    WindowUnderTest()
    {
        qunsetenv("WARPSCOPE_PROBE");
        qunsetenv("WARPSCOPE_RECORDED_DIR");
        window = std::make_unique<app::MainWindow>(app::MainWindow::Options{.restoreSettings = false});
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
    }
    std::unique_ptr<app::MainWindow> window;
    ProfilePanel* panel = nullptr;
};

} // namespace

class RecordedSessionsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void listedByGpuOnTheEmptyPageAndInTheMenu()
    {
        WindowUnderTest w;
        const QList<app::RecordedSession> recorded = w.panel->recordedSessions();
        QVERIFY2(recorded.size() >= 14, qPrintable(QString::number(recorded.size())));
        QMap<QString, QString> labels; // file -> label
        for (const app::RecordedSession& r : recorded) {
            QVERIFY2(r.path.startsWith(QStringLiteral(":/recorded/")), qPrintable(r.path));
            labels.insert(r.path.mid(11), r.label);
        }
        // Each labelled with the GPU and what it holds, then the driver, CUDA version, date and file.
        QCOMPARE(labels.value(QStringLiteral("h200/ladder-copy.wsprof")),
                 QStringLiteral("NVIDIA H200: the copy ladder, 3 kernels \u00b7 driver 580.159.04 \u00b7 CUDA 13.0 \u00b7 2026-11-23 "
                                "\u00b7 h200/ladder-copy.wsprof"));
        QVERIFY(labels.value(QStringLiteral("h200/gpu-size-vector_add.wsprof"))
                    .startsWith(QStringLiteral("NVIDIA H200: vector_add, 1,048,576 blocks of 256 threads \u00b7")));
        QVERIFY(labels.value(QStringLiteral("h200/demo-kernels.wsprof")).startsWith(QStringLiteral("NVIDIA H200: 19 kernels \u00b7")));

        // With no session shown, the Profiler's page lists them under their GPU, driver and date, as links.
        QVERIFY(!w.panel->hasSession());
        const QString empty = w.panel->titleText();
        QVERIFY(empty.contains(QStringLiteral("Sessions recorded on real GPUs open without one")));
        QVERIFY(empty.contains(QStringLiteral("NVIDIA H200 \u00b7 driver 580.159.04 \u00b7 CUDA 13.0 \u00b7 2026-11-23")));
        for (const app::RecordedSession& r : recorded)
            QVERIFY2(empty.contains(r.origin) && empty.contains(r.item), qPrintable(r.label));
        auto* title = w.panel->findChild<QLabel*>(QStringLiteral("profileTitle"));
        QVERIFY(title != nullptr);
        emit title->linkActivated(QStringLiteral("recorded:1"));
        QVERIFY(w.panel->hasSession());
        QVERIFY(w.panel->titleText().contains(QStringLiteral("recorded session: ") + recorded.at(1).label));

        // File > Open Recorded Session: a section per GPU, driver and date, then its sessions.
        QMenu* menu = nullptr;
        for (QAction* action : w.window->menuBar()->actions())
            if (action->menu() != nullptr)
                for (QAction* item : action->menu()->actions())
                    if (item->menu() != nullptr && item->text().contains(QStringLiteral("Recorded")))
                        menu = item->menu();
        QVERIFY(menu != nullptr);
        QVERIFY(menu->actions().front()->isSeparator());
        QCOMPARE(menu->actions().front()->text(), recorded.front().origin);
        QList<QAction*> entries;
        for (QAction* action : menu->actions())
            if (!action->isSeparator())
                entries << action;
        QCOMPARE(entries.size(), recorded.size());
        QCOMPARE(entries.back()->text(), recorded.back().item);
        QCOMPARE(entries.back()->toolTip(), recorded.back().label);
        entries.back()->trigger();
        QVERIFY(w.panel->titleText().contains(recorded.back().label));
    }

    void everySessionFillsEveryView()
    {
        WindowUnderTest w;
        const QList<app::RecordedSession> recorded = w.panel->recordedSessions();
        QVERIFY(recorded.size() >= 14);
        for (int i = 0; i < recorded.size(); ++i) {
            const QString name = recorded.at(i).path;
            QVERIFY2(w.panel->openRecordedSession(i), qPrintable(name));
            QVERIFY2(w.panel->problems().isEmpty(), qPrintable(name + QStringLiteral(": ") + w.panel->problems().join('\n')));
            QVERIFY2(w.panel->noticeText().isEmpty(), qPrintable(name + QStringLiteral(": ") + w.panel->noticeText()));
            const session::Session& s = w.panel->session();
            QVERIFY2(s.end.has_value() && s.end->status == "ok", qPrintable(name));
            QStringList ids;
            for (const session::KernelRecord& k : s.kernels)
                ids << QString::fromStdString(k.id);
            QVERIFY(!ids.isEmpty());
            viz::ProfileViews* views = w.panel->views();

            // Metrics: every kernel, with its Activity timing and the counters' duration.
            QCOMPARE(views->metricsTable()->kernels(), ids);
            // Bandwidth: one entry per kernel, each with its bars.
            const auto& bandwidth = views->bandwidthPanel()->model();
            QCOMPARE(static_cast<qsizetype>(bandwidth.size()), ids.size());
            for (const auto& entry : bandwidth)
                QVERIFY2(!entry.bars.empty(), qPrintable(name));
            int flopKernels = 0;
            for (const QString& id : ids) {
                const QString what = name + QStringLiteral(" ") + id;
                for (const QString& key : {QString::fromLatin1(ProfileMetricsTable::kActivityDuration), QString::fromLatin1(metric::kDuration)}) {
                    const QString value = views->metricsTable()->cellText(id, key, ProfileMetricsTable::ValueColumn);
                    QVERIFY2(value.endsWith(QStringLiteral("s")) && value != QStringLiteral("not measured"),
                             qPrintable(what + QStringLiteral(": ") + value));
                }
                // Predicted vs measured: both sides of the comparisons, the output check, and nothing in red: a
                // difference the counters cannot settle is explained or close, not marked wrong.
                ProfilePredictionPanel* prediction = views->predictionPanel();
                const QString key = QStringLiteral("global_load_sectors_per_request");
                const QString predicted = prediction->cellText(id, key, ProfilePredictionPanel::PredictedColumn);
                const QString measured = prediction->cellText(id, key, ProfilePredictionPanel::MeasuredColumn);
                QVERIFY2(!predicted.isEmpty() && predicted != QStringLiteral("not predicted"), qPrintable(what));
                QVERIFY2(!measured.isEmpty() && measured != QStringLiteral("not measured"), qPrintable(what));
                QCOMPARE(prediction->cellText(id, QStringLiteral("check"), ProfilePredictionPanel::MeasuredColumn), QStringLiteral("matches"));
                for (const viz::PredictionKernel& k : prediction->model())
                    if (QString::fromStdString(k.kernel) == id)
                        for (const viz::PredictionRow& row : k.rows)
                            QVERIFY2(row.agreement != viz::profile::Agreement::Differs,
                                     qPrintable(what + QStringLiteral(" ") + row.key + QStringLiteral(": ") + row.predictedText +
                                                QStringLiteral(" vs ") + row.measuredText));
                // Roofline: a row per kernel in its table.
                QVERIFY2(!views->rooflinePlot()->table()->cellText(id, viz::ProfileRooflineTable::FlopsColumn).isEmpty(), qPrintable(what));
                if (const session::MetricsRecord* m = s.metricsFor(id.toStdString()); m && session::deriveMetrics(*m).fp32Flops > 0)
                    ++flopKernels;
            }
            // Every kernel that did FP32 work is a point (at L2: each of them moved L2 bytes).
            QCOMPARE(views->rooflinePlot()->kernelPoints(session::MemoryLevel::L2)->dataCount(), flopKernels);
            // Session page: the device and the clocks it ran at.
            const QString page = views->sessionPanel()->plainText().simplified();
            for (const char* text : {"NVIDIA H200 (GH100)", "SMs 132", "580.159.04", "SM clock while measured", "peak 1,980 MHz"})
                QVERIFY2(page.contains(QLatin1String(text)), qPrintable(name + QStringLiteral(": ") + QLatin1String(text)));
            // cuBLAS SGEMM: these sessions predate the reference. Where a matmul rung ran, the ceilings say it
            // was not measured (the GPU-sized ones have no ceilings record at all); elsewhere nothing is
            // said; no number, line or share is made up.
            const bool matmul = std::any_of(s.kernels.begin(), s.kernels.end(), [](const session::KernelRecord& k) { return k.ladder == "matmul"; });
            QCOMPARE(page.contains(QStringLiteral("Matmul reference not measured")), matmul && s.ceilings.has_value());
            QVERIFY2(!page.contains(QStringLiteral("of cuBLAS")), qPrintable(name));
            QVERIFY(views->rooflinePlot()->sgemmReferenceLine()->data()->isEmpty());
            QVERIFY(views->rooflinePlot()->table()->cellText(QStringLiteral("cuBLAS SGEMM"), viz::ProfileRooflineTable::FlopsColumn).isNull());
        }
    }

    void byDesignDifferencesAreExplained()
    {
        // Where the simulator's PTX and the GPU's SASS differ by design, the real numbers say why.
        WindowUnderTest w;
        const QList<app::RecordedSession> recorded = w.panel->recordedSessions();
        int demo = -1;
        for (int i = 0; i < recorded.size(); ++i)
            if (recorded.at(i).path.endsWith(QStringLiteral("h200/demo-kernels.wsprof")))
                demo = i;
        QVERIFY(demo >= 0);
        QVERIFY(w.panel->openRecordedSession(demo));
        using viz::profile::Agreement;
        ProfilePredictionPanel* prediction = w.panel->views()->predictionPanel();
        auto text = [&](const char* kernel, const char* key, ProfilePredictionPanel::Column column) {
            return prediction->cellText(QLatin1String(kernel), QLatin1String(key), column);
        };
        auto agreement = [&](const char* kernel, const char* key) { return prediction->agreement(QLatin1String(kernel), QLatin1String(key)); };
        auto note = [&](const char* kernel, const char* key) { return prediction->noteText(QLatin1String(kernel), QLatin1String(key)); };
        // vector_add: uniform PTX branches predicted, 0 % measured: ncu's 0 % may mean no SASS branch ran at all.
        QCOMPARE(text("vector_add", "branch_uniformity", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("not comparable"));
        QCOMPARE(agreement("vector_add", "branch_uniformity"), Agreement::Explained);
        // matmul_tiled: 131,072 shared load wavefronts predicted, 98,304 measured, no conflicts: fewer, wider SASS loads.
        QCOMPARE(text("matmul_tiled", "shared_load_wavefronts", ProfilePredictionPanel::MeasuredColumn), QStringLiteral("98.30 K"));
        QCOMPARE(agreement("matmul_tiled", "shared_load_wavefronts"), Agreement::Explained);
        QVERIFY(note("matmul_tiled", "shared_load_wavefronts").contains(QStringLiteral("ptxas")));
        QCOMPARE(agreement("matmul_tiled", "shared_bank_conflicts"), Agreement::Agrees);
        // histogram_shared_atomics: the predicted conflicts are its shared atomics'; ncu's two counters are loads and stores.
        QVERIFY(note("histogram_shared_atomics", "shared_bank_conflicts").contains(QStringLiteral("atomics")));
        QCOMPARE(agreement("histogram_shared_atomics", "shared_bank_conflicts"), Agreement::Explained);
        // reduce_interleaved_divergent: 68.4 % of PTX branches uniform, 100 % of SASS ones: different instructions.
        QCOMPARE(note("reduce_interleaved_divergent", "branch_uniformity"), QStringLiteral("differs; PTX counts vs SASS counts"));
        // transpose_tiled: the 32-way conflicts agree exactly; occupancy is a comparison, never red.
        QCOMPARE(text("transpose_tiled", "shared_bank_conflicts", ProfilePredictionPanel::DifferenceColumn), QStringLiteral("same"));
        QCOMPARE(agreement("transpose_tiled", "occupancy"), Agreement::Explained);
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    RecordedSessionsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "recorded_sessions_test.moc"
