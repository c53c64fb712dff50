#include "sim/timing_model.h"

#include "occupancy/occupancy.h"
#include "sim/timing_memory.h"
#include "sim/timing_schedule.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace warpscope::sim {

using timing::AsyncRole;
using timing::IssueOutcome;
using timing::MemoryPath;
using timing::StaticInfo;
using timing::TimingClass;
using timing::kLoopUnroll;
using timing::RunSchedule;
using timing::ScheduledRun;

namespace {

// A warp's wait before an issue at `cycle`, from when it could have issued (`earliest`).
struct Wait {
    std::uint64_t cycle, earliest, operands;
    StallReason dependency;   // what the operands waited for
    bool memory;              // a memory instruction: it also waits for the load/store unit
    std::uint64_t lsuFree, barrierStall;
};

// Splits the wait into its parts (operands, load/store unit, another warp picked, a barrier), adds
// them to `stalls`, and gives the issue's record with the largest part as its reason.
IssueTiming attributeWait(const Wait& w, StallCycles& stalls)
{
    const std::uint64_t waited = w.cycle - std::min(w.cycle, w.earliest);
    const std::uint64_t dependencyPart = std::min(waited, w.operands > w.earliest ? w.operands - w.earliest : 0);
    const std::uint64_t start = std::max(w.earliest, w.operands);
    const std::uint64_t lsuPart = w.memory ? std::min(waited - dependencyPart, w.lsuFree > start ? w.lsuFree - start : 0) : 0;
    const std::uint64_t idlePart = waited - dependencyPart - lsuPart;
    switch (w.dependency) {
    case StallReason::GlobalMemory: stalls.globalMemory += dependencyPart; break;
    case StallReason::SharedMemory: stalls.sharedMemory += dependencyPart; break;
    default: stalls.execution += dependencyPart; break;
    }
    stalls.loadStoreUnit += lsuPart;
    stalls.notSelected += idlePart;
    stalls.barrier += w.barrierStall;
    StallReason reason = StallReason::None;
    std::uint64_t largest = 0;
    auto consider = [&](std::uint64_t part, StallReason why) {
        if (part > largest) {
            largest = part;
            reason = why;
        }
    };
    consider(dependencyPart, w.dependency == StallReason::None ? StallReason::Execution : w.dependency);
    consider(lsuPart, StallReason::LoadStoreUnit);
    consider(idlePart, StallReason::NotSelected);
    consider(w.barrierStall, StallReason::Barrier);
    return {w.cycle, static_cast<std::uint32_t>(std::min<std::uint64_t>(waited + w.barrierStall, 0xffffffffu)), reason};
}

// cp.async's copy groups: a copy joins the open group (landing at `lands`), commit_group closes it,
// a wait retires the groups it waited for.
void trackCopyGroups(const StaticInfo& s, std::uint64_t lands, std::uint64_t& openGroupLands, std::vector<std::uint64_t>& groupLands)
{
    switch (s.async) {
    case AsyncRole::Copy:
        openGroupLands = std::max(openGroupLands, lands);
        break;
    case AsyncRole::Commit:
        groupLands.push_back(openGroupLands);
        openGroupLands = 0;
        break;
    case AsyncRole::Wait: // what it waited for has landed
        if (s.waitAll) {
            groupLands.clear();
            openGroupLands = 0;
        } else if (groupLands.size() > s.waitNewest) {
            groupLands.erase(groupLands.begin(), groupLands.end() - static_cast<std::ptrdiff_t>(s.waitNewest));
        }
        break;
    case AsyncRole::None:
        break;
    }
}

// A warp's issue order (SmTimingModel::issueOrder) and the scheduled runs in it, shared by the
// warps that issue the same pcs.
struct IssuePlan {
    std::vector<std::uint32_t> order; // records in issue order (empty: as recorded)
    std::vector<ScheduledRun> runs;   // where `order` follows a schedule
};

struct Warp {
    const std::vector<IssueRecord>* records = nullptr;
    std::size_t next = 0;
    std::size_t block = 0;      // index into `resident`
    std::uint64_t earliest = 0; // the cycle after its last issue
    bool atBarrier = false;
    bool done = false;
    std::uint64_t barrierSince = 0;
    std::vector<std::uint64_t> ready;
    std::vector<std::uint8_t> producer; // StallReason of the register's pending producer
    std::vector<IssueTiming>* times = nullptr;
    std::uint64_t pendingBarrierStall = 0;
    std::uint64_t readyCache = 0; // max(earliest, operands of the next record)
    std::uint64_t operandsCache = 0; // when the next record's operands are ready, and what they wait for
    const IssueRecord* nextRecord = nullptr; // the next record and its instruction, as refresh() found them
    const StaticInfo* nextInfo = nullptr;
    StallReason operandsReason = StallReason::None;
    bool nextIsMemory = false;
    std::uint64_t openGroupLands = 0;        // when the cp.async copies not yet committed land
    std::vector<std::uint64_t> groupLands;   // when each committed group's copies land, oldest first
    std::shared_ptr<const IssuePlan> plan;   // its issue order; never null once active
    std::size_t run = 0;                     // the run `next` is in or before
    const ScheduledRun* activeRun = nullptr; // runs()[run] once `next` has reached it, until it ends
    std::vector<std::uint64_t> runResult;    // per position of the current run: when its results land
    std::vector<std::uint8_t> runReason;
    std::vector<std::uint64_t> entryReady;   // `ready` and `producer` as the current run began
    std::vector<std::uint8_t> entryProducer;
    // A slot taken by a new warp: everything reset, the vectors' storage kept for it.
    void reset(const std::vector<IssueRecord>* log, std::size_t residentBlock, std::uint64_t start, std::size_t registers)
    {
        records = log;
        next = 0;
        block = residentBlock;
        earliest = start;
        atBarrier = false;
        done = log->empty();
        barrierSince = 0;
        ready.assign(registers, 0);
        producer.assign(registers, 0);
        times = nullptr;
        pendingBarrierStall = 0;
        readyCache = 0;
        operandsCache = 0;
        operandsReason = StallReason::None;
        nextRecord = nullptr;
        nextInfo = nullptr;
        nextIsMemory = false;
        openGroupLands = 0;
        groupLands.clear();
        plan.reset();
        run = 0;
        activeRun = nullptr;
        runResult.clear();
        runReason.clear();
        entryReady.clear();
        entryProducer.clear();
    }
    const std::vector<std::uint32_t>& order() const { return plan->order; }
    const std::vector<ScheduledRun>& runs() const { return plan->runs; }
    const IssueRecord& current() const { return (*records)[order().empty() ? next : order()[next]]; }
    // The next record's position in the scheduled run it is in (renamed registers), or -1.
    std::int64_t runPosition() const
    {
        return activeRun == nullptr ? -1 : static_cast<std::int64_t>(order()[next] - activeRun->recordBase);
    }
    bool nextWidened() const
    {
        const std::int64_t position = runPosition();
        return position >= 0 && activeRun->schedule->widened[static_cast<std::size_t>(position)] != 0;
    }
    // When the operands of the next instruction are ready, and why it would wait until then.
    std::uint64_t operandsReady(const StaticInfo& s, StallReason& reason) const
    {
        std::uint64_t at = 0;
        reason = StallReason::None;
        const std::int64_t position = runPosition();
        const std::int32_t* producers =
            position < 0 ? nullptr
                         : activeRun->schedule->producers.data() + activeRun->schedule->producerStart[static_cast<std::size_t>(position)];
        for (int i = 0; i < s.sourceCount; ++i) {
            const auto reg = static_cast<std::size_t>(s.sources[i]);
            std::uint64_t r;
            std::uint8_t why;
            if (producers != nullptr) { // renamed: the latest writer in record order
                const std::int32_t p = producers[i];
                r = p >= 0 ? runResult[static_cast<std::size_t>(p)] : entryReady[reg];
                why = p >= 0 ? runReason[static_cast<std::size_t>(p)] : entryProducer[reg];
            } else {
                r = ready[reg];
                why = producer[reg];
            }
            if (r > at) {
                at = r;
                reason = static_cast<StallReason>(why);
            }
        }
        if (s.async == AsyncRole::Wait) { // the awaited groups' copies must have landed
            const std::size_t awaited = s.waitAll ? groupLands.size() : groupLands.size() - std::min<std::size_t>(groupLands.size(), s.waitNewest);
            std::uint64_t lands = s.waitAll ? openGroupLands : 0;
            for (std::size_t g = 0; g < awaited; ++g)
                lands = std::max(lands, groupLands[g]);
            if (lands > at) {
                at = lands;
                reason = StallReason::GlobalMemory;
            }
        }
        return at;
    }
    // A scheduled run begins at the next record: the values its reads find from before it.
    void beginRunIfStarting()
    {
        if (activeRun == nullptr && run < runs().size() && next == runs()[run].firstIssue) {
            activeRun = &runs()[run];
            entryReady = ready;
            entryProducer = producer;
            runResult.assign(runs()[run].length, 0);
            runReason.assign(runs()[run].length, 0);
        }
    }
    // The next record issued: its destinations' results land at `lands`.
    void issued(const StaticInfo& s, std::uint64_t lands, StallReason produces)
    {
        for (int d = 0; d < s.destinationCount; ++d) {
            ready[static_cast<std::size_t>(s.destinations[d])] = lands;
            producer[static_cast<std::size_t>(s.destinations[d])] = static_cast<std::uint8_t>(produces);
        }
        const std::int64_t position = runPosition();
        if (position < 0)
            return;
        const ScheduledRun& r = runs()[run];
        runResult[static_cast<std::size_t>(position)] = lands;
        runReason[static_cast<std::size_t>(position)] = static_cast<std::uint8_t>(produces);
        if (next + 1 == r.firstIssue + r.length) { // the run ends: each register's last write stands
            for (const auto& [reg, writer] : r.schedule->finalWriters) {
                ready[static_cast<std::size_t>(reg)] = runResult[static_cast<std::size_t>(writer)];
                producer[static_cast<std::size_t>(reg)] = runReason[static_cast<std::size_t>(writer)];
            }
            entryReady.clear();
            activeRun = nullptr;
            run += 1;
        }
    }
    // The traced issue times back in the records' order.
    void timesInRecordOrder()
    {
        if (times == nullptr || order().empty() || times->size() != order().size())
            return;
        std::vector<IssueTiming> recorded(times->size());
        for (std::size_t k = 0; k < order().size(); ++k)
            recorded[order()[k]] = (*times)[k];
        *times = std::move(recorded);
    }
};
struct Resident {
    std::size_t log = 0;
    std::vector<std::size_t> warps;
    int live = 0;
    int waiting = 0;
};

} // namespace

