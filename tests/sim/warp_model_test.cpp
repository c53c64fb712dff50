// The two warp models (core/sim/its_scheduler.h): a spin lock inside a warp completes under
// independent thread scheduling and is a livelock under the reconvergence stack; groups of lanes meet
// at __syncwarp and shuffles; the warp-synchronous reduction is a race in both; and every demo
// kernel gives the same results and counters in both models. Expectations are worked out by hand
// from the PTX the kernels compile to.
#include "sim_test_support.h"

#include "demo_kernels.h"
#include "kernel_target.h"
#include "sim/its_scheduler.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

sim::SimOptions withModel(sim::WarpModel model)
{
    sim::SimOptions options;
    options.warpModel = model;
    return options;
}

sim::SimResult runDemo(const std::string& id, sim::WarpModel model, const std::vector<std::string>& args = {},
                       std::int64_t recordBlock = -1)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
    EXPECT_NE(demo, nullptr) << id;
    kernels::LaunchOverrides overrides;
    for (const std::string& arg : args)
        overrides.args.push_back(sim::parseArgSpec(arg));
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, overrides, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    request.options.warpModel = model;
    request.options.recordBlock = recordBlock;
    return sim::simulate(request);
}

std::vector<sim::Hazard> hazardsOf(const sim::SimResult& result, sim::HazardKind kind)
{
    std::vector<sim::Hazard> found;
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == kind)
            found.push_back(hazard);
    return found;
}

std::int32_t pcOf(const ptx::Function& function, ptx::Op op, int nth = 0)
{
    for (std::size_t pc = 0; pc < function.instructions.size(); ++pc)
        if (function.instructions[pc].op == op && nth-- == 0)
            return static_cast<std::int32_t>(pc);
    return -1;
}

const ptx::Function& demoFunction(const std::string& id)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
    return *kernels::demoModule(*demo).findFunction(demo->entry);
}

} // namespace

// 64 threads in two warps each add i + 1 under the lock: 64 x 65 / 2 = 2,080, and the lock is free.
TEST(WarpModel, SpinLockInsideAWarpCompletesWithIndependentThreadScheduling)
{
    const sim::SimResult result = runDemo("warp_spin_lock", sim::WarpModel::IndependentThreads);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << (result.hazards.empty() ? "" : result.hazards.front().message);
    EXPECT_EQ(bufferValues<std::int32_t>(result, "total"), std::vector<std::int32_t>{2080});
    EXPECT_EQ(bufferValues<std::int32_t>(result, "lock"), std::vector<std::int32_t>{0});
}

// Warp 0 runs first and lanes apply an atomic in lane order, so lane 0 wins the lock; lanes 1-31 loop
// while lane 0 waits at the critical section, where they would rejoin it. Warp 1 loops whole: the lock
// is never free. Nothing reaches the critical section, so the total stays 0.
TEST(WarpModel, SpinLockInsideAWarpIsALivelockUnderTheReconvergenceStack)
{
    const sim::SimResult result = runDemo("warp_spin_lock", sim::WarpModel::ReconvergenceStack);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage; // stopped, not run to the budget
    ASSERT_EQ(result.hazards.size(), 1u);
    const sim::Hazard& livelock = result.hazards.front();
    EXPECT_EQ(livelock.kind, sim::HazardKind::WarpLivelock);
    EXPECT_EQ(livelock.warp, 0);
    EXPECT_EQ(livelock.lane, 1);
    EXPECT_EQ(livelock.lanes, 0xfffffffeu);
    EXPECT_EQ(livelock.otherLanes, 0x1u);
    const ptx::Function& function = demoFunction("warp_spin_lock");
    // Reported at the loop's next instruction: the first of the loop, the block of the atom.cas.
    EXPECT_EQ(function.blockOfInstruction[static_cast<std::size_t>(livelock.pc)],
              function.blockOfInstruction[static_cast<std::size_t>(pcOf(function, ptx::Op::Atom))]);
    EXPECT_NE(livelock.message.find("lanes 1-31 of warp 0 spin in this loop"), std::string::npos) << livelock.message;
    EXPECT_NE(livelock.message.find("lane 0 of the same warp, which could change it, waits at warp_scheduling.cu:18"),
              std::string::npos)
        << livelock.message;
    EXPECT_NE(livelock.message.find("--warp-model its"), std::string::npos) << livelock.message;
    EXPECT_EQ(bufferValues<std::int32_t>(result, "total"), std::vector<std::int32_t>{0});
}

