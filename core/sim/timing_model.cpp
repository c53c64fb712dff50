#include "sim/timing_model.h"

#include "occupancy/occupancy.h"
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
using timing::StaticInfo;
using timing::TimingClass;
using timing::kLoopUnroll;

namespace {

// A set-associative sector cache with round-robin replacement.
class SectorCache {
public:
    SectorCache(std::uint64_t bytes, int ways) : m_ways(ways)
    {
        const std::uint64_t sectors = bytes / 32;
        m_sets = sectors / static_cast<std::uint64_t>(ways);
        m_tags.assign(m_sets * static_cast<std::uint64_t>(ways), ~0ull);
        m_next.assign(m_sets, 0);
    }
    bool enabled() const { return m_sets > 0; }
    // True on a hit; on a miss the sector is filled when `allocate`.
    bool access(std::uint64_t sector, bool allocate)
    {
        if (m_sets == 0)
            return false;
        const std::uint64_t set = sector % m_sets;
        std::uint64_t* tags = m_tags.data() + set * static_cast<std::uint64_t>(m_ways);
        for (int w = 0; w < m_ways; ++w)
            if (tags[w] == sector)
                return true;
        if (allocate) {
            tags[m_next[set]] = sector;
            m_next[set] = static_cast<std::uint8_t>((m_next[set] + 1) % m_ways);
        }
        return false;
    }

private:
    int m_ways;
    std::uint64_t m_sets = 0;
    std::vector<std::uint64_t> m_tags;
    std::vector<std::uint8_t> m_next;
};

} // namespace

struct SmTimingModel::RunSchedule : timing::RunPlan {
    bool reordered = false; // false: the PTX's order
};

// A stretch of a warp's issue order that follows a RunSchedule: records [recordBase, recordBase + length).
struct SmTimingModel::ScheduledRun {
    std::uint32_t firstIssue = 0, length = 0, recordBase = 0;
    const RunSchedule* schedule = nullptr;
};

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
                             int residentBlocks, int smCount, std::uint64_t sharedBytesPerBlock)
    : m_function(function), m_parameters(parameters), m_residentBlocks(std::max(1, residentBlocks)),
      m_smCount(std::max(1, smCount))
{
    const std::uint64_t sharedInUse = sharedBytesPerBlock * static_cast<std::uint64_t>(m_residentBlocks);
    m_l1Bytes = parameters.l1PoolBytes > sharedInUse ? parameters.l1PoolBytes - sharedInUse : 0;
    m_l2Bytes = parameters.l2Bytes / static_cast<std::uint64_t>(m_smCount);
    m_l2SectorsPerCycle = parameters.l2BytesPerCycle / 32.0 / m_smCount;
    if (parameters.coreClockMHz > 0 && parameters.dramBandwidthGBps > 0)
        m_dramBytesPerCycle = parameters.dramBandwidthGBps * 1e9 / (parameters.coreClockMHz * 1e6) / m_smCount;
    m_info.reserve(function.instructions.size());
    for (const ptx::Instruction& instruction : function.instructions)
        m_info.push_back(timing::describe(instruction));
}

