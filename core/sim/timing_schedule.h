// The timing model's view of each PTX instruction and of how ptxas orders them: the class that sets
// its latency, the registers it reads and writes, and the schedule of a run of a warp's records
// (loads hoisted, short branches if-converted, one-block loops unrolled, shared loads merged).
// Internal to core/sim/timing_model.cpp and its tests.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace warpscope::sim::timing {

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
    bool movable = true;            // ptxas may move it within its basic block (registers permitting)
    bool branch = false;            // bra
    bool store = false;             // st.global / st.shared: ordered only with accesses to its space
    std::uint8_t space = 0;         // loads and stores: 1 global, 2 shared
    std::uint8_t issueSlots = 1;    // SASS instructions the scheduler issues for it (an expanded sequence: more)
    bool widenable = false;         // a 32-bit scalar ld.shared: ptxas may merge it with its neighbours
    std::int32_t addressBase = -1;  // its address: base register (or -2 - symbol) and offset
    std::int64_t addressOffset = 0;
    std::uint8_t aluSteps = 0, sfuSteps = 0; // an expanded sequence's dependent chain: its latency
    bool load = false;              // a load: scheduled as early as its operands allow
    std::uint8_t laneBytes = 0;     // st.global: bytes each lane writes (type x vector width)
};

// What the timing model needs of one instruction, worked out once per launch.
StaticInfo describe(const ptx::Instruction& in);

// ptxas schedules each basic block: the SASS issues loads as early as their operands allow, ahead of
// the arithmetic the PTX puts between them, so a warp has several loads in flight. It also unrolls a
// loop whose body is one basic block (into kLoopUnroll copies; the demo matmul's 4-step PTX loop
// is a 16-step SASS loop under ptxas -O3 for sm_90, CUDA 13) and hoists the copies' loads together.
// List scheduling of `pcs` (one block, or copies of a loop body): a register read waits for its
// latest writer (ptxas renames registers, so reuse of a name orders nothing); the unmovable
// instructions fence everything, except the branches between loop copies, which ptxas removes.
// Among ready instructions the one with the longest latency path to the end goes first (address
// arithmetic feeding a load before arithmetic waiting on one). Returns positions into `pcs`.
inline constexpr int kLoopUnroll = 4;

// A scheduled run's dependences, for the replay: ptxas renamed the registers, so a read takes the
// value of its latest writer in record order, wherever the schedule put it.
struct RunPlan {
    std::vector<std::int32_t> order;          // positions in schedule order
    std::vector<std::uint32_t> producerStart; // per position, into `producers` (one more at the end)
    std::vector<std::int32_t> producers;      // per source of the position's instruction: its writer's position, -1 before the run
    std::vector<std::pair<std::int32_t, std::int32_t>> finalWriters; // register, the position of its last write
    std::vector<char> widened; // per position: a shared load ptxas merged into an earlier one (LDS.64/.128)
};

// ptxas keeps a kernel within the registers it allocated (ptxas -v's count): it hoists loads only
// while their results fit, and the rest issue as arithmetic frees registers (matmul_naive's 16-step
// SASS loop keeps 17 of its 32 loads in flight with 32 registers; ptxas -O3, sm_90, CUDA 13).
struct RegisterBudget {
    int registers = 0;                                 // per thread; 0: no bound
    const std::vector<std::uint8_t>* widths = nullptr; // per PTX register: the 32-bit registers it takes (a predicate none)
    const std::vector<std::uint64_t>* liveAfterRun = nullptr; // a bit per register a later run may read; null: all
};

RunPlan scheduleRun(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs, const RegisterBudget& budget = {});

// RegisterBudget::widths for `function`: the 32-bit registers each PTX register takes (a 64-bit one
// two, a predicate none).
std::vector<std::uint8_t> registerWidths(const ptx::Function& function);

// A run's plan, kept once per distinct run of pcs.
struct RunSchedule : RunPlan {
    bool reordered = false; // false: the PTX's order
};

// A stretch of a warp's issue order that follows a RunSchedule: records [recordBase, recordBase + length).
struct ScheduledRun {
    std::uint32_t firstIssue = 0, length = 0, recordBase = 0;
    const RunSchedule* schedule = nullptr;
};

} // namespace warpscope::sim::timing
