// Sections: helpers (values, differences, text) · what each side says (Quantities) · why they differ
// (explain*: shared memory, bank conflicts, branches, occupancy) · the rows of each kernel.
#include "session/prediction_comparison.h"

#include "session/metric_catalog.h"
#include "session/session.h"
#include "session/stall_comparison.h"
#include "util/parse.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::session {
namespace {

// ncu's branch counts (the Source Counters section's metrics). With them "no SASS branch ran" is told
// apart from "every SASS branch diverged": the uniformity percentage is 0 % in both cases.
constexpr const char* kBranchTargets = "smsp__sass_branch_targets.sum";
constexpr const char* kBranchTargetsUniform = "smsp__sass_branch_targets_threads_uniform.sum";
constexpr const char* kBranchTargetsDivergent = "smsp__sass_branch_targets_threads_divergent.sum";
constexpr const char* kSassWarpInstructions = "smsp__inst_executed.sum";

constexpr const char* kDash = "\u2014";
constexpr const char* kMinus = "\u2212";

double nan() { return std::nan(""); }

// `pattern` with %1 .. %9 replaced by `args`, every occurrence, in one pass: a value holding "%2" is
// never filled in again.
std::string fill(std::string_view pattern, std::initializer_list<std::string_view> args)
{
    std::string out;
    out.reserve(pattern.size() + 32);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9') {
            const std::size_t index = static_cast<std::size_t>(pattern[i + 1] - '1');
            if (index < args.size()) {
                out += *(args.begin() + index);
                ++i;
                continue;
            }
        }
        out += pattern[i];
    }
    return out;
}

std::string ptxVsSass() { return "differs; PTX counts vs SASS counts"; }

enum class Kind { Ratio, Count, Percent };

std::string valueText(double value, Kind kind, const NumberText& numbers)
{
    switch (kind) {
    case Kind::Ratio: return numbers.ratio(value);
    case Kind::Count: return numbers.count(value);
    case Kind::Percent: return numbers.percent(value);
    }
    return {};
}

std::string signedText(double delta, Kind kind, const NumberText& numbers)
{
    const std::string sign = delta > 0 ? "+" : kMinus;
    switch (kind) {
    case Kind::Ratio: return sign + numbers.ratio(std::fabs(delta));
    case Kind::Count: return sign + numbers.count(std::fabs(delta));
    case Kind::Percent: {
        std::string points = numbers.ratio(std::fabs(delta)); // two decimals, shown with one
        if (!points.empty())
            points.pop_back();
        return sign + points + " pts";
    }
    }
    return {};
}

// "measured - predicted": "same", "+0.50 (+12.5 %)", "−12.5 pts".
std::string differenceText(double predicted, double measured, Kind kind, const NumberText& numbers)
{
    if (std::isnan(predicted) || std::isnan(measured))
        return kDash;
    const double delta = measured - predicted;
    if (delta == 0)
        return "same";
    if (kind == Kind::Percent)
        return signedText(delta, kind, numbers);
    if (predicted == 0)
        return signedText(delta, kind, numbers) + " (none predicted)";
    return signedText(delta, kind, numbers) + " (" + numbers.change(measured, predicted) + ")";
}

double metricValue(const MetricsRecord* record, const char* name)
{
    if (record == nullptr)
        return nan();
    auto it = record->values.find(name);
    return it == record->values.end() ? nan() : it->second;
}

double ratio(double numerator, double denominator) { return denominator > 0 ? numerator / denominator : nan(); }

double count(std::uint64_t value) { return static_cast<double>(value); }

// ---- What each side says -------------------------------------------------------------------------

// Every compared quantity of one kernel, from its records; NaN where a record or value is missing.
struct Quantities {
    double loadSectorsPerRequest = nan(), storeSectorsPerRequest = nan();
    double sharedLoadWavefronts = nan(), sharedStoreWavefronts = nan(), bankConflicts = nan();
    double branchUniformity = nan(), occupancy = nan(), fp32Flop = nan(), warpInstructions = nan();
};

