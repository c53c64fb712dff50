#include "sim/simulator.h"

#include "ptx/ptx_error.h"
#include "sim/block_runner.h"
#include "sim/grid_barrier.h"
#include "sim/launch_run.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace warpscope::sim {

namespace {

std::string describeParam(const ptx::Symbol& symbol)
{
    return "." + std::string(ptx::typeName(symbol.type)) + (symbol.size != static_cast<std::uint64_t>(ptx::typeBits(symbol.type) / 8)
                                                                ? "[" + std::to_string(symbol.size) + " bytes]" : "");
}

// A buffer argument's element type as PTX names it, for out-of-bounds reports.
ptx::Type declaredType(ElementType type)
{
    switch (type) {
    case ElementType::I8: return ptx::Type::S8;
    case ElementType::U8: return ptx::Type::U8;
    case ElementType::I16: return ptx::Type::S16;
    case ElementType::U16: return ptx::Type::U16;
    case ElementType::I32: return ptx::Type::S32;
    case ElementType::U32: return ptx::Type::U32;
    case ElementType::I64: return ptx::Type::S64;
    case ElementType::U64: return ptx::Type::U64;
    case ElementType::F32: return ptx::Type::F32;
    case ElementType::F64: return ptx::Type::F64;
    case ElementType::F16: return ptx::Type::F16;
    case ElementType::BF16: return ptx::Type::BF16;
    }
    return ptx::Type::None;
}

// Products of two 64-bit counts (a count x a grid's blocks) need more than 64 bits: GCC's 128-bit
// integer, marked as the extension it is.
__extension__ using Wide = unsigned __int128;

// value x total / sampled, rounded to the nearest integer, without overflow.
std::uint64_t scaleCount(std::uint64_t value, std::uint64_t total, std::uint64_t sampled)
{
    const Wide product = static_cast<Wide>(value) * total + sampled / 2;
    return static_cast<std::uint64_t>(product / sampled);
}

void scaleCounters(InstructionCounters& c, std::uint64_t total, std::uint64_t sampled)
{
    for (std::uint64_t* field : {&c.warpExecutions, &c.threadExecutions, &c.globalRequests, &c.globalSectors,
                                 &c.globalLines, &c.bytesRequested, &c.bytesMoved, &c.sharedRequests,
                                 &c.sharedWavefronts, &c.sharedBankConflicts, &c.branchesUniform, &c.branchesDivergent})
        *field = scaleCount(*field, total, sampled);
}

// One sampled block's issue log, its records' sectorOffset pointing into `sectors`.
struct SampledLog {
    BlockLog log;
    std::vector<std::uint64_t> sectors;
};

// How a sample of blocks is timed: which sampled blocks one SM replays, and by how much its cycles
// are scaled to the busiest SM's share of the grid.
struct SampleReplay {
    std::vector<std::uint64_t> items; // indices into the sample, ascending
    std::uint64_t blocksPerSm = 0;    // the busiest SM's blocks in the grid: ceil(blocks / SMs)
    double waveScale = 1;             // waves that share needs / waves the replay ran
    bool eachAlone = false;           // at most one block per SM: each sampled block alone, the slowest counts
};

// Waves of resident blocks one SM replays at most from a sample: enough for the steady state
// between the first wave's start and the last one's drain, few enough to keep the replay quick.
constexpr std::uint64_t kReplayWaves = 4;

SampleReplay planSampleReplay(std::uint64_t sampled, std::uint64_t blocks, std::uint64_t sms, int residentBlocks)
{
    SampleReplay plan;
    const std::uint64_t resident = static_cast<std::uint64_t>(std::max(1, residentBlocks));
    plan.blocksPerSm = (blocks + sms - 1) / sms;
    if (plan.blocksPerSm <= 1) {
        plan.eachAlone = true;
        for (std::uint64_t i = 0; i < sampled; ++i)
            plan.items.push_back(i);
        return plan;
    }
    std::uint64_t replayed = std::min({plan.blocksPerSm, sampled, resident * kReplayWaves});
    if (replayed < plan.blocksPerSm && replayed >= resident)
        replayed = replayed / resident * resident; // whole waves
    plan.items = replayed >= 2 ? sampleBlockIndices(sampled, replayed) : std::vector<std::uint64_t>{0};
    if (replayed < plan.blocksPerSm) {
        const auto waves = [&](std::uint64_t count) { return static_cast<double>((count + resident - 1) / resident); };
        plan.waveScale = waves(plan.blocksPerSm) / waves(replayed);
    }
    return plan;
}

void summarizeSms(const std::vector<SmTiming>& sms, TimingSummary& summary)
{
    for (const SmTiming& sm : sms) {
        summary.cycles = std::max(summary.cycles, sm.cycles);
        summary.l1Hits += sm.l1Hits;
        summary.l1Misses += sm.l1Misses;
        summary.l2Hits += sm.l2Hits;
        summary.l2Misses += sm.l2Misses;
        summary.dramBytes += sm.dramBytes;
        summary.stalls.add(sm.stalls);
    }
}

// The sample's time: the planned blocks replayed on one SM (the sectors of each block rebased into
// one pool), cycles scaled by the plan's waves; cache and stall counts scaled to the whole grid.
void summarizeSampleReplay(const SmTimingModel& model, const SampleReplay& plan, std::vector<SampledLog>& logs,
                           std::uint64_t blockCount, TimingSummary& summary)
{
    std::vector<SmTiming> timings;
    auto replay = [&](const std::vector<std::uint64_t>& items) {
        std::vector<BlockLog> blocks;
        std::vector<std::uint64_t> pool;
        for (std::uint64_t item : items) {
            SampledLog& sampled = logs[item];
            const auto base = static_cast<std::uint32_t>(pool.size());
            pool.insert(pool.end(), sampled.sectors.begin(), sampled.sectors.end());
            BlockLog log = sampled.log;
            for (auto& warp : log.warps)
                for (IssueRecord& record : warp)
                    record.sectorOffset += base;
            blocks.push_back(std::move(log));
        }
        timings.push_back(model.replay(blocks, pool, {}, nullptr));
    };
    if (plan.eachAlone) {
        for (std::uint64_t item : plan.items)
            replay({item});
    } else {
        replay(plan.items);
    }
    summarizeSms(timings, summary);
    const double countScale = static_cast<double>(blockCount) / static_cast<double>(std::max<std::size_t>(1, plan.items.size()));
    const auto scaled = [&](std::uint64_t& value) { value = static_cast<std::uint64_t>(static_cast<double>(value) * countScale + 0.5); };
    for (std::uint64_t* value : {&summary.l1Hits, &summary.l1Misses, &summary.l2Hits, &summary.l2Misses, &summary.dramBytes,
                                 &summary.stalls.globalMemory, &summary.stalls.sharedMemory, &summary.stalls.execution,
                                 &summary.stalls.loadStoreUnit, &summary.stalls.barrier, &summary.stalls.notSelected})
        scaled(*value);
    summary.cycles = static_cast<std::uint64_t>(static_cast<double>(summary.cycles) * plan.waveScale + 0.5);
    summary.scaledFromSample = true;
    summary.replayedBlocks = plan.eachAlone ? 1 : plan.items.size();
    summary.blocksPerSm = plan.blocksPerSm;
    summary.waveScale = plan.waveScale;
}

// The recorded block's issue cycles (and where its global accesses were served), in each warp's issue order.
void applyIssueTimes(const TraceTimes& traceTimes, BlockRecording& recording)
{
    for (const auto& [block, warpTimes] : traceTimes) {
        if (block != recording.linearBlock)
            continue;
        for (std::size_t w = 0; w < warpTimes.size() && w < recording.stepsOfWarp.size(); ++w)
            for (std::size_t k = 0; k < warpTimes[w].size() && k < recording.stepsOfWarp[w].size(); ++k) {
                RecordedStep& step = recording.steps[recording.stepsOfWarp[w][k]];
                step.cycle = warpTimes[w][k].cycle;
                step.stallCycles = warpTimes[w][k].stallCycles;
                step.stallReason = static_cast<std::uint8_t>(warpTimes[w][k].reason);
                if (step.access >= 0) {
                    RecordedAccess& access = recording.accesses[static_cast<std::size_t>(step.access)];
                    const IssueTiming& time = warpTimes[w][k];
                    access.timed = true;
                    access.l1Sectors = time.l1Sectors;
                    access.l2Sectors = time.l2Sectors;
                    access.dramSectors = time.dramSectors;
                    access.l2Mask = time.l2Mask;
                    access.dramMask = time.dramMask;
                }
            }
    }
}

// The traced blocks' issue cycles from the timing model, in each warp's issue order.
void applyIssueTimes(const TraceTimes& traceTimes, Trace& trace)
{
    for (const auto& [block, warpTimes] : traceTimes) {
        std::vector<std::size_t> next(warpTimes.size(), 0);
        for (TraceEvent& event : trace.events) {
            if (event.block != block)
                continue;
            if (event.warp >= warpTimes.size())
                continue;
            const auto& times = warpTimes[event.warp];
            std::size_t& index = next[event.warp];
            if (event.kind == TraceEventKind::Issue && index < times.size()) {
                event.cycle = times[index].cycle;
                event.stallCycles = times[index].stallCycles;
                event.stallReason = static_cast<std::uint8_t>(times[index].reason);
                ++index;
            } else if (index > 0 && index <= times.size()) {
                event.cycle = times[index - 1].cycle; // a release or exit: at or after the last issue
            }
        }
    }
}

// The kernel's totals from its per-instruction counters.
void sumInstructionCounters(const ptx::Function& function, KernelStats& stats)
{
    for (std::size_t i = 0; i < function.instructions.size(); ++i) {
        const ptx::Instruction& instruction = function.instructions[i];
        const InstructionCounters& counters = stats.perInstruction[i];
        stats.warpInstructions += counters.warpExecutions;
        stats.threadInstructions += counters.threadExecutions;
        stats.branchesUniform += counters.branchesUniform;
        stats.branchesDivergent += counters.branchesDivergent;
        const bool isLoad = instruction.op == ptx::Op::Ld || instruction.op == ptx::Op::CpAsync || // cp.async reads global
                            instruction.op == ptx::Op::WmmaLoad || instruction.op == ptx::Op::Ldmatrix;
        const bool isStore = instruction.op == ptx::Op::St || instruction.op == ptx::Op::WmmaStore;
        GlobalMemoryStats& global = stats.global;
        (isLoad ? global.loadRequests : isStore ? global.storeRequests : global.atomicRequests) += counters.globalRequests;
        (isLoad ? global.loadSectors : isStore ? global.storeSectors : global.atomicSectors) += counters.globalSectors;
        global.bytesRequested += counters.bytesRequested;
        global.bytesMoved += counters.bytesMoved;
        SharedMemoryStats& shared = stats.shared;
        (isLoad ? shared.loadRequests : isStore ? shared.storeRequests : shared.atomicRequests) += counters.sharedRequests;
        (isLoad ? shared.loadWavefronts : isStore ? shared.storeWavefronts : shared.atomicWavefronts) += counters.sharedWavefronts;
        shared.bankConflicts += counters.sharedBankConflicts;
        shared.maxConflictDegree = std::max(shared.maxConflictDegree, counters.maxConflictDegree);
    }
}

// What the runners collected, merged: counters, trace, recording, printf (by block, each block's
// lines in the order its warps issued them, the buffer's `printfBytes` for the launch as a whole),
// asserts and traps.
void mergeRunners(const std::vector<std::unique_ptr<BlockRunner>>& runners, std::size_t instructions, std::uint64_t printfBytes,
                  SimResult& result)
{
    KernelStats& stats = result.stats;
    stats.perInstruction.resize(instructions);
    std::uint64_t firstTrapBlock = ~std::uint64_t{0};
    for (const auto& runner : runners) {
        const KernelStats& part = runner->stats();
        for (std::size_t i = 0; i < part.perInstruction.size(); ++i)
            stats.perInstruction[i].add(part.perInstruction[i]);
        stats.blocksSimulated += part.blocksSimulated;
        stats.warpsSimulated += part.warpsSimulated;
        stats.barriers += part.barriers;
        Trace& trace = runner->trace();
        const auto offset = static_cast<std::int32_t>(result.trace.memory.size());
        for (TraceEvent event : trace.events) {
            if (event.memory >= 0)
                event.memory += offset;
            result.trace.events.push_back(event);
        }
        result.trace.memory.insert(result.trace.memory.end(), trace.memory.begin(), trace.memory.end());
        result.trace.truncated = result.trace.truncated || trace.truncated;
        if (auto recording = runner->takeRecording())
            result.recording = std::move(recording);
        for (PrintfLine& line : runner->printfLines())
            result.printfLines.push_back(std::move(line));
        result.printfDropped += runner->printfDropped();
        result.assertFailures += runner->assertFailures();
        result.trapThreads += runner->trapThreads();
        if (runner->trapThreads() > 0 && (firstTrapBlock == ~std::uint64_t{0} || runner->firstTrapBlock() < firstTrapBlock)) {
            firstTrapBlock = runner->firstTrapBlock();
            result.firstTrap = runner->firstTrap();
        }
    }
    // printf: by block (runners interleave SMs), each block's lines in the order its warps issued them;
    // the buffer's size holds for the launch as a whole.
    std::stable_sort(result.printfLines.begin(), result.printfLines.end(),
                     [](const PrintfLine& a, const PrintfLine& b) { return a.linearBlock < b.linearBlock; });
    std::uint64_t printed = 0;
    for (std::size_t i = 0; i < result.printfLines.size(); ++i) {
        printed += result.printfLines[i].text.size();
        if (printed > printfBytes) {
            result.printfDropped += result.printfLines.size() - i;
            result.printfLines.resize(i);
            break;
        }
    }
}

} // namespace

