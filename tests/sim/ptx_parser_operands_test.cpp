// The PTX front end on hand-written snippets: operands, symbol layout, line mapping and memory-order
// qualifiers; valid PTX the simulator does not run is noted with its line and refuses only the
// kernels that reach it; and malformed text is a PtxError naming its line.
#include "ptx_parser_test_support.h"

#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

using namespace warpscope;
using namespace warpscope::ptx;
using namespace warpscope::ptx::parser_test;

// ---- operands, symbols and lines --------------------------------------------------------------------

TEST(PtxParser, OperandsOfAnNvccStyleKernel)
{
    const std::string text = ".version 9.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             "\n"
                             ".visible .entry k(\n"
                             "\t.param .u64 k_param_0,\n"
                             "\t.param .u32 k_param_1,\n"
                             "\t.param .u64 k_param_2\n"
                             ")\n"
                             ".reqntid 128, 1, 1\n"
                             "{\n"
                             "\t.reg .pred \t%p<3>;\n"
                             "\t.reg .f32 \t%f<5>;\n"
                             "\t.reg .b32 \t%r<6>;\n"
                             "\t.reg .b64 \t%rd<4>;\n"
                             "\n"
                             "\tld.param.u64 \t%rd1, [k_param_0];\n"                     // 0
                             "\tld.param.u32 \t%r1, [k_param_1];\n"                      // 1
                             "\tld.param.u64 \t%rd2, [k_param_2];\n"                     // 2
                             "\tsetp.ne.s32 \t%p1, %r1, 0;\n"                            // 3
                             "\t@!%p1 bra \t$L__BB0_2;\n"                                // 4
                             "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd1+16];\n" // 5
                             "\tst.global.v2.f32 \t[%rd2+-8], {%f1, %f2};\n"             // 6
                             "\t@%p1 st.global.f32 \t[%rd2-4], %f3;\n"                   // 7
                             "$L__BB0_2:\n"
                             "\tshfl.sync.down.b32 \t%r2|%p2, %r1, 16, 31, -1;\n"        // 8
                             "\tmov.f32 \t%f4, 0f3F800000;\n"                            // 9
                             "\tadd.s32 \t%r3, %r2, -1;\n"                               // 10
                             "\tmov.b32 \t%r4, 0x7fffffff;\n"                            // 11
                             "\tret;\n"                                                  // 12
                             "}\n";
    const Module module = parseModule(text);
    EXPECT_EQ(module.version, "9.0");
    EXPECT_EQ(module.target, "sm_75");
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "nvcc style");
    EXPECT_EQ(f.name, "k");
    EXPECT_TRUE(f.isEntry);
    EXPECT_EQ(f.ptxLine, 5);
    EXPECT_EQ(f.reqntid, (std::array<std::uint32_t, 3>{128, 1, 1}));

    // Parameters: u64 at 0, u32 at 8, u64 aligned up to 16; 24 bytes.
    ASSERT_EQ(f.params.size(), 3u);
    const std::uint64_t offsets[] = {0, 8, 16};
    const std::uint64_t sizes[] = {8, 4, 8};
    for (int i = 0; i < 3; ++i) {
        const Symbol& param = f.symbols[f.params[i]];
        EXPECT_EQ(param.name, "k_param_" + std::to_string(i));
        EXPECT_EQ(param.space, Space::Param);
        EXPECT_EQ(param.offset, offsets[i]);
        EXPECT_EQ(param.size, sizes[i]);
    }
    EXPECT_EQ(f.paramBytes, 24u);

    // %p<3> etc. declare %p0..%p2: 3 + 5 + 6 + 4 registers.
    EXPECT_EQ(f.registers.size(), 18u);
    EXPECT_EQ(f.registers[reg(f, "%p0")].type, Type::Pred);
    EXPECT_EQ(f.registers[reg(f, "%rd3")].type, Type::B64);
    EXPECT_EQ(f.registers[reg(f, "%f4")].type, Type::F32);

    ASSERT_EQ(f.instructions.size(), 13u);
    const Instruction& ldParam = f.instructions[2];
    EXPECT_EQ(ldParam.op, Op::Ld);
    EXPECT_EQ(ldParam.space, Space::Param);
    EXPECT_EQ(ldParam.type, Type::U64);
    EXPECT_EQ(ldParam.operands[0].kind, Operand::Kind::Reg);
    EXPECT_EQ(ldParam.operands[0].reg, reg(f, "%rd2"));
    EXPECT_EQ(ldParam.operands[1].kind, Operand::Kind::Address);
    EXPECT_EQ(ldParam.operands[1].symbol, f.params[2]);
    EXPECT_EQ(ldParam.operands[1].symbolSpace, Space::Param);
    EXPECT_EQ(ldParam.operands[1].reg, -1);
    EXPECT_EQ(ldParam.operands[1].offset, 16);

    const Instruction& setp = f.instructions[3];
    EXPECT_EQ(setp.op, Op::Setp);
    EXPECT_EQ(setp.cmp, CmpOp::Ne);
    EXPECT_EQ(setp.type, Type::S32);
    EXPECT_EQ(setp.operands[2].kind, Operand::Kind::Imm);
    EXPECT_EQ(setp.operands[2].imm, 0u);

    const Instruction& branch = f.instructions[4];
    EXPECT_EQ(branch.op, Op::Bra);
    EXPECT_EQ(branch.guard, reg(f, "%p1"));
    EXPECT_TRUE(branch.guardNegated);
    EXPECT_EQ(branch.operands[0].target, blockWithLabel(f, "$L__BB0_2"));
    EXPECT_EQ(f.labels.at("$L__BB0_2"), 8);

    const Instruction& ld4 = f.instructions[5];
    EXPECT_EQ(ld4.op, Op::Ld);
    EXPECT_EQ(ld4.space, Space::Global);
    EXPECT_EQ(ld4.type, Type::F32);
    EXPECT_EQ(ld4.vectorWidth, 4);
    EXPECT_EQ(ld4.guard, -1);
    EXPECT_EQ(ld4.ptxLine, lineOf(text, "ld.global.nc.v4.f32"));
    EXPECT_EQ(ld4.ptxLine, 22);
    ASSERT_EQ(ld4.operandCount, 2);
    EXPECT_EQ(ld4.operands[0].kind, Operand::Kind::Vector);
    ASSERT_EQ(ld4.operands[0].vectorCount, 4);
    for (int v = 0; v < 4; ++v)
        EXPECT_EQ(ld4.operands[0].vector[v], reg(f, "%f" + std::to_string(v + 1)));
    EXPECT_EQ(ld4.operands[1].kind, Operand::Kind::Address);
    EXPECT_EQ(ld4.operands[1].reg, reg(f, "%rd1"));
    EXPECT_EQ(ld4.operands[1].symbol, -1);
    EXPECT_EQ(ld4.operands[1].offset, 16);
    EXPECT_TRUE(ld4.isMemory());

    const Instruction& st2 = f.instructions[6];
    EXPECT_EQ(st2.op, Op::St);
    EXPECT_EQ(st2.vectorWidth, 2);
    EXPECT_EQ(st2.operands[0].kind, Operand::Kind::Address);
    EXPECT_EQ(st2.operands[0].reg, reg(f, "%rd2"));
    EXPECT_EQ(st2.operands[0].offset, -8);
    EXPECT_EQ(st2.operands[1].kind, Operand::Kind::Vector);
    ASSERT_EQ(st2.operands[1].vectorCount, 2);
    EXPECT_EQ(st2.operands[1].vector[0], reg(f, "%f1"));
    EXPECT_EQ(st2.operands[1].vector[1], reg(f, "%f2"));

    const Instruction& guardedStore = f.instructions[7];
    EXPECT_EQ(guardedStore.guard, reg(f, "%p1"));
    EXPECT_FALSE(guardedStore.guardNegated);
    EXPECT_EQ(guardedStore.operands[0].offset, -4);
    EXPECT_EQ(guardedStore.operands[1].reg, reg(f, "%f3"));

    const Instruction& shfl = f.instructions[8];
    EXPECT_EQ(shfl.op, Op::Shfl);
    EXPECT_EQ(shfl.shfl, ShflMode::Down);
    EXPECT_TRUE(shfl.sync);
    EXPECT_EQ(shfl.type, Type::B32);
    ASSERT_EQ(shfl.operandCount, 5);
    EXPECT_EQ(shfl.operands[0].reg, reg(f, "%r2"));
    EXPECT_EQ(shfl.operands[0].pairReg, reg(f, "%p2"));
    EXPECT_EQ(shfl.operands[1].reg, reg(f, "%r1"));
    EXPECT_EQ(shfl.operands[1].pairReg, -1);
    EXPECT_EQ(shfl.operands[2].imm, 16u);
    EXPECT_EQ(shfl.operands[3].imm, 31u);
    EXPECT_EQ(shfl.operands[4].kind, Operand::Kind::Imm);
    EXPECT_EQ(shfl.operands[4].imm & 0xFFFFFFFFu, 0xFFFFFFFFu); // -1: all lanes

    EXPECT_EQ(f.instructions[9].operands[1].imm, 0x3F800000u); // 1.0f
    EXPECT_EQ(f.instructions[10].operands[2].imm & 0xFFFFFFFFu, 0xFFFFFFFFu);
    EXPECT_EQ(f.instructions[11].operands[1].imm, 0x7FFFFFFFu);
    EXPECT_EQ(f.instructions[12].op, Op::Ret);
    EXPECT_EQ(f.instructions[12].operandCount, 0);

    // No .loc: no source lines.
    for (const Instruction& instruction : f.instructions)
        EXPECT_EQ(instruction.source.file, -1);
    // Blocks: [0,5) [5,8) [8,13).
    ASSERT_EQ(f.blocks.size(), 3u);
    EXPECT_EQ(f.blocks[1].first, 5);
    EXPECT_EQ(f.blocks[2].first, 8);
    EXPECT_EQ(f.blocks[0].immediatePostDominator, 2);
}

