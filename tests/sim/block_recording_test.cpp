// The stepping recording (sim/block_recording.h): what the stepper shows at each step, against
// hand-worked values, and going backwards gives back exactly what going forwards showed.
#include "sim_test_support.h"

#include "demo_kernels.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

sim::SimResult recordBlock(const CompiledKernel& kernel, launch::Dim3 grid, launch::Dim3 block,
                           const std::vector<std::string>& args, std::int64_t linearBlock = 0)
{
    sim::SimOptions options;
    options.recordBlock = linearBlock;
    options.hostThreads = 1;
    return simulateKernel(kernel, grid, block, args, 0, options);
}

// The position of the first step (of any warp) whose instruction is `op` in `space`.
std::vector<std::size_t> stepsWith(const sim::BlockRecording& recording, const ptx::Function& function, ptx::Op op,
                                   ptx::Space space = ptx::Space::Generic)
{
    std::vector<std::size_t> found;
    for (std::size_t s = 0; s < recording.steps.size(); ++s) {
        const ptx::Instruction& in = function.instructions[static_cast<std::size_t>(recording.steps[s].pc)];
        if (in.op == op && (space == ptx::Space::Generic || in.space == space))
            found.push_back(s);
    }
    return found;
}

struct DemoRun {
    const kernels::DemoKernel* demo = nullptr;
    kernels::DemoLaunch launch;
    sim::SimResult result;
};

// A demo kernel with argument overrides, recording `linearBlock`.
DemoRun recordDemo(const std::string& id, const std::vector<std::string>& args, const std::string& grid,
                   const std::string& block, std::int64_t linearBlock = 0)
{
    DemoRun run;
    run.demo = kernels::findDemoKernel(id);
    if (!run.demo)
        throw std::runtime_error("no demo kernel " + id);
    std::vector<sim::ArgSpec> specs;
    for (const std::string& text : args)
        specs.push_back(sim::parseArgSpec(text));
    run.launch = kernels::resolveDemoLaunch(*run.demo, {specs, grid, block, {}}, 1 << 24);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*run.demo, run.launch, *gpu::findPreset("sm_90"));
    request.options.recordBlock = linearBlock;
    request.options.hostThreads = 1;
    run.result = sim::simulate(request);
    return run;
}

template <typename T>
std::vector<T> argValues(const std::vector<sim::ResolvedArg>& args, const std::string& name)
{
    for (const sim::ResolvedArg& arg : args)
        if (arg.name == name) {
            std::vector<T> values(arg.bytes.size() / sizeof(T));
            std::memcpy(values.data(), arg.bytes.data(), values.size() * sizeof(T));
            return values;
        }
    return {};
}

} // namespace