std::vector<std::uint64_t> sampleBlockIndices(std::uint64_t blocks, std::uint64_t count)
{
    if (count < 2)
        throw InputError("a block sample needs at least 2 blocks (the first and the last), not " + std::to_string(count));
    std::vector<std::uint64_t> indices;
    if (count >= blocks) {
        for (std::uint64_t b = 0; b < blocks; ++b)
            indices.push_back(b);
        return indices;
    }
    indices.reserve(count);
    // Steps of (blocks - 1) / (count - 1) >= 1 rounded to the nearest integer never repeat a block.
    for (std::uint64_t i = 0; i < count; ++i) {
        const Wide scaled = static_cast<Wide>(i) * (blocks - 1) + (count - 1) / 2;
        indices.push_back(static_cast<std::uint64_t>(scaled / (count - 1)));
    }
    return indices;
}

void validateLaunchRequest(const LaunchRequest& request)
{
    if (!request.module || !request.function)
        throw InputError("no kernel to simulate");
    const ptx::Function& function = *request.function;
    if (!function.isEntry)
        throw InputError("'" + function.name + "' is a device function, not a kernel (.entry)");
    ptx::requireSupported(*request.module, function); // UnsupportedPtx: PTX the simulator cannot run yet
    if (const ptx::GridWorkspaceRead read = ptx::findGridWorkspaceRead(*request.module, function); read && !request.options.cooperative)
        throw InputError(ptx::describeCooperativeNeed(*request.module, function, read) +
                         "; simulate it as one with --cooperative");
    launch::validateLaunch({request.grid, request.block});
    const std::int64_t threads = request.block.volume();
    if (threads > request.preset.maxThreadsPerBlock)
        throw InputError("the block has " + withThousands(threads) + " threads; " + std::string(request.preset.arch) +
                         " allows at most " + std::to_string(request.preset.maxThreadsPerBlock));
    for (int axis = 0; axis < 3; ++axis) {
        const std::uint32_t required = function.reqntid[static_cast<std::size_t>(axis)];
        const std::int64_t actual = axis == 0 ? request.block.x : axis == 1 ? request.block.y : request.block.z;
        if (required != 0 && actual != required)
            throw InputError("kernel " + function.name + " requires a block of exactly " + std::to_string(function.reqntid[0]) +
                             "," + std::to_string(function.reqntid[1]) + "," + std::to_string(function.reqntid[2]) + " (.reqntid)");
    }
    constexpr std::uint64_t kLocalLimit = 512 * 1024; // bytes of local memory per thread (Programming Guide, CC 7.x-9.0)
    if (function.localBytes > kLocalLimit)
        throw InputError("kernel " + function.name + " uses " + formatBytes(function.localBytes) +
                         " of local memory per thread; GPUs allow 512 KB");
    for (const ptx::Symbol& symbol : function.symbols)
        if ((symbol.space == ptx::Space::Global || symbol.space == ptx::Space::Const) &&
            symbol.size > request.options.maxBufferBytes)
            throw InputError("module variable " + symbol.name + " is " + formatBytes(symbol.size) +
                             "; the simulator allows at most " + formatBytes(request.options.maxBufferBytes));
    const std::uint64_t shared = function.staticSharedBytes + request.dynamicSharedBytes;
    const std::uint64_t sharedLimit = request.dynamicSharedBytes > 0 ? request.preset.sharedPerBlockOptin
                                                                     : request.preset.sharedPerBlock;
    if (function.staticSharedBytes > request.preset.sharedPerBlock)
        throw InputError("kernel " + function.name + " declares " + formatBytes(function.staticSharedBytes) +
                         " of static shared memory; " + std::string(request.preset.arch) + " allows " +
                         formatBytes(request.preset.sharedPerBlock));
    if (shared > sharedLimit)
        throw InputError("static (" + formatBytes(function.staticSharedBytes) + ") plus dynamic (" +
                         formatBytes(request.dynamicSharedBytes) + ") shared memory exceeds the " +
                         formatBytes(sharedLimit) + " a block may use on " + std::string(request.preset.arch));
    if (request.args.size() != function.params.size())
        throw InputError("kernel " + function.name + " takes " + std::to_string(function.params.size()) +
                         " arguments; " + std::to_string(request.args.size()) + " were given");
    for (std::size_t i = 0; i < request.args.size(); ++i) {
        const ResolvedArg& arg = request.args[i];
        const ptx::Symbol& param = function.symbols[static_cast<std::size_t>(function.params[i])];
        const std::uint64_t size = arg.isBuffer ? 8 : elementBytes(arg.type);
        if (size != param.size)
            throw InputError("argument " + std::to_string(i + 1) + " '" + arg.name + "' is " +
                             (arg.isBuffer ? std::string("a buffer (an 8-byte pointer)")
                                           : std::string(elementName(arg.type)) + " (" + std::to_string(size) + " bytes)") +
                             " but parameter " + std::to_string(i + 1) + " of " + function.name + " is " +
                             describeParam(param) + " (" + std::to_string(param.size) + " bytes)");
    }
    if (request.options.cooperative) {
        if (request.options.sampleBlocks > 0 && request.options.sampleBlocks < static_cast<std::uint64_t>(request.grid.volume()))
            throw InputError("a cooperative launch runs every block of the grid at once: it cannot be simulated from a "
                             "sample of blocks (leave out --sample-blocks)");
        requireCooperativeFits(request);
    }
}

