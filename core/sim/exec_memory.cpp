// Loads, stores and atomics in every state space; coalescing and bank-conflict accounting; memory
// hazards (out of bounds, misaligned, shared races, reads of never-written shared memory).
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"
#include "sim/global_memory.h"
#include "sim/memory_analysis.h"
#include "sim/shared_load_merge.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace warpscope::sim {

namespace {

using ptx::Op;
using ptx::Space;
using ptx::Type;

// Little-endian host, as the GPU. Fixed-size copies so the compiler emits single moves.
inline std::uint64_t loadBits(const std::uint8_t* bytes, std::uint32_t size)
{
    switch (size) {
    case 1: return bytes[0];
    case 2: { std::uint16_t v; std::memcpy(&v, bytes, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, bytes, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, bytes, 8); return v; }
    }
}

inline void storeBits(std::uint8_t* bytes, std::uint32_t size, std::uint64_t value)
{
    switch (size) {
    case 1: bytes[0] = static_cast<std::uint8_t>(value); return;
    case 2: { const auto v = static_cast<std::uint16_t>(value); std::memcpy(bytes, &v, 2); return; }
    case 4: { const auto v = static_cast<std::uint32_t>(value); std::memcpy(bytes, &v, 4); return; }
    default: std::memcpy(bytes, &value, 8); return;
    }
}

std::uint64_t extendLoaded(std::uint64_t value, Type type)
{
    const int bits = ptx::typeBits(type);
    if (bits >= 64)
        return value;
    const int shift = 64 - bits;
    if (ptx::isSigned(type))
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(value << shift) >> shift);
    return value & (~std::uint64_t{0} >> shift);
}

// [address, address + bytes) lies within [0, size): without overflowing near 2^64.
inline bool fits(std::uint64_t address, std::uint64_t bytes, std::uint64_t size)
{
    return address <= size && bytes <= size - address;
}

// atom/red.add.noftz on .f16 .bf16 and, element by element, .f16x2 .bf16x2 (element 0 in the low
// half): each sum rounded once to nearest even, subnormal inputs and results kept (.noftz), an
// overflow giving infinity and a NaN the canonical 0x7fff, as half-precision add does (exec_half.cpp).
std::uint64_t halfAtomicAdd(Type type, std::uint64_t old, std::uint64_t b)
{
    const HalfFormat format = type == Type::BF16 || type == Type::BF16x2 ? HalfFormat::BF16 : HalfFormat::F16;
    std::uint64_t result = 0;
    for (int element = 0; element < (ptx::isPackedHalf(type) ? 2 : 1); ++element) {
        const auto x = static_cast<std::uint16_t>(old >> (16 * element)), y = static_cast<std::uint16_t>(b >> (16 * element));
        const double sum = sumRoundedToOdd(halfToDouble(x, format), halfToDouble(y, format));
        result |= static_cast<std::uint64_t>(halfFromDouble(sum, format, RoundingDirection::NearestEven)) << (16 * element);
    }
    return result;
}

// The atomic update (PTX ISA, "atom"): returns the new value; `old` is the value in memory.
std::uint64_t atomicResult(ptx::AtomOp op, Type type, std::uint64_t old, std::uint64_t b, std::uint64_t c)
{
    const int bits = ptx::typeBits(type);
    const std::uint64_t widthMask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    old &= widthMask;
    b &= widthMask;
    auto sx = [&](std::uint64_t v) { return static_cast<std::int64_t>(extendLoaded(v, type)); };
    switch (op) {
    case ptx::AtomOp::Add:
        if (type == Type::F32) {
            // atom/red.add.f32 flush subnormal inputs and results to sign-preserving zero (PTX ISA).
            auto flush = [](float v) { return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v; };
            return std::bit_cast<std::uint32_t>(flush(flush(std::bit_cast<float>(static_cast<std::uint32_t>(old))) +
                                                      flush(std::bit_cast<float>(static_cast<std::uint32_t>(b)))));
        }
        if (type == Type::F64)
            return std::bit_cast<std::uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
        if (ptx::isHalf(type))
            return halfAtomicAdd(type, old, b);
        return (old + b) & widthMask;
    case ptx::AtomOp::Min:
        if (ptx::isSigned(type)) return static_cast<std::uint64_t>(std::min(sx(old), sx(b))) & widthMask;
        return std::min(old, b);
    case ptx::AtomOp::Max:
        if (ptx::isSigned(type)) return static_cast<std::uint64_t>(std::max(sx(old), sx(b))) & widthMask;
        return std::max(old, b);
    case ptx::AtomOp::Inc: return old >= b ? 0 : old + 1;
    case ptx::AtomOp::Dec: return (old == 0 || old > b) ? b : old - 1;
    case ptx::AtomOp::And: return old & b;
    case ptx::AtomOp::Or: return old | b;
    case ptx::AtomOp::Xor: return old ^ b;
    case ptx::AtomOp::Exch: return b;
    case ptx::AtomOp::Cas: return old == b ? (c & widthMask) : old;
    case ptx::AtomOp::None: break;
    }
    return old;
}

