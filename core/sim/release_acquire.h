// Happens-before between the threads of one block beyond its barriers, for the shared-memory race
// check (core/sim/README.md, "Hazards: shared-memory races"): the release and acquire patterns of
// the PTX memory consistency model, followed with vector clocks.
//
// Each thread counts its releases (its clock, from 1); the race check stamps an access with its
// thread's clock and its warp's barrier count (WarpState::warpEpoch). Each thread knows, per other
// thread, the clock up to which that thread's accesses happen before its own, and per warp the
// barrier count before which that warp's accesses do (a lane's release covers what its warp did
// before a __syncwarp). A location carries what the releases in its value's release sequence
// published, as an immutable snapshot; an acquire that reads the location keeps that snapshot and
// joins it into what the thread knows only when that is next needed, so a spin loop of acquires
// costs one join, not one per iteration. Off (every call does nothing) for kernels without release,
// acquire or fence: nothing but barriers orders their threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
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
        // Rows are allocated, and cleared, when first used in a block: most threads of most blocks never
        // need one, and a cooperative launch keeps a runner (with its rows) for every block of the grid.
        m_known.resize(threads);
        for (std::vector<std::uint32_t>& row : m_known)
            if (!row.empty() && row.size() != m_width)
                row.clear();
        m_knownBlock.resize(threads);
        m_acquired.resize(threads);
        m_strongReads.resize(threads);
        for (std::uint32_t thread = 0; thread < threads; ++thread) {
            m_acquired[thread].clear();
            m_strongReads[thread].clear();
        }
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
                 std::uint32_t observer)
    {
        if (!m_enabled || (m_knownBlock[observer] != m_block && m_acquired[observer].empty()))
            return false;
        const std::uint32_t* known = knownRow(observer);
        return known[thread] >= clock || known[m_threads + warp] > warpEpoch;
    }

    // A strong read of `location` (a space-tagged address): an acquire learns what the location's
    // releases published; another strong read keeps it for a later acquire fence.
    void read(std::uint32_t thread, std::uint64_t location, bool acquire)
    {
        if (!m_enabled || m_locations.empty())
            return;
        const auto found = m_locations.find(location);
        if (found != m_locations.end())
            keep(acquire ? m_acquired[thread] : m_strongReads[thread], location, found->second);
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
        auto published = std::make_shared<std::vector<std::uint32_t>>(m_width, 0u);
        Publication& current = m_locations[location];
        if (readModifyWrite && current.clock)
            *published = *current.clock; // the sequence goes on: what it published stays
        else
            current.sequence = ++m_sequences;
        join(published->data(), knownRow(thread));
        // Its own accesses up to the release (or the fence), and its warp's before its last barrier.
        std::uint32_t& own = (*published)[thread];
        std::uint32_t& warpCount = (*published)[m_threads + warp];
        if (afterFence) {
            own = std::max(own, m_fenceClock[thread]);
            warpCount = std::max(warpCount, m_fenceWarpEpoch[thread]);
        } else {
            own = std::max(own, m_clock[thread]);
            warpCount = std::max(warpCount, warpEpoch);
            m_clock[thread] += 1; // later accesses are not covered
        }
        current.clock = std::move(published);
    }

    // fence / membar by `thread`: an acquire fence makes the strong reads before it acquires; a
    // release fence makes the strong writes after it releases of what the thread knew at the fence.
    // (What the thread acquires between the fence and such a write is published too: a little more
    // ordering than PTX gives, in code that rarely does that.)
    void fence(std::uint32_t thread, std::uint32_t warpEpoch, bool acquire, bool release)
    {
        if (!m_enabled)
            return;
        if (acquire) {
            for (const Kept& read : m_strongReads[thread])
                keep(m_acquired[thread], read.location, read.publication);
            m_strongReads[thread].clear();
        }
        if (release) {
            m_fenceClock[thread] = m_clock[thread];
            m_fenceWarpEpoch[thread] = warpEpoch;
            m_clock[thread] += 1;
        }
    }

private:
    // What a location's release sequence published so far; a new sequence gets a new number.
    struct Publication {
        std::uint64_t sequence = 0;
        std::shared_ptr<const std::vector<std::uint32_t>> clock;
    };
    struct Kept {
        std::uint64_t location = 0;
        Publication publication;
    };

    // A later read of the same release sequence saw at least as much: it replaces the earlier one.
    static void keep(std::vector<Kept>& kept, std::uint64_t location, const Publication& publication)
    {
        for (Kept& earlier : kept)
            if (earlier.location == location && earlier.publication.sequence == publication.sequence) {
                earlier.publication = publication;
                return;
            }
        kept.push_back({location, publication});
    }

    // What `thread` knows, with its acquires so far joined in.
    std::uint32_t* knownRow(std::uint32_t thread)
    {
        std::vector<std::uint32_t>& row = m_known[thread];
        if (row.empty())
            row.resize(m_width, 0u);
        std::uint32_t* values = row.data();
        if (m_knownBlock[thread] != m_block) {
            std::fill(values, values + m_width, 0u);
            m_knownBlock[thread] = m_block;
        }
        for (const Kept& acquired : m_acquired[thread])
            join(values, acquired.publication.clock->data());
        m_acquired[thread].clear();
        return values;
    }

    void join(std::uint32_t* into, const std::uint32_t* from) const
    {
        for (std::uint32_t i = 0; i < m_width; ++i)
            into[i] = std::max(into[i], from[i]);
    }

    bool m_enabled = false;
    std::uint32_t m_threads = 0;
    std::uint32_t m_width = 0;                  // threads, then warps
    std::uint64_t m_block = 0;                  // blocks run so far: marks the rows in use
    std::uint64_t m_sequences = 0;              // release sequences begun so far
    std::vector<std::uint32_t> m_clock;         // per thread: its releases + 1
    std::vector<std::uint32_t> m_fenceClock;    // per thread: its clock at its last release fence (0: none)
    std::vector<std::uint32_t> m_fenceWarpEpoch;
    std::vector<std::vector<std::uint32_t>> m_known; // per thread: what happens before it (m_width each; empty until used)
    std::vector<std::uint64_t> m_knownBlock;    // the block a row was last cleared for
    std::vector<std::vector<Kept>> m_acquired;    // per thread: acquired, not yet joined into its row
    std::vector<std::vector<Kept>> m_strongReads; // per thread: strong reads since its last acquire fence
    std::unordered_map<std::uint64_t, Publication> m_locations; // what each location's releases published
};

} // namespace warpscope::sim
