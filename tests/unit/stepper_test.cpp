// The stepper's Qt-free pieces: register values as the table shows them (worked out by hand from
// the bit patterns), the source view's heat per line, and the printf lines a position shows.
#include "execution/stepper.h"

#include "gpu/gpu_preset.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_parser.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;
using viz::RegisterFormat;

TEST(StepperFormat, RegisterValuesByTypeAndForcedFormat)
{
    // 0x3fc00000 is 1.5f: sign 0, exponent 127, fraction 0.5.
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::F32, RegisterFormat::Typed), "1.5");
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::F32, RegisterFormat::Hex), "0x3fc00000");
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::B32, RegisterFormat::Float), "1.5");
    // The low 32 bits only: a stale upper half does not leak into a .b32 register's value.
    EXPECT_EQ(viz::formatRegisterValue(0xdead0000ffffffffull, ptx::Type::S32, RegisterFormat::Typed), "-1");
    EXPECT_EQ(viz::formatRegisterValue(0xffffffffu, ptx::Type::U32, RegisterFormat::Typed), "4294967295");
    EXPECT_EQ(viz::formatRegisterValue(0x80000000u, ptx::Type::B32, RegisterFormat::Int), "-2147483648");
    EXPECT_EQ(viz::formatRegisterValue(42, ptx::Type::U16, RegisterFormat::Hex), "0x002a");
    // Predicates are one letter, so their lane columns stay narrow.
    EXPECT_EQ(viz::formatRegisterValue(1, ptx::Type::Pred, RegisterFormat::Typed), "T");
    EXPECT_EQ(viz::formatRegisterValue(0, ptx::Type::Pred, RegisterFormat::Typed), "F");
    // Floats as the shortest decimal that reads back as the same value: 0.1f (0x3dcccccd) is "0.1",
    // not "0.100000001"; the float just above it (0x3dccccce) needs eight digits.
    EXPECT_EQ(viz::formatRegisterValue(0x3dcccccdu, ptx::Type::F32, RegisterFormat::Typed), "0.1");
    EXPECT_EQ(viz::formatRegisterValue(0x3dccccceu, ptx::Type::F32, RegisterFormat::Typed), "0.10000001");
    EXPECT_EQ(viz::formatRegisterValue(0x3fb999999999999aull, ptx::Type::F64, RegisterFormat::Typed), "0.1");
    EXPECT_EQ(viz::formatRegisterValue(0xbf800000u, ptx::Type::F32, RegisterFormat::Typed), "-1");
    // Half precision: FP16 0x3C00 = 1, 0xC100 = -2.5 (sign, exponent 16 - 15 = 1, mantissa 0.25), 0x7BFF = 65504 (the largest), 0x0001 = 2^-24;
    // BF16 0x3F80 = 1, 0x4049 = 3.140625. A 32-bit register is a pair, low half first.
    EXPECT_EQ(viz::formatRegisterValue(0xC1003C00u, ptx::Type::B32, RegisterFormat::Half), "1 -2.5");
    EXPECT_EQ(viz::formatRegisterValue(0x7BFFu, ptx::Type::B16, RegisterFormat::Half), "65504");
    EXPECT_EQ(viz::formatRegisterValue(0x0001u, ptx::Type::B16, RegisterFormat::Half), "5.9605e-08");
    EXPECT_EQ(viz::formatRegisterValue(0x40493F80u, ptx::Type::B32, RegisterFormat::BFloat16), "1 3.141");
    EXPECT_EQ(viz::formatRegisterValue(0xC1003C00u, ptx::Type::F16x2, RegisterFormat::Typed), "1 -2.5");
    EXPECT_EQ(viz::formatRegisterValue(0x3F80u, ptx::Type::BF16, RegisterFormat::Typed), "1");
    EXPECT_EQ(viz::formatRegisterValue(0x7E00u, ptx::Type::F16, RegisterFormat::Typed), "nan");
    // A 64-bit register has no half reading: hex.
    EXPECT_EQ(viz::formatRegisterValue(0x3C00u, ptx::Type::B64, RegisterFormat::Half), "0x0000000000003c00");
    // 0x4000000000000000 is 2.0 as a double; forced Float on an f16 register has no 16-bit float view
    // (that is the f16 format's), so it shows its bits.
    EXPECT_EQ(viz::formatRegisterValue(0x4000000000000000ull, ptx::Type::F64, RegisterFormat::Typed), "2");
    EXPECT_EQ(viz::formatRegisterValue(0x3c00, ptx::Type::F16, RegisterFormat::Float), "0x3c00");
    // Short: floats to 4 significant digits, everything else as typed.
    EXPECT_EQ(viz::formatRegisterValue(0x3e0851ecu, ptx::Type::F32, RegisterFormat::Short), "0.1331"); // 0.13312...
    EXPECT_EQ(viz::formatRegisterValue(0xc2f6e979u, ptx::Type::F32, RegisterFormat::Short), "-123.5");  // -123.456
    EXPECT_EQ(viz::formatRegisterValue(0x3ff0000000000000ull, ptx::Type::F64, RegisterFormat::Short), "1");
    EXPECT_EQ(viz::formatRegisterValue(1, ptx::Type::Pred, RegisterFormat::Short), "T");
    EXPECT_EQ(viz::formatRegisterValue(4096, ptx::Type::U32, RegisterFormat::Short), "4096");
    EXPECT_EQ(viz::formatRegisterValue(0xC1003C00u, ptx::Type::F16x2, RegisterFormat::Short), "1 -2.5");
    // Pointers into the launch's buffers as the element they point at, or the byte offset inside
    // one; the end itself is the one-past pointer.
    const std::vector<viz::BufferPlace> buffers = {{"in", 0x7f0000000000ull, 4096, 4}, {"out", 0x7f0000001100ull, 4096, 4}};
    EXPECT_EQ(viz::bufferAddressText(0x7f0000000000ull, buffers), "in[0]");
    EXPECT_EQ(viz::bufferAddressText(0x7f0000000080ull, buffers), "in[32]");
    EXPECT_EQ(viz::bufferAddressText(0x7f0000000082ull, buffers), "in+130");
    EXPECT_EQ(viz::bufferAddressText(0x7f0000001000ull, buffers), "in[1024]");
    EXPECT_EQ(viz::bufferAddressText(0x7f0000001001ull, buffers), ""); // in the gap between them
    EXPECT_EQ(viz::bufferAddressText(0x7f0000001104ull, buffers), "out[1]");
    EXPECT_EQ(viz::bufferAddressText(42, buffers), "");
}

