// `warpscope profile`: runs warpscope-probe (found next to this program, or at $WARPSCOPE_PROBE;
// with --remote HOST, `ssh HOST warpscope-probe ...`, whose stream is the session) and prints its
// session as a summary, or as JSON Lines with --json; --out saves the stream. A probe that writes
// nothing for --hang-timeout seconds is stopped; Ctrl+C cancels it. What was read is always kept.
// Exit codes are the probe's: 0 ok, 1 failure or mismatch, 2 bad input, 3 no usable GPU, 4 cancelled.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::cli {

struct ProfileOptions {
    std::vector<std::string> targets;  // demo ids, ladder:NAME, FILE.cu, FILE.ptx
    std::string kernel, grid, block, smem;
    std::vector<std::string> args;
    std::string metrics = "headline";
    std::string runs = "5";
    std::string device = "0";
    std::string out;
    bool json = false;
    bool noCeilings = false;
    bool noHierarchy = false;
    std::string size = "gpu";          // gpu | sim
    std::string cacheControl = "all";  // all | none
    std::string sampleBlocks = "0";    // 0 = the probe's automatic choice
    std::string compute;               // FILE.cu targets: NVRTC's virtual architecture (the probe's compute_75 when empty)
    std::optional<std::string> remote; // [USER@]HOST: run the probe there through ssh
    std::string probe;                 // the probe to run (here, or on the remote host)
    std::string hangTimeout = "180";   // seconds without a line from the probe before it is stopped
};

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& options);

// The probe this program runs: $WARPSCOPE_PROBE, else warpscope-probe beside the executable.
std::string probePath();

int runProfile(const ProfileOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
