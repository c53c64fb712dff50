#include "sim/timing_liveness.h"

#include <cstddef>
#include <utility>

namespace warpscope::sim::timing {

namespace {

void setBit(std::vector<std::uint64_t>& bits, std::int32_t reg)
{
    if (reg >= 0 && static_cast<std::size_t>(reg) / 64 < bits.size())
        bits[static_cast<std::size_t>(reg) / 64] |= std::uint64_t{1} << (reg % 64);
}

void clearBit(std::vector<std::uint64_t>& bits, std::int32_t reg)
{
    if (reg >= 0 && static_cast<std::size_t>(reg) / 64 < bits.size())
        bits[static_cast<std::size_t>(reg) / 64] &= ~(std::uint64_t{1} << (reg % 64));
}

} // namespace

Liveness::Liveness(const ptx::Function& function, const std::vector<StaticInfo>& info)
    : m_function(function), m_info(info), m_words((function.registers.size() + 63) / 64)
{
    const std::size_t blocks = function.blocks.size();
    m_liveOut.assign(blocks, std::vector<std::uint64_t>(m_words, 0));
    std::vector<std::vector<std::uint64_t>> liveIn(blocks, std::vector<std::uint64_t>(m_words, 0));
    // Iterate to the fixed point, last block first (most edges go forward).
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t b = blocks; b-- > 0;) {
            const ptx::BasicBlock& block = function.blocks[b];
            std::vector<std::uint64_t> live(m_words, 0);
            for (std::int32_t next : block.successors)
                if (next >= 0 && static_cast<std::size_t>(next) < blocks)
                    for (std::size_t w = 0; w < m_words; ++w)
                        live[w] |= liveIn[static_cast<std::size_t>(next)][w];
            m_liveOut[b] = live;
            for (std::int32_t pc = block.last; pc-- > block.first;)
                transfer(pc, live);
            if (live != liveIn[b]) {
                liveIn[b] = std::move(live);
                changed = true;
            }
        }
    }
}

void Liveness::transfer(std::int32_t pc, std::vector<std::uint64_t>& live) const
{
    const StaticInfo& s = m_info[static_cast<std::size_t>(pc)];
    // A guarded write may not happen, so it does not end the old value's life.
    if (m_function.instructions[static_cast<std::size_t>(pc)].guard < 0)
        for (int d = 0; d < s.destinationCount; ++d)
            clearBit(live, s.destinations[d]);
    for (int k = 0; k < s.sourceCount; ++k)
        setBit(live, s.sources[k]);
}

std::vector<std::uint64_t> Liveness::liveAfter(std::int32_t pc) const
{
    if (pc < 0 || static_cast<std::size_t>(pc) >= m_function.blockOfInstruction.size())
        return std::vector<std::uint64_t>(m_words, 0);
    const auto b = static_cast<std::size_t>(m_function.blockOfInstruction[static_cast<std::size_t>(pc)]);
    std::vector<std::uint64_t> live = m_liveOut[b];
    for (std::int32_t at = m_function.blocks[b].last; at-- > pc + 1;)
        transfer(at, live);
    return live;
}

} // namespace warpscope::sim::timing