// n = 32 (the block stays 64), counted by hand from the PTX: 11 instructions before the loop, a loop
// iteration of 5 (mov, mov, atom.cas, setp, bra), a critical section of 7 (ld, add, add, st, membar,
// atom.exch, ret). In warp 0, lane k wins the iteration in which it is the lowest lane left; the
// others loop once more, the same registers come back, and they are set aside, so lane k runs its
// section: 5 + 5 + 7 for lanes 0-30. Lane 31 is alone when it wins: 5 + 7. 11 + 31 x 17 + 12 = 550.
// Warp 1's threads are past n: 10 instructions to the branch, then ret: 11. 561 in all.
TEST(WarpModel, IndependentSchedulingHandsTheLockOnLaneByLane)
{
    const sim::SimResult result =
        runDemo("warp_spin_lock", sim::WarpModel::IndependentThreads, {"n=i32:32"}, 0);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(result.stats.warpInstructions, 561u);
    EXPECT_EQ(bufferValues<std::int32_t>(result, "total"), std::vector<std::int32_t>{32 * 33 / 2});

    // The recording carries each lane's pc and the scheduled group at every step.
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    ASSERT_EQ(recording.lanePcs.size(), recording.steps.size());
    ASSERT_EQ(recording.steps.size(), 561u);
    // Warp 0 issues steps 0-31 (its first turn of 32), so the first hand-over is in it.
    const ptx::Function& function = demoFunction("warp_spin_lock");
    const std::int32_t loopHead = pcOf(function, ptx::Op::Atom) - 2;           // mov, mov, atom.cas
    const std::int32_t section = pcOf(function, ptx::Op::Ld, 3);               // after the three ld.param
    const std::int32_t loopBranch = pcOf(function, ptx::Op::Bra, 1);
    ASSERT_EQ(function.instructions[static_cast<std::size_t>(section)].space, ptx::Space::Global);
    // Step 20 is the loop branch's second time (11 + 5 + 4): lanes 1-31 spun, so they are set aside.
    const sim::RecordedStep& spin = recording.steps[20];
    EXPECT_EQ(spin.pc, loopBranch);
    EXPECT_EQ(spin.activeMask, 0xfffffffeu);
    const sim::RecordedLanePcs& after = recording.lanePcs[20];
    EXPECT_EQ(after.group, 0xffffffffu); // the group that ran held lane 0 too, waiting on its stack
    EXPECT_EQ(after.groups, 2u);
    EXPECT_EQ(after.pc[0], section);
    for (std::size_t lane = 1; lane < 32; ++lane)
        EXPECT_EQ(after.pc[lane], loopHead) << lane;
    // Then lane 0 alone runs its critical section.
    EXPECT_EQ(recording.steps[21].pc, section);
    EXPECT_EQ(recording.steps[21].activeMask, 0x1u);
    EXPECT_EQ(recording.lanePcs[21].group, 0x1u);
    // After its ret (step 27) lane 0 has exited and one group is left.
    EXPECT_EQ(recording.lanePcs[27].pc[0], -1);
    EXPECT_EQ(recording.lanePcs[27].groups, 1u);
    EXPECT_EQ(recording.lanePcs[28].group, 0xfffffffeu);

    // What the stepper shows at a position: before warp 0's first step every thread is at pc 0 in one
    // group that runs whole; before step 21, lane 0 at the section runs next, alone, of two groups.
    const std::optional<sim::LaneSchedule> start = sim::laneScheduleAt(recording, 0, 0);
    ASSERT_TRUE(start);
    EXPECT_EQ(start->pc, (std::array<std::int32_t, 32>{}));
    EXPECT_EQ(start->groups, 1u);
    EXPECT_EQ(start->nextGroup, 0xffffffffu);
    const std::optional<sim::LaneSchedule> handOver = sim::laneScheduleAt(recording, 21, 0);
    ASSERT_TRUE(handOver);
    EXPECT_EQ(handOver->pc, after.pc);
    EXPECT_EQ(handOver->groups, 2u);
    EXPECT_EQ(handOver->nextGroup, 0x1u);
    // Warp 1 (threads past n) starts at position 32, after warp 0's first turn, and returns.
    EXPECT_EQ(sim::laneScheduleAt(recording, 32, 1)->pc[5], 0);
    EXPECT_EQ(sim::laneScheduleAt(recording, recording.steps.size(), 1)->pc[5], -1);
    EXPECT_EQ(sim::laneScheduleAt(recording, recording.steps.size(), 1)->nextGroup, 0u);

    // The stack model records no lane pcs.
    const sim::SimResult stack =
        runDemo("warp_spin_lock", sim::WarpModel::ReconvergenceStack, {"n=i32:32"}, 0);
    ASSERT_TRUE(stack.recording);
    EXPECT_TRUE(stack.recording->lanePcs.empty());
    EXPECT_FALSE(sim::laneScheduleAt(*stack.recording, 0, 0));
}

