#include "cli/probe_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace warpscope::cli {

namespace {

volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_group = 0; // the probe's process group while it runs

void passOn(int signal)
{
    g_signal = signal;
    if (g_group > 0)
        kill(-static_cast<pid_t>(g_group), SIGTERM);
}

// SIGINT and SIGTERM handlers for the length of one run, restored when it ends.
class SignalForwarding {
public:
    SignalForwarding()
    {
        struct sigaction action {};
        action.sa_handler = passOn;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0; // no SA_RESTART: poll() returns EINTR and the loop looks at g_signal
        sigaction(SIGINT, &action, &m_oldInt);
        sigaction(SIGTERM, &action, &m_oldTerm);
    }
    ~SignalForwarding()
    {
        g_group = 0;
        sigaction(SIGINT, &m_oldInt, nullptr);
        sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    SignalForwarding(const SignalForwarding&) = delete;
    SignalForwarding& operator=(const SignalForwarding&) = delete;

private:
    struct sigaction m_oldInt {};
    struct sigaction m_oldTerm {};
};

using Clock = std::chrono::steady_clock;

int millisecondsUntil(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

} // namespace

ProbeProcessResult runProbeProcess(const std::vector<std::string>& argv, int hangTimeoutMs, int graceMs,
                                   const std::function<void(std::string_view line)>& onLine)
{
    ProbeProcessResult result;
    std::vector<std::string> words = argv;
    std::vector<char*> pointers;
    for (std::string& word : words)
        pointers.push_back(word.data());
    pointers.push_back(nullptr);

    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.startError = std::string("cannot create a pipe: ") + std::strerror(errno);
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own process group: stopping it reaches what it started too (a shell's children, ssh's).
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);

    SignalForwarding forwarding;
    g_signal = 0;
    pid_t child = 0;
    const int spawned = posix_spawnp(&child, pointers[0], &actions, &attributes, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(pipeFds[1]);
    if (spawned != 0) {
        close(pipeFds[0]);
        result.startError = std::strerror(spawned);
        return result;
    }
    result.started = true;
    g_group = child;
    if (g_signal != 0) // a signal that came before the group existed
        kill(-child, SIGTERM);

    enum class Phase { Running, Terminating, Killed };
    Phase phase = Phase::Running;
    Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(hangTimeoutMs);
    const auto stop = [&](int signal) {
        kill(-child, signal);
        phase = signal == SIGKILL ? Phase::Killed : Phase::Terminating;
        deadline = Clock::now() + std::chrono::milliseconds(graceMs);
    };
    std::string pending;
    char buffer[65536];
    for (;;) {
        if (g_signal != 0 && result.passedOnSignal == 0) {
            result.passedOnSignal = g_signal; // the handler already sent SIGTERM
            if (phase == Phase::Running) {
                phase = Phase::Terminating;
                deadline = Clock::now() + std::chrono::milliseconds(graceMs);
            }
        }
        pollfd descriptor{pipeFds[0], POLLIN, 0};
        const int ready = poll(&descriptor, 1, millisecondsUntil(deadline));
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (ready == 0) {
            if (phase == Phase::Running) {
                result.hung = true;
                stop(SIGTERM);
            } else if (phase == Phase::Terminating) {
                stop(SIGKILL);
            } else {
                break; // killed, and still something holds the pipe open: stop reading
            }
            continue;
        }
        const ssize_t count = read(pipeFds[0], buffer, sizeof buffer);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            break; // end of the stream: the probe (and its group) closed it
        if (phase == Phase::Running)
            deadline = Clock::now() + std::chrono::milliseconds(hangTimeoutMs);
        pending.append(buffer, static_cast<std::size_t>(count));
        std::size_t start = 0;
        for (std::size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1)
            onLine(std::string_view(pending).substr(start, end - start));
        pending.erase(0, start);
    }
    close(pipeFds[0]);
    if (!pending.empty())
        onLine(pending);
    if (phase != Phase::Running) {
        // Make sure it ends: the pipe can close before the process has exited.
        for (int waited = 0; waitpid(child, &result.waitStatus, WNOHANG) == 0; waited += 20) {
            if (waited >= graceMs) {
                kill(-child, SIGKILL);
                waitpid(child, &result.waitStatus, 0);
                break;
            }
            usleep(20000);
        }
    } else {
        while (waitpid(child, &result.waitStatus, 0) < 0 && errno == EINTR) {
        }
    }
    return result;
}

} // namespace warpscope::cli
