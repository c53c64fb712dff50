#include "ptx/contraction.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpscope::ptx {

namespace {

template <class Fn> void forEachWrite(const Instruction& instruction, Fn&& fn)
{
    if (instruction.operandCount == 0 || firstOperandIsRead(instruction))
        return;
    const Operand& destination = instruction.operands[0];
    if (destination.kind == Operand::Kind::Reg) {
        fn(destination.reg);
        if (destination.pairReg >= 0)
            fn(destination.pairReg);
    } else if (destination.kind == Operand::Kind::Vector) {
        for (int v = 0; v < destination.vectorCount; ++v)
            if (destination.vector[static_cast<std::size_t>(v)] >= 0)
                fn(destination.vector[static_cast<std::size_t>(v)]);
    }
}

template <class Fn> void forEachRead(const Function& function, const Instruction& instruction, Fn&& fn)
{
    if (instruction.guard >= 0)
        fn(instruction.guard);
    const int first = firstOperandIsRead(instruction) ? 0 : 1;
    for (int i = 0; i < instruction.operandCount; ++i) {
        const Operand& operand = instruction.operands[static_cast<std::size_t>(i)];
        if (operand.kind == Operand::Kind::Address && operand.reg >= 0)
            fn(operand.reg); // an address base is read even in a destination
        if (i < first)
            continue;
        if (operand.kind == Operand::Kind::Reg)
            fn(operand.reg);
        else if (operand.kind == Operand::Kind::Vector)
            for (int v = 0; v < operand.vectorCount; ++v)
                if (operand.vector[static_cast<std::size_t>(v)] >= 0)
                    fn(operand.vector[static_cast<std::size_t>(v)]);
    }
    if (instruction.call >= 0)
        for (const Operand& argument : function.calls[static_cast<std::size_t>(instruction.call)].arguments)
            if (argument.kind == Operand::Kind::Reg)
                fn(argument.reg);
}

bool contractibleType(Type type)
{
    return type == Type::F32 || type == Type::F64 || isHalf(type);
}

} // namespace

void markContractions(Function& function)
{
    const auto count = static_cast<std::int32_t>(function.instructions.size());
    if (count == 0 || function.blockOfInstruction.size() != function.instructions.size())
        return;
    std::vector<std::int32_t> reads(function.registers.size(), 0);
    for (const Instruction& instruction : function.instructions)
        forEachRead(function, instruction, [&](std::int32_t reg) { ++reads[static_cast<std::size_t>(reg)]; });

    for (std::int32_t i = 0; i < count; ++i) {
        Instruction& add = function.instructions[static_cast<std::size_t>(i)];
        if ((add.op != Op::Add && add.op != Op::Sub) || add.rounding != Rounding::None || !contractibleType(add.type) ||
            add.operandCount != 3)
            continue;
        const std::int32_t block = function.blockOfInstruction[static_cast<std::size_t>(i)];
        const std::int32_t blockStart = function.blocks[static_cast<std::size_t>(block)].first;
        for (std::uint8_t k = 1; k <= 2 && add.contractedMul < 0; ++k) {
            const Operand& operand = add.operands[k];
            if (operand.kind != Operand::Kind::Reg || operand.negate || reads[static_cast<std::size_t>(operand.reg)] != 1)
                continue;
            // The last write of the product's register before the add, in the same block.
            std::int32_t definition = -1;
            for (std::int32_t j = i - 1; j >= blockStart && definition < 0; --j)
                forEachWrite(function.instructions[static_cast<std::size_t>(j)], [&](std::int32_t reg) {
                    if (reg == operand.reg)
                        definition = j;
                });
            if (definition < 0)
                continue;
            const Instruction& mul = function.instructions[static_cast<std::size_t>(definition)];
            if (mul.op != Op::Mul || mul.type != add.type || mul.rounding != Rounding::None || mul.ftz != add.ftz ||
                mul.saturate || mul.operandCount != 3 || mul.operands[0].kind != Operand::Kind::Reg ||
                mul.operands[0].pairReg >= 0 || mul.guard != add.guard || mul.guardNegated != add.guardNegated)
                continue;
            // The mul's operands (and the guard) must still hold at the add what they held at the mul.
            bool unchanged = true;
            for (std::int32_t j = definition + 1; j < i && unchanged; ++j)
                forEachWrite(function.instructions[static_cast<std::size_t>(j)], [&](std::int32_t reg) {
                    for (int m = 1; m <= 2; ++m)
                        if (mul.operands[static_cast<std::size_t>(m)].kind == Operand::Kind::Reg &&
                            mul.operands[static_cast<std::size_t>(m)].reg == reg)
                            unchanged = false;
                    if (reg == add.guard)
                        unchanged = false;
                });
            for (int m = 1; m <= 2; ++m)
                if (mul.operands[static_cast<std::size_t>(m)].kind == Operand::Kind::Reg &&
                    mul.operands[static_cast<std::size_t>(m)].reg == mul.operands[0].reg)
                    unchanged = false; // mul r, r, x: the operand is gone after the mul
            if (!unchanged)
                continue;
            add.contractedMul = definition;
            add.contractedOperand = k;
        }
    }
}

} // namespace warpscope::ptx
