// Which registers are still to be read after each instruction: backward liveness over the
// function's basic blocks, in the timing model's view of reads and writes. The schedule's register
// budget uses it to tell a value a later run reads from one that is dead once its run is done.
// Internal to core/sim/timing_model.cpp and its tests.
#pragma once

#include "ptx/ptx_ir.h"
#include "sim/timing_schedule.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpscope::sim::timing {

class Liveness {
public:
    Liveness(const ptx::Function& function, const std::vector<StaticInfo>& info);

    // The registers some path from just after instruction `pc` may read before writing them, one bit
    // per register.
    std::vector<std::uint64_t> liveAfter(std::int32_t pc) const;

private:
    void transfer(std::int32_t pc, std::vector<std::uint64_t>& live) const; // live after pc -> live before it

    const ptx::Function& m_function;
    const std::vector<StaticInfo>& m_info;
    std::size_t m_words = 0;
    std::vector<std::vector<std::uint64_t>> m_liveOut; // per basic block: live at its end
};

} // namespace warpscope::sim::timing
