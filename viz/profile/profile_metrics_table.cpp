#include "profile/profile_metrics_table.h"

#include "common/export_actions.h"
#include "common/wrap_anywhere_delegate.h"
#include "profile/profile_format.h"
#include "profile/profile_metric_sections.h"
#include "session/metric_catalog.h"
#include "session/session.h"
#include "util/parse.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

namespace warpscope::viz {
namespace {

using namespace profile;
constexpr int kKeyRole = Qt::UserRole;
constexpr int kKindRole = Qt::UserRole + 1; // what a tree item is: a kernel, a section or a metric row
enum ItemKind { KernelItem = 1, SectionItem, MetricItem, NoteItem };

QString fromView(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

double nan() { return std::nan(""); }

// One row of the table before it becomes an item.
struct Row {
    QString key;           // metric name or one of the activity keys
    QString title;
    QString name;          // what the ncu-name column shows
    QString explanation;
    QString unit;
    double value = nan();
    double baseline = nan();
    bool unavailable = false;
    QString valueText;     // when set, shown instead of a formatted value
    QString note;          // a line under the row: a value that cannot be what its name says (a hit rate past 100 %)
    QString noteDetail;    // the note's whole explanation, with its source
};

// A value from an Activity record, by row key; NaN when the record or field is missing.
double activityValue(const session::ActivityRecord* activity, const QString& key)
{
    if (activity == nullptr)
        return nan();
    if (key == QLatin1String(ProfileMetricsTable::kActivityDuration))
        return activity->durationsNs.empty() ? nan() : static_cast<double>(activity->medianNs());
    if (key == QLatin1String(ProfileMetricsTable::kActivityRegisters))
        return activity->registersPerThread;
    if (key == QLatin1String(ProfileMetricsTable::kActivityStaticShared))
        return static_cast<double>(activity->staticSharedBytes);
    if (key == QLatin1String(ProfileMetricsTable::kActivityDynamicShared))
        return static_cast<double>(activity->dynamicSharedBytes);
    if (key == QLatin1String(ProfileMetricsTable::kActivityLocal))
        return static_cast<double>(activity->localBytesPerThread);
    return nan();
}

// Shared memory and local memory sizes read as the CUDA guides write them (1 KB = 1024 bytes).
QString binaryBytes(double bytes)
{
    return std::isnan(bytes) ? QStringLiteral("n/a") : QString::fromStdString(warpscope::formatBytes(static_cast<std::size_t>(bytes)));
}

std::vector<Row> activityRows(const session::ActivityRecord& activity, const session::ActivityRecord* baseline)
{
    std::vector<Row> rows;
    const QString source = QStringLiteral("CUPTI Activity");
    auto add = [&](const char* key, const QString& title, const QString& explanation, const QString& unit) {
        Row row;
        row.key = QLatin1String(key);
        row.title = title;
        row.name = source;
        row.explanation = explanation;
        row.unit = unit;
        row.value = activityValue(&activity, row.key);
        row.baseline = activityValue(baseline, row.key);
        rows.push_back(row);
    };
    add(ProfileMetricsTable::kActivityDuration,
        QStringLiteral("Duration (median of %1 run%2)")
            .arg(activity.durationsNs.size())
            .arg(activity.durationsNs.size() == 1 ? "" : "s"),
        QStringLiteral("The kernel's GPU time from CUPTI Activity records, without counters attached: the "
                       "median of the timed runs (every run: %1).")
            .arg([&] {
                QStringList runs;
                for (std::uint64_t ns : activity.durationsNs)
                    runs << formatDurationNs(static_cast<double>(ns));
                return runs.join(QStringLiteral(", "));
            }()),
        QStringLiteral("ns"));
    add(ProfileMetricsTable::kActivityRegisters, QStringLiteral("Registers per thread"),
        QStringLiteral("Registers the compiled kernel uses per thread, as the driver reports it; with the block "
                       "size it decides how many blocks fit on an SM."),
        QStringLiteral("registers"));
    add(ProfileMetricsTable::kActivityStaticShared, QStringLiteral("Static shared memory per block"),
        QStringLiteral("Shared memory declared in the kernel (__shared__ arrays of fixed size)."), QStringLiteral("binary"));
    add(ProfileMetricsTable::kActivityDynamicShared, QStringLiteral("Dynamic shared memory per block"),
        QStringLiteral("Shared memory requested at launch (the third <<<>>> parameter)."), QStringLiteral("binary"));
    add(ProfileMetricsTable::kActivityLocal, QStringLiteral("Local memory per thread"),
        QStringLiteral("Per-thread local memory (register spills, local arrays); it lives in device memory."),
        QStringLiteral("binary"));
    return rows;
}

std::vector<Row> metricRows(const session::MetricsRecord& record, const session::MetricsRecord* baseline)
{
    std::vector<std::string> names;
    for (const session::MetricInfo& info : session::metricCatalog())
        if (record.values.count(std::string(info.name)))
            names.emplace_back(info.name);
    for (const auto& [name, value] : record.values)
        if (session::findMetric(name) == nullptr)
            names.push_back(name); // std::map order: alphabetical
    std::vector<Row> rows;
    for (const std::string& name : names) {
        Row row;
        row.key = QString::fromStdString(name);
        row.name = row.key;
        if (const session::MetricInfo* info = session::findMetric(name)) {
            row.title = fromView(info->title);
            row.explanation = fromView(info->explanation);
        } else {
            row.title = QStringLiteral("(not in the catalog)");
            row.explanation = QStringLiteral("%1 is not in Warpscope's metric catalog: it is shown by its ncu name, in the "
                                             "unit CUPTI reported.")
                                  .arg(row.key);
        }
        row.unit = metricUnit(record, row.key);
        row.value = record.values.at(name);
        if (hitRateOutOfRange(row.key, row.value)) {
            const auto duration = record.values.find(session::metric::kDuration);
            row.note = hitRateOutOfRangeNote(row.value);
            row.noteDetail = hitRateOutOfRangeExplanation(row.key, row.value,
                                                          duration == record.values.end() ? nan() : duration->second,
                                                          record.passes);
        }
        if (baseline != nullptr)
            if (auto it = baseline->values.find(name); it != baseline->values.end())
                row.baseline = it->second;
        rows.push_back(row);
    }
    for (const std::string& name : record.unavailable) {
        Row row;
        row.key = QString::fromStdString(name);
        row.name = row.key;
        const session::MetricInfo* info = session::findMetric(name);
        row.title = info ? fromView(info->title) : QStringLiteral("(not in the catalog)");
        row.explanation = (info ? fromView(info->explanation) + QLatin1Char(' ') : QString()) +
                          QStringLiteral("CUPTI cannot measure this metric on this GPU.");
        row.unavailable = true;
        row.valueText = QStringLiteral("unavailable on this GPU");
        rows.push_back(row);
    }
    Row passes;
    passes.key = QLatin1String(ProfileMetricsTable::kReplayPasses);
    passes.title = QStringLiteral("Replay passes");
    const bool byNcu = record.replay == "ncu"; // imported from Nsight Compute's CSV
    passes.name = byNcu ? QStringLiteral("Nsight Compute") : QStringLiteral("CUPTI Range Profiler");
    passes.explanation = QStringLiteral("How many times the kernel was replayed to collect these counters (%1 replay): "
                                        "the GPU can count only a few metrics per pass.")
                             .arg(QString::fromStdString(record.replay));
    passes.unit = QStringLiteral("passes");
    // Every measured kernel took at least one pass: 0 is a count the file did not record (ncu prints it
    // only in its progress lines, which a CSV export leaves out), shown as unknown, not as 0.
    if (record.passes > 0) {
        passes.value = record.passes;
    } else {
        passes.valueText = QStringLiteral("\u2014");
        passes.explanation += QLatin1Char(' ') + QString::fromLatin1(kNotRecordedToolTip) +
                              (byNcu ? QStringLiteral(". ncu prints the replay passes only in its progress lines (“- 9 passes”), "
                                                     "which its CSV does not hold.")
                                     : QStringLiteral("."));
    }
    if (baseline != nullptr && baseline->passes > 0)
        passes.baseline = baseline->passes;
    rows.push_back(passes);
    return rows;
}

QString valueText(double value, const QString& unit)
{
    if (unit == QLatin1String("binary"))
        return binaryBytes(value);
    return formatMetricValue(value, unit);
}

QString exactText(double value, const QString& unit)
{
    return formatExactValue(value, unit == QLatin1String("binary") ? QStringLiteral("bytes") : unit);
}

QString toolTipFor(const Row& row)
{
    QString tip = QStringLiteral("<b>%1</b><br>%2").arg(row.title.toHtmlEscaped(), row.explanation.toHtmlEscaped());
    if (row.name != row.title)
        tip += QStringLiteral("<br><i>%1</i>").arg(row.name.toHtmlEscaped());
    return tip;
}

// The ncu-name column elides long names in the middle: its tooltip gives the whole name first.
QString nameToolTipFor(const Row& row)
{
    return QStringLiteral("<p style='white-space:pre'><b>%1</b></p>%2 — %3")
        .arg(row.name.toHtmlEscaped(), row.title.toHtmlEscaped(), row.explanation.toHtmlEscaped());
}

bool matches(const QTreeWidgetItem* item, const QString& needle)
{
    for (int column : {ProfileMetricsTable::TitleColumn, ProfileMetricsTable::NameColumn})
        if (item->text(column).contains(needle, Qt::CaseInsensitive))
            return true;
    return item->data(ProfileMetricsTable::TitleColumn, kKeyRole).toString().contains(needle, Qt::CaseInsensitive);
}

void addRow(QTreeWidgetItem* section, const Row& row, bool withBaseline, const QColor& muted)
{
    auto* item = new QTreeWidgetItem(section);
    item->setData(ProfileMetricsTable::TitleColumn, kKeyRole, row.key);
    item->setData(ProfileMetricsTable::TitleColumn, kKindRole, MetricItem);
    item->setText(ProfileMetricsTable::TitleColumn, row.title);
    item->setText(ProfileMetricsTable::NameColumn, row.name);
    item->setText(ProfileMetricsTable::ValueColumn, row.valueText.isEmpty() ? valueText(row.value, row.unit) : row.valueText);
    item->setTextAlignment(ProfileMetricsTable::ValueColumn, Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(ProfileMetricsTable::TitleColumn, toolTipFor(row));
    item->setToolTip(ProfileMetricsTable::NameColumn, nameToolTipFor(row));
    // The exact value names the unit the session reported; the explanation may quote its errors.
    item->setToolTip(ProfileMetricsTable::ValueColumn, plainToolTip(row.valueText.isEmpty() ? exactText(row.value, row.unit) : row.explanation));
    if (!row.note.isEmpty()) {
        // Never bare: the value is marked and a line under it says why it is not what its name says.
        const QColor warning = item->treeWidget()->palette().color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0xb3, 0x4d)
                                                                                                       : QColor(0xb3, 0x5c, 0x00);
        item->setText(ProfileMetricsTable::ValueColumn, item->text(ProfileMetricsTable::ValueColumn) + QStringLiteral(" ⚠"));
        item->setForeground(ProfileMetricsTable::ValueColumn, warning);
        const QString detail = QStringLiteral("<p>%1</p><p>%2</p>").arg(exactText(row.value, row.unit).toHtmlEscaped(),
                                                                        row.noteDetail.toHtmlEscaped());
        item->setToolTip(ProfileMetricsTable::ValueColumn, detail);
        item->setToolTip(ProfileMetricsTable::TitleColumn, toolTipFor(row) + QStringLiteral("<p>%1</p>").arg(row.noteDetail.toHtmlEscaped()));
        auto* note = new QTreeWidgetItem(item);
        note->setText(ProfileMetricsTable::TitleColumn, row.note);
        note->setData(ProfileMetricsTable::TitleColumn, kKeyRole, row.key + QStringLiteral(":note"));
        note->setData(ProfileMetricsTable::TitleColumn, kKindRole, NoteItem);
        note->setFirstColumnSpanned(true);
        note->setToolTip(ProfileMetricsTable::TitleColumn, QStringLiteral("<p>%1</p>").arg(row.noteDetail.toHtmlEscaped()));
        note->setForeground(ProfileMetricsTable::TitleColumn, warning);
        QFont italic = note->font(ProfileMetricsTable::TitleColumn);
        italic.setItalic(true);
        note->setFont(ProfileMetricsTable::TitleColumn, italic);
    }
    if (row.unavailable) {
        QFont italic = item->font(ProfileMetricsTable::ValueColumn);
        italic.setItalic(true);
        item->setFont(ProfileMetricsTable::ValueColumn, italic);
        item->setForeground(ProfileMetricsTable::ValueColumn, muted);
    }
    if (withBaseline) {
        const bool comparable = !row.unavailable && !std::isnan(row.value);
        item->setText(ProfileMetricsTable::BaselineColumn, std::isnan(row.baseline) ? QStringLiteral("—") : valueText(row.baseline, row.unit));
        item->setToolTip(ProfileMetricsTable::BaselineColumn, std::isnan(row.baseline) ? QStringLiteral("Not in the baseline session")
                                                                  : plainToolTip(exactText(row.baseline, row.unit)));
        item->setText(ProfileMetricsTable::ChangeColumn, comparable && !std::isnan(row.baseline) ? formatChange(row.value, row.baseline)
                                                                            : QStringLiteral("—"));
        item->setTextAlignment(ProfileMetricsTable::BaselineColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(ProfileMetricsTable::ChangeColumn, Qt::AlignRight | Qt::AlignVCenter);
    }
}

} // namespace

ProfileMetricsTable::ProfileMetricsTable(QWidget* parent) : QWidget(parent)
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("profileMetricsTree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Metric"), tr("Value"), tr("Baseline"), tr("Change"), tr("ncu name")});
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->header()->setStretchLastSection(true);
    // Where the last column is narrower than an ncu name (the view in a dock), the name wraps onto a
    // second line instead of ending in "…": every name stays whole.
    m_tree->setWordWrap(true);
    m_tree->setUniformRowHeights(false);
    m_tree->setTextElideMode(Qt::ElideNone);
    m_tree->setItemDelegateForColumn(NameColumn, new WrapAnywhereDelegate(m_tree));
    // The rows' heights follow the last column's width, which follows the tree's.
    connect(m_tree->header(), &QHeaderView::sectionResized, m_tree, [this](int column) {
        if (column == NameColumn)
            m_tree->doItemsLayout();
    });
    installTableExport(m_tree, QStringLiteral("metrics"));
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setText(tr("Each kernel's values by section: time, memory, compute, occupancy. Hover a name for what it "
                       "measures (the ncu name in full), a value for its exact figure."));
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("profileMetricsFilter"));
    m_filter->setPlaceholderText(tr("Filter: a name, an ncu name or a section (“hit rate”, “dram__”, “memory”)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows the rows whose name, ncu name or section contains the text"));
    m_filterStatus = new QLabel(this);
    m_filterStatus->setObjectName(QStringLiteral("profileMetricsFilterStatus"));
    m_filterStatus->setTextFormat(Qt::PlainText);
    m_filterStatus->hide();
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_filterStatus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_note);
    layout->addLayout(filterRow);
    layout->addWidget(m_tree, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &ProfileMetricsTable::applyFilter);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        while (item != nullptr && item->parent() != nullptr)
            item = item->parent();
        if (item != nullptr && item->data(TitleColumn, kKindRole).toInt() == KernelItem)
            emit kernelSelected(item->data(TitleColumn, kKeyRole).toString());
    });
    setSession(session::Session{}, nullptr);
}

