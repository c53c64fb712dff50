// Undo and redo of the launch and the occupancy explorer's inputs (issue 14, section 4): Ctrl+Z and
// Ctrl+Shift+Z from inside the fields restore a launch and the explorer's inputs together, with every
// figure; typing into one field is one step; a link is one step; Undo first takes back typing that
// was never applied; a new change after an undo drops the redo.
#include "gui_test_support.h"
#include "common/validated_field.h"
#include "hierarchy/hierarchy_scene.h"
#include "occupancy/occupancy.h"
#include "occupancy/occupancy_panel.h"
#include "placement/placement_scene.h"
#include "window/application_setup.h"
#include "window/input_history.h"
#include "window/main_window.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>
#include <QUrl>

using namespace warpscope;
using warpscope::app::MainWindow;
using warpscope::gui_test::fieldOf;
using warpscope::viz::ValidatedField;

namespace {

// Types `text` key by key, as a user does, and presses Enter: the value is applied once, on Enter.
void keyInto(ValidatedField* field, const QString& text)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

void undoKey(QWidget* where) { QTest::keyClick(where, Qt::Key_Z, Qt::ControlModifier); }
void redoKey(QWidget* where) { QTest::keyClick(where, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); }

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
        QTest::qWaitForWindowExposed(&window);
    }
    MainWindow window{{.restoreSettings = false}};
    ValidatedField* grid() { return fieldOf(&window, "launchGrid"); }
    ValidatedField* block() { return fieldOf(&window, "launchBlock"); }
    QUndoStack* stack() { return window.inputHistory()->stack(); }
};

} // namespace

class UndoTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // The window opens with grid 4,2 and block 96 and nothing to undo.
    void startsWithNothingToUndo()
    {
        ShownWindow shown;
        QCOMPARE(shown.window.launchShape(), (launch::LaunchShape{{4, 2, 1}, {96, 1, 1}}));
        QCOMPARE(shown.stack()->count(), 0);
        QVERIFY(!shown.window.undoAction()->isEnabled());
        QVERIFY(!shown.window.redoAction()->isEnabled());
    }

    // Grid 8,2 then block 128 typed into the launch bar; Ctrl+Z twice from the block field goes back
    // through both, the explorer and the figures with them; Ctrl+Shift+Z comes forward again.
    void undoAndRedoRestoreALaunch()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        const launch::LaunchShape start{{4, 2, 1}, {96, 1, 1}};
        const launch::LaunchShape wider{{8, 2, 1}, {96, 1, 1}};
        const launch::LaunchShape bigger{{8, 2, 1}, {128, 1, 1}};
        keyInto(shown.grid(), QStringLiteral("8,2"));
        QCOMPARE(window.launchShape(), wider);
        keyInto(shown.block(), QStringLiteral("128"));
        QCOMPARE(window.launchShape(), bigger);
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 128);
        QCOMPARE(shown.stack()->count(), 2); // "8,2" and "128" typed key by key: one step each
        QCOMPARE(shown.stack()->undoText(), QStringLiteral("Block 96 \u2192 128"));
        QCOMPARE(window.undoAction()->text(), QStringLiteral("&Undo Block 96 \u2192 128"));

        undoKey(shown.block()->lineEdit());
        QCOMPARE(window.launchShape(), wider);
        QCOMPARE(shown.block()->text(), QStringLiteral("96"));
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 96);
        QCOMPARE(window.hierarchyScene()->launchShape(), wider);
        // The placement view follows: 16 blocks of 96 threads on H100 (sm_90, 132 SMs): one wave.
        QCOMPARE(window.placementScene()->plan().waves, 1);
        undoKey(shown.block()->lineEdit());
        QCOMPARE(window.launchShape(), start);
        QCOMPARE(shown.grid()->text(), QStringLiteral("4,2"));
        QCOMPARE(window.hierarchyScene()->launchShape(), start);
        QVERIFY(!window.undoAction()->isEnabled());

        redoKey(shown.grid()->lineEdit());
        QCOMPARE(window.launchShape(), wider);
        redoKey(shown.grid()->lineEdit());
        QCOMPARE(window.launchShape(), bigger);
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 128);
        QVERIFY(!window.redoAction()->isEnabled());
        QCOMPARE(shown.stack()->count(), 2); // undo and redo add no steps
    }

    // The explorer's registers and GPU, undone in reverse order; the result is the engine's for the
    // restored inputs.
    void undoRestoresTheExplorersInputs()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        window.focusOccupancy();
        viz::OccupancyPanel* panel = window.occupancyPanel();
        const QString arch = panel->arch();
        const occupancy::OccupancyInput before = panel->inputs();
        ValidatedField* registers = fieldOf(panel, "occupancyRegisters");
        keyInto(registers, QStringLiteral("64"));
        QCOMPARE(panel->inputs().registersPerThread, 64);
        auto* preset = panel->findChild<QComboBox*>();
        QVERIFY(preset != nullptr);
        preset->setCurrentIndex(preset->findData(QStringLiteral("sm_80")));
        QCOMPARE(panel->arch(), QStringLiteral("sm_80"));
        // Another GPU with the same fields is computed again (it was not, while the fields were unchanged).
        const auto a100 = gpu::findPreset("sm_80");
        QVERIFY(a100.has_value());
        QCOMPARE(panel->result()->arch, std::string("sm_80"));
        QCOMPARE(panel->result()->activeWarpsPerSm, occupancy::computeOccupancy(*a100, panel->inputs()).activeWarpsPerSm);
        QCOMPARE(shown.stack()->count(), 2);
        QCOMPARE(shown.stack()->undoText(), QStringLiteral("GPU %1 \u2192 sm_80").arg(arch));

        undoKey(registers->lineEdit());
        QCOMPARE(panel->arch(), arch);
        QCOMPARE(panel->inputs().registersPerThread, 64);
        QCOMPARE(preset->currentData().toString(), arch);
        undoKey(registers->lineEdit());
        QCOMPARE(panel->inputs(), before);
        QCOMPARE(registers->text(), QString::number(before.registersPerThread));
        const auto h100 = gpu::findPreset(arch.toStdString());
        QVERIFY(h100.has_value());
        QCOMPARE(panel->result()->activeBlocksPerSm, occupancy::computeOccupancy(*h100, before).activeBlocksPerSm);
        QCOMPARE(panel->result()->input, before);
    }

    // Typing 2, 25, 256 into Block and Enter is one step, named by where it started and ended.
    void typingIntoOneFieldIsOneStep()
    {
        ShownWindow shown;
        keyInto(shown.block(), QStringLiteral("256"));
        QCOMPARE(shown.window.launchShape().block, (launch::Dim3{256, 1, 1}));
        QCOMPARE(shown.stack()->count(), 1);
        QCOMPARE(shown.stack()->undoText(), QStringLiteral("Block 96 \u2192 256"));
        // Moving to another field and back starts a new step.
        shown.grid()->lineEdit()->setFocus();
        keyInto(shown.block(), QStringLiteral("64"));
        QCOMPARE(shown.stack()->count(), 2);
        undoKey(shown.block()->lineEdit());
        QCOMPARE(shown.window.launchShape().block, (launch::Dim3{256, 1, 1}));
        undoKey(shown.block()->lineEdit());
        QCOMPARE(shown.window.launchShape().block, (launch::Dim3{96, 1, 1}));
    }

    // An invalid value was never applied: Undo first puts the shown inputs back in the field, without
    // moving through the steps.
    void undoTakesBackTypingThatWasNotApplied()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        keyInto(shown.block(), QStringLiteral("128"));
        QCOMPARE(shown.stack()->count(), 1);
        shown.block()->lineEdit()->selectAll();
        shown.block()->lineEdit()->insert(QStringLiteral("4096"));
        QVERIFY(!shown.block()->valid());
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("launchStale"))->isVisibleTo(&window));
        QVERIFY(window.undoAction()->text().startsWith(QStringLiteral("&Undo Typing")));
        undoKey(shown.block()->lineEdit());
        QVERIFY(shown.block()->valid());
        QCOMPARE(shown.block()->text(), QStringLiteral("128"));
        QVERIFY(!window.findChild<QLabel*>(QStringLiteral("launchStale"))->isVisibleTo(&window));
        QCOMPARE(shown.stack()->index(), 1); // the step is still there to undo
        undoKey(shown.block()->lineEdit());
        QCOMPARE(window.launchShape().block, (launch::Dim3{96, 1, 1}));
    }

    // A link is one step, and a change after an undo drops what could be redone.
    void aLinkIsOneStepAndANewChangeDropsTheRedo()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:occupancy?arch=sm_80&block=256&regs=40"))).has_value());
        QCOMPARE(shown.stack()->count(), 1);
        QVERIFY(shown.stack()->undoText().startsWith(QStringLiteral("Link: ")));
        window.undoInputs();
        QCOMPARE(window.occupancyPanel()->arch(), QStringLiteral("sm_90"));
        QCOMPARE(window.launchShape().block, (launch::Dim3{96, 1, 1}));
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, 32);
        QVERIFY(window.redoAction()->isEnabled());
        keyInto(shown.grid(), QStringLiteral("3"));
        QVERIFY(!window.redoAction()->isEnabled());
        QCOMPARE(shown.stack()->count(), 1);
    }

    // What a step is called, from the snapshots alone.
    void stepsAreNamedByWhatChanged()
    {
        app::InputSnapshot a{{{4, 2, 1}, {96, 1, 1}}, QStringLiteral("sm_90"), {}};
        a.explorer.threadsPerBlock = 96;
        app::InputSnapshot b = a;
        b.explorer.staticSharedBytes = 16 * 1024;
        QCOMPARE(app::describeInputChange(a, b), QStringLiteral("Static shared 0 B \u2192 16 KB"));
        b.explorer.carveoutPercent = 50;
        QCOMPARE(app::describeInputChange(a, b), QStringLiteral("Static shared, Carveout"));
        app::InputSnapshot c = a;
        c.launch.block = {16, 16, 1};
        c.explorer.threadsPerBlock = 256;
        QCOMPARE(app::describeInputChange(a, c), QStringLiteral("Block 96 \u2192 16,16"));
    }
};

QTEST_MAIN(UndoTest)
#include "undo_test.moc"
