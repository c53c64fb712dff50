// The timing model's memory side of one SM (internal to core/sim/timing_model.cpp and its tests): its
// L1 and its slice of L2 as sector caches, and when the load/store unit and its shares of L2 and DRAM
// bandwidth are free again. See timing_model.h for the model as a whole.
#pragma once

#include "gpu/gpu_preset.h"
#include "sim/timing_model.h"
#include "sim/timing_schedule.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace warpscope::sim::timing {

// x mod d for any 64-bit x, by multiplication: d's reciprocal M = floor((2^128 - 1) / d) + 1 is
// worked out once, and x mod d is the high 64 bits of (M x mod 2^128) d (Lemire, Kaser and Kurz,
// "Faster Remainder by Direct Computation", 2019). The caches' set counts are rarely powers of two
// (an L2 slice is the L2 over the SMs), and a 64-bit division per sector costs tens of cycles.
class FastModulo {
    __extension__ using U128 = unsigned __int128; // GCC and Clang: a 128-bit integer
public:
    explicit FastModulo(std::uint64_t d = 1) : m_d(d == 0 ? 1 : d), m_m(~static_cast<U128>(0) / m_d + 1) {}
    std::uint64_t operator()(std::uint64_t x) const
    {
        if (m_d == 1)
            return 0;
        const U128 low = m_m * x; // mod 2^128
        const auto lowBits = static_cast<std::uint64_t>(low), highBits = static_cast<std::uint64_t>(low >> 64);
        const U128 bottom = static_cast<U128>(lowBits) * m_d;
        const U128 top = static_cast<U128>(highBits) * m_d + (bottom >> 64);
        return static_cast<std::uint64_t>(top >> 64);
    }

private:
    std::uint64_t m_d;
    U128 m_m;
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
        if (m_sets > 0 && (m_sets & (m_sets - 1)) == 0)
            m_setMask = m_sets - 1;
        m_setOf = FastModulo(m_sets);
    }
    bool enabled() const { return m_sets > 0; }
    // True on a hit; on a miss the sector is filled when `allocate`.
    bool access(std::uint64_t sector, bool allocate)
    {
        if (m_sets == 0)
            return false;
        const std::uint64_t set = m_setMask != 0 ? sector & m_setMask : m_setOf(sector); // a mask when a power of two
        std::uint64_t* tags = m_tags.data() + set * static_cast<std::uint64_t>(m_ways);
        bool hit = false; // every way compared, without a branch per way (the compiler can vectorise it)
        for (int w = 0; w < m_ways; ++w)
            hit |= tags[w] == sector;
        if (hit)
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
    std::uint64_t m_setMask = 0; // m_sets - 1 when m_sets is a power of two (else 0)
    FastModulo m_setOf;          // sector mod m_sets
    std::vector<std::uint64_t> m_tags;
    std::vector<std::uint8_t> m_next;
};

// How long an issued instruction's results take, and what a wait for them is called.
struct IssueOutcome {
    std::uint64_t latency = 1;
    StallReason produces = StallReason::Execution;
};

// The SM's memory side: its L1 and slice of L2, and when the load/store unit, its share of DRAM
// bandwidth and its share of L2 bandwidth are free again.
struct MemoryPath {
    MemoryPath(const gpu::TimingParameters& parameters, std::uint64_t l1Bytes, std::uint64_t l2Bytes, double dramBytesPerCycle,
               double l2SectorsPerCycle, double l2PartialSectorsPerCycle, int smCount = 1)
        : p(parameters), l1(l1Bytes, 4), l2(l2Bytes, 16), dramBytesPerCycle(dramBytesPerCycle),
          l2SectorsPerCycle(l2SectorsPerCycle), l2PartialSectorsPerCycle(l2PartialSectorsPerCycle),
          smCount(std::max(1, smCount))
    {
    }

