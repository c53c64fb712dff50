// `warpscope compile`: CUDA C++ to PTX with NVRTC, no GPU needed. Errors print as
// file:line:column: severity: message, one per line. Qt-free.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace warpscope::cli {

struct CompileOptions {
    std::string file;                 // the .cu to compile
    std::string arch = "compute_75";  // the oldest virtual architecture CUDA 13 supports
    std::string out;                  // empty: PTX to standard output
    bool check = false;               // list what the simulator cannot run instead of printing the PTX
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
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
