// Predicted vs measured, per kernel: what Warpscope's simulator predicted for the launch beside what
// the GPU's counters measured (sectors per request, shared-memory wavefronts and bank conflicts,
// branch uniformity, FP32 work, warp instructions), theoretical vs achieved occupancy and the output
// check. Where the two differ by design (the simulator runs PTX, the GPU the SASS ptxas made of it;
// theoretical against achieved occupancy; ncu's 0 % when no branch ran) the row says why and is
// marked Explained instead of wrong. Qt-free: the window's table and `warpscope session show` print
// these rows, each writing numbers its own way (NumberText).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {

struct PredictionRecord;
struct Session;

// How far a measurement is from a prediction (relative to the prediction): within 2 % agrees, within
// 10 % is close, further apart differs. Explained: they differ for a reason the row states.
enum class Agreement { Agrees, Close, Differs, NotComparable, Explained };
Agreement agreementOf(double predicted, double measured);
std::string_view agreementKey(Agreement agreement); // "agrees", "close", "differs", "not_comparable", "explained"

// How a front end writes the numbers in the rows' text.
struct NumberText {
    std::function<std::string(double)> count;            // "9,999", "65.54 K"
    std::function<std::string(double)> percent;          // the argument in %: "87.5 %"
    std::function<std::string(double)> ratio;            // two decimals: "4.00"
    std::function<std::string(double)> exact;            // every digit: "1,048,576"
    std::function<std::string(double, double)> change;   // current against baseline: "+12.5 %", "0 %", "from 0"
};
// The command line's: printf and digit grouping, no locale.
NumberText plainNumberText();

// A prediction from a sample of the grid's blocks (the first, the last and evenly spread ones), every
// count scaled by total / simulated. `note` is one line ("counts scaled from 256 of 524,288 blocks;
// exact if all blocks do the same work"), `detail` the whole story; both empty when the whole
// grid ran (or the session predates sampling).
struct SampleText {
    std::string note, detail;
};
bool isSampled(const PredictionRecord& prediction);
SampleText sampledPredictionText(const PredictionRecord& prediction, const NumberText& numbers);

struct ComparisonRow {
    std::string key;             // "global_load_sectors_per_request", ..., "check"
    std::string title;
    double predicted = 0;        // NaN when the session has no such prediction
    double measured = 0;         // NaN when not measured
    std::string predictedText, measuredText, differenceText;
    Agreement agreement = Agreement::NotComparable;
    std::string baselineText, changeText; // with a baseline session only
    std::string note;            // one line: why the two differ ("" when not known)
    std::string detail;          // the whole story (the window's tooltip)
};

struct KernelComparison {
    std::string kernel;
    SampleText sample;           // when the prediction is from a sample of blocks (also its first row, "simulated_blocks")
    std::vector<ComparisonRow> rows;
};

// Every kernel the session names, in stream order. `baseline` (may be null) fills the baseline and
// change texts from its measurements.
std::vector<KernelComparison> comparePredictions(const Session& current, const Session* baseline, const NumberText& numbers);

} // namespace warpscope::session
