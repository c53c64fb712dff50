// Independent thread scheduling: groups of lanes, their turns and convergence, the spin watch and
// the livelock report (the model is described in its_scheduler.h).
#include "sim/its_scheduler.h"

#include "sim/block_runner.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::sim {

namespace {

// What an instruction waits for before it issues while the warp is split into groups.
GroupWait convergenceOf(const ptx::Instruction& instruction)
{
    switch (instruction.op) {
    case ptx::Op::BarWarpSync:
    case ptx::Op::Shfl:
    case ptx::Op::Vote:
    case ptx::Op::Match:
    case ptx::Op::Redux:
    case ptx::Op::WmmaLoad:
    case ptx::Op::WmmaStore:
    case ptx::Op::WmmaMma:
    case ptx::Op::Mma:
    case ptx::Op::Ldmatrix:
        return GroupWait::WarpSync;
    case ptx::Op::BarSync:
        return instruction.bar == ptx::BarMode::Arrive ? GroupWait::None : GroupWait::Barrier;
    default:
        return GroupWait::None;
    }
}

// The operand holding a warp-synchronous instruction's member mask; -1: the whole warp takes part.
int memberOperand(ptx::Op op)
{
    switch (op) {
    case ptx::Op::BarWarpSync: return 0;
    case ptx::Op::Shfl: return 4;
    case ptx::Op::Vote:
    case ptx::Op::Match:
    case ptx::Op::Redux: return 2;
    default: return -1;
    }
}

std::uint32_t stackLanes(const std::vector<StackEntry>& stack)
{
    std::uint32_t lanes = 0;
    for (const StackEntry& entry : stack)
        lanes |= entry.mask;
    return lanes;
}

// Two groups at the same place: the same pc, waiting to rejoin at the same points.
bool sameStack(const std::vector<StackEntry>& a, const std::vector<StackEntry>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const StackEntry& x, const StackEntry& y) {
               return x.pc == y.pc && x.reconvergePc == y.reconvergePc;
           });
}

// Entries on top with no lanes left, or at the point where they rejoin the entry below, are done.
void trimStack(std::vector<StackEntry>& stack)
{
    while (!stack.empty() && (stack.back().mask == 0 || stack.back().pc == stack.back().reconvergePc))
        stack.pop_back();
}

bool runnable(const ThreadGroup& group) { return group.wait == GroupWait::None || group.wait == GroupWait::Released; }

} // namespace

std::array<std::int32_t, 32> lanePcs(const WarpState& warp)
{
    std::array<std::int32_t, 32> pcs;
    pcs.fill(-1);
    const auto place = [&](const std::vector<StackEntry>& stack) {
        for (const StackEntry& entry : stack) // bottom first: the topmost entry holding a lane wins
            for (std::uint32_t lanes = entry.mask; lanes != 0; lanes &= lanes - 1)
                pcs[static_cast<std::size_t>(std::countr_zero(lanes))] = entry.pc;
    };
    for (const ThreadGroup& group : warp.parked)
        place(group.stack);
    place(warp.stack);
    return pcs;
}

std::uint32_t BlockRunner::groupLanes(const WarpState& warp) const { return stackLanes(warp.stack); }

