#include "execution/timeline_export.h"

#include "gpu/gpu_preset.h"
#include "launch/launch_geometry.h"
#include "memory/memory_model.h"
#include "sim/simulator.h"
#include "sim/work_estimate.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace warpscope::viz {

TimelineExportResult exportPerfettoTimeline(const TimelineExportRequest& request, const std::atomic<bool>* cancel,
                                            const std::function<void(std::uint64_t done, std::uint64_t total)>& progress)
{
    const kernels::ResolvedTarget resolved = kernels::resolveTarget(request.target);
    const launch::Dim3 blockIndex = launch::parseIndex(request.blockIndex, "block index", resolved.launch.grid);
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90"); // the GPU the Execution view simulates
    sim::LaunchRequest simRequest = kernels::targetLaunchRequest(resolved, preset);
    simRequest.options.registersPerThread = request.registersPerThread;
    simRequest.options.timing = true;    // the timeline is the timing model's issue cycles
    simRequest.options.sampleBlocks = 0; // and needs every block of an SM, as `warpscope sim --perfetto`
    // The blocks that share the chosen block's SM at once: their warps interleave on the timeline.
    simRequest.options.recordBlock = launch::linearIndex(blockIndex, resolved.launch.grid);
    requestTimelineTrace(simRequest);
    simRequest.options.recordBlock = -1; // only the trace is needed, not a recording to step through

    TimelineExportResult result;
    result.kernelName = resolved.kernelName;
    result.presetName = std::string(preset.name);
    result.clockMHz = preset.timing.coreClockMHz;
    result.blocks = simRequest.options.trace.blocks;
    result.sm = static_cast<std::uint16_t>(result.blocks.empty() ? 0 : result.blocks.front() % static_cast<std::uint64_t>(preset.smCount));

    // The file is checked before a long simulation; what was there stays until the new one is whole.
    AtomicFileWriter file(request.path);
    if (!file.open())
        throw InputError("Cannot write " + request.path + ": " + file.error());
    // A grid of millions of blocks would keep the worker busy for days: estimated first.
    if (static_cast<std::uint64_t>(simRequest.grid.volume()) > sim::kEstimateAboveBlocks) {
        const std::string why = sim::workRefusal(sim::estimateWork(simRequest), simRequest.options, request.maxSeconds);
        if (!why.empty())
            throw InputError("No timeline exported: " + why +
                             ". Export the timeline of a smaller grid: the timing model simulates every block of the launch.");
    }
    const sim::SimResult simulated = sim::simulate(std::move(simRequest), cancel, [&](const sim::SimProgress& p) {
        if (progress)
            progress(p.blocksDone, p.blocksTotal);
    });
    if (simulated.status == sim::SimStatus::Cancelled || (cancel != nullptr && cancel->load())) {
        file.discard();
        result.cancelled = true;
        return result;
    }
    if (simulated.status != sim::SimStatus::Completed)
        throw std::runtime_error("No timeline exported: " + simulated.statusMessage);
    if (!simulated.stats.timing.available)
        throw std::runtime_error("No timeline exported: the timing model did not complete (its records passed the timing "
                                 "model's memory limit); export the timeline of a smaller grid.");
    result.counts = sim::writePerfettoTrace(file.stream(), simulated.trace, *resolved.function,
                                            {resolved.kernelName, result.presetName, result.clockMHz, resolved.launch.grid});
    result.truncated = simulated.trace.truncated;
    if (!file.commit())
        throw InputError("Cannot write " + request.path + ": " + file.error());
    return result;
}

} // namespace warpscope::viz
