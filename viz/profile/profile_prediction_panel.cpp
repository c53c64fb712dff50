#include "profile/profile_prediction_panel.h"

#include "session/metric_catalog.h"
#include "session/session.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace warpscope::viz {
namespace {

using namespace profile;

double nan() { return std::nan(""); }

enum class Kind { Ratio, Count, Percent };

QString valueText(double value, Kind kind)
{
    switch (kind) {
    case Kind::Ratio: return formatRatio(value);
    case Kind::Count: return formatCount(value);
    case Kind::Percent: return formatPercent(value);
    }
    return {};
}

QString signedText(double delta, Kind kind)
{
    const QString sign = delta > 0 ? QStringLiteral("+") : QStringLiteral("\u2212");
    switch (kind) {
    case Kind::Ratio: return sign + formatRatio(std::fabs(delta));
    case Kind::Count: return sign + formatCount(std::fabs(delta));
    case Kind::Percent: return sign + formatRatio(std::fabs(delta)).chopped(1) + QStringLiteral(" pts");
    }
    return {};
}

// "measured - predicted": "same", "+0.50 (+12.5 %)", "−12.5 pts".
QString differenceText(double predicted, double measured, Kind kind)
{
    if (std::isnan(predicted) || std::isnan(measured))
        return QStringLiteral("\u2014");
    const double delta = measured - predicted;
    if (delta == 0)
        return QObject::tr("same");
    if (kind == Kind::Percent)
        return signedText(delta, kind);
    if (predicted == 0)
        return signedText(delta, kind) + QObject::tr(" (none predicted)");
    return signedText(delta, kind) + QStringLiteral(" (") + formatChange(measured, predicted) + QLatin1Char(')');
}

double metricValue(const session::MetricsRecord* record, const char* name)
{
    if (record == nullptr)
        return nan();
    auto it = record->values.find(name);
    return it == record->values.end() ? nan() : it->second;
}

double ratio(double numerator, double denominator) { return denominator > 0 ? numerator / denominator : nan(); }

// Every compared quantity of one kernel, from its records; NaN where a record or value is missing.
struct Quantities {
    double loadSectorsPerRequest = nan(), storeSectorsPerRequest = nan(), bankConflicts = nan();
    double branchUniformity = nan(), occupancy = nan(), fp32Flop = nan();
};

Quantities predictedQuantities(const session::PredictionRecord* p, const session::OccupancyRecord* occupancy)
{
    Quantities q;
    if (p != nullptr) {
        q.loadSectorsPerRequest = ratio(static_cast<double>(p->globalLoadSectors), static_cast<double>(p->globalLoadRequests));
        q.storeSectorsPerRequest = ratio(static_cast<double>(p->globalStoreSectors), static_cast<double>(p->globalStoreRequests));
        q.bankConflicts = static_cast<double>(p->sharedBankConflicts);
        const double branches = static_cast<double>(p->branchesUniform + p->branchesDivergent);
        q.branchUniformity = branches > 0 ? static_cast<double>(p->branchesUniform) / branches * 100.0 : nan();
        q.fp32Flop = static_cast<double>(p->fadd + p->fmul) + 2.0 * static_cast<double>(p->ffma);
    }
    if (occupancy != nullptr)
        q.occupancy = occupancy->theoretical * 100.0;
    return q;
}

Quantities measuredQuantities(const session::MetricsRecord* m)
{
    using namespace session::metric;
    Quantities q;
    if (m == nullptr)
        return q;
    const session::DerivedMetrics d = session::deriveMetrics(*m);
    q.loadSectorsPerRequest = d.globalLoadSectorsPerRequest;
    q.storeSectorsPerRequest = d.globalStoreSectorsPerRequest;
    q.bankConflicts = d.sharedBankConflicts;
    q.branchUniformity = metricValue(m, kBranchUniformPct);
    q.occupancy = metricValue(m, kWarpsActive);
    q.fp32Flop = d.fp32Flops;
    return q;
}

} // namespace

