// The Execution view's SASS: the pane beside the CUDA and PTX listings, and the heat column's
// "SASS" entry. ptxas and nvdisasm take about a second, so a run's SASS is compiled only once the
// learner asks for it (the pane's switch or the heat entry), and once per run.
#include "execution/execution_panel.h"

#include "execution/code_view.h"
#include "execution/sass_pane.h"

#include <QComboBox>
#include <QLabel>
#include <QString>
#include <QStringList>
#include <QToolButton>

#include <algorithm>
#include <map>
#include <utility>

namespace warpscope::viz {

void ExecutionPanel::updateSass()
{
    const bool wanted = m_showSass->isChecked() || m_heat->currentIndex() == kSassHeat;
    if (!wanted || !m_stepper || !m_sassStale)
        return;
    m_sassStale = false;
    const StepperRun& run = m_stepper->run();
    // The GPU the launch ran on; the pane's own menu can change it afterwards.
    m_sass->setKernel(QString(), QString());
    m_sass->setArch(QString::fromLatin1(run.preset.arch.data(), static_cast<qsizetype>(run.preset.arch.size())));
    m_sass->setKernel(QString::fromStdString(run.ptxText), run.function ? QString::fromStdString(run.function->name) : QString());
    m_sass->setCurrentLine(m_stepper->currentLine());
}

void ExecutionPanel::showSassHeat()
{
    const std::map<int, ptx::SassLineCounts>& counts = m_sass->countsByLine();
    int most = 1;
    for (const auto& [line, count] : counts)
        most = std::max(most, count.instructions);
    std::map<int, CodeView::LineHeat> heat;
    const QString arch = m_sass->arch();
    for (const auto& [line, count] : counts) {
        QString text = (count.instructions == 1 ? tr("1 SASS instruction for %1") : tr("%1 SASS instructions for %2").arg(count.instructions))
                           .arg(arch);
        if (count.memoryInstructions > 0) {
            QStringList widths;
            for (const auto& [bits, instructions] : count.memoryByWidth)
                widths << tr("%1 of %2 bits").arg(instructions).arg(bits);
            text += tr("; memory: %1").arg(widths.join(QStringLiteral(", ")));
        }
        heat[line] = {static_cast<double>(count.instructions) / most, text};
    }
    m_source->setHeat(std::move(heat));
    m_source->setHeatLabel(tr("SASS instructions"));
    if (!m_sass->busy() && !m_sass->message().isEmpty())
        m_status->setText(m_sass->message()); // no SASS to colour by: why (nvdisasm missing, ptxas failed)
}

} // namespace warpscope::viz