void ProfileMetricsTable::setFilter(const QString& text) { m_filter->setText(text); }

QString ProfileMetricsTable::filter() const { return m_filter->text(); }

void ProfileMetricsTable::applyFilter()
{
    const QString needle = m_filter->text().trimmed();
    int shown = 0, total = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* kernel = m_tree->topLevelItem(i);
        if (kernel->data(TitleColumn, kKindRole).toInt() != KernelItem)
            continue;
        int inKernel = 0;
        for (int j = 0; j < kernel->childCount(); ++j) {
            QTreeWidgetItem* section = kernel->child(j);
            const bool sectionMatches = !needle.isEmpty() && matches(section, needle);
            int inSection = 0;
            for (int k = 0; k < section->childCount(); ++k) {
                QTreeWidgetItem* row = section->child(k);
                const bool show = needle.isEmpty() || sectionMatches || matches(row, needle);
                row->setHidden(!show);
                inSection += show ? 1 : 0;
                ++total;
            }
            section->setHidden(inSection == 0);
            inKernel += inSection;
        }
        kernel->setHidden(inKernel == 0 && !needle.isEmpty());
        shown += inKernel;
    }
    m_filterStatus->setVisible(!needle.isEmpty());
    m_filterStatus->setText(shown == 0 ? tr("no row matches") : tr("%1 of %2 rows").arg(shown).arg(total));
}

