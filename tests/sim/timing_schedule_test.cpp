// The timing model's stand-in for ptxas's schedule, against ptxas's own SASS for the demo kernels
// (ptxas -O3 for sm_90, CUDA 13, read with nvdisasm).
#include "demo_kernels.h"
#include "sim/timing_liveness.h"
#include "sim/timing_schedule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

struct Loop {
    std::vector<sim::timing::StaticInfo> info;
    std::vector<std::uint8_t> widths;
    std::vector<std::int32_t> pcs; // the loop body, kLoopUnroll copies: ptxas's unrolled loop
};

// The pcs of the first loop in `kernelId` (a block that branches back to itself), unrolled as the
// timing model unrolls it.
Loop firstLoop(const std::string& kernelId, const ptx::Function*& function)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(kernelId);
    EXPECT_NE(demo, nullptr);
    const ptx::Module& module = kernels::demoModule(*demo);
    function = nullptr;
    for (const ptx::Function& f : module.functions)
        if (f.name == kernelId)
            function = &f;
    EXPECT_NE(function, nullptr);
    Loop loop;
    for (const ptx::Instruction& in : function->instructions)
        loop.info.push_back(sim::timing::describe(in));
    loop.widths = sim::timing::registerWidths(*function);
    for (std::size_t b = 0; b < function->blocks.size(); ++b) {
        const ptx::BasicBlock& block = function->blocks[b];
        bool loops = false;
        for (std::int32_t next : block.successors)
            loops = loops || next == static_cast<std::int32_t>(b);
        if (!loops)
            continue;
        for (int copy = 0; copy < sim::timing::kLoopUnroll; ++copy)
            for (std::int32_t pc = block.first; pc < block.last; ++pc)
                loop.pcs.push_back(pc);
        break;
    }
    return loop;
}

// Loads the schedule issues before its first arithmetic that reads a loaded value: the loads in
// flight at once.
int loadsBeforeFirstUse(const Loop& loop, const std::vector<std::int32_t>& order)
{
    std::vector<char> loaded(loop.pcs.size(), 0);
    int loads = 0;
    for (std::int32_t position : order) {
        const sim::timing::StaticInfo& s = loop.info[static_cast<std::size_t>(loop.pcs[static_cast<std::size_t>(position)])];
        if (s.load) {
            ++loads;
            continue;
        }
        if (s.kind == sim::timing::TimingClass::Alu && s.destinationCount == 1 && loop.widths[static_cast<std::size_t>(s.destinations[0])] == 1 &&
            s.sourceCount >= 3)
            return loads; // the first fma
    }
    return loads;
}

} // namespace

TEST(TimingSchedule, TheRegisterBudgetKeepsMatmulNaivesLoadsInFlightToWhatFits)
{
    // ptxas gives matmul_naive 32 registers: R0..R29 (the count holds two more it reserves), R1 the
    // stack pointer, so 29 for values. Its 16-step SASS loop issues 17 of the 32 LDGs before the
    // first FFMA and the other 15 as the FFMAs free registers (nvdisasm of matmul.cu's cubin).
    const ptx::Function* function = nullptr;
    const Loop loop = firstLoop("matmul_naive", function);
    ASSERT_EQ(loop.pcs.size() % static_cast<std::size_t>(sim::timing::kLoopUnroll), 0u);
    ASSERT_FALSE(loop.pcs.empty());
    int loadCount = 0;
    for (std::int32_t pc : loop.pcs)
        loadCount += loop.info[static_cast<std::size_t>(pc)].load ? 1 : 0;
    EXPECT_EQ(loadCount, 32); // the PTX loop's 4 steps x 2 loads, 4 copies: ptxas's 16 steps

    const sim::timing::RunPlan unbounded = sim::timing::scheduleRun(loop.info, loop.pcs);
    EXPECT_EQ(loadsBeforeFirstUse(loop, unbounded.order), 32); // without a budget every load is hoisted

    const sim::timing::Liveness liveness(*function, loop.info);
    const std::vector<std::uint64_t> liveAfter = liveness.liveAfter(loop.pcs.back());
    const sim::timing::RunPlan bounded = sim::timing::scheduleRun(loop.info, loop.pcs, {29, &loop.widths, &liveAfter});
    const int inFlight = loadsBeforeFirstUse(loop, bounded.order);
    EXPECT_NEAR(inFlight, 17, 1); // 16: the model does not rename registers as cleverly as ptxas
    // Every position is scheduled once, and the dependences still hold.
    std::vector<char> seen(loop.pcs.size(), 0);
    for (std::int32_t position : bounded.order)
        seen[static_cast<std::size_t>(position)]++;
    for (char count : seen)
        EXPECT_EQ(count, 1);
}

TEST(TimingSchedule, LivenessKeepsWhatTheNextTripReadsAndDropsWhatItDoesNot)
{
    // matmul_naive's PTX loop (nvcc -O3 for sm_90) carries the sum %f29, the two pointers %rd30 and
    // %rd31 and the count %r27 into its next trip, reads the invariant strides %rd3 and %rd5, and
    // keeps %r29 for the tail loop after it. A product's loaded operand (%f12) is dead once read.
    const ptx::Function* function = nullptr;
    const Loop loop = firstLoop("matmul_naive", function);
    ASSERT_FALSE(loop.pcs.empty());
    const sim::timing::Liveness liveness(*function, loop.info);
    const std::vector<std::uint64_t> live = liveness.liveAfter(loop.pcs.back());
    auto isLive = [&](const std::string& name) {
        for (std::size_t r = 0; r < function->registers.size(); ++r)
            if (function->registers[r].name == name)
                return ((live[r / 64] >> (r % 64)) & 1) != 0;
        ADD_FAILURE() << "no register " << name;
        return false;
    };
    for (const char* name : {"%f29", "%rd30", "%rd31", "%r27", "%rd3", "%rd5", "%r29"})
        EXPECT_TRUE(isLive(name)) << name;
    for (const char* name : {"%f12", "%f13", "%rd21", "%p6"})
        EXPECT_FALSE(isLive(name)) << name;
}
