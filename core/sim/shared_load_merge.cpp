#include "sim/shared_load_merge.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace warpscope::sim {

namespace {

using ptx::Op;

// A load ptxas may merge: a plain scalar 32-bit ld.shared from a base plus an immediate offset.
bool isCandidate(const ptx::Instruction& in)
{
    if (in.op != Op::Ld || in.space != ptx::Space::Shared || in.vectorWidth != 1 || in.guard >= 0 ||
        in.isVolatile || in.order != ptx::MemoryOrder::Weak || ptx::typeBits(in.type) != 32 || in.operandCount < 2)
        return false;
    const ptx::Operand& address = in.operands[1];
    return address.reg >= 0 || address.symbol >= 0;
}

// What ends every group: anything that may write memory or orders it, and calls.
bool endsAllGroups(const ptx::Instruction& in)
{
    switch (in.op) {
    case Op::St: case Op::Atom: case Op::Red: case Op::BarSync: case Op::BarWarpSync: case Op::MemBar:
    case Op::Call: case Op::Mbarrier: case Op::CpAsync: case Op::CpAsyncCommit: case Op::CpAsyncWait:
    case Op::CpAsyncMbarrierArrive: case Op::WmmaStore: case Op::Trap: case Op::Ret: case Op::Exit:
        return true;
    case Op::Ld:
        return in.isVolatile || in.order != ptx::MemoryOrder::Weak;
    default:
        return false;
    }
}

// The registers the instruction writes (operand 0 unless it is read, and a setp's second predicate).
template <typename Visit>
void forEachWrittenRegister(const ptx::Instruction& in, Visit visit)
{
    if (in.operandCount == 0 || ptx::firstOperandIsRead(in))
        return;
    const ptx::Operand& destination = in.operands[0];
    if (destination.kind == ptx::Operand::Kind::Vector) {
        for (std::int32_t reg : destination.vector)
            if (reg >= 0)
                visit(reg);
    } else if (destination.reg >= 0) {
        visit(destination.reg);
    }
    if (destination.pairReg >= 0)
        visit(destination.pairReg);
}

using BaseKey = std::pair<std::int32_t, std::int32_t>; // register, symbol
using OpenLoads = std::map<std::int64_t, std::int32_t>; // offset -> instruction index (block-relative)

// Marks the groups among one base's loads: 16-byte groups first, then 8-byte pairs of what is left.
void closeGroups(const OpenLoads& loads, std::vector<SharedLoadMerge>& plan)
{
    std::map<std::int64_t, bool> used;
    const auto mark = [&](std::int64_t start, std::uint32_t bytes) {
        std::int32_t leader = -1;
        for (std::int64_t offset = start; offset < start + bytes; offset += 4) {
            const std::int32_t index = loads.at(offset);
            leader = leader < 0 ? index : std::min(leader, index);
            used[offset] = true;
        }
        for (std::int64_t offset = start; offset < start + bytes; offset += 4) {
            SharedLoadMerge& merge = plan[static_cast<std::size_t>(loads.at(offset))];
            merge.bytes = bytes;
            merge.startOffset = start;
            merge.leader = loads.at(offset) == leader;
        }
    };
    const auto present = [&](std::int64_t start, std::uint32_t bytes) {
        for (std::int64_t offset = start; offset < start + bytes; offset += 4)
            if (!loads.contains(offset) || used.contains(offset))
                return false;
        return true;
    };
    for (const auto& [offset, index] : loads)
        if (offset % 16 == 0 && present(offset, 16))
            mark(offset, 16);
    for (const auto& [offset, index] : loads)
        if (offset % 8 == 0 && present(offset, 8))
            mark(offset, 8);
}

// The plan of one basic block, indexed from its first instruction.
std::vector<SharedLoadMerge> planBlock(const ptx::Function& function, const ptx::BasicBlock& block)
{
    std::vector<SharedLoadMerge> plan(static_cast<std::size_t>(block.last - block.first));
    std::map<BaseKey, OpenLoads> open;
    const auto closeAll = [&] {
        for (const auto& [key, loads] : open)
            closeGroups(loads, plan);
        open.clear();
    };
    for (std::int32_t i = block.first; i < block.last; ++i) {
        const ptx::Instruction& in = function.instructions[static_cast<std::size_t>(i)];
        if (endsAllGroups(in)) {
            closeAll();
            continue;
        }
        if (isCandidate(in)) {
            const ptx::Operand& address = in.operands[1];
            const BaseKey key{address.reg, address.symbol};
            OpenLoads& loads = open[key];
            if (loads.contains(address.offset)) { // the same word again: what came before is done
                closeGroups(loads, plan);
                loads.clear();
            }
            if (address.offset % 4 == 0)
                loads[address.offset] = i - block.first;
        }
        // A base register written here: its loads before and after are not one group.
        forEachWrittenRegister(in, [&](std::int32_t reg) {
            for (auto it = open.begin(); it != open.end();) {
                if (it->first.first == reg) {
                    closeGroups(it->second, plan);
                    it = open.erase(it);
                } else {
                    ++it;
                }
            }
        });
    }
    closeAll();
    return plan;
}

struct RememberedBlock {
    const ptx::Instruction* instructions = nullptr; // identifies the function's instruction list
    std::size_t instructionCount = 0;
    std::int32_t first = -1, last = -1;
    std::int32_t firstLine = 0, lastLine = 0;       // the PTX lines it starts and ends at
    std::vector<SharedLoadMerge> plan;
};

} // namespace

