#include "execution/execution_panel.h"

#include "canvas/imgui_canvas.h"
#include "common/validated_field.h"
#include "demo_kernels.h"
#include "execution/code_view.h"
#include "execution/sass_pane.h"
#include "execution/step_icons.h"
#include "execution/stepper_ptxas.h"
#include "memory/memory_model.h"
#include "kernel_target.h"
#include "launch/launch_geometry.h"
#include "precision/precision_lab_worker.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "ptx/sass.h"
#include "ptx/sass_shuffle.h"
#include "sim/work_estimate.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTabBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <bit>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace warpscope::viz {

namespace {

constexpr const char* kPlaygroundId = "playground";
constexpr const char* kPlaygroundName = "playground.cu";

const char* kPlaygroundStarter = R"(// Your kernel. Ctrl+Enter compiles it (NVRTC, no GPU needed); Run records one block.
// Arguments use the same specs as the demo kernels: x=f32[n]:iota, n=i32:256, ...
extern "C" __global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i % 3) != 0)
        x[i] = 2.0f * x[i];
}
)";

std::vector<std::string> splitSpecs(const QString& text)
{
    std::vector<std::string> specs;
    std::istringstream stream(text.toStdString());
    for (std::string spec; stream >> spec;)
        specs.push_back(spec);
    return specs;
}

} // namespace

ExecutionPanel::ExecutionPanel(QWidget* parent)
    : QWidget(parent), m_canvas(std::make_unique<ImGuiCanvas>()), m_scene(std::make_unique<ExecutionScene>()),
      m_memoryScene(std::make_unique<MemoryScene>())
{
    setObjectName(QStringLiteral("ExecutionPanel"));
    setFocusPolicy(Qt::StrongFocus); // the step keys work once the view has focus
    m_playgroundSource = QString::fromUtf8(kPlaygroundStarter);
    m_worker = new LabWorker(this);
    m_censusWorker = new LabWorker(this);
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &ExecutionPanel::tick);
    buildControls();
    m_scene->onWarpClicked = [this](std::int32_t warp) {
        if (!m_stepper)
            return;
        m_follow->setCurrentIndex(warp + 1); // follows the clicked warp
    };
    m_canvas->setScene(m_scene.get());
    kernelChanged();
}

ExecutionPanel::~ExecutionPanel()
{
    delete m_worker; // cancels and joins the workers before the stepper and the views go
    m_worker = nullptr;
    delete m_censusWorker;
    m_censusWorker = nullptr;
    delete m_canvasWidget; // renders through m_canvas
    m_canvasWidget = nullptr;
}