void ProfileMetricsTable::setSession(const session::Session& current, const session::Session* baseline)
{
    m_tree->clear();
    m_tree->setColumnHidden(BaselineColumn, baseline == nullptr);
    m_tree->setColumnHidden(ChangeColumn, baseline == nullptr);
    const QColor muted = palette().color(QPalette::PlaceholderText);
    for (const std::string& kernel : sessionKernelIds(current)) {
        auto* group = new QTreeWidgetItem(m_tree);
        group->setText(TitleColumn, kernelLabel(current, kernel));
        group->setData(TitleColumn, kKeyRole, QString::fromStdString(kernel));
        group->setData(TitleColumn, kKindRole, KernelItem);
        group->setFirstColumnSpanned(true);
        QFont bold = group->font(TitleColumn);
        bold.setBold(true);
        group->setFont(TitleColumn, bold);
        if (const session::KernelRecord* record = current.findKernel(kernel))
            group->setToolTip(TitleColumn, plainToolTip(QStringLiteral("%1 (entry %2)").arg(QString::fromStdString(record->sourceName),
                                                                                            QString::fromStdString(record->entry))));

        std::vector<Row> rows;
        const session::ActivityRecord* activity = current.activityFor(kernel);
        const session::ActivityRecord* baselineActivity = baseline ? baseline->activityFor(kernel) : nullptr;
        if (activity != nullptr) {
            rows = activityRows(*activity, baselineActivity);
        }
        if (const session::MetricsRecord* metrics = current.metricsFor(kernel)) {
            const session::MetricsRecord* baselineMetrics = baseline ? baseline->metricsFor(kernel) : nullptr;
            std::vector<Row> more = metricRows(*metrics, baselineMetrics);
            rows.insert(rows.end(), more.begin(), more.end());
        } else {
            Row none;
            none.key = QLatin1String(kNoMetrics);
            none.title = tr("No counter metrics");
            none.name = QStringLiteral("CUPTI Range Profiler");
            none.explanation = noMetricsReason(current, kernel);
            none.valueText = tr("not measured");
            none.unavailable = true;
            rows.push_back(none);
        }
        // Sections in a fixed order; rows keep their catalog order inside each.
        std::map<profile::MetricSection, std::vector<const Row*>> bySection;
        for (const Row& row : rows)
            bySection[profile::metricSection(row.key)].push_back(&row);
        for (profile::MetricSection which : profile::kMetricSections) {
            const auto found = bySection.find(which);
            if (found == bySection.end())
                continue;
            auto* section = new QTreeWidgetItem(group);
            section->setText(TitleColumn, QStringLiteral("%1 (%2)").arg(profile::sectionTitle(which)).arg(found->second.size()));
            section->setData(TitleColumn, kKeyRole, profile::sectionKey(which));
            section->setData(TitleColumn, kKindRole, SectionItem);
            section->setFirstColumnSpanned(true);
            section->setToolTip(TitleColumn, profile::sectionExplanation(which));
            QFont italic = section->font(TitleColumn);
            italic.setItalic(true);
            section->setFont(TitleColumn, italic);
            for (const Row* row : found->second)
                addRow(section, *row, baseline != nullptr, muted);
        }
    }
    m_tree->expandAll();
    // Columns fit their contents plus a gap, so neighbouring values never touch; still resizable.
    for (int column : {TitleColumn, ValueColumn, BaselineColumn, ChangeColumn}) {
        m_tree->resizeColumnToContents(column);
        m_tree->setColumnWidth(column, m_tree->columnWidth(column) + 16);
    }
    if (m_tree->topLevelItemCount() == 0) {
        auto* empty = new QTreeWidgetItem(m_tree);
        empty->setText(TitleColumn, tr("No kernels in this session yet. Profile a kernel or open a session (File menu)."));
        empty->setFirstColumnSpanned(true);
        empty->setForeground(TitleColumn, muted);
    }
    applyFilter(); // the filter stays as typed when another session is shown
}