// Runs longer than this are cut (the schedule is quadratic in their length).
constexpr std::int32_t kMaxScheduledRun = 512;
// A forward branch over at most this many instructions is predication in the SASS (ptxas
// if-converts short branches: CUDA C++ Best Practices Guide, "Branch Predication").
constexpr std::int32_t kIfConvertSpan = 8;

const char* stallReasonName(StallReason reason)
{
    switch (reason) {
    case StallReason::None: return "none";
    case StallReason::GlobalMemory: return "global_memory";
    case StallReason::SharedMemory: return "shared_memory";
    case StallReason::Execution: return "execution";
    case StallReason::LoadStoreUnit: return "load_store_unit";
    case StallReason::Barrier: return "barrier";
    case StallReason::NotSelected: return "not_selected";
    }
    return "unknown";
}

void StallCycles::add(const StallCycles& other)
{
    globalMemory += other.globalMemory;
    sharedMemory += other.sharedMemory;
    execution += other.execution;
    loadStoreUnit += other.loadStoreUnit;
    barrier += other.barrier;
    notSelected += other.notSelected;
}

int residentBlocksPerSm(const gpu::GpuPreset& preset, const ptx::Function& function, std::int64_t threadsPerBlock,
                        std::uint64_t dynamicSharedBytes, int registersPerThread)
{
    occupancy::OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(threadsPerBlock);
    input.registersPerThread = registersPerThread;
    input.staticSharedBytes = function.staticSharedBytes;
    input.dynamicSharedBytes = dynamicSharedBytes;
    return std::max(1, occupancy::activeBlocksPerSm(preset, input));
}