TEST(PtxParser, SetpWithAPairDestinationAndSpecialRegisters)
{
    const std::string text = kernel("\tsetp.lt.and.s32 \t%p1|%p2, %r1, %r2, %p0;\n"
                                    "\tmov.u32 \t%r3, %laneid;\n"
                                    "\tmov.u32 \t%r4, %ctaid.y;\n"
                                    "\tret;\n");
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    const Instruction& setp = f.instructions[0];
    EXPECT_EQ(setp.cmp, CmpOp::Lt);
    EXPECT_EQ(setp.boolOp, BoolOp::And);
    EXPECT_EQ(setp.operands[0].reg, reg(f, "%p1"));
    EXPECT_EQ(setp.operands[0].pairReg, reg(f, "%p2"));
    EXPECT_EQ(setp.operands[3].reg, reg(f, "%p0"));
    EXPECT_EQ(f.instructions[1].operands[1].kind, Operand::Kind::Special);
    EXPECT_EQ(f.instructions[1].operands[1].special, SpecialReg::LaneId);
    EXPECT_EQ(f.instructions[2].operands[1].special, SpecialReg::CtaidY);
}

TEST(PtxParser, SharedAndLocalLayout)
{
    const std::string text = ".version 9.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             ".extern .shared .align 16 .b8 dyn[];\n"
                             "\n"
                             ".visible .entry k()\n"
                             "{\n"
                             "\t.reg .b32 \t%r<4>;\n"
                             "\t.reg .f32 \t%f<4>;\n"
                             "\t.shared .align 4 .b8 s_a[12];\n"
                             "\t.shared .align 8 .b8 s_b[10];\n"
                             "\t.local .align 4 .b8 l_a[6];\n"
                             "\t.local .align 8 .b8 l_b[8];\n"
                             "\tld.shared.f32 \t%f1, [s_a+4];\n"      // 0
                             "\tld.shared.f32 \t%f2, [s_b];\n"        // 1
                             "\tld.shared.f32 \t%f3, [dyn+8];\n"      // 2
                             "\tmov.u32 \t%r1, s_b;\n"                // 3
                             "\tst.local.u32 \t[l_b+4], %r1;\n"       // 4
                             "\tmov.u32 \t%r2, dyn;\n"                // 5
                             "\tret;\n"
                             "}\n";
    const Module module = parseModule(text);
    ASSERT_EQ(module.globals.size(), 1u);
    EXPECT_EQ(module.globals[0].name, "dyn");
    EXPECT_TRUE(module.globals[0].externShared);
    const Function& f = onlyFunction(module);
    // s_a: 0..11; s_b aligned to 8: 16..25; static total 26; the dynamic area at 26 rounded up to 16.
    EXPECT_EQ(symbolNamed(f, "s_a")->offset, 0u);
    EXPECT_EQ(symbolNamed(f, "s_a")->size, 12u);
    EXPECT_EQ(symbolNamed(f, "s_b")->offset, 16u);
    EXPECT_EQ(symbolNamed(f, "s_b")->size, 10u);
    EXPECT_EQ(f.staticSharedBytes, 26u);
    EXPECT_EQ(symbolNamed(f, "dyn")->offset, 32u);
    EXPECT_TRUE(symbolNamed(f, "dyn")->externShared);
    EXPECT_EQ(symbolNamed(f, "dyn")->space, Space::Shared);
    EXPECT_EQ(f.dynamicSharedAlignment, 16u);
    // Local: l_a 0..5, l_b aligned to 8: 8..15.
    EXPECT_EQ(symbolNamed(f, "l_a")->offset, 0u);
    EXPECT_EQ(symbolNamed(f, "l_b")->offset, 8u);
    EXPECT_EQ(symbolNamed(f, "l_b")->space, Space::Local);
    EXPECT_EQ(f.localBytes, 16u);
    // Addresses fold in the symbol's offset.
    EXPECT_EQ(f.instructions[0].operands[1].offset, 4);
    EXPECT_EQ(f.instructions[0].operands[1].symbolSpace, Space::Shared);
    EXPECT_EQ(f.instructions[0].operands[1].reg, -1);
    EXPECT_EQ(f.instructions[1].operands[1].offset, 16);
    EXPECT_EQ(f.instructions[2].operands[1].offset, 40);
    EXPECT_EQ(f.instructions[3].operands[1].kind, Operand::Kind::Symbol);
    EXPECT_EQ(f.instructions[3].operands[1].offset, 16);
    EXPECT_EQ(f.instructions[4].space, Space::Local);
    EXPECT_EQ(f.instructions[4].operands[0].offset, 12);
    EXPECT_EQ(f.instructions[4].operands[0].symbolSpace, Space::Local);
    EXPECT_EQ(f.instructions[5].operands[1].kind, Operand::Kind::Symbol);
    EXPECT_EQ(f.instructions[5].operands[1].offset, 32);
}

