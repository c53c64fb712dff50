// The probe's FP32 ceiling kernel, checked without a GPU: it parses, runs on the simulator with the
// value a CPU computes with fmaf in the same order, executes exactly the FMAs its FLOP count
// claims, and ptxas assembles it for the oldest and newest architectures the presets cover.
#include "ceiling_kernels.h"
#include "gpu/gpu_preset.h"
#include "ptx/ptx_parser.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include <unistd.h>

using namespace warpscope;

namespace {

// A launch of a ceiling kernel, (buffer, u32 iterations), on `blocks` blocks of `threads`, sm_90.
sim::SimResult runCeilingKernel(const ptx::Module& module, const ptx::Function& function, int blocks, int threads,
                                sim::ResolvedArg buffer, std::uint32_t iterations)
{
    sim::LaunchRequest request;
    request.module = &module;
    request.function = &function;
    request.grid = {static_cast<std::uint32_t>(blocks), 1, 1};
    request.block = {static_cast<std::uint32_t>(threads), 1, 1};
    request.preset = *gpu::findPreset("sm_90");
    request.options.timing = false;
    buffer.isBuffer = true;
    buffer.bytes.assign(buffer.count * 4, 0);
    sim::ResolvedArg count;
    count.name = "iterations";
    count.type = sim::ElementType::U32;
    count.scalarBits = iterations;
    count.integerValue = iterations;
    request.args = {std::move(buffer), count};
    return sim::simulate(request);
}

} // namespace

TEST(CeilingKernel, SimulatesToTheCpuValueAndCountsItsFlops)
{
    const ptx::Module module = ptx::parseModule(probe::fmaPeakPtx());
    const ptx::Function* function = module.findFunction(probe::kFmaPeakEntry);
    ASSERT_NE(function, nullptr);
    constexpr int blocks = 2, threads = 64;
    constexpr std::uint32_t iterations = 3;
    sim::ResolvedArg out;
    out.name = "out";
    out.type = sim::ElementType::F32;
    out.count = blocks * threads;
    const sim::SimResult result = runCeilingKernel(module, *function, blocks, threads, out, iterations);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;

    float m, c;
    const std::uint32_t mBits = 0x3F7FFFEF, cBits = 0x358637BD;
    std::memcpy(&m, &mBits, 4);
    std::memcpy(&c, &cBits, 4);
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < threads; ++t) {
            float chains[probe::kFmaChains];
            for (int i = 0; i < probe::kFmaChains; ++i)
                chains[i] = (static_cast<float>(t) + 1.0f) * (i > 0 ? 0.5f : 1.0f);
            for (std::uint32_t k = 0; k < iterations * probe::kFmaUnroll; ++k)
                for (float& a : chains)
                    a = std::fmaf(a, m, c);
            float sum = chains[0];
            for (int i = 1; i < probe::kFmaChains; ++i)
                sum += chains[i];
            float simulated;
            std::memcpy(&simulated, result.args[0].bytes.data() + 4 * (b * threads + t), 4);
            ASSERT_EQ(simulated, sum) << "thread " << b * threads + t;
        }

    std::uint64_t fmaThreadExecutions = 0;
    for (std::size_t i = 0; i < function->instructions.size(); ++i)
        if (function->instructions[i].op == ptx::Op::Fma)
            fmaThreadExecutions += result.stats.perInstruction[i].threadExecutions;
    EXPECT_EQ(2 * fmaThreadExecutions, probe::fmaPeakFlops(blocks * threads, iterations));
}

// The contended-atomic kernel: every thread adds 1 to one word `iterations` times, so the word ends
// at threads x iterations, every update a global atomic the timing model queues at one address.
TEST(CeilingKernel, AtomicContentionAddsOnceForEveryThreadAndIteration)
{
    const ptx::Module module = ptx::parseModule(probe::atomicContentionPtx());
    const ptx::Function* function = module.findFunction(probe::kAtomicContentionEntry);
    ASSERT_NE(function, nullptr);
    constexpr int blocks = 3, threads = 64;
    constexpr std::uint32_t iterations = 5;
    sim::ResolvedArg counter;
    counter.name = "counter";
    counter.type = sim::ElementType::U32;
    counter.count = 1;
    const sim::SimResult result = runCeilingKernel(module, *function, blocks, threads, counter, iterations);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    std::uint32_t total = 0;
    std::memcpy(&total, result.args[0].bytes.data(), 4);
    EXPECT_EQ(total, static_cast<std::uint32_t>(blocks * threads) * iterations);
    // One request per warp and iteration, all to one sector.
    EXPECT_EQ(result.stats.global.atomicRequests, static_cast<std::uint64_t>(blocks * threads / 32) * iterations);
    EXPECT_EQ(result.stats.global.atomicSectors, result.stats.global.atomicRequests);
}

TEST(CeilingKernel, PtxasAssemblesIt)
{
    const std::filesystem::path ptxas = std::filesystem::path(WARPSCOPE_CUDA_BIN_DIR) / "ptxas";
    if (!std::filesystem::exists(ptxas))
        GTEST_SKIP() << "ptxas not found at " << ptxas << " (the CUDA toolkit's assembler)";
    const std::string dir = testing::TempDir();
    for (const std::string& ptx : {probe::fmaPeakPtx(), probe::atomicContentionPtx()}) {
        const std::string source = dir + "/ceiling_" + std::to_string(::getpid()) + ".ptx";
        std::ofstream(source) << ptx;
        for (const char* arch : {"sm_75", "sm_90"}) {
            const std::string command = ptxas.string() + " -arch=" + arch + " " + source + " -o " + source + ".cubin 2>&1";
            FILE* pipe = popen(command.c_str(), "r");
            ASSERT_NE(pipe, nullptr);
            std::string output;
            char buffer[256];
            while (std::fgets(buffer, sizeof buffer, pipe))
                output += buffer;
            EXPECT_EQ(pclose(pipe), 0) << arch << ": " << output;
        }
        std::filesystem::remove(source);
        std::filesystem::remove(source + ".cubin");
    }
}
