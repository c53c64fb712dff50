#include "predicted_time.h"

#include "session/stall_comparison.h"
#include "sim/kernel_time.h"

#include <cstdint>
#include <string>

namespace warpscope::probe {

void fillPredictedTime(session::PredictionRecord& prediction, const sim::SimResult& result, const gpu::GpuPreset& preset,
                       int registers)
{
    std::uint64_t bufferBytes = 0;
    for (const sim::ResolvedArg& arg : result.args)
        bufferBytes += arg.isBuffer ? arg.bytes.size() : 0;
    const sim::KernelTime time = sim::kernelTime(result.stats, preset, bufferBytes);
    if (!time.available)
        return;
    prediction.predictedNs = time.nanoseconds;
    // Registers decide how many blocks share an SM, so the method says whose count the model used.
    const int used = result.stats.timing.registersPerThread;
    prediction.timeMethod = time.method + "; " + std::to_string(used) + " registers per thread" +
                            (registers > 0 ? " (the driver's count for this kernel)"
                                           : " assumed (the driver's count was not known)");
    prediction.timeBlindSpots = time.blindSpots;
    prediction.modelStalls = session::modelStallCycles(result.stats.timing.stalls);
}

} // namespace warpscope::probe