    // An instruction issued at `cycle`: its latency by class; memory instructions also take their
    // turn at the units. `where` (traced blocks) receives where a global access's sectors were served;
    // `block` (1 and up; 0: unknown) tells which of the SM's blocks an atomic comes from.
    IssueOutcome issue(const StaticInfo& s, const IssueRecord& record, bool widened, std::uint64_t cycle,
                       const std::vector<std::uint64_t>& sectorPool, SmTiming& timing, IssueTiming* where,
                       std::uint64_t block = 0)
    {
        const auto cycles = [](int value) { return static_cast<std::uint64_t>(value); };
        switch (s.kind) {
        case TimingClass::Alu:
        case TimingClass::Param:
            if (s.issueSlots > 1) // an expanded sequence: its dependent chain
                return {static_cast<std::uint64_t>(s.aluSteps) * cycles(p.aluLatency) + static_cast<std::uint64_t>(s.sfuSteps) * cycles(p.sfuLatency),
                        StallReason::Execution};
            return {cycles(p.aluLatency), StallReason::Execution};
        case TimingClass::Sfu:
            return {cycles(p.sfuLatency), StallReason::Execution};
        case TimingClass::Shared:
        case TimingClass::SharedAtomic:
            if (widened) // its bytes come with the wider load it was merged into
                return {cycles(p.sharedLatency), StallReason::SharedMemory};
            lsuFree = std::max(lsuFree, cycle) + std::max<std::uint64_t>(1, record.cost);
            return {cycles(p.sharedLatency) + (record.cost > 0 ? record.cost - 1u : 0u), StallReason::SharedMemory};
        case TimingClass::Local:
            lsuFree = std::max(lsuFree, cycle) + 1;
            return {cycles(p.l1HitLatency), StallReason::GlobalMemory};
        case TimingClass::GlobalLoad:
        case TimingClass::GlobalStore:
        case TimingClass::GlobalAtomic:
        {
            std::uint64_t arrives = global(s, record, cycle, sectorPool, timing, where);
            // An atomic's updates start once its sectors are at L2 (the L2 hit's way back is left for
            // the result) and end after those queued before them.
            if (s.kind == TimingClass::GlobalAtomic) {
                const std::uint64_t back = std::min(arrives - cycle, static_cast<std::uint64_t>(p.l2HitLatency));
                arrives = atomicQueue(record, arrives - back, sectorPool, block) + back;
            }
            return {arrives - cycle, StallReason::GlobalMemory};
        }
        case TimingClass::Barrier:
        case TimingClass::Control:
            break;
        }
        return {1, StallReason::Execution}; // no result: it only takes its issue cycle
    }