// After the lock, __syncwarp and a shuffle: the groups wait for each other at the __syncwarp, merge
// (they are at the same place), and each warp issues it and the shuffle once, with all 32 lanes.
TEST(WarpModel, GroupsMeetAtSyncwarpAndShuffleTogether)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void lock_then_shuffle(int* lock, int* total, int* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0) { }
    volatile int* sum = total;
    *sum = *sum + i + 1;
    __threadfence();
    atomicExch(lock, 0);
    __syncwarp();
    out[i] = __shfl_sync(0xffffffffu, i, 0) + 1000 * __shfl_sync(0xffffffffu, i, 31);
}
)",
                                                "lock_then_shuffle");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"lock=i32[1]", "total=i32[1]", "out=i32[64]"}, 0,
                                                 withModel(sim::WarpModel::IndependentThreads));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << (result.hazards.empty() ? "" : result.hazards.front().message);
    EXPECT_EQ(bufferValues<std::int32_t>(result, "total"), std::vector<std::int32_t>{64 * 65 / 2});
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t i = 0; i < 64; ++i)
        EXPECT_EQ(out[i], i < 32 ? 0 + 1000 * 31 : 32 + 1000 * 63) << i;
    const ptx::Function& function = *kernel.function;
    EXPECT_EQ(countersOf(result, function, ptx::Op::BarWarpSync).warpExecutions, 2u); // once per warp
    EXPECT_EQ(countersOf(result, function, ptx::Op::BarWarpSync).threadExecutions, 64u);
    EXPECT_EQ(countersOf(result, function, ptx::Op::Shfl).warpExecutions, 4u); // two shuffles per warp
    EXPECT_EQ(countersOf(result, function, ptx::Op::Shfl).threadExecutions, 128u);

    const sim::SimResult stack = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"lock=i32[1]", "total=i32[1]", "out=i32[64]"}, 0,
                                                withModel(sim::WarpModel::ReconvergenceStack));
    EXPECT_EQ(hazardsOf(stack, sim::HazardKind::WarpLivelock).size(), 1u);
}

