// MainWindow, part two: the warpscope: links (lessons, launch views, occupancy, the number formats,
// the precision lab, the stepper, the performance models and recorded sessions), applied only when
// the whole link is valid.
#include "window/main_window.h"

#include "canvas/imgui_canvas.h"
#include "demo_kernels.h"
#include "execution/execution_panel.h"
#include "links/view_link.h"
#include "models/allreduce_panel.h"
#include "models/graph_launch_panel.h"
#include "models/memory_budget_panel.h"
#include "models/models_dock.h"
#include "models/pipeline_panel.h"
#include "models/streams_panel.h"
#include "numerics/quant_config.h"
#include "perf/kernel_chain.h"
#include "precision/amp/amp_panel.h"
#include "formats/format_explorer_panel.h"
#include "occupancy/occupancy_panel.h"
#include "precision/quant/quant_panel.h"
#include "precision/sparsity/sparsity_panel.h"
#include "hierarchy/hierarchy_scene.h"
#include "placement/placement_scene.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "profile/recorded_sessions.h"
#include "profile/session_file.h"
#include "sim/simulator.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QScopedValueRollback>
#include <QUrl>

#include <cstdint>
#include <optional>
#include <string>

namespace warpscope::app {

std::optional<QString> MainWindow::openArgument(const QString& argument)
{
    if (argument.startsWith(QLatin1String("warpscope:")))
        return openLink(QUrl(argument));
    const QString path = argument.startsWith(QLatin1String("file:")) ? QUrl(argument).toLocalFile() : argument;
    if (path.isEmpty()) {
        const QString message = QStringLiteral("'%1': not a warpscope: link or a session file (allowed: warpscope:VIEW?..., "
                                               "a .wsprof file or its file: URL)").arg(argument);
        showMessage(message, true);
        return message;
    }
    const LoadedSession loaded = loadSessionFile(path);
    if (!loaded.headerSeen) {
        const QString why = loaded.problems.isEmpty() ? QStringLiteral("%1: not a Warpscope session").arg(path) : loaded.problems.front();
        const QString message = QStringLiteral("%1 (a .wsprof file written by warpscope-probe or saved by Warpscope)").arg(why);
        showMessage(message, true);
        return message;
    }
    focusProfiler();
    m_profile->openSessionFile(path);
    showMessage(QString(), false);
    return std::nullopt;
}

std::optional<QString> MainWindow::openLink(const QUrl& url)
{
    const QScopedValueRollback applying(m_applyingLink, true); // the explorer's changes here are the link's
    ViewLink link;
    try {
        link = parseViewLink(url.toString().toStdString());
        if (link.view == LinkView::Lesson) {
            if (!m_lessons.find(QString::fromStdString(link.lessonId)))
                throw InputError("link '" + url.toString().toStdString() + "': unknown lesson '" + link.lessonId +
                                 "' (allowed: " + m_lessons.ids().join(QStringLiteral(", ")).toStdString() + ")");
            openLesson(QString::fromStdString(link.lessonId));
            showMessage(QString(), false);
            return std::nullopt;
        }
        if (link.view == LinkView::Formats) {
            // parseViewLink checked every value (the value is a number, the bits fit the format).
            if (link.saturate)
                m_formats->setSaturate(*link.saturate);
            if (link.numberFormat)
                m_formats->setFormat(*numerics::parseFormat(*link.numberFormat));
            if (link.valueText)
                m_formats->setComparedText(QString::fromStdString(*link.valueText));
            if (link.bits)
                m_formats->setBits(*link.bits);
            showMessage(QString(), false);
            focusFormats();
            return std::nullopt;
        }
        if (link.view == LinkView::Step || link.view == LinkView::Memory) {
            applyStepLink(link, url);
            showMessage(QString(), false);
            return std::nullopt;
        }
        if (link.view == LinkView::Amp || link.view == LinkView::Quant || link.view == LinkView::Sparsity) {
            applyPrecisionLabLink(link, url);
            showMessage(QString(), false);
            return std::nullopt;
        }
        if (link.view == LinkView::Streams || link.view == LinkView::Pipeline || link.view == LinkView::MemoryBudget ||
            link.view == LinkView::AllReduce) {
            applyModelLink(link, url);
            showMessage(QString(), false);
            return std::nullopt;
        }
        if (link.view == LinkView::Profile) {
            applyProfileLink(link, url);
            showMessage(QString(), false);
            return std::nullopt;
        }
        // Build the complete new state first and validate it; commit only if all of it is valid.
        launch::LaunchShape shape = m_launch;
        if (link.grid)
            shape.grid = *link.grid;
        if (link.block)
            shape.block = *link.block;
        launch::validateLaunch(shape);
        QString arch = m_occupancy->arch();
        occupancy::OccupancyInput input = m_occupancy->inputs();
        if (link.arch)
            arch = QString::fromStdString(*link.arch);
        input.threadsPerBlock = static_cast<int>(shape.threadsPerBlock());
        if (link.registers)
            input.registersPerThread = *link.registers;
        if (link.staticShared)
            input.staticSharedBytes = *link.staticShared;
        if (link.dynamicShared)
            input.dynamicSharedBytes = *link.dynamicShared;
        if (link.carveout)
            input.carveoutPercent = *link.carveout;
        if (link.barriers)
            input.barriersPerBlock = *link.barriers;
        const auto preset = gpu::findPreset(arch.toStdString());
        if (!preset)
            throw InputError("unknown architecture " + arch.toStdString());
        try {
            occupancy::validateInput(*preset, input);
        } catch (const InputError& error) {
            throw InputError("link '" + url.toString().toStdString() + "': " + error.what());
        }
        // The launch first, so the explorer's resultChanged sees a matching block and leaves it as
        // given (a 16,16 block stays 2-D); setLaunch then finds the thread count already in step.
        m_launch = shape;
        m_occupancy->setInputs(arch, input);
        setLaunch(shape);
        recordInputs(QStringLiteral("Link")); // the whole link is one step to undo
        showMessage(QString(), false);
        switch (link.view) {
        case LinkView::Hierarchy: showCanvasView(CanvasView::Hierarchy); break;
        case LinkView::Placement: showCanvasView(CanvasView::Placement); break;
        case LinkView::Occupancy: focusOccupancy(); break;
        case LinkView::Lesson:
        case LinkView::Formats:
        case LinkView::Amp:
        case LinkView::Quant:
        case LinkView::Sparsity:
        case LinkView::Step:
        case LinkView::Memory:
        case LinkView::Streams:
        case LinkView::Pipeline:
        case LinkView::MemoryBudget:
        case LinkView::AllReduce:
        case LinkView::Profile: break;
        }
        return std::nullopt;
    } catch (const InputError& error) {
        const QString message = QString::fromStdString(error.what());
        showMessage(message, true);
        return message;
    }
}

// A step or memory link records the kernel's block with its default launch, then stands before the warp's
// instruction `at`. The block and the warp are checked against that launch now; `at` once the
// block is recorded (runFinished), against how many instructions the warp issued.
void MainWindow::applyStepLink(const ViewLink& link, const QUrl& url)
{
    const std::string where = "link '" + url.toString().toStdString() + "': ";
    const kernels::DemoKernel* demo = kernels::findDemoKernel(link.kernel);
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*demo, {}, sim::SimOptions{}.maxBufferBytes);
    const launch::Dim3 index = link.blockIndex.value_or(launch::Dim3{0, 0, 0});
    if (index.x >= launch.grid.x || index.y >= launch.grid.y || index.z >= launch.grid.z)
        throw InputError(where + "block " + launch::formatIndex(index) + " is outside " + link.kernel + "'s grid of " +
                         launch::formatDim3(launch.grid) + " blocks (allowed: each component below the grid's)");
    const std::int64_t warps = (launch.block.volume() + 31) / 32;
    const int warp = link.warp.value_or(0);
    if (warp >= warps)
        throw InputError(where + "warp " + std::to_string(warp) + " does not exist: " + link.kernel + "'s blocks of " +
                         std::to_string(launch.block.volume()) + " threads have " + std::to_string(warps) + " warps (allowed: 0.." +
                         std::to_string(warps - 1) + ")");
    showCanvasView(CanvasView::Execution);
    m_execution->showMemoryView(link.view == LinkView::Memory);
    m_execution->selectKernel(QString::fromStdString(link.kernel));
    m_execution->setLaunchFields(QString(), QString(), QString(),
                                 QStringLiteral("%1,%2,%3").arg(index.x).arg(index.y).arg(index.z));
    m_pendingStep = PendingStep{warp, link.at.value_or(0), QString::fromStdString(where)};
    // A link without warp_model runs the stack model, so a lesson's figure does not depend on the combo.
    // Set after the fields: a changed model starts the run itself, and run() then sees it in flight.
    m_execution->setWarpModel(link.warpModel.value_or(sim::WarpModel::ReconvergenceStack));
    m_execution->run();
}

