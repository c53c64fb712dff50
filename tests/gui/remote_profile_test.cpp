// The Profile dock's Remote field: `ssh HOST warpscope-probe ...` with stand-ins for ssh and the
// probe on PATH. The remote session fills the dock; a lost connection and a host that ssh could
// read as an option each get their own message. And File > Export Session: the open session as a
// Perfetto trace or CSV.
#include "profile/probe_request.h"
#include "profile/probe_runner.h"
#include "profile/profile_form.h"
#include "profile/profile_panel.h"
#include "profile/session_file.h"
#include "window/main_window.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <memory>

using namespace warpscope;
using namespace warpscope::app;

namespace {

const QString kFixture = QStringLiteral(WARPSCOPE_FIXTURES_DIR "/sessions/ladder.wsprof");

void writeScript(const QString& path, const QByteArray& body)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool waitUntilIdle(ProfilePanel* panel, int milliseconds = 10000)
{
    QElapsedTimer timer;
    timer.start();
    while (panel->isProfiling() && timer.elapsed() < milliseconds)
        QTest::qWait(20);
    return !panel->isProfiling();
}

// Stand-ins on PATH, for the life of one test: `ssh` skips its options, notes the host and runs
// the rest with sh -c (what sshd does with a command); `warpscope-probe` notes its arguments and
// prints a recorded session.
struct StandIns {
    QTemporaryDir dir;
    QByteArray oldPath = qgetenv("PATH");
    explicit StandIns(const QByteArray& ssh = {})
    {
        const QByteArray folder = dir.path().toLocal8Bit();
        writeScript(dir.filePath(QStringLiteral("ssh")),
                    ssh.isEmpty() ? "while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -T) shift;; *) break;; esac; done\n"
                                    "printf '%s\\n' \"$1\" > '" + folder + "/host.txt'\nshift\nexec sh -c \"$*\"\n"
                                  : ssh);
        writeScript(dir.filePath(QStringLiteral("warpscope-probe")),
                    "printf '%s\\n' \"$@\" > '" + folder + "/args.txt'\ncat '" + kFixture.toLocal8Bit() + "'\n");
        qputenv("PATH", folder + ":" + oldPath);
    }
    ~StandIns() { qputenv("PATH", oldPath); }
};

struct Window {
    QTemporaryDir emptyDir;
    std::unique_ptr<MainWindow> window;
    ProfilePanel* panel = nullptr;
    Window()
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
        panel->setTerminateGrace(300);
    }
    ~Window() { qunsetenv("WARPSCOPE_RECORDED_DIR"); }
};

ProbeRequest remoteRequest(const QString& host)
{
    ProbeRequest request;
    request.kind = ProbeTargetKind::DemoKernel;
    request.target = QStringLiteral("vector_add");
    request.args = {QStringLiteral("n=i32:4096")};
    request.remote = host;
    return request;
}

} // namespace

class RemoteProfileTest : public QObject {
    Q_OBJECT

private slots:
    void theRemoteFieldRunsTheProbeThroughSsh()
    {
        StandIns standIns;
        Window w;
        w.panel->form()->setRequest(remoteRequest(QStringLiteral("ada@gpu-box")));
        QCOMPARE(w.panel->form()->request().remote, QStringLiteral("ada@gpu-box"));
        QVERIFY(w.panel->startProfile());
        QVERIFY(waitUntilIdle(w.panel));
        QVERIFY(w.panel->lastResult().has_value());
        QVERIFY2(w.panel->lastResult()->outcome == ProbeOutcome::Succeeded, qPrintable(w.panel->lastResult()->summary));
        QVERIFY(w.panel->hasSession());
        QCOMPARE(readAll(standIns.dir.filePath(QStringLiteral("host.txt"))), QByteArray("ada@gpu-box\n"));
        const QList<QByteArray> args = readAll(standIns.dir.filePath(QStringLiteral("args.txt"))).split('\n');
        QVERIFY(args.contains("n=i32:4096"));
        QVERIFY(args.contains("vector_add"));
    }

    void aLostConnectionIsNamedAndWhatWasReadKept()
    {
        StandIns standIns("head -n 3 '" + kFixture.toLocal8Bit() +
                          "'\necho 'Connection to gpu-box closed by remote host.' >&2\nexit 255\n");
        Window w;
        QVERIFY(w.panel->startProfile(remoteRequest(QStringLiteral("gpu-box"))));
        QVERIFY(waitUntilIdle(w.panel));
        QVERIFY(w.panel->lastResult().has_value());
        const QString summary = w.panel->lastResult()->summary;
        QVERIFY2(summary.contains(QStringLiteral("ssh to gpu-box failed or the connection was lost (ssh exit 255): "
                                                 "Connection to gpu-box closed by remote host.")),
                 qPrintable(summary));
        QVERIFY(w.panel->hasSession()); // the header and the device were read before the drop
    }

    void aHostThatLooksLikeAnOptionIsRefused()
    {
        StandIns standIns;
        Window w;
        QVERIFY(!w.panel->startProfile(remoteRequest(QStringLiteral("-oProxyCommand=touch x"))));
        QVERIFY2(w.panel->bannerText().contains(QStringLiteral("Remote: '-oProxyCommand=touch x' starts with '-'")),
                 qPrintable(w.panel->bannerText()));
        QVERIFY(!QFile::exists(standIns.dir.filePath(QStringLiteral("host.txt")))); // ssh never started
    }

    void exportWritesTheOpenSessionAsATraceOrCsv()
    {
        Window w;
        QVERIFY(w.panel->openSessionFile(kFixture));
        QAction* exportAction = nullptr;
        for (QAction* menu : w.window->menuBar()->actions())
            if (menu->menu() != nullptr)
                for (QAction* action : menu->menu()->actions())
                    if (action->text().contains(QStringLiteral("Export Session")))
                        exportAction = action;
        QVERIFY(exportAction != nullptr);
        QVERIFY(exportAction->isEnabled());

        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("runs.json")), csv = dir.filePath(QStringLiteral("metrics.csv"));
        QVERIFY(!exportSession(trace, w.panel->session()).has_value());
        const QJsonDocument doc = QJsonDocument::fromJson(readAll(trace));
        QVERIFY(doc.isObject());
        QVERIFY(doc.object().value(QStringLiteral("traceEvents")).isArray());
        QVERIFY(!exportSession(csv, w.panel->session()).has_value());
        QVERIFY(readAll(csv).startsWith("kernel,metric,ncu_name,value,unit\r\n"));
        const auto refused = exportSession(dir.filePath(QStringLiteral("x.txt")), w.panel->session());
        QVERIFY(refused.has_value());
        QVERIFY(refused->contains(QStringLiteral(".json (a Perfetto trace) or .csv")));
        QVERIFY(exportSession(QStringLiteral("/nonexistent-dir/x.csv"), w.panel->session()).has_value());
    }
};

QTEST_MAIN(RemoteProfileTest)
#include "remote_profile_test.moc"
