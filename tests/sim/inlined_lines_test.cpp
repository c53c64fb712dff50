// The line a learner wrote (issue 29, section 7): with a __device__ function inlined into a kernel,
// the PTX's .loc names the function's line with `inlined_at` the call site. A hazard in it, as in
// NVIDIA's reduce7 (warpReduceSum's __shfl_down_sync with member mask 0xff and offset 16), is
// reported at the shuffle's own line, not at the kernel's call; and the SASS nvdisasm names with
// that line is found by it.
#include "sim_test_support.h"

#include "ptx/cuda_compiler.h"
#include "ptx/ptx_parser.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// Line 5 is the shuffle; line 12 the kernel's call of warpReduceSum.
constexpr const char* kReduceTail = R"(template <typename T>
__device__ __forceinline__ T warpReduceSum(unsigned mask, T sum)
{
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(mask, sum, offset);
    return sum;
}

extern "C" __global__ void reduce_tail(int* out)
{
    int sum = threadIdx.x;
    sum = warpReduceSum<int>(0xff, sum);
    if (threadIdx.x < 8)
        out[threadIdx.x] = sum;
}
)";

} // namespace

TEST(InlinedLines, aHazardInAnInlinedFunctionIsAtItsOwnLine)
{
    const ptx::CompileResult compiled = ptx::compileCuda(kReduceTail, "reduce_tail.cu", ptx::CompileOptions{});
    ASSERT_TRUE(compiled.ok) << compiled.log;
    ASSERT_NE(compiled.ptx.find("inlined_at"), std::string::npos) << "NVRTC inlined warpReduceSum";
    const CompiledKernel kernel = compileKernel(kReduceTail, "reduce_tail");
    sim::SimOptions options;
    options.hostThreads = 1;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(32, 0))},
                                                   options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const sim::Hazard* shuffle = nullptr;
    for (const sim::Hazard& hazard : result.hazards)
        if (hazard.kind == sim::HazardKind::ShflInactiveSource)
            shuffle = &hazard;
    ASSERT_NE(shuffle, nullptr);
    EXPECT_EQ(shuffle->source.line, 5) << shuffle->message;

    // Every shfl of the PTX is at line 5; the kernel's own code stays at its lines (11, 13, 14).
    const ptx::Module module = ptx::parseModule(compiled.ptx);
    const ptx::Function& function = *module.findFunction("reduce_tail");
    int shuffles = 0;
    for (const ptx::Instruction& instruction : function.instructions) {
        if (instruction.op == ptx::Op::Shfl) {
            EXPECT_EQ(instruction.source.line, 5) << instruction.text;
            ++shuffles;
        }
        if (instruction.op == ptx::Op::St)
            EXPECT_EQ(instruction.source.line, 14) << instruction.text;
    }
    EXPECT_EQ(shuffles, 5); // offsets 16, 8, 4, 2, 1, unrolled

    // The SASS: ptxas's line table may name warpReduceSum's instructions "line 5 inlined at line 12"
    // (then they are at the learner's line 5, whose PTX lines are the five shfl) or only the call,
    // line 12 (ptxas 13.0 does so for the five SHFL here).
    if (!ptx::findNvdisasm())
        GTEST_SKIP() << ptx::nvdisasmMissingMessage();
    ptx::SassOptions sassOptions;
    sassOptions.arch = "sm_90";
    const ptx::SassListing listing = ptx::compileSass(compiled.ptx, sassOptions);
    const ptx::PtxLinesBySource index = ptx::ptxLinesBySource(module, function);
    int sassShuffles = 0;
    for (const ptx::SassInstruction& instruction : listing.findFunction("reduce_tail")->instructions) {
        if (instruction.opcode.starts_with("SHFL")) {
            ++sassShuffles;
            ASSERT_NE(ptx::learnerLine(instruction), nullptr) << instruction.text();
            const int line = ptx::learnerLine(instruction)->line;
            EXPECT_TRUE(line == 5 || line == 12) << instruction.text() << " at line " << line;
        }
        if (instruction.lines.size() < 2)
            continue;
        EXPECT_EQ(instruction.lines[0].line, 5) << instruction.text();
        EXPECT_EQ(instruction.lines[1].line, 12) << instruction.text();
        ASSERT_NE(ptx::learnerLine(instruction), nullptr);
        EXPECT_EQ(ptx::learnerLine(instruction)->line, 5);
        int ptxShuffles = 0;
        for (std::int32_t line : ptx::ptxLinesOf(index, instruction))
            for (const ptx::Instruction& ptxInstruction : function.instructions)
                ptxShuffles += ptxInstruction.ptxLine == line && ptxInstruction.op == ptx::Op::Shfl;
        EXPECT_EQ(ptxShuffles, 5) << instruction.text();
    }
    EXPECT_EQ(sassShuffles, 5);
}