void MainWindow::applyPendingStep(bool ok)
{
    if (!m_pendingStep)
        return;
    const PendingStep pending = *m_pendingStep;
    m_pendingStep.reset();
    if (!ok) {
        showMessage(pending.where + m_execution->lastError(), true);
        return;
    }
    const sim::BlockRecording& recording = m_execution->stepper()->recording();
    if (pending.warp >= recording.warpCount) // the link's run was replaced by another kernel's
        return;
    const std::size_t issued = recording.stepsOfWarp[static_cast<std::size_t>(pending.warp)].size();
    if (pending.at > issued) {
        showMessage(pending.where + QStringLiteral("at %1: warp %2 issued %3 warp-instructions (allowed: 0..%3, where %3 is "
                                                   "the state after the last)")
                                        .arg(pending.at)
                                        .arg(pending.warp)
                                        .arg(issued),
                    true);
        m_execution->followWarp(pending.warp);
        return;
    }
    m_execution->seekWarpStep(pending.warp, static_cast<std::uint32_t>(pending.at));
}

// The link parser (Qt-free) and the panels agree on the ranges.
static_assert(kLinkMaxAmpSteps == viz::kAmpMaxSteps);
static_assert(kLinkMinQuantValues == viz::kQuantMinValues && kLinkMaxQuantValues == viz::kQuantMaxValues);