// A hand-off inside a warp: lane 0 waits for a flag that lane 1 sets after writing the data. The PTX
// branches to lane 1's side (`@%p1 bra` on lane == 1) and falls through to the other lanes', so the
// stack runs lane 0's loop first, which never ends while lane 1 waits its turn on the stack: a
// livelock. Under ITS lane 0 is set aside, lane 1 writes, and lane 0 reads 42.
TEST(WarpModel, HandOffFromALaterPathCompletesOnlyWithIndependentScheduling)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void hand_off(volatile int* flag, volatile int* data, int* out)
{
    const int lane = threadIdx.x % 32;
    if (lane == 1) {
        *data = 42;
        __threadfence();
        *flag = 1;
    } else if (lane == 0) {
        while (*flag == 0) { }
        out[0] = *data;
    }
}
)",
                                                "hand_off");
    const std::vector<std::string> args = {"flag=i32[1]", "data=i32[1]", "out=i32[1]"};
    const sim::SimResult its =
        simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, args, 0, withModel(sim::WarpModel::IndependentThreads));
    ASSERT_EQ(its.status, sim::SimStatus::Completed) << its.statusMessage;
    EXPECT_TRUE(its.hazards.empty()) << (its.hazards.empty() ? "" : its.hazards.front().message);
    EXPECT_EQ(bufferValues<std::int32_t>(its, "out"), std::vector<std::int32_t>{42});

    const sim::SimResult stack =
        simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, args, 0, withModel(sim::WarpModel::ReconvergenceStack));
    const std::vector<sim::Hazard> livelocks = hazardsOf(stack, sim::HazardKind::WarpLivelock);
    ASSERT_EQ(livelocks.size(), 1u);
    // Lanes 2-31 jump to the ret block, an early return (cfg.cpp): they return before lane 0 goes on.
    EXPECT_EQ(livelocks.front().lanes, 0x1u);
    EXPECT_EQ(livelocks.front().otherLanes, 0x2u);
    EXPECT_NE(livelocks.front().message.find("lane 0 of warp 0 spins in this loop and nothing it reads changes"), std::string::npos) << livelocks.front().message;
    // Line 6 of the source is lane 1's `*data = 42;`.
    EXPECT_NE(livelocks.front().message.find("lane 1 of the same warp, which could change it, waits at test.cu:6 until the "
                                             "spinning path is done"),
              std::string::npos)
        << livelocks.front().message;
    EXPECT_EQ(bufferValues<std::int32_t>(stack, "out"), std::vector<std::int32_t>{0});
}

// After the lock, __syncthreads(): each warp's groups wait for each other at the barrier and arrive
// as one (bar.sync issued once per warp, with all 32 lanes), and every thread then reads the total.
TEST(WarpModel, GroupsArriveAtSyncthreadsAsOneWarp)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void lock_then_barrier(int* lock, int* total, int* seen)
{
    const int i = threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0) { }
    volatile int* sum = total;
    *sum = *sum + i + 1;
    __threadfence();
    atomicExch(lock, 0);
    __syncthreads();
    seen[i] = *sum;
}
)",
                                                "lock_then_barrier");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"lock=i32[1]", "total=i32[1]", "seen=i32[64]"}, 0,
                                                 withModel(sim::WarpModel::IndependentThreads));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << (result.hazards.empty() ? "" : result.hazards.front().message);
    EXPECT_EQ(bufferValues<std::int32_t>(result, "seen"), std::vector<std::int32_t>(64, 2080));
    EXPECT_EQ(result.stats.barriers, 1u);
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::BarSync).warpExecutions, 2u);
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::BarSync).threadExecutions, 64u);
}

// The last warp without __syncwarp: one lane's store and another lane's load of the next step race,
// whichever model runs it (any interleaving is allowed since Volta); the sums still equal the gold
// reference, as the lanes run together here. With __syncwarp (reduce_unroll_last_warp): no hazard.
TEST(WarpModel, WarpSynchronousReductionIsARaceAndTheSyncwarpVersionIsNot)
{
    for (const sim::WarpModel model : {sim::WarpModel::ReconvergenceStack, sim::WarpModel::IndependentThreads}) {
        const sim::SimResult racy = runDemo("reduce_warp_synchronous", model);
        ASSERT_EQ(racy.status, sim::SimStatus::Completed);
        const std::vector<sim::Hazard> races = hazardsOf(racy, sim::HazardKind::SharedRace);
        ASSERT_FALSE(races.empty());
        EXPECT_EQ(races.size(), racy.hazards.size());
        for (const sim::Hazard& race : races) {
            EXPECT_EQ(race.warp, 0);
            EXPECT_EQ(race.otherThread / 32, 0) << race.message; // the other access: a lane of the same warp
        }
        const kernels::DemoKernel* demo = kernels::findDemoKernel("reduce_warp_synchronous");
        const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
        EXPECT_TRUE(kernels::compareWithGold(*demo, launch, racy.args).matches);

        const sim::SimResult safe = runDemo("reduce_unroll_last_warp", model);
        EXPECT_TRUE(safe.hazards.empty()) << (safe.hazards.empty() ? "" : safe.hazards.front().message);
    }
}

