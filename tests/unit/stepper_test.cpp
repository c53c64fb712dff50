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
    EXPECT_EQ(viz::formatRegisterValue(1, ptx::Type::Pred, RegisterFormat::Typed), "true");
    EXPECT_EQ(viz::formatRegisterValue(0, ptx::Type::Pred, RegisterFormat::Typed), "false");
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
