// The PTX front end: every demo kernel and an NVRTC-compiled kernel parse; hand-written snippets
// check operands, symbol layout, line mapping, basic blocks and immediate post-dominators; malformed
// or unsupported PTX is a PtxError naming the line; and mutated PTX never does anything worse than
// throw an InputError.
#include "demo_kernels.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <vector>

using namespace warpscope;
using namespace warpscope::ptx;

static_assert(std::is_base_of_v<InputError, PtxError>, "PtxError must be an InputError");

namespace {

// 1-based line of the first line containing `needle` (counted by hand from the text, not by the parser).
int lineOf(std::string_view text, std::string_view needle)
{
    const std::size_t at = text.find(needle);
    if (at == std::string_view::npos) {
        ADD_FAILURE() << "'" << needle << "' is not in the text";
        return -1;
    }
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::int32_t reg(const Function& function, std::string_view name)
{
    for (std::size_t i = 0; i < function.registers.size(); ++i)
        if (function.registers[i].name == name)
            return static_cast<std::int32_t>(i);
    ADD_FAILURE() << "no register " << name;
    return -100;
}

const Symbol* symbolNamed(const Function& function, std::string_view name)
{
    for (const Symbol& symbol : function.symbols)
        if (symbol.name == name)
            return &symbol;
    ADD_FAILURE() << "no symbol " << name;
    return nullptr;
}

std::int32_t blockWithLabel(const Function& function, std::string_view label)
{
    for (std::size_t b = 0; b < function.blocks.size(); ++b)
        if (function.blocks[b].label == label)
            return static_cast<std::int32_t>(b);
    ADD_FAILURE() << "no block labelled " << label;
    return -100;
}

std::set<std::int32_t> asSet(const std::vector<std::int32_t>& values) { return {values.begin(), values.end()}; }

// Structural invariants any parsed function must satisfy, whatever its text was.
void expectWellFormed(const Function& function, const std::string& where)
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

const Function& onlyFunction(const Module& module)
{
    EXPECT_EQ(module.functions.size(), 1u);
    return module.functions.front();
}

struct Failure {
    std::string message;
    int line = -1;
};

Failure parseFailure(const std::string& text)
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
const std::string kHeader = ".version 9.0\n"                  // 1
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

std::string kernel(const std::string& body) { return kHeader + body + "}\n"; }

} // namespace

// ---- the demo kernels and NVRTC output ------------------------------------------------------------

TEST(PtxParser, EveryDemoKernelParses)
{
    const auto& kernels = warpscope::kernels::demoKernels();
    ASSERT_FALSE(kernels.empty());
    for (const auto& kernel : kernels) {
        SCOPED_TRACE(kernel.id);
        const Module* module = nullptr;
        ASSERT_NO_THROW(module = &warpscope::kernels::demoModule(kernel));
        EXPECT_EQ(module->addressSize, 64);
        EXPECT_FALSE(module->files.empty()); // -lineinfo: a .file directive
        const Function* function = module->findFunction(kernel.entry);
        ASSERT_NE(function, nullptr) << "no entry " << kernel.entry;
        EXPECT_TRUE(function->isEntry);
        const auto entries = module->entryNames();
        EXPECT_NE(std::find(entries.begin(), entries.end(), kernel.entry), entries.end());
        EXPECT_EQ(function->params.size(), kernel.args.size());
        EXPECT_FALSE(function->blocks.empty());
        EXPECT_FALSE(function->instructions.empty());
        for (const Instruction& instruction : function->instructions) {
            EXPECT_GE(instruction.source.file, 0) << "no .loc for '" << instruction.text << "' (PTX line "
                                                  << instruction.ptxLine << ")";
            EXPECT_TRUE(module->files.contains(instruction.source.file)) << instruction.text;
            EXPECT_GE(instruction.source.line, 0) << instruction.text; // nvcc writes line 0 for compiler-made code
            EXPECT_GT(instruction.ptxLine, 0);
            EXPECT_FALSE(instruction.text.empty());
        }
        expectWellFormed(*function, kernel.id);
        // Every kernel ends somewhere: some block reaches the virtual exit with no successors.
        bool exits = false;
        for (const BasicBlock& block : function->blocks)
            exits = exits || block.successors.empty();
        EXPECT_TRUE(exits);
    }
}

TEST(PtxParser, NvrtcOutputWithLoopSharedShuffleAndAtomicsParses)
{
    const char* const source = R"(extern "C" __global__ void mix(const float* in, float* out, unsigned* counter, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = i; k < n; k += gridDim.x * blockDim.x)
        sum += in[k];
    tile[threadIdx.x] = sum;
    __syncthreads();
    float v = tile[(threadIdx.x + 1) % blockDim.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(counter, 1u);
        out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = v;
    }
}
)";
    const CompileResult compiled = compileCuda(source, "mix.cu", {});
    ASSERT_TRUE(compiled.ok) << compiled.log;
    Module module;
    try {
        module = parseModule(compiled.ptx);
    } catch (const std::exception& error) {
        FAIL() << error.what() << "\n" << compiled.ptx;
    }
    const Function* function = module.findFunction("mix");
    ASSERT_NE(function, nullptr);
    EXPECT_TRUE(function->isEntry);
    EXPECT_EQ(function->params.size(), 4u);
    EXPECT_EQ(function->paramBytes, 8u + 8u + 8u + 4u);
    EXPECT_EQ(function->staticSharedBytes, 256u * 4u);
    expectWellFormed(*function, "mix");

    bool shuffle = false, atomic = false, barrier = false, sharedStore = false, backEdge = false;
    for (const Instruction& instruction : function->instructions) {
        shuffle = shuffle || (instruction.op == Op::Shfl && instruction.shfl == ShflMode::Down);
        atomic = atomic || ((instruction.op == Op::Atom || instruction.op == Op::Red) && instruction.atomOp == AtomOp::Add &&
                            instruction.space == Space::Global);
        barrier = barrier || instruction.op == Op::BarSync;
        sharedStore = sharedStore || (instruction.op == Op::St && instruction.space == Space::Shared);
        EXPECT_GE(instruction.source.file, 0) << instruction.text;
        EXPECT_GE(instruction.source.line, 1) << instruction.text;
        EXPECT_LE(instruction.source.line, 17) << instruction.text; // the source has 17 lines
        if (module.files.contains(instruction.source.file)) { // inlined header code maps to the call site
            EXPECT_NE(module.files.at(instruction.source.file).find("mix.cu"), std::string::npos) << instruction.text;
        }
    }
    for (std::size_t b = 0; b < function->blocks.size(); ++b)
        for (std::int32_t s : function->blocks[b].successors)
            backEdge = backEdge || s <= static_cast<std::int32_t>(b);
    EXPECT_TRUE(shuffle);
    EXPECT_TRUE(atomic);
    EXPECT_TRUE(barrier);
    EXPECT_TRUE(sharedStore);
    EXPECT_TRUE(backEdge) << "the grid-stride loop needs a backward branch";
    bool namesTheSource = false;
    for (const auto& [index, path] : module.files)
        namesTheSource = namesTheSource || path.find("mix.cu") != std::string::npos;
    EXPECT_TRUE(namesTheSource);
}

