// ExecutionPanel, continued: the view's hazards (F6, the launch's hazard list) and the compiler messages.
#include "execution/execution_panel.h"

#include "common/validated_field.h"
#include "execution/code_view.h"
#include "execution/stepper.h"
#include "launch/launch_geometry.h"
#include "sim/hazards.h"
#include "util/parse.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QList>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warpscope::viz {

void ExecutionPanel::setCompilerMessages(std::vector<CodeView::Marker> markers)
{
    m_diagnostics->clear();
    for (const CodeView::Marker& marker : markers) {
        auto* item = new QListWidgetItem(QStringLiteral("%1:%2: %3: %4")
                                             .arg(marker.line)
                                             .arg(marker.column)
                                             .arg(marker.error ? QStringLiteral("error") : QStringLiteral("warning"))
                                             .arg(marker.message),
                                         m_diagnostics);
        item->setIcon(style()->standardIcon(marker.error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
        item->setData(Qt::UserRole, marker.line);
        item->setData(Qt::UserRole + 1, marker.column);
    }
    m_diagnostics->setVisible(!markers.empty());
    m_source->setMarkers(std::move(markers));
}

bool ExecutionPanel::goToNextHazard(bool forward)
{
    if (!m_stepper || busy())
        return false;
    if (step(sim::StepUnit::Hazard, forward))
        return true;
    // Every block's instances, where the census has them: the nearest block that way.
    if (const sim::Hazard* nearest = nearestInstance(forward))
        return goToHazard(sim::Hazard(*nearest));
    if (const std::optional<std::size_t> other = m_stepper->hazardInAnotherBlock(forward))
        return goToLaunchHazard(*other);
    m_status->setText(m_stepper->run().hazards.empty() ? QStringLiteral("The launch raised no hazard.")
                      // The list names each hazard once, where it first happened: later blocks may repeat it.
                      : forward ? QStringLiteral("No further hazard in this block, and none listed in a later block "
                                                 "(the list names each hazard's first block).")
                                : QStringLiteral("No earlier hazard in this block, and none listed in an earlier block."));
    return false;
}

bool ExecutionPanel::goToLaunchHazard(std::size_t index)
{
    if (!m_stepper || index >= m_stepper->run().hazards.size())
        return false;
    return goToHazard(sim::Hazard(m_stepper->run().hazards[index]));
}

bool ExecutionPanel::goToHazard(const sim::Hazard& hazard)
{
    if (!m_stepper || busy())
        return false;
    if (hazard.block == m_stepper->run().blockIndex) {
        const sim::RecordedHazard* recorded = m_stepper->recordedHazard(hazard);
        if (!recorded)
            return false;
        setPlaying(false);
        m_stepper->goTo(*recorded);
        syncFollow();
        refresh();
        return true;
    }
    // Another block: record it (the whole launch runs again), then stand on the hazard.
    const launch::Dim3& b = hazard.block;
    m_blockIndex->setText(b.y == 0 && b.z == 0 ? QString::number(b.x) : QStringLiteral("%1,%2,%3").arg(b.x).arg(b.y).arg(b.z));
    startRun(hazard);
    m_status->setText(QStringLiteral("Recording block %1, where the hazard is...").arg(m_blockIndex->text()));
    return true;
}

void ExecutionPanel::syncFollow()
{
    const QSignalBlocker blocker(m_follow);
    m_follow->setCurrentIndex(m_stepper ? m_stepper->followed() + 1 : 0);
}

QString ExecutionPanel::hazardOnTheGpu(const StepperRun& run, const sim::Hazard& hazard)
{
    QString text = QString::fromStdString(sim::hazardOnTheGpu(hazard.kind));
    if (text.isEmpty())
        return text;
    text += QLatin1Char('.');
    if (const auto sass = run.hazardSass.find(hazard.ptxLine); sass != run.hazardSass.end() && !sass->second.empty())
        text += QLatin1Char('\n') + QString::fromStdString(sass->second);
    return text;
}

void ExecutionPanel::fillHazardList()
{
    m_hazardList->clear();
    const std::vector<sim::Hazard> none;
    const std::vector<sim::Hazard>& hazards = m_stepper ? m_stepper->run().hazards : none;
    for (const sim::Hazard& hazard : hazards) {
        const HazardRow row = hazardRow(hazard);
        auto* item = new QTreeWidgetItem(m_hazardList, {QString::fromStdString(row.kind), QString::fromStdString(row.block),
                                                        QString::fromStdString(row.warp), QString::fromStdString(row.lanes),
                                                        QString::fromStdString(row.line)});
        // As `warpscope sim` prints it; a hazard repeated elsewhere is listed where it first happened.
        QString tip = QString::fromStdString(hazard.message).toHtmlEscaped();
        if (hazard.occurrences > 1)
            tip += QStringLiteral(" [%1 times in the launch]")
                       .arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(hazard.occurrences))));
        if (const QString gpu = hazardOnTheGpu(m_stepper->run(), hazard); !gpu.isEmpty())
            tip += QStringLiteral("<br>") + gpu.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        for (int column = 0; column < item->columnCount(); ++column)
            item->setToolTip(column, tip);
        // Every block's instances, folded under the row (a launch of many blocks stays one row each).
        const auto index = static_cast<std::size_t>(&hazard - hazards.data());
        if (index < m_instances.size() && m_instances[index].size() > 1) {
            for (const sim::Hazard& instance : m_instances[index]) {
                const HazardRow place = hazardRow(instance);
                auto* child = new QTreeWidgetItem(item, {QStringLiteral("\u21b3"), QString::fromStdString(place.block), QString::fromStdString(place.warp),
                                                         QString::fromStdString(place.lanes), QString::fromStdString(place.line)});
                for (int column = 0; column < child->columnCount(); ++column)
                    child->setToolTip(column, QString::fromStdString(instance.message).toHtmlEscaped());
            }
        }
    }
    const bool instances = std::any_of(m_instances.begin(), m_instances.end(), [](const auto& list) { return list.size() > 1; });
    // No branch arrows or indentation, so the columns still fit beside a 1280-wide window's canvas:
    // choosing a row opens it (layout's itemClicked), its instances marked with an arrow.
    m_hazardList->setRootIsDecorated(false);
    m_hazardList->setIndentation(0);
    for (int column = 0; column < m_hazardList->columnCount(); ++column)
        m_hazardList->resizeColumnToContents(column);
    // The count in all, not only in each row's tooltip: a row names the first of its hazard's
    // occurrences (the simulator keeps the first block's), and later blocks may repeat it.
    std::uint64_t times = 0;
    for (const sim::Hazard& hazard : hazards)
        times += hazard.occurrences;
    const QString timesText = QString::fromStdString(withThousands(static_cast<std::int64_t>(times)));
    if (hazards.size() == 1)
        m_hazardCaption->setText(times > 1 ? QStringLiteral("The launch raised 1 hazard, %1 times; listed where it first "
                                                            "happened: choose it, or F6.").arg(timesText)
                                           : QStringLiteral("The launch raised 1 hazard: choose it, or F6."));
    else
        m_hazardCaption->setText(QStringLiteral("The launch raised %1 hazards, %2 times in all; each listed where it first "
                                                "happened: choose one, or F6.").arg(hazards.size()).arg(timesText));
    if (instances) // shorter, so that the list keeps its rows on a laptop screen
        m_hazardCaption->setText(QStringLiteral("The launch raised %1 hazard%2, %3 times in all; a row opens on every "
                                                "block's: choose one, or F6.")
                                     .arg(hazards.size())
                                     .arg(hazards.size() == 1 ? QString() : QStringLiteral("s"))
                                     .arg(timesText));
    m_showHazards->setEnabled(!hazards.empty());
    m_showHazards->setToolTip(hazards.empty() ? QStringLiteral("The launch raised no hazard")
                                              : QStringLiteral("Show or hide the list of the launch's hazards"));
    const bool wasShown = m_hazardPane->isVisible();
    m_showHazards->setChecked(!hazards.empty()); // updatePanes shows or hides the pane
    updatePanes();
    if (!hazards.empty() && !wasShown) { // as tall as its rows (up to 6), the listings keep the rest
        QList<int> sizes = m_codeSplit->sizes();
        const int total = sizes[0] + sizes[1] + sizes[2];
        const int rows = static_cast<int>(std::min<std::size_t>(hazards.size(), 6));
        const int wanted = m_hazardCaption->sizeHint().height() + m_hazardList->header()->sizeHint().height() +
                           rows * m_hazardList->sizeHintForRow(0) + 2 * m_hazardList->frameWidth() + 8;
        sizes[2] = std::min(wanted, total / 3);
        const int rest = total - sizes[2];
        sizes[0] = sizes[0] + sizes[1] > 0 ? rest * sizes[0] / (sizes[0] + sizes[1]) : rest;
        sizes[1] = rest - sizes[0];
        m_codeSplit->setSizes(sizes);
    }
}

} // namespace warpscope::viz
