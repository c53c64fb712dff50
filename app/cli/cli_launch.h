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
    bool cooperative = false;      // --cooperative: every block resident at once, grid.sync() (sim/grid_barrier.h)
    std::string arch = "sm_90";
    std::string compute;           // .cu files: NVRTC's virtual architecture (compute_75 when empty)
    bool allowLong = false;        // simulate even when the work estimate says it is too long
    std::string warpModel = "stack"; // --warp-model: stack (pre-Volta reconvergence stack) or its
};

// --warp-model's value: "stack" or "its" (independent thread scheduling); throws InputError otherwise.
sim::WarpModel parseWarpModel(const std::string& value);
const char* warpModelName(sim::WarpModel model); // "stack", "its"

// The livelock a run reported (a warp_livelock hazard: the block was stopped), or null.
const sim::Hazard* findLivelock(const std::vector<sim::Hazard>& hazards);

// A simulation longer than this (estimated before it starts) is refused unless --allow-long.
inline constexpr double kMaxSimSeconds = 120;

// "sm_70 (V100), sm_75 (T4), ...": every GPU preset, for --arch's help.
std::string archPresetList();

// --kernel, --grid, --block, --smem, --arg, --arch, --compute, --allow-long, --warp-model and the
// positional target.
void addLaunchOptions(CLI::App* command, LaunchOptions& options);

struct PreparedLaunch {
    kernels::ResolvedTarget resolved; // its launch's buffer arguments hold no bytes: they are in `request`
    gpu::GpuPreset preset;
    sim::LaunchRequest request;
};

// Resolves the target (compiling a .cu with NVRTC) and builds the request with `simOptions`. Throws
// InputError for bad input; compiler errors go to `err`, one per line, and give nullopt (exit 1).
// Moves each argument's bytes from `from` to `to` (as many arguments, in the same order; `to` may be
// default arguments that only hold them a while): a launch's buffers, which may be GBs, change hands
// without a copy.
void moveBufferBytes(std::vector<sim::ResolvedArg>& from, std::vector<sim::ResolvedArg>& to);

std::optional<PreparedLaunch> prepareLaunch(const LaunchOptions& options, const sim::SimOptions& simOptions,
                                            std::ostream& err);

// ptxas's registers per thread for the resolved kernel on `preset`'s GPU (PTX does not fix them), or
// 0 where ptxas is missing, refuses the PTX or reports none; `why` then says which.
int ptxasRegisters(const kernels::ResolvedTarget& resolved, const gpu::GpuPreset& preset, std::string* why = nullptr);

// Before simulating every block of a large grid: estimates the work from a sample of blocks
// (sim::estimateWork) and throws InputError when it is past the step budget or kMaxSimSeconds,
// with the estimate and `instead` (what the command offers in its place). Nothing is estimated for
// small grids, block samples, or with --allow-long.
void refuseEndlessWork(const LaunchOptions& options, const sim::LaunchRequest& request, const std::string& instead);

} // namespace warpscope::cli
