#include "precision/precision_lab_worker.h"

#include <QMetaObject>
#include <QProgressBar>

#include <exception>

namespace warpscope::viz {

LabWorker::LabWorker(QObject* parent) : QObject(parent)
{
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
            QMetaObject::invokeMethod(
                this, [this, id, done, total] {
                    if (id == m_latestId)
                        emit this->progress(done, total);
                },
                Qt::QueuedConnection);
        };
        Delivery delivery;
        try {
            delivery = next.job(progress, m_cancelRunning);
        } catch (const std::exception&) {
            delivery = {}; // jobs report their own errors; this keeps the worker alive regardless
        }
        QMetaObject::invokeMethod(
            this, [this, id, delivery = std::move(delivery)] { completed(id, delivery); }, Qt::QueuedConnection);
        const std::lock_guard lock(m_mutex);
        m_runningId = 0;
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
