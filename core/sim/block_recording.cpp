#include "sim/block_recording.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace warpscope::sim {

void BlockRecording::finish()
{
    stepsOfWarp.assign(static_cast<std::size_t>(std::max(warpCount, 0)), {});
    for (std::size_t s = 0; s < steps.size(); ++s)
        if (steps[s].warp < stepsOfWarp.size())
            stepsOfWarp[steps[s].warp].push_back(s);
    carriesOfWarp.assign(stepsOfWarp.size(), {});
    for (std::size_t c = 0; c < carries.size(); ++c)
        if (carries[c].warp < carriesOfWarp.size())
            carriesOfWarp[carries[c].warp].push_back(c);
}

std::size_t BlockRecording::printfsBefore(std::size_t position) const
{
    const auto end = std::lower_bound(printfs.begin(), printfs.end(), position,
                                      [](const RecordedPrintf& line, std::size_t at) { return line.step < at; });
    return static_cast<std::size_t>(end - printfs.begin());
}

std::optional<LaneSchedule> laneScheduleAt(const BlockRecording& recording, std::size_t position, std::int32_t warp)
{
    if (recording.lanePcs.size() != recording.steps.size() || recording.lanePcs.empty() || warp < 0 ||
        static_cast<std::size_t>(warp) >= recording.stepsOfWarp.size())
        return std::nullopt;
    const auto& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp)];
    const auto next = std::lower_bound(mine.begin(), mine.end(), position);
    LaneSchedule schedule;
    if (next == mine.begin()) {
        const std::uint32_t exist = recording.existMask[static_cast<std::size_t>(warp)];
        for (std::size_t lane = 0; lane < 32; ++lane)
            schedule.pc[lane] = ((exist >> lane) & 1u) != 0 ? 0 : -1;
        schedule.groups = exist != 0 ? 1 : 0;
    } else {
        const RecordedLanePcs& after = recording.lanePcs[*(next - 1)];
        schedule.pc = after.pc;
        schedule.groups = after.groups;
    }
    schedule.nextGroup = next == mine.end() ? 0 : recording.lanePcs[*next].group;
    return schedule;
}

bool usesCarryFlag(const ptx::Function& function)
{
    return std::any_of(function.instructions.begin(), function.instructions.end(),
                       [](const ptx::Instruction& in) { return in.carryOut || in.carryIn; });
}

const char* warpStatusName(WarpStatus status)
{
    switch (status) {
    case WarpStatus::Running: return "running";
    case WarpStatus::AtBarrier: return "at_barrier";
    case WarpStatus::Exited: return "exited";
    }
    return "running";
}

BlockReplay::BlockReplay(std::shared_ptr<const BlockRecording> recording, std::size_t registerCount)
    : m_recording(std::move(recording)), m_registerCount(registerCount)
{
    m_registers.assign(static_cast<std::size_t>(std::max(m_recording->warpCount, 0)) * m_registerCount * 32, 0);
}

void BlockReplay::seek(std::size_t position)
{
    const BlockRecording& recording = *m_recording;
    position = std::min(position, recording.steps.size());
    const auto lanesOf = [&](const RecordedStep& step, const RecordedWrite& write) -> std::uint64_t* {
        if (write.reg < 0 || static_cast<std::size_t>(write.reg) >= m_registerCount)
            return nullptr;
        return m_registers.data() + (step.warp * m_registerCount + static_cast<std::size_t>(write.reg)) * 32;
    };
    // Undo writes in reverse order so a register written twice comes back to its first value.
    while (m_position > position) {
        --m_position;
        const RecordedStep& step = recording.steps[m_position];
        for (std::uint32_t i = step.writeCount; i-- > 0;) {
            const RecordedWrite& write = recording.writes[step.writeOffset + i];
            if (std::uint64_t* lanes = lanesOf(step, write))
                std::copy(write.before.begin(), write.before.end(), lanes);
        }
    }
    while (m_position < position) {
        const RecordedStep& step = recording.steps[m_position];
        for (std::uint32_t i = 0; i < step.writeCount; ++i) {
            const RecordedWrite& write = recording.writes[step.writeOffset + i];
            if (std::uint64_t* lanes = lanesOf(step, write))
                std::copy(write.after.begin(), write.after.end(), lanes);
        }
        ++m_position;
    }
}

const std::uint64_t* BlockReplay::registers(std::int32_t warp, std::int32_t reg) const
{
    return m_registers.data() + (static_cast<std::size_t>(warp) * m_registerCount + static_cast<std::size_t>(reg)) * 32;
}

