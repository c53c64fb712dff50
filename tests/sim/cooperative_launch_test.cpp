// Cooperative launches (issue 31, section 2; sim/grid_barrier.h): kernels that call cooperative
// groups' grid.sync(), compiled by NVRTC against the toolkit's own cooperative_groups.h, run with
// every block resident. Checked against CPU references, against the order a grid barrier
// guarantees, against the occupancy limit worked out by hand, and against the same launches run
// without --cooperative.
#include "sim_test_support.h"

#include "sim/grid_barrier.h"
#include "util/input_error.h"

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// Our own grid-wide reduction, in the spirit of the single-pass multi-block reductions of NVIDIA's
// cuda-samples (reductionMultiBlockCG): a grid-stride sum per thread, a shared-memory tree per
// block, one partial per block; after grid.sync() block 0 adds the partials; after a second
// grid.sync() every block uses the total. Integers, so the CPU reference is exact.
const char* kGridKernels = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void centreByGridSum(const int* in, int* blockSums, int* total, int* centred, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int partial[128];
    int sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) blockSums[blockIdx.x] = partial[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        int s = 0;
        for (int b = 0; b < gridDim.x; ++b) s += blockSums[b];
        *total = s;
    }
    grid.sync();
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) centred[i] = in[i] * n - *total;
}

// Block b writes its slot before the barrier and reads block b + 1's after it: without the barrier
// the later block has not written yet when blocks run one after another.
extern "C" __global__ void readNeighbour(int* slots, int* seen)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) slots[blockIdx.x] = 100 + blockIdx.x;
    grid.sync();
    if (threadIdx.x == 0) seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

// Rounds of a ring: each round every block adds its right neighbour's value from the last round,
// so bit 31 of the barrier word flips back and forth (two grid.sync() per round).
extern "C" __global__ void ringRounds(int* value, int* next, int rounds)
{
    cg::grid_group grid = cg::this_grid();
    for (int r = 0; r < rounds; ++r) {
        if (threadIdx.x == 0) next[blockIdx.x] = value[blockIdx.x] + value[(blockIdx.x + 1) % gridDim.x];
        grid.sync();
        if (threadIdx.x == 0) value[blockIdx.x] = next[blockIdx.x];
        grid.sync();
    }
}

// Block 0 leaves before the barrier the others wait at.
extern "C" __global__ void leavesEarly(int* out)
{
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 0) return;
    grid.sync();
    out[blockIdx.x] = 1;
}

// No grid barrier: whether the workspace is there, and a plain element-wise step.
extern "C" __global__ void askValid(int* valid, const float* in, float* out, int n)
{
    if (threadIdx.x == 0) valid[blockIdx.x] = cg::this_grid().is_valid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}

// Nothing cooperative at all, with a shared-memory reverse so the counters have shared traffic.
extern "C" __global__ void reverseTiles(const float* in, float* out, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = tile[blockDim.x - 1 - threadIdx.x] + 1.0f;
}
)";

sim::ResolvedArg intArg(const std::string& name, std::int64_t value)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = sim::ElementType::I32;
    arg.scalarBits = static_cast<std::uint64_t>(value);
    arg.integerValue = value;
    return arg;
}

sim::SimOptions cooperative()
{
    sim::SimOptions options;
    options.cooperative = true;
    return options;
}

const CompiledKernel& kernel(const std::string& entry)
{
    static std::vector<std::pair<std::string, CompiledKernel>> compiled;
    for (const auto& [name, k] : compiled)
        if (name == entry)
            return k;
    compiled.emplace_back(entry, compileKernel(kGridKernels, entry));
    return compiled.back().second;
}

} // namespace

TEST(CooperativeLaunch, GridWideSumMatchesTheCpuReference)
{
    const int n = 3000;
    std::mt19937 random(31);
    std::uniform_int_distribution<int> value(-50, 50);
    std::vector<int> in(n);
    for (int& v : in)
        v = value(random);
    const sim::SimResult result =
        simulateWithArgs(kernel("centreByGridSum"), {8, 1, 1}, {128, 1, 1},
                         {bufferArg("in", sim::ElementType::I32, in), bufferArg("blockSums", sim::ElementType::I32, std::vector<int>(8, 0)),
                          bufferArg("total", sim::ElementType::I32, std::vector<int>(1, 0)),
                          bufferArg("centred", sim::ElementType::I32, std::vector<int>(n, 0)), intArg("n", n)},
                         cooperative());
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    // CPU reference: thread t of the 1,024 sums elements t, t + 1,024, ...; block b its 128 threads.
    std::vector<int> blockSums(8, 0);
    for (int i = 0; i < n; ++i)
        blockSums[static_cast<std::size_t>((i % 1024) / 128)] += in[static_cast<std::size_t>(i)];
    const int total = std::accumulate(in.begin(), in.end(), 0);
    EXPECT_EQ(bufferValues<int>(result, "blockSums"), blockSums);
    EXPECT_EQ(bufferValues<int>(result, "total")[0], total);
    const std::vector<int> centred = bufferValues<int>(result, "centred");
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(centred[static_cast<std::size_t>(i)], in[static_cast<std::size_t>(i)] * n - total) << i;
    EXPECT_EQ(result.stats.blocksSimulated, 8u);
    EXPECT_TRUE(result.stats.timing.available);
}

