// A recording of one block's execution, for stepping forwards and backwards through it: every
// warp-instruction the block issued, in the order the simulator issued them, with what is needed to
// show the state before any of them and to go back for free. Per step it keeps the issuing warp's
// reconvergence stack after the instruction, the register lanes the instruction overwrote (their
// values before and after), its memory access with what it cost, and any hazard it raised. Barrier
// releases are kept as positions in the step list.
//
// BlockReplay turns a recording into the state at any position (registers of every warp, each
// warp's stack, mask and status) by applying or undoing register writes from where it stands, so a
// step in either direction costs the writes it crosses, not a re-run. findStep() answers "where is
// the next (or previous) line, barrier, memory instruction, divergence, hazard" from a position.
//
// Memory: a step is sizeof(RecordedStep) (64 bytes) plus 520 bytes per register write, plus 344 bytes
// per memory access, plus 24 bytes per carry-flag write, plus each printf line's text;
// BlockRecordingLimits caps the total and marks the recording truncated past it.
#pragma once

#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "sim/hazards.h"
#include "sim/trace.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::sim {

// One entry of a warp's reconvergence stack: run `pc` with `mask` until `reconvergePc`.
struct StackEntry {
    std::int32_t pc = 0;
    std::int32_t reconvergePc = -1; // -1: never (the function's exit)
    std::uint32_t mask = 0;

    bool operator==(const StackEntry&) const = default;
};

struct RecordedWrite {
    std::int32_t reg = -1;
    std::uint32_t mask = 0;                 // lanes written
    std::array<std::uint64_t, 32> before{}; // the register's 32 lanes before the write
    std::array<std::uint64_t, 32> after{};  // and after it
};

struct RecordedAccess {
    ptx::Space space = ptx::Space::Global; // Global or Shared (Local and Param accesses are kept too)
    bool isStore = false;
    bool isAtomic = false;
    std::uint32_t bytesPerLane = 0;
    std::uint32_t laneMask = 0;                // lanes that accessed memory
    std::array<std::uint64_t, 32> addresses{}; // global: device address; shared: offset in the block's shared memory
    std::uint32_t requests = 0;                // global requests (ncu's l1tex__t_requests)
    std::uint32_t sectors = 0;                 // global: distinct 32-byte sectors
    std::uint32_t lines = 0;                   // global: distinct 128-byte lines
    std::uint64_t bytesRequested = 0;
    std::uint64_t bytesMoved = 0;
    std::uint32_t wavefronts = 0;              // shared
    std::uint32_t bankConflicts = 0;           // shared: wavefronts beyond one per phase
    std::uint32_t conflictDegree = 0;          // shared: the most distinct words one bank served
    // A scalar shared load ptxas merges with its neighbours into one LDS.64 or LDS.128
    // (shared_load_merge.h): the wide load's bytes per lane (0: not merged), how far this load's word
    // lies past the group's first (the wide load reads addresses[lane] - mergedOffset), and whether it
    // is a member riding on the group's first load, which counts the wavefronts (a member's are 0).
    std::uint32_t mergedBytesPerLane = 0;
    std::uint32_t mergedOffset = 0;
    bool mergedMember = false;
    // Global: where the timing model's caches served the sectors (sim/timing_model.h IssueTiming);
    // `timed` is false when the timing model did not run. Bit i of a mask is sector i, ascending.
    bool timed = false;
    std::uint16_t l1Sectors = 0, l2Sectors = 0, dramSectors = 0;
    std::uint64_t l2Mask = 0, dramMask = 0;
};

// The load the hardware makes for a merged shared load: the group's wide load (its bytes per lane, each
// lane's address of the group's first word), as the bank view should draw it; any other access as it is.
inline RecordedAccess hardwareAccess(const RecordedAccess& access)
{
    if (access.mergedBytesPerLane == 0)
        return access;
    RecordedAccess wide = access;
    wide.bytesPerLane = access.mergedBytesPerLane;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((access.laneMask >> lane) & 1u)
            wide.addresses[lane] -= access.mergedOffset;
    return wide;
}

enum class StepFlag : std::uint8_t {
    Diverged = 1,        // a divergent branch: some active lanes jump, the others do not
    Reconverged = 2,     // an entry popped and its lanes go on with others (paths rejoined)
    AtBarrierAfter = 4,  // the warp waits at a bar.sync after this instruction
    DoneAfter = 8,       // every lane of the warp has exited after this instruction
};

