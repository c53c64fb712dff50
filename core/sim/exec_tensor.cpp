// Tensor Core instructions (PTX ISA 9.x, "Warp Level Matrix Multiply-Accumulate Instructions"):
// wmma.load, wmma.mma and wmma.store on fragments whose layout the ISA leaves to the implementation,
// mma.sync on the fragments the ISA lays out element by element, and ldmatrix, which loads those
// fragments from shared memory. core/sim/README.md ("Tensor Cores") gives the layouts and the
// arithmetic; every instruction here is warp-wide (.sync.aligned): the whole warp executes it.
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"
#include "sim/global_memory.h"
#include "sim/memory_analysis.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace warpscope::sim {

namespace {

using ptx::Op;
using ptx::Space;
using ptx::Type;

enum class Role : std::uint8_t { A, B, C }; // C stands for D too: they share a layout

struct MatrixCoord {
    int row = 0;
    int col = 0;
};

// The (row, column) of element `e` of `lane`'s fragment. A is M x K, B is K x N, C and D are M x N.
// groupID = lane >> 2 and threadID_in_group = lane % 4, as the ISA's figures name them.
//
// mma.m16n8k16 and mma.m16n8k8 (.f16, .bf16): the ISA's figures ("Matrix Fragments for mma.m16n8k16
// with floating point type", "... mma.m16n8k8"). wmma.m8n8k4.f64: the layout of mma.m8n8k4.f64.
//
// wmma.m16n16k16: the ISA leaves the layout open, and only load -> mma -> store can be observed, so
// the simulator chooses one and keeps it: the 16 x 16 tile as two m16n8k16 tiles side by side
// (modelled on the m16n8k16 operation sm_80 builds it from; not checked against a GPU's registers). A's elements 0-7 are mma.m16n8k16's a0-a7; B's
// elements 0-3 are b0-b3 of columns 0-7 and 4-7 those of columns 8-15; C's elements 0-3 are c0-c3 of
// columns 0-7 and 4-7 those of columns 8-15. An .f16 A or B fragment has 16 elements for 8 distinct
// values per lane: elements 8-15 repeat 0-7 (wmma.load writes both, wmma.mma reads 0-7).
MatrixCoord fragmentElement(const ptx::Instruction& in, Role role, int lane, int e)
{
    const int group = lane >> 2;
    const int thread = lane & 3;
    if (in.shapeM == 8) { // m8n8k4 .f64
        switch (role) {
        case Role::A: return {group, thread};
        case Role::B: return {thread, group};
        case Role::C: return {group, thread * 2 + (e & 1)};
        }
    }
    if (in.op == Op::Mma && in.shapeK == 8) { // m16n8k8
        switch (role) {
        case Role::A: return {group + 8 * (e >> 1), thread * 2 + (e & 1)};
        case Role::B: return {thread * 2 + e, group};
        case Role::C: return {group + 8 * (e >> 1), thread * 2 + (e & 1)};
        }
    }
    if (in.op == Op::Mma) { // m16n8k16
        switch (role) {
        case Role::A: return {group + 8 * ((e >> 1) & 1), thread * 2 + (e & 1) + 8 * (e >> 2)};
        case Role::B: return {thread * 2 + (e & 1) + 8 * (e >> 1), group};
        case Role::C: return {group + 8 * (e >> 1), thread * 2 + (e & 1)};
        }
    }
    const int j = e & 7; // wmma m16n16k16
    switch (role) {
    case Role::A: return {group + 8 * ((j >> 1) & 1), thread * 2 + (j & 1) + 8 * (j >> 2)};
    case Role::B: return {thread * 2 + (j & 1) + 8 * ((j >> 1) & 1), group + 8 * (j >> 2)};
    case Role::C: return {group + 8 * ((e >> 1) & 1), thread * 2 + (e & 1) + 8 * (e >> 2)};
    }
    return {};
}

// Elements of a fragment: .f16/.bf16 pack two per 32-bit register (element 2r in the low half).
int elementsPerRegister(Type type) { return ptx::typeBits(type) == 16 ? 2 : 1; }

std::uint64_t elementBits(std::uint64_t registerValue, Type type, int e)
{
    if (ptx::typeBits(type) == 16)
        return (registerValue >> (16 * (e & 1))) & 0xffffu;
    if (ptx::typeBits(type) == 32)
        return registerValue & 0xffffffffu;
    return registerValue;
}

double elementValue(std::uint64_t bits, Type type)
{
    switch (type) {
    case Type::F16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::F16);
    case Type::BF16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::BF16);
    case Type::F32: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    default: return std::bit_cast<double>(bits);
    }
}

