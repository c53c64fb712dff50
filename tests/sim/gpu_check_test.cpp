// The probe's CPU-side checks (profiling/gpu_check.h): GPU outputs against the simulator's, and
// the prediction record made from the simulator's statistics.
#include "gpu_check.h"

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "occupancy/occupancy.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

template <typename T>
sim::ResolvedArg buffer(const std::string& name, sim::ElementType type, const std::vector<T>& values)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = type;
    arg.isBuffer = true;
    arg.count = values.size();
    arg.bytes.resize(values.size() * sizeof(T));
    std::memcpy(arg.bytes.data(), values.data(), arg.bytes.size());
    return arg;
}

} // namespace

TEST(GpuCheck, FloatsAgreeWithinTheRelativeToleranceAndIntegersOnlyExactly)
{
    // Tolerance 1e-5 x max(1, |reference|): 1e-5 around 1 and 0.01 around 1000.
    const auto f32 = sim::ElementType::F32;
    const std::vector<sim::ResolvedArg> reference{buffer<float>("c", f32, {1.0f, 1000.0f})};
    EXPECT_EQ(probe::compareBuffers({buffer<float>("c", f32, {1.000005f, 1000.005f})}, reference), "");
    EXPECT_EQ(probe::compareBuffers({buffer<float>("c", f32, {1.0f, 1000.25f})}, reference),
              "c[1]: GPU 1000.25, simulator 1000");
    EXPECT_EQ(probe::compareBuffers({buffer<float>("c", f32, {1.00002f, 1000.0f})}, reference).rfind("c[0]: GPU 1.00002", 0), 0u);

    const auto i32 = sim::ElementType::I32;
    const std::vector<sim::ResolvedArg> counts{buffer<std::int32_t>("h", i32, {7, 100000})};
    EXPECT_EQ(probe::compareBuffers({buffer<std::int32_t>("h", i32, {7, 100000})}, counts), "");
    EXPECT_EQ(probe::compareBuffers({buffer<std::int32_t>("h", i32, {7, 100001})}, counts), "h[1]: GPU 100001, simulator 100000");
}

// matmul_wmma's manifest gives its C a gpu_tolerance of 4e-3 (Tensor Core sums round in ways the
// simulator does not model); its A and B, and every buffer of other kernels, keep 1e-5.
TEST(GpuCheck, AManifestsGpuToleranceWidensOnlyItsBuffer)
{
    const kernels::DemoKernel* wmma = kernels::findDemoKernel("matmul_wmma");
    const kernels::DemoKernel* add = kernels::findDemoKernel("vector_add");
    ASSERT_NE(wmma, nullptr);
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(probe::floatToleranceFor(nullptr, "C"), 1e-5);
    EXPECT_EQ(probe::floatToleranceFor(wmma, "C"), 4e-3);
    EXPECT_EQ(probe::floatToleranceFor(wmma, "A"), 1e-5);
    EXPECT_EQ(probe::floatToleranceFor(add, "c"), 1e-5);

    // Around 20: 4e-3 x 20 = 0.08 is allowed, 0.1 is not; without the demo, 1e-5 x 20 = 2e-4.
    const auto f32 = sim::ElementType::F32;
    const std::vector<sim::ResolvedArg> reference{buffer<float>("C", f32, {20.0f, -0.5f})};
    EXPECT_EQ(probe::compareBuffers({buffer<float>("C", f32, {20.07f, -0.503f})}, reference, nullptr, nullptr, wmma), "");
    EXPECT_EQ(probe::compareBuffers({buffer<float>("C", f32, {20.1f, -0.5f})}, reference, nullptr, nullptr, wmma)
                  .rfind("C[0]: GPU 20.1", 0),
              0u);
    EXPECT_EQ(probe::compareBuffers({buffer<float>("C", f32, {20.07f, -0.5f})}, reference).rfind("C[0]: GPU 20.0699", 0), 0u);

    const std::vector<sim::ResolvedArg> args{buffer<float>("A", f32, {1}), buffer<float>("C", f32, {1})};
    EXPECT_EQ(probe::floatToleranceText(wmma, args), "1e-05 relative (C: 0.004)");
    EXPECT_EQ(probe::floatToleranceText(add, args), "1e-05 relative");
}

TEST(GpuCheck, WithTheUploadedInputsOnlyWhatTheSimulatorWroteIsCompared)
{
    // A block sample wrote elements 0 and 2; element 1 kept its input on the simulator, while the
    // GPU (which ran every block) wrote it: not a difference, and not counted.
    const auto f32 = sim::ElementType::F32;
    const std::vector<sim::ResolvedArg> before{buffer<float>("c", f32, {0, 0, 0})};
    const std::vector<sim::ResolvedArg> simulated{buffer<float>("c", f32, {1, 0, 3})};
    std::uint64_t compared = 0;
    EXPECT_EQ(probe::compareBuffers({buffer<float>("c", f32, {1, 2, 3})}, simulated, &before, &compared), "");
    EXPECT_EQ(compared, 2u);
    compared = 0;
    EXPECT_EQ(probe::compareBuffers({buffer<float>("c", f32, {1, 2, 4})}, simulated, &before, &compared),
              "c[2]: GPU 4, simulator 3");
}

TEST(GpuCheck, PredictionCountsOneFaddPerElementOfVectorAdd)
{
    const kernels::DemoKernel& demo = *kernels::findDemoKernel("vector_add");
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, {}, 1ull << 30);
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, preset);
    request.options.timing = false;
    const sim::SimResult result = sim::simulate(std::move(request));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    std::int64_t n = 0;
    for (const sim::ResolvedArg& arg : launch.args)
        if (arg.name == "n")
            n = arg.integerValue;
    ASSERT_GT(n, 0);

    const ptx::Function& function = *kernels::demoModule(demo).findFunction(demo.entry);
    const session::PredictionRecord p = probe::predictionFrom("vector_add", result, function, preset, launch);
    // c[i] = a[i] + b[i]: one add.f32 per element, no multiply, no FMA; two loads and one store
    // per warp that has an element.
    EXPECT_EQ(p.fadd, static_cast<std::uint64_t>(n));
    EXPECT_EQ(p.fmul, 0u);
    EXPECT_EQ(p.ffma, 0u);
    const std::uint64_t warpsWithElements = (static_cast<std::uint64_t>(n) + 31) / 32;
    EXPECT_EQ(p.globalLoadRequests, 2 * warpsWithElements);
    EXPECT_EQ(p.globalStoreRequests, warpsWithElements);
    EXPECT_EQ(p.preset, "sm_90");
    EXPECT_EQ(p.totalBlocks, launch.grid.x);

    occupancy::OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(launch.block.volume());
    input.registersPerThread = 32;
    EXPECT_DOUBLE_EQ(p.theoreticalOccupancy, occupancy::computeOccupancy(preset, input).occupancy);
}
