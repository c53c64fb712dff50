// sm_80's asynchronous copies and barrier objects (PTX ISA 9.x: "mbarrier", "cp.async",
// "cp.async.commit_group", "cp.async.wait_group / cp.async.wait_all", "cp.async.mbarrier.arrive").
//
// mbarrier: an object in shared memory with an expected arrival count and a phase. Each arrival
// lowers the phase's pending count; the last one completes the phase (the phase count goes up and
// the pending count is reloaded from the expected count, which arrive_drop lowers). A wait tests
// whether a phase has completed: test_wait and try_wait with the state an arrive returned, or
// .parity with the parity of the phase waited for. Both return at once here; a warp whose wait
// fails ends its turn so the others can arrive, and a block whose running warps only wait on phases
// nobody will complete is reported (mbarrier_deadlock) and stopped instead of spinning forever.
//
// cp.async: a copy of 4, 8 or 16 bytes from global to shared memory that runs in the background.
// The source is read when the copy is issued; the bytes land in shared memory only when the issuing
// thread waits for the copy's group (wait_group N: every committed group but the newest N;
// wait_all: every copy), or when an mbarrier that tracks the copy (cp.async.mbarrier.arrive) is
// waited on. That is the latest the hardware may land them, so a kernel that reads the destination
// before its wait reads the old bytes here, and the read is reported (async_copy_in_flight).
#include "sim/block_runner.h"

#include "sim/memory_analysis.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::sim {

namespace {

using ptx::MbarrierOp;
using ptx::Op;

constexpr std::uint32_t kMaxMbarrierCount = (1u << 20) - 1; // PTX ISA: count in [1, 2^20 - 1]

std::uint32_t threadOf(const WarpState& warp, std::uint32_t lane)
{
    return static_cast<std::uint32_t>(warp.index) * 32 + lane;
}

} // namespace

std::optional<std::uint64_t> BlockRunner::sharedOperandAddress(const WarpState& warp, const ptx::Instruction& in,
                                                               const ptx::Operand& operand, std::uint32_t lane)
{
    std::uint64_t address = static_cast<std::uint64_t>(operand.offset);
    if (operand.reg >= 0)
        address += warp.regs[static_cast<std::size_t>(operand.reg) * 32 + lane];
    ptx::Space space = in.space;
    if (operand.symbol >= 0) {
        const ptx::Symbol& symbol = m_function.symbols[static_cast<std::size_t>(operand.symbol)];
        if (symbol.space != ptx::Space::Shared) {
            reportHazard(HazardKind::OutOfBoundsShared, warp, static_cast<int>(lane), address, symbol.name,
                         std::string(ptx::opName(in.op)) + " names '" + symbol.name + "', which is not in shared memory");
            return std::nullopt;
        }
        space = ptx::Space::Shared;
    }
    if (space != ptx::Space::Shared) { // a generic address: it must fall in the shared window
        if (address < kSharedWindow || address >= kSharedWindow + kWindowSize) {
            reportHazard(HazardKind::OutOfBoundsShared, warp, static_cast<int>(lane), address, "shared",
                         std::string(ptx::opName(in.op)) + " at a generic address outside shared memory (it needs a "
                         "barrier object or destination in the block's shared memory)");
            return std::nullopt;
        }
        address -= kSharedWindow;
    }
    return address & 0xffffffffull; // 32-bit shared addresses
}