Quantities predictedQuantities(const PredictionRecord* p, const OccupancyRecord* occupancy)
{
    Quantities q;
    if (p != nullptr) {
        q.loadSectorsPerRequest = ratio(count(p->globalLoadSectors), count(p->globalLoadRequests));
        q.storeSectorsPerRequest = ratio(count(p->globalStoreSectors), count(p->globalStoreRequests));
        q.sharedLoadWavefronts = count(p->sharedLoadWavefronts);
        q.sharedStoreWavefronts = count(p->sharedStoreWavefronts);
        q.bankConflicts = count(p->sharedBankConflicts);
        const double branches = count(p->branchesUniform + p->branchesDivergent);
        q.branchUniformity = branches > 0 ? count(p->branchesUniform) / branches * 100.0 : nan();
        q.fp32Flop = count(p->fadd + p->fmul) + 2.0 * count(p->ffma);
        q.warpInstructions = count(p->warpInstructions);
    }
    if (occupancy != nullptr)
        q.occupancy = occupancy->theoretical * 100.0;
    return q;
}

Quantities measuredQuantities(const MetricsRecord* m)
{
    using namespace metric;
    Quantities q;
    if (m == nullptr)
        return q;
    const DerivedMetrics d = deriveMetrics(*m);
    q.loadSectorsPerRequest = d.globalLoadSectorsPerRequest;
    q.storeSectorsPerRequest = d.globalStoreSectorsPerRequest;
    q.sharedLoadWavefronts = metricValue(m, kSharedLoadWavefronts);
    q.sharedStoreWavefronts = metricValue(m, kSharedStoreWavefronts);
    q.bankConflicts = d.sharedBankConflicts;
    q.branchUniformity = metricValue(m, kBranchUniformPct);
    q.occupancy = metricValue(m, kWarpsActive);
    q.fp32Flop = d.fp32Flops;
    q.warpInstructions = metricValue(m, kSassWarpInstructions);
    return q;
}

bool differs(const ComparisonRow& row)
{
    return !std::isnan(row.predicted) && !std::isnan(row.measured) && row.predicted != row.measured;
}

void explain(ComparisonRow& row, const std::string& note, const std::string& detail, Agreement agreement = Agreement::Explained)
{
    row.note = note;
    row.agreement = agreement;
    row.detail += "\n\n" + detail;
}

// ---- Why they differ -----------------------------------------------------------------------------

// Shared-memory wavefronts of loads or stores. ncu splits them into conflict-free ones and bank
// conflicts; the simulator's conflict-free count is one per request for the PTX's scalar accesses.
// Equal conflict-free counts put the difference in the conflicts; fewer on the GPU means the SASS
// has fewer, wider shared accesses than the PTX.
void explainSharedWavefronts(ComparisonRow& row, double predictedRequests, double measuredConflicts, bool loads,
                             const NumberText& numbers)
{
    if (!differs(row))
        return;
    const double measuredConflictFree = row.measured - (std::isnan(measuredConflicts) ? 0.0 : measuredConflicts);
    const std::string merge =
        fill("ptxas can merge neighbouring scalar %1 of the PTX into one wider %2 (64 or 128 bits), or drop a "
             "repeated one, so the GPU serves the same bytes with fewer instructions; a broadcast or a "
             "conflict-free wide access also needs fewer wavefronts than the scalar ones it replaces. The "
             "bank-conflict row compares the conflicts themselves.",
             {loads ? "ld.shared" : "st.shared", loads ? "LDS" : "STS"});
    if (!std::isnan(measuredConflicts) && measuredConflictFree == predictedRequests) {
        explain(row, fill("conflict-free wavefronts agree (%1); the rest is bank conflicts", {numbers.count(predictedRequests)}),
                fill("Without their bank conflicts both sides count %1 wavefronts (the measured wavefronts minus "
                     "the measured conflicts, against one per PTX request): the difference is in the "
                     "bank-conflict row.",
                     {numbers.exact(predictedRequests)}));
        return;
    }
    if (measuredConflictFree < predictedRequests || (std::isnan(measuredConflicts) && row.measured < row.predicted)) {
        explain(row, fill("fewer on the GPU: ptxas can merge shared %1 into wider ones", {loads ? "loads" : "stores"}), merge);
        return;
    }
    row.note = ptxVsSass();
    row.detail += "\n\nThe simulator counts the PTX's shared accesses, ncu the SASS's.";
}

