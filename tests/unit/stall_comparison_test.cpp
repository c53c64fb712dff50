// The timing model's stall shares beside Nsight Compute's warp states (core/session/stall_comparison.h),
// on tests/fixtures/sessions/warp_states.wsprof, whose values were chosen by hand:
//   stalls_both: the model's cycles 7,000 global memory, 1,000 shared, 500 dependency, 500 load/store
//   unit, 800 barrier, 200 not selected (10,000: 70, 10, 5, 5, 8, 2 %); ncu's
//   smsp__average_warp_latency_issue_stalled_*.ratio 10 long_scoreboard, 2 short_scoreboard, 3 wait,
//   0.4 lg_throttle + 1.2 mio_throttle, 0.4 barrier, 0.2 not_selected, and 2 math_pipe_throttle,
//   0.4 branch_resolving, 0.2 no_instruction, 0.2 drain the model has none of (selected 1.25 left out):
//   20 in all, so 50, 10, 15, 8, 2, 1 and 14 %.
//   stalls_measured_only: smsp__warp_issue_stalled_*_per_warp_active.pct 30, 5, 10, 0 + 5, 0, 10 of
//   the seven reasons measured (60): 50, 8.3, 16.7, 8.3, 0, 16.7 %; no model stalls.
#include "session/stall_comparison.h"

#include "session/metric_catalog.h"
#include "session/prediction_comparison.h"
#include "session/session.h"
#include "session/session_io.h"
#include "sim/timing_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope::session;