namespace {

// The launch's memory: each buffer argument's allocation, the module variables the kernel uses,
// the parameter buffer and, for a cooperative launch, the grid workspace (allocated last, so every
// other address is what it is without one).
void setUpMemory(LaunchRequest& request, LaunchRun& run, SimResult& result)
{
    const ptx::Function& function = *request.function;
    LaunchContext& context = run.context;
    result.bufferAddresses.assign(request.args.size(), 0);
    for (std::size_t i = 0; i < request.args.size(); ++i)
        if (request.args[i].isBuffer)
            result.bufferAddresses[i] = run.memory.allocate(request.args[i].name, std::move(request.args[i].bytes),
                                                            declaredType(request.args[i].type));
    // Module variables (.global / .const) the kernel uses get their own allocations.
    context.symbolAddress.assign(function.symbols.size(), 0);
    std::vector<std::pair<std::int32_t, std::uint64_t>> moduleAllocations;
    for (std::size_t s = 0; s < function.symbols.size(); ++s) {
        const ptx::Symbol& symbol = function.symbols[s];
        if (symbol.space != ptx::Space::Global && symbol.space != ptx::Space::Const)
            continue;
        auto existing = std::find_if(moduleAllocations.begin(), moduleAllocations.end(),
                                     [&](const auto& entry) { return entry.first == symbol.moduleIndex; });
        if (existing != moduleAllocations.end()) {
            context.symbolAddress[s] = existing->second;
            continue;
        }
        std::vector<std::uint8_t> bytes(symbol.size, 0);
        std::copy(symbol.initializer.begin(), symbol.initializer.end(), bytes.begin());
        const std::uint64_t address = run.memory.allocate(symbol.name, std::move(bytes), symbol.type);
        context.symbolAddress[s] = address;
        moduleAllocations.emplace_back(symbol.moduleIndex, address);
    }
    // The parameter buffer, laid out as the PTX declares it.
    context.paramBytes.assign(function.paramBytes, 0);
    for (std::size_t i = 0; i < request.args.size(); ++i) {
        const ptx::Symbol& param = function.symbols[static_cast<std::size_t>(function.params[i])];
        const std::uint64_t value = request.args[i].isBuffer ? result.bufferAddresses[i] : request.args[i].scalarBits;
        std::memcpy(context.paramBytes.data() + param.offset, &value, param.size);
    }
    if (request.options.cooperative)
        context.gridWorkspace = run.memory.allocate("grid workspace", initialGridWorkspace(), ptx::Type::U32);
    context.memory = &run.memory;
}

// What else every runner reads: the launch's shape, shared memory, budgets, and what to record and trace.
void setUpContext(const LaunchRequest& request, const std::atomic<bool>* cancel, LaunchRun& run)
{
    const ptx::Function& function = *request.function;
    LaunchContext& context = run.context;
    context.module = request.module;
    context.function = &function;
    context.grid = request.grid;
    context.block = request.block;
    context.sharedBytes = function.staticSharedBytes +
        (request.dynamicSharedBytes > 0
             ? (function.staticSharedBytes + function.dynamicSharedAlignment - 1) / function.dynamicSharedAlignment *
                       function.dynamicSharedAlignment - function.staticSharedBytes + request.dynamicSharedBytes
             : 0);
    context.atomicMutex = &run.atomicMutex;
    context.hazards = &run.hazards;
    context.smCount = std::max(1, request.preset.smCount);
    context.budgetUsed = &run.budgetUsed;
    context.stepBudget = request.options.stepBudget;
    context.blockStepBudget = request.options.blockStepBudget;
    context.maxTimingBytes = request.options.maxTimingBytesPerSm;
    context.cancel = cancel;
    context.recordBlock = request.options.recordBlock;
    context.recordLimits = request.options.recordLimits;
    context.printfBytes = request.options.printfBytes;
    context.independentThreads = request.options.warpModel == WarpModel::IndependentThreads;
    context.traceRequest = &request.options.trace;
    // The timing model hands out issue cycles for the traced blocks and the recorded one (which is
    // not traced: its steps hold the cycles).
    run.timedBlocks = request.options.trace.blocks;
    if (request.options.recordBlock >= 0)
        run.timedBlocks.push_back(static_cast<std::uint64_t>(request.options.recordBlock));
}

// Which blocks run (every one, or a sample), on how many host threads (one for a cooperative
// launch: its blocks take turns in a fixed order), and one runner per thread or per block.
void planBlocks(const LaunchRequest& request, LaunchRun& run)
{
    run.blockCount = static_cast<std::uint64_t>(request.grid.volume());
    if (request.options.sampleBlocks > 0 && request.options.sampleBlocks < run.blockCount) {
        if (request.options.recordBlock >= 0 || !request.options.trace.blocks.empty())
            throw InputError("a block sample cannot be recorded or traced: simulate every block to step or trace one");
        run.sample = sampleBlockIndices(run.blockCount, request.options.sampleBlocks);
    }
    run.blocksToRun = run.sampling() ? run.sample.size() : run.blockCount;
    int threads = request.options.hostThreads <= 0 ? static_cast<int>(std::thread::hardware_concurrency())
                                                   : request.options.hostThreads;
    threads = static_cast<int>(std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), 1, run.blocksToRun));
    if (request.options.cooperative)
        threads = 1;
    run.context.concurrent = threads > 1;
    // Work is handed out by SM: SM k runs blocks k, k + SMs, k + 2 SMs, ... in order, and its timing
    // is replayed from what its warps issued (see timing_model.h).
    run.smCount = static_cast<std::uint64_t>(run.context.smCount);
    run.usedSms = run.sampling() ? run.sample.size() : std::min<std::uint64_t>(run.smCount, run.blockCount);
    const std::uint64_t runners = request.options.cooperative ? run.blockCount : static_cast<std::uint64_t>(threads);
    for (std::uint64_t r = 0; r < runners; ++r)
        run.runners.push_back(std::make_unique<BlockRunner>(run.context));
}