// Bank conflicts: the simulator counts them for shared loads, stores and atomics; ncu's two counters
// are loads (op_ld) and stores (op_st) only.
void explainBankConflicts(ComparisonRow& row, const PredictionRecord* p, double measuredWavefronts, const NumberText& numbers)
{
    if (p == nullptr || !differs(row))
        return;
    const double requests = count(p->sharedLoadRequests + p->sharedStoreRequests);
    if (requests > 0 || p->sharedLoadWavefronts + p->sharedStoreWavefronts > 0) {
        // For scalar accesses a load's or store's conflicts are its wavefronts beyond one per request.
        const double loadStoreConflicts = std::max(0.0, count(p->sharedLoadWavefronts) - count(p->sharedLoadRequests)) +
                                          std::max(0.0, count(p->sharedStoreWavefronts) - count(p->sharedStoreRequests));
        if (row.predicted > loadStoreConflicts) {
            const double atomics = row.predicted - loadStoreConflicts;
            const Agreement loadsAndStores = agreementOf(loadStoreConflicts, row.measured);
            explain(row, fill("prediction includes shared atomics (%1); measured: loads and stores only", {numbers.count(atomics)}),
                    fill("Of the %1 predicted, at least %2 are conflicts of shared atomics (the predicted load and "
                         "store wavefronts leave room for only %3); ncu's counters named above count loads and "
                         "stores, not atomics. Loads and stores alone: %3 predicted, %4 measured.",
                         {numbers.exact(row.predicted), numbers.exact(atomics), numbers.exact(loadStoreConflicts),
                          numbers.exact(row.measured)}),
                    loadsAndStores == Agreement::Agrees ? Agreement::Explained : loadsAndStores);
            return;
        }
    }
    if (row.agreement == Agreement::Agrees)
        return;
    if (row.measured > row.predicted && measuredWavefronts > 0) {
        const double share = (row.measured - row.predicted) / measuredWavefronts;
        const std::string shareText = numbers.percent(share * 100.0);
        explain(row, fill("extra conflicts: %1 of the shared wavefronts; %2", {shareText, ptxVsSass()}),
                fill("The GPU counted %1 more conflicts than the simulator, %2 of its %3 shared wavefronts. The "
                     "simulator derives conflicts from the addresses of each PTX access, one warp instruction "
                     "at a time; these counters do not say where the extra ones came from.",
                     {numbers.exact(row.measured - row.predicted), shareText, numbers.exact(measuredWavefronts)}),
                share <= 0.05 ? Agreement::Close : Agreement::Differs);
        return;
    }
    row.note = ptxVsSass();
}

// Branch uniformity: the simulator counts the PTX's bra instructions, ncu the SASS's branches, and
// ptxas can replace a short branch with predicated instructions (CUDA C++ Best Practices Guide,
// "Branch Predication"). ncu reports 0 % when it has nothing to count.
void explainBranches(ComparisonRow& row, const PredictionRecord* p, const MetricsRecord* m, const NumberText& numbers)
{
    if (p == nullptr || m == nullptr)
        return;
    const double predictedBranches = count(p->branchesUniform + p->branchesDivergent);
    double sassBranches = metricValue(m, kBranchTargets);
    if (std::isnan(sassBranches)) {
        const double uniform = metricValue(m, kBranchTargetsUniform), divergent = metricValue(m, kBranchTargetsDivergent);
        if (!std::isnan(uniform) && !std::isnan(divergent))
            sassBranches = uniform + divergent;
    }
    const bool countKnown = !std::isnan(sassBranches);
    const std::string predication = "ptxas can replace a short branch with predicated instructions (CUDA C++ "
                                    "Best Practices Guide, \"Branch Predication\").";
    if (countKnown ? sassBranches == 0 : (predictedBranches == 0 && row.measured == 0)) {
        row.measuredText = "no branches";
        row.measured = row.predicted = nan();
        if (predictedBranches == 0) {
            row.differenceText = "same";
            row.agreement = Agreement::Agrees;
            row.detail += "\n\n" + (countKnown ? fill("%1 = 0: no SASS branch ran.", {kBranchTargets})
                                                : std::string("ncu reports 0 % when there is no branch to count, and the PTX has "
                                                              "none: no branches on either side."));
        } else {
            row.differenceText = "none on the GPU";
            explain(row, "ptxas removed the PTX's branches (predication)",
                    fill("%1 = 0: the SASS ran no branch where the PTX ran %2. ", {kBranchTargets, numbers.exact(predictedBranches)}) +
                        predication);
        }
        return;
    }
    if (std::isnan(row.measured))
        return;
    if (predictedBranches == 0) {
        row.differenceText = "SASS only";
        explain(row, "the SASS runs branches the PTX does not have",
                "The PTX has no branch instruction; ncu measured branches in the SASS ptxas made of it.");
        return;
    }
    if (!countKnown && row.measured == 0) {
        row.differenceText = "not comparable";
        explain(row, "0 % is also what ncu reports when no SASS branch ran",
                fill("ncu reports 0 % both when every SASS branch diverged and when no SASS branch ran at all; "
                     "without the branch counts (%1) the two cannot be told apart. ",
                     {kBranchTargets}) +
                    predication);
        return;
    }
    if (differs(row))
        explain(row, ptxVsSass(),
                "The simulator counts the PTX's branch instructions, ncu the SASS branches: not the same "
                "instructions. " + predication);
}

