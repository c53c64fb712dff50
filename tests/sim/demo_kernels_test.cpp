// Every demo kernel, simulated with its default launch, equals its gold reference and shows exactly
// the hazards its manifest says it is built to show (none for the clean ones).
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "kernel_target.h"
#include "ptx/ptx_ir.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

class DemoKernelTest : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> demoIds()
{
    std::vector<std::string> ids;
    for (const kernels::DemoKernel& kernel : kernels::demoKernels())
        ids.push_back(kernel.id);
    return ids;
}

} // namespace

TEST_P(DemoKernelTest, MatchesGoldAndShowsOnlyItsExpectedHazards)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(GetParam());
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    const sim::SimResult result = sim::simulate(request);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;

    std::set<std::string> found, expected(demo->expectHazards.begin(), demo->expectHazards.end());
    for (const sim::Hazard& hazard : result.hazards)
        found.insert(sim::hazardKindName(hazard.kind));
    EXPECT_EQ(found, expected) << (result.hazards.empty() ? "" : result.hazards.front().message);

    if (!demo->gold.empty()) {
        const kernels::GoldComparison gold = kernels::compareWithGold(*demo, launch, result.args);
        EXPECT_TRUE(gold.available);
        EXPECT_TRUE(gold.matches) << gold.detail;
    } else {
        EXPECT_FALSE(expected.empty()) << demo->id << " has neither a gold reference nor expected hazards";
    }
}