SmTimingModel::SmTimingModel(const ptx::Function& function, const gpu::TimingParameters& parameters,
                             int residentBlocks, int smCount, std::uint64_t sharedBytesPerBlock, int registersPerThread)
    : m_function(function), m_registersPerThread(std::max(0, registersPerThread)), m_parameters(parameters),
      m_residentBlocks(std::max(1, residentBlocks)), m_smCount(std::max(1, smCount))
{
    const std::uint64_t sharedInUse = sharedBytesPerBlock * static_cast<std::uint64_t>(m_residentBlocks);
    m_l1Bytes = parameters.l1PoolBytes > sharedInUse ? parameters.l1PoolBytes - sharedInUse : 0;
    m_l2Bytes = parameters.l2Bytes / static_cast<std::uint64_t>(m_smCount);
    m_l2SectorsPerCycle = parameters.l2BytesPerCycle / 32.0 / m_smCount;
    m_l2PartialSectorsPerCycle = parameters.l2PartialSectorsPerCycle / m_smCount;
    if (parameters.coreClockMHz > 0 && parameters.dramBandwidthGBps > 0)
        m_dramBytesPerCycle = parameters.dramBandwidthGBps * 1e9 / (parameters.coreClockMHz * 1e6) / m_smCount;
    m_info.reserve(function.instructions.size());
    for (const ptx::Instruction& instruction : function.instructions)
        m_info.push_back(timing::describe(instruction));
    m_registerWidths = timing::registerWidths(function);
    if (m_registersPerThread > 0)
        m_liveness = std::make_unique<timing::Liveness>(function, m_info);
}

