// The demo kernels compiled into the program: their manifests, PTX and CUDA source, how to turn a
// manifest (plus the user's overrides) into a launch, and how to check a run against the gold
// reference.
#pragma once

#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"
#include "gold_context.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::kernels {

// Which of a demo kernel's two launch sizes: Sim is stepped through in a blink; Gpu fills a real
// GPU (data several times the L2, many waves) for measurement.
enum class LaunchSize { Sim, Gpu };
std::string_view launchSizeName(LaunchSize size); // "sim" / "gpu"

struct DemoCheck {
    std::string buffer;
    double tolerance = 0; // 0 = bit for bit; t > 0: |sim - gold| <= t * max(1, |gold|)
    // A GPU's result against the reference, where the hardware rounds in ways the simulator does not
    // model (Tensor Core accumulation); 0 = the probe's float tolerance (profiling/gpu_check.h).
    double gpuTolerance = 0;
};

struct DemoKernel {
    std::string id;
    std::string entry;
    std::string title;
    std::string summary;
    std::string topic;
    std::string topicTitle;
    std::string ladder;
    std::vector<std::string> teaches;
    std::vector<std::string> args;
    std::vector<std::string> gpuArgs;       // at LaunchSize::Gpu, replace the args of the same name
    std::string grid, block, smem;
    std::vector<DemoCheck> checks;
    std::string gold;                       // empty when there is no gold reference
    std::vector<std::string> expectHazards; // hazard kind names
    std::string_view ptx;                   // the topic's PTX module
    std::string_view cudaSource;            // the topic's .cu file
};

// Every demo kernel, topics in folder order, kernels in manifest order. Manifests are checked when
// first loaded; a broken one is a build defect and throws std::logic_error naming it.
const std::vector<DemoKernel>& demoKernels();
const DemoKernel* findDemoKernel(std::string_view id);
std::string demoKernelIds(); // "vector_add, copy_coalesced, ..." for messages

// The parsed PTX module of a kernel's topic (parsed once, kept for the life of the program).
const ptx::Module& demoModule(const DemoKernel& kernel);

// The kernel's argument specs at `size`: the manifest's args, with gpu_args replacing those of the
// same name at Gpu. A gpu arg that names no manifest arg is a manifest defect: std::logic_error.
std::vector<sim::ArgSpec> demoArgSpecs(const DemoKernel& kernel, LaunchSize size);

// A launch built from a manifest: arguments resolved and initialised, dimensions evaluated.
struct DemoLaunch {
    std::vector<sim::ResolvedArg> args;
    launch::Dim3 grid;
    launch::Dim3 block;
    std::uint64_t dynamicSharedBytes = 0;
};

struct LaunchOverrides {
    std::vector<sim::ArgSpec> args;  // replace the args of `size` by name
    std::optional<std::string> grid; // "X[,Y[,Z]]" expressions
    std::optional<std::string> block;
    std::optional<std::string> smem;
    LaunchSize size = LaunchSize::Sim; // the manifest's args to start from (last: callers brace-initialise the rest)
};

// Throws InputError for bad overrides, naming what was wrong.
DemoLaunch resolveDemoLaunch(const DemoKernel& kernel, const LaunchOverrides& overrides, std::uint64_t maxBufferBytes);

// Evaluates "cdiv(n,32),cdiv(n,32)" into a Dim3 (missing components are 1).
launch::Dim3 evaluateDims(std::string_view text, const std::vector<sim::ResolvedArg>& args, std::string_view what);

// A simulator request for the launch on `preset` (default options; the caller may change them).
sim::LaunchRequest demoLaunchRequest(const DemoKernel& kernel, const DemoLaunch& launch, const gpu::GpuPreset& preset);

struct GoldComparison {
    bool available = false;   // the kernel has a gold reference
    bool matches = false;
    std::string detail;       // the first mismatch, or the buffers and tolerances checked
};

// Runs the gold reference on the launch's initial arguments and compares the checked buffers with
// `finalArgs` (the simulator's or a GPU's results, in the same order as `launch.args`).
GoldComparison compareWithGold(const DemoKernel& kernel, const DemoLaunch& launch,
                               const std::vector<sim::ResolvedArg>& finalArgs);

// The same in two halves, so that a launch's buffers (which may be GBs) are never held twice over
// for the check: expectGold runs the gold reference on `launch`'s initial arguments before the
// launch (borrowing its buffers and giving them back unchanged) and keeps only the checked buffers'
// expected contents; compareWithExpected compares them with the results. Not available: the kernel
// has no gold reference. expectGold throws InputError when the reference cannot model the launch.
struct GoldExpectation {
    bool available = false;
    std::map<std::string, GoldBuffer, std::less<>> checked; // per checked buffer: what the reference expects
};
GoldExpectation expectGold(const DemoKernel& kernel, DemoLaunch& launch);
GoldComparison compareWithExpected(const DemoKernel& kernel, const GoldExpectation& expectation,
                                   const std::vector<sim::ResolvedArg>& finalArgs);

} // namespace warpscope::kernels
