#include "sim/timing_model.h"

#include "occupancy/occupancy.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace warpscope::sim {

namespace {

enum class TimingClass : std::uint8_t { Alu, Sfu, Param, Shared, SharedAtomic, GlobalLoad, GlobalStore, GlobalAtomic, Local, Barrier, Control };

// cp.async's part in the warp's copy groups: a copy joins the open group, commit_group closes it,
// wait_group N / wait_all hold the warp until the awaited groups have landed.
enum class AsyncRole : std::uint8_t { None, Copy, Commit, Wait };

struct StaticInfo {
    TimingClass kind = TimingClass::Alu;
    AsyncRole async = AsyncRole::None;
    bool waitAll = false;         // cp.async.wait_all (else wait_group waitNewest)
    std::uint32_t waitNewest = 0; // wait_group N: the newest N committed groups may still be in flight
    std::uint8_t sourceCount = 0, destinationCount = 0;
    std::int32_t sources[25]{};     // mma.sync: a guard and three fragments of up to eight registers
    std::int32_t destinations[8]{};
};

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

StaticInfo describe(const ptx::Instruction& in)
{
    StaticInfo info;
    using K = ptx::Operand::Kind;
    auto addSource = [&](std::int32_t reg) {
        if (reg >= 0 && info.sourceCount < 25)
            info.sources[info.sourceCount++] = reg;
    };
    auto addDestination = [&](std::int32_t reg) {
        if (reg >= 0 && info.destinationCount < 8)
            info.destinations[info.destinationCount++] = reg;
    };
    addSource(in.guard);
    const bool firstIsDestination = !ptx::firstOperandIsRead(in);
    for (int i = 0; i < in.operandCount; ++i) {
        const ptx::Operand& operand = in.operands[static_cast<std::size_t>(i)];
        const bool destination = i == 0 && firstIsDestination;
        if (operand.kind == K::Reg) {
            if (destination) {
                addDestination(operand.reg);
                addDestination(operand.pairReg);
            } else {
                addSource(operand.reg);
            }
        } else if (operand.kind == K::Vector) {
            for (int v = 0; v < operand.vectorCount; ++v) {
                if (destination) addDestination(operand.vector[static_cast<std::size_t>(v)]);
                else addSource(operand.vector[static_cast<std::size_t>(v)]);
            }
        } else if (operand.kind == K::Address) {
            addSource(operand.reg);
        }
    }
    switch (in.op) {
    case ptx::Op::Ld:
        info.kind = in.space == ptx::Space::Param ? TimingClass::Param
                  : in.space == ptx::Space::Shared ? TimingClass::Shared
                  : in.space == ptx::Space::Local ? TimingClass::Local
                                                  : TimingClass::GlobalLoad;
        break;
    case ptx::Op::St:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared
                  : in.space == ptx::Space::Local ? TimingClass::Local
                                                  : TimingClass::GlobalStore;
        break;
    case ptx::Op::Atom:
    case ptx::Op::Red:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::SharedAtomic : TimingClass::GlobalAtomic;
        break;
    case ptx::Op::WmmaLoad:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared : TimingClass::GlobalLoad;
        break;
    case ptx::Op::WmmaStore:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared : TimingClass::GlobalStore;
        break;
    case ptx::Op::Ldmatrix:
        info.kind = TimingClass::Shared;
        break;
    case ptx::Op::WmmaMma: // the tensor pipe: a long fixed latency, as the special function units
    case ptx::Op::Mma:
        info.kind = TimingClass::Sfu;
        break;
    case ptx::Op::CpAsync: // reads global memory like a load; no register waits for it, wait_group does
        info.kind = TimingClass::GlobalLoad;
        info.async = AsyncRole::Copy;
        break;
    case ptx::Op::Mbarrier: // an atomic update of the barrier object in shared memory
        info.kind = TimingClass::SharedAtomic;
        break;
    case ptx::Op::Div:
    case ptx::Op::Rem:
    case ptx::Op::Rcp:
    case ptx::Op::Sqrt:
    case ptx::Op::Ex2:
    case ptx::Op::Lg2:
    case ptx::Op::Rsqrt:
    case ptx::Op::Sin:
    case ptx::Op::Cos:
    case ptx::Op::Tanh:
        info.kind = TimingClass::Sfu;
        break;
    case ptx::Op::BarSync:
        // bar.arrive does not wait. The model makes every waiting barrier the whole block's: a warp
        // waits until every live warp of its block waits too (named barriers with a thread count
        // are timed as if the block met).
        info.kind = in.bar == ptx::BarMode::Arrive ? TimingClass::Control : TimingClass::Barrier;
        break;
    case ptx::Op::Bra:
    case ptx::Op::Ret:
    case ptx::Op::Exit:
    case ptx::Op::Trap:
    case ptx::Op::MemBar:
    case ptx::Op::BarWarpSync:
    case ptx::Op::Call:
    case ptx::Op::Nanosleep:
    case ptx::Op::CpAsyncCommit:
    case ptx::Op::CpAsyncWait:
    case ptx::Op::CpAsyncMbarrierArrive:
        info.kind = TimingClass::Control;
        if (in.op == ptx::Op::CpAsyncCommit)
            info.async = AsyncRole::Commit;
        if (in.op == ptx::Op::CpAsyncWait) {
            info.async = AsyncRole::Wait;
            info.waitAll = in.waitAll;
            info.waitNewest = in.waitAll || in.operandCount == 0 ? 0 : static_cast<std::uint32_t>(in.operands[0].imm);
        }
        break;
    default:
        info.kind = TimingClass::Alu;
        break;
    }
    return info;
}

} // namespace

