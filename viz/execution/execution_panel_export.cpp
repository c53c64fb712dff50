// ExecutionPanel, continued: "Export Timeline for Perfetto…", which runs exportPerfettoTimeline
// (timeline_export.h) for the launch in the view's fields on the view's worker, with its progress bar
// and Cancel, and says in the status line what was written or why not.
#include "execution/execution_panel.h"

#include "execution/timeline_export.h"
#include "precision/precision_lab_worker.h"
#include "util/parse.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QStandardPaths>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <string>

namespace warpscope::viz {

void ExecutionPanel::exportTimelineInteractive()
{
    if (busy()) {
        m_status->setText(QStringLiteral("Wait for the run to finish, or cancel it (Esc), before exporting a timeline."));
        return;
    }
    const QString name = m_kernel->currentData().toString() + QStringLiteral("-timeline.json");
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export Timeline for Perfetto"),
        QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).filePath(name),
        QStringLiteral("Chrome trace for ui.perfetto.dev (*.json)"));
    if (!path.isEmpty())
        exportTimeline(path);
}

void ExecutionPanel::exportTimeline(const QString& path)
{
    const auto fail = [this](const QString& message) {
        m_lastError = message;
        m_status->setText(QStringLiteral("<span style='color:#d04030'>%1</span>").arg(message.toHtmlEscaped()));
        emit timelineExported(false, message);
    };
    if (busy()) {
        fail(QStringLiteral("Not exported: a run is working; wait for it, or cancel it (Esc), then export the timeline."));
        return;
    }
    TimelineExportRequest request;
    request.target = launchTarget();
    request.blockIndex = blockIndexText();
    request.registersPerThread = m_registersPerThread;
    request.path = QFile::encodeName(path).toStdString();
    request.maxSeconds = kMaxStepperSeconds;
    setPlaying(false);
    m_status->setText(QStringLiteral("Simulating the launch with the timing model for its timeline..."));
    m_runInFlight = false; // the export replaces a run still queued or working
    m_worker->submit([this, request, path, fail](const LabWorker::Progress& progress,
                                                 const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        TimelineExportResult result;
        QString error;
        try {
            result = exportPerfettoTimeline(request, &cancel, [&](std::uint64_t done, std::uint64_t total) {
                progress(static_cast<int>(std::min<std::uint64_t>(done, 1u << 30)), static_cast<int>(std::min<std::uint64_t>(total, 1u << 30)));
            });
        } catch (const kernels::CompileFailed& failed) {
            error = QStringLiteral("The kernel does not compile: %1").arg(QString::fromStdString(failed.what()));
        } catch (const std::exception& failed) {
            error = QString::fromStdString(failed.what());
        }
        return [this, result, error, path, fail] {
            if (!error.isEmpty())
                return fail(error);
            if (result.cancelled)
                return fail(QStringLiteral("Timeline export cancelled: %1 was not written.").arg(path));
            QStringList blocks;
            for (const std::uint64_t block : result.blocks)
                blocks << QString::number(block);
            const QString message =
                QStringLiteral("Wrote %1: the timing model's timeline of %2 on the %3 (a model, not a measurement), blocks %4 on "
                               "SM %5: %6 warp-instructions of %7 warps%8. Open it at https://ui.perfetto.dev")
                    .arg(path, QString::fromStdString(result.kernelName), QString::fromStdString(result.presetName),
                         blocks.join(QStringLiteral(", ")))
                    .arg(result.sm)
                    .arg(QString::fromStdString(withThousands(static_cast<std::int64_t>(result.counts.instructionSlices))))
                    .arg(result.counts.warps)
                    .arg(result.truncated ? QStringLiteral(" (cut at the trace's event limit)") : QString());
            m_lastError.clear();
            m_status->setText(message.toHtmlEscaped());
            emit timelineExported(true, message);
        };
    });
}

} // namespace warpscope::viz
