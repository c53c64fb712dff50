// What the probe derives on the CPU around each GPU run: the GPU's outputs checked against the
// simulator's, and the simulator's statistics turned into the session's prediction record. No CUDA
// calls, so the unit tests link it (warpscope_probe_support).
#pragma once

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "ptx/ptx_ir.h"
#include "session/session.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::probe {

// Relative tolerance for float buffers (see profiling/README.md).
inline constexpr double kFloatTolerance = 1e-5;

// The tolerance the approximate instructions a kernel runs call for (core/sim/README.md, "Approximate
// instructions"): the GPU's special function units may differ from the simulator's correctly rounded
// value by up to the PTX ISA's bound, so float outputs get 4 x the largest bound among those the
// kernel can reach (relative, or absolute below 1 as compareBuffers applies it), and never less than
// kFloatTolerance. sin/cos take their bound over [-100pi, 100pi]; beyond it the ISA gives none. A
// kernel that amplifies the error afterwards (cancellation) can still exceed it.
struct ApproximationTolerance {
    double tolerance = kFloatTolerance;
    std::string instruction; // the instruction whose bound sets it ("tanh.approx.f32"); empty: none does
    double bound = 0;        // that bound, as a fraction
};
ApproximationTolerance approximationTolerance(const ptx::Module& module, const ptx::Function& entry);

// The relative tolerance a GPU's float `buffer` gets: `floor` (kFloatTolerance, or what the kernel's
// approximate instructions call for), or more where the demo's manifest asks for it (its check's
// tolerance or gpu_tolerance, e.g. for Tensor Core sums).
double floatToleranceFor(const kernels::DemoKernel* demo, const std::string& buffer, double floor = kFloatTolerance);
// For the check record: "1e-05 relative", "1e-05 relative (C: 0.004)" naming the float buffers of
// `buffers` that get more, or "0.00195 relative (4 x tanh.approx.f32's PTX ISA bound, 0.000488)".
std::string floatToleranceText(const kernels::DemoKernel* demo, const std::vector<sim::ResolvedArg>& buffers,
                               const ApproximationTolerance& approximations = {});

// GPU outputs against the simulator's, element by element: integers exactly, floats within
// floatToleranceFor(demo, buffer) x max(1, |reference|). Returns the first difference, or "". With
// `before` (the arguments as uploaded), only the elements the simulator changed are compared, and
// `compared` counts them: a block sample writes only its blocks' outputs.
std::string compareBuffers(const std::vector<sim::ResolvedArg>& gpu, const std::vector<sim::ResolvedArg>& reference,
                           const std::vector<sim::ResolvedArg>* before = nullptr, std::uint64_t* compared = nullptr,
                           const kernels::DemoKernel* demo = nullptr, double floor = kFloatTolerance);

// The simulator's counts for `kernel` as a prediction record: requests, sectors, wavefronts, bank
// conflicts, branches, FP32 operations per kind, and the theoretical occupancy with `registers` per
// thread: the kernel's real count (the driver's for the loaded module, or ptxasRegisters'); when 0,
// the registers the simulation's timing model ran with, else the simulator's assumption of 32.
session::PredictionRecord predictionFrom(const std::string& kernel, const sim::SimResult& result,
                                         const ptx::Function& function, const gpu::GpuPreset& preset,
                                         const kernels::DemoLaunch& launch, int registers = 0);

// ptxas -v's registers per thread for `kernel` of `ptx` on `arch` (sm_90); 0 when ptxas is not
// installed, rejects the PTX or reports no count for it.
int ptxasRegisters(std::string_view ptx, const std::string& kernel, const std::string& arch);

} // namespace warpscope::probe