// The schedule of a run of records with these pcs, worked out once per model.
const RunSchedule& SmTimingModel::scheduleFor(const std::vector<std::int32_t>& pcs) const
{
    const std::string key(reinterpret_cast<const char*>(pcs.data()), pcs.size() * sizeof(std::int32_t));
    std::lock_guard lock(m_scheduleMutex);
    auto found = m_schedules.find(key);
    if (found == m_schedules.end()) {
        std::vector<std::uint64_t> liveAfter;
        if (m_liveness)
            liveAfter = m_liveness->liveAfter(pcs.back());
        // ptxas's count holds two registers it reserves beyond the highest it uses (matmul_naive's SASS
        // uses R0..R29 and counts 32), and R1 is the stack pointer: the rest hold values.
        const int forValues = std::max(1, m_registersPerThread - 3);
        const timing::RegisterBudget budget{m_registersPerThread > 0 ? forValues : 0, &m_registerWidths, m_liveness ? &liveAfter : nullptr};
        auto schedule = std::make_unique<RunSchedule>(RunSchedule{timing::scheduleRun(m_info, pcs, budget)});
        for (std::size_t i = 0; i < schedule->order.size(); ++i)
            schedule->reordered = schedule->reordered || schedule->order[i] != static_cast<std::int32_t>(i);
        found = m_schedules.emplace(key, std::move(schedule)).first;
    }
    return *found->second;
}