    // When a global access's results arrive: each sector from L1, L2 or DRAM (loads allocate in L1;
    // stores and atomics go to L2), behind the SM's shares of L2 and DRAM bandwidth.
    std::uint64_t global(const StaticInfo& s, const IssueRecord& record, std::uint64_t cycle, const std::vector<std::uint64_t>& sectorPool,
                         SmTiming& timing, IssueTiming* where)
    {
        const bool isStore = s.kind == TimingClass::GlobalStore;
        const bool isAtomic = s.kind == TimingClass::GlobalAtomic;
        std::uint64_t level = static_cast<std::uint64_t>(isAtomic ? p.l2HitLatency : p.l1HitLatency);
        std::uint64_t dramSectors = 0;
        IssueTiming served; // per sector, for the traced blocks' memory view
        for (std::uint32_t i = 0; i < record.sectorCount; ++i) {
            const std::uint64_t sector = sectorPool[record.sectorOffset + i] >> 5;
            const std::uint64_t bit = i < 64 ? std::uint64_t{1} << i : 0;
            if (!isStore && !isAtomic && l1.access(sector, true)) {
                ++timing.l1Hits;
                ++served.l1Sectors;
                continue;
            }
            if (!isStore && !isAtomic)
                ++timing.l1Misses;
            const bool l2Hit = l2.access(sector, true);
            if (l2Hit || isStore) {
                ++served.l2Sectors;
                served.l2Mask |= bit;
            } else {
                ++served.dramSectors;
                served.dramMask |= bit;
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
        if (where != nullptr) {
            where->l1Sectors = served.l1Sectors;
            where->l2Sectors = served.l2Sectors;
            where->dramSectors = served.dramSectors;
            where->l2Mask = served.l2Mask;
            where->dramMask = served.dramMask;
        }
        // A store that misses L2 allocates a dirty sector, written back to DRAM once: its bandwidth is
        // charged now. One that finds its sector in L2 merges into it and costs DRAM nothing more.
        std::uint64_t arrives = cycle + level;
        // Every sector past L1 crosses to L2: the SM's share of its bandwidth. A store that writes
        // only part of its sectors has them merged at L2, slower than whole sectors move.
        const std::uint32_t pastL1 = record.sectorCount - served.l1Sectors;
        const std::uint32_t partial = isStore && l2PartialSectorsPerCycle > 0 ? partlyWrittenSectors(s, record.sectorCount) : 0;
        if (pastL1 > 0 && l2SectorsPerCycle > 0) {
            l2Free = std::max(l2Free, static_cast<double>(cycle)) + (pastL1 - partial) / l2SectorsPerCycle +
                     (partial > 0 ? partial / l2PartialSectorsPerCycle : 0.0);
            arrives = std::max(arrives, static_cast<std::uint64_t>(l2Free + 0.999));
        }
        if (dramSectors > 0) {
            const double bytes = static_cast<double>(dramSectors) * 32.0;
            dramFree = std::max(dramFree, cycle) + static_cast<std::uint64_t>(bytes / dramBytesPerCycle + 0.999);
            timing.dramBytes += dramSectors * 32;
            arrives = std::max(arrives, dramFree);
        }
        const std::uint64_t sectors = std::max<std::uint64_t>(1, record.cost);
        const std::uint64_t perCycle = static_cast<std::uint64_t>(std::max(1, p.l1SectorsPerCycle));
        lsuFree = std::max(lsuFree, cycle) + (sectors + perCycle - 1) / perCycle;
        return arrives;
    }

    // When an atomic's updates are done: each of its sectors' updates queue behind the earlier ones to
    // that sector at L2, as many one after another as the most lanes updating one of its addresses
    // (the low five bits of the pool's entry, less one). A sector that another of this SM's blocks has
    // updated is taken to be shared by the blocks of every SM alike (the replayed SM stands for them
    // all), so each update holds it for its time times the SM count: this SM's share of the address.
    // `cycle`: when the sectors are at L2; returns when the last update is done.
    std::uint64_t atomicQueue(const IssueRecord& record, std::uint64_t cycle, const std::vector<std::uint64_t>& sectorPool,
                              std::uint64_t block)
    {
        if (p.l2AtomicCyclesPerUpdate <= 0)
            return cycle;
        double done = static_cast<double>(cycle);
        for (std::uint32_t i = 0; i < record.sectorCount; ++i) {
            const std::uint64_t entry = sectorPool[record.sectorOffset + i];
            AtomicSector& queue = atomicSectors[entry >> 5];
            const double lanes = static_cast<double>((entry & 31u) + 1u);
            if (block != 0 && queue.block != 0 && queue.block != block)
                queue.shared = true;
            queue.block = block;
            const double hold = lanes * p.l2AtomicCyclesPerUpdate * (queue.shared ? smCount : 1);
            queue.freeAt = std::max(queue.freeAt, static_cast<double>(cycle)) + hold;
            done = std::max(done, queue.freeAt);
        }
        return static_cast<std::uint64_t>(done + 0.999);
    }

    // The sectors a store writes only part of, at least: its lanes write at most 32 x laneBytes bytes
    // (the record does not say how many lanes were active), a full sector takes 32 of them and a
    // partial one at least 1, so at most (32 x laneBytes - sectors) / 31 of its sectors are full.
    static std::uint32_t partlyWrittenSectors(const StaticInfo& s, std::uint32_t sectors)
    {
        const std::int64_t bytes = 32 * static_cast<std::int64_t>(s.laneBytes);
        if (s.laneBytes == 0 || sectors == 0 || static_cast<std::int64_t>(sectors) * 32 <= bytes)
            return 0;
        const std::int64_t full = std::max<std::int64_t>(0, (bytes - sectors) / 31);
        return static_cast<std::uint32_t>(std::max<std::int64_t>(0, sectors - full));
    }

    const gpu::TimingParameters& p;
    SectorCache l1, l2;
    double dramBytesPerCycle, l2SectorsPerCycle, l2PartialSectorsPerCycle;
    int smCount;
    // Per sector that atomics updated: when its queue at L2 is free, the last block that updated it
    // and whether blocks share it.
    struct AtomicSector {
        double freeAt = 0;
        std::uint64_t block = 0;
        bool shared = false;
    };
    std::unordered_map<std::uint64_t, AtomicSector> atomicSectors;
    std::uint64_t lsuFree = 0, dramFree = 0;
    double l2Free = 0; // fractional cycles
};

} // namespace warpscope::sim::timing
