// The attention demo kernels (kernels/attention) against attention itself: the fused kernel and the
// three unfused kernels chained through their n x n matrices give softmax(Q K^T / sqrt(d)) V as
// computed here in double, and the bytes the fusion lesson counts are the ones worked out by hand.
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

constexpr std::size_t kHeadDim = 16;

struct KernelRun {
    kernels::DemoLaunch launch;
    sim::SimResult result;
};

// Runs a demo kernel at its simulator size, with `inputs` replacing buffers of the same name.
KernelRun run(const std::string& id, const std::vector<sim::ResolvedArg>& inputs = {})
{
    const kernels::DemoKernel* demo = kernels::findDemoKernel(id);
    EXPECT_NE(demo, nullptr) << id;
    KernelRun out{kernels::resolveDemoLaunch(*demo, {}, 1ull << 30), {}};
    for (const sim::ResolvedArg& input : inputs)
        for (sim::ResolvedArg& arg : out.launch.args)
            if (arg.name == input.name && arg.bytes.size() == input.bytes.size())
                arg.bytes = input.bytes;
    out.result = sim::simulate(kernels::demoLaunchRequest(*demo, out.launch, *gpu::findPreset("sm_90")));
    EXPECT_EQ(out.result.status, sim::SimStatus::Completed) << out.result.statusMessage;
    return out;
}

const sim::ResolvedArg& named(const std::vector<sim::ResolvedArg>& args, const std::string& name)
{
    return *std::find_if(args.begin(), args.end(), [&](const sim::ResolvedArg& arg) { return arg.name == name; });
}

std::vector<float> floats(const sim::ResolvedArg& arg)
{
    std::vector<float> values(arg.bytes.size() / sizeof(float));
    std::memcpy(values.data(), arg.bytes.data(), arg.bytes.size());
    return values;
}

// softmax(Q K^T / sqrt(d)) V for one head, in double.
std::vector<double> attention(const std::vector<float>& Q, const std::vector<float>& K, const std::vector<float>& V, std::size_t n)
{
    std::vector<double> O(n * kHeadDim, 0.0), scores(n);
    for (std::size_t i = 0; i < n; ++i) {
        double largest = -INFINITY, sum = 0;
        for (std::size_t j = 0; j < n; ++j) {
            double dot = 0;
            for (std::size_t c = 0; c < kHeadDim; ++c)
                dot += double(Q[i * kHeadDim + c]) * K[j * kHeadDim + c];
            scores[j] = dot / std::sqrt(double(kHeadDim));
            largest = std::max(largest, scores[j]);
        }
        for (std::size_t j = 0; j < n; ++j)
            sum += std::exp(scores[j] - largest);
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t c = 0; c < kHeadDim; ++c)
                O[i * kHeadDim + c] += std::exp(scores[j] - largest) / sum * V[j * kHeadDim + c];
    }
    return O;
}

} // namespace

TEST(AttentionKernels, FusedAndChainedUnfusedComputeAttention)
{
    const KernelRun fused = run("attention_fused");
    const std::size_t n = static_cast<std::size_t>(named(fused.launch.args, "n").integerValue);
    ASSERT_EQ(n, 128u);
    const std::vector<double> expected = attention(floats(named(fused.launch.args, "Q")), floats(named(fused.launch.args, "K")),
                                                   floats(named(fused.launch.args, "V")), n);

    // The unfused kernels share the fused one's Q, K (seeds 1, 2) and V (seed 3); S and P are passed on.
    const KernelRun scores = run("attention_scores");
    EXPECT_EQ(named(scores.launch.args, "Q").bytes, named(fused.launch.args, "Q").bytes);
    EXPECT_EQ(named(scores.launch.args, "K").bytes, named(fused.launch.args, "K").bytes);
    const KernelRun softmax = run("attention_softmax", {named(scores.result.args, "S")});
    const KernelRun pv = run("attention_pv", {named(softmax.result.args, "P")});
    EXPECT_EQ(named(pv.launch.args, "V").bytes, named(fused.launch.args, "V").bytes);

    // Every row of P sums to 1.
    const std::vector<float> P = floats(named(softmax.result.args, "P"));
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < n; ++j)
            sum += P[i * n + j];
        EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << i;
    }
    // FP32 sums of 128 terms of size about 1: both within 1e-5 of the double result.
    const std::vector<float> fusedO = floats(named(fused.result.args, "O")), unfusedO = floats(named(pv.result.args, "O"));
    ASSERT_EQ(fusedO.size(), expected.size());
    for (std::size_t e = 0; e < expected.size(); ++e) {
        EXPECT_NEAR(fusedO[e], expected[e], 1e-5) << "fused, element " << e;
        EXPECT_NEAR(unfusedO[e], expected[e], 1e-5) << "unfused, element " << e;
    }
}

TEST(AttentionKernels, FusionRemovesTheScoreMatricesTraffic)
{
    // n = 128, d = 16, one head: S and P are 64 KiB each, Q, K, V and O 8 KiB each.
    constexpr std::uint64_t matrix = 128 * 128 * 4, rows = 128 * 16 * 4;
    const sim::KernelStats scores = run("attention_scores").result.stats;
    const sim::KernelStats softmax = run("attention_softmax").result.stats;
    const sim::KernelStats pv = run("attention_pv").result.stats;
    const sim::KernelStats fused = run("attention_fused").result.stats;
    // Stored bytes: S, P, O, O (every store sector is whole: 4 per warp store).
    EXPECT_EQ(scores.global.storeSectors * 32, matrix);
    EXPECT_EQ(softmax.global.storeSectors * 32, matrix);
    EXPECT_EQ(pv.global.storeSectors * 32, rows);
    EXPECT_EQ(fused.global.storeSectors * 32, rows);
    // DRAM in the timing model, whose caches start empty and whose L2 is split over the SMs, so a
    // block on its own SM fetches what it reads itself. scores: S, plus 64 blocks x 16 rows of Q and
    // of K; softmax: S in, P out; P V: P, V for each of 64 blocks, O; fused: Q, 4 blocks x K and V, O.
    ASSERT_TRUE(fused.timing.available);
    EXPECT_EQ(scores.timing.dramBytes, matrix + 64 * 2 * 16 * 16 * 4);
    EXPECT_EQ(softmax.timing.dramBytes, 2 * matrix);
    EXPECT_EQ(pv.timing.dramBytes, matrix + 64 * rows + rows);
    EXPECT_EQ(fused.timing.dramBytes, rows + 4 * 2 * rows + rows);
    EXPECT_EQ(scores.timing.dramBytes + softmax.timing.dramBytes + pv.timing.dramBytes, 925'696u); // the lesson's 904 KiB
    EXPECT_EQ(fused.timing.dramBytes, 81'920u);                                                     // and 80 KiB
}
