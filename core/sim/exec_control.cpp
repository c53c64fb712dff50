// Branches and the reconvergence stack, exits, barriers, and the warp collectives (shfl, vote).
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <string>

namespace warpscope::sim {

// An empty stack ends the warp, or under independent thread scheduling the running group: the next
// group set aside takes its turn (its_scheduler.h).
void BlockRunner::popReconverged(WarpState& warp)
{
    while (true) {
        while (!warp.stack.empty() && (warp.stack.back().mask == 0 || warp.stack.back().pc == warp.stack.back().reconvergePc))
            warp.stack.pop_back();
        if (!warp.stack.empty())
            return;
        if (warp.parked.empty() || !(resumeParkedGroup(warp, true) || resumeParkedGroup(warp, false))) {
            warp.done = true;
            return;
        }
    }
}

void BlockRunner::advance(WarpState& warp)
{
    if (warp.stack.empty())
        return;
    warp.stack.back().pc += 1;
    popReconverged(warp);
}

// A divergent branch: the current entry waits at the reconvergence point (the branch block's
// immediate post-dominator, early-return paths set aside: see cfg.cpp) with every active lane; the taken and not-taken sides are pushed on top
// and run one after the other (fall-through side first). An entry already ending at the same point
// is replaced instead of nested, so loops do not grow the stack.
void BlockRunner::executeBranch(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active,
                                std::uint32_t taken, InstructionCounters& counters)
{
    StackEntry& top = warp.stack.back();
    const std::int32_t pc = top.pc;
    const std::int32_t targetBlock = instruction.operands[0].target;
    const std::int32_t targetPc = m_function.blocks[static_cast<std::size_t>(targetBlock)].first;
    const std::int32_t fallPc = pc + 1;
    const std::uint32_t notTaken = active & ~taken;
    if (taken == 0 || notTaken == 0) {
        counters.branchesUniform += 1;
        top.pc = taken != 0 ? targetPc : fallPc;
        popReconverged(warp);
        if (taken != 0 && targetPc <= pc)
            watchSpin(warp, pc, targetPc, taken); // a loop: does it spin? (its_scheduler.h)
        return;
    }
    counters.branchesDivergent += 1;
    const std::int32_t block = m_function.blockOfInstruction[static_cast<std::size_t>(pc)];
    const std::int32_t postDominator = m_function.blocks[static_cast<std::size_t>(block)].reconvergence;
    const std::int32_t reconvergePc =
        postDominator < 0 ? -1 : m_function.blocks[static_cast<std::size_t>(postDominator)].first;
    if (top.reconvergePc == reconvergePc)
        warp.stack.pop_back();
    else
        top.pc = reconvergePc;
    if (targetPc != reconvergePc)
        warp.stack.push_back({targetPc, reconvergePc, taken});
    if (fallPc != reconvergePc)
        warp.stack.push_back({fallPc, reconvergePc, notTaken});
    popReconverged(warp);
    if (targetPc <= pc)
        watchSpin(warp, pc, targetPc, taken);
}

void BlockRunner::executeExit(WarpState& warp, std::uint32_t exiting)
{
    warp.exitedMask |= exiting;
    for (StackEntry& entry : warp.stack)
        entry.mask &= ~exiting;
    if (!warp.stack.empty() && warp.stack.back().mask != 0)
        warp.stack.back().pc += 1; // lanes whose guard was false go on
    popReconverged(warp);
    if (m_tracing && warp.done)
        recordTrace(warp, TraceEventKind::Exit, -1, 0, 0, -1, 0);
}

// bar / barrier (PTX ISA, "bar, barrier"): the warp arrives at barrier a (0-15). Without a thread
// count it waits until every warp of the block that has not exited is waiting too; with one (b, a
// multiple of 32) the barrier completes once b / 32 warps have arrived, whichever they are, and
// bar.arrive counts the warp in without waiting (producer and consumer warps). bar.red also
// reduces a predicate over the arriving threads, handed to each at release. Arriving with only
// part of its live lanes is barrier divergence, except for lanes whose only remaining code is a
// jump to ret/exit: those returned early (`if (i >= n) return;`), which the GPU allows because
// exited threads no longer take part in barriers.
void BlockRunner::executeBarrier(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active)
{
    const bool reduces = instruction.bar == ptx::BarMode::RedPopc || instruction.bar == ptx::BarMode::RedAnd ||
                         instruction.bar == ptx::BarMode::RedOr;
    const std::size_t idOperand = reduces ? 1 : 0;
    const std::size_t countOperand = instruction.bar == ptx::BarMode::Arrive || (instruction.bar == ptx::BarMode::Sync && instruction.operandCount == 2) ||
                                             (reduces && instruction.operandCount == 4)
                                         ? idOperand + 1
                                         : 0;
    const std::size_t lane = static_cast<std::size_t>(std::countr_zero(active | 0x80000000u));
    LaneValues value;
    read(warp, instruction.operands[idOperand], value);
    const std::uint64_t id = value[lane] & 0xffffffffu;
    if (id > 15)
        throw ptx::PtxError("barrier " + std::to_string(id) + " does not exist: a block has barriers 0 to 15", instruction.ptxLine);
    const std::uint32_t blockWarps = static_cast<std::uint32_t>(m_warps.size());
    std::uint32_t expectedWarps = 0; // 0: the whole block
    if (countOperand != 0) {
        read(warp, instruction.operands[countOperand], value);
        const std::uint64_t count = value[lane] & 0xffffffffu;
        if (count == 0 || count % 32 != 0 || count > 32ull * blockWarps)
            throw ptx::PtxError("barrier " + std::to_string(id) + "'s thread count " + std::to_string(count) +
                                    " must be a positive multiple of 32, at most the block's " +
                                    std::to_string(32ull * blockWarps) + " (" + std::to_string(blockWarps) + " warps)",
                                instruction.ptxLine);
        expectedWarps = static_cast<std::uint32_t>(count / 32);
    }
    // Lanes waiting on the stack only to return are leaving, not skipping the barrier.
    std::uint32_t leaving = 0, placed = active;
    for (std::size_t e = warp.stack.size() - 1; e-- > 0;) {
        const StackEntry& entry = warp.stack[e];
        const std::uint32_t lanes = entry.mask & ~placed;
        placed |= lanes;
        if (!warp.frames.empty() && e >= warp.frames.front().stackIndex)
            continue; // inside a device function: a lane that returns comes back, it does not leave
        if (entry.pc >= 0 && entry.pc < static_cast<std::int32_t>(m_function.instructions.size()) &&
            m_function.blocks[static_cast<std::size_t>(m_function.blockOfInstruction[static_cast<std::size_t>(entry.pc)])].onlyLeaves)
            leaving |= lanes;
        else if (entry.pc < 0)
            leaving |= lanes;
    }
    const std::uint32_t live = warp.existMask & ~warp.exitedMask & ~leaving;
    if (active != live) {
        const std::uint32_t absent = live & ~active;
        const int first = std::countr_zero(absent);
        reportHazard(HazardKind::BarrierDivergence, warp, first, 0, "",
                     "__syncthreads() reached by " + std::to_string(std::popcount(active)) + " of the warp's " +
                         std::to_string(std::popcount(live)) + " live threads (" + describeLanes(active) + "; " +
                         describeLanes(absent) +
                         " elsewhere): the barrier sits in code that not every thread of the block reaches "
                         "(move it out of the condition)",
                     -1, false, active, absent);
    }
    BarrierState& barrier = m_barriers[static_cast<std::size_t>(id)];
    if (expectedWarps != 0) {
        if (barrier.expectedWarps != 0 && barrier.expectedWarps != expectedWarps)
            reportHazard(HazardKind::BarrierDivergence, warp, static_cast<int>(lane), 0, "",
                         "barrier " + std::to_string(id) + " is given " + std::to_string(32 * expectedWarps) +
                             " threads here, but the warps already at it gave " + std::to_string(32 * barrier.expectedWarps) +
                             " (undefined behaviour: every thread of a barrier must give the same count)",
                         -1, false, active);
        else
            barrier.expectedWarps = expectedWarps;
    }
    if (reduces) {
        read(warp, instruction.operands[instruction.operandCount - 1], value);
        for (std::uint32_t l = 0; l < 32; ++l)
            if ((active >> l) & 1u) {
                barrier.threads += 1;
                barrier.trueThreads += (value[l] & 1u) != 0 ? 1 : 0;
            }
        barrier.mode = instruction.bar;
    }
    barrier.arrivedWarps += 1;
    m_barrierPc = warp.stack.back().pc;
    const bool waits = instruction.bar != ptx::BarMode::Arrive;
    if (waits) {
        warp.atBarrier = true;
        warp.barrierId = static_cast<std::int8_t>(id);
        warp.barrierCounted = expectedWarps != 0;
        warp.barrierResultReg = reduces ? instruction.operands[0].reg : -1;
        warp.barrierResultLanes = active;
    }
    advance(warp);
    if (expectedWarps != 0 && barrier.arrivedWarps >= barrier.expectedWarps)
        releaseWaiters(static_cast<std::int32_t>(id), true);
}

// Wakes the warps waiting at `barrier` (-1: at any barrier) for a thread count (`counted`) or for
// the whole block, hands a bar.red's result to its lanes, and starts the barriers afresh. The
// release orders every warp's shared accesses before it against those after it, as an mbarrier's
// phase completion does here (the race check's model; README, "Hazards").
void BlockRunner::releaseWaiters(std::int32_t barrier, bool counted)
{
    for (WarpState& warp : m_warps) {
        if (warp.done || !warp.atBarrier || warp.barrierCounted != counted || (barrier >= 0 && warp.barrierId != barrier))
            continue;
        warp.atBarrier = false;
        warp.warpEpoch += 1;
        if (warp.barrierResultReg >= 0) {
            const BarrierState& state = m_barriers[static_cast<std::size_t>(warp.barrierId)];
            std::uint64_t result = state.trueThreads;
            if (state.mode == ptx::BarMode::RedAnd)
                result = state.trueThreads == state.threads ? 1 : 0;
            else if (state.mode == ptx::BarMode::RedOr)
                result = state.trueThreads > 0 ? 1 : 0;
            LaneValues values;
            values.fill(result);
            write(warp, warp.barrierResultReg, values, warp.barrierResultLanes);
            warp.barrierResultReg = -1;
        }
        if (m_tracing)
            recordTrace(warp, TraceEventKind::BarrierRelease, m_barrierPc, warp.stack.empty() ? 0 : warp.stack.back().mask,
                        0, -1, 0);
    }
    for (std::size_t id = 0; id < m_barriers.size(); ++id)
        if (barrier < 0 ? m_barriers[id].expectedWarps == 0 : static_cast<std::int32_t>(id) == barrier)
            m_barriers[id] = BarrierState{};
    if (m_recordingActive)
        m_recording->barrierReleases.push_back(m_recording->steps.size());
    m_blockEpoch += 1;
    m_barrierPc = -1;
    m_stats.barriers += 1;
}

// No warp can run and some wait at a barrier for a thread count that was not reached. When every
// warp still running waits at that one barrier (the others exited), exited warps no longer hold it
// back, as for the whole-block barrier: it completes (a GPU does not hang there either). When warps
// wait at different barriers, each waits for the others: on a GPU the block hangs. That is reported
// with the barrier and the warps, and the simulator stops the block.
bool BlockRunner::settleCountedBarriers()
{
    const WarpState* first = nullptr;
    std::uint32_t warps = 0;
    bool oneBarrier = true;
    for (const WarpState& warp : m_warps)
        if (!warp.done && warp.atBarrier && warp.barrierCounted) {
            first = first == nullptr ? &warp : first;
            oneBarrier = oneBarrier && warp.barrierId == first->barrierId;
            if (warp.index < 32 && warp.barrierId == first->barrierId)
                warps |= 1u << warp.index; // the warps at the first barrier, named in the report
        }
    if (first == nullptr)
        return false;
    for (const WarpState& warp : m_warps)
        oneBarrier = oneBarrier && (warp.done || warp.barrierCounted);
    if (oneBarrier) {
        releaseWaiters(first->barrierId, true);
        return true;
    }
    const BarrierState& state = m_barriers[static_cast<std::size_t>(first->barrierId)];
    const std::string names = describeLanes(warps);
    reportHazard(HazardKind::BarrierDivergence, *first, std::countr_zero(first->barrierResultLanes | 0x80000000u), 0, "",
                 std::string(std::popcount(warps) == 1 ? "warp " : "warps ") + names.substr(names.find(' ') + 1) +
                     " wait at barrier " + std::to_string(first->barrierId) + " for " +
                     std::to_string(32 * state.expectedWarps) + " threads, but only " + std::to_string(state.arrivedWarps) +
                     (state.arrivedWarps == 1 ? " warp" : " warps") +
                     " arrived and the other warps wait at another barrier: on a GPU the block hangs, the simulator "
                     "stops it here",
                 -1, false, first->barrierResultLanes);
    stopBlock();
    return true;
}

// A deadlocked block (a barrier or an mbarrier phase nobody can complete): every thread that has not
// finished stops where it waits, as if it had exited, so the launch goes on with the next block.
void BlockRunner::stopBlock()
{
    for (WarpState& warp : m_warps) {
        if (warp.done)
            continue;
        warp.exitedMask |= warp.existMask;
        warp.stack.clear();
        warp.parked.clear();
        warp.atBarrier = false;
        warp.done = true;
    }
}

namespace {

std::string hexMask(std::uint32_t mask)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

// The lanes of `lanes` whose masks hold lane `lane`'s bit.
std::uint32_t lanesWhoseMaskHolds(const MemberMasks& masks, std::uint32_t lanes, std::uint32_t lane)
{
    std::uint32_t holding = 0;
    for (std::uint32_t other = 0; other < 32; ++other)
        if (((lanes >> other) & 1u) && ((masks[other] >> lane) & 1u))
            holding |= 1u << other;
    return holding;
}

} // namespace

// Every executing lane passes its own member mask. Two hazards (CUDA Programming Guide, "Warp
// Vote Functions" and the other *_sync intrinsics; PTX ISA, shfl.sync, vote.sync, match.sync,
// redux.sync): a lane outside the mask it passes, and lanes that name each other with different
// masks ("all non-exited threads named in mask must execute the same intrinsic with the same
// mask"). Lanes of different tiles, each passing its tile's mask, are neither.
MemberMasks BlockRunner::memberMasks(const WarpState& warp, const LaneValues& member, std::uint32_t active)
{
    MemberMasks masks{};
    std::uint32_t outside = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((active >> lane) & 1u))
            continue;
        masks[lane] = static_cast<std::uint32_t>(member[lane]);
        if (!((masks[lane] >> lane) & 1u))
            outside |= 1u << lane;
    }
    if (outside != 0) {
        const std::uint32_t first = static_cast<std::uint32_t>(std::countr_zero(outside));
        reportHazard(HazardKind::WarpSyncMismatch, warp, static_cast<int>(first), 0, "",
                     describeLanes(outside) + (std::popcount(outside) == 1 ? " executes" : " execute") +
                         " a warp-synchronous instruction outside its member mask " + hexMask(masks[first]) +
                         " (undefined behaviour: a lane must be in the mask it passes)",
                     -1, false, outside, masks[first]);
    }
    const std::uint32_t firstMask = masks[static_cast<std::size_t>(std::countr_zero(active | 0x80000000u))];
    const bool uniform = std::all_of(masks.begin(), masks.end(), [&, lane = 0u](std::uint32_t m) mutable {
        return !((active >> lane++) & 1u) || m == firstMask;
    });
    std::uint32_t naming = 0, named = 0;
    for (std::uint32_t lane = 0; lane < 32 && !uniform; ++lane) {
        if (!((active >> lane) & 1u))
            continue;
        for (std::uint32_t other = 0; other < 32; ++other)
            if (((masks[lane] & active) >> other & 1u) && masks[other] != masks[lane]) {
                naming |= 1u << lane;
                named |= 1u << other;
            }
    }
    if (naming != 0) {
        const std::uint32_t first = static_cast<std::uint32_t>(std::countr_zero(naming));
        const std::uint32_t other = static_cast<std::uint32_t>(std::countr_zero((masks[first] & named) | 0x80000000u));
        reportHazard(HazardKind::WarpSyncMismatch, warp, static_cast<int>(first), 0, "",
                     describeLanes(naming) + " name " + describeLanes(named) + " in their member masks, but those lanes pass "
                         "other masks (lane " + std::to_string(first) + ": " + hexMask(masks[first]) + ", lane " +
                         std::to_string(other) + ": " + hexMask(masks[other]) +
                         "): the lanes a warp-synchronous instruction names must pass the same mask (undefined behaviour)",
                     -1, false, naming, named);
    }
    return masks;
}

