// Blocks, warps and their turns; the per-instruction dispatch.
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/global_memory.h"
#include "sim/hazards.h"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

namespace warpscope::sim {

namespace {
// A warp keeps issuing until it blocks, finishes, yields (a failed mbarrier wait, nanosleep) or has
// issued this many instructions.
constexpr int kWarpQuantum = 32;
// Rounds in which every running warp only waited, with no arrival, phase or landed copy, before
// the block counts as deadlocked: a spin loop's backoff (nanosleep between tests) takes a few.
constexpr int kStalledRoundsForDeadlock = 64;
} // namespace

BlockRunner::BlockRunner(const LaunchContext& context)
    : m_context(context), m_function(*context.function)
{
    m_stats.perInstruction.resize(m_function.instructions.size());
    m_localBytes = m_function.localBytes;
    m_usesAsync = std::any_of(m_function.instructions.begin(), m_function.instructions.end(), [](const ptx::Instruction& in) {
        return in.op == ptx::Op::Mbarrier || in.op == ptx::Op::CpAsync || in.op == ptx::Op::CpAsyncCommit ||
               in.op == ptx::Op::CpAsyncWait || in.op == ptx::Op::CpAsyncMbarrierArrive;
    });
    // Release, acquire or fence: the race check follows happens-before through them (release_acquire.h).
    m_usesOrdering = std::any_of(m_function.instructions.begin(), m_function.instructions.end(), [](const ptx::Instruction& in) {
        return in.op == ptx::Op::MemBar || (in.isMemory() && in.order != ptx::MemoryOrder::Weak &&
                                            in.order != ptx::MemoryOrder::Relaxed);
    });
    m_readsPerWarp = std::any_of(m_function.instructions.begin(), m_function.instructions.end(), [](const ptx::Instruction& in) {
        return in.op == ptx::Op::MemBar || (in.isMemory() && in.order != ptx::MemoryOrder::Weak);
    });
}

void BlockRunner::setUpBlock(std::uint64_t linearBlock)
{
    m_linearBlock = linearBlock;
    m_blockIdx = launch::indexFromLinear(static_cast<std::int64_t>(linearBlock), m_context.grid);
    const std::int64_t threads = m_context.block.volume();
    const int warpCount = static_cast<int>((threads + 31) / 32);
    const std::size_t registers = m_function.registers.size();
    m_registerArena.assign(static_cast<std::size_t>(warpCount) * registers * 32, 0);
    m_localArena.assign(static_cast<std::size_t>(warpCount) * 32 * m_localBytes, 0);
    m_shared.assign(m_context.sharedBytes, 0);
    m_sharedState.assign((m_context.sharedBytes + 3) / 4, SharedWordState{});
    m_clocks.reset(static_cast<std::uint32_t>(threads), static_cast<std::uint32_t>(warpCount), m_usesOrdering);
    m_readsAcrossWarps.clear();
    m_blockEpoch = 1;
    m_barrierPc = -1;
    m_barriers.fill(BarrierState{});
    m_mbarriers.clear();
    m_asyncCopies.clear(); // copies nobody waited for never land: the block's shared memory is gone
    m_asyncArrivals.clear();
    m_asyncGroup.assign(m_usesAsync ? static_cast<std::size_t>(threads) : 0, 0);
    m_stalledRounds = 0;
    m_warps.assign(static_cast<std::size_t>(warpCount), WarpState{});
    for (int w = 0; w < warpCount; ++w) {
        WarpState& warp = m_warps[static_cast<std::size_t>(w)];
        warp.index = w;
        const std::int64_t firstThread = static_cast<std::int64_t>(w) * 32;
        const std::int64_t lanes = std::min<std::int64_t>(32, threads - firstThread);
        warp.existMask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
        warp.regs = m_registerArena.data() + static_cast<std::size_t>(w) * registers * 32;
        warp.local = m_localArena.data() + static_cast<std::size_t>(w) * 32 * m_localBytes;
        warp.warpEpoch = 1;
        const bool oneDimensional = m_context.block.y == 1 && m_context.block.z == 1;
        for (int lane = 0; lane < 32; ++lane) {
            const launch::Dim3 tid = lane >= lanes ? launch::Dim3{0, 0, 0}
                                   : oneDimensional ? launch::Dim3{firstThread + lane, 0, 0}
                                                    : launch::indexFromLinear(firstThread + lane, m_context.block);
            warp.tid[0][lane] = static_cast<std::uint64_t>(tid.x);
            warp.tid[1][lane] = static_cast<std::uint64_t>(tid.y);
            warp.tid[2][lane] = static_cast<std::uint64_t>(tid.z);
        }
        if (m_function.instructions.empty()) {
            warp.done = true;
            continue;
        }
        warp.stack.push_back({0, -1, warp.existMask});
    }
    m_blockIssued = 0;
    if (m_logging) {
        m_log.linearBlock = linearBlock;
        m_log.warps.assign(static_cast<std::size_t>(warpCount), {});
        // Blocks of a launch mostly issue alike: room for as many records as the last one's warps.
        for (std::size_t w = 0; w < m_log.warps.size() && w < m_lastWarpRecords.size(); ++w)
            m_log.warps[w].reserve(m_lastWarpRecords[w]);
    }
    m_recordingActive = false;
    if (m_context.recordBlock >= 0 && static_cast<std::uint64_t>(m_context.recordBlock) == linearBlock) {
        m_recording = std::make_unique<BlockRecording>();
        m_recording->linearBlock = linearBlock;
        m_recording->warpCount = warpCount;
        m_recording->registerCount = static_cast<std::int32_t>(registers);
        for (const WarpState& warp : m_warps)
            m_recording->existMask.push_back(warp.existMask);
        m_recording->stepsOfWarp.assign(static_cast<std::size_t>(warpCount), {});
        m_recordingActive = true;
    }
    m_tracing = false;
    if (m_context.traceRequest) {
        const auto& blocks = m_context.traceRequest->blocks;
        m_tracing = std::find(blocks.begin(), blocks.end(), linearBlock) != blocks.end();
    }
}

RunOutcome BlockRunner::runBlock(std::uint64_t linearBlock)
{
    beginBlock(linearBlock);
    return resume();
}

void BlockRunner::beginBlock(std::uint64_t linearBlock)
{
    setUpBlock(linearBlock);
    m_stats.blocksSimulated += 1;
    m_stats.warpsSimulated += m_warps.size();
    m_issuedSinceCheck = 0;
    m_gridArrivals = 0;
    m_gridArrived = false;
}

RunOutcome BlockRunner::resume()
{
    std::uint64_t& issuedSinceCheck = m_issuedSinceCheck;
    while (true) {
        bool anyRunnable = false;
        bool onlyPolledGrid = true; // every warp's turn ended polling a closed grid barrier (grid_barrier.cpp)
        bool onlyWaited = true; // every warp's turn ended in a wait (mbarrier or nanosleep), with no progress
        const std::uint64_t eventsBefore = m_asyncEvents;
        for (WarpState& warp : m_warps) {
            if (warp.done || warp.atBarrier)
                continue;
            anyRunnable = true;
            warp.yielded = false;
            const std::uint64_t pollsBefore = m_gridPolls;
            for (int i = 0; i < kWarpQuantum && !warp.done && !warp.atBarrier && !warp.yielded; ++i) {
                step(warp);
                ++issuedSinceCheck;
            }
            onlyWaited = onlyWaited && warp.yielded;
            onlyPolledGrid = onlyPolledGrid && m_gridPolls != pollsBefore;
        }
        // Warps that only test mbarrier phases nobody completes would spin until the block budget:
        // after enough such rounds the block is reported and stopped (exec_async.cpp).
        if (m_usesAsync && anyRunnable) {
            m_stalledRounds = onlyWaited && m_asyncEvents == eventsBefore ? m_stalledRounds + 1 : 0;
            if (m_stalledRounds >= kStalledRoundsForDeadlock && detectMbarrierDeadlock())
                m_stalledRounds = 0;
        }
        const bool atGridBarrier = anyRunnable && onlyPolledGrid && m_context.gridWorkspace != 0;
        if (issuedSinceCheck >= 4096 || !anyRunnable || atGridBarrier) {
            const std::uint64_t used = m_context.budgetUsed->fetch_add(issuedSinceCheck) + issuedSinceCheck;
            issuedSinceCheck = 0;
            if (used > m_context.stepBudget)
                return finishRecording(RunOutcome::BudgetExceeded);
            if (m_context.blockStepBudget > 0 && m_blockIssued > m_context.blockStepBudget)
                return finishRecording(RunOutcome::BlockBudgetExceeded);
            if (m_context.cancel && m_context.cancel->load(std::memory_order_relaxed))
                return finishRecording(RunOutcome::Cancelled);
            checkTimingLog();
        }
        if (atGridBarrier)
            return RunOutcome::AtGridBarrier; // the other blocks run until they arrive (runCooperativeGrid)
        if (!anyRunnable) {
            const bool waiting = std::any_of(m_warps.begin(), m_warps.end(), [](const WarpState& w) { return w.atBarrier; });
            if (!waiting)
                return finishRecording(RunOutcome::Completed);
            tryReleaseBarrier();
        }
    }
}

// Every warp that has not finished is waiting. Those at a whole-block barrier complete it (warps
// whose threads have all exited no longer take part, as on the GPU); warps waiting for a thread
// count complete it if exited warps are all that is missing, and are a deadlock if other warps wait
// elsewhere (settleCountedBarriers, exec_control.cpp).
void BlockRunner::tryReleaseBarrier()
{
    if (settleCountedBarriers())
        return;
    releaseWaiters(-1, false);
}

std::uint32_t BlockRunner::guardMask(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active) const
{
    if (instruction.guard < 0)
        return active;
    const std::uint64_t* predicate = warp.regs + static_cast<std::size_t>(instruction.guard) * 32;
    std::uint32_t mask = 0;
    for (int lane = 0; lane < 32; ++lane)
        mask |= static_cast<std::uint32_t>(predicate[lane] & 1u) << lane;
    if (instruction.guardNegated)
        mask = ~mask;
    return mask & active;
}

void BlockRunner::step(WarpState& warp)
{
    // Independent thread scheduling, and spin watching in both models (its_scheduler.cpp).
    if ((!warp.parked.empty() || warp.spin.branchPc >= 0) && holdForOtherGroups(warp))
        return;
    StackEntry& top = warp.stack.back();
    const std::int32_t pc = top.pc;
    if (pc < 0 || pc >= static_cast<std::int32_t>(m_function.instructions.size())) {
        // Running off the end of the function behaves as ret.
        executeExit(warp, top.mask);
        return;
    }
    const ptx::Instruction& instruction = m_function.instructions[static_cast<std::size_t>(pc)];
    const std::uint32_t active = top.mask;
    const std::uint32_t mask = guardMask(warp, instruction, active);
    InstructionCounters& counters = m_stats.perInstruction[static_cast<std::size_t>(pc)];
    counters.warpExecutions += 1;
    counters.threadExecutions += static_cast<std::uint64_t>(std::popcount(mask));
    std::int32_t traceMemory = -1;
    std::uint8_t conflictDegree = 0;
    m_record = IssueRecord{pc, 0, 0, 0};
    m_blockIssued += 1;
    const bool recording = m_recordingActive;
    if (recording)
        beginRecordedStep(warp);
    // grid.sync()'s arrival and polls on the grid workspace (grid_barrier.cpp), found before the
    // instruction may overwrite its address register.
    const bool gridAccess = m_context.gridWorkspace != 0 && touchesGridWorkspace(warp, instruction, mask);
    const std::uint32_t gridWordBefore = gridAccess ? gridBarrierWord() : 0;

    switch (instruction.op) {
    case ptx::Op::Bra:
        executeBranch(warp, instruction, active, mask, counters);
        break;
    case ptx::Op::Ret:
        if (!warp.frames.empty())
            executeReturn(warp, mask); // from a device function
        else
            executeExit(warp, mask);
        break;
    case ptx::Op::Exit:
        executeExit(warp, mask);
        unwindFinishedCalls(warp);
        break;
    case ptx::Op::Trap:
        executeTrap(warp, instruction, mask);
        break;
    case ptx::Op::Call:
        executeCall(warp, instruction, mask);
        break;
    case ptx::Op::BarSync:
        if (mask == 0 && instruction.guard >= 0)
            advance(warp); // guarded off for every lane: the warp does not take part
        else
            executeBarrier(warp, instruction, mask);
        break;
    case ptx::Op::BarWarpSync:
        executeWarpSync(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::MemBar:
        executeFence(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Shfl:
        executeShuffle(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Vote:
        executeVote(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Match:
        executeMatch(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Redux:
        executeRedux(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Nanosleep: // no time passes in the functional model: the warp lets the others run
        warp.yielded = true;
        advance(warp);
        break;
    case ptx::Op::Mbarrier:
        executeMbarrier(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::CpAsync:
        executeAsyncCopy(warp, instruction, mask, counters);
        advance(warp);
        break;
    case ptx::Op::CpAsyncCommit:
    case ptx::Op::CpAsyncWait:
        executeAsyncWait(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::CpAsyncMbarrierArrive:
        executeAsyncArrive(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::WmmaLoad:
    case ptx::Op::WmmaStore:
        executeWmmaMemory(warp, instruction, mask, counters);
        advance(warp);
        break;
    case ptx::Op::WmmaMma:
    case ptx::Op::Mma:
        executeMatrixMultiply(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Ldmatrix:
        executeLdmatrix(warp, instruction, mask, counters);
        advance(warp);
        break;
    case ptx::Op::Ex2:
    case ptx::Op::Lg2:
    case ptx::Op::Rsqrt:
    case ptx::Op::Sin:
    case ptx::Op::Cos:
    case ptx::Op::Tanh:
    case ptx::Op::Copysign:
        executeFloatFunction(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Activemask: {
        LaneValues values;
        values.fill(active);
        write(warp, instruction.operands[0].reg, values, mask);
        advance(warp);
        break;
    }
    case ptx::Op::Ld:
    case ptx::Op::St:
    case ptx::Op::Atom:
    case ptx::Op::Red:
        if (mask != 0)
            executeMemory(warp, instruction, mask, counters, traceMemory, conflictDegree);
        advance(warp);
        break;
    case ptx::Op::Cvta:
        executeCvta(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Cvt:
        executeConvert(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Setp:
        executeCompare(warp, instruction, mask);
        advance(warp);
        break;
    case ptx::Op::Set:
        executeSet(warp, instruction, mask);
        advance(warp);
        break;
    default:
        executeAlu(warp, instruction, mask);
        advance(warp);
        break;
    }
    if (gridAccess)
        afterGridWorkspaceAccess(warp, instruction, gridWordBefore);
    if (m_tracing)
        recordTrace(warp, TraceEventKind::Issue, pc, active, mask, traceMemory, conflictDegree);
    if (recording && m_recordingActive)
        endRecordedStep(warp, pc, active, mask);
    if (m_logging) {
        m_log.warps[static_cast<std::size_t>(warp.index)].push_back(m_record);
        ++m_loggedRecords;
    }
}

void BlockRunner::reportHazard(HazardKind kind, const WarpState& warp, int lane, std::uint64_t address,
                               std::string buffer, std::string message, std::int64_t otherThread, bool otherWrote,
                               std::uint32_t lanes, std::uint32_t otherLanes, std::uint64_t occurrences)
{
    Hazard hazard;
    hazard.kind = kind;
    hazard.kernel = m_function.name;
    hazard.block = m_blockIdx;
    hazard.thread = {static_cast<std::int64_t>(warp.tid[0][lane]), static_cast<std::int64_t>(warp.tid[1][lane]),
                     static_cast<std::int64_t>(warp.tid[2][lane])};
    hazard.warp = warp.index;
    hazard.lane = lane;
    hazard.pc = warp.stack.empty() ? -1 : warp.stack.back().pc;
    if (hazard.pc >= 0 && hazard.pc < static_cast<std::int32_t>(m_function.instructions.size())) {
        const ptx::Instruction& instruction = m_function.instructions[static_cast<std::size_t>(hazard.pc)];
        hazard.ptxLine = instruction.ptxLine;
        hazard.source = instruction.source;
        if (auto file = m_context.module->files.find(instruction.source.file); file != m_context.module->files.end())
            hazard.sourceFile = file->second;
    }
    hazard.address = address;
    hazard.buffer = std::move(buffer);
    hazard.message = std::move(message);
    hazard.otherThread = otherThread;
    hazard.otherWrote = otherWrote;
    hazard.lanes = lanes;
    hazard.otherLanes = otherLanes;
    hazard.occurrences = occurrences;
    if (m_recordingActive)
        recordHazard(hazard);
    m_context.hazards->report(std::move(hazard));
}

void BlockRunner::reportOutOfBounds(HazardKind kind, const WarpState& warp, const OutOfBoundsLanes& lanes,
                                    const std::string& verb, ptx::Type elementType)
{
    if (lanes.empty())
        return;
    const std::uint64_t address = lanes.lowestAddress();
    std::string buffer;
    std::string message;
    if (kind == HazardKind::OutOfBoundsGlobal) {
        const DeviceBuffer* nearest = m_context.memory->nearest(address);
        buffer = nearest ? nearest->name : "";
        message = verb + " " + describeOutOfBounds(nearest, address, lanes.lowestBytes(), elementType) + "; " +
                  describeLanes(lanes.lanes()) + " (on a GPU: an illegal-address error or silent corruption)";
    } else if (kind == HazardKind::OutOfBoundsShared) {
        buffer = "shared";
        message = verb + " shared memory at offset " + std::to_string(address) + ", outside the block's " +
                  std::to_string(m_shared.size()) + " bytes; " + describeLanes(lanes.lanes());
    } else {
        buffer = "local";
        message = verb + " local memory at offset " + std::to_string(address) + ", outside the thread's " +
                  std::to_string(m_localBytes) + " bytes; " + describeLanes(lanes.lanes());
    }
    reportHazard(kind, warp, static_cast<int>(lanes.lowestLane()), address, std::move(buffer), std::move(message), -1,
                 false, lanes.lanes(), 0, lanes.accesses());
}

RunOutcome BlockRunner::finishRecording(RunOutcome outcome)
{
    if (m_recording && m_recording->linearBlock == m_linearBlock) {
        m_recordingActive = false;
        m_recording->finish();
    }
    return outcome;
}

void BlockRunner::recordTrace(const WarpState& warp, TraceEventKind kind, std::int32_t pc, std::uint32_t active,
                              std::uint32_t executed, std::int32_t memory, std::uint8_t conflictDegree)
{
    if (m_trace.events.size() >= m_context.traceRequest->maxEvents) {
        m_trace.truncated = true;
        return;
    }
    TraceEvent event;
    event.block = static_cast<std::uint32_t>(m_linearBlock);
    event.warp = static_cast<std::uint16_t>(warp.index);
    event.kind = kind;
    event.conflictDegree = conflictDegree;
    event.pc = pc;
    event.activeMask = active;
    event.executedMask = executed;
    event.memory = memory;
    m_trace.events.push_back(event);
}

} // namespace warpscope::sim
