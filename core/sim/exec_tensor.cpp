// Tensor Core instructions (PTX ISA 9.x, "Warp Level Matrix Multiply-Accumulate Instructions"):
// wmma.load, wmma.mma and wmma.store on fragments whose layout the ISA leaves to the implementation,
// mma.sync on the fragments the ISA lays out element by element, and ldmatrix and stmatrix, which
// load those fragments from and store them to shared memory. exec_tensor_layout.cpp holds the
// layouts and the element arithmetic; core/sim/README.md ("Tensor Cores") describes both. Every
// instruction here is warp-wide (.sync.aligned): the whole warp executes it.
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/exec_tensor_layout.h"
#include "sim/global_memory.h"
#include "sim/memory_analysis.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace warpscope::sim {

namespace {

using ptx::Op;
using ptx::Space;
using ptx::Type;
using tensor::MatrixCoord;
using tensor::Role;
using tensor::elementBits;
using tensor::elementsPerRegister;
using tensor::fragmentElement;
using tensor::fragmentType;

// The name a hazard gives the instruction: stmatrix is decoded as a matrix store (Op::WmmaStore).
std::string matrixOpName(const ptx::Instruction& in)
{
    return in.op == Op::WmmaStore && in.matrixCount > 0 ? "stmatrix" : std::string(ptx::opName(in.op));
}

} // namespace

// Each lane's address from an [reg + offset] or [symbol + offset] operand, before sorting generic
// addresses into spaces.
void BlockRunner::laneAddresses(const WarpState& warp, const ptx::Operand& address, LaneValues& out) const
{
    std::uint64_t displacement = static_cast<std::uint64_t>(address.offset);
    if (address.symbol >= 0) {
        const ptx::Symbol& symbol = m_function.symbols[static_cast<std::size_t>(address.symbol)];
        if (symbol.space == Space::Global || symbol.space == Space::Const)
            displacement += m_context.symbolAddress[static_cast<std::size_t>(address.symbol)];
        else if (symbol.space == Space::Local || symbol.frameParam)
            displacement += warp.frameBase;
    }
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        out[lane] = (address.reg >= 0 ? warp.regs[static_cast<std::size_t>(address.reg) * 32 + lane] : 0) + displacement;
}

bool BlockRunner::checkWholeWarp(const WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    const std::uint32_t missing = warp.existMask & ~mask;
    if (missing == 0)
        return true;
    reportHazard(HazardKind::WarpSyncMismatch, warp, std::countr_zero(mask | 0x80000000u), 0, "",
                 describeLanes(mask) + " " + (std::popcount(mask) == 1 ? "executes" : "execute") + " '" +
                     matrixOpName(in) + "' without " + describeLanes(missing) +
                     " (undefined behaviour: .sync.aligned needs the whole warp); the instruction is skipped",
                 -1, false, mask, missing);
    return false;
}

// The bytes at `address` of `space` for `lane` (generic addresses are sorted into their window),
// or null with a hazard when they lie outside it. `resolved` is the space it fell in.
std::uint8_t* BlockRunner::matrixBytes(const WarpState& warp, const ptx::Instruction& in, std::uint32_t lane,
                                       std::uint64_t address, std::uint32_t bytes, bool isWrite, Space& resolved,
                                       std::uint64_t& resolvedAddress)
{
    Space space = in.space;
    if (space == Space::Generic) {
        if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) {
            space = Space::Shared;
            address -= kSharedWindow;
        } else if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) {
            space = Space::Local;
            address -= kLocalWindow;
        } else {
            space = Space::Global;
        }
    }
    if (space == Space::Shared || space == Space::Local)
        address &= 0xffffffffull;
    resolved = space;
    resolvedAddress = address;
    const int laneIndex = static_cast<int>(lane);
    if ((address & (bytes - 1)) != 0) {
        reportHazard(HazardKind::MisalignedAccess, warp, laneIndex, address, "",
                     "a " + std::to_string(bytes) + "-byte matrix element at an address that is not a multiple of " +
                         std::to_string(bytes) + " (the GPU raises a misaligned-address error)");
        return nullptr;
    }
    auto fits = [](std::uint64_t at, std::uint64_t size, std::uint64_t limit) { return at <= limit && size <= limit - at; };
    switch (space) {
    case Space::Global: {
        DeviceBuffer* buffer = m_lastBuffer;
        if (!buffer || address < buffer->base || !fits(address - buffer->base, bytes, buffer->size())) {
            buffer = m_context.memory->find(address, bytes);
            if (buffer)
                m_lastBuffer = buffer;
        }
        if (!buffer) {
            m_matrixOutside[0].add(lane, address, bytes);
            return nullptr;
        }
        return buffer->bytes.data() + (address - buffer->base);
    }
    case Space::Shared:
        if (!fits(address, bytes, m_shared.size())) {
            m_matrixOutside[1].add(lane, address, bytes);
            return nullptr;
        }
        trackSharedAccess(warp, laneIndex, address, bytes, isWrite, false);
        return m_shared.data() + address;
    case Space::Local:
        if (!fits(address, bytes, m_localBytes)) {
            m_matrixOutside[2].add(lane, address, bytes);
            return nullptr;
        }
        return warp.local + lane * m_localBytes + address;
    default:
        throw ptx::PtxError("a matrix access in a state space the simulator does not model", in.ptxLine);
    }
}

