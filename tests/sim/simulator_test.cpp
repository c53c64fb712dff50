// The simulator against hand-worked answers: coalescing, bank conflicts, divergence, warp
// collectives, atomics, address spaces, hazards, the step budget and the trace.
#include "sim_test_support.h"

#include "demo_kernels.h"
#include "sim/trace_io.h"
#include "util/input_error.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

const char* kLoadKernel = R"(
extern "C" __global__ void strided_load(const float* in, float* out, int stride, int offset)
{
    int i = threadIdx.x;
    out[i] = in[i * stride + offset];
}
)";

struct LoadCost {
    std::uint64_t requests, sectors;
};

LoadCost loadCost(int stride, int offset, int threads = 32)
{
    static const CompiledKernel kernel = compileKernel(kLoadKernel, "strided_load");
    const sim::SimResult result = simulateKernel(
        kernel, {1, 1, 1}, {threads, 1, 1},
        {"in=f32[32*32+64]:iota", "out=f32[32]", "stride=i32:" + std::to_string(stride), "offset=i32:" + std::to_string(offset)});
    EXPECT_TRUE(result.hazards.empty());
    const sim::InstructionCounters loads = countersOf(result, *kernel.function, ptx::Op::Ld, ptx::Space::Global);
    return {loads.globalRequests, loads.globalSectors};
}

bool hasHazard(const sim::SimResult& result, sim::HazardKind kind)
{
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == kind)
            return true;
    return false;
}

} // namespace

// A warp's 32 consecutive floats: 128 bytes, exactly four 32-byte sectors, one request.
TEST(Coalescing, FullWarpContiguousFloatsIsOneRequestFourSectors)
{
    const LoadCost cost = loadCost(1, 0);
    EXPECT_EQ(cost.requests, 1u);
    EXPECT_EQ(cost.sectors, 4u);
}

TEST(Coalescing, StrideTwoTouchesEightSectors)
{
    const LoadCost cost = loadCost(2, 0);
    EXPECT_EQ(cost.requests, 1u);
    EXPECT_EQ(cost.sectors, 8u);
}

TEST(Coalescing, StrideThirtyTwoTouchesOneSectorPerLane)
{
    const LoadCost cost = loadCost(32, 0);
    EXPECT_EQ(cost.requests, 1u);
    EXPECT_EQ(cost.sectors, 32u);
}

TEST(Coalescing, MisalignedContiguousLoadTouchesFiveSectors)
{
    // Allocations are 256-byte aligned, so one float of offset shifts the 128 bytes over a boundary.
    EXPECT_EQ(loadCost(1, 1).sectors, 5u);
    EXPECT_EQ(loadCost(1, 8).sectors, 4u); // 8 floats = one whole sector: aligned again
}

TEST(Coalescing, PartialWarpCountsOnlyActiveLanes)
{
    // 8 threads x 4 bytes = 32 bytes = one sector.
    EXPECT_EQ(loadCost(1, 0, 8).sectors, 1u);
}

namespace {

const char* kTileKernels = R"(
extern "C" __global__ void column_no_padding(float* out)
{
    __shared__ float tile[32][32];
    for (int r = 0; r < 32; ++r)
        tile[r][threadIdx.x] = r * 32 + threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = tile[threadIdx.x][0];
}
extern "C" __global__ void column_padded(float* out)
{
    __shared__ float tile[32][33];
    for (int r = 0; r < 32; ++r)
        tile[r][threadIdx.x] = r * 32 + threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = tile[threadIdx.x][0];
}
extern "C" __global__ void one_word(float* out)
{
    __shared__ float tile[32];
    tile[threadIdx.x] = threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = tile[5];
}
)";