void ExecutionPanel::buildControls()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);

    // What to run.
    // Two rows, so the view fits beside the docks in a 1280-pixel window.
    auto* kernelRow = new QHBoxLayout;
    auto* launchRow = new QHBoxLayout;
    m_kernel = new QComboBox(this);
    m_kernel->setMinimumContentsLength(12);
    m_kernel->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    for (const kernels::DemoKernel& demo : kernels::demoKernels())
        m_kernel->addItem(QString::fromStdString(demo.id), QString::fromStdString(demo.id));
    m_kernel->addItem(QStringLiteral("Playground: your CUDA C++"), QString::fromLatin1(kPlaygroundId));
    m_kernel->setToolTip(QStringLiteral("A demo kernel, or the playground where you type your own kernel"));
    auto* kernelCaption = new QLabel(QStringLiteral("&Kernel"), this);
    kernelCaption->setBuddy(m_kernel);
    kernelRow->addWidget(kernelCaption);
    kernelRow->addWidget(m_kernel, 2);
    buildLaunchFields(kernelRow, launchRow);
    m_runButton = new QPushButton(QStringLiteral("&Run"), this);
    m_runButton->setToolTip(QStringLiteral("Simulate the launch and record the block (Ctrl+Shift+R)"));
    m_cancelButton = new QPushButton(QStringLiteral("Cancel"), this);
    m_cancelButton->setEnabled(false);
    m_cancelButton->hide(); // takes Run's and Timeline's place while they work: the row fits at 1280
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(90);
    m_progress->setTextVisible(false);
    m_progress->hide(); // shown while a run or a compile works
    m_worker->driveProgressBar(m_progress);
    m_exportTimelineAction = new QAction(QStringLiteral("Export Timeline for Perfetto\u2026"), this);
    m_exportTimelineAction->setObjectName(QStringLiteral("exportTimeline"));
    m_exportTimelineAction->setToolTip(QStringLiteral("Simulate this launch with the timing model and save the timeline of "
                                                      "the chosen block's SM as a Chrome trace that ui.perfetto.dev opens"));
    connect(m_exportTimelineAction, &QAction::triggered, this, &ExecutionPanel::exportTimelineInteractive);
    m_exportTimelineButton = new QPushButton(QStringLiteral("Timeline\u2026"), this);
    m_exportTimelineButton->setToolTip(m_exportTimelineAction->toolTip());
    connect(m_exportTimelineButton, &QPushButton::clicked, m_exportTimelineAction, &QAction::trigger);
    launchRow->addWidget(m_runButton);
    launchRow->addWidget(m_cancelButton);
    launchRow->addWidget(m_exportTimelineButton);
    launchRow->addWidget(m_progress);
    launchRow->addStretch(1);
    layout->addLayout(kernelRow);
    layout->addLayout(launchRow);
    layout->addWidget(m_fieldErrors);

    buildStepRow(layout);

    auto* timelineRow = new QHBoxLayout;
    m_timeline = new QSlider(Qt::Horizontal, this);
    m_timeline->setToolTip(QStringLiteral("The block's warp-instructions in issue order: drag to scrub"));
    m_timeline->setEnabled(false);
    connect(m_timeline, &QSlider::valueChanged, this, [this](int value) {
        if (m_updatingTimeline || !m_stepper)
            return;
        m_stepper->seek(static_cast<std::size_t>(value));
        refresh();
    });
    m_position = new QLabel(this);
    timelineRow->addWidget(m_timeline, 1);
    timelineRow->addWidget(m_follow);
    timelineRow->addWidget(m_heat);
    timelineRow->addWidget(m_warpModel);
    layout->addLayout(timelineRow);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_position);
    layout->addLayout(statusRow);

    buildPanes(layout);

    connect(m_kernel, &QComboBox::currentIndexChanged, this, &ExecutionPanel::kernelChanged);
    connect(m_runButton, &QPushButton::clicked, this, &ExecutionPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &ExecutionPanel::cancel);
    connect(m_source, &CodeView::compileRequested, this, &ExecutionPanel::compilePlayground);
    connect(m_worker, &LabWorker::started, this, [this] {
        m_cancelButton->setEnabled(true);
        m_runButton->setEnabled(false);
        m_exportTimelineAction->setEnabled(false);
        m_exportTimelineButton->setEnabled(false);
        m_runButton->hide();
        m_exportTimelineButton->hide();
        m_cancelButton->show();
        m_progress->show();
    });
    connect(m_worker, &LabWorker::finished, this, [this] {
        m_cancelButton->setEnabled(false);
        m_runButton->setEnabled(true);
        m_exportTimelineAction->setEnabled(true);
        m_exportTimelineButton->setEnabled(true);
        m_cancelButton->hide();
        m_runButton->show();
        m_exportTimelineButton->show();
        m_progress->hide();
    });
    auto* runAction = new QAction(QStringLiteral("Run: record the chosen block"), this);
    runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    runAction->setShortcutContext(Qt::WindowShortcut);
    connect(runAction, &QAction::triggered, this, &ExecutionPanel::run);
    addAction(runAction);
    auto* cancelAction = new QAction(QStringLiteral("Cancel the run, or pause"), this);
    cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(cancelAction, &QAction::triggered, this, [this] {
        if (busy())
            cancel();
        else
            setPlaying(false);
    });
    addAction(cancelAction);
}

bool ExecutionPanel::selectKernel(const QString& id)
{
    const int index = m_kernel->findData(id);
    if (index < 0)
        return false;
    if (index == m_kernel->currentIndex())
        kernelChanged();
    else
        m_kernel->setCurrentIndex(index);
    return true;
}

void ExecutionPanel::setLaunchFields(const QString& args, const QString& grid, const QString& block, const QString& blockIndex)
{
    if (!args.isEmpty())
        m_args->setText(args);
    if (!grid.isEmpty())
        m_grid->setText(grid);
    if (!block.isEmpty())
        m_block->setText(block);
    if (!blockIndex.isEmpty())
        m_blockIndex->setText(blockIndex);
}