std::vector<PredictionKernel> predictionModel(const session::Session& current, const session::Session* baseline)
{
    using namespace session::metric;
    std::vector<PredictionKernel> kernels;
    for (const std::string& id : sessionKernelIds(current)) {
        PredictionKernel kernel;
        kernel.kernel = id;
        kernel.label = kernelLabel(current, id);
        const session::PredictionRecord* p = current.predictionFor(id);
        const session::OccupancyRecord* occupancy = current.occupancyFor(id);
        const session::MetricsRecord* m = current.metricsFor(id);
        const Quantities predicted = predictedQuantities(p, occupancy);
        const Quantities measured = measuredQuantities(m);
        const std::optional<Quantities> before =
            baseline != nullptr && baseline->metricsFor(id) != nullptr
                ? std::optional(measuredQuantities(baseline->metricsFor(id)))
                : std::nullopt;
        const QString preset = p ? QString::fromStdString(p->preset) : QString();
        const QString noPrediction = p ? QString() : QObject::tr("not predicted");
        const QString noMeasurement = m ? QString() : QObject::tr("not measured");

        auto add = [&](const char* key, const QString& title, double Quantities::*field, Kind kind, const QString& tip,
                       const QString& missingPrediction) {
            PredictionRow row;
            row.key = QLatin1String(key);
            row.title = title;
            row.predicted = predicted.*field;
            row.measured = measured.*field;
            row.predictedText = std::isnan(row.predicted) ? missingPrediction : valueText(row.predicted, kind);
            row.measuredText = std::isnan(row.measured) ? (m ? QObject::tr("not measured") : noMeasurement)
                                                        : valueText(row.measured, kind);
            row.differenceText = differenceText(row.predicted, row.measured, kind);
            row.agreement = agreementOf(row.predicted, row.measured);
            if (before) {
                const double b = (*before).*field;
                row.baselineText = std::isnan(b) ? QStringLiteral("\u2014") : valueText(b, kind);
                row.changeText = std::isnan(b) || std::isnan(row.measured) ? QStringLiteral("\u2014") : formatChange(row.measured, b);
            } else if (baseline != nullptr) {
                row.baselineText = row.changeText = QStringLiteral("\u2014");
            }
            row.toolTip = tip;
            kernel.rows.push_back(row);
        };
        const QString loadTip =
            p ? QObject::tr("Predicted: %1 sectors / %2 requests (simulator, preset %3). 4 sectors per request is a "
                            "warp reading 32 consecutive 4-byte words; 32 is one sector per lane.")
                    .arg(formatExactValue(static_cast<double>(p->globalLoadSectors), {}),
                         formatExactValue(static_cast<double>(p->globalLoadRequests), {}), preset)
              : QString();
        add("global_load_sectors_per_request", QObject::tr("Global load sectors per request"),
            &Quantities::loadSectorsPerRequest, Kind::Ratio,
            loadTip + QObject::tr(" Measured: %1 / %2.").arg(QLatin1String(kGlobalLoadSectors), QLatin1String(kGlobalLoadRequests)),
            p && p->globalLoadRequests == 0 ? QObject::tr("no global loads") : noPrediction);
        const QString storeTip =
            p ? QObject::tr("Predicted: %1 sectors / %2 requests (simulator, preset %3).")
                    .arg(formatExactValue(static_cast<double>(p->globalStoreSectors), {}),
                         formatExactValue(static_cast<double>(p->globalStoreRequests), {}), preset)
              : QString();
        add("global_store_sectors_per_request", QObject::tr("Global store sectors per request"),
            &Quantities::storeSectorsPerRequest, Kind::Ratio,
            storeTip + QObject::tr(" Measured: %1 / %2.").arg(QLatin1String(kGlobalStoreSectors), QLatin1String(kGlobalStoreRequests)),
            p && p->globalStoreRequests == 0 ? QObject::tr("no global stores") : noPrediction);
        add("shared_bank_conflicts", QObject::tr("Shared-memory bank conflicts"), &Quantities::bankConflicts, Kind::Count,
            QObject::tr("Extra shared-memory wavefronts caused by lanes hitting the same bank at different addresses, "
                        "loads and stores together. Measured: %1 + %2.")
                .arg(QLatin1String(kSharedLoadConflicts), QLatin1String(kSharedStoreConflicts)),
            noPrediction);
        add("branch_uniformity", QObject::tr("Branch uniformity"), &Quantities::branchUniformity, Kind::Percent,
            (p ? QObject::tr("Predicted: %1 uniform of %2 warp branches (simulator). ")
                     .arg(formatExactValue(static_cast<double>(p->branchesUniform), {}),
                          formatExactValue(static_cast<double>(p->branchesUniform + p->branchesDivergent), {}))
               : QString()) +
                QObject::tr("Measured: %1 (SASS branches, so the counts differ from PTX's).").arg(QLatin1String(kBranchUniformPct)),
            p && p->branchesUniform + p->branchesDivergent == 0 ? QObject::tr("no branches") : noPrediction);
        add("occupancy", QObject::tr("Occupancy: theoretical vs achieved"), &Quantities::occupancy, Kind::Percent,
            (occupancy ? QObject::tr("Theoretical: %1 blocks per SM with %2 registers per thread, limited by %3; %4 waves. ")
                             .arg(occupancy->activeBlocksPerSm)
                             .arg(occupancy->registersPerThread)
                             .arg(QString::fromStdString(occupancy->limiter), formatRatio(occupancy->waves))
                       : QString()) +
                QObject::tr("Achieved: %1, the warps really resident while the kernel ran.").arg(QLatin1String(kWarpsActive)),
            QObject::tr("no occupancy record"));
        add("fp32_flop", QObject::tr("FP32 FLOP (add + mul + 2 \u00d7 FMA)"), &Quantities::fp32Flop, Kind::Count,
            QObject::tr("Thread-level FP32 operations; an FMA counts as 2 FLOP. Measured: %1, %2, %3.")
                .arg(QLatin1String(kFadd), QLatin1String(kFmul), QLatin1String(kFfma)),
            noPrediction);

        PredictionRow check;
        check.key = QStringLiteral("check");
        check.title = QObject::tr("Output check");
        check.predicted = check.measured = nan();
        if (const session::CheckRecord* c = current.checkFor(id)) {
            check.predictedText = QObject::tr("reference: %1").arg(QString::fromStdString(c->reference));
            check.measuredText = c->matches ? QObject::tr("matches") : QObject::tr("MISMATCH");
            check.differenceText = QString::fromStdString(c->detail);
            check.agreement = c->matches ? Agreement::Agrees : Agreement::Differs;
            check.toolTip = QString::fromStdString(c->detail);
        } else {
            check.predictedText = QStringLiteral("\u2014");
            check.measuredText = QObject::tr("not checked");
            check.differenceText = QStringLiteral("\u2014");
        }
        if (baseline != nullptr) {
            const session::CheckRecord* b = baseline->checkFor(id);
            check.baselineText = b ? (b->matches ? QObject::tr("matches") : QObject::tr("MISMATCH")) : QStringLiteral("\u2014");
            check.changeText = QStringLiteral("\u2014");
        }
        kernel.rows.push_back(check);
        kernels.push_back(kernel);
    }
    return kernels;
}

