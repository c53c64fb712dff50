// Helpers shared by the PTX front-end tests (ptx_parser_test.cpp, ptx_parser_operands_test.cpp):
// a line counted by hand, registers, symbols and labels by name, the structural invariants every
// parsed function satisfies, the PtxError a text must raise, and a kernel header with its lines
// numbered.
#pragma once

#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx::parser_test {

// 1-based line of the first line containing `needle` (counted by hand from the text, not by the parser).
inline int lineOf(std::string_view text, std::string_view needle)
{
    const std::size_t at = text.find(needle);
    if (at == std::string_view::npos) {
        ADD_FAILURE() << "'" << needle << "' is not in the text";
        return -1;
    }
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

inline std::int32_t reg(const Function& function, std::string_view name)
{
    for (std::size_t i = 0; i < function.registers.size(); ++i)
        if (function.registers[i].name == name)
            return static_cast<std::int32_t>(i);
    ADD_FAILURE() << "no register " << name;
    return -100;
}

inline const Symbol* symbolNamed(const Function& function, std::string_view name)
{
    for (const Symbol& symbol : function.symbols)
        if (symbol.name == name)
            return &symbol;
    ADD_FAILURE() << "no symbol " << name;
    return nullptr;
}

inline std::int32_t blockWithLabel(const Function& function, std::string_view label)
{
    for (std::size_t b = 0; b < function.blocks.size(); ++b)
        if (function.blocks[b].label == label)
            return static_cast<std::int32_t>(b);
    ADD_FAILURE() << "no block labelled " << label;
    return -100;
}

inline std::set<std::int32_t> asSet(const std::vector<std::int32_t>& values) { return {values.begin(), values.end()}; }

// Structural invariants any parsed function must satisfy, whatever its text was.
inline void expectWellFormed(const Function& function, const std::string& where)
{
    const auto instructionCount = static_cast<std::int32_t>(function.instructions.size());
    const auto blockCount = static_cast<std::int32_t>(function.blocks.size());
    const auto registerCount = static_cast<std::int32_t>(function.registers.size());
    const auto symbolCount = static_cast<std::int32_t>(function.symbols.size());
    ASSERT_EQ(function.blockOfInstruction.size(), function.instructions.size()) << where;
    std::int32_t next = 0;
    for (std::int32_t b = 0; b < blockCount; ++b) {
        const BasicBlock& block = function.blocks[b];
        ASSERT_EQ(block.first, next) << where << ": blocks must tile the instructions";
        ASSERT_LT(block.first, block.last) << where;
        for (std::int32_t i = block.first; i < block.last; ++i)
            ASSERT_EQ(function.blockOfInstruction[i], b) << where;
        next = block.last;
        for (std::int32_t s : block.successors)
            ASSERT_TRUE(s >= 0 && s < blockCount) << where << ": successor " << s;
        for (std::int32_t p : block.predecessors)
            ASSERT_TRUE(p >= 0 && p < blockCount) << where << ": predecessor " << p;
        ASSERT_TRUE(block.immediatePostDominator >= -1 && block.immediatePostDominator < blockCount) << where;
        ASSERT_NE(block.immediatePostDominator, b) << where << ": a block is not its own immediate post-dominator";
    }
    ASSERT_EQ(next, instructionCount) << where;
    for (const Instruction& instruction : function.instructions) {
        ASSERT_TRUE(instruction.guard >= -1 && instruction.guard < registerCount) << where;
        ASSERT_LE(instruction.operandCount, 5) << where;
        for (int i = 0; i < instruction.operandCount; ++i) {
            const Operand& operand = instruction.operands[i];
            switch (operand.kind) {
            case Operand::Kind::Reg:
                ASSERT_TRUE(operand.reg >= 0 && operand.reg < registerCount) << where << ": " << instruction.text;
                ASSERT_TRUE(operand.pairReg >= -1 && operand.pairReg < registerCount) << where;
                break;
            case Operand::Kind::Address:
            case Operand::Kind::Symbol:
                ASSERT_TRUE(operand.reg >= -1 && operand.reg < registerCount) << where;
                ASSERT_TRUE(operand.symbol >= -1 && operand.symbol < symbolCount) << where;
                break;
            case Operand::Kind::Label: {
                ASSERT_TRUE(operand.target >= 0 && operand.target < blockCount) << where << ": " << instruction.text;
                // A branch lands where a label is: the target block starts at a label's instruction.
                const std::int32_t first = function.blocks[operand.target].first;
                const bool atLabel = std::any_of(function.labels.begin(), function.labels.end(),
                                                 [&](const auto& label) { return label.second == first; });
                ASSERT_TRUE(atLabel) << where << ": '" << instruction.text << "' lands on block " << operand.target
                                     << ", which starts at no label";
                ASSERT_FALSE(function.blocks[operand.target].label.empty()) << where;
                break;
            }
            case Operand::Kind::Vector:
                // ld/st vectors hold up to 4 registers; wmma and mma fragments up to 8.
                ASSERT_TRUE(operand.vectorCount >= 1 && operand.vectorCount <= 8) << where;
                for (int v = 0; v < operand.vectorCount; ++v)
                    ASSERT_TRUE(operand.vector[v] >= kVectorImmediate && operand.vector[v] < registerCount) << where;
                break;
            default:
                break;
            }
        }
    }
}

inline const Function& onlyFunction(const Module& module)
{
    EXPECT_EQ(module.functions.size(), 1u);
    return module.functions.front();
}

struct Failure {
    std::string message;
    int line = -1;
};

inline Failure parseFailure(const std::string& text)
{
    try {
        parseModule(text);
    } catch (const PtxError& error) {
        return {error.what(), error.line()};
    } catch (const std::exception& error) {
        ADD_FAILURE() << "threw something other than PtxError: " << error.what();
        return {};
    }
    ADD_FAILURE() << "parsed without an error:\n" << text;
    return {};
}

// A kernel with one u64 parameter and a few register files; the body starts at line 14.
inline const std::string kHeader = ".version 9.0\n"                  // 1
                            ".target sm_75\n"                 // 2
                            ".address_size 64\n"              // 3
                            "\n"                              // 4
                            ".visible .entry k(\n"            // 5
                            "\t.param .u64 k_param_0\n"       // 6
                            ")\n"                             // 7
                            "{\n"                             // 8
                            "\t.reg .pred \t%p<3>;\n"         // 9
                            "\t.reg .b16 \t%rs<3>;\n"         // 10
                            "\t.reg .f32 \t%f<4>;\n"          // 11
                            "\t.reg .b32 \t%r<5>;\n"          // 12
                            "\t.reg .b64 \t%rd<4>;\n";        // 13

inline std::string kernel(const std::string& body) { return kHeader + body + "}\n"; }


} // namespace warpscope::ptx::parser_test