void ExecutionPanel::setPlaygroundSource(const QString& source)
{
    m_playgroundSource = source;
    if (m_kernel->currentData().toString() == QLatin1String(kPlaygroundId)) {
        m_source->setCode(source);
        setCompilerMessages({}); // they were the old source's
    }
}

// A new kernel: its default launch in the fields, its source and PTX in the listings.
void ExecutionPanel::kernelChanged()
{
    const QString id = m_kernel->currentData().toString();
    const bool playground = id == QLatin1String(kPlaygroundId);
    if (m_kernel->property("wasPlayground").toBool())
        m_playgroundSource = m_source->toPlainText();
    m_kernel->setProperty("wasPlayground", playground);
    m_worker->cancel(); // a run or compile of the previous kernel must not land on this one
    setPlaying(false);
    m_scene->setStepper(nullptr);
    m_memoryScene->setStepper(nullptr);
    m_stepper.reset();
    m_startedFields.clear(); // the next applied launch is this kernel's first
    m_censusWorker->cancel();
    m_censusKey.clear();
    m_instances.clear();
    m_sass->setKernel(QString(), QString()); // another kernel: its SASS comes with its first run
    m_sassStale = true;
    m_timeline->setEnabled(false);
    m_source->setEditable(playground);
    m_blockIndex->setText(QStringLiteral("0"));
    if (playground) {
        m_source->setCode(m_playgroundSource);
        m_ptx->setCode(QString());
        m_args->setText(QStringLiteral("x=f32[n]:iota n=i32:256"));
        m_grid->setText(QStringLiteral("cdiv(n,128)"));
        m_block->setText(QStringLiteral("128"));
        m_status->setText(QStringLiteral("Type a kernel; Ctrl+Enter compiles it, Run (Ctrl+Shift+R) records a block."));
    } else if (const kernels::DemoKernel* demo = kernels::findDemoKernel(id.toStdString())) {
        QStringList args;
        for (const std::string& spec : demo->args)
            args << QString::fromStdString(spec);
        m_args->setText(args.join(QLatin1Char(' ')));
        m_grid->setText(QString::fromStdString(demo->grid));
        m_block->setText(QString::fromStdString(demo->block));
        m_source->setCode(QString::fromUtf8(demo->cudaSource.data(), static_cast<qsizetype>(demo->cudaSource.size())));
        m_ptx->setCode(QString::fromUtf8(demo->ptx.data(), static_cast<qsizetype>(demo->ptx.size())));
        m_status->setText(QString::fromStdString(demo->title + ": " + demo->summary));
    }
    m_follow->clear();
    m_position->clear();
    fillHazardList();
    setCompilerMessages({});
    m_canvasWidget->update();
}

void ExecutionPanel::compilePlayground()
{
    const std::string source = m_source->toPlainText().toStdString();
    m_playgroundSource = m_source->toPlainText();
    m_status->setText(QStringLiteral("Compiling with NVRTC..."));
    m_runInFlight = false; // the compile replaces a run still queued or working
    m_worker->submit([this, source](const LabWorker::Progress&, const std::atomic<bool>&) -> LabWorker::Delivery {
        ptx::CompileResult compiled;
        QString failure;
        try {
            compiled = ptx::compileCuda(source, kPlaygroundName, ptx::CompileOptions{});
        } catch (const std::exception& error) {
            failure = QString::fromStdString(error.what());
        }
        return [this, compiled, failure] {
            std::vector<CodeView::Marker> markers;
            for (const ptx::CompileDiagnostic& diagnostic : compiled.diagnostics)
                if (diagnostic.file == kPlaygroundName && diagnostic.line > 0)
                    markers.push_back({diagnostic.line, diagnostic.column, QString::fromStdString(diagnostic.message),
                                       diagnostic.severity.find("error") != std::string::npos});
            const std::size_t count = markers.size();
            setCompilerMessages(std::move(markers));
            if (!failure.isEmpty() || !compiled.ok) {
                m_lastError = failure.isEmpty() ? QStringLiteral("%1 compile error(s): see the messages under the editor").arg(count)
                                                : failure;
                m_status->setText(m_lastError);
                return;
            }
            m_lastError.clear();
            m_ptx->setCode(QString::fromStdString(compiled.ptx));
            m_status->setText(QStringLiteral("Compiled%1. Run (Ctrl+Shift+R) records a block.")
                                  .arg(count == 0 ? QString() : QStringLiteral(" with %1 warning(s)").arg(count)));
        };
    });
}

