// The Execution view's way to hazards and its fit on a laptop screen, offscreen (issue 27): the list
// of the launch's hazards (kind, block, warp, lanes, line) and F6 that records the block holding
// one and stands on it, as `warpscope step` prints it there; the step keys with the focus outside
// the view (an editor keeps its own keys); the panes that collapse; the playground's compiler
// messages under the editor; and every control shown at 1280x800 and 1366x768.
#include "execution_test_support.h"
#include "gui_test_support.h"

#include "execution/code_view.h"
#include "execution/execution_panel.h"
#include "execution/stepper.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QList>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// hazard_out_of_bounds (n = 1,000, 4 blocks of 256, no bounds check): threads 1000-1023 are block
// 3's warp 7, lanes 8-31; its loads of a[i] and b[i] and its store to c[i] are its three hazards.
const char* kSentenceEnd = ", 1 element past the end (1,000 floats); lanes 8-31 "
                           "(on a GPU: an illegal-address error or silent corruption)";

// A focusable widget of the window outside the Execution view (a list in a dock, say), focused.
QWidget* focusOutsideTheView(ShownWindow& shown)
{
    QList<QWidget*> candidates;
    for (QAbstractItemView* view : shown.window.findChildren<QAbstractItemView*>())
        candidates.append(view);
    candidates.append(shown.window.findChildren<QWidget*>());
    for (QWidget* widget : candidates) {
        if (!widget->isVisible() || !widget->isEnabled() || widget == shown.panel() || shown.panel()->isAncestorOf(widget) ||
            !(widget->focusPolicy() & Qt::TabFocus) || qobject_cast<QAbstractScrollArea*>(widget->parentWidget()))
            continue;
        widget->setFocus();
        if (QApplication::focusWidget() == widget)
            return widget;
    }
    return nullptr;
}

// Presses `key` on whatever has the focus and, when it records another block, waits for it.
void pressAndWaitForRecording(QWidget* target, viz::ExecutionPanel& panel, Qt::Key key,
                              Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
    QTest::keyClick(target, key, modifiers);
    if (panel.busy())
        QVERIFY(finished.wait(kRunTimeoutMs));
}

} // namespace

class ExecutionHazardsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // Block 0 raises nothing; the list names the launch's three hazards (block 3, warp 7, lanes
    // 8-31, line hazards.cu:10) and the status line points there. F6, with the focus outside the
    // view, records block 3 and stands on a[1000]'s read in warp 7: what `warpscope step` prints at
    // block 3, warp 7, step 12. F6 goes on to b's read and c's write, then says there is none further;
    // Shift+F6 comes back to b's.
    void f6RecordsTheBlockThatHoldsTheHazard()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.stepper()->recording().hazards.empty());
        QTreeWidget* list = panel.hazardList();
        QVERIFY(list->isVisible());
        QCOMPARE(list->topLevelItemCount(), 3);
        for (int row = 0; row < 3; ++row) {
            const QTreeWidgetItem* item = list->topLevelItem(row);
            QCOMPARE(item->text(0), QStringLiteral("out_of_bounds_global"));
            QCOMPARE(item->text(1), QStringLiteral("3"));
            QCOMPARE(item->text(2), QStringLiteral("7"));
            QCOMPARE(item->text(3), QStringLiteral("8-31"));
            QCOMPARE(item->text(4), QStringLiteral("hazards.cu:10"));
        }
        QVERIFY(list->topLevelItem(2)->toolTip(0).startsWith(QStringLiteral("writes c[1000]")));
        QVERIFY(list->topLevelItem(2)->toolTip(0).endsWith(QStringLiteral("[24 times in the launch]"))); // as `warpscope sim`
        // Above the list, how often in all: 3 x 24 lanes (threads 1000-1023 each read a and b, write c).
        QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("hazardCaption"))->text(),
                 QStringLiteral("The launch raised 3 hazards, 72 times in all; each listed where it first happened: choose one, or F6."));
        QVERIFY2(panel.statusText().contains(QStringLiteral("the launch has 3")), qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("block 3")), qPrintable(panel.statusText()));

        QWidget* outside = focusOutsideTheView(shown);
        QVERIFY(outside);
        pressAndWaitForRecording(outside, panel, Qt::Key_F6);
        const viz::Stepper* stepper = panel.stepper();
        QCOMPARE(stepper->run().blockIndex, (launch::Dim3{3, 0, 0}));
        QCOMPARE(stepper->followed(), 7);
        const sim::RecordedHazard* hazard = stepper->currentHazard();
        QVERIFY(hazard);
        QCOMPARE(hazard->hazard.message, std::string("reads a[1000]") + kSentenceEnd);
        QVERIFY2(panel.statusText().contains(QString::fromStdString(std::string("reads a[1000]") + kSentenceEnd).toHtmlEscaped()),
                 qPrintable(panel.statusText()));
        QCOMPARE(list->currentItem(), list->topLevelItem(0)); // the list marks where the stepper stands
        const nlohmann::json cli = cliStep(QStringLiteral("hazard_out_of_bounds"), QStringLiteral("3"), 7, 12);
        QVERIFY(!cli.is_null());
        QCOMPARE(cli["hazard"]["message"].get<std::string>(), hazard->hazard.message);
        compareWithCli(panel, cli);

        pressAndWaitForRecording(outside, panel, Qt::Key_F6);
        QCOMPARE(panel.stepper()->currentHazard()->hazard.message, std::string("reads b[1000]") + kSentenceEnd);
        pressAndWaitForRecording(outside, panel, Qt::Key_F6);
        QCOMPARE(panel.stepper()->currentHazard()->hazard.message, std::string("writes c[1000]") + kSentenceEnd);
        QCOMPARE(list->currentItem(), list->topLevelItem(2));
        const std::size_t last = panel.stepper()->position();
        pressAndWaitForRecording(outside, panel, Qt::Key_F6);
        QCOMPARE(panel.stepper()->position(), last);
        QVERIFY2(panel.statusText().contains(QStringLiteral("No further hazard in this block")), qPrintable(panel.statusText()));
        pressAndWaitForRecording(outside, panel, Qt::Key_F6, Qt::ShiftModifier);
        QCOMPARE(panel.stepper()->currentHazard()->hazard.message, std::string("reads b[1000]") + kSentenceEnd);
    }

    // Choosing a row goes there: from block 0, clicking c's write records block 3 and stands on
    // warp 7's store; clicking a's read then moves within the block, without recording again.
    void choosingAListedHazardGoesThere()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=0&warp=2&at=5")));
        viz::ExecutionPanel& panel = *shown.panel();
        QTreeWidget* list = panel.hazardList();
        QCOMPARE(list->topLevelItemCount(), 3);
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->topLevelItem(2)).center());
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().blockIndex, (launch::Dim3{3, 0, 0}));
        QCOMPARE(panel.stepper()->followed(), 7);
        QCOMPARE(panel.stepper()->currentInstruction()->op, ptx::Op::St);
        QCOMPARE(panel.stepper()->currentHazard()->hazard.message, std::string("writes c[1000]") + kSentenceEnd);
        finished.clear();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->topLevelItem(0)).center());
        QVERIFY(!panel.busy());
        QCOMPARE(finished.count(), 0);
        QCOMPARE(panel.stepper()->currentHazard()->hazard.message, std::string("reads a[1000]") + kSentenceEnd);
        QCOMPARE(static_cast<std::uint64_t>(panel.stepper()->replay().warp(7).stepsDone), std::uint64_t{12});
    }

    // The step keys work while the view is shown, wherever the focus is: F11 with the focus in
    // another part of the window steps. The playground editor keeps Ctrl+End (its text's end), which the stepper
    // would otherwise take.
    void stepKeysWorkWithoutFocusButEditorsKeepTheirs()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=3")));
        viz::ExecutionPanel& panel = *shown.panel();
        QWidget* outside = focusOutsideTheView(shown);
        QVERIFY(outside);
        QCOMPARE(static_cast<std::uint64_t>(panel.stepper()->replay().warp(1).stepsDone), std::uint64_t{3});
        QTest::keyClick(outside, Qt::Key_F11);
        QCOMPARE(static_cast<std::uint64_t>(panel.stepper()->replay().warp(1).stepsDone), std::uint64_t{4});
        QTest::keyClick(outside, Qt::Key_F11, Qt::ShiftModifier);
        QCOMPARE(static_cast<std::uint64_t>(panel.stepper()->replay().warp(1).stepsDone), std::uint64_t{3});
        QTest::keyClick(outside, Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(panel.stepper()->position(), panel.stepper()->size());

        QTemporaryDir dir;
        const QString source = QStringLiteral("extern \"C\" __global__ void twice(float* x)\n{\n"
                                              "    x[threadIdx.x] = 2.0f * x[threadIdx.x];\n}\n");
        QVERIFY2(runPlayground(panel, dir.filePath(QStringLiteral("twice.cu")), source, QStringLiteral("x=f32[32]:iota"),
                               QStringLiteral("1"), QStringLiteral("32"), QStringLiteral("0")),
                 qPrintable(panel.lastError()));
        panel.seekWarpStep(0, 2);
        const std::size_t before = panel.stepper()->position();
        viz::CodeView* editor = panel.sourceView();
        editor->setFocus();
        editor->moveCursor(QTextCursor::Start);
        QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(panel.stepper()->position(), before);
        QCOMPARE(editor->textCursor().position(), editor->document()->characterCount() - 1);
        QTest::keyClick(editor, Qt::Key_F11); // not a typing key: it steps
        QVERIFY(panel.stepper()->position() > before);
    }

    // The CUDA and PTX switches off: the listings' column hides and the canvas takes its width; on
    // again, both come back. The hazards switch is off and disabled for a launch without hazards.
    void panesCollapseToWidenTheCanvas()
    {
        ShownWindow shown(QSize(1280, 800));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=transpose_tiled&block=0&warp=0&at=10")));
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(!panel.hazardToggle()->isEnabled());
        QVERIFY(!panel.hazardList()->isVisible());
        QVERIFY(panel.sourceView()->isVisible() && panel.ptxView()->isVisible());
        const int canvasBefore = panel.canvasWidget()->width();
        panel.sourceToggle()->click();
        panel.ptxToggle()->click();
        QTRY_VERIFY(!panel.sourceView()->isVisible() && !panel.ptxView()->isVisible());
        QTRY_VERIFY(panel.canvasWidget()->width() > canvasBefore + 200);
        panel.ptxToggle()->click();
        QTRY_VERIFY(panel.ptxView()->isVisible());
        QVERIFY(panel.ptxView()->width() > 200);
        QVERIFY(!panel.sourceView()->isVisible());
        panel.sourceToggle()->click();
        QTRY_VERIFY(panel.sourceView()->isVisible());
        QVERIFY(panel.sourceView()->height() > 100);
    }

    // Compiler errors show in a pane under the editor, one row per message with its line and
    // column, as well as on their lines; clicking a row puts the cursor there. A Run that does not
    // compile fills it too; a clean compile empties and hides it.
    void compilerMessagesShowUnderTheEditor()
    {
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("playground")));
        QListWidget* messages = panel.compilerMessages();
        QVERIFY(!messages->isVisible());
        panel.setPlaygroundSource(QStringLiteral("extern \"C\" __global__ void broken(float* x)\n{\n    x[threadIdx.x] = y;\n}\n"));
        panel.sourceView()->setFocus();
        QTest::keyClick(panel.sourceView(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(messages->count() > 0, 30000);
        QVERIFY(messages->isVisible());
        QCOMPARE(messages->count(), static_cast<int>(panel.sourceView()->markers().size()));
        const viz::CodeView::Marker& marker = panel.sourceView()->markers().front();
        QCOMPARE(marker.line, 3);
        QCOMPARE(messages->item(0)->text(),
                 QStringLiteral("3:%1: error: %2").arg(marker.column).arg(marker.message));
        QVERIFY(messages->item(0)->text().contains(QStringLiteral("\"y\"")));
        panel.sourceView()->moveCursor(QTextCursor::Start);
        QTest::mouseClick(messages->viewport(), Qt::LeftButton, {}, messages->visualItemRect(messages->item(0)).center());
        QCOMPARE(panel.sourceView()->textCursor().blockNumber(), 2); // line 3
        QCOMPARE(panel.sourceView()->textCursor().positionInBlock(), std::max(0, marker.column - 1));
        // Run with the error still there: the run fails and the messages come back to the pane.
        panel.setPlaygroundSource(QStringLiteral("extern \"C\" __global__ void broken2(float* x)\n{\n    x[0] = z;\n}\n"));
        QTRY_VERIFY(!messages->isVisible()); // a new source clears them
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        panel.run();
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY(!finished.first().first().toBool());
        QTRY_VERIFY_WITH_TIMEOUT(messages->count() > 0, 30000);
        QVERIFY(messages->isVisible());
        QVERIFY(messages->item(0)->text().startsWith(QStringLiteral("3:")));
        QVERIFY(messages->item(0)->text().contains(QStringLiteral("\"z\"")));
        // Fixed: the pane empties and hides.
        panel.setPlaygroundSource(QStringLiteral("extern \"C\" __global__ void fixed(float* x)\n{\n    x[threadIdx.x] = 1.0f;\n}\n"));
        QTest::keyClick(panel.sourceView(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(panel.statusText().startsWith(QStringLiteral("Compiled")), 30000);
        QCOMPARE(messages->count(), 0);
        QVERIFY(!messages->isVisible());
    }

    // At 1280x800 and 1366x768 every control of the view is shown: no move folded into the tool
    // bar's "»" menu, the view needs no scrolling, and the listings are wide enough to read.
    void everyControlFitsOnALaptopScreen()
    {
        for (const QSize size : {QSize(1280, 800), QSize(1366, 768)}) {
            ShownWindow shown(size);
            QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=3&warp=7&at=12")));
            viz::ExecutionPanel& panel = *shown.panel();
            QTest::qWait(50);
            const auto bars = panel.findChildren<QToolBar*>();
            QCOMPARE(bars.size(), qsizetype{1});
            const QToolBar* moves = bars.front();
            QCOMPARE(moves->actions().size(), qsizetype{16}); // 14 moves, Play, the speed
            for (QAction* action : moves->actions()) {
                const QWidget* button = moves->widgetForAction(action);
                QVERIFY2(button && button->isVisible(), qPrintable(action->toolTip()));
                QVERIFY(moves->rect().contains(button->geometry()));
            }
            for (const QToolButton* extension : moves->findChildren<QToolButton*>(QStringLiteral("qt_toolbar_ext_button")))
                QVERIFY(!extension->isVisible());
            for (const QToolButton* toggle : {panel.sourceToggle(), panel.ptxToggle(), panel.hazardToggle()})
                QVERIFY(toggle->isVisible() && panel.rect().contains(toggle->mapTo(&panel, toggle->rect().bottomRight())));
            // The view fits its place in the window: nothing to scroll to sideways.
            auto* scroll = qobject_cast<QAbstractScrollArea*>(panel.parentWidget() ? panel.parentWidget()->parentWidget() : nullptr);
            if (scroll) {
                QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
                         qPrintable(QStringLiteral("%1x%2: the view scrolls sideways").arg(size.width()).arg(size.height())));
                QVERIFY2(!scroll->verticalScrollBar()->isVisible(),
                         qPrintable(QStringLiteral("%1x%2: the view scrolls up and down").arg(size.width()).arg(size.height())));
            }
            QVERIFY2(panel.sourceView()->width() >= 300, qPrintable(QString::number(panel.sourceView()->width())));
            QVERIFY2(panel.canvasWidget()->width() >= 450, qPrintable(QString::number(panel.canvasWidget()->width())));
            QVERIFY(panel.hazardList()->isVisible());
        }
    }

    // hazard_out_of_bounds with n = 600 on 4 blocks of 256: threads 600-1023 are out of bounds, in
    // block 2 (warp 2's lanes 24-31, warps 3-7) and block 3 (every warp). Their writes to c, the last
    // buffer, all land outside memory: its row lists 14 instances, block then warp, whose lanes add
    // up to the 424 times `warpscope sim --arg n=i32:600 --grid 4` prints; the reads of a and b past
    // a[703] and b[703] fall inside the next buffer, so their rows list block 2's warps 2-5 only, 104
    // times (as it prints too). Choosing block 3's warp 5 records block 3 and stands on its write to
    // c[928]; F6 from block 0 goes to block 2's first, Shift+F6 from block 3's first to block 2's last.
    void everyBlocksInstancesAreListed()
    {
        ShownWindow shown(QSize(1280, 800));
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("hazard_out_of_bounds")));
        panel.setLaunchFields(QStringLiteral("n=i32:600"), QStringLiteral("4"), QString(), QStringLiteral("0"));
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        panel.run();
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY2(finished.first().first().toBool(), qPrintable(panel.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.censusBusy() && panel.hazardInstances().size() == 3 &&
                                     !panel.hazardInstances().front().empty(), kRunTimeoutMs);
        QCOMPARE(panel.stepper()->run().hazards.size(), std::size_t{3});
        QTreeWidget* list = panel.hazardList();
        const std::size_t expectedInstances[] = {4, 4, 14};
        const int expectedLanes[] = {104, 104, 424};
        for (std::size_t row = 0; row < 3; ++row) {
            const std::vector<sim::Hazard>& instances = panel.hazardInstances()[row];
            QCOMPARE(instances.size(), expectedInstances[row]);
            int lanes = 0;
            for (std::size_t i = 0; i < instances.size(); ++i) {
                const std::int64_t block = i < 6 ? 2 : 3;
                const int warp = i < 6 ? static_cast<int>(i) + 2 : static_cast<int>(i) - 6;
                QCOMPARE(instances[i].block.x, block);
                QCOMPARE(instances[i].warp, warp);
                QCOMPARE(instances[i].lanes, block == 2 && warp == 2 ? 0xff000000u : 0xffffffffu);
                lanes += std::popcount(instances[i].lanes);
            }
            QCOMPARE(lanes, expectedLanes[row]);
            QCOMPARE(static_cast<std::uint64_t>(lanes), panel.stepper()->run().hazards[row].occurrences);
            const QTreeWidgetItem* item = list->topLevelItem(static_cast<int>(row));
            QCOMPARE(item->childCount(), static_cast<int>(expectedInstances[row]));
            QCOMPARE(item->child(0)->text(1), QStringLiteral("2"));
            QCOMPARE(item->child(0)->text(3), QStringLiteral("24-31"));
        }
        QCOMPARE(list->topLevelItem(2)->child(11)->text(1), QStringLiteral("3"));
        QCOMPARE(list->topLevelItem(2)->child(11)->text(2), QStringLiteral("5"));
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("hazardCaption"))->text() ==
                     QStringLiteral("The launch raised 3 hazards, 632 times in all; a row opens on every block's: choose one, or F6."),
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("hazardCaption"))->text()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("No hazard in this block; the launch has 3 (listed), the next in block 2")),
                 qPrintable(panel.statusText()));
        // F6 from block 0, which raised none: block 2's first, warp 2.
        finished.clear();
        QVERIFY(panel.goToNextHazard(true));
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().blockIndex, (launch::Dim3{2, 0, 0}));
        QVERIFY(panel.stepper()->currentHazard());
        QCOMPARE(panel.stepper()->currentHazard()->hazard.warp, 2);
        // Choosing block 3's warp 5 under c's row: its write to c[768 + 160] = c[928].
        QTreeWidgetItem* child = list->topLevelItem(2)->child(11);
        QVERIFY(!list->topLevelItem(2)->isExpanded());
        list->scrollToItem(list->topLevelItem(2));
        QTest::qWait(50);
        finished.clear();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->topLevelItem(2)).center());
        QVERIFY(list->topLevelItem(2)->isExpanded()); // choosing the row opens it, and goes to its first
        if (panel.busy())
            QVERIFY(finished.wait(kRunTimeoutMs));
        list->scrollToItem(child);
        QTest::qWait(50);
        QVERIFY(list->viewport()->rect().contains(list->visualItemRect(child).center()));
        finished.clear();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(child).center());
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().blockIndex, (launch::Dim3{3, 0, 0}));
        const sim::RecordedHazard* hazard = panel.stepper()->currentHazard();
        QVERIFY(hazard);
        QCOMPARE(hazard->hazard.warp, 5);
        QVERIFY2(QString::fromStdString(hazard->hazard.message).startsWith(QStringLiteral("writes c[928]")),
                 hazard->hazard.message.c_str());
        QTRY_COMPARE(list->currentItem(), list->topLevelItem(2)->child(11)); // the list marks where the stepper stands
        gui_test::saveShot(shown.window, QStringLiteral("execution-hazard-instances"));
        // At 1280 x 800 the rows and their instances fit the pane: no column is cut, nothing scrolls sideways.
        QVERIFY2(!list->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("%1 px of columns (%3, %4, %5, %6, %7) in %2")
                                .arg(list->header()->length())
                                .arg(list->viewport()->width())
                                .arg(list->columnWidth(0))
                                .arg(list->columnWidth(1))
                                .arg(list->columnWidth(2))
                                .arg(list->columnWidth(3))
                                .arg(list->columnWidth(4))));
        // Shift+F6 from block 3's first hazard goes back to block 2's last: warp 7's write to c.
        panel.seekWarpStep(0, 0);
        panel.followWarp(-1);
        finished.clear();
        while (panel.goToNextHazard(false) && !panel.busy()) {
        }
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().blockIndex, (launch::Dim3{2, 0, 0}));
        QVERIFY(panel.stepper()->currentHazard());
        QCOMPARE(panel.stepper()->currentHazard()->hazard.warp, 7);
        QVERIFY(QString::fromStdString(panel.stepper()->currentHazard()->hazard.message).startsWith(QStringLiteral("writes c[")));
    }

    // The register table on a laptop screen (transpose_tiled, warp 0 at its instruction 40: floats,
    // addresses, indices and 25 predicates): values are short (floats to 4 digits, addresses as the
    // element they point at, predicates T or F) and its cells narrow, so 8 lanes are wholly in view
    // beside the listings at 1280x800, where the exact values showed 5 (and 4 before addresses were
    // named); collapsing the CUDA and PTX panes gives the table the width for 14.
    void theRegisterTableShowsMoreLanesOnALaptopScreen()
    {
        for (const QSize size : {QSize(1280, 800), QSize(1366, 768)}) {
            ShownWindow shown(size);
            QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=transpose_tiled&warp=0&at=40")));
            viz::ExecutionPanel& panel = *shown.panel();
            gui_test::settle(*panel.canvasWidget(), 300);
            const int beside = panel.scene()->lastRegisterLanesShown();
            panel.scene()->setRegisterFormat(viz::RegisterFormat::Typed);
            gui_test::settle(*panel.canvasWidget(), 300);
            const int typed = panel.scene()->lastRegisterLanesShown();
            panel.scene()->setRegisterFormat(viz::RegisterFormat::Short);
            panel.sourceToggle()->click();
            panel.ptxToggle()->click();
            gui_test::settle(*panel.canvasWidget(), 300);
            const int alone = panel.scene()->lastRegisterLanesShown();
            qInfo("%dx%d: %d lanes beside the listings (%d as typed), %d without them", size.width(), size.height(), beside,
                  typed, alone);
            QVERIFY2(beside > typed, qPrintable(QStringLiteral("%1 short, %2 as typed").arg(beside).arg(typed)));
            QVERIFY2(beside >= 8, qPrintable(QString::number(beside)));
            QVERIFY2(alone >= 13, qPrintable(QString::number(alone)));
        }
    }
};

QTEST_MAIN(ExecutionHazardsTest)
#include "execution_hazards_test.moc"
