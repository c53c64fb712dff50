// BlockRunner: executes the blocks of one launch, warp instruction by warp instruction. One runner
// per host thread; all runners share the launch's global memory. The instruction semantics are
// split by family: block_runner.cpp (blocks, warps, scheduling), exec_alu.cpp (arithmetic, bits,
// comparisons, conversions), exec_memory.cpp (loads, stores, atomics, address spaces, coalescing,
// bank conflicts, hazards), exec_control.cpp (branches, reconvergence, barriers, warp collectives).
#pragma once

#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "sim/async_state.h"
#include "sim/block_recording.h"
#include "sim/device_printf.h"
#include "sim/global_memory.h"
#include "sim/hazards.h"
#include "sim/memory_analysis.h"
#include "sim/release_acquire.h"
#include "sim/sim_stats.h"
#include "sim/timing_model.h"
#include "sim/trace.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace warpscope::sim {

using LaneValues = std::array<std::uint64_t, 32>;
using MemberMasks = std::array<std::uint32_t, 32>; // a warp collective's member mask, per lane

// Read-only facts about the launch shared by every runner, plus the shared global memory.
struct LaunchContext {
    const ptx::Module* module = nullptr;
    const ptx::Function* function = nullptr;
    launch::Dim3 grid;
    launch::Dim3 block;
    std::uint64_t sharedBytes = 0;             // static + dynamic, with the dynamic area aligned
    std::vector<std::uint8_t> paramBytes;      // the kernel parameter buffer
    std::vector<std::uint64_t> symbolAddress;  // per function symbol: its global address (globals/consts)
    GlobalMemory* memory = nullptr;
    std::mutex* atomicMutex = nullptr;         // serialises global atomics between host threads
    bool concurrent = false;                   // several runners execute at once
    HazardLog* hazards = nullptr;
    int smCount = 1;
    std::atomic<std::uint64_t>* budgetUsed = nullptr; // warp-instructions issued by all runners
    std::uint64_t stepBudget = 0;
    std::uint64_t blockStepBudget = 0;                 // warp-instructions one block may issue
    std::uint64_t maxTimingBytes = 0;                  // the timing log one runner may hold
    const std::atomic<bool>* cancel = nullptr;        // checked every few thousand warp-instructions
    const TraceRequest* traceRequest = nullptr;
    std::int64_t recordBlock = -1;                     // linear block to record for stepping, -1 for none
    BlockRecordingLimits recordLimits;
    std::uint64_t printfBytes = 1 << 20;               // printf output one runner keeps (SimOptions)
    bool independentThreads = false;                   // WarpModel::IndependentThreads (its_scheduler.h)
    std::uint64_t gridWorkspace = 0;                   // cooperative launches: the grid workspace's address (grid_barrier.h), else 0
};

// A device-function call in progress (ptx::FunctionRegion): where the callee's entries start on the
// warp's stack, its frame in each lane's local memory, and what to restore when it returns.
struct CallFrame {
    std::int32_t region = 0;           // the callee
    std::int32_t callerRegion = 0;
    std::int32_t call = -1;            // the call site (Function::calls)
    std::size_t stackIndex = 0;        // the callee's first entry on WarpState::stack
    std::uint64_t frameBase = 0;       // the callee's frame: local-memory offset in each lane
    std::uint64_t callerFrameBase = 0;
    std::uint32_t lanes = 0;           // the lanes that made the call
    std::vector<std::uint64_t> savedRegisters; // recursion: the callee's registers in the outer activation
};

// Reconvergence pc of a callee's first stack entry: the function's end, as for a kernel's own entry
// (StackEntry: -1); the entry ends when its lanes return.
inline constexpr std::int32_t kReturnsFromCall = -1;

// Independent thread scheduling (its_scheduler.h): a group of a warp's lanes set aside while another
// group of the warp runs, with its own reconvergence stack and call state, and what it waits for.
// Released: its members arrived, its warp-synchronous instruction issues when its turn comes.
enum class GroupWait : std::uint8_t { None, WarpSync, Barrier, Released };
struct ThreadGroup {
    std::vector<StackEntry> stack;
    std::vector<CallFrame> frames;
    std::uint64_t frameBase = 0;
    std::int32_t region = 0;
    GroupWait wait = GroupWait::None; // at a warp-synchronous instruction or bar.sync, for lanes elsewhere
};