namespace {

Session fixture()
{
    const SessionReadResult read = readSessionFile(std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/warp_states.wsprof");
    EXPECT_TRUE(read.problems.empty()) << (read.problems.empty() ? std::string() : read.problems.front());
    return read.session;
}

const KernelComparison& kernelOf(const std::vector<KernelComparison>& kernels, const std::string& id)
{
    for (const KernelComparison& k : kernels)
        if (k.kernel == id)
            return k;
    ADD_FAILURE() << "no kernel " << id;
    static const KernelComparison none;
    return none;
}

const ComparisonRow& rowOf(const KernelComparison& kernel, const std::string& key)
{
    for (const ComparisonRow& row : kernel.rows)
        if (row.key == key)
            return row;
    ADD_FAILURE() << "no row " << key << " for " << kernel.kernel;
    static const ComparisonRow none;
    return none;
}

} // namespace

TEST(StallComparison, SharesOnBothSidesWorkedByHand)
{
    const Session s = fixture();
    const std::vector<KernelComparison> kernels = comparePredictions(s, nullptr, plainNumberText());
    const KernelComparison& k = kernelOf(kernels, "stalls_both");

    struct Expected {
        const char* key;
        const char* predicted;
        const char* measured;
        const char* difference;
        Agreement agreement;
    };
    const Expected expected[] = {
        {"stall_long_scoreboard", "70.0 %", "50.0 %", "\u221220.0 pts", Agreement::Differs},
        {"stall_short_scoreboard", "10.0 %", "10.0 %", "same", Agreement::Agrees},
        {"stall_wait", "5.0 %", "15.0 %", "+10.0 pts", Agreement::Close},
        {"stall_lg_throttle_and_mio_throttle", "5.0 %", "8.0 %", "+3.0 pts", Agreement::Agrees},
        {"stall_barrier", "8.0 %", "2.0 %", "\u22126.0 pts", Agreement::Close},
        {"stall_not_selected", "2.0 %", "1.0 %", "\u22121.0 pts", Agreement::Agrees},
        {"stall_not_modelled", "not modelled", "14.0 %", "\u2014", Agreement::NotComparable},
    };
    for (const Expected& e : expected) {
        SCOPED_TRACE(e.key);
        const ComparisonRow& row = rowOf(k, e.key);
        EXPECT_EQ(row.predictedText, e.predicted);
        EXPECT_EQ(row.measuredText, e.measured);
        EXPECT_EQ(row.differenceText, e.difference);
        EXPECT_EQ(row.agreement, e.agreement);
    }
    // Under ncu's names, with the model's category beside them.
    EXPECT_EQ(rowOf(k, "stall_long_scoreboard").title, "Stall long_scoreboard (model: global memory)");
    EXPECT_EQ(rowOf(k, "stall_lg_throttle_and_mio_throttle").title, "Stall lg_throttle + mio_throttle (model: load/store unit)");
    EXPECT_EQ(rowOf(k, "stall_wait").title, "Stall wait (model: dependency)");
    // What the model has no category for is said, largest first (no_instruction before drain: a tie,
    // in the reasons' order).
    EXPECT_EQ(rowOf(k, "stall_not_modelled").note,
              "the model never predicts these: math_pipe_throttle 10.0 %, branch_resolving 2.0 %, no_instruction 1.0 %");
    EXPECT_NE(rowOf(k, "stall_short_scoreboard").note.find("special-function"), std::string::npos);
    EXPECT_NE(rowOf(k, "stall_long_scoreboard").detail.find("smsp__average_warp_latency_issue_stalled_%.ratio over the sum of "
                                                            "the 17 stall reasons measured"),
              std::string::npos);
    EXPECT_NE(rowOf(k, "stall_long_scoreboard").detail.find("10,000"), std::string::npos);

    // The stall rows come after the counts and before the output check.
    std::vector<std::string> keys;
    for (const ComparisonRow& row : k.rows)
        keys.push_back(row.key);
    const auto first = std::find(keys.begin(), keys.end(), "stall_long_scoreboard");
    ASSERT_NE(first, keys.end());
    EXPECT_EQ(keys.end() - first, 8); // seven stall rows, then "check"
    EXPECT_EQ(keys.back(), "check");
}

TEST(StallComparison, ActiveWarpFamilyAndNoModelStalls)
{
    const Session s = fixture();
    const std::vector<KernelComparison> kernels = comparePredictions(s, nullptr, plainNumberText());
    const KernelComparison& k = kernelOf(kernels, "stalls_measured_only");
    EXPECT_EQ(rowOf(k, "stall_long_scoreboard").measuredText, "50.0 %");
    EXPECT_EQ(rowOf(k, "stall_short_scoreboard").measuredText, "8.3 %");
    EXPECT_EQ(rowOf(k, "stall_wait").measuredText, "16.7 %");
    EXPECT_EQ(rowOf(k, "stall_lg_throttle_and_mio_throttle").measuredText, "8.3 %");
    EXPECT_EQ(rowOf(k, "stall_barrier").measuredText, "0.0 %");
    EXPECT_EQ(rowOf(k, "stall_not_selected").measuredText, "16.7 %");
    EXPECT_EQ(rowOf(k, "stall_not_modelled").measuredText, "not measured");
    EXPECT_EQ(rowOf(k, "stall_long_scoreboard").predictedText, "no timing model run");
    EXPECT_EQ(rowOf(k, "stall_long_scoreboard").agreement, Agreement::NotComparable);
    EXPECT_NE(rowOf(k, "stall_wait").detail.find("smsp__warp_issue_stalled_%_per_warp_active.pct over the sum of the 7"),
              std::string::npos);
}

TEST(StallComparison, NoWarpStateMetricsNoRows)
{
    const SessionReadResult read = readSessionFile(std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/ladder.wsprof");
    for (const KernelComparison& k : comparePredictions(read.session, nullptr, plainNumberText()))
        for (const ComparisonRow& row : k.rows)
            EXPECT_NE(row.key.rfind("stall_", 0), 0u) << k.kernel << ": " << row.key;
}

TEST(StallComparison, EveryCategoryAndReasonIsMappedHonestly)
{
    std::set<std::string> categories;
    for (const ModelStallCategory& c : modelStallCategories())
        categories.insert(std::string(c.key));
    std::set<std::string> covered, names;
    for (const WarpStallReason& r : warpStallReasons()) {
        EXPECT_TRUE(names.insert(std::string(r.ncu)).second) << r.ncu << " twice";
        EXPECT_NE(r.ncu, "selected"); // the issue cycle, no stall
        if (!r.model.empty()) {
            EXPECT_TRUE(categories.count(std::string(r.model))) << r.ncu << " -> " << r.model;
            covered.insert(std::string(r.model));
        }
    }
    EXPECT_EQ(covered, categories); // every model category has an ncu counterpart
    EXPECT_EQ(names.size(), 17u);
    // The probe's full set asks for every reason and selected, in the family read first.
    const std::vector<std::string> full = resolveMetricSet("full");
    names.insert("selected");
    for (const std::string& reason : names)
        EXPECT_NE(std::find(full.begin(), full.end(), warpStallMetric(warpStallMetricPatterns().front(), reason)), full.end())
            << reason;
    const std::vector<std::string> headline = resolveMetricSet("headline");
    EXPECT_EQ(std::find(headline.begin(), headline.end(), "smsp__average_warp_latency_issue_stalled_wait.ratio"), headline.end());
}

TEST(StallComparison, ModelStallCyclesRoundTripAndConvert)
{
    warpscope::sim::StallCycles sim;
    sim.globalMemory = 1;
    sim.sharedMemory = 2;
    sim.execution = 3;
    sim.loadStoreUnit = 4;
    sim.barrier = 5;
    sim.notSelected = 6;
    PredictionRecord p;
    p.kernel = "k";
    p.preset = "sm_90";
    p.modelStalls = modelStallCycles(sim);
    EXPECT_EQ(p.modelStalls.total(), 21u);
    std::ostringstream out;
    SessionWriter writer(out);
    writer.write(p);
    EXPECT_NE(out.str().find("\"model_stall_cycles\":{\"global_memory\":1,\"shared_memory\":2,\"execution\":3,"
                             "\"load_store_unit\":4,\"barrier\":5,\"not_selected\":6}"),
              std::string::npos)
        << out.str();
    std::istringstream in("{\"format\":\"warpscope-session\",\"version\":1}\n" + out.str());
    const SessionReadResult read = readSession(in);
    ASSERT_EQ(read.session.predictions.size(), 1u);
    const ModelStallCycles& m = read.session.predictions.front().modelStalls;
    EXPECT_EQ(m.globalMemory, 1u);
    EXPECT_EQ(m.sharedMemory, 2u);
    EXPECT_EQ(m.execution, 3u);
    EXPECT_EQ(m.loadStoreUnit, 4u);
    EXPECT_EQ(m.barrier, 5u);
    EXPECT_EQ(m.notSelected, 6u);
    // Without stalls nothing is written: older readers see the record as before.
    std::ostringstream none;
    SessionWriter(none).write(PredictionRecord{});
    EXPECT_EQ(none.str().find("model_stall_cycles"), std::string::npos);
}