// ---- control flow ---------------------------------------------------------------------------------

TEST(PtxControlFlow, DiamondReconvergesAtTheJoin)
{
    const std::string text = kernel("\tmov.u32 \t%r1, %tid.x;\n"         // 0  B0
                                    "\tsetp.lt.u32 \t%p1, %r1, 16;\n"    // 1
                                    "\t@%p1 bra \t$L_then;\n"            // 2
                                    "\tadd.s32 \t%r2, %r1, 1;\n"         // 3  B1 (else)
                                    "\tbra.uni \t$L_join;\n"             // 4
                                    "$L_then:\n"
                                    "\tadd.s32 \t%r2, %r1, 2;\n"         // 5  B2 (then)
                                    "$L_join:\n"
                                    "\tmov.u32 \t%r3, %r2;\n"            // 6  B3 (join)
                                    "\tret;\n");                         // 7
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "diamond");
    ASSERT_EQ(f.instructions.size(), 8u);
    ASSERT_EQ(f.blocks.size(), 4u);
    const std::int32_t firsts[] = {0, 3, 5, 6};
    const std::int32_t lasts[] = {3, 5, 6, 8};
    for (int b = 0; b < 4; ++b) {
        EXPECT_EQ(f.blocks[b].first, firsts[b]) << "block " << b;
        EXPECT_EQ(f.blocks[b].last, lasts[b]) << "block " << b;
    }
    EXPECT_EQ(f.blocks[2].label, "$L_then");
    EXPECT_EQ(f.blocks[3].label, "$L_join");
    EXPECT_EQ(blockWithLabel(f, "$L_join"), 3);
    EXPECT_EQ(f.labels.at("$L_then"), 5);
    EXPECT_EQ(f.labels.at("$L_join"), 6);
    EXPECT_EQ(asSet(f.blocks[0].successors), (std::set<std::int32_t>{1, 2}));
    EXPECT_EQ(asSet(f.blocks[1].successors), (std::set<std::int32_t>{3}));
    EXPECT_EQ(asSet(f.blocks[2].successors), (std::set<std::int32_t>{3}));
    EXPECT_TRUE(f.blocks[3].successors.empty());
    EXPECT_EQ(asSet(f.blocks[3].predecessors), (std::set<std::int32_t>{1, 2}));
    EXPECT_EQ(asSet(f.blocks[1].predecessors), (std::set<std::int32_t>{0}));
    // Branch operands now name blocks.
    EXPECT_EQ(f.instructions[2].operands[0].kind, Operand::Kind::Label);
    EXPECT_EQ(f.instructions[2].operands[0].target, 2);
    EXPECT_EQ(f.instructions[4].operands[0].target, 3);
    EXPECT_TRUE(f.instructions[4].uniform);
    EXPECT_FALSE(f.instructions[2].uniform);
    // The branch block reconverges at the join; the arms too; the join at the exit.
    EXPECT_EQ(f.blocks[0].immediatePostDominator, 3);
    EXPECT_EQ(f.blocks[1].immediatePostDominator, 3);
    EXPECT_EQ(f.blocks[2].immediatePostDominator, 3);
    EXPECT_EQ(f.blocks[3].immediatePostDominator, -1);
}