TEST(CooperativeLaunch, AValueWrittenBeforeTheBarrierIsReadAfterItByAnotherBlock)
{
    const int blocks = 6;
    sim::SimOptions options = cooperative();
    options.recordBlock = 2;
    const sim::SimResult result =
        simulateWithArgs(kernel("readNeighbour"), {blocks, 1, 1}, {64, 1, 1},
                         {bufferArg("slots", sim::ElementType::I32, std::vector<int>(blocks, 0)),
                          bufferArg("seen", sim::ElementType::I32, std::vector<int>(blocks, 0))},
                         options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<int> seen = bufferValues<int>(result, "seen");
    for (int b = 0; b < blocks; ++b)
        EXPECT_EQ(seen[static_cast<std::size_t>(b)], 100 + (b + 1) % blocks) << "block " << b;
    // Blocks take turns in order: block 2 arrived third, while blocks 3, 4 and 5 were on their way.
    ASSERT_TRUE(result.recording);
    ASSERT_EQ(result.recording->gridWaits.size(), 1u);
    const sim::RecordedGridWait& wait = result.recording->gridWaits[0];
    EXPECT_EQ(wait.barrier, 0u);
    EXPECT_EQ(wait.arrived, 3u);
    EXPECT_EQ(wait.blocks, 6u);
    EXPECT_EQ(wait.notArrived, (std::vector<std::uint64_t>{3, 4, 5}));
    // It waits after the poll that found the barrier closed: a load of the grid workspace.
    ASSERT_GT(wait.step, 0u);
    ASSERT_LT(wait.step, result.recording->steps.size());
    const sim::RecordedStep& poll = result.recording->steps[wait.step - 1];
    const ptx::Instruction& load = kernel("readNeighbour").function->instructions[static_cast<std::size_t>(poll.pc)];
    EXPECT_EQ(load.op, ptx::Op::Ld);
    EXPECT_EQ(load.order, ptx::MemoryOrder::Acquire);
    // Polls (grid_barrier.h): warp 0 of blocks 0-4 polls on arrival while warp 1 is still on its way
    // to the closing bar.sync, once more when it alone runs (the block then waits), and once when its
    // next turn finds the barrier open; block 5, the last to arrive, finds it open at once:
    // 5 x 3 + 1 = 16 warp-level loads.
    std::uint64_t polls = 0;
    const ptx::Function& function = *kernel("readNeighbour").function;
    for (std::size_t i = 0; i < function.instructions.size(); ++i)
        if (function.instructions[i].op == ptx::Op::Ld && function.instructions[i].order == ptx::MemoryOrder::Acquire)
            polls += result.stats.perInstruction[i].warpExecutions;
    EXPECT_EQ(polls, 16u);

    // The last block to arrive never waits: the barrier opens on its own arrival.
    options.recordBlock = blocks - 1;
    const sim::SimResult last =
        simulateWithArgs(kernel("readNeighbour"), {blocks, 1, 1}, {64, 1, 1},
                         {bufferArg("slots", sim::ElementType::I32, std::vector<int>(blocks, 0)),
                          bufferArg("seen", sim::ElementType::I32, std::vector<int>(blocks, 0))},
                         options);
    ASSERT_TRUE(last.recording);
    EXPECT_TRUE(last.recording->gridWaits.empty());
}

TEST(CooperativeLaunch, ManyBarriersInALoop)
{
    const int blocks = 5, rounds = 7;
    std::vector<int> value = {1, 2, 3, 4, 5};
    const sim::SimResult result =
        simulateWithArgs(kernel("ringRounds"), {blocks, 1, 1}, {32, 1, 1},
                         {bufferArg("value", sim::ElementType::I32, value), bufferArg("next", sim::ElementType::I32, std::vector<int>(blocks, 0)),
                          intArg("rounds", rounds)},
                         cooperative());
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (int r = 0; r < rounds; ++r) {
        std::vector<int> next(blocks);
        for (int b = 0; b < blocks; ++b)
            next[static_cast<std::size_t>(b)] = value[static_cast<std::size_t>(b)] + value[static_cast<std::size_t>((b + 1) % blocks)];
        value = next;
    }
    EXPECT_EQ(bufferValues<int>(result, "value"), value);
    // Deterministic: the same run gives the same counters, polls included.
    const sim::SimResult again =
        simulateWithArgs(kernel("ringRounds"), {blocks, 1, 1}, {32, 1, 1},
                         {bufferArg("value", sim::ElementType::I32, std::vector<int>{1, 2, 3, 4, 5}),
                          bufferArg("next", sim::ElementType::I32, std::vector<int>(blocks, 0)), intArg("rounds", rounds)},
                         cooperative());
    EXPECT_EQ(again.stats.warpInstructions, result.stats.warpInstructions);
    EXPECT_EQ(again.stats.timing.cycles, result.stats.timing.cycles);
    // Under independent thread scheduling the polls are the same PTX: the same values.
    sim::SimOptions its = cooperative();
    its.warpModel = sim::WarpModel::IndependentThreads;
    const sim::SimResult independent =
        simulateWithArgs(kernel("ringRounds"), {blocks, 1, 1}, {32, 1, 1},
                         {bufferArg("value", sim::ElementType::I32, std::vector<int>{1, 2, 3, 4, 5}),
                          bufferArg("next", sim::ElementType::I32, std::vector<int>(blocks, 0)), intArg("rounds", rounds)},
                         its);
    ASSERT_EQ(independent.status, sim::SimStatus::Completed) << independent.statusMessage;
    EXPECT_EQ(bufferValues<int>(independent, "value"), value);
}

TEST(CooperativeLaunch, ABlockThatNeverArrivesIsADeadlockNamedInOneSentence)
{
    const sim::SimResult result = simulateWithArgs(kernel("leavesEarly"), {4, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<int>(4, 0))}, cooperative());
    ASSERT_EQ(result.status, sim::SimStatus::GridBarrierDeadlock);
    EXPECT_EQ(result.statusMessage,
              "grid.sync() number 1 never completes: blocks 1, 2, 3 wait there for block 0, which finished without "
              "reaching it (every block must call grid.sync() equally often; on a GPU the launch hangs)");
    EXPECT_FALSE(result.stats.timing.available);
}

