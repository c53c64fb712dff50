// The fragment view's tiles: each element of A, B, C and D (or of ldmatrix's 8 x 8 matrices) placed by
// the simulator's layout functions (exec_tensor_layout.h), so the view and the execution can never
// disagree about which lane holds what.
#include "sim/fragment_tiles.h"

#include "sim/exec_tensor_layout.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <string>

namespace warpscope::sim::tensor {

using ptx::Op;
using ptx::Type;

namespace {

bool isIntegerElement(Type type) { return type == Type::S8 || type == Type::U8 || type == Type::S32; }

double decode(std::uint64_t bits, Type type)
{
    return isIntegerElement(type) ? static_cast<double>(integerElementValue(bits, type)) : elementValue(bits, type);
}

std::string shapeText(const ptx::Instruction& in)
{
    return "m" + std::to_string(in.shapeM) + "n" + std::to_string(in.shapeN) + "k" + std::to_string(in.shapeK);
}

// The 32 lanes of one register of an operand's list: a register's lanes, an immediate repeated, or
// zeros for a sink or an unknown register.
std::array<std::uint64_t, 32> operandLanes(const ptx::Operand& operand, int index, bool after, const LaneRegisters& registers)
{
    std::array<std::uint64_t, 32> lanes{};
    const std::int32_t reg = operand.vector[static_cast<std::size_t>(index)];
    if (reg == ptx::kVectorImmediate) {
        lanes.fill(index < 4 ? operand.vectorImm[static_cast<std::size_t>(index)] : 0);
    } else if (reg >= 0) {
        if (const std::uint64_t* values = registers(reg, after))
            std::copy(values, values + 32, lanes.begin());
    }
    return lanes;
}

// A tile of a wmma or mma operand: every lane's fragment elements placed by fragmentElement. A lane
// holds rows * cols / 32 distinct elements; where its registers hold more (wmma's .f16 A and B), the
// later ones repeat earlier ones and count as copies.
FragmentTile roleTile(const ptx::Instruction& in, Role role, char name, Type type, int operandIndex, bool written,
                      const LaneRegisters& registers)
{
    FragmentTile tile;
    tile.name = name;
    tile.type = type;
    tile.rows = role == Role::B ? in.shapeK : in.shapeM;
    tile.cols = role == Role::A ? in.shapeK : in.shapeN;
    tile.operand = operandIndex;
    tile.written = written;
    tile.elements.assign(static_cast<std::size_t>(tile.rows * tile.cols), TileElement());
    const ptx::Operand& operand = in.operands[static_cast<std::size_t>(operandIndex)];
    const int perRegister = elementsPerRegister(type);
    const int elements = operand.vectorCount * perRegister;
    std::vector<std::array<std::uint64_t, 32>> lanes;
    for (int r = 0; r < operand.vectorCount; ++r)
        lanes.push_back(operandLanes(operand, r, written, registers));
    for (int lane = 0; lane < 32; ++lane)
        for (int e = 0; e < elements; ++e) {
            const MatrixCoord at = fragmentElement(in, role, lane, e);
            if (at.row < 0 || at.row >= tile.rows || at.col < 0 || at.col >= tile.cols)
                continue;
            TileElement& element = tile.elements[static_cast<std::size_t>(at.row * tile.cols + at.col)];
            if (element.held) {
                ++element.copies;
                continue;
            }
            const int r = e / perRegister;
            element.held = true;
            element.lane = lane;
            element.registerIndex = r;
            element.reg = operand.vector[static_cast<std::size_t>(r)];
            element.part = e % perRegister;
            element.fragmentIndex = e;
            element.bits = elementBits(lanes[static_cast<std::size_t>(r)][static_cast<std::size_t>(lane)], type, e);
            element.value = decode(element.bits, type);
        }
    return tile;
}

// ldmatrix and stmatrix: register i of lane L holds two adjacent elements of 8 x 8 matrix i, row L / 4,
// columns 2 (L % 4) and one more, low half first; .trans: the same positions of the transpose. The
// tile is the matrix as it lies in memory, row R at the address lane 8i + R gives.
FragmentTile b16Tile(const ptx::Instruction& in, int matrix, Type type, bool written, const LaneRegisters& registers)
{
    FragmentTile tile;
    tile.name = static_cast<char>('0' + matrix);
    tile.type = type;
    tile.rows = tile.cols = 8;
    tile.operand = in.op == Op::Ldmatrix ? 0 : 1;
    tile.written = written;
    tile.elements.assign(64, TileElement());
    const ptx::Operand& operand = in.operands[static_cast<std::size_t>(tile.operand)];
    const std::array<std::uint64_t, 32> lanes = operandLanes(operand, matrix, written, registers);
    for (int lane = 0; lane < 32; ++lane)
        for (int part = 0; part < 2; ++part) {
            const int r = lane / 4, c = 2 * (lane % 4) + part;
            const int row = in.transpose ? c : r, col = in.transpose ? r : c;
            TileElement& element = tile.elements[static_cast<std::size_t>(row * 8 + col)];
            element.held = true;
            element.lane = lane;
            element.registerIndex = matrix;
            element.reg = operand.vector[static_cast<std::size_t>(matrix)];
            element.part = part;
            element.fragmentIndex = 2 * matrix + part;
            element.bits = (lanes[static_cast<std::size_t>(lane)] >> (16 * part)) & 0xffffu;
            element.value = decode(element.bits, type);
        }
    return tile;
}

} // namespace

bool showsFragments(const ptx::Instruction& in)
{
    return in.op == Op::WmmaLoad || in.op == Op::WmmaStore || in.op == Op::WmmaMma || in.op == Op::Mma ||
           in.op == Op::Ldmatrix;
}

std::optional<FragmentView> fragmentView(const ptx::Instruction& in, const LaneRegisters& registers, Type halfType)
{
    if (!showsFragments(in))
        return std::nullopt;
    FragmentView view;
    const bool matrixOfRows = in.op == Op::Ldmatrix || (in.op == Op::WmmaStore && in.matrixCount > 0);
    if (matrixOfRows) {
        const bool load = in.op == Op::Ldmatrix;
        view.title = std::string(load ? "ldmatrix" : "stmatrix") + " .x" + std::to_string(in.matrixCount) +
                     (in.transpose ? " .trans" : "") + ": " + std::to_string(in.matrixCount) + " matrices of 8 x 8 16-bit elements";
        for (int matrix = 0; matrix < in.matrixCount; ++matrix)
            view.tiles.push_back(b16Tile(in, matrix, halfType, load, registers));
        view.layoutSource = std::string("PTX ISA, ") + (load ? "ldmatrix" : "stmatrix") +
                            ": lanes 8i to 8i+7 give the 8 row addresses of matrix i; register i of lane L holds row "
                            "L / 4, columns 2 (L % 4) and one more" +
                            (in.transpose ? " of the transposed matrix" : "") + ".";
        return view;
    }
    view.m = in.shapeM;
    view.n = in.shapeN;
    view.k = in.shapeK;
    const bool wmma = in.op != Op::Mma;
    if (in.op == Op::WmmaMma || in.op == Op::Mma) {
        view.multiply = true;
        view.title = std::string(wmma ? "wmma.mma " : "mma.sync ") + shapeText(in) + ": D = A x B + C";
        view.tiles.push_back(roleTile(in, Role::A, 'A', fragmentType(in, Role::A, false), 1, false, registers));
        view.tiles.push_back(roleTile(in, Role::B, 'B', fragmentType(in, Role::B, false), 2, false, registers));
        view.tiles.push_back(roleTile(in, Role::C, 'C', in.type2, 3, false, registers));
        view.tiles.push_back(roleTile(in, Role::C, 'D', in.type, 0, true, registers));
    } else {
        const bool load = in.op == Op::WmmaLoad;
        const Role role = roleOf(in.fragment);
        const char name = in.fragment == ptx::MatrixFragment::A ? 'A'
                          : in.fragment == ptx::MatrixFragment::B ? 'B'
                          : in.fragment == ptx::MatrixFragment::C ? 'C'
                                                                  : 'D';
        view.title = std::string(load ? "wmma.load." : "wmma.store.") + static_cast<char>(name - 'A' + 'a') + " " +
                     shapeText(in) + (in.colMajor ? ", column-major" : ", row-major") + " in memory";
        view.tiles.push_back(roleTile(in, role, name, in.type, load ? 0 : 1, load, registers));
    }
    if (!wmma)
        view.layoutSource = "PTX ISA, \"Matrix Fragments for mma." + shapeText(in) +
                            "\": groupID = lane / 4, threadID_in_group = lane % 4.";
    else if (in.shapeM == 8 && in.shapeN == 8)
        view.layoutSource = "A model: the PTX ISA leaves wmma's layout to the implementation; the simulator uses "
                            "mma.m8n8k4.f64's.";
    else
        view.layoutSource = "A model: the PTX ISA leaves wmma's layout to the implementation; the simulator builds "
                            "the tile from mma.m16n8k" + std::to_string(in.shapeK) + " tiles, 8 columns each "
                            "(core/sim/exec_tensor_layout.cpp).";
    return view;
}

std::optional<Type> ldmatrixElementType(const ptx::Function& function, std::size_t pc)
{
    if (pc >= function.instructions.size())
        return std::nullopt;
    const ptx::Instruction& load = function.instructions[pc];
    const ptx::Operand& destination = load.operands[load.op == Op::Ldmatrix ? 0 : 1];
    auto names = [&](const ptx::Operand& list) {
        for (int i = 0; i < list.vectorCount; ++i)
            for (int j = 0; j < destination.vectorCount; ++j)
                if (list.vector[static_cast<std::size_t>(i)] >= 0 &&
                    list.vector[static_cast<std::size_t>(i)] == destination.vector[static_cast<std::size_t>(j)])
                    return true;
        return false;
    };
    for (std::size_t i = pc + 1; i < function.instructions.size(); ++i) {
        const ptx::Instruction& in = function.instructions[i];
        if (in.op != Op::Mma && in.op != Op::WmmaMma)
            continue;
        if (names(in.operands[1]))
            return fragmentType(in, Role::A, false);
        if (names(in.operands[2]))
            return fragmentType(in, Role::B, false);
    }
    return std::nullopt;
}

MultiplyTerms multiplyTerms(const FragmentView& view, int row, int col)
{
    MultiplyTerms terms;
    if (!view.multiply || view.tiles.size() < 4)
        return terms;
    const FragmentTile &a = view.tiles[0], &b = view.tiles[1], &c = view.tiles[2], &d = view.tiles[3];
    terms.c = c.at(row, col).value;
    terms.d = d.at(row, col).value;
    double sum = terms.c;
    for (int i = 0; i < view.k; ++i) {
        const double product = a.at(row, i).value * b.at(i, col).value;
        sum += product;
        terms.products.push_back(product);
        terms.partial.push_back(sum);
    }
    return terms;
}

namespace {

// The warp-wide requests the simulator makes for a wmma.load or wmma.store (exec_tensor.cpp,
// executeWmmaMemory): per fragment register, one 4-byte access per lane when the elements it packs
// are adjacent in memory, else one per element. `bytes` is the width of the first request.
int wmmaRequests(const ptx::Instruction& in, std::uint32_t& bytes)
{
    const Role role = roleOf(in.fragment);
    const int perRegister = elementsPerRegister(in.type);
    const ptx::Operand& fragment = in.operands[in.op == Op::WmmaStore ? 1 : 0];
    const auto elementBytes = static_cast<std::uint32_t>(ptx::typeBits(in.type) / 8);
    int requests = 0;
    for (int r = 0; r < fragment.vectorCount; ++r) {
        const MatrixCoord first = fragmentElement(in, role, 0, r * perRegister);
        bool adjacent = perRegister > 1;
        for (int j = 1; j < perRegister && adjacent; ++j) {
            const MatrixCoord at = fragmentElement(in, role, 0, r * perRegister + j);
            adjacent = in.colMajor ? at.col == first.col && at.row == first.row + j : at.row == first.row && at.col == first.col + j;
        }
        requests += adjacent ? 1 : perRegister;
        if (r == 0)
            bytes = adjacent ? 4 : elementBytes;
    }
    return requests;
}

std::string plural(std::uint64_t count, const char* noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

std::string matrixAccessCaption(const ptx::Instruction& in, const RecordedAccess& access)
{
    const bool rowsOfMatrices = in.op == Op::Ldmatrix || (in.op == Op::WmmaStore && in.matrixCount > 0);
    if (!rowsOfMatrices && in.op != Op::WmmaLoad && in.op != Op::WmmaStore)
        return "";
    const bool shared = access.space == ptx::Space::Shared;
    const char* kind = access.isStore ? "store" : "load";
    std::string name;
    int requests = 0;
    std::uint32_t bytes = 0, lanes = 32;
    std::string each;
    if (rowsOfMatrices) {
        name = in.op == Op::Ldmatrix ? "ldmatrix" : "stmatrix";
        requests = in.matrixCount;
        bytes = 16;
        lanes = 8;
        each = "one per 8 x 8 matrix, each 8 lanes x 16 bytes (lane 8i + r gives row r of matrix i)";
    } else {
        name = std::string(in.op == Op::WmmaLoad ? "wmma.load." : "wmma.store.") +
               (in.fragment == ptx::MatrixFragment::A   ? "a"
                : in.fragment == ptx::MatrixFragment::B ? "b"
                : in.fragment == ptx::MatrixFragment::C ? "c"
                                                        : "d");
        requests = wmmaRequests(in, bytes);
        const ptx::Operand& fragment = in.operands[in.op == Op::WmmaStore ? 1 : 0];
        each = requests == fragment.vectorCount ? "one per fragment register, each 32 lanes x " + std::to_string(bytes) + " bytes"
                                                : "one per element of each fragment register, each 32 lanes x " +
                                                      std::to_string(bytes) + " bytes (a register's elements are not "
                                                      "adjacent in memory)";
    }
    std::string caption = std::string(shared ? "Shared " : "Global ") + kind + " (" + name + "): the simulator counts " +
                          plural(static_cast<std::uint64_t>(requests), "request") + ", " + each + ". ";
    if (shared) {
        // Phases per request: 32 lanes of up to 4 bytes, 16 of 8 bytes, 8 of 16 bytes (memory_analysis.cpp).
        const std::uint32_t lanesPerPhase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
        const std::uint32_t phases = static_cast<std::uint32_t>(requests) * std::max<std::uint32_t>(1, lanes / lanesPerPhase);
        caption += "All told " + plural(access.wavefronts, "wavefront") + " and " + plural(access.bankConflicts, "bank conflict") +
                   ": each request needs at least " + (phases == static_cast<std::uint32_t>(requests) ? "one wavefront" : "one per phase") +
                   ", so the 'wavefronts - 1' rule holds per request: " + std::to_string(access.wavefronts) + " - " +
                   std::to_string(phases) + " = " + std::to_string(access.wavefronts - std::min(access.wavefronts, phases)) + ".";
    } else {
        caption += "All told " + plural(access.requests, "request") + ", " + plural(access.sectors, "sector") + ".";
    }
    if (!rowsOfMatrices && requests > 1)
        caption += " The figure shows the first request.";
    return caption;
}

std::string elementBitsText(const FragmentTile& tile, const TileElement& element)
{
    const int bits = ptx::typeBits(tile.type);
    char text[48];
    std::snprintf(text, sizeof text, "%s 0x%0*" PRIx64, ptx::typeName(tile.type), std::max(2, bits / 4), element.bits);
    return text;
}

std::string fragmentElementName(const ptx::Instruction& in, const FragmentTile& tile, const TileElement& element)
{
    if (in.op == Op::Mma) {
        const char letter = tile.name == 'D' ? 'd' : static_cast<char>(tile.name - 'A' + 'a');
        return std::string(1, letter) + std::to_string(element.fragmentIndex);
    }
    if (in.op == Op::Ldmatrix || in.matrixCount > 0)
        return "r" + std::to_string(element.registerIndex) + (element.part ? " high half" : " low half");
    return "x[" + std::to_string(element.fragmentIndex) + "]";
}

} // namespace warpscope::sim::tensor
