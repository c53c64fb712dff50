#include "ptx/sass_shuffle.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <string_view>

namespace warpscope::ptx {

namespace {

// nvdisasm's operands, split at the commas: "PT, R0, R7, 0x10, 0x1f" -> {"PT", "R0", "R7", "0x10", "0x1f"}.
std::vector<std::string> splitOperands(std::string_view operands)
{
    std::vector<std::string> parts;
    while (!operands.empty()) {
        const std::size_t comma = operands.find(',');
        std::string_view part = operands.substr(0, comma);
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        parts.emplace_back(part);
        if (comma == std::string_view::npos)
            break;
        operands.remove_prefix(comma + 1);
    }
    return parts;
}

std::optional<std::uint64_t> number(const std::string& text)
{
    if (text.empty() || !(text[0] >= '0' && text[0] <= '9'))
        return std::nullopt;
    try {
        std::size_t used = 0;
        const std::uint64_t value = std::stoull(text, &used, 0); // 0x10 or 16
        return used == text.size() ? std::optional<std::uint64_t>(value) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string describeFound(const SassFunction& function, const std::vector<const SassInstruction*>& found,
                          const std::string& arch);

const char* modeName(ShflMode mode)
{
    switch (mode) {
    case ShflMode::Up: return "UP";
    case ShflMode::Down: return "DOWN";
    case ShflMode::Bfly: return "BFLY";
    case ShflMode::Idx: return "IDX";
    case ShflMode::None: break;
    }
    return "";
}

} // namespace

std::string shuffleSourceRegister(const SassInstruction& instruction)
{
    if (!instruction.opcode.starts_with("SHFL"))
        return {};
    const std::vector<std::string> operands = splitOperands(instruction.operands);
    if (operands.size() < 3 || operands[2].empty() || operands[2][0] != 'R')
        return {};
    return operands[2];
}

std::vector<const SassInstruction*> sassShufflesOf(const SassFunction& function, const Function& ptxFunction,
                                                   std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= ptxFunction.instructions.size())
        return {};
    Instruction shfl = ptxFunction.instructions[static_cast<std::size_t>(index)];
    const std::int32_t offsetRegister =
        shfl.operandCount > 2 && shfl.operands[2].kind == Operand::Kind::Reg ? shfl.operands[2].reg : -1;
    const std::int32_t first = static_cast<std::size_t>(index) < ptxFunction.blockOfInstruction.size()
                                   ? ptxFunction.blocks[static_cast<std::size_t>(
                                                            ptxFunction.blockOfInstruction[static_cast<std::size_t>(index)])]
                                         .first
                                   : index;
    // The last write of the offset's register before the shuffle, within its basic block.
    for (std::int32_t i = index - 1; offsetRegister >= 0 && i >= first; --i) {
        const Instruction& writer = ptxFunction.instructions[static_cast<std::size_t>(i)];
        if (writer.operandCount == 0 || writer.operands[0].kind != Operand::Kind::Reg ||
            writer.operands[0].reg != offsetRegister || firstOperandIsRead(writer))
            continue;
        if (writer.op == Op::Mov && writer.guard < 0 && writer.operandCount > 1 && writer.operands[1].kind == Operand::Kind::Imm)
            shfl.operands[2] = writer.operands[1];
        break;
    }
    return sassShufflesOf(function, shfl);
}

std::string describeSassShuffles(const SassFunction& function, const Function& ptxFunction, std::int32_t index,
                                 const std::string& arch)
{
    return describeFound(function, sassShufflesOf(function, ptxFunction, index), arch);
}

std::vector<const SassInstruction*> sassShufflesOf(const SassFunction& function, const Instruction& shfl)
{
    if (shfl.op != Op::Shfl || shfl.shfl == ShflMode::None)
        return {};
    const std::string opcode = std::string("SHFL.") + modeName(shfl.shfl);
    std::optional<std::uint64_t> offset;
    if (shfl.operandCount > 2 && shfl.operands[2].kind == Operand::Kind::Imm)
        offset = shfl.operands[2].imm & 0x1f;
    std::vector<const SassInstruction*> matching, atLine;
    for (const SassInstruction& instruction : function.instructions) {
        if (instruction.opcode != opcode && !instruction.opcode.starts_with(opcode + "."))
            continue;
        // ptxas keeps a constant offset as an immediate; one in a register may be any.
        const std::vector<std::string> operands = splitOperands(instruction.operands);
        if (offset && operands.size() > 3)
            if (const auto sassOffset = number(operands[3]); sassOffset && *sassOffset != *offset)
                continue;
        matching.push_back(&instruction);
        for (const SassLocation& location : instruction.lines)
            if (shfl.source.line > 0 && location.line == shfl.source.line) {
                atLine.push_back(&instruction);
                break;
            }
    }
    return atLine.empty() ? matching : atLine;
}

std::string describeSassShuffles(const SassFunction& function, const Instruction& shfl, const std::string& arch)
{
    return describeFound(function, sassShufflesOf(function, shfl), arch);
}

namespace {

std::string describeFound(const SassFunction& function, const std::vector<const SassInstruction*>& found,
                          const std::string& arch)
{
    if (found.empty())
        return "SASS for " + arch + ": no SHFL of this mode and offset in " + function.name;
    std::string text = "SASS for " + arch + ": ";
    for (std::size_t i = 0; i < found.size(); ++i) {
        char offset[16];
        std::snprintf(offset, sizeof offset, "/*%04x*/", found[i]->offset);
        const std::string source = shuffleSourceRegister(*found[i]);
        text += (i > 0 ? "; " : "") + found[i]->text() + " (" + offset + ")" +
                (source.empty() ? std::string() : ": it reads " + source + " in the source lane");
    }
    return text;
}

} // namespace

std::map<int, std::string> describeSassShufflesAt(std::string_view ptx, const Module& module, const Function& entry,
                                                  const std::vector<int>& ptxLines, const SassOptions& options)
{
    std::map<int, std::string> byLine;
    for (const int line : ptxLines)
        byLine[line];
    if (byLine.empty())
        return byLine;
    const SassListing listing = compileSass(ptx, options);
    for (auto& [ptxLine, text] : byLine)
        for (const Function* function : module.reachableFrom(entry))
            for (std::size_t i = 0; i < function->instructions.size(); ++i)
                if (function->instructions[i].ptxLine == ptxLine && function->instructions[i].op == Op::Shfl) {
                    const SassFunction* sass = listing.findFunction(function->name);
                    text = sass ? describeSassShuffles(*sass, *function, static_cast<std::int32_t>(i), options.arch)
                                : "no SASS function " + function->name + " for " + options.arch;
                }
    return byLine;
}

} // namespace warpscope::ptx