sim::InstructionCounters sharedLoads(const std::string& entry, std::vector<float>* out = nullptr)
{
    const CompiledKernel kernel = compileKernel(kTileKernels, entry);
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"out=f32[32]"});
    EXPECT_TRUE(result.hazards.empty()) << entry << ": " << (result.hazards.empty() ? "" : result.hazards[0].message);
    if (out)
        *out = bufferValues<float>(result, "out");
    return countersOf(result, *kernel.function, ptx::Op::Ld, ptx::Space::Shared);
}

} // namespace

// Reading a column of a 32x32 float tile: every lane's word is in bank 0 -> 32-way conflict.
TEST(BankConflicts, ColumnOfUnpaddedTileIsThirtyTwoWay)
{
    std::vector<float> out;
    const sim::InstructionCounters loads = sharedLoads("column_no_padding", &out);
    EXPECT_EQ(loads.sharedRequests, 1u);
    EXPECT_EQ(loads.maxConflictDegree, 32u);
    EXPECT_EQ(loads.sharedWavefronts, 32u);
    EXPECT_EQ(loads.sharedBankConflicts, 31u);
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], static_cast<float>(lane * 32));
}

// One word of padding puts row r's first word in bank r: no conflict.
TEST(BankConflicts, OneWordOfPaddingRemovesTheConflict)
{
    std::vector<float> out;
    const sim::InstructionCounters loads = sharedLoads("column_padded", &out);
    EXPECT_EQ(loads.maxConflictDegree, 1u);
    EXPECT_EQ(loads.sharedWavefronts, 1u);
    EXPECT_EQ(loads.sharedBankConflicts, 0u);
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], static_cast<float>(lane * 32));
}

TEST(BankConflicts, AllLanesReadingOneWordIsABroadcast)
{
    std::vector<float> out;
    const sim::InstructionCounters loads = sharedLoads("one_word", &out);
    EXPECT_EQ(loads.maxConflictDegree, 1u);
    EXPECT_EQ(loads.sharedBankConflicts, 0u);
    for (float value : out)
        EXPECT_EQ(value, 5.0f);
}

// The demo's odd/even kernel: one divergent branch per warp, each side run by 16 of 32 lanes.
TEST(Divergence, OddEvenIsOneDivergentBranchPerWarpWithSixteenLanesEachSide)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel("divergence_odd_even");
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch =
        kernels::resolveDemoLaunch(*demo, {{sim::parseArgSpec("n=i32:256")}, std::string("1"), std::string("256"), {}}, 1 << 20);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    request.options.trace.blocks = {0};
    const sim::SimResult result = sim::simulate(request);
    EXPECT_EQ(result.stats.branchesDivergent, 8u); // 8 warps, one divergent branch each
    // In the trace, the two sides of the branch run with the odd and the even lanes.
    bool sawOdd = false, sawEven = false;
    for (const sim::TraceEvent& event : result.trace.events) {
        if (event.kind != sim::TraceEventKind::Issue)
            continue;
        if (event.activeMask == 0xAAAAAAAAu) sawOdd = true;
        if (event.activeMask == 0x55555555u) sawEven = true;
        const int active = std::popcount(event.activeMask);
        EXPECT_TRUE(active == 32 || active == 16) << "pc " << event.pc << " mask " << std::hex << event.activeMask;
    }
    EXPECT_TRUE(sawOdd);
    EXPECT_TRUE(sawEven);
    EXPECT_TRUE(kernels::compareWithGold(*demo, launch, result.args).matches);
}

// Nested divergence and loops of different lengths per lane: the Collatz step counts of 1..64,
// checked against a plain CPU loop.
TEST(Divergence, NestedDivergentLoopsReconvergeWithCorrectResults)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void collatz(const unsigned* start, unsigned* steps)
{
    unsigned x = start[threadIdx.x], count = 0;
    while (x != 1) {
        if (x & 1) x = 3 * x + 1;
        else x >>= 1;
        ++count;
    }
    steps[threadIdx.x] = count;
}
)", "collatz");
    const sim::SimResult shifted =
        simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"start=u32[64]:random_int(1,1000,3)", "steps=u32[64]"});
    ASSERT_EQ(shifted.status, sim::SimStatus::Completed);
    const std::vector<unsigned> start = bufferValues<unsigned>(shifted, "start");
    const std::vector<unsigned> steps = bufferValues<unsigned>(shifted, "steps");
    for (std::size_t i = 0; i < 64; ++i) {
        unsigned x = start[i], count = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            ++count;
        }
        EXPECT_EQ(steps[i], count) << "lane " << i << " start " << start[i];
    }
    EXPECT_GT(shifted.stats.branchesDivergent, 0u);
}

