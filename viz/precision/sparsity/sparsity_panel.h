// The 2:4 structured-sparsity panel: the MLP trained in FP32, pruned to 2 of every 4 weights along
// the reduction dimension and fine-tuned with the mask fixed (NVIDIA ASP's recipe, core/numerics/
// sparsity.h), off the GUI thread. Shows one layer's pattern with its 2-bit metadata, the FP16 bytes
// dense and compressed (values + metadata) for the layer and the model, and the held-out accuracy
// before pruning, just after and after the fine-tune.
#pragma once

#include "numerics/sparsity.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCPBars;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace warpscope::viz {

class ValidatedField;

class LabWorker;
class SparsityPatternView;

inline constexpr int kSparsityMaxFineTuneSteps = 10000;

struct SparsityRequest {              // what one study trains
    int fineTuneSteps = 200;          // SparsityStudyConfig's default
    std::uint64_t seed = 1;           // the dense model's initial weights and batch order
};

// The study's configuration for a request: the dense model as AmpConfig's FP32 defaults.
numerics::SparsityStudyConfig sparsityStudyConfig(const SparsityRequest& request);

class SparsityPanel : public QWidget {
    Q_OBJECT
public:
    explicit SparsityPanel(QWidget* parent = nullptr); // runs the study when first shown

    void setLayer(int layer);                 // 1 or 2 (layer 0 has 2 inputs: too few for groups of 4)
    int layer() const;
    void setShowFineTuned(bool fineTuned);    // colour the fine-tuned weights instead of the just-pruned ones
    void setRequest(const SparsityRequest& request);
    SparsityRequest request() const;          // a marked field's last valid value while it is marked
    QString fieldErrors() const;              // each marked field's message, one per line
    void run();                               // in the background, replacing a queued study
    void runIfNeeded();                       // run unless a study is shown or running
    void cancel();
    bool busy() const;
    std::shared_ptr<const numerics::SparsityStudy> study() const { return m_study; }

    // What is shown for the current layer and the whole model (from SparsityStudy::layers / total).
    numerics::SparseStorage layerStorage() const;
    numerics::SparseStorage modelStorage() const;
    QString storageText() const;
    QString accuracyText() const;
    QString statusText() const;
    SparsityPatternView* patternView() const { return m_pattern; }
    QCustomPlot* bytesPlot() const { return m_bytesPlot; }
    QCustomPlot* accuracyPlot() const { return m_accuracyPlot; }
    QPushButton* runButton() const { return m_runButton; }

signals:
    void studyFinished(); // a study was shown, or cancelled or failed (statusText says which)

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    void buildPlots();
    void arrangeFigures(bool wide);
    void refresh();
    void restyle();
    void setStatus(const QString& text, bool error = false);
    void fieldsChanged(); // Run waits for valid fields; the status says which are marked

    LabWorker* m_worker = nullptr;
    std::shared_ptr<const numerics::SparsityStudy> m_study;
    bool m_shownOnce = false;
    bool m_cancelRequested = false;

    QComboBox* m_layerCombo = nullptr;
    QComboBox* m_weightsCombo = nullptr;
    ValidatedField* m_fineTuneField = nullptr; // checked as typed, never clamped (viz/common/validated_field.h)
    ValidatedField* m_seedField = nullptr;
    SparsityRequest m_lastValid;
    QString m_statusBeforeErrors;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QGridLayout* m_sideLayout = nullptr; // the plots and their notes

    QGridLayout* m_figures = nullptr;
    bool m_wide = true;
    SparsityPatternView* m_pattern = nullptr;
    QLabel* m_groupLabel = nullptr;
    QWidget* m_side = nullptr;
    QCustomPlot* m_bytesPlot = nullptr;
    QCPTextElement* m_bytesTitle = nullptr;
    QCPBars* m_denseBars = nullptr;
    QCPBars* m_valueBars = nullptr;
    QCPBars* m_metadataBars = nullptr;
    QLabel* m_storageLabel = nullptr;
    QCustomPlot* m_accuracyPlot = nullptr;
    QCPTextElement* m_accuracyTitle = nullptr;
    QCPBars* m_accuracyBars = nullptr;
    std::vector<QCPItemText*> m_accuracyLabels;
    QLabel* m_accuracyLabel = nullptr;
};

} // namespace warpscope::viz
