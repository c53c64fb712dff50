// The stepper's SASS pane (issue 29, section 2), offscreen: matmul_tiled compiled by the real ptxas
// and nvdisasm for the chosen GPU, its instructions under their source lines with the PTX lines of
// each, the current line's instructions highlighted, another GPU recompiled, and without nvdisasm the
// message that says how to get it. Skipped, saying why, where nvdisasm is not installed.
#include "demo_kernels.h"
#include "execution/sass_pane.h"
#include "ptx/sass_tools.h"

#include <QApplication>
#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItem>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <utility>
#include <string>
#include <vector>

using namespace warpscope;

namespace {

QString tiledPtx()
{
    const kernels::DemoKernel* kernel = kernels::findDemoKernel("matmul_tiled");
    return kernel ? QString::fromUtf8(kernel->ptx.data(), static_cast<qsizetype>(kernel->ptx.size())) : QString();
}

bool waitReady(viz::SassPane& pane)
{
    QSignalSpy ready(&pane, &viz::SassPane::ready);
    return ready.wait(60000) || (!pane.busy() && ready.count() > 0);
}

} // namespace

class SassPaneTest : public QObject {
    Q_OBJECT
private slots:
    // matmul.cu line 45, acc += As[ty][k] * Bs[k][tx] for k = 0..15 unrolled: ptxas reads each row of
    // As four floats at a time (4 LDS.128) and Bs one float at a time (16 LDS), with 16 FFMA.
    void theCurrentLinesInstructionsAreHighlighted()
    {
        if (!ptx::findNvdisasm())
            QSKIP(ptx::nvdisasmMissingMessage().c_str());
        viz::SassPane pane;
        pane.resize(700, 500);
        pane.show();
        QCOMPARE(pane.arch(), QStringLiteral("sm_90"));
        pane.setKernel(tiledPtx(), QStringLiteral("matmul_tiled"), QStringLiteral("matmul.ptx"));
        QVERIFY(waitReady(pane));
        QVERIFY2(pane.message().isEmpty(), qPrintable(pane.message()));
        QVERIFY(pane.instructionCount() > 20);
        QVERIFY2(pane.summary().contains(QStringLiteral("2048 B static shared")), qPrintable(pane.summary()));
        QVERIFY2(pane.summary().contains(QStringLiteral("sm_90")), qPrintable(pane.summary()));

        pane.setCurrentLine(45);
        const std::vector<int> rows = pane.highlightedRows();
        int wide = 0, scalar = 0, fmas = 0;
        for (int row = 0; row < pane.list()->topLevelItemCount(); ++row) {
            const QTreeWidgetItem* item = pane.list()->topLevelItem(row);
            const bool onLine = item->text(2).section(' ', 0, 0) == QStringLiteral("45");
            const bool highlighted = std::find(rows.begin(), rows.end(), row) != rows.end();
            QCOMPARE(highlighted, onLine);
            QCOMPARE(item->background(1).style() != Qt::NoBrush, onLine);
            if (!onLine)
                continue;
            const QString sass = item->text(1);
            wide += sass.startsWith(QStringLiteral("LDS.128 "));
            scalar += sass.startsWith(QStringLiteral("LDS "));
            fmas += sass.startsWith(QStringLiteral("FFMA "));
            QVERIFY2(!item->text(3).isEmpty(), "each of line 45's instructions names its PTX lines");
        }
        QCOMPARE(wide, 4);
        QCOMPARE(scalar, 16);
        QCOMPARE(fmas, 16);
        // The pane scrolled to the first of them.
        const QRect first = pane.list()->visualItemRect(pane.list()->topLevelItem(rows.front()));
        QVERIFY(pane.list()->viewport()->rect().intersects(first));
        // The heat column's counts: line 45's 20 shared loads, 4 of 128 bits and 16 of 32.
        const ptx::SassLineCounts counts = pane.countsByLine().at(45);
        QCOMPARE(counts.memoryInstructions, 20);
        QCOMPARE(counts.memoryByWidth.at(128), 4);
        QCOMPARE(counts.memoryByWidth.at(32), 16);

        // A click on one of them names its line; the line moved on clears the old highlight.
        QSignalSpy activated(&pane, &viz::SassPane::lineActivated);
        const QRect rect = pane.list()->visualItemRect(pane.list()->topLevelItem(rows.front()));
        QTest::mouseClick(pane.list()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.front().front().toInt(), 45);
        pane.setCurrentLine(0);
        QVERIFY(pane.highlightedRows().empty());
        QCOMPARE(pane.list()->topLevelItem(rows.front())->background(1).style(), Qt::NoBrush);
    }

    void anotherGpuRecompiles()
    {
        if (!ptx::findNvdisasm())
            QSKIP(ptx::nvdisasmMissingMessage().c_str());
        viz::SassPane pane;
        pane.setKernel(tiledPtx(), QStringLiteral("matmul_tiled"));
        QVERIFY(waitReady(pane));
        auto* arch = pane.findChild<QComboBox*>(QStringLiteral("sassArch"));
        QVERIFY(arch);
        QVERIFY(arch->findData(QStringLiteral("sm_75")) >= 0);
        QVERIFY(arch->findData(QStringLiteral("sm_70")) < 0); // CUDA 13 compiles for sm_75 and newer
        QSignalSpy ready(&pane, &viz::SassPane::ready);
        arch->setCurrentIndex(arch->findData(QStringLiteral("sm_75")));
        QVERIFY(ready.wait(60000));
        QCOMPARE(pane.arch(), QStringLiteral("sm_75"));
        QVERIFY2(pane.summary().contains(QStringLiteral("on sm_75")), qPrintable(pane.summary()));
        QVERIFY(pane.instructionCount() > 20);
    }

    void withoutNvdisasmItSaysHowToGetIt()
    {
        const QByteArray empty = QByteArray(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/warpscope-no-nvdisasm";
        const char* names[] = {"CUDA_HOME", "XDG_DATA_HOME", "PATH"};
        std::vector<std::pair<bool, QByteArray>> saved;
        for (const char* name : names) {
            saved.emplace_back(qEnvironmentVariableIsSet(name), qgetenv(name));
            qputenv(name, empty);
        }
        const auto restore = [&] {
            for (std::size_t i = 0; i < saved.size(); ++i)
                saved[i].first ? qputenv(names[i], saved[i].second) : qunsetenv(names[i]);
        };
        if (ptx::findNvdisasm().has_value()) {
            restore();
            QSKIP("the toolkit this build uses has its own nvdisasm, so it cannot be missing here");
        }
        viz::SassPane pane;
        pane.setKernel(tiledPtx(), QStringLiteral("matmul_tiled"));
        const bool ready = waitReady(pane);
        restore();
        QVERIFY(ready);
        QVERIFY2(pane.message().contains(QStringLiteral("scripts/setup.sh")), qPrintable(pane.message()));
        QVERIFY2(pane.message().contains(QStringLiteral("nvidia-cuda-nvdisasm")), qPrintable(pane.message()));
        QCOMPARE(pane.instructionCount(), 0);
        QVERIFY(pane.list()->isHidden());
    }
};

QTEST_MAIN(SassPaneTest)
#include "sass_pane_test.moc"