// `value` rounded once to nearest even in `type`; satfinite turns infinities into the largest
// finite value of the format (NaN stays NaN).
std::uint64_t roundedElement(double value, Type type, bool satfinite)
{
    if (type == Type::F16 || type == Type::BF16)
        return halfFromDouble(value, type == Type::F16 ? HalfFormat::F16 : HalfFormat::BF16,
                              RoundingDirection::NearestEven, satfinite);
    if (type == Type::F32) {
        float rounded = static_cast<float>(value);
        if (satfinite && std::isinf(rounded))
            rounded = std::copysign(std::numeric_limits<float>::max(), rounded);
        return std::bit_cast<std::uint32_t>(rounded);
    }
    return std::bit_cast<std::uint64_t>(value);
}

// The element type each operand of the instruction holds.
Type fragmentType(const ptx::Instruction& in, Role role, bool destination)
{
    if (role == Role::A || role == Role::B)
        return in.multiplicandType;
    return destination ? in.type : in.type2;
}

Role roleOf(ptx::MatrixFragment fragment)
{
    return fragment == ptx::MatrixFragment::A ? Role::A : fragment == ptx::MatrixFragment::B ? Role::B : Role::C;
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
                     std::string(ptx::opName(in.op)) + "' without " + describeLanes(missing) +
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
            const DeviceBuffer* nearest = m_context.memory->nearest(address);
            reportHazard(HazardKind::OutOfBoundsGlobal, warp, laneIndex, address, nearest ? nearest->name : "",
                         std::string(isWrite ? "writes " : "reads ") + describeOutside(nearest, address, bytes) +
                             " (on a GPU: an illegal-address error or silent corruption)");
            return nullptr;
        }
        return buffer->bytes.data() + (address - buffer->base);
    }
    case Space::Shared:
        if (!fits(address, bytes, m_shared.size())) {
            reportHazard(HazardKind::OutOfBoundsShared, warp, laneIndex, address, "shared",
                         std::string(isWrite ? "writes" : "reads") + " shared memory at offset " + std::to_string(address) +
                             ", outside the block's " + std::to_string(m_shared.size()) + " bytes");
            return nullptr;
        }
        trackSharedAccess(warp, laneIndex, address, bytes, isWrite, false);
        return m_shared.data() + address;
    case Space::Local:
        if (!fits(address, bytes, m_localBytes)) {
            reportHazard(HazardKind::OutOfBoundsLocal, warp, laneIndex, address, "local",
                         "accesses local memory at offset " + std::to_string(address) + ", outside the thread's " +
                             std::to_string(m_localBytes) + " bytes");
            return nullptr;
        }
        return warp.local + lane * m_localBytes + address;
    default:
        throw ptx::PtxError("a matrix access in a state space the simulator does not model", in.ptxLine);
    }
}

// One warp-wide request per group of lanes' accesses: coalescing or bank conflicts, as for ld/st.
void BlockRunner::countMatrixRequest(const LaneAccess* lanes, std::uint32_t count, Space space, std::uint32_t bytesPerLane,
                                     InstructionCounters& counters)
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
    } else if (space == Space::Shared) {
        const SharedAccessCost cost = analyzeSharedAccess({lanes, count}, bytesPerLane);
        counters.sharedRequests += 1;
        counters.sharedWavefronts += cost.wavefronts;
        counters.sharedBankConflicts += cost.bankConflicts;
        counters.maxConflictDegree = std::max(counters.maxConflictDegree, cost.conflictDegree);
        m_record.cost = static_cast<std::uint16_t>(std::min<std::uint32_t>(m_record.cost + cost.wavefronts, 0xffff));
    }
}

// wmma.load.{a,b,c} and wmma.store.d: element (row, col) of the matrix is at
// p + (row * stride + col) for a row-major matrix, p + (col * stride + row) for a column-major one,
// in elements. Without a stride operand the matrix is packed: stride is its row (or column) length.
// Each fragment register is one warp-wide request (32-bit per lane when its two halves are adjacent
// in memory, else one request per half).
void BlockRunner::executeWmmaMemory(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask,
                                    InstructionCounters& counters)
{
    if (!checkWholeWarp(warp, in, mask))
        return;
    const bool isStore = in.op == Op::WmmaStore;
    const Role role = roleOf(in.fragment);
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
    LaneValues firstAddresses{};
    for (int r = 0; r < registers; ++r) {
        // Adjacent halves make one 32-bit access per lane; else one access per element.
        const bool adjacent = perRegister == 2 && offsetOf(fragmentElement(in, role, 0, 2 * r + 1)) ==
                                                      offsetOf(fragmentElement(in, role, 0, 2 * r)) + 1;
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
                if (r == 0 && part == 0)
                    firstAddresses[lane] = resolvedAddress;
                lanes[count++] = {resolvedAddress, lane};
                if (!bytesAt)
                    continue; // out of bounds: a load gives 0, a store is dropped
                const int shift = perRegister == 2 && !adjacent ? 16 * part : 0;
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
            countMatrixRequest(lanes, count, accessSpace, bytes, counters);
        }
    }
    if (!isStore)
        for (int r = 0; r < registers; ++r)
            write(warp, fragment.vector[static_cast<std::size_t>(r)], values[static_cast<std::size_t>(r)], mask);
    if (m_recordingActive) { // the stepper shows the first register's request
        RecordedAccess access;
        access.space = accessSpace;
        access.isStore = isStore;
        access.bytesPerLane = elementBytes;
        access.laneMask = mask;
        access.addresses = firstAddresses;
        recordAccess(access);
    }
}

