// What the Execution view's canvas paints, read back from the frame's draw data (canvas_text.h)
// rather than from what the scene meant to draw (issue 27, section 4): the shared-memory bank grid
// numbers its 32 banks 0-31, each over its own column, whole, at a laptop's size and a desktop's;
// and each warp row says its status in a word beside its lanes at 1280 x 800, not only on hover.
#include "canvas_text.h"
#include "execution_test_support.h"
#include "gui_test_support.h"

#include "execution/execution_panel.h"
#include "execution/execution_scene.h"
#include "window/application_setup.h"

#include <QSet>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

class ExecutionCanvasTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // transpose_tiled's column read (warp 0, its instruction 65): 32 lanes, one shared phase. Under
    // the lanes, bank b's number is painted over bank b's column (the lanes' cells are the banks'),
    // as the digits of b and nothing else; where two digits do not fit a cell, even banks' numbers
    // sit above odd ones'.
    void theBankGridNumbersItsBanks0To31()
    {
        for (const QSize size : {QSize(1280, 800), QSize(1366, 768), QSize(1920, 1080)}) {
            ShownWindow shown(size);
            QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=transpose_tiled&block=0&warp=0&at=65")));
            viz::ExecutionPanel& panel = *shown.panel();
            gui_test::settle(*panel.canvasWidget(), 300);
            const auto rows = panel.scene()->lastAccessLaneRows();
            QCOMPARE(rows.size(), std::size_t{1});
            const auto& lanes = rows.front();
            QCOMPARE(lanes.lanes, 32u);
            // The numbers lie between the lane cells and the bank columns: within 60 px under the lanes
            // (26 px of wires, then one or two rows of numbers).
            const float below = lanes.top + lanes.cell;
            std::vector<QString> numbers(32);
            std::vector<float> tops(32, 0.0f);
            for (const gui_test::PaintedGlyph& glyph : gui_test::paintedGlyphs(*panel.canvas())) {
                if (glyph.top < below || glyph.top > below + 60.0f || glyph.centreX() < lanes.left ||
                    glyph.centreX() >= lanes.left + 32.0f * lanes.cell)
                    continue;
                const int bank = static_cast<int>(std::floor((glyph.centreX() - lanes.left) / lanes.cell));
                numbers[static_cast<std::size_t>(bank)] += glyph.character;
                tops[static_cast<std::size_t>(bank)] = glyph.top;
            }
            const QString at = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            for (int bank = 0; bank < 32; ++bank)
                QVERIFY2(numbers[static_cast<std::size_t>(bank)] == QString::number(bank),
                         qPrintable(QStringLiteral("%1: bank %2's column reads '%3'").arg(at).arg(bank).arg(numbers[static_cast<std::size_t>(bank)])));
            // One row, or evens above odds.
            for (int bank = 2; bank < 32; ++bank)
                QCOMPARE(tops[static_cast<std::size_t>(bank)], tops[static_cast<std::size_t>(bank % 2)]);
            QVERIFY(tops[1] >= tops[0]);
            qInfo("%s: bank numbers in %s, columns %.1f px", qPrintable(at), tops[1] > tops[0] ? "two rows" : "one row",
                  static_cast<double>(lanes.cell));
        }
    }

    // Every warp row says its status beside its lanes and path mask at 1280 x 800 and 1366 x 768,
    // on its row's line: "issuing" for the warp that issues the current instruction, "ready" for the
    // others that run, "exited" (in the mask's place) for those done: transpose_tiled's warp 0 at its
    // column read (the others ready), and hazard_out_of_bounds's block 3 at warp 7's load of a[1000]
    // (the others done).
    void eachWarpRowSaysItsStatus()
    {
        QSet<QString> seen;
        const QStringList links = {QStringLiteral("warpscope:step?kernel=transpose_tiled&block=0&warp=0&at=65"),
                                   QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=3&warp=7&at=12")};
        for (int shot = 0; shot < 4; ++shot) {
            const QSize size = shot < 2 ? QSize(1280, 800) : QSize(1366, 768);
            const QString& link = links[shot % 2];
            ShownWindow shown(size);
            QVERIFY(openStep(shown, link));
            viz::ExecutionPanel& panel = *shown.panel();
            gui_test::settle(*panel.canvasWidget(), 300);
            const viz::Stepper& stepper = *panel.stepper();
            const std::vector<gui_test::PaintedWord> words = gui_test::paintedWords(*panel.canvas());
            for (int warp = 0; warp < stepper.warpCount(); ++warp) {
                const QString label = QStringLiteral("W%1").arg(warp);
                const auto row = std::find_if(words.begin(), words.end(), [&](const gui_test::PaintedWord& word) { return word.text == label; });
                QVERIFY2(row != words.end(), qPrintable(label));
                const sim::WarpSnapshot snapshot = stepper.replay().warp(warp);
                const QString expected = snapshot.status == sim::WarpStatus::Exited      ? QStringLiteral("exited")
                                         : snapshot.status == sim::WarpStatus::AtBarrier ? QStringLiteral("barrier")
                                         : static_cast<std::int32_t>(stepper.current()->warp) == warp ? QStringLiteral("issuing")
                                                                                                       : QStringLiteral("ready");
                QString line;
                bool found = false;
                for (const gui_test::PaintedWord& word : words)
                    if (std::abs(word.top - row->top) < 4.0f && word.left > row->right) {
                        line += word.text + QLatin1Char(' ');
                        found = found || word.text == expected;
                    }
                QVERIFY2(found, qPrintable(QStringLiteral("%1x%2 %3: '%4' has no '%5'").arg(size.width()).arg(size.height()).arg(label, line, expected)));
                seen.insert(expected);
            }
        }
        QVERIFY2(seen.contains(QStringLiteral("issuing")) && seen.contains(QStringLiteral("ready")) &&
                     seen.contains(QStringLiteral("exited")),
                 qPrintable(QStringList(seen.begin(), seen.end()).join(QLatin1Char(','))));
    }

    // matmul_tiled's As[ty][k + 1] read (warp 0, its instruction 56) is a scalar ld.shared.f32 that
    // ptxas merges with As[ty][k .. k + 3] into one LDS.128 (sim/shared_load_merge.h): the bank grid
    // draws that 16-byte load, in four phases of 8 lanes (a 4-byte load would be one phase of 32),
    // and the caption says this load adds no wavefronts of its own.
    void aMergedSharedLoadIsDrawnAsTheWideLoad()
    {
        ShownWindow shown(QSize(1366, 768));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_tiled&block=0&warp=0&at=56")));
        viz::ExecutionPanel& panel = *shown.panel();
        gui_test::settle(*panel.canvasWidget(), 300);
        const sim::RecordedStep* step = panel.stepper()->current();
        QVERIFY(step && step->access >= 0);
        const sim::RecordedAccess& access = panel.stepper()->recording().accesses[static_cast<std::size_t>(step->access)];
        QCOMPARE(access.bytesPerLane, 4u);
        QCOMPARE(access.mergedBytesPerLane, 16u);
        QVERIFY(access.mergedMember);
        const auto rows = panel.scene()->lastAccessLaneRows();
        QCOMPARE(rows.size(), std::size_t{4});
        for (const auto& row : rows)
            QCOMPARE(row.lanes, 8u);
        // The caption's column (the bank grid's), read line by line, letters and digits only (a
        // punctuation glyph's top is not its line's).
        std::vector<gui_test::PaintedGlyph> glyphs;
        for (const gui_test::PaintedGlyph& glyph : gui_test::paintedGlyphs(*panel.canvas()))
            if (glyph.left >= rows.front().left - 1.0f && glyph.top < rows.front().top)
                glyphs.push_back(glyph);
        std::sort(glyphs.begin(), glyphs.end(), [](const auto& a, const auto& b) {
            return std::abs(a.top - b.top) > 2.0f ? a.top < b.top : a.left < b.left;
        });
        QString text;
        for (const gui_test::PaintedGlyph& glyph : glyphs)
            if (glyph.character.isLetterOrNumber())
                text += glyph.character;
        QVERIFY2(text.contains(QStringLiteral("LDS128")) && text.contains(QStringLiteral("addsnone")), qPrintable(text));
    }
};

QTEST_MAIN(ExecutionCanvasTest)
#include "execution_canvas_test.moc"
