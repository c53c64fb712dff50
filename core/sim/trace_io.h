// The trace file: a text first line "warpscope-trace <version>", a second line of JSON describing the
// kernel and the counts, then the events (40 bytes each) and the memory records (264 bytes each),
// little-endian. A reader refuses a version it does not know and a file cut short, saying which.
#pragma once

#include "ptx/ptx_ir.h"
#include "sim/trace.h"

#include <string>

namespace warpscope::sim {

struct TraceFile {
    std::string kernel;
    std::string entry;
    Trace trace;
};

// Throws std::runtime_error when the file cannot be written.
void writeTrace(const std::string& path, const Trace& trace, const ptx::Function& function, const std::string& kernelName);

// Throws InputError naming the file and what is wrong with it.
TraceFile readTrace(const std::string& path);

} // namespace warpscope::sim