// The order a warp issues its records in, as ptxas's SASS would: the records are cut into runs of
// rising pcs (a run ends after a backward branch, a forward branch past more than kIfConvertSpan
// instructions, or kMaxScheduledRun records), up to kLoopUnroll runs of a loop body with the same
// pcs are joined (ptxas unrolls them), and each run is issued in its schedule (scheduleRun).
std::vector<std::uint32_t> SmTimingModel::issueOrder(const std::vector<IssueRecord>& records,
                                                     std::vector<ScheduledRun>& runs) const
{
    std::vector<std::uint32_t> order;
    runs.clear();
    const std::vector<timing::StaticInfo>& info = m_info;
    auto runEnd = [&](std::size_t i) { // one past the run starting at i
        std::size_t j = i + 1;
        while (j < records.size() && j - i < static_cast<std::size_t>(kMaxScheduledRun)) {
            const std::int32_t previous = records[j - 1].pc, pc = records[j].pc;
            if (pc <= previous)
                break;
            if (info[static_cast<std::size_t>(previous)].branch && pc - previous - 1 > kIfConvertSpan)
                break;
            ++j;
        }
        return j;
    };
    auto samePcs = [&](std::size_t a, std::size_t b, std::size_t length) {
        for (std::size_t k = 0; k < length; ++k)
            if (records[a + k].pc != records[b + k].pc)
                return false;
        return true;
    };
    std::vector<std::int32_t> pcs;
    for (std::size_t i = 0; i < records.size();) {
        const std::size_t end = runEnd(i), length = end - i;
        std::size_t copies = 1;
        const bool loops = info[static_cast<std::size_t>(records[end - 1].pc)].branch && end < records.size() &&
                           records[end].pc == records[i].pc;
        while (loops && copies < static_cast<std::size_t>(kLoopUnroll) && i + (copies + 1) * length <= records.size() &&
               runEnd(i + copies * length) == i + (copies + 1) * length && samePcs(i, i + copies * length, length))
            ++copies;
        const std::size_t total = copies * length;
        if (total >= 2) {
            pcs.clear();
            for (std::size_t k = i; k < i + total; ++k)
                pcs.push_back(records[k].pc);
            const RunSchedule& schedule = scheduleFor(pcs);
            if (schedule.reordered) {
                if (order.empty() && i > 0)
                    for (std::size_t k = 0; k < i; ++k)
                        order.push_back(static_cast<std::uint32_t>(k));
                order.reserve(records.size());
                runs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(total), static_cast<std::uint32_t>(i), &schedule});
                for (std::int32_t position : schedule.order)
                    order.push_back(static_cast<std::uint32_t>(i + static_cast<std::size_t>(position)));
                i += total;
                continue;
            }
        }
        if (!order.empty() || !runs.empty())
            for (std::size_t k = i; k < i + total; ++k)
                order.push_back(static_cast<std::uint32_t>(k));
        i += total;
    }
    if (runs.empty())
        order.clear();
    return order; // empty: as recorded
}

SmTimingModel::~SmTimingModel() = default;

// One SM's replay: its resident blocks and warps, its schedulers and its memory path, stepped from
// cycle to cycle until the last block is done. replay() builds one and runs it.
class SmTimingModel::Replay {
public:
    Replay(const SmTimingModel& model, const std::vector<BlockLog>& blocks, const std::vector<std::uint64_t>& sectorPool,
           const std::vector<std::uint64_t>& traced, TraceTimes* traceTimes)
        : m_model(model), m_info(model.m_info), m_blocks(blocks), m_sectorPool(sectorPool), m_traced(traced),
          m_traceTimes(traceTimes), m_schedulers(std::max(1, model.m_parameters.schedulersPerSm)),
          m_memory(model.m_parameters, model.m_l1Bytes, model.m_l2Bytes, model.m_dramBytesPerCycle, model.m_l2SectorsPerCycle,
                   model.m_l2PartialSectorsPerCycle, model.m_smCount),
          m_byScheduler(static_cast<std::size_t>(m_schedulers)), m_greedy(static_cast<std::size_t>(m_schedulers), kNone),
          m_busyUntil(static_cast<std::size_t>(m_schedulers), 0), m_wakeAt(static_cast<std::size_t>(m_schedulers), 0)
    {
        m_warps.reserve(static_cast<std::size_t>(model.m_residentBlocks) * 64);
    }

    SmTiming run();

private:
    static constexpr std::size_t kNone = ~std::size_t{0};
    static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

    bool isMemory(const Warp& warp) const;
    void refresh(std::size_t slot);
    // What pick() reads of a warp, kept in arrays by slot so the scan touches a few cache lines.
    void publish(std::size_t slot)
    {
        const Warp& warp = m_warps[slot];
        if (slot >= m_slotReady.size()) {
            m_slotReady.resize(slot + 1, kNever);
            m_slotMemory.resize(slot + 1, 0);
        }
        m_slotReady[slot] = warp.done || warp.atBarrier ? kNever : warp.readyCache;
        m_slotMemory[slot] = warp.nextIsMemory ? 1 : 0;
    }
    // When the warp in `slot` can issue next (kNever: done or at a barrier).
    std::uint64_t readyAt(std::size_t slot) const
    {
        const std::uint64_t ready = m_slotReady[slot];
        return m_slotMemory[slot] != 0 && ready != kNever ? std::max(ready, m_memory.lsuFree) : ready;
    }

