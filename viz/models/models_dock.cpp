#include "models/models_dock.h"

#include "common/scroll_page.h"
#include "models/allreduce_panel.h"
#include "models/memory_budget_panel.h"
#include "models/pipeline_panel.h"
#include "models/streams_panel.h"

#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace warpscope::viz {

ModelsDock::ModelsDock(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("modelsDock"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("ModelsTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setUsesScrollButtons(true);
    m_streams = new StreamsPanel(this);
    m_pipeline = new PipelinePanel(this);
    m_memoryBudget = new MemoryBudgetPanel(this);
    m_allReduce = new AllReducePanel(this);
    const std::pair<QWidget*, QString> tabs[] = {{m_streams, tr("Streams")},
                                                 {m_pipeline, tr("Pipeline")},
                                                 {m_memoryBudget, tr("Memory Budget")},
                                                 {m_allReduce, tr("All-Reduce")}};
    for (const auto& [panel, title] : tabs) {
        m_tabs->addTab(framelessScrollArea(panel, m_tabs), title);
    }
    m_tabs->setTabToolTip(0, tr("Copy/compute overlap with CUDA streams: serial against overlapped, one or two copy engines"));
    m_tabs->setTabToolTip(1, tr("Pipeline parallelism: the GPipe schedule and its bubble, (P-1)/(M+P-1)"));
    m_tabs->setTabToolTip(2, tr("Training memory per GPU: weights, gradients, optimizer states, activations, ZeRO"));
    m_tabs->setTabToolTip(3, tr("The ring all-reduce, step by step, and its cost on NVLink and PCIe"));
    layout->addWidget(m_tabs);
}

void ModelsDock::showTab(ModelsTab tab) { m_tabs->setCurrentIndex(static_cast<int>(tab)); }

ModelsTab ModelsDock::currentTab() const { return static_cast<ModelsTab>(m_tabs->currentIndex()); }

} // namespace warpscope::viz