// One shared load's part in a merged group: a member counts nothing, a leader counts `bytes` per lane
// at `lanes` (its lanes' addresses moved back to the group's first word).
struct SharedMergeCount {
    std::uint32_t bytes = 0;
    bool member = false;
    std::uint64_t back = 0; // this load's word past the group's first, in bytes
    std::array<LaneAccess, 32> lanes;
};

SharedMergeCount mergedSharedLoad(const ptx::Function& function, const ptx::Instruction& in, const LaneAccess* lanes,
                                  std::uint32_t count)
{
    SharedMergeCount result;
    const ptx::Instruction* first = function.instructions.data();
    if (&in < first || &in >= first + function.instructions.size())
        return result;
    const SharedLoadMerge merge = cachedSharedLoadMerge(function, static_cast<std::int32_t>(&in - first));
    if (merge.bytes == 0)
        return result;
    // ptxas proved the group's first word aligned; here the lanes' addresses say whether it is.
    const std::uint64_t back = static_cast<std::uint64_t>(in.operands[1].offset - merge.startOffset);
    for (std::uint32_t i = 0; i < count; ++i) {
        if (lanes[i].address < back || (lanes[i].address - back) % merge.bytes != 0)
            return result;
        result.lanes[i] = {lanes[i].address - back, lanes[i].lane};
    }
    result.bytes = merge.bytes;
    result.member = !merge.leader;
    result.back = back;
    return result;
}

// The most lanes of an atomic that update one address, among those in `sector` (a 32-byte sector's
// address; ~0 for every address).
std::uint32_t mostLanesAtOneAddress(std::span<const LaneAccess> lanes, std::uint64_t sector)
{
    std::uint32_t most = 1;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (sector != ~0ull && (lanes[i].address & ~std::uint64_t{31}) != sector)
            continue;
        std::uint32_t same = 0;
        for (std::size_t j = 0; j < lanes.size(); ++j)
            same += lanes[j].address == lanes[i].address ? 1u : 0u;
        most = std::max(most, same);
    }
    return most;
}

} // namespace

void BlockRunner::executeCvta(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    LaneValues a, r;
    read(warp, in.operands[1], a);
    std::uint64_t window = 0;
    switch (in.space) {
    case Space::Shared: window = kSharedWindow; break;
    case Space::Local: window = kLocalWindow; break;
    default: window = 0; break; // global and const: generic addresses equal global addresses
    }
    const int bits = ptx::typeBits(in.type);
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        std::uint64_t value = in.cvtaToSpace ? a[lane] - window : a[lane] + window;
        r[lane] = bits >= 64 ? value : value & ((1ull << bits) - 1);
    }
    write(warp, in.operands[0].reg, r, mask);
}