// A return nested inside a branch: the warp reconverges right after the inner if, so the barrier
// below is reached by every lane together (no false barrier divergence) and the exchange through
// shared memory sees every value.
TEST(Divergence, NestedEarlyReturnStillReconvergesBeforeTheBarrier)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void nested_return(const int* in, int* out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    int v = in[t];
    if (t < 16) {
        if (v < 0) return;
        v *= 2;
    }
    s[t] = v;
    __syncthreads();
    out[t] = s[t ^ 16];
}
)", "nested_return");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=i32[32]:iota", "out=i32[32]"});
    EXPECT_TRUE(result.hazards.empty()) << (result.hazards.empty() ? "" : result.hazards[0].message);
    const std::vector<int> out = bufferValues<int>(result, "out");
    for (int t = 0; t < 32; ++t) {
        const int k = t ^ 16;
        EXPECT_EQ(out[static_cast<std::size_t>(t)], k < 16 ? 2 * k : k) << "thread " << t;
    }
}

TEST(Bits, PopcountOfSixtyFourBitsWritesAThirtyTwoBitCount)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void popcount(const unsigned long long* in, int* out)
{
    out[threadIdx.x] = __popcll(in[threadIdx.x]);
}
)", "popcount");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=u64[32]:fill(9223372036854775807)", "out=i32[32]"});
    for (int value : bufferValues<int>(result, "out"))
        EXPECT_EQ(value, 63); // 2^63 - 1
}

TEST(StepBudget, AKernelThatNeverEndsStopsWithAClearResult)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void spin(volatile int* flag)
{
    while (flag[0] == 0) { }
}
)", "spin");
    sim::SimOptions options;
    options.stepBudget = 10000;
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"flag=i32[1]"}, 0, options);
    EXPECT_EQ(result.status, sim::SimStatus::StepBudgetExceeded);
    EXPECT_NE(result.statusMessage.find("did not finish within 10,000 warp-instructions"), std::string::npos)
        << result.statusMessage;
}

TEST(WarpCollectives, ShuffleDownSumsAWarp)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void warp_sum(const int* in, int* out)
{
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0) out[0] = v;
}
)", "warp_sum");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=i32[32]:iota", "out=i32[1]"});
    EXPECT_EQ(bufferValues<int>(result, "out")[0], 496); // 0 + 1 + ... + 31
    EXPECT_TRUE(result.hazards.empty());
}

TEST(WarpCollectives, BallotSetsOneBitPerVotingLane)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void ballot(const int* in, unsigned* out)
{
    out[threadIdx.x] = __ballot_sync(0xffffffffu, in[threadIdx.x] > 10);
}
)", "ballot");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=i32[32]:iota", "out=u32[32]"});
    for (unsigned value : bufferValues<unsigned>(result, "out"))
        EXPECT_EQ(value, 0xFFFFF800u); // lanes 11..31
}

TEST(Atomics, GlobalAtomicAddCountsEveryThread)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void count(const int* in, unsigned* bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&bins[in[i] % 4], 1u);
}
)", "count");
    for (int threads : {1, 2}) {
        sim::SimOptions options;
        options.hostThreads = threads;
        const sim::SimResult result =
            simulateKernel(kernel, {8, 1, 1}, {128, 1, 1}, {"in=i32[1024]:iota", "bins=u32[4]"}, 0, options);
        for (unsigned value : bufferValues<unsigned>(result, "bins"))
            EXPECT_EQ(value, 256u) << threads << " host threads";
    }
}

