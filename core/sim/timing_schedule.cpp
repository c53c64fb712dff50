#include "sim/timing_schedule.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
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

namespace {

// A run's dependence graph: who waits for whom, and how many predecessors each position still has.
struct Dependences {
    std::vector<std::vector<std::size_t>> successors;
    std::vector<std::size_t> waitingFor;
};

// Fills plan.producerStart, plan.producers and plan.finalWriters, and returns the edges the list
// scheduler must respect.
Dependences buildDependences(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs, RunPlan& plan)
{
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
    Dependences graph;
    graph.successors.resize(count);
    graph.waitingFor.assign(count, 0);
    auto edge = [&](std::size_t from, std::size_t to) {
        graph.successors[from].push_back(to);
        ++graph.waitingFor[to];
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
    for (const auto& [reg, position] : lastWriter)
        plan.finalWriters.emplace_back(reg, static_cast<std::int32_t>(position));
    return graph;
}

// ptxas merges 32-bit shared loads from one base register whose offsets fall in one aligned
// 16-byte group into one LDS.64/LDS.128 (seen in its sm_90 output for the tiled matmul): the first
// of a group costs the load/store unit, the others ride along.
void markWidened(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs, RunPlan& plan)
{
    const std::size_t count = pcs.size();
    plan.widened.assign(count, 0);
    std::map<std::tuple<std::int32_t, std::int32_t, std::int64_t>, std::size_t> groups; // base, its writer, 16-byte group
    for (std::size_t i = 0; i < count; ++i) {
        const StaticInfo& s = info[static_cast<std::size_t>(pcs[i])];
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
}

// The registers a run holds while it is scheduled, counted as ptxas counts them (32-bit registers;
// a 64-bit value takes two, a predicate none). A register read before the run writes it is live
// from the start: to the end if a later run reads it and the run does not write it again (a loop
// invariant), else to its last read here. A value the run writes lives until its last reader in
// the run is scheduled, or to the end if it is the register's last write here and a later run reads
// it (a loop-carried value). Registers live across the run that it never reads are not counted:
// ptxas keeps many of them as constants or in uniform registers.
class RegisterPressure {
public:
    RegisterPressure(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs, const RunPlan& plan,
                     const RegisterBudget& budget)
        : m_info(info), m_pcs(pcs), m_plan(plan), m_widths(*budget.widths), m_liveAfter(budget.liveAfterRun)
    {
        const std::size_t count = pcs.size();
        m_valueStart.reserve(count + 1);
        std::unordered_map<std::int32_t, std::int32_t> finalWriter(plan.finalWriters.begin(), plan.finalWriters.end());
        for (std::size_t i = 0; i < count; ++i) {
            m_valueStart.push_back(static_cast<std::uint32_t>(m_readersLeft.size()));
            const StaticInfo& s = at(i);
            for (int d = 0; d < s.destinationCount; ++d) {
                m_readersLeft.push_back(0);
                const auto last = finalWriter.find(s.destinations[d]);
                m_liveOut.push_back(last != finalWriter.end() && last->second == static_cast<std::int32_t>(i) &&
                                    readLater(s.destinations[d]) ? 1 : 0);
            }
        }
        m_valueStart.push_back(static_cast<std::uint32_t>(m_readersLeft.size()));
        m_sourceValue.assign(plan.producers.size(), -1);
        for (std::size_t i = 0; i < count; ++i) {
            const StaticInfo& s = at(i);
            for (int k = 0; k < s.sourceCount; ++k) {
                const std::size_t slot = plan.producerStart[i] + static_cast<std::size_t>(k);
                const std::int32_t writer = plan.producers[slot];
                const std::int32_t reg = s.sources[k];
                if (writer < 0) {
                    auto [entry, first] = m_liveInReadsLeft.try_emplace(reg, 0);
                    if (first)
                        m_pressure += width(reg);
                    ++entry->second;
                    continue;
                }
                const StaticInfo& w = at(static_cast<std::size_t>(writer));
                for (int d = 0; d < w.destinationCount; ++d)
                    if (w.destinations[d] == reg) {
                        const auto value = static_cast<std::int32_t>(m_valueStart[static_cast<std::size_t>(writer)]) + d;
                        m_sourceValue[slot] = value;
                        ++m_readersLeft[static_cast<std::size_t>(value)];
                        break;
                    }
            }
        }
        // A live-in register the run does not write and a later run reads never dies here.
        for (auto& [reg, reads] : m_liveInReadsLeft)
            if (finalWriter.find(reg) == finalWriter.end() && readLater(reg))
                reads = -1;
    }

    int pressure() const { return m_pressure; }

    // The registers scheduling position i would add (its results) less those it would free (the
    // values it reads last).
    int change(std::size_t i) { return apply(i, false); }
    void schedule(std::size_t i) { m_pressure += apply(i, true); }

private:
    const StaticInfo& at(std::size_t i) const { return m_info[static_cast<std::size_t>(m_pcs[i])]; }
    bool readLater(std::int32_t reg) const
    {
        if (!m_liveAfter)
            return true;
        const auto word = static_cast<std::size_t>(reg) / 64;
        return reg < 0 || word >= m_liveAfter->size() || (((*m_liveAfter)[word] >> (reg % 64)) & 1) != 0;
    }
    int width(std::int32_t reg) const
    {
        return reg >= 0 && static_cast<std::size_t>(reg) < m_widths.size() ? m_widths[static_cast<std::size_t>(reg)] : 1;
    }

    int apply(std::size_t i, bool commit)
    {
        const StaticInfo& s = at(i);
        int delta = 0;
        for (int d = 0; d < s.destinationCount; ++d) {
            const std::size_t value = m_valueStart[i] + static_cast<std::size_t>(d);
            if (m_readersLeft[value] > 0 || m_liveOut[value])
                delta += width(s.destinations[d]);
        }
        // Count each value this position reads once, freed when this is its last reader.
        std::int32_t seen[25];
        int seenCount = 0;
        for (int k = 0; k < s.sourceCount; ++k) {
            const std::size_t slot = m_plan.producerStart[i] + static_cast<std::size_t>(k);
            const std::int32_t value = m_sourceValue[slot];
            const std::int32_t key = value >= 0 ? value : -2 - s.sources[k];
            if (std::find(seen, seen + seenCount, key) != seen + seenCount)
                continue;
            seen[seenCount++] = key;
            int readsHere = 0;
            for (int j = k; j < s.sourceCount; ++j)
                readsHere += (m_sourceValue[m_plan.producerStart[i] + static_cast<std::size_t>(j)] == value &&
                              (value >= 0 || s.sources[j] == s.sources[k])) ? 1 : 0;
            if (value >= 0) {
                const auto v = static_cast<std::size_t>(value);
                if (m_readersLeft[v] == readsHere && !m_liveOut[v])
                    delta -= width(s.sources[k]);
                if (commit)
                    m_readersLeft[v] -= readsHere;
            } else {
                const auto entry = m_liveInReadsLeft.find(s.sources[k]);
                if (entry->second < 0)
                    continue;
                if (entry->second == readsHere)
                    delta -= width(s.sources[k]);
                if (commit)
                    entry->second -= readsHere;
            }
        }
        return delta;
    }

    const std::vector<StaticInfo>& m_info;
    const std::vector<std::int32_t>& m_pcs;
    const RunPlan& m_plan;
    const std::vector<std::uint8_t>& m_widths;
    const std::vector<std::uint64_t>* m_liveAfter; // null: every register may be read after the run
    std::vector<std::uint32_t> m_valueStart;   // per position, into the values (its destinations)
    std::vector<int> m_readersLeft;            // per value: reads not yet scheduled
    std::vector<char> m_liveOut;               // per value: the register's last write in the run
    std::vector<std::int32_t> m_sourceValue;   // per source slot: the value it reads, -1 live-in
    std::unordered_map<std::int32_t, int> m_liveInReadsLeft; // live-in register: reads left, -1 never dies
    int m_pressure = 0;
};

} // namespace

std::vector<std::uint8_t> registerWidths(const ptx::Function& function)
{
    std::vector<std::uint8_t> widths;
    widths.reserve(function.registers.size());
    for (const ptx::RegisterInfo& reg : function.registers)
        widths.push_back(static_cast<std::uint8_t>(reg.type == ptx::Type::Pred ? 0 : (ptx::typeBits(reg.type) + 31) / 32));
    return widths;
}

RunPlan scheduleRun(const std::vector<StaticInfo>& info, const std::vector<std::int32_t>& pcs, const RegisterBudget& budget)
{
    RunPlan plan;
    const std::size_t count = pcs.size();
    Dependences graph = buildDependences(info, pcs, plan);
    markWidened(info, pcs, plan);
    std::vector<std::uint64_t> height(count, 0);
    for (std::size_t i = count; i-- > 0;) {
        const StaticInfo& s = info[static_cast<std::size_t>(pcs[i])];
        std::uint64_t latency = s.load ? 300 : s.kind == TimingClass::Sfu ? 20 : 4;
        std::uint64_t longest = 0;
        for (std::size_t next : graph.successors[i])
            longest = std::max(longest, height[next]);
        height[i] = latency + longest;
    }
    // Among ready positions the highest goes first. With a register budget, a position whose results
    // would take the run past it waits while another fits; if none fits, the one adding the fewest
    // registers goes (ptxas would spill; the model does not).
    std::optional<RegisterPressure> pressure;
    if (budget.registers > 0 && budget.widths)
        pressure.emplace(info, pcs, plan, budget);
    std::vector<char> done(count, 0);
    plan.order.reserve(count);
    while (plan.order.size() < count) {
        std::size_t pick = count, fallback = count;
        int fallbackChange = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (done[i] || graph.waitingFor[i] != 0)
                continue;
            if (pressure) {
                const int change = pressure->change(i);
                if (change > 0 && pressure->pressure() + change > budget.registers) {
                    if (fallback == count || change < fallbackChange || (change == fallbackChange && height[i] > height[fallback])) {
                        fallback = i;
                        fallbackChange = change;
                    }
                    continue;
                }
            }
            if (pick == count || height[i] > height[pick])
                pick = i;
        }
        if (pick == count)
            pick = fallback;
        done[pick] = 1;
        if (pressure)
            pressure->schedule(pick);
        for (std::size_t next : graph.successors[pick])
            --graph.waitingFor[next];
        plan.order.push_back(static_cast<std::int32_t>(pick));
    }
    return plan;
}

} // namespace warpscope::sim::timing