kernels::TargetRequest ExecutionPanel::launchTarget()
{
    const QString id = m_kernel->currentData().toString();
    const bool playground = id == QLatin1String(kPlaygroundId);
    kernels::TargetRequest target;
    target.target = playground ? std::string(kPlaygroundName) : id.toStdString();
    if (playground) {
        m_playgroundSource = m_source->toPlainText();
        target.inlineText = m_playgroundSource.toStdString();
    }
    target.args = splitSpecs(m_args->text());
    target.grid = m_grid->text().trimmed().toStdString();
    target.block = m_block->text().trimmed().toStdString();
    target.maxBufferBytes = sim::SimOptions{}.maxBufferBytes;
    return target;
}

std::string ExecutionPanel::blockIndexText() const
{
    return m_blockIndex->text().trimmed().isEmpty() ? std::string("0") : m_blockIndex->text().remove(QLatin1Char(' ')).toStdString();
}

void ExecutionPanel::run()
{
    // This very launch is being recorded already: a field applied on leaving it for the Run button
    // (or Enter after a pause applied it) must not start it twice, cancelling the first.
    if (m_runInFlight && busy() && launchFieldTexts() == m_startedFields)
        return;
    startRun(std::nullopt);
}

void ExecutionPanel::startRun(std::optional<sim::Hazard> then)
{
    // A launch the fields mark as wrong is not run: the row under them says why, in their words.
    const sim::LaunchFieldsCheck fields = checkFields();
    if (!fields.ok()) {
        QStringList errors;
        for (const std::string* error : {&fields.argsError, &fields.gridError, &fields.blockError, &fields.blockIndexError})
            if (!error->empty())
                errors << QString::fromStdString(*error);
        setPlaying(false);
        m_lastError = errors.join(QLatin1Char('\n'));
        m_status->setText(QStringLiteral("Not run: %1").arg(errors.first().toHtmlEscaped()));
        m_statusShowsFieldError = true;
        emit runFinished(false);
        return;
    }
    m_statusShowsFieldError = false;
    m_startedFields = launchFieldTexts();
    m_runInFlight = true;
    const kernels::TargetRequest target = launchTarget();
    const std::string blockIndexText = this->blockIndexText();
    setPlaying(false);
    m_status->setText(QStringLiteral("Simulating..."));
    // Registers per thread for resident blocks: ptxas's for this kernel and GPU, unless the occupancy
    // explorer asked for others for the kernel stepped now (a what-if); 32 where ptxas is missing.
    const int explorerRegisters = m_registersPerThread;
    const std::string whatIfKernel = m_registersFromExplorer && m_stepper ? m_stepper->run().kernelName : std::string();
    const sim::WarpModel warpModel = this->warpModel();
    m_worker->submit([this, target, blockIndexText, explorerRegisters, whatIfKernel, warpModel, then](const LabWorker::Progress& progress,
                                                                      const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        auto run = std::make_shared<StepperRun>();
        QString error;
        try {
            kernels::ResolvedTarget resolved = kernels::resolveTarget(target);
            const launch::Dim3 blockIndex = launch::parseIndex(blockIndexText, "block index", resolved.launch.grid);
            const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
            sim::LaunchRequest request = kernels::targetLaunchRequest(resolved, preset);
            stepperPtxasResources(*run, resolved.ptxText, resolved.kernelName, std::string(preset.arch));
            const int registers = run->ptxas && run->ptxas->registers > 0 && whatIfKernel != resolved.kernelName
                                      ? run->ptxas->registers
                                      : explorerRegisters;
            request.options.registersPerThread = registers;
            request.options.recordBlock = launch::linearIndex(blockIndex, resolved.launch.grid);
            request.options.warpModel = warpModel;
            // A kernel that calls grid.sync() runs only as a cooperative launch, as on a GPU; one whose
            // grid cannot be resident at once is refused with the numbers (sim::requireCooperativeFits).
            request.options.cooperative = static_cast<bool>(ptx::findGridWorkspaceRead(*resolved.module, *resolved.function));
            requestTimelineTrace(request); // the memory view's latency-hiding timeline
            // A grid of millions of blocks would keep the worker busy for days: estimated first.
            if (static_cast<std::uint64_t>(request.grid.volume()) > sim::kEstimateAboveBlocks) {
                const std::string why = sim::workRefusal(sim::estimateWork(request), request.options, kMaxStepperSeconds);
                if (!why.empty())
                    throw InputError("Not simulated: " + why +
                                     ". Step through a smaller grid: to show one block, the stepper simulates every block of the launch.");
            }
            sim::SimResult result = sim::simulate(std::move(request), &cancel, [&](const sim::SimProgress& p) {
                progress(static_cast<int>(std::min<std::uint64_t>(p.blocksDone, 1u << 30)),
                         static_cast<int>(std::min<std::uint64_t>(p.blocksTotal, 1u << 30)));
            });
            if (result.status == sim::SimStatus::Cancelled || !result.recording)
                throw std::runtime_error(result.statusMessage.empty() ? "the block was not recorded" : result.statusMessage);
            // Demo kernels share their topic's module, which lives as long as the program.
            run->module = resolved.ownModule ? resolved.ownModule
                                             : std::shared_ptr<const ptx::Module>(resolved.module, [](const ptx::Module*) {});
            run->function = resolved.function;
            run->kernelName = resolved.kernelName;
            run->sourceName = resolved.sourceName;
            run->sourceText = resolved.sourceText;
            run->ptxText = resolved.ptxText;
            run->grid = resolved.launch.grid;
            run->block = resolved.launch.block;
            run->blockIndex = blockIndex;
            run->recording = result.recording;
            run->lines = result.stats.perSourceLine(*resolved.module, *resolved.function);
            run->hazards = result.hazards;
            run->simSeconds = result.simSeconds;
            for (std::size_t i = 0; i < result.args.size() && i < result.bufferAddresses.size(); ++i)
                if (result.args[i].isBuffer)
                    run->buffers.push_back({result.args[i].name, result.bufferAddresses[i], result.args[i].bytes.size(),
                                            sim::elementBytes(result.args[i].type)});
            run->statusMessage = result.statusMessage;
            stepperHazardSass(*run, resolved.ptxText, std::string(preset.arch));
            run->preset = preset;
            run->registersPerThread = registers;
            run->dynamicSharedBytes = resolved.launch.dynamicSharedBytes;
            run->argSpecs = resolved.argSpecs;
            run->stats = std::move(result.stats);
            // Built here, off the window's thread; the trace itself is not kept.
            run->timeline = latencyTimeline(
                result.trace, static_cast<std::uint16_t>(result.recording->linearBlock % static_cast<std::uint64_t>(preset.smCount)),
                preset.timing.schedulersPerSm);
        } catch (const kernels::CompileFailed& failed) {
            error = QStringLiteral("The kernel does not compile: %1").arg(QString::fromStdString(failed.what()));
        } catch (const std::exception& failed) {
            error = QString::fromStdString(failed.what());
        }
        if (error.isEmpty() && cancel.load())
            error = QStringLiteral("Cancelled.");
        return [this, run, error, then] { deliver(error.isEmpty() ? run : nullptr, error, then); };
    });
}

