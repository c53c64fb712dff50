// The hierarchical roofline plot, offscreen: the hand-written fixture
// tests/fixtures/sessions/hierarchical_roofline.wsprof (its numbers are worked out in
// tests/unit/roofline_test.cpp) gives points per level, roofs per level, ladders per level, the
// table for what has no point, hover text, and kernel labels that do not cover each other;
// tests/fixtures/sessions/matmul_cublas_reference.wsprof gives the matmul ladder against cuBLAS SGEMM.
#include "profile/profile_roofline_plot.h"
#include "profile/profile_roofline_table.h"
#include "profile/profile_session_panel.h"
#include "session/session_io.h"
#include "window/application_setup.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace warpscope;
using session::MemoryLevel;
using viz::ProfileRooflinePlot;
using viz::ProfileRooflineTable;

namespace {

session::Session fixture()
{
    const auto read = session::readSessionFile(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/sessions/hierarchical_roofline.wsprof").toStdString());
    return read.session;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

} // namespace

class RooflineTest : public QObject {
    Q_OBJECT

private slots:
    void pointsAndLaddersPerLevel()
    {
        ProfileRooflinePlot plot;
        plot.setSession(fixture(), nullptr);
        // L1: k_dram, k_l2_resident (k_old_session has no L1 bytes); L2: those and k_old_session;
        // DRAM: k_dram and k_old_session (k_l2_resident moved no DRAM bytes). k_copy: 0 FLOP.
        QCOMPARE(plot.kernelPoints(MemoryLevel::L1)->dataCount(), 2);
        QCOMPARE(plot.kernelPoints(MemoryLevel::L2)->dataCount(), 3);
        QCOMPARE(plot.kernelPoints(MemoryLevel::Dram)->dataCount(), 2);
        // The "fixture" ladder (k_dram, k_l2_resident) is joined where both rungs have a point.
        QCOMPARE(plot.ladders(), QStringList{QStringLiteral("fixture")});
        QCPCurve* l2 = plot.ladderCurve(QStringLiteral("fixture"), MemoryLevel::L2);
        QVERIFY(l2 != nullptr);
        QCOMPARE(l2->dataCount(), 2);
        QCOMPARE(l2->data()->at(0)->key, 0.5); // rung 1: 10e6 FLOP / 20e6 L2 bytes
        QCOMPARE(l2->data()->at(0)->value, 1e12);
        QCOMPARE(l2->data()->at(1)->key, 4.0); // rung 2: 16e6 / 4e6
        QCOMPARE(l2->data()->at(1)->value, 4e12);
        QVERIFY(plot.ladderCurve(QStringLiteral("fixture"), MemoryLevel::L1) != nullptr);
        QVERIFY(plot.ladderCurve(QStringLiteral("fixture"), MemoryLevel::Dram) == nullptr);
    }

    void roofsPerLevel()
    {
        ProfileRooflinePlot plot;
        plot.setSession(fixture(), nullptr);
        // Peak slopes rise to the 51.2 TFLOP/s peak: L1 (25.6 TB/s) at 2, L2 (7.68 TB/s) at 6.67,
        // DRAM (2.5 TB/s) at 20.48; the measured DRAM slope (2 TB/s) meets 40 TFLOP/s at 20.
        const std::pair<QCPGraph*, std::pair<double, double>> ends[] = {
            {plot.peakRoof(MemoryLevel::L1), {2.0, 51.2e12}},
            {plot.peakRoof(MemoryLevel::L2), {51.2e12 / 7.68e12, 51.2e12}},
            {plot.peakRoof(MemoryLevel::Dram), {20.48, 51.2e12}},
            {plot.measuredRoof(MemoryLevel::Dram), {20.0, 40e12}},
        };
        for (const auto& [graph, end] : ends) {
            QCOMPARE(graph->dataCount(), 2);
            QVERIFY2(near(graph->data()->at(1)->key, end.first), qPrintable(QString::number(graph->data()->at(1)->key)));
            QVERIFY(near(graph->data()->at(1)->value, end.second));
        }
        QCOMPARE(plot.measuredRoof(MemoryLevel::L1)->dataCount(), 0); // no measured L1 or L2 bandwidth
        QCOMPARE(plot.measuredRoof(MemoryLevel::L2)->dataCount(), 0);
        // The flat roofs start at the leftmost ridge of their kind.
        QVERIFY(near(plot.computeRoof(false)->data()->at(0)->key, 2.0));
        QVERIFY(near(plot.computeRoof(true)->data()->at(0)->key, 20.0));
        const QString note = plot.noteText();
        QVERIFY2(note.contains(QStringLiteral("L2 \u2014 / 7,680 GB/s")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("DRAM 2,000 GB/s / 2,500 GB/s")));
    }

    void tableSaysWhatHasNoPoint()
    {
        ProfileRooflinePlot plot;
        plot.setSession(fixture(), nullptr);
        const ProfileRooflineTable* table = plot.table();
        QCOMPARE(table->rowCount(), 5);
        QCOMPARE(table->cellText(QStringLiteral("k_dram"), ProfileRooflineTable::FlopsColumn), QStringLiteral("1.00 TFLOP/s"));
        QCOMPARE(table->cellText(QStringLiteral("k_dram"), ProfileRooflineTable::L2Column), QStringLiteral("0.500 FLOP/B \u00b7 26.0 %"));
        QCOMPARE(table->cellText(QStringLiteral("k_l2_resident"), ProfileRooflineTable::DramColumn), QStringLiteral("no DRAM bytes"));
        QVERIFY(table->cellToolTip(QStringLiteral("k_l2_resident"), ProfileRooflineTable::DramColumn).contains(QStringLiteral("unbounded")));
        QCOMPARE(table->cellText(QStringLiteral("k_copy"), ProfileRooflineTable::FlopsColumn), QStringLiteral("0 FP32 FLOP"));
        QCOMPARE(table->cellText(QStringLiteral("k_copy"), ProfileRooflineTable::DramColumn), QStringLiteral("1,000 GB/s \u00b7 50.0 %"));
        QCOMPARE(table->cellText(QStringLiteral("k_old_session"), ProfileRooflineTable::L1Column), QStringLiteral("L1 bytes not measured"));
        QCOMPARE(table->cellText(QStringLiteral("k_no_metrics"), ProfileRooflineTable::FlopsColumn), QStringLiteral("no counters"));
    }

    void hoverNamesKernelLevelAndShare()
    {
        ProfileRooflinePlot plot;
        plot.setSession(fixture(), nullptr);
        const QString text = plot.hoverText(QStringLiteral("k_l2_resident"), MemoryLevel::L2);
        QVERIFY2(text.contains(QStringLiteral("fixture ladder, rung 2")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("4 FLOP per L2 byte")));
        QVERIFY(text.contains(QStringLiteral("4.00 TFLOP/s FP32, L2 1,000 GB/s")));
        QVERIFY(text.contains(QStringLiteral("13.0 % of the peak L2 roof"))); // 1e12 / 7.68e12
        QVERIFY(plot.hoverText(QStringLiteral("k_l2_resident"), MemoryLevel::Dram).isEmpty());
    }

    void baselineIsHollowWithOneLegendEntry()
    {
        ProfileRooflinePlot plot;
        const session::Session s = fixture();
        plot.setSession(s, &s);
        QCOMPARE(plot.baselinePoints(MemoryLevel::L1)->dataCount(), 2);
        QCOMPARE(plot.baselinePoints(MemoryLevel::Dram)->dataCount(), 2);
        int baselineEntries = 0;
        for (MemoryLevel level : session::kMemoryLevels)
            baselineEntries += plot.plot()->legend->hasItemWithPlottable(plot.baselinePoints(level)) ? 1 : 0;
        QCOMPARE(baselineEntries, 1);
    }

    void kernelLabelsDoNotOverlap()
    {
        ProfileRooflinePlot plot;
        plot.resize(900, 700);
        plot.show();
        plot.setSession(fixture(), nullptr);
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.plot()->replot();
        const auto boxes = plot.kernelLabelBoxes();
        QCOMPARE(boxes.size(), std::size_t(3)); // the kernels with a point: k_dram, k_l2_resident, k_old_session
        for (std::size_t i = 0; i < boxes.size(); ++i)
            for (std::size_t j = i + 1; j < boxes.size(); ++j)
                QVERIFY2(!boxes[i].second.adjusted(0, 0.5, 0, -0.5).intersects(boxes[j].second),
                         qPrintable(boxes[i].first + QStringLiteral(" covers ") + boxes[j].first));
    }

    void spreadLabelsPushesOverlapsDown()
    {
        // Two labels on the same row and one beside them: the second moves below the first, the
        // third (no shared columns) stays.
        const std::vector<QRectF> placed = viz::spreadLabels({QRectF(0, 10, 50, 12), QRectF(20, 14, 50, 12), QRectF(200, 10, 50, 12)});
        QCOMPARE(placed[0], QRectF(0, 10, 50, 12));
        QCOMPARE(placed[1], QRectF(20, 22, 50, 12));
        QCOMPARE(placed[2], QRectF(200, 10, 50, 12));
        // A marker in the way (another kernel's point) pushes a label below it too.
        const std::vector<QRectF> clear = viz::spreadLabels({QRectF(0, 10, 50, 12)}, 100.0, {QRectF(30, 14, 10, 10), QRectF(80, 0, 10, 10)});
        QCOMPARE(clear[0], QRectF(0, 24, 50, 12));
    }

    // cuBLAS SGEMM, the matmul ladder's reference rung (tests/unit/sgemm_reference_test.cpp works the
    // fixture's numbers out: 34.4 TFLOP/s at n = 4096; the rungs at 8, 32 and 80 % of it): a dotted
    // line on the plot, a last row in the table with each rung's share beside its FLOP/s, and on the
    // session page the reference among the ceilings and the ladder against it.
    void matmulLadderAgainstCublas()
    {
        const auto read = session::readSessionFile(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/sessions/matmul_cublas_reference.wsprof").toStdString());
        QVERIFY(read.problems.empty());
        ProfileRooflinePlot plot;
        plot.setSession(read.session, nullptr);
        QCPGraph* line = plot.sgemmReferenceLine();
        QCOMPARE(line->dataCount(), 2);
        QVERIFY(near(line->data()->at(0)->value, 34359.738368e9));
        QVERIFY(near(line->data()->at(1)->value, 34359.738368e9));
        QVERIFY(plot.noteText().contains(QStringLiteral("<b>cuBLAS SGEMM</b> at n = 4096, 34.4 TFLOP/s (dotted)")));
        const ProfileRooflineTable* table = plot.table();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->cellText(QStringLiteral("matmul_naive"), ProfileRooflineTable::FlopsColumn),
                 QStringLiteral("2.75 TFLOP/s \u00b7 8.0 % of cuBLAS"));
        QCOMPARE(table->cellText(QStringLiteral("matmul_tiled"), ProfileRooflineTable::FlopsColumn),
                 QStringLiteral("11.0 TFLOP/s \u00b7 32.0 % of cuBLAS"));
        QCOMPARE(table->cellText(QStringLiteral("matmul_prefetch"), ProfileRooflineTable::FlopsColumn),
                 QStringLiteral("27.5 TFLOP/s \u00b7 80.0 % of cuBLAS"));
        QVERIFY(table->cellToolTip(QStringLiteral("matmul_prefetch"), ProfileRooflineTable::FlopsColumn)
                    .contains(QStringLiteral("80.0 % of cuBLAS SGEMM (34.4 TFLOP/s at n = 4096)")));
        QCOMPARE(table->cellText(QStringLiteral("cuBLAS SGEMM"), ProfileRooflineTable::FlopsColumn), QStringLiteral("34.4 TFLOP/s"));
        QVERIFY(table->cellText(QStringLiteral("cuBLAS SGEMM"), ProfileRooflineTable::L1Column).contains(QStringLiteral("n = 4096")));

        viz::ProfileSessionPanel page;
        page.setSession(read.session, {}, QStringLiteral("fixture"));
        const QString text = page.plainText().simplified();
        for (const char* expected :
             {"Matmul reference cuBLAS SGEMM, n = 4096: 34.4 TFLOP/s (fixture value, not a measurement: 2 n^3 FLOP in 4 ms)",
              "1 matmul_naive 2.75 TFLOP/s 8.0 %", "2 matmul_tiled 11.0 TFLOP/s 32.0 %", "7 matmul_prefetch 27.5 TFLOP/s 80.0 %",
              "ref. cuBLAS SGEMM, n = 4096 34.4 TFLOP/s 100.0 %"})
            QVERIFY2(text.contains(QLatin1String(expected)), qPrintable(QLatin1String(expected) + QStringLiteral("\n") + text));

        // Without the reference (a session older than it): no line, no row, no share, and the page says
        // it was not measured instead of showing a number.
        session::Session older = read.session;
        older.ceilings->referenceSgemmGflops = 0;
        older.ceilings->referenceSgemmN = 0;
        older.ceilings->referenceSgemmMethod.clear();
        plot.setSession(older, nullptr);
        QVERIFY(plot.sgemmReferenceLine()->data()->isEmpty());
        QCOMPARE(plot.table()->rowCount(), 3);
        QCOMPARE(plot.table()->cellText(QStringLiteral("matmul_naive"), ProfileRooflineTable::FlopsColumn), QStringLiteral("2.75 TFLOP/s"));
        page.setSession(older, {}, QStringLiteral("fixture"));
        const QString olderText = page.plainText().simplified();
        QVERIFY(olderText.contains(QStringLiteral("Matmul reference not measured (the session holds no cuBLAS SGEMM reference)")));
        QVERIFY(!olderText.contains(QStringLiteral("of cuBLAS")));
        QVERIFY(!olderText.contains(QStringLiteral("34.4 TFLOP/s")));
    }

    // Warm caches on the recorded H200 demo session (tests/unit/roofline_test.cpp works the numbers
    // out): vector_add (51.8 FLOP/B) and stencil_1d (31.9) moved fewer DRAM bytes than their buffers
    // hold; each is ringed, with a dotted arrow to its cold intensity (1/12 and 0.875 FLOP/B) at the same
    // FLOP/s, and the hover, the table's DRAM cell and the note say why.
    void warmCachePointsAreRingedAndExplained()
    {
        const auto read = session::readSessionFile(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/../../assets/recorded/h200/demo-kernels.wsprof").toStdString());
        QVERIFY(read.problems.empty());
        ProfileRooflinePlot plot;
        plot.resize(1000, 800);
        plot.show();
        plot.setSession(read.session, nullptr);
        QCPGraph* rings = plot.warmCachePoints();
        QCOMPARE(rings->dataCount(), 2);
        QVERIFY(plot.plot()->legend->hasItemWithPlottable(rings));
        const double vectorAddFlops = 1048576.0, vectorAddSeconds = 4480e-9;
        QVERIFY(near(rings->data()->at(0)->key, 1048576.0 / 20224.0) || near(rings->data()->at(1)->key, 1048576.0 / 20224.0));
        QCOMPARE(plot.warmCacheArrows().size(), std::size_t(2));
        bool vectorAddArrow = false;
        for (QCPItemLine* arrow : plot.warmCacheArrows())
            if (near(arrow->start->coords().x(), 1048576.0 / 20224.0)) {
                vectorAddArrow = true;
                QVERIFY(near(arrow->end->coords().x(), 1.0 / 12.0));
                QVERIFY(near(arrow->end->coords().y(), vectorAddFlops / vectorAddSeconds));
                QVERIFY(near(arrow->start->coords().y(), vectorAddFlops / vectorAddSeconds));
            }
        QVERIFY(vectorAddArrow);
        // The cold end is inside the x range.
        QVERIFY(plot.plot()->xAxis->range().lower <= 1.0 / 12.0);
        const QString hover = plot.hoverText(QStringLiteral("vector_add"), MemoryLevel::Dram);
        QVERIFY2(hover.contains(QStringLiteral("DRAM moved 20,224 B, less than the 12,582,912 B its buffers hold")), qPrintable(hover));
        QVERIFY(hover.contains(QStringLiteral("it would sit at 0.0833 FLOP/B, not 51.8")));
        QVERIFY(!plot.hoverText(QStringLiteral("vector_add"), MemoryLevel::L2).contains(QStringLiteral("Warm caches")));
        QVERIFY(plot.table()->cellText(QStringLiteral("vector_add"), ProfileRooflineTable::DramColumn).endsWith(QStringLiteral(" \u00b7 warm")));
        QVERIFY(plot.table()->cellToolTip(QStringLiteral("stencil_1d"), ProfileRooflineTable::DramColumn).contains(QStringLiteral("0.875 FLOP/B")));
        QVERIFY(!plot.table()->cellText(QStringLiteral("matmul_tiled"), ProfileRooflineTable::DramColumn).contains(QStringLiteral("warm")));
        QVERIFY2(plot.noteText().contains(QStringLiteral("vector_add, stencil_1d moved fewer DRAM bytes than their buffers hold")),
                 qPrintable(plot.noteText()));
        // The hand-written fixture has no argument specs: nothing is ringed there.
        plot.setSession(fixture(), nullptr);
        QCOMPARE(plot.warmCachePoints()->dataCount(), 0);
        QVERIFY(!plot.plot()->legend->hasItemWithPlottable(plot.warmCachePoints()));
    }

    // The recorded demo session's 19 kernels, the reduction ladder's six rungs close together: no
    // label covers another, nor another kernel's marker (its own point is where it starts).
    void labelsOfTheDemoSessionKeepClearOfEachOtherAndOfTheMarkers()
    {
        const auto read = session::readSessionFile(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/../../assets/recorded/h200/demo-kernels.wsprof").toStdString());
        for (const QSize size : {QSize(900, 700), QSize(760, 560)}) {
            ProfileRooflinePlot plot;
            plot.resize(size);
            plot.show();
            plot.setSession(read.session, nullptr);
            QVERIFY(QTest::qWaitForWindowExposed(&plot));
            plot.plot()->replot();
            const auto labels = plot.kernelLabelBoxes();
            const std::vector<QRectF> markers = plot.markerBoxes();
            QVERIFY(labels.size() >= 6);
            for (std::size_t i = 0; i < labels.size(); ++i) {
                // The text's box: the item's box less the padding that keeps it off its own point.
                const QRectF text = labels[i].second.adjusted(7, 1, -2, -1);
                for (std::size_t j = i + 1; j < labels.size(); ++j)
                    QVERIFY2(!text.intersects(labels[j].second.adjusted(7, 1, -2, -1)),
                             qPrintable(labels[i].first + QStringLiteral(" covers ") + labels[j].first));
                for (const QRectF& marker : markers)
                    QVERIFY2(!text.intersects(marker.adjusted(1, 1, -1, -1)),
                             qPrintable(QStringLiteral("%1 covers a marker at %2,%3").arg(labels[i].first).arg(marker.center().x()).arg(marker.center().y())));
            }
        }
    }

    void spreadLabelsKeepTheStackAboveTheBottomEdge()
    {
        // Three labels at the same spot near the bottom edge (y = 40): pushed down to 30, 42 and 54, the
        // last two would be cut; lifted, the stack ends at the edge: 16, 28, 40 (bottoms 28, 40, 52 -> 40).
        const std::vector<QRectF> placed =
            viz::spreadLabels({QRectF(0, 30, 50, 12), QRectF(10, 30, 50, 12), QRectF(20, 30, 50, 12)}, 52.0);
        QCOMPARE(placed[2], QRectF(20, 40, 50, 12));
        QCOMPARE(placed[1], QRectF(10, 28, 50, 12));
        QCOMPARE(placed[0], QRectF(0, 16, 50, 12));
        // Inside the edge nothing moves up.
        QCOMPARE(viz::spreadLabels({QRectF(0, 10, 50, 12)}, 52.0).front(), QRectF(0, 10, 50, 12));
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    app::configureApplication();
    RooflineTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "roofline_test.moc"
