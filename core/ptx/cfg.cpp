// Basic blocks and immediate post-dominators. Post-dominator sets are computed by the iterative
// data-flow method over bitsets (kernels have at most a few hundred blocks), with a virtual exit
// node that every ret/exit block feeds. A block that cannot reach the exit (an endless loop) gets
// the virtual exit as its post-dominator, so a warp diverging there reconverges only at the end.
#include "ptx/cfg.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace warpscope::ptx {

namespace {

bool endsBlock(const Instruction& instruction)
{
    return instruction.op == Op::Bra || instruction.op == Op::Ret || instruction.op == Op::Exit;
}

using Bits = std::vector<std::uint64_t>;

bool test(const Bits& bits, std::size_t i) { return (bits[i / 64] >> (i % 64)) & 1u; }
void set(Bits& bits, std::size_t i) { bits[i / 64] |= std::uint64_t{1} << (i % 64); }
std::size_t count(const Bits& bits)
{
    std::size_t total = 0;
    for (std::uint64_t word : bits)
        total += static_cast<std::size_t>(__builtin_popcountll(word));
    return total;
}

// Which nodes reach the exit node (index `nodes`) along `successors`.
std::vector<bool> reachesExit(std::int32_t nodes, const std::vector<std::vector<std::int32_t>>& successors)
{
    std::vector<std::vector<std::int32_t>> predecessors(nodes + 1);
    for (std::int32_t b = 0; b < nodes; ++b)
        for (std::int32_t s : successors[b])
            predecessors[s].push_back(b);
    std::vector<bool> reaches(nodes + 1, false);
    std::vector<std::int32_t> work{nodes};
    reaches[nodes] = true;
    while (!work.empty()) {
        const std::int32_t node = work.back();
        work.pop_back();
        for (std::int32_t p : predecessors[node])
            if (!reaches[p]) {
                reaches[p] = true;
                work.push_back(p);
            }
    }
    return reaches;
}

// Immediate post-dominators (-1 = the virtual exit, also for nodes that never reach it):
// pdom(exit) = {exit}; pdom(b) = {b} u the intersection of pdom(s) over successors reaching the exit;
// the immediate one is the strict post-dominator with the most post-dominators.
std::vector<std::int32_t> immediatePostDominators(std::int32_t nodes, const std::vector<std::vector<std::int32_t>>& successors)
{
    const std::vector<bool> reaches = reachesExit(nodes, successors);
    const std::int32_t exitNode = nodes;
    const std::size_t words = (static_cast<std::size_t>(nodes) + 1 + 63) / 64;
    Bits all(words, 0);
    for (std::int32_t i = 0; i <= nodes; ++i)
        set(all, static_cast<std::size_t>(i));
    std::vector<Bits> pdom(nodes + 1, all);
    pdom[exitNode] = Bits(words, 0);
    set(pdom[exitNode], static_cast<std::size_t>(exitNode));
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::int32_t b = nodes - 1; b >= 0; --b) {
            if (!reaches[b])
                continue;
            Bits next = all;
            for (std::int32_t s : successors[b]) {
                if (!reaches[s])
                    continue;
                for (std::size_t w = 0; w < words; ++w)
                    next[w] &= pdom[s][w];
            }
            set(next, static_cast<std::size_t>(b));
            if (next != pdom[b]) {
                pdom[b] = std::move(next);
                changed = true;
            }
        }
    }
    std::vector<std::int32_t> result(nodes, -1);
    for (std::int32_t b = 0; b < nodes; ++b) {
        if (!reaches[b])
            continue;
        const std::size_t wanted = count(pdom[b]) - 1;
        for (std::int32_t d = 0; d < nodes; ++d) {
            if (d == b || !test(pdom[b], static_cast<std::size_t>(d)))
                continue;
            if (count(pdom[d]) == wanted) {
                result[b] = d;
                break;
            }
        }
    }
    return result;
}

} // namespace

