// Sections: the reasons and the model's categories · the measured shares · the rows.
#include "session/stall_comparison.h"

#include "sim/timing_model.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::session {
namespace {

constexpr const char* kDash = "\u2014";

double nan() { return std::nan(""); }

std::string joined(const std::vector<std::string>& items, const std::string& separator)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

} // namespace

// ---- The reasons and the model's categories ------------------------------------------------------------

const std::vector<WarpStallReason>& warpStallReasons()
{
    // What each state means, in our words after the Nsight Compute Kernel Profiling Guide's list of warp
    // scheduler states; the model column says which of the timing model's waits is the same wait.
    static const std::vector<WarpStallReason> reasons = {
        {"long_scoreboard", "waiting for a result from L1TEX: global, local, texture or surface memory", "global_memory"},
        {"short_scoreboard", "waiting for a result from the MIO unit: shared memory, or a special-function (MUFU) "
                             "instruction", "shared_memory"},
        {"wait", "a fixed wait ptxas put before an instruction whose operand comes from a fixed-latency one (ALU, FMA)",
         "execution"},
        {"lg_throttle", "the load/store unit's queue for local and global instructions was full", "load_store_unit"},
        {"mio_throttle", "the MIO queue (shared memory, special functions and other MIO instructions) was full",
         "load_store_unit"},
        {"barrier", "waiting at a block barrier (bar.sync, __syncthreads) for the block's other warps", "barrier"},
        {"not_selected", "ready to issue, but the scheduler picked another warp", "not_selected"},
        {"math_pipe_throttle", "ready, but the arithmetic pipe its instruction needs was busy", ""},
        {"branch_resolving", "waiting for a branch's target to be computed", ""},
        {"no_instruction", "waiting for its next instruction to be fetched (instruction cache miss, after a branch)", ""},
        {"dispatch_stall", "picked, but the dispatcher could not send the instruction on", ""},
        {"drain", "after EXIT, waiting for its memory writes to drain", ""},
        {"imc_miss", "waiting for the immediate-constant cache to fetch a constant", ""},
        {"membar", "waiting at a memory fence (membar, __threadfence)", ""},
        {"misc", "ncu's other reasons", ""},
        {"sleeping", "asleep (nanosleep) or every thread waiting", ""},
        {"tex_throttle", "the texture unit's queue was full", ""},
    };
    return reasons;
}

const std::vector<ModelStallCategory>& modelStallCategories()
{
    static const std::vector<ModelStallCategory> categories = {
        {"global_memory", "global memory", &ModelStallCycles::globalMemory},
        {"shared_memory", "shared memory", &ModelStallCycles::sharedMemory},
        {"execution", "dependency", &ModelStallCycles::execution},
        {"load_store_unit", "load/store unit", &ModelStallCycles::loadStoreUnit},
        {"barrier", "barrier", &ModelStallCycles::barrier},
        {"not_selected", "not selected", &ModelStallCycles::notSelected},
    };
    return categories;
}

ModelStallCycles modelStallCycles(const sim::StallCycles& stalls)
{
    ModelStallCycles m;
    m.globalMemory = stalls.globalMemory;
    m.sharedMemory = stalls.sharedMemory;
    m.execution = stalls.execution;
    m.loadStoreUnit = stalls.loadStoreUnit;
    m.barrier = stalls.barrier;
    m.notSelected = stalls.notSelected;
    return m;
}

// ---- The measured shares ------------------------------------------------------------------------------

const std::vector<std::string_view>& warpStallMetricPatterns()
{
    static const std::vector<std::string_view> patterns = {
        "smsp__average_warp_latency_issue_stalled_%.ratio",
        "smsp__warp_issue_stalled_%_per_warp_active.pct",
        "smsp__warps_issue_stalled_%.sum",
    };
    return patterns;
}

std::string warpStallMetric(std::string_view pattern, std::string_view reason)
{
    std::string name(pattern);
    const std::size_t at = name.find('%');
    if (at != std::string::npos)
        name.replace(at, 1, reason);
    return name;
}

std::optional<MeasuredStallShares> measuredStallShares(const MetricsRecord& metrics)
{
    const std::vector<WarpStallReason>& reasons = warpStallReasons();
    for (std::string_view pattern : warpStallMetricPatterns()) {
        MeasuredStallShares measured;
        measured.pattern = std::string(pattern);
        measured.shares.assign(reasons.size(), nan());
        double total = 0;
        for (std::size_t i = 0; i < reasons.size(); ++i) {
            auto it = metrics.values.find(warpStallMetric(pattern, reasons[i].ncu));
            if (it == metrics.values.end() || !std::isfinite(it->second) || it->second < 0)
                continue;
            measured.shares[i] = it->second;
            measured.reasonsMeasured += 1;
            total += it->second;
        }
        if (measured.reasonsMeasured == 0)
            continue;
        for (double& share : measured.shares)
            if (!std::isnan(share))
                share = total > 0 ? share / total : 0.0;
        return measured;
    }
    return std::nullopt;
}

// ---- The rows ----------------------------------------------------------------------------------------

Agreement stallShareAgreement(double predictedPercent, double measuredPercent)
{
    if (std::isnan(predictedPercent) || std::isnan(measuredPercent))
        return Agreement::NotComparable;
    const double points = std::fabs(predictedPercent - measuredPercent);
    return points <= 5.0 ? Agreement::Agrees : points <= 15.0 ? Agreement::Close : Agreement::Differs;
}