void ExecutionPanel::setWarpModel(sim::WarpModel model)
{
    m_warpModel->setCurrentIndex(std::max(0, m_warpModel->findData(static_cast<int>(model))));
}

sim::WarpModel ExecutionPanel::warpModel() const
{
    return static_cast<sim::WarpModel>(m_warpModel->currentData().toInt());
}

void ExecutionPanel::cancel()
{
    m_worker->cancel();
}

bool ExecutionPanel::busy() const
{
    return m_worker->busy();
}

void ExecutionPanel::deliver(std::shared_ptr<StepperRun> run, QString error, std::optional<sim::Hazard> then)
{
    m_runInFlight = false;
    m_lastError = error;
    if (!run) {
        m_status->setText(error);
        emit runFinished(false);
        // A playground kernel that does not compile: its messages under the editor and on their lines.
        if (error.startsWith(QLatin1String("The kernel does not compile")) &&
            m_kernel->currentData().toString() == QLatin1String(kPlaygroundId))
            compilePlayground();
        return;
    }
    // The next run keeps these registers; an explorer's what-if only while its kernel is stepped.
    m_registersFromExplorer = run->ptxas && run->ptxas->registers != run->registersPerThread;
    m_registersPerThread = run->registersPerThread;
    m_stepper = std::make_unique<Stepper>(std::move(*run));
    m_scene->setStepper(m_stepper.get());
    m_memoryScene->setStepper(m_stepper.get());
    // The playground keeps what the user typed (and its undo history) when it is what was run.
    const QString source = QString::fromStdString(m_stepper->run().sourceText);
    if (m_source->toPlainText() != source)
        m_source->setCode(source);
    m_source->setEditable(m_kernel->currentData().toString() == QLatin1String(kPlaygroundId));
    m_ptx->setCode(QString::fromStdString(m_stepper->run().ptxText));
    m_sassStale = true;
    updateSass();
    updateHeat();
    {
        const QSignalBlocker blocker(m_follow);
        m_follow->clear();
        m_follow->addItem(QStringLiteral("All warps"));
        for (std::int32_t w = 0; w < m_stepper->warpCount(); ++w)
            m_follow->addItem(QStringLiteral("Warp %1").arg(w));
        m_follow->setCurrentIndex(1);
    }
    m_stepper->follow(0);
    m_updatingTimeline = true;
    m_timeline->setRange(0, static_cast<int>(m_stepper->size()));
    m_timeline->setValue(0);
    m_timeline->setEnabled(true);
    m_updatingTimeline = false;
    startHazardCensus(); // first: a new launch's list must not show the last one's instances
    fillHazardList();
    if (then) { // recorded to reach a hazard of this block: stand on it
        if (const sim::RecordedHazard* recorded = m_stepper->recordedHazard(*then))
            m_stepper->goTo(*recorded);
        syncFollow();
    }
    refresh();
    emit runFinished(true);
}