WarpSnapshot BlockReplay::warp(std::int32_t warp) const
{
    const BlockRecording& recording = *m_recording;
    WarpSnapshot snapshot;
    if (warp < 0 || warp >= recording.warpCount)
        return snapshot;
    snapshot.existMask = recording.existMask[static_cast<std::size_t>(warp)];
    const std::vector<std::size_t>& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp)];
    const auto after = std::lower_bound(mine.begin(), mine.end(), m_position);
    snapshot.stepsDone = static_cast<std::uint32_t>(after - mine.begin());
    if (after == mine.begin()) {
        // Nothing issued yet: one entry for the whole warp at the first instruction.
        snapshot.stack.push_back({0, -1, snapshot.existMask});
    } else {
        const std::size_t last = *(after - 1);
        const RecordedStep& step = recording.steps[last];
        // The warp's newest carry write at or before its last step.
        if (static_cast<std::size_t>(warp) < recording.carriesOfWarp.size()) {
            const std::vector<std::size_t>& writes = recording.carriesOfWarp[static_cast<std::size_t>(warp)];
            const auto newer = std::upper_bound(writes.begin(), writes.end(), last, [&](std::size_t at, std::size_t c) {
                return at < recording.carries[c].step;
            });
            if (newer != writes.begin()) {
                const RecordedCarry& carry = recording.carries[*(newer - 1)];
                snapshot.carryFlags = carry.after;
                snapshot.carryWrittenByLast = carry.step == last;
            }
        }
        snapshot.stack.assign(recording.stackPool.begin() + step.stackOffset,
                              recording.stackPool.begin() + step.stackOffset + step.stackSize);
        snapshot.exitedMask = step.exitedAfter;
        if (step.has(StepFlag::DoneAfter) || snapshot.stack.empty()) {
            snapshot.status = WarpStatus::Exited;
        } else if (step.has(StepFlag::AtBarrierAfter)) {
            // Waiting, unless the barrier released between that step and this position.
            const auto& releases = recording.barrierReleases;
            const auto release = std::upper_bound(releases.begin(), releases.end(), last);
            snapshot.status = release != releases.end() && *release <= m_position ? WarpStatus::Running : WarpStatus::AtBarrier;
        }
    }
    if (!snapshot.stack.empty()) {
        snapshot.pc = snapshot.stack.back().pc;
        snapshot.activeMask = snapshot.stack.back().mask;
    }
    return snapshot;
}

std::optional<std::size_t> BlockReplay::positionOf(std::int32_t warp, std::uint32_t warpStep) const
{
    const BlockRecording& recording = *m_recording;
    if (warp < 0 || warp >= recording.warpCount)
        return std::nullopt;
    const auto& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp)];
    if (warpStep < mine.size())
        return mine[warpStep];
    if (warpStep == mine.size()) // the state after its last instruction
        return mine.empty() ? 0 : mine.back() + 1;
    return std::nullopt;
}

namespace {

std::int32_t lineOf(const ptx::Function& function, std::int32_t pc)
{
    if (pc < 0 || static_cast<std::size_t>(pc) >= function.instructions.size())
        return 0;
    return function.instructions[static_cast<std::size_t>(pc)].source.line;
}

bool matches(const RecordedStep& step, const ptx::Function& function, StepUnit unit)
{
    switch (unit) {
    case StepUnit::Instruction:
    case StepUnit::SourceLine:
    case StepUnit::End:
        return true;
    case StepUnit::Barrier:
        return step.pc >= 0 && static_cast<std::size_t>(step.pc) < function.instructions.size() &&
               function.instructions[static_cast<std::size_t>(step.pc)].op == ptx::Op::BarSync;
    case StepUnit::Memory:
        return step.access >= 0;
    case StepUnit::Divergence:
        return step.has(StepFlag::Diverged) || step.has(StepFlag::Reconverged);
    case StepUnit::Hazard:
        return step.hazard >= 0;
    }
    return false;
}

} // namespace

std::optional<std::size_t> findStep(const BlockRecording& recording, const ptx::Function& function, std::size_t from,
                                    StepUnit unit, bool forward, std::int32_t warp)
{
    const std::size_t size = recording.steps.size();
    from = std::min(from, size);
    if (unit == StepUnit::End)
        return forward ? size : 0;
    const auto mine = [&](std::size_t s) { return warp < 0 || recording.steps[s].warp == static_cast<std::uint32_t>(warp); };
    // The instruction the cursor stands on: the first of the followed warp's at or after `from`.
    std::size_t current = from;
    while (current < size && !mine(current))
        ++current;
    if (forward) {
        if (current >= size)
            return std::nullopt;
        const std::int32_t line = lineOf(function, recording.steps[current].pc);
        for (std::size_t s = current + 1; s < size; ++s) {
            if (!mine(s))
                continue;
            if (unit == StepUnit::SourceLine) {
                const std::int32_t next = lineOf(function, recording.steps[s].pc);
                if (line > 0 && (next == line || next <= 0))
                    continue;
                return s;
            }
            if (matches(recording.steps[s], function, unit))
                return s;
        }
        // Nothing further: the end of the followed warp (the state after its last instruction).
        return unit == StepUnit::Instruction || unit == StepUnit::SourceLine ? std::optional<std::size_t>(size) : std::nullopt;
    }
    const std::int32_t line = current < size ? lineOf(function, recording.steps[current].pc) : 0;
    for (std::size_t s = from; s-- > 0;) {
        if (!mine(s))
            continue;
        if (unit == StepUnit::SourceLine) {
            const std::int32_t previous = lineOf(function, recording.steps[s].pc);
            if (previous <= 0 && line <= 0)
                return s; // no line information: instruction by instruction
            if (previous <= 0 || previous == line)
                continue;
            // The first instruction of that line's run.
            std::size_t first = s;
            for (std::size_t t = s; t-- > 0;) {
                if (!mine(t))
                    continue;
                if (lineOf(function, recording.steps[t].pc) != previous)
                    break;
                first = t;
            }
            return first;
        }
        if (matches(recording.steps[s], function, unit))
            return s;
    }
    return std::nullopt;
}

} // namespace warpscope::sim