// bar.warp.sync (__syncwarp): a memory barrier among the named lanes. In the stack model the active
// lanes are already together; under independent thread scheduling the groups holding the named lanes
// have met before it issues (its_scheduler.h). Naming a live lane that is on another path of the
// running group (or, in mismatched code, of a group that never came) is a mismatch.
void BlockRunner::executeWarpSync(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t active)
{
    LaneValues member;
    read(warp, instruction.operands[0], member);
    if (active != 0) {
        const MemberMasks masks = memberMasks(warp, member, active);
        const std::uint32_t live = warp.existMask & ~warp.exitedMask;
        std::uint32_t named = 0;
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((active >> lane) & 1u)
                named |= masks[lane];
        const std::uint32_t missing = named & live & ~active;
        if (missing != 0)
            reportHazard(HazardKind::WarpSyncMismatch, warp, std::countr_zero(missing), 0, "",
                         "__syncwarp by " + describeLanes(active) + " names " + describeLanes(missing) +
                             ", on another path of a divergent branch: they do not meet here",
                         -1, false, active, missing);
    }
    warp.warpEpoch += 1;
}

// shfl.sync (PTX ISA, "Data Movement and Conversion Instructions: shfl.sync").
void BlockRunner::executeShuffle(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    LaneValues source, laneOrOffset, clamp, member;
    read(warp, instruction.operands[1], source);
    read(warp, instruction.operands[2], laneOrOffset);
    read(warp, instruction.operands[3], clamp);
    read(warp, instruction.operands[4], member);
    if (mask == 0)
        return;
    const MemberMasks masks = memberMasks(warp, member, mask);
    LaneValues result{}, valid{};
    std::uint32_t readOutside = 0, outsideSources = 0;    // sources active but outside the reader's member mask
    std::uint32_t readInactive = 0, inactiveSources = 0;  // sources not executing the shuffle
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::uint32_t b = static_cast<std::uint32_t>(laneOrOffset[lane]) & 0x1f;
        const std::uint32_t c = static_cast<std::uint32_t>(clamp[lane]) & 0x1f;
        const std::uint32_t segmask = (static_cast<std::uint32_t>(clamp[lane]) >> 8) & 0x1f;
        const std::uint32_t maxLane = (lane & segmask) | (c & ~segmask);
        const std::uint32_t minLane = lane & segmask;
        std::int32_t j = 0;
        bool inRange = false;
        switch (instruction.shfl) {
        case ptx::ShflMode::Up: j = static_cast<std::int32_t>(lane) - static_cast<std::int32_t>(b);
                                inRange = j >= static_cast<std::int32_t>(maxLane); break;
        case ptx::ShflMode::Down: j = static_cast<std::int32_t>(lane + b); inRange = j <= static_cast<std::int32_t>(maxLane); break;
        case ptx::ShflMode::Bfly: j = static_cast<std::int32_t>(lane ^ b); inRange = j <= static_cast<std::int32_t>(maxLane); break;
        case ptx::ShflMode::Idx: j = static_cast<std::int32_t>(minLane | (b & ~segmask));
                                 inRange = j <= static_cast<std::int32_t>(maxLane); break;
        case ptx::ShflMode::None: break;
        }
        if (!inRange)
            j = static_cast<std::int32_t>(lane);
        // Reading a lane outside the reader's member mask is undefined (CUDA Programming Guide, warp
        // shuffle functions). An active source still holds this instruction's value; an inactive
        // one holds whatever it had before, which is never handed out: the reading lane gets its
        // own value, as for a source out of range.
        if (!inRange) {
            // out of range: the lane's own value, as the ISA defines
        } else if (!((mask >> j) & 1u)) {
            readInactive |= 1u << lane;
            inactiveSources |= 1u << j;
            j = static_cast<std::int32_t>(lane);
        } else if (!((masks[lane] >> j) & 1u)) {
            readOutside |= 1u << lane;
            outsideSources |= 1u << j;
        }
        result[lane] = source[static_cast<std::size_t>(j)] & 0xffffffffu;
        valid[lane] = inRange ? 1 : 0;
    }
    if (readInactive != 0) {
        const std::uint32_t first = static_cast<std::uint32_t>(std::countr_zero(readInactive));
        reportHazard(HazardKind::ShflInactiveSource, warp, static_cast<int>(first), 0, "",
                     describeLanes(readInactive) + " read " + describeLanes(inactiveSources) +
                         (std::popcount(inactiveSources) == 1 ? ", which does not" : ", which do not") +
                         " execute this shuffle (member mask " + hexMask(masks[first]) +
                         "): the value is undefined; the simulator gives each reading lane its own value",
                     -1, false, readInactive, inactiveSources);
    }
    if (readOutside != 0) {
        const std::uint32_t first = static_cast<std::uint32_t>(std::countr_zero(readOutside));
        reportHazard(HazardKind::ShflInactiveSource, warp, static_cast<int>(first), 0, "",
                     describeLanes(readOutside) + " read " + describeLanes(outsideSources) +
                         ", outside the member mask " + hexMask(masks[first]) +
                         ": the value is undefined (the simulator gives those lanes' current values; include "
                         "every lane the shuffle reads in the mask)",
                     -1, false, readOutside, outsideSources);
    }
    write(warp, instruction.operands[0].reg, result, mask);
    if (instruction.operands[0].pairReg >= 0)
        write(warp, instruction.operands[0].pairReg, valid, mask);
}

