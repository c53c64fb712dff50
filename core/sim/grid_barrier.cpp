// Cooperative launches: the grid workspace, the occupancy check, each block's view of a grid barrier
// (BlockRunner's part) and the turns the blocks take (runCooperativeGrid). See grid_barrier.h.
#include "sim/grid_barrier.h"

#include "occupancy/occupancy.h"
#include "sim/block_runner.h"
#include "sim/launch_run.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace warpscope::sim {

std::vector<std::uint8_t> initialGridWorkspace()
{
    std::vector<std::uint8_t> bytes(kGridWorkspaceBytes, 0);
    const auto size = static_cast<std::uint32_t>(kGridWorkspaceBytes);
    std::memcpy(bytes.data(), &size, sizeof size); // wsSize: cooperative groups never reads it
    return bytes;
}

CooperativeCapacity cooperativeCapacity(const LaunchRequest& request)
{
    occupancy::OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(request.block.volume());
    input.registersPerThread = request.options.registersPerThread;
    input.staticSharedBytes = request.function->staticSharedBytes;
    input.dynamicSharedBytes = request.dynamicSharedBytes;
    const occupancy::OccupancyResult occupancy = occupancy::computeOccupancy(request.preset, input);
    CooperativeCapacity capacity;
    capacity.blocksPerSm = occupancy.activeBlocksPerSm;
    capacity.sms = request.preset.smCount;
    capacity.blocks = static_cast<std::uint64_t>(std::max(0, capacity.blocksPerSm)) *
                      static_cast<std::uint64_t>(std::max(0, capacity.sms));
    for (const occupancy::LimiterDetail& limit : occupancy.limits) {
        if (!limit.binding)
            continue;
        std::string reasoning = limit.reasoning;
        if (reasoning.ends_with('.'))
            reasoning.pop_back();
        capacity.limitedBy = std::string(occupancy::limiterTitle(limit.limiter)) + ": " + reasoning;
        break;
    }
    return capacity;
}

void requireCooperativeFits(const LaunchRequest& request)
{
    const CooperativeCapacity capacity = cooperativeCapacity(request);
    const auto blocks = static_cast<std::uint64_t>(request.grid.volume());
    if (blocks <= capacity.blocks)
        return;
    throw InputError(
        "a cooperative launch needs every block resident at once, but the grid's " +
        withThousands(static_cast<std::int64_t>(blocks)) + " blocks are more than the " +
        withThousands(static_cast<std::int64_t>(capacity.blocks)) + " the " + std::string(request.preset.name) +
        " holds: " + std::to_string(capacity.sms) + " SMs x " + std::to_string(capacity.blocksPerSm) +
        (capacity.blocksPerSm == 1 ? " block" : " blocks") + " per SM (" +
        (capacity.limitedBy.empty() ? std::string("occupancy") : capacity.limitedBy) + "; with " +
        std::to_string(request.options.registersPerThread) +
        " registers per thread), so cudaLaunchCooperativeKernel would fail with cudaErrorCooperativeLaunchTooLarge; "
        "launch at most " + withThousands(static_cast<std::int64_t>(capacity.blocks)) + " blocks");
}

// --- a block's view of the grid barrier (BlockRunner) -------------------------------------------

bool BlockRunner::touchesGridWorkspace(const WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask) const
{
    if (instruction.op != ptx::Op::Ld && instruction.op != ptx::Op::Atom && instruction.op != ptx::Op::Red)
        return false;
    if (instruction.space != ptx::Space::Global && instruction.space != ptx::Space::Generic)
        return false;
    const ptx::Operand& address = instruction.op == ptx::Op::Red ? instruction.operands[0] : instruction.operands[1];
    LaneValues addresses;
    laneAddresses(warp, address, addresses);
    const std::uint64_t begin = m_context.gridWorkspace;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (((mask >> lane) & 1u) && addresses[lane] >= begin && addresses[lane] < begin + kGridWorkspaceBytes)
            return true;
    return false;
}

std::uint32_t BlockRunner::gridBarrierWord() const
{
    const std::uint64_t address = m_context.gridWorkspace + kGridBarrierWordOffset;
    const DeviceBuffer* workspace = m_context.memory->find(address, 4);
    std::uint32_t word = 0;
    if (workspace)
        std::memcpy(&word, workspace->bytes.data() + (address - workspace->base), sizeof word);
    return word;
}

// An atomic on the workspace is the block's arrival: the barrier stays closed while bit 31 of the
// word is what it was before the arrival (sync.h's bar_has_flipped). A load that finds it closed
// ends the warp's turn; when every running warp of the block did that, the block waits (resume()).
void BlockRunner::afterGridWorkspaceAccess(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t wordBefore)
{
    if (instruction.op != ptx::Op::Ld) {
        m_gridArrived = true;
        m_gridArrivalWord = wordBefore;
        ++m_gridArrivals;
        return;
    }
    const bool closed = m_gridArrived && ((gridBarrierWord() ^ m_gridArrivalWord) & 0x80000000u) == 0;
    if (!closed)
        return;
    warp.yielded = true;
    ++m_gridPolls;
}

void BlockRunner::abandonBlock()
{
    if (m_recordingActive)
        finishRecording(RunOutcome::Cancelled);
}

void BlockRunner::noteGridWait(RecordedGridWait wait)
{
    if (!m_recordingActive || !m_recording)
        return;
    wait.step = m_recording->steps.size();
    m_recording->gridWaits.push_back(std::move(wait));
}

// --- the blocks' turns ---------------------------------------------------------------------------

