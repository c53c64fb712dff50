// ExecutionPanel, continued: every block's instances of the launch's hazards. The simulator reports
// each distinct hazard (a kind at an instruction) once, where it first happened, with a count; a
// recording holds every hazard of its block. So, for a launch small enough, each block is recorded
// in turn on a worker of its own (the whole launch runs each time, without the timing model) and
// the hazards found are listed under their distinct hazard's row: block, warp, lanes and line, each
// one a place to go. Larger launches keep the rows and their counts.
#include "execution/execution_panel.h"

#include "launch/launch_geometry.h"
#include "precision/precision_lab_worker.h"
#include "sim/block_recording.h"
#include "sim/kernel_args.h"
#include "sim/simulator.h"

#include <QStringList>
#include <QTreeWidget>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace warpscope::viz {

namespace {

QStringList censusKey(QStringList launch)
{
    if (launch.size() > 4)
        launch.removeAt(4); // the block index: every block is in the census
    return launch;
}

} // namespace

void ExecutionPanel::startHazardCensus()
{
    if (!m_stepper)
        return;
    const StepperRun& run = m_stepper->run();
    const QStringList key = censusKey(m_startedFields);
    if (key == m_censusKey && m_instances.size() == run.hazards.size())
        return; // the same launch in another block: its instances stand
    m_censusWorker->cancel();
    m_censusKey = key;
    m_instances.assign(run.hazards.size(), {});
    const auto blocks = static_cast<std::uint64_t>(run.grid.volume());
    if (run.hazards.empty() || blocks > kCensusMaxBlocks || static_cast<double>(blocks) * run.simSeconds > kCensusMaxSeconds)
        return;
    // What the worker needs, by value: the module stays alive through its shared pointer.
    struct Launch {
        std::shared_ptr<const ptx::Module> module;
        const ptx::Function* function = nullptr;
        launch::Dim3 grid, block;
        std::uint64_t dynamicSharedBytes = 0;
        std::vector<std::string> argSpecs;
        gpu::GpuPreset preset;
        int registers = 32;
    };
    const Launch launch{run.module, run.function, run.grid, run.block, run.dynamicSharedBytes, run.argSpecs, run.preset,
                        run.registersPerThread};
    m_censusWorker->submit([this, launch, blocks, key](const LabWorker::Progress& progress,
                                                        const std::atomic<bool>& cancel) -> LabWorker::Delivery {
        std::vector<sim::Hazard> found;
        try {
            std::vector<sim::ArgSpec> specs;
            for (const std::string& text : launch.argSpecs)
                specs.push_back(sim::parseArgSpec(text));
            const std::vector<sim::ResolvedArg> args = sim::resolveArgs(specs, sim::SimOptions{}.maxBufferBytes);
            for (std::uint64_t b = 0; b < blocks && !cancel.load(); ++b) {
                sim::LaunchRequest request;
                request.module = launch.module.get();
                request.function = launch.function;
                request.grid = launch.grid;
                request.block = launch.block;
                request.dynamicSharedBytes = launch.dynamicSharedBytes;
                request.args = args;
                request.preset = launch.preset;
                request.options.registersPerThread = launch.registers;
                request.options.timing = false;
                request.options.recordBlock = static_cast<std::int64_t>(b);
                const sim::SimResult result = sim::simulate(std::move(request), &cancel, {});
                if (result.recording)
                    for (const sim::RecordedHazard& recorded : result.recording->hazards)
                        found.push_back(recorded.hazard);
                progress(static_cast<int>(b + 1), static_cast<int>(blocks));
            }
        } catch (const std::exception&) {
            found.clear(); // the run itself succeeded with these inputs; nothing to add if a rerun does not
        }
        if (cancel.load())
            return {};
        return [this, found = std::move(found), key] { deliverCensus(found, key); };
    });
}

void ExecutionPanel::deliverCensus(const std::vector<sim::Hazard>& found, const QStringList& key)
{
    if (!m_stepper || key != m_censusKey || found.empty())
        return;
    const StepperRun& run = m_stepper->run();
    m_instances.assign(run.hazards.size(), {});
    for (const sim::Hazard& hazard : found)
        for (std::size_t i = 0; i < run.hazards.size(); ++i)
            if (run.hazards[i].kind == hazard.kind && run.hazards[i].pc == hazard.pc)
                m_instances[i].push_back(hazard);
    for (std::vector<sim::Hazard>& instances : m_instances)
        std::stable_sort(instances.begin(), instances.end(), [&](const sim::Hazard& a, const sim::Hazard& b) {
            return std::tuple(launch::linearIndex(a.block, run.grid), a.warp) < std::tuple(launch::linearIndex(b.block, run.grid), b.warp);
        });
    fillHazardList();
    refresh();
}

const sim::Hazard* ExecutionPanel::nearestInstance(bool forward) const
{
    if (!m_stepper)
        return nullptr;
    const StepperRun& run = m_stepper->run();
    const std::int64_t here = launch::linearIndex(run.blockIndex, run.grid);
    // Forward: the first (block, warp) after this block; back: the last before it.
    const sim::Hazard* nearest = nullptr;
    std::pair<std::int64_t, std::int32_t> nearestPlace;
    for (const std::vector<sim::Hazard>& instances : m_instances)
        for (const sim::Hazard& instance : instances) {
            const std::pair<std::int64_t, std::int32_t> place{launch::linearIndex(instance.block, run.grid), instance.warp};
            if ((forward ? place.first > here : place.first < here) &&
                (!nearest || (forward ? place < nearestPlace : place > nearestPlace))) {
                nearest = &instance;
                nearestPlace = place;
            }
        }
    return nearest;
}

bool ExecutionPanel::hasInstances() const
{
    return std::any_of(m_instances.begin(), m_instances.end(), [](const auto& instances) { return !instances.empty(); });
}

bool ExecutionPanel::censusBusy() const
{
    return m_censusWorker->busy();
}

const sim::Hazard* ExecutionPanel::hazardOfItem(QTreeWidgetItem* item) const
{
    if (!m_stepper || !item)
        return nullptr;
    if (QTreeWidgetItem* parent = item->parent()) {
        const auto row = static_cast<std::size_t>(m_hazardList->indexOfTopLevelItem(parent));
        const auto child = static_cast<std::size_t>(parent->indexOfChild(item));
        return row < m_instances.size() && child < m_instances[row].size() ? &m_instances[row][child] : nullptr;
    }
    const auto row = static_cast<std::size_t>(m_hazardList->indexOfTopLevelItem(item));
    return row < m_stepper->run().hazards.size() ? &m_stepper->run().hazards[row] : nullptr;
}

} // namespace warpscope::viz
