// Sections: the model (the rows core/session/prediction_comparison.h builds, as QStrings) · the panel.
#include "profile/profile_prediction_panel.h"

#include "common/export_actions.h"
#include "session/prediction_comparison.h"
#include "session/session.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace warpscope::viz {
namespace {

using namespace profile;

// The window writes the rows' numbers as every profile view does: grouped, human-scaled.
const session::NumberText& windowNumbers()
{
    static const session::NumberText numbers{
        [](double value) { return formatCount(value).toStdString(); },
        [](double value) { return formatPercent(value).toStdString(); },
        [](double value) { return formatRatio(value).toStdString(); },
        [](double value) { return formatExactValue(value, {}).toStdString(); },
        [](double current, double baseline) { return formatChange(current, baseline).toStdString(); },
    };
    return numbers;
}

} // namespace

// ---- The model: core/session/prediction_comparison.h's rows, as the table shows them ----------------

std::vector<PredictionKernel> predictionModel(const session::Session& current, const session::Session* baseline)
{
    std::vector<PredictionKernel> kernels;
    for (const session::KernelComparison& k : session::comparePredictions(current, baseline, windowNumbers())) {
        PredictionKernel kernel;
        kernel.kernel = k.kernel;
        kernel.label = kernelLabel(current, k.kernel);
        for (const session::ComparisonRow& r : k.rows) {
            PredictionRow row;
            row.key = QString::fromStdString(r.key);
            row.title = QString::fromStdString(r.title);
            row.predicted = r.predicted;
            row.measured = r.measured;
            row.predictedText = QString::fromStdString(r.predictedText);
            row.measuredText = QString::fromStdString(r.measuredText);
            row.differenceText = QString::fromStdString(r.differenceText);
            row.agreement = r.agreement;
            row.baselineText = QString::fromStdString(r.baselineText);
            row.changeText = QString::fromStdString(r.changeText);
            row.note = QString::fromStdString(r.note);
            row.toolTip = QString::fromStdString(r.detail);
            kernel.rows.push_back(row);
        }
        kernels.push_back(kernel);
    }
    return kernels;
}

// ---- The panel -------------------------------------------------------------------------------------

ProfilePredictionPanel::ProfilePredictionPanel(QWidget* parent) : QWidget(parent)
{
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("predictionTable"));
    installTableExport(m_table, QStringLiteral("predicted-vs-measured"));
    m_table->setColumnCount(ColumnCount);
    // Short headers, the whole story on hover: with the Profile view in a dock the long ones pushed
    // Measured off the side.
    m_table->setHorizontalHeaderLabels({tr("Quantity"), tr("Predicted"), tr("Measured"), tr("Measured \u2212 predicted"),
                                        tr("Baseline"), tr("Change")});
    const QString headerTips[] = {tr("What is compared, per kernel"),
                                  tr("Predicted by Warpscope's simulator running the kernel's PTX for the same launch"),
                                  tr("Measured on the GPU by CUPTI counters (the SASS ptxas made of that PTX)"),
                                  tr("Measured minus predicted, coloured by how far apart they are"),
                                  tr("Measured in the baseline session"), tr("Measured now against the baseline")};
    for (int column = 0; column < ColumnCount; ++column)
        m_table->horizontalHeaderItem(column)->setToolTip(headerTips[column]);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // The values' columns as wide as their values (fitColumns), the quantity's takes the rest.
    m_table->horizontalHeader()->setSectionResizeMode(QuantityColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setWordWrap(true); // a note under a row wraps in its span instead of ending in "…"
    m_table->setTextElideMode(Qt::ElideRight);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("predictionLegend"));
    m_legend->setTextFormat(Qt::PlainText); // it names the session's presets
    m_legend->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_legend);
    setSession(session::Session{}, nullptr);
}

