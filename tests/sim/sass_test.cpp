// SASS from the toolkit (issue 29): ptxas -v's resource report and nvdisasm's listing parsed from
// their real text, the widths of SASS memory instructions, and the demo kernels compiled by the real
// ptxas and nvdisasm (skipped, saying why, where nvdisasm is not installed: scripts/setup.sh puts it
// in ~/.local/share/warpscope/nvdisasm).
#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "ptx/compile_cache.h"
#include "ptx/ptx_ir.h"
#include "ptx/sass.h"
#include "ptx/sass_tools.h"
#include "sim/shared_load_merge.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

using namespace warpscope;

namespace {

// ptxas 13.0's -v for two kernels and a device function, as it printed them (spills made up in the
// shape ptxas prints them).
constexpr std::string_view kPtxasLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'matmul_wmma' for 'sm_90'
ptxas info    : Function properties for matmul_wmma
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 29 registers, used 1 barriers, 2048 bytes smem, 400 bytes cmem[0]
ptxas info    : Compile time = 10.228 ms
ptxas info    : Function properties for _Z4leafPf
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'spilly' for 'sm_90'
ptxas info    : Function properties for spilly
    40 bytes stack frame, 36 bytes spill stores, 32 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers, 8 bytes lmem, 360 bytes cmem[0]
)";

// nvdisasm -gi -c's shape: a section per function, its entry mark, line comments (one inlined),
// labels, predicates and the padding after the last instruction.
constexpr std::string_view kListing = R"(	.target	sm_90

//--------------------- .text.histogram_shared_atomics --------------------------
	.section	.text.histogram_shared_atomics,"ax",@progbits
        .other          histogram_shared_atomics,@"STO_CUDA_ENTRY STV_DEFAULT"
histogram_shared_atomics:
.text.histogram_shared_atomics:
	//## File "/k/histogram.cu", line 8
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/k/histogram.cu", line 18
.L_x_3:
        /*0010*/               @!P0 LDS.128 R4, [R2+0x10] ;
	//## File "/cuda/include/device_atomic_functions.hpp", line 112 inlined at "/k/histogram.cu", line 18
        /*0020*/                   ATOMS.POPC.INC.32 RZ, [R3+URZ] ;
        /*0030*/                   EXIT ;
        /*0040*/                   NOP;
)";

std::string demoPtx(std::string_view kernelId)
{
    const kernels::DemoKernel* kernel = kernels::findDemoKernel(kernelId);
    return kernel ? std::string(kernel->ptx) : std::string();
}

