// warpscope-probe's command line: --size, --cache-control, --sample-blocks and --no-hierarchy
// parse to what they say, and bad values are refused with one sentence naming the flag. The kernel
// record it writes for a target, built without a GPU.
#include "kernel_target.h"
#include "probe_kernel_record.h"
#include "probe_options.h"
#include "session/session.h"
#include "session/session_io.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

probe::ProbeOptions parse(std::vector<std::string> words)
{
    words.insert(words.begin(), "warpscope-probe");
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    return probe::parseProbeOptions(static_cast<int>(argv.size()), argv.data());
}

std::string refusal(std::vector<std::string> words)
{
    try {
        parse(std::move(words));
    } catch (const InputError& error) {
        return error.what();
    }
    return "accepted";
}

} // namespace

TEST(ProbeOptions, DefaultsFillTheGpuAndFlushTheCaches)
{
    const probe::ProbeOptions options = parse({"vector_add"});
    EXPECT_EQ(options.size, "gpu");
    EXPECT_EQ(options.cacheControl, "all");
    EXPECT_EQ(options.sampleBlocks, 0u);
    EXPECT_TRUE(options.hierarchy);
    EXPECT_EQ(options.targets, std::vector<std::string>{"vector_add"});
}

TEST(ProbeOptions, SizeCacheControlAndSampleBlocks)
{
    const probe::ProbeOptions options =
        parse({"--size", "sim", "--cache-control", "none", "--sample-blocks", "64", "--no-hierarchy", "ladder:copy"});
    EXPECT_EQ(options.size, "sim");
    EXPECT_EQ(options.cacheControl, "none");
    EXPECT_EQ(options.sampleBlocks, 64u);
    EXPECT_FALSE(options.hierarchy);
    EXPECT_EQ(parse({"--size", "gpu", "--cache-control", "all", "x"}).size, "gpu");
}

TEST(ProbeOptions, BadValuesAreRefusedNamingTheFlag)
{
    EXPECT_NE(refusal({"--size", "huge", "vector_add"}).find("--size 'huge': allowed are gpu"), std::string::npos);
    EXPECT_NE(refusal({"--cache-control", "some", "vector_add"}).find("--cache-control 'some': allowed are all"),
              std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "1", "vector_add"}).find("at least 2 blocks"), std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "-3", "vector_add"}).find("--sample-blocks"), std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "many", "vector_add"}).find("--sample-blocks"), std::string::npos);
    EXPECT_NE(refusal({"vector_add", "--size"}).find("--size needs a value"), std::string::npos);
}

// The automatic sample: every block of a grid of up to 256; above that as many blocks as the
// simulator runs in about 20 s, between 16 and 256. The 4096² warp-tiled matmul (1,024 blocks) took
// 195 CPU-s for 256 blocks on a 2-core machine, about 390 s of wall for all 1,024: 20 s hold
// 1,024 * 20 / 390 = 52.5 blocks.
TEST(ProbeOptions, AutomaticSampleFitsTheTimeBudget)
{
    EXPECT_EQ(probe::autoSampleBlocks(256, 1e6), 0u);     // small grids: every block, however slow
    EXPECT_EQ(probe::autoSampleBlocks(1024, 0.0), 256u);  // no estimate: the largest sample
    EXPECT_EQ(probe::autoSampleBlocks(1024, 10.0), 256u); // all of it would take 10 s: 256 blocks fit
    EXPECT_EQ(probe::autoSampleBlocks(1024, 390.0), 52u);
    EXPECT_EQ(probe::autoSampleBlocks(1024, 1e6), 16u);   // never fewer than 16
    EXPECT_EQ(probe::autoSampleBlocks(1u << 19, 400.0), 256u);
}

// --compute takes the virtual architectures NVRTC knows, for FILE.cu targets only, with the
// messages of 'warpscope sim --compute'.
TEST(ProbeOptions, ComputeIsForCudaFilesWithTheArchitecturesNvrtcKnows)
{
    EXPECT_EQ(parse({"--compute", "compute_80", "k.cu"}).compute, "compute_80");
    EXPECT_EQ(parse({"k.cu", "--compute", "compute_90", "other.cu"}).compute, "compute_90");
    EXPECT_EQ(parse({"k.cu"}).compute, "");
    const std::string unknown = refusal({"--compute", "compute_99", "k.cu"});
    EXPECT_EQ(unknown.rfind("--compute: unknown virtual architecture 'compute_99' (allowed: compute_75", 0), 0u) << unknown;
    EXPECT_EQ(unknown.find('\n'), std::string::npos) << unknown;
    EXPECT_EQ(refusal({"--compute", "sm_80", "k.cu"}).rfind("--compute: unknown virtual architecture 'sm_80'", 0), 0u);
    EXPECT_EQ(refusal({"--compute", "compute_80", "k.cu", "vector_add"}),
              "--compute is for .cu files, which NVRTC compiles; 'vector_add' is not one");
    EXPECT_EQ(refusal({"--compute", "compute_80", "k.ptx"}), "--compute is for .cu files, which NVRTC compiles; 'k.ptx' is not one");
    EXPECT_NE(refusal({"k.cu", "--compute"}).find("--compute needs a value"), std::string::npos);
}

