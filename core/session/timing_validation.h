// How well the timing model's predicted durations match the GPU's measured ones, over the kernel
// records of recorded sessions: per kernel the ratio predicted / measured, and overall the mean
// absolute error, the worst ratios, the Spearman rank correlation and, per ladder, whether the
// predicted order of its rungs is the measured one. Plain statistics: `warpscope session
// validate-timing` runs the simulator and fills the samples.
#pragma once

#include "session/session.h"

#include <string>
#include <vector>

namespace warpscope::session {

struct TimingSample {
    std::string session;        // the file (or name) it came from
    std::string kernel;
    std::string ladder;         // "" when the kernel is no ladder's rung
    int rung = 0;
    double measuredNs = 0;      // median of the activity record's runs
    double measuredMinNs = 0, measuredMaxNs = 0; // the runs' spread, for ties in a ladder's order
    double predictedNs = 0;     // the timing model's; 0 or NaN: no prediction
    std::string method;         // how the prediction was made ("every block", "scaled from 256 of ...")
    std::vector<std::string> blindSpots; // what the model leaves out that matters for this kernel
    ModelStallCycles stalls;    // where the model's warps waited (its replayed blocks)
    double ratio() const { return predictedNs / measuredNs; }
    bool predicted() const;
};

struct LadderOrder {
    std::string session, ladder;
    std::vector<std::string> measured;  // rungs, fastest first
    std::vector<std::string> predicted; // rungs, fastest first
    // Equal, where rungs whose measured runs overlap (min..max) may come in either order: the
    // measurement cannot tell them apart.
    bool equal = true;
};

struct TimingValidation {
    std::vector<TimingSample> samples;
    int compared = 0;                 // samples with a prediction
    double meanAbsoluteError = 0;     // mean of |predicted / measured - 1|
    double minRatio = 0, maxRatio = 0, medianRatio = 0;
    int ratiosWithin2x = 0;           // samples with 0.5 <= ratio <= 2
    double spearman = 0;              // rank correlation of predicted and measured times
    std::vector<LadderOrder> ladders; // per session and ladder with two rungs or more
    bool laddersEqual() const;
};

// Spearman's rank correlation: the Pearson correlation of the ranks (ties get their mean rank).
// NaN for fewer than two pairs or when either side has one value only.
double spearmanRankCorrelation(const std::vector<double>& a, const std::vector<double>& b);

TimingValidation summarizeTiming(std::vector<TimingSample> samples);

} // namespace warpscope::session