void ProfilePredictionPanel::setSession(const session::Session& current, const session::Session* baseline)
{
    m_model = predictionModel(current, baseline);
    m_table->clearContents();
    m_table->clearSpans();
    m_table->setColumnHidden(BaselineColumn, baseline == nullptr);
    m_table->setColumnHidden(ChangeColumn, baseline == nullptr);
    int rows = 0;
    for (const PredictionKernel& kernel : m_model) {
        rows += 1 + static_cast<int>(kernel.rows.size());
        for (const PredictionRow& row : kernel.rows)
            rows += row.note.isEmpty() ? 0 : 1;
    }
    m_table->setRowCount(std::max(rows, 1));
    int r = 0;
    const QPalette& pal = palette();
    for (const PredictionKernel& kernel : m_model) {
        auto* header = new QTableWidgetItem(kernel.label);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        header->setData(Qt::UserRole, QString::fromStdString(kernel.kernel));
        m_table->setItem(r, QuantityColumn, header);
        m_table->setSpan(r, 0, 1, ColumnCount);
        ++r;
        for (const PredictionRow& row : kernel.rows) {
            auto set = [&](Column column, const QString& text, bool alignRight) {
                auto* item = new QTableWidgetItem(text);
                // Plain text that may quote the session (a check's detail, the occupancy limiter).
                item->setToolTip(plainToolTip(column == DifferenceColumn && row.key == QLatin1String("check") ? text : row.toolTip));
                if (alignRight)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(r, column, item);
                return item;
            };
            QTableWidgetItem* quantity = set(QuantityColumn, QStringLiteral("    ") + row.title, false);
            quantity->setData(Qt::UserRole, row.key);
            set(PredictedColumn, row.predictedText, true);
            set(MeasuredColumn, row.measuredText, true);
            QTableWidgetItem* difference = set(DifferenceColumn, row.differenceText, row.key != QLatin1String("check"));
            const QColor colour = agreementColor(row.agreement, pal);
            if (colour.isValid()) {
                difference->setBackground(colour);
                m_table->item(r, MeasuredColumn)->setBackground(colour);
            }
            if (baseline != nullptr) {
                set(BaselineColumn, row.baselineText, true);
                set(ChangeColumn, row.changeText, true);
            }
            ++r;
            if (!row.note.isEmpty()) {
                // Why they differ: a muted line under the row, across the value columns.
                auto* note = new QTableWidgetItem(QStringLiteral("\u21b3 ") + row.note);
                note->setToolTip(plainToolTip(row.toolTip));
                note->setForeground(pal.color(QPalette::PlaceholderText));
                QFont italic = note->font();
                italic.setItalic(true);
                note->setFont(italic);
                note->setData(Qt::UserRole, row.key);
                m_table->setItem(r, PredictedColumn, note);
                m_table->setSpan(r, PredictedColumn, 1, ColumnCount - PredictedColumn);
                ++r;
            }
        }
    }
    if (m_model.empty())
        m_table->setItem(0, QuantityColumn, new QTableWidgetItem(tr("No kernels in this session yet.")));
    fitColumns();

    QString presets;
    bool sampled = false, timed = false, stalls = false;
    for (const PredictionKernel& kernel : m_model)
        for (const PredictionRow& row : kernel.rows)
            stalls = stalls || row.key.startsWith(QLatin1String("stall_"));
    for (const session::PredictionRecord& p : current.predictions) {
        if (!presets.contains(QString::fromStdString(p.preset)))
            presets += (presets.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(p.preset);
        sampled = sampled || (p.simulatedBlocks > 0 && p.simulatedBlocks < p.totalBlocks);
        timed = timed || p.predictedNs > 0;
    }
    m_legend->setText(tr("Predicted: Warpscope's simulator running the PTX for the same launch, %1%2; theoretical "
                         "occupancy from core/occupancy with the kernel's real registers. Measured: CUPTI counters on "
                         "the GPU, which runs the SASS ptxas made of that PTX. Green: within 2 %; amber: within 10 %; "
                         "red: further apart; blue: they differ for the reason given under the row (hover it for the "
                         "whole story).%3%4")
                          .arg(sampled ? tr("whole grid or a sample of its blocks, scaled (see each kernel)") : tr("whole grid"),
                               presets.isEmpty() ? QString() : tr(" (preset %1)").arg(presets),
                               timed ? tr(" Duration: the timing model's time (a model) against the median of the runs; "
                                          "green within 10 %, amber within 25 %, and the model's blind spots for the "
                                          "kernel under it.")
                                     : QString(),
                               stalls ? tr(" Stall rows: each side's share of its warps' stall cycles, under ncu's warp-state "
                                           "names with the timing model's category beside them; green within 5 points, "
                                           "amber within 15.")
                                      : QString()));
}

void ProfilePredictionPanel::fitColumns()
{
    // Each value column as wide as its widest value or header, counting only the rows' own cells: a
    // note or a kernel's title spans several columns and must not widen the first of them.
    const QFontMetrics metrics(m_table->font());
    const int padding = 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 12;
    for (int column = PredictedColumn; column < ColumnCount; ++column) {
        const QHeaderView* header = m_table->horizontalHeader();
        int width = header->fontMetrics().horizontalAdvance(m_table->horizontalHeaderItem(column)->text()) +
                    2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 8;
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (const QTableWidgetItem* item = m_table->item(r, column); item != nullptr && m_table->columnSpan(r, column) == 1)
                width = std::max(width, metrics.horizontalAdvance(item->text()) + padding);
        m_table->setColumnWidth(column, width);
    }
    fitNoteRows();
}

void ProfilePredictionPanel::fitNoteRows()
{
    // A note spans the value columns; its row is as tall as its wrapped text there.
    int span = 0;
    for (int column = PredictedColumn; column < ColumnCount; ++column)
        span += m_table->isColumnHidden(column) ? 0 : m_table->columnWidth(column);
    QFont italic = m_table->font();
    italic.setItalic(true);
    const QFontMetrics metrics(italic);
    const int single = fontMetrics().height() + 8;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QTableWidgetItem* note = m_table->item(r, QuantityColumn) == nullptr ? m_table->item(r, PredictedColumn) : nullptr;
        if (note == nullptr)
            continue;
        const QRect text = metrics.boundingRect(QRect(0, 0, std::max(40, span - 8), 10000), Qt::TextWordWrap, note->text());
        m_table->setRowHeight(r, std::max(single, text.height() + 8));
    }
}

