// Basic blocks and immediate post-dominators. Post-dominator sets are computed by the iterative
// data-flow method over bitsets (kernels have at most a few hundred blocks), with a virtual exit
// node that every ret/exit block feeds. A block that cannot reach the exit (an endless loop) gets
// the virtual exit as its post-dominator, so a warp diverging there reconverges only at the end.
#include "ptx/cfg.h"

#include <algorithm>
#include <cstdint>
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

    // Which blocks reach the exit at all.
    std::vector<std::vector<std::int32_t>> predecessors(blockCount + 1);
    for (std::int32_t b = 0; b < blockCount; ++b)
        for (std::int32_t s : successors[b])
            predecessors[s].push_back(b);
    std::vector<bool> reaches(blockCount + 1, false);
    std::vector<std::int32_t> work{exitNode};
    reaches[exitNode] = true;
    while (!work.empty()) {
        const std::int32_t node = work.back();
        work.pop_back();
        for (std::int32_t p : predecessors[node])
            if (!reaches[p]) {
                reaches[p] = true;
                work.push_back(p);
            }
    }

    // pdom(exit) = {exit}; pdom(b) = {b} ∪ ⋂ pdom(s) over successors that reach the exit.
    const std::size_t words = (static_cast<std::size_t>(blockCount) + 1 + 63) / 64;
    Bits all(words, 0);
    for (std::int32_t i = 0; i <= blockCount; ++i)
        set(all, static_cast<std::size_t>(i));
    std::vector<Bits> pdom(blockCount + 1, all);
    pdom[exitNode] = Bits(words, 0);
    set(pdom[exitNode], static_cast<std::size_t>(exitNode));
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::int32_t b = blockCount - 1; b >= 0; --b) {
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
    // The immediate post-dominator is the strict post-dominator with the most post-dominators.
    for (std::int32_t b = 0; b < blockCount; ++b) {
        BasicBlock& block = function.blocks[b];
        block.immediatePostDominator = -1;
        if (!reaches[b])
            continue;
        const std::size_t wanted = count(pdom[b]) - 1;
        for (std::int32_t d = 0; d < blockCount; ++d) {
            if (d == b || !test(pdom[b], static_cast<std::size_t>(d)))
                continue;
            if (count(pdom[d]) == wanted) {
                block.immediatePostDominator = d;
                break;
            }
        }
    }
}

} // namespace warpscope::ptx