TEST(StepperHeat, LinesAreRatedByWastedBytesConflictsAndDivergence)
{
    sim::LineStats strided;
    strided.line = 12;
    strided.counters.globalRequests = 10;
    strided.counters.globalSectors = 80;      // 8 per request
    strided.counters.bytesRequested = 1280;   // 10 x 32 lanes x 4 bytes
    strided.counters.bytesMoved = 2560;       // 80 sectors x 32 bytes
    sim::LineStats conflicted;
    conflicted.line = 20;
    conflicted.counters.sharedRequests = 4;
    conflicted.counters.sharedWavefronts = 32; // 8 per request
    conflicted.counters.sharedBankConflicts = 28;
    conflicted.counters.branchesUniform = 3;
    conflicted.counters.branchesDivergent = 1;
    const std::vector<sim::LineStats> lines{strided, conflicted};

    const auto sectors = viz::lineHeat(lines, viz::HeatMetric::SectorsPerRequest);
    ASSERT_EQ(sectors.size(), 1u);
    EXPECT_DOUBLE_EQ(sectors.at(12).value, 0.5);
    EXPECT_EQ(sectors.at(12).text, "8.0 sectors per request; 50% of the bytes moved were used");

    const auto banks = viz::lineHeat(lines, viz::HeatMetric::BankConflicts);
    ASSERT_EQ(banks.size(), 1u);
    EXPECT_DOUBLE_EQ(banks.at(20).value, 7.0 / 31.0);
    EXPECT_EQ(banks.at(20).text, "8.0 wavefronts per shared request (1 is conflict-free); 28 bank conflicts");

    const auto divergence = viz::lineHeat(lines, viz::HeatMetric::Divergence);
    ASSERT_EQ(divergence.size(), 1u);
    EXPECT_DOUBLE_EQ(divergence.at(20).value, 0.25);
}