QTreeWidgetItem* ProfileMetricsTable::findRow(const QString& kernel, const QString& key) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (group->data(TitleColumn, kKeyRole).toString() != kernel)
            continue;
        for (int j = 0; j < group->childCount(); ++j)
            for (int k = 0; k < group->child(j)->childCount(); ++k)
                if (group->child(j)->child(k)->data(TitleColumn, kKeyRole).toString() == key)
                    return group->child(j)->child(k);
    }
    return nullptr;
}

QString ProfileMetricsTable::rowNote(const QString& kernel, const QString& key) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row != nullptr && row->childCount() > 0 ? row->child(0)->text(TitleColumn) : QString();
}

QString ProfileMetricsTable::rowNoteToolTip(const QString& kernel, const QString& key) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row != nullptr && row->childCount() > 0 ? row->child(0)->toolTip(TitleColumn) : QString();
}

QString ProfileMetricsTable::sectionOf(const QString& kernel, const QString& key) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row ? row->parent()->data(TitleColumn, kKeyRole).toString() : QString();
}

QStringList ProfileMetricsTable::sections(const QString& kernel) const
{
    QStringList keys;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (group->data(TitleColumn, kKeyRole).toString() == kernel)
            for (int j = 0; j < group->childCount(); ++j)
                keys << group->child(j)->data(TitleColumn, kKeyRole).toString();
    }
    return keys;
}