void BlockRunner::reportMatrixOutOfBounds(const WarpState& warp, bool isWrite, ptx::Type elementType)
{
    if (m_matrixOutside[0].empty() && m_matrixOutside[1].empty() && m_matrixOutside[2].empty())
        return;
    const std::string verb = isWrite ? "writes" : "reads";
    reportOutOfBounds(HazardKind::OutOfBoundsGlobal, warp, m_matrixOutside[0], verb, elementType);
    reportOutOfBounds(HazardKind::OutOfBoundsShared, warp, m_matrixOutside[1], verb, elementType);
    reportOutOfBounds(HazardKind::OutOfBoundsLocal, warp, m_matrixOutside[2], "accesses", elementType);
    for (OutOfBoundsLanes& lanes : m_matrixOutside)
        lanes.clear();
}

// One warp-wide request per group of lanes' accesses: coalescing or bank conflicts, as for ld/st.
void BlockRunner::countMatrixRequest(const LaneAccess* lanes, std::uint32_t count, Space space, std::uint32_t bytesPerLane,
                                     InstructionCounters& counters, RecordedAccess* recorded)
{
    if (count == 0)
        return;
    if (space == Space::Global) {
        const GlobalAccessCost cost = analyzeGlobalAccess({lanes, count}, bytesPerLane);
        counters.globalRequests += cost.requests;
        counters.globalSectors += cost.sectors;
        counters.globalLines += cost.lines;
        counters.bytesRequested += cost.bytesRequested;
        counters.bytesMoved += cost.bytesMoved;
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(m_record.cost + cost.sectors, 0xffff));
        if (recorded) {
            recorded->requests += cost.requests;
            recorded->sectors += cost.sectors;
            recorded->lines += cost.lines;
            recorded->bytesRequested += cost.bytesRequested;
            recorded->bytesMoved += cost.bytesMoved;
        }
    } else if (space == Space::Shared) {
        const SharedAccessCost cost = analyzeSharedAccess({lanes, count}, bytesPerLane);
        counters.sharedRequests += 1;
        counters.sharedWavefronts += cost.wavefronts;
        counters.sharedBankConflicts += cost.bankConflicts;
        counters.maxConflictDegree = std::max(counters.maxConflictDegree, cost.conflictDegree);
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(m_record.cost + cost.wavefronts, 0xffff));
        if (recorded) {
            recorded->wavefronts += cost.wavefronts;
            recorded->bankConflicts += cost.bankConflicts;
            recorded->conflictDegree = std::max(recorded->conflictDegree, cost.conflictDegree);
        }
    }
}