std::vector<ComparisonRow> stallComparisonRows(const PredictionRecord* prediction, const MetricsRecord* metrics,
                                               const NumberText& numbers)
{
    std::vector<ComparisonRow> rows;
    if (metrics == nullptr)
        return rows;
    const std::optional<MeasuredStallShares> measured = measuredStallShares(*metrics);
    if (!measured)
        return rows;
    const std::vector<WarpStallReason>& reasons = warpStallReasons();
    const std::uint64_t modelTotal = prediction != nullptr ? prediction->modelStalls.total() : 0;
    const std::string missingPrediction = prediction == nullptr ? "not predicted" : "no timing model run";
    const std::string measuredHow =
        "Measured: each reason's " + measured->pattern + " over the sum of the " + std::to_string(measured->reasonsMeasured) +
        " stall reasons measured (the family's common factor cancels). ncu's selected, the cycle a warp issues, is no "
        "stall on either side.";
    const std::string predictedHow = modelTotal > 0
        ? "Predicted: the timing model's cycles of this category over all its stall cycles (" + numbers.exact(static_cast<double>(modelTotal)) +
              ", of the blocks it replayed; a model, running the PTX in ptxas's order)."
        : std::string("Predicted: this session's prediction has no timing-model stall cycles.");

    // One row per model category, against the ncu reasons that are the same wait.
    for (const ModelStallCategory& category : modelStallCategories()) {
        std::vector<std::string> names, meanings;
        double share = nan();
        for (std::size_t i = 0; i < reasons.size(); ++i) {
            if (reasons[i].model != category.key)
                continue;
            names.emplace_back(reasons[i].ncu);
            meanings.push_back(std::string(reasons[i].ncu) + ": " + std::string(reasons[i].meaning));
            if (!std::isnan(measured->shares[i]))
                share = (std::isnan(share) ? 0.0 : share) + measured->shares[i];
        }
        ComparisonRow row;
        row.key = "stall_" + joined(names, "_and_");
        row.title = "Stall " + joined(names, " + ") + " (model: " + std::string(category.title) + ")";
        row.predicted = modelTotal > 0 ? 100.0 * static_cast<double>(prediction->modelStalls.*category.cycles) / static_cast<double>(modelTotal)
                                       : nan();
        row.measured = std::isnan(share) ? nan() : 100.0 * share;
        row.predictedText = std::isnan(row.predicted) ? missingPrediction : numbers.percent(row.predicted);
        row.measuredText = std::isnan(row.measured) ? std::string("not measured") : numbers.percent(row.measured);
        if (std::isnan(row.predicted) || std::isnan(row.measured)) {
            row.differenceText = kDash;
        } else {
            const double points = row.measured - row.predicted;
            std::string magnitude = numbers.ratio(std::fabs(points)); // two decimals, shown with one
            if (!magnitude.empty())
                magnitude.pop_back();
            row.differenceText = std::fabs(points) < 0.05 ? std::string("same") : std::string(points > 0 ? "+" : "\u2212") + magnitude + " pts";
        }
        row.agreement = stallShareAgreement(row.predicted, row.measured);
        row.detail = "Share of the warps' stall cycles spent on this wait. " + joined(meanings, "; ") + ". " + measuredHow +
                     " " + predictedHow;
        if (category.key == "shared_memory")
            row.note = "ncu's short_scoreboard also counts special-function results; the model charges those to dependency (wait)";
        else if (category.key == "load_store_unit")
            row.note = "the model's one load/store unit stands for both of ncu's queues";
        rows.push_back(std::move(row));
    }

    // The reasons the model has none of: their share of the measured stalls, largest named.
    std::vector<std::pair<double, std::string>> unmodelled;
    double unmodelledShare = nan();
    for (std::size_t i = 0; i < reasons.size(); ++i) {
        if (!reasons[i].model.empty() || std::isnan(measured->shares[i]))
            continue;
        unmodelledShare = (std::isnan(unmodelledShare) ? 0.0 : unmodelledShare) + measured->shares[i];
        unmodelled.emplace_back(measured->shares[i], std::string(reasons[i].ncu));
    }
    std::stable_sort(unmodelled.begin(), unmodelled.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    ComparisonRow rest;
    rest.key = "stall_not_modelled";
    rest.title = "Stall reasons the model has none of";
    rest.predicted = nan();
    rest.predictedText = "not modelled";
    rest.measured = std::isnan(unmodelledShare) ? nan() : 100.0 * unmodelledShare;
    rest.measuredText = std::isnan(rest.measured) ? std::string("not measured") : numbers.percent(rest.measured);
    rest.differenceText = kDash;
    rest.agreement = Agreement::NotComparable;
    std::vector<std::string> largest, every;
    for (const auto& [value, name] : unmodelled) {
        if (value > 0 && largest.size() < 3)
            largest.push_back(name + " " + numbers.percent(100.0 * value));
        every.push_back(name + " " + numbers.percent(100.0 * value));
    }
    for (const WarpStallReason& reason : reasons)
        if (reason.model.empty())
            rest.detail += std::string(rest.detail.empty() ? "" : "; ") + std::string(reason.ncu) + ": " + std::string(reason.meaning);
    rest.detail = "ncu's stall reasons for which the timing model has no category, so it never predicts them: " +
                  rest.detail + ". Measured here: " + (every.empty() ? std::string("none of them") : joined(every, ", ")) +
                  ". " + measuredHow;
    if (!largest.empty())
        rest.note = "the model never predicts these: " + joined(largest, ", ");
    rows.push_back(std::move(rest));
    return rows;
}

} // namespace warpscope::session
