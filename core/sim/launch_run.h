// One launch while its blocks run: what simulate() (simulator.cpp) and a cooperative launch's
// scheduler (grid_barrier.cpp) share. Internal to core/sim: the simulated memory, the context every
// runner reads, how the run stands (budget, cancel, a block that never ends, a grid barrier that
// never opens), and the timing model's results. Several host threads may update it at once: its
// flags are atomics and the shared results take a lock.
#pragma once

#include "sim/block_runner.h"
#include "sim/global_memory.h"
#include "sim/hazards.h"
#include "sim/simulator.h"
#include "sim/timing_model.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::sim {

// Issue times the timing model handed out for traced and recorded blocks: per block, per warp, in issue order.
using TraceTimes = std::vector<std::pair<std::uint64_t, std::vector<std::vector<IssueTiming>>>>;

struct LaunchRun {
    const LaunchRequest* request = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    const std::function<void(const SimProgress&)>* progress = nullptr;
    GlobalMemory memory;
    LaunchContext context;
    HazardLog hazards;
    std::mutex atomicMutex;
    std::atomic<std::uint64_t> budgetUsed{0};

    std::uint64_t blockCount = 0;  // the grid's
    std::uint64_t blocksToRun = 0; // the grid's, or the sample's
    std::vector<std::uint64_t> sample; // sampled blocks (empty: every block)
    std::uint64_t smCount = 1;
    std::uint64_t usedSms = 0;     // SMs that get work (or sampled blocks, one each)
    std::vector<std::unique_ptr<BlockRunner>> runners;

    std::atomic<std::uint64_t> nextSm{0};
    std::atomic<std::uint64_t> blocksDone{0};
    std::atomic<bool> budgetExceeded{false};
    std::atomic<std::int64_t> endlessBlock{-1}; // the block that passed blockStepBudget
    std::atomic<bool> cancelled{false};
    std::string gridDeadlock;                   // cooperative: why a grid barrier can never open (grid_barrier.cpp)
    std::mutex errorMutex;
    std::exception_ptr error;

    // The timing model: on until a log passes its memory cap; per-SM results and the traced blocks' times.
    const SmTimingModel* timingModel = nullptr;
    std::atomic<bool> timingComplete{false};
    std::vector<std::uint64_t> timedBlocks;
    std::vector<SmTiming> smTimings;
    std::mutex traceTimesMutex;
    TraceTimes traceTimes;

    std::chrono::steady_clock::time_point lastReport = std::chrono::steady_clock::now();

    bool sampling() const { return !sample.empty(); }
    bool stopped() const { return budgetExceeded.load(std::memory_order_relaxed) || cancelled.load(std::memory_order_relaxed); }
    // Notes a cancel request; true when the run should stop.
    bool shouldStop()
    {
        if (cancel && cancel->load(std::memory_order_relaxed))
            cancelled = true;
        return stopped();
    }
    // Takes a block's outcome in: false (the run stops) for a spent budget, an endless block or a cancel.
    bool accept(RunOutcome outcome, std::uint64_t block)
    {
        switch (outcome) {
        case RunOutcome::BudgetExceeded: budgetExceeded = true; return false;
        case RunOutcome::BlockBudgetExceeded:
            endlessBlock = static_cast<std::int64_t>(block);
            budgetExceeded = true;
            return false;
        case RunOutcome::Cancelled: cancelled = true; return false;
        case RunOutcome::Completed:
        case RunOutcome::AtGridBarrier: return true;
        }
        return true;
    }
    // One block finished: counted, and progress reported now and then (by one thread only).
    void blockDone(bool reportsProgress)
    {
        const std::uint64_t done = blocksDone.fetch_add(1) + 1;
        if (!reportsProgress || !progress || !*progress)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReport > std::chrono::milliseconds(100) || done == blocksToRun) {
            (*progress)({done, blocksToRun});
            lastReport = now;
        }
    }
    void fail(std::exception_ptr exception)
    {
        std::lock_guard lock(errorMutex);
        if (!error)
            error = std::move(exception);
        cancelled = true;
    }
    // SM `sm`'s blocks replayed by the timing model from their issue logs (sectors in `sectors`).
    void replaySm(std::uint64_t sm, const std::vector<BlockLog>& logs, const std::vector<std::uint64_t>& sectors)
    {
        TraceTimes times;
        smTimings[sm] = timingModel->replay(logs, sectors, timedBlocks, timedBlocks.empty() ? nullptr : &times);
        if (times.empty())
            return;
        std::lock_guard lock(traceTimesMutex);
        for (auto& entry : times)
            traceTimes.push_back(std::move(entry));
    }
};

} // namespace warpscope::sim