void buildControlFlow(Function& function)
{
    const auto instructionCount = static_cast<std::int32_t>(function.instructions.size());
    function.blocks.clear();
    function.blockOfInstruction.assign(function.instructions.size(), -1);
    if (instructionCount == 0)
        return;

    std::vector<bool> leader(function.instructions.size() + 1, false);
    leader[0] = true;
    for (std::int32_t i = 0; i < instructionCount; ++i) {
        const Instruction& instruction = function.instructions[i];
        if (endsBlock(instruction))
            leader[i + 1] = true;
        if (instruction.op == Op::Bra)
            leader[instruction.operands[0].target] = true;
    }
    for (const auto& [name, index] : function.labels)
        if (index < instructionCount)
            leader[index] = true;

    for (std::int32_t i = 0; i < instructionCount; ++i) {
        if (leader[i]) {
            BasicBlock block;
            block.first = i;
            function.blocks.push_back(block);
        }
        function.blocks.back().last = i + 1;
        function.blockOfInstruction[i] = static_cast<std::int32_t>(function.blocks.size() - 1);
    }
    for (const auto& [name, index] : function.labels)
        if (index < instructionCount && function.blocks[function.blockOfInstruction[index]].label.empty())
            function.blocks[function.blockOfInstruction[index]].label = name;

    const auto blockCount = static_cast<std::int32_t>(function.blocks.size());
    const std::int32_t exitNode = blockCount; // the virtual exit
    std::vector<std::vector<std::int32_t>> successors(blockCount + 1);
    for (std::int32_t b = 0; b < blockCount; ++b) {
        BasicBlock& block = function.blocks[b];
        const Instruction& last = function.instructions[block.last - 1];
        auto link = [&](std::int32_t to) {
            if (std::find(block.successors.begin(), block.successors.end(), to) == block.successors.end())
                block.successors.push_back(to);
        };
        const bool fallsThrough = !endsBlock(last) || last.guard >= 0;
        if (last.op == Op::Bra) {
            Operand& target = function.instructions[block.last - 1].operands[0];
            target.target = function.blockOfInstruction[target.target];
            link(target.target);
        }
        bool reachesExit = last.op == Op::Ret || last.op == Op::Exit;
        if (fallsThrough) {
            if (b + 1 < blockCount)
                link(b + 1);
            else
                reachesExit = true; // running off the end behaves as ret
        }
        successors[b] = block.successors;
        if (reachesExit)
            successors[b].push_back(exitNode);
    }
    for (std::int32_t b = 0; b < blockCount; ++b)
        for (std::int32_t s : function.blocks[b].successors)
            function.blocks[s].predecessors.push_back(b);

    // Blocks that only leave (unguarded jumps to ret/exit): an early `return`.
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::int32_t b = blockCount - 1; b >= 0; --b) {
            BasicBlock& block = function.blocks[b];
            if (block.onlyLeaves)
                continue;
            bool leaves = true;
            for (std::int32_t i = block.first; i < block.last && leaves; ++i) {
                const Instruction& instruction = function.instructions[i];
                leaves = instruction.guard < 0 &&
                         (instruction.op == Op::Ret || instruction.op == Op::Exit || instruction.op == Op::Bra);
            }
            const Instruction& last = function.instructions[block.last - 1];
            if (leaves && (last.op != Op::Bra || function.blocks[last.operands[0].target].onlyLeaves)) {
                block.onlyLeaves = true;
                changed = true;
            }
        }
    }

    // 1. The classic immediate post-dominators, over every edge.
    const std::vector<std::int32_t> classic = immediatePostDominators(blockCount, successors);
    // 2. The reconvergence points: the same, leaving out a block's edges into early-return paths
    //    when it has another way on. A warp diverging at `if (x) return;` then reconverges right
    //    after it, not at the end of the kernel (the lanes that return are gone by then). An edge
    //    is kept where leaving it out would cut the block off from the exit (a loop's only way
    //    out), so this never invents an endless loop.
    std::vector<std::vector<std::int32_t>> pruned = successors;
    auto leavesEarly = [&](std::int32_t s) { return s == exitNode || function.blocks[s].onlyLeaves; };
    std::vector<bool> restored(blockCount, false);
    const std::vector<bool> reachedBefore = reachesExit(blockCount, successors);
    while (true) {
        for (std::int32_t b = 0; b < blockCount; ++b) {
            if (restored[b] || function.blocks[b].onlyLeaves)
                continue;
            bool anyStaying = false;
            for (std::int32_t s : successors[b])
                anyStaying = anyStaying || !leavesEarly(s);
            if (!anyStaying)
                continue;
            pruned[b].clear();
            for (std::int32_t s : successors[b])
                if (!leavesEarly(s))
                    pruned[b].push_back(s);
        }
        const std::vector<bool> reaches = reachesExit(blockCount, pruned);
        bool again = false;
        for (std::int32_t b = 0; b < blockCount; ++b)
            if (reachedBefore[b] && !reaches[b] && !restored[b] && pruned[b] != successors[b]) {
                restored[b] = true;
                pruned[b] = successors[b];
                again = true;
            }
        if (!again)
            break;
    }
    const std::vector<std::int32_t> reconvergence = immediatePostDominators(blockCount, pruned);
    for (std::int32_t b = 0; b < blockCount; ++b) {
        function.blocks[b].immediatePostDominator = classic[b];
        function.blocks[b].reconvergence = reconvergence[b];
    }
}

} // namespace warpscope::ptx