ProfilePredictionPanel::ProfilePredictionPanel(QWidget* parent) : QWidget(parent)
{
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("predictionTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Quantity"), tr("Predicted (simulator)"), tr("Measured (GPU)"),
                                        tr("Measured \u2212 predicted"), tr("Baseline measured"), tr("Change")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setColumnWidth(QuantityColumn, 250);
    m_table->setColumnWidth(PredictedColumn, 150);
    m_table->setColumnWidth(MeasuredColumn, 130);
    m_table->setColumnWidth(DifferenceColumn, 240);
    m_table->setColumnWidth(BaselineColumn, 130);
    m_table->setColumnWidth(ChangeColumn, 90);
    m_table->setWordWrap(false);
    m_legend = new QLabel(this);
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
    for (const PredictionKernel& kernel : m_model)
        rows += 1 + static_cast<int>(kernel.rows.size());
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
                item->setToolTip(column == DifferenceColumn && row.key == QLatin1String("check") ? text : row.toolTip);
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
        }
    }
    if (m_model.empty())
        m_table->setItem(0, QuantityColumn, new QTableWidgetItem(tr("No kernels in this session yet.")));

    QString presets;
    for (const session::PredictionRecord& p : current.predictions)
        if (!presets.contains(QString::fromStdString(p.preset)))
            presets += (presets.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(p.preset);
    m_legend->setText(tr("Predicted: Warpscope's simulator for the same launch, whole grid%1; theoretical occupancy "
                         "from core/occupancy with the kernel's real registers. Measured: CUPTI counters on the GPU. "
                         "Green: within 2 %; amber: within 10 %; red: further apart.")
                          .arg(presets.isEmpty() ? QString() : tr(" (preset %1)").arg(presets)));
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

} // namespace warpscope::viz