// Without --cooperative the kernel is refused before it runs: one line that says why and what to pass.
TEST(CooperativeLaunch, WithoutACooperativeLaunchTheKernelIsRefused)
{
    try {
        simulateWithArgs(kernel("readNeighbour"), {2, 1, 1}, {32, 1, 1},
                         {bufferArg("slots", sim::ElementType::I32, std::vector<int>(2, 0)),
                          bufferArg("seen", sim::ElementType::I32, std::vector<int>(2, 0))});
        FAIL() << "grid.sync() ran without a cooperative launch";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_NE(message.find("(test.cu:"), std::string::npos) << message;
        EXPECT_NE(message.find("kernel readNeighbour synchronises the whole grid"), std::string::npos) << message;
        EXPECT_NE(message.find("needs a cooperative launch (cudaLaunchCooperativeKernel)"), std::string::npos) << message;
        EXPECT_NE(message.find("simulate it as one with --cooperative"), std::string::npos) << message;
    }
}

// H100 SXM (sm_90): 132 SMs, 64 warps and 65,536 registers per SM. 1,024 threads are 32 warps:
// floor(64 / 32) = 2 blocks by warps; 32 registers x 32 lanes x 32 warps = 32,768 per block, 2 fit
// in 65,536: 2 blocks per SM, 264 blocks in all. At 64 registers per thread a block needs 65,536: 1
// per SM, 132 blocks.
TEST(CooperativeLaunch, AGridLargerThanTheGpuHoldsIsRefusedWithTheNumbers)
{
    sim::LaunchRequest request;
    request.module = kernel("askValid").module.get();
    request.function = kernel("askValid").function;
    request.block = {1024, 1, 1};
    request.preset = *gpu::findPreset("sm_90");
    request.options = cooperative();
    request.args = {bufferArg("valid", sim::ElementType::I32, std::vector<int>(1, 0)),
                    bufferArg("in", sim::ElementType::F32, std::vector<float>(1, 0)),
                    bufferArg("out", sim::ElementType::F32, std::vector<float>(1, 0)), intArg("n", 0)};
    EXPECT_EQ(sim::cooperativeCapacity(request).blocksPerSm, 2);
    EXPECT_EQ(sim::cooperativeCapacity(request).blocks, 264u);
    request.grid = {264, 1, 1};
    EXPECT_NO_THROW(sim::validateLaunchRequest(request));
    request.grid = {265, 1, 1};
    try {
        sim::validateLaunchRequest(request);
        FAIL() << "265 blocks of 1,024 threads fit an H100";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_NE(message.find("the grid's 265 blocks are more than the 264 the H100 SXM holds: 132 SMs x 2 blocks per SM"),
                  std::string::npos) << message;
        EXPECT_NE(message.find("with 32 registers per thread"), std::string::npos) << message;
        EXPECT_NE(message.find("cudaErrorCooperativeLaunchTooLarge; launch at most 264 blocks"), std::string::npos) << message;
    }
    request.options.registersPerThread = 64;
    request.grid = {133, 1, 1};
    try {
        sim::validateLaunchRequest(request);
        FAIL() << "133 blocks of 1,024 threads at 64 registers fit an H100";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("more than the 132 the H100 SXM holds: 132 SMs x 1 block per SM (Registers"),
                  std::string::npos) << error.what();
    }
}