TEST(AddressSpaces, GenericPointersReachSharedAndGlobalMemory)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void generic(float* g, float* out, int which)
{
    __shared__ float s[32];
    s[threadIdx.x] = threadIdx.x * 2.0f;
    __syncthreads();
    float* p = which ? s : g;
    out[threadIdx.x] = p[(threadIdx.x + 1) % 32];
}
)", "generic");
    const sim::SimResult shared = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"g=f32[32]:fill(7)", "out=f32[32]", "which=i32:1"});
    const std::vector<float> fromShared = bufferValues<float>(shared, "out");
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(fromShared[static_cast<std::size_t>(lane)], static_cast<float>(((lane + 1) % 32) * 2));
    const sim::SimResult global = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"g=f32[32]:fill(7)", "out=f32[32]", "which=i32:0"});
    for (float value : bufferValues<float>(global, "out"))
        EXPECT_EQ(value, 7.0f);
    EXPECT_TRUE(shared.hazards.empty());
    EXPECT_TRUE(global.hazards.empty());
}

TEST(AddressSpaces, LocalArraysArePrivateToEachThread)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void local_array(const int* pick, int* out)
{
    int a[16];
    for (int i = 0; i < 16; ++i)
        a[i] = i * 100 + threadIdx.x;
    out[threadIdx.x] = a[pick[threadIdx.x] & 15];
}
)", "local_array");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"pick=i32[32]:iota", "out=i32[32]"});
    const std::vector<int> out = bufferValues<int>(result, "out");
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(out[static_cast<std::size_t>(lane)], (lane & 15) * 100 + lane);
}

TEST(Hazards, ReadingSharedMemoryNeverWrittenIsReported)
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
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"out=i32[32]"});
    ASSERT_TRUE(hasHazard(result, sim::HazardKind::UninitializedSharedRead));
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == sim::HazardKind::UninitializedSharedRead) {
            EXPECT_EQ(hazard.thread.x, 16); // the first lane that reads an unwritten word
            EXPECT_EQ(hazard.address, 64u);
            EXPECT_EQ(hazard.source.line, 7);
        }
}

TEST(Hazards, IntraWarpExchangeNeedsSyncwarp)
{
    const char* source = R"(
extern "C" __global__ void exchange(const int* in, int* out)
{
    __shared__ int s[32];
    s[threadIdx.x] = in[threadIdx.x];
#ifdef WITH_SYNC
    __syncwarp();
#endif
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
)";
    const sim::SimResult racy = simulateKernel(compileKernel(source, "exchange"), {1, 1, 1}, {32, 1, 1}, {"in=i32[32]:iota", "out=i32[32]"});
    EXPECT_TRUE(hasHazard(racy, sim::HazardKind::SharedRace));
    const sim::SimResult clean = simulateKernel(compileKernel(std::string("#define WITH_SYNC\n") + source, "exchange"),
                                                {1, 1, 1}, {32, 1, 1}, {"in=i32[32]:iota", "out=i32[32]"});
    EXPECT_TRUE(clean.hazards.empty());
}

TEST(Hazards, ThreadsThatExitBeforeABarrierDoNotCountAsDivergence)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void early_exit(int* out, int n)
{
    __shared__ int s[64];
    if (threadIdx.x >= n) return;
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[n - 1 - threadIdx.x];
}
)", "early_exit");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"out=i32[64]", "n=i32:40"});
    EXPECT_TRUE(result.hazards.empty()) << result.hazards[0].message;
    const std::vector<int> out = bufferValues<int>(result, "out");
    for (int t = 0; t < 40; ++t)
        EXPECT_EQ(out[static_cast<std::size_t>(t)], 39 - t);
}

