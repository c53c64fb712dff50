// Block barriers beyond __syncthreads() (PTX ISA, "bar, barrier"): bar.red behind
// __syncthreads_count/and/or, named barriers with a thread count (bar.sync a, b and bar.arrive a, b:
// producer and consumer warps), a count nobody can reach (the block would hang: reported and
// stopped), a count that is not a multiple of 32 (refused), and trap (__trap()). Every expected value
// is worked out by hand in the comments.
#include "sim_test_support.h"

#include "ptx/ptx_error.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

sim::SimResult runOut(const CompiledKernel& kernel, int threads, std::vector<std::int32_t> in, int outSize)
{
    sim::SimOptions options;
    options.hostThreads = 1;
    return simulateWithArgs(kernel, {1, 1, 1}, {threads, 1, 1},
                            {bufferArg("in", sim::ElementType::I32, std::move(in)),
                             bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(static_cast<std::size_t>(outSize), 0))},
                            options);
}

std::vector<std::int32_t> iota(int n)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = i;
    return v;
}

const char* kReductions = R"(
extern "C" __global__ void reductions(const int* in, int* out)
{
    int v = in[threadIdx.x];
    if (v < 0) return; // threads given a negative value exit before the barriers
    int c = __syncthreads_count(v > 10);
    int a = __syncthreads_and(v > 10);
    int o = __syncthreads_or(v > 10);
    out[threadIdx.x] = c * 100 + a * 10 + o;
}
)";

} // namespace

// bar.red.popc.u32, bar.red.and.pred and bar.red.or.pred over every thread of the block.
TEST(BarrierReductions, CountAndOrOverTheBlock)
{
    const CompiledKernel kernel = compileKernel(kReductions, "reductions");
    // 64 threads with values 0..63: 53 are above 10 (11..63), so not all, but some.
    sim::SimResult result = runOut(kernel, 64, iota(64), 64);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    for (std::int32_t value : bufferValues<std::int32_t>(result, "out"))
        EXPECT_EQ(value, 53 * 100 + 0 * 10 + 1);
    // Values 11..58 in a block of 48 (a partial second warp): all 48 above 10.
    std::vector<std::int32_t> high = iota(48);
    for (std::int32_t& v : high)
        v += 11;
    result = runOut(kernel, 48, high, 48);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (std::int32_t value : bufferValues<std::int32_t>(result, "out"))
        EXPECT_EQ(value, 48 * 100 + 1 * 10 + 1);
    // Threads 40..63 exit first and no longer take part: of 0..39, 29 are above 10 (11..39).
    std::vector<std::int32_t> exiting = iota(64);
    for (std::size_t i = 40; i < 64; ++i)
        exiting[i] = -1;
    result = runOut(kernel, 64, exiting, 64);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t i = 0; i < 64; ++i)
        EXPECT_EQ(out[i], i < 40 ? 29 * 100 + 0 * 10 + 1 : 0) << i;
}

// Producers and consumers on named barrier 1 with a count of all 128 threads: warps 0-1 fill shared
// memory and only arrive (bar.arrive 1, 128); warps 2-3 wait (bar.sync 1, 128) and read what the
// producers wrote. Consumer thread t (64..127) reads word t - 64, written as 3 * (t - 64). Barrier 2
// with a count of 64 then pairs warps 2 and 3 alone while warps 0 and 1 have finished.
TEST(NamedBarriers, ProducersArriveConsumersWait)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void pipeline(const int* in, int* out)
{
    __shared__ int s[64];
    __shared__ int t[64];
    unsigned tid = threadIdx.x;
    if (tid < 64) {
        s[tid] = 3 * in[tid];
        asm volatile("bar.arrive 1, 128;" ::: "memory");
        out[tid] = -1;
    } else {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        t[tid - 64] = s[tid - 64] + 1;
        asm volatile("bar.sync 2, 64;" ::: "memory");
        out[tid] = t[127 - tid];
    }
}
)", "pipeline");
    const sim::SimResult result = runOut(kernel, 128, iota(128), 128);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(out[static_cast<std::size_t>(i)], -1) << i;
    // Thread 64 + j reads t[63 - j] = s[63 - j] + 1 = 3 * (63 - j) + 1.
    for (int j = 0; j < 64; ++j)
        EXPECT_EQ(out[static_cast<std::size_t>(64 + j)], 3 * (63 - j) + 1) << j;
    EXPECT_EQ(result.stats.barriers, 2u); // barrier 1 once, barrier 2 once
}

