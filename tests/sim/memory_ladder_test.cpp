// The probe's memory-ladder kernels and pointer chains, checked without a GPU: the chains are one
// cycle through every node, the chases end where a walk on the CPU ends, the bandwidth kernels
// read exactly the bytes the probe divides by (their sums equal CPU sums in the same order), and
// ptxas assembles the module for the oldest and newest presets.
#include "memory_ladder_kernels.h"
#include "gpu/gpu_preset.h"
#include "ptx/ptx_parser.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

using namespace warpscope;

namespace {

sim::ResolvedArg buffer(const std::string& name, std::vector<std::uint8_t> bytes, sim::ElementType type)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = type;
    arg.isBuffer = true;
    arg.count = bytes.size() / sim::elementBytes(type);
    arg.bytes = std::move(bytes);
    return arg;
}

sim::ResolvedArg scalar(const std::string& name, sim::ElementType type, std::uint64_t value)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = type;
    arg.scalarBits = value;
    arg.integerValue = static_cast<std::int64_t>(value);
    return arg;
}

sim::SimResult run(const ptx::Module& module, const char* entry, std::vector<sim::ResolvedArg> args, int blocks = 1,
                   int threads = 1)
{
    sim::LaunchRequest request;
    request.module = &module;
    request.function = module.findFunction(entry);
    EXPECT_NE(request.function, nullptr) << entry;
    request.grid = {blocks, 1, 1};
    request.block = {threads, 1, 1};
    request.preset = *gpu::findPreset("sm_90");
    request.options.timing = false;
    request.args = std::move(args);
    return sim::simulate(std::move(request));
}

std::uint64_t word(const std::vector<std::uint8_t>& bytes, std::size_t index)
{
    std::uint64_t value = 0;
    std::memcpy(&value, bytes.data() + 8 * index, 8);
    return value;
}

} // namespace

TEST(MemoryLadder, ChainsAreOneCycleThroughEveryNode)
{
    const std::vector<probe::ChainNode> chain = probe::pointerChain(4096, 128, 7);
    ASSERT_EQ(chain.size(), 32u); // 4,096 / 128
    EXPECT_EQ(chain.front().offset, 0u);
    std::set<std::uint64_t> offsets;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        EXPECT_EQ(chain[i].offset % 128, 0u);
        EXPECT_EQ(chain[i].next, chain[(i + 1) % chain.size()].offset);
        offsets.insert(chain[i].offset);
    }
    EXPECT_EQ(offsets.size(), 32u);
    EXPECT_EQ(probe::pointerChain(4096, 128, 7)[5].offset, chain[5].offset); // seeded: the same chain
    EXPECT_EQ(probe::walkChain(chain, 33), chain[1].offset);

    // Page by page: the 16 nodes of each 2 KiB page come before any node of the next page.
    const std::vector<probe::ChainNode> paged = probe::pointerChain(8192, 128, 3, 2048);
    for (std::size_t i = 0; i < paged.size(); ++i)
        EXPECT_EQ(paged[i].offset / 2048, i / 16) << "node " << i;
    EXPECT_THROW(probe::pointerChain(4096, 0, 1), std::invalid_argument);
    EXPECT_THROW(probe::pointerChain(4096, 6, 1), std::invalid_argument);
    EXPECT_THROW(probe::pointerChain(100, 64, 1), std::invalid_argument);
}

TEST(MemoryLadder, GlobalChasesEndWhereTheCpuWalkEnds)
{
    const ptx::Module module = ptx::parseModule(probe::memoryLadderPtx());
    const std::vector<probe::ChainNode> chain = probe::pointerChain(8192, 256, 5);
    std::vector<std::uint8_t> bytes(8192, 0);
    for (const probe::ChainNode& node : chain)
        std::memcpy(bytes.data() + node.offset, &node.next, 8);
    for (const char* entry : {probe::kChaseCaEntry, probe::kChaseCgEntry}) {
        const sim::SimResult result =
            run(module, entry,
                {buffer("chain", bytes, sim::ElementType::U64), scalar("warm", sim::ElementType::U32, 32),
                 scalar("steps", sim::ElementType::U32, 45), buffer("out", std::vector<std::uint8_t>(24, 0), sim::ElementType::U64)});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        EXPECT_EQ(word(result.args[3].bytes, 2), probe::walkChain(chain, 32 + 45)) << entry;
        // 32 warm links and 45 timed ones: one load each, plus nothing else that touches memory.
        EXPECT_EQ(result.stats.global.loadRequests, 77u) << entry;
    }
}