namespace {

constexpr std::size_t kListedBlocks = 256; // RecordedGridWait::notArrived

std::string blockList(const std::vector<std::uint64_t>& blocks)
{
    std::string text;
    for (std::size_t i = 0; i < blocks.size() && i < 8; ++i)
        text += (i ? ", " : "") + std::to_string(blocks[i]);
    if (blocks.size() > 8)
        text += " and " + withThousands(static_cast<std::int64_t>(blocks.size() - 8)) + " more";
    return text;
}

// The recorded block waits at its barrier `barrier`: who has arrived there (or gone past it) and who not.
RecordedGridWait describeWait(const LaunchRun& run, std::uint32_t barrier)
{
    RecordedGridWait wait;
    wait.barrier = barrier;
    wait.blocks = run.blockCount;
    for (std::uint64_t b = 0; b < run.blockCount; ++b) {
        if (run.runners[b]->gridArrivals() > barrier) {
            ++wait.arrived;
        } else if (wait.notArrived.size() < kListedBlocks) {
            wait.notArrived.push_back(b);
        }
    }
    return wait;
}

// No block can move: the unfinished blocks that arrived least often wait at that grid barrier, and
// the blocks that arrived less often finished without reaching it.
std::string describeDeadlock(const LaunchRun& run, const std::vector<char>& finished)
{
    std::uint32_t arrivals = ~0u;
    for (std::uint64_t b = 0; b < run.blockCount; ++b)
        if (!finished[b])
            arrivals = std::min(arrivals, run.runners[b]->gridArrivals());
    std::vector<std::uint64_t> waiting, missing;
    for (std::uint64_t b = 0; b < run.blockCount; ++b) {
        const std::uint32_t own = run.runners[b]->gridArrivals();
        if (own < arrivals)
            missing.push_back(b);
        else if (own == arrivals && !finished[b])
            waiting.push_back(b);
    }
    const auto blocksText = [](const std::vector<std::uint64_t>& list) {
        return std::string(list.size() == 1 ? "block " : "blocks ") + blockList(list);
    };
    if (missing.empty())
        return "grid.sync() number " + std::to_string(arrivals) + " never completes although every block arrived: "
               "the kernel changed the grid workspace's barrier word";
    return "grid.sync() number " + std::to_string(arrivals) + " never completes: " + blocksText(waiting) +
           (waiting.size() == 1 ? " waits" : " wait") + " there for " + blocksText(missing) +
           ", which finished without reaching it (every block must call grid.sync() equally often; on a GPU the "
           "launch hangs)";
}

// Each SM's blocks (sm, sm + SMs, ...) replayed by the timing model from their runners' logs.
void replayCooperativeSms(LaunchRun& run)
{
    for (std::uint64_t sm = 0; sm < run.usedSms && run.timingComplete; ++sm) {
        std::vector<BlockLog> logs;
        std::vector<std::uint64_t> pool;
        for (std::uint64_t block = sm; block < run.blockCount; block += run.smCount) {
            BlockRunner& runner = *run.runners[block];
            if (runner.timingLogOverflowed()) {
                run.timingComplete = false;
                return;
            }
            const auto base = static_cast<std::uint32_t>(pool.size());
            pool.insert(pool.end(), runner.sectorPool().begin(), runner.sectorPool().end());
            BlockLog log = runner.takeBlockLog();
            for (auto& warp : log.warps)
                for (IssueRecord& record : warp)
                    record.sectorOffset += base;
            logs.push_back(std::move(log));
        }
        std::uint64_t records = 0;
        for (const BlockLog& log : logs)
            for (const auto& warp : log.warps)
                records += warp.size();
        if (records * sizeof(IssueRecord) + pool.size() * sizeof(std::uint64_t) > run.request->options.maxTimingBytesPerSm) {
            run.timingComplete = false;
            return;
        }
        run.replaySm(sm, logs, pool);
    }
}

} // namespace

namespace {

// Rounds of turns until every block has completed; false when the run stopped or deadlocked first.
bool runRounds(LaunchRun& run)
{
    const std::uint64_t blocks = run.blockCount;
    const std::int64_t recorded = run.request->options.recordBlock;
    std::vector<char> finished(blocks, 0);
    std::uint32_t notedWaits = 0; // the recorded block's waits noted so far
    std::uint64_t left = blocks;
    while (left > 0) {
        // Every unfinished block takes a turn, in block order. The round moved when a block arrived
        // at a grid barrier or completed; otherwise each turn was one more closed poll.
        bool moved = false;
        for (std::uint64_t b = 0; b < blocks; ++b) {
            if (finished[b])
                continue;
            if (run.shouldStop())
                return false;
            BlockRunner& runner = *run.runners[b];
            const std::uint32_t arrivalsBefore = runner.gridArrivals();
            const RunOutcome outcome = runner.resume();
            if (!run.accept(outcome, b))
                return false;
            moved = moved || outcome == RunOutcome::Completed || runner.gridArrivals() != arrivalsBefore;
            if (outcome == RunOutcome::Completed) {
                finished[b] = 1;
                --left;
                run.blockDone(true);
            } else if (static_cast<std::int64_t>(b) == recorded && notedWaits < runner.gridArrivals()) {
                notedWaits = runner.gridArrivals();
                runner.noteGridWait(describeWait(run, notedWaits - 1));
            }
        }
        if (!moved && left > 0) {
            run.gridDeadlock = describeDeadlock(run, finished);
            return false;
        }
    }
    return true;
}

} // namespace

void runCooperativeGrid(LaunchRun& run)
{
    for (std::uint64_t b = 0; b < run.blockCount; ++b) {
        run.runners[b]->setLogging(run.timingComplete);
        run.runners[b]->beginBlock(b);
    }
    if (runRounds(run)) {
        replayCooperativeSms(run);
        return;
    }
    for (const auto& runner : run.runners)
        runner->abandonBlock(); // a recording ends where its block stopped
}

} // namespace warpscope::sim
