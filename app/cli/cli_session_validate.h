// `warpscope session validate-timing FILE.wsprof... [--json] [--sample-blocks N] [--threads N]`:
// re-runs every kernel record of recorded sessions on the simulator, with the same launch, arguments
// and device (session/session_preset.h), and compares the timing model's duration with the measured
// one (the median of the activity record's runs): per kernel the ratio, overall the mean absolute
// error, the worst ratios, the Spearman rank correlation and each ladder's order
// (session/timing_validation.h). Qt-free.
#pragma once

#include "session/timing_validation.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace warpscope::cli {

struct SessionValidateOptions {
    std::vector<std::string> files;
    bool json = false;
    std::string sampleBlocks = "0"; // 0: every block of a small, short launch, else a sample of kValidateSampleBlocks
    std::string threads = "0";
    std::string out; // with one session: write it here with each prediction's time filled in
};

// Every block is simulated for grids of at most this many blocks that take at most
// kValidateAllBlocksSeconds (estimated from a few blocks, sim::estimateWork); others are sampled.
inline constexpr std::uint64_t kValidateAllBlocksUpTo = 4096;
inline constexpr double kValidateAllBlocksSeconds = 5.0;
inline constexpr std::uint64_t kValidateSampleBlocks = 256;

// The samples of every kernel record with a measured duration, in file then stream order. Throws
// InputError for a file that is not a session. A kernel that cannot be simulated gets no prediction
// and its method says why.
session::TimingValidation validateTiming(const SessionValidateOptions& options, std::ostream& err);

// Exit 0 with the table (or --json), 2 for bad input (a file that is not a session, a bad option,
// --out with more than one session or naming the input), 1 when writing --out fails.
int runSessionValidate(const SessionValidateOptions& options, std::ostream& out, std::ostream& err);

} // namespace warpscope::cli