// divergence_odd_even, block 1 of 64-thread blocks: each warp takes one divergent branch, and the
// stack grows to three entries (the reconvergence entry with every lane, the odd and the even
// sides), then comes back to one. The loaded and stored registers hold in[i] and out[i].
TEST(BlockRecording, OddEvenDivergesAndReconvergesWithTheRightMasksAndValues)
{
    const DemoRun run = recordDemo("divergence_odd_even", {"n=i32:128"}, "2", "64", 1);
    const sim::SimResult& result = run.result;
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.recording);
    const ptx::Function& function = *kernels::demoModule(*run.demo).findFunction(run.demo->entry);
    const sim::BlockRecording& recording = *result.recording;
    EXPECT_EQ(recording.linearBlock, 1u);
    EXPECT_EQ(recording.warpCount, 2);
    EXPECT_FALSE(recording.truncated);
    EXPECT_EQ(recording.stepsOfWarp[0].size() + recording.stepsOfWarp[1].size(), recording.steps.size());
    EXPECT_EQ(recording.steps.size() * 2, result.stats.warpInstructions); // two blocks alike

    for (std::int32_t warp = 0; warp < 2; ++warp) {
        std::vector<std::size_t> diverged, reconverged;
        for (std::size_t s : recording.stepsOfWarp[static_cast<std::size_t>(warp)]) {
            if (recording.steps[s].has(sim::StepFlag::Diverged))
                diverged.push_back(s);
            if (recording.steps[s].has(sim::StepFlag::Reconverged))
                reconverged.push_back(s);
        }
        ASSERT_EQ(diverged.size(), 1u) << "warp " << warp;
        ASSERT_GE(reconverged.size(), 1u);

        sim::BlockReplay replay(result.recording, function.registers.size());
        replay.seek(diverged[0]);
        const sim::WarpSnapshot before = replay.warp(warp);
        ASSERT_EQ(before.stack.size(), 1u);
        EXPECT_EQ(before.stack[0].mask, 0xffffffffu);
        EXPECT_EQ(function.instructions[static_cast<std::size_t>(before.pc)].op, ptx::Op::Bra);

        replay.seek(diverged[0] + 1);
        const sim::WarpSnapshot after = replay.warp(warp);
        ASSERT_EQ(after.stack.size(), 3u);
        EXPECT_EQ(after.stack[0].mask, 0xffffffffu);
        EXPECT_EQ(after.stack[1].reconvergePc, after.stack[0].pc); // both sides rejoin where the bottom entry waits
        EXPECT_EQ(after.stack[2].reconvergePc, after.stack[0].pc);
        const std::set<std::uint32_t> sides{after.stack[1].mask, after.stack[2].mask};
        EXPECT_EQ(sides, (std::set<std::uint32_t>{0xaaaaaaaau, 0x55555555u}));
        EXPECT_EQ(after.activeMask, after.stack[2].mask);

        replay.seek(reconverged.back() + 1);
        ASSERT_EQ(replay.warp(warp).stack.size(), 1u);
        EXPECT_EQ(replay.warp(warp).activeMask, 0xffffffffu);
    }

    // Each warp's global load and store: every lane's address, one request of four sectors, and the
    // registers hold the input and the final output of each lane's element.
    const auto in = argValues<std::uint32_t>(run.launch.args, "in");
    const auto out = argValues<std::uint32_t>(result.args, "out");
    ASSERT_EQ(in.size(), 128u);
    ASSERT_EQ(out.size(), 128u);
    sim::BlockReplay replay(result.recording, function.registers.size());
    for (ptx::Op op : {ptx::Op::Ld, ptx::Op::St}) {
        const auto found = stepsWith(recording, function, op, ptx::Space::Global);
        ASSERT_EQ(found.size(), 2u);
        for (std::size_t position : found) {
            const sim::RecordedStep& step = recording.steps[position];
            EXPECT_EQ(step.activeMask, 0xffffffffu);
            ASSERT_GE(step.access, 0);
            const sim::RecordedAccess& access = recording.accesses[static_cast<std::size_t>(step.access)];
            EXPECT_EQ(access.isStore, op == ptx::Op::St);
            EXPECT_EQ(access.laneMask, 0xffffffffu);
            EXPECT_EQ(access.requests, 1u);
            EXPECT_EQ(access.sectors, 4u);
            EXPECT_EQ(access.bytesRequested, 128u);
            EXPECT_EQ(access.bytesMoved, 128u);
            for (int lane = 1; lane < 32; ++lane)
                EXPECT_EQ(access.addresses[static_cast<std::size_t>(lane)], access.addresses[0] + 4u * static_cast<unsigned>(lane));
            const ptx::Instruction& instruction = function.instructions[static_cast<std::size_t>(step.pc)];
            const std::int32_t reg = op == ptx::Op::Ld ? instruction.operands[0].reg : instruction.operands[1].reg;
            ASSERT_GE(reg, 0);
            replay.seek(op == ptx::Op::Ld ? position + 1 : position);
            const std::uint64_t* values = replay.registers(static_cast<std::int32_t>(step.warp), reg);
            const auto& expected = op == ptx::Op::Ld ? in : out;
            for (std::size_t lane = 0; lane < 32; ++lane)
                EXPECT_EQ(static_cast<std::uint32_t>(values[lane]), expected[64 + step.warp * 32 + lane]) << "lane " << lane;
        }
    }

    replay.seek(recording.steps.size());
    for (std::int32_t warp = 0; warp < 2; ++warp) {
        EXPECT_EQ(replay.warp(warp).status, sim::WarpStatus::Exited);
        EXPECT_EQ(replay.warp(warp).exitedMask, 0xffffffffu);
    }
}

