// What `warpscope sim` and `warpscope step` share: the options that name a kernel and its launch, and
// turning them into a simulator request. Qt-free.
#pragma once

#include "gpu/gpu_preset.h"
#include "kernel_target.h"
#include "sim/simulator.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>

#include <string>
#include <vector>

namespace warpscope::cli {

struct LaunchOptions {
    std::string target;            // a demo kernel id, FILE.cu or FILE.ptx
    std::string kernel;            // entry name in a file
    std::string grid;
    std::string block;
    std::string smem;
    std::vector<std::string> args;
    std::string arch = "sm_90";
    std::string compute;           // .cu files: NVRTC's virtual architecture (compute_75 when empty)
};

// --kernel, --grid, --block, --smem, --arg, --arch, --compute and the positional target.
void addLaunchOptions(CLI::App* command, LaunchOptions& options);

struct PreparedLaunch {
    kernels::ResolvedTarget resolved;
    gpu::GpuPreset preset;
    sim::LaunchRequest request;
};

// Resolves the target (compiling a .cu with NVRTC) and builds the request with `simOptions`. Throws
// InputError for bad input; compiler errors go to `err`, one per line, and give nullopt (exit 1).
std::optional<PreparedLaunch> prepareLaunch(const LaunchOptions& options, const sim::SimOptions& simOptions,
                                            std::ostream& err);

} // namespace warpscope::cli
