// Predicted vs measured: per kernel, what Warpscope's simulator predicted for the launch beside what
// the GPU's counters measured (sectors per request, shared-memory wavefronts and bank conflicts,
// branch uniformity, FP32 work), theoretical vs achieved occupancy and the output check, with the
// difference coloured; where the two differ by design (the simulator runs PTX, the GPU runs what
// ptxas made of it; theoretical against achieved occupancy) the row says why in a neutral colour
// instead of red. With a baseline, the baseline's measurement and the change. The rows and their words
// are core/session/prediction_comparison.h's, which `warpscope session show` prints too.
#pragma once

#include "profile/profile_format.h"

#include <QString>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QTableWidget;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

struct PredictionRow {
    QString key;                 // "global_load_sectors_per_request", ..., "check"
    QString title;
    double predicted = 0;        // NaN when the session has no such prediction
    double measured = 0;         // NaN when not measured
    QString predictedText, measuredText, differenceText;
    profile::Agreement agreement = profile::Agreement::NotComparable;
    QString baselineText, changeText;
    QString note;                // one line shown under the row: why the two differ ("" when not known)
    QString toolTip;
};

struct PredictionKernel {
    std::string kernel;
    QString label;
    std::vector<PredictionRow> rows;
};

std::vector<PredictionKernel> predictionModel(const session::Session& current, const session::Session* baseline);

class ProfilePredictionPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { QuantityColumn = 0, PredictedColumn, MeasuredColumn, DifferenceColumn, BaselineColumn, ChangeColumn, ColumnCount };

    explicit ProfilePredictionPanel(QWidget* parent = nullptr);
    void setSession(const session::Session& current, const session::Session* baseline);

    QTableWidget* table() const { return m_table; }
    const std::vector<PredictionKernel>& model() const { return m_model; }
    // The text of `column` in the row `key` under `kernel`; null when there is no such row.
    QString cellText(const QString& kernel, const QString& key, Column column) const;
    // The background colour of the difference cell (invalid when not coloured).
    QColor differenceColour(const QString& kernel, const QString& key) const;
    // The row's agreement as the model has it (NotComparable when there is no such row).
    profile::Agreement agreement(const QString& kernel, const QString& key) const;
    // The line under a row that says why the two differ ("" when none), as the table shows it.
    QString noteText(const QString& kernel, const QString& key) const;

private:
    int findRow(const QString& kernel, const QString& key) const;

    void fitColumns();  // the value columns to their values, then fitNoteRows
    void fitNoteRows(); // a note row as tall as its text wrapped across the value columns

    QTableWidget* m_table = nullptr;
    QLabel* m_legend = nullptr;
    std::vector<PredictionKernel> m_model;
};

} // namespace warpscope::viz
