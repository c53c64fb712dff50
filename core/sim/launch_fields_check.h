// The stepper's launch fields (arguments, grid, block, block index) checked as they are typed: the
// argument specs are parsed and their integer scalars evaluated, the grid and block expressions
// evaluated over them and held to CUDA's launch limits, the block index to the grid, but no buffer
// is made and nothing is compiled, so it is cheap enough for every keystroke (sim::resolveArgs fills
// buffers of up to the simulator's cap and is not). Each field gets one line, worded as every view
// words the same mistake (util/input_wording.h): a grid or block typed as plain numbers reads exactly
// as the launch bar's ("block: 2000 is out of range (allowed: 1..1024)").
#pragma once

#include "launch/launch_geometry.h"
#include "sim/kernel_args.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::sim {

struct LaunchFieldsText {
    std::string args;       // specs separated by spaces
    std::string grid;       // X[,Y[,Z]], each an integer expression over the integer arguments
    std::string block;
    std::string blockIndex; // X[,Y[,Z]] integers; empty: 0
};

struct LaunchFieldsCheck {
    // One line per field that cannot be run, empty where the field is fine.
    std::string argsError, gridError, blockError, blockIndexError;
    // The launch the fields describe, where they can be evaluated.
    std::optional<launch::Dim3> grid, block, blockIndex;
    bool ok() const { return argsError.empty() && gridError.empty() && blockError.empty() && blockIndexError.empty(); }
};

// `kernelSpecs`: a demo kernel's own arguments, which the typed specs override by name (a name it
// does not have is an error); null when the typed list is the whole list (the playground, a file).
// `kernelName` names the kernel in that error. `maxBufferBytes` caps each buffer, as when run.
LaunchFieldsCheck checkLaunchFields(const LaunchFieldsText& text, const std::vector<ArgSpec>* kernelSpecs,
                                    const std::string& kernelName, std::uint64_t maxBufferBytes);

} // namespace warpscope::sim