// grid.is_valid() reads the workspace address: true in a cooperative launch (and refused without one).
TEST(CooperativeLaunch, IsValidIsTrueInACooperativeLaunch)
{
    const int n = 600, blocks = 3;
    auto launch = [&](bool isCooperative) {
        sim::SimOptions options;
        options.cooperative = isCooperative;
        return simulateWithArgs(kernel("askValid"), {blocks, 1, 1}, {256, 1, 1},
                                {bufferArg("valid", sim::ElementType::I32, std::vector<int>(blocks, 7)),
                                 bufferArg("in", sim::ElementType::F32, std::vector<float>(n, 1.5f)),
                                 bufferArg("out", sim::ElementType::F32, std::vector<float>(n, 0)), intArg("n", n)},
                                options);
    };
    EXPECT_THROW(launch(false), InputError);
    const sim::SimResult together = launch(true);
    ASSERT_EQ(together.status, sim::SimStatus::Completed) << together.statusMessage;
    EXPECT_EQ(bufferValues<int>(together, "valid"), std::vector<int>(blocks, 1));
    EXPECT_EQ(bufferValues<float>(together, "out"), std::vector<float>(n, 4.0f));
}

// A kernel without a grid barrier gives the same results, counters and modelled cycles whether
// launched cooperatively or not: each SM's blocks run and are replayed in the same order.
TEST(CooperativeLaunch, AKernelWithoutABarrierRunsTheSameEitherWay)
{
    const int n = 5000, blocks = 20;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i)
        in[static_cast<std::size_t>(i)] = static_cast<float>(i) * 0.25f;
    auto launch = [&](bool isCooperative) {
        sim::SimOptions options;
        options.cooperative = isCooperative;
        return simulateWithArgs(kernel("reverseTiles"), {blocks, 1, 1}, {256, 1, 1},
                                {bufferArg("in", sim::ElementType::F32, in),
                                 bufferArg("out", sim::ElementType::F32, std::vector<float>(n, 0)), intArg("n", n)},
                                options);
    };
    const sim::SimResult alone = launch(false);
    const sim::SimResult together = launch(true);
    ASSERT_EQ(alone.status, sim::SimStatus::Completed) << alone.statusMessage;
    ASSERT_EQ(together.status, sim::SimStatus::Completed) << together.statusMessage;
    EXPECT_EQ(bufferValues<float>(together, "out"), bufferValues<float>(alone, "out"));
    EXPECT_EQ(together.bufferAddresses, alone.bufferAddresses); // the workspace comes after the buffers
    EXPECT_EQ(together.stats.warpInstructions, alone.stats.warpInstructions);
    EXPECT_EQ(together.stats.threadInstructions, alone.stats.threadInstructions);
    EXPECT_EQ(together.stats.global.loadSectors, alone.stats.global.loadSectors);
    EXPECT_EQ(together.stats.global.storeSectors, alone.stats.global.storeSectors);
    EXPECT_EQ(together.stats.shared.loadWavefronts, alone.stats.shared.loadWavefronts);
    EXPECT_EQ(together.stats.barriers, alone.stats.barriers);
    ASSERT_TRUE(alone.stats.timing.available);
    ASSERT_TRUE(together.stats.timing.available);
    EXPECT_EQ(together.stats.timing.cycles, alone.stats.timing.cycles);
    EXPECT_EQ(together.stats.timing.l2Hits, alone.stats.timing.l2Hits);
    for (std::size_t i = 0; i < alone.stats.perInstruction.size(); ++i)
        EXPECT_EQ(together.stats.perInstruction[i].warpExecutions, alone.stats.perInstruction[i].warpExecutions) << i;
}
