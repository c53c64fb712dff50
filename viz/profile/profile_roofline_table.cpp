#include "profile/profile_roofline_table.h"

#include "common/export_actions.h"
#include "profile/profile_format.h"
#include "session/session.h"
#include "session/sgemm_reference.h"

#include <QEvent>
#include <QHeaderView>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace warpscope::viz {
namespace {

using namespace profile;
using session::MemoryLevel;

// Three significant digits, never an exponent: "0.0833", "0.241", "3.76", "51.8", "1,234".
QString formatIntensity(double intensity)
{
    if (std::isinf(intensity))
        return QStringLiteral("unbounded");
    if (std::isnan(intensity))
        return QStringLiteral("n/a");
    if (intensity >= 100.0)
        return QLocale(QLocale::English).toString(intensity, 'f', 0);
    if (!(intensity > 0.0)) // no FLOP: log10 below would be -inf, whose cast to int is undefined (UBSan)
        return QStringLiteral("0");
    const int decimals = intensity >= 10.0 ? 1 : intensity >= 1.0 ? 2 : std::max(2, 2 - static_cast<int>(std::floor(std::log10(intensity))));
    return QString::number(intensity, 'f', std::min(decimals, 6));
}

QString levelText(MemoryLevel level) { return QString::fromLatin1(session::levelName(level).data()); }

// Marks the cells of levels (or kernels) with no point, drawn muted.
constexpr int kNotPlottedRole = Qt::UserRole + 1;

} // namespace

QString rooflineCellText(const session::KernelRoofline& kernel, MemoryLevel level, const session::RooflineRoofs& roofs)
{
    const session::LevelPoint& p = kernel.at(level);
    const double share = session::shareOfRoof(kernel, level, roofs);
    const QString shareText = std::isnan(share) ? QString() : QStringLiteral(" · ") + formatPercent(share * 100.0);
    if (p.plotted())
        return formatIntensity(p.intensity) + QStringLiteral(" FLOP/B") + shareText +
               (level == MemoryLevel::Dram && kernel.warmCaches() ? QStringLiteral(" · warm") : QString());
    // A data mover has no point, but its bandwidth at every level is still worth reading.
    if (p.gap == session::RooflineGap::ZeroFlops && !std::isnan(p.bytesPerSecond))
        return formatBytesPerSecond(p.bytesPerSecond) + shareText;
    return QString::fromStdString(session::gapSummary(p.gap, level));
}