TEST(PtxParser, StaticSharedComesFirstWhateverTheOrderOfUse)
{
    // The extern array is used before the module-scope static one; the static one still starts at 0.
    const std::string text = ".version 9.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             ".extern .shared .align 32 .b8 dyn[];\n"
                             ".shared .align 4 .b8 g_s[12];\n"
                             ".visible .entry k()\n"
                             "{\n"
                             "\t.reg .f32 \t%f<3>;\n"
                             "\tld.shared.f32 \t%f1, [dyn];\n"
                             "\tld.shared.f32 \t%f2, [g_s+8];\n"
                             "\tret;\n"
                             "}\n";
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    EXPECT_EQ(symbolNamed(f, "g_s")->offset, 0u);
    EXPECT_EQ(f.staticSharedBytes, 12u);
    EXPECT_EQ(symbolNamed(f, "dyn")->offset, 32u); // 12 rounded up to the extern's 32
    EXPECT_EQ(f.dynamicSharedAlignment, 32u);
    EXPECT_EQ(f.instructions[0].operands[1].offset, 32);
    EXPECT_EQ(f.instructions[1].operands[1].offset, 8);
}

TEST(PtxParser, GlobalAndConstVariablesWithInitializers)
{
    const std::string text = ".version 9.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             ".global .align 4 .u32 g_table[4] = {1, 2, 3, 4};\n"
                             ".global .align 4 .s32 g_neg[2] = {-1, 5};\n"
                             ".global .align 4 .f32 g_scale = 0f40000000;\n"
                             ".const .align 1 .b8 c_bytes[3] = {1, 2, 255};\n"
                             ".global .align 8 .u64 g_zero[2];\n"
                             ".visible .entry k()\n"
                             "{\n"
                             "\t.reg .b32 \t%r<4>;\n"
                             "\t.reg .b64 \t%rd<2>;\n"
                             "\tmov.u64 \t%rd1, g_table;\n"
                             "\tld.global.u32 \t%r1, [g_table+8];\n"
                             "\tld.const.u8 \t%r2, [c_bytes+2];\n"
                             "\tret;\n"
                             "}\n";
    const Module module = parseModule(text);
    ASSERT_EQ(module.globals.size(), 5u);
    const Symbol& table = module.globals[0];
    EXPECT_EQ(table.name, "g_table");
    EXPECT_EQ(table.space, Space::Global);
    EXPECT_EQ(table.size, 16u);
    EXPECT_EQ(table.alignment, 4u);
    EXPECT_EQ(table.initializer,
              (std::vector<std::uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}));
    EXPECT_EQ(module.globals[1].initializer, (std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF, 5, 0, 0, 0}));
    EXPECT_EQ(module.globals[2].size, 4u);
    EXPECT_EQ(module.globals[2].initializer, (std::vector<std::uint8_t>{0, 0, 0, 0x40})); // 2.0f
    EXPECT_EQ(module.globals[3].space, Space::Const);
    EXPECT_EQ(module.globals[3].size, 3u);
    EXPECT_EQ(module.globals[3].initializer, (std::vector<std::uint8_t>{1, 2, 255}));
    EXPECT_EQ(module.globals[4].size, 16u);
    EXPECT_TRUE(module.globals[4].initializer.empty());

    const Function& f = onlyFunction(module);
    const Operand& address = f.instructions[1].operands[1];
    ASSERT_GE(address.symbol, 0);
    EXPECT_EQ(f.symbols[address.symbol].moduleIndex, 0);
    EXPECT_EQ(address.symbolSpace, Space::Global);
    EXPECT_EQ(address.offset, 8);
    const Operand& constant = f.instructions[2].operands[1];
    ASSERT_GE(constant.symbol, 0);
    EXPECT_EQ(f.symbols[constant.symbol].moduleIndex, 3);
    EXPECT_EQ(constant.symbolSpace, Space::Const);
    EXPECT_EQ(constant.offset, 2);
    EXPECT_EQ(f.instructions[0].operands[1].kind, Operand::Kind::Symbol);
    EXPECT_EQ(f.symbols[f.instructions[0].operands[1].symbol].moduleIndex, 0);
}