static_assert(kLinkMaxStreamMs == viz::kStreamsMaxMs && kLinkMaxStreamChunks == viz::kStreamsMaxChunks);
static_assert(kLinkMaxPipelineStages == viz::kPipelineMaxStages && kLinkMaxMicrobatches == viz::kPipelineMaxMicrobatches);

// A model link overrides the keys it gives on the panel's current settings; the panel checks the
// whole (setSettings changes nothing when it throws), and only then is the tab shown.
void MainWindow::applyModelLink(const ViewLink& link, const QUrl& url)
{
    const std::string where = "link '" + url.toString().toStdString() + "': ";
    try {
        switch (link.view) {
        case LinkView::Streams: {
            viz::StreamsSettings settings = m_models->streams()->settings();
            settings.hostToDeviceMs = link.hostToDeviceMs.value_or(settings.hostToDeviceMs);
            settings.kernelMs = link.kernelMs.value_or(settings.kernelMs);
            settings.deviceToHostMs = link.deviceToHostMs.value_or(settings.deviceToHostMs);
            settings.chunks = link.chunks.value_or(settings.chunks);
            settings.copyEngines = link.copyEngines.value_or(settings.copyEngines);
            // The CUDA-graph model under the figure: every key checked at parse time (ranges as its fields').
            perf::KernelChainInput chain = m_models->streams()->graphLaunch()->input();
            chain.kernels = link.chainKernels.value_or(chain.kernels);
            const auto seconds = [](const std::optional<double>& us, double current) { return us ? *us * 1e-6 : current; };
            chain.kernelSeconds = seconds(link.chainKernelUs, chain.kernelSeconds);
            chain.launchSeconds = seconds(link.launchUs, chain.launchSeconds);
            chain.perKernelGpuSeconds = seconds(link.gapUs, chain.perKernelGpuSeconds);
            chain.graphFixedSeconds = seconds(link.graphUs, chain.graphFixedSeconds);
            chain.graphNodeSeconds = seconds(link.nodeUs, chain.graphNodeSeconds);
            perf::planKernelChain(chain); // throws before anything changes
            m_models->streams()->setSettings(settings);
            m_models->streams()->graphLaunch()->setInput(chain);
            focusModels(viz::ModelsTab::Streams);
            return;
        }
        case LinkView::Pipeline: {
            viz::PipelineSettings settings = m_models->pipeline()->settings();
            settings.stages = link.stages.value_or(settings.stages);
            settings.microbatches = link.microbatches.value_or(settings.microbatches);
            m_models->pipeline()->setSettings(settings);
            focusModels(viz::ModelsTab::Pipeline);
            return;
        }
        case LinkView::MemoryBudget: {
            viz::MemoryBudgetSettings settings = m_models->memoryBudget()->settings();
            settings.parameters = link.parameters.value_or(settings.parameters);
            settings.precision = link.precision.value_or(settings.precision);
            settings.optimizer = link.optimizer.value_or(settings.optimizer);
            settings.zeroStage = link.zeroStage.value_or(settings.zeroStage);
            settings.dataParallel = link.gpus.value_or(settings.dataParallel);
            settings.shape.layers = link.layers.value_or(settings.shape.layers);
            settings.shape.hidden = link.hidden.value_or(settings.shape.hidden);
            settings.shape.heads = link.heads.value_or(settings.shape.heads);
            // New heads without kv_heads: one key-value head per head, so the figure does not depend on a
            // grouping the reader chose for other heads.
            settings.kvHeads = link.kvHeads.value_or(link.heads ? 0 : settings.kvHeads);
            settings.shape.sequence = link.sequence.value_or(settings.shape.sequence);
            settings.shape.microBatch = link.microBatch.value_or(settings.shape.microBatch);
            settings.shape.recompute = link.recompute.value_or(settings.shape.recompute);
            m_models->memoryBudget()->setSettings(settings);
            focusModels(viz::ModelsTab::MemoryBudget);
            return;
        }
        case LinkView::AllReduce: {
            viz::AllReduceSettings settings = m_models->allReduce()->settings();
            settings.gpus = link.gpus.value_or(settings.gpus);
            settings.bufferBytes = link.bufferBytes.value_or(settings.bufferBytes);
            settings.link = link.interconnect.value_or(settings.link);
            settings.step = link.ringStep.value_or(settings.step);
            m_models->allReduce()->setSettings(settings);
            focusModels(viz::ModelsTab::AllReduce);
            return;
        }
        default: return;
        }
    } catch (const InputError& error) {
        throw InputError(where + error.what());
    }
}