// printf in the stepper: every third thread of a 64-thread block prints. The recording keeps each
// line with the step of the warp's vprintf call, so at a position the stepper shows exactly the
// lines the steps before it printed: none before warp 0's call, its 11 lanes (0, 3, ..., 30) after
// it, all 22 at the end, in lane order within a call.
TEST(StepperPrintf, LinesAppearFromTheStepThatPrintedThem)
{
    const char* source = R"(
extern "C" __global__ void hello(int* out)
{
    if (threadIdx.x % 3 == 0)
        printf("thread %d squares to %d\n", threadIdx.x, threadIdx.x * threadIdx.x);
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
)";
    const ptx::CompileResult compiled = ptx::compileCuda(source, "hello.cu", {});
    ASSERT_TRUE(compiled.ok) << compiled.log;
    auto module = std::make_shared<ptx::Module>(ptx::parseModule(compiled.ptx));
    sim::LaunchRequest request;
    request.module = module.get();
    request.function = module->findFunction("hello");
    request.grid = {2, 1, 1};
    request.block = {64, 1, 1};
    request.args = sim::resolveArgs({sim::parseArgSpec("out=i32[128]")}, 1 << 20);
    request.preset = *gpu::findPreset("sm_90");
    request.options.recordBlock = 1;
    const sim::SimResult result = sim::simulate(std::move(request));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.recording);

    viz::StepperRun run;
    run.module = module;
    run.function = module->findFunction("hello");
    run.kernelName = "hello";
    run.grid = {2, 1, 1};
    run.block = {64, 1, 1};
    run.blockIndex = {1, 0, 0};
    run.recording = result.recording;
    viz::Stepper stepper(run);
    const sim::BlockRecording& recording = stepper.recording();
    ASSERT_EQ(recording.printfs.size(), 22u);

    // Each warp's call: the one step at a call instruction.
    std::vector<std::size_t> callOf(2, 0);
    for (std::size_t s = 0; s < recording.steps.size(); ++s)
        if (run.function->instructions[static_cast<std::size_t>(recording.steps[s].pc)].op == ptx::Op::Call)
            callOf[recording.steps[s].warp] = s;
    for (std::size_t i = 0; i < recording.printfs.size(); ++i) {
        const sim::RecordedPrintf& line = recording.printfs[i];
        const std::uint32_t warp = i < 11 ? 0 : 1;
        const std::int64_t thread = static_cast<std::int64_t>(warp * 32 + (i < 11 ? 3 * i : 3 * (i - 11) + 1));
        EXPECT_EQ(line.step, callOf[warp]) << i;
        EXPECT_EQ(line.warp, warp) << i;
        EXPECT_EQ(line.lane, static_cast<std::uint32_t>(thread % 32)) << i;
        EXPECT_EQ(line.thread.x, thread) << i;
        EXPECT_EQ(line.text, "thread " + std::to_string(thread) + " squares to " + std::to_string(thread * thread) + "\n");
    }
    // Warp 0 calls first (it has the first turn): nothing before its call, its 11 lines after it.
    ASSERT_LT(callOf[0], callOf[1]);
    stepper.follow(-1);
    stepper.seek(callOf[0]);
    EXPECT_EQ(stepper.printfLinesSoFar(), 0u);
    stepper.seek(callOf[0] + 1);
    EXPECT_EQ(stepper.printfLinesSoFar(), 11u);
    EXPECT_EQ(stepper.lastStepOfSelectedWarp(), std::optional<std::size_t>(callOf[0])); // its lines are the new ones
    stepper.seek(callOf[1] + 1);
    EXPECT_EQ(stepper.printfLinesSoFar(), 22u);
    stepper.seek(stepper.size());
    EXPECT_EQ(stepper.printfLinesSoFar(), 22u);
    // The simulator's own list of printed lines holds the same texts (both blocks: 44).
    ASSERT_EQ(result.printfLines.size(), 44u);
    for (std::size_t i = 0; i < 22; ++i)
        EXPECT_EQ(result.printfLines[22 + i].text, recording.printfs[i].text);
}