struct SmTimingModel::InstructionTiming : StaticInfo {};

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
    if (parameters.coreClockMHz > 0 && parameters.dramBandwidthGBps > 0)
        m_dramBytesPerCycle = parameters.dramBandwidthGBps * 1e9 / (parameters.coreClockMHz * 1e6) / m_smCount;
    m_info.reserve(function.instructions.size());
    for (const ptx::Instruction& instruction : function.instructions)
        m_info.push_back(InstructionTiming{describe(instruction)});
}

SmTimingModel::~SmTimingModel() = default;

SmTiming SmTimingModel::replay(const std::vector<BlockLog>& blocks, const std::vector<std::uint64_t>& sectorPool,
                               const std::vector<std::uint64_t>& traced,
                               std::vector<std::pair<std::uint64_t, std::vector<std::vector<IssueTiming>>>>* traceTimes) const
{
    SmTiming timing;
    if (blocks.empty())
        return timing;
    const std::vector<InstructionTiming>& info = m_info;
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
    int residentCount = 0;

    // When the operands of a warp's next instruction are ready, and why it would wait until then.
    auto operandsReady = [&](const Warp& warp, StallReason& reason) {
        const StaticInfo& s = info[static_cast<std::size_t>((*warp.records)[warp.next].pc)];
        std::uint64_t at = 0;
        reason = StallReason::None;
        for (int i = 0; i < s.sourceCount; ++i) {
            const std::uint64_t r = warp.ready[static_cast<std::size_t>(s.sources[i])];
            if (r > at) {
                at = r;
                reason = static_cast<StallReason>(warp.producer[static_cast<std::size_t>(s.sources[i])]);
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
        const TimingClass kind = info[static_cast<std::size_t>((*warp.records)[warp.next].pc)].kind;
        return kind == TimingClass::Shared || kind == TimingClass::SharedAtomic || kind == TimingClass::GlobalLoad ||
               kind == TimingClass::GlobalStore || kind == TimingClass::GlobalAtomic || kind == TimingClass::Local;
    };
    // A warp's readiness changes only when it issues, is released from a barrier or arrives; the
    // cache keeps the scheduler's scan to a few compares per warp.
    auto refresh = [&](Warp& warp) {
        if (warp.done || warp.next >= warp.records->size())
            return;
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
            warp.earliest = at;
            warp.age = age++;
            warp.ready.assign(registers, 0);
            warp.producer.assign(registers, 0);
            warp.done = log.warps[w].empty();
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
            const IssueRecord& record = (*warp.records)[warp.next];
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
            std::uint64_t latency = static_cast<std::uint64_t>(p.aluLatency);
            StallReason produces = StallReason::Execution;
            switch (s_info.kind) {
            case TimingClass::Alu:
            case TimingClass::Param:
                break;
            case TimingClass::Sfu:
                latency = static_cast<std::uint64_t>(p.sfuLatency);
                break;
            case TimingClass::Shared:
            case TimingClass::SharedAtomic:
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
            warp.earliest = cycle + 1;
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
