// Merged shared loads beyond the recorded kernels (issue 29, section 4). No recorded H200 session has
// a mat-vec kernel (assets/recorded/h200/ holds the demo kernels, the ladders and gpu-size runs), so a
// mat-vec kernel is checked against what ptxas really made of it, and its counters are worked by
// hand; matmul_tiled's are checked against the recorded session (shared_wavefronts_recorded_test.cpp
// and, here, the predicted-vs-measured table). The stepper's record of a merged load says what the
// hardware loads (width, the group's first word, member or first).
#include "sim_test_support.h"

#include "demo_kernels.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"
#include "session/prediction_comparison.h"
#include "session/session_io.h"
#include "sim/shared_load_merge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// y = A x with x staged in shared memory 128 floats at a time. Every lane of a warp reads the same
// xs[k]: a broadcast. NVRTC unrolls the k loop by 16 (xs[k] .. xs[k+15] at [%rd+0] .. [%rd+60]).
constexpr const char* kMatVec = R"(#define TILE 128
extern "C" __global__ void matvec_shared(const float* A, const float* x, float* y, int n)
{
    __shared__ float xs[TILE];
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        xs[threadIdx.x] = x[t + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += A[row * n + t + k] * xs[k];
        __syncthreads();
    }
    y[row] = acc;
}
)";

const std::filesystem::path kRecorded =
    std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "assets/recorded/h200";

sim::SimResult runMatVec(const CompiledKernel& kernel, int n, sim::SimOptions options = {})
{
    const std::string size = std::to_string(n);
    return simulateKernel(kernel, {static_cast<std::uint32_t>(n / 128), 1, 1}, {128, 1, 1},
                          {"A=f32[" + size + "*" + size + "]:random(1)", "x=f32[" + size + "]:random(2)", "y=f32[" + size + "]",
                           "n=i32:" + size},
                          0, options);
}

} // namespace

// What ptxas made: the SASS's LDS.128 are the rule's groups, one per four scalar loads of the PTX.
TEST(SharedMergeMatVec, ptxasMakesTheRulesWideLoads)
{
    const CompiledKernel kernel = compileKernel(kMatVec, "matvec_shared");
    int scalar = 0, leaders16 = 0;
    for (std::size_t i = 0; i < kernel.function->instructions.size(); ++i) {
        const ptx::Instruction& in = kernel.function->instructions[i];
        if (in.op != ptx::Op::Ld || in.space != ptx::Space::Shared)
            continue;
        ++scalar;
        const sim::SharedLoadMerge merge = sim::sharedLoadMerge(*kernel.function, static_cast<std::int32_t>(i));
        EXPECT_EQ(merge.bytes, 16u) << in.text;
        leaders16 += merge.leader;
    }
    EXPECT_EQ(scalar, 16);
    EXPECT_EQ(leaders16, 4);
    if (!ptx::findNvdisasm())
        GTEST_SKIP() << ptx::nvdisasmMissingMessage();
    ptx::CompileOptions compileOptions;
    const ptx::CompileResult compiled = ptx::compileCuda(kMatVec, "test.cu", compileOptions);
    ASSERT_TRUE(compiled.ok) << compiled.log;
    ptx::SassOptions options;
    options.arch = "sm_90";
    const ptx::SassListing listing = ptx::compileSass(compiled.ptx, options);
    std::map<int, int> sharedLoads; // bits -> count
    for (const ptx::SassInstruction& instruction : listing.findFunction("matvec_shared")->instructions)
        if (const auto access = ptx::sassMemoryAccess(instruction);
            access && access->space == ptx::SassSpace::Shared && access->load && !access->store)
            ++sharedLoads[access->widthBits];
    EXPECT_EQ(sharedLoads, (std::map<int, int>{{128, 4}}));
}

// By hand, n = 256: 2 blocks of 4 warps, 2 tiles of 128. Per warp and tile the PTX asks 128 scalar
// broadcasts of xs[k]; the SASS makes 32 LDS.128, every lane reading the same 16 bytes. The model of
// an H200's LDS.128 (sim/memory_analysis.cpp, from matmul_tiled's measured 2 wavefronts) serves each
// half-warp apart, its second quarter-warp riding on the first's words: 2 wavefronts each. Whether a
// GPU serves a whole-warp broadcast in one was not measured (no recorded session has a mat-vec
// kernel). 8 warps x 2 tiles x 32 = 512 requests and 1,024 wavefronts, not the PTX's 2,048 of each.
// The stores: one STS per warp and tile, 16.
TEST(SharedMergeMatVec, countersFollowTheSassByHand)
{
    const CompiledKernel kernel = compileKernel(kMatVec, "matvec_shared");
    const sim::SimResult result = runMatVec(kernel, 256);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(result.stats.shared.loadRequests, 512u);
    EXPECT_EQ(result.stats.shared.loadWavefronts, 1024u);
    EXPECT_EQ(result.stats.shared.storeRequests, 16u);
    EXPECT_EQ(result.stats.shared.bankConflicts, 0u);
    // Each value is still loaded: y equals the sum worked in double.
    std::vector<float> a(256 * 256), x(256);
    for (const sim::ResolvedArg& arg : result.args) {
        if (arg.name == "A")
            std::memcpy(a.data(), arg.bytes.data(), a.size() * sizeof(float));
        if (arg.name == "x")
            std::memcpy(x.data(), arg.bytes.data(), x.size() * sizeof(float));
    }
    const std::vector<float> y = bufferValues<float>(result, "y");
    ASSERT_EQ(y.size(), 256u);
    for (int row = 0; row < 256; row += 51) {
        double sum = 0;
        for (int k = 0; k < 256; ++k)
            sum += static_cast<double>(a[static_cast<std::size_t>(row * 256 + k)]) * x[static_cast<std::size_t>(k)];
        EXPECT_NEAR(y[static_cast<std::size_t>(row)], sum, 1e-3 * (1 + std::abs(sum))) << row;
    }
}