// Theoretical occupancy is the most warps the limits allow; achieved is the average resident while
// the kernel ran. The gap is expected: say which of its usual causes this launch shows.
void explainOccupancy(ComparisonRow& row, const OccupancyRecord* occupancy, int smCount, const NumberText& numbers)
{
    if (occupancy == nullptr || !differs(row))
        return;
    const double waves = occupancy->waves;
    std::string note;
    if (waves > 0 && waves < 0.9)
        note = fill("a comparison: %1 of one wave, so SMs sit partly empty", {numbers.ratio(waves)});
    else if (waves > 0 && waves <= 20)
        note = fill("a comparison: %1 waves; SMs idle as the last one drains (tail effect)", {numbers.ratio(waves)});
    else
        note = "a comparison: warps and blocks finish at different times";
    const std::string detail = fill(
        "Theoretical occupancy is the most warps an SM can hold with this kernel's registers, shared memory and "
        "block size; achieved is the average number resident while the kernel ran. Achieved falls below it when "
        "the grid has fewer blocks than one wave (%1 SMs x %2 blocks each here), while the last wave drains and "
        "nothing replaces the blocks that finish (the tail effect), and when the warps of a block or the blocks of "
        "the grid finish at different times (uneven work, or stalls that hold some warps longer). This launch: "
        "%3 waves.",
        {smCount > 0 ? std::to_string(smCount) : std::string("the"), std::to_string(occupancy->activeBlocksPerSm),
         numbers.ratio(waves)});
    explain(row, note, detail);
}

} // namespace

// ---- Agreement and numbers -------------------------------------------------------------------------

Agreement agreementOf(double predicted, double measured)
{
    if (std::isnan(predicted) || std::isnan(measured) || std::isinf(predicted) || std::isinf(measured))
        return Agreement::NotComparable;
    if (predicted == 0)
        return measured == 0 ? Agreement::Agrees : Agreement::Differs;
    const double relative = std::fabs(measured - predicted) / std::fabs(predicted);
    if (relative <= 0.02)
        return Agreement::Agrees;
    if (relative <= 0.10)
        return Agreement::Close;
    return Agreement::Differs;
}

std::string_view agreementKey(Agreement agreement)
{
    switch (agreement) {
    case Agreement::Agrees: return "agrees";
    case Agreement::Close: return "close";
    case Agreement::Differs: return "differs";
    case Agreement::NotComparable: return "not_comparable";
    case Agreement::Explained: return "explained";
    }
    return "";
}

NumberText plainNumberText()
{
    auto fixed = [](double value, int decimals) {
        char text[64];
        std::snprintf(text, sizeof text, "%.*f", decimals, value);
        return std::string(text);
    };
    auto integral = [](double value) { return std::fabs(value) < 9.0e15 && value == std::floor(value); };
    NumberText numbers;
    numbers.count = [=](double value) {
        if (std::isnan(value))
            return std::string("n/a");
        return integral(value) && std::fabs(value) < 10000.0 ? withThousands(static_cast<std::int64_t>(value))
                                                              : formatMetricValue(value, "");
    };
    numbers.percent = [=](double value) { return std::isnan(value) ? std::string("n/a") : fixed(value, 1) + " %"; };
    numbers.ratio = [=](double value) { return std::isnan(value) || std::isinf(value) ? std::string("n/a") : fixed(value, 2); };
    numbers.exact = [=](double value) {
        if (std::isnan(value))
            return std::string("not measured");
        if (integral(value))
            return withThousands(static_cast<std::int64_t>(value));
        char text[64];
        std::snprintf(text, sizeof text, "%.10g", value);
        return std::string(text);
    };
    numbers.change = [=](double current, double baseline) {
        if (std::isnan(current) || std::isnan(baseline))
            return std::string("n/a");
        if (baseline == 0)
            return std::string(current == 0 ? "0 %" : "from 0");
        const double change = (current - baseline) / std::fabs(baseline) * 100.0;
        if (std::fabs(change) < 0.05)
            return std::string("0 %");
        return (change > 0 ? std::string("+") : std::string(kMinus)) + fixed(std::fabs(change), 1) + " %";
    };
    return numbers;
}

