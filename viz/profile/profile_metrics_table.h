// The metrics table: per kernel, every measured value with its ncu name, a plain-language name, a
// one-line explanation on hover and human-scaled units, grouped into sections (time, memory,
// compute, occupancy; profile_metric_sections.h) under a filter box; metrics the GPU could not
// measure shown as such; with a baseline, its value and the change, as in Nsight Compute's baseline
// comparison.
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

class ProfileMetricsTable : public QWidget {
    Q_OBJECT
public:
    enum Column { TitleColumn = 0, ValueColumn, BaselineColumn, ChangeColumn, NameColumn, ColumnCount };

    // Row keys that are not metric names: the Activity values and the replay pass count.
    static constexpr const char* kActivityDuration = "activity:duration";
    static constexpr const char* kActivityRegisters = "activity:registers_per_thread";
    static constexpr const char* kActivityStaticShared = "activity:static_shared_bytes";
    static constexpr const char* kActivityDynamicShared = "activity:dynamic_shared_bytes";
    static constexpr const char* kActivityLocal = "activity:local_bytes_per_thread";
    static constexpr const char* kReplayPasses = "profiler:passes";
    static constexpr const char* kNoMetrics = "profiler:none";

    explicit ProfileMetricsTable(QWidget* parent = nullptr);

    // Fills the table from `current`; `baseline` (may be null) adds the Baseline and Change columns.
    void setSession(const session::Session& current, const session::Session* baseline);

    QTreeWidget* tree() const { return m_tree; }
    // The text (or tooltip) of `column` in the row `key` (a metric name or one of the keys above)
    // under `kernel`; a null QString when there is no such row.
    QString cellText(const QString& kernel, const QString& key, Column column) const;
    QString cellToolTip(const QString& kernel, const QString& key, Column column) const;
    // The kernel ids in table order.
    QStringList kernels() const;
    // The section a row is under ("time", "memory", "compute", "occupancy", "other", "profiler"),
    // a kernel's sections in order, and its row keys in table order.
    QString sectionOf(const QString& kernel, const QString& key) const;
    QStringList sections(const QString& kernel) const;
    QStringList rowKeys(const QString& kernel) const;
    // The line under a row whose value cannot mean what its name says (a hit rate past 100 %), and its
    // tooltip; empty when the row has none.
    QString rowNote(const QString& kernel, const QString& key) const;
    QString rowNoteToolTip(const QString& kernel, const QString& key) const;

    // Shows only the rows whose name, ncu name or section contains `text` (case-insensitive).
    void setFilter(const QString& text);
    QString filter() const;
    QLineEdit* filterEdit() const { return m_filter; }
    bool rowShown(const QString& kernel, const QString& key) const; // not hidden by the filter

signals:
    void kernelSelected(const QString& kernel); // the user moved to a row of this kernel (or the kernel itself)

private:
    QTreeWidgetItem* findRow(const QString& kernel, const QString& key) const;
    void applyFilter();

    QTreeWidget* m_tree = nullptr;
    QLabel* m_note = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_filterStatus = nullptr;
};

} // namespace warpscope::viz
