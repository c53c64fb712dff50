// How much work a launch is, before simulating it: a few of its blocks are simulated (the first,
// the last and some between, as SimOptions::sampleBlocks picks them) and their counts scaled to
// the grid. A launch of the largest grid (2^31-1 blocks of 1,024 threads) would otherwise start a
// simulation that runs for weeks; with the estimate it is refused at once, with its size, and the
// learner is pointed at a sample of blocks instead.
#pragma once

#include "sim/simulator.h"

#include <cstdint>
#include <string>

namespace warpscope::sim {

struct WorkEstimate {
    std::uint64_t blocks = 0;           // in the grid
    std::uint64_t sampledBlocks = 0;    // simulated to make the estimate
    std::uint64_t warpInstructions = 0; // the sample's, scaled to the grid
    double seconds = 0;                 // to simulate every block on this machine, without the timing model
    int hostThreads = 1;                // the threads `seconds` assumes
    bool finished = true;               // false: a sampled block did not finish (its budget); no estimate
};

// Grids of at most this many blocks are not estimated: the sample would be most of the work.
inline constexpr std::uint64_t kEstimateAboveBlocks = 16;
// Blocks simulated for an estimate.
inline constexpr std::uint64_t kEstimateSampleBlocks = 8;

// Simulates kEstimateSampleBlocks blocks of the request on one host thread, without the timing
// model, tracing, recording or printf, and scales. The request itself is not changed. Throws what
// simulate() throws (InputError, ptx::UnsupportedPtx).
WorkEstimate estimateWork(const LaunchRequest& request);

// Why a launch with this estimate should not be simulated in full under `options`, as one
// sentence that gives the estimate and what to do instead; empty when it may run. It is refused
// when it would pass the step budget (it would stop unfinished) or take longer than `maxSeconds`.
std::string workRefusal(const WorkEstimate& estimate, const SimOptions& options, double maxSeconds);

// "about 3 minutes", "about 15 days": a duration for a sentence.
std::string roughDuration(double seconds);

} // namespace warpscope::sim
