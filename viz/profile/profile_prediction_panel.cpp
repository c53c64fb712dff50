// Sections: helpers (values and differences) · what each side says (Quantities) · why they differ
// (explain*: shared memory, bank conflicts, branches, occupancy) · the model · the panel.
#include "profile/profile_prediction_panel.h"

#include "common/export_actions.h"
#include "session/metric_catalog.h"
#include "session/session.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

namespace warpscope::viz {
namespace {

using namespace profile;

// ncu's branch counts (the Source Counters section's metrics). With them "no SASS branch ran" is told
// apart from "every SASS branch diverged": the uniformity percentage is 0 % in both cases.
constexpr const char* kBranchTargets = "smsp__sass_branch_targets.sum";
constexpr const char* kBranchTargetsUniform = "smsp__sass_branch_targets_threads_uniform.sum";
constexpr const char* kBranchTargetsDivergent = "smsp__sass_branch_targets_threads_divergent.sum";
constexpr const char* kSassWarpInstructions = "smsp__inst_executed.sum";

double nan() { return std::nan(""); }

QString ptxVsSass() { return QObject::tr("differs; PTX counts vs SASS counts"); }

enum class Kind { Ratio, Count, Percent };

QString valueText(double value, Kind kind)
{
    switch (kind) {
    case Kind::Ratio: return formatRatio(value);
    case Kind::Count: return formatCount(value);
    case Kind::Percent: return formatPercent(value);
    }
    return {};
}

QString signedText(double delta, Kind kind)
{
    const QString sign = delta > 0 ? QStringLiteral("+") : QStringLiteral("\u2212");
    switch (kind) {
    case Kind::Ratio: return sign + formatRatio(std::fabs(delta));
    case Kind::Count: return sign + formatCount(std::fabs(delta));
    case Kind::Percent: return sign + formatRatio(std::fabs(delta)).chopped(1) + QStringLiteral(" pts");
    }
    return {};
}

// "measured - predicted": "same", "+0.50 (+12.5 %)", "−12.5 pts".
QString differenceText(double predicted, double measured, Kind kind)
{
    if (std::isnan(predicted) || std::isnan(measured))
        return QStringLiteral("\u2014");
    const double delta = measured - predicted;
    if (delta == 0)
        return QObject::tr("same");
    if (kind == Kind::Percent)
        return signedText(delta, kind);
    if (predicted == 0)
        return signedText(delta, kind) + QObject::tr(" (none predicted)");
    return signedText(delta, kind) + QStringLiteral(" (") + formatChange(measured, predicted) + QLatin1Char(')');
}

double metricValue(const session::MetricsRecord* record, const char* name)
{
    if (record == nullptr)
        return nan();
    auto it = record->values.find(name);
    return it == record->values.end() ? nan() : it->second;
}

double ratio(double numerator, double denominator) { return denominator > 0 ? numerator / denominator : nan(); }

double count(std::uint64_t value) { return static_cast<double>(value); }

QString exact(double value) { return formatExactValue(value, {}); }

// ---- What each side says -------------------------------------------------------------------------

// Every compared quantity of one kernel, from its records; NaN where a record or value is missing.
struct Quantities {
    double loadSectorsPerRequest = nan(), storeSectorsPerRequest = nan();
    double sharedLoadWavefronts = nan(), sharedStoreWavefronts = nan(), bankConflicts = nan();
    double branchUniformity = nan(), occupancy = nan(), fp32Flop = nan(), warpInstructions = nan();
};

Quantities predictedQuantities(const session::PredictionRecord* p, const session::OccupancyRecord* occupancy)
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

Quantities measuredQuantities(const session::MetricsRecord* m)
{
    using namespace session::metric;
    Quantities q;
    if (m == nullptr)
        return q;
    const session::DerivedMetrics d = session::deriveMetrics(*m);
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

bool differs(const PredictionRow& row)
{
    return !std::isnan(row.predicted) && !std::isnan(row.measured) && row.predicted != row.measured;
}

void explain(PredictionRow& row, const QString& note, const QString& detail, Agreement agreement = Agreement::Explained)
{
    row.note = note;
    row.agreement = agreement;
    row.toolTip += QStringLiteral("\n\n") + detail;
}

// ---- Why they differ -----------------------------------------------------------------------------

// Shared-memory wavefronts of loads or stores. ncu splits them into conflict-free ones and bank
// conflicts; the simulator's conflict-free count is one per request for the PTX's scalar accesses.
// Equal conflict-free counts put the difference in the conflicts; fewer on the GPU means the SASS
// has fewer, wider shared accesses than the PTX.
void explainSharedWavefronts(PredictionRow& row, double predictedRequests, double measuredConflicts, bool loads)
{
    if (!differs(row))
        return;
    const double measuredConflictFree = row.measured - (std::isnan(measuredConflicts) ? 0.0 : measuredConflicts);
    const QString merge =
        QObject::tr("ptxas can merge neighbouring scalar %1 of the PTX into one wider %2 (64 or 128 bits), or drop a "
                    "repeated one, so the GPU serves the same bytes with fewer instructions; a broadcast or a "
                    "conflict-free wide access also needs fewer wavefronts than the scalar ones it replaces. The "
                    "bank-conflict row compares the conflicts themselves.")
            .arg(loads ? QStringLiteral("ld.shared") : QStringLiteral("st.shared"),
                 loads ? QStringLiteral("LDS") : QStringLiteral("STS"));
    if (!std::isnan(measuredConflicts) && measuredConflictFree == predictedRequests) {
        explain(row, QObject::tr("conflict-free wavefronts agree (%1); the rest is bank conflicts").arg(formatCount(predictedRequests)),
                QObject::tr("Without their bank conflicts both sides count %1 wavefronts (the measured wavefronts minus "
                            "the measured conflicts, against one per PTX request): the difference is in the "
                            "bank-conflict row.")
                    .arg(exact(predictedRequests)));
        return;
    }
    if (measuredConflictFree < predictedRequests || (std::isnan(measuredConflicts) && row.measured < row.predicted)) {
        explain(row, QObject::tr("fewer on the GPU: ptxas can merge shared %1 into wider ones").arg(loads ? QObject::tr("loads") : QObject::tr("stores")),
                merge);
        return;
    }
    row.note = ptxVsSass();
    row.toolTip += QStringLiteral("\n\n") + QObject::tr("The simulator counts the PTX's shared accesses, ncu the SASS's.");
}

// Bank conflicts: the simulator counts them for shared loads, stores and atomics; ncu's two counters
// are loads (op_ld) and stores (op_st) only.
void explainBankConflicts(PredictionRow& row, const session::PredictionRecord* p, double measuredWavefronts)
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
            explain(row,
                    QObject::tr("prediction includes shared atomics (%1); measured: loads and stores only").arg(formatCount(atomics)),
                    QObject::tr("Of the %1 predicted, at least %2 are conflicts of shared atomics (the predicted load and "
                                "store wavefronts leave room for only %3); ncu's counters named above count loads and "
                                "stores, not atomics. Loads and stores alone: %3 predicted, %4 measured.")
                        .arg(exact(row.predicted), exact(atomics), exact(loadStoreConflicts), exact(row.measured)),
                    loadsAndStores == Agreement::Agrees ? Agreement::Explained : loadsAndStores);
            return;
        }
    }
    if (row.agreement == Agreement::Agrees)
        return;
    if (row.measured > row.predicted && measuredWavefronts > 0) {
        const double share = (row.measured - row.predicted) / measuredWavefronts;
        const QString shareText = formatPercent(share * 100.0);
        explain(row, QObject::tr("extra conflicts: %1 of the shared wavefronts; %2").arg(shareText, ptxVsSass()),
                QObject::tr("The GPU counted %1 more conflicts than the simulator, %2 of its %3 shared wavefronts. The "
                            "simulator derives conflicts from the addresses of each PTX access, one warp instruction "
                            "at a time; these counters do not say where the extra ones came from.")
                    .arg(exact(row.measured - row.predicted), shareText, exact(measuredWavefronts)),
                share <= 0.05 ? Agreement::Close : Agreement::Differs);
        return;
    }
    row.note = ptxVsSass();
}