// A sample's timing: the sampled blocks the one-SM replay needs keep their issue logs.
struct SampledTiming {
    SampleReplay plan;
    std::vector<char> keepsLog;       // per sampled block
    std::vector<SampledLog> logs;     // per sampled block
    std::atomic<std::uint64_t> logBytes{0};
};

// After a block: its issue log kept for the timing model, or the timing model given up for the
// launch when the runner's log or this SM's logs pass their memory cap. False once logging stops.
bool keepBlockLog(LaunchRun& run, BlockRunner& runner, std::vector<BlockLog>& logs, std::uint64_t recordsBefore)
{
    bool overflowed = runner.timingLogOverflowed();
    if (!overflowed) {
        logs.push_back(runner.takeBlockLog());
        const std::uint64_t bytes = (runner.loggedRecords() - recordsBefore) * sizeof(IssueRecord) +
                                    runner.sectorPool().size() * sizeof(std::uint64_t);
        overflowed = bytes > run.request->options.maxTimingBytesPerSm;
    }
    if (!overflowed)
        return true;
    run.timingComplete = false;
    runner.setLogging(false);
    logs.clear();
    runner.sectorPool().clear();
    return false;
}

// One SM's blocks in order (or one sampled block), then its timing replayed or its log kept for the sample's.
void runSm(LaunchRun& run, SampledTiming& sampled, BlockRunner& runner, std::uint64_t sm, bool reportsProgress)
{
    std::vector<BlockLog> logs;
    runner.sectorPool().clear();
    bool logging = run.timingComplete.load(std::memory_order_relaxed) && (!run.sampling() || sampled.keepsLog[sm]);
    runner.setLogging(logging);
    const std::uint64_t recordsBefore = runner.loggedRecords();
    const std::uint64_t first = run.sampling() ? run.sample[sm] : sm;
    const std::uint64_t last = run.sampling() ? run.sample[sm] + 1 : run.blockCount;
    for (std::uint64_t block = first; block < last; block += run.smCount) {
        if (run.shouldStop() || !run.accept(runner.runBlock(block), block))
            break;
        if (logging)
            logging = keepBlockLog(run, runner, logs, recordsBefore);
        run.blockDone(reportsProgress);
    }
    if (run.sampling() && logging && !logs.empty()) {
        // One sampled block: its log and sectors wait for the one-SM replay.
        const std::uint64_t bytes = sampled.logBytes.fetch_add((runner.loggedRecords() - recordsBefore) * sizeof(IssueRecord) +
                                                               runner.sectorPool().size() * sizeof(std::uint64_t));
        if (bytes > run.request->options.maxTimingBytesPerSm)
            run.timingComplete = false;
        sampled.logs[sm] = {std::move(logs.front()), std::move(runner.sectorPool())};
        runner.sectorPool().clear();
    } else if (logging && !run.stopped()) {
        run.replaySm(sm, logs, runner.sectorPool());
    }
}