// Before each instruction of a warp that is split into groups, or whose path is watched for a spin.
bool BlockRunner::holdForOtherGroups(WarpState& warp)
{
    const std::int32_t pc = warp.stack.back().pc;
    if (warp.spin.branchPc >= 0 && (pc < warp.spin.headPc || pc > warp.spin.branchPc))
        warp.spin.clear(); // the path left the loop
    if (warp.parked.empty())
        return false;
    mergeEqualGroups(warp);
    if (warp.parked.empty() || warp.syncReleased || pc < 0 || pc >= static_cast<std::int32_t>(m_function.instructions.size())) {
        warp.syncReleased = false;
        return false;
    }
    const ptx::Instruction& instruction = m_function.instructions[static_cast<std::size_t>(pc)];
    const GroupWait wait = convergenceOf(instruction);
    if (wait == GroupWait::None)
        return false;
    const std::uint32_t executing = guardMask(warp, instruction, warp.stack.back().mask);
    if (executing == 0)
        return false;
    std::uint32_t parkedLanes = 0;
    for (const ThreadGroup& group : warp.parked)
        parkedLanes |= stackLanes(group.stack);
    std::uint32_t members = parkedLanes;
    if (const int operand = memberOperand(instruction.op); operand >= 0) {
        LaneValues member;
        read(warp, instruction.operands[static_cast<std::size_t>(operand)], member);
        members = 0;
        for (std::uint32_t lanes = executing; lanes != 0; lanes &= lanes - 1)
            members |= static_cast<std::uint32_t>(member[static_cast<std::size_t>(std::countr_zero(lanes))]);
    }
    const std::uint32_t waitFor = members & parkedLanes & ~warp.exitedMask;
    if (waitFor == 0)
        return false;
    const bool allArrived = std::all_of(warp.parked.begin(), warp.parked.end(), [&](const ThreadGroup& group) {
        return (stackLanes(group.stack) & waitFor) == 0 || (group.wait != GroupWait::None && group.wait != GroupWait::Released);
    });
    if (allArrived) {
        // They meet: groups at this same place have merged above; the others issue their own
        // warp-synchronous instruction when their turn comes, without waiting again.
        for (ThreadGroup& group : warp.parked)
            if ((stackLanes(group.stack) & waitFor) != 0)
                group.wait = GroupWait::Released;
        return false;
    }
    parkRunningGroup(warp, wait);
    if (!resumeParkedGroup(warp, true)) {
        // Every group waits for another (warp-synchronous code the lanes reach at different places):
        // they go on in turn order, and the instructions report the lanes that did not take part.
        for (ThreadGroup& group : warp.parked)
            group.wait = GroupWait::Released;
        resumeParkedGroup(warp, false);
    }
    return true;
}

void BlockRunner::parkRunningGroup(WarpState& warp, GroupWait wait)
{
    ThreadGroup group;
    group.stack = std::move(warp.stack);
    group.frames = std::move(warp.frames);
    group.frameBase = warp.frameBase;
    group.region = warp.region;
    group.wait = wait;
    warp.parked.push_back(std::move(group));
    warp.stack.clear();
    warp.frames.clear();
    warp.syncReleased = false;
    warp.spin.clear();
}

bool BlockRunner::resumeParkedGroup(WarpState& warp, bool runnableOnly)
{
    const auto next = std::find_if(warp.parked.begin(), warp.parked.end(),
                                   [&](const ThreadGroup& group) { return !runnableOnly || runnable(group); });
    if (next == warp.parked.end())
        return false;
    ThreadGroup group = std::move(*next);
    warp.parked.erase(next);
    warp.stack = std::move(group.stack);
    warp.frames = std::move(group.frames);
    warp.frameBase = group.frameBase;
    warp.region = group.region;
    warp.syncReleased = group.wait == GroupWait::Released;
    warp.spin.clear();
    return true;
}