// Going back is free and exact: every position reached backwards shows the registers and stack it
// showed going forwards.
TEST(BlockRecording, SteppingBackwardsRestoresEveryRegisterAndStack)
{
    const DemoRun run = recordDemo("divergence_odd_even", {"n=i32:32"}, "1", "32");
    const sim::SimResult& result = run.result;
    ASSERT_TRUE(result.recording);
    const std::size_t registers = kernels::demoModule(*run.demo).findFunction(run.demo->entry)->registers.size();
    const std::size_t size = result.recording->steps.size();
    std::vector<std::vector<std::uint64_t>> forward(size + 1);
    std::vector<std::size_t> stackSizes(size + 1);
    sim::BlockReplay replay(result.recording, registers);
    for (std::size_t p = 0; p <= size; ++p) {
        replay.seek(p);
        for (std::size_t r = 0; r < registers; ++r) {
            const std::uint64_t* lanes = replay.registers(0, static_cast<std::int32_t>(r));
            forward[p].insert(forward[p].end(), lanes, lanes + 32);
        }
        stackSizes[p] = replay.warp(0).stack.size();
    }
    for (std::size_t p = size + 1; p-- > 0;) {
        replay.seek(p);
        std::vector<std::uint64_t> now;
        for (std::size_t r = 0; r < registers; ++r) {
            const std::uint64_t* lanes = replay.registers(0, static_cast<std::int32_t>(r));
            now.insert(now.end(), lanes, lanes + 32);
        }
        ASSERT_EQ(now, forward[p]) << "position " << p;
        EXPECT_EQ(replay.warp(0).stack.size(), stackSizes[p]);
    }
    // Before the first instruction, every register is zero.
    EXPECT_TRUE(std::all_of(forward[0].begin(), forward[0].end(), [](std::uint64_t v) { return v == 0; }));
}

// A 32x32 tile read by column: the recorded access is 32-way conflicted without padding (32
// wavefronts, 31 conflicts) and conflict-free with one word of padding.
TEST(BlockRecording, SharedAccessCarriesWavefrontsAndConflicts)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void column(float* out, int pad)
{
    __shared__ float tile[32 * 33];
    for (int r = 0; r < 32; ++r) tile[r * (32 + pad) + threadIdx.x] = r * 32 + threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = tile[threadIdx.x * (32 + pad)];
}
)", "column");
    for (int pad : {0, 1}) {
        const sim::SimResult result = recordBlock(kernel, {1, 1, 1}, {32, 1, 1}, {"out=f32[32]", "pad=i32:" + std::to_string(pad)});
        ASSERT_TRUE(result.recording);
        const auto loads = stepsWith(*result.recording, *kernel.function, ptx::Op::Ld, ptx::Space::Shared);
        ASSERT_EQ(loads.size(), 1u);
        const sim::RecordedStep& step = result.recording->steps[loads[0]];
        const sim::RecordedAccess& access = result.recording->accesses[static_cast<std::size_t>(step.access)];
        EXPECT_EQ(access.space, ptx::Space::Shared);
        EXPECT_EQ(access.wavefronts, pad ? 1u : 32u) << "pad " << pad;
        EXPECT_EQ(access.bankConflicts, pad ? 0u : 31u);
        EXPECT_EQ(access.conflictDegree, pad ? 1u : 32u);
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            EXPECT_EQ(access.addresses[lane], 4u * lane * (32u + static_cast<unsigned>(pad)));
    }
}