bool isSampled(const PredictionRecord& prediction)
{
    return prediction.simulatedBlocks > 0 && prediction.simulatedBlocks < prediction.totalBlocks;
}

SampleText sampledPredictionText(const PredictionRecord& prediction, const NumberText& numbers)
{
    if (!isSampled(prediction))
        return {};
    const std::string simulated = numbers.exact(count(prediction.simulatedBlocks));
    const std::string total = numbers.exact(count(prediction.totalBlocks));
    return {fill("counts scaled from %1 of %2 blocks; exact if all blocks do the same work", {simulated, total}),
            fill("The simulator ran %1 of the grid's %2 blocks (the first, the last and evenly spread ones) and scaled "
                 "every predicted count by %2 / %1: exact for kernels whose blocks all do the same work, an estimate "
                 "otherwise.",
                 {simulated, total})};
}

// ---- The duration: the timing model against the measured runs ------------------------------------------

std::string durationText(double ns)
{
    char text[64];
    if (ns >= 1e6)
        std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
    else
        std::snprintf(text, sizeof text, "%.3g \u00b5s", ns / 1e3);
    return text;
}

std::string timeBlindSpotsText(const std::vector<std::string>& spots)
{
    std::string text;
    for (const std::string& spot : spots)
        text += (text.empty() ? "" : ", ") + spot;
    return text;
}

Agreement durationAgreement(double ratio)
{
    // A model's time, not an exact count: within 10 % agrees, within 25 % is close.
    const double off = std::max(ratio, 1.0 / ratio);
    return off <= 1.10 ? Agreement::Agrees : off <= 1.25 ? Agreement::Close : Agreement::Differs;
}

// The row "Duration": the model's time when the prediction has one, beside the median of the runs;
// the difference is their ratio, and the note names the model's blind spots for this kernel.
std::optional<ComparisonRow> durationRow(const PredictionRecord* p, const ActivityRecord* activity, const NumberText& numbers)
{
    if (p == nullptr || !(p->predictedNs > 0))
        return std::nullopt;
    ComparisonRow row;
    row.key = "duration";
    row.title = "Duration (timing model)";
    row.predicted = p->predictedNs;
    row.predictedText = durationText(p->predictedNs);
    const bool measured = activity != nullptr && !activity->durationsNs.empty();
    row.measured = measured ? static_cast<double>(activity->medianNs()) : nan();
    row.measuredText = measured ? durationText(row.measured) + " (median of " + std::to_string(activity->durationsNs.size()) + ")"
                                : std::string("not measured");
    const double ratio = measured ? p->predictedNs / row.measured : nan();
    row.differenceText = measured ? "ratio " + numbers.ratio(ratio) + " (predicted / measured)" : std::string(kDash);
    row.agreement = measured ? durationAgreement(ratio) : Agreement::NotComparable;
    const std::string spots = timeBlindSpotsText(p->timeBlindSpots);
    row.note = spots.empty() ? std::string() : "the model's blind spots here: " + spots;
    row.detail = fill("Predicted: the simulator's timing model (a model, not a measurement) on this session's GPU, %1. "
                      "Measured: the median of the kernel's timed runs (CUPTI Activity).",
                      {p->timeMethod.empty() ? std::string("how not recorded") : p->timeMethod});
    if (!spots.empty())
        row.detail += "\n\nWhat the model leaves out here: " + spots +
                      ". Global atomics: same-address updates serialise at L2 beyond what the model charges. Shared "
                      "atomics: conflicts cost wavefronts only. L2-resident working set: the model counts only each "
                      "sector's first touch as DRAM traffic. A sample of blocks: the time is scaled by waves. Launch "
                      "overhead: a fixed cost fitted to the recorded H200 sessions.";
    return row;
}