// A set-aside group at the running group's place joins it: one instruction for both from here.
void BlockRunner::mergeEqualGroups(WarpState& warp)
{
    for (std::size_t i = warp.parked.size(); i-- > 0;) {
        ThreadGroup& group = warp.parked[i];
        if (!sameStack(group.stack, warp.stack) || !group.frames.empty() || !warp.frames.empty() || group.region != warp.region)
            continue;
        for (std::size_t e = 0; e < warp.stack.size(); ++e)
            warp.stack[e].mask |= group.stack[e].mask;
        warp.parked.erase(warp.parked.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

// The spinning lanes become a group of their own, set aside at the back of the queue with their copy
// of the stack (where they rejoin the others stays on it); the rest of their group runs on.
void BlockRunner::splitSpinningLanes(WarpState& warp, std::uint32_t spinning)
{
    ThreadGroup spinners;
    spinners.stack = warp.stack;
    for (StackEntry& entry : spinners.stack)
        entry.mask &= spinning;
    trimStack(spinners.stack);
    spinners.frameBase = warp.frameBase;
    spinners.region = warp.region;
    warp.parked.push_back(std::move(spinners));
    for (StackEntry& entry : warp.stack)
        entry.mask &= ~spinning;
    warp.spin.clear();
    popReconverged(warp);
}

// After the running path took a backward branch (exec_control.cpp, executeBranch).
void BlockRunner::watchSpin(WarpState& warp, std::int32_t branchPc, std::int32_t headPc, std::uint32_t lanes)
{
    if (!m_context.independentThreads && m_blockIssued < kStackModelWatchesAfter)
        return;
    const std::uint32_t live = warp.existMask & ~warp.exitedMask;
    const bool wholeWarp = lanes == live;
    if (wholeWarp && m_spinSuspectedBlock != m_linearBlock) {
        warp.spin.clear(); // the whole warp loops together: no lane of it waits on another path
        return;
    }
    // The whole register file: lanes off the running path do not run, so only its lanes' can differ,
    // and one comparison of contiguous memory is cheaper than visiting their registers one by one.
    const std::size_t words = m_function.registers.size() * 32;
    SpinWatch& spin = warp.spin;
    if (spin.branchPc != branchPc || spin.lanes != lanes || spin.registers.size() != words ||
        !std::equal(warp.regs, warp.regs + words, spin.registers.begin())) {
        spin.branchPc = branchPc;
        spin.headPc = headPc;
        spin.lanes = lanes;
        spin.repeats = 0;
        spin.registers.assign(warp.regs, warp.regs + words);
        return;
    }
    spin.repeats += 1;
    if (wholeWarp)
        return; // watched only so that a livelock candidate elsewhere in the block sees it spin too
    if (m_context.independentThreads && warp.frames.empty()) {
        if ((groupLanes(warp) & ~lanes) != 0) {
            splitSpinningLanes(warp, lanes);
            return;
        }
        // The whole group spins: another group's turn if one can run, else the other warps'.
        if (std::any_of(warp.parked.begin(), warp.parked.end(), runnable)) {
            parkRunningGroup(warp, GroupWait::None);
            resumeParkedGroup(warp, true);
            return;
        }
        warp.yielded = true;
    }
    if (spin.repeats >= kSpinRepeatsForLivelock) {
        m_spinSuspectedBlock = m_linearBlock;
        reportLivelockIfStuck(warp);
    }
}

// The running path of `warp` spins. When nothing else in the block can run on (every other warp has
// finished, waits at a barrier or spins too), it is a livelock: reported, and the block stopped.
bool BlockRunner::reportLivelockIfStuck(const WarpState& warp)
{
    for (const WarpState& other : m_warps)
        if (&other != &warp && !other.done && !other.atBarrier && other.spin.repeats < kSpinRepeatsForLivelock)
            return false;
    const std::uint32_t spinning = warp.spin.lanes;
    const std::uint32_t live = warp.existMask & ~warp.exitedMask;
    const std::uint32_t waiting = live & ~spinning;
    const auto place = [&](std::int32_t pc) {
        if (pc < 0 || pc >= static_cast<std::int32_t>(m_function.instructions.size()))
            return std::string("the end of the kernel");
        const ptx::Instruction& instruction = m_function.instructions[static_cast<std::size_t>(pc)];
        const auto file = m_context.module->files.find(instruction.source.file);
        if (file != m_context.module->files.end() && instruction.source.line > 0)
            return std::filesystem::path(file->second).filename().string() + ":" + std::to_string(instruction.source.line);
        return "PTX line " + std::to_string(instruction.ptxLine);
    };
    const bool one = std::popcount(spinning) == 1;
    const std::string spins = describeLanes(spinning) + " of warp " + std::to_string(warp.index) +
                              (one ? " spins in this loop and nothing it reads changes" : " spin in this loop and nothing they read changes");
    std::string message;
    if (!m_context.independentThreads) {
        const std::int32_t waitPc = lanePcs(warp)[static_cast<std::size_t>(std::countr_zero(waiting | 0x80000000u))];
        const std::string others = describeLanes(waiting);
        message = spins + "; " + others + " of the same warp, which could change it, " +
                  (std::popcount(waiting) == 1 ? "waits" : "wait") + " at " + place(waitPc) +
                  " until the spinning path is done. The reconvergence stack (pre-Volta SIMT) runs one path of a warp "
                  "at a time, this one never ends, so it never runs " + others +
                  ": a livelock, the block is stopped. With independent thread scheduling (Volta and later, "
                  "--warp-model its) " + others + " would run and the loop could end";
    } else {
        message = spins + "; no other lane of the block can run to change it (the other groups of the warp and the "
                          "other warps have finished, wait, or spin too): a livelock even with independent thread "
                          "scheduling, the block is stopped";
    }
    reportHazard(HazardKind::WarpLivelock, warp, std::countr_zero(spinning | 0x80000000u), 0, "", std::move(message), -1,
                 false, spinning, waiting);
    stopBlock();
    return true;
}

} // namespace warpscope::sim
