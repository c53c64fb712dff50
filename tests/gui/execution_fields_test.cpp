// The Execution view's launch fields apply one way, as every view's do (issue 27, section 7): each
// key is checked and marked at once, but the launch is recorded only on Enter, on leaving a field or
// after a pause, so typing 2000 into Block never first records blocks of 200; the row under the
// fields is rebuilt from the fields as they read now; and a mistake reads as the launch bar words it.
#include "execution_test_support.h"
#include "gui_test_support.h"

#include "common/validated_field.h"
#include "demo_kernels.h"
#include "execution/execution_panel.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace warpscope;
using namespace warpscope::testing_support;
using warpscope::gui_test::fieldOf;
using warpscope::viz::ValidatedField;

namespace {

// About 200 ms a key, as a person types: well inside the pause that applies.
constexpr int kKeyGapMs = 150;
static_assert(kKeyGapMs * 2 < ValidatedField::kApplyPauseMs);

QLineEdit* startTyping(ValidatedField* field)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    return edit;
}

// What the launch bar (the hierarchy's and placement's launch) says of `text` typed in its field.
QString launchBarError(app::MainWindow& window, const char* name, const QString& text)
{
    ValidatedField* field = fieldOf(&window, name);
    const QString before = field->text();
    field->setText(text); // checked, not applied
    const QString error = field->errorText();
    field->setText(before);
    return error;
}

} // namespace

class ExecutionFieldsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // hazard_out_of_bounds recorded with blocks of 256; 2000 typed key by key at a steady pace: no
    // key records anything (200 would have been a valid block), 2000 is marked and said under the
    // fields in the launch bar's words, and Enter records nothing but says why. Backspace makes it
    // 200: the row goes at once, and Enter records blocks of 200.
    void typingTheBlockNeverRecordsAPrefix()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{256});
        ValidatedField* block = fieldOf(&panel, "executionBlock");
        QLabel* row = panel.launchFieldErrors();
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        QLineEdit* edit = startTyping(block);
        for (const QChar key : QStringLiteral("2000")) {
            QTest::keyClicks(edit, QString(key));
            QTest::qWait(kKeyGapMs);
            QVERIFY2(!panel.busy() && finished.isEmpty(), qPrintable(edit->text()));
            QCOMPARE(panel.stepper()->run().block.x, std::int64_t{256});
        }
        const QString expected = QStringLiteral("block: 2000 is out of range (allowed: 1..1024)");
        QCOMPARE(block->errorText(), expected);
        QCOMPARE(block->errorText(), launchBarError(shown.window, "launchBlock", QStringLiteral("2000")));
        QVERIFY(row->isVisible());
        QCOMPARE(row->text(), expected + QStringLiteral("\nNot recorded: the stepper shows the launch it recorded last, "
                                                        "grid 4 × block 256, block (0, 0, 0)."));
        // Enter and a pause record nothing invalid; Enter says so.
        QTest::keyClick(edit, Qt::Key_Return);
        QTest::qWait(ValidatedField::kApplyPauseMs + 200);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(panel.statusText(), QStringLiteral("Not run: ") + expected);
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{256});
        // One key later the row and the status line follow the text as it reads now.
        QTest::keyClick(edit, Qt::Key_Backspace);
        QVERIFY(row->isHidden());
        QVERIFY2(!panel.statusText().contains(QStringLiteral("2000")), qPrintable(panel.statusText()));
        QVERIFY(!panel.busy());
        finished.clear();
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY2(finished.first().first().toBool(), qPrintable(panel.lastError()));
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{200});
        QCOMPARE(panel.stepper()->run().grid.x, std::int64_t{4}); // cdiv(1000, 256), the kernel's grid
        QTest::qWait(ValidatedField::kApplyPauseMs + 200);
        QCOMPARE(finished.count(), 1); // Enter applied and ran once
    }

    // A pause in typing records the launch, once; so does leaving the field.
    void aPauseOrLeavingTheFieldRecords()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        QLineEdit* edit = startTyping(fieldOf(&panel, "executionBlock"));
        QTest::keyClicks(edit, QStringLiteral("128"));
        QTest::qWait(ValidatedField::kApplyPauseMs / 2);
        QVERIFY(!panel.busy() && finished.isEmpty());
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{128});
        QCOMPARE(panel.stepper()->run().grid.x, std::int64_t{4});
        // The block index, then on to another field.
        finished.clear();
        edit = startTyping(fieldOf(&panel, "executionBlockIndex"));
        QTest::keyClicks(edit, QStringLiteral("2"));
        QVERIFY(!panel.busy());
        fieldOf(&panel, "executionGrid")->lineEdit()->setFocus(Qt::TabFocusReason);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().blockIndex, (launch::Dim3{2, 0, 0}));
        QTest::qWait(ValidatedField::kApplyPauseMs + 200);
        QCOMPARE(finished.count(), 1);
    }

    // A value typed, then the Run button pressed: leaving the field applies the value and records
    // the launch; the click that follows a moment later does not start it again while it works
    // (which cancelled the first and said "Cancelled.").
    void typingThenPressingRunRecordsOnce()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_out_of_bounds&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        QPushButton* runButton = nullptr;
        for (QPushButton* button : panel.findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("&Run"))
                runButton = button;
        QVERIFY(runButton);
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        QLineEdit* edit = startTyping(fieldOf(&panel, "executionBlock"));
        QTest::keyClicks(edit, QStringLiteral("64"));
        runButton->setFocus(Qt::MouseFocusReason); // what pressing the button does first
        QTest::qWait(50);
        QVERIFY(panel.busy() || !finished.isEmpty()); // the field applied on leaving it
        runButton->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && !finished.isEmpty(), kRunTimeoutMs);
        QTest::qWait(300);
        // Once while the first still works; a second time only if it had finished already.
        QVERIFY(finished.count() <= 2);
        for (const QList<QVariant>& delivered : finished)
            QVERIFY2(delivered.first().toBool(), qPrintable(panel.lastError())); // none was cancelled
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{64});
        QVERIFY(!panel.statusText().contains(QStringLiteral("Cancelled")));
    }

    // The row under the fields follows the fields as they read now, a field that depends on another
    // included: n = 0 makes the grid cdiv(n,256) = 0 blocks without the grid being touched.
    void theRowIsRebuiltFromTheFields()
    {
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("hazard_out_of_bounds")));
        ValidatedField* args = fieldOf(&panel, "executionArgs");
        ValidatedField* grid = fieldOf(&panel, "executionGrid");
        QLabel* row = panel.launchFieldErrors();
        QVERIFY(row->isHidden());
        QLineEdit* edit = startTyping(args);
        const QString typed = QStringLiteral("n=i32:0");
        for (int i = 1; i <= typed.size(); ++i) {
            QTest::keyClicks(edit, typed.mid(i - 1, 1));
            QStringList lines;
            for (const char* name : {"executionArgs", "executionGrid", "executionBlock", "executionBlockIndex"})
                if (!fieldOf(&panel, name)->valid())
                    lines << fieldOf(&panel, name)->errorText();
            QCOMPARE(row->text(), lines.join(QLatin1Char('\n')));
            QCOMPARE(row->isVisible(), !lines.isEmpty());
        }
        QVERIFY(args->valid());
        QCOMPARE(grid->text(), QStringLiteral("cdiv(n,256)"));
        QCOMPARE(grid->errorText(), QStringLiteral("grid: cdiv(n,256) = 0 is out of range (allowed: 1..2147483647)"));
        QCOMPARE(row->text(), grid->errorText());
        // "n=i32:1" : one block, so block index 0 is fine, and the row goes.
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, QStringLiteral("1"));
        QVERIFY(grid->valid());
        QVERIFY(row->isHidden());
        // A name the kernel does not have, in the list's words.
        args->setText(QStringLiteral("k=i32:4"));
        QCOMPARE(args->errorText(), QStringLiteral("args: 'k' is not an argument of hazard_out_of_bounds (allowed: a, b, c, n)"));
        QCOMPARE(row->text(), args->errorText());
    }

    // The same mistake in the launch bar and here reads the same: a number out of range, below it,
    // a grid's y past 65,535, and a word that is not a number (here the field also takes expressions).
    void oneMistakeReadsAsTheLaunchBarSaysIt()
    {
        ShownWindow shown;
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("hazard_out_of_bounds")));
        ValidatedField* block = fieldOf(&panel, "executionBlock");
        ValidatedField* grid = fieldOf(&panel, "executionGrid");
        for (const QString text : {QStringLiteral("2000"), QStringLiteral("-5"), QStringLiteral("0"), QStringLiteral("64,64")}) {
            block->setText(text);
            QCOMPARE(block->errorText(), launchBarError(shown.window, "launchBlock", text));
        }
        for (const QString text : {QStringLiteral("100000,70000"), QStringLiteral("-1"), QStringLiteral("1,2,3,4")}) {
            grid->setText(text);
            QCOMPARE(grid->errorText(), launchBarError(shown.window, "launchGrid", text));
        }
        block->setText(QStringLiteral("x"));
        const QString bar = launchBarError(shown.window, "launchBlock", QStringLiteral("x"));
        QCOMPARE(bar, QStringLiteral("block: 'x' is not an integer (allowed: 1..1024)"));
        QCOMPARE(block->errorText(), QStringLiteral("block: 'x' is not an integer (allowed: 1..1024, or an integer expression over n)"));
    }

    // No demo kernel's own launch is marked: the checker reads every shipped manifest as a run does.
    void everyDemoKernelsLaunchIsValid()
    {
        ShownWindow shown;
        viz::ExecutionPanel& panel = *shown.panel();
        for (const kernels::DemoKernel& demo : kernels::demoKernels()) {
            QVERIFY(panel.selectKernel(QString::fromStdString(demo.id)));
            QVERIFY2(panel.launchFieldErrors()->isHidden(),
                     qPrintable(QString::fromStdString(demo.id) + QStringLiteral(": ") + panel.launchFieldErrors()->text()));
        }
        QVERIFY(panel.selectKernel(QStringLiteral("playground")));
        QVERIFY2(panel.launchFieldErrors()->isHidden(), qPrintable(panel.launchFieldErrors()->text()));
    }
};

QTEST_MAIN(ExecutionFieldsTest)
#include "execution_fields_test.moc"