// A matrix instruction is several requests: the recorded access carries the first request's addresses
// and width and the whole instruction's wavefronts. In matmul_wmma, wmma.load.a reads A row-major, so
// each register's two halves (columns 2t, 2t + 1) are adjacent: 4 bytes per lane; wmma.load.b's two
// halves are rows 2t and 2t + 1 of B: 2 bytes per lane, one request each. Summed over block 0's
// steps, the recorded wavefronts are the launch's counters over its 16 identical blocks.
TEST(BlockRecording, MatrixLoadsCarryTheWholeInstructionsWavefronts)
{
    const DemoRun run = recordDemo("matmul_wmma", {"n=i32:128"}, "cdiv(n,32),cdiv(n,32)", "128");
    ASSERT_EQ(run.result.status, sim::SimStatus::Completed) << run.result.statusMessage;
    ASSERT_TRUE(run.result.recording);
    const ptx::Function& function = *kernels::demoModule(*run.demo).findFunction("matmul_wmma");
    const sim::BlockRecording& recording = *run.result.recording;
    std::uint64_t recordedWavefronts = 0, recordedConflicts = 0;
    std::set<std::uint32_t> widths;
    for (const std::size_t s : stepsWith(recording, function, ptx::Op::WmmaLoad)) {
        const sim::RecordedStep& step = recording.steps[s];
        ASSERT_GE(step.access, 0);
        const sim::RecordedAccess& access = recording.accesses[static_cast<std::size_t>(step.access)];
        EXPECT_EQ(access.space, ptx::Space::Shared);
        EXPECT_EQ(access.laneMask, 0xffffffffu);
        const bool loadsA = function.instructions[static_cast<std::size_t>(step.pc)].fragment == ptx::MatrixFragment::A;
        EXPECT_EQ(access.bytesPerLane, loadsA ? 4u : 2u);
        widths.insert(access.bytesPerLane);
        recordedWavefronts += access.wavefronts;
        recordedConflicts += access.bankConflicts;
    }
    EXPECT_EQ(widths, (std::set<std::uint32_t>{2, 4}));
    std::uint64_t wavefronts = 0, conflicts = 0;
    for (std::size_t i = 0; i < function.instructions.size(); ++i)
        if (function.instructions[i].op == ptx::Op::WmmaLoad) {
            wavefronts += run.result.stats.perInstruction[i].sharedWavefronts;
            conflicts += run.result.stats.perInstruction[i].sharedBankConflicts;
        }
    EXPECT_GT(recordedWavefronts, 0u);
    EXPECT_EQ(recordedWavefronts * 16, wavefronts);
    EXPECT_EQ(recordedConflicts * 16, conflicts);
}

// Where the timing model served each sector, kept with the recorded access: two warps read the same
// 128 bytes, so the first warp's 4 sectors come from DRAM (cold caches) and the second warp finds
// them in L1; the 4-sector stores of both go to L2, never L1.
TEST(BlockRecording, GlobalAccessesSayWhichLevelServedTheirSectors)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void reread(const float* in, float* out)
{
    out[threadIdx.x] = in[threadIdx.x % 32];
}
)", "reread");
    const sim::SimResult result = recordBlock(kernel, {1, 1, 1}, {64, 1, 1}, {"in=f32[32]:iota", "out=f32[64]"});
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    const auto loads = stepsWith(recording, *kernel.function, ptx::Op::Ld, ptx::Space::Global);
    ASSERT_EQ(loads.size(), 2u);
    std::vector<const sim::RecordedAccess*> byWarp(2, nullptr);
    std::vector<std::uint64_t> cycle(2, 0);
    for (std::size_t position : loads) {
        const sim::RecordedStep& step = recording.steps[position];
        byWarp[step.warp] = &recording.accesses[static_cast<std::size_t>(step.access)];
        cycle[step.warp] = step.cycle;
    }
    const std::size_t first = cycle[0] <= cycle[1] ? 0 : 1; // the warp whose load the model issued first
    const sim::RecordedAccess& cold = *byWarp[first];
    const sim::RecordedAccess& warm = *byWarp[1 - first];
    ASSERT_TRUE(cold.timed && warm.timed);
    EXPECT_EQ(cold.sectors, 4u);
    EXPECT_EQ(cold.dramSectors, 4u);
    EXPECT_EQ(cold.dramMask, 0b1111u);
    EXPECT_EQ(cold.l1Sectors + cold.l2Sectors, 0u);
    EXPECT_EQ(warm.l1Sectors, 4u);
    EXPECT_EQ(warm.l2Mask | warm.dramMask, 0u);
    for (std::size_t position : stepsWith(recording, *kernel.function, ptx::Op::St, ptx::Space::Global)) {
        const sim::RecordedAccess& store = recording.accesses[static_cast<std::size_t>(recording.steps[position].access)];
        EXPECT_EQ(store.sectors, 4u);
        EXPECT_EQ(store.l2Sectors, 4u);
        EXPECT_EQ(store.l1Sectors + store.dramSectors, 0u);
    }
    // The launch's totals agree: 4 of 8 load sectors hit L1, the other 4 missed L2 too.
    EXPECT_EQ(result.stats.timing.l1Hits, 4u);
    EXPECT_EQ(result.stats.timing.l1Misses, 4u);
    EXPECT_EQ(result.stats.timing.l2Misses, 4u);
}

