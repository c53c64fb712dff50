// What ptxas and nvdisasm say about a stepped run: ptxas -v's registers, spills and shared memory
// for the kernel on the run's GPU, and the SASS of the shuffles the simulator found reading lanes
// that do not execute them. Both run on the stepper's worker thread (cached by core/ptx).
#pragma once

#include "execution/stepper.h"

#include <string>

namespace warpscope::viz {

// ptxas -v's report for `kernel` of `ptx` on `arch` into run.ptxas, or why there is none into
// run.ptxasProblem: the registers the occupancy explorer and the timing model then use are ptxas's.
void stepperPtxasResources(StepperRun& run, const std::string& ptx, const std::string& kernel, const std::string& arch);

// For each shfl_inactive_source hazard of `run`: the SASS SHFL and the register it reads, or why
// there is no SASS, into run.hazardSass by the hazard's PTX line (compiled only for such a hazard).
void stepperHazardSass(StepperRun& run, const std::string& ptx, const std::string& arch);

} // namespace warpscope::viz