// Neighbouring threads writing neighbouring bytes share a 4-byte word but no byte: not a race.
TEST(Hazards, ByteArraysInSharedMemoryAreTrackedPerByte)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void bytes(const unsigned char* in, unsigned char* out)
{
    __shared__ unsigned char s[64];
    s[threadIdx.x] = in[threadIdx.x] + 1;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
)", "bytes");
    const sim::SimResult clean = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"in=u8[64]:iota", "out=u8[64]"});
    EXPECT_TRUE(clean.hazards.empty()) << (clean.hazards.empty() ? "" : clean.hazards[0].message);
    const std::vector<unsigned char> out = bufferValues<unsigned char>(clean, "out");
    for (int t = 0; t < 64; ++t)
        EXPECT_EQ(out[static_cast<std::size_t>(t)], 63 - t + 1);
    // Half the threads: the other half's bytes are read before anyone wrote them.
    const sim::SimResult half = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=u8[64]:iota", "out=u8[64]"});
    EXPECT_TRUE(hasHazard(half, sim::HazardKind::UninitializedSharedRead));
    EXPECT_FALSE(hasHazard(half, sim::HazardKind::SharedRace));
}

// Thread 0 writes data[slot] and sets a flag; thread 32 (warp 1) waits for the flag and reads
// data[slot] (`slot` keeps NVRTC from forwarding the value). Per the PTX memory consistency model the
// flag's accesses are strong (atomic_ref: ld/st .relaxed, .acquire, .release), so they never race
// with each other; whether the data read races depends on the flag's ordering: a release read by an
// acquire (directly, seq_cst's fence.sc + st.relaxed, or fences around relaxed accesses) orders it,
// relaxed alone does not, and plain accesses with no barrier race.
TEST(Hazards, ReleaseAcquireOrdersTheDataItPublishes)
{
    const char* const source = R"(
#include <cuda/atomic>
using flag_ref = cuda::atomic_ref<int, cuda::thread_scope_block>;
#define PUBLISH(setFlag, flagValue)                                  \
    __shared__ int flag, data[32];                                   \
    if (threadIdx.x == 0) flag = 0;                                  \
    __syncthreads();                                                 \
    flag_ref f(flag);                                                \
    if (threadIdx.x == 0) { data[slot] = 42; setFlag; }              \
    if (threadIdx.x == 32) { while ((flagValue) == 0) {} out[0] = data[slot]; }
extern "C" __global__ void releaseAcquire(int* out, int slot)
{ PUBLISH(f.store(1, cuda::memory_order_release), f.load(cuda::memory_order_acquire)) }
extern "C" __global__ void seqCst(int* out, int slot) { PUBLISH(f.store(1), f.load()) }
extern "C" __global__ void fences(int* out, int slot)
{
    PUBLISH((__threadfence_block(), f.store(1, cuda::memory_order_relaxed)),
            (f.load(cuda::memory_order_relaxed) && (__threadfence_block(), true)))
}
extern "C" __global__ void relaxedOnly(int* out, int slot)
{ PUBLISH(f.store(1, cuda::memory_order_relaxed), f.load(cuda::memory_order_relaxed)) }
extern "C" __global__ void plain(int* out, int slot)
{
    __shared__ int data[32];
    if (threadIdx.x == 0) data[slot] = 42;
    if (threadIdx.x == 32) out[0] = data[slot];
}
)";
    const auto run = [&](const char* entry, int slot = 3) {
        return simulateKernel(compileKernel(source, entry), {1, 1, 1}, {64, 1, 1},
                              {"out=i32[64]", "slot=i32:" + std::to_string(slot)});
    };
    for (const char* ordered : {"releaseAcquire", "seqCst", "fences"}) {
        const sim::SimResult result = run(ordered);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << ordered << ": " << result.statusMessage;
        EXPECT_TRUE(result.hazards.empty()) << ordered << ": " << result.hazards.front().message;
        EXPECT_EQ(bufferValues<int>(result, "out")[0], 42) << ordered;
    }
    for (const char* racy : {"relaxedOnly", "plain"}) {
        std::uint64_t addresses[2] = {};
        for (int slot : {3, 5}) {
            const sim::SimResult result = run(racy, slot);
            ASSERT_EQ(result.status, sim::SimStatus::Completed) << racy << ": " << result.statusMessage;
            ASSERT_EQ(result.hazards.size(), 1u) << racy;
            const sim::Hazard& race = result.hazards[0];
            EXPECT_EQ(race.kind, sim::HazardKind::SharedRace) << racy;
            EXPECT_EQ(race.thread.x, 32) << racy;
            EXPECT_EQ(race.otherThread, 0) << racy;
            EXPECT_TRUE(race.otherWrote) << racy;
            addresses[slot == 5] = race.address;
        }
        EXPECT_EQ(addresses[1] - addresses[0], 8u) << racy; // data[slot] moves with slot: the data, not the flag
    }
}