// The race check (README, "Hazards: shared-memory races"). Two accesses to a word by different
// threads race when one writes, they share bytes, they are not both strong with the same size (PTX:
// morally strong), and nothing orders them: no barrier between them (bar.sync for the block,
// bar.warp.sync within a warp) and no release-acquire chain (release_acquire.h).
void BlockRunner::trackSharedAccess(const WarpState& warp, int lane, std::uint64_t address, std::uint32_t bytes,
                                    bool isWrite, bool isAtomic, bool isStrong)
{
    const std::uint32_t thread = static_cast<std::uint32_t>(warp.index * 32 + lane) + 1;
    const bool strong = isAtomic || isStrong;
    const std::uint32_t clock = m_clocks.clock(thread - 1);
    const auto size = static_cast<std::uint8_t>(std::min<std::uint32_t>(bytes, 255));
    const char* const orderingWords = m_usesOrdering ? " or release-acquire pair" : "";
    for (std::uint64_t word = address / 4; word <= (address + bytes - 1) / 4 && word < m_sharedState.size(); ++word) {
        SharedWordState& state = m_sharedState[word];
        // The bytes of this word the access touches: byte and half-word arrays share words without
        // sharing bytes, which is not a race.
        const std::uint64_t first = std::max<std::uint64_t>(address, word * 4);
        const std::uint64_t last = std::min<std::uint64_t>(address + bytes, word * 4 + 4); // one past
        const auto touched = static_cast<std::uint8_t>(((1u << (last - first)) - 1u) << (first - word * 4));
        const auto sameInterval = [&](std::uint32_t other, std::uint32_t epoch, std::uint32_t warpEpoch) {
            const std::int32_t otherWarp = static_cast<std::int32_t>((other - 1) / 32);
            if (otherWarp == warp.index)
                return warpEpoch == warp.warpEpoch;
            return epoch == m_blockEpoch;
        };
        // Not ordered before this access: in the same barrier interval, and no release reached this
        // thread's acquires from after it.
        const auto unordered = [&](std::uint32_t other, std::uint32_t epoch, std::uint32_t warpEpoch, std::uint32_t otherClock) {
            return sameInterval(other, epoch, warpEpoch) &&
                   !m_clocks.ordered(other - 1, otherClock, (other - 1) / 32, warpEpoch, thread - 1);
        };
        const auto morallyStrong = [&](bool otherStrong, std::uint8_t otherSize) {
            return strong && otherStrong && otherSize == size;
        };
        if (state.asyncWrites > 0) // a cp.async into this word has not landed (exec_async.cpp)
            reportAsyncCopyInFlight(warp, lane, word * 4, isWrite);
        if ((!isWrite || isAtomic) && (touched & ~state.writtenBytes) != 0) {
            reportHazard(HazardKind::UninitializedSharedRead, warp, lane, word * 4, "shared",
                         "reads shared memory at offset " + std::to_string(word * 4) +
                             " before any thread of the block wrote it");
        }
        if (state.writer != 0 && state.writer != thread && (touched & state.writeBytes) != 0 &&
            !morallyStrong(state.writeStrong != 0, state.writeSize) &&
            unordered(state.writer, state.writeEpoch, state.writeWarpEpoch, state.writeClock)) {
            const std::uint32_t other = state.writer - 1;
            reportHazard(HazardKind::SharedRace, warp, lane, word * 4, "shared",
                         std::string(isWrite ? "writes" : "reads") + " shared memory at offset " + std::to_string(word * 4) +
                             " that thread " + std::to_string(other) + " (warp " + std::to_string(other / 32) +
                             ") wrote with no barrier" + orderingWords + " in between (missing __syncthreads or __syncwarp)",
                         static_cast<std::int64_t>(other), true);
        }
        // In a kernel with strong accesses, each warp's last read in the interval is checked
        // (m_readsAcrossWarps); without them, reads by several warps in the interval always race
        // with a write, since only a barrier could have ordered them.
        std::uint32_t racingReader = 0;
        if (isWrite && state.reader != 0 && (touched & state.readBytes) != 0) {
            if (state.reader != thread && !morallyStrong(state.readStrong != 0, state.readSize) &&
                unordered(state.reader, state.readEpoch, state.readWarpEpoch, state.readClock))
                racingReader = state.reader;
            else if (state.readersAcrossWarps && state.readEpoch == m_blockEpoch && !m_readsPerWarp)
                racingReader = state.reader;
            else if (state.readersAcrossWarps && state.readEpoch == m_blockEpoch) {
                if (const auto reads = m_readsAcrossWarps.find(word); reads != m_readsAcrossWarps.end())
                    for (const SharedRead& read : reads->second)
                        if (racingReader == 0 && read.thread != thread && (touched & read.bytes) != 0 &&
                            !morallyStrong(read.strong != 0, read.size) &&
                            unordered(read.thread, state.readEpoch, read.warpEpoch, read.clock))
                            racingReader = read.thread;
            }
        }
        if (racingReader != 0) {
            const std::uint32_t other = racingReader - 1;
            reportHazard(HazardKind::SharedRace, warp, lane, word * 4, "shared",
                         "writes shared memory at offset " + std::to_string(word * 4) + " that thread " +
                             std::to_string(other) + " (warp " + std::to_string(other / 32) +
                             ") read with no barrier" + orderingWords + " in between (missing __syncthreads or __syncwarp)",
                         static_cast<std::int64_t>(other), false);
        }
        if (isWrite) {
            if (state.readersAcrossWarps && m_readsPerWarp)
                m_readsAcrossWarps.erase(word);
            state.writer = thread;
            state.writeEpoch = m_blockEpoch;
            state.writeWarpEpoch = warp.warpEpoch;
            state.writeClock = clock;
            state.writeStrong = strong ? 1 : 0;
            state.writeSize = size;
            state.writeBytes = touched;
            state.writtenBytes |= touched;
            state.reader = 0;
            state.readBytes = 0;
            state.readersAcrossWarps = 0;
        } else {
            const bool sameEpoch = state.reader != 0 && state.readEpoch == m_blockEpoch;
            const bool otherWarp = sameEpoch && static_cast<std::int32_t>((state.reader - 1) / 32) != warp.index;
            if (m_readsPerWarp && (otherWarp || (sameEpoch && state.readersAcrossWarps))) {
                // Several warps read it in this interval: keep each warp's last read.
                std::vector<SharedRead>& reads = m_readsAcrossWarps[word];
                const auto remember = [&](const SharedRead& read) {
                    const auto sameWarp = std::find_if(reads.begin(), reads.end(), [&](const SharedRead& kept) {
                        return (kept.thread - 1) / 32 == (read.thread - 1) / 32;
                    });
                    if (sameWarp == reads.end())
                        reads.push_back(read);
                    else
                        *sameWarp = read;
                };
                if (!state.readersAcrossWarps) {
                    reads.clear();
                    remember({state.reader, state.readWarpEpoch, state.readClock, state.readStrong, state.readSize,
                              state.readBytes});
                }
                remember({thread, warp.warpEpoch, clock, static_cast<std::uint8_t>(strong ? 1 : 0), size, touched});
            }
            if (otherWarp)
                state.readersAcrossWarps = 1;
            else if (state.readEpoch != m_blockEpoch)
                state.readersAcrossWarps = 0;
            state.readBytes = sameEpoch ? state.readBytes | touched : touched;
            state.reader = thread;
            state.readEpoch = m_blockEpoch;
            state.readWarpEpoch = warp.warpEpoch;
            state.readClock = clock;
            state.readStrong = strong ? 1 : 0;
            state.readSize = size;
        }
    }
}

