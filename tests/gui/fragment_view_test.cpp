// The Execution view's fragment view (issue 30, section 1), in the real window at 1280 x 800: at
// matmul_wmma's first wmma.mma and matmul_mma's first mma.sync, the tiles hold the kernel's own
// inputs rounded to FP16 (computed here from the argument specs, not from the simulator), D is
// C + A x B element by element, and the large tile's painted numbers (read back from the canvas's
// draw data, canvas_text.h) are D's values. At ldmatrix .x2 .trans, matrix 0 is B's first 8 x 8
// block as it lies in memory. At wmma.load.a the access caption counts its 8 requests and says why
// its 16 wavefronts make 8 conflicts.
#include "canvas_text.h"
#include "execution_test_support.h"
#include "gui_test_support.h"

#include "execution/execution_panel.h"
#include "execution/execution_scene.h"
#include "numerics/half_rounding.h"
#include "sim/fragment_tiles.h"
#include "sim/kernel_args.h"
#include "window/application_setup.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// A demo argument's initial floats, from its spec, as the simulator is given them.
std::vector<float> initialFloats(const std::string& spec, int n)
{
    const std::vector<sim::ResolvedArg> args =
        sim::resolveArgs({sim::parseArgSpec(spec), sim::parseArgSpec("n=i32:" + std::to_string(n))}, 1u << 30);
    for (const sim::ResolvedArg& arg : args)
        if (arg.isBuffer) {
            std::vector<float> values(arg.count);
            std::memcpy(values.data(), arg.bytes.data(), values.size() * sizeof(float));
            return values;
        }
    return {};
}

// The multiply view's A and B are the inputs' FP16 roundings at rows/columns from 0 (block 0, warp
// 0, the first step along k), C is zero, and D(i, j) = C(i, j) + sum A(i, k) B(k, j) rounded once to
// FP32. Returns the number of mismatches.
int checkFirstProduct(const sim::tensor::FragmentView& view, const std::vector<float>& a, const std::vector<float>& b, int n)
{
    int wrong = 0;
    const auto &A = view.tiles[0], &B = view.tiles[1], &C = view.tiles[2], &D = view.tiles[3];
    for (int i = 0; i < A.rows; ++i)
        for (int k = 0; k < A.cols; ++k)
            wrong += A.at(i, k).value != numerics::roundToFp16Fast(a[static_cast<std::size_t>(i * n + k)]);
    for (int k = 0; k < B.rows; ++k)
        for (int j = 0; j < B.cols; ++j)
            wrong += B.at(k, j).value != numerics::roundToFp16Fast(b[static_cast<std::size_t>(k * n + j)]);
    for (int i = 0; i < D.rows; ++i)
        for (int j = 0; j < D.cols; ++j) {
            double sum = C.at(i, j).value;
            wrong += C.at(i, j).value != 0.0;
            for (int k = 0; k < A.cols; ++k)
                sum += A.at(i, k).value * B.at(k, j).value;
            wrong += D.at(i, j).value != static_cast<double>(static_cast<float>(sum));
        }
    return wrong;
}

} // namespace

class FragmentViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // matmul_wmma's first wmma.mma (warp 0, its instruction 200): A, B, C and D of m16n16k16, D
    // drawn large, its first row's numbers painted on one line, left to right, each within its
    // printed precision of D's value.
    void wmmaMmaShowsTheProductOfTheInputs()
    {
        ShownWindow shown(QSize(1280, 800));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_wmma&block=0&warp=0&at=200")));
        viz::ExecutionPanel& panel = *shown.panel();
        gui_test::settle(*panel.canvasWidget(), 300);
        const viz::FragmentPanel& fragments = panel.scene()->fragments();
        QVERIFY(fragments.lastView().has_value());
        const sim::tensor::FragmentView& view = *fragments.lastView();
        QCOMPARE(view.title, std::string("wmma.mma m16n16k16: D = A x B + C"));
        QCOMPARE(view.tiles.size(), std::size_t{4});
        QCOMPARE(fragments.lastFocusedTile(), 'D');
        const int n = 128;
        QCOMPARE(checkFirstProduct(view, initialFloats("A=f32[n*n]:random(1)", n), initialFloats("B=f32[n*n]:random(2)", n), n), 0);

        const std::vector<std::string>& cells = fragments.lastCellTexts();
        QCOMPARE(cells.size(), std::size_t{256});
        const auto& D = view.tiles[3];
        for (int j = 0; j < 16; ++j) {
            const std::string& text = cells[static_cast<std::size_t>(j)];
            QVERIFY2(!text.empty(), qPrintable(QStringLiteral("D(0, %1) has no number at 1280 x 800").arg(j)));
            const double shown = std::stod(text);
            const double value = D.at(0, j).value;
            // The digits printed: 3 significant ones at least (".123", "-1.23") at this width.
            QVERIFY2(std::fabs(shown - value) <= 0.006 * std::max(std::fabs(value), 0.1),
                     qPrintable(QStringLiteral("D(0, %1) reads %2, is %3").arg(j).arg(QString::fromStdString(text)).arg(value)));
        }
        // The first row's numbers as painted: one line, in column order.
        const std::vector<gui_test::PaintedWord> words = gui_test::paintedWords(*panel.canvas());
        float top = -1, left = -1;
        int found = 0;
        for (int j = 0; j < 16; ++j) {
            const QString text = QString::fromStdString(cells[static_cast<std::size_t>(j)]);
            for (const gui_test::PaintedWord& word : words) {
                if (word.text != text || word.left <= left || (top >= 0 && std::fabs(word.top - top) > 1.0f))
                    continue;
                top = word.top;
                left = word.left;
                ++found;
                break;
            }
        }
        QCOMPARE(found, 16);
    }

    // The access caption at wmma.load.a (its instruction 197): 8 requests of 32 lanes x 4 bytes, 16
    // wavefronts, 8 conflicts, and the per-request rule, its numbers and words painted (in a window
    // tall enough to show it below the fragment view without scrolling).
    void wmmaLoadCaptionSaysWhyItHas16Wavefronts()
    {
        ShownWindow shown(QSize(1920, 1400));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_wmma&block=0&warp=0&at=197")));
        viz::ExecutionPanel& panel = *shown.panel();
        gui_test::settle(*panel.canvasWidget(), 300);
        const viz::Stepper& stepper = *panel.stepper();
        const sim::RecordedStep* step = stepper.current();
        QVERIFY(step && step->access >= 0);
        const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(step->access)];
        QCOMPARE(access.wavefronts, 16u);
        QCOMPARE(access.bankConflicts, 8u);
        const std::string caption = sim::tensor::matrixAccessCaption(*stepper.currentInstruction(), access);
        QVERIFY(caption.find("counts 8 requests, one per fragment register, each 32 lanes x 4 bytes") != std::string::npos);
        QVERIFY(caption.find("16 - 8 = 8") != std::string::npos);
        QStringList painted;
        for (const gui_test::PaintedWord& word : gui_test::paintedWords(*panel.canvas()))
            painted << word.text;
        // canvas_text.h reads the glyphs it can tell apart (not every narrow letter): the caption's
        // numbers and its longer words.
        for (const char* word : {"Shared", "requests", "'wavefronts", "16", "8", "32"})
            QVERIFY2(painted.contains(QString::fromLatin1(word)), qPrintable(QStringLiteral("caption word '%1' is not painted").arg(word)));
    }

    // matmul_mma (n = 64): its first mma.sync.m16n8k8 (instruction 364) and, before it, ldmatrix .x2
    // .trans (363), whose matrix 0 is B's rows 0-7, columns 0-7 as they lie in shared memory.
    void mmaSyncAndLdmatrixShowTheInputs()
    {
        const int n = 64;
        const std::vector<float> a = initialFloats("A=f32[n*n]:random(1)", n), b = initialFloats("B=f32[n*n]:random(2)", n);
        ShownWindow shown(QSize(1280, 800));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_mma&block=0&warp=0&at=363")));
        viz::ExecutionPanel& panel = *shown.panel();
        gui_test::settle(*panel.canvasWidget(), 200);
        {
            const auto& view = panel.scene()->fragments().lastView();
            QVERIFY(view.has_value());
            QCOMPARE(view->title, std::string("ldmatrix .x2 .trans: 2 matrices of 8 x 8 16-bit elements"));
            const auto& matrix = view->tiles[0];
            QCOMPARE(matrix.type, ptx::Type::F16); // the type of the mma that reads the registers
            for (int r = 0; r < 8; ++r)
                for (int c = 0; c < 8; ++c)
                    QCOMPARE(matrix.at(r, c).value, static_cast<double>(numerics::roundToFp16Fast(b[static_cast<std::size_t>(r * n + c)])));
        }
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_mma&block=0&warp=0&at=364")));
        gui_test::settle(*panel.canvasWidget(), 200);
        const auto& view = panel.scene()->fragments().lastView();
        QVERIFY(view.has_value());
        QCOMPARE(view->title, std::string("mma.sync m16n8k8: D = A x B + C"));
        QCOMPARE(checkFirstProduct(*view, a, b, n), 0);
        // The ISA's C/D layout: D(9, 5) is d3 of lane 4 x 1 + 2 = 6 (row groupID + 8, column 2 x 2 + 1).
        const auto& d = view->tiles[3].at(9, 5);
        QCOMPARE(d.lane, 6);
        QCOMPARE(d.registerIndex, 3);
        // The large tile's cells name the lane, then the ISA's element name, when asked.
        viz::FragmentPanel& fragments = panel.scene()->fragments();
        fragments.setCellLabel(viz::FragmentPanel::CellLabel::Lane);
        gui_test::settle(*panel.canvasWidget(), 100);
        QCOMPARE(fragments.lastCellTexts().at(9 * 8 + 5), std::string("6"));
        fragments.setCellLabel(viz::FragmentPanel::CellLabel::Register);
        gui_test::settle(*panel.canvasWidget(), 100);
        QCOMPARE(fragments.lastCellTexts().at(9 * 8 + 5), std::string("d3"));
        fragments.setCellLabel(viz::FragmentPanel::CellLabel::Value);
    }

    // Hovering D(2, 3) of matmul_mma's first mma lights row 2 of A, column 3 of B and C(2, 3), and
    // nothing else of A and B; a click makes it the walk's element, and the walk at k = 4 names
    // A(2, 4) x B(4, 3) and the sum of the first five products (C is 0), computed here from the
    // inputs. Play advances the walk and animates only until it ends.
    void hoveringDLightsItsRowAndColumnAndTheWalkSumsThem()
    {
        const int n = 64;
        const std::vector<float> a = initialFloats("A=f32[n*n]:random(1)", n), b = initialFloats("B=f32[n*n]:random(2)", n);
        ShownWindow shown(QSize(1280, 800));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_mma&block=0&warp=0&at=364")));
        viz::ExecutionPanel& panel = *shown.panel();
        QWidget* canvas = panel.canvasWidget();
        gui_test::settle(*canvas, 200);
        viz::FragmentPanel& fragments = panel.scene()->fragments();
        QCOMPARE(fragments.lastFocusedTile(), 'D');
        QElapsedTimer waited;
        waited.start();
        QPointF at;
        while (waited.elapsed() < 2000 && !fragments.lastLit('A', 2, 0)) {
            const auto grid = fragments.lastFocusedGrid();
            at = QPointF(grid.left + 3.5 * grid.cellWidth, grid.top + 2.5 * grid.cellHeight);
            QVERIFY(canvas->rect().contains(at.toPoint()));
            QMouseEvent move(QEvent::MouseMove, at, canvas->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(canvas, &move);
            QTest::qWait(30);
        }
        for (int k = 0; k < 8; ++k) {
            QVERIFY(fragments.lastLit('A', 2, k));
            QVERIFY(fragments.lastLit('B', k, 3));
            QVERIFY(!fragments.lastLit('A', 3, k));
            QVERIFY(!fragments.lastLit('B', k, 2));
        }
        QVERIFY(fragments.lastLit('C', 2, 3));
        QVERIFY(fragments.lastLit('D', 2, 3));
        QVERIFY(!fragments.lastLit('D', 2, 4));
        // Its tooltip: the ISA puts D(2, 3) in lane 4 x 2 + 1 = 9 (groupID 2, threadID_in_group 1) as
        // d1, the second register of the list {%f54, %f53, %f52, %f51}; its bits are its float's.
        const auto& d23 = fragments.lastView()->tiles[3].at(2, 3);
        char bits[16];
        std::snprintf(bits, sizeof bits, "0x%08x", std::bit_cast<std::uint32_t>(static_cast<float>(d23.value)));
        char value[40];
        std::snprintf(value, sizeof value, "%.9g", d23.value);
        QCOMPARE(QString::fromStdString(fragments.lastTooltip()),
                 QStringLiteral("D(2, 3) = %1 (f32 %2)\nlane 9 (thread 9 of the block), d1: register 1 of the list, %f53\n"
                                "The value after the instruction.").arg(QString::fromLatin1(value), QString::fromLatin1(bits)));

        QMouseEvent press(QEvent::MouseButtonPress, at, canvas->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &press);
        QTest::qWait(40);
        QMouseEvent release(QEvent::MouseButtonRelease, at, canvas->mapToGlobal(at), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &release);
        QTest::qWait(40);
        const QPointF away(2, 2); // off the tiles: the walk, not the hover, lights the cells
        QMouseEvent leave(QEvent::MouseMove, away, canvas->mapToGlobal(away), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &leave);
        fragments.walkTo(4);
        gui_test::settle(*canvas, 150);
        double sum = 0.0;
        for (int k = 0; k <= 4; ++k)
            sum += static_cast<double>(numerics::roundToFp16Fast(a[static_cast<std::size_t>(2 * n + k)])) *
                   numerics::roundToFp16Fast(b[static_cast<std::size_t>(k * n + 3)]);
        const double x = numerics::roundToFp16Fast(a[static_cast<std::size_t>(2 * n + 4)]);
        const double y = numerics::roundToFp16Fast(b[static_cast<std::size_t>(4 * n + 3)]);
        char expected[200];
        std::snprintf(expected, sizeof expected, "k = 4: A(2, 4) x B(4, 3) = %.6g x %.6g = %.6g; sum so far %.9g", x, y, x * y, sum);
        QCOMPARE(QString::fromStdString(fragments.lastTermsText()), QString::fromLatin1(expected));
        QVERIFY(fragments.lastLit('A', 2, 4));
        QVERIFY(fragments.lastLit('B', 4, 3));
        QVERIFY(!fragments.lastLit('A', 2, 5));

        fragments.play();
        QVERIFY(panel.scene()->animating());
        gui_test::settle(*canvas, 1000); // 0.4 s a product
        QVERIFY2(fragments.walkStep() > 4, qPrintable(QString::number(fragments.walkStep())));
        gui_test::settle(*canvas, 1500);
        QCOMPARE(fragments.walkStep(), 7); // the last product of k = 0..7
        QVERIFY(!panel.scene()->animating());
    }
};

QTEST_MAIN(FragmentViewTest)
#include "fragment_view_test.moc"