// A backward branch the warp's running path takes again and again with the same registers: it
// cannot leave that loop by itself (its_scheduler.h).
struct SpinWatch {
    std::int32_t branchPc = -1;  // the backward branch, -1: none watched
    std::int32_t headPc = -1;    // its target, the loop's first instruction
    std::uint32_t lanes = 0;     // the lanes that took it
    std::uint32_t repeats = 0;   // consecutive times they took it with the same registers
    std::vector<std::uint64_t> registers; // the warp's registers then (only the running path changes them)
    void clear() { branchPc = headPc = -1; lanes = repeats = 0; } // keeps the registers' storage
};

struct WarpState {
    std::int32_t index = 0;          // warp within the block
    std::uint32_t existMask = 0;     // lanes that hold a thread
    std::uint32_t exitedMask = 0;
    std::vector<StackEntry> stack;
    bool atBarrier = false;
    bool done = false;
    // The bar.sync or bar.red it waits at (atBarrier): the barrier (0-15), whether it waits for a
    // thread count rather than the whole block, and a bar.red's destination and lanes.
    std::int8_t barrierId = 0;
    bool barrierCounted = false;
    std::int32_t barrierResultReg = -1;
    std::uint32_t barrierResultLanes = 0;
    std::uint32_t warpEpoch = 0;     // bumps at every barrier this warp passes (bar.sync, bar.warp.sync)
    std::uint64_t* regs = nullptr;   // registers x 32 lanes
    std::uint8_t* local = nullptr;   // 32 x localBytes
    LaneValues tid[3];               // threadIdx per lane
    std::vector<CallFrame> frames;   // device-function calls in progress, innermost last
    std::uint64_t frameBase = 0;     // the running function's frame in local memory
    std::int32_t region = 0;         // the running function (Function::regions), 0 = the kernel
    // Its turn ended early: an mbarrier wait that found its phase incomplete, or nanosleep.
    bool yielded = false;
    bool waitFailed = false;         // the yield was a failed mbarrier wait (deadlock detection)
    std::uint32_t waitBarrier = 0;   // that barrier's shared-memory offset
    std::uint32_t carryFlags = 0;    // each lane's CC.CF (bit = lane): add.cc, addc, sub.cc, ... (exec_carry.cpp)
    // Independent thread scheduling: the warp's other groups, in the order they take turns (the
    // running group is stack, frames, frameBase and region above); its warp-synchronous instruction
    // may issue (its members have arrived).
    std::vector<ThreadGroup> parked;
    bool syncReleased = false;
    SpinWatch spin;                  // both models: a spin of the running path (livelock, ITS turns)
};


// Per shared word: who last wrote it and read it, in which barrier interval, for race detection.
struct SharedWordState {
    std::uint32_t writer = 0;      // thread in block + 1; 0 = never written
    std::uint32_t writeEpoch = 0;  // block barrier epoch of that write
    std::uint32_t writeWarpEpoch = 0;
    std::uint32_t writeClock = 0;  // the writer's release clock then (release_acquire.h)
    std::uint32_t reader = 0;      // thread in block + 1 of the last read; 0 = none
    std::uint32_t readEpoch = 0;
    std::uint32_t readWarpEpoch = 0;
    std::uint32_t readClock = 0;
    std::uint8_t readersAcrossWarps = 0; // more than one warp read it in readEpoch
    // Strong accesses (atomics; ld/st .relaxed, .acquire, .release) of the same size do not race
    // with each other (PTX: morally strong); the size tells a complete overlap from a partial one.
    std::uint8_t writeStrong = 0;        // the last write was strong
    std::uint8_t writeSize = 0;          // its access's bytes
    std::uint8_t readStrong = 0;         // the last read was strong
    std::uint8_t readSize = 0;
    std::uint8_t writeBytes = 0;         // bytes (bit per byte) of the last write
    std::uint8_t readBytes = 0;          // bytes read since readEpoch began
    std::uint8_t writtenBytes = 0;       // bytes any thread has written
    std::uint16_t asyncWrites = 0;       // cp.async copies into this word that have not landed
};

