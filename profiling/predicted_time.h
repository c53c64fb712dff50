// The probe's predicted time for a kernel (no CUDA calls, so it is tested without a GPU): the
// timing model's duration of the whole launch, how it was obtained, and its blind spots, put in the
// session's prediction record beside the simulator's counts.
#pragma once

#include "gpu/gpu_preset.h"
#include "session/session.h"
#include "sim/simulator.h"

namespace warpscope::probe {

// Fills `prediction`'s predictedNs, timeMethod, timeBlindSpots and modelStalls from sim::kernelTime of `result`
// (simulated with the timing model on) on `preset`. `registers`: the driver's count the simulation
// used, or 0 when it ran with its assumed count; the method says which. Leaves them empty (not
// predicted) when the timing model did not complete.
void fillPredictedTime(session::PredictionRecord& prediction, const sim::SimResult& result, const gpu::GpuPreset& preset,
                       int registers);

} // namespace warpscope::probe