// Branch uniformity: the simulator counts the PTX's bra instructions, ncu the SASS's branches, and
// ptxas can replace a short branch with predicated instructions (CUDA C++ Best Practices Guide,
// "Branch Predication"). ncu reports 0 % when it has nothing to count.
void explainBranches(PredictionRow& row, const session::PredictionRecord* p, const session::MetricsRecord* m)
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
    const QString predication = QObject::tr("ptxas can replace a short branch with predicated instructions (CUDA C++ "
                                            "Best Practices Guide, \"Branch Predication\").");
    if (countKnown ? sassBranches == 0 : (predictedBranches == 0 && row.measured == 0)) {
        row.measuredText = QObject::tr("no branches");
        row.measured = row.predicted = nan();
        if (predictedBranches == 0) {
            row.differenceText = QObject::tr("same");
            row.agreement = Agreement::Agrees;
            row.toolTip += QStringLiteral("\n\n") +
                           (countKnown ? QObject::tr("%1 = 0: no SASS branch ran.").arg(QLatin1String(kBranchTargets))
                                       : QObject::tr("ncu reports 0 % when there is no branch to count, and the PTX has "
                                                     "none: no branches on either side."));
        } else {
            row.differenceText = QObject::tr("none on the GPU");
            explain(row, QObject::tr("ptxas removed the PTX's branches (predication)"),
                    QObject::tr("%1 = 0: the SASS ran no branch where the PTX ran %2. ")
                            .arg(QLatin1String(kBranchTargets), exact(predictedBranches)) + predication);
        }
        return;
    }
    if (std::isnan(row.measured))
        return;
    if (predictedBranches == 0) {
        row.differenceText = QObject::tr("SASS only");
        explain(row, QObject::tr("the SASS runs branches the PTX does not have"),
                QObject::tr("The PTX has no branch instruction; ncu measured branches in the SASS ptxas made of it."));
        return;
    }
    if (!countKnown && row.measured == 0) {
        row.differenceText = QObject::tr("not comparable");
        explain(row, QObject::tr("0 % is also what ncu reports when no SASS branch ran"),
                QObject::tr("ncu reports 0 % both when every SASS branch diverged and when no SASS branch ran at all; "
                            "without the branch counts (%1) the two cannot be told apart. ")
                        .arg(QLatin1String(kBranchTargets)) + predication);
        return;
    }
    if (differs(row))
        explain(row, ptxVsSass(),
                QObject::tr("The simulator counts the PTX's branch instructions, ncu the SASS branches: not the same "
                            "instructions. ") + predication);
}

