// The Execution view's SASS (issue 29, section 2), in the real window: the pane beside the CUDA and
// PTX listings is shut at first and compiles nothing; its switch opens it with the stepped launch's
// SASS for the GPU the launch ran on; stepping moves the highlight to the current line's
// instructions; and the heat column's "SASS" entry colours each line by its SASS instructions.
// Skipped, saying why, where nvdisasm is not installed.
#include "execution_test_support.h"

#include "execution/code_view.h"
#include "execution/execution_panel.h"
#include "execution/sass_pane.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <map>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

bool waitForSass(viz::SassPane& pane)
{
    QSignalSpy ready(&pane, &viz::SassPane::ready);
    return ready.wait(60000) || (!pane.busy() && ready.count() > 0);
}

} // namespace

class ExecutionSassTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // matmul_tiled stepped to its inner product (matmul.cu line 45): the SASS switch opens the pane
    // with sm_90's code (the H100 preset the launch ran on), ptxas's 2,048 B of tiles above it, and
    // exactly that line's instructions highlighted: the pane's rows whose line is 45.
    void theSwitchShowsTheSteppedLaunchsSass()
    {
        if (!ptx::findNvdisasm())
            QSKIP(ptx::nvdisasmMissingMessage().c_str());
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_tiled&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        viz::SassPane* pane = panel.sassPane();
        QVERIFY(pane);
        QVERIFY(!panel.sassToggle()->isChecked());
        QVERIFY(pane->isHidden());
        QCOMPARE(pane->instructionCount(), 0); // nothing compiled while nobody looks

        panel.sassToggle()->click();
        QVERIFY(!pane->isHidden());
        QVERIFY(waitForSass(*pane));
        QVERIFY2(pane->message().isEmpty(), qPrintable(pane->message()));
        QCOMPARE(pane->arch(), QStringLiteral("sm_90"));
        QVERIFY2(pane->summary().contains(QStringLiteral("2048 B static shared")), qPrintable(pane->summary()));

        // Step until the stepper stands on line 45; the pane highlights that line's rows, no others.
        const viz::Stepper& stepper = *panel.stepper();
        for (int i = 0; i < 400 && stepper.currentLine() != 45; ++i)
            press(panel, Qt::Key_F10);
        QCOMPARE(stepper.currentLine(), 45);
        QCOMPARE(pane->currentLine(), 45);
        const std::vector<int> rows = pane->highlightedRows();
        QVERIFY(!rows.empty());
        const std::map<int, ptx::SassLineCounts>& counts = pane->countsByLine();
        QVERIFY(counts.contains(45));
        QCOMPARE(static_cast<int>(rows.size()), counts.at(45).instructions);
    }

    // The heat column's SASS entry: line 45 (36 instructions: 4 LDS.128, 16 LDS, 16 FFMA) is the
    // hottest line, and its tooltip names the count and the GPU.
    void theHeatColumnCountsSassPerLine()
    {
        if (!ptx::findNvdisasm())
            QSKIP(ptx::nvdisasmMissingMessage().c_str());
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_tiled&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        QComboBox* menu = nullptr;
        for (QComboBox* box : panel.findChildren<QComboBox*>())
            if (box->findText(QStringLiteral("Heat: SASS")) >= 0)
                menu = box;
        QVERIFY(menu);
        QSignalSpy ready(panel.sassPane(), &viz::SassPane::ready);
        menu->setCurrentIndex(menu->findText(QStringLiteral("Heat: SASS")));
        QVERIFY(ready.wait(60000) || ready.count() > 0);
        QTest::qWait(20);
        const std::map<int, ptx::SassLineCounts>& counts = panel.sassPane()->countsByLine();
        QVERIFY(counts.contains(45));
        int hottest = 0;
        int most = 0;
        for (const auto& [line, count] : counts)
            if (count.instructions > most) {
                most = count.instructions;
                hottest = line;
            }
        QCOMPARE(hottest, 45);
        const viz::CodeView::LineHeat line45 = panel.sourceView()->heatAt(45);
        QCOMPARE(line45.value, 1.0);
        QVERIFY2(line45.tooltip.contains(QStringLiteral("%1 SASS instructions for sm_90").arg(most)), qPrintable(line45.tooltip));
        QVERIFY2(line45.tooltip.contains(QStringLiteral("4 of 128 bits")), qPrintable(line45.tooltip));
    }
};

QTEST_MAIN(ExecutionSassTest)
#include "execution_sass_test.moc"
