// `warpscope sim`: run a demo kernel, a .cu file (compiled with NVRTC) or a .ptx file on the SIMT
// simulator and print what it did, as text or JSON. Qt-free.
#pragma once

#include "cli/cli_launch.h"

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace warpscope::cli {

struct SimOptions : LaunchOptions {
    std::string trace;             // write the trace here
    std::string perfetto;          // write the timing model's timeline here (Chrome trace JSON)
    std::string traceBlocks = "0"; // linear block indices to trace
    std::vector<std::string> dump;
    std::string budget = "4000000000";
    std::string blockBudget = "16777216"; // sim::SimOptions::blockStepBudget
    std::string threads = "0";     // all cores
    std::string regs;              // registers per thread for the timing model; empty: ptxas's count, else 32 assumed
    std::string sampleBlocks = "0"; // 0 = every block; N >= 2: the first, the last and N - 2 between, counts scaled
    bool noTiming = false;
    bool json = false;
    bool list = false;
};

CLI::App* addSimCommand(CLI::App& app, SimOptions& options);

// Returns the exit code: 0 when the run completed (and matched its gold reference, where there is
// one), 1 when it did not finish, mismatched or a file could not be written. Throws InputError on
// bad input.
int runSim(const SimOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
