// PTX instructions: guard, opcode (decoded by ptx_opcode.cpp), operands, call sequences, and the
// text kept for display.
#include "ptx/ptx_parser_internal.h"

#include "ptx/ptx_opcode.h"
#include "ptx/ptx_validate.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::ptx::detail {

void Parser::parseInstruction(Function& function)
{
    Instruction instruction;
    instruction.ptxLine = peek().line;
    instruction.source = m_current;
    if (m_currentChain >= 0)
        m_instructionChains[function.name][instruction.ptxLine] = m_currentChain;
    const std::size_t firstToken = m_pos;
    if (accept("@")) {
        instruction.guardNegated = accept("!");
        const std::string_view name = expectWord("a guard predicate");
        instruction.guard = registerIndex(name);
        if (function.registers[instruction.guard].type != Type::Pred)
            fail("guard " + std::string(name) + " is not a predicate register");
    }
    if (peek().kind != Token::Kind::Word)
        fail("expected an instruction, found " + describe(peek()));
    const std::string_view opcode = next().text;
    try {
        decodeOpcode(opcode, instruction);
        if (instruction.op == Op::Call) {
            parseCall(function, instruction);
        } else if (!accept(";")) {
            do {
                if (instruction.operandCount == instruction.operands.size())
                    fail("too many operands for '" + std::string(opcode) + "'");
                instruction.operands[instruction.operandCount++] = parseOperand(function, instruction);
            } while (accept(","));
            expect(";", "after the operands of '" + std::string(opcode) + "'");
        }
    } catch (const PtxError& error) {
        if (!error.isUnsupported())
            throw;
        // Valid PTX the simulator cannot run: noted, and the statement skipped. Only kernels
        // that can reach this function are refused (Module::unsupportedFor).
        recordUnsupported(error.construct(), error.kind(), instruction.ptxLine);
        skipStatement();
        return;
    }
    // Keep the instruction's text for display.
    std::string text;
    for (std::size_t i = firstToken; i < m_pos - 1; ++i) {
        const Token& token = m_tokens[i];
        const bool glue = token.kind == Token::Kind::Punct && (token.text == "," || token.text == "]" ||
                                                              token.text == "|" || token.text == "+");
        const Token* previous = i > firstToken ? &m_tokens[i - 1] : nullptr;
        const bool afterGlue = previous && previous->kind == Token::Kind::Punct &&
                               (previous->text == "[" || previous->text == "|" || previous->text == "+" ||
                                previous->text == "@" || previous->text == "!" || previous->text == "-" ||
                                previous->text == "{");
        if (!text.empty() && !glue && !afterGlue && !(token.kind == Token::Kind::Punct && token.text == "}"))
            text += ' ';
        text += token.text;
    }
    instruction.text = std::move(text);
    validateOperands(function, instruction, opcode);
    function.instructions.push_back(std::move(instruction));
}

// call{.uni} [(results),] callee [, (arguments)] ; -- the opcode is already read.
void Parser::parseCall(Function& function, Instruction& instruction)
{
    CallSite site;
    auto parseList = [&](std::vector<Operand>& into, std::string_view what) {
        if (accept(")"))
            return;
        do into.push_back(parseOperand(function, instruction)); while (accept(","));
        expect(")", "to close the " + std::string(what));
    };
    if (accept("(")) {
        parseList(site.results, "return values of the call");
        expect(",", "after the return values of the call");
    }
    const int calleeLine = peek().line;
    const std::string_view callee = expectWord("the name of the function to call");
    if (callee.starts_with('%'))
        throw PtxError::unsupported("call through a function pointer", calleeLine, "construct");
    site.callee = std::string(callee);
    if (accept(",")) {
        expect("(", "to open the arguments of the call");
        parseList(site.arguments, "arguments of the call");
        if (accept(","))
            throw PtxError::unsupported("call with a prototype or call targets", calleeLine, "construct");
    }
    expect(";", "after the call");
    for (const Operand& result : site.results)
        if (result.kind != Operand::Kind::Symbol)
            fail("the return values of a call must be .param variables");
    if (std::find(function.callees.begin(), function.callees.end(), site.callee) == function.callees.end())
        function.callees.push_back(site.callee);
    instruction.call = static_cast<std::int32_t>(function.calls.size());
    function.calls.push_back(std::move(site));
}