MbarrierState* BlockRunner::findMbarrier(const WarpState& warp, std::uint32_t lane, std::uint64_t offset, const char* use)
{
    if (offset % 8 != 0 || offset + 8 > m_shared.size()) {
        reportHazard(offset % 8 != 0 ? HazardKind::MisalignedAccess : HazardKind::OutOfBoundsShared, warp,
                     static_cast<int>(lane), offset, "shared",
                     std::string(use) + " an mbarrier at shared offset " + std::to_string(offset) +
                         (offset % 8 != 0 ? ", not a multiple of 8 (the object is 8 bytes, 8-byte aligned)"
                                          : ", outside the block's " + std::to_string(m_shared.size()) + " bytes"));
        return nullptr;
    }
    auto found = m_mbarriers.find(static_cast<std::uint32_t>(offset));
    if (found == m_mbarriers.end() || !found->second.valid) {
        reportHazard(HazardKind::MbarrierMisuse, warp, static_cast<int>(lane), offset, "shared",
                     std::string(use) + " the mbarrier at shared offset " + std::to_string(offset) +
                         (found == m_mbarriers.end() ? " before any thread initialised it (mbarrier.init)"
                                                     : " after mbarrier.inval") +
                         ": its behaviour is undefined (the simulator ignores the operation)");
        return nullptr;
    }
    return &found->second;
}

// An arrival of `count` threads. The last arrival of a phase completes it; that orders the arriving
// threads' earlier accesses before the waiting threads' later ones, so the race detector's interval
// ends there as at a __syncthreads (an approximation when the barrier counts only some threads).
void BlockRunner::arriveOnMbarrier(MbarrierState& barrier, std::uint32_t count, bool drop)
{
    if (drop)
        barrier.expected -= std::min(barrier.expected, count);
    barrier.pending -= std::min(barrier.pending, count);
    ++m_asyncEvents;
    if (barrier.pending != 0)
        return;
    barrier.phase += 1;
    barrier.pending = barrier.expected;
    m_blockEpoch += 1;
    for (WarpState& warp : m_warps)
        warp.warpEpoch += 1;
}