TEST(PtxControlFlow, DoWhileLatchReconvergesAtTheExitBlock)
{
    const std::string text = kernel("\tmov.u32 \t%r1, 0;\n"              // 0  B0
                                    "$L_body:\n"
                                    "\tadd.s32 \t%r1, %r1, 1;\n"         // 1  B1
                                    "\tsetp.eq.s32 \t%p2, %r1, 5;\n"     // 2
                                    "\t@%p2 bra \t$L_latch;\n"           // 3
                                    "\tadd.s32 \t%r2, %r2, 1;\n"         // 4  B2
                                    "$L_latch:\n"
                                    "\tsetp.lt.s32 \t%p1, %r1, 10;\n"    // 5  B3 (latch)
                                    "\t@%p1 bra \t$L_body;\n"            // 6
                                    "\tst.global.u32 \t[%rd1], %r2;\n"   // 7  B4 (exit block)
                                    "\tret;\n");                         // 8
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "do-while");
    ASSERT_EQ(f.blocks.size(), 5u);
    EXPECT_EQ(asSet(f.blocks[3].successors), (std::set<std::int32_t>{1, 4}));
    EXPECT_EQ(asSet(f.blocks[1].predecessors), (std::set<std::int32_t>{0, 3}));
    EXPECT_EQ(f.blocks[3].immediatePostDominator, 4); // the latch -> the loop exit
    EXPECT_EQ(f.blocks[1].immediatePostDominator, 3); // the if inside the loop -> the latch
    EXPECT_EQ(f.blocks[2].immediatePostDominator, 3);
    EXPECT_EQ(f.blocks[0].immediatePostDominator, 1);
    EXPECT_EQ(f.blocks[4].immediatePostDominator, -1);
    EXPECT_EQ(f.instructions[6].operands[0].target, 1);
}

TEST(PtxControlFlow, TopTestedLoop)
{
    const std::string text = kernel("\tmov.u32 \t%r1, 0;\n"              // 0  B0
                                    "$L_head:\n"
                                    "\tsetp.ge.s32 \t%p1, %r1, 10;\n"    // 1  B1 (header)
                                    "\t@%p1 bra \t$L_exit;\n"            // 2
                                    "\tadd.s32 \t%r1, %r1, 1;\n"         // 3  B2 (latch)
                                    "\tbra.uni \t$L_head;\n"             // 4
                                    "$L_exit:\n"
                                    "\tret;\n");                         // 5  B3
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "while");
    ASSERT_EQ(f.blocks.size(), 4u);
    EXPECT_EQ(asSet(f.blocks[1].successors), (std::set<std::int32_t>{2, 3}));
    EXPECT_EQ(asSet(f.blocks[2].successors), (std::set<std::int32_t>{1}));
    EXPECT_EQ(f.blocks[1].immediatePostDominator, 3); // the header's exit test -> after the loop
    EXPECT_EQ(f.blocks[2].immediatePostDominator, 1); // the latch always goes back to the header
    EXPECT_EQ(f.blocks[0].immediatePostDominator, 1);
    EXPECT_EQ(f.blocks[3].immediatePostDominator, -1);
}

