// The timing model's per-SM timeline as a Chrome trace (the Trace Event Format's JSON), which
// https://ui.perfetto.dev and chrome://tracing open: one process per SM, one thread (track) per
// traced warp, and on it a slice for the warp's life, a slice per issued instruction and, before
// it, a slice for the wait with its stall reason. Times are the model's cycles at the preset's
// boost clock, shown in microseconds: a model, not a measurement, and the file says so.
#pragma once

#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "sim/trace.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace warpscope::sim {

struct PerfettoTraceInfo {
    std::string kernelName;
    std::string presetName;  // "H100 SXM"
    double clockMHz = 0;     // cycles to microseconds; > 0
    launch::Dim3 grid;       // for block coordinates
};

struct PerfettoTraceCounts {
    std::uint64_t instructionSlices = 0;
    std::uint64_t stallSlices = 0;
    std::uint64_t warps = 0;
    std::uint64_t sms = 0;
};

// Writes the trace's events as JSON to `out`. Throws InputError when clockMHz is not positive.
PerfettoTraceCounts writePerfettoTrace(std::ostream& out, const Trace& trace, const ptx::Function& function,
                                       const PerfettoTraceInfo& info);

} // namespace warpscope::sim