void BlockRunner::executeMbarrier(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const MbarrierOp operation = in.mbarrier;
    LaneValues value{}, result{};
    if (operation == MbarrierOp::PendingCount) {
        read(warp, in.operands[1], value);
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((mask >> lane) & 1u)
                result[lane] = mbarrierTokenPending(value[lane]);
        write(warp, in.operands[0].reg, result, mask);
        return;
    }
    const bool addressFirst = operation == MbarrierOp::Init || operation == MbarrierOp::Inval;
    const ptx::Operand& address = in.operands[addressFirst ? 0 : 1];
    if (in.operandCount > (addressFirst ? 1 : 2))
        read(warp, in.operands[addressFirst ? 1 : 2], value);
    else
        value.fill(1); // arrive without a count: one arrival
    std::array<std::optional<std::uint64_t>, 32> offsets;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            offsets[lane] = sharedOperandAddress(warp, in, address, lane);
    const bool waits = operation == MbarrierOp::TestWait || operation == MbarrierOp::TryWait;
    // A wait on a phase that is not complete lets the copies its barrier tracks land first (their
    // asynchronous arrivals may complete it): the latest moment anyone can tell they landed.
    if (waits) {
        std::set<std::uint64_t> barriers;
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            const std::optional<std::uint64_t>& offset = offsets[lane];
            const auto found = offset ? m_mbarriers.find(static_cast<std::uint32_t>(*offset)) : m_mbarriers.end();
            if (found == m_mbarriers.end())
                continue;
            const bool complete = in.parity ? (found->second.phase & 1u) != (value[lane] & 1u)
                                            : found->second.phase > mbarrierTokenPhase(value[lane]);
            if (!complete)
                barriers.insert(*offset);
        }
        for (std::uint64_t offset : barriers)
            triggerAsyncArrivals(static_cast<std::int64_t>(offset));
    }
    std::uint32_t incomplete = 0;
    std::uint64_t incompleteBarrier = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        const std::optional<std::uint64_t>& offset = offsets[lane];
        if (!((mask >> lane) & 1u) || !offset)
            continue;
        if (operation == MbarrierOp::Init) {
            const std::uint64_t count = value[lane] & 0xffffffffu;
            if (*offset % 8 != 0 || *offset + 8 > m_shared.size()) {
                findMbarrier(warp, lane, *offset, "initialises"); // reports where it is
                continue;
            }
            if (count < 1 || count > kMaxMbarrierCount) {
                reportHazard(HazardKind::MbarrierMisuse, warp, static_cast<int>(lane), *offset, "shared",
                             "mbarrier.init with an expected count of " + std::to_string(count) +
                                 " (allowed: 1 to 2^20 - 1): the barrier is left uninitialised");
                continue;
            }
            m_mbarriers[static_cast<std::uint32_t>(*offset)] = {static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(count), 0, true};
            ++m_asyncEvents;
            continue;
        }
        const char* use = operation == MbarrierOp::Inval ? "invalidates" : waits ? "waits on" : "arrives on";
        MbarrierState* barrier = findMbarrier(warp, lane, *offset, use);
        if (!barrier)
            continue;
        switch (operation) {
        case MbarrierOp::Inval:
            barrier->valid = false;
            break;
        case MbarrierOp::Arrive:
        case MbarrierOp::ArriveDrop: {
            const auto count = static_cast<std::uint32_t>(value[lane] & 0xffffffffu);
            if (count < 1 || count > barrier->pending) {
                reportHazard(HazardKind::MbarrierMisuse, warp, static_cast<int>(lane), *offset, "shared",
                             "arrives with a count of " + std::to_string(count) + " on the mbarrier at shared offset " +
                                 std::to_string(*offset) + ", whose phase has " + std::to_string(barrier->pending) +
                                 " arrivals to come (the count must be 1 to the pending count)");
                if (count < 1)
                    break;
            }
            const std::uint64_t phase = barrier->phase;
            result[lane] = mbarrierToken(phase, barrier->pending - std::min(barrier->pending, count));
            arriveOnMbarrier(*barrier, count, operation == MbarrierOp::ArriveDrop);
            if (in.noComplete && barrier->phase != phase)
                reportHazard(HazardKind::MbarrierMisuse, warp, static_cast<int>(lane), *offset, "shared",
                             "mbarrier.arrive.noComplete completed the phase of the mbarrier at shared offset " +
                                 std::to_string(*offset) + " (undefined: .noComplete promises it will not)");
            break;
        }
        case MbarrierOp::TestWait:
        case MbarrierOp::TryWait: {
            const bool complete = in.parity ? (barrier->phase & 1u) != (value[lane] & 1u)
                                            : barrier->phase > mbarrierTokenPhase(value[lane]);
            result[lane] = complete ? 1 : 0;
            if (!complete) {
                incomplete |= 1u << lane;
                incompleteBarrier = *offset;
            }
            break;
        }
        default:
            break;
        }
    }
    if (waits) {
        warp.waitFailed = incomplete != 0;
        if (incomplete != 0) { // let the other warps run (and arrive) before this one tests again
            warp.yielded = true;
            warp.waitBarrier = static_cast<std::uint32_t>(incompleteBarrier);
        }
    }
    if ((operation == MbarrierOp::Arrive || operation == MbarrierOp::ArriveDrop || waits) &&
        in.operands[0].kind == ptx::Operand::Kind::Reg)
        write(warp, in.operands[0].reg, result, mask);
}

