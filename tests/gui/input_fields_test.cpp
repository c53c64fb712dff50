// Every launch and explorer field handles bad input the same way (issue 14, section 2): checked as
// typed and applied on Enter (issue 27, section 7: apply_on_enter_test.cpp has the pause); an out-of-range, garbage or unit value is marked under its own field with that field's range
// in one message style; nothing typed is truncated or rewritten; the figure keeps the last valid
// inputs and says so; two bad fields are both marked; byte fields take the links' units (32K, 1M).
#include "gui_test_support.h"
#include "common/validated_field.h"
#include "occupancy/occupancy_panel.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QUrl>

using namespace warpscope;
using warpscope::app::MainWindow;
using warpscope::gui_test::fieldOf;
using warpscope::viz::ValidatedField;

namespace {

using warpscope::gui_test::saveShot;

// Pastes `text` over the field's text in one edit, as a user pasting does (no valid prefixes on the
// way), and presses Enter, which applies a valid value.
void typeInto(ValidatedField* field, const QString& text)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    if (text.isEmpty())
        QTest::keyClick(edit, Qt::Key_Backspace);
    else
        edit->insert(text);
    QTest::keyClick(edit, Qt::Key_Return);
}

// "what: value is out of range (allowed: a..b)" or "what: 'text' is not ... (... allowed ...)".
const QRegularExpression kMessageStyle(QStringLiteral("^[a-z .+]+: .+ \\(.*allowed: .+\\)$"));

// The field's frame is marked and it has a message (shown under it, or for the launch bar in the row
// under the bar).
bool marked(ValidatedField* field)
{
    return !field->errorText().isEmpty() && field->lineEdit()->styleSheet().contains(QStringLiteral("border"));
}

bool messageUnderField(ValidatedField* field) { return field->messageLabel()->isVisibleTo(field); }

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
        const QString link = QStringLiteral("warpscope:occupancy?arch=sm_90&block=96&regs=32&static_smem=0&dynamic_smem=0"
                                            "&carveout=-1&barriers=1");
        if (window.openLink(QUrl(link)))
            qFatal("link refused");
    }
    MainWindow window{{.restoreSettings = false}};
    viz::OccupancyPanel* panel() { return window.occupancyPanel(); }
};

} // namespace

class InputFieldsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // Each explorer field: out of range and garbage are marked in place with its own range, the text
    // stays as typed, the result keeps the last valid inputs and says so; a valid value clears it all.
    void explorerFieldsMarkBadValuesAndKeepTheFigure_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("registers 300") << "occupancyRegisters" << "300"
                                       << "registers per thread: 300 is out of range (allowed: 1..255)";
        QTest::newRow("registers garbage") << "occupancyRegisters" << "3x"
                                           << "registers per thread: '3x' is not an integer (allowed: 1..255)";
        QTest::newRow("registers empty") << "occupancyRegisters" << ""
                                         << "registers per thread: '' is not an integer (allowed: 1..255)";
        QTest::newRow("block 2000") << "occupancyBlock" << "2000" << "block size: 2000 is out of range (allowed: 1..1024)";
        QTest::newRow("block garbage") << "occupancyBlock" << "abc"
                                       << "block size: 'abc' is not an integer (allowed: 1..1024)";
        QTest::newRow("block 0") << "occupancyBlock" << "0" << "block size: 0 is out of range (allowed: 1..1024)";
        QTest::newRow("block with a unit") << "occupancyBlock" << "1K"
                                           << "block size: '1K' is not an integer (allowed: 1..1024)";
        QTest::newRow("static 64K") << "occupancyStaticShared" << "64K"
                                    << "static shared memory: 64K is out of range (allowed: 0..49152 bytes = 48 KB)";
        QTest::newRow("static garbage") << "occupancyStaticShared" << "lots"
                                        << "static shared memory: 'lots' is not a byte size (bytes, or KiB with a K suffix "
                                           "such as 48K, MiB with M; allowed: 0..49152 bytes = 48 KB)";
        QTest::newRow("dynamic 1M") << "occupancyDynamicShared" << "1M"
                                    << "dynamic shared memory: 1M is out of range (allowed: 0..232448 bytes = 227 KB)";
        QTest::newRow("carveout 150") << "occupancyCarveout" << "150"
                                      << "carveout: 150 is out of range (allowed: default (or -1), 0..100 %)";
        QTest::newRow("barriers 17") << "occupancyBarriers" << "17" << "barriers per block: 17 is out of range (allowed: 0..16)";
    }

    void explorerFieldsMarkBadValuesAndKeepTheFigure()
    {
        QFETCH(QString, field);
        QFETCH(QString, typed);
        QFETCH(QString, message);
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        const auto before = panel->inputs();
        const int blocksBefore = panel->result()->activeBlocksPerSm;
        ValidatedField* target = fieldOf(panel, field.toLatin1().constData());
        const QString textBefore = target->text();

        typeInto(target, typed);
        QCOMPARE(target->text(), typed); // never truncated, clamped or rewritten
        QCOMPARE(target->errorText(), message);
        QVERIFY2(kMessageStyle.match(message).hasMatch(), qPrintable(message));
        QVERIFY(marked(target));
        QVERIFY(messageUnderField(target));
        QCOMPARE(target->messageLabel()->text(), message);
        // The figure stays on the last valid inputs, and says so beside the result.
        QVERIFY(panel->stale());
        QVERIFY(panel->inputs() == before);
        QCOMPARE(panel->result()->activeBlocksPerSm, blocksBefore);
        auto* stale = panel->findChild<QLabel*>(QStringLiteral("occupancyStale"));
        QVERIFY(stale->isVisibleTo(panel));
        QVERIFY2(stale->text().contains(QStringLiteral("last valid inputs (block 96, 32 registers")), qPrintable(stale->text()));
        // The error is beside its field, not in the window's message banner.
        QVERIFY(shown.window.lastMessage().isEmpty());

        typeInto(target, textBefore);
        QVERIFY(!marked(target));
        QVERIFY(!panel->stale());
        QVERIFY(!stale->isVisibleTo(panel));
        QVERIFY(panel->inputs() == before);
    }

    void byteFieldsTakeTheLinksUnits()
    {
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        ValidatedField* staticShared = fieldOf(panel, "occupancyStaticShared");
        ValidatedField* dynamicShared = fieldOf(panel, "occupancyDynamicShared");
        typeInto(staticShared, QStringLiteral("32K"));
        QVERIFY(!marked(staticShared));
        QCOMPARE(panel->inputs().staticSharedBytes, std::size_t{32768});
        QCOMPARE(staticShared->text(), QStringLiteral("32K")); // as typed
        typeInto(staticShared, QStringLiteral("16k"));
        QCOMPARE(panel->inputs().staticSharedBytes, std::size_t{16384});
        typeInto(dynamicShared, QStringLiteral("1536"));
        QCOMPARE(panel->inputs().dynamicSharedBytes, std::size_t{1536});
        // 16 KB + 1.5 KB + 1 KB reserved = 18.5 KB per block on H100: 233472 / 18944 = 12 blocks.
        QCOMPARE(panel->result()->activeBlocksPerSm, 12);
        QVERIFY(!panel->stale());
    }

    void twoBadFieldsAreBothMarked()
    {
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        ValidatedField* registers = fieldOf(panel, "occupancyRegisters");
        ValidatedField* block = fieldOf(panel, "occupancyBlock");
        typeInto(registers, QStringLiteral("300"));
        typeInto(block, QStringLiteral("2000"));
        QVERIFY(marked(registers));
        QVERIFY(marked(block));
        saveShot(shown.window, QStringLiteral("explorer-two-bad-fields"));
        // Fixing one leaves the other marked and the figure stale.
        typeInto(registers, QStringLiteral("40"));
        QVERIFY(!marked(registers));
        QVERIFY(marked(block));
        QVERIFY(panel->stale());
        QCOMPARE(panel->inputs().registersPerThread, 32);
        typeInto(block, QStringLiteral("128"));
        QVERIFY(!panel->stale());
        QCOMPARE(panel->inputs().registersPerThread, 40);
        QCOMPARE(panel->inputs().threadsPerBlock, 128);
    }

    void aRuleAcrossFieldsIsMarkedOnTheField()
    {
        // H100: static 40 KB + dynamic 200 KB = 240 KB, over the 227 KB opt-in limit per block.
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        typeInto(fieldOf(panel, "occupancyStaticShared"), QStringLiteral("40K"));
        ValidatedField* dynamicShared = fieldOf(panel, "occupancyDynamicShared");
        typeInto(dynamicShared, QStringLiteral("200K"));
        QVERIFY(marked(dynamicShared));
        QVERIFY2(dynamicShared->errorText().contains(QStringLiteral("static + dynamic = 245,760 bytes")),
                 qPrintable(dynamicShared->errorText()));
        QVERIFY(panel->stale());
        QCOMPARE(panel->inputs().staticSharedBytes, std::size_t{40960});
        QCOMPARE(panel->inputs().dynamicSharedBytes, std::size_t{0});
        typeInto(dynamicShared, QStringLiteral("100K"));
        QVERIFY(!marked(dynamicShared));
        QVERIFY(!panel->stale());
    }

    void anotherPresetMarksWhatNoLongerFitsInsteadOfClamping()
    {
        // 200 KB of dynamic shared memory fits H100 (227 KB opt-in) but not the RTX 3090 (99 KB).
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        ValidatedField* dynamicShared = fieldOf(panel, "occupancyDynamicShared");
        typeInto(dynamicShared, QStringLiteral("200K"));
        QCOMPARE(panel->inputs().dynamicSharedBytes, std::size_t{204800});
        auto* preset = panel->findChild<QComboBox*>();
        preset->setCurrentIndex(preset->findData(QStringLiteral("sm_86")));
        QCOMPARE(dynamicShared->text(), QStringLiteral("200K"));
        QCOMPARE(dynamicShared->errorText(),
                 QStringLiteral("dynamic shared memory: 200K is out of range (allowed: 0..101376 bytes = 99 KB)"));
        QVERIFY(panel->stale());
        QCOMPARE(panel->arch(), QStringLiteral("sm_86"));
    }

    void typingMarksAtOnceAndAppliesOnEnter()
    {
        // Typing 300 registers key by key: 3 and 30 are valid but not applied (the figure never shows 3
        // registers on the way); 300 is marked at once, and the figure says it still shows 32.
        ShownWindow shown;
        viz::OccupancyPanel* panel = shown.panel();
        ValidatedField* registers = fieldOf(panel, "occupancyRegisters");
        QLineEdit* edit = registers->lineEdit();
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_3);
        QCOMPARE(panel->inputs().registersPerThread, 32);
        QVERIFY(!marked(registers));
        QTest::keyClicks(edit, QStringLiteral("00"));
        QCOMPARE(registers->text(), QStringLiteral("300"));
        QCOMPARE(registers->errorText(), QStringLiteral("registers per thread: 300 is out of range (allowed: 1..255)"));
        QCOMPARE(panel->inputs().registersPerThread, 32);
        QVERIFY(panel->stale());
        auto* stale = panel->findChild<QLabel*>(QStringLiteral("occupancyStale"));
        QVERIFY2(stale->text().contains(QStringLiteral("32 registers")), qPrintable(stale->text()));
        // Back to 30: no longer marked, and the note says so at once; Enter applies it.
        QTest::keyClick(edit, Qt::Key_Backspace);
        QCOMPARE(registers->text(), QStringLiteral("30"));
        QVERIFY(!marked(registers));
        QVERIFY(!panel->stale());
        QCOMPARE(panel->inputs().registersPerThread, 32);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel->inputs().registersPerThread, 30);
        QCOMPARE(panel->result()->input.registersPerThread, 30);
    }

    void stepKeysMoveByTheFieldsStep()
    {
        ShownWindow shown;
        ValidatedField* block = fieldOf(shown.panel(), "occupancyBlock");
        typeInto(block, QStringLiteral("100"));
        QTest::keyClick(block->lineEdit(), Qt::Key_Up);
        QCOMPARE(block->text(), QStringLiteral("128"));
        QTest::keyClick(block->lineEdit(), Qt::Key_Down);
        QCOMPARE(block->text(), QStringLiteral("96"));
        QCOMPARE(shown.panel()->inputs().threadsPerBlock, 96);
    }

    // The launch bar above the canvas: the same behaviour, with each dimension's own range.
    void launchFieldsMarkBadValuesBesideThemselves_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("block 2000") << "launchBlock" << "2000" << "block: 2000 is out of range (allowed: 1..1024)";
        QTest::newRow("block garbage") << "launchBlock" << "abc" << "block: 'abc' is not an integer (allowed: 1..1024)";
        // Garbage in a block component quotes the block's range, not the grid's 2^31 - 1.
        QTest::newRow("block.x garbage") << "launchBlock" << "abc,2" << "block.x: 'abc' is not an integer (allowed: 1..1024)";
        QTest::newRow("block.z 65") << "launchBlock" << "1,1,65" << "block.z: 65 is out of range (allowed: 1..64)";
        QTest::newRow("block too many threads") << "launchBlock" << "64,32"
                                                << "block: 64,32 has 2048 threads (allowed: at most 1024 threads per block)";
        QTest::newRow("grid garbage") << "launchGrid" << "x" << "grid: 'x' is not an integer (allowed: 1..2147483647)";
        QTest::newRow("grid.y 70000") << "launchGrid" << "4,70000" << "grid.y: 70000 is out of range (allowed: 1..65535)";
        QTest::newRow("grid with a unit") << "launchGrid" << "64K" << "grid: '64K' is not an integer (allowed: 1..2147483647)";
    }

    void launchFieldsMarkBadValuesBesideThemselves()
    {
        QFETCH(QString, field);
        QFETCH(QString, typed);
        QFETCH(QString, message);
        ShownWindow shown;
        const launch::LaunchShape before = shown.window.launchShape();
        ValidatedField* target = fieldOf(&shown.window, field.toLatin1().constData());
        const QString textBefore = target->text();
        typeInto(target, typed);
        QCOMPARE(target->text(), typed);
        QCOMPARE(target->errorText(), message);
        QVERIFY2(kMessageStyle.match(message).hasMatch(), qPrintable(message));
        QVERIFY(marked(target));
        QVERIFY(shown.window.launchShape() == before);
        auto* stale = shown.window.findChild<QLabel*>(QStringLiteral("launchStale"));
        QVERIFY(stale->isVisibleTo(&shown.window));
        // The bar's fields are too narrow for a sentence: the row right under the bar has the message.
        QVERIFY2(stale->text().startsWith(message + QLatin1Char('\n')), qPrintable(stale->text()));
        QVERIFY2(stale->text().contains(QStringLiteral("last valid launch, grid %1 × block %2")
                                            .arg(QString::fromStdString(launch::formatDim3(before.grid)),
                                                 QString::fromStdString(launch::formatDim3(before.block)))),
                 qPrintable(stale->text()));
        QVERIFY(shown.window.lastMessage().isEmpty()); // not in the Lessons dock's banner
        typeInto(target, textBefore);
        QVERIFY(!marked(target));
        QVERIFY(!stale->isVisibleTo(&shown.window));
    }

    void launchFieldsApplyAsTypedWhenBothAreValid()
    {
        ShownWindow shown;
        const launch::LaunchShape before = shown.window.launchShape();
        ValidatedField* grid = fieldOf(&shown.window, "launchGrid");
        ValidatedField* block = fieldOf(&shown.window, "launchBlock");
        typeInto(grid, QStringLiteral("4,70000"));
        typeInto(block, QStringLiteral("2000"));
        QVERIFY(marked(grid));
        QVERIFY(marked(block));
        // Both messages, each naming its field and range.
        const QString row = shown.window.findChild<QLabel*>(QStringLiteral("launchStale"))->text();
        QVERIFY2(row.contains(QStringLiteral("grid.y: 70000 is out of range (allowed: 1..65535)")), qPrintable(row));
        QVERIFY2(row.contains(QStringLiteral("block: 2000 is out of range (allowed: 1..1024)")), qPrintable(row));
        saveShot(shown.window, QStringLiteral("launch-two-bad-fields"));
        typeInto(grid, QStringLiteral("8,2"));
        QVERIFY(marked(block));
        QVERIFY(shown.window.launchShape() == before); // the block is still invalid: nothing applied
        typeInto(block, QStringLiteral("16,16"));
        QCOMPARE(shown.window.launchShape().grid, (launch::Dim3{8, 2, 1}));
        QCOMPARE(shown.window.launchShape().block, (launch::Dim3{16, 16, 1}));
        // The explorer follows the launch's block.
        QCOMPARE(shown.panel()->inputs().threadsPerBlock, 256);
    }
};

QTEST_MAIN(InputFieldsTest)
#include "input_fields_test.moc"