TEST(PtxControlFlow, KernelEndingInAGuardedRet)
{
    const std::string text = kernel("\tmov.u32 \t%r1, %tid.x;\n"         // 0  B0
                                    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"     // 1
                                    "\t@%p1 bra \t$L_skip;\n"            // 2
                                    "\tadd.s32 \t%r1, %r1, 1;\n"         // 3  B1
                                    "$L_skip:\n"
                                    "\tsetp.gt.s32 \t%p2, %r1, 3;\n"     // 4  B2
                                    "\t@%p2 ret;\n");                    // 5  (falls off the end otherwise)
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "guarded ret");
    ASSERT_EQ(f.blocks.size(), 3u);
    EXPECT_EQ(f.instructions[5].op, Op::Ret);
    EXPECT_EQ(f.instructions[5].guard, reg(f, "%p2"));
    EXPECT_TRUE(f.blocks[2].successors.empty());
    EXPECT_EQ(f.blocks[0].immediatePostDominator, 2);
    EXPECT_EQ(f.blocks[1].immediatePostDominator, 2);
    EXPECT_EQ(f.blocks[2].immediatePostDominator, -1);
}

TEST(PtxControlFlow, GuardedRetInTheMiddleSplitsTheBlock)
{
    const std::string text = kernel("\tsetp.eq.s32 \t%p1, %r1, 0;\n"     // 0  B0
                                    "\t@!%p1 ret;\n"                     // 1
                                    "\tst.global.u32 \t[%rd1], %r1;\n"   // 2  B1
                                    "\tret;\n");                         // 3
    const Module module = parseModule(text);
    const Function& f = onlyFunction(module);
    expectWellFormed(f, "guarded ret midway");
    ASSERT_EQ(f.blocks.size(), 2u);
    EXPECT_TRUE(f.instructions[1].guardNegated);
    EXPECT_EQ(asSet(f.blocks[0].successors), (std::set<std::int32_t>{1}));
    // Some lanes leave, the rest run B1 and leave: they only meet again at the exit.
    EXPECT_EQ(f.blocks[0].immediatePostDominator, -1);
    EXPECT_EQ(f.blocks[1].immediatePostDominator, -1);
}

TEST(PtxControlFlow, BranchToALabelAtTheEndOfTheBody)
{
    // The label has no instruction after it. Either this is rejected as a PtxError, or it parses
    // with every branch target naming a real block; reading past the instruction list is a bug.
    const std::string text = kernel("\tsetp.eq.s32 \t%p1, %r1, 0;\n"
                                    "\t@%p1 bra \t$L_end;\n"
                                    "\tadd.s32 \t%r2, %r1, 1;\n"
                                    "$L_end:\n");
    try {
        const Module module = parseModule(text);
        const Function& f = onlyFunction(module);
        expectWellFormed(f, "label at the end");
        ASSERT_EQ(f.instructions[1].op, Op::Bra);
        // Every instruction of the text comes before the label, so the branch cannot land on any of
        // them (block 0 would restart the kernel, block 1 would run the add it skips); only an implicit
        // block after the last instruction would do.
        const std::int32_t target = f.instructions[1].operands[0].target;
        ASSERT_TRUE(target >= 0 && target < static_cast<std::int32_t>(f.blocks.size()));
        EXPECT_GE(f.blocks[target].first, 3) << "the branch to the end lands on block " << target;
    } catch (const PtxError& error) {
        EXPECT_GT(error.line(), 0) << error.what();
    }
}

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