// AtGridBarrier: a cooperative launch's block waits for the others at a grid barrier (grid_barrier.h).
enum class RunOutcome { Completed, BudgetExceeded, BlockBudgetExceeded, Cancelled, AtGridBarrier };

class BlockRunner {
public:
    explicit BlockRunner(const LaunchContext& context);

    // Runs one block to completion (or until the launch's step budget is spent): beginBlock, then resume.
    RunOutcome runBlock(std::uint64_t linearBlock);
    // Sets up a block and counts it; resume() runs it until it completes, stops, or (in a cooperative
    // launch) waits at a grid barrier, and runs it on from there when called again.
    void beginBlock(std::uint64_t linearBlock);
    RunOutcome resume();
    // grid_barrier.cpp: the recorded block's wait at a grid barrier, noted at the recording's end (no-op
    // otherwise); grid barriers the block has arrived at; a block left unfinished ends its recording.
    void noteGridWait(RecordedGridWait wait);
    std::uint32_t gridArrivals() const { return m_gridArrivals; }
    void abandonBlock();

    KernelStats& stats() { return m_stats; }
    Trace& trace() { return m_trace; }
    std::vector<PrintfLine>& printfLines() { return m_printf; }
    std::uint64_t printfDropped() const { return m_printfDropped; } // lines past LaunchContext::printfBytes
    std::uint64_t assertFailures() const { return m_assertFailures; } // threads whose assert() failed
    std::uint64_t trapThreads() const { return m_trapThreads; }        // threads that executed trap
    std::uint64_t firstTrapBlock() const { return m_firstTrapBlock; }  // the lowest such block (linear)
    const std::string& firstTrap() const { return m_firstTrap; }      // its first trapping thread, where

    // The timing model's input: what each warp issued. Off by default.
    void setLogging(bool logging) { m_logging = logging; }
    BlockLog takeBlockLog()
    {
        m_lastWarpRecords.resize(m_log.warps.size());
        for (std::size_t w = 0; w < m_log.warps.size(); ++w)
            m_lastWarpRecords[w] = m_log.warps[w].size();
        return std::move(m_log);
    }
    std::vector<std::uint64_t>& sectorPool() { return m_sectorPool; }
    std::uint64_t loggedRecords() const { return m_loggedRecords; }
    // The timing log passed LaunchContext::maxTimingBytes inside a block and was dropped.
    bool timingLogOverflowed() const { return m_logOverflowed; }
    // The recording of LaunchContext::recordBlock, once this runner has run it (else null).
    std::unique_ptr<BlockRecording> takeRecording() { return std::move(m_recording); }

private:
    // block_runner.cpp
    void setUpBlock(std::uint64_t linearBlock);
    // grid_barrier.cpp: a load, atomic or reduction of the grid workspace (grid.sync()'s arrival or a
    // poll); the workspace's barrier word; what the access means for the barrier.
    bool touchesGridWorkspace(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask) const;
    std::uint32_t gridBarrierWord() const;
    void afterGridWorkspaceAccess(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t wordBefore);
    void tryReleaseBarrier();
    void releaseWaiters(std::int32_t barrier, bool counted);
    bool settleCountedBarriers(); // true when it released or stopped warps waiting for a thread count
    void stopBlock();
    void reportHazard(HazardKind kind, const WarpState& warp, int lane, std::uint64_t address,
                      std::string buffer, std::string message, std::int64_t otherThread = -1,
                      bool otherWrote = false, std::uint32_t lanes = 0, std::uint32_t otherLanes = 0,
                      std::uint64_t occurrences = 1);
    // One hazard for the out-of-bounds lanes of a warp-wide access (none: nothing), naming them all;
    // `verb` ("reads", "writes", ...) opens the sentence, and a global access's element is counted
    // in `elementType`'s units. Its occurrences are the lane accesses.
    void reportOutOfBounds(HazardKind kind, const WarpState& warp, const OutOfBoundsLanes& lanes, const std::string& verb,
                           ptx::Type elementType);
    void recordTrace(const WarpState& warp, TraceEventKind kind, std::int32_t pc, std::uint32_t active,
                     std::uint32_t executed, std::int32_t memory, std::uint8_t conflictDegree);
    // block_runner_recording.cpp: the stepping recording of one block.
    void beginRecordedStep(const WarpState& warp);
    void endRecordedStep(const WarpState& warp, std::int32_t pc, std::uint32_t active, std::uint32_t executed);
    void recordWrite(const WarpState& warp, std::int32_t reg, const LaneValues& values, std::uint32_t mask);
    void recordAccess(RecordedAccess access);
    void recordHazard(const Hazard& hazard);
    void checkTimingLog();
    RunOutcome finishRecording(RunOutcome outcome);