    std::shared_ptr<const IssuePlan> issuePlanOf(const std::vector<IssueRecord>& records);
    void activate(std::uint64_t at);
    void fill(std::uint64_t at);
    void finishWarp(std::size_t slot);
    void releaseBarrierIfComplete(Resident& block);
    std::size_t pick(std::size_t s, std::uint64_t& nextEvent);
    void issue(std::size_t s, std::size_t chosen);

    const SmTimingModel& m_model;
    const std::vector<StaticInfo>& m_info;
    const std::vector<BlockLog>& m_blocks;
    const std::vector<std::uint64_t>& m_sectorPool;
    const std::vector<std::uint64_t>& m_traced;
    TraceTimes* m_traceTimes;
    const int m_schedulers;
    MemoryPath m_memory;
    SmTiming m_timing;
    std::vector<Warp> m_warps;
    std::vector<Resident> m_resident;
    std::vector<std::vector<std::size_t>> m_byScheduler;
    std::vector<std::size_t> m_greedy;          // per scheduler: the warp it keeps issuing from while ready
    std::vector<std::uint64_t> m_busyUntil;     // per scheduler: issuing an expanded sequence until then
    std::vector<std::uint64_t> m_wakeAt;        // per scheduler: no warp ready before
    std::vector<std::size_t> m_freeWarpSlots;
    std::vector<std::uint64_t> m_slotReady; // per warp slot: publish()
    std::vector<std::uint8_t> m_slotMemory;
    std::size_t m_nextBlock = 0;
    std::uint64_t m_cycle = 0, m_lastCycle = 0;
    const std::vector<IssueRecord>* m_plannedRecords = nullptr; // the last warp issuePlanOf worked out
    std::shared_ptr<const IssuePlan> m_lastPlan;
    int m_residentCount = 0;
};

bool SmTimingModel::Replay::isMemory(const Warp& warp) const
{
    const StaticInfo& s = *warp.nextInfo;
    const TimingClass kind = s.kind;
    const bool memory = kind == TimingClass::Shared || kind == TimingClass::SharedAtomic || kind == TimingClass::GlobalLoad ||
                        kind == TimingClass::GlobalStore || kind == TimingClass::GlobalAtomic || kind == TimingClass::Local;
    // A load merged into an earlier one has no turn of its own at the load/store unit.
    return memory && !(s.widenable && warp.nextWidened());
}

// A warp's readiness changes only when it issues, is released from a barrier or arrives; the cache
// keeps the scheduler's scan to a few compares per warp.
void SmTimingModel::Replay::refresh(std::size_t slot)
{
    Warp& warp = m_warps[slot];
    if (!warp.done && warp.next < warp.records->size()) {
        warp.beginRunIfStarting();
        warp.nextRecord = &warp.current();
        warp.nextInfo = &m_info[static_cast<std::size_t>(warp.nextRecord->pc)];
        warp.operandsCache = warp.operandsReady(*warp.nextInfo, warp.operandsReason);
        warp.readyCache = std::max(warp.earliest, warp.operandsCache);
        warp.nextIsMemory = isMemory(warp);
    }
    publish(slot);
}

// A warp's issue order (SmTimingModel::issueOrder). Most warps of a launch issue the same pcs as the
// warp before them: they take its order without working it out again.
std::shared_ptr<const IssuePlan> SmTimingModel::Replay::issuePlanOf(const std::vector<IssueRecord>& records)
{
    const std::vector<IssueRecord>* last = m_plannedRecords;
    const bool samePcs = last != nullptr && last->size() == records.size() &&
                         std::equal(records.begin(), records.end(), last->begin(),
                                    [](const IssueRecord& a, const IssueRecord& b) { return a.pc == b.pc; });
    if (!samePcs) {
        auto plan = std::make_shared<IssuePlan>();
        plan->order = m_model.issueOrder(records, plan->runs);
        m_lastPlan = std::move(plan);
        m_plannedRecords = &records;
    }
    return m_lastPlan;
}