// Every SM's blocks (or every sampled block), the SMs handed out to the host threads one at a time.
void runBySm(LaunchRun& run, SampledTiming& sampled)
{
    auto work = [&](BlockRunner& runner, bool reportsProgress) {
        try {
            while (!run.stopped()) {
                const std::uint64_t sm = run.nextSm.fetch_add(1);
                if (sm >= run.usedSms)
                    break;
                runSm(run, sampled, runner, sm, reportsProgress);
            }
        } catch (...) {
            run.fail(std::current_exception());
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < run.runners.size(); ++t)
        pool.emplace_back(work, std::ref(*run.runners[t]), false);
    work(*run.runners[0], true);
    for (std::thread& thread : pool)
        thread.join();
}

// Counts of a sample scaled to the grid; issue cycles onto the recording and the trace; the trace's
// SMs and order; the timing model's summary; the kernel's totals.
void finishStats(const LaunchRequest& request, LaunchRun& run, SampledTiming& sampled, int resident, SimResult& result)
{
    KernelStats& stats = result.stats;
    stats.blocksInGrid = run.blockCount;
    if (run.sampling() && stats.blocksSimulated > 0) {
        // blocksSimulated and warpsSimulated stay the sample's: they say what was run.
        for (InstructionCounters& counters : stats.perInstruction)
            scaleCounters(counters, run.blockCount, stats.blocksSimulated);
        stats.barriers = scaleCount(stats.barriers, run.blockCount, stats.blocksSimulated);
        stats.scaledFromSample = true;
    }
    if (result.recording)
        applyIssueTimes(run.traceTimes, *result.recording);
    applyIssueTimes(run.traceTimes, result.trace);
    for (TraceEvent& event : result.trace.events)
        event.sm = static_cast<std::uint16_t>(event.block % run.smCount);
    std::stable_sort(result.trace.events.begin(), result.trace.events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return a.block != b.block ? a.block < b.block : a.cycle < b.cycle;
    });
    if (request.options.timing && run.timingComplete && !run.stopped() && run.gridDeadlock.empty()) {
        TimingSummary& summary = stats.timing;
        summary.available = true;
        summary.residentBlocksPerSm = resident;
        summary.registersPerThread = request.options.registersPerThread;
        summary.l1BytesPerSm = run.timingModel->l1Bytes();
        if (run.sampling())
            summarizeSampleReplay(*run.timingModel, sampled.plan, sampled.logs, run.blockCount, summary);
        else
            summarizeSms(run.smTimings, summary);
        stats.cyclesEstimate = summary.cycles;
    }
    sumInstructionCounters(*request.function, stats);
}