// ---- The rows of each kernel -------------------------------------------------------------------------

std::vector<KernelComparison> comparePredictions(const Session& current, const Session* baseline, const NumberText& numbers)
{
    using namespace metric;
    const int smCount = current.devices.empty() ? 0 : current.devices.front().smCount;
    std::vector<KernelComparison> kernels;
    for (const std::string& id : current.kernelIds()) {
        KernelComparison kernel;
        kernel.kernel = id;
        const PredictionRecord* p = current.predictionFor(id);
        const OccupancyRecord* occupancy = current.occupancyFor(id);
        const MetricsRecord* m = current.metricsFor(id);
        const Quantities predicted = predictedQuantities(p, occupancy);
        const Quantities measured = measuredQuantities(m);
        const std::optional<Quantities> before =
            baseline != nullptr && baseline->metricsFor(id) != nullptr
                ? std::optional(measuredQuantities(baseline->metricsFor(id)))
                : std::nullopt;
        const std::string preset = p ? p->preset : std::string();
        const std::string noPrediction = p ? std::string() : std::string("not predicted");
        const std::string noMeasurement = m ? std::string() : std::string("not measured");
        auto exact = [&](double value) { return numbers.exact(value); };

        auto makeRow = [&](const char* key, const std::string& title, double Quantities::*field, Kind kind, const std::string& tip,
                           const std::string& missingPrediction) {
            ComparisonRow row;
            row.key = key;
            row.title = title;
            row.predicted = predicted.*field;
            row.measured = measured.*field;
            row.predictedText = std::isnan(row.predicted) ? missingPrediction : valueText(row.predicted, kind, numbers);
            row.measuredText = std::isnan(row.measured) ? (m ? std::string("not measured") : noMeasurement)
                                                        : valueText(row.measured, kind, numbers);
            row.differenceText = differenceText(row.predicted, row.measured, kind, numbers);
            row.agreement = agreementOf(row.predicted, row.measured);
            if (before) {
                const double b = (*before).*field;
                row.baselineText = std::isnan(b) ? std::string(kDash) : valueText(b, kind, numbers);
                row.changeText = std::isnan(b) || std::isnan(row.measured) ? std::string(kDash) : numbers.change(row.measured, b);
            } else if (baseline != nullptr) {
                row.baselineText = row.changeText = kDash;
            }
            row.detail = tip;
            return row;
        };

        // The simulator ran a sample of the grid's blocks: every count below is scaled.
        if (p != nullptr && isSampled(*p)) {
            kernel.sample = sampledPredictionText(*p, numbers);
            ComparisonRow sample;
            sample.key = "simulated_blocks";
            sample.title = "Blocks the simulator ran";
            sample.predicted = sample.measured = nan();
            sample.predictedText = fill("%1 of %2", {exact(count(p->simulatedBlocks)), exact(count(p->totalBlocks))});
            sample.measuredText = kDash;
            sample.differenceText = kDash;
            sample.note = kernel.sample.note;
            sample.detail = kernel.sample.detail;
            if (baseline != nullptr)
                sample.baselineText = sample.changeText = kDash;
            kernel.rows.push_back(sample);
        }
        if (std::optional<ComparisonRow> duration = durationRow(p, current.activityFor(id), numbers)) {
            if (baseline != nullptr) {
                const ActivityRecord* before = baseline->activityFor(id);
                duration->baselineText = before ? durationText(static_cast<double>(before->medianNs())) : std::string(kDash);
                duration->changeText = before ? numbers.change(duration->measured, static_cast<double>(before->medianNs()))
                                              : std::string(kDash);
            }
            kernel.rows.push_back(*duration);
        }

        const std::string loadTip =
            p ? fill("Predicted: %1 sectors / %2 requests (simulator, preset %3). 4 sectors per request is a "
                     "warp reading 32 consecutive 4-byte words; 32 is one sector per lane.",
                     {exact(count(p->globalLoadSectors)), exact(count(p->globalLoadRequests)), preset})
              : std::string();
        // A kernel without global loads (or stores) on both sides: "none" on both, not "not measured".
        auto noneOnBoth = [&](ComparisonRow row, std::uint64_t predictedRequests, const char* measuredRequests, const std::string& none) {
            if (p && predictedRequests == 0 && metricValue(m, measuredRequests) == 0) {
                row.measuredText = none;
                row.differenceText = "same";
                row.agreement = Agreement::Agrees;
            }
            return row;
        };
        kernel.rows.push_back(noneOnBoth(
            makeRow("global_load_sectors_per_request", "Global load sectors per request", &Quantities::loadSectorsPerRequest,
                    Kind::Ratio, loadTip + fill(" Measured: %1 / %2.", {kGlobalLoadSectors, kGlobalLoadRequests}),
                    p && p->globalLoadRequests == 0 ? std::string("no global loads") : noPrediction),
            p ? p->globalLoadRequests : 0, kGlobalLoadRequests, "no global loads"));
        const std::string storeTip =
            p ? fill("Predicted: %1 sectors / %2 requests (simulator, preset %3).",
                     {exact(count(p->globalStoreSectors)), exact(count(p->globalStoreRequests)), preset})
              : std::string();
        kernel.rows.push_back(noneOnBoth(
            makeRow("global_store_sectors_per_request", "Global store sectors per request", &Quantities::storeSectorsPerRequest,
                    Kind::Ratio, storeTip + fill(" Measured: %1 / %2.", {kGlobalStoreSectors, kGlobalStoreRequests}),
                    p && p->globalStoreRequests == 0 ? std::string("no global stores") : noPrediction),
            p ? p->globalStoreRequests : 0, kGlobalStoreRequests, "no global stores"));

        const bool sharedRecorded = p && p->sharedLoadRequests + p->sharedStoreRequests + p->sharedBankConflicts > 0;
        ComparisonRow sharedLoads = makeRow(
            "shared_load_wavefronts", "Shared load wavefronts", &Quantities::sharedLoadWavefronts, Kind::Count,
            (p ? fill("Predicted: %1 wavefronts for %2 ld.shared requests (PTX). ",
                      {exact(count(p->sharedLoadWavefronts)), exact(count(p->sharedLoadRequests))})
               : std::string()) +
                fill("Measured: %1 (SASS).", {kSharedLoadWavefronts}),
            noPrediction);
        if (p && p->sharedLoadRequests == 0 && p->sharedLoadWavefronts == 0)
            sharedLoads.predictedText = "no shared loads";
        if (p)
            explainSharedWavefronts(sharedLoads, count(p->sharedLoadRequests), metricValue(m, kSharedLoadConflicts), true, numbers);
        ComparisonRow sharedStores = makeRow(
            "shared_store_wavefronts", "Shared store wavefronts", &Quantities::sharedStoreWavefronts, Kind::Count,
            (p ? fill("Predicted: %1 wavefronts for %2 st.shared requests (PTX). ",
                      {exact(count(p->sharedStoreWavefronts)), exact(count(p->sharedStoreRequests))})
               : std::string()) +
                fill("Measured: %1 (SASS).", {kSharedStoreWavefronts}),
            noPrediction);
        if (p && p->sharedStoreRequests == 0 && p->sharedStoreWavefronts == 0)
            sharedStores.predictedText = "no shared stores";
        if (p)
            explainSharedWavefronts(sharedStores, count(p->sharedStoreRequests), metricValue(m, kSharedStoreConflicts), false, numbers);
        // Kernels without shared memory on either side do not need the two rows.
        const bool sharedMeasured = (!std::isnan(sharedLoads.measured) && sharedLoads.measured > 0) ||
                                    (!std::isnan(sharedStores.measured) && sharedStores.measured > 0);
        if (sharedRecorded || sharedMeasured) {
            kernel.rows.push_back(sharedLoads);
            kernel.rows.push_back(sharedStores);
        }

        ComparisonRow conflicts = makeRow(
            "shared_bank_conflicts", "Shared-memory bank conflicts", &Quantities::bankConflicts, Kind::Count,
            fill("Extra shared-memory wavefronts caused by lanes hitting the same bank at different addresses, "
                 "loads and stores together. Measured: %1 + %2.",
                 {kSharedLoadConflicts, kSharedStoreConflicts}),
            noPrediction);
        double measuredWavefronts = nan();
        if (!std::isnan(measured.sharedLoadWavefronts) && !std::isnan(measured.sharedStoreWavefronts))
            measuredWavefronts = measured.sharedLoadWavefronts + measured.sharedStoreWavefronts;
        explainBankConflicts(conflicts, p, measuredWavefronts, numbers);
        kernel.rows.push_back(conflicts);

        ComparisonRow branches = makeRow(
            "branch_uniformity", "Branch uniformity", &Quantities::branchUniformity, Kind::Percent,
            (p ? fill("Predicted: %1 uniform of %2 warp branches (simulator, PTX). ",
                      {exact(count(p->branchesUniform)), exact(count(p->branchesUniform + p->branchesDivergent))})
               : std::string()) +
                fill("Measured: %1 (SASS branches, so the counts differ from PTX's).", {kBranchUniformPct}),
            p && p->branchesUniform + p->branchesDivergent == 0 ? std::string("no branches") : noPrediction);
        explainBranches(branches, p, m, numbers);
        kernel.rows.push_back(branches);

        ComparisonRow occupancyRow = makeRow(
            "occupancy", "Occupancy: theoretical vs achieved", &Quantities::occupancy, Kind::Percent,
            (occupancy ? fill("Theoretical: %1 blocks per SM with %2 registers per thread, limited by %3; %4 waves. ",
                              {std::to_string(occupancy->activeBlocksPerSm), std::to_string(occupancy->registersPerThread),
                               occupancy->limiter, numbers.ratio(occupancy->waves)})
                       : std::string()) +
                fill("Achieved: %1, the warps really resident while the kernel ran.", {kWarpsActive}),
            "no occupancy record");
        explainOccupancy(occupancyRow, occupancy, smCount, numbers);
        kernel.rows.push_back(occupancyRow);

        ComparisonRow flop = makeRow(
            "fp32_flop", "FP32 FLOP (add + mul + 2 \u00d7 FMA)", &Quantities::fp32Flop, Kind::Count,
            fill("Thread-level FP32 operations; an FMA counts as 2 FLOP. Predicted from the PTX's add, sub, mul "
                 "and fma; measured: %1, %2, %3 (SASS).",
                 {kFadd, kFmul, kFfma}),
            noPrediction);
        if (differs(flop) && flop.agreement != Agreement::Agrees)
            flop.note = ptxVsSass();
        kernel.rows.push_back(flop);

        // Warp instructions: PTX against SASS, never one to one; shown when the session measured them.
        ComparisonRow instructions = makeRow(
            "warp_instructions", "Warp instructions", &Quantities::warpInstructions, Kind::Count,
            fill("Predicted: PTX instructions the simulator issued per warp, summed. Measured: %1, the SASS "
                 "instructions.",
                 {kSassWarpInstructions}),
            noPrediction);
        if (!std::isnan(instructions.measured)) {
            if (differs(instructions))
                explain(instructions, "PTX and SASS are different instruction sets",
                        "ptxas turns the PTX into SASS: it merges, splits, removes and adds instructions "
                        "(address arithmetic, predication, unrolling), so only the size of the two counts "
                        "compares.");
            kernel.rows.push_back(instructions);
        }

        // Where the warps waited: the model's stall shares beside ncu's warp states, when measured.
        for (ComparisonRow& stall : stallComparisonRows(p, m, numbers)) {
            if (baseline != nullptr)
                stall.baselineText = stall.changeText = kDash;
            kernel.rows.push_back(std::move(stall));
        }

        ComparisonRow check;
        check.key = "check";
        check.title = "Output check";
        check.predicted = check.measured = nan();
        if (const CheckRecord* c = current.checkFor(id)) {
            check.predictedText = "reference: " + c->reference;
            check.measuredText = c->matches ? "matches" : "MISMATCH";
            check.differenceText = c->detail;
            check.agreement = c->matches ? Agreement::Agrees : Agreement::Differs;
            check.detail = c->detail;
        } else {
            check.predictedText = kDash;
            check.measuredText = "not checked";
            check.differenceText = kDash;
        }
        if (baseline != nullptr) {
            const CheckRecord* b = baseline->checkFor(id);
            check.baselineText = b ? (b->matches ? "matches" : "MISMATCH") : kDash;
            check.changeText = kDash;
        }
        kernel.rows.push_back(check);
        kernels.push_back(kernel);
    }
    return kernels;
}

} // namespace warpscope::session