INSTANTIATE_TEST_SUITE_P(AllDemos, DemoKernelTest, ::testing::ValuesIn(demoIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The reduction ladder's statistics tell the story the lessons tell.
TEST(DemoLadders, ReductionRungsRemoveDivergenceThenBankConflicts)
{
    auto run = [](const std::string& id) {
        const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
        const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
        sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
        return sim::simulate(request).stats;
    };
    const sim::KernelStats divergent = run("reduce_interleaved_divergent");
    const sim::KernelStats conflicts = run("reduce_interleaved_bank_conflicts");
    const sim::KernelStats sequential = run("reduce_sequential");
    EXPECT_LT(divergent.branchEfficiency(), conflicts.branchEfficiency());
    EXPECT_EQ(divergent.shared.bankConflicts, 0u);
    EXPECT_GT(conflicts.shared.bankConflicts, 0u);
    EXPECT_EQ(sequential.shared.bankConflicts, 0u);
    EXPECT_LT(sequential.warpInstructions, divergent.warpInstructions);
}

// ---- the roof rungs: exact statistics at the simulator's size ------------------------------------

namespace {

sim::SimResult simulateDemo(const std::string& id, const kernels::LaunchOverrides& overrides = {})
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
    EXPECT_NE(demo, nullptr) << id;
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, overrides, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90"));
    sim::SimResult result = sim::simulate(request);
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << id << ": " << (result.hazards.empty() ? "" : result.hazards.front().message);
    const kernels::GoldComparison gold = kernels::compareWithGold(*demo, launch, result.args);
    EXPECT_TRUE(gold.matches) << id << ": " << gold.detail;
    return result;
}

struct ExpectedMemory {
    std::uint64_t loadRequests, loadSectors, storeRequests, storeSectors;
    std::uint64_t sharedLoads, sharedLoadWavefronts, sharedStores, sharedStoreWavefronts, bankConflicts;
    std::uint64_t barriers;
};

void expectMemory(const sim::KernelStats& stats, const ExpectedMemory& want)
{
    EXPECT_EQ(stats.global.loadRequests, want.loadRequests);
    EXPECT_EQ(stats.global.loadSectors, want.loadSectors);
    EXPECT_EQ(stats.global.storeRequests, want.storeRequests);
    EXPECT_EQ(stats.global.storeSectors, want.storeSectors);
    EXPECT_EQ(stats.shared.loadRequests, want.sharedLoads);
    EXPECT_EQ(stats.shared.loadWavefronts, want.sharedLoadWavefronts);
    EXPECT_EQ(stats.shared.storeRequests, want.sharedStores);
    EXPECT_EQ(stats.shared.storeWavefronts, want.sharedStoreWavefronts);
    EXPECT_EQ(stats.shared.bankConflicts, want.bankConflicts);
    EXPECT_EQ(stats.barriers, want.barriers);
}

} // namespace

TEST(DemoLadders, VectorisedGridStrideCopyMovesTheSameSectorsInAQuarterOfTheRequests)
{
    // n = 2^20 floats = 262,144 float4s; grid min(cdiv(2^20, 4096), 1056) = 256 blocks of 256
    // threads = 2,048 warps; the grid-stride loop runs 262,144 / 65,536 = 4 times per thread.
    // Each warp's float4 access is 32 x 16 = 512 contiguous bytes: 1 request, 16 sectors.
    // Loads: 2,048 x 4 = 8,192 requests, x 16 = 131,072 sectors; stores the same. n % 4 == 0, so
    // the scalar tail loads and stores nothing. copy_coalesced needs 32,768 requests for the same
    // 131,072 sectors.
    const sim::KernelStats stats = simulateDemo("copy_vec4_grid_stride").stats;
    expectMemory(stats, {8192, 131072, 8192, 131072, 0, 0, 0, 0, 0, 0});
    EXPECT_EQ(stats.global.bytesRequested, stats.global.bytesMoved);
}

TEST(DemoLadders, VectorisedGridStrideReductionReadsEverySectorOnce)
{
    // n = 131,072 floats = 32,768 float4s; grid min(cdiv(131072, 4096), 1056) = 32 blocks of 256
    // = 256 warps; 32,768 / 8,192 threads = 4 loop trips each: 256 x 4 = 1,024 float4 load
    // requests of 16 sectors = 16,384 sectors (every byte of the input once, as in rung 6).
    // Stores: lane 0 of warp 0 writes out[block]: 32 requests, 1 sector each.
    // Shared: lane 0 of each of the 8 warps stores its warp's sum: 8 x 32 = 256 store requests
    // of one wavefront; warp 0 reads the 8 sums, 8 banks: 32 loads of one wavefront. One barrier
    // per block: 32.
    const sim::KernelStats stats = simulateDemo("reduce_vec4_grid_stride").stats;
    expectMemory(stats, {1024, 16384, 32, 32, 32, 32, 256, 256, 0, 32});
}

TEST(DemoLadders, MatmulOneDimensionalBlocktileBroadcastsA)
{
    // n = 128: grid 2 x 2 blocks of 64 x 8 threads (16 warps) = 64 warps; k steps of 8: 16.
    // Per warp and step: A loads 4 rows x 8 floats (one 32-byte sector each): 1 request, 4
    // sectors; B loads 32 consecutive floats: 1 request, 4 sectors. 64 x 16 x 2 = 2,048 requests,
    // 8,192 sectors. Stores: 8 per thread, each a warp's 32 consecutive floats: 64 x 8 = 512
    // requests, 2,048 sectors.
    // Shared stores: 2 per warp and step, consecutive words: 2,048 requests of one wavefront.
    // Shared loads: the PTX's 8 k x (1 of B + 8 of A) = 72 per warp and step are, in the SASS ptxas
    // makes (sim/shared_load_merge.h), 8 LDS of B (consecutive: one wavefront) and 16 LDS.128 of A
    // (each thread's 8 rows x 8 k, four k at a time; one address per warp: each half-warp's two
    // quarter-warps read the same 16 bytes, 2 wavefronts): 24 requests, 8 + 32 = 40 wavefronts;
    // 64 x 16 x 24 = 24,576 and 64 x 16 x 40 = 40,960. Barriers: 2 x 16 x 4 = 128.
    const sim::KernelStats stats = simulateDemo("matmul_1d_blocktile").stats;
    expectMemory(stats, {2048, 8192, 512, 2048, 24576, 40960, 2048, 2048, 0, 128});
}

TEST(DemoLadders, MatmulTwoDimensionalBlocktileShowsItsBankConflicts)
{
    // n = 128: one block of 16 x 16 threads = 8 warps; 16 k steps of 8.
    // Global loads: 4 of A (4 rows x 8 floats: 4 sectors) and 4 of B (32 floats: 4 sectors) per
    // thread and step: 8 x 16 x 8 = 1,024 requests, 4,096 sectors. Stores: 64 per thread, each
    // lane one float 8 floats from its neighbour: 32 sectors per request: 8 x 64 = 512 requests,
    // 16,384 sectors.
    // Shared stores: 8 per thread and step, consecutive words: 8 x 16 x 8 = 1,024 of one wavefront.
    // Shared loads: the PTX's 16 scalar loads per thread and k (8 of A, 8 of B, each 8 consecutive
    // words) are 4 LDS.128 in the SASS ptxas makes (sim/shared_load_merge.h): 8 warps x 16 steps x
    // 8 k x 4 = 4,096 requests. A: the warp's two rows of threads, one per half-warp, each read one
    // 16-byte group (its two quarter-warps the same): 2 wavefronts, no conflict. B: a quarter-warp's
    // lanes are 8 words apart, lanes 0 and 4 in the same banks: 2 wavefronts in each of 4 phases, 8,
    // 4 conflicts. Per warp and k 2 x 2 + 2 x 8 = 20 wavefronts and 2 x 4 = 8 conflicts; x 8 x 16 x 8
    // = 20,480 and 8,192; the worst phase is 2-way. Barriers: 32.
    const sim::KernelStats stats = simulateDemo("matmul_2d_blocktile").stats;
    expectMemory(stats, {1024, 4096, 512, 16384, 4096, 20480, 1024, 1024, 8192, 32});
    EXPECT_EQ(stats.shared.maxConflictDegree, 2u);
}

TEST(DemoLadders, MatmulVectorisedLoadsQuarterTheRequests)
{
    // n = 128: one block of 16 x 16 threads, 8 warps, 16 k steps.
    // Global loads: one float4 of A (16 rows x 32 bytes: 16 sectors) and one of B (512 contiguous
    // bytes: 16 sectors) per thread and step: 8 x 16 x 2 = 256 requests, 4,096 sectors. Stores:
    // 16 float4s per thread; in a request 2 rows x 16 lanes of 16 bytes, 32 bytes apart: 32
    // sectors. 8 x 16 = 128 requests, 4,096 sectors.
    // Shared stores per warp and step: 4 scalar transposed A stores (rows of 132 words: the two
    // columns land 16 banks apart, one wavefront each) and 1 float4 B store (4 quarter-warp phases,
    // one wavefront each): 5 requests, 8 wavefronts; x 8 x 16 = 640 and 1,024.
    // Shared loads: 4 float4s per thread and k, 8 x 16 x 8 x 4 = 4,096 requests. A: a half-warp
    // shares one address (its two quarter-warps the same 16 bytes): 2 wavefronts. B: 8 lanes 8 words
    // apart, 2 words per bank: 8 wavefronts, 4 conflicts. 8 x 16 x 8 x 2 x (2 + 8) = 20,480
    // wavefronts, x 2 x 4 = 8,192 conflicts. Barriers: 32.
    const sim::KernelStats stats = simulateDemo("matmul_vectorized").stats;
    expectMemory(stats, {256, 4096, 128, 4096, 4096, 20480, 640, 1024, 8192, 32});
}

TEST(DemoLadders, MatmulWarptileIsConflictFreeAndCoalesced)
{
    // As matmul_vectorized, except: each quarter warp reads its own 16 bytes of A (4 wavefronts per
    // float4 load) and the same 32 consecutive floats of B (the two of a half-warp share them: 2
    // wavefronts), no conflicts: 8 x 16 x 8 x 2 x (4 + 2) = 12,288 wavefronts; and a float4 store
    // covers 4 rows x 128 contiguous bytes: 16 sectors, 128 x 16 = 2,048.
    const sim::KernelStats stats = simulateDemo("matmul_warptile").stats;
    expectMemory(stats, {256, 4096, 128, 2048, 4096, 12288, 640, 1024, 0, 32});
    EXPECT_EQ(stats.global.bytesRequested, stats.global.bytesMoved);
}

TEST(DemoLadders, MatmulPrefetchHasOneBarrierPerStep)
{
    // The same loads and stores as matmul_warptile; barriers: one after the first tiles, then one
    // per k step: 1 + 16 = 17 instead of 32.
    const sim::KernelStats stats = simulateDemo("matmul_prefetch").stats;
    expectMemory(stats, {256, 4096, 128, 2048, 4096, 12288, 640, 1024, 0, 17});
}

// The vectorised kernels' edges: a scalar tail when n is not a multiple of 4, and matrix sizes
// that are not a multiple of the tile (zero-filled operands, guarded stores).
TEST(DemoLadders, RoofRungsHandleTheirEdges)
{
    auto withN = [](const std::string& n) {
        kernels::LaunchOverrides overrides;
        overrides.args = {sim::parseArgSpec("n=i32:" + n)};
        return overrides;
    };
    simulateDemo("copy_vec4_grid_stride", withN("1048575")); // 3 floats in the tail
    simulateDemo("copy_vec4_grid_stride", withN("3"));       // nothing but the tail
    simulateDemo("reduce_vec4_grid_stride", withN("131071"));
    for (const char* id : {"matmul_1d_blocktile", "matmul_2d_blocktile"})
        simulateDemo(id, withN("99"));
    for (const char* id : {"matmul_vectorized", "matmul_warptile", "matmul_prefetch"})
        simulateDemo(id, withN("100")); // a multiple of 4, not of the 8-wide k step or the tile
}

// matmul_wmma at n = 128: 4 x 4 blocks of 4 warps (64 warps), 128 / 16 = 8 steps along k. Each warp
// issues per step one wmma.mma and two wmma.loads (A and B), and one wmma.store at the end: 512 mma,
// 1,024 loads, 64 stores. Global loads: per step each thread reads 4 elements of A and 4 of B, so a
// warp issues 8 requests, each 4 sectors (A: two rows of 16 floats, B: 32 floats of one row):
// 64 x 8 x 8 = 4,096 requests, 16,384 sectors. Two barriers per step: 16 blocks x 16 = 256.
TEST(DemoLadders, MatmulWmmaIssuesOneTensorCoreInstructionPerWarpAndStep)
{
    const sim::SimResult result = simulateDemo("matmul_wmma");
    const kernels::DemoKernel& demo = *kernels::findDemoKernel("matmul_wmma");
    const ptx::Function* function = kernels::demoModule(demo).findFunction("matmul_wmma");
    ASSERT_NE(function, nullptr);
    ASSERT_EQ(result.stats.perInstruction.size(), function->instructions.size());
    std::map<ptx::Op, std::uint64_t> issued;
    for (std::size_t i = 0; i < function->instructions.size(); ++i)
        issued[function->instructions[i].op] += result.stats.perInstruction[i].warpExecutions;
    EXPECT_EQ(issued[ptx::Op::WmmaMma], 512u);
    EXPECT_EQ(issued[ptx::Op::WmmaLoad], 1024u);
    EXPECT_EQ(issued[ptx::Op::WmmaStore], 64u);
    EXPECT_EQ(result.stats.global.loadRequests, 4096u);
    EXPECT_EQ(result.stats.global.loadSectors, 16384u);
    EXPECT_EQ(result.stats.barriers, 256u);

    // Lesson 11: FP16 inputs put C 0.03 % from matmul_naive's FP32 result (the median relative
    // difference), 6.7e-4 in absolute terms.
    const sim::SimResult fp32 = simulateDemo("matmul_naive");
    auto buffer = [](const sim::SimResult& run) {
        for (const sim::ResolvedArg& arg : run.args)
            if (arg.name == "C")
                return std::vector<float>(reinterpret_cast<const float*>(arg.bytes.data()),
                                          reinterpret_cast<const float*>(arg.bytes.data() + arg.bytes.size()));
        return std::vector<float>{};
    };
    const std::vector<float> tensor = buffer(result), reference = buffer(fp32);
    ASSERT_EQ(tensor.size(), 128u * 128u);
    ASSERT_EQ(reference.size(), tensor.size());
    std::vector<double> relative, absolute;
    for (std::size_t i = 0; i < tensor.size(); ++i) {
        absolute.push_back(std::abs(static_cast<double>(tensor[i]) - reference[i]));
        relative.push_back(absolute.back() / std::abs(static_cast<double>(reference[i])));
    }
    auto median = [](std::vector<double> values) {
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
        return values[values.size() / 2];
    };
    EXPECT_NEAR(median(relative) * 100, 0.03, 0.005);
    EXPECT_NEAR(median(absolute), 6.7e-4, 0.05e-4);
}

// ---- launch sizes --------------------------------------------------------------------------------

TEST(DemoLaunchSizes, NamesAreSimAndGpu)
{
    EXPECT_EQ(kernels::launchSizeName(kernels::LaunchSize::Sim), "sim");
    EXPECT_EQ(kernels::launchSizeName(kernels::LaunchSize::Gpu), "gpu");
}

TEST(DemoLaunchSizes, GpuArgsReplaceTheManifestArgsOfTheSameName)
{
    const std::map<std::string, std::vector<std::string>> topicN = {
        {"copy", {"n=i32:134217728"}},      {"vector_add", {"n=i32:134217728"}}, {"reduction", {"n=i32:134217728"}},
        {"transpose", {"n=i32:8192"}},      {"matmul", {"n=i32:4096"}},          {"stencil", {"n=i32:134217728"}},
        {"histogram", {"n=i32:268435456"}}, {"divergence", {"n=i32:67108864"}},
        {"attention", {"n=i32:4096", "heads=i32:16"}}, // 16 heads: each n x n matrix is 1 GiB
        {"mma", {"n=i32:4096"}},
    };
    for (const kernels::DemoKernel& demo : kernels::demoKernels()) {
        SCOPED_TRACE(demo.id);
        const std::vector<sim::ArgSpec> sim = kernels::demoArgSpecs(demo, kernels::LaunchSize::Sim);
        const std::vector<sim::ArgSpec> gpu = kernels::demoArgSpecs(demo, kernels::LaunchSize::Gpu);
        ASSERT_EQ(sim.size(), demo.args.size());
        ASSERT_EQ(gpu.size(), sim.size());
        for (std::size_t i = 0; i < sim.size(); ++i) {
            EXPECT_EQ(sim[i].text, demo.args[i]);
            EXPECT_EQ(gpu[i].name, sim[i].name); // same parameters, same order
        }
        const auto n = topicN.find(demo.topic);
        if (n == topicN.end()) {
            EXPECT_TRUE(demo.gpuArgs.empty()) << "a new topic: add its GPU size here";
            continue;
        }
        EXPECT_EQ(demo.gpuArgs, n->second);
        for (std::size_t i = 0; i < gpu.size(); ++i) {
            std::string expected = demo.args[i];
            for (const std::string& spec : n->second)
                if (spec.starts_with(gpu[i].name + "="))
                    expected = spec;
            EXPECT_EQ(gpu[i].text, expected);
        }
    }
}

// Every GPU size fills an H100/H200 (132 SMs, 50-60 MB of L2): the memory-bound kernels move at
// least 256 MB (4x the L2) in at least 20 waves of 8 resident 256-thread blocks per SM (21,120
// blocks), or are grid-stride kernels sized to exactly one wave (1,056 blocks); no buffer passes
// 1 GiB. Only the scalars are resolved here: the buffers' sizes are evaluated, not allocated.
TEST(DemoLaunchSizes, GpuSizesFillAnH100)
{
    // Compute-bound at their GPU size, so a single wave of blocks is no defect: the matmul ladder,
    // matmul_mma, and the fused attention kernel (4 n^2 d FLOP per head on 4 n d floats of Q, K, V and O). The
    // unfused attention kernels move the n x n matrices and follow the memory-bound rule.
    const std::set<std::string> computeBound = {"matmul", "mma", "attention_fused"};
    for (const kernels::DemoKernel& demo : kernels::demoKernels()) {
        if (demo.gpuArgs.empty())
            continue;
        SCOPED_TRACE(demo.id);
        const std::vector<sim::ArgSpec> specs = kernels::demoArgSpecs(demo, kernels::LaunchSize::Gpu);
        std::vector<sim::ArgSpec> scalarSpecs;
        for (const sim::ArgSpec& spec : specs)
            if (!spec.isBuffer)
                scalarSpecs.push_back(spec);
        const std::vector<sim::ResolvedArg> scalars = sim::resolveArgs(scalarSpecs, 0);
        const auto values = sim::integerScalars(scalars);
        std::uint64_t bytes = 0;
        for (const sim::ArgSpec& spec : specs) {
            if (!spec.isBuffer)
                continue;
            const std::uint64_t buffer = static_cast<std::uint64_t>(sim::evaluateExpression(spec.expression, values, spec.name)) *
                                         sim::elementBytes(spec.type);
            EXPECT_LE(buffer, 1ull << 30) << spec.text;
            bytes += buffer;
        }
        const launch::Dim3 grid = kernels::evaluateDims(demo.grid, scalars, "grid");
        const std::int64_t blocks = grid.volume();
        if (computeBound.contains(demo.topic) || computeBound.contains(demo.id)) {
            EXPECT_EQ(values.at("n"), 4096);
            continue;
        }
        EXPECT_GE(bytes, 256'000'000u);
        EXPECT_TRUE(blocks >= 21'120 || blocks == 132 * 8) << blocks << " blocks";
    }
}

TEST(DemoLaunchSizes, ResolveTargetAppliesGpuArgsThenTheUsersOverrides)
{
    kernels::TargetRequest request;
    request.target = "matmul_prefetch";
    request.size = kernels::LaunchSize::Gpu;
    request.maxBufferBytes = 1ull << 30;
    const kernels::ResolvedTarget gpu = kernels::resolveTarget(request);
    EXPECT_EQ(gpu.argSpecs, (std::vector<std::string>{"A=f32[n*n]:random(1)", "B=f32[n*n]:random(2)", "C=f32[n*n]", "n=i32:4096"}));
    EXPECT_EQ(gpu.launch.grid.x, 32);
    EXPECT_EQ(gpu.launch.grid.y, 32);
    EXPECT_EQ(gpu.launch.args[2].count, 4096u * 4096u);

    // The user's --arg applies on top of the GPU size.
    request.target = "copy_strided";
    request.args = {"stride=i32:1", "n=i32:4096"};
    const kernels::ResolvedTarget overridden = kernels::resolveTarget(request);
    EXPECT_EQ(overridden.argSpecs, (std::vector<std::string>{"in=f32[n*stride]:random(1)", "out=f32[n]", "n=i32:4096", "stride=i32:1"}));
    EXPECT_EQ(overridden.launch.grid.x, 16);

    // Only the stride overridden: n stays the GPU size's, and the buffers follow it.
    request.args = {"stride=i32:1"};
    request.maxBufferBytes = 1ull << 20; // the GPU size does not fit a 1 MiB cap
    EXPECT_THROW(kernels::resolveTarget(request), InputError);

    // At the simulator's size nothing changes.
    request.size = kernels::LaunchSize::Sim;
    request.args = {};
    request.maxBufferBytes = 1ull << 30;
    EXPECT_EQ(kernels::resolveTarget(request).argSpecs,
              (std::vector<std::string>{"in=f32[n*stride]:random(1)", "out=f32[n]", "n=i32:1048576", "stride=i32:2"}));
}

TEST(DemoLaunchSizes, BrokenGpuArgsAreManifestDefects)
{
    kernels::DemoKernel demo = *kernels::findDemoKernel("vector_add");
    demo.gpuArgs = {"m=i32:5"};
    EXPECT_THROW(kernels::demoArgSpecs(demo, kernels::LaunchSize::Gpu), std::logic_error);
    EXPECT_NO_THROW(kernels::demoArgSpecs(demo, kernels::LaunchSize::Sim)); // the simulator's size ignores them
    demo.gpuArgs = {"n=i32:64", "n=i32:128"};
    EXPECT_THROW(kernels::demoArgSpecs(demo, kernels::LaunchSize::Gpu), std::logic_error);
    demo.gpuArgs = {"n=i33:64"};
    EXPECT_THROW(kernels::demoArgSpecs(demo, kernels::LaunchSize::Gpu), std::logic_error);
}

// The gold check in two halves holds a launch's buffers once: expectGold lends the launch's buffers
// to the reference and gives them back byte for byte, and keeps only the checked buffers' expected
// contents (vector_add: c = a + b, worked here element by element, not the inputs a and b).
TEST(GoldExpectation, GivesTheLaunchsBuffersBackAndKeepsOnlyTheCheckedOnes)
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel("vector_add");
    ASSERT_NE(demo, nullptr);
    kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    const kernels::DemoLaunch before = launch;
    const kernels::GoldExpectation expectation = kernels::expectGold(*demo, launch);
    ASSERT_TRUE(expectation.available);
    ASSERT_EQ(launch.args.size(), before.args.size());
    for (std::size_t i = 0; i < launch.args.size(); ++i)
        EXPECT_EQ(launch.args[i].bytes, before.args[i].bytes) << launch.args[i].name;
    ASSERT_EQ(expectation.checked.size(), std::size_t{1});
    const auto c = expectation.checked.find("c");
    ASSERT_NE(c, expectation.checked.end());
    std::map<std::string, const sim::ResolvedArg*> args;
    for (const sim::ResolvedArg& arg : launch.args)
        args[arg.name] = &arg;
    const auto* a = reinterpret_cast<const float*>(args.at("a")->bytes.data());
    const auto* b = reinterpret_cast<const float*>(args.at("b")->bytes.data());
    const auto* want = reinterpret_cast<const float*>(c->second.bytes.data());
    const std::size_t n = args.at("c")->bytes.size() / sizeof(float);
    ASSERT_EQ(c->second.bytes.size(), n * sizeof(float));
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(want[i], a[i] + b[i]) << i;
    // The simulator's result compares equal; one changed element does not.
    const sim::SimResult result = sim::simulate(kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90")));
    EXPECT_TRUE(kernels::compareWithExpected(*demo, expectation, result.args).matches);
    std::vector<sim::ResolvedArg> changed = result.args;
    for (sim::ResolvedArg& arg : changed)
        if (arg.name == "c")
            arg.bytes[0] ^= 1;
    EXPECT_FALSE(kernels::compareWithExpected(*demo, expectation, changed).matches);
}