// Two warps and a barrier: a warp that has arrived waits until the other arrives, then both run on.
TEST(BlockRecording, WarpsWaitAtTheBarrierUntilItReleases)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void exchange(int* out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
)", "exchange");
    const sim::SimResult result = recordBlock(kernel, {1, 1, 1}, {64, 1, 1}, {"out=i32[64]"});
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    ASSERT_EQ(recording.warpCount, 2);
    ASSERT_EQ(recording.barrierReleases.size(), 1u);
    const auto barriers = stepsWith(recording, *kernel.function, ptx::Op::BarSync);
    ASSERT_EQ(barriers.size(), 2u); // one per warp
    const std::size_t first = barriers[0], second = barriers[1];
    const auto firstWarp = static_cast<std::int32_t>(recording.steps[first].warp);
    EXPECT_NE(recording.steps[first].warp, recording.steps[second].warp);
    EXPECT_EQ(recording.barrierReleases[0], second + 1);

    sim::BlockReplay replay(result.recording, kernel.function->registers.size());
    replay.seek(first + 1);
    EXPECT_EQ(replay.warp(firstWarp).status, sim::WarpStatus::AtBarrier);
    EXPECT_EQ(replay.warp(1 - firstWarp).status, sim::WarpStatus::Running);
    replay.seek(second + 1);
    EXPECT_EQ(replay.warp(0).status, sim::WarpStatus::Running);
    EXPECT_EQ(replay.warp(1).status, sim::WarpStatus::Running);

    // "Next barrier" from the start lands on the first bar.sync; following one warp, on its own.
    EXPECT_EQ(sim::findStep(recording, *kernel.function, 0, sim::StepUnit::Barrier, true, -1), first);
    const auto otherWarp = static_cast<std::int32_t>(recording.steps[second].warp);
    EXPECT_EQ(sim::findStep(recording, *kernel.function, 0, sim::StepUnit::Barrier, true, otherWarp), second);
    EXPECT_EQ(sim::findStep(recording, *kernel.function, recording.steps.size(), sim::StepUnit::Barrier, false, -1), second);

    // Lane 5 of warp 0 reads s[58], written by warp 1: the value is 58 after the barrier.
    const auto loads = stepsWith(recording, *kernel.function, ptx::Op::Ld, ptx::Space::Shared);
    ASSERT_EQ(loads.size(), 2u);
    for (std::size_t load : loads) {
        replay.seek(load + 1);
        const auto warp = static_cast<std::int32_t>(recording.steps[load].warp);
        const std::int32_t reg = kernel.function->instructions[static_cast<std::size_t>(recording.steps[load].pc)].operands[0].reg;
        for (int lane = 0; lane < 32; ++lane)
            EXPECT_EQ(replay.registers(warp, reg)[lane], static_cast<std::uint64_t>(63 - (warp * 32 + lane)));
    }
}

