#include "sim/timing_schedule.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <tuple>
#include <unordered_map>

namespace warpscope::sim::timing {

StaticInfo describe(const ptx::Instruction& in)
{
    StaticInfo info;
    using K = ptx::Operand::Kind;
    auto addSource = [&](std::int32_t reg) {
        if (reg >= 0 && info.sourceCount < 25)
            info.sources[info.sourceCount++] = reg;
    };
    auto addDestination = [&](std::int32_t reg) {
        if (reg >= 0 && info.destinationCount < 8)
            info.destinations[info.destinationCount++] = reg;
    };
    addSource(in.guard);
    const bool firstIsDestination = !ptx::firstOperandIsRead(in);
    for (int i = 0; i < in.operandCount; ++i) {
        const ptx::Operand& operand = in.operands[static_cast<std::size_t>(i)];
        const bool destination = i == 0 && firstIsDestination;
        if (operand.kind == K::Reg) {
            if (destination) {
                addDestination(operand.reg);
                addDestination(operand.pairReg);
            } else {
                addSource(operand.reg);
            }
        } else if (operand.kind == K::Vector) {
            for (int v = 0; v < operand.vectorCount; ++v) {
                if (destination) addDestination(operand.vector[static_cast<std::size_t>(v)]);
                else addSource(operand.vector[static_cast<std::size_t>(v)]);
            }
        } else if (operand.kind == K::Address) {
            addSource(operand.reg);
        }
    }
    switch (in.op) {
    case ptx::Op::Ld:
        info.kind = in.space == ptx::Space::Param ? TimingClass::Param
                  : in.space == ptx::Space::Shared ? TimingClass::Shared
                  : in.space == ptx::Space::Local ? TimingClass::Local
                                                  : TimingClass::GlobalLoad;
        break;
    case ptx::Op::St:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared
                  : in.space == ptx::Space::Local ? TimingClass::Local
                                                  : TimingClass::GlobalStore;
        break;
    case ptx::Op::Atom:
    case ptx::Op::Red:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::SharedAtomic : TimingClass::GlobalAtomic;
        break;
    case ptx::Op::WmmaLoad:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared : TimingClass::GlobalLoad;
        break;
    case ptx::Op::WmmaStore:
        info.kind = in.space == ptx::Space::Shared ? TimingClass::Shared : TimingClass::GlobalStore;
        break;
    case ptx::Op::Ldmatrix:
        info.kind = TimingClass::Shared;
        break;
    case ptx::Op::WmmaMma: // the tensor pipe: a long fixed latency, as the special function units
    case ptx::Op::Mma:
        info.kind = TimingClass::Sfu;
        break;
    case ptx::Op::CpAsync: // reads global memory like a load; no register waits for it, wait_group does
        info.kind = TimingClass::GlobalLoad;
        info.async = AsyncRole::Copy;
        break;
    case ptx::Op::Mbarrier: // an atomic update of the barrier object in shared memory
        info.kind = TimingClass::SharedAtomic;
        break;
    case ptx::Op::Div:
    case ptx::Op::Rem:
    case ptx::Op::Rcp:
    case ptx::Op::Sqrt:
    case ptx::Op::Ex2:
    case ptx::Op::Lg2:
    case ptx::Op::Rsqrt:
    case ptx::Op::Sin:
    case ptx::Op::Cos:
    case ptx::Op::Tanh:
        info.kind = TimingClass::Sfu;
        if ((in.op == ptx::Op::Div || in.op == ptx::Op::Rem) && !ptx::isFloat(in.type) && in.operandCount >= 3 &&
            in.operands[2].kind != ptx::Operand::Kind::Imm) {
            // Integer division by a register: ptxas emits a 17-instruction sequence for sm_90 (I2F,
            // MUFU.RCP, F2I, IMAD.HI and fix-ups; ptxas -O3, CUDA 13, the demo reduction's tid %
            // (2 s)) whose dependent chain is 12 integer steps and 3 conversion/reciprocal steps.
            info.kind = TimingClass::Alu;
            info.issueSlots = 17;
            info.aluSteps = 12;
            info.sfuSteps = 3;
        }
        break;
    case ptx::Op::BarSync:
        // bar.arrive does not wait. The model makes every waiting barrier the whole block's: a warp
        // waits until every live warp of its block waits too (named barriers with a thread count
        // are timed as if the block met).
        info.kind = in.bar == ptx::BarMode::Arrive ? TimingClass::Control : TimingClass::Barrier;
        break;
    case ptx::Op::Bra:
    case ptx::Op::Ret:
    case ptx::Op::Exit:
    case ptx::Op::Trap:
    case ptx::Op::MemBar:
    case ptx::Op::BarWarpSync:
    case ptx::Op::Call:
    case ptx::Op::Nanosleep:
    case ptx::Op::CpAsyncCommit:
    case ptx::Op::CpAsyncWait:
    case ptx::Op::CpAsyncMbarrierArrive:
        info.kind = TimingClass::Control;
        if (in.op == ptx::Op::CpAsyncCommit)
            info.async = AsyncRole::Commit;
        if (in.op == ptx::Op::CpAsyncWait) {
            info.async = AsyncRole::Wait;
            info.waitAll = in.waitAll;
            info.waitNewest = in.waitAll || in.operandCount == 0 ? 0 : static_cast<std::uint32_t>(in.operands[0].imm);
        }
        break;
    default:
        info.kind = TimingClass::Alu;
        break;
    }
    // What the schedule may move: arithmetic and loads. Stores, atomics, barriers, async copies,
    // local memory and control stay in place, and nothing moves across them.
    const bool isLoad = in.op == ptx::Op::Ld || in.op == ptx::Op::WmmaLoad || in.op == ptx::Op::Ldmatrix;
    info.load = isLoad && in.space != ptx::Space::Local && in.space != ptx::Space::Param;
    info.branch = in.op == ptx::Op::Bra;
    const bool isStore = in.op == ptx::Op::St || in.op == ptx::Op::WmmaStore;
    const bool shared = in.space == ptx::Space::Shared;
    const bool global = in.space == ptx::Space::Global || in.space == ptx::Space::Generic;
    if ((isLoad && info.load) || isStore)
        info.space = shared ? 2 : global ? 1 : 0;
    info.store = isStore && info.space != 0;
    if (in.op == ptx::Op::St)
        info.laneBytes = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, static_cast<std::uint32_t>(ptx::typeBits(in.type)) / 8 * std::max<std::uint32_t>(1, in.vectorWidth)));
    if (in.op == ptx::Op::Ld && shared && in.vectorWidth == 1 && ptx::typeBits(in.type) == 32)
        for (int i = 0; i < in.operandCount; ++i) {
            const ptx::Operand& operand = in.operands[static_cast<std::size_t>(i)];
            if (operand.kind == ptx::Operand::Kind::Address) {
                info.widenable = true;
                info.addressBase = operand.reg >= 0 ? operand.reg : -2 - operand.symbol;
                info.addressOffset = operand.offset;
            }
        }
    info.movable = info.async == AsyncRole::None && in.op != ptx::Op::Mbarrier &&
                   (info.kind == TimingClass::Alu || info.kind == TimingClass::Sfu || info.kind == TimingClass::Param || info.load);
    return info;
}

