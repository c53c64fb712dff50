// Predicted vs measured (core/session/prediction_comparison.h), the rows the window's table and
// `warpscope session show` both print, with the command line's numbers: agreement thresholds, the
// plain number texts, and rows worked out by hand. The window's own texts are checked by gui.profile_session
// and gui.recorded.
#include "session/prediction_comparison.h"

#include "session/metric_catalog.h"
#include "session/session.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace warpscope::session;

namespace {

const ComparisonRow* findRow(const std::vector<KernelComparison>& kernels, const std::string& kernel, const std::string& key)
{
    for (const KernelComparison& k : kernels)
        if (k.kernel == kernel)
            for (const ComparisonRow& row : k.rows)
                if (row.key == key)
                    return &row;
    return nullptr;
}

} // namespace

TEST(SessionPredictionComparison, AgreementThresholds)
{
    EXPECT_EQ(agreementOf(100, 102), Agreement::Agrees);   // 2 %
    EXPECT_EQ(agreementOf(100, 102.5), Agreement::Close);  // 2.5 %
    EXPECT_EQ(agreementOf(100, 90), Agreement::Close);     // 10 %
    EXPECT_EQ(agreementOf(100, 111), Agreement::Differs);  // 11 %
    EXPECT_EQ(agreementOf(0, 0), Agreement::Agrees);
    EXPECT_EQ(agreementOf(0, 1), Agreement::Differs);
    EXPECT_EQ(agreementOf(std::nan(""), 1), Agreement::NotComparable);
    EXPECT_EQ(agreementKey(Agreement::Explained), "explained");
    EXPECT_EQ(agreementKey(Agreement::NotComparable), "not_comparable");
}

TEST(SessionPredictionComparison, PlainNumbers)
{
    const NumberText n = plainNumberText();
    EXPECT_EQ(n.count(9999), "9,999");
    EXPECT_EQ(n.count(65536), "65.5 K");
    EXPECT_EQ(n.count(2.5), "2.50");
    EXPECT_EQ(n.percent(87.5), "87.5 %");
    EXPECT_EQ(n.ratio(4), "4.00");
    EXPECT_EQ(n.exact(1048576), "1,048,576");
    EXPECT_EQ(n.exact(2.5), "2.5");
    EXPECT_EQ(n.exact(std::nan("")), "not measured");
    EXPECT_EQ(n.change(112.5, 100), "+12.5 %");
    EXPECT_EQ(n.change(97, 100), "\u22123.0 %");
    EXPECT_EQ(n.change(0, 0), "0 %");
    EXPECT_EQ(n.change(5, 0), "from 0");
}

// One kernel, worked out by hand: 8,000 predicted load sectors for 1,000 requests against 9,000 for
// 1,000 measured (8.00 vs 9.00: +1.00, +12.5 %, red); 70 % predicted occupancy against 35 % achieved
// over 0.50 waves (a comparison); a baseline that measured 8.00.
// Sampled: fewer blocks simulated than the grid has. 0 (an older session) and all of them are the whole grid.
TEST(SessionPredictionComparison, OnlyASampledPredictionSaysItWasSampled)
{
    const NumberText numbers = plainNumberText();
    PredictionRecord p;
    p.simulatedBlocks = 256;
    p.totalBlocks = 524288;
    EXPECT_TRUE(isSampled(p));
    EXPECT_EQ(sampledPredictionText(p, numbers).note,
              "counts scaled from 256 of 524,288 blocks; exact if all blocks do the same work");
    p.simulatedBlocks = 524288;
    EXPECT_FALSE(isSampled(p));
    EXPECT_TRUE(sampledPredictionText(p, numbers).note.empty());
    p.simulatedBlocks = p.totalBlocks = 0;
    EXPECT_FALSE(isSampled(p));
    EXPECT_TRUE(sampledPredictionText(p, numbers).detail.empty());
}

