// The SASS behind a shuffle hazard (issue 29, section 5): which SHFL a PTX shfl became and the
// register it reads in the source lane, from nvdisasm's text (hand-made in its shape) and from the
// real ptxas and nvdisasm for a kernel shaped like NVIDIA's reduce7 (skipped without nvdisasm).
#include "sim_test_support.h"

#include "ptx/cuda_compiler.h"
#include "ptx/sass.h"
#include "ptx/sass_shuffle.h"
#include "ptx/sass_tools.h"
#include "sim/hazards.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

constexpr std::string_view kShuffles = R"(	.target	sm_90

//--------------------- .text.tail --------------------------
	.section	.text.tail,"ax",@progbits
        .other          tail,@"STO_CUDA_ENTRY STV_DEFAULT"
tail:
.text.tail:
	//## File "/k/tail.cu", line 5 inlined at "/k/tail.cu", line 12
        /*0060*/                   SHFL.DOWN PT, R0, R7, 0x10, 0x1f ;
	//## File "/k/tail.cu", line 5 inlined at "/k/tail.cu", line 12
        /*0090*/                   SHFL.DOWN PT, R3, R0, 0x8, 0x1f ;
	//## File "/k/tail.cu", line 9
        /*00a0*/                   SHFL.BFLY PT, R4, R3, 0x10, 0x1f ;
        /*00b0*/                   EXIT ;
)";

ptx::Instruction shuffle(ptx::ShflMode mode, std::uint64_t offset, int line)
{
    ptx::Instruction in;
    in.op = ptx::Op::Shfl;
    in.shfl = mode;
    in.operandCount = 5;
    in.operands[2].kind = ptx::Operand::Kind::Imm;
    in.operands[2].imm = offset;
    in.source.line = line;
    return in;
}

// The last stage of reduce7 (cuda-samples, reduction_kernel.cu): the block's 8 warp sums reduced by
// the first 8 lanes with the member mask of a ballot (0xff) and offsets from 16.
// reduce7's tail (tests/fixtures/kernels/reduce_tail.cu).
std::string reduceTail()
{
    std::ifstream file(WARPSCOPE_FIXTURES_DIR "/kernels/reduce_tail.cu");
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

} // namespace

TEST(SassShuffle, theShflOfTheSameModeAndOffsetAtTheLineAndItsSourceRegister)
{
    const std::vector<ptx::SassFunction> functions = ptx::parseNvdisasm(kShuffles);
    ASSERT_EQ(functions.size(), 1u);
    const ptx::SassFunction& tail = functions.front();
    const auto offsets = [&](const ptx::Instruction& in) {
        std::vector<std::uint32_t> found;
        for (const ptx::SassInstruction* instruction : ptx::sassShufflesOf(tail, in))
            found.push_back(instruction->offset);
        return found;
    };
    EXPECT_EQ(offsets(shuffle(ptx::ShflMode::Down, 16, 5)), (std::vector<std::uint32_t>{0x60}));
    EXPECT_EQ(offsets(shuffle(ptx::ShflMode::Down, 8, 5)), (std::vector<std::uint32_t>{0x90}));
    EXPECT_EQ(offsets(shuffle(ptx::ShflMode::Bfly, 16, 5)), (std::vector<std::uint32_t>{0xa0})); // not at line 5: by mode
    EXPECT_TRUE(offsets(shuffle(ptx::ShflMode::Up, 1, 5)).empty());
    ptx::Instruction inRegister = shuffle(ptx::ShflMode::Down, 0, 5);
    inRegister.operands[2].kind = ptx::Operand::Kind::Reg; // an offset the PTX computes: any DOWN at the line
    EXPECT_EQ(offsets(inRegister), (std::vector<std::uint32_t>{0x60, 0x90}));

    EXPECT_EQ(ptx::shuffleSourceRegister(tail.instructions[0]), "R7");
    EXPECT_EQ(ptx::shuffleSourceRegister(tail.instructions[1]), "R0");
    EXPECT_EQ(ptx::shuffleSourceRegister(tail.instructions[3]), ""); // EXIT
    EXPECT_EQ(ptx::describeSassShuffles(tail, shuffle(ptx::ShflMode::Down, 16, 5), "sm_90"),
              "SASS for sm_90: SHFL.DOWN PT, R0, R7, 0x10, 0x1f (/*0060*/): it reads R7 in the source lane");
    EXPECT_EQ(ptx::describeSassShuffles(tail, shuffle(ptx::ShflMode::Idx, 3, 5), "sm_90"),
              "SASS for sm_90: no SHFL of this mode and offset in tail");
}