TEST(PtxParser, LocMapsInlinedCodeToTheCallSite)
{
    const std::string text = ".version 9.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             "\n"
                             ".visible .entry k()\n"
                             "{\n"
                             "\t.reg .b32 \t%r<4>;\n"
                             "\n"
                             "\tmov.u32 \t%r1, 7;\n"
                             "\t.loc\t1 10 5\n"
                             "\tmov.u32 \t%r2, %tid.x;\n"
                             "\t.loc\t2 110 3, function_name $L__info_string0, inlined_at 1 20 9\n"
                             "\tadd.s32 \t%r3, %r2, %r1;\n"
                             "\tmul.lo.s32 \t%r3, %r3, 3;\n"
                             "\t.loc\t1 21 1\n"
                             "\tret;\n"
                             "}\n"
                             "\t.file\t1 \"/src/user.cu\"\n"
                             "\t.file\t2 \"/usr/local/cuda/include/helper.h\", 1700000000, 1234\n"
                             "\t.section\t.debug_str\n"
                             "\t{\n"
                             "$L__info_string0:\n"
                             ".b8 95,90,0\n"
                             "\t}\n";
    const Module module = parseModule(text);
    ASSERT_EQ(module.files.size(), 2u);
    EXPECT_EQ(module.files.at(1), "/src/user.cu");
    EXPECT_EQ(module.files.at(2), "/usr/local/cuda/include/helper.h");
    const Function& f = onlyFunction(module);
    ASSERT_EQ(f.instructions.size(), 5u);
    EXPECT_EQ(f.instructions[0].source.file, -1); // before any .loc
    EXPECT_EQ(f.instructions[1].source.file, 1);
    EXPECT_EQ(f.instructions[1].source.line, 10);
    EXPECT_EQ(f.instructions[1].source.column, 5);
    for (int i : {2, 3}) {
        EXPECT_EQ(f.instructions[i].source.file, 1) << i; // the user's file, not helper.h
        EXPECT_EQ(f.instructions[i].source.line, 20) << i;
        EXPECT_EQ(f.instructions[i].source.column, 9) << i;
    }
    EXPECT_EQ(f.instructions[4].source.line, 21);
    EXPECT_EQ(f.instructions[2].ptxLine, lineOf(text, "add.s32"));
    EXPECT_EQ(f.instructions[2].ptxLine, 13);
}