// The stepper's record: the group's first load carries the LDS.128 (16 bytes per lane, 2 wavefronts),
// the next three ride on it (members, 0 wavefronts, 4, 8 and 12 bytes past the group's first word),
// and hardwareAccess gives the wide load the bank view should draw: every lane at xs[k]'s address.
TEST(SharedMergeMatVec, theRecordSaysWhatTheHardwareLoads)
{
    const CompiledKernel kernel = compileKernel(kMatVec, "matvec_shared");
    sim::SimOptions options;
    options.recordBlock = 0;
    const sim::SimResult result = runMatVec(kernel, 256, options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.recording);
    std::vector<const sim::RecordedAccess*> loads;
    for (const sim::RecordedAccess& access : result.recording->accesses)
        if (access.space == ptx::Space::Shared && !access.isStore && !access.isAtomic)
            loads.push_back(&access);
    ASSERT_GE(loads.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        const sim::RecordedAccess& load = *loads[i];
        EXPECT_EQ(load.bytesPerLane, 4u);
        EXPECT_EQ(load.mergedBytesPerLane, 16u) << i;
        EXPECT_EQ(load.mergedOffset, 4u * i) << i;
        EXPECT_EQ(load.mergedMember, i > 0) << i;
        EXPECT_EQ(load.wavefronts, i == 0 ? 2u : 0u) << i;
        EXPECT_EQ(load.addresses[5], loads[0]->addresses[5] + 4 * i) << i;
        const sim::RecordedAccess wide = sim::hardwareAccess(load);
        EXPECT_EQ(wide.bytesPerLane, 16u);
        EXPECT_EQ(wide.addresses[5], loads[0]->addresses[5]) << i;
    }
    // A load no one merges stays as it is.
    sim::RecordedAccess alone = *loads[0];
    alone.mergedBytesPerLane = 0;
    EXPECT_EQ(sim::hardwareAccess(alone).bytesPerLane, 4u);
}

// The predicted-vs-measured table on the recorded H200 session: matmul_tiled's shared-load
// wavefronts predicted by today's simulator (98,304, ptxas's merged loads followed) agree with the
// measured 98,304; the prediction stored with the session (the PTX's 131,072, made before) is
// explained by ptxas's merging, never marked as a difference.
TEST(SharedMergeMatVec, theTableDoesNotMarkTheMergedLoadsAsADifference)
{
    session::SessionReadResult read = session::readSessionFile((kRecorded / "ladder-matmul.wsprof").string());
    ASSERT_TRUE(read.problems.empty()) << read.problems.front();
    const auto rowOf = [](const session::Session& s) {
        for (const session::KernelComparison& kernel : session::comparePredictions(s, nullptr, session::plainNumberText()))
            if (kernel.kernel == "matmul_tiled")
                for (const session::ComparisonRow& row : kernel.rows)
                    if (row.key == "shared_load_wavefronts")
                        return row;
        return session::ComparisonRow{};
    };
    const session::ComparisonRow stored = rowOf(read.session);
    ASSERT_EQ(stored.key, "shared_load_wavefronts");
    EXPECT_EQ(stored.measured, 98304.0);
    EXPECT_NE(stored.agreement, session::Agreement::Differs) << stored.note;

    const kernels::DemoKernel* demo = kernels::findDemoKernel("matmul_tiled");
    ASSERT_NE(demo, nullptr);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, 1ull << 30);
    const sim::SimResult result = sim::simulate(kernels::demoLaunchRequest(*demo, launch, *gpu::findPreset("sm_90")));
    ASSERT_EQ(result.status, sim::SimStatus::Completed);
    bool replaced = false;
    for (session::PredictionRecord& p : read.session.predictions)
        if (p.kernel == "matmul_tiled") {
            p.sharedLoadRequests = result.stats.shared.loadRequests;
            p.sharedLoadWavefronts = result.stats.shared.loadWavefronts;
            replaced = true;
        }
    ASSERT_TRUE(replaced);
    const session::ComparisonRow today = rowOf(read.session);
    EXPECT_EQ(today.predicted, 98304.0);
    EXPECT_EQ(today.agreement, session::Agreement::Agrees) << today.note;
}