namespace {

// The basic block instruction `index` is in, or null for an index or block out of range.
const ptx::BasicBlock* blockOf(const ptx::Function& function, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= function.blockOfInstruction.size())
        return nullptr;
    const std::int32_t blockIndex = function.blockOfInstruction[static_cast<std::size_t>(index)];
    if (blockIndex < 0 || static_cast<std::size_t>(blockIndex) >= function.blocks.size())
        return nullptr;
    return &function.blocks[static_cast<std::size_t>(blockIndex)];
}

} // namespace

SharedLoadMerge sharedLoadMerge(const ptx::Function& function, std::int32_t index)
{
    const ptx::BasicBlock* block = blockOf(function, index);
    if (!block)
        return {};
    return planBlock(function, *block)[static_cast<std::size_t>(index - block->first)];
}

SharedLoadMerge cachedSharedLoadMerge(const ptx::Function& function, std::int32_t index)
{
    const ptx::BasicBlock* found = blockOf(function, index);
    if (!found)
        return {};
    const ptx::BasicBlock& block = *found;
    if (block.last <= block.first)
        return {};
    const auto lineOf = [&](std::int32_t i) { return function.instructions[static_cast<std::size_t>(i)].ptxLine; };
    // A few blocks per thread: a kernel's hot loop is one block, and a block that moved or changed
    // (another module in the same memory) differs in its list, bounds or PTX lines.
    thread_local std::array<RememberedBlock, 8> remembered;
    thread_local std::size_t next = 0;
    for (const RememberedBlock& entry : remembered)
        if (entry.instructions == function.instructions.data() && entry.instructionCount == function.instructions.size() &&
            entry.first == block.first && entry.last == block.last && entry.firstLine == lineOf(block.first) &&
            entry.lastLine == lineOf(block.last - 1))
            return entry.plan[static_cast<std::size_t>(index - block.first)];
    RememberedBlock& entry = remembered[next];
    next = (next + 1) % remembered.size();
    entry.instructions = function.instructions.data();
    entry.instructionCount = function.instructions.size();
    entry.first = block.first;
    entry.last = block.last;
    entry.firstLine = lineOf(block.first);
    entry.lastLine = lineOf(block.last - 1);
    entry.plan = planBlock(function, block);
    return entry.plan[static_cast<std::size_t>(index - block.first)];
}

} // namespace warpscope::sim
