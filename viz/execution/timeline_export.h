// The Execution view's "Export Timeline for Perfetto…": the launch in the view's fields simulated
// with the timing model, every block of the grid (no sample: the timeline needs every block of an
// SM), and the blocks that are resident at once on the chosen block's SM traced (those the memory
// view's latency-hiding timeline shows, memory/memory_model.h), written as the Chrome trace JSON that
// `warpscope sim --perfetto` writes (core/sim/perfetto_trace.h). Plain C++: the view runs it on its
// worker; the file is replaced only once it is written in full.
#pragma once

#include "kernel_target.h"
#include "sim/perfetto_trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::viz {

struct TimelineExportRequest {
    kernels::TargetRequest target;     // the kernel and its launch, as the view's Run takes them
    std::string blockIndex = "0";      // "X[,Y[,Z]]": the block whose SM is traced
    int registersPerThread = 32;       // for resident blocks per SM (the occupancy explorer's)
    std::string path;                  // the file to write
    double maxSeconds = 120;           // a launch estimated to simulate for longer is refused (sim/work_estimate.h)
};

struct TimelineExportResult {
    bool cancelled = false;            // nothing was written
    std::string kernelName;
    std::string presetName;            // "H100 SXM"
    double clockMHz = 0;
    std::vector<std::uint64_t> blocks; // linear indices of the traced blocks
    std::uint16_t sm = 0;              // the SM they run on
    sim::PerfettoTraceCounts counts;   // what the file holds
    bool truncated = false;            // the trace reached its event limit (the file says so too)
};

// Simulates and writes the file. Throws InputError for a bad launch, a launch too long to simulate
// in full, a timing model that did not complete, or a file that cannot be written (checked before
// simulating), with one sentence naming what and why; kernels::CompileFailed and ptx::UnsupportedPtx
// as resolveTarget and simulate do. A file already at `path` stays as it was unless this succeeds.
TimelineExportResult exportPerfettoTimeline(const TimelineExportRequest& request, const std::atomic<bool>* cancel = nullptr,
                                            const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {});

} // namespace warpscope::viz