// Warps 0 and 1 wait at barrier 1 for 96 threads while warps 2 and 3 wait at barrier 2 for 96: each
// pair waits for a warp of the other, so on a GPU the block hangs. The simulator reports it, with the
// barrier and the warps, and stops the block.
TEST(NamedBarriers, WarpsWaitingForEachOtherAreReportedNotAHang)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void stuck(const int* in, int* out)
{
    if (threadIdx.x < 64)
        asm volatile("bar.sync 1, 96;" ::: "memory");
    else
        asm volatile("bar.sync 2, 96;" ::: "memory");
    out[threadIdx.x] = 1;
}
)", "stuck");
    const sim::SimResult result = runOut(kernel, 128, iota(128), 128);
    ASSERT_EQ(result.hazards.size(), 1u);
    EXPECT_EQ(result.hazards[0].kind, sim::HazardKind::BarrierDivergence);
    EXPECT_NE(result.hazards[0].message.find("warps 0-1 wait at barrier 1 for 96 threads, but only 2 warps arrived and "
                                             "the other warps wait at another barrier"),
              std::string::npos)
        << result.hazards[0].message;
    for (std::int32_t value : bufferValues<std::int32_t>(result, "out"))
        EXPECT_EQ(value, 0); // nobody got past a barrier
}

// Warps 0 and 1 wait at barrier 1 for 96 threads and warps 2 and 3 exit: exited warps no longer
// hold a barrier back, so it completes, as the whole-block barrier does. A count of the whole block
// (128) given by every warp is a counted barrier like any other.
TEST(NamedBarriers, ExitedWarpsDoNotHoldACountedBarrierBack)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void early(const int* in, int* out)
{
    if (threadIdx.x < 64) {
        asm volatile("bar.sync 1, 96;" ::: "memory");
        out[threadIdx.x] = 1;
    }
}
)", "early");
    sim::SimResult result = runOut(kernel, 128, iota(128), 128);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t i = 0; i < 128; ++i)
        EXPECT_EQ(out[i], i < 64 ? 1 : 0) << i;

    const CompiledKernel whole = compileKernel(R"(
extern "C" __global__ void whole(const int* in, int* out)
{
    __shared__ int s[128];
    s[threadIdx.x] = in[threadIdx.x];
    asm volatile("bar.sync 3, 128;" ::: "memory");
    out[threadIdx.x] = s[127 - threadIdx.x];
}
)", "whole");
    result = runOut(whole, 128, iota(128), 128);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t i = 0; i < 128; ++i)
        EXPECT_EQ(out[i], 127 - static_cast<std::int32_t>(i)) << i;
}

// A thread count must be a positive multiple of the warp size (PTX ISA), at most the block's.
TEST(NamedBarriers, ACountThatIsNotAMultipleOf32IsRefused)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void odd(const int* in, int* out)
{
    asm volatile("bar.sync 1, 48;" ::: "memory");
    out[threadIdx.x] = in[threadIdx.x];
}
)", "odd");
    try {
        runOut(kernel, 64, iota(64), 64);
        FAIL() << "bar.sync 1, 48 ran";
    } catch (const ptx::PtxError& error) {
        EXPECT_NE(std::string(error.what()).find("barrier 1's thread count 48 must be a positive multiple of 32"),
                  std::string::npos)
            << error.what();
    }
}

// trap stops the threads that execute it; the launch reports how many, and where the first was.
TEST(Trap, StopsTheThreadsThatExecuteItAndIsReported)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void traps(const int* in, int* out)
{
    if (in[threadIdx.x] % 10 == 5)
        __trap();
    out[threadIdx.x] = 1;
}
)", "traps");
    const sim::SimResult result = runOut(kernel, 32, iota(32), 32);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(result.trapThreads, 3u); // threads 5, 15 and 25
    EXPECT_NE(result.firstTrap.find("block [0,0,0], thread [5,0,0], PTX line"), std::string::npos) << result.firstTrap;
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (std::size_t i = 0; i < 32; ++i)
        EXPECT_EQ(out[i], i % 10 == 5 ? 0 : 1) << i;
}