void BlockRunner::executeFence(const WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    if (!m_clocks.enabled())
        return;
    const bool acquire = in.order != ptx::MemoryOrder::Release; // .sc, .acq_rel, .acquire
    const bool release = in.order != ptx::MemoryOrder::Acquire;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((mask >> lane) & 1u)
            m_clocks.fence(static_cast<std::uint32_t>(warp.index) * 32 + lane, warp.warpEpoch, acquire, release);
}

void BlockRunner::executeMemory(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                InstructionCounters& counters, std::int32_t& traceMemory, std::uint8_t& conflictDegree)
{
    const bool isLoad = in.op == Op::Ld;
    const bool isAtomic = in.op == Op::Atom || in.op == Op::Red;
    const bool isStore = in.op == Op::St;
    // ld/st .relaxed, .acquire, .release and every atomic: strong, and the ends of release-acquire
    // chains (release_acquire.h).
    const bool isStrong = in.order != ptx::MemoryOrder::Weak;
    const bool acquires = in.order == ptx::MemoryOrder::Acquire || in.order == ptx::MemoryOrder::AcqRel;
    const bool releases = in.order == ptx::MemoryOrder::Release || in.order == ptx::MemoryOrder::AcqRel;
    const ptx::Operand& address = isLoad || in.op == Op::Atom ? in.operands[1] : in.operands[0];
    const std::uint32_t elementSize = static_cast<std::uint32_t>(ptx::typeBits(in.type) / 8);
    const std::uint32_t width = in.vectorWidth;
    const std::uint32_t bytesPerLane = elementSize * width;

    // Lane addresses in the instruction's space (generic addresses are sorted into spaces below).
    LaneValues baseStore;
    const std::uint64_t* base = baseStore.data();
    if (address.reg < 0)
        baseStore.fill(0);
    else
        base = warp.regs + static_cast<std::size_t>(address.reg) * 32; // read in place
    std::uint64_t displacement = static_cast<std::uint64_t>(address.offset);
    Space space = in.space;
    if (address.symbol >= 0) {
        const ptx::Symbol& symbol = m_function.symbols[static_cast<std::size_t>(address.symbol)];
        if (symbol.space == Space::Global || symbol.space == Space::Const)
            displacement += m_context.symbolAddress[static_cast<std::size_t>(address.symbol)];
        else if (symbol.space == Space::Local || symbol.frameParam)
            displacement += warp.frameBase; // the running function's frame (exec_call.cpp)
        if (space == Space::Generic)
            space = symbol.frameParam ? Space::Local : symbol.space == Space::Const ? Space::Global : symbol.space;
    }
    if (space == Space::Const)
        space = Space::Global; // constants live in global allocations

    // Kernel parameters: the same bytes for every lane, read once.
    if (space == Space::Param && isLoad && address.reg < 0) {
        const std::uint64_t offset = displacement;
        if (!fits(offset, bytesPerLane, m_context.paramBytes.size()))
            throw ptx::PtxError("a load outside the kernel's parameters", in.ptxLine);
        const ptx::Operand& destination = in.operands[0];
        for (std::uint32_t i = 0; i < width; ++i) {
            LaneValues value;
            value.fill(extendLoaded(loadBits(m_context.paramBytes.data() + offset + i * elementSize, elementSize), in.type));
            write(warp, destination.kind == ptx::Operand::Kind::Vector ? destination.vector[i] : destination.reg, value, mask);
        }
        return;
    }

    // Values to store, or the atomic operands (a vector's elements for st.v2/.v4 and atom/red.v2/.v4).
    LaneValues values[4];
    LaneValues compare;
    compare.fill(0);
    if (isStore || (isAtomic && width > 1)) {
        const ptx::Operand& source = in.operands[in.op == Op::Atom ? 2 : 1]; // st and red: 1
        if (source.kind == ptx::Operand::Kind::Vector) {
            for (std::uint32_t i = 0; i < width; ++i) {
                ptx::Operand reg;
                reg.kind = ptx::Operand::Kind::Reg;
                reg.reg = source.vector[i];
                if (reg.reg == ptx::kVectorImmediate)
                    values[i].fill(source.vectorImm[i]);
                else if (reg.reg < 0)
                    values[i].fill(0);
                else
                    read(warp, reg, values[i]);
            }
        } else {
            read(warp, source, values[0]);
        }
    } else if (isAtomic) {
        const int first = in.op == Op::Atom ? 2 : 1;
        read(warp, in.operands[first], values[0]);
        if (in.atomOp == ptx::AtomOp::Cas)
            read(warp, in.operands[first + 1], compare);
    }

    const std::uint64_t alignmentMask = std::min<std::uint32_t>(bytesPerLane, 16) - 1; // sizes are powers of two
    LaneValues loaded[4];
    LaneValues laneAddresses;
    LaneAccess globalLanes[32], sharedLanes[32];
    std::uint32_t globalCount = 0, sharedCount = 0;
    std::optional<std::lock_guard<std::mutex>> atomicLock;
    if (isAtomic && m_context.concurrent && (space == Space::Global || space == Space::Generic))
        atomicLock.emplace(*m_context.atomicMutex);

    // Fast path: plain global loads and stores whose lanes all fall, aligned, inside one allocation
    // (one lookup per instruction). Same semantics as the general loop below, fewer checks.
    bool handled = false;
    if (space == Space::Global && !isAtomic && !isStrong && !(isStore && m_clocks.carriesReleases())) {
        std::uint64_t low = ~0ull, high = 0, misaligned = 0;
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            const std::uint64_t laneAddress = base[lane] + displacement;
            laneAddresses[lane] = laneAddress;
            if ((mask >> lane) & 1u) {
                low = std::min(low, laneAddress);
                high = std::max(high, laneAddress);
                misaligned |= laneAddress & alignmentMask;
            }
        }
        const bool wraps = high + bytesPerLane < high;
        DeviceBuffer* holder = m_lastBuffer;
        if (!wraps && (!holder || low < holder->base || high + bytesPerLane > holder->end())) {
            holder = m_context.memory->find(low, high + bytesPerLane - low); // one buffer holds every lane?
            if (holder)
                m_lastBuffer = holder;
        }
        if (misaligned == 0 && !wraps && holder && low >= holder->base && high + bytesPerLane <= holder->end()) {
            const DeviceBuffer& buffer = *holder;
            handled = true;
            std::uint8_t* const data = holder->bytes.data();
            if (width == 1 && elementSize == 4) { // the common case: one 32-bit value per lane
                const bool signedLoad = ptx::isSigned(in.type);
                for (std::uint32_t lane = 0; lane < 32; ++lane) {
                    if (!((mask >> lane) & 1u))
                        continue;
                    const std::uint64_t laneAddress = laneAddresses[lane];
                    globalLanes[globalCount++] = {laneAddress, lane};
                    std::uint8_t* bytes = data + (laneAddress - buffer.base);
                    if (isLoad) {
                        std::uint32_t word;
                        std::memcpy(&word, bytes, 4);
                        loaded[0][lane] = signedLoad ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(word)))
                                                     : word;
                    } else {
                        const auto word = static_cast<std::uint32_t>(values[0][lane]);
                        std::memcpy(bytes, &word, 4);
                    }
                }
            }
            for (std::uint32_t lane = 0; lane < 32 && !(width == 1 && elementSize == 4); ++lane) {
                if (!((mask >> lane) & 1u))
                    continue;
                const std::uint64_t laneAddress = laneAddresses[lane];
                globalLanes[globalCount++] = {laneAddress, lane};
                std::uint8_t* bytes = data + (laneAddress - buffer.base);
                if (isLoad) {
                    for (std::uint32_t i = 0; i < width; ++i)
                        loaded[i][lane] = extendLoaded(loadBits(bytes + i * elementSize, elementSize), in.type);
                } else {
                    for (std::uint32_t i = 0; i < width; ++i)
                        storeBits(bytes + i * elementSize, elementSize, values[i][lane]);
                }
            }
        }
    }

    // Lanes outside their memory, reported once for the warp after the loop.
    OutOfBoundsLanes globalOutside, sharedOutside, localOutside;
    for (std::uint32_t lane = 0; lane < 32 && !handled; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        std::uint64_t laneAddress = base[lane] + displacement;
        Space laneSpace = space;
        if (laneSpace == Space::Generic) {
            if (laneAddress >= kSharedWindow && laneAddress < kSharedWindow + kWindowSize) {
                laneSpace = Space::Shared;
                laneAddress -= kSharedWindow;
            } else if (laneAddress >= kLocalWindow && laneAddress < kLocalWindow + kWindowSize) {
                laneSpace = Space::Local;
                laneAddress -= kLocalWindow;
            } else {
                laneSpace = Space::Global;
            }
        }
        if (laneSpace == Space::Shared || laneSpace == Space::Local)
            laneAddress &= 0xffffffffull; // 32-bit shared and local addresses
        laneAddresses[lane] = laneAddress;
        if ((laneAddress & alignmentMask) != 0 && laneSpace != Space::Param) {
            reportHazard(HazardKind::MisalignedAccess, warp, static_cast<int>(lane), laneAddress, "",
                         "a " + std::to_string(bytesPerLane) + "-byte access at an address that is not a multiple of " +
                             std::to_string(bytesPerLane) + " (the GPU raises a misaligned-address error)");
        }

        std::uint8_t* bytes = nullptr;
        switch (laneSpace) {
        case Space::Param:
            if (!isLoad)
                throw ptx::PtxError("only loads from the kernel parameter space are supported", in.ptxLine);
            if (!fits(laneAddress, bytesPerLane, m_context.paramBytes.size()))
                throw ptx::PtxError("a load outside the kernel's parameters", in.ptxLine);
            bytes = const_cast<std::uint8_t*>(m_context.paramBytes.data()) + laneAddress;
            break;
        case Space::Global: {
            globalLanes[globalCount++] = {laneAddress, lane};
            DeviceBuffer* buffer = m_lastBuffer;
            if (!buffer || laneAddress < buffer->base || !fits(laneAddress - buffer->base, bytesPerLane, buffer->size())) {
                buffer = m_context.memory->find(laneAddress, bytesPerLane);
                if (buffer)
                    m_lastBuffer = buffer;
            }
            if (!buffer) {
                globalOutside.add(lane, laneAddress, bytesPerLane);
                break;
            }
            bytes = buffer->bytes.data() + (laneAddress - buffer->base);
            break;
        }
        case Space::Shared:
            sharedLanes[sharedCount++] = {laneAddress, lane};
            if (!fits(laneAddress, bytesPerLane, m_shared.size())) {
                sharedOutside.add(lane, laneAddress, bytesPerLane);
                break;
            }
            trackSharedAccess(warp, static_cast<int>(lane), laneAddress, bytesPerLane, !isLoad, isAtomic, isStrong);
            bytes = m_shared.data() + laneAddress;
            break;
        case Space::Local:
            if (!fits(laneAddress, bytesPerLane, m_localBytes)) {
                localOutside.add(lane, laneAddress, bytesPerLane);
                break;
            }
            bytes = warp.local + lane * m_localBytes + laneAddress;
            break;
        default:
            break;
        }
        if (!bytes) { // out of bounds: loads give 0, stores are dropped
            for (std::uint32_t i = 0; i < width; ++i)
                loaded[i][lane] = 0;
            continue;
        }
        if (isLoad) {
            for (std::uint32_t i = 0; i < width; ++i)
                loaded[i][lane] = extendLoaded(loadBits(bytes + i * elementSize, elementSize), in.type);
        } else if (isStore) {
            for (std::uint32_t i = 0; i < width; ++i)
                storeBits(bytes + i * elementSize, elementSize, values[i][lane]);
        } else {
            for (std::uint32_t i = 0; i < width; ++i) { // a vector atomic: each element on its own
                std::uint8_t* element = bytes + i * elementSize;
                const std::uint64_t old = loadBits(element, elementSize);
                storeBits(element, elementSize, atomicResult(in.atomOp, in.type, old, values[i][lane], compare[lane]));
                loaded[i][lane] = extendLoaded(old, in.type);
            }
        }
        if (m_clocks.enabled() && (laneSpace == Space::Shared || laneSpace == Space::Global)) {
            // Shared and global addresses overlap as numbers: the space tells the locations apart.
            const std::uint64_t location = laneAddress | (laneSpace == Space::Shared ? 1ull << 63 : 0);
            const std::uint32_t thread = static_cast<std::uint32_t>(warp.index) * 32 + lane;
            if (!isStore && isStrong)
                m_clocks.read(thread, location, acquires);
            if (!isLoad)
                m_clocks.write(thread, static_cast<std::uint32_t>(warp.index), warp.warpEpoch, location, releases,
                               isStrong, isAtomic);
        }
    }

    if (!globalOutside.empty() || !sharedOutside.empty() || !localOutside.empty()) {
        const std::string verb = isLoad ? "reads" : isStore ? "writes" : "atomically updates";
        reportOutOfBounds(HazardKind::OutOfBoundsGlobal, warp, globalOutside, verb, in.type);
        reportOutOfBounds(HazardKind::OutOfBoundsShared, warp, sharedOutside, verb, in.type);
        reportOutOfBounds(HazardKind::OutOfBoundsLocal, warp, localOutside, "accesses", in.type);
    }

    if (isLoad) {
        const ptx::Operand& destination = in.operands[0];
        if (destination.kind == ptx::Operand::Kind::Vector) {
            for (std::uint32_t i = 0; i < width; ++i)
                write(warp, destination.vector[i], loaded[i], mask);
        } else {
            write(warp, destination.reg, loaded[0], mask);
        }
    } else if (in.op == Op::Atom && in.operands[0].kind == ptx::Operand::Kind::Reg) {
        write(warp, in.operands[0].reg, loaded[0], mask);
    } else if (in.op == Op::Atom && in.operands[0].kind == ptx::Operand::Kind::Vector) {
        for (std::uint32_t i = 0; i < width; ++i)
            if (in.operands[0].vector[i] >= 0)
                write(warp, in.operands[0].vector[i], loaded[i], mask);
    }

    // What it cost.
    std::uint32_t sectors = 0, wavefronts = 0;
    GlobalAccessCost globalCost;
    SharedAccessCost sharedCost;
    if (globalCount > 0) {
        std::uint64_t list[128]; // the timing model's log: the sectors
        const GlobalAccessCost cost = globalCost =
            analyzeGlobalAccess({globalLanes, globalCount}, bytesPerLane, m_logging ? list : nullptr, 128);
        counters.globalRequests += cost.requests;
        counters.globalSectors += cost.sectors;
        counters.globalLines += cost.lines;
        counters.bytesRequested += cost.bytesRequested;
        counters.bytesMoved += cost.bytesMoved;
        sectors = cost.sectors;
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(cost.sectors, 0xffff));
        if (m_logging) {
            m_record.sectorOffset = static_cast<std::uint32_t>(m_sectorPool.size());
            m_record.sectorCount = static_cast<std::uint16_t>(std::min<std::uint32_t>(cost.sectors, 128));
            // An atomic's sectors carry, in their low five bits (a sector address has them clear), the
            // most lanes updating one address in the sector, less one: those updates queue at L2.
            if (isAtomic)
                for (std::uint32_t i = 0; i < m_record.sectorCount; ++i)
                    list[i] |= std::min<std::uint32_t>(31, mostLanesAtOneAddress({globalLanes, globalCount}, list[i]) - 1);
            m_sectorPool.insert(m_sectorPool.end(), list, list + m_record.sectorCount);
        }
    }
    // Scalar shared loads ptxas merges into one LDS.64 or LDS.128 (shared_load_merge.h): the first
    // of the group counts the wide load from the group's first word, the others nothing.
    const SharedMergeCount merged = sharedCount > 0 && isLoad ? mergedSharedLoad(m_function, in, sharedLanes, sharedCount) : SharedMergeCount{};
    if (merged.member) {
        m_record.cost = 0;
    } else if (sharedCount > 0) {
        const SharedAccessCost cost = sharedCost = merged.bytes > 0
            ? analyzeSharedAccess({merged.lanes.data(), sharedCount}, merged.bytes)
            : analyzeSharedAccess({sharedLanes, sharedCount}, bytesPerLane);
        counters.sharedRequests += 1;
        counters.sharedWavefronts += cost.wavefronts;
        counters.sharedBankConflicts += cost.bankConflicts;
        counters.maxConflictDegree = std::max(counters.maxConflictDegree, cost.conflictDegree);
        conflictDegree = static_cast<std::uint8_t>(std::min<std::uint32_t>(cost.conflictDegree, 255));
        wavefronts = cost.wavefronts;
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(cost.wavefronts, 0xffff));
        // Lanes atomically updating one shared address are served one after another, not broadcast.
        if (isAtomic)
            m_record.cost = static_cast<std::uint16_t>(
                std::max<std::uint32_t>(m_record.cost, mostLanesAtOneAddress({sharedLanes, sharedCount}, ~0ull)));
    }
    if (m_recordingActive) {
        RecordedAccess access;
        access.space = globalCount > 0 ? Space::Global : sharedCount > 0 ? Space::Shared : space;
        access.isStore = isStore;
        access.isAtomic = isAtomic;
        access.bytesPerLane = bytesPerLane;
        access.laneMask = mask;
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            access.addresses[lane] = ((mask >> lane) & 1u) ? laneAddresses[lane] : 0;
        access.requests = globalCost.requests;
        access.sectors = globalCost.sectors;
        access.lines = globalCost.lines;
        access.bytesRequested = globalCost.bytesRequested;
        access.bytesMoved = globalCost.bytesMoved;
        access.wavefronts = sharedCost.wavefronts;
        access.bankConflicts = sharedCost.bankConflicts;
        access.conflictDegree = sharedCost.conflictDegree;
        access.mergedBytesPerLane = merged.bytes;
        access.mergedOffset = static_cast<std::uint32_t>(merged.back);
        access.mergedMember = merged.member;
        recordAccess(access);
    }
    if (m_tracing && m_trace.events.size() < m_context.traceRequest->maxEvents) {
        TraceMemoryAccess record;
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            record.addresses[lane] = ((mask >> lane) & 1u) ? laneAddresses[lane] : 0;
        record.sectors = static_cast<std::uint16_t>(sectors);
        record.wavefronts = static_cast<std::uint16_t>(wavefronts);
        record.bytesPerLane = static_cast<std::uint16_t>(bytesPerLane);
        record.space = static_cast<std::uint8_t>(globalCount > 0 ? Space::Global : sharedCount > 0 ? Space::Shared : space);
        record.isStore = isLoad ? 0 : 1;
        traceMemory = static_cast<std::int32_t>(m_trace.memory.size());
        m_trace.memory.push_back(record);
    }
}

} // namespace warpscope::sim
