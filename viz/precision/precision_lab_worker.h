// One worker thread per precision-lab panel (mixed precision, quantization, 2:4 sparsity), as
// renderdoc runs long work: jobs run one at a time off the GUI thread, a newer job replaces a queued
// one and cancels the running one (dragging a slider must not queue 200 trainings), and only the
// newest job's result reaches the GUI thread, as an immutable value captured in a delivery closure.
#pragma once

#include <QObject>

class QProgressBar;
class QSocketNotifier;

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace warpscope::viz {

class LabWorker : public QObject {
    Q_OBJECT
public:
    using Progress = std::function<void(int done, int total)>;           // called on the worker thread
    using Delivery = std::function<void()>;                              // runs on the GUI thread
    // Runs on the worker thread; polls `cancel`; returns what to do with its result on the GUI thread.
    using Job = std::function<Delivery(const Progress& progress, const std::atomic<bool>& cancel)>;

    explicit LabWorker(QObject* parent = nullptr);
    ~LabWorker() override; // cancels the running job and waits for it

    // Queues `job` in place of any queued one and asks a running one to stop; returns its id.
    std::uint64_t submit(Job job);
    // Drops the queued job and asks the running one to stop; its delivery still runs (it sees the
    // cancel flag it polled and can report a cancelled result).
    void cancel();
    // A job is queued or running, or its delivery has not run yet.
    bool busy() const { return m_deliveredId != m_latestId; }
    std::uint64_t latestId() const { return m_latestId; }
    // Shows the newest job's progress on `bar` (its range and value follow progress()).
    void driveProgressBar(QProgressBar* bar);

signals:
    void started();                        // a job began while the worker was idle
    void progress(int done, int total);    // the newest job's progress (throttled to whole percents)
    void finished();                       // the newest job's delivery ran; the worker is idle

private:
    struct Queued {
        std::uint64_t id = 0;
        Job job;
    };
    // What the worker hands the GUI thread: a job's progress, or its completion with its delivery.
    struct Posted {
        std::uint64_t id = 0;
        bool completed = false;
        int done = 0, total = 0; // progress
        Delivery delivery;       // completion
    };
    void loop();
    void post(Posted posted); // worker thread: queue it and wake the GUI thread
    void drain();             // GUI thread: runs what the worker posted, in order
    void completed(std::uint64_t id, const Delivery& delivery); // GUI thread

    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Queued> m_queued;        // guarded by m_mutex
    std::uint64_t m_runningId = 0;         // guarded by m_mutex; 0 when idle
    std::atomic<bool> m_cancelRunning{false};
    bool m_quit = false;                   // guarded by m_mutex
    std::vector<Posted> m_posted;          // guarded by m_mutex
    int m_wakeFd = -1;                     // an eventfd the worker rings after posting
    QSocketNotifier* m_notifier = nullptr; // GUI thread: drains on the ring
    // GUI thread only.
    std::uint64_t m_nextId = 1;
    std::uint64_t m_latestId = 0;          // the job whose result the panel wants
    std::uint64_t m_deliveredId = 0;       // the last job whose delivery ran (or was given up)
};

} // namespace warpscope::viz