Operand Parser::parseOperand(Function& function, const Instruction& instruction)
{
    Operand operand;
    if (accept("[")) {
        operand.kind = Operand::Kind::Address;
        if (peek().kind == Token::Kind::Number) {
            operand.offset = static_cast<std::int64_t>(expectInteger("an address"));
        } else {
            const std::string_view base = expectWord("an address base");
            if (base.starts_with('%') || m_registerIndex.contains(std::string(base))) {
                operand.reg = registerIndex(base);
            } else if (auto symbol = symbolIndex(function, base)) {
                operand.symbol = *symbol;
                operand.symbolSpace = function.symbols[*symbol].space;
            } else {
                fail("unknown variable '" + std::string(base) + "' in an address");
            }
        }
        if (accept("+")) {
            const bool negative = accept("-");
            const std::int64_t offset = static_cast<std::int64_t>(expectInteger("an address offset"));
            operand.offset += negative ? -offset : offset;
        } else if (accept("-")) {
            operand.offset -= static_cast<std::int64_t>(expectInteger("an address offset"));
        }
        expect("]", "to close an address");
        return operand;
    }
    if (accept("{")) {
        operand.kind = Operand::Kind::Vector;
        // The fragments of wmma and mma take up to eight registers; every other vector four.
        const bool fragment = instruction.op == Op::WmmaLoad || instruction.op == Op::WmmaStore ||
                              instruction.op == Op::WmmaMma || instruction.op == Op::Mma || instruction.op == Op::Ldmatrix;
        const std::size_t limit = fragment ? operand.vector.size() : 4;
        do {
            if (operand.vectorCount == limit)
                fail(fragment ? "a vector operand has at most eight registers" : "a vector operand has at most four registers");
            if (accept("_")) {
                operand.vector[operand.vectorCount++] = kSink;
                continue;
            }
            if (peek().kind == Token::Kind::Number) { // mov.b32 %f1, {0, %rs1}: a constant half
                if (operand.vectorCount >= operand.vectorImm.size())
                    fail("a number in a vector must be among its first four elements");
                const auto value = parseIntegerLiteral(peek().text);
                if (!value)
                    fail("bad integer " + describe(peek()) + " in a vector");
                next();
                operand.vectorImm[operand.vectorCount] = *value;
                operand.vector[operand.vectorCount++] = kVectorImmediate;
                continue;
            }
            operand.vector[operand.vectorCount++] = registerIndex(expectWord("a register in a vector"));
        } while (accept(","));
        expect("}", "to close a vector operand");
        return operand;
    }
    if (accept("!")) {
        operand.kind = Operand::Kind::Reg;
        operand.negate = true;
        operand.reg = registerIndex(expectWord("a predicate after '!'"));
        return operand;
    }
    if (peek().kind == Token::Kind::Number || peek().text == "-") {
        const bool negative = accept("-");
        if (peek().kind != Token::Kind::Number)
            fail("expected a number after '-'");
        const std::string_view text = next().text;
        operand.kind = Operand::Kind::Imm;
        const Type type = instruction.op == Op::Cvt ? instruction.type2 : instruction.type;
        std::optional<std::uint64_t> value;
        if (isFloat(type) && (text.starts_with("0f") || text.starts_with("0F") || text.starts_with("0d") ||
                              text.starts_with("0D") || text.find('.') != std::string_view::npos))
            value = parseFloatLiteral(text, type);
        else
            value = parseIntegerLiteral(text);
        if (!value)
            fail("bad immediate '" + std::string(text) + "'");
        if (negative)
            *value = isFloat(type) && !parseIntegerLiteral(text) ? *value ^ (std::uint64_t{1} << (typeBits(type) - 1))
                                                                 : ~*value + 1;
        operand.imm = *value;
        return operand;
    }
    const std::string_view word = expectWord("an operand");
    if (word == "_") {
        operand.kind = Operand::Kind::Sink;
        return operand;
    }
    if (word == "WARP_SZ") { // the predefined constant warpSize compiles to (PTX ISA, "Identifiers")
        operand.kind = Operand::Kind::Imm;
        operand.imm = 32;
        return operand;
    }
    if (word.starts_with('%') || m_registerIndex.contains(std::string(word))) { // inline asm names some without %
        if (auto special = specialFromName(word)) {
            operand.kind = Operand::Kind::Special;
            operand.special = *special;
            return operand;
        }
        if (word.starts_with("%envreg") || word.starts_with("%pm") || word.starts_with("%dynamic_smem") ||
            word.starts_with("%total_smem") || word.starts_with("%aggr_smem") || word.starts_with("%cluster") ||
            word.starts_with("%nclusterid") || word.starts_with("%clusterid") || word.starts_with("%is_explicit") ||
            word.starts_with("%reserved_smem") || word.starts_with("%current_graph_exec"))
            throw PtxError::unsupported(std::string(word), peek().line, "special register");
        operand.kind = Operand::Kind::Reg;
        operand.reg = registerIndex(word);
        if (accept("|")) {
            operand.pairReg = registerIndex(expectWord("a predicate after '|'"));
        }
        return operand;
    }
    if (instruction.op == Op::Bra) {
        operand.kind = Operand::Kind::Label;
        m_pendingLabels.push_back({std::string(word), static_cast<int>(peek().line)});
        operand.target = -2 - static_cast<std::int32_t>(m_pendingLabels.size() - 1); // resolved later
        return operand;
    }
    if (auto symbol = symbolIndex(function, word)) {
        operand.kind = Operand::Kind::Symbol;
        operand.symbol = *symbol;
        operand.symbolSpace = function.symbols[*symbol].space;
        if (accept("+"))
            operand.offset = static_cast<std::int64_t>(expectInteger("a symbol offset"));
        return operand;
    }
    fail("unknown name '" + std::string(word) + "'");
}

} // namespace warpscope::ptx::detail