TEST(PtxParser, CommentsAndInstructionText)
{
    const std::string text = kernel("\t// a line comment: bra nowhere;\n"
                                    "\t/* a block\n"
                                    "\t   comment */ add.s32 \t%r1, %r2, 3; // trailing\n"
                                    "\tld.global.f32 \t%f1, [%rd1+4];\n"
                                    "\tret;\n");
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    ASSERT_EQ(f.instructions.size(), 3u);
    EXPECT_EQ(f.instructions[0].ptxLine, 16); // the line the block comment ends on
    EXPECT_EQ(f.instructions[0].text, "add.s32 %r1, %r2, 3");
    EXPECT_EQ(f.instructions[1].text, "ld.global.f32 %f1, [%rd1+4]");
}

// The memory-ordering qualifiers the race check follows (PTX ISA, "Memory Consistency Model"): a
// plain or volatile ld/st is weak; atom and red default to .relaxed; fence defaults to .acq_rel and
// membar is .sc.
TEST(PtxParser, MemoryOrderQualifiers)
{
    const Module module = parseModule(kernel("\tld.shared.u32 \t%r1, [%rd1];\n"
                                             "\tld.volatile.shared.u32 \t%r1, [%rd1];\n"
                                             "\tld.relaxed.cta.shared.u32 \t%r1, [%rd1];\n"
                                             "\tld.acquire.cta.b64 \t%rd2, [%rd1];\n"
                                             "\tst.release.gpu.global.u32 \t[%rd1], %r1;\n"
                                             "\tatom.shared.add.u32 \t%r1, [%rd1], 1;\n"
                                             "\tatom.add.acq_rel.cta.u64 \t%rd2, [%rd1], %rd3;\n"
                                             "\tred.release.gpu.global.add.u32 \t[%rd1], 1;\n"
                                             "\tfence.cta;\n"
                                             "\tfence.sc.cta;\n"
                                             "\tmembar.gl;\n"
                                             "\tret;\n"));
    const Function& f = onlyFunction(module);
    ASSERT_TRUE(f.unsupported.empty()) << f.unsupported[0].construct;
    const MemoryOrder expected[] = {MemoryOrder::Weak,   MemoryOrder::Weak,    MemoryOrder::Relaxed, MemoryOrder::Acquire,
                                    MemoryOrder::Release, MemoryOrder::Relaxed, MemoryOrder::AcqRel,  MemoryOrder::Release,
                                    MemoryOrder::AcqRel, MemoryOrder::Sc,      MemoryOrder::Sc};
    ASSERT_EQ(f.instructions.size(), std::size(expected) + 1);
    for (std::size_t i = 0; i < std::size(expected); ++i)
        EXPECT_EQ(f.instructions[i].order, expected[i]) << f.instructions[i].text;
    EXPECT_TRUE(f.instructions[1].isVolatile);
    EXPECT_EQ(f.instructions[6].atomOp, AtomOp::Add);
    EXPECT_EQ(f.instructions[6].type, Type::U64);
}

// ---- errors ---------------------------------------------------------------------------------------

// Valid PTX the simulator cannot run is not a parse error: the module loads, the construct is noted
// on its function with its PTX line, and only kernels that can reach it are refused.
TEST(PtxUnsupported, AnUnsupportedInstructionIsNotedWithItsLine)
{
    const std::string text = kernel("\tmov.u32 \t%r1, 0;\n"
                                    "\ttex.1d.v4.f32.s32 \t{%f0, %f1, %f2, %f3}, [tex_ref, {%r1}];\n"
                                    "\tret;\n");
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    ASSERT_EQ(f.unsupported.size(), 1u);
    EXPECT_EQ(f.unsupported[0].construct, "tex.1d.v4.f32.s32");
    EXPECT_EQ(f.unsupported[0].kind, "instruction");
    EXPECT_EQ(f.unsupported[0].ptxLine, 15);
    EXPECT_EQ(f.unsupported[0].ptxLine, lineOf(text, "tex.1d"));
    EXPECT_EQ(f.unsupported[0].function, "k");
    EXPECT_EQ(f.instructions.size(), 2u); // mov and ret; the statement is skipped
    ASSERT_EQ(module.unsupportedFor(f).size(), 1u);
    EXPECT_EQ(describeUnsupported(module, *module.unsupportedFor(f)[0], "k"),
              "PTX line 15: 'tex.1d.v4.f32.s32' is not supported by the simulator yet");

    // requireSupported: an UnsupportedPtx (not an InputError), one line naming it.
    try {
        requireSupported(module, f, "k.ptx: ");
        FAIL() << "no exception";
    } catch (const UnsupportedPtx& error) {
        EXPECT_STREQ(error.what(), "k.ptx: PTX line 15: 'tex.1d.v4.f32.s32' is not supported by the simulator yet");
        EXPECT_EQ(error.constructs().size(), 1u);
    }
    static_assert(!std::is_base_of_v<InputError, UnsupportedPtx>, "valid PTX is not bad input");
}