// A profile link opens a recorded session as File > Open Recorded Session does, named by its path
// under the recorded root, and shows the tab it names (or keeps the current one).
void MainWindow::applyProfileLink(const ViewLink& link, const QUrl& url)
{
    const std::string where = "link '" + url.toString().toStdString() + "': ";
    const auto& recorded = m_profile->recordedSessions();
    std::optional<int> index;
    QStringList names;
    const QDir root(recordedSessionsRoot());
    for (int i = 0; i < recorded.size(); ++i) {
        const QString name = root.relativeFilePath(recorded.at(i).path);
        names << name;
        if (link.session && name == QString::fromStdString(*link.session))
            index = i;
    }
    if (link.session && !index)
        throw InputError(where + "session: unknown recorded session '" + *link.session + "' (allowed: " +
                         (names.isEmpty() ? noRecordedSessionsText().toLower().toStdString() : names.join(QStringLiteral(", ")).toStdString()) +
                         ")");
    if (index && !m_profile->openRecordedSession(*index))
        throw InputError(where + "session: " + *link.session + " could not be opened (the Profile view says why)");
    if (link.profileTab)
        m_profile->views()->showTab(*viz::ProfileViews::tabFromName(QString::fromStdString(*link.profileTab)));
    focusProfiler();
}

void MainWindow::applyPrecisionLabLink(const ViewLink& link, const QUrl& url)
{
    // parseViewLink checked each value; what depends on the panel's current state is checked here,
    // before anything changes.
    const std::string where = "link '" + url.toString().toStdString() + "': ";
    if (link.view == LinkView::Amp) {
        viz::AmpRunRequest request = m_amp->request();
        if (!link.ampModes.empty()) {
            request.modes.clear();
            for (const std::string& key : link.ampModes)
                request.modes.push_back(*numerics::parseAmpMode(key));
        }
        if (link.steps)
            request.steps = *link.steps;
        if (link.growthInterval)
            request.growthInterval = *link.growthInterval;
        if (link.seed)
            request.seed = *link.seed;
        if (link.staticScale)
            request.staticScale = static_cast<float>(*link.staticScale);
        if (request.modes.empty())
            throw InputError(where + "no mode is ticked (give modes=, e.g. modes=fp32,fp16,fp16-dynamic)");
        m_amp->setRequest(request);
        focusPrecisionLab(PrecisionLabTab::MixedPrecision);
        m_amp->run();
        return;
    }
    if (link.view == LinkView::Quant) {
        viz::QuantLabRequest request = m_quant->request();
        if (link.quantSource)
            request.source = *viz::parseQuantSource(*link.quantSource);
        try {
            if (link.quantFormat)
                request.config.format = numerics::parseQuantFormat(*link.quantFormat);
            if (link.quantScheme)
                request.config.scheme = numerics::parseQuantScheme(*link.quantScheme);
            if (link.quantGranularity)
                numerics::parseGranularity(*link.quantGranularity, request.config);
            if (link.quantCalibrator)
                numerics::parseCalibrator(*link.quantCalibrator, request.config);
            numerics::validateQuantConfig(request.config);
        } catch (const InputError& error) {
            throw InputError(where + error.what());
        }
        if (link.count)
            request.count = *link.count;
        if (link.seed)
            request.seed = *link.seed;
        if (link.rows)
            request.rows = *link.rows;
        if (link.layer)
            request.layer = *link.layer;
        if (viz::isSynthetic(request.source) && request.count % request.rows != 0)
            throw InputError(where + "rows " + std::to_string(request.rows) + " does not divide n " + std::to_string(request.count) +
                             " (the values are laid out as rows x (n / rows))");
        request.slice = 0;
        focusPrecisionLab(PrecisionLabTab::Quantization);
        m_quant->setRequest(request);
        return;
    }
    if (link.layer)
        m_sparsity->setLayer(*link.layer);
    focusPrecisionLab(PrecisionLabTab::Sparsity);
    m_sparsity->runIfNeeded();
}

} // namespace warpscope::app