RunPlan scheduleRun(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs)
{
    RunPlan plan;
    const std::size_t count = pcs.size();
    auto at = [&](std::size_t i) -> const StaticInfo& { return info[static_cast<std::size_t>(pcs[i])]; };
    // A branch inside a run is predication (a short forward branch ptxas if-converts) or the branch
    // between loop copies ptxas removes; only the run's last instruction may be a real branch.
    auto fences = [&](std::size_t i) {
        return !at(i).movable && !at(i).store && !(i + 1 < count && at(i).kind == TimingClass::Control && at(i).branch);
    };
    // Memory order within a space: a load after the space's last store, a store after it and after
    // the loads since (global and shared never alias, so either moves across the other's stores).
    std::size_t lastStore[3] = {count, count, count};
    std::vector<std::size_t> loadsSince[3];
    std::vector<std::vector<std::size_t>> successors(count);
    std::vector<std::size_t> waitingFor(count, 0);
    auto edge = [&](std::size_t from, std::size_t to) {
        successors[from].push_back(to);
        ++waitingFor[to];
    };
    std::unordered_map<std::int32_t, std::size_t> lastWriter;
    std::size_t lastFence = count; // none yet
    for (std::size_t i = 0; i < count; ++i) {
        const StaticInfo& s = at(i);
        plan.producerStart.push_back(static_cast<std::uint32_t>(plan.producers.size()));
        for (int k = 0; k < s.sourceCount; ++k) {
            const auto writer = lastWriter.find(s.sources[k]);
            plan.producers.push_back(writer == lastWriter.end() ? -1 : static_cast<std::int32_t>(writer->second));
        }
        if (fences(i)) {
            for (std::size_t j = lastFence == count ? 0 : lastFence; j < i; ++j)
                edge(j, i);
            lastFence = i;
        } else if (lastFence != count) {
            edge(lastFence, i);
        }
        for (int k = 0; k < s.sourceCount; ++k) {
            const auto writer = lastWriter.find(s.sources[k]);
            if (writer != lastWriter.end() && (lastFence == count || writer->second >= lastFence))
                edge(writer->second, i);
        }
        if (s.space != 0 && !fences(i)) {
            const std::size_t last = lastStore[s.space];
            if (last != count && (lastFence == count || last > lastFence))
                edge(last, i);
            if (s.store) {
                for (std::size_t load : loadsSince[s.space])
                    if (lastFence == count || load > lastFence)
                        edge(load, i);
                loadsSince[s.space].clear();
                lastStore[s.space] = i;
            } else {
                loadsSince[s.space].push_back(i);
            }
        }
        for (int k = 0; k < s.destinationCount; ++k)
            lastWriter[s.destinations[k]] = i;
    }
    plan.producerStart.push_back(static_cast<std::uint32_t>(plan.producers.size()));
    // ptxas merges 32-bit shared loads from one base register whose offsets fall in one aligned
    // 16-byte group into one LDS.64/LDS.128 (seen in its sm_90 output for the tiled matmul): the
    // first of a group costs the load/store unit, the others ride along.
    plan.widened.assign(count, 0);
    std::map<std::tuple<std::int32_t, std::int32_t, std::int64_t>, std::size_t> groups; // base, its writer, 16-byte group
    for (std::size_t i = 0; i < count; ++i) {
        const StaticInfo& s = at(i);
        if (s.store && s.space == 2)
            groups.clear();
        if (!s.widenable)
            continue;
        std::int32_t writer = -1;
        for (int k = 0; k < s.sourceCount; ++k)
            if (s.sources[k] == s.addressBase)
                writer = plan.producers[plan.producerStart[i] + static_cast<std::size_t>(k)];
        const std::int64_t group = s.addressOffset >= 0 ? s.addressOffset / 16 : (s.addressOffset - 15) / 16;
        const auto [entry, first] = groups.try_emplace({s.addressBase, writer, group}, i);
        plan.widened[i] = first ? 0 : 1;
    }
    for (const auto& [reg, position] : lastWriter)
        plan.finalWriters.emplace_back(reg, static_cast<std::int32_t>(position));
    std::vector<std::uint64_t> height(count, 0);
    for (std::size_t i = count; i-- > 0;) {
        const StaticInfo& s = at(i);
        std::uint64_t latency = s.load ? 300 : s.kind == TimingClass::Sfu ? 20 : 4;
        std::uint64_t longest = 0;
        for (std::size_t next : successors[i])
            longest = std::max(longest, height[next]);
        height[i] = latency + longest;
    }
    std::vector<char> done(count, 0);
    plan.order.reserve(count);
    while (plan.order.size() < count) {
        std::size_t pick = count;
        for (std::size_t i = 0; i < count; ++i)
            if (!done[i] && waitingFor[i] == 0 && (pick == count || height[i] > height[pick]))
                pick = i;
        done[pick] = 1;
        for (std::size_t next : successors[pick])
            --waitingFor[next];
        plan.order.push_back(static_cast<std::int32_t>(pick));
    }
    return plan;
}

} // namespace warpscope::sim::timing
