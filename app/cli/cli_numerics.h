// `warpscope numerics convert|quantize|amp`: the precision lab on the command line (no GPU).
// Qt-free; JSON with --json; bad input exits 2 with one line.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace warpscope::cli {

struct NumericsConvertOptions {
    std::string format;
    bool saturate = false;
    std::vector<std::string> values;
    bool json = false;
};

struct NumericsOptions {
    NumericsConvertOptions convert;
};

struct NumericsCommands {
    CLI::App* numerics = nullptr;
    CLI::App* convert = nullptr;
};

NumericsCommands addNumericsCommand(CLI::App& app, NumericsOptions& options);

// Runs whichever numerics subcommand was parsed. Throws InputError for bad input.
int runNumerics(const NumericsCommands& commands, const NumericsOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