int ProfilePredictionPanel::findRow(const QString& kernel, const QString& key) const
{
    bool inKernel = false;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QTableWidgetItem* item = m_table->item(r, QuantityColumn);
        if (item == nullptr)
            continue;
        if (m_table->columnSpan(r, 0) == ColumnCount) {
            inKernel = item->data(Qt::UserRole).toString() == kernel;
            continue;
        }
        if (inKernel && item->data(Qt::UserRole).toString() == key)
            return r;
    }
    return -1;
}

QString ProfilePredictionPanel::cellText(const QString& kernel, const QString& key, Column column) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || m_table->item(r, column) == nullptr)
        return {};
    return m_table->item(r, column)->text();
}

QColor ProfilePredictionPanel::differenceColour(const QString& kernel, const QString& key) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || m_table->item(r, DifferenceColumn) == nullptr)
        return {};
    const QBrush brush = m_table->item(r, DifferenceColumn)->background();
    return brush.style() == Qt::NoBrush ? QColor() : brush.color();
}

QString ProfilePredictionPanel::noteText(const QString& kernel, const QString& key) const
{
    const int r = findRow(kernel, key);
    if (r < 0 || r + 1 >= m_table->rowCount() || m_table->item(r + 1, QuantityColumn) != nullptr)
        return {};
    const QTableWidgetItem* note = m_table->item(r + 1, PredictedColumn);
    return note == nullptr ? QString() : note->text().mid(2);
}

Agreement ProfilePredictionPanel::agreement(const QString& kernel, const QString& key) const
{
    for (const PredictionKernel& k : m_model)
        if (QString::fromStdString(k.kernel) == kernel)
            for (const PredictionRow& row : k.rows)
                if (row.key == key)
                    return row.agreement;
    return Agreement::NotComparable;
}

} // namespace warpscope::viz
