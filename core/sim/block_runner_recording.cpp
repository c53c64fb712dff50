// The stepping recording (block_recording.h) of the one block a launch asked for, and the bound on
// the timing model's log inside a block. Only the recorded block pays for any of this: every hook
// is one test of m_recordingActive.
#include "sim/block_runner.h"
#include "sim/its_scheduler.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace warpscope::sim {

namespace {
constexpr std::uint64_t kStepBytes = sizeof(RecordedStep);
constexpr std::uint64_t kWriteBytes = sizeof(RecordedWrite);
constexpr std::uint64_t kAccessBytes = sizeof(RecordedAccess);
constexpr std::size_t kMaxRecordedHazards = 4096;
} // namespace

void BlockRunner::beginRecordedStep(const WarpState& warp)
{
    m_stepWriteOffset = m_recording->writes.size();
    m_stepStackSizeBefore = warp.stack.size();
    m_stepAccess = -1;
    m_stepHazard = -1;
    if (m_context.independentThreads)
        m_stepGroup = groupLanes(warp);
}

void BlockRunner::endRecordedStep(const WarpState& warp, std::int32_t pc, std::uint32_t active, std::uint32_t executed)
{
    BlockRecording& recording = *m_recording;
    RecordedStep step;
    step.warp = static_cast<std::uint32_t>(warp.index);
    const auto& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp.index)];
    step.warpStep = static_cast<std::uint32_t>(mine.size());
    step.pc = pc;
    step.activeMask = active;
    step.executedMask = executed;
    step.exitedAfter = warp.exitedMask;
    step.stackOffset = static_cast<std::uint32_t>(recording.stackPool.size());
    step.stackSize = static_cast<std::uint32_t>(warp.stack.size());
    recording.stackPool.insert(recording.stackPool.end(), warp.stack.begin(), warp.stack.end());
    step.writeOffset = static_cast<std::uint32_t>(m_stepWriteOffset);
    step.writeCount = static_cast<std::uint32_t>(recording.writes.size() - m_stepWriteOffset);
    step.access = m_stepAccess;
    step.hazard = m_stepHazard;
    // A divergent branch: some active lanes jump, others do not. (The stack need not grow: a loop's
    // exit replaces the entry that already waits at the same point.)
    const ptx::Instruction& instruction = m_function.instructions[static_cast<std::size_t>(pc)];
    if (instruction.op == ptx::Op::Bra && executed != 0 && (active & ~executed) != 0)
        step.flags |= static_cast<std::uint8_t>(StepFlag::Diverged);
    // A rejoin: an entry popped and the lanes that ran go on together with others. Popping one side
    // of an if/else to run the other is not a rejoin.
    const bool exitedNow = warp.exitedMask != (step.warpStep == 0 ? 0u : recording.steps[mine.back()].exitedAfter);
    if (warp.stack.size() < m_stepStackSizeBefore && !warp.done && !exitedNow && !warp.stack.empty() &&
        (warp.stack.back().mask & active) == active && warp.stack.back().mask != active)
        step.flags |= static_cast<std::uint8_t>(StepFlag::Reconverged);
    if (warp.atBarrier)
        step.flags |= static_cast<std::uint8_t>(StepFlag::AtBarrierAfter);
    if (warp.done)
        step.flags |= static_cast<std::uint8_t>(StepFlag::DoneAfter);
    if (instruction.carryOut && executed != 0)
        recording.carries.push_back({recording.steps.size(), step.warp, executed, warp.carryFlags});
    if (m_context.independentThreads)
        recording.lanePcs.push_back({lanePcs(warp), m_stepGroup,
                                     static_cast<std::uint32_t>(warp.parked.size() + (warp.stack.empty() ? 0 : 1))});
    recording.stepsOfWarp[static_cast<std::size_t>(warp.index)].push_back(recording.steps.size());
    recording.steps.push_back(step);
    // Capacities, not sizes: a vector's growth can hold twice what it uses.
    recording.bytes = recording.steps.capacity() * (kStepBytes + sizeof(std::size_t)) +
                      recording.stackPool.capacity() * sizeof(StackEntry) + recording.writes.capacity() * kWriteBytes +
                      recording.accesses.capacity() * kAccessBytes +
                      recording.printfs.capacity() * sizeof(RecordedPrintf) + recording.printfTextBytes +
                      recording.carries.capacity() * sizeof(RecordedCarry) +
                      recording.lanePcs.capacity() * sizeof(RecordedLanePcs);
    if (recording.bytes > m_context.recordLimits.maxBytes) {
        recording.truncated = true;
        m_recordingActive = false;
    }
}

void BlockRunner::recordWrite(const WarpState& warp, std::int32_t reg, const LaneValues& values, std::uint32_t mask)
{
    RecordedWrite write;
    write.reg = reg;
    write.mask = mask;
    const std::uint64_t* lanes = warp.regs + static_cast<std::size_t>(reg) * 32;
    std::copy(lanes, lanes + 32, write.before.begin());
    write.after = write.before;
    for (int lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            write.after[static_cast<std::size_t>(lane)] = values[static_cast<std::size_t>(lane)];
    m_recording->writes.push_back(write);
}

void BlockRunner::recordAccess(RecordedAccess access)
{
    m_stepAccess = static_cast<std::int32_t>(m_recording->accesses.size());
    m_recording->accesses.push_back(access);
}

void BlockRunner::recordHazard(const Hazard& hazard)
{
    BlockRecording& recording = *m_recording;
    if (recording.hazards.size() >= kMaxRecordedHazards)
        return;
    if (m_stepHazard < 0)
        m_stepHazard = static_cast<std::int32_t>(recording.hazards.size());
    recording.hazards.push_back({recording.steps.size(), hazard});
}

// The timing model's log grows by one record per warp-instruction; a block that never ends would
// grow it without bound, so past the cap the log is dropped (the launch then has no cycle estimate).
void BlockRunner::checkTimingLog()
{
    if (!m_logging || m_context.maxTimingBytes == 0)
        return;
    // Capacities, not sizes: a vector's growth can hold twice what it uses.
    std::uint64_t records = 0;
    for (const auto& warp : m_log.warps)
        records += warp.capacity();
    const std::uint64_t bytes = records * sizeof(IssueRecord) + m_sectorPool.capacity() * sizeof(std::uint64_t);
    if (bytes <= m_context.maxTimingBytes)
        return;
    m_logging = false;
    m_logOverflowed = true;
    m_log.warps.clear();
    m_log.warps.shrink_to_fit();
    m_sectorPool.clear();
    m_sectorPool.shrink_to_fit();
}

} // namespace warpscope::sim
