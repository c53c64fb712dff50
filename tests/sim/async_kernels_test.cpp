// Kernels written the way people write sm_80 code (issue 15): a double-buffered tile loop with
// cuda::pipeline (cp.async.cg, commit_group, wait_group 1), the same loop with the classic bug of
// committing only when there is a next tile, cuda::barrier (mbarrier) at compute_80 and at
// compute_90 (try_wait), memcpy_async completing on a barrier (cp.async.mbarrier.arrive), and a
// barrier that expects one arrival too many; and cuda::barrier at compute_75, where libcu++ builds it
// from atomics (no false races). Each is compiled by NVRTC and checked against a CPU reference.
#include "sim_test_support.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

sim::ResolvedArg i32(const std::string& name, int value)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = sim::ElementType::I32;
    arg.scalarBits = static_cast<std::uint32_t>(value);
    arg.integerValue = value;
    return arg;
}

std::vector<float> ramp(std::size_t count)
{
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = static_cast<float>((i * 7919) % 1000) * 0.25f - 60.0f;
    return values;
}

std::vector<const sim::Hazard*> hazardsOf(const sim::SimResult& result, sim::HazardKind kind)
{
    std::vector<const sim::Hazard*> found;
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == kind)
            found.push_back(&hazard);
    return found;
}

// A 3-point moving average over tiles of 128 floats: the next tile is copied in the background
// (one float4 per thread, cp.async.cg) while this one is averaged. Two shared buffers; one commit
// per iteration, an empty one after the last tile, so wait_prior<1> always means "this tile". The
// second __syncthreads keeps the buffer from being refilled while a neighbour still reads it.
const char* kTiledAverage = R"(
#include <cuda/pipeline>
constexpr int kTile = 128;
extern "C" __global__ void tiledAverage(const float* in, float* out, int tiles)
{
    __shared__ alignas(16) float buf[2][kTile + 4];
    const int base = blockIdx.x * tiles * kTile;
    auto pipe = cuda::make_pipeline();
    auto load = [&](int t) {
        pipe.producer_acquire();
        if (t < tiles) {
            cuda::memcpy_async(reinterpret_cast<float4*>(&buf[t & 1][4 * threadIdx.x]),
                               reinterpret_cast<const float4*>(&in[base + t * kTile + 4 * threadIdx.x]),
                               cuda::aligned_size_t<16>(sizeof(float4)), pipe);
            if (threadIdx.x == 0) {
                const bool last = blockIdx.x == gridDim.x - 1 && t == tiles - 1;
                buf[t & 1][kTile] = last ? 0.0f : in[base + t * kTile + kTile];
            }
        }
        pipe.producer_commit();
    };
    load(0);
    for (int t = 0; t < tiles; ++t) {
        load(t + 1);
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        __syncthreads();
        const float* tile = buf[t & 1];
        for (int k = 0; k < 4; ++k) {
            const int i = 4 * threadIdx.x + k;
            const float left = i > 0 ? tile[i - 1] : (t > 0 || blockIdx.x > 0 ? in[base + t * kTile - 1] : 0.0f);
            out[base + t * kTile + i] = (left + tile[i] + tile[i + 1]) / 3.0f;
        }
        __syncthreads();
        pipe.consumer_release();
    }
}
)";

// The bug: the last iteration commits nothing, so wait_prior<1> leaves the last tile in flight.
const char* kEarlyRead = R"(
#include <cuda/pipeline>
extern "C" __global__ void tileScale(const float* in, float* out, int tiles)
{
    constexpr int T = 64;
    __shared__ float buf[2][T];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int base = blockIdx.x * tiles * T;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[0][threadIdx.x], &in[base + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[(t + 1) & 1][threadIdx.x], &in[base + (t + 1) * T + threadIdx.x], sizeof(float), pipe);
            pipe.producer_commit();
        }
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        out[base + t * T + threadIdx.x] = 2.0f * buf[t & 1][threadIdx.x];
        pipe.consumer_release();
    }
}
)";

// cuda::barrier: each thread writes its word, arrives and waits, then reads its neighbour's; then
// the same with memcpy_async completing on the barrier. `extra` arrivals expected beyond the block.
std::string barrierKernels(int extra)
{
    return R"(
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;
extern "C" __global__ void neighbourSum(const float* in, float* out)
{
    __shared__ float tile[128];
    __shared__ barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size() + )" +
           std::to_string(extra) + R"();
    block.sync();
    tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    bar.arrive_and_wait();
    const float s = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128];
    barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));
    out[blockIdx.x * 128 + threadIdx.x] = s;
}
extern "C" __global__ void reverseCopy(const float* in, float* out)
{
    __shared__ float tile[128];
    __shared__ barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 128, sizeof(float) * 128, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}
)";
}