// wmma.mma and mma.sync: D = A * B + C over the whole warp's fragments. Every product of two half
// values is exact in double, and so is their sum unless the exponents lie far apart; the result is
// rounded once to D's type, to nearest even (.satfinite: infinities become the largest finite value).
// f64 (m8n8k4) accumulates in k order with one fused multiply-add per step, as DMMA does.
void BlockRunner::executeMatrixMultiply(WarpState& warp, const ptx::Instruction& in, std::uint32_t mask)
{
    if (!checkWholeWarp(warp, in, mask))
        return;
    const int m = in.shapeM, n = in.shapeN, k = in.shapeK;
    std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
    auto gather = [&](const ptx::Operand& operand, Role role, std::vector<double>& into, int columns) {
        const Type type = fragmentType(in, role, false);
        const int perRegister = elementsPerRegister(type);
        // Each lane holds size / 32 distinct elements (wmma's .f16 A and B hold them twice: the
        // second copy, elements 8-15, is not read).
        const int elements = std::min(operand.vectorCount * perRegister, static_cast<int>(into.size() / 32));
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            for (int e = 0; e < elements; ++e) {
                const std::int32_t reg = operand.vector[static_cast<std::size_t>(e / perRegister)];
                const std::uint64_t raw = reg == ptx::kVectorImmediate ? operand.vectorImm[static_cast<std::size_t>(e / perRegister)]
                                        : reg < 0                    ? 0
                                                                     : warp.regs[static_cast<std::size_t>(reg) * 32 + lane];
                const MatrixCoord at = fragmentElement(in, role, static_cast<int>(lane), e);
                into[static_cast<std::size_t>(at.row * columns + at.col)] = elementValue(elementBits(raw, type, e), type);
            }
    };
    gather(in.operands[1], Role::A, a, k);
    gather(in.operands[2], Role::B, b, n);
    gather(in.operands[3], Role::C, c, n);
    std::vector<double> d(static_cast<std::size_t>(m * n));
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            double sum = c[static_cast<std::size_t>(row * n + col)];
            for (int i = 0; i < k; ++i) {
                const double x = a[static_cast<std::size_t>(row * k + i)], y = b[static_cast<std::size_t>(i * n + col)];
                sum = in.type == Type::F64 ? std::fma(x, y, sum) : sum + x * y;
            }
            d[static_cast<std::size_t>(row * n + col)] = sum;
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
                const std::uint64_t bits = roundedElement(d[static_cast<std::size_t>(at.row * n + at.col)], type, in.satfinite);
                value[lane] |= bits << (16 * part * (perRegister - 1));
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
    LaneValues firstAddresses{};
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
            if (matrix == 0)
                firstAddresses[lane] = resolvedAddress;
            if (bytes)
                std::memcpy(rows[static_cast<std::size_t>(row)].data(), bytes, 16);
        }
        countMatrixRequest(lanes, count, accessSpace, 16, counters);
        LaneValues value{};
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            const std::size_t r = lane / 4, c = 2 * (lane % 4);
            const std::uint16_t low = in.transpose ? rows[c][r] : rows[r][c];
            const std::uint16_t high = in.transpose ? rows[c + 1][r] : rows[r][c + 1];
            value[lane] = static_cast<std::uint64_t>(low) | (static_cast<std::uint64_t>(high) << 16);
        }
        write(warp, destination.vector[static_cast<std::size_t>(matrix)], value, mask);
    }
    if (m_recordingActive) {
        RecordedAccess access;
        access.space = accessSpace;
        access.bytesPerLane = 16;
        access.laneMask = mask & ((in.matrixCount == 4 ? 0xffffffffu : (1u << (8 * in.matrixCount)) - 1u));
        access.addresses = firstAddresses;
        recordAccess(access);
    }
}

} // namespace warpscope::sim
