#include "profile/probe_runner.h"

#include "profile/probe_request.h"
#include "util/remote_command.h"

#include <QFileInfo>
#include <QTimer>

#include <string_view>

namespace warpscope::app {
namespace {

constexpr qsizetype kStderrKeep = 16 * 1024;

// The last error record of the stream, or null.
const session::ErrorRecord* lastError(const session::Session& session)
{
    return session.errors.empty() ? nullptr : &session.errors.back();
}

QString errorSentence(const session::ErrorRecord* error)
{
    if (error == nullptr)
        return {};
    QString text = QString::fromStdString(error->message);
    if (!error->kernel.empty())
        text = QStringLiteral("%1: %2").arg(QString::fromStdString(error->kernel), text);
    return QStringLiteral(" It said: %1 (%2).").arg(text, QString::fromStdString(error->code));
}

} // namespace

QString probeOutcomeTitle(ProbeOutcome outcome)
{
    switch (outcome) {
    case ProbeOutcome::Succeeded: return QStringLiteral("Profiling finished");
    case ProbeOutcome::KernelFailed: return QStringLiteral("A kernel failed on the GPU");
    case ProbeOutcome::BadInput: return QStringLiteral("warpscope-probe refused the request");
    case ProbeOutcome::NoGpu: return QStringLiteral("Live profiling needs an NVIDIA GPU and its driver");
    case ProbeOutcome::Cancelled: return QStringLiteral("Profiling cancelled");
    case ProbeOutcome::Crashed: return QStringLiteral("warpscope-probe crashed");
    case ProbeOutcome::Hung: return QStringLiteral("warpscope-probe stopped responding");
    case ProbeOutcome::FailedToStart: return QStringLiteral("warpscope-probe could not be started");
    case ProbeOutcome::UnexpectedExit: return QStringLiteral("warpscope-probe exited unexpectedly");
    }
    return {};
}

ProbeRunner::ProbeRunner(QObject* parent) : QObject(parent)
{
    m_watchdog = new QTimer(this);
    m_watchdog->setSingleShot(true);
    connect(m_watchdog, &QTimer::timeout, this, [this] {
        if (!m_running)
            return;
        m_hung = true;
        stopProcess();
    });
    m_killTimer = new QTimer(this);
    m_killTimer->setSingleShot(true);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        if (m_process != nullptr && m_process->state() != QProcess::NotRunning)
            m_process->kill();
    });
}

ProbeRunner::~ProbeRunner()
{
    if (m_process != nullptr && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

void ProbeRunner::setHangTimeout(int milliseconds)
{
    m_hangTimeoutMs = std::max(1, milliseconds);
    if (m_watchdog->isActive())
        m_watchdog->start(m_hangTimeoutMs);
}

bool ProbeRunner::isRunning() const { return m_running; }

bool ProbeRunner::start(const QString& program, const QStringList& arguments)
{
    if (m_running)
        return false;
    if (m_process != nullptr) {
        m_process->disconnect(this);
        m_process->deleteLater();
    }
    m_reader = session::SessionStreamReader{};
    m_raw.clear();
    m_pending.clear();
    m_stderr.clear();
    m_program = program;
    m_cancelRequested = false;
    m_hung = false;
    m_running = true;

    m_process = new QProcess(this);
    m_process->setProgram(program);
    m_process->setArguments(arguments);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &ProbeRunner::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &ProbeRunner::readStderr);
    connect(m_process, &QProcess::finished, this, &ProbeRunner::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &ProbeRunner::onError);
    m_watchdog->start(m_hangTimeoutMs);
    m_process->start();
    return true;
}

void ProbeRunner::cancel()
{
    if (!m_running || m_process == nullptr)
        return;
    m_cancelRequested = true;
    stopProcess();
}

void ProbeRunner::stopProcess()
{
    m_watchdog->stop();
    if (m_process == nullptr || m_process->state() == QProcess::NotRunning)
        return;
    m_process->terminate(); // SIGTERM: the probe finishes its current step and writes its end record
    if (!m_killTimer->isActive())
        m_killTimer->start(m_terminateGraceMs);
}

void ProbeRunner::readStdout()
{
    if (m_process == nullptr)
        return;
    const QByteArray chunk = m_process->readAllStandardOutput();
    if (chunk.isEmpty())
        return;
    if (!m_cancelRequested && !m_hung)
        m_watchdog->start(m_hangTimeoutMs);
    m_raw += chunk;
    m_pending += chunk;
    feedLines(false);
}

void ProbeRunner::readStderr()
{
    if (m_process == nullptr)
        return;
    const QByteArray chunk = m_process->readAllStandardError();
    if (chunk.isEmpty())
        return;
    if (!m_cancelRequested && !m_hung)
        m_watchdog->start(m_hangTimeoutMs);
    m_stderr += chunk;
    if (m_stderr.size() > kStderrKeep)
        m_stderr.remove(0, m_stderr.size() - kStderrKeep);
}

void ProbeRunner::feedLines(bool flushPartial)
{
    const std::size_t progressBefore = m_reader.session().progress.size();
    const int linesBefore = m_reader.linesRead();
    qsizetype start = 0;
    for (qsizetype newline = m_pending.indexOf('\n'); newline >= 0; newline = m_pending.indexOf('\n', start)) {
        m_reader.feedLine(std::string_view(m_pending.constData() + start, static_cast<std::size_t>(newline - start)));
        start = newline + 1;
    }
    m_pending.remove(0, start);
    if (flushPartial && !m_pending.isEmpty()) {
        // A line cut off by the probe's death: the reader reports it as damaged.
        m_reader.feedLine(std::string_view(m_pending.constData(), static_cast<std::size_t>(m_pending.size())));
        m_pending.clear();
    }
    const auto& progress = m_reader.session().progress;
    if (progress.size() > progressBefore) {
        const session::ProgressRecord& last = progress.back();
        emit progressChanged(last.done, last.total, QString::fromStdString(last.stage), QString::fromStdString(last.kernel));
    }
    if (m_reader.linesRead() != linesBefore)
        emit recordsArrived();
}

QString ProbeRunner::stderrTail(int lines) const
{
    QStringList all = QString::fromUtf8(m_stderr).split(QLatin1Char('\n'));
    while (!all.isEmpty() && all.back().trimmed().isEmpty())
        all.removeLast();
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(QLatin1Char('\n'));
}

void ProbeRunner::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_running)
        return; // crashes and the rest arrive with finished()
    ProbeResult result;
    result.outcome = ProbeOutcome::FailedToStart;
    result.summary = QStringLiteral("%1: %2 (%3).")
                         .arg(probeOutcomeTitle(result.outcome), m_program,
                              m_process ? m_process->errorString() : QStringLiteral("unknown error"));
    finish(result);
}

void ProbeRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_running)
        return;
    readStdout();
    readStderr();
    feedLines(true);
    m_reader.finish();

    ProbeResult result;
    result.exitCode = status == QProcess::NormalExit ? exitCode : -1;
    const session::Session& s = m_reader.session();
    const std::size_t kernels = s.kernels.size();
    const QString kept = kernels == 0 ? QString()
                                      : QStringLiteral(" The %1 kernel%2 measured before that %3 still shown.")
                                            .arg(kernels)
                                            .arg(kernels == 1 ? "" : "s")
                                            .arg(kernels == 1 ? "is" : "are");
    if (m_hung) {
        result.outcome = ProbeOutcome::Hung;
        result.summary = QStringLiteral("%1: it wrote nothing for %2 s and was stopped (the hang timeout is set in the "
                                        "Profile panel).%3")
                             .arg(probeOutcomeTitle(result.outcome))
                             .arg(m_hangTimeoutMs / 1000.0, 0, 'g', 3)
                             .arg(kept);
    } else if (m_cancelRequested || (status == QProcess::NormalExit && exitCode == static_cast<int>(ProbeExitCode::Cancelled))) {
        result.outcome = ProbeOutcome::Cancelled;
        result.summary = QStringLiteral("%1.%2").arg(probeOutcomeTitle(result.outcome), kept);
    } else if (status == QProcess::CrashExit) {
        result.outcome = ProbeOutcome::Crashed;
        result.summary = QStringLiteral("%1 (it was killed by a signal).%2").arg(probeOutcomeTitle(result.outcome), kept);
    } else {
        switch (static_cast<ProbeExitCode>(exitCode)) {
        case ProbeExitCode::Ok: {
            result.outcome = ProbeOutcome::Succeeded;
            result.summary = QStringLiteral("Profiled %1 kernel%2%3.")
                                 .arg(kernels)
                                 .arg(kernels == 1 ? "" : "s")
                                 .arg(s.end ? QStringLiteral(" in %1 s").arg(s.end->wallSeconds, 0, 'f', 1) : QString());
            break;
        }
        case ProbeExitCode::Failure:
            result.outcome = ProbeOutcome::KernelFailed;
            result.summary = QStringLiteral("%1 (warpscope-probe exit 1: %2).%3%4")
                                 .arg(probeOutcomeTitle(result.outcome), probeExitCodeMessage(exitCode),
                                      errorSentence(lastError(s)), kept);
            break;
        case ProbeExitCode::BadInput:
            result.outcome = ProbeOutcome::BadInput;
            result.summary = QStringLiteral("%1 (exit 2): %2").arg(probeOutcomeTitle(result.outcome), stderrTail(1));
            break;
        case ProbeExitCode::NoGpu:
            result.outcome = ProbeOutcome::NoGpu;
            result.summary = QStringLiteral("%1 (warpscope-probe exit 3).%2")
                                 .arg(probeOutcomeTitle(result.outcome), errorSentence(lastError(s)));
            break;
        default:
            result.outcome = ProbeOutcome::UnexpectedExit;
            if (!m_remoteHost.isEmpty() && exitCode == kSshConnectionFailed)
                result.summary = QStringLiteral("ssh to %1 failed or the connection was lost (ssh exit 255): %2%3")
                                     .arg(m_remoteHost, stderrTail(1), kept);
            else if (!m_remoteHost.isEmpty() && exitCode == 127 && !m_reader.headerSeen())
                result.summary = QStringLiteral("warpscope-probe was not found on %1 (exit 127 from its shell): build it "
                                                "there (CMake preset headless) and put it on the PATH of non-interactive ssh "
                                                "sessions.")
                                     .arg(m_remoteHost);
            else
                result.summary = QStringLiteral("%1 with code %2.%3").arg(probeOutcomeTitle(result.outcome)).arg(exitCode).arg(kept);
            break;
        }
    }
    finish(result);
}

void ProbeRunner::finish(ProbeResult result)
{
    m_watchdog->stop();
    m_killTimer->stop();
    m_running = false;
    result.stderrTail = stderrTail();
    emit finished(result);
}

} // namespace warpscope::app