sim::SimResult runBarrierKernel(const CompiledKernel& kernel, const std::vector<float>& input)
{
    return simulateWithArgs(kernel, {3, 1, 1}, {128, 1, 1},
                            {bufferArg("in", sim::ElementType::F32, input),
                             bufferArg("out", sim::ElementType::F32, std::vector<float>(input.size(), -1.0f))});
}

} // namespace

TEST(AsyncKernels, DoubleBufferedTilesMatchTheCpu)
{
    const CompiledKernel kernel = compileKernel(kTiledAverage, "tiledAverage", "compute_80");
    const int blocks = 3, tiles = 4, n = blocks * tiles * 128;
    const std::vector<float> input = ramp(static_cast<std::size_t>(n));
    const sim::SimResult result = simulateWithArgs(kernel, {blocks, 1, 1}, {32, 1, 1},
                                                   {bufferArg("in", sim::ElementType::F32, input),
                                                    bufferArg("out", sim::ElementType::F32, std::vector<float>(input.size(), 0)),
                                                    i32("tiles", tiles)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<float> out = bufferValues<float>(result, "out");
    for (int i = 0; i < n; ++i) {
        const float left = i > 0 ? input[static_cast<std::size_t>(i - 1)] : 0.0f;
        const float right = i + 1 < n ? input[static_cast<std::size_t>(i + 1)] : 0.0f;
        EXPECT_EQ(out[static_cast<std::size_t>(i)], (left + input[static_cast<std::size_t>(i)] + right) / 3.0f) << "element " << i;
    }
    // Every input byte was read by a 16-byte cp.async (.cg): 3 x 4 tiles x 512 bytes.
    const sim::InstructionCounters copies = countersOf(result, *kernel.function, ptx::Op::CpAsync);
    EXPECT_EQ(copies.threadExecutions, static_cast<std::uint64_t>(blocks * tiles * 32));
    EXPECT_EQ(copies.bytesRequested, static_cast<std::uint64_t>(n) * 4);
}

// The last tile is read while its copy is in flight: the read is reported, and it sees the bytes
// two tiles back that the buffer still holds, as a GPU may.
TEST(AsyncKernels, ReadingBeforeTheWaitIsReportedAndReadsTheOldTile)
{
    const CompiledKernel kernel = compileKernel(kEarlyRead, "tileScale", "compute_80");
    const int blocks = 2, tiles = 5, n = blocks * tiles * 64;
    std::vector<float> input(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        input[static_cast<std::size_t>(i)] = static_cast<float>(i);
    const sim::SimResult result = simulateWithArgs(kernel, {blocks, 1, 1}, {64, 1, 1},
                                                   {bufferArg("in", sim::ElementType::F32, input),
                                                    bufferArg("out", sim::ElementType::F32, std::vector<float>(input.size(), 0)),
                                                    i32("tiles", tiles)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const auto early = hazardsOf(result, sim::HazardKind::AsyncCopyInFlight);
    ASSERT_EQ(early.size(), 1u);
    EXPECT_EQ(early[0]->occurrences, static_cast<std::uint64_t>(blocks * 64)); // every thread, last tile
    EXPECT_NE(early[0]->message.find("this thread's cp.async"), std::string::npos) << early[0]->message;
    EXPECT_EQ(early[0]->source.line, 19); // out[...] = 2.0f * buf[t & 1][threadIdx.x]
    const std::vector<float> out = bufferValues<float>(result, "out");
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < tiles; ++t)
            for (int x = 0; x < 64; ++x) {
                const int tile = t == tiles - 1 ? t - 2 : t; // the buffer's previous contents
                const std::size_t i = static_cast<std::size_t>((b * tiles + t) * 64 + x);
                EXPECT_EQ(out[i], 2.0f * input[static_cast<std::size_t>((b * tiles + tile) * 64 + x)]) << "output " << i;
            }
}

TEST(AsyncKernels, CudaBarrierMatchesTheCpuAtComputeCapability80And90)
{
    const std::vector<float> input = ramp(3 * 128);
    for (const char* arch : {"compute_80", "compute_90"}) {
        const CompiledKernel sum = compileKernel(barrierKernels(0), "neighbourSum", arch);
        const sim::SimResult summed = runBarrierKernel(sum, input);
        ASSERT_EQ(summed.status, sim::SimStatus::Completed) << arch << ": " << summed.statusMessage;
        EXPECT_TRUE(summed.hazards.empty()) << arch << ": " << summed.hazards.front().message;
        const std::vector<float> out = bufferValues<float>(summed, "out");
        for (int b = 0; b < 3; ++b)
            for (int x = 0; x < 128; ++x) {
                const std::size_t i = static_cast<std::size_t>(b * 128 + x);
                EXPECT_EQ(out[i], input[i] + input[static_cast<std::size_t>(b * 128 + (x + 1) % 128)]) << arch << " " << i;
            }

        const CompiledKernel reverse = compileKernel(barrierKernels(0), "reverseCopy", arch);
        const sim::SimResult reversed = runBarrierKernel(reverse, input);
        ASSERT_EQ(reversed.status, sim::SimStatus::Completed) << arch << ": " << reversed.statusMessage;
        EXPECT_TRUE(reversed.hazards.empty()) << arch << ": " << reversed.hazards.front().message;
        const std::vector<float> back = bufferValues<float>(reversed, "out");
        for (int b = 0; b < 3; ++b)
            for (int x = 0; x < 128; ++x)
                EXPECT_EQ(back[static_cast<std::size_t>(b * 128 + x)], input[static_cast<std::size_t>(b * 128 + 127 - x)])
                    << arch << " block " << b << " thread " << x;
        EXPECT_GT(countersOf(reversed, *reverse.function, ptx::Op::CpAsyncMbarrierArrive).threadExecutions, 0u);
    }
}

// init(&bar, block.size() + 1): the phase waits for an arrival nobody makes. A GPU hangs; the
// simulator reports it once per block and stops the block, and the launch ends.
TEST(AsyncKernels, ABarrierExpectingTooManyArrivalsIsADeadlock)
{
    const CompiledKernel kernel = compileKernel(barrierKernels(1), "neighbourSum", "compute_80");
    const sim::SimResult result = runBarrierKernel(kernel, ramp(3 * 128));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const auto deadlocks = hazardsOf(result, sim::HazardKind::MbarrierDeadlock);
    ASSERT_EQ(deadlocks.size(), 1u);
    EXPECT_EQ(deadlocks[0]->occurrences, 3u);
    EXPECT_NE(deadlocks[0]->message.find("still needs 1 of its 129 arrivals"), std::string::npos) << deadlocks[0]->message;
    EXPECT_EQ(bufferValues<float>(result, "out"), std::vector<float>(3 * 128, -1.0f));
}

// At compute_75 (the default) libcu++ has no mbarrier: cuda::barrier is a software barrier, each
// warp's leader arriving with atom.add.acq_rel on the barrier word and every thread spinning on it
// with ld.acquire. Those atomics and acquire loads do not race with each other (PTX: morally
// strong), and the release-acquire chain orders the tile writes before the neighbours' reads and
// those reads before the next writes, so the kernel is clean. Without the barriers it races.
TEST(AsyncKernels, SoftwareCudaBarrierAtComputeCapability75OrdersTheTile)
{
    const std::string source = R"(
#include <cuda/barrier>
using barrier = cuda::barrier<cuda::thread_scope_block>;
extern "C" __global__ void rotate(const float* in, float* out)
{
    __shared__ float tile[128];
    __shared__ barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    for (int step = 0; step < 2; ++step) {
        WAIT;
        const float next = tile[(threadIdx.x + 1) % 128];
        WAIT;
        tile[threadIdx.x] = next;
    }
    WAIT;
    out[blockIdx.x * 128 + threadIdx.x] = tile[threadIdx.x];
}
)";
    const std::vector<float> input = ramp(3 * 128);
    const CompiledKernel kernel = compileKernel("#define WAIT bar.arrive_and_wait()\n" + source, "rotate");
    const sim::SimResult result = runBarrierKernel(kernel, input);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_GT(countersOf(result, *kernel.function, ptx::Op::Atom).threadExecutions, 0u); // software, not mbarrier
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mbarrier).threadExecutions, 0u);
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<float> out = bufferValues<float>(result, "out");
    for (int b = 0; b < 3; ++b)
        for (int x = 0; x < 128; ++x) // rotated left twice
            EXPECT_EQ(out[static_cast<std::size_t>(b * 128 + x)], input[static_cast<std::size_t>(b * 128 + (x + 2) % 128)])
                << "block " << b << " thread " << x;

    // Without the barriers each warp's last thread reads the word the next warp's first thread
    // writes, with nothing ordering the two.
    const CompiledKernel unsynchronised = compileKernel("#define WAIT (void)bar\n" + source, "rotate");
    const sim::SimResult racy = runBarrierKernel(unsynchronised, input);
    ASSERT_EQ(racy.status, sim::SimStatus::Completed) << racy.statusMessage;
    EXPECT_FALSE(hazardsOf(racy, sim::HazardKind::SharedRace).empty());
}