// The arguments with their final contents, moved out of the simulated memory.
void collectArguments(const LaunchRequest& request, LaunchRun& run, SimResult& result)
{
    result.args.reserve(request.args.size());
    for (std::size_t i = 0; i < request.args.size(); ++i) {
        const ResolvedArg& arg = request.args[i];
        ResolvedArg final{arg.name, arg.type, arg.isBuffer, arg.scalarBits, arg.integerValue, arg.realValue, arg.count, {}};
        if (arg.isBuffer) {
            for (DeviceBuffer& buffer : run.memory.buffers())
                if (buffer.base == result.bufferAddresses[i])
                    final.bytes = std::move(buffer.bytes);
        }
        result.args.push_back(std::move(final));
    }
}

// Anything but Completed, with its sentence.
void setStatus(const LaunchRequest& request, const LaunchRun& run, SimResult& result)
{
    if (run.endlessBlock >= 0) {
        result.status = SimStatus::BlockBudgetExceeded;
        result.statusMessage = "block " + launch::formatIndex(launch::indexFromLinear(run.endlessBlock.load(), request.grid)) +
                               " issued more than " +
                               withThousands(static_cast<std::int64_t>(request.options.blockStepBudget)) +
                               " warp-instructions without finishing: is there a loop that never ends? "
                               "(stopped; raise the block budget if it really is that long)";
    } else if (run.budgetExceeded) {
        result.status = SimStatus::StepBudgetExceeded;
        result.statusMessage = "did not finish within " + withThousands(static_cast<std::int64_t>(request.options.stepBudget)) +
                               " warp-instructions (an endless loop, or raise the step budget)";
    } else if (run.cancelled) {
        result.status = SimStatus::Cancelled;
        result.statusMessage = "cancelled after " + withThousands(static_cast<std::int64_t>(run.blocksDone.load())) + " of " +
                               withThousands(static_cast<std::int64_t>(run.blocksToRun)) + (run.sampling() ? " sampled" : "") +
                               " blocks";
    } else if (!run.gridDeadlock.empty()) {
        result.status = SimStatus::GridBarrierDeadlock;
        result.statusMessage = run.gridDeadlock;
    }
}

} // namespace