void ExecutionPanel::followWarp(std::int32_t warp)
{
    if (m_stepper)
        m_follow->setCurrentIndex(std::clamp(warp, -1, m_stepper->warpCount() - 1) + 1);
}

void ExecutionPanel::seekWarpStep(std::int32_t warp, std::uint32_t step)
{
    if (!m_stepper)
        return;
    followWarp(warp);
    if (const auto position = m_stepper->replay().positionOf(warp, step))
        m_stepper->seek(*position);
    else
        m_stepper->seek(m_stepper->size());
    refresh();
}

bool ExecutionPanel::step(sim::StepUnit unit, bool forward)
{
    if (!m_stepper)
        return false;
    if (unit == sim::StepUnit::Hazard) { // in whichever warp raised it
        if (!m_stepper->stepToHazard(forward))
            return false;
        syncFollow();
    } else if (!m_stepper->step(unit, forward)) {
        return false;
    }
    refresh();
    return true;
}

void ExecutionPanel::setPlaying(bool playing)
{
    if (playing && m_stepper) {
        m_timer->start(1000 / std::max(1, m_speed->currentData().toInt()));
    } else {
        m_timer->stop();
    }
    m_play->setChecked(m_timer->isActive());
    m_play->setText(m_timer->isActive() ? QStringLiteral("Pause") : QStringLiteral("Play"));
    m_play->setIcon(stepIcon(m_timer->isActive() ? StepGlyph::Pause : StepGlyph::Play, true,
                             palette().color(QPalette::WindowText)));
}

void ExecutionPanel::tick()
{
    // Playing stops at the end, and at a hazard: that is where a learner should look.
    if (!step(sim::StepUnit::Instruction, true) || m_stepper->currentHazard())
        setPlaying(false);
}

QString ExecutionPanel::statusText() const
{
    return m_status->text();
}

void ExecutionPanel::updateHeat()
{
    if (!m_stepper)
        return;
    if (m_heat->currentIndex() == kSassHeat) {
        updateSass();
        showSassHeat(); // now, from what the pane holds; again when its compile is ready
        return;
    }
    const auto metric = static_cast<HeatMetric>(std::max(0, m_heat->currentIndex()));
    std::map<int, CodeView::LineHeat> heat;
    for (const auto& [line, value] : lineHeat(m_stepper->run().lines, metric))
        heat[line] = {value.value, QString::fromStdString(value.text)};
    m_source->setHeat(std::move(heat));
    const char* labels[] = {"sectors per request", "bank conflicts", "divergence"};
    m_source->setHeatLabel(QString::fromLatin1(labels[static_cast<int>(metric)]));
}

