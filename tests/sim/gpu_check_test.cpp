// The probe's CPU-side checks (profiling/gpu_check.h): GPU outputs against the simulator's, and
// the prediction record made from the simulator's statistics.
#include "gpu_check.h"

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "occupancy/occupancy.h"
#include "ptx/ptx_parser.h"
#include "ptx/sass_tools.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cmath>
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

// The approximate instructions a kernel can reach set its float tolerance: 4 x the PTX ISA's bound
// (core/sim/README.md's table), never below 1e-5. Hand-written PTX: tanh.approx.f32 (2^-11
// relative: 4 x 2^-11 = 2^-9 = 0.001953125), sin.approx.f32 (2^-14.7 absolute over [-100pi, 100pi]:
// 4 x 2^-14.7 = 2^-12.7), ex2.approx.f32 alone (2 ulp = 2^-22: 4 x that is 2^-20, below 1e-5), and a
// tanh in a function the kernel never calls, which does not count.
TEST(GpuCheck, ApproximateInstructionsWidenTheFloatTolerance)
{
    const auto kernel = [](const std::string& body, const std::string& extra = "") {
        return ".version 8.0\n.target sm_75\n.address_size 64\n" + extra +
               ".visible .entry k(.param .u64 p)\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n"
               "ld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\n" + body +
               "st.global.f32 [%rd1], %f2;\nret;\n}\n";
    };
    const auto toleranceOf = [](const std::string& text) {
        const ptx::Module module = ptx::parseModule(text);
        return probe::approximationTolerance(module, *module.findFunction("k"));
    };
    const probe::ApproximationTolerance tanh = toleranceOf(kernel("tanh.approx.f32 %f2, %f1;\n"));
    EXPECT_EQ(tanh.tolerance, 0.001953125);
    EXPECT_EQ(tanh.instruction, "tanh.approx.f32");
    EXPECT_EQ(tanh.bound, 0.00048828125);
    const probe::ApproximationTolerance sine = toleranceOf(kernel("sin.approx.ftz.f32 %f2, %f1;\n"));
    EXPECT_DOUBLE_EQ(sine.tolerance, std::exp2(-12.7));
    EXPECT_EQ(sine.instruction, "sin.approx.f32");
    const probe::ApproximationTolerance ex2 = toleranceOf(kernel("ex2.approx.ftz.f32 %f2, %f1;\n"));
    EXPECT_EQ(ex2.tolerance, 1e-5);
    EXPECT_EQ(ex2.instruction, "");
    const std::string withUncalled = kernel(
        "add.f32 %f2, %f1, %f1;\n", ".func (.param .f32 r) never(.param .f32 x)\n{\n.reg .f32 %a<2>;\nld.param.f32 %a0, [x];\n"
        "tanh.approx.f32 %a1, %a0;\nst.param.f32 [r], %a1;\nret;\n}\n");
    const ptx::Module uncalled = ptx::parseModule(withUncalled);
    ASSERT_NE(uncalled.findFunction("never"), nullptr);
    EXPECT_EQ(probe::approximationTolerance(uncalled, *uncalled.findFunction("never")).tolerance, 0.001953125);
    EXPECT_EQ(toleranceOf(withUncalled).tolerance, 1e-5);

    // The check record says why; a GPU tanh 0.1 % away passes, 0.3 % does not.
    const auto f32 = sim::ElementType::F32;
    EXPECT_EQ(probe::floatToleranceText(nullptr, {buffer<float>("y", f32, {1})}, tanh),
              "0.00195312 relative (4 x tanh.approx.f32's PTX ISA bound, 0.000488281)");
    const std::vector<sim::ResolvedArg> reference{buffer<float>("y", f32, {0.5f})};
    EXPECT_EQ(probe::compareBuffers({buffer<float>("y", f32, {0.5005f})}, reference, nullptr, nullptr, nullptr, tanh.tolerance), "");
    EXPECT_NE(probe::compareBuffers({buffer<float>("y", f32, {0.503f})}, reference, nullptr, nullptr, nullptr, tanh.tolerance), "");
}

// The prediction's theoretical occupancy is the real kernel's: matmul_2d_blocktile (blocks of 256
// threads, 8 KiB of static shared memory) has ptxas's register count on sm_90, above 128 per thread.
// By hand for any count from 129 to 255: a warp's registers round up to 256-register units, 4,352 ..
// 8,192, so 65,536 per SM hold 8 .. 15 warps, one block of 8: 8 of 64 warps, 12.5 %. At the old
// assumption of 32 registers the same block would have read 100 % (8 blocks of 8 warps).
TEST(GpuCheck, PredictionOccupancyUsesPtxasRegisters)
{
    const kernels::DemoKernel& demo = *kernels::findDemoKernel("matmul_2d_blocktile");
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    const int registers = probe::ptxasRegisters(demo.ptx, demo.entry, "sm_90");
    if (registers == 0)
        GTEST_SKIP() << ptx::ptxasMissingMessage();
    ASSERT_GT(registers, 128);
    ASSERT_LE(registers, 255);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, {}, 1ull << 30);
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, preset);
    request.options.timing = false;
    const sim::SimResult result = sim::simulate(std::move(request));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const ptx::Function& function = *kernels::demoModule(demo).findFunction(demo.entry);
    EXPECT_DOUBLE_EQ(probe::predictionFrom(demo.entry, result, function, preset, launch, registers).theoreticalOccupancy, 0.125);
    // Without a count and without the timing model's: the simulator's 32.
    EXPECT_DOUBLE_EQ(probe::predictionFrom(demo.entry, result, function, preset, launch).theoreticalOccupancy, 1.0);
    EXPECT_EQ(probe::ptxasRegisters("not PTX", demo.entry, "sm_90"), 0);
}