// Theoretical occupancy is the most warps the limits allow; achieved is the average resident while
// the kernel ran. The gap is expected: say which of its usual causes this launch shows.
void explainOccupancy(PredictionRow& row, const session::OccupancyRecord* occupancy, int smCount)
{
    if (occupancy == nullptr || !differs(row))
        return;
    const double waves = occupancy->waves;
    QString note;
    if (waves > 0 && waves < 0.9)
        note = QObject::tr("a comparison: %1 of one wave, so SMs sit partly empty").arg(formatRatio(waves));
    else if (waves > 0 && waves <= 20)
        note = QObject::tr("a comparison: %1 waves; SMs idle as the last one drains (tail effect)").arg(formatRatio(waves));
    else
        note = QObject::tr("a comparison: warps and blocks finish at different times");
    QString detail = QObject::tr(
        "Theoretical occupancy is the most warps an SM can hold with this kernel's registers, shared memory and "
        "block size; achieved is the average number resident while the kernel ran. Achieved falls below it when "
        "the grid has fewer blocks than one wave (%1 SMs x %2 blocks each here), while the last wave drains and "
        "nothing replaces the blocks that finish (the tail effect), and when the warps of a block or the blocks of "
        "the grid finish at different times (uneven work, or stalls that hold some warps longer). This launch: "
        "%3 waves.")
                         .arg(smCount > 0 ? QString::number(smCount) : QObject::tr("the"))
                         .arg(occupancy->activeBlocksPerSm)
                         .arg(formatRatio(waves));
    explain(row, note, detail);
}

} // namespace

