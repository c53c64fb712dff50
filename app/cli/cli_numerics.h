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

struct NumericsQuantizeOptions {
    std::string dist = "gaussian";
    std::string n = "1000000";
    std::string seed = "1";
    std::string rows = "1";             // the values as rows x (n / rows): channels are rows
    std::string format = "int8";
    std::string scheme = "symmetric";
    std::string granularity = "tensor";
    std::string calib = "max";
    bool json = false;
};

struct NumericsAmpOptions {
    std::string mode = "fp32";          // fp32, fp16, fp16-static:S, fp16-dynamic, bf16
    std::string steps = "1000";
    std::string seed = "1";
    std::string growthInterval = "2000";
    bool json = false;
};

struct NumericsOptions {
    NumericsConvertOptions convert;
    NumericsQuantizeOptions quantize;
    NumericsAmpOptions amp;
};

struct NumericsCommands {
    CLI::App* numerics = nullptr;
    CLI::App* convert = nullptr;
    CLI::App* quantize = nullptr;
    CLI::App* amp = nullptr;
};

NumericsCommands addNumericsCommand(CLI::App& app, NumericsOptions& options);

// Runs whichever numerics subcommand was parsed. Throws InputError for bad input.
int runNumerics(const NumericsCommands& commands, const NumericsOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
