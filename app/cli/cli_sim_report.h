// `warpscope sim`'s report of a finished run: the --json document and the text summary. Qt-free.
#pragma once

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "kernel_target.h"
#include "sim/simulator.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <map>
#include <string>

namespace warpscope::cli {

// Where the timing model's registers per thread came from, for the summary and the JSON.
struct RegisterCount {
    int registers = 32;
    std::string source;   // "ptxas", "--regs" or "assumed"
    std::string why;      // for "assumed": why ptxas gave none
};

// "with ptxas's 168 registers per thread", "with --regs's 32 ...", "assuming 32 ... (no count from ptxas)".
std::string describeRegisters(const RegisterCount& count);

// A finished run and what sim found around it.
struct SimRunReport {
    const kernels::ResolvedTarget& resolved; // the kernel, its module and its launch
    const gpu::GpuPreset& preset;
    const sim::LaunchRequest& request;       // the options it ran with (its buffers are in `result`)
    const sim::SimResult& result;
    const kernels::GoldComparison& gold;
    const std::string& goldNote;             // why there is no comparison, where there is none
    const std::string& registersSource;      // "ptxas", "--regs" or "assumed"
    const std::map<int, std::string>& hazardSass; // per PTX line: a shuffle hazard's SASS
};

nlohmann::json simReportJson(const SimRunReport& run);
void printSimSummary(const SimRunReport& run, std::ostream& out);

} // namespace warpscope::cli