// The carry flag CC.CF is per thread state outside the registers; the stepper shows each lane's at
// every position. Odd lanes hold 0xffffffff and even lanes 0xfffffffe, so adding 1 with .cc carries
// in the odd lanes (0xaaaaaaaa). mov and addc without .cc leave it alone (addc reads it: 7 + 0 +
// CC.CF). Then lanes 0..15 alone subtract 1 from (lane & 1) with .cc: the even ones borrow, so their
// bits become 0x5555 while lanes 16..31 keep 0xaaaa: 0xaaaa5555.
TEST(BlockRecording, CarryFlagFollowsTheStepsBothWays)
{
    const CompiledKernel kernel = parsePtxKernel(".version 8.0\n.target sm_90\n.address_size 64\n"
                                                 ".visible .entry carry(.param .u64 out)\n{\n"
                                                 "\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<3>;\n"
                                                 "\tmov.u32 %r1, %tid.x;\n"
                                                 "\tand.b32 %r2, %r1, 1;\n"
                                                 "\tadd.u32 %r3, %r2, -2;\n"
                                                 "\tadd.cc.u32 %r4, %r3, 1;\n"
                                                 "\tmov.u32 %r5, 7;\n"
                                                 "\taddc.u32 %r6, %r5, 0;\n"
                                                 "\tsetp.lt.u32 %p1, %r1, 16;\n"
                                                 "\t@%p1 sub.cc.u32 %r7, %r2, 1;\n"
                                                 "\tld.param.u64 %rd1, [out];\n"
                                                 "\tcvta.to.global.u64 %rd1, %rd1;\n"
                                                 "\tmul.wide.u32 %rd2, %r1, 4;\n"
                                                 "\tadd.s64 %rd2, %rd1, %rd2;\n"
                                                 "\tst.global.u32 [%rd2], %r6;\n"
                                                 "\tret;\n}\n",
                                                 "carry");
    const sim::SimResult result = recordBlock(kernel, {1, 1, 1}, {32, 1, 1}, {"out=u32[32]"});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    ASSERT_EQ(recording.carries.size(), 2u); // add.cc and sub.cc; addc without .cc writes nothing
    const std::vector<std::uint32_t> out = argValues<std::uint32_t>(result.args, "out");
    ASSERT_EQ(out.size(), 32u);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(out[lane], 7u + (lane & 1u)) << "lane " << lane;

    // Position p is the state before the warp's p-th instruction (one warp: the block's p-th step).
    const auto at = [&](std::size_t p) {
        sim::BlockReplay replay(result.recording, kernel.function->registers.size());
        replay.seek(p);
        return replay.warp(0);
    };
    const auto pcOf = [&](const std::string& text) {
        for (std::size_t s = 0; s < recording.steps.size(); ++s)
            if (kernel.function->instructions[static_cast<std::size_t>(recording.steps[s].pc)].text.starts_with(text))
                return s;
        ADD_FAILURE() << "no step " << text;
        return std::size_t{0};
    };
    const std::size_t addCc = pcOf("add.cc"), mov = pcOf("mov.u32 %r5"), addc = pcOf("addc"), subCc = pcOf("@%p1 sub.cc");
    EXPECT_EQ(at(addCc).carryFlags, 0u);
    EXPECT_FALSE(at(addCc).carryWrittenByLast);
    EXPECT_EQ(at(addCc + 1).carryFlags, 0xaaaaaaaau);
    EXPECT_TRUE(at(addCc + 1).carryWrittenByLast);
    EXPECT_EQ(at(mov + 1).carryFlags, 0xaaaaaaaau);
    EXPECT_FALSE(at(mov + 1).carryWrittenByLast);
    EXPECT_EQ(at(addc + 1).carryFlags, 0xaaaaaaaau);
    EXPECT_FALSE(at(addc + 1).carryWrittenByLast);
    EXPECT_EQ(recording.carries[1].lanes, 0x0000ffffu);
    EXPECT_EQ(at(subCc + 1).carryFlags, 0xaaaa5555u);
    EXPECT_TRUE(at(subCc + 1).carryWrittenByLast);
    EXPECT_EQ(at(recording.steps.size()).carryFlags, 0xaaaa5555u);

    // One replay going back from the end gives the same states as fresh ones.
    sim::BlockReplay replay(result.recording, kernel.function->registers.size());
    replay.seek(recording.steps.size());
    for (std::size_t p = recording.steps.size() + 1; p-- > 0;) {
        replay.seek(p);
        EXPECT_EQ(replay.warp(0).carryFlags, at(p).carryFlags) << "position " << p;
        EXPECT_EQ(replay.warp(0).carryWrittenByLast, at(p).carryWrittenByLast) << "position " << p;
    }
}

// Stepping one warp-instruction at a time, forwards then backwards, visits exactly that warp's
// steps; "to the end" and "to the start" are the two ends.
TEST(BlockRecording, FindStepFollowsOneWarpBothWays)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void scale(float* x) { x[blockDim.x * blockIdx.x + threadIdx.x] *= 2.0f; }
)", "scale");
    const sim::SimResult result = recordBlock(kernel, {2, 1, 1}, {96, 1, 1}, {"x=f32[192]:iota"}, 1);
    ASSERT_TRUE(result.recording);
    const sim::BlockRecording& recording = *result.recording;
    EXPECT_EQ(recording.linearBlock, 1u);
    ASSERT_EQ(recording.warpCount, 3);
    const ptx::Function& function = *kernel.function;
    for (std::int32_t warp = 0; warp < 3; ++warp) {
        const auto& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp)];
        std::vector<std::size_t> visited{mine.front()};
        std::size_t at = mine.front();
        while (auto next = sim::findStep(recording, function, at, sim::StepUnit::Instruction, true, warp)) {
            if (*next >= recording.steps.size())
                break;
            visited.push_back(*next);
            at = *next;
        }
        EXPECT_EQ(visited, mine) << "warp " << warp;
        std::vector<std::size_t> back{at};
        while (auto previous = sim::findStep(recording, function, at, sim::StepUnit::Instruction, false, warp)) {
            back.push_back(*previous);
            at = *previous;
        }
        std::reverse(back.begin(), back.end());
        EXPECT_EQ(back, mine) << "warp " << warp;
    }
    EXPECT_EQ(sim::findStep(recording, function, 3, sim::StepUnit::End, true, 0), recording.steps.size());
    EXPECT_EQ(sim::findStep(recording, function, 3, sim::StepUnit::End, false, 0), 0u);
    // The loaded values of block 1's lane 0 of warp 2: x[96 + 64] = 160 (iota), doubled on store.
    const auto stores = stepsWith(recording, function, ptx::Op::St, ptx::Space::Global);
    ASSERT_EQ(stores.size(), 3u);
    for (std::size_t s : stores) {
        const auto& access = recording.accesses[static_cast<std::size_t>(recording.steps[s].access)];
        EXPECT_EQ(access.sectors, 4u);
        EXPECT_EQ(access.requests, 1u);
    }
}

