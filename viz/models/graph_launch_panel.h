// Launch overhead and CUDA graphs (under the Streams tab's figure): a chain of short kernels
// launched one by one against the same chain as one CUDA graph, from perf::planKernelChain. Fields
// for the chain (kernels, each kernel's time) and for the model's overheads (host launch time, GPU
// time per launched kernel, the graph's fixed launch time and time per node, defaulting to one cited
// measurement); a timeline with the host's launch calls and the GPU's kernels one by one, and the
// graph's kernels below, on one axis in µs; the totals, the GPU's busy share and the speedup.
#pragma once

#include "perf/kernel_chain.h"

#include <QWidget>

#include <QString>

#include <optional>
#include <utility>

class QLabel;

namespace warpscope::viz {

class ValidatedField;

class GraphLaunchView : public QWidget {
    Q_OBJECT
public:
    explicit GraphLaunchView(QWidget* parent = nullptr);
    void setPlan(const perf::KernelChainPlan& plan);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    double timeToX(double seconds) const; // view math, tested without drawing
    int plotLeft() const;
    int plotRight() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowTop(int row) const;
    perf::KernelChainPlan m_plan;
    double m_axisEnd = 1e-6; // seconds
    double m_tickStep = 1;   // µs
};

class GraphLaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphLaunchPanel(QWidget* parent = nullptr);

    // Checks (kernels 1..1000, times 0 to 1e6 µs) and redraws; throws InputError naming the field.
    void setInput(const perf::KernelChainInput& input);
    const perf::KernelChainInput& input() const { return m_input; }
    const perf::KernelChainPlan& plan() const { return m_plan; }
    QString numbersText() const;
    ValidatedField* field(const char* key) const; // "kernels", "kernel", "launch", "gap", "graph", "node"
    GraphLaunchView* view() const { return m_view; }

private:
    void controlsEdited();
    std::pair<std::optional<perf::KernelChainInput>, QString> readControls() const;
    void syncControls();
    void redraw();

    perf::KernelChainInput m_input;
    perf::KernelChainPlan m_plan;
    bool m_syncing = false;
    ValidatedField* m_kernels = nullptr;
    ValidatedField* m_kernel = nullptr;
    ValidatedField* m_launch = nullptr;
    ValidatedField* m_gap = nullptr;
    ValidatedField* m_graph = nullptr;
    ValidatedField* m_node = nullptr;
    GraphLaunchView* m_view = nullptr;
    QLabel* m_staleLabel = nullptr;
    QLabel* m_numbersLabel = nullptr;
    QLabel* m_captionLabel = nullptr;
};

} // namespace warpscope::viz