// vote.sync: each lane votes among the executing lanes of its own member mask.
void BlockRunner::executeVote(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    LaneValues predicate, member;
    read(warp, instruction.operands[1], predicate);
    read(warp, instruction.operands[2], member);
    if (mask == 0)
        return;
    const MemberMasks masks = memberMasks(warp, member, mask);
    std::uint32_t yes = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            yes |= static_cast<std::uint32_t>(predicate[lane] & 1u) << lane;
    LaneValues result{};
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::uint32_t voters = mask & masks[lane];
        const std::uint32_t ballot = yes & voters;
        switch (instruction.vote) {
        case ptx::VoteMode::Ballot: result[lane] = ballot; break;
        case ptx::VoteMode::All: result[lane] = ballot == voters ? 1 : 0; break;
        case ptx::VoteMode::Any: result[lane] = ballot != 0 ? 1 : 0; break;
        case ptx::VoteMode::Uni: result[lane] = (ballot == 0 || ballot == voters) ? 1 : 0; break;
        case ptx::VoteMode::None: break;
        }
    }
    write(warp, instruction.operands[0].reg, result, mask);
}

// The member masks of a warp collective (match, redux), lane by lane; lanes executing it outside
// their mask, lanes naming each other with different masks, and live members on another path are
// hazards.
MemberMasks BlockRunner::collectiveMembers(const WarpState& warp, const LaneValues& member, std::uint32_t mask)
{
    const MemberMasks masks = memberMasks(warp, member, mask);
    std::uint32_t named = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            named |= masks[lane];
    const std::uint32_t missing = named & warp.existMask & ~warp.exitedMask & ~mask;
    if (missing != 0)
        reportHazard(HazardKind::WarpSyncMismatch, warp, std::countr_zero(missing), 0, "",
                     "the member mask names " + describeLanes(missing) +
                         ", on another path of a divergent branch: they do not take part",
                     -1, false, lanesWhoseMaskHolds(masks, mask, static_cast<std::uint32_t>(std::countr_zero(missing))),
                     missing);
    return masks;
}