struct RecordedStep {
    std::uint32_t warp = 0;
    std::uint32_t warpStep = 0;        // this warp's own count: its warpStep-th instruction
    std::int32_t pc = 0;
    std::uint32_t activeMask = 0;      // lanes on the warp's current path
    std::uint32_t executedMask = 0;    // active lanes whose guard predicate was true
    std::uint32_t exitedAfter = 0;     // the warp's exited lanes after the instruction
    std::uint32_t stackOffset = 0;     // the warp's stack after the instruction: stackPool[offset, offset + size)
    std::uint32_t stackSize = 0;
    std::uint32_t writeOffset = 0;     // writes[offset, offset + count)
    std::uint32_t writeCount = 0;
    std::int32_t access = -1;          // index into accesses
    std::int32_t hazard = -1;          // index into hazards: the first hazard this instruction raised
    std::uint64_t cycle = 0;           // the timing model's issue cycle (0 when timing was off)
    std::uint32_t stallCycles = 0;
    std::uint8_t stallReason = 0;      // sim::StallReason
    std::uint8_t flags = 0;            // StepFlag bits

    bool has(StepFlag flag) const { return (flags & static_cast<std::uint8_t>(flag)) != 0; }
};

struct RecordedHazard {
    std::size_t step = 0;  // the step that raised it
    Hazard hazard;
};

// An instruction with .cc wrote the carry flag CC.CF of `lanes` (add.cc, addc.cc, ...): the warp's
// flags after it, one bit per lane. The flag is per thread state outside the register file.
struct RecordedCarry {
    std::size_t step = 0;
    std::uint32_t warp = 0;
    std::uint32_t lanes = 0;  // lanes that wrote it
    std::uint32_t after = 0;  // every lane's CC.CF after the instruction (bit = lane)
};

// A line a thread of the block printed (printf, through vprintf), as the device formats it.
struct RecordedPrintf {
    std::size_t step = 0;  // the step whose call printed it
    std::uint32_t warp = 0;
    std::uint32_t lane = 0;
    launch::Dim3 thread;   // threadIdx
    std::string text;      // with its newline, if the format had one
};

// A cooperative launch's grid barrier (grid.sync(), sim/grid_barrier.h) where the recorded block
// waited: at position `step` (after its polling thread found the barrier closed) it was set aside
// until the other blocks had arrived, and it runs on from the same position.
struct RecordedGridWait {
    std::size_t step = 0;          // the position it waited at (the state before steps[step])
    std::uint32_t barrier = 0;     // which grid barrier of the block: 0 for its first grid.sync()
    std::uint64_t arrived = 0;     // blocks that had arrived then, this one included
    std::uint64_t blocks = 0;      // blocks in the grid
    std::vector<std::uint64_t> notArrived; // linear indices of blocks still on their way then (the first 256)
};

// Independent thread scheduling (WarpModel::IndependentThreads, its_scheduler.h): after a step, the
// issuing warp's lanes' next instructions and the group that issued it.
struct RecordedLanePcs {
    std::array<std::int32_t, 32> pc{}; // each lane's next pc after the step (sim::lanePcs); -1: exited or no thread
    std::uint32_t group = 0;           // the lanes of the group the scheduler ran for this step
    std::uint32_t groups = 0;          // the warp's groups after the step (0 once it is done)
};

struct BlockRecording {
    std::uint64_t linearBlock = 0;
    std::int32_t warpCount = 0;
    std::int32_t registerCount = 0;
    std::vector<std::uint32_t> existMask;     // per warp: lanes that hold a thread
    std::vector<RecordedStep> steps;
    std::vector<StackEntry> stackPool;
    std::vector<RecordedWrite> writes;
    std::vector<RecordedAccess> accesses;
    std::vector<RecordedHazard> hazards;
    std::vector<std::size_t> barrierReleases; // the step positions at which a barrier released
    std::vector<RecordedPrintf> printfs;      // in the order the threads printed (by step)
    std::vector<RecordedCarry> carries;       // by step
    std::vector<RecordedLanePcs> lanePcs;     // independent thread scheduling only: one per step, as `steps`
    std::vector<RecordedGridWait> gridWaits;  // cooperative launches: where the block waited for the grid, by step
    std::uint64_t printfTextBytes = 0;        // what their texts hold
    bool truncated = false;                   // the byte limit was reached: later steps are missing
    std::uint64_t bytes = 0;                  // what the recording's vectors hold (capacities)

