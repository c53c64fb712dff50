// The PTX front end: every demo kernel and an NVRTC-compiled kernel parse; hand-written snippets
// check basic blocks and immediate post-dominators; and mutated PTX never does anything worse than
// throw an InputError. Operands, symbol layout, line mapping, unsupported constructs and malformed
// text are in ptx_parser_operands_test.cpp.
#include "ptx_parser_test_support.h"

#include "demo_kernels.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

using namespace warpscope;
using namespace warpscope::ptx;

using namespace warpscope::ptx::parser_test;

static_assert(std::is_base_of_v<InputError, PtxError>, "PtxError must be an InputError");

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