bool ProfileMetricsTable::rowShown(const QString& kernel, const QString& key) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row != nullptr && !row->isHidden() && !row->parent()->isHidden() && !row->parent()->parent()->isHidden();
}

QStringList ProfileMetricsTable::rowKeys(const QString& kernel) const
{
    QStringList keys;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (group->data(TitleColumn, kKeyRole).toString() == kernel)
            for (int j = 0; j < group->childCount(); ++j)
                for (int k = 0; k < group->child(j)->childCount(); ++k)
                    keys << group->child(j)->child(k)->data(TitleColumn, kKeyRole).toString();
    }
    return keys;
}

QString ProfileMetricsTable::cellText(const QString& kernel, const QString& key, Column column) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row ? row->text(column) : QString();
}

QString ProfileMetricsTable::cellToolTip(const QString& kernel, const QString& key, Column column) const
{
    const QTreeWidgetItem* row = findRow(kernel, key);
    return row ? row->toolTip(column) : QString();
}

QStringList ProfileMetricsTable::kernels() const
{
    QStringList ids;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        if (m_tree->topLevelItem(i)->data(TitleColumn, kKindRole).toInt() == KernelItem)
            ids << m_tree->topLevelItem(i)->data(TitleColumn, kKeyRole).toString();
    return ids;
}

} // namespace warpscope::viz