    // The positions of one warp's steps, ascending (built once by finish()).
    std::vector<std::vector<std::size_t>> stepsOfWarp;
    // The indices into `carries` of one warp's carry writes, ascending (built by finish(), which the
    // runner calls when the block ends).
    std::vector<std::vector<std::size_t>> carriesOfWarp;
    void finish();
    // How many printf lines the steps before `position` printed (printfs[0, n): the state there).
    std::size_t printfsBefore(std::size_t position) const;
};

struct BlockRecordingLimits {
    // Past this (counting the vectors' capacities) the recording stops, truncated; the last growth of
    // a vector can take it to twice this at most.
    std::uint64_t maxBytes = 96ull << 20;
};

// Independent thread scheduling: `warp`'s lanes in the state before step `position` (each lane's next
// pc, -1 once exited; every thread at pc 0 before the warp's first step), how many groups its lanes
// form then, and the lanes of the group that issues the warp's next step (0 when it issues no more).
// nullopt for a recording without lane pcs (the stack model).
struct LaneSchedule {
    std::array<std::int32_t, 32> pc{};
    std::uint32_t groups = 0;
    std::uint32_t nextGroup = 0;
};
std::optional<LaneSchedule> laneScheduleAt(const BlockRecording& recording, std::size_t position, std::int32_t warp);

// Whether `function` has an instruction that writes or reads CC.CF (the stepper then shows it).
bool usesCarryFlag(const ptx::Function& function);

// A warp's state at a replay position.
enum class WarpStatus : std::uint8_t { Running, AtBarrier, Exited };
const char* warpStatusName(WarpStatus status); // "running", "at_barrier", "exited"

struct WarpSnapshot {
    WarpStatus status = WarpStatus::Running;
    std::vector<StackEntry> stack;  // bottom first; empty once the warp is done
    std::uint32_t existMask = 0;
    std::uint32_t exitedMask = 0;
    std::uint32_t activeMask = 0;   // the top entry's mask (0 when done)
    std::int32_t pc = -1;           // the next instruction (the top entry's pc), -1 when done
    std::uint32_t stepsDone = 0;    // instructions the warp has issued before this position
    std::uint32_t carryFlags = 0;   // each lane's CC.CF (bit = lane): 0 until an instruction with .cc
    bool carryWrittenByLast = false; // the warp's last instruction before this position wrote CC.CF
};

class BlockReplay {
public:
    BlockReplay(std::shared_ptr<const BlockRecording> recording, std::size_t registerCount);

    const BlockRecording& recording() const { return *m_recording; }
    std::size_t size() const { return m_recording->steps.size(); }
    std::size_t position() const { return m_position; }

    // The state before step `position` (0 .. size()); applies or undoes the writes in between.
    void seek(std::size_t position);

    // Register `reg` of `warp`: 32 lanes, raw 64-bit slots.
    const std::uint64_t* registers(std::int32_t warp, std::int32_t reg) const;
    WarpSnapshot warp(std::int32_t warp) const;

    // The position of `warp`'s `warpStep`-th instruction, if it issued that many; warpStep equal to
    // the count is the position after its last instruction.
    std::optional<std::size_t> positionOf(std::int32_t warp, std::uint32_t warpStep) const;

private:
    std::shared_ptr<const BlockRecording> m_recording;
    std::size_t m_registerCount = 0;
    std::size_t m_position = 0;
    std::vector<std::uint64_t> m_registers; // warp x register x 32
};

// Where stepping goes. Each searches forwards (or backwards) from a position for a step of `warp`
// (-1: any warp) and returns the position of that step (the state before it), or nullopt.
enum class StepUnit : std::uint8_t {
    Instruction,   // the next warp-instruction
    SourceLine,    // the next instruction on another source line (or, without line info, the next)
    Barrier,       // the next bar.sync
    Memory,        // the next load, store or atomic
    Divergence,    // the next divergent branch or reconvergence
    Hazard,        // the next instruction that raised a hazard
    End,           // past the last step (forwards) or the first step (backwards)
};
std::optional<std::size_t> findStep(const BlockRecording& recording, const ptx::Function& function,
                                    std::size_t from, StepUnit unit, bool forward, std::int32_t warp);

} // namespace warpscope::sim