// The next block of the SM's list becomes resident at `at`: its warps join the schedulers.
void SmTimingModel::Replay::activate(std::uint64_t at)
{
    const BlockLog& log = m_blocks[m_nextBlock];
    Resident block;
    block.log = m_nextBlock++;
    std::vector<IssueTiming>* times = nullptr;
    if (m_traceTimes && std::find(m_traced.begin(), m_traced.end(), log.linearBlock) != m_traced.end()) {
        m_traceTimes->push_back({log.linearBlock, std::vector<std::vector<IssueTiming>>(log.warps.size())});
        times = m_traceTimes->back().second.data();
    }
    const std::size_t registers = m_model.m_function.registers.size();
    const std::size_t residentIndex = m_resident.size();
    for (std::size_t w = 0; w < log.warps.size(); ++w) {
        std::size_t slot;
        if (!m_freeWarpSlots.empty()) {
            slot = m_freeWarpSlots.back();
            m_freeWarpSlots.pop_back();
        } else {
            slot = m_warps.size();
            m_warps.emplace_back();
        }
        Warp& warp = m_warps[slot];
        warp.reset(&log.warps[w], residentIndex, at + static_cast<std::uint64_t>(std::max(0, m_model.m_parameters.blockLaunchCycles)),
                   registers);
        warp.plan = issuePlanOf(log.warps[w]);
        if (times) {
            warp.times = times + w;
            warp.times->reserve(log.warps[w].size());
        }
        refresh(slot);
        if (!m_warps[slot].done) {
            block.warps.push_back(slot);
            block.live += 1;
            m_byScheduler[slot % static_cast<std::size_t>(m_schedulers)].push_back(slot);
            m_wakeAt[slot % static_cast<std::size_t>(m_schedulers)] = 0;
        } else {
            m_freeWarpSlots.push_back(slot);
        }
    }
    const bool empty = block.live == 0;
    if (empty)
        block.log = kNone; // nothing to run: done on arrival
    m_resident.push_back(std::move(block));
    if (!empty)
        m_residentCount += 1;
}

// Blocks become resident while the SM has room for them (occupancy).
void SmTimingModel::Replay::fill(std::uint64_t at)
{
    while (m_nextBlock < m_blocks.size() && m_residentCount < m_model.m_residentBlocks)
        activate(at);
}

void SmTimingModel::Replay::finishWarp(std::size_t slot)
{
    Warp& warp = m_warps[slot];
    warp.done = true;
    publish(slot);
    warp.timesInRecordOrder();
    Resident& block = m_resident[warp.block];
    block.live -= 1;
    block.warps.erase(std::find(block.warps.begin(), block.warps.end(), slot)); // the slot may be reused
    auto& list = m_byScheduler[slot % static_cast<std::size_t>(m_schedulers)];
    list.erase(std::find(list.begin(), list.end(), slot));
    m_freeWarpSlots.push_back(slot);
}

// When every unfinished warp of the block waits at the barrier, all of them go on next cycle.
void SmTimingModel::Replay::releaseBarrierIfComplete(Resident& block)
{
    if (block.waiting == 0 || block.waiting < block.live)
        return;
    for (std::size_t slot : block.warps) {
        Warp& warp = m_warps[slot];
        if (!warp.done && warp.atBarrier) {
            warp.atBarrier = false;
            warp.pendingBarrierStall = m_cycle + 1 - warp.barrierSince;
            warp.earliest = m_cycle + 1;
            refresh(slot);
            m_wakeAt[slot % static_cast<std::size_t>(m_schedulers)] = 0;
        }
    }
    block.waiting = 0;
}

// The warp scheduler `s` issues from this cycle, greedy-then-oldest, or kNone; `nextEvent` learns
// when it could issue again when it cannot now.
std::size_t SmTimingModel::Replay::pick(std::size_t s, std::uint64_t& nextEvent)
{
    if (m_busyUntil[s] > m_cycle) {
        nextEvent = std::min(nextEvent, m_busyUntil[s]);
        return kNone;
    }
    if (m_wakeAt[s] > m_cycle) {
        nextEvent = std::min(nextEvent, m_wakeAt[s]);
        return kNone;
    }
    const std::size_t preferred = m_greedy[s];
    if (preferred != kNone && readyAt(preferred) <= m_cycle)
        return preferred;
    // The list is in age order (warps join at its end as they arrive): the first ready warp is the
    // oldest ready one.
    std::uint64_t soonest = kNever; // kNever for a warp that is done or at a barrier
    for (std::size_t slot : m_byScheduler[s]) {
        const std::uint64_t at = readyAt(slot);
        if (at <= m_cycle)
            return slot;
        soonest = std::min(soonest, at);
    }
    // Nothing can issue here before `soonest` unless a warp arrives or is released.
    m_wakeAt[s] = soonest == kNever ? m_cycle + 1 : soonest;
    nextEvent = std::min(nextEvent, m_wakeAt[s]);
    return kNone;
}

