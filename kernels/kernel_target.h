// What `warpscope sim`, `warpscope profile` and warpscope-probe run: a demo kernel id or a user's
// .cu/.ptx file, plus launch overrides, resolved into a parsed module, an entry and a launch.
#pragma once

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "ptx/ptx_ir.h"
#include "sim/simulator.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::kernels {

struct TargetRequest {
    std::string target;             // demo id, FILE.cu or FILE.ptx
    std::string kernel;             // entry in a file (plain or demangled C++ name)
    std::string grid, block, smem;  // overrides (required for files: grid and block)
    std::vector<std::string> args;  // argument specs
    std::uint64_t maxBufferBytes = 0; // per buffer; the GPU sizes need up to 1 GiB
    std::string inlineText;         // when set: the .cu/.ptx text itself (the playground's), and target only names it
    LaunchSize size = LaunchSize::Sim; // demo targets: whose args `args` override (files have only `args`)
    std::string compute;            // .cu files: the virtual architecture NVRTC compiles for (compute_75 when empty)
};

struct ResolvedTarget {
    const DemoKernel* demo = nullptr;     // null for files
    std::shared_ptr<const ptx::Module> ownModule; // files: the parsed module
    const ptx::Module* module = nullptr;
    const ptx::Function* function = nullptr;
    DemoLaunch launch;
    std::string kernelName;               // demo id, or the name the user chose
    std::string ptxText;                  // exactly what the module was parsed from
    std::string sourceText;               // the CUDA source ("" for .ptx files)
    std::string sourceName;               // "kernels/<topic>/<topic>.cu" or the user's path
    std::vector<std::string> argSpecs;    // the specs in effect (manifest at the size, merged with overrides)
    // Constructs the simulator does not support yet elsewhere in the module (other kernels, functions
    // this kernel never calls, module scope): they do not stop this kernel. One line each.
    std::vector<std::string> notes;
};

// A .cu file that NVRTC rejected: what() is the compiler's diagnostics, one per line.
class CompileFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws InputError for bad input (one sentence naming it), CompileFailed for compiler errors, and
// ptx::UnsupportedPtx (a std::runtime_error: exit code 1) for a kernel that needs PTX the simulator
// does not support yet.
ResolvedTarget resolveTarget(const TargetRequest& request);

// A .cu or .ptx file's PTX needs a GPU at least as new as its .target (compute_80 PTX runs on sm_80
// and later): throws InputError naming both when `preset` is older. Demo kernels always fit.
void requireTargetFits(const ResolvedTarget& target, const gpu::GpuPreset& preset);

// --compute (sim, step, profile, warpscope-probe): `compute` must be a virtual architecture NVRTC
// knows (compute_75 .. the newest, ptx::supportedVirtualArchs) and every target a .cu file, which
// NVRTC compiles. Throws InputError with one line naming the flag and what is allowed; an empty
// `compute` (the default, compute_75) passes.
void requireComputeOption(const std::string& compute, const std::vector<std::string>& targets);

// 90 for "compute_90", "sm_90", "sm_90a"; 0 when the name has no number.
int architectureNumber(std::string_view name);

// A simulator request for the resolved launch on `preset`, with default options and a copy of the
// arguments. The request points into `target`'s module: `target` must outlive it.
sim::LaunchRequest targetLaunchRequest(const ResolvedTarget& target, const gpu::GpuPreset& preset);

} // namespace warpscope::kernels