QString rooflineCellToolTip(const session::KernelRoofline& kernel, MemoryLevel level, const session::RooflineRoofs& roofs)
{
    const session::LevelPoint& p = kernel.at(level);
    const QString name = levelText(level);
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> at %2").arg(QString::fromStdString(kernel.kernel).toHtmlEscaped(), name);
    if (!std::isnan(p.bytes)) {
        lines << QStringLiteral("%1 moved at %2 in %3: %4").arg(formatBytes(p.bytes), name,
                                                               formatDurationNs(kernel.durationSeconds * 1e9),
                                                               formatBytesPerSecond(p.bytesPerSecond));
        lines << QStringLiteral("%1 FP32 FLOP / %2 = %3 FLOP per %4 byte")
                     .arg(formatCount(kernel.fp32Flops), formatBytes(p.bytes), formatIntensity(p.intensity), name);
    }
    const double share = session::shareOfRoof(kernel, level, roofs);
    if (!std::isnan(share)) {
        const session::LevelRoofs& roof = roofs.at(level);
        lines << QStringLiteral("%1 of the %2 %3 roof (%4) at this intensity")
                     .arg(formatPercent(share * 100.0), roof.measured.bytesPerSecond > 0 ? QStringLiteral("measured") : QStringLiteral("peak"),
                          name, formatBytesPerSecond(roof.reference()));
    } else if (!roofs.at(level).missing.empty()) {
        lines << QString::fromStdString(roofs.at(level).missing).toHtmlEscaped();
    }
    if (level == MemoryLevel::Dram && kernel.warmCaches())
        lines << QStringLiteral("<b>Warm caches:</b> ") + QString::fromStdString(session::warmCachesExplanation(kernel)).toHtmlEscaped();
    if (!p.plotted())
        lines << QStringLiteral("<i>Not on the plot:</i> ") + QString::fromStdString(session::gapExplanation(p.gap, level)).toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

ProfileRooflineTable::ProfileRooflineTable(QWidget* parent) : QTableWidget(parent)
{
    setObjectName(QStringLiteral("rooflineTable"));
    installTableExport(this, QStringLiteral("roofline"));
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({tr("Kernel"), tr("FP32"), tr("L1"), tr("L2"), tr("DRAM")});
    const QString levelTip = tr("FP32 FLOP per byte moved at %1 (the point's x), and the share of the %1 roof the kernel "
                                "reached at that intensity. Hover a cell for the bytes and bandwidth.");
    horizontalHeaderItem(FlopsColumn)->setToolTip(tr("Achieved FP32 FLOP/s: fadd + fmul + 2 x ffma over the kernel's duration "
                                                     "(the y of all its points)."));
    for (MemoryLevel level : session::kMemoryLevels)
        horizontalHeaderItem(levelColumn(level))->setToolTip(levelTip.arg(levelText(level)));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setWordWrap(false);
    setShowGrid(false);
    setAlternatingRowColors(true);
    verticalHeader()->setVisible(false);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(KernelColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

void ProfileRooflineTable::setModel(const session::Session& session, const std::vector<session::KernelRoofline>& kernels,
                                    const session::RooflineRoofs& roofs)
{
    clearSpans();
    setRowCount(0);
    setRowCount(static_cast<int>(kernels.size()));
    for (int row = 0; row < static_cast<int>(kernels.size()); ++row) {
        const session::KernelRoofline& k = kernels[static_cast<std::size_t>(row)];
        auto* name = new QTableWidgetItem(QString::fromStdString(k.kernel));
        name->setToolTip(plainToolTip(kernelLabel(session, k.kernel)));
        setItem(row, KernelColumn, name);

        const session::RooflineGap kernelGap = k.at(MemoryLevel::Dram).gap;
        const bool kernelWide = kernelGap == session::RooflineGap::NoMetrics || kernelGap == session::RooflineGap::FlopsNotMeasured ||
                                kernelGap == session::RooflineGap::ZeroFlops || kernelGap == session::RooflineGap::DurationNotMeasured;
        auto* flops = new QTableWidgetItem(kernelWide ? QString::fromStdString(session::gapSummary(kernelGap, MemoryLevel::Dram))
                                                      : formatFlopsPerSecond(k.flopsPerSecond));
        QString flopsTip = QStringLiteral("%1 FP32 FLOP in %2").arg(formatCount(k.fp32Flops), formatDurationNs(k.durationSeconds * 1e9));
        if (kernelGap == session::RooflineGap::NoMetrics)
            flopsTip = plainToolTip(noMetricsReason(session, k.kernel)); // it may quote the session's error message
        else if (kernelWide)
            flopsTip += QStringLiteral("<br><i>Not on the plot:</i> ") +
                        QString::fromStdString(session::gapExplanation(kernelGap, MemoryLevel::Dram)).toHtmlEscaped();
        flops->setToolTip(flopsTip);
        flops->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        flops->setData(kNotPlottedRole, kernelWide);
        setItem(row, FlopsColumn, flops);

        for (MemoryLevel level : session::kMemoryLevels) {
            auto* cell = new QTableWidgetItem(rooflineCellText(k, level, roofs));
            cell->setToolTip(rooflineCellToolTip(k, level, roofs));
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            cell->setData(kNotPlottedRole, !k.at(level).plotted());
            setItem(row, levelColumn(level), cell);
        }
    }
    addSgemmReference(session);
    recolour();
    resizeColumnsToContents();
    updateGeometry();
}

// The matmul ladder's reference rung, cuBLAS SGEMM, as a last row, and each matmul rung's share of it
// beside its FLOP/s; nothing when the session holds no reference.
void ProfileRooflineTable::addSgemmReference(const session::Session& session)
{
    const session::SgemmReference reference = session::sgemmReference(session);
    if (!reference.measured)
        return;
    const QString rate = formatFlopsPerSecond(reference.flopsPerSecond);
    for (const session::RungAgainstReference& r : session::matmulRungsAgainstReference(session)) {
        const int row = rowOf(QString::fromStdString(r.kernel));
        QTableWidgetItem* flops = row < 0 ? nullptr : item(row, FlopsColumn);
        if (flops == nullptr)
            continue;
        if (!std::isnan(r.share))
            flops->setText(flops->text() + QStringLiteral(" \u00b7 ") + tr("%1 of cuBLAS").arg(formatPercent(r.share * 100.0)));
        flops->setToolTip(flops->toolTip() + QStringLiteral("<br>") +
                          (std::isnan(r.share)
                               ? tr("No share of cuBLAS SGEMM: %1").arg(QString::fromStdString(r.why).toHtmlEscaped())
                               : tr("%1 of cuBLAS SGEMM (%2 at n = %3): 2 n\u00b3 FLOP over the median of the timed runs is %4")
                                     .arg(formatPercent(r.share * 100.0), rate, QString::number(reference.n),
                                          formatFlopsPerSecond(r.flopsPerSecond))));
    }
    const int row = rowCount();
    setRowCount(row + 1);
    auto* name = new QTableWidgetItem(tr("cuBLAS SGEMM"));
    name->setToolTip(plainToolTip(tr("The matrix-multiply ladder's reference rung: cuBLAS SGEMM (FP32, no TF32) at n = %1, "
                                     "measured by the probe in this session. %2")
                                      .arg(reference.n)
                                      .arg(QString::fromStdString(reference.method))));
    setItem(row, KernelColumn, name);
    auto* flops = new QTableWidgetItem(rate);
    flops->setToolTip(name->toolTip());
    flops->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setItem(row, FlopsColumn, flops);
    auto* levels = new QTableWidgetItem(tr("the matmul ladder's reference at n = %1: timed, no counters").arg(reference.n));
    levels->setToolTip(tr("The probe times cuBLAS; it does not count its bytes, so it has no point on the plot, only the "
                          "dotted line at its FLOP/s."));
    levels->setData(kNotPlottedRole, true);
    setItem(row, L1Column, levels);
    setSpan(row, L1Column, 1, ColumnCount - L1Column);
}

int ProfileRooflineTable::rowOf(const QString& kernel) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (item(row, KernelColumn) != nullptr && item(row, KernelColumn)->text() == kernel)
            return row;
    return -1;
}

QString ProfileRooflineTable::cellText(const QString& kernel, Column column) const
{
    const int row = rowOf(kernel);
    return row < 0 || item(row, column) == nullptr ? QString() : item(row, column)->text();
}

QString ProfileRooflineTable::cellToolTip(const QString& kernel, Column column) const
{
    const int row = rowOf(kernel);
    return row < 0 || item(row, column) == nullptr ? QString() : item(row, column)->toolTip();
}

QSize ProfileRooflineTable::sizeHint() const
{
    // Room for every row up to about eight; more scroll.
    const int rows = std::min(rowCount(), 8);
    const int height = rowCount() > 0 ? rowHeight(0) : fontMetrics().height() + 6;
    return {QTableWidget::sizeHint().width(), horizontalHeader()->sizeHint().height() + rows * height + 2 * frameWidth() + 2};
}

// Cells without a point in the palette's muted text colour (again after a theme change).
void ProfileRooflineTable::recolour()
{
    const QColor muted = palette().color(QPalette::PlaceholderText);
    for (int row = 0; row < rowCount(); ++row)
        for (int column = FlopsColumn; column < ColumnCount; ++column)
            if (QTableWidgetItem* cell = item(row, column))
                cell->setForeground(cell->data(kNotPlottedRole).toBool() ? QBrush(muted) : QBrush());
}

void ProfileRooflineTable::changeEvent(QEvent* event)
{
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        recolour();
}

} // namespace warpscope::viz