void ExecutionPanel::refresh()
{
    if (!m_stepper)
        return;
    const Stepper& stepper = *m_stepper;
    m_updatingTimeline = true;
    m_timeline->setValue(static_cast<int>(stepper.position()));
    m_updatingTimeline = false;
    const ptx::Instruction* instruction = stepper.currentInstruction();
    m_source->setCurrentLine(stepper.currentLine());
    m_ptx->setCurrentLine(instruction ? instruction->ptxLine : 0);
    m_sass->setCurrentLine(stepper.currentLine());
    const sim::RecordedStep* current = stepper.current();
    if (current)
        m_position->setText(QStringLiteral("step %1 of %2 · warp %3, its instruction %4")
                                .arg(stepper.position())
                                .arg(stepper.size())
                                .arg(current->warp)
                                .arg(current->warpStep));
    else
        m_position->setText(QStringLiteral("step %1 of %2 · the end").arg(stepper.position()).arg(stepper.size()));
    // What the GPU would really give each thread: ptxas's registers and spills, not the PTX's virtual registers.
    if (const auto& ptxas = stepper.run().ptxas) {
        m_position->setText(m_position->text() + QStringLiteral(" · ptxas: %1")
                                                     .arg(QString::fromStdString(ptx::describeRegistersAndSpills(*ptxas))));
        const int registers = stepper.run().registersPerThread;
        m_position->setToolTip(QStringLiteral("%1 for %2. The simulator counts blocks per SM with %3 registers per thread%4.")
                                   .arg(QString::fromStdString(ptx::describeResources(*ptxas)),
                                        QString::fromLatin1(stepper.run().preset.arch.data(),
                                                            static_cast<qsizetype>(stepper.run().preset.arch.size())))
                                   .arg(registers)
                                   .arg(registers == ptxas->registers ? QStringLiteral(", ptxas's")
                                                                      : QStringLiteral(", the occupancy explorer's what-if")));
    } else {
        m_position->setToolTip(QStringLiteral("No ptxas report (%1): blocks per SM assume %2 registers per thread.")
                                   .arg(QString::fromStdString(stepper.run().ptxasProblem))
                                   .arg(stepper.run().registersPerThread));
    }
    QString status;
    const sim::RecordedHazard* hazard = stepper.currentHazard();
    if (hazard) {
        const sim::Hazard& h = hazard->hazard;
        // A report that names several lanes says which in its sentence; one lane is named here.
        const QString where = std::popcount(h.lanes) > 1
                                  ? QStringLiteral("warp %1").arg(h.warp)
                                  : QStringLiteral("warp %1 lane %2 (thread %3)").arg(h.warp).arg(h.lane)
                                        .arg(QString::fromStdString(launch::formatIndex(h.thread)));
        status = QStringLiteral("<b style='color:#d04030'>Hazard: %1</b> at %2%3: %4")
                     .arg(QString::fromLatin1(sim::hazardKindName(h.kind)), where)
                     .arg(h.address ? QStringLiteral(", address 0x%1").arg(h.address, 0, 16) : QString())
                     .arg(QString::fromStdString(h.message).toHtmlEscaped());
        // Where the PTX does not decide the value: what a GPU does, and the SASS instruction it runs.
        if (const QString gpu = hazardOnTheGpu(stepper.run(), h); !gpu.isEmpty()) {
            const qsizetype sass = gpu.indexOf(QLatin1Char('\n'));
            status += QStringLiteral(". %1").arg(gpu.left(sass).toHtmlEscaped());
            if (sass >= 0)
                status += QStringLiteral("<br><tt>%1</tt>").arg(gpu.mid(sass + 1).toHtmlEscaped());
        }
    } else if (!stepper.run().statusMessage.empty()) {
        status = QString::fromStdString(stepper.run().statusMessage).toHtmlEscaped();
    } else if (!stepper.recording().hazards.empty()) {
        status = QStringLiteral("This block raised %1 hazard(s): F6 goes to the next one.").arg(stepper.recording().hazards.size());
    } else if (!stepper.run().hazards.empty()) { // the launch's hazards are in other blocks: say where
        const std::size_t count = stepper.run().hazards.size();
        // Where F6 goes: every block's instances where the census has them, else each hazard's first block.
        std::optional<std::string> laterBlock;
        if (hasInstances()) {
            if (const sim::Hazard* next = nearestInstance(true))
                laterBlock = hazardRow(*next).block;
        } else if (const std::optional<std::size_t> later = stepper.hazardInAnotherBlock(true)) {
            laterBlock = hazardRow(stepper.run().hazards[*later]).block;
        }
        if (laterBlock)
            status = QStringLiteral("No hazard in this block; the launch has %1 (listed), the next in block %2: F6 goes there.")
                         .arg(count)
                         .arg(QString::fromStdString(*laterBlock));
        else
            status = QStringLiteral("No hazard in this block; the launch has %1 in earlier blocks (listed): Shift+F6 goes "
                                    "back to them.").arg(count);
    } else if (instruction) {
        status = QStringLiteral("<tt>%1</tt>").arg(QString::fromStdString(instruction->text).toHtmlEscaped());
    }
    m_status->setText(status);
    // The list marks the hazard the current instruction raised: its instance in this block and
    // warp where the rows have them, else its row where that is this one.
    {
        const QSignalBlocker blocker(m_hazardList);
        const std::vector<sim::Hazard>& listed = stepper.run().hazards;
        const auto here = [&](const sim::Hazard& h) {
            return h.block == stepper.run().blockIndex && h.warp == hazard->hazard.warp && h.pc == hazard->hazard.pc &&
                   h.kind == hazard->hazard.kind;
        };
        QTreeWidgetItem* mark = nullptr;
        for (std::size_t i = 0; hazard && i < listed.size() && !mark; ++i) {
            QTreeWidgetItem* row = m_hazardList->topLevelItem(static_cast<int>(i));
            for (int c = 0; row && i < m_instances.size() && c < row->childCount() && !mark; ++c)
                if (static_cast<std::size_t>(c) < m_instances[i].size() && here(m_instances[i][static_cast<std::size_t>(c)]))
                    mark = row->child(c);
            if (!mark && here(listed[i]))
                mark = row;
        }
        m_hazardList->setCurrentItem(mark);
        if (!mark)
            m_hazardList->clearSelection();
    }
    m_canvasWidget->update();
    emit positionChanged();
}