// A kernel that reads shared memory nobody wrote: "next hazard" stops at that load, with the lane
// and the address, and the one sentence the simulator gives.
TEST(BlockRecording, NextHazardStopsAtTheUninitialisedRead)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void uninitialised(int* out)
{
    __shared__ int s[64];
    if (threadIdx.x < 16) s[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
)", "uninitialised");
    const sim::SimResult result = recordBlock(kernel, {1, 1, 1}, {32, 1, 1}, {"out=i32[32]"});
    ASSERT_TRUE(result.recording);
    const auto hazard = sim::findStep(*result.recording, *kernel.function, 0, sim::StepUnit::Hazard, true, -1);
    ASSERT_TRUE(hazard);
    const sim::RecordedStep& step = result.recording->steps[*hazard];
    const ptx::Instruction& in = kernel.function->instructions[static_cast<std::size_t>(step.pc)];
    EXPECT_EQ(in.op, ptx::Op::Ld);
    EXPECT_EQ(in.space, ptx::Space::Shared);
    ASSERT_GE(step.hazard, 0);
    const sim::RecordedHazard& recorded = result.recording->hazards[static_cast<std::size_t>(step.hazard)];
    EXPECT_EQ(recorded.step, *hazard);
    EXPECT_EQ(recorded.hazard.kind, sim::HazardKind::UninitializedSharedRead);
    EXPECT_EQ(recorded.hazard.lane, 16);
    EXPECT_EQ(recorded.hazard.address, 64u);
    EXPECT_FALSE(recorded.hazard.message.empty());
    EXPECT_FALSE(sim::findStep(*result.recording, *kernel.function, *hazard + 1, sim::StepUnit::Hazard, true, -1));
}

// A warp that loops forever is stopped by the block budget with a sentence that says so, and the
// timing model's log stays inside its cap (dropped, so no cycle estimate) instead of growing.
TEST(BlockBudget, AnEndlessBlockStopsWithAClearMessageAndBoundedTimingLog)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void spin(volatile int* flag)
{
    while (flag[0] == 0) { }
}
)", "spin");
    sim::SimOptions options;
    options.blockStepBudget = 200'000;
    options.maxTimingBytesPerSm = 64 * 1024; // 5,461 issue records
    options.recordBlock = 0;
    options.recordLimits.maxBytes = 256 * 1024;
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"flag=i32[1]"}, 0, options);
    EXPECT_EQ(result.status, sim::SimStatus::BlockBudgetExceeded);
    EXPECT_NE(result.statusMessage.find("block (0, 0, 0) issued more than 200,000 warp-instructions without finishing"),
              std::string::npos)
        << result.statusMessage;
    EXPECT_FALSE(result.stats.timing.available);
    ASSERT_TRUE(result.recording);
    EXPECT_TRUE(result.recording->truncated);
    EXPECT_GT(result.recording->bytes, options.recordLimits.maxBytes);     // it stopped once past the limit,
    EXPECT_LE(result.recording->bytes, 2 * options.recordLimits.maxBytes); // where one vector's growth can take it
    EXPECT_GE(result.stats.warpInstructions, 200'000u);
    EXPECT_LT(result.stats.warpInstructions, 200'000u + 8192u); // checked every 4,096 instructions
}
