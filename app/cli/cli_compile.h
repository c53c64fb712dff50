// `warpscope compile`: CUDA C++ to PTX with NVRTC, no GPU needed. Errors print as
// file:line:column: severity: message, one per line. Qt-free.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace warpscope::cli {

struct CompileOptions {
    std::string file;                 // the .cu to compile (a .ptx as it is with --check or --sass)
    std::string arch = "compute_75";  // the oldest virtual architecture CUDA 13 supports; sm_XX too
    std::string out;                  // empty: PTX to standard output
    bool check = false;               // list what the simulator cannot run instead of printing the PTX
    bool sass = false;                // print the SASS ptxas makes for the GPU of --arch, with source lines
    bool json = false;                // with sass: the instructions, their lines and ptxas's resources as JSON
};

// Adds the subcommand and its flags; values are validated by runCompile.
CLI::App* addCompileCommand(CLI::App& app, CompileOptions& options);

// Compiles options.file. Writes the PTX to out (or to --out), and diagnostics to err, one per line.
// Returns ExitCode::Ok when NVRTC produced PTX (warnings may be on err) and ExitCode::Failure when
// the source has errors. Throws InputError on bad input (unknown --arch, a file that can't be read,
// an --out that can't be written), before anything is printed.
// With check (a .cu, or a .ptx as it is): lists on out every construct of the module the simulator
// does not support yet, one line each with its PTX and source lines, then which kernels can run;
// ExitCode::Failure when there is any (the PTX goes only to --out).
// With sass: ptxas compiles the PTX for sm_XX (the number of --arch) and nvdisasm lists it: each
// kernel's registers, spills and static shared memory, then its instructions under their source lines
// with the PTX lines of each (JSON with json). ExitCode::Failure, with one line, when ptxas or
// nvdisasm is missing (how to get it) or fails (its messages).
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

// ptxas's own report of `kernel` compiled for `smArch` ("sm_90"), for `sim --json`'s "ptxas" entry:
// {"source": "ptxas -v for sm_90 ...", "registers", "static_shared_bytes", "stack_frame_bytes",
// "spill_store_bytes", "spill_load_bytes" (spills: local-memory traffic), "local_bytes",
// "constant_bytes", "barriers"}; with "unavailable": why, in place of the numbers, where ptxas is
// missing or fails. Cached like compiles (compile_cache.h).
nlohmann::json ptxasResourcesJson(const std::string& ptxText, const std::string& kernel, const std::string& smArch);

} // namespace warpscope::cli