namespace {

// Records block `recordBlock` of `entry` compiled from `source` and builds the stepper on it, with
// the launch's hazards as the Execution view passes them.
std::unique_ptr<viz::Stepper> recordForStepper(const char* source, const char* entry, launch::Dim3 grid, launch::Dim3 block,
                                               const std::vector<std::string>& specs, std::uint64_t recordBlock,
                                               int hostThreads = 1)
{
    const ptx::CompileResult compiled = ptx::compileCuda(source, "hazards.cu", {});
    if (!compiled.ok)
        return nullptr;
    auto module = std::make_shared<ptx::Module>(ptx::parseModule(compiled.ptx));
    std::vector<sim::ArgSpec> parsed;
    for (const std::string& spec : specs)
        parsed.push_back(sim::parseArgSpec(spec));
    sim::LaunchRequest request;
    request.module = module.get();
    request.function = module->findFunction(entry);
    request.grid = grid;
    request.block = block;
    request.args = sim::resolveArgs(parsed, 1 << 20);
    request.preset = *gpu::findPreset("sm_90");
    request.options.recordBlock = recordBlock;
    request.options.hostThreads = hostThreads;
    const sim::SimResult result = sim::simulate(std::move(request));
    if (result.status != sim::SimStatus::Completed || !result.recording)
        return nullptr;
    viz::StepperRun run;
    run.module = module;
    run.function = module->findFunction(entry);
    run.kernelName = entry;
    run.grid = grid;
    run.block = block;
    run.blockIndex = {static_cast<std::int64_t>(recordBlock), 0, 0};
    run.recording = result.recording;
    run.hazards = result.hazards;
    return std::make_unique<viz::Stepper>(std::move(run));
}

// vector_add without its bounds check, n = 1,000 in 4 blocks of 256 (the hazard_out_of_bounds demo):
// threads 1000-1023 are block 3's warp 7, lanes 8-31; a[i], b[i] and c[i] are one hazard each.
const char* kUnguarded = R"(
extern "C" __global__ void unguarded(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
)";
const std::vector<std::string> kUnguardedArgs{"a=f32[n]:iota", "b=f32[n]:iota", "c=f32[n]", "n=i32:1000"};

} // namespace

// Block 0 raises nothing, but the launch's three hazards are in block 3: F6 has nowhere to go in
// the block, and the way on is the first of them (a[1000]'s read); back, there is none.
TEST(StepperHazards, ACleanBlockPointsToTheLaunchsHazards)
{
    const auto stepper = recordForStepper(kUnguarded, "unguarded", {4, 1, 1}, {256, 1, 1}, kUnguardedArgs, 0);
    ASSERT_TRUE(stepper);
    EXPECT_TRUE(stepper->recording().hazards.empty());
    ASSERT_EQ(stepper->run().hazards.size(), 3u);
    EXPECT_FALSE(stepper->stepToHazard(true));
    EXPECT_EQ(stepper->position(), 0u);
    ASSERT_EQ(stepper->hazardInAnotherBlock(true), std::optional<std::size_t>(0));
    EXPECT_EQ(stepper->hazardInAnotherBlock(false), std::nullopt);
    // The list's rows, in instruction order: the two reads, then the write.
    const char* verbs[] = {"reads a[1000]", "reads b[1000]", "writes c[1000]"};
    for (std::size_t i = 0; i < 3; ++i) {
        const sim::Hazard& hazard = stepper->run().hazards[i];
        EXPECT_EQ(hazard.message.rfind(verbs[i], 0), 0u) << hazard.message;
        const viz::HazardRow row = viz::hazardRow(hazard);
        EXPECT_EQ(row.kind, "out_of_bounds_global");
        EXPECT_EQ(row.block, "3");
        EXPECT_EQ(row.warp, "7");
        EXPECT_EQ(row.lanes, "8-31");
        EXPECT_EQ(row.line, "hazards.cu:5");
    }
}