// A call site inside inlined code names the call site's .loc, which is itself inlined: the source
// line is the user's, at the outermost call.
TEST(PtxParser, NestedInlinedAtChainsReachTheUsersLine)
{
    const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.file 1 \"user.cu\"\n.file 5 \"lib.h\"\n"
                             ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
                             "\t.loc 5 144 5, function_name $L__info_string5, inlined_at 1 50 3\n"
                             "\t.loc 5 87 13, function_name $L__info_string6, inlined_at 5 144 5\n"
                             "\tmov.u32 %r1, 1;\n\tret;\n}\n";
    const Module module = parseModule(text);
    const Instruction& mov = onlyFunction(module).instructions[0];
    EXPECT_EQ(mov.source.file, 1);
    EXPECT_EQ(mov.source.line, 50);
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

// ---- robustness -----------------------------------------------------------------------------------

// How fast the parser is belongs to a benchmark (tests/bench/ptx_parse_bench.cpp), not to this test.
TEST(PtxParser, MutatedPtxIsParsedOrRejectedWithAnInputError)
{
    std::vector<std::string> sources;
    std::set<std::string> topics;
    for (const auto& kernel : warpscope::kernels::demoKernels())
        if ((kernel.topic == "vector_add" || kernel.topic == "reduction" || kernel.topic == "transpose" ||
             kernel.topic == "histogram" || kernel.topic == "matmul") &&
            topics.insert(kernel.topic).second)
            sources.emplace_back(kernel.ptx);
    ASSERT_GE(sources.size(), 3u);

    std::mt19937 random(20240607u);
    auto below = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(random() % n); };
    const std::string replacements = ";{}[]%.,0x-@!|";
    int parsed = 0, rejected = 0;
    const int iterations = 3000;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        std::string text = sources[static_cast<std::size_t>(iteration) % sources.size()];
        std::string log;
        const int mutations = 1 + static_cast<int>(below(3));
        for (int m = 0; m < mutations && !text.empty(); ++m) {
            switch (below(5)) {
            case 0: { // delete a span
                const std::size_t at = below(text.size());
                const std::size_t length = 1 + below(std::min<std::size_t>(200, text.size() - at));
                text.erase(at, length);
                log += "delete " + std::to_string(at) + "+" + std::to_string(length) + "; ";
                break;
            }
            case 1: { // duplicate a line
                const std::size_t at = below(text.size());
                const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
                std::size_t end = text.find('\n', at);
                end = end == std::string::npos ? text.size() : end + 1;
                text.insert(end, text.substr(start, end - start) + (end == text.size() ? "\n" : ""));
                log += "duplicate line at " + std::to_string(start) + "; ";
                break;
            }
            case 2: { // swap two whitespace-separated tokens
                std::vector<std::pair<std::size_t, std::size_t>> tokens;
                for (std::size_t i = 0; i < text.size();) {
                    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
                    const std::size_t start = i;
                    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
                    if (i > start) tokens.emplace_back(start, i - start);
                }
                if (tokens.size() < 2) break;
                auto a = tokens[below(tokens.size())];
                auto b = tokens[below(tokens.size())];
                if (a.first == b.first) break;
                if (a.first > b.first) std::swap(a, b);
                const std::string first = text.substr(a.first, a.second);
                const std::string second = text.substr(b.first, b.second);
                text.replace(b.first, b.second, first);
                text.replace(a.first, a.second, second);
                log += "swap " + first + " <-> " + second + "; ";
                break;
            }
            case 3: { // replace one character
                const std::size_t at = below(text.size());
                const char c = replacements[below(replacements.size())];
                log += "replace '" + std::string(1, text[at]) + "' at " + std::to_string(at) + " with '" + c + "'; ";
                text[at] = c;
                break;
            }
            default: { // truncate
                const std::size_t at = below(text.size());
                text.resize(at);
                log += "truncate at " + std::to_string(at) + "; ";
                break;
            }
            }
        }
        try {
            const Module module = parseModule(text);
            for (const Function& function : module.functions)
                expectWellFormed(function, "iteration " + std::to_string(iteration) + ": " + log);
            ++parsed;
        } catch (const InputError&) {
            ++rejected; // PtxError is an InputError
        } catch (const std::exception& error) {
            ADD_FAILURE() << "iteration " << iteration << " (" << log << "): " << typeid(error).name() << ": "
                          << error.what();
        } catch (...) {
            ADD_FAILURE() << "iteration " << iteration << " (" << log << "): a non-standard exception";
        }
        if (HasFatalFailure() || HasNonfatalFailure())
            break;
    }
    EXPECT_GT(parsed, 0);
    EXPECT_GT(rejected, 0);
    std::printf("mutated PTX: %d parsed, %d rejected\n", parsed, rejected);
}