// On the GPU the probe refuses PTX newer than the device: compute_XX needs compute capability
// X.X or newer (compute_86 on 8.0 does not fit, on 8.6 and 9.0 it does).
TEST(ProbeOptions, ComputeNewerThanTheDeviceIsRefusedInOneLine)
{
    EXPECT_EQ(probe::computeTooNewForDevice("", 0, "Tesla T4", 7, 5), "");
    EXPECT_EQ(probe::computeTooNewForDevice("compute_75", 0, "Tesla T4", 7, 5), "");
    EXPECT_EQ(probe::computeTooNewForDevice("compute_80", 1, "NVIDIA H200", 9, 0), "");
    EXPECT_EQ(probe::computeTooNewForDevice("compute_86", 0, "NVIDIA RTX A6000", 8, 6), "");
    EXPECT_EQ(probe::computeTooNewForDevice("compute_86", 0, "NVIDIA A100-SXM4-40GB", 8, 0),
              "--compute compute_86 needs a GPU of compute capability 8.6 or newer; device 0 (NVIDIA A100-SXM4-40GB) has "
              "compute capability 8.0: choose an older --compute or another --device");
    EXPECT_EQ(probe::computeTooNewForDevice("compute_90", 2, "Tesla T4", 7, 5),
              "--compute compute_90 needs a GPU of compute capability 9.0 or newer; device 2 (Tesla T4) has compute "
              "capability 7.5: choose an older --compute or another --device");
}

// The kernel record names the virtual architecture its PTX was compiled for: a .cu file's is what
// NVRTC was given (--compute, else compute_75), which the PTX's .target line confirms; a demo
// kernel's is the build's (nvcc -arch=compute_75, .target sm_75); a .ptx file's is empty (nothing was
// compiled). The record written and read back keeps it.
TEST(ProbeKernelRecord, ComputeIsTheArchitectureThePtxWasCompiledFor)
{
    const std::string source = "extern \"C\" __global__ void scale(float* x, int n)\n"
                               "{\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n) x[i] *= 2.0f;\n"
                               "}\n";
    auto resolve = [&](const std::string& target, const std::string& text, const probe::ProbeOptions& options) {
        kernels::TargetRequest request;
        request.target = target;
        request.inlineText = text;
        request.grid = "4";
        request.block = "32";
        request.args = {"x=f32[n]:random(1)", "n=i32:128"};
        request.maxBufferBytes = 1 << 20;
        request.compute = options.compute;
        return kernels::resolveTarget(request);
    };

    probe::ProbeOptions options = parse({"--compute", "compute_80", "--grid", "4", "--block", "32", "scale.cu"});
    const kernels::ResolvedTarget compiled80 = resolve("scale.cu", source, options);
    EXPECT_NE(compiled80.ptxText.find(".target sm_80"), std::string::npos);
    const session::KernelRecord cu80 = probe::probeKernelRecord(compiled80, options);
    EXPECT_EQ(cu80.compute, "compute_80");
    EXPECT_EQ(cu80.launchSize, "custom");
    EXPECT_EQ(cu80.cacheControl, "all");
    std::ostringstream stream;
    session::SessionWriter writer(stream);
    writer.write(session::SessionHeader{});
    writer.write(cu80);
    writer.write(session::EndRecord{"ok", 0});
    std::istringstream in(stream.str());
    const session::SessionReadResult read = session::readSession(in);
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    ASSERT_EQ(read.session.kernels.size(), 1u);
    EXPECT_EQ(read.session.kernels[0].compute, "compute_80");

    options = parse({"--grid", "4", "--block", "32", "scale.cu"});
    const kernels::ResolvedTarget compiled75 = resolve("scale.cu", source, options);
    EXPECT_NE(compiled75.ptxText.find(".target sm_75"), std::string::npos);
    EXPECT_EQ(probe::probeKernelRecord(compiled75, options).compute, "compute_75");

    // The same PTX handed over as a .ptx file: nothing was compiled, its own .target says what it needs.
    const kernels::ResolvedTarget ptxFile = resolve("scale.ptx", compiled80.ptxText, options);
    EXPECT_EQ(probe::probeKernelRecord(ptxFile, options).compute, "");

    options = parse({"--size", "sim", "vector_add"}); // the GPU size would allocate 1.5 GiB here
    kernels::TargetRequest demoRequest;
    demoRequest.target = "vector_add";
    demoRequest.size = kernels::LaunchSize::Sim;
    demoRequest.maxBufferBytes = std::uint64_t{1} << 30;
    const kernels::ResolvedTarget demo = kernels::resolveTarget(demoRequest);
    ASSERT_NE(demo.demo, nullptr);
    EXPECT_NE(demo.ptxText.find(".target sm_75"), std::string::npos); // kernels/CMakeLists.txt: WARPSCOPE_PTX_ARCH
    const session::KernelRecord demoRecord = probe::probeKernelRecord(demo, options);
    EXPECT_EQ(demoRecord.compute, "compute_75");
    EXPECT_EQ(demoRecord.launchSize, "sim");
    EXPECT_EQ(demoRecord.id, "vector_add");
}
