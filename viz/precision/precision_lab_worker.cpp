#include "precision/precision_lab_worker.h"

#include <QMetaObject>
#include <QProgressBar>
#include <QSocketNotifier>

#include <sys/eventfd.h>
#include <unistd.h>

#include <exception>
#include <utility>

namespace warpscope::viz {

LabWorker::LabWorker(QObject* parent) : QObject(parent)
{
    // The worker hands its posts over through m_posted under m_mutex and only rings this eventfd;
    // the GUI thread's notifier drains them. No Qt object crosses the threads, so every handover
    // is one ThreadSanitizer sees (Qt's own queue waits on futexes it does not).
    m_wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_wakeFd >= 0) {
        m_notifier = new QSocketNotifier(m_wakeFd, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &LabWorker::drain);
    }
    m_thread = std::thread([this] { loop(); });
}

LabWorker::~LabWorker()
{
    {
        const std::lock_guard lock(m_mutex);
        m_quit = true;
        m_queued.reset();
        m_cancelRunning = true;
    }
    m_wake.notify_all();
    m_thread.join();
    delete m_notifier;
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void LabWorker::post(Posted posted)
{
    {
        const std::lock_guard lock(m_mutex);
        if (posted.completed)
            m_runningId = 0;
        m_posted.push_back(std::move(posted));
    }
    if (m_wakeFd < 0) { // no eventfd (out of descriptors): Qt's queue wakes the GUI thread instead
        QMetaObject::invokeMethod(this, [this] { drain(); }, Qt::QueuedConnection);
        return;
    }
    const std::uint64_t one = 1;
    if (::write(m_wakeFd, &one, sizeof one) < 0) {
        // EAGAIN: the counter is full, so a wake-up is already pending; nothing else can fail here.
    }
}

void LabWorker::drain()
{
    std::uint64_t count = 0;
    if (m_wakeFd >= 0 && ::read(m_wakeFd, &count, sizeof count) < 0) {
        // EAGAIN: an earlier drain took these posts already.
    }
    std::vector<Posted> posted;
    {
        const std::lock_guard lock(m_mutex);
        posted.swap(m_posted);
    }
    for (const Posted& p : posted) {
        if (p.completed)
            completed(p.id, p.delivery);
        else if (p.id == m_latestId)
            emit progress(p.done, p.total);
    }
}

std::uint64_t LabWorker::submit(Job job)
{
    const bool wasIdle = !busy();
    const std::uint64_t id = m_nextId++;
    m_latestId = id;
    {
        const std::lock_guard lock(m_mutex);
        m_queued = Queued{id, std::move(job)};
        if (m_runningId != 0)
            m_cancelRunning = true;
    }
    m_wake.notify_all();
    if (wasIdle)
        emit started();
    return id;
}

void LabWorker::cancel()
{
    if (!busy())
        return;
    std::uint64_t running = 0;
    {
        const std::lock_guard lock(m_mutex);
        m_queued.reset();
        running = m_runningId;
        if (running != 0)
            m_cancelRunning = true;
    }
    if (running != 0) {
        m_latestId = running; // its delivery, cancelled, ends the busy state
        return;
    }
    // Nothing running: the newest job was the dropped queued one (or its delivery is in flight,
    // which completed() now ignores).
    m_deliveredId = m_latestId = m_nextId++;
    emit finished();
}

void LabWorker::loop()
{
    for (;;) {
        Queued next;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_quit || m_queued.has_value(); });
            if (m_quit)
                return;
            next = std::move(*m_queued);
            m_queued.reset();
            m_runningId = next.id;
            m_cancelRunning = false;
        }
        const std::uint64_t id = next.id;
        int lastPercent = -1;
        const Progress progress = [this, id, &lastPercent](int done, int total) {
            const int percent = total > 0 ? static_cast<int>(static_cast<long long>(done) * 100 / total) : 100;
            if (percent == lastPercent)
                return;
            lastPercent = percent;
            post({id, false, done, total, {}});
        };
        Delivery delivery;
        try {
            delivery = next.job(progress, m_cancelRunning);
        } catch (const std::exception&) {
            delivery = {}; // jobs report their own errors; this keeps the worker alive regardless
        }
        post({id, true, 0, 0, std::move(delivery)});
    }
}

void LabWorker::completed(std::uint64_t id, const Delivery& delivery)
{
    if (id != m_latestId)
        return; // superseded: a newer job's result is on its way
    if (delivery)
        delivery();
    m_deliveredId = id;
    emit finished();
}

void LabWorker::driveProgressBar(QProgressBar* bar)
{
    connect(this, &LabWorker::progress, bar, [bar](int done, int total) {
        bar->setRange(0, total);
        bar->setValue(done);
    });
}

} // namespace warpscope::viz