TEST(MemoryLadder, SharedChaseCopiesTheChainAndEndsWhereTheCpuWalkEnds)
{
    const ptx::Module module = ptx::parseModule(probe::memoryLadderPtx());
    const std::vector<probe::ChainNode> chain = probe::pointerChain(4096, 64, 11);
    std::vector<std::uint8_t> bytes(4096, 0);
    for (const probe::ChainNode& node : chain) {
        const auto next = static_cast<std::uint32_t>(node.next);
        std::memcpy(bytes.data() + node.offset, &next, 4);
    }
    const sim::SimResult result =
        run(module, probe::kChaseSharedEntry,
            {buffer("chain", bytes, sim::ElementType::U32), scalar("nodes", sim::ElementType::U32, 1024),
             scalar("warm", sim::ElementType::U32, 64), scalar("steps", sim::ElementType::U32, 100),
             buffer("out", std::vector<std::uint8_t>(24, 0), sim::ElementType::U64)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(word(result.args[4].bytes, 2), probe::walkChain(chain, 164));
    EXPECT_EQ(result.stats.shared.loadRequests, 164u); // 64 warm + 100 timed
    EXPECT_EQ(result.stats.shared.storeRequests, 1024u); // the copy, one word at a time
}

TEST(MemoryLadder, GlobalReadKernelsReadEveryVectorRepeatsTimes)
{
    const ptx::Module module = ptx::parseModule(probe::memoryLadderPtx());
    constexpr int blocks = 2, threads = 64, vectors = 300, repeats = 3;
    std::vector<std::uint8_t> bytes(vectors * 16);
    for (int i = 0; i < vectors * 4; ++i) {
        const float value = static_cast<float>(i % 17);
        std::memcpy(bytes.data() + 4 * i, &value, 4);
    }
    for (const char* entry : {probe::kReadCaEntry, probe::kReadCgEntry}) {
        const sim::SimResult result =
            run(module, entry,
                {buffer("data", bytes, sim::ElementType::F32), scalar("vectors", sim::ElementType::U64, vectors),
                 scalar("repeats", sim::ElementType::U32, repeats),
                 buffer("out", std::vector<std::uint8_t>(blocks * threads * 4, 0), sim::ElementType::F32)},
                blocks, threads);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        // Every vector read `repeats` times: bytes requested = vectors x 16 x repeats.
        EXPECT_EQ(result.stats.global.bytesRequested, std::uint64_t{vectors} * 16 * repeats + blocks * threads * 4) << entry;
        for (int t = 0; t < blocks * threads; ++t) {
            float expected = 0;
            for (int r = 0; r < repeats; ++r)
                for (int v = t; v < vectors; v += blocks * threads)
                    for (int k = 0; k < 4; ++k)
                        expected += static_cast<float>((4 * v + k) % 17);
            float got;
            std::memcpy(&got, result.args[3].bytes.data() + 4 * t, 4);
            ASSERT_EQ(got, expected) << entry << " thread " << t;
        }
    }
}

TEST(MemoryLadder, L1AndSharedReadKernelsReadTheirTileRepeatsTimesPerBlock)
{
    const ptx::Module module = ptx::parseModule(probe::memoryLadderPtx());
    constexpr int blocks = 3, threads = 128, vectors = 256, repeats = 2;
    std::vector<std::uint8_t> bytes(vectors * 16, 0);
    const sim::SimResult l1 =
        run(module, probe::kReadL1Entry,
            {buffer("data", bytes, sim::ElementType::F32), scalar("vectors", sim::ElementType::U32, vectors),
             scalar("repeats", sim::ElementType::U32, repeats),
             buffer("out", std::vector<std::uint8_t>(blocks * threads * 4, 0), sim::ElementType::F32)},
            blocks, threads);
    ASSERT_EQ(l1.status, sim::SimStatus::Completed) << l1.statusMessage;
    // Each block reads the 4 KiB tile `repeats` times; then every thread stores 4 bytes.
    EXPECT_EQ(l1.stats.global.bytesRequested, std::uint64_t{blocks} * vectors * 16 * repeats + blocks * threads * 4);

    const sim::SimResult shared =
        run(module, probe::kReadSharedEntry,
            {scalar("repeats", sim::ElementType::U32, repeats),
             buffer("out", std::vector<std::uint8_t>(blocks * threads * 4, 0), sim::ElementType::F32)},
            blocks, threads);
    ASSERT_EQ(shared.status, sim::SimStatus::Completed) << shared.statusMessage;
    // 1,024 vectors of 16 bytes per repeat per block, as the probe's byte count assumes: one
    // request per warp per vector load, 1,024 / 32 per block per repeat.
    EXPECT_EQ(shared.stats.shared.loadRequests, std::uint64_t{blocks} * repeats * probe::kSharedReadBytes / 16 / 32);
    EXPECT_EQ(shared.stats.shared.bankConflicts, 0u);
    for (int t = 0; t < blocks * threads; ++t) {
        float expected = 0;
        for (int r = 0; r < repeats; ++r)
            for (int v = t % threads; v < 1024; v += threads)
                for (int k = 0; k < 4; ++k)
                    expected += static_cast<float>((4 * v + k) & 255);
        float got;
        std::memcpy(&got, shared.args[1].bytes.data() + 4 * t, 4);
        ASSERT_EQ(got, expected) << "thread " << t;
    }
}

TEST(MemoryLadder, PtxasAssemblesIt)
{
    const std::filesystem::path ptxas = std::filesystem::path(WARPSCOPE_CUDA_BIN_DIR) / "ptxas";
    if (!std::filesystem::exists(ptxas))
        GTEST_SKIP() << "ptxas not found at " << ptxas << " (the CUDA toolkit's assembler)";
    const std::string source = testing::TempDir() + "/memory_ladder_" + std::to_string(::getpid()) + ".ptx";
    std::ofstream(source) << probe::memoryLadderPtx();
    for (const char* arch : {"sm_75", "sm_90"}) {
        const std::string command = ptxas.string() + " -arch=" + arch + " " + source + " -o " + source + ".cubin 2>&1";
        FILE* pipe = popen(command.c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        std::string output;
        char text[256];
        while (std::fgets(text, sizeof text, pipe))
            output += text;
        EXPECT_EQ(pclose(pipe), 0) << arch << ": " << output;
    }
    std::filesystem::remove(source);
    std::filesystem::remove(source + ".cubin");
}
