// What ptxas knows, in the window (issue 29, sections 3 and 5): the stepper runs with ptxas's
// registers per thread for the GPU it ran on, says so beside the step, and the occupancy explorer
// describes the stepped kernel with ptxas's registers and static shared memory, labelled as ptxas's
// (or as the user's own once changed). A shuffle that reads lanes not executing it, as in NVIDIA's
// reduce7, says in the hazard list and the status line that a GPU's value depends on ptxas's register
// allocation, and names the SASS SHFL and the register it reads. Skipped where ptxas or nvdisasm is missing.
#include "execution_test_support.h"

#include "execution/execution_panel.h"
#include "execution/stepper.h"
#include "occupancy/occupancy_panel.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"
#include "demo_kernels.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>

#include <fstream>
#include <string>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// ptxas -v's "Used N registers" for `entry`, read here from the tool's own text.
int ptxasRegisters(const std::string& ptx, const std::string& entry)
{
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("k.ptx")).toStdString();
    std::ofstream(file) << ptx;
    const ptx::ToolRun run = ptx::runTool({ptx::findPtxas()->string(), "-arch=sm_90", "-v", file, "-o", "/dev/null"});
    const QString log = QString::fromStdString(run.out + run.err);
    const QRegularExpression used(QStringLiteral("Compiling entry function '%1'[^\\n]*\\n(?:[^\\n]*\\n)*?[^\\n]*Used (\\d+) registers")
                                      .arg(QString::fromStdString(entry)));
    const QRegularExpressionMatch match = used.match(log);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

QString positionText(viz::ExecutionPanel& panel)
{
    for (QLabel* label : panel.findChildren<QLabel*>())
        if (label->text().startsWith(QStringLiteral("step ")))
            return label->text();
    return {};
}

// reduce7's tail (tests/fixtures/kernels/reduce_tail.cu).
QString reduceTail()
{
    QFile file(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/kernels/reduce_tail.cu"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class ExecutionPtxasTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // matmul_2d_blocktile: 256 threads, 8,192 B of tiles, and ptxas's count above 128 registers. By
    // hand for 129..255 registers: 4,352 .. 8,192 per warp, 8 .. 15 warps of 65,536 per SM, one block of
    // 8 warps: 8 of 64, 12.5 % (at the old 32 registers: 100 %).
    void occupancyUsesPtxasRegisters()
    {
        if (!ptx::findPtxas())
            QSKIP(ptx::ptxasMissingMessage().c_str());
        const kernels::DemoKernel& demo = *kernels::findDemoKernel("matmul_2d_blocktile");
        const int registers = ptxasRegisters(std::string(demo.ptx), demo.entry);
        QVERIFY2(registers > 128 && registers <= 255, qPrintable(QString::number(registers)));
        ShownWindow shown(QSize(1280, 800));
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=matmul_2d_blocktile&block=0&warp=0&at=40")));
        viz::ExecutionPanel& panel = *shown.panel();
        const viz::StepperRun& run = panel.stepper()->run();
        QVERIFY2(run.ptxas.has_value(), run.ptxasProblem.c_str());
        QCOMPARE(run.ptxas->registers, registers);
        QCOMPARE(run.registersPerThread, registers);
        QCOMPARE(run.stats.timing.registersPerThread, registers); // the timing model's blocks per SM too
        QVERIFY2(positionText(panel).endsWith(QStringLiteral(" · ptxas: %1 registers, no spills").arg(registers)),
                 qPrintable(positionText(panel)));

        viz::OccupancyPanel& explorer = *shown.window.occupancyPanel();
        QCOMPARE(explorer.arch(), QStringLiteral("sm_90"));
        QCOMPARE(explorer.inputs().registersPerThread, registers);
        QCOMPARE(explorer.inputs().staticSharedBytes, std::size_t{8192});
        QVERIFY(explorer.result().has_value());
        QCOMPARE(explorer.result()->occupancy, 0.125);
        QCOMPARE(explorer.ptxasNote(), QStringLiteral("ptxas's counts for matmul_2d_blocktile on sm_90: %1 registers per "
                                                      "thread (no spills) and 8 KB of static shared memory (ptxas -v).")
                                           .arg(registers));
        // The user's own registers: no longer ptxas's, and it says so.
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:occupancy?regs=64"))));
        QVERIFY2(explorer.ptxasNote().startsWith(QStringLiteral("Not ptxas's counts: for matmul_2d_blocktile on sm_90 ptxas "
                                                                "reports %1 registers").arg(registers)),
                 qPrintable(explorer.ptxasNote()));
    }

    // reduce7's last stage in the playground: lanes 0-7 shuffle down by 16 with member mask 0xff.
    void reduceSevensHazardSaysWhatTheGpuDoesAndShowsTheSass()
    {
        ShownWindow shown(QSize(1280, 800));
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QTemporaryDir dir;
        QVERIFY2(runPlayground(panel, dir.filePath(QStringLiteral("reduce_tail.cu")), reduceTail(),
                               QStringLiteral("in=i32[32]:iota out=i32[1]"), QStringLiteral("1"), QStringLiteral("32"),
                               QStringLiteral("0")),
                 qPrintable(panel.lastError()));
        QTreeWidget* list = panel.hazardList();
        const QTreeWidgetItem* row = nullptr;
        for (int i = 0; i < list->topLevelItemCount() && !row; ++i)
            if (list->topLevelItem(i)->text(0) == QStringLiteral("shfl_inactive_source"))
                row = list->topLevelItem(i);
        QVERIFY(row);
        const QString tip = row->toolTip(0);
        QVERIFY2(tip.contains(QStringLiteral("depends on ptxas's register allocation")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("a GPU may well give the intended result, so a test that passes on one GPU "
                                             "proves nothing")), qPrintable(tip));
        if (!ptx::findNvdisasm())
            QSKIP(ptx::nvdisasmMissingMessage().c_str());
        // The SHFL.DOWN by 16 and the register it reads, as nvdisasm lists the playground's PTX.
        ptx::SassOptions options;
        options.arch = "sm_90";
        const ptx::SassListing listing = ptx::compileSass(panel.stepper()->run().ptxText, options);
        QString shfl;
        for (const ptx::SassInstruction& instruction : listing.findFunction("reduce_tail")->instructions)
            if (instruction.opcode == "SHFL.DOWN" && instruction.operands.find(", 0x10,") != std::string::npos)
                shfl = QString::fromStdString(instruction.text());
        QVERIFY(!shfl.isEmpty());
        const QString source = shfl.section(QStringLiteral(", "), 2, 2);
        QVERIFY2(tip.contains(QStringLiteral("SASS for sm_90: %1").arg(shfl)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("it reads %1 in the source lane").arg(source)), qPrintable(tip));
        // Standing on it (F6), the status line says the same.
        QVERIFY(panel.goToNextHazard(true));
        while (panel.stepper()->currentHazard() &&
               panel.stepper()->currentHazard()->hazard.kind != sim::HazardKind::ShflInactiveSource)
            QVERIFY(panel.goToNextHazard(true));
        QVERIFY(panel.stepper()->currentHazard());
        QVERIFY2(panel.statusText().contains(QStringLiteral("depends on ptxas's register allocation")), qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("<tt>SASS for sm_90: SHFL.DOWN")), qPrintable(panel.statusText()));
    }
};

QTEST_MAIN(ExecutionPtxasTest)
#include "execution_ptxas_test.moc"