void BlockRunner::executeAsyncCopy(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                   InstructionCounters& counters)
{
    const auto copyBytes = static_cast<std::uint32_t>(in.operands[2].imm);
    LaneValues sourceSize, sources{};
    sourceSize.fill(copyBytes);
    bool ignoreSource = false; // a predicate fourth operand: true lanes copy zeros
    if (in.operandCount == 4) {
        const ptx::Operand& fourth = in.operands[3];
        ignoreSource = fourth.kind == ptx::Operand::Kind::Reg &&
                       m_function.registers[static_cast<std::size_t>(fourth.reg)].type == ptx::Type::Pred;
        read(warp, fourth, sourceSize);
    }
    const ptx::Operand& source = in.operands[1];
    std::uint64_t displacement = static_cast<std::uint64_t>(source.offset);
    if (source.symbol >= 0)
        displacement += m_context.symbolAddress[static_cast<std::size_t>(source.symbol)];
    LaneAccess globalLanes[32];
    std::uint32_t globalCount = 0;
    OutOfBoundsLanes sourcesOutside; // reported once for the warp, after the loop
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        sources[lane] = displacement + (source.reg >= 0 ? warp.regs[static_cast<std::size_t>(source.reg) * 32 + lane] : 0);
        const std::optional<std::uint64_t> destination = sharedOperandAddress(warp, in, in.operands[0], lane);
        if (!destination)
            continue;
        std::uint32_t readBytes = ignoreSource ? ((sourceSize[lane] & 1u) ? 0u : copyBytes)
                                               : static_cast<std::uint32_t>(std::min<std::uint64_t>(sourceSize[lane] & 0xffffffffu, copyBytes));
        if (!ignoreSource && (sourceSize[lane] & 0xffffffffu) > copyBytes)
            reportHazard(HazardKind::OutOfBoundsGlobal, warp, static_cast<int>(lane), sources[lane], "",
                         "cp.async reads " + std::to_string(sourceSize[lane] & 0xffffffffu) + " bytes (src-size) of a " +
                             std::to_string(copyBytes) + "-byte copy: undefined (the simulator reads " +
                             std::to_string(copyBytes) + ")");
        if (*destination % copyBytes != 0 || sources[lane] % copyBytes != 0) {
            reportHazard(HazardKind::MisalignedAccess, warp, static_cast<int>(lane),
                         *destination % copyBytes != 0 ? *destination : sources[lane], "",
                         "a " + std::to_string(copyBytes) + "-byte cp.async " +
                             (*destination % copyBytes != 0 ? "into shared offset " + std::to_string(*destination)
                                                            : std::string("from a global address")) +
                             " that is not a multiple of " + std::to_string(copyBytes) +
                             " (the GPU raises a misaligned-address error)");
            continue;
        }
        if (*destination + copyBytes > m_shared.size()) {
            reportHazard(HazardKind::OutOfBoundsShared, warp, static_cast<int>(lane), *destination, "shared",
                         "cp.async writes shared memory at offset " + std::to_string(*destination) + ", outside the block's " +
                             std::to_string(m_shared.size()) + " bytes");
            continue;
        }
        AsyncCopy copy;
        copy.thread = threadOf(warp, lane);
        copy.destination = static_cast<std::uint32_t>(*destination);
        copy.bytes = copyBytes;
        copy.group = m_asyncGroup[copy.thread];
        copy.sequence = m_asyncSequence++;
        copy.pc = warp.stack.back().pc;
        if (readBytes > 0) {
            globalLanes[globalCount++] = {sources[lane], lane};
            if (const DeviceBuffer* buffer = m_context.memory->find(sources[lane], readBytes)) {
                std::memcpy(copy.data.data(), buffer->bytes.data() + (sources[lane] - buffer->base), readBytes);
            } else {
                sourcesOutside.add(lane, sources[lane], readBytes);
            }
        }
        for (std::uint64_t word = copy.destination / 4; word < (copy.destination + copy.bytes + 3) / 4; ++word)
            m_sharedState[word].asyncWrites += 1;
        m_asyncCopies.push_back(copy);
    }
    // A copy has no element type: its bytes are counted.
    reportOutOfBounds(HazardKind::OutOfBoundsGlobal, warp, sourcesOutside, "cp.async reads", ptx::Type::None);
    // What reading the sources cost, as for a load (the shared side is not counted).
    if (globalCount > 0) {
        std::uint64_t list[128]; // the timing model's log: the sectors
        const GlobalAccessCost cost = analyzeGlobalAccess({globalLanes, globalCount}, copyBytes, m_logging ? list : nullptr, 128);
        counters.globalRequests += cost.requests;
        counters.globalSectors += cost.sectors;
        counters.globalLines += cost.lines;
        counters.bytesRequested += cost.bytesRequested;
        counters.bytesMoved += cost.bytesMoved;
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(cost.sectors, 0xffff));
        if (m_logging) {
            m_record.sectorOffset = static_cast<std::uint32_t>(m_sectorPool.size());
            m_record.sectorCount = static_cast<std::uint16_t>(std::min<std::uint32_t>(cost.sectors, 128));
            m_sectorPool.insert(m_sectorPool.end(), list, list + m_record.sectorCount);
        }
        if (m_recordingActive) {
            RecordedAccess access;
            access.space = ptx::Space::Global;
            access.bytesPerLane = copyBytes;
            for (std::uint32_t i = 0; i < globalCount; ++i) {
                access.laneMask |= 1u << globalLanes[i].lane;
                access.addresses[globalLanes[i].lane] = globalLanes[i].address;
            }
            access.requests = cost.requests;
            access.sectors = cost.sectors;
            access.lines = cost.lines;
            access.bytesRequested = cost.bytesRequested;
            access.bytesMoved = cost.bytesMoved;
            recordAccess(access);
        }
    }
}