TEST(PtxUnsupported, ModifiersTypesSpecialRegistersAndDirectives)
{
    struct Case {
        const char* line;
        const char* construct;
        const char* kind;
    };
    const Case cases[] = {
        {"\tdiv.f32 \t%f1, %f2, %f3;\n", "div.f32", "instruction"},               // needs .rn / .approx / .full
        {"\tshfl.down.b32 \t%r1, %r2, 1, 31;\n", "shfl.down.b32", "instruction"}, // pre-Volta, no .sync
        {"\tmul24.lo.s32 \t%r1, %r2, %r3;\n", "mul24.lo.s32", "instruction"},     // 24-bit multiply
        {"\tbarrier.cluster.arrive;\n", "barrier.cluster.arrive", "instruction"}, // clusters (sm_90)
        {"\tmov.u32 \t%r1, %envreg3;\n", "%envreg3", "special register"},
        {"\tmov.u32 \t%r1, %dynamic_smem_size;\n", "%dynamic_smem_size", "special register"},
        {"\tbrkpt;\n", "brkpt", "instruction"},
    };
    for (const Case& c : cases) {
        const std::string text = kernel(std::string("\tmov.u32 \t%r1, 0;\n") + c.line + "\tret;\n");
        const Module module = parseModule(text);
        const Function& f = onlyFunction(module);
        ASSERT_EQ(f.unsupported.size(), 1u) << c.line;
        EXPECT_EQ(f.unsupported[0].construct, c.construct) << c.line;
        EXPECT_EQ(f.unsupported[0].kind, c.kind) << c.line;
        EXPECT_EQ(f.unsupported[0].ptxLine, 15) << c.line;
    }
    // A module-scope texture reference: noted on the module, no kernel needs it.
    const Module textures = parseModule(".version 9.0\n.target sm_75\n.address_size 64\n.global .texref tex;\n"
                                        ".visible .entry k()\n{\n\tret;\n}\n");
    ASSERT_EQ(textures.unsupported.size(), 1u);
    EXPECT_EQ(textures.unsupported[0].construct, ".texref");
    EXPECT_EQ(textures.unsupported[0].ptxLine, 4);
    EXPECT_TRUE(textures.unsupportedFor(onlyFunction(textures)).empty());
    // A cluster launch directive.
    const Module clusters = parseModule(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n"
                                        ".maxntid 128, 1, 1\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\n\tret;\n}\n");
    ASSERT_EQ(onlyFunction(clusters).unsupported.size(), 1u);
    EXPECT_EQ(onlyFunction(clusters).unsupported[0].construct, ".explicitcluster");
    EXPECT_EQ(onlyFunction(clusters).unsupported[0].ptxLine, 6);
}

// A name that is not a PTX instruction is bad input, not a missing feature.
TEST(PtxUnsupported, WhatIsNotPtxStaysAnError)
{
    for (const char* line : {"\tfrobnicate.u32 \t%r1, %r2;\n", "\tad.s32 \t%r1, %r2, %r3;\n"}) {
        const Failure failure = parseFailure(kernel(std::string("\tmov.u32 \t%r1, 0;\n") + line + "\tret;\n"));
        EXPECT_EQ(failure.line, 15) << line;
        EXPECT_NE(failure.message.find("is not a PTX instruction"), std::string::npos) << failure.message;
    }
}

// Only what the chosen kernel reaches must be supported: a seven-kernel file with one bad kernel
// runs the other six.
TEST(PtxUnsupported, OnlyWhatTheEntryReachesCounts)
{
    const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n"  // 1-3
                             ".func helper()\n{\n\ttex.1d.v4.f32.s32 \t{%f0, %f1, %f2, %f3}, [t, {%r1}];\n\tret;\n}\n" // 4-8
                             ".visible .entry uses_helper()\n{\n\tcall.uni helper;\n\tret;\n}\n"               // 9-13
                             ".visible .entry plain()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n\tret;\n}\n"; // 14-19
    const Module module = parseModule(text);
    const Function* helper = module.findFunction("helper");
    const Function* usesHelper = module.findFunction("uses_helper");
    const Function* plain = module.findFunction("plain");
    ASSERT_TRUE(helper && usesHelper && plain);
    EXPECT_EQ(usesHelper->callees, std::vector<std::string>{"helper"});
    EXPECT_EQ(module.reachableFrom(*usesHelper).size(), 2u);
    EXPECT_TRUE(module.unsupportedFor(*plain).empty());
    EXPECT_NO_THROW(requireSupported(module, *plain));
    const auto blocking = module.unsupportedFor(*usesHelper);
    ASSERT_FALSE(blocking.empty());
    EXPECT_EQ(blocking.front()->function, "helper");
    EXPECT_EQ(blocking.front()->ptxLine, 6);
    EXPECT_NE(describeUnsupported(module, *blocking.front(), "uses_helper").find("in device function helper"),
              std::string::npos);
    EXPECT_EQ(module.allUnsupported().size(), module.unsupportedFor(*usesHelper).size());
}

