// The Performance Models dock: four tabs of models the lessons on streams and distributed training
// link to (warpscope:streams, pipeline, memory-budget, allreduce): copy/compute overlap, the pipeline
// bubble, training memory per GPU and the ring all-reduce. Each panel scrolls when the dock is
// narrower than its figure wants, so the dock never widens the window.
#pragma once

#include <QWidget>

class QTabWidget;

namespace warpscope::viz {

class AllReducePanel;
class MemoryBudgetPanel;
class PipelinePanel;
class StreamsPanel;

enum class ModelsTab { Streams = 0, Pipeline = 1, MemoryBudget = 2, AllReduce = 3 };

class ModelsDock : public QWidget {
    Q_OBJECT
public:
    explicit ModelsDock(QWidget* parent = nullptr);

    void showTab(ModelsTab tab);
    ModelsTab currentTab() const;
    QTabWidget* tabs() const { return m_tabs; }
    StreamsPanel* streams() const { return m_streams; }
    PipelinePanel* pipeline() const { return m_pipeline; }
    MemoryBudgetPanel* memoryBudget() const { return m_memoryBudget; }
    AllReducePanel* allReduce() const { return m_allReduce; }

private:
    QTabWidget* m_tabs = nullptr;
    StreamsPanel* m_streams = nullptr;
    PipelinePanel* m_pipeline = nullptr;
    MemoryBudgetPanel* m_memoryBudget = nullptr;
    AllReducePanel* m_allReduce = nullptr;
};

} // namespace warpscope::viz