// match.{any,all}.sync (PTX ISA, "match.sync"): compares a value across each lane's members.
void BlockRunner::executeMatch(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    LaneValues value, member;
    read(warp, instruction.operands[1], value);
    read(warp, instruction.operands[2], member);
    if (mask == 0)
        return;
    const MemberMasks masks = collectiveMembers(warp, member, mask);
    const std::uint64_t width = instruction.type == ptx::Type::B64 ? ~0ull : 0xffffffffull;
    LaneValues result{}, allSame{};
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::uint32_t participants = mask & masks[lane];
        std::uint32_t same = 0;
        for (std::uint32_t other = 0; other < 32; ++other)
            if (((participants >> other) & 1u) && ((value[other] ^ value[lane]) & width) == 0)
                same |= 1u << other;
        if (instruction.match == ptx::MatchMode::Any) {
            result[lane] = same;
        } else {
            result[lane] = same == participants ? participants : 0;
            allSame[lane] = same == participants ? 1 : 0;
        }
    }
    if (instruction.operands[0].kind == ptx::Operand::Kind::Reg)
        write(warp, instruction.operands[0].reg, result, mask);
    if (instruction.operands[0].pairReg >= 0)
        write(warp, instruction.operands[0].pairReg, allSame, mask);
}

// redux.sync (PTX ISA, "redux.sync"): one reduction of each lane's members' 32-bit values.
void BlockRunner::executeRedux(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    LaneValues value, member;
    read(warp, instruction.operands[1], value);
    read(warp, instruction.operands[2], member);
    if (mask == 0)
        return;
    const MemberMasks masks = collectiveMembers(warp, member, mask);
    const bool isSigned = instruction.type == ptx::Type::S32;
    const auto reduce = [&](std::uint32_t participants) {
        std::uint32_t total = 0;
        bool first = true;
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            if (!((participants >> lane) & 1u))
                continue;
            const auto x = static_cast<std::uint32_t>(value[lane]);
            if (first) {
                total = x;
                first = false;
                continue;
            }
            switch (instruction.atomOp) {
            case ptx::AtomOp::Add: total += x; break; // truncated to 32 bits
            case ptx::AtomOp::Min:
                total = isSigned ? static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(total), static_cast<std::int32_t>(x)))
                                 : std::min(total, x);
                break;
            case ptx::AtomOp::Max:
                total = isSigned ? static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(total), static_cast<std::int32_t>(x)))
                                 : std::max(total, x);
                break;
            case ptx::AtomOp::And: total &= x; break;
            case ptx::AtomOp::Or: total |= x; break;
            case ptx::AtomOp::Xor: total ^= x; break;
            default: break;
            }
        }
        return total;
    };
    LaneValues result{};
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::uint32_t total = reduce(mask & masks[lane]);
        // Written as the destination's 32-bit value: sign-extended for .s32, as every write of that type.
        result[lane] = isSigned ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(total))) : total;
    }
    write(warp, instruction.operands[0].reg, result, mask);
}

} // namespace warpscope::sim