// Inline asm and call sequences open { } scopes that declare their own registers and .params, and
// may reuse a name another scope declared; some inline asm names registers without a %.
TEST(PtxParser, ScopedRegistersAndParamsOfInlineAsmAndCallSequences)
{
    const std::string text = kernel("\t{.reg .b32 c;\n"
                                    "\tmov.b32 c, 0x80008000U;\n"
                                    "\tadd.u32 %r1, %r1, c;}\n"
                                    "\t{.reg .b32 c;\n"
                                    "\tmov.b32 c, 3;\n"
                                    "\tadd.u32 %r2, %r2, c;}\n"
                                    "\t{ .param .b64 param0;\n"
                                    "\tst.param.b64 [param0+0], %rd1; }\n"
                                    "\t{ .param .b64 param0;\n"
                                    "\tst.param.b64 [param0+0], %rd2; }\n"
                                    "\tmov.b32 \t%f1, {0, %rs1};\n"
                                    "\tret;\n");
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    EXPECT_TRUE(f.unsupported.empty());
    ASSERT_EQ(f.instructions.size(), 8u);
    const std::int32_t firstC = f.instructions[0].operands[0].reg;
    const std::int32_t secondC = f.instructions[2].operands[0].reg;
    EXPECT_NE(firstC, secondC);
    EXPECT_EQ(f.instructions[1].operands[2].reg, firstC);
    EXPECT_EQ(f.instructions[3].operands[2].reg, secondC);
    // Each call sequence's param0 is its own variable in the thread's frame: st.param writes local memory.
    const Operand& first = f.instructions[4].operands[0];
    const Operand& second = f.instructions[5].operands[0];
    EXPECT_NE(first.symbol, second.symbol);
    EXPECT_TRUE(f.symbols[static_cast<std::size_t>(first.symbol)].frameParam);
    EXPECT_EQ(f.instructions[4].space, Space::Local);
    EXPECT_NE(first.offset, second.offset);
    EXPECT_GE(f.localBytes, 16u);
    // A vector with a number in it.
    const Operand& packed = f.instructions[6].operands[1];
    ASSERT_EQ(packed.kind, Operand::Kind::Vector);
    EXPECT_EQ(packed.vector[0], kVectorImmediate);
    EXPECT_EQ(packed.vectorImm[0], 0u);
    EXPECT_EQ(packed.vector[1], reg(f, "%rs1"));
    // The same name twice in one scope is still an error.
    const Failure twice = parseFailure(kernel("\t{.reg .b32 c;\n\t.reg .b32 c;\n\tret;}\n"));
    EXPECT_EQ(twice.line, 15) << twice.message;
}

// A call site inside inlined code names the call site's .loc, which is itself inlined: the chain
// runs lib.h:87 -> lib.h:144 -> user.cu:50. The source line is the innermost one the learner wrote
// (issue 29, section 7): lib.h's own line 87; when the inlined code is a toolkit header's (nvcc names
// them through .../targets/<platform>/include/), the learner's call at user.cu:50. The .file table
// comes after the code, as nvcc writes it.
TEST(PtxParser, NestedInlinedAtChainsReachTheUsersLine)
{
    const auto parseWith = [](const std::string& header) {
        return parseModule(".version 9.0\n.target sm_75\n.address_size 64\n"
                           ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
                           "\t.loc 5 144 5, function_name $L__info_string5, inlined_at 1 50 3\n"
                           "\t.loc 5 87 13, function_name $L__info_string6, inlined_at 5 144 5\n"
                           "\tmov.u32 %r1, 1;\n"
                           "\t.loc 5 144 9, function_name $L__info_string5, inlined_at 1 50 3\n"
                           "\tmov.u32 %r2, 2;\n"
                           "\t.loc 1 51 3\n"
                           "\tret;\n}\n"
                           ".file 1 \"user.cu\"\n.file 5 \"" + header + "\"\n");
    };
    const Module own = parseWith("lib.h");
    const Function& k = onlyFunction(own);
    EXPECT_EQ(k.instructions[0].source.file, 5);
    EXPECT_EQ(k.instructions[0].source.line, 87);
    EXPECT_EQ(k.instructions[1].source.line, 144);
    EXPECT_EQ(k.instructions[2].source.file, 1);
    EXPECT_EQ(k.instructions[2].source.line, 51);

    const Module toolkit = parseWith("/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp");
    for (int i : {0, 1}) {
        EXPECT_EQ(onlyFunction(toolkit).instructions[static_cast<std::size_t>(i)].source.file, 1);
        EXPECT_EQ(onlyFunction(toolkit).instructions[static_cast<std::size_t>(i)].source.line, 50);
    }
}

