// The training-memory calculator: a model's settings (parameters, precision, optimizer, ZeRO stage,
// data-parallel GPUs, transformer shape), the memory each GPU needs from training::memoryBudget as
// stacked bars against the datasheet capacities of A100, H100 and H200, the bytes per parameter by
// component, and whether it fits on each GPU. Serving (the inference precisions with layers > 0) adds
// the KV cache of `batch` sequences of `seq` tokens, from perf::kvCacheBytes.
#pragma once

#include "training/memory_budget.h"

#include <QWidget>

#include <optional>
#include <vector>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QEvent;
class QGridLayout;
class QLabel;
class QResizeEvent;
class QTableWidget;

namespace warpscope::viz {

class ValidatedField;

struct MemoryBudgetSettings {
    double parameters = 7e9;                              // (0, 1e13]
    training::Precision precision = training::Precision::Mixed16;
    training::Optimizer optimizer = training::Optimizer::Adam;
    int zeroStage = 0;                                    // 0..3
    int dataParallel = 1;                                 // 1..4096
    training::TransformerShape shape{32, 4096, 32, 4096, 1, false}; // layers, hidden, heads, sequence, microBatch, recompute
    int kvHeads = 0; // serving: key-value heads of the KV cache, a divisor of heads (grouped-query attention); 0: one per head
};

class MemoryBudgetPanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBudgetPanel(QWidget* parent = nullptr);

    // Checks every setting (ranges as the memory-budget link's keys; heads must divide hidden) and
    // redraws; throws InputError naming the key and its allowed range, and changes nothing then.
    void setSettings(const MemoryBudgetSettings& settings);
    MemoryBudgetSettings settings() const { return m_settings; } // what the figure shows
    const training::MemoryBudget& budget() const { return m_budget; } // the per-GPU budget the figure draws
    double kvCacheBytes() const { return m_kvCacheBytes; } // serving: 2 x layers x KV heads x hidden/heads x seq x batch x 2 bytes; else 0
    double totalBytes() const { return m_budget.totalBytes() + m_kvCacheBytes; }

    // The same checks as setSettings, without applying anything.
    static void validate(const MemoryBudgetSettings& settings);

    // Drawn values, for tests: the stacked components of one bar in GB (10^9 bytes): weights,
    // gradients, master weights, optimizer states, activations, KV cache.
    std::vector<double> barGigabytes() const;
    int barCount() const;                 // bars drawn: every GPU up to 8, else GPU 0, 1, 2 and the last
    QString fitText() const;              // the line saying where it fits
    QTableWidget* componentTable() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    bool stale() const { return m_stale; } // a field holds an invalid value; the figure shows settings()

signals:
    void settingsChanged(); // after every redraw from new settings (a field, a combo or setSettings)

protected:
    void changeEvent(QEvent* event) override; // restyles the figure on a palette switch
    void resizeEvent(QResizeEvent* event) override; // fewer field columns and the table under the plot when narrow

private:
    QWidget* buildControls();
    void syncControls();      // the fields and combos show m_settings (no signals)
    // The settings the fields and boxes hold now, or nullopt with the bad fields marked.
    std::optional<MemoryBudgetSettings> readControls();
    void controlsEdited();    // a value was applied or a combo changed: apply it if every field is valid
    void redraw();
    void drawPlot();
    void fillTable();
    void setStale(bool stale);
    void layOutForWidth(int width);

    // The fields' labels and widgets in reading order, laid out in 3, 2 or 1 column pairs.
    struct ControlCell {
        QWidget* label = nullptr; // null: the widget spans a whole pair (the check box)
        QWidget* widget = nullptr;
    };
    std::vector<ControlCell> m_controlCells;
    QGridLayout* m_controlsGrid = nullptr;
    QBoxLayout* m_figureRow = nullptr;
    int m_controlColumns = 0;

    MemoryBudgetSettings m_settings;
    training::MemoryBudget m_budget;
    double m_kvCacheBytes = 0;
    bool m_stale = false;
    bool m_syncing = false;

    ValidatedField* m_parametersField = nullptr;
    QComboBox* m_precisionCombo = nullptr;
    QComboBox* m_optimizerCombo = nullptr;
    QComboBox* m_zeroCombo = nullptr;
    ValidatedField* m_gpusField = nullptr;
    ValidatedField* m_layersField = nullptr;
    ValidatedField* m_hiddenField = nullptr;
    ValidatedField* m_headsField = nullptr;
    ValidatedField* m_kvHeadsField = nullptr;
    ValidatedField* m_sequenceField = nullptr;
    ValidatedField* m_batchField = nullptr;
    QCheckBox* m_recomputeBox = nullptr;

    QLabel* m_summaryLabel = nullptr;
    QLabel* m_staleLabel = nullptr;
    QLabel* m_fitLabel = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_captionLabel = nullptr;
    int m_barCount = 0;
};

} // namespace warpscope::viz