// Strong accesses are free of races with each other only when they overlap completely (PTX: morally
// strong). Thread 0 adds to a 64-bit shared word atomically while thread 32 reads it with
// ld.relaxed: all 8 bytes, or only the low 4.
TEST(Hazards, StrongAccessesThatOverlapOnlyPartlyRace)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry partial(.param .u32 narrow)
{
    .reg .pred %p<4>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    .shared .align 8 .b64 word;
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $READ;
    mov.u64 %rd1, 0;
    st.shared.u64 [word], %rd1;
$READ:
    bar.sync 0;
    @%p1 bra $OTHERS;
    atom.shared.add.u64 %rd2, [word], 1;
    bra.uni $DONE;
$OTHERS:
    setp.ne.u32 %p2, %r1, 32;
    @%p2 bra $DONE;
    ld.param.u32 %r2, [narrow];
    setp.ne.u32 %p3, %r2, 0;
    @%p3 bra $NARROW;
    ld.relaxed.cta.shared.u64 %rd3, [word];
    bra.uni $DONE;
$NARROW:
    ld.relaxed.cta.shared.u32 %r3, [word];
$DONE:
    ret;
}
)",
                                                 "partial");
    const sim::SimResult whole = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"narrow=u32:0"});
    ASSERT_EQ(whole.status, sim::SimStatus::Completed) << whole.statusMessage;
    EXPECT_TRUE(whole.hazards.empty()) << whole.hazards.front().message;
    const sim::SimResult half = simulateKernel(kernel, {1, 1, 1}, {64, 1, 1}, {"narrow=u32:1"});
    ASSERT_EQ(half.status, sim::SimStatus::Completed) << half.statusMessage;
    ASSERT_EQ(half.hazards.size(), 1u);
    EXPECT_EQ(half.hazards[0].kind, sim::HazardKind::SharedRace);
    EXPECT_EQ(half.hazards[0].address, 0u);
}

TEST(Hazards, IntegerDivisionByZeroIsReported)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void divide(const int* a, const int* b, int* out)
{
    out[threadIdx.x] = a[threadIdx.x] / b[threadIdx.x];
}
)", "divide");
    const sim::SimResult result = simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"a=i32[32]:iota", "b=i32[32]", "out=i32[32]"});
    EXPECT_TRUE(hasHazard(result, sim::HazardKind::DivisionByZero));
}

TEST(HostThreads, TwoThreadsGiveTheSameResultsAndStatistics)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel("stencil_1d");
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {{sim::parseArgSpec("n=i32:20000")}, {}, {}, {}}, 1 << 24);
    sim::SimResult results[2];
    for (int threads : {1, 2}) {
        sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
        request.options.hostThreads = threads;
        results[threads - 1] = sim::simulate(request);
    }
    EXPECT_EQ(results[0].stats.threadInstructions, results[1].stats.threadInstructions);
    EXPECT_EQ(results[0].stats.global.loadSectors, results[1].stats.global.loadSectors);
    EXPECT_EQ(results[0].stats.shared.bankConflicts, results[1].stats.shared.bankConflicts);
    EXPECT_EQ(bufferValues<float>(results[0], "out"), bufferValues<float>(results[1], "out"));
    EXPECT_TRUE(kernels::compareWithGold(*demo, launch, results[1].args).matches);
}