void ExecutionPanel::focusLaunch()
{
    m_grid->lineEdit()->setFocus();
    m_grid->lineEdit()->selectAll();
}

void ExecutionPanel::showMemoryView(bool memory)
{
    m_canvasTabs->setCurrentIndex(memory ? 1 : 0);
}

bool ExecutionPanel::memoryViewShown() const
{
    return m_canvasTabs->currentIndex() == 1;
}

void ExecutionPanel::setSession(const session::Session* session)
{
    m_memoryScene->setSession(session);
    m_canvasWidget->update();
}

bool ExecutionPanel::applyOccupancy(int threadsPerBlock, int registersPerThread)
{
    m_registersPerThread = registersPerThread; // the next run of this kernel assumes it in any case
    m_registersFromExplorer = !m_stepper || !m_stepper->run().ptxas || m_stepper->run().ptxas->registers != registersPerThread;
    if (!m_stepper || !memoryViewShown() || busy())
        return false;
    const StepperRun& current = m_stepper->run();
    if (current.block.x == threadsPerBlock && current.registersPerThread == registersPerThread)
        return false;
    const bool oneDimensional = current.grid.y == 1 && current.grid.z == 1 && current.block.y == 1 && current.block.z == 1;
    if (!oneDimensional) {
        m_status->setText(QStringLiteral("The occupancy explorer's block size applies to 1-D launches; %1 is %2 x %3 "
                                         "threads, so it was not re-run.")
                              .arg(QString::fromStdString(current.kernelName),
                                   QString::fromStdString(launch::formatIndex(current.grid)),
                                   QString::fromStdString(launch::formatIndex(current.block))));
        return false;
    }
    if (current.function->staticSharedBytes > 0 || current.dynamicSharedBytes > 0) {
        // Such kernels size their shared memory (and often their outputs) for their block size.
        m_status->setText(QStringLiteral("%1 sizes its shared memory for blocks of %2 threads, so the occupancy "
                                         "explorer's block size is not applied here: change Block, Grid and Args "
                                         "together and press Run.")
                              .arg(QString::fromStdString(current.kernelName))
                              .arg(current.block.x));
        return false;
    }
    if (threadsPerBlock < 1 || threadsPerBlock > 1024)
        return false;
    // The same threads in all, in blocks of the new size.
    const std::int64_t threads = current.grid.x * current.block.x;
    const std::int64_t blocks = (threads + threadsPerBlock - 1) / threadsPerBlock;
    m_grid->setText(QString::number(blocks));
    m_block->setText(QString::number(threadsPerBlock));
    m_blockIndex->setText(QStringLiteral("0"));
    run();
    return true;
}

} // namespace warpscope::viz