// wmma.load.{a,b,c} and wmma.store.d: element (row, col) of the matrix is at
// p + (row * stride + col) for a row-major matrix, p + (col * stride + row) for a column-major one,
// in elements. Without a stride operand the matrix is packed: stride is its row (or column) length.
// Each fragment register is one warp-wide request (32-bit per lane when the elements it packs are
// adjacent in memory, else one request per element).
// Alignment: the PTX ISA ("Matrix Storage for WMMA") wants each row (or column) to start aligned to
// the fragment's size in bytes (32 for .f16 A and .f32 C, 8 for .s8 A, ...); the CUDA C++ Programming
// Guide ("Warp Matrix Functions") wants a 256-bit aligned pointer and ldm a multiple of 16 bytes.
// The simulator asks for the weaker of the two, so that nothing either calls valid is flagged: the
// pointer aligned to min(32, fragment bytes), the stride a multiple of min(16, fragment bytes). A
// violation is a misaligned_access hazard, reported after the accesses (which are still made) so
// that an element's own misalignment, found first, names the problem when both apply.
// stmatrix is decoded as a matrix store and runs apart.
void BlockRunner::executeWmmaMemory(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                    InstructionCounters& counters)
{
    if (in.op == Op::WmmaStore && in.matrixCount > 0) {
        executeStmatrix(warp, in, mask, counters);
        return;
    }
    if (!checkWholeWarp(warp, in, mask))
        return;
    const bool isStore = in.op == Op::WmmaStore;
    const Role role = tensor::roleOf(in.fragment);
    const Type type = in.type;
    const ptx::Operand& address = in.operands[isStore ? 0 : 1];
    const ptx::Operand& fragment = in.operands[isStore ? 1 : 0];
    const int first = std::countr_zero(mask);
    LaneValues base, strideValues;
    laneAddresses(warp, address, base);
    const int rows = role == Role::B ? in.shapeK : in.shapeM;
    const int cols = role == Role::A ? in.shapeK : in.shapeN;
    std::uint64_t stride = static_cast<std::uint64_t>(in.colMajor ? rows : cols);
    if (in.operandCount > 2) {
        read(warp, in.operands[2], strideValues);
        stride = strideValues[static_cast<std::size_t>(first)] & 0xffffffffu;
    }
    const std::uint32_t elementBytes = static_cast<std::uint32_t>(ptx::typeBits(type) / 8);
    const int perRegister = elementsPerRegister(type);
    const int registers = fragment.vectorCount;

    std::vector<LaneValues> values(static_cast<std::size_t>(registers));
    if (isStore)
        for (int r = 0; r < registers; ++r) {
            const std::int32_t reg = fragment.vector[static_cast<std::size_t>(r)];
            for (std::uint32_t lane = 0; lane < 32; ++lane)
                values[static_cast<std::size_t>(r)][lane] =
                    reg == ptx::kVectorImmediate ? fragment.vectorImm[static_cast<std::size_t>(r)]
                    : reg < 0                    ? 0
                                                 : warp.regs[static_cast<std::size_t>(reg) * 32 + lane];
        }
    else
        for (LaneValues& value : values)
            value.fill(0);

    auto offsetOf = [&](MatrixCoord at) {
        return static_cast<std::uint64_t>(in.colMajor ? at.col : at.row) * stride +
               static_cast<std::uint64_t>(in.colMajor ? at.row : at.col);
    };
    Space accessSpace = in.space;
    // What the stepper shows: the first request's addresses and width, and the whole instruction's
    // requests, sectors and wavefronts.
    RecordedAccess recorded;
    RecordedAccess* const record = m_recordingActive ? &recorded : nullptr;
    for (int r = 0; r < registers; ++r) {
        // The elements a register packs, adjacent in memory, make one 32-bit access per lane; else
        // one access per element.
        bool adjacent = perRegister > 1;
        for (int j = 1; j < perRegister && adjacent; ++j)
            adjacent = offsetOf(fragmentElement(in, role, 0, r * perRegister + j)) ==
                       offsetOf(fragmentElement(in, role, 0, r * perRegister)) + static_cast<std::uint64_t>(j);
        for (int part = 0; part < (adjacent ? 1 : perRegister); ++part) {
            LaneAccess lanes[32];
            std::uint32_t count = 0;
            const std::uint32_t bytes = adjacent ? 4 : elementBytes;
            for (std::uint32_t lane = 0; lane < 32; ++lane) {
                if (!((mask >> lane) & 1u))
                    continue;
                const int e = r * perRegister + part;
                const std::uint64_t at = base[lane] +
                                         offsetOf(fragmentElement(in, role, static_cast<int>(lane), e)) * elementBytes;
                Space space = Space::Generic;
                std::uint64_t resolvedAddress = 0;
                std::uint8_t* bytesAt = matrixBytes(warp, in, lane, at, bytes, isStore, space, resolvedAddress);
                accessSpace = space;
                if (r == 0 && part == 0) {
                    recorded.addresses[lane] = resolvedAddress;
                    recorded.bytesPerLane = bytes;
                }
                lanes[count++] = {resolvedAddress, lane};
                if (!bytesAt)
                    continue; // out of bounds: a load gives 0, a store is dropped
                const int shift = perRegister > 1 && !adjacent ? static_cast<int>(8 * elementBytes) * part : 0;
                const std::uint64_t fieldMask = bytes >= 8 ? ~0ull : ((1ull << (8 * bytes)) - 1);
                std::uint64_t& value = values[static_cast<std::size_t>(r)][lane];
                if (isStore) {
                    const std::uint64_t field = (value >> shift) & fieldMask;
                    std::memcpy(bytesAt, &field, bytes); // little-endian host, as the GPU
                } else {
                    std::uint64_t field = 0;
                    std::memcpy(&field, bytesAt, bytes);
                    value |= field << shift;
                }
            }
            countMatrixRequest(lanes, count, accessSpace, bytes, counters, record);
        }
    }
    reportMatrixOutOfBounds(warp, isStore, type);
    if (!isStore)
        for (int r = 0; r < registers; ++r)
            write(warp, fragment.vector[static_cast<std::size_t>(r)], values[static_cast<std::size_t>(r)], mask);
    const std::uint64_t pointer = base[static_cast<std::size_t>(first)];
    const std::uint64_t strideBytes = stride * elementBytes;
    const std::uint64_t registerBytes = ptx::typeBits(type) == 64 ? 8 : 4;
    const std::uint64_t fragmentBytes = static_cast<std::uint64_t>(registers) * registerBytes;
    const std::uint64_t pointerAlignment = std::min<std::uint64_t>(32, fragmentBytes);
    const std::uint64_t strideAlignment = std::min<std::uint64_t>(16, fragmentBytes);
    const std::string what = std::string(isStore ? "wmma.store" : "wmma.load");
    if (pointer % pointerAlignment != 0)
        reportHazard(HazardKind::MisalignedAccess, warp, first, pointer, "",
                     what + " at a matrix pointer " + std::to_string(pointer % pointerAlignment) + " bytes past a multiple of " +
                         std::to_string(pointerAlignment) + " (a " + std::to_string(fragmentBytes) +
                         "-byte fragment's rows must start aligned to it: PTX ISA, \"Matrix Storage for WMMA\"; CUDA asks "
                         "for a 256-bit aligned pointer; the GPU raises a misaligned-address error)");
    if (strideBytes % strideAlignment != 0)
        reportHazard(HazardKind::MisalignedAccess, warp, first, pointer, "",
                     what + " with a stride of " + std::to_string(stride) + " elements (" + std::to_string(strideBytes) +
                         " bytes), not a multiple of " + std::to_string(strideAlignment) +
                         " bytes: its rows start misaligned (PTX ISA, \"Matrix Storage for WMMA\"; CUDA's ldm rule)");
    if (m_recordingActive) {
        recorded.space = accessSpace;
        recorded.isStore = isStore;
        recorded.laneMask = mask;
        recordAccess(recorded);
    }
}