    // One instruction for one warp.
    void step(WarpState& warp);
    std::uint32_t guardMask(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active) const;

    // exec_alu.cpp
    void read(const WarpState& warp, const ptx::Operand& operand, LaneValues& out) const;
    // A register operand's lanes in place, or `scratch` filled by read().
    const std::uint64_t* source(const WarpState& warp, const ptx::Operand& operand, LaneValues& scratch) const;
    void write(WarpState& warp, std::int32_t reg, const LaneValues& values, std::uint32_t mask);
    void executeAlu(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeConvert(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeCompare(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    // exec_carry.cpp: add.cc, addc, sub.cc, subc, mad.cc, madc (the lanes' CC.CF)
    void executeWithCarry(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);

    // exec_float.cpp
    void executeFloatFunction(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeRoundedFloat(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeContractedFloat(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);

    // exec_half.cpp
    void executeHalf(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeHalfCompare(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeHalfConvert(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeTf32Convert(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeSet(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);

    // exec_memory.cpp
    void executeMemory(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask,
                       InstructionCounters& counters, std::int32_t& traceMemory, std::uint8_t& conflictDegree);
    void executeCvta(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    // isAtomic: a read-modify-write; isStrong: ld/st .relaxed, .acquire or .release (atomics are strong).
    void trackSharedAccess(const WarpState& warp, int lane, std::uint64_t address, std::uint32_t bytes,
                           bool isWrite, bool isAtomic, bool isStrong = false);
    // fence / membar: its acquire and release sides for the race check (release_acquire.h).
    void executeFence(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);

    // exec_control.cpp
    void executeBranch(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active,
                       std::uint32_t taken, InstructionCounters& counters);
    void executeExit(WarpState& warp, std::uint32_t exiting);

    // exec_call.cpp: device-function calls, printf, assert
    void executeCall(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeReturn(WarpState& warp, std::uint32_t returning);
    void finishCall(WarpState& warp);
    void unwindFinishedCalls(WarpState& warp);
    void executePrintf(WarpState& warp, const ptx::CallSite& call, std::uint32_t mask);
    void executeAssertFail(WarpState& warp, const ptx::CallSite& call, std::uint32_t mask);
    void executeTrap(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    std::uint64_t callArgument(const WarpState& warp, const ptx::CallSite& call, std::size_t index, std::uint32_t lane) const;
    bool readDeviceMemory(const WarpState& warp, std::uint32_t lane, std::uint64_t address, void* out, std::size_t bytes) const;
    std::string readDeviceString(const WarpState& warp, std::uint32_t lane, std::uint64_t address) const;
    void addPrintfLine(const WarpState& warp, std::uint32_t lane, std::string text);
    void executeBarrier(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active);
    void executeWarpSync(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active);
    void executeShuffle(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeVote(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeMatch(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeRedux(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    // Each executing lane's own member mask (PTX lets every thread pass its own: a
    // cg::tiled_partition gives each tile of lanes its mask), with the mask hazards reported.
    MemberMasks memberMasks(const WarpState& warp, const LaneValues& member, std::uint32_t active);
    MemberMasks collectiveMembers(const WarpState& warp, const LaneValues& member, std::uint32_t mask);
    void advance(WarpState& warp);
    void popReconverged(WarpState& warp);

    // its_scheduler.cpp: groups of lanes with their own program counters, spins and livelocks.
    // Before an instruction: true when the running group must not issue it now (another group runs).
    bool holdForOtherGroups(WarpState& warp);
    void watchSpin(WarpState& warp, std::int32_t branchPc, std::int32_t headPc, std::uint32_t lanes);
    void splitSpinningLanes(WarpState& warp, std::uint32_t spinning);
    void parkRunningGroup(WarpState& warp, GroupWait wait);
    bool resumeParkedGroup(WarpState& warp, bool runnableOnly); // false: none to resume
    void mergeEqualGroups(WarpState& warp);
    bool reportLivelockIfStuck(const WarpState& warp);
    std::uint32_t groupLanes(const WarpState& warp) const;      // the running group's lanes

    // exec_async.cpp: mbarrier objects, cp.async and its groups
    void executeMbarrier(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeAsyncCopy(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask,
                          InstructionCounters& counters);
    void executeAsyncWait(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeAsyncArrive(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    // The shared-memory offset an mbarrier or cp.async address operand names for `lane` (nullopt,
    // with a hazard, outside shared memory).
    std::optional<std::uint64_t> sharedOperandAddress(const WarpState& warp, const ptx::Instruction& instruction,
                                                      const ptx::Operand& operand, std::uint32_t lane);
    MbarrierState* findMbarrier(const WarpState& warp, std::uint32_t lane, std::uint64_t offset, const char* use);
    void arriveOnMbarrier(MbarrierState& barrier, std::uint32_t count, bool drop);
    void landAsyncCopies(const std::function<bool(const AsyncCopy&)>& which);
    void triggerAsyncArrivals(std::int64_t barrier);
    void reportAsyncCopyInFlight(const WarpState& warp, int lane, std::uint64_t address, bool isWrite);
    bool detectMbarrierDeadlock();

    // exec_tensor.cpp: wmma.load/store/mma, mma.sync, ldmatrix, stmatrix
    void executeWmmaMemory(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask,
                           InstructionCounters& counters);
    void executeMatrixMultiply(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void executeLdmatrix(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask,
                         InstructionCounters& counters);
    void executeStmatrix(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask,
                         InstructionCounters& counters);
    // False, with a hazard, when lanes of the warp do not execute a .sync.aligned instruction.
    bool checkWholeWarp(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask);
    void laneAddresses(const WarpState& warp, const ptx::Operand& address, LaneValues& out) const;
    std::uint8_t* matrixBytes(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t lane,
                              std::uint64_t address, std::uint32_t bytes, bool isWrite, ptx::Space& resolved,
                              std::uint64_t& resolvedAddress);
    // The out-of-bounds lanes matrixBytes gathered (global, shared, local), reported once for the
    // instruction, then cleared.
    void reportMatrixOutOfBounds(const WarpState& warp, bool isWrite, ptx::Type elementType);
    // Counts one request of a matrix instruction; with `recorded`, also adds its cost to the access
    // the stepper shows (the instruction's total over its requests).
    void countMatrixRequest(const LaneAccess* lanes, std::uint32_t count, ptx::Space space, std::uint32_t bytesPerLane,
                            InstructionCounters& counters, RecordedAccess* recorded = nullptr);

    const LaunchContext& m_context;
    const ptx::Function& m_function;
    KernelStats m_stats;
    Trace m_trace;
    // The current block.
    std::uint64_t m_linearBlock = 0;
    launch::Dim3 m_blockIdx;
    std::vector<WarpState> m_warps;
    std::vector<std::uint64_t> m_registerArena;
    std::vector<std::uint8_t> m_localArena;
    std::vector<std::uint8_t> m_shared;
    std::vector<SharedWordState> m_sharedState;
    // Kernels with release, acquire or fence (m_usesOrdering): their happens-before. Kernels with
    // strong accesses (m_readsPerWarp): for a word read by several warps in one barrier interval,
    // the last read of each warp (SharedWordState keeps only the last one).
    bool m_usesOrdering = false;
    bool m_readsPerWarp = false;
    ReleaseAcquireClocks m_clocks;
    struct SharedRead {
        std::uint32_t thread = 0; // in block + 1
        std::uint32_t warpEpoch = 0;
        std::uint32_t clock = 0;
        std::uint8_t strong = 0;
        std::uint8_t size = 0;
        std::uint8_t bytes = 0;   // of the word
    };
    std::unordered_map<std::uint64_t, std::vector<SharedRead>> m_readsAcrossWarps; // word -> a read per warp
    std::uint32_t m_blockEpoch = 0;
    bool m_tracing = false;
    std::uint64_t m_blockIssued = 0;  // warp-instructions issued by the current block (%clock)
    bool m_logging = false;
    BlockLog m_log;
    IssueRecord m_record;             // the record of the instruction being executed
    std::vector<std::uint64_t> m_sectorPool;
    std::vector<std::size_t> m_lastWarpRecords; // per warp of the last block logged: its records (the next block's first guess)
    std::uint64_t m_loggedRecords = 0;
    DeviceBuffer* m_lastBuffer = nullptr;
    OutOfBoundsLanes m_matrixOutside[3]; // a matrix instruction's lanes outside global, shared, local memory
    std::uint64_t m_localBytes = 0;
    std::int32_t m_barrierPc = -1;   // the bar.sync the waiting warps are at
    // The block's 16 barriers (bar/barrier a{, b}): warps counted in towards a thread count, and
    // what a bar.red reduces over the threads arrived so far.
    struct BarrierState {
        std::uint32_t expectedWarps = 0; // b / 32 for a counted barrier; 0 while nobody waits on one
        std::uint32_t arrivedWarps = 0;
        std::uint32_t trueThreads = 0;   // bar.red: threads whose predicate is true
        std::uint32_t threads = 0;       // bar.red: threads that took part
        ptx::BarMode mode = ptx::BarMode::Sync; // the bar.red kind, when one waits
    };
    std::array<BarrierState, 16> m_barriers{};
    bool m_logOverflowed = false;
    // Recording (only while running LaunchContext::recordBlock).
    std::unique_ptr<BlockRecording> m_recording;
    bool m_recordingActive = false;
    std::size_t m_stepWriteOffset = 0;
    std::size_t m_stepStackSizeBefore = 0;
    std::int32_t m_stepAccess = -1;
    std::int32_t m_stepHazard = -1;
    std::uint32_t m_stepGroup = 0;   // independent thread scheduling: the running group's lanes at the step
    // The linear block in which a path spun long enough to be a livelock candidate: from then on whole
    // warps that loop are watched too, so the candidate can tell whether they spin (its_scheduler.cpp).
    std::uint64_t m_spinSuspectedBlock = ~std::uint64_t{0};
    std::vector<PrintfLine> m_printf;
    std::uint64_t m_printfBytes = 0;
    std::uint64_t m_printfDropped = 0;
    std::uint64_t m_assertFailures = 0;
    std::uint64_t m_trapThreads = 0;
    std::uint64_t m_firstTrapBlock = ~std::uint64_t{0};
    std::string m_firstTrap;
    // Asynchronous copies and barrier objects of the current block (exec_async.cpp).
    bool m_usesAsync = false;                          // the kernel has mbarrier or cp.async instructions
    std::map<std::uint32_t, MbarrierState> m_mbarriers; // by shared-memory offset
    std::vector<AsyncCopy> m_asyncCopies;              // in flight, in issue order
    std::vector<AsyncArrival> m_asyncArrivals;         // waiting for their copies
    std::vector<std::uint32_t> m_asyncGroup;           // per thread: its open (uncommitted) group
    std::uint64_t m_asyncSequence = 0;
    std::uint64_t m_asyncEvents = 0;                   // arrivals, phases, landings: progress for deadlock detection
    int m_stalledRounds = 0;                           // scheduling rounds in which every warp only waited
    std::uint64_t m_issuedSinceCheck = 0;              // warp-instructions not yet added to the launch's budget
    std::uint64_t m_gridPolls = 0;                     // polls that found the grid barrier closed
    std::uint32_t m_gridArrivals = 0;                  // grid barriers the block has arrived at
    bool m_gridArrived = false;                        // the block has arrived at a grid barrier ...
    std::uint32_t m_gridArrivalWord = 0;               // ... and the barrier word was this before its arrival
};

} // namespace warpscope::sim
