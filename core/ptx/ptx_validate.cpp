#include "ptx/ptx_validate.h"

#include "ptx/ptx_error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace warpscope::ptx {

void validateOperands(const Function& function, const Instruction& instruction, std::string_view opcode)
{
    using K = Operand::Kind;
    const auto& ops = instruction.operands;
    const int n = instruction.operandCount;
    auto bad = [&](const std::string& why) {
        throw PtxError("'" + std::string(opcode) + "' " + why, instruction.ptxLine);
    };
    auto isValue = [&](int i) {
        return ops[i].kind == K::Reg || ops[i].kind == K::Imm || ops[i].kind == K::Special ||
               ops[i].kind == K::Symbol;
    };
    auto isDest = [&](int i) { return ops[i].kind == K::Reg && !ops[i].negate; };
    auto needCount = [&](int lo, int hi) {
        if (n < lo || n > hi)
            bad("takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                " operands, found " + std::to_string(n));
    };
    auto needValues = [&](int from) {
        for (int i = from; i < n; ++i)
            if (!isValue(i))
                bad("operand " + std::to_string(i + 1) + " must be a register or an immediate");
    };
    auto regBits = [&](int reg) { return typeBits(function.registers[reg].type); };
    // A vector operand of as many elements as the instruction's .v2/.v4: registers it writes
    // (`written`: '_' allowed, no numbers) or values it reads (numbers allowed, no '_').
    auto needVector = [&](int i, bool written) {
        if (ops[i].kind != K::Vector || ops[i].vectorCount != instruction.vectorWidth)
            bad("needs a vector of " + std::to_string(instruction.vectorWidth) + " elements as operand " + std::to_string(i + 1));
        for (int v = 0; v < ops[i].vectorCount; ++v) {
            const std::int32_t reg = ops[i].vector[static_cast<std::size_t>(v)];
            if (reg == kVectorImmediate && written) bad("cannot write into a number");
            if (reg == kSink && !written) bad("cannot read '_'");
        }
    };
    // A fragment of wmma, mma, ldmatrix or stmatrix: a vector of exactly as many registers as the
    // shape and type give (PTX ISA, "Matrix Data-types" and the fragment tables), each at least as
    // wide as what it holds; 'a', 'b', 'c' (C or D) or 'x' (ldmatrix's and stmatrix's matrices).
    auto needFragment = [&](int i, char matrix, bool written) {
        const bool wmma = instruction.op != Op::Mma && instruction.op != Op::Ldmatrix;
        const Type multiplicand = matrix == 'b' && instruction.multiplicandTypeB != Type::None ? instruction.multiplicandTypeB
                                                                                               : instruction.multiplicandType;
        const Type element = matrix == 'a' || matrix == 'b' ? multiplicand : matrix == 'x' ? Type::B32
                           : written || instruction.op == Op::WmmaLoad || instruction.op == Op::WmmaStore ? instruction.type
                                                                                                       : instruction.type2;
        const int elementBits = typeBits(element);
        int registers = 0;
        if (matrix == 'x') {
            registers = instruction.matrixCount;
        } else if (instruction.shapeM == 8 && instruction.shapeN == 8) { // m8n8k4 .f64
            registers = matrix == 'c' ? 2 : 1;
        } else {
            const int rows = matrix == 'b' ? instruction.shapeK : instruction.shapeM;
            const int cols = matrix == 'a' ? instruction.shapeK : instruction.shapeN;
            const int perRegister = elementBits < 32 ? 32 / elementBits : 1; // .f16 .bf16: 2; .s8 .u8: 4
            registers = rows * cols / 32 / perRegister;
            // wmma's .f16 A and B fragments are eight .f16x2 registers in every shape (PTX ISA, "Matrix
            // Fragments for WMMA"), more than the elements need: the simulator repeats them
            if (wmma && (matrix == 'a' || matrix == 'b') && multiplicand == Type::F16)
                registers = 8;
        }
        if (ops[i].kind != K::Vector || ops[i].vectorCount != registers)
            bad("needs a vector of " + std::to_string(registers) + " registers for its " +
                (matrix == 'x' ? std::string("matrices") : std::string(1, static_cast<char>(matrix - 'a' + 'A')) +
                 " fragment"));
        const int bits = elementBits < 32 ? 32 : elementBits;
        for (int v = 0; v < ops[i].vectorCount; ++v) {
            const std::int32_t reg = ops[i].vector[static_cast<std::size_t>(v)];
            if (reg == kVectorImmediate && written) bad("cannot write a fragment into a number");
            if (reg == kSink && !written) bad("cannot read a fragment from '_'");
            if (reg >= 0 && regBits(reg) < bits)
                bad("holds " + std::to_string(bits) + "-bit fragment elements in " + function.registers[reg].name +
                    " (" + std::to_string(regBits(reg)) + " bits)");
        }
    };
    if (instruction.isMemory() && typeBits(instruction.type) < 8)
        bad("needs a type of at least 8 bits");
    switch (instruction.op) {
    case Op::Ld:
        needCount(2, 2);
        if (!(isDest(0) || ops[0].kind == K::Vector)) bad("needs a destination register");
        if (ops[1].kind != K::Address) bad("needs an address [..] as its source");
        if (ops[0].kind == K::Vector)
            for (int v = 0; v < ops[0].vectorCount; ++v)
                if (ops[0].vector[static_cast<std::size_t>(v)] == kVectorImmediate) bad("cannot load into a number");
        if ((ops[0].kind == K::Vector) != (instruction.vectorWidth > 1) ||
            (ops[0].kind == K::Vector && ops[0].vectorCount != instruction.vectorWidth))
            bad("vector width and destination do not match");
        break;
    case Op::St:
        needCount(2, 2);
        if (ops[0].kind != K::Address) bad("needs an address [..] as its destination");
        if (ops[1].kind == K::Vector)
            for (int v = 0; v < ops[1].vectorCount; ++v)
                if (ops[1].vector[static_cast<std::size_t>(v)] == kSink) bad("cannot store '_'");
        if (!(isValue(1) || ops[1].kind == K::Vector)) bad("needs a value to store");
        if ((ops[1].kind == K::Vector) != (instruction.vectorWidth > 1) ||
            (ops[1].kind == K::Vector && ops[1].vectorCount != instruction.vectorWidth))
            bad("vector width and source do not match");
        break;
    case Op::Atom:
        needCount(instruction.atomOp == AtomOp::Cas ? 4 : 3, instruction.atomOp == AtomOp::Cas ? 4 : 3);
        if (ops[1].kind != K::Address) bad("needs an address [..]");
        if (instruction.vectorWidth > 1) { // {d0, d1, ...}, [a], {b0, b1, ...}
            needVector(0, true);
            needVector(2, false);
            break;
        }
        if (!isDest(0) && ops[0].kind != K::Sink) bad("needs a destination register");
        needValues(2);
        break;
    case Op::Red:
        needCount(2, 2);
        if (ops[0].kind != K::Address) bad("needs an address [..]");
        if (instruction.vectorWidth > 1) {
            needVector(1, false);
            break;
        }
        needValues(1);
        break;
    case Op::Mov:
        needCount(2, 2);
        if (ops[0].kind == K::Vector || ops[1].kind == K::Vector) {
            if (ops[0].kind == K::Vector && !isValue(1)) bad("unpacks only a register");
            if (ops[0].kind == K::Vector)
                for (int v = 0; v < ops[0].vectorCount; ++v)
                    if (ops[0].vector[static_cast<std::size_t>(v)] == kVectorImmediate) bad("cannot unpack into a number");
            if (ops[1].kind == K::Vector && !isDest(0)) bad("packs only into a register");
            if (ops[1].kind == K::Vector)
                for (int v = 0; v < ops[1].vectorCount; ++v)
                    if (ops[1].vector[static_cast<std::size_t>(v)] == kSink) bad("cannot pack '_'");
            break;
        }
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Cvt:
        // cvt.rn.f16x2.f32 d, a, b packs two conversions.
        needCount(isPackedHalf(instruction.type) ? 3 : 2, isPackedHalf(instruction.type) ? 3 : 2);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Cvta: case Op::Abs: case Op::Neg: case Op::Not: case Op::Cnot:
    case Op::Popc: case Op::Clz: case Op::Brev: case Op::Rcp: case Op::Sqrt: case Op::Bfind:
    case Op::Ex2: case Op::Lg2: case Op::Rsqrt: case Op::Sin: case Op::Cos: case Op::Tanh:
        needCount(2, 2);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem: case Op::Min: case Op::Max:
    case Op::And: case Op::Or: case Op::Xor: case Op::Shl: case Op::Shr: case Op::Copysign:
        needCount(3, 3);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Mad: case Op::Fma: case Op::Sad: case Op::Selp: case Op::Slct: case Op::Bfe: case Op::Prmt: case Op::Shf:
        needCount(4, 4);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Bfi:
        needCount(5, 5);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Lop3:
        needCount(5, 5);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        if (ops[4].kind != K::Imm) bad("needs an immediate truth table");
        break;
    case Op::Set:
        needCount(instruction.boolOp == BoolOp::None ? 3 : 4, instruction.boolOp == BoolOp::None ? 3 : 4);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Setp:
        needCount(instruction.boolOp == BoolOp::None ? 3 : 4, instruction.boolOp == BoolOp::None ? 3 : 4);
        if (!isDest(0) || regBits(ops[0].reg) != 1) bad("needs a predicate destination");
        needValues(1);
        break;
    case Op::Bra:
        needCount(1, 1);
        if (ops[0].kind != K::Label) bad("needs a label");
        break;
    case Op::Ret: case Op::Exit: case Op::MemBar: case Op::Call: case Op::Trap: // a call's operands are in Function::calls
        needCount(0, 0);
        break;
    case Op::BarSync:
        if (instruction.bar == BarMode::Sync) {
            needCount(1, 2); // a{, b}
            needValues(0);
        } else if (instruction.bar == BarMode::Arrive) {
            needCount(2, 2); // a, b: .arrive needs a thread count
            needValues(0);
        } else {
            needCount(3, 4); // d, a{, b}, {!}c
            if (!isDest(0)) bad("needs a destination register");
            needValues(1);
        }
        break;
    case Op::BarWarpSync:
        needCount(1, 1);
        needValues(0);
        break;
    case Op::Activemask:
        needCount(1, 1);
        if (!isDest(0)) bad("needs a destination register");
        break;
    case Op::Shfl:
        needCount(5, 5);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        if (instruction.type != Type::B32) bad("is supported for .b32 only");
        break;
    case Op::Vote:
        needCount(3, 3);
        if (!isDest(0)) bad("needs a destination");
        needValues(1);
        break;
    case Op::Match: // d[|p], a, membermask (match.all may write only the predicate: _|p)
        needCount(3, 3);
        if (!isDest(0) && ops[0].kind != K::Sink) bad("needs a destination register");
        if (instruction.match == MatchMode::Any && ops[0].pairReg >= 0) bad("has no predicate destination in .any mode");
        if (ops[0].pairReg >= 0 && regBits(ops[0].pairReg) != 1) bad("needs a predicate after '|'");
        needValues(1);
        break;
    case Op::Redux:
        needCount(3, 3);
        if (!isDest(0)) bad("needs a destination register");
        needValues(1);
        break;
    case Op::Nanosleep:
        needCount(1, 1);
        needValues(0);
        break;
    case Op::Mbarrier:
        switch (instruction.mbarrier) {
        case MbarrierOp::Init: // [addr], count
            needCount(2, 2);
            if (ops[0].kind != K::Address) bad("needs the barrier's address [..] first");
            needValues(1);
            break;
        case MbarrierOp::Inval: // [addr]
            needCount(1, 1);
            if (ops[0].kind != K::Address) bad("needs the barrier's address [..]");
            break;
        case MbarrierOp::Arrive: case MbarrierOp::ArriveDrop: // state, [addr] {, count}
            needCount(instruction.noComplete ? 3 : 2, 3);
            if (!isDest(0) && ops[0].kind != K::Sink) bad("needs a destination register for the state (or _)");
            if (ops[1].kind != K::Address) bad("needs the barrier's address [..]");
            needValues(2);
            break;
        case MbarrierOp::TestWait: case MbarrierOp::TryWait: // waitComplete, [addr], state|parity {, hint}
            needCount(3, instruction.mbarrier == MbarrierOp::TryWait ? 4 : 3);
            if (!isDest(0)) bad("needs a predicate destination");
            if (ops[1].kind != K::Address) bad("needs the barrier's address [..]");
            needValues(2);
            break;
        case MbarrierOp::PendingCount: // count, state
            needCount(2, 2);
            if (!isDest(0)) bad("needs a destination register");
            needValues(1);
            break;
        case MbarrierOp::None:
            break;
        }
        break;
    case Op::CpAsync: { // [dst], [src], cp-size {, src-size | ignore-src}
        needCount(3, 4);
        if (ops[0].kind != K::Address || ops[1].kind != K::Address) bad("needs a shared [dst] and a global [src] address");
        if (ops[2].kind != K::Imm || (ops[2].imm != 4 && ops[2].imm != 8 && ops[2].imm != 16))
            bad("copies 4, 8 or 16 bytes (cp-size)");
        if (instruction.bypassL1 && ops[2].imm != 16) bad("(.cg) copies 16 bytes only");
        if (n == 4) {
            needValues(3);
            if (ops[3].kind == K::Imm && ops[3].imm > ops[2].imm) bad("reads at most cp-size bytes (src-size)");
        }
        break;
    }
    case Op::CpAsyncCommit:
        needCount(0, 0);
        break;
    case Op::CpAsyncWait: // wait_group N (an integer constant); wait_all
        needCount(instruction.waitAll ? 0 : 1, instruction.waitAll ? 0 : 1);
        if (!instruction.waitAll && ops[0].kind != K::Imm) bad("needs a constant group count");
        break;
    case Op::CpAsyncMbarrierArrive:
        needCount(1, 1);
        if (ops[0].kind != K::Address) bad("needs the barrier's address [..]");
        break;
    case Op::WmmaLoad: // {fragment}, [p] {, stride}
    case Op::WmmaStore: { // [p], {fragment} {, stride}; stmatrix: [p], {r...}
        const bool isStore = instruction.op == Op::WmmaStore;
        if (isStore && instruction.matrixCount > 0) {
            needCount(2, 2);
            if (ops[0].kind != K::Address) bad("needs the address [..] of its row");
            needFragment(1, 'x', false);
            break;
        }
        needCount(2, 3);
        if (ops[isStore ? 0 : 1].kind != K::Address) bad("needs an address [..]");
        needFragment(isStore ? 1 : 0, instruction.fragment == MatrixFragment::A ? 'a'
                                      : instruction.fragment == MatrixFragment::B ? 'b' : 'c', !isStore);
        if (n == 3) needValues(2);
        break;
    }
    case Op::WmmaMma: // d, a, b, c
    case Op::Mma:
        needCount(4, 4);
        needFragment(0, 'c', true);
        needFragment(1, 'a', false);
        needFragment(2, 'b', false);
        needFragment(3, 'c', false);
        break;
    case Op::Ldmatrix: // {d...}, [p]
        needCount(2, 2);
        needFragment(0, 'x', true);
        if (ops[1].kind != K::Address) bad("needs the address [..] of its row");
        break;
    }
    // Register destinations must be wide enough for what is written (PTX allows wider).
    if (n > 0 && isDest(0) && !firstOperandIsRead(instruction)) {
        Type written = instruction.type;
        if (instruction.op == Op::Mbarrier)
            written = instruction.mbarrier == MbarrierOp::TestWait || instruction.mbarrier == MbarrierOp::TryWait ? Type::Pred
                    : instruction.mbarrier == MbarrierOp::PendingCount ? Type::U32 : Type::B64;
        if (instruction.op == Op::Setp || (instruction.op == Op::Vote && instruction.vote != VoteMode::Ballot))
            written = Type::Pred;
        if ((instruction.op == Op::Mul || instruction.op == Op::Mad) && instruction.mulMode == MulMode::Wide)
            written = typeBits(instruction.type) == 32 ? Type::B64 : Type::B32;
        if (instruction.op == Op::Popc || instruction.op == Op::Clz || instruction.op == Op::Bfind)
            written = Type::U32; // the count is .u32 whatever the source width (PTX ISA)
        if (instruction.op == Op::Match)
            written = Type::B32; // a lane mask, whatever the width of the values compared
        const int destinationBits = regBits(ops[0].reg);
        const int writtenBits = typeBits(written);
        if ((written == Type::Pred) != (destinationBits == 1) || destinationBits < writtenBits)
            bad("writes " + std::to_string(writtenBits) + " bits into " +
                function.registers[ops[0].reg].name + " (" + std::to_string(destinationBits) + " bits)");
        if ((instruction.op == Op::Mul || instruction.op == Op::Mad) && instruction.mulMode == MulMode::Wide &&
            typeBits(instruction.type) > 32)
            bad(".wide is defined for 16- and 32-bit types only");
    }
}

} // namespace warpscope::ptx
