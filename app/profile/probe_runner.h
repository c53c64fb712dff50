// Runs warpscope-probe with QProcess and reads its session stream as it arrives, never blocking the
// GUI thread: one record per stdout line into a SessionStreamReader, progress records as signals,
// the tail of stderr kept for messages. Cancel sends SIGTERM and, after a grace period, SIGKILL; a
// probe that writes nothing for the hang timeout is stopped the same way. Whatever happens, the
// records read so far stay available.
#pragma once

#include "session/session_io.h"

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

class QTimer;

namespace warpscope::app {

enum class ProbeOutcome {
    Succeeded,      // exit 0
    KernelFailed,   // exit 1
    BadInput,       // exit 2
    NoGpu,          // exit 3
    Cancelled,      // Cancel, or exit 4
    Crashed,        // killed by a signal we did not send (a crash, SIGKILL from outside)
    Hung,           // no output for the hang timeout; stopped
    FailedToStart,  // the program could not be started
    UnexpectedExit, // any other exit code
};

struct ProbeResult {
    ProbeOutcome outcome = ProbeOutcome::Succeeded;
    int exitCode = -1;         // -1 when it did not exit normally
    QString summary;           // one sentence for the user
    QString stderrTail;        // the last lines the probe wrote on stderr
};

class ProbeRunner : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultHangTimeoutMs = 180000; // 3 minutes: a full metric set on a big kernel stays well inside
    static constexpr int kDefaultTerminateGraceMs = 3000;

    explicit ProbeRunner(QObject* parent = nullptr);
    ~ProbeRunner() override;

    // Starts `program arguments` with a fresh reader. False when a run is in progress.
    bool start(const QString& program, const QStringList& arguments);
    // Asks the probe to stop (SIGTERM, then SIGKILL after the grace period). No-op when idle.
    void cancel();
    bool isRunning() const;

    void setHangTimeout(int milliseconds);
    int hangTimeout() const { return m_hangTimeoutMs; }
    void setTerminateGrace(int milliseconds) { m_terminateGraceMs = milliseconds; }
    // The next start() runs ssh to this host (empty: the probe itself): ssh's own failures (exit
    // 255, a probe missing there) are then named as such.
    void setRemoteHost(const QString& host) { m_remoteHost = host; }

    const session::SessionStreamReader& reader() const { return m_reader; }
    const QByteArray& rawStream() const { return m_raw; } // stdout exactly as received
    QString stderrTail(int lines = 12) const;

signals:
    void recordsArrived();
    void progressChanged(int done, int total, const QString& stage, const QString& kernel);
    void finished(const warpscope::app::ProbeResult& result);

private:
    void readStdout();
    void readStderr();
    void feedLines(bool flushPartial);
    void stopProcess();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void finish(ProbeResult result);

    QProcess* m_process = nullptr;
    QTimer* m_watchdog = nullptr;
    QTimer* m_killTimer = nullptr;
    session::SessionStreamReader m_reader;
    QByteArray m_raw;
    QByteArray m_pending;   // stdout after the last newline
    QByteArray m_stderr;    // the last few KB of stderr
    QString m_program;
    int m_hangTimeoutMs = kDefaultHangTimeoutMs;
    int m_terminateGraceMs = kDefaultTerminateGraceMs;
    QString m_remoteHost;
    bool m_cancelRequested = false;
    bool m_hung = false;
    bool m_running = false;
};

// One sentence for `outcome` ("warpscope-probe crashed"), used in ProbeResult::summary.
QString probeOutcomeTitle(ProbeOutcome outcome);

} // namespace warpscope::app