// ---- The model -------------------------------------------------------------------------------------

std::vector<PredictionKernel> predictionModel(const session::Session& current, const session::Session* baseline)
{
    using namespace session::metric;
    const int smCount = current.devices.empty() ? 0 : current.devices.front().smCount;
    std::vector<PredictionKernel> kernels;
    for (const std::string& id : sessionKernelIds(current)) {
        PredictionKernel kernel;
        kernel.kernel = id;
        kernel.label = kernelLabel(current, id);
        const session::PredictionRecord* p = current.predictionFor(id);
        const session::OccupancyRecord* occupancy = current.occupancyFor(id);
        const session::MetricsRecord* m = current.metricsFor(id);
        const Quantities predicted = predictedQuantities(p, occupancy);
        const Quantities measured = measuredQuantities(m);
        const std::optional<Quantities> before =
            baseline != nullptr && baseline->metricsFor(id) != nullptr
                ? std::optional(measuredQuantities(baseline->metricsFor(id)))
                : std::nullopt;
        const QString preset = p ? QString::fromStdString(p->preset) : QString();
        const QString noPrediction = p ? QString() : QObject::tr("not predicted");
        const QString noMeasurement = m ? QString() : QObject::tr("not measured");

        auto makeRow = [&](const char* key, const QString& title, double Quantities::*field, Kind kind, const QString& tip,
                           const QString& missingPrediction) {
            PredictionRow row;
            row.key = QLatin1String(key);
            row.title = title;
            row.predicted = predicted.*field;
            row.measured = measured.*field;
            row.predictedText = std::isnan(row.predicted) ? missingPrediction : valueText(row.predicted, kind);
            row.measuredText = std::isnan(row.measured) ? (m ? QObject::tr("not measured") : noMeasurement)
                                                        : valueText(row.measured, kind);
            row.differenceText = differenceText(row.predicted, row.measured, kind);
            row.agreement = agreementOf(row.predicted, row.measured);
            if (before) {
                const double b = (*before).*field;
                row.baselineText = std::isnan(b) ? QStringLiteral("\u2014") : valueText(b, kind);
                row.changeText = std::isnan(b) || std::isnan(row.measured) ? QStringLiteral("\u2014") : formatChange(row.measured, b);
            } else if (baseline != nullptr) {
                row.baselineText = row.changeText = QStringLiteral("\u2014");
            }
            row.toolTip = tip;
            return row;
        };

        // The simulator ran a sample of the grid's blocks: every count below is scaled.
        if (p != nullptr && p->simulatedBlocks > 0 && p->simulatedBlocks < p->totalBlocks) {
            PredictionRow sample;
            sample.key = QStringLiteral("simulated_blocks");
            sample.title = QObject::tr("Blocks the simulator ran");
            sample.predicted = sample.measured = nan();
            sample.predictedText = QObject::tr("%1 of %2").arg(exact(count(p->simulatedBlocks)), exact(count(p->totalBlocks)));
            sample.measuredText = QStringLiteral("\u2014");
            sample.differenceText = QStringLiteral("\u2014");
            sample.note = QObject::tr("counts scaled from a sample of %1 of %2 blocks")
                              .arg(exact(count(p->simulatedBlocks)), exact(count(p->totalBlocks)));
            sample.toolTip = QObject::tr("The simulator ran %1 of the grid's %2 blocks (the first, the last and evenly "
                                         "spread ones) and scaled every predicted count by %2 / %1: exact for kernels "
                                         "whose blocks all do the same work, an estimate otherwise.")
                                 .arg(exact(count(p->simulatedBlocks)), exact(count(p->totalBlocks)));
            if (baseline != nullptr)
                sample.baselineText = sample.changeText = QStringLiteral("\u2014");
            kernel.rows.push_back(sample);
        }

        const QString loadTip =
            p ? QObject::tr("Predicted: %1 sectors / %2 requests (simulator, preset %3). 4 sectors per request is a "
                            "warp reading 32 consecutive 4-byte words; 32 is one sector per lane.")
                    .arg(exact(count(p->globalLoadSectors)), exact(count(p->globalLoadRequests)), preset)
              : QString();
        // A kernel without global loads (or stores) on both sides: "none" on both, not "not measured".
        auto noneOnBoth = [&](PredictionRow row, std::uint64_t predictedRequests, const char* measuredRequests, const QString& none) {
            if (p && predictedRequests == 0 && metricValue(m, measuredRequests) == 0) {
                row.measuredText = none;
                row.differenceText = QObject::tr("same");
                row.agreement = Agreement::Agrees;
            }
            return row;
        };
        kernel.rows.push_back(noneOnBoth(
            makeRow("global_load_sectors_per_request", QObject::tr("Global load sectors per request"),
                    &Quantities::loadSectorsPerRequest, Kind::Ratio,
                    loadTip + QObject::tr(" Measured: %1 / %2.").arg(QLatin1String(kGlobalLoadSectors), QLatin1String(kGlobalLoadRequests)),
                    p && p->globalLoadRequests == 0 ? QObject::tr("no global loads") : noPrediction),
            p ? p->globalLoadRequests : 0, kGlobalLoadRequests, QObject::tr("no global loads")));
        const QString storeTip =
            p ? QObject::tr("Predicted: %1 sectors / %2 requests (simulator, preset %3).")
                    .arg(exact(count(p->globalStoreSectors)), exact(count(p->globalStoreRequests)), preset)
              : QString();
        kernel.rows.push_back(noneOnBoth(
            makeRow("global_store_sectors_per_request", QObject::tr("Global store sectors per request"),
                    &Quantities::storeSectorsPerRequest, Kind::Ratio,
                    storeTip + QObject::tr(" Measured: %1 / %2.").arg(QLatin1String(kGlobalStoreSectors), QLatin1String(kGlobalStoreRequests)),
                    p && p->globalStoreRequests == 0 ? QObject::tr("no global stores") : noPrediction),
            p ? p->globalStoreRequests : 0, kGlobalStoreRequests, QObject::tr("no global stores")));

        const bool sharedRecorded = p && p->sharedLoadRequests + p->sharedStoreRequests + p->sharedBankConflicts > 0;
        PredictionRow sharedLoads = makeRow(
            "shared_load_wavefronts", QObject::tr("Shared load wavefronts"), &Quantities::sharedLoadWavefronts, Kind::Count,
            (p ? QObject::tr("Predicted: %1 wavefronts for %2 ld.shared requests (PTX). ")
                     .arg(exact(count(p->sharedLoadWavefronts)), exact(count(p->sharedLoadRequests)))
               : QString()) +
                QObject::tr("Measured: %1 (SASS).").arg(QLatin1String(kSharedLoadWavefronts)),
            noPrediction);
        if (p && p->sharedLoadRequests == 0 && p->sharedLoadWavefronts == 0)
            sharedLoads.predictedText = QObject::tr("no shared loads");
        if (p)
            explainSharedWavefronts(sharedLoads, count(p->sharedLoadRequests), metricValue(m, kSharedLoadConflicts), true);
        PredictionRow sharedStores = makeRow(
            "shared_store_wavefronts", QObject::tr("Shared store wavefronts"), &Quantities::sharedStoreWavefronts, Kind::Count,
            (p ? QObject::tr("Predicted: %1 wavefronts for %2 st.shared requests (PTX). ")
                     .arg(exact(count(p->sharedStoreWavefronts)), exact(count(p->sharedStoreRequests)))
               : QString()) +
                QObject::tr("Measured: %1 (SASS).").arg(QLatin1String(kSharedStoreWavefronts)),
            noPrediction);
        if (p && p->sharedStoreRequests == 0 && p->sharedStoreWavefronts == 0)
            sharedStores.predictedText = QObject::tr("no shared stores");
        if (p)
            explainSharedWavefronts(sharedStores, count(p->sharedStoreRequests), metricValue(m, kSharedStoreConflicts), false);
        // Kernels without shared memory on either side do not need the two rows.
        const bool sharedMeasured = (!std::isnan(sharedLoads.measured) && sharedLoads.measured > 0) ||
                                    (!std::isnan(sharedStores.measured) && sharedStores.measured > 0);
        if (sharedRecorded || sharedMeasured) {
            kernel.rows.push_back(sharedLoads);
            kernel.rows.push_back(sharedStores);
        }

        PredictionRow conflicts = makeRow(
            "shared_bank_conflicts", QObject::tr("Shared-memory bank conflicts"), &Quantities::bankConflicts, Kind::Count,
            QObject::tr("Extra shared-memory wavefronts caused by lanes hitting the same bank at different addresses, "
                        "loads and stores together. Measured: %1 + %2.")
                .arg(QLatin1String(kSharedLoadConflicts), QLatin1String(kSharedStoreConflicts)),
            noPrediction);
        double measuredWavefronts = nan();
        if (!std::isnan(measured.sharedLoadWavefronts) && !std::isnan(measured.sharedStoreWavefronts))
            measuredWavefronts = measured.sharedLoadWavefronts + measured.sharedStoreWavefronts;
        explainBankConflicts(conflicts, p, measuredWavefronts);
        kernel.rows.push_back(conflicts);

        PredictionRow branches = makeRow(
            "branch_uniformity", QObject::tr("Branch uniformity"), &Quantities::branchUniformity, Kind::Percent,
            (p ? QObject::tr("Predicted: %1 uniform of %2 warp branches (simulator, PTX). ")
                     .arg(exact(count(p->branchesUniform)), exact(count(p->branchesUniform + p->branchesDivergent)))
               : QString()) +
                QObject::tr("Measured: %1 (SASS branches, so the counts differ from PTX's).").arg(QLatin1String(kBranchUniformPct)),
            p && p->branchesUniform + p->branchesDivergent == 0 ? QObject::tr("no branches") : noPrediction);
        explainBranches(branches, p, m);
        kernel.rows.push_back(branches);

        PredictionRow occupancyRow = makeRow(
            "occupancy", QObject::tr("Occupancy: theoretical vs achieved"), &Quantities::occupancy, Kind::Percent,
            (occupancy ? QObject::tr("Theoretical: %1 blocks per SM with %2 registers per thread, limited by %3; %4 waves. ")
                             .arg(occupancy->activeBlocksPerSm)
                             .arg(occupancy->registersPerThread)
                             .arg(QString::fromStdString(occupancy->limiter), formatRatio(occupancy->waves))
                       : QString()) +
                QObject::tr("Achieved: %1, the warps really resident while the kernel ran.").arg(QLatin1String(kWarpsActive)),
            QObject::tr("no occupancy record"));
        explainOccupancy(occupancyRow, occupancy, smCount);
        kernel.rows.push_back(occupancyRow);

        PredictionRow flop = makeRow(
            "fp32_flop", QObject::tr("FP32 FLOP (add + mul + 2 \u00d7 FMA)"), &Quantities::fp32Flop, Kind::Count,
            QObject::tr("Thread-level FP32 operations; an FMA counts as 2 FLOP. Predicted from the PTX's add, sub, mul "
                        "and fma; measured: %1, %2, %3 (SASS).")
                .arg(QLatin1String(kFadd), QLatin1String(kFmul), QLatin1String(kFfma)),
            noPrediction);
        if (differs(flop) && flop.agreement != Agreement::Agrees)
            flop.note = ptxVsSass();
        kernel.rows.push_back(flop);

        // Warp instructions: PTX against SASS, never one to one; shown when the session measured them.
        PredictionRow instructions = makeRow(
            "warp_instructions", QObject::tr("Warp instructions"), &Quantities::warpInstructions, Kind::Count,
            QObject::tr("Predicted: PTX instructions the simulator issued per warp, summed. Measured: %1, the SASS "
                        "instructions.").arg(QLatin1String(kSassWarpInstructions)),
            noPrediction);
        if (!std::isnan(instructions.measured)) {
            if (differs(instructions))
                explain(instructions, QObject::tr("PTX and SASS are different instruction sets"),
                        QObject::tr("ptxas turns the PTX into SASS: it merges, splits, removes and adds instructions "
                                    "(address arithmetic, predication, unrolling), so only the size of the two counts "
                                    "compares."));
            kernel.rows.push_back(instructions);
        }

        PredictionRow check;
        check.key = QStringLiteral("check");
        check.title = QObject::tr("Output check");
        check.predicted = check.measured = nan();
        if (const session::CheckRecord* c = current.checkFor(id)) {
            check.predictedText = QObject::tr("reference: %1").arg(QString::fromStdString(c->reference));
            check.measuredText = c->matches ? QObject::tr("matches") : QObject::tr("MISMATCH");
            check.differenceText = QString::fromStdString(c->detail);
            check.agreement = c->matches ? Agreement::Agrees : Agreement::Differs;
            check.toolTip = QString::fromStdString(c->detail);
        } else {
            check.predictedText = QStringLiteral("\u2014");
            check.measuredText = QObject::tr("not checked");
            check.differenceText = QStringLiteral("\u2014");
        }
        if (baseline != nullptr) {
            const session::CheckRecord* b = baseline->checkFor(id);
            check.baselineText = b ? (b->matches ? QObject::tr("matches") : QObject::tr("MISMATCH")) : QStringLiteral("\u2014");
            check.changeText = QStringLiteral("\u2014");
        }
        kernel.rows.push_back(check);
        kernels.push_back(kernel);
    }
    return kernels;
}

