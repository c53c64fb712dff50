// Happens-before between the threads of one block beyond its barriers, for the shared-memory race
// check (core/sim/README.md, "Hazards: shared-memory races"): the release and acquire patterns of
// the PTX memory consistency model, followed with vector clocks.
//
// Each thread counts its releases (its clock, from 1); the race check stamps an access with its
// thread's clock and its warp's barrier count (WarpState::warpEpoch). Each thread knows, per other
// thread, the clock up to which that thread's accesses happen before its own, and per warp the
// barrier count before which that warp's accesses do (a lane's release covers what its warp did
// before a __syncwarp). A location carries what the releases in its value's release sequence
// published; an acquire that reads the location learns it. Off (every call does nothing) for kernels
// without release, acquire or fence: nothing but barriers orders their threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace warpscope::sim {

class ReleaseAcquireClocks {
public:
    // A new block of `threads` threads in `warps` warps.
    void reset(std::uint32_t threads, std::uint32_t warps, bool enabled)
    {
        m_enabled = enabled;
        m_locations.clear();
        if (!enabled)
            return;
        m_threads = threads;
        m_width = threads + warps;
        m_clock.assign(threads, 1);
        m_fenceClock.assign(threads, 0);
        m_fenceWarpEpoch.assign(threads, 0);
        // Rows are cleared when first used in a block (most threads of most blocks never need one).
        m_known.resize(static_cast<std::size_t>(threads) * m_width);
        m_knownBlock.resize(threads);
        m_pendingBlock.resize(threads); // m_pending is sized when a strong read first needs it
        ++m_block;
    }
    bool enabled() const { return m_enabled; }
    // Some location carries a release (a plain write to it must end that).
    bool carriesReleases() const { return !m_locations.empty(); }

    // The stamp of an access `thread` makes now.
    std::uint32_t clock(std::uint32_t thread) const { return m_enabled ? m_clock[thread] : 1; }

    // The access `thread` made with stamp `clock` while its warp `warp` was at barrier count
    // `warpEpoch` happens before what `observer` does now, through releases and acquires.
    bool ordered(std::uint32_t thread, std::uint32_t clock, std::uint32_t warp, std::uint32_t warpEpoch,
                 std::uint32_t observer) const
    {
        if (!m_enabled || m_knownBlock[observer] != m_block)
            return false;
        const std::uint32_t* known = row(m_known, observer);
        return known[thread] >= clock || known[m_threads + warp] > warpEpoch;
    }

    // A strong read of `location` (a space-tagged address): an acquire learns what the location's
    // releases published; another strong read keeps it for a later acquire fence.
    void read(std::uint32_t thread, std::uint64_t location, bool acquire)
    {
        if (!m_enabled || m_locations.empty())
            return;
        const auto found = m_locations.find(location);
        if (found == m_locations.end())
            return;
        if (acquire) {
            join(knownRow(thread), found->second.data());
            return;
        }
        if (m_pending.size() != m_known.size())
            m_pending.resize(m_known.size());
        join(freshRow(m_pending, m_pendingBlock, thread), found->second.data());
    }

    // A write to `location` by `thread` (its warp `warp` at barrier count `warpEpoch`). A release,
    // or a strong write after a release fence, publishes what the thread knows; a read-modify-write
    // extends the location's release sequence, any other write ends it.
    void write(std::uint32_t thread, std::uint32_t warp, std::uint32_t warpEpoch, std::uint64_t location, bool release,
               bool strong, bool readModifyWrite)
    {
        if (!m_enabled)
            return;
        const bool afterFence = strong && !release && m_fenceClock[thread] != 0;
        if (!release && !afterFence) {
            if (!readModifyWrite && !m_locations.empty())
                m_locations.erase(location);
            return;
        }
        std::vector<std::uint32_t>& published = m_locations[location];
        if (!readModifyWrite || published.empty())
            published.assign(m_width, 0);
        join(published.data(), knownRow(thread));
        // Its own accesses up to the release (or the fence), and its warp's before its last barrier.
        std::uint32_t& own = published[thread];
        std::uint32_t& warpCount = published[m_threads + warp];
        if (afterFence) {
            own = std::max(own, m_fenceClock[thread]);
            warpCount = std::max(warpCount, m_fenceWarpEpoch[thread]);
        } else {
            own = std::max(own, m_clock[thread]);
            warpCount = std::max(warpCount, warpEpoch);
            m_clock[thread] += 1; // later accesses are not covered
        }
    }

    // fence / membar by `thread`: an acquire fence makes the strong reads before it acquires; a
    // release fence makes the strong writes after it releases of what the thread knew at the fence.
    // (What the thread acquires between the fence and such a write is published too: a little more
    // ordering than PTX gives, in code that rarely does that.)
    void fence(std::uint32_t thread, std::uint32_t warpEpoch, bool acquire, bool release)
    {
        if (!m_enabled)
            return;
        if (acquire && m_pendingBlock[thread] == m_block) {
            join(knownRow(thread), row(m_pending, thread));
            m_pendingBlock[thread] = 0; // consumed
        }
        if (release) {
            m_fenceClock[thread] = m_clock[thread];
            m_fenceWarpEpoch[thread] = warpEpoch;
            m_clock[thread] += 1;
        }
    }

private:
    const std::uint32_t* row(const std::vector<std::uint32_t>& rows, std::uint32_t thread) const
    {
        return rows.data() + static_cast<std::size_t>(thread) * m_width;
    }
    std::uint32_t* freshRow(std::vector<std::uint32_t>& rows, std::vector<std::uint64_t>& block, std::uint32_t thread)
    {
        std::uint32_t* values = rows.data() + static_cast<std::size_t>(thread) * m_width;
        if (block[thread] != m_block) {
            std::fill(values, values + m_width, 0u);
            block[thread] = m_block;
        }
        return values;
    }
    std::uint32_t* knownRow(std::uint32_t thread) { return freshRow(m_known, m_knownBlock, thread); }
    void join(std::uint32_t* into, const std::uint32_t* from) const
    {
        for (std::uint32_t i = 0; i < m_width; ++i)
            into[i] = std::max(into[i], from[i]);
    }

    bool m_enabled = false;
    std::uint32_t m_threads = 0;
    std::uint32_t m_width = 0;                  // threads, then warps
    std::uint64_t m_block = 0;                  // blocks run so far: marks the rows in use
    std::vector<std::uint32_t> m_clock;         // per thread: its releases + 1
    std::vector<std::uint32_t> m_fenceClock;    // per thread: its clock at its last release fence (0: none)
    std::vector<std::uint32_t> m_fenceWarpEpoch;
    std::vector<std::uint32_t> m_known;         // per thread: what happens before it (m_width each)
    std::vector<std::uint64_t> m_knownBlock;    // the block a row was last cleared for
    std::vector<std::uint32_t> m_pending;       // per thread: what its strong reads saw since its last acquire fence
    std::vector<std::uint64_t> m_pendingBlock;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_locations; // what each location's releases published
};

} // namespace warpscope::sim