// Sets an environment variable for one test and puts the old value back.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const std::string& value) : m_name(name)
    {
        if (const char* old = std::getenv(name))
            m_old = old;
        m_had = std::getenv(name) != nullptr;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnvironment()
    {
        if (m_had)
            ::setenv(m_name, m_old.c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* m_name;
    std::string m_old;
    bool m_had = false;
};

} // namespace

TEST(Sass, ptxasVerboseGivesRegistersSpillsAndSharedPerFunction)
{
    const std::vector<ptx::PtxasResources> resources = ptx::parsePtxasVerbose(kPtxasLog);
    ASSERT_EQ(resources.size(), 3u);
    EXPECT_EQ(resources[0].function, "matmul_wmma");
    EXPECT_TRUE(resources[0].entry);
    EXPECT_EQ(resources[0].registers, 29);
    EXPECT_EQ(resources[0].barriers, 1);
    EXPECT_EQ(resources[0].staticSharedBytes, 2048u);
    EXPECT_EQ(resources[0].constantBytes, 400u);
    EXPECT_EQ(resources[1].function, "_Z4leafPf"); // a device function: a frame, no register line
    EXPECT_FALSE(resources[1].entry);
    EXPECT_EQ(resources[1].registers, -1);
    EXPECT_EQ(resources[1].stackFrameBytes, 16u);
    EXPECT_EQ(resources[2].function, "spilly");
    EXPECT_EQ(resources[2].registers, 24);
    EXPECT_EQ(resources[2].stackFrameBytes, 40u);
    EXPECT_EQ(resources[2].spillStoreBytes, 36u);
    EXPECT_EQ(resources[2].spillLoadBytes, 32u);
    EXPECT_EQ(resources[2].localBytes, 8u);
    EXPECT_EQ(resources[2].staticSharedBytes, 0u);
}

TEST(Sass, nvdisasmListingGivesInstructionsWithTheirLines)
{
    const std::vector<ptx::SassFunction> functions = ptx::parseNvdisasm(kListing);
    ASSERT_EQ(functions.size(), 1u);
    const ptx::SassFunction& function = functions[0];
    EXPECT_EQ(function.name, "histogram_shared_atomics");
    EXPECT_TRUE(function.entry);
    ASSERT_EQ(function.instructions.size(), 5u);
    const ptx::SassInstruction& first = function.instructions[0];
    EXPECT_EQ(first.offset, 0u);
    EXPECT_EQ(first.opcode, "LDC");
    EXPECT_EQ(first.operands, "R1, c[0x0][0x28]");
    ASSERT_EQ(first.lines.size(), 1u);
    EXPECT_EQ(first.lines[0].file, "/k/histogram.cu");
    EXPECT_EQ(first.lines[0].line, 8);

    const ptx::SassInstruction& load = function.instructions[1];
    EXPECT_EQ(load.offset, 0x10u);
    EXPECT_EQ(load.label, ".L_x_3");
    EXPECT_EQ(load.predicate, "@!P0");
    EXPECT_EQ(load.opcode, "LDS.128");
    EXPECT_EQ(load.text(), "@!P0 LDS.128 R4, [R2+0x10]");

    const ptx::SassInstruction& atomic = function.instructions[2];
    ASSERT_EQ(atomic.lines.size(), 2u); // innermost first, then the kernel's own line
    EXPECT_EQ(atomic.lines[0].file, "/cuda/include/device_atomic_functions.hpp");
    EXPECT_EQ(atomic.lines[0].line, 112);
    ASSERT_NE(atomic.outermostLine(), nullptr);
    EXPECT_EQ(atomic.outermostLine()->file, "/k/histogram.cu");
    EXPECT_EQ(atomic.outermostLine()->line, 18);

    EXPECT_EQ(function.instructions[3].opcode, "EXIT");
    EXPECT_EQ(function.instructions[3].operands, "");
    EXPECT_EQ(function.instructions[4].opcode, "NOP"); // "NOP;" with no space
}

TEST(Sass, memoryInstructionsHaveTheirSpaceAndWidth)
{
    const auto access = [](const std::string& opcode) {
        ptx::SassInstruction instruction;
        instruction.opcode = opcode;
        return ptx::sassMemoryAccess(instruction);
    };
    ASSERT_TRUE(access("LDS.128"));
    EXPECT_EQ(access("LDS.128")->space, ptx::SassSpace::Shared);
    EXPECT_TRUE(access("LDS.128")->load);
    EXPECT_FALSE(access("LDS.128")->store);
    EXPECT_EQ(access("LDS.128")->widthBits, 128);
    EXPECT_EQ(access("LDS")->widthBits, 32);
    EXPECT_EQ(access("LDS.U.64")->widthBits, 64);
    EXPECT_EQ(access("STS.U16")->widthBits, 16);
    EXPECT_TRUE(access("STS.U16")->store);
    EXPECT_EQ(access("LDG.E.64")->space, ptx::SassSpace::Global);
    EXPECT_EQ(access("LDG.E.64")->widthBits, 64);
    EXPECT_EQ(access("STG.E.128")->widthBits, 128);
    EXPECT_EQ(access("LDG.E.U8")->widthBits, 8);
    EXPECT_TRUE(access("ATOMS.POPC.INC.32")->load);
    EXPECT_TRUE(access("ATOMS.POPC.INC.32")->store);
    EXPECT_EQ(access("LDSM.16.M88.4")->widthBits, 128); // four 8x8 matrices: one register each
    EXPECT_EQ(access("LDSM.16.MT88.2")->widthBits, 64);
    EXPECT_EQ(access("STL.64")->space, ptx::SassSpace::Local);
    EXPECT_EQ(access("LDCU.64")->space, ptx::SassSpace::Constant);
    EXPECT_FALSE(access("FFMA"));
    EXPECT_FALSE(access("BAR.SYNC.DEFER_BLOCKING"));
}

TEST(Sass, ptxasReportsTheTiledMatmulsRegistersAndItsTwoTiles)
{
    if (!ptx::findPtxas())
        GTEST_SKIP() << ptx::ptxasMissingMessage();
    ptx::SassOptions options;
    options.arch = "sm_90";
    const std::vector<ptx::PtxasResources> resources = ptx::ptxasResources(demoPtx("matmul_tiled"), options);
    const ptx::PtxasResources* tiled = nullptr;
    for (const ptx::PtxasResources& entry : resources)
        if (entry.function == "matmul_tiled")
            tiled = &entry;
    ASSERT_NE(tiled, nullptr);
    EXPECT_TRUE(tiled->entry);
    // __shared__ float As[16][16], Bs[16][16]: 2 x 16 x 16 x 4 B.
    EXPECT_EQ(tiled->staticSharedBytes, 2u * 16 * 16 * 4);
    EXPECT_GT(tiled->registers, 0);
    EXPECT_LE(tiled->registers, 255);
    EXPECT_EQ(tiled->spillStoreBytes, 0u);
    EXPECT_EQ(tiled->barriers, 1); // __syncthreads: barrier 0
}

TEST(Sass, theTiledMatmulsInnerLoopReadsItsRowOfAFourFloatsAtATime)
{
    if (!ptx::findNvdisasm())
        GTEST_SKIP() << ptx::nvdisasmMissingMessage();
    const std::string folder = testing::TempDir() + "/warpscope_sass_cache_" + std::to_string(::getpid());
    const ScopedEnvironment cache("WARPSCOPE_CACHE_DIR", folder);
    ptx::SassOptions options;
    options.arch = "sm_90";
    const std::string ptxText = demoPtx("matmul_tiled");
    const ptx::SassListing listing = ptx::compileSass(ptxText, options);
    const ptx::SassFunction* tiled = listing.findFunction("matmul_tiled");
    ASSERT_NE(tiled, nullptr);
    EXPECT_TRUE(tiled->entry);
    // Line 45, acc += As[ty][k] * Bs[k][tx] for k = 0..15, unrolled: ptxas reads As[ty][k..k+3]
    // (16 contiguous, 16-byte aligned bytes) with one LDS.128, 16 / 4 = 4 of them, and each Bs[k][tx]
    // (64 bytes apart) with its own 32-bit LDS: 16.
    int wide = 0;
    int scalar = 0;
    int fmas = 0;
    for (const ptx::SassInstruction& instruction : tiled->instructions) {
        const ptx::SassLocation* line = instruction.outermostLine();
        if (!line || line->line != 45 || !line->file.ends_with("matmul.cu"))
            continue;
        const auto access = ptx::sassMemoryAccess(instruction);
        if (access && access->space == ptx::SassSpace::Shared && access->load)
            (access->widthBits == 128 ? wide : scalar) += access->widthBits == 128 || access->widthBits == 32;
        fmas += instruction.opcode == "FFMA";
    }
    EXPECT_EQ(wide, 4);
    EXPECT_EQ(scalar, 16);
    EXPECT_EQ(fmas, 16);

    // The PTX lines of line 45 are every ld.shared the PTX has under `.loc 1 45` in matmul_tiled,
    // found here from the text itself.
    const ptx::Module& module = kernels::demoModule(*kernels::findDemoKernel("matmul_tiled"));
    const ptx::PtxLinesBySource index = ptx::ptxLinesBySource(module, *module.findFunction("matmul_tiled"));
    std::set<int> expected;
    {
        bool inTiled = false;
        int locLine = 0;
        int number = 0;
        std::string_view rest = ptxText;
        while (!rest.empty()) {
            const auto newline = rest.find('\n');
            const std::string_view text = rest.substr(0, newline);
            ++number;
            if (text.find(".entry matmul_tiled(") != std::string_view::npos)
                inTiled = true;
            else if (text.find(".entry ") != std::string_view::npos)
                inTiled = false;
            if (const auto loc = text.find(".loc\t1 "); loc != std::string_view::npos)
                locLine = std::atoi(std::string(text.substr(loc + 7)).c_str());
            if (inTiled && locLine == 45 && text.find("ld.shared.f32") != std::string_view::npos)
                expected.insert(number);
            if (newline == std::string_view::npos)
                break;
            rest.remove_prefix(newline + 1);
        }
    }
    ASSERT_EQ(expected.size(), 32u); // 16 of As, 16 of Bs
    const ptx::SassInstruction* anyLoad = nullptr;
    for (const ptx::SassInstruction& instruction : tiled->instructions)
        if (instruction.opcode == "LDS.128")
            anyLoad = &instruction;
    ASSERT_NE(anyLoad, nullptr);
    const std::vector<std::int32_t> lines = ptx::ptxLinesOf(index, *anyLoad);
    for (int line : expected)
        EXPECT_TRUE(std::find(lines.begin(), lines.end(), line) != lines.end()) << "PTX line " << line;

    // Cached: again from memory, and from disk once memory is cleared.
    EXPECT_FALSE(listing.fromCache);
    EXPECT_TRUE(ptx::compileSass(ptxText, options).fromCache);
    ptx::clearMemoryCompileCache();
    const ptx::SassListing fromDisk = ptx::compileSass(ptxText, options);
    EXPECT_TRUE(fromDisk.fromCache);
    ASSERT_NE(fromDisk.findFunction("matmul_tiled"), nullptr);
    EXPECT_EQ(fromDisk.findFunction("matmul_tiled")->instructions.size(), tiled->instructions.size());
    std::error_code error;
    std::filesystem::remove_all(folder, error);
}

TEST(Sass, withoutNvdisasmTheMessageSaysHowToGetIt)
{
    const std::string empty = testing::TempDir() + "/warpscope_no_nvdisasm_" + std::to_string(::getpid());
    const ScopedEnvironment cudaHome("CUDA_HOME", empty);
    const ScopedEnvironment path("PATH", empty);
    const ScopedEnvironment data("XDG_DATA_HOME", empty);
    if (const auto found = ptx::findNvdisasm())
        GTEST_SKIP() << "the toolkit this build uses has its own nvdisasm (" << found->string()
                     << "), so it cannot be missing here";
    EXPECT_EQ(ptx::nvdisasmSetupFolder(), std::filesystem::path(empty) / "warpscope" / "nvdisasm");
    try {
        ptx::SassOptions options;
        options.useCache = false;
        ptx::compileSass(demoPtx("vector_add"), options);
        FAIL() << "compileSass ran without nvdisasm";
    } catch (const ptx::SassToolMissing& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("scripts/setup.sh"), std::string::npos) << message;
        EXPECT_NE(message.find("nvidia-cuda-nvdisasm"), std::string::npos) << message;
        EXPECT_NE(message.find(empty + "/warpscope/nvdisasm/bin"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";
    }
}

TEST(Sass, anArchThatIsNotSmXXIsBadInput)
{
    ptx::SassOptions options;
    options.arch = "compute_90";
    EXPECT_THROW(ptx::ptxasResources(demoPtx("vector_add"), options), std::invalid_argument);
}

// The simulator's rule for merged shared loads (sim/shared_load_merge.h) against what ptxas did, for
// every demo kernel on sm_90: the wide shared loads in the SASS (LDS.64, LDS.128) are exactly the PTX's
// own vector loads plus the rule's groups. The rule's groups that need an alignment the PTX does not
// show are decided at run time from the addresses; ptxas left them scalar in two kernels, whose
// bases are a thread's own word: stencil_1d's s[tid + j] (only every fourth thread's is 16-byte
// aligned) and attention_fused's rows 68 bytes apart. There the SASS has fewer wide loads than the
// rule's groups, and the simulator merges nothing (stencil_1d: 7 scalar requests per warp).
TEST(Sass, mergedSharedLoadsAreTheWideLoadsPtxasMade)
{
    const std::set<std::string> alignedAtRunTime{"stencil_1d", "attention_fused"};
    if (!ptx::findNvdisasm())
        GTEST_SKIP() << ptx::nvdisasmMissingMessage();
    std::set<std::string> topics;
    for (const kernels::DemoKernel& kernel : kernels::demoKernels()) {
        if (!topics.insert(kernel.topic).second)
            continue;
        ptx::SassOptions options;
        options.arch = "sm_90";
        const ptx::SassListing listing = ptx::compileSass(kernel.ptx, options);
        const ptx::Module& module = kernels::demoModule(kernel);
        for (const std::string& entry : module.entryNames()) {
            const ptx::Function& function = *module.findFunction(entry);
            std::map<int, int> predicted; // width in bits -> count
            for (std::size_t i = 0; i < function.instructions.size(); ++i) {
                const ptx::Instruction& in = function.instructions[i];
                if (in.op != ptx::Op::Ld || in.space != ptx::Space::Shared)
                    continue;
                const int bits = static_cast<int>(ptx::typeBits(in.type)) * in.vectorWidth;
                if (bits > 32)
                    ++predicted[bits > 128 ? 128 : bits];
                const sim::SharedLoadMerge merge = sim::sharedLoadMerge(function, static_cast<std::int32_t>(i));
                if (merge.bytes > 0 && merge.leader)
                    ++predicted[static_cast<int>(merge.bytes) * 8];
            }
            std::map<int, int> made;
            for (const ptx::SassInstruction& instruction : listing.findFunction(entry)->instructions)
                if (const auto access = ptx::sassMemoryAccess(instruction);
                    access && access->space == ptx::SassSpace::Shared && access->load && !access->store &&
                    access->widthBits > 32 && instruction.opcode.starts_with("LDS."))
                    ++made[access->widthBits];
            if (!alignedAtRunTime.contains(entry)) {
                EXPECT_EQ(predicted, made) << entry;
                continue;
            }
            for (const auto& [bits, count] : made)
                EXPECT_LE(count, predicted[bits]) << entry << ": " << bits << "-bit";
        }
    }
    const kernels::DemoKernel* stencil = kernels::findDemoKernel("stencil_1d");
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(*stencil, {}, 1ull << 30);
    const sim::SimResult result = sim::simulate(kernels::demoLaunchRequest(*stencil, launch, *gpu::findPreset("sm_90")));
    EXPECT_EQ(result.stats.shared.loadRequests, launch.grid.x * (launch.block.x / 32) * 7);
}