// ---- The panel -------------------------------------------------------------------------------------

ProfilePredictionPanel::ProfilePredictionPanel(QWidget* parent) : QWidget(parent)
{
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("predictionTable"));
    installTableExport(m_table, QStringLiteral("predicted-vs-measured"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Quantity"), tr("Predicted (simulator)"), tr("Measured (GPU)"),
                                        tr("Measured \u2212 predicted"), tr("Baseline measured"), tr("Change")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setColumnWidth(QuantityColumn, 250);
    m_table->setColumnWidth(PredictedColumn, 150);
    m_table->setColumnWidth(MeasuredColumn, 130);
    m_table->setColumnWidth(DifferenceColumn, 240);
    m_table->setColumnWidth(BaselineColumn, 130);
    m_table->setColumnWidth(ChangeColumn, 90);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("predictionLegend"));
    m_legend->setTextFormat(Qt::PlainText); // it names the session's presets
    m_legend->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_legend);
    setSession(session::Session{}, nullptr);
}

void ProfilePredictionPanel::setSession(const session::Session& current, const session::Session* baseline)
{
    m_model = predictionModel(current, baseline);
    m_table->clearContents();
    m_table->clearSpans();
    m_table->setColumnHidden(BaselineColumn, baseline == nullptr);
    m_table->setColumnHidden(ChangeColumn, baseline == nullptr);
    int rows = 0;
    for (const PredictionKernel& kernel : m_model) {
        rows += 1 + static_cast<int>(kernel.rows.size());
        for (const PredictionRow& row : kernel.rows)
            rows += row.note.isEmpty() ? 0 : 1;
    }
    m_table->setRowCount(std::max(rows, 1));
    int r = 0;
    const QPalette& pal = palette();
    for (const PredictionKernel& kernel : m_model) {
        auto* header = new QTableWidgetItem(kernel.label);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        header->setData(Qt::UserRole, QString::fromStdString(kernel.kernel));
        m_table->setItem(r, QuantityColumn, header);
        m_table->setSpan(r, 0, 1, ColumnCount);
        ++r;
        for (const PredictionRow& row : kernel.rows) {
            auto set = [&](Column column, const QString& text, bool alignRight) {
                auto* item = new QTableWidgetItem(text);
                // Plain text that may quote the session (a check's detail, the occupancy limiter).
                item->setToolTip(plainToolTip(column == DifferenceColumn && row.key == QLatin1String("check") ? text : row.toolTip));
                if (alignRight)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(r, column, item);
                return item;
            };
            QTableWidgetItem* quantity = set(QuantityColumn, QStringLiteral("    ") + row.title, false);
            quantity->setData(Qt::UserRole, row.key);
            set(PredictedColumn, row.predictedText, true);
            set(MeasuredColumn, row.measuredText, true);
            QTableWidgetItem* difference = set(DifferenceColumn, row.differenceText, row.key != QLatin1String("check"));
            const QColor colour = agreementColor(row.agreement, pal);
            if (colour.isValid()) {
                difference->setBackground(colour);
                m_table->item(r, MeasuredColumn)->setBackground(colour);
            }
            if (baseline != nullptr) {
                set(BaselineColumn, row.baselineText, true);
                set(ChangeColumn, row.changeText, true);
            }
            ++r;
            if (!row.note.isEmpty()) {
                // Why they differ: a muted line under the row, across the value columns.
                auto* note = new QTableWidgetItem(QStringLiteral("\u21b3 ") + row.note);
                note->setToolTip(plainToolTip(row.toolTip));
                note->setForeground(pal.color(QPalette::PlaceholderText));
                QFont italic = note->font();
                italic.setItalic(true);
                note->setFont(italic);
                note->setData(Qt::UserRole, row.key);
                m_table->setItem(r, PredictedColumn, note);
                m_table->setSpan(r, PredictedColumn, 1, ColumnCount - PredictedColumn);
                ++r;
            }
        }
    }
    if (m_model.empty())
        m_table->setItem(0, QuantityColumn, new QTableWidgetItem(tr("No kernels in this session yet.")));

    QString presets;
    bool sampled = false;
    for (const session::PredictionRecord& p : current.predictions) {
        if (!presets.contains(QString::fromStdString(p.preset)))
            presets += (presets.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(p.preset);
        sampled = sampled || (p.simulatedBlocks > 0 && p.simulatedBlocks < p.totalBlocks);
    }
    m_legend->setText(tr("Predicted: Warpscope's simulator running the PTX for the same launch, %1%2; theoretical "
                         "occupancy from core/occupancy with the kernel's real registers. Measured: CUPTI counters on "
                         "the GPU, which runs the SASS ptxas made of that PTX. Green: within 2 %; amber: within 10 %; "
                         "red: further apart; blue: they differ for the reason given under the row (hover it for the "
                         "whole story).")
                          .arg(sampled ? tr("whole grid or a sample of its blocks, scaled (see each kernel)") : tr("whole grid"),
                               presets.isEmpty() ? QString() : tr(" (preset %1)").arg(presets)));
}

int ProfilePredictionPanel::findRow(const QString& kernel, const QString& key) const
{
    bool inKernel = false;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QTableWidgetItem* item = m_table->item(r, QuantityColumn);
        if (item == nullptr)
            continue;
        if (m_table->columnSpan(r, 0) == ColumnCount) {
            inKernel = item->data(Qt::UserRole).toString() == kernel;
            continue;
        }
        if (inKernel && item->data(Qt::UserRole).toString() == key)
            return r;
    }
    return -1;
}

QString ProfilePredictionPanel::cellText(const QString& kernel, const QString& key, Column column) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || m_table->item(r, column) == nullptr)
        return {};
    return m_table->item(r, column)->text();
}

QColor ProfilePredictionPanel::differenceColour(const QString& kernel, const QString& key) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || m_table->item(r, DifferenceColumn) == nullptr)
        return {};
    const QBrush brush = m_table->item(r, DifferenceColumn)->background();
    return brush.style() == Qt::NoBrush ? QColor() : brush.color();
}

QString ProfilePredictionPanel::noteText(const QString& kernel, const QString& key) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || r + 1 >= m_table->rowCount() || m_table->item(r + 1, QuantityColumn) != nullptr)
        return {};
    const QTableWidgetItem* note = m_table->item(r + 1, PredictedColumn);
    return note == nullptr ? QString() : note->text().mid(2);
}

Agreement ProfilePredictionPanel::agreement(const QString& kernel, const QString& key) const
{
    for (const PredictionKernel& k : m_model)
        if (QString::fromStdString(k.kernel) == kernel)
            for (const PredictionRow& row : k.rows)
                if (row.key == key)
                    return row.agreement;
    return Agreement::NotComparable;
}

} // namespace warpscope::viz
