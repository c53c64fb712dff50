// Input is applied one way everywhere (issue 27, section 7): a field checks and marks each keystroke
// at once, but applies a value only on Enter, on leaving the field, or after a pause in typing, so
// typing 2000 into the block never applies 200 on the way; the rows that say what is wrong follow the
// text as it reads now ("-1 is out of range", not the "'-' is not a number" of the key before); and
// one mistake reads the same in every view.
#include "gui_test_support.h"
#include "common/validated_field.h"
#include "hierarchy/hierarchy_scene.h"
#include "models/memory_budget_panel.h"
#include "models/pipeline_panel.h"
#include "models/streams_panel.h"
#include "occupancy/occupancy_panel.h"
#include "precision/amp/amp_panel.h"
#include "precision/quant/quant_panel.h"
#include "window/application_setup.h"
#include "window/input_history.h"
#include "window/main_window.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

#include <utility>
#include <vector>

using namespace warpscope;
using warpscope::app::MainWindow;
using warpscope::gui_test::fieldOf;
using warpscope::viz::ValidatedField;

namespace {

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
        QTest::qWaitForWindowExposed(&window);
    }
    MainWindow window{{.restoreSettings = false}};
    ValidatedField* block() { return fieldOf(&window, "launchBlock"); }
    ValidatedField* grid() { return fieldOf(&window, "launchGrid"); }
    // The block size every view of the window works with: the launch's, the hierarchy's and the explorer's.
    QString blocks()
    {
        return QStringLiteral("launch %1, hierarchy %2, explorer %3")
            .arg(window.launchShape().block.x)
            .arg(window.hierarchyScene()->launchShape().block.x)
            .arg(window.occupancyPanel()->inputs().threadsPerBlock);
    }
    // The block the window opened with (the first lesson's figure may set it): never one typed here.
    int startBlock()
    {
        const int block = static_cast<int>(window.launchShape().block.x);
        if (block == 2 || block == 20 || block == 200 || block == 512 || block == 256 || block == 160)
            qFatal("the window opened with block %d, which the tests type", block);
        return block;
    }
    bool allShowBlock(int threads) { return blocks() == QStringLiteral("launch %1, hierarchy %1, explorer %1").arg(threads); }
};

// Starts typing over the field's text, as a user who selects it all does.
QLineEdit* startTyping(ValidatedField* field)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    return edit;
}

} // namespace

class ApplyOnEnterTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // 2, 20, 200 and 2000 typed into the launch bar's block: none is applied on the way (200 is a valid
    // block, and would have been); 2000 is marked at once; the views keep the block they had.
    void typingTheBlockNeverAppliesAPrefix()
    {
        ShownWindow shown;
        const int start = shown.startBlock();
        QVERIFY2(shown.allShowBlock(start), qPrintable(shown.blocks()));
        QLineEdit* edit = startTyping(shown.block());
        for (const QChar key : QStringLiteral("2000")) {
            QTest::keyClicks(edit, QString(key));
            QVERIFY2(shown.allShowBlock(start), qPrintable(edit->text() + QStringLiteral(": ") + shown.blocks()));
        }
        QCOMPARE(shown.block()->errorText(), QStringLiteral("block: 2000 is out of range (allowed: 1..1024)"));
        auto* stale = shown.window.findChild<QLabel*>(QStringLiteral("launchStale"));
        QVERIFY2(stale->text().startsWith(shown.block()->errorText()), qPrintable(stale->text()));
        // Even a pause or Enter applies nothing invalid.
        QTest::keyClick(edit, Qt::Key_Return);
        QTest::qWait(ValidatedField::kApplyPauseMs + 200);
        QVERIFY2(shown.allShowBlock(shown.startBlock()), qPrintable(shown.blocks()));
    }

    // 100000,7000 typed into the grid: "100000,7" is a valid grid, and is never applied on the way;
    // the row under the bar follows each key while a field is bad.
    void typingTheGridNeverAppliesAPrefix()
    {
        ShownWindow shown;
        const launch::Dim3 start = shown.window.launchShape().grid;
        QLineEdit* edit = startTyping(shown.grid());
        auto* stale = shown.window.findChild<QLabel*>(QStringLiteral("launchStale"));
        for (const QChar key : QStringLiteral("100000,7000")) {
            QTest::keyClicks(edit, QString(key));
            QVERIFY2(shown.window.launchShape().grid == start, qPrintable(edit->text()));
            if (edit->text().endsWith(QLatin1Char(',')))
                QVERIFY2(stale->isVisible() && stale->text().startsWith(shown.grid()->errorText()), qPrintable(stale->text()));
        }
        QVERIFY(stale->isHidden());
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(shown.window.launchShape().grid, (launch::Dim3{100000, 7000, 1}));
    }

    // 512 typed: nothing until Enter; Enter applies it to every view, once (one undo step).
    void enterApplies()
    {
        ShownWindow shown;
        const int steps = shown.window.inputHistory()->stack()->count();
        QLineEdit* edit = startTyping(shown.block());
        QTest::keyClicks(edit, QStringLiteral("512"));
        QVERIFY(shown.block()->hasPendingEdit());
        QVERIFY2(shown.allShowBlock(shown.startBlock()), qPrintable(shown.blocks()));
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(!shown.block()->hasPendingEdit());
        QVERIFY(shown.allShowBlock(512));
        QCOMPARE(shown.window.inputHistory()->stack()->count(), steps + 1);
    }

    // 256 typed and left alone: applied once typing has paused for kApplyPauseMs, not before.
    void aPauseApplies()
    {
        ShownWindow shown;
        QElapsedTimer clock;
        QLineEdit* edit = startTyping(shown.block());
        QTest::keyClicks(edit, QStringLiteral("256"));
        clock.start();
        QVERIFY2(shown.allShowBlock(shown.startBlock()), qPrintable(shown.blocks()));
        QTRY_VERIFY_WITH_TIMEOUT(shown.allShowBlock(256), 5000);
        QVERIFY2(clock.elapsed() >= ValidatedField::kApplyPauseMs - 50, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!shown.block()->hasPendingEdit());
    }

    // 160 typed, then Tab to the next field: applied on leaving the field.
    void leavingTheFieldApplies()
    {
        ShownWindow shown;
        QLineEdit* edit = startTyping(shown.block());
        QTest::keyClicks(edit, QStringLiteral("160"));
        QVERIFY2(shown.allShowBlock(shown.startBlock()), qPrintable(shown.blocks()));
        shown.grid()->lineEdit()->setFocus(Qt::TabFocusReason);
        QVERIFY2(shown.allShowBlock(160), qPrintable(shown.blocks()));
    }

    // The explorer's own block field: the same, and the window's launch follows only on Enter.
    void theExplorerAppliesOnEnterToo()
    {
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.window.occupancyPanel();
        ValidatedField* block = fieldOf(panel, "occupancyBlock");
        const int blockBefore = panel->inputs().threadsPerBlock;
        QVERIFY(blockBefore != 6 && blockBefore != 64);
        const int blocksBefore = panel->result()->activeBlocksPerSm;
        QLineEdit* edit = startTyping(block);
        QTest::keyClicks(edit, QStringLiteral("64"));
        QCOMPARE(panel->inputs().threadsPerBlock, blockBefore);
        QCOMPARE(panel->result()->activeBlocksPerSm, blocksBefore);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel->inputs().threadsPerBlock, 64);
        QCOMPARE(panel->result()->input.threadsPerBlock, 64);
    }

    // Text the program sets (a link, Undo) still applies at once.
    void textSetByTheProgramAppliesAtOnce()
    {
        viz::StreamsPanel panel;
        panel.field("chunks")->setTextAsTyped(QStringLiteral("8"));
        QCOMPARE(panel.settings().chunks, 8);
        QVERIFY(!panel.field("chunks")->hasPendingEdit());
    }

    // The Streams row is rebuilt from the fields' text at every key: "-" then "-1" says "-1 is out of
    // range", not the "'-' is not a number" of the key before; fixing it hides the row at once, and the
    // figure follows on Enter.
    void theStreamsRowFollowsTheField()
    {
        viz::StreamsPanel panel;
        panel.resize(900, 700);
        panel.show();
        auto* row = panel.findChild<QLabel*>(QStringLiteral("streamsStale"));
        QLineEdit* edit = startTyping(panel.field("h2d"));
        QTest::keyClicks(edit, QStringLiteral("-"));
        const QString range = QStringLiteral("(allowed: 0 to 1e6 ms, a decimal such as 2.5)");
        QVERIFY2(row->text().startsWith(QStringLiteral("h2d: '-' is not a number ") + range), qPrintable(row->text()));
        QTest::keyClicks(edit, QStringLiteral("1"));
        QVERIFY2(row->text().startsWith(QStringLiteral("h2d: -1 is out of range ") + range), qPrintable(row->text()));
        QVERIFY2(!row->text().contains(QStringLiteral("'-'")), qPrintable(row->text()));
        QCOMPARE(row->text(), panel.field("h2d")->errorText() + QStringLiteral("\n") +
                                  QStringLiteral("Not applied: the figure shows the last valid inputs (4, 6, 4 ms, 4 chunks, 2 copy engines)."));
        QVERIFY(panel.stale());
        // A rule across fields is said at once as well: h2d, kernel and d2h all 0.
        panel.field("kernel")->setTextAsTyped(QStringLiteral("0"));
        panel.field("d2h")->setTextAsTyped(QStringLiteral("0"));
        QCOMPARE(panel.settings().kernelMs, 6.0); // h2d is still marked: nothing applied
        edit = startTyping(panel.field("h2d"));
        QTest::keyClicks(edit, QStringLiteral("0"));
        QVERIFY2(row->text().startsWith(QStringLiteral("h2d, kernel and d2h are all 0 (allowed: at least one above 0 ms)")),
                 qPrintable(row->text()));
        // 3 ms: valid, the row goes at once; the figure still shows 4 ms until Enter.
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, QStringLiteral("3"));
        QVERIFY(!panel.stale());
        QVERIFY(!row->isVisibleTo(&panel));
        QCOMPARE(panel.settings().hostToDeviceMs, 4.0);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel.settings().hostToDeviceMs, 3.0);
        QCOMPARE(panel.settings().kernelMs, 0.0);
    }

    // One mistake, one wording: "WHAT: 'x' is not KIND (allowed: RANGE)" and "WHAT: -5 is out of range
    // (allowed: RANGE)" (a number, below the range) in the launch bar, the explorer, the models and the
    // precision lab.
    void oneMistakeReadsTheSameInEveryView()
    {
        ShownWindow shown;
        viz::StreamsPanel streams;
        viz::PipelinePanel pipeline;
        viz::MemoryBudgetPanel budget;
        viz::QuantPanel quant;
        viz::AmpPanel amp;
        const std::vector<std::pair<ValidatedField*, QString>> fields = {
            {shown.block(), QStringLiteral("block")},
            {fieldOf(shown.window.occupancyPanel(), "occupancyRegisters"), QStringLiteral("registers per thread")},
            {streams.field("chunks"), QStringLiteral("chunks")},
            {streams.field("h2d"), QStringLiteral("h2d")},
            {pipeline.field("stages"), QStringLiteral("stages")},
            {fieldOf(&budget, "memoryBudgetGpus"), QStringLiteral("gpus")},
            {fieldOf(&budget, "memoryBudgetParams"), QStringLiteral("params")},
            {fieldOf(&quant, "quantCount"), QStringLiteral("n")},
            {fieldOf(&amp, "ampSteps"), QStringLiteral("steps")},
            {fieldOf(&amp, "ampScale"), QStringLiteral("static scale")},
        };
        const QRegularExpression notAValue(QStringLiteral("^(.+): 'x' is not (an integer|a number) \\(allowed: .+\\)$"));
        const QRegularExpression outOfRange(QStringLiteral("^(.+): -5 is out of range \\(allowed: .+\\)$"));
        for (const auto& [field, what] : fields) {
            field->setTextAsTyped(QStringLiteral("x"));
            QRegularExpressionMatch match = notAValue.match(field->errorText());
            QVERIFY2(match.hasMatch(), qPrintable(field->errorText()));
            QCOMPARE(match.captured(1), what);
            field->setTextAsTyped(QStringLiteral("-5"));
            match = outOfRange.match(field->errorText());
            QVERIFY2(match.hasMatch(), qPrintable(field->errorText()));
            QCOMPARE(match.captured(1), what);
        }
    }
};

QTEST_MAIN(ApplyOnEnterTest)
#include "apply_on_enter_test.moc"
