// `warpscope step`: the state of one warp of one block before one of its warp-instructions, from the
// same recording the window's stepper shows (sim/block_recording.h), as text or JSON. Qt-free.
#pragma once

#include "cli/cli_launch.h"
#include "sim/block_recording.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace warpscope::cli {

struct StepOptions : LaunchOptions {
    std::string blockIndex = "0";  // blockIdx: X[,Y[,Z]], missing components 0
    std::string warp = "0";
    std::string at = "0";          // the warp's instruction number, from 0
    std::string blockBudget = "16777216";
    bool json = false;
};

CLI::App* addStepCommand(CLI::App& app, StepOptions& options);

// 0 when the step was printed; 1 on a compile failure. Throws InputError on bad input, including an
// --at past the warp's last instruction.
int runStep(const StepOptions& options, std::ostream& out, std::ostream& err);

// One register's 32 lanes as JSON values of its PTX type: integers for integer and bit types,
// numbers for f32/f64 ("nan", "inf", "-inf" as strings), 0/1 for predicates, null for lanes that
// hold no thread.
nlohmann::ordered_json registerLanesJson(const std::uint64_t* lanes, ptx::Type type, std::uint32_t existMask);

// "0x0000ffff"
std::string maskText(std::uint32_t mask);

// The JSON object `warpscope step --json` prints for the state before `position`.
nlohmann::ordered_json stepStateJson(const sim::BlockReplay& replay, const ptx::Module& module, const ptx::Function& function,
                             std::int32_t warp, std::size_t position);

} // namespace warpscope::cli
