// What a block keeps for sm_80's asynchronous copies and barrier objects (exec_async.cpp): each
// mbarrier object in its shared memory, each cp.async copy still in flight, and each
// cp.async.mbarrier.arrive waiting for its thread's copies. core/sim/README.md ("Asynchronous
// copies") says when a copy lands.
#pragma once

#include <array>
#include <cstdint>

namespace warpscope::sim {

// An mbarrier object (PTX ISA, "mbarrier"): the arrivals each phase expects, those still to come in
// the current phase, and how many phases have completed (its parity is the low bit).
struct MbarrierState {
    std::uint32_t expected = 0;
    std::uint32_t pending = 0;
    std::uint64_t phase = 0;
    bool valid = false;          // initialised and not invalidated
};

// The state mbarrier.arrive returns: the phase the arrival belonged to and the arrivals still
// pending after it (PTX leaves the encoding opaque; pending_count reads the low half).
constexpr std::uint64_t mbarrierToken(std::uint64_t phase, std::uint32_t pending)
{
    return (phase << 32) | pending;
}
constexpr std::uint64_t mbarrierTokenPhase(std::uint64_t token) { return token >> 32; }
constexpr std::uint32_t mbarrierTokenPending(std::uint64_t token) { return static_cast<std::uint32_t>(token); }

// One thread's cp.async still in flight: its source bytes were read when it was issued; they land
// in shared memory when the thread waits for its group (or an mbarrier tracking it completes).
struct AsyncCopy {
    std::uint32_t thread = 0;     // linear thread in the block
    std::uint32_t destination = 0; // shared-memory offset
    std::uint32_t bytes = 0;      // cp-size
    std::uint32_t group = 0;      // the thread's commit group it belongs to
    std::uint64_t sequence = 0;   // issue order within the block
    std::int32_t pc = 0;          // the cp.async instruction
    std::array<std::uint8_t, 16> data{};
};

// cp.async.mbarrier.arrive: an arrive-on the barrier once every copy the thread issued before it
// (sequence below `sequence`) has landed.
struct AsyncArrival {
    std::uint32_t thread = 0;
    std::uint32_t barrier = 0;    // shared-memory offset of the mbarrier object
    std::uint64_t sequence = 0;
};

} // namespace warpscope::sim