// The simulator hands lanes 0-7 their own values where they read lanes 16-23 (and then 8-15), which do
// not execute the shuffle: out[0] = 4 x the sum of in[0..7] (by hand: 2v after offset 16, 4v after
// 8, then an honest tree). The hazard's line says a GPU's value depends on ptxas's registers, and the
// SASS names the SHFL.DOWN by 16 and the register it reads, as nvdisasm lists it.
TEST(SassShuffle, reduceSevensHazardNamesTheRegisterAllocationAndTheSass)
{
    const CompiledKernel kernel = compileKernel(reduceTail(), "reduce_tail");
    std::vector<std::int32_t> in(32);
    std::iota(in.begin(), in.end(), 1);
    sim::SimOptions options;
    options.hostThreads = 1;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("in", sim::ElementType::I32, in),
                                                    bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(1, 0))},
                                                   options);
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(bufferValues<std::int32_t>(result, "out")[0], 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8));
    const sim::Hazard* hazard = nullptr;
    for (const sim::Hazard& h : result.hazards)
        if (h.kind == sim::HazardKind::ShflInactiveSource && (!hazard || h.ptxLine < hazard->ptxLine))
            hazard = &h; // the first shuffle, by 16
    ASSERT_NE(hazard, nullptr);
    EXPECT_EQ(hazard->lanes, 0xffu);
    EXPECT_EQ(hazard->otherLanes, 0x00ff0000u);
    const std::string line = sim::describeHazard(*hazard);
    EXPECT_NE(line.find("depends on ptxas's register allocation"), std::string::npos) << line;
    EXPECT_NE(line.find("a GPU may well give the intended result, so a test that passes on one GPU proves nothing"),
              std::string::npos) << line;
    EXPECT_EQ(sim::hazardOnTheGpu(sim::HazardKind::SharedRace), "");

    if (!ptx::findNvdisasm())
        GTEST_SKIP() << ptx::nvdisasmMissingMessage();
    const ptx::CompileResult compiled = ptx::compileCuda(reduceTail(), "test.cu", ptx::CompileOptions{});
    ASSERT_TRUE(compiled.ok) << compiled.log;
    ptx::SassOptions sassOptions;
    sassOptions.arch = "sm_90";
    const ptx::SassListing listing = ptx::compileSass(compiled.ptx, sassOptions);
    const ptx::SassFunction& sass = *listing.findFunction("reduce_tail");
    // nvdisasm's SHFL.DOWN by 16, found here by its text: its third operand is the register read.
    std::string expected;
    for (const ptx::SassInstruction& instruction : sass.instructions)
        if (instruction.opcode == "SHFL.DOWN" && instruction.operands.find(", 0x10,") != std::string::npos) {
            const std::string& operands = instruction.operands;
            const std::size_t second = operands.find(", ", operands.find(", ") + 2) + 2;
            expected = instruction.text() + ": it reads " + operands.substr(second, operands.find(',', second) - second);
        }
    ASSERT_FALSE(expected.empty());
    std::int32_t shfl = -1;
    for (std::size_t i = 0; i < kernel.function->instructions.size(); ++i)
        if (kernel.function->instructions[i].ptxLine == hazard->ptxLine)
            shfl = static_cast<std::int32_t>(i);
    ASSERT_GE(shfl, 0);
    // NVRTC's unrolled loop passes the offset in a register set by mov.u32 %r, 16: still the one SHFL by 16.
    const std::string described = ptx::describeSassShuffles(sass, *kernel.function, shfl, "sm_90");
    EXPECT_EQ(described.rfind("SASS for sm_90: SHFL.DOWN", 0), 0u) << described;
    EXPECT_EQ(described.find("; "), std::string::npos) << described; // one SHFL, not all five
    EXPECT_NE(described.find(expected.substr(0, expected.find(':'))), std::string::npos) << described;
    EXPECT_NE(described.find(expected.substr(expected.find(": it reads "))), std::string::npos) << described;
}