// Scheduler `s` issues the next instruction of warp `chosen`: where its wait went, when its results
// arrive, and what follows for the warp (done, at a barrier) and its block.
void SmTimingModel::Replay::issue(std::size_t s, std::size_t chosen)
{
    m_greedy[s] = chosen;
    Warp& warp = m_warps[chosen];
    const IssueRecord& record = *warp.nextRecord; // refresh() found them after the warp's last change
    const StaticInfo& info = *warp.nextInfo;

    // refresh() worked out the operands after the warp's last change.
    const StallReason dependency = warp.operandsReason;
    const std::uint64_t operands = warp.operandsCache;
    const IssueTiming issued = attributeWait({m_cycle, warp.earliest, operands, dependency, warp.nextIsMemory, m_memory.lsuFree,
                                              warp.pendingBarrierStall},
                                             m_timing.stalls);
    if (warp.times)
        warp.times->push_back(issued);
    warp.pendingBarrierStall = 0;

    const IssueOutcome outcome = m_memory.issue(info, record, info.widenable && warp.nextWidened(), m_cycle, m_sectorPool, m_timing,
                                                warp.times ? &warp.times->back() : nullptr, m_resident[warp.block].log + 1);
    const std::uint64_t latency = outcome.latency;
    trackCopyGroups(info, m_cycle + latency, warp.openGroupLands, warp.groupLands);
    warp.issued(info, m_cycle + latency, outcome.produces);
    warp.earliest = m_cycle + info.issueSlots;
    if (info.issueSlots > 1)
        m_busyUntil[s] = m_cycle + info.issueSlots;
    ++m_timing.issued;
    m_lastCycle = std::max(m_lastCycle, m_cycle + latency);
    warp.next += 1;

    Resident& block = m_resident[warp.block];
    if (warp.next == warp.records->size()) {
        finishWarp(chosen);
        m_greedy[s] = kNone;
        releaseBarrierIfComplete(block);
    } else if (info.kind == TimingClass::Barrier) {
        warp.atBarrier = true;
        warp.barrierSince = m_cycle + 1;
        block.waiting += 1;
        m_greedy[s] = kNone;
        refresh(chosen);
        releaseBarrierIfComplete(block);
    } else {
        refresh(chosen);
    }
    if (block.live == 0 && block.log != kNone) {
        block.log = kNone;
        m_residentCount -= 1;
        fill(m_cycle + 1);
    }
}

SmTiming SmTimingModel::Replay::run()
{
    if (m_blocks.empty())
        return m_timing;
    // traceTimes entries must not move while warps point into them.
    if (m_traceTimes)
        m_traceTimes->reserve(m_traceTimes->size() + m_traced.size());
    fill(0);
    while (m_residentCount > 0) {
        bool issuedAny = false;
        std::uint64_t nextEvent = std::numeric_limits<std::uint64_t>::max();
        for (std::size_t s = 0; s < static_cast<std::size_t>(m_schedulers); ++s) {
            const std::size_t chosen = pick(s, nextEvent);
            if (chosen == kNone)
                continue;
            issuedAny = true;
            issue(s, chosen);
        }
        // Nothing issued: jump to the next cycle any scheduler can issue in.
        if (issuedAny || nextEvent == std::numeric_limits<std::uint64_t>::max())
            m_cycle += 1;
        else
            m_cycle = std::max(m_cycle + 1, nextEvent);
    }
    m_timing.cycles = std::max(m_cycle, m_lastCycle);
    return m_timing;
}

SmTiming SmTimingModel::replay(const std::vector<BlockLog>& blocks, const std::vector<std::uint64_t>& sectorPool,
                               const std::vector<std::uint64_t>& traced, TraceTimes* traceTimes) const
{
    return Replay(*this, blocks, sectorPool, traced, traceTimes).run();
}

} // namespace warpscope::sim
