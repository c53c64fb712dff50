// `warpscope occupancy`: theoretical occupancy of one launch configuration, as text or JSON.
// Qt-free: works on machines without a display.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace warpscope::cli {

struct OccupancyOptions {
    std::string arch = "sm_90";
    std::string block = "256";
    std::string regs = "32";
    std::string smemStatic = "0";
    std::string smemDynamic = "0";
    std::string carveout = "-1";
    std::string barriers = "1";
    bool json = false;
};

// Adds the subcommand and its flags; values are validated by runOccupancy.
CLI::App* addOccupancyCommand(CLI::App& app, OccupancyOptions& options);

// Validates and computes; prints to out. Throws InputError on bad values.
void runOccupancy(const OccupancyOptions& options, std::ostream& out);

} // namespace warpscope::cli