// The copies `which` selects land in shared memory, in issue order, as writes of their threads.
void BlockRunner::landAsyncCopies(const std::function<bool(const AsyncCopy&)>& which)
{
    std::vector<AsyncCopy> landing;
    auto firstLanding = std::stable_partition(m_asyncCopies.begin(), m_asyncCopies.end(),
                                              [&](const AsyncCopy& copy) { return !which(copy); });
    landing.assign(std::make_move_iterator(firstLanding), std::make_move_iterator(m_asyncCopies.end()));
    m_asyncCopies.erase(firstLanding, m_asyncCopies.end());
    for (const AsyncCopy& copy : landing) {
        std::memcpy(m_shared.data() + copy.destination, copy.data.data(), copy.bytes);
        for (std::uint64_t word = copy.destination / 4; word < (copy.destination + copy.bytes + 3) / 4; ++word)
            m_sharedState[word].asyncWrites -= 1;
        const WarpState& issuer = m_warps[copy.thread / 32];
        trackSharedAccess(issuer, static_cast<int>(copy.thread % 32), copy.destination, copy.bytes, true, false);
        ++m_asyncEvents;
    }
}

// cp.async.mbarrier.arrive operations whose copies have landed arrive on their barriers. With a
// barrier offset, the copies they track on that barrier land first (a wait on it observes them).
void BlockRunner::triggerAsyncArrivals(std::int64_t barrier)
{
    if (m_asyncArrivals.empty())
        return;
    if (barrier >= 0) {
        landAsyncCopies([&](const AsyncCopy& copy) {
            return std::any_of(m_asyncArrivals.begin(), m_asyncArrivals.end(), [&](const AsyncArrival& arrival) {
                return arrival.barrier == static_cast<std::uint64_t>(barrier) && arrival.thread == copy.thread &&
                       copy.sequence < arrival.sequence;
            });
        });
    }
    std::vector<AsyncArrival> remaining;
    for (const AsyncArrival& arrival : m_asyncArrivals) {
        const bool waiting = std::any_of(m_asyncCopies.begin(), m_asyncCopies.end(), [&](const AsyncCopy& copy) {
            return copy.thread == arrival.thread && copy.sequence < arrival.sequence;
        });
        if (waiting) {
            remaining.push_back(arrival);
            continue;
        }
        auto found = m_mbarriers.find(arrival.barrier);
        if (found != m_mbarriers.end() && found->second.valid)
            arriveOnMbarrier(found->second, 1, false);
    }
    m_asyncArrivals = std::move(remaining);
}

void BlockRunner::executeAsyncWait(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    if (mask == 0)
        return;
    const std::uint32_t first = threadOf(warp, 0);
    if (in.op == Op::CpAsyncCommit) {
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((mask >> lane) & 1u)
                m_asyncGroup[first + lane] += 1;
        return;
    }
    const std::uint32_t newest = in.waitAll ? 0 : static_cast<std::uint32_t>(in.operands[0].imm);
    landAsyncCopies([&](const AsyncCopy& copy) {
        if (copy.thread < first || copy.thread >= first + 32 || !((mask >> (copy.thread - first)) & 1u))
            return false;
        if (in.waitAll)
            return true; // wait_all: commit_group then wait_group 0
        const std::uint32_t open = m_asyncGroup[copy.thread]; // groups below it are committed
        return copy.group + newest < open;
    });
    if (in.waitAll)
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((mask >> lane) & 1u)
                m_asyncGroup[first + lane] += 1;
    triggerAsyncArrivals(-1);
}