TEST(SessionPredictionComparison, RowsWorkedOutByHand)
{
    Session s;
    DeviceRecord device;
    device.smCount = 132;
    s.devices.push_back(device);
    KernelRecord kernel;
    kernel.id = "k";
    s.kernels.push_back(kernel);
    PredictionRecord p;
    p.kernel = "k";
    p.preset = "sm_90";
    p.globalLoadRequests = 1000;
    p.globalLoadSectors = 8000;
    p.simulatedBlocks = 64;
    p.totalBlocks = 4096;
    s.predictions.push_back(p);
    OccupancyRecord o;
    o.kernel = "k";
    o.theoretical = 0.7;
    o.activeBlocksPerSm = 4;
    o.registersPerThread = 40;
    o.limiter = "reg%2sters"; // a session's text is never filled in as a placeholder
    o.waves = 0.5;
    s.occupancies.push_back(o);
    MetricsRecord m;
    m.kernel = "k";
    m.values = {{metric::kGlobalLoadRequests, 1000.0}, {metric::kGlobalLoadSectors, 9000.0}, {metric::kWarpsActive, 35.0}};
    s.metrics.push_back(m);
    Session before = s;
    before.metrics.front().values[metric::kGlobalLoadSectors] = 8000.0;

    const std::vector<KernelComparison> rows = comparePredictions(s, &before, plainNumberText());
    const ComparisonRow* loads = findRow(rows, "k", "global_load_sectors_per_request");
    ASSERT_NE(loads, nullptr);
    EXPECT_EQ(loads->predictedText, "8.00");
    EXPECT_EQ(loads->measuredText, "9.00");
    EXPECT_EQ(loads->differenceText, "+1.00 (+12.5 %)");
    EXPECT_EQ(loads->agreement, Agreement::Differs);
    EXPECT_EQ(loads->baselineText, "8.00");
    EXPECT_EQ(loads->changeText, "+12.5 %");
    EXPECT_NE(loads->detail.find("Predicted: 8,000 sectors / 1,000 requests (simulator, preset sm_90)."), std::string::npos);

    const ComparisonRow* occupancy = findRow(rows, "k", "occupancy");
    ASSERT_NE(occupancy, nullptr);
    EXPECT_EQ(occupancy->differenceText, "\u221235.0 pts");
    EXPECT_EQ(occupancy->agreement, Agreement::Explained);
    EXPECT_EQ(occupancy->note, "a comparison: 0.50 of one wave, so SMs sit partly empty");
    EXPECT_NE(occupancy->detail.find("limited by reg%2sters; 0.50 waves."), std::string::npos) << occupancy->detail;
    EXPECT_NE(occupancy->detail.find("(132 SMs x 4 blocks each here)"), std::string::npos) << occupancy->detail;

    // No branch on either side and no ncu branch count: "no branches", not 100 % against 0 %.
    const ComparisonRow* branches = findRow(rows, "k", "branch_uniformity");
    ASSERT_NE(branches, nullptr);
    EXPECT_EQ(branches->predictedText, "no branches");
    EXPECT_EQ(branches->measuredText, "not measured");

    const ComparisonRow* sample = findRow(rows, "k", "simulated_blocks");
    ASSERT_NE(sample, nullptr);
    EXPECT_EQ(sample->predictedText, "64 of 4,096");
    EXPECT_EQ(sample->note, "counts scaled from 64 of 4,096 blocks; exact if all blocks do the same work");
    EXPECT_EQ(rows.front().sample.note, sample->note);
    EXPECT_EQ(sample->detail, "The simulator ran 64 of the grid's 4,096 blocks (the first, the last and evenly spread ones) "
                              "and scaled every predicted count by 4,096 / 64: exact for kernels whose blocks all do the "
                              "same work, an estimate otherwise.");
    const ComparisonRow* check = findRow(rows, "k", "check");
    ASSERT_NE(check, nullptr);
    EXPECT_EQ(check->measuredText, "not checked");
}

// The duration row: the timing model's time beside the median of the runs, their ratio, and the
// model's blind spots for the kernel; none where the prediction has no time (older sessions).
TEST(SessionPredictionComparison, DurationRowGivesTheRatioAndTheBlindSpots)
{
    Session s;
    KernelRecord k;
    k.id = "histogram";
    s.kernels.push_back(k);
    PredictionRecord p;
    p.kernel = "histogram";
    p.preset = "sm_90";
    p.predictedNs = 7030;
    p.timeMethod = "every block simulated";
    p.timeBlindSpots = {"global atomics", "shared atomics"};
    s.predictions.push_back(p);
    ActivityRecord a;
    a.kernel = "histogram";
    a.durationsNs = {6300, 6240, 6208, 6272, 6240}; // median 6,240
    s.activities.push_back(a);
    const std::vector<KernelComparison> kernels = comparePredictions(s, nullptr, plainNumberText());
    const ComparisonRow* row = findRow(kernels, "histogram", "duration");
    ASSERT_NE(row, nullptr);
    EXPECT_DOUBLE_EQ(row->predicted, 7030);
    EXPECT_DOUBLE_EQ(row->measured, 6240);
    EXPECT_EQ(row->predictedText, "7.03 \u00b5s");
    EXPECT_EQ(row->measuredText, "6.24 \u00b5s (median of 5)");
    EXPECT_EQ(row->differenceText, "ratio 1.13 (predicted / measured)"); // 7,030 / 6,240 = 1.1266
    EXPECT_EQ(row->agreement, Agreement::Close);                        // within 25 %, not 10 %
    EXPECT_EQ(row->note, "the model's blind spots here: global atomics, shared atomics");
    EXPECT_NE(row->detail.find("every block simulated"), std::string::npos);
    EXPECT_EQ(kernels.front().rows.front().key, "duration"); // the headline, first

    // 2.52 against 5.06: the model is twice as fast, a ratio of 0.50, beyond 25 %.
    s.predictions.front().predictedNs = 2520;
    s.activities.front().durationsNs = {5056};
    const std::vector<KernelComparison> again = comparePredictions(s, nullptr, plainNumberText());
    const ComparisonRow* fast = findRow(again, "histogram", "duration");
    ASSERT_NE(fast, nullptr);
    EXPECT_EQ(fast->differenceText, "ratio 0.50 (predicted / measured)");
    EXPECT_EQ(fast->agreement, Agreement::Differs);

    s.predictions.front().predictedNs = 0; // no time predicted: no row
    const std::vector<KernelComparison> none = comparePredictions(s, nullptr, plainNumberText());
    EXPECT_EQ(findRow(none, "histogram", "duration"), nullptr);
}