// Race-free code runs alike in both models: every demo kernel's outputs, per-instruction counters,
// memory statistics, hazards and timing-model cycles. (The spin lock is the exception by design.)
TEST(WarpModel, EveryDemoKernelGivesTheSameResultsAndCountersInBothModels)
{
    int compared = 0;
    for (const kernels::DemoKernel& demo : kernels::demoKernels()) {
        const std::set<std::string> expected(demo.expectHazards.begin(), demo.expectHazards.end());
        if (expected.count("warp_livelock"))
            continue; // warp_spin_lock: tested above
        const sim::SimResult stack = runDemo(demo.id, sim::WarpModel::ReconvergenceStack);
        const sim::SimResult its = runDemo(demo.id, sim::WarpModel::IndependentThreads);
        ASSERT_EQ(stack.status, sim::SimStatus::Completed) << demo.id;
        ASSERT_EQ(its.status, sim::SimStatus::Completed) << demo.id;
        ASSERT_EQ(stack.args.size(), its.args.size());
        for (std::size_t a = 0; a < stack.args.size(); ++a)
            EXPECT_EQ(stack.args[a].bytes, its.args[a].bytes) << demo.id << " " << stack.args[a].name;
        ASSERT_EQ(stack.stats.perInstruction.size(), its.stats.perInstruction.size());
        for (std::size_t pc = 0; pc < stack.stats.perInstruction.size(); ++pc) {
            const sim::InstructionCounters& s = stack.stats.perInstruction[pc];
            const sim::InstructionCounters& i = its.stats.perInstruction[pc];
            EXPECT_EQ(s.warpExecutions, i.warpExecutions) << demo.id << " pc " << pc;
            EXPECT_EQ(s.threadExecutions, i.threadExecutions) << demo.id << " pc " << pc;
            EXPECT_EQ(s.globalSectors, i.globalSectors) << demo.id << " pc " << pc;
            EXPECT_EQ(s.bytesMoved, i.bytesMoved) << demo.id << " pc " << pc;
            EXPECT_EQ(s.sharedWavefronts, i.sharedWavefronts) << demo.id << " pc " << pc;
            EXPECT_EQ(s.sharedBankConflicts, i.sharedBankConflicts) << demo.id << " pc " << pc;
            EXPECT_EQ(s.branchesUniform, i.branchesUniform) << demo.id << " pc " << pc;
            EXPECT_EQ(s.branchesDivergent, i.branchesDivergent) << demo.id << " pc " << pc;
        }
        EXPECT_EQ(stack.stats.warpInstructions, its.stats.warpInstructions) << demo.id;
        EXPECT_EQ(stack.stats.global.loadSectors, its.stats.global.loadSectors) << demo.id;
        EXPECT_EQ(stack.stats.global.storeSectors, its.stats.global.storeSectors) << demo.id;
        EXPECT_EQ(stack.stats.shared.bankConflicts, its.stats.shared.bankConflicts) << demo.id;
        EXPECT_EQ(stack.stats.barriers, its.stats.barriers) << demo.id;
        EXPECT_EQ(stack.stats.timing.available, its.stats.timing.available) << demo.id;
        EXPECT_EQ(stack.stats.timing.cycles, its.stats.timing.cycles) << demo.id;
        ASSERT_EQ(stack.hazards.size(), its.hazards.size()) << demo.id;
        for (std::size_t h = 0; h < stack.hazards.size(); ++h) {
            EXPECT_EQ(stack.hazards[h].kind, its.hazards[h].kind) << demo.id;
            EXPECT_EQ(stack.hazards[h].pc, its.hazards[h].pc) << demo.id;
            EXPECT_EQ(stack.hazards[h].occurrences, its.hazards[h].occurrences) << demo.id;
        }
        ++compared;
    }
    EXPECT_GE(compared, 35);
}