// wmma.mma and mma.sync: D = A * B + C over the whole warp's fragments.
// Floating point: every product of two half (or tf32) values is exact in double, and so is their sum
// unless the exponents lie far apart; the result is rounded once to D's type, to nearest even
// (.satfinite: infinities become the largest finite value). f64 (m8n8k4) accumulates in k order with
// one fused multiply-add per step, as DMMA does.
// Integer (.s8/.u8 multiplicands, .s32 accumulators): the exact sum, wrapped to 32 bits or, with
// .satfinite, clamped to the s32 range.
void BlockRunner::executeMatrixMultiply(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    if (!checkWholeWarp(warp, in, mask))
        return;
    const int m = in.shapeM, n = in.shapeN, k = in.shapeK;
    const bool integer = tensor::isByteType(in.multiplicandType);
    // Each operand's elements as raw bits, placed at their (row, column).
    std::vector<std::uint64_t> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
    auto gather = [&](const ptx::Operand& operand, Role role, std::vector<std::uint64_t>& into, int columns) {
        const Type type = fragmentType(in, role, false);
        const int perRegister = elementsPerRegister(type);
        // Each lane holds size / 32 distinct elements (wmma's .f16 A and B repeat them to fill 16:
        // the copies after the first are not read).
        const int elements = std::min(operand.vectorCount * perRegister, static_cast<int>(into.size() / 32));
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            for (int e = 0; e < elements; ++e) {
                const std::int32_t reg = operand.vector[static_cast<std::size_t>(e / perRegister)];
                const std::uint64_t raw = reg == ptx::kVectorImmediate ? operand.vectorImm[static_cast<std::size_t>(e / perRegister)]
                                        : reg < 0                    ? 0
                                                                     : warp.regs[static_cast<std::size_t>(reg) * 32 + lane];
                const MatrixCoord at = fragmentElement(in, role, static_cast<int>(lane), e);
                into[static_cast<std::size_t>(at.row * columns + at.col)] = elementBits(raw, type, e);
            }
    };
    gather(in.operands[1], Role::A, a, k);
    gather(in.operands[2], Role::B, b, n);
    gather(in.operands[3], Role::C, c, n);
    const Type typeA = fragmentType(in, Role::A, false), typeB = fragmentType(in, Role::B, false), typeC = in.type2;
    std::vector<std::uint64_t> d(static_cast<std::size_t>(m * n));
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            const std::size_t at = static_cast<std::size_t>(row * n + col);
            if (integer) {
                std::int64_t sum = tensor::integerElementValue(c[at], typeC);
                for (int i = 0; i < k; ++i)
                    sum += tensor::integerElementValue(a[static_cast<std::size_t>(row * k + i)], typeA) *
                           tensor::integerElementValue(b[static_cast<std::size_t>(i * n + col)], typeB);
                d[at] = tensor::integerResult(sum, in.satfinite);
                continue;
            }
            double sum = tensor::elementValue(c[at], typeC);
            for (int i = 0; i < k; ++i) {
                const double x = tensor::elementValue(a[static_cast<std::size_t>(row * k + i)], typeA);
                const double y = tensor::elementValue(b[static_cast<std::size_t>(i * n + col)], typeB);
                sum = in.type == Type::F64 ? std::fma(x, y, sum) : sum + x * y;
            }
            d[at] = tensor::roundedElement(sum, in.type, in.satfinite);
        }
    const ptx::Operand& destination = in.operands[0];
    const Type type = in.type;
    const int perRegister = elementsPerRegister(type);
    for (int r = 0; r < destination.vectorCount; ++r) {
        LaneValues value{};
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            for (int part = 0; part < perRegister; ++part) {
                const int e = r * perRegister + part;
                const MatrixCoord at = fragmentElement(in, Role::C, static_cast<int>(lane), e);
                value[lane] |= d[static_cast<std::size_t>(at.row * n + at.col)] << (16 * part * (perRegister - 1));
            }
        write(warp, destination.vector[static_cast<std::size_t>(r)], value, mask);
    }
}

// ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared}.b16: lanes 8i to 8i+7 give the addresses of
// the eight 16-byte rows of matrix i; register i of each lane receives two adjacent elements of
// matrix i: row lane / 4, columns 2 * (lane % 4) and one more (low half first). .trans delivers the
// transposed matrix: the same positions of its transpose. Each matrix is one shared-memory request.
void BlockRunner::executeLdmatrix(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                  InstructionCounters& counters)
{
    if (!checkWholeWarp(warp, in, mask))
        return;
    const ptx::Operand& address = in.operands[1];
    LaneValues base;
    laneAddresses(warp, address, base);
    const ptx::Operand& destination = in.operands[0];
    // What the stepper shows: every row address (lanes 8i to 8i+7 give matrix i's) and the whole
    // instruction's wavefronts.
    RecordedAccess recorded;
    RecordedAccess* const record = m_recordingActive ? &recorded : nullptr;
    Space accessSpace = in.space;
    for (int matrix = 0; matrix < in.matrixCount; ++matrix) {
        std::array<std::array<std::uint16_t, 8>, 8> rows{};
        LaneAccess lanes[8];
        std::uint32_t count = 0;
        for (int row = 0; row < 8; ++row) {
            const auto lane = static_cast<std::uint32_t>(matrix * 8 + row);
            Space space = Space::Generic;
            std::uint64_t resolvedAddress = 0;
            const std::uint8_t* bytes = matrixBytes(warp, in, lane, base[lane], 16, false, space, resolvedAddress);
            accessSpace = space;
            lanes[count++] = {resolvedAddress, lane};
            recorded.addresses[lane] = resolvedAddress;
            if (bytes)
                std::memcpy(rows[static_cast<std::size_t>(row)].data(), bytes, 16);
        }
        countMatrixRequest(lanes, count, accessSpace, 16, counters, record);
        LaneValues value{};
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            const std::size_t r = lane / 4, c = 2 * (lane % 4);
            const std::uint16_t low = in.transpose ? rows[c][r] : rows[r][c];
            const std::uint16_t high = in.transpose ? rows[c + 1][r] : rows[r][c + 1];
            value[lane] = static_cast<std::uint64_t>(low) | (static_cast<std::uint64_t>(high) << 16);
        }
        write(warp, destination.vector[static_cast<std::size_t>(matrix)], value, mask);
    }
    reportMatrixOutOfBounds(warp, false, in.type);
    if (m_recordingActive) {
        recorded.space = accessSpace;
        recorded.bytesPerLane = 16;
        recorded.laneMask = mask & ((in.matrixCount == 4 ? 0xffffffffu : (1u << (8 * in.matrixCount)) - 1u));
        recordAccess(recorded);
    }
}

// stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared}.b16 [p], {r...} (sm_90), the inverse of
// ldmatrix: register i of lane L holds two adjacent elements of matrix i, row L / 4, columns
// 2 * (L % 4) and one more (low half first); .trans stores them at the same positions of the
// transpose (row 2 * (L % 4) and one more, column L / 4). Lanes 8i to 8i+7 give the addresses of
// matrix i's eight 16-byte rows (PTX ISA, stmatrix). Each matrix is one shared-memory request.
void BlockRunner::executeStmatrix(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                  InstructionCounters& counters)
{
    if (!checkWholeWarp(warp, in, mask))
        return;
    LaneValues base;
    laneAddresses(warp, in.operands[0], base);
    const ptx::Operand& source = in.operands[1];
    // What the stepper shows: every row address (lanes 8i to 8i+7 give matrix i's) and the whole
    // instruction's wavefronts.
    RecordedAccess recorded;
    RecordedAccess* const record = m_recordingActive ? &recorded : nullptr;
    Space accessSpace = in.space;
    for (int matrix = 0; matrix < in.matrixCount; ++matrix) {
        const std::int32_t reg = source.vector[static_cast<std::size_t>(matrix)];
        std::array<std::array<std::uint16_t, 8>, 8> rows{};
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            const std::uint64_t value = reg == ptx::kVectorImmediate ? source.vectorImm[static_cast<std::size_t>(matrix)]
                                      : reg < 0                    ? 0
                                                                   : warp.regs[static_cast<std::size_t>(reg) * 32 + lane];
            const std::size_t r = lane / 4, c = 2 * (lane % 4);
            const auto low = static_cast<std::uint16_t>(value & 0xffffu);
            const auto high = static_cast<std::uint16_t>((value >> 16) & 0xffffu);
            (in.transpose ? rows[c][r] : rows[r][c]) = low;
            (in.transpose ? rows[c + 1][r] : rows[r][c + 1]) = high;
        }
        LaneAccess lanes[8];
        std::uint32_t count = 0;
        for (int row = 0; row < 8; ++row) {
            const auto lane = static_cast<std::uint32_t>(matrix * 8 + row);
            Space space = Space::Generic;
            std::uint64_t resolvedAddress = 0;
            std::uint8_t* bytes = matrixBytes(warp, in, lane, base[lane], 16, true, space, resolvedAddress);
            accessSpace = space;
            lanes[count++] = {resolvedAddress, lane};
            recorded.addresses[lane] = resolvedAddress;
            if (bytes)
                std::memcpy(bytes, rows[static_cast<std::size_t>(row)].data(), 16);
        }
        countMatrixRequest(lanes, count, accessSpace, 16, counters, record);
    }
    reportMatrixOutOfBounds(warp, true, in.type);
    if (m_recordingActive) {
        recorded.space = accessSpace;
        recorded.isStore = true;
        recorded.bytesPerLane = 16;
        recorded.laneMask = mask & ((in.matrixCount == 4 ? 0xffffffffu : (1u << (8 * in.matrixCount)) - 1u));
        recordAccess(recorded);
    }
}

} // namespace warpscope::sim