TEST(PtxErrors, MalformedTextNamesTheLine)
{
    struct Case {
        const char* body;     // the offending line is the body's second line (PTX line 15)
        const char* mentions; // a word the message must contain
    };
    const Case cases[] = {
        {"\tmov.u32 \t%r1, 0;\n\tadd.s32 \t%r9, %r1, 1;\n", "%r9"},              // undeclared register
        {"\tmov.u32 \t%r1, 0;\n\tbra.uni \t$L_nowhere;\n", "$L_nowhere"},        // undefined label
        {"\tmov.u32 \t%r1, 0;\n\tadd.s32 \t%r1, %r1, 12x;\n", "12x"},           // bad immediate
        {"\tmov.u32 \t%r1, 0;\n\tmov.f32 \t%f1, 0f3F80000G;\n", "0f3F80000G"},   // bad float bits
        {"\tmov.u32 \t%r1, 0;\n\tmov.b32 \t%r1, 0b102;\n", "0b102"},             // bad binary
        {"\tmov.u32 \t%r1, 0;\n\tadd.s32 \t%r1, %r2;\n", "3 operands"},          // operand count
        {"\tmov.u32 \t%r1, 0;\n\tret \t%r1;\n", "operands"},
        {"\tmov.u32 \t%r1, 0;\n\tld.global.f32 \t%f1, %rd1;\n", "address"},
        {"\tmov.u32 \t%r1, 0;\n\tld.global.v4.f32 \t{%f1, %f2}, [%rd1];\n", "vector"},
        {"\tmov.u32 \t%r1, 0;\n\tmul.wide.s64 \t%rd1, %rd2, %rd3;\n", ".wide"},   // 64-bit mul.wide
        {"\tmov.u32 \t%r1, 0;\n\tmul.wide.s32 \t%r1, %r2, %r3;\n", "%r1"},        // 64 bits into 32
        {"\tmov.u32 \t%r1, 0;\n\tsetp.lt.s32 \t%r1, %r2, 0;\n", "predicate"},
        {"\tmov.u32 \t%r1, 0;\n\t@%r1 bra \t$L_x;\n$L_x:\n\tret;\n", "%r1"},       // guard is not a predicate
        {"$L_x:\n$L_x:\n\tret;\n", "$L_x"},                                        // label twice
        {"\tmov.u32 \t%r1, 0;\n\tld.shared.f32 \t%f1, [nosuch];\n", "nosuch"},
        {"\tmov.u32 \t%r1, 0;\n\tmov.u32 \t%r1, # 3;\n", "#"},
        {"\tmov.u32 \t%r1, 0;\n\t.reg .b32 \t%r<2>;\n", "%r0"},                   // declared twice
        {"\tmov.u32 \t%r1, 0;\n\t.maxnreg 32;\n", ".maxnreg"},                     // not a body directive
        {"\tmov.u32 \t%r1, 0;\n\t.reg .f128 \t%q<2>;\n", ".f128"},
    };
    for (const Case& c : cases) {
        const std::string text = kernel(c.body);
        const Failure failure = parseFailure(text);
        EXPECT_EQ(failure.line, 15) << c.body << " -> " << failure.message;
        EXPECT_EQ(failure.message.rfind("PTX line 15: ", 0), 0u) << failure.message;
        EXPECT_NE(failure.message.find(c.mentions), std::string::npos) << failure.message;
    }
}

TEST(PtxErrors, UnterminatedBodyAndComment)
{
    const std::string open = kHeader + "\tmov.u32 \t%r1, 0;\n\tret;\n"; // no closing brace
    const Failure body = parseFailure(open);
    EXPECT_NE(body.message.find("not closed"), std::string::npos) << body.message;
    EXPECT_GE(body.line, lineOf(open, "ret;"));

    const std::string comment = kernel("\tmov.u32 \t%r1, 0;\n\t/* never closed\n\tret;\n");
    const Failure c = parseFailure(comment);
    EXPECT_EQ(c.line, 15) << c.message; // where the comment starts
    EXPECT_NE(c.message.find("comment"), std::string::npos) << c.message;
}

TEST(PtxErrors, ModuleLevelProblemsNameTheirLine)
{
    const Failure stray = parseFailure(".version 9.0\n.target sm_75\n.address_size 64\nmov.u32 %r1, 0;\n");
    EXPECT_EQ(stray.line, 4) << stray.message;
    const Failure sizeless = parseFailure(".version 9.0\n.target sm_75\n.address_size 64\n.global .b8 g[];\n");
    EXPECT_EQ(sizeless.line, 4) << sizeless.message;
    const Failure tooBig = parseFailure(".version 9.0\n.target sm_75\n.address_size 64\n.global .u8 g[2] = {1, 2, 3};\n");
    EXPECT_EQ(tooBig.line, 4) << tooBig.message;
}

TEST(PtxErrors, DirectiveErrorsNameTheDirectivesLine)
{
    // The error belongs to the directive's line, not to whatever token follows it.
    const Failure address = parseFailure(".version 9.0\n.target sm_75\n.address_size 32\n");
    EXPECT_EQ(address.line, 3) << address.message;
    const Failure noBody = parseFailure(".version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry k();\n");
    EXPECT_EQ(noBody.line, 5) << noBody.message;
    const Failure directive = parseFailure(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n"
                                           ".maxntid 128, 1, 1\n.nosuchdirective 1\n{\n\tret;\n}\n");
    EXPECT_EQ(directive.line, 6) << directive.message;
    EXPECT_NE(directive.message.find(".nosuchdirective"), std::string::npos) << directive.message;
}