void BlockRunner::executeAsyncArrive(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::optional<std::uint64_t> offset = sharedOperandAddress(warp, in, in.operands[0], lane);
        if (!offset)
            continue;
        MbarrierState* barrier = findMbarrier(warp, lane, *offset, "cp.async.mbarrier.arrive tracks copies on");
        if (!barrier)
            continue;
        if (!in.noIncrement) // a net change of zero once the asynchronous arrival happens
            barrier->pending += 1;
        m_asyncArrivals.push_back({threadOf(warp, lane), static_cast<std::uint32_t>(*offset), m_asyncSequence});
    }
    triggerAsyncArrivals(-1); // a thread with no copies in flight arrives at once
}

void BlockRunner::reportAsyncCopyInFlight(const WarpState& warp, int lane, std::uint64_t address, bool isWrite)
{
    const AsyncCopy* copy = nullptr;
    for (const AsyncCopy& candidate : m_asyncCopies)
        if (candidate.destination < address + 4 && address < candidate.destination + candidate.bytes)
            copy = &candidate;
    if (!copy)
        return;
    const ptx::Instruction& issued = m_function.instructions[static_cast<std::size_t>(copy->pc)];
    const std::string who = copy->thread == threadOf(warp, static_cast<std::uint32_t>(lane))
                                ? "this thread's cp.async"
                                : "the cp.async of thread " + std::to_string(copy->thread);
    reportHazard(HazardKind::AsyncCopyInFlight, warp, lane, address, "shared",
                 std::string(isWrite ? "writes" : "reads") + " shared memory at offset " + std::to_string(address) +
                     " before " + who + " (PTX line " + std::to_string(issued.ptxLine) + ") has landed there: " +
                     (isWrite ? "the copy may overwrite this store" : "the value may be the old one (the simulator reads it)") +
                     "; wait for it first (cp.async.wait_group / wait_all, or on its mbarrier)",
                 static_cast<std::int64_t>(copy->thread), true);
}

bool BlockRunner::detectMbarrierDeadlock()
{
    const WarpState* waiting = nullptr;
    std::uint32_t warps = 0;
    for (const WarpState& warp : m_warps) {
        if (warp.done || warp.atBarrier)
            continue;
        if (!warp.waitFailed)
            return false;
        if (!waiting)
            waiting = &warp;
        if (warp.index < 32)
            warps |= 1u << warp.index;
    }
    if (!waiting)
        return false;
    const auto found = m_mbarriers.find(waiting->waitBarrier);
    std::string state;
    if (found != m_mbarriers.end())
        state = ", whose phase " + std::to_string(found->second.phase) + " still needs " +
                std::to_string(found->second.pending) + " of its " + std::to_string(found->second.expected) + " arrivals";
    const int atBarrier = static_cast<int>(std::count_if(m_warps.begin(), m_warps.end(), [](const WarpState& w) {
        return !w.done && w.atBarrier;
    }));
    const std::uint32_t lanes = waiting->stack.empty() ? 0 : waiting->stack.back().mask;
    reportHazard(HazardKind::MbarrierDeadlock, *waiting, std::countr_zero(lanes | 0x80000000u), waiting->waitBarrier, "shared",
                 "every running warp of the block (" + std::string(std::popcount(warps) == 1 ? "warp " : "warps ") +
                     describeLanes(warps).substr(describeLanes(warps).find(' ') + 1) +
                     ") waits on an mbarrier phase no thread will complete: the barrier at shared offset " +
                     std::to_string(waiting->waitBarrier) + state +
                     (atBarrier > 0 ? " (" + std::to_string(atBarrier) + " more warps wait at a __syncthreads)" : std::string()) +
                     "; on a GPU the block hangs, the simulator stops it here",
                 -1, false, lanes);
    stopBlock();
    return true;
}

} // namespace warpscope::sim