TEST(Trace, TracedBlockHasOneEventPerWarpInstructionAndRoundTripsThroughAFile)
{
    const CompiledKernel kernel = compileKernel(kLoadKernel, "strided_load");
    sim::SimOptions options;
    options.trace.blocks = {1};
    const sim::SimResult result = simulateKernel(kernel, {3, 1, 1}, {64, 1, 1},
                                                 {"in=f32[4096]:iota", "out=f32[64]", "stride=i32:2", "offset=i32:0"}, 0, options);
    // Every issue event belongs to block 1; there are as many as block 1's warp-instructions
    // (a third of the total, since the three blocks run the same code).
    std::uint64_t issues = 0;
    for (const sim::TraceEvent& event : result.trace.events) {
        EXPECT_EQ(event.block, 1u);
        issues += event.kind == sim::TraceEventKind::Issue;
    }
    EXPECT_EQ(issues * 3, result.stats.warpInstructions);
    // The load's memory record: lane addresses 8 bytes apart, 8 sectors.
    bool sawLoad = false;
    for (const sim::TraceEvent& event : result.trace.events) {
        if (event.memory < 0 || kernel.function->instructions[static_cast<std::size_t>(event.pc)].op != ptx::Op::Ld ||
            kernel.function->instructions[static_cast<std::size_t>(event.pc)].space != ptx::Space::Global)
            continue;
        const sim::TraceMemoryAccess& access = result.trace.memory[static_cast<std::size_t>(event.memory)];
        EXPECT_EQ(access.sectors, 8u);
        EXPECT_EQ(access.addresses[1] - access.addresses[0], 8u);
        sawLoad = true;
    }
    EXPECT_TRUE(sawLoad);

    const std::string path = ::testing::TempDir() + "/warpscope_trace_test.wstrace";
    sim::writeTrace(path, result.trace, *kernel.function, "strided_load");
    const sim::TraceFile read = sim::readTrace(path);
    EXPECT_EQ(read.kernel, "strided_load");
    ASSERT_EQ(read.trace.events.size(), result.trace.events.size());
    ASSERT_EQ(read.trace.memory.size(), result.trace.memory.size());
    EXPECT_EQ(read.trace.events.back().pc, result.trace.events.back().pc);
    EXPECT_EQ(read.trace.memory.front().addresses, result.trace.memory.front().addresses);

    // A file cut short, and one of a future version, are refused with a message that says so.
    std::string contents;
    {
        std::ifstream in(path, std::ios::binary);
        contents.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size() - 40));
    }
    try {
        sim::readTrace(path);
        ADD_FAILURE() << "a truncated trace was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("cut short"), std::string::npos) << error.what();
    }
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "warpscope-trace 99\n{}\n";
    }
    try {
        sim::readTrace(path);
        ADD_FAILURE() << "a version 99 trace was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("version 99"), std::string::npos) << error.what();
    }
    std::remove(path.c_str());
}

TEST(LaunchValidation, ArgumentsMustMatchTheParameters)
{
    const CompiledKernel kernel = compileKernel(kLoadKernel, "strided_load");
    EXPECT_THROW(simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=f32[32]", "out=f32[32]", "stride=i32:1"}), InputError);
    try {
        simulateKernel(kernel, {1, 1, 1}, {32, 1, 1}, {"in=f32[32]", "out=f32[32]", "stride=i64:1", "offset=i32:0"});
        ADD_FAILURE() << "an i64 for an i32 parameter was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("argument 3 'stride' is i64 (8 bytes)"), std::string::npos) << error.what();
    }
    EXPECT_THROW(simulateKernel(kernel, {1, 1, 1}, {2048, 1, 1}, {"in=f32[32]", "out=f32[32]", "stride=i32:1", "offset=i32:0"}),
                 InputError);
}
