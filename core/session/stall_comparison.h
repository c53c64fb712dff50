// Where the warps waited, predicted against measured: the timing model's stall cycles (sim::StallCycles,
// recorded in a prediction as ModelStallCycles) beside Nsight Compute's warp states, under ncu's names.
// Each side is given as shares of its warps' stall cycles, so the two compare although the model runs
// PTX and counts its own instructions. ncu's "selected" (the issue cycle itself) is no stall on either
// side. Every ncu reason says which model category charges the same wait; those the model has no
// category for are one row, "not modelled", so a learner sees how much of the measured waiting the
// model cannot show. Qt-free: comparePredictions adds these rows for the window and `session show`.
#pragma once

#include "session/prediction_comparison.h"
#include "session/session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::sim {
struct StallCycles;
}

namespace warpscope::session {

// One of ncu's warp stall reasons (Nsight Compute Kernel Profiling Guide, "Warp Scheduler States") and
// the timing model's category that charges the same wait: a ModelStallCycles key, or "" for none.
struct WarpStallReason {
    std::string_view ncu;      // "long_scoreboard"
    std::string_view meaning;  // one line, ours
    std::string_view model;    // "global_memory"; "" when the model has no such stall
};
// Every reason except "selected", in the rows' order: the mapped ones first.
const std::vector<WarpStallReason>& warpStallReasons();

// The model's categories as the session records them ("global_memory", ...), with its cycles.
struct ModelStallCategory {
    std::string_view key, title; // "global_memory", "global memory"
    std::uint64_t ModelStallCycles::*cycles;
};
const std::vector<ModelStallCategory>& modelStallCategories();

ModelStallCycles modelStallCycles(const sim::StallCycles& stalls);

// ncu's metric families that give a reason's warp cycles up to a factor common to all reasons, in
// the order they are read: "smsp__average_warp_latency_issue_stalled_%.ratio" (warp cycles per
// issued instruction), "smsp__warp_issue_stalled_%_per_warp_active.pct" (share of active warp
// cycles), "smsp__warps_issue_stalled_%.sum" (warp cycles). % is the reason.
std::string warpStallMetric(std::string_view pattern, std::string_view reason);
const std::vector<std::string_view>& warpStallMetricPatterns();

// The measured shares: each reason's value over the sum of every reason's (selected excluded), from
// the first family the record has any reason of. nullopt when it has none.
struct MeasuredStallShares {
    std::string pattern;                 // the family read
    std::vector<double> shares;          // per warpStallReasons(), 0..1; NaN when that reason was not measured
    int reasonsMeasured = 0;
};
std::optional<MeasuredStallShares> measuredStallShares(const MetricsRecord& metrics);

// The rows, one per model category, keys "stall_<ncu reason>" ("stall_lg_throttle_and_mio_throttle" for
// the two queues the model's load/store unit stands for), then "stall_not_modelled" for the reasons the
// model has none of; no rows when the record has no warp-state metric.
// Shares agree within 5 points and are close within 15 (a model's shares, not counts).
std::vector<ComparisonRow> stallComparisonRows(const PredictionRecord* prediction, const MetricsRecord* metrics,
                                               const NumberText& numbers);
Agreement stallShareAgreement(double predictedPercent, double measuredPercent);

} // namespace warpscope::session