// Block 3 recorded, following warp 0 (which raises nothing): F6 switches to warp 7 and stands on its
// three hazards in turn, then has none further (block 3 is the last); Shift+F6 comes back through
// them. Each launch hazard is found in the recording at its warp and instruction.
TEST(StepperHazards, HazardKeyFollowsTheWarpThatRaisedIt)
{
    const auto stepper = recordForStepper(kUnguarded, "unguarded", {4, 1, 1}, {256, 1, 1}, kUnguardedArgs, 3);
    ASSERT_TRUE(stepper);
    ASSERT_EQ(stepper->recording().hazards.size(), 3u);
    stepper->follow(0);
    std::vector<std::size_t> visited;
    while (stepper->stepToHazard(true)) {
        EXPECT_EQ(stepper->followed(), 7);
        const sim::RecordedHazard* current = stepper->currentHazard();
        ASSERT_TRUE(current);
        EXPECT_EQ(current->hazard.warp, 7);
        EXPECT_EQ(current->hazard.lanes, 0xffffff00u);
        visited.push_back(current->step);
        ASSERT_LE(visited.size(), 3u);
    }
    ASSERT_EQ(visited.size(), 3u);
    EXPECT_EQ(stepper->hazardInAnotherBlock(true), std::nullopt);
    EXPECT_EQ(stepper->hazardInAnotherBlock(false), std::nullopt); // blocks 0-2 raise nothing
    for (std::size_t i = 3; i-- > 1;) {
        ASSERT_TRUE(stepper->stepToHazard(false));
        EXPECT_EQ(stepper->currentHazard()->step, visited[i - 1]);
    }
    for (std::size_t i = 0; i < 3; ++i) {
        const sim::RecordedHazard* recorded = stepper->recordedHazard(stepper->run().hazards[i]);
        ASSERT_TRUE(recorded);
        EXPECT_EQ(recorded->step, visited[i]);
        stepper->follow(0);
        stepper->goTo(*recorded);
        EXPECT_EQ(stepper->followed(), 7);
        EXPECT_EQ(stepper->currentIndex(), std::optional<std::size_t>(visited[i]));
    }
}

// Warps 1 and 3 of every block write x[n + t]: one launch hazard (the same instruction), kept from
// block 0's warp 1 however the host threads ran the blocks. Recording block 1 and following warp 0,
// F6 stands on warp 1's, then warp 3's; further on there is no later block, and back the launch's
// hazard in block 0.
TEST(StepperHazards, WarpsAndBlocksInOrder)
{
    const char* source = R"(
extern "C" __global__ void twoWarps(float* x, int n)
{
    int warp = threadIdx.x / 32;
    if (warp == 1 || warp == 3)
        x[n + threadIdx.x] = 1.0f;
}
)";
    for (int threads : {1, 4}) {
        const auto stepper = recordForStepper(source, "twoWarps", {2, 1, 1}, {128, 1, 1}, {"x=f32[n]", "n=i32:16"}, 1, threads);
        ASSERT_TRUE(stepper);
        ASSERT_EQ(stepper->run().hazards.size(), 1u) << threads;
        const sim::Hazard& launchHazard = stepper->run().hazards.front();
        EXPECT_EQ(launchHazard.block.x, 0);
        EXPECT_EQ(launchHazard.warp, 1);
        // Lanes 0-31 of warp 1 write x[16 + 32..63]: x[48] is the lowest, 33 past the end of 16 floats.
        EXPECT_EQ(launchHazard.message, "writes x[48], 33 elements past the end (16 floats); lanes 0-31 "
                                        "(on a GPU: an illegal-address error or silent corruption)");
        EXPECT_EQ(launchHazard.occurrences, 4u * 32u); // 2 blocks x 2 warps x 32 lanes
        stepper->follow(0);
        ASSERT_TRUE(stepper->stepToHazard(true));
        EXPECT_EQ(stepper->followed(), 1);
        ASSERT_TRUE(stepper->stepToHazard(true));
        EXPECT_EQ(stepper->followed(), 3);
        EXPECT_FALSE(stepper->stepToHazard(true));
        EXPECT_EQ(stepper->hazardInAnotherBlock(true), std::nullopt);
        EXPECT_EQ(stepper->hazardInAnotherBlock(false), std::optional<std::size_t>(0));
        // Its place in this block's recording: warp 1's store.
        const sim::RecordedHazard* recorded = stepper->recordedHazard(launchHazard);
        ASSERT_TRUE(recorded);
        EXPECT_EQ(recorded->hazard.warp, 1);
        EXPECT_EQ(recorded->hazard.block.x, 1);
    }
}