// The schedule of a run of records with these pcs, worked out once per model.
const SmTimingModel::RunSchedule& SmTimingModel::scheduleFor(const std::vector<std::int32_t>& pcs) const
{
    const std::string key(reinterpret_cast<const char*>(pcs.data()), pcs.size() * sizeof(std::int32_t));
    std::lock_guard lock(m_scheduleMutex);
    auto found = m_schedules.find(key);
    if (found == m_schedules.end()) {
        auto schedule = std::make_unique<RunSchedule>(RunSchedule{timing::scheduleRun(m_info, pcs)});
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

SmTiming SmTimingModel::replay(const std::vector<BlockLog>& blocks, const std::vector<std::uint64_t>& sectorPool,
                               const std::vector<std::uint64_t>& traced,
                               std::vector<std::pair<std::uint64_t, std::vector<std::vector<IssueTiming>>>>* traceTimes) const
{
    SmTiming timing;
    if (blocks.empty())
        return timing;
    const std::vector<timing::StaticInfo>& info = m_info;
    const std::size_t registers = m_function.registers.size();
    const gpu::TimingParameters& p = m_parameters;
    const int schedulers = std::max(1, p.schedulersPerSm);

    SectorCache l1(m_l1Bytes, 4);
    SectorCache l2(m_l2Bytes, 16);

    struct Warp {
        const std::vector<IssueRecord>* records = nullptr;
        std::size_t next = 0;
        std::size_t block = 0;      // index into `resident`
        std::uint64_t earliest = 0; // the cycle after its last issue
        std::uint64_t age = 0;
        bool atBarrier = false;
        bool done = false;
        std::uint64_t barrierSince = 0;
        std::vector<std::uint64_t> ready;
        std::vector<std::uint8_t> producer; // StallReason of the register's pending producer
        std::vector<IssueTiming>* times = nullptr;
        std::uint64_t pendingBarrierStall = 0;
        std::uint64_t readyCache = 0; // max(earliest, operands of the next record)
        bool nextIsMemory = false;
        std::uint64_t openGroupLands = 0;        // when the cp.async copies not yet committed land
        std::vector<std::uint64_t> groupLands;   // when each committed group's copies land, oldest first
        std::vector<std::uint32_t> order;        // issueOrder(): records in issue order (empty: as recorded)
        std::vector<ScheduledRun> runs;          // where `order` follows a schedule
        std::size_t run = 0;                     // the run `next` is in or before
        std::vector<std::uint64_t> runResult;    // per position of the current run: when its results land
        std::vector<std::uint8_t> runReason;
        std::vector<std::uint64_t> entryReady;   // `ready` and `producer` as the current run began
        std::vector<std::uint8_t> entryProducer;
        const IssueRecord& current() const { return (*records)[order.empty() ? next : order[next]]; }
        // The run the next record belongs to, or null.
        const ScheduledRun* currentRun() const
        {
            if (run >= runs.size() || next < runs[run].firstIssue)
                return nullptr;
            return &runs[run];
        }
    };
    struct Resident {
        std::size_t log = 0;
        std::vector<std::size_t> warps;
        int live = 0;
        int waiting = 0;
    };
    std::vector<Warp> warps;
    warps.reserve(static_cast<std::size_t>(m_residentBlocks) * 64);
    std::vector<Resident> resident;
    std::vector<std::vector<std::size_t>> byScheduler(static_cast<std::size_t>(schedulers));
    std::vector<std::size_t> greedy(static_cast<std::size_t>(schedulers), ~std::size_t{0});
    std::vector<std::size_t> freeWarpSlots;
    std::size_t nextBlock = 0;
    std::uint64_t age = 0, cycle = 0, lsuFree = 0, dramFree = 0;
    double l2Free = 0; // when the SM's share of L2 bandwidth is free again (fractional cycles)
    std::vector<std::uint64_t> busyUntil(static_cast<std::size_t>(schedulers), 0); // issuing an expanded sequence
    int residentCount = 0;

    // When the operands of a warp's next instruction are ready, and why it would wait until then.
    auto operandsReady = [&](const Warp& warp, StallReason& reason) {
        const StaticInfo& s = info[static_cast<std::size_t>(warp.current().pc)];
        std::uint64_t at = 0;
        reason = StallReason::None;
        const ScheduledRun* run = warp.currentRun();
        const std::int32_t* producers = nullptr;
        if (run != nullptr && !warp.entryReady.empty()) {
            const std::uint32_t position = warp.order[warp.next] - run->recordBase;
            producers = run->schedule->producers.data() + run->schedule->producerStart[position];
        }
        for (int i = 0; i < s.sourceCount; ++i) {
            const auto reg = static_cast<std::size_t>(s.sources[i]);
            std::uint64_t r = warp.ready[reg];
            std::uint8_t why = warp.producer[reg];
            if (producers != nullptr) { // renamed: the latest writer in record order
                const std::int32_t p = producers[i];
                r = p >= 0 ? warp.runResult[static_cast<std::size_t>(p)] : warp.entryReady[reg];
                why = p >= 0 ? warp.runReason[static_cast<std::size_t>(p)] : warp.entryProducer[reg];
            }
            if (r > at) {
                at = r;
                reason = static_cast<StallReason>(why);
            }
        }
        if (s.async == AsyncRole::Wait) { // the awaited groups' copies must have landed
            const std::size_t awaited = s.waitAll ? warp.groupLands.size()
                                                  : warp.groupLands.size() - std::min<std::size_t>(warp.groupLands.size(), s.waitNewest);
            std::uint64_t lands = s.waitAll ? warp.openGroupLands : 0;
            for (std::size_t g = 0; g < awaited; ++g)
                lands = std::max(lands, warp.groupLands[g]);
            if (lands > at) {
                at = lands;
                reason = StallReason::GlobalMemory;
            }
        }
        return at;
    };
    auto isMemory = [&](const Warp& warp) {
        const TimingClass kind = info[static_cast<std::size_t>(warp.current().pc)].kind;
        if (const ScheduledRun* run = warp.entryReady.empty() ? nullptr : warp.currentRun();
            run != nullptr && run->schedule->widened[warp.order[warp.next] - run->recordBase] != 0)
            return false; // merged into an earlier load: no turn of its own at the load/store unit
        return kind == TimingClass::Shared || kind == TimingClass::SharedAtomic || kind == TimingClass::GlobalLoad ||
               kind == TimingClass::GlobalStore || kind == TimingClass::GlobalAtomic || kind == TimingClass::Local;
    };
    // A warp's readiness changes only when it issues, is released from a barrier or arrives; the
    // cache keeps the scheduler's scan to a few compares per warp.
    auto refresh = [&](Warp& warp) {
        if (warp.done || warp.next >= warp.records->size())
            return;
        if (warp.run < warp.runs.size() && warp.next == warp.runs[warp.run].firstIssue && warp.entryReady.empty()) {
            // A scheduled run begins: the values its reads find from before it.
            warp.entryReady = warp.ready;
            warp.entryProducer = warp.producer;
            warp.runResult.assign(warp.runs[warp.run].length, 0);
            warp.runReason.assign(warp.runs[warp.run].length, 0);
        }
        StallReason reason;
        warp.readyCache = std::max(warp.earliest, operandsReady(warp, reason));
        warp.nextIsMemory = isMemory(warp);
    };
    auto readyAt = [&](const Warp& warp) {
        return warp.nextIsMemory ? std::max(warp.readyCache, lsuFree) : warp.readyCache;
    };
    std::vector<std::uint64_t> wakeAt(static_cast<std::size_t>(schedulers), 0); // no warp ready before

    auto activate = [&](std::uint64_t at) {
        const BlockLog& log = blocks[nextBlock];
        Resident block;
        block.log = nextBlock++;
        std::vector<IssueTiming>* times = nullptr;
        if (traceTimes && std::find(traced.begin(), traced.end(), log.linearBlock) != traced.end()) {
            traceTimes->push_back({log.linearBlock, std::vector<std::vector<IssueTiming>>(log.warps.size())});
            times = traceTimes->back().second.data();
        }
        const std::size_t residentIndex = resident.size();
        for (std::size_t w = 0; w < log.warps.size(); ++w) {
            Warp warp;
            warp.records = &log.warps[w];
            warp.block = residentIndex;
            warp.earliest = at + static_cast<std::uint64_t>(std::max(0, m_parameters.blockLaunchCycles));
            warp.age = age++;
            warp.ready.assign(registers, 0);
            warp.producer.assign(registers, 0);
            warp.done = log.warps[w].empty();
            warp.order = issueOrder(log.warps[w], warp.runs);
            if (times) {
                warp.times = times + w;
                warp.times->reserve(log.warps[w].size());
            }
            std::size_t slot;
            if (!freeWarpSlots.empty()) {
                slot = freeWarpSlots.back();
                freeWarpSlots.pop_back();
                warps[slot] = std::move(warp);
            } else {
                slot = warps.size();
                warps.push_back(std::move(warp));
            }
            refresh(warps[slot]);
            if (!warps[slot].done) {
                block.warps.push_back(slot);
                block.live += 1;
                byScheduler[slot % static_cast<std::size_t>(schedulers)].push_back(slot);
                wakeAt[slot % static_cast<std::size_t>(schedulers)] = 0;
            } else {
                freeWarpSlots.push_back(slot);
            }
        }
        const bool empty = block.live == 0;
        if (empty)
            block.log = ~std::size_t{0}; // nothing to run: done on arrival
        resident.push_back(std::move(block));
        if (!empty)
            residentCount += 1;
    };
    auto fill = [&](std::uint64_t at) {
        while (nextBlock < blocks.size() && residentCount < m_residentBlocks)
            activate(at);
    };
    // traceTimes entries must not move while warps point into them.
    if (traceTimes)
        traceTimes->reserve(traceTimes->size() + traced.size());
    fill(0);


    auto finishWarp = [&](std::size_t slot) {
        Warp& warp = warps[slot];
        warp.done = true;
        if (warp.times != nullptr && !warp.order.empty() && warp.times->size() == warp.order.size()) {
            std::vector<IssueTiming> recorded(warp.times->size()); // back in the records' order
            for (std::size_t k = 0; k < warp.order.size(); ++k)
                recorded[warp.order[k]] = (*warp.times)[k];
            *warp.times = std::move(recorded);
        }
        Resident& block = resident[warp.block];
        block.live -= 1;
        block.warps.erase(std::find(block.warps.begin(), block.warps.end(), slot)); // the slot may be reused
        auto& list = byScheduler[slot % static_cast<std::size_t>(schedulers)];
        list.erase(std::find(list.begin(), list.end(), slot));
        freeWarpSlots.push_back(slot);
    };
    auto releaseBarrierIfComplete = [&](Resident& block) {
        if (block.waiting == 0 || block.waiting < block.live)
            return;
        for (std::size_t slot : block.warps) {
            Warp& warp = warps[slot];
            if (!warp.done && warp.atBarrier) {
                warp.atBarrier = false;
                warp.pendingBarrierStall = cycle + 1 - warp.barrierSince;
                warp.earliest = cycle + 1;
                refresh(warp);
                wakeAt[slot % static_cast<std::size_t>(schedulers)] = 0;
            }
        }
        block.waiting = 0;
    };

    std::uint64_t lastCycle = 0;
    while (residentCount > 0) {
        bool issuedAny = false;
        std::uint64_t nextEvent = std::numeric_limits<std::uint64_t>::max();
        for (int s = 0; s < schedulers; ++s) {
            auto& list = byScheduler[static_cast<std::size_t>(s)];
            if (busyUntil[static_cast<std::size_t>(s)] > cycle) {
                nextEvent = std::min(nextEvent, busyUntil[static_cast<std::size_t>(s)]);
                continue;
            }
            if (wakeAt[static_cast<std::size_t>(s)] > cycle) {
                nextEvent = std::min(nextEvent, wakeAt[static_cast<std::size_t>(s)]);
                continue;
            }
            std::size_t chosen = ~std::size_t{0};
            std::uint64_t soonest = std::numeric_limits<std::uint64_t>::max();
            const std::size_t preferred = greedy[static_cast<std::size_t>(s)];
            if (preferred != ~std::size_t{0} && !warps[preferred].done && !warps[preferred].atBarrier &&
                readyAt(warps[preferred]) <= cycle)
                chosen = preferred;
            if (chosen == ~std::size_t{0}) {
                std::uint64_t bestAge = std::numeric_limits<std::uint64_t>::max();
                for (std::size_t slot : list) {
                    const Warp& warp = warps[slot];
                    if (warp.done || warp.atBarrier)
                        continue;
                    const std::uint64_t at = readyAt(warp);
                    if (at <= cycle) {
                        if (warp.age < bestAge) {
                            bestAge = warp.age;
                            chosen = slot;
                        }
                    } else {
                        soonest = std::min(soonest, at);
                    }
                }
            }
            if (chosen == ~std::size_t{0}) {
                // Nothing can issue here before `soonest` unless a warp arrives or is released.
                wakeAt[static_cast<std::size_t>(s)] = soonest == std::numeric_limits<std::uint64_t>::max() ? cycle + 1 : soonest;
                nextEvent = std::min(nextEvent, wakeAt[static_cast<std::size_t>(s)]);
                continue;
            }
            greedy[static_cast<std::size_t>(s)] = chosen;
            issuedAny = true;
            Warp& warp = warps[chosen];
            const IssueRecord& record = warp.current();
            const StaticInfo& s_info = info[static_cast<std::size_t>(record.pc)];

            // Where the wait before this issue went.
            StallReason dependency;
            const std::uint64_t operands = operandsReady(warp, dependency);
            const std::uint64_t from = warp.earliest;
            const std::uint64_t waited = cycle - std::min(cycle, from);
            const std::uint64_t dependencyPart = std::min(waited, operands > from ? operands - from : 0);
            const std::uint64_t lsuPart = isMemory(warp) ? std::min(waited - dependencyPart,
                                                                    lsuFree > std::max(from, operands) ? lsuFree - std::max(from, operands) : 0)
                                                         : 0;
            const std::uint64_t idlePart = waited - dependencyPart - lsuPart;
            switch (dependency) {
            case StallReason::GlobalMemory: timing.stalls.globalMemory += dependencyPart; break;
            case StallReason::SharedMemory: timing.stalls.sharedMemory += dependencyPart; break;
            default: timing.stalls.execution += dependencyPart; break;
            }
            timing.stalls.loadStoreUnit += lsuPart;
            timing.stalls.notSelected += idlePart;
            timing.stalls.barrier += warp.pendingBarrierStall;
            if (warp.times) {
                StallReason reason = StallReason::None;
                std::uint64_t largest = 0;
                auto consider = [&](std::uint64_t part, StallReason why) {
                    if (part > largest) { largest = part; reason = why; }
                };
                consider(dependencyPart, dependency == StallReason::None ? StallReason::Execution : dependency);
                consider(lsuPart, StallReason::LoadStoreUnit);
                consider(idlePart, StallReason::NotSelected);
                consider(warp.pendingBarrierStall, StallReason::Barrier);
                warp.times->push_back({cycle, static_cast<std::uint32_t>(std::min<std::uint64_t>(waited + warp.pendingBarrierStall, 0xffffffffu)), reason});
            }
            warp.pendingBarrierStall = 0;

            // Issue: when its results arrive.
            const ScheduledRun* inRun = warp.entryReady.empty() ? nullptr : warp.currentRun();
            const bool widened = inRun != nullptr && inRun->schedule->widened[warp.order[warp.next] - inRun->recordBase] != 0;
            std::uint64_t latency = static_cast<std::uint64_t>(p.aluLatency);
            StallReason produces = StallReason::Execution;
            switch (s_info.kind) {
            case TimingClass::Alu:
            case TimingClass::Param:
                if (s_info.issueSlots > 1)
                    latency = static_cast<std::uint64_t>(s_info.aluSteps) * static_cast<std::uint64_t>(p.aluLatency) +
                              static_cast<std::uint64_t>(s_info.sfuSteps) * static_cast<std::uint64_t>(p.sfuLatency);
                break;
            case TimingClass::Sfu:
                latency = static_cast<std::uint64_t>(p.sfuLatency);
                break;
            case TimingClass::Shared:
            case TimingClass::SharedAtomic:
                if (widened) { // its bytes come with the wider load it was merged into
                    latency = static_cast<std::uint64_t>(p.sharedLatency);
                    produces = StallReason::SharedMemory;
                    break;
                }
                latency = static_cast<std::uint64_t>(p.sharedLatency) + (record.cost > 0 ? record.cost - 1u : 0u);
                lsuFree = std::max(lsuFree, cycle) + std::max<std::uint64_t>(1, record.cost);
                produces = StallReason::SharedMemory;
                break;
            case TimingClass::Local:
                latency = static_cast<std::uint64_t>(p.l1HitLatency);
                lsuFree = std::max(lsuFree, cycle) + 1;
                produces = StallReason::GlobalMemory;
                break;
            case TimingClass::GlobalLoad:
            case TimingClass::GlobalStore:
            case TimingClass::GlobalAtomic: {
                const bool isStore = s_info.kind == TimingClass::GlobalStore;
                const bool isAtomic = s_info.kind == TimingClass::GlobalAtomic;
                std::uint64_t level = isAtomic ? static_cast<std::uint64_t>(p.l2HitLatency) : static_cast<std::uint64_t>(p.l1HitLatency);
                std::uint64_t dramSectors = 0;
                IssueTiming where; // per sector, for the traced blocks' memory view
                for (std::uint32_t i = 0; i < record.sectorCount; ++i) {
                    const std::uint64_t sector = sectorPool[record.sectorOffset + i] >> 5;
                    const std::uint64_t bit = i < 64 ? std::uint64_t{1} << i : 0;
                    const bool l1Hit = !isStore && !isAtomic && l1.access(sector, true);
                    if (l1Hit) {
                        ++timing.l1Hits;
                        ++where.l1Sectors;
                        continue;
                    }
                    if (!isStore && !isAtomic)
                        ++timing.l1Misses;
                    const bool l2Hit = l2.access(sector, true);
                    if (l2Hit || isStore) {
                        ++where.l2Sectors;
                        where.l2Mask |= bit;
                    } else {
                        ++where.dramSectors;
                        where.dramMask |= bit;
                    }
                    if (l2Hit) {
                        if (!isStore) ++timing.l2Hits;
                        level = std::max<std::uint64_t>(level, static_cast<std::uint64_t>(p.l2HitLatency));
                    } else {
                        if (!isStore) ++timing.l2Misses;
                        ++dramSectors;
                        level = std::max<std::uint64_t>(level, static_cast<std::uint64_t>(p.dramLatency));
                    }
                }
                if (warp.times && !warp.times->empty()) {
                    IssueTiming& issued = warp.times->back();
                    issued.l1Sectors = where.l1Sectors;
                    issued.l2Sectors = where.l2Sectors;
                    issued.dramSectors = where.dramSectors;
                    issued.l2Mask = where.l2Mask;
                    issued.dramMask = where.dramMask;
                }
                if (isStore) // written back to DRAM eventually: it uses bandwidth either way
                    dramSectors = record.sectorCount;
                std::uint64_t arrives = cycle + level;
                // Every sector past L1 crosses to L2: the SM's share of its bandwidth.
                const std::uint32_t pastL1 = record.sectorCount - where.l1Sectors;
                if (pastL1 > 0 && m_l2SectorsPerCycle > 0) {
                    l2Free = std::max(l2Free, static_cast<double>(cycle)) + pastL1 / m_l2SectorsPerCycle;
                    arrives = std::max(arrives, static_cast<std::uint64_t>(l2Free + 0.999));
                }
                if (dramSectors > 0) {
                    const double bytes = static_cast<double>(dramSectors) * 32.0;
                    dramFree = std::max(dramFree, cycle) + static_cast<std::uint64_t>(bytes / m_dramBytesPerCycle + 0.999);
                    timing.dramBytes += dramSectors * 32;
                    arrives = std::max(arrives, dramFree);
                }
                latency = arrives - cycle;
                const std::uint64_t sectors = std::max<std::uint64_t>(1, record.cost);
                const std::uint64_t perCycle = static_cast<std::uint64_t>(std::max(1, p.l1SectorsPerCycle));
                lsuFree = std::max(lsuFree, cycle) + (sectors + perCycle - 1) / perCycle;
                produces = StallReason::GlobalMemory;
                break;
            }
            case TimingClass::Barrier:
            case TimingClass::Control:
                latency = 1; // no result: it only takes its issue cycle
                break;
            }
            for (int d = 0; d < s_info.destinationCount; ++d) {
                warp.ready[static_cast<std::size_t>(s_info.destinations[d])] = cycle + latency;
                warp.producer[static_cast<std::size_t>(s_info.destinations[d])] = static_cast<std::uint8_t>(produces);
            }
            switch (s_info.async) {
            case AsyncRole::Copy:
                warp.openGroupLands = std::max(warp.openGroupLands, cycle + latency);
                break;
            case AsyncRole::Commit:
                warp.groupLands.push_back(warp.openGroupLands);
                warp.openGroupLands = 0;
                break;
            case AsyncRole::Wait: // what it waited for has landed
                if (s_info.waitAll) {
                    warp.groupLands.clear();
                    warp.openGroupLands = 0;
                } else if (warp.groupLands.size() > s_info.waitNewest) {
                    warp.groupLands.erase(warp.groupLands.begin(),
                                          warp.groupLands.end() - static_cast<std::ptrdiff_t>(s_info.waitNewest));
                }
                break;
            case AsyncRole::None:
                break;
            }
            if (const ScheduledRun* run = warp.currentRun(); run != nullptr && !warp.entryReady.empty()) {
                const std::uint32_t position = warp.order[warp.next] - run->recordBase;
                warp.runResult[position] = cycle + latency;
                warp.runReason[position] = static_cast<std::uint8_t>(produces);
                if (warp.next + 1 == run->firstIssue + run->length) { // the run ends: each register's last write stands
                    for (const auto& [reg, writer] : run->schedule->finalWriters) {
                        warp.ready[static_cast<std::size_t>(reg)] = warp.runResult[static_cast<std::size_t>(writer)];
                        warp.producer[static_cast<std::size_t>(reg)] = warp.runReason[static_cast<std::size_t>(writer)];
                    }
                    warp.entryReady.clear();
                    warp.run += 1;
                }
            }
            warp.earliest = cycle + s_info.issueSlots;
            if (s_info.issueSlots > 1)
                busyUntil[static_cast<std::size_t>(s)] = cycle + s_info.issueSlots;
            ++timing.issued;
            lastCycle = std::max(lastCycle, cycle + latency);
            warp.next += 1;
            Resident& block = resident[warp.block];
            if (warp.next == warp.records->size()) {
                finishWarp(chosen);
                greedy[static_cast<std::size_t>(s)] = ~std::size_t{0};
                releaseBarrierIfComplete(block);
            } else if (s_info.kind == TimingClass::Barrier) {
                warp.atBarrier = true;
                warp.barrierSince = cycle + 1;
                block.waiting += 1;
                greedy[static_cast<std::size_t>(s)] = ~std::size_t{0};
                refresh(warp);
                releaseBarrierIfComplete(block);
            } else {
                refresh(warp);
            }
            if (block.live == 0 && block.log != ~std::size_t{0}) {
                block.log = ~std::size_t{0};
                residentCount -= 1;
                fill(cycle + 1);
            }
        }
        if (issuedAny || nextEvent == std::numeric_limits<std::uint64_t>::max())
            cycle += 1;
        else
            cycle = std::max(cycle + 1, nextEvent);
    }
    timing.cycles = std::max(cycle, lastCycle);
    return timing;
}

} // namespace warpscope::sim