SimResult simulate(LaunchRequest request, const std::atomic<bool>* cancel,
                   const std::function<void(const SimProgress&)>& progress)
{
    validateLaunchRequest(request);
    const auto started = std::chrono::steady_clock::now();
    const ptx::Function& function = *request.function;
    SimResult result;
    LaunchRun run;
    run.request = &request;
    run.cancel = cancel;
    run.progress = &progress;
    setUpMemory(request, run, result);
    setUpContext(request, cancel, run);
    planBlocks(request, run);

    const bool timingOn = request.options.timing;
    const int resident = timingOn ? residentBlocksPerSm(request.preset, function, request.block.volume(),
                                                        request.dynamicSharedBytes, request.options.registersPerThread)
                                  : 1;
    const SmTimingModel timingModel(function, request.preset.timing, resident, run.context.smCount, run.context.sharedBytes,
                                    request.options.registersPerThread);
    run.timingModel = &timingModel;
    run.timingComplete = timingOn;
    run.smTimings.resize(run.sampling() ? 0 : run.usedSms);
    SampledTiming sampled;
    if (run.sampling() && timingOn)
        sampled.plan = planSampleReplay(run.sample.size(), run.blockCount, run.smCount, resident);
    sampled.keepsLog.assign(run.sample.size(), 0);
    for (std::uint64_t item : sampled.plan.items)
        sampled.keepsLog[item] = 1;
    sampled.logs.resize(run.sample.size());

    if (request.options.cooperative) {
        try {
            runCooperativeGrid(run);
        } catch (...) {
            run.fail(std::current_exception());
        }
    } else {
        runBySm(run, sampled);
    }
    if (run.error)
        std::rethrow_exception(run.error);
    mergeRunners(run.runners, function.instructions.size(), request.options.printfBytes, result);
    finishStats(request, run, sampled, resident, result);
    result.hazards = run.hazards.hazards();
    collectArguments(request, run, result);
    setStatus(request, run, result);
    result.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

std::vector<LineStats> KernelStats::perSourceLine(const ptx::Module& module, const ptx::Function& function) const
{
    std::map<std::pair<std::int32_t, std::int32_t>, LineStats> lines;
    for (std::size_t i = 0; i < function.instructions.size() && i < perInstruction.size(); ++i) {
        const ptx::SourceLocation& source = function.instructions[i].source;
        if (source.file < 0 || source.line <= 0)
            continue;
        LineStats& line = lines[{source.file, source.line}];
        if (line.line == 0) {
            line.line = source.line;
            auto file = module.files.find(source.file);
            line.file = file == module.files.end() ? "" : file->second;
        }
        line.counters.add(perInstruction[i]);
    }
    std::vector<LineStats> result;
    for (auto& [key, line] : lines)
        result.push_back(std::move(line));
    return result;
}

} // namespace warpscope::sim
