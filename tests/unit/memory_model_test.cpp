// The memory view's numbers (viz/memory/memory_model.h) against values worked out by hand: which
// level served each sector, the launch's bytes per level, the comparison with a session, and the
// latency-hiding timeline built from trace events.
#include "memory/memory_model.h"

#include "session/session.h"
#include "sim/timing_model.h"

#include <gtest/gtest.h>

using namespace warpscope;
using viz::SectorLevel;

TEST(MemoryModel, SectorsAreColouredByTheLevelThatServedThem)
{
    sim::RecordedAccess load;
    load.space = ptx::Space::Global;
    load.sectors = 4;
    load.timed = true;
    load.l2Mask = 0b0100; // sector 2 hit L2
    load.dramMask = 0b1000; // sector 3 came from DRAM; 0 and 1 hit L1
    const std::vector<SectorLevel> levels = viz::sectorLevels(load);
    EXPECT_EQ(levels, (std::vector<SectorLevel>{SectorLevel::L1, SectorLevel::L1, SectorLevel::L2, SectorLevel::Dram}));

    load.timed = false; // no timing model: no level is claimed
    EXPECT_EQ(viz::sectorLevels(load), std::vector<SectorLevel>(4, SectorLevel::Unknown));

    sim::RecordedAccess wide = load; // past the 64 sectors the masks hold, the level is unknown
    wide.timed = true;
    wide.sectors = 66;
    wide.l2Mask = ~0ull;
    wide.dramMask = 0;
    const std::vector<SectorLevel> wideLevels = viz::sectorLevels(wide);
    ASSERT_EQ(wideLevels.size(), 66u);
    EXPECT_EQ(wideLevels[63], SectorLevel::L2);
    EXPECT_EQ(wideLevels[64], SectorLevel::Unknown);

    sim::RecordedAccess shared;
    shared.space = ptx::Space::Shared;
    shared.wavefronts = 32;
    EXPECT_TRUE(viz::sectorLevels(shared).empty());
}

TEST(MemoryModel, FlowPerLevelFollowsTheSectorsAndTheCaches)
{
    sim::KernelStats stats;
    stats.global.loadSectors = 100;
    stats.global.storeSectors = 40;
    stats.global.atomicSectors = 2;
    stats.global.bytesRequested = 3000;
    stats.global.bytesMoved = 142 * 32;
    stats.timing.available = true;
    stats.timing.l1Hits = 30;
    stats.timing.l1Misses = 70;
    stats.timing.l2Hits = 20;
    stats.timing.l2Misses = 50;
    stats.timing.dramBytes = (50 + 40) * 32; // load misses, and every stored sector
    const viz::MemoryFlow flow = viz::simulatedFlow(stats);
    EXPECT_DOUBLE_EQ(flow.requestedBytes, 3000);
    EXPECT_DOUBLE_EQ(flow.l1Bytes, 142 * 32);
    EXPECT_DOUBLE_EQ(flow.l2Bytes, (70 + 40 + 2) * 32); // L1 load misses + stores + atomics
    EXPECT_DOUBLE_EQ(flow.dramBytes, 90 * 32);
    ASSERT_TRUE(flow.l1HitRate && flow.l2HitRate);
    EXPECT_DOUBLE_EQ(*flow.l1HitRate, 0.3);
    EXPECT_DOUBLE_EQ(*flow.l2HitRate, 20.0 / 70.0);

    stats.timing.available = false; // without the timing model: no cache figures at all
    const viz::MemoryFlow untimed = viz::simulatedFlow(stats);
    EXPECT_FALSE(untimed.timed);
    EXPECT_FALSE(untimed.l1HitRate.has_value());
    EXPECT_DOUBLE_EQ(untimed.dramBytes, 0);
}

TEST(MemoryModel, MeasuredBytesAreComparedOnlyForTheSameLaunch)
{
    session::Session session;
    session::DeviceRecord device;
    device.name = "NVIDIA H200";
    session.devices.push_back(device);
    session::KernelRecord kernel;
    kernel.id = "copy_coalesced";
    kernel.grid = {4096, 1, 1};
    kernel.block = {256, 1, 1};
    kernel.args = {"in=f32[n]:random(1)", "out=f32[n]", "n=i32:1048576"};
    session.kernels.push_back(kernel);
    session::MetricsRecord metrics;
    metrics.kernel = "copy_coalesced";
    metrics.values = {{"l1tex__t_bytes.sum", 8388608.0},
                      {"lts__t_bytes.sum", 9000000.0},
                      {"dram__bytes_read.sum", 256.0},
                      {"dram__bytes_write.sum", 19968.0},
                      {"l1tex__t_sector_hit_rate.pct", 0.0},
                      {"lts__t_sector_hit_rate.pct", 99.5}};
    session.metrics.push_back(metrics);

    const launch::Dim3 grid{4096, 1, 1}, block{256, 1, 1};
    const viz::MeasuredFlow same = viz::measuredFlow(session, "copy_coalesced", grid, block, kernel.args);
    ASSERT_TRUE(same.flow.has_value()) << same.note;
    EXPECT_DOUBLE_EQ(same.flow->l1Bytes, 8388608.0);
    EXPECT_DOUBLE_EQ(same.flow->l2Bytes, 9000000.0);
    EXPECT_DOUBLE_EQ(same.flow->dramBytes, 256.0 + 19968.0);
    EXPECT_DOUBLE_EQ(*same.flow->l2HitRate, 0.995);
    EXPECT_EQ(same.note, "Measured on the NVIDIA H200 by warpscope-probe (CUPTI).");

    const viz::MeasuredFlow otherBlock = viz::measuredFlow(session, "copy_coalesced", {8192, 1, 1}, {128, 1, 1}, kernel.args);
    EXPECT_FALSE(otherBlock.flow.has_value());
    EXPECT_NE(otherBlock.note.find("grid 4096,1,1, block 256,1,1"), std::string::npos) << otherBlock.note;
    EXPECT_NE(otherBlock.note.find("this run is grid 8192,1,1, block 128,1,1"), std::string::npos) << otherBlock.note;

    std::vector<std::string> otherArgs = kernel.args;
    otherArgs.back() = "n=i32:4096";
    EXPECT_FALSE(viz::measuredFlow(session, "copy_coalesced", grid, block, otherArgs).flow.has_value());

    // Without l1tex__t_bytes (not in the headline set) the other levels are still compared; a hit
    // rate ncu reports past 100 % is shown as 100 % and the note gives the reported value and why.
    session.metrics.front().values.erase("l1tex__t_bytes.sum");
    session.metrics.front().values["lts__t_sector_hit_rate.pct"] = 105.6;
    const viz::MeasuredFlow partial = viz::measuredFlow(session, "copy_coalesced", grid, block, kernel.args);
    ASSERT_TRUE(partial.flow.has_value()) << partial.note;
    EXPECT_FALSE(partial.flow->l1Known);
    EXPECT_DOUBLE_EQ(partial.flow->l2Bytes, 9000000.0);
    EXPECT_DOUBLE_EQ(*partial.flow->l2HitRate, 1.0);
    EXPECT_NE(partial.note.find("L1 bytes were not measured"), std::string::npos) << partial.note;
    EXPECT_NE(partial.note.find("lts__t_sector_hit_rate.pct reported 105.6 %, shown as 100 % (not a share: ncu counts hits "
                                "and lookups in separate replay passes"),
              std::string::npos)
        << partial.note;

    const viz::MeasuredFlow missing = viz::measuredFlow(session, "vector_add", grid, block, kernel.args);
    EXPECT_FALSE(missing.flow.has_value());
    EXPECT_EQ(missing.note, "The open session did not measure vector_add.");
}

TEST(MemoryModel, TimelineRowsHoldEachWarpsIssuesAndWaits)
{
    sim::Trace trace;
    auto issue = [&](std::uint32_t block, std::uint16_t warp, std::uint64_t cycle, std::uint32_t waited,
                     sim::StallReason why) {
        sim::TraceEvent event;
        event.block = block;
        event.warp = warp;
        event.sm = static_cast<std::uint16_t>(block % 132);
        event.cycle = cycle;
        event.stallCycles = waited;
        event.stallReason = static_cast<std::uint8_t>(why);
        trace.events.push_back(event);
    };
    issue(0, 0, 0, 0, sim::StallReason::None);
    issue(0, 0, 1, 0, sim::StallReason::None);
    issue(0, 0, 702, 700, sim::StallReason::GlobalMemory); // waited cycles 2..701 for its load
    issue(0, 1, 2, 2, sim::StallReason::NotSelected);      // ready, but warp 0 had the scheduler
    issue(132, 0, 5, 5, sim::StallReason::NotSelected);    // a second resident block on SM 0
    issue(1, 0, 0, 0, sim::StallReason::None);             // SM 1: not on this timeline

    const viz::LatencyTimeline timeline = viz::latencyTimeline(trace, 0, 4);
    ASSERT_EQ(timeline.rows.size(), 3u);
    EXPECT_EQ(timeline.rows[0].block, 0u);
    EXPECT_EQ(timeline.rows[0].warp, 0u);
    EXPECT_EQ(timeline.rows[2].block, 132u);
    const std::vector<viz::TimelineSpan>& spans = timeline.rows[0].spans;
    ASSERT_EQ(spans.size(), 4u);
    EXPECT_EQ(spans[2].begin, 2u);
    EXPECT_EQ(spans[2].end, 702u);
    EXPECT_EQ(spans[2].stall, static_cast<std::uint8_t>(sim::StallReason::GlobalMemory));
    EXPECT_EQ(spans[3].begin, 702u);
    EXPECT_EQ(spans[3].stall, 0u);
    EXPECT_EQ(timeline.issued, 5u);
    EXPECT_EQ(timeline.cycles, 703u);
    EXPECT_EQ(timeline.stallCycles[static_cast<int>(sim::StallReason::GlobalMemory)], 700u);
    EXPECT_EQ(timeline.stallCycles[static_cast<int>(sim::StallReason::NotSelected)], 7u);
    EXPECT_DOUBLE_EQ(timeline.issueSlotShare(), 5.0 / (4.0 * 703.0));
}

TEST(MemoryModel, TimelineBlocksAreTheFirstWaveOnTheRecordedBlocksSm)
{
    EXPECT_EQ(viz::timelineBlocks(0, 4096, 132, 8), (std::vector<std::uint64_t>{0, 132, 264, 396, 528, 660, 792, 924}));
    EXPECT_EQ(viz::timelineBlocks(133, 4096, 132, 2), (std::vector<std::uint64_t>{1, 133}));
    EXPECT_EQ(viz::timelineBlocks(3, 200, 132, 8), (std::vector<std::uint64_t>{3, 135})); // the grid ends first
}

TEST(MemoryModel, EveryLevelIsLabelledWithItsSource)
{
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    const std::vector<viz::MemoryLevelFacts> facts = viz::memoryLevelFacts(preset, nullptr);
    ASSERT_EQ(facts.size(), 4u);
    EXPECT_EQ(facts[1].name, "L1 / shared memory");
    // 128 bytes per cycle per SM x 132 SMs x 1980 MHz = 33.45 TB/s.
    EXPECT_NE(facts[1].bandwidth.find("33.5 TB/s for 132 SMs at 1980 MHz"), std::string::npos) << facts[1].bandwidth;
    EXPECT_NE(facts[1].latency.find("shared 30, L1 hit 38 cycles in the model"), std::string::npos) << facts[1].latency;
    EXPECT_NE(facts[2].capacity.find("50 MB"), std::string::npos);
    EXPECT_NE(facts[3].bandwidth.find("3350 GB/s peak"), std::string::npos);
    for (const viz::MemoryLevelFacts& level : facts) { // every figure cites where it comes from
        EXPECT_NE(level.latency.find('['), std::string::npos) << level.name << ": " << level.latency;
        const bool hasNumber = level.capacity.find_first_of("0123456789") != std::string::npos;
        EXPECT_TRUE(!hasNumber || level.capacity.find('[') != std::string::npos) << level.name << ": " << level.capacity;
    }

    session::Session session; // a session adds what was measured on its GPU
    session::DeviceRecord device;
    device.name = "NVIDIA H200";
    device.l2Bytes = 62914560;
    device.totalMemoryBytes = 150109880320ull;
    session.devices.push_back(device);
    session::CeilingsRecord ceilings;
    ceilings.measuredDramGBps = 4223.3;
    session.ceilings = ceilings;
    const std::vector<viz::MemoryLevelFacts> measured = viz::memoryLevelFacts(preset, &session);
    EXPECT_NE(measured[2].capacity.find("60 MB on the NVIDIA H200 [5]"), std::string::npos) << measured[2].capacity;
    EXPECT_NE(measured[3].bandwidth.find("measured 4223 GB/s on the NVIDIA H200 [5]"), std::string::npos)
        << measured[3].bandwidth;
    EXPECT_EQ(viz::memoryFactSources().size(), 5u);
}

TEST(MemoryModel, AMeasuredLadderAddsAColumnBesideThePublishedFigures)
{
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    session::Session session;
    EXPECT_FALSE(viz::hasMeasuredLadder(&session));
    EXPECT_FALSE(viz::hasMeasuredLadder(nullptr));
    for (const viz::MemoryLevelFacts& level : viz::memoryLevelFacts(preset, &session)) // no ladder: no column
        EXPECT_TRUE(level.measured.empty() && level.measuredMethod.empty()) << level.name;

    // A hand-made ladder (not a measurement): cycles converted at 2,000 MHz, so 30 cycles = 15 ns.
    session::HierarchyRecord ladder;
    ladder.smClockMHz = 2000;
    ladder.levels = {{"shared", 30, 15.0, 0, 4096, "pointer chase in shared memory"},
                     {"l1", 34, 17.0, 0, 16384, "pointer chase in 16 KiB"},
                     {"l2", 260, 130.0, 11500, 8 << 20, "pointer chase in 8 MiB"},
                     {"dram", 700, 350.0, 4200, 1ull << 30, "pointer chase in 1 GiB, 4 KiB stride"},
                     {"tlb_miss", 1100, 550.0, 0, 1ull << 33, "pointer chase with a 2 MiB stride"}};
    session.hierarchy = ladder;
    ASSERT_TRUE(viz::hasMeasuredLadder(&session));
    const std::vector<viz::MemoryLevelFacts> facts = viz::memoryLevelFacts(preset, &session);
    ASSERT_EQ(facts.size(), 4u);
    EXPECT_EQ(facts[0].measured, "not part of the ladder");
    EXPECT_EQ(facts[1].measured, "shared 30 cycles (15 ns); L1 hit 34 cycles (17 ns) [5]");
    EXPECT_EQ(facts[1].measuredMethod, "shared: pointer chase in shared memory\nL1 hit: pointer chase in 16 KiB");
    EXPECT_EQ(facts[2].measured, "L2 hit 260 cycles (130 ns), 11500 GB/s [5]");
    EXPECT_EQ(facts[3].measured, "DRAM 700 cycles (350 ns), 4200 GB/s; with a TLB miss 1100 cycles (550 ns) [5]");
    // The published figures stay beside the measured ones.
    EXPECT_NE(facts[2].latency.find("[2]"), std::string::npos);

    // Under 10 ns with one decimal; a level measured for bandwidth only; one not measured (zeros); none for L1.
    session.hierarchy->levels = {{"shared", 19, 9.5, 0, 0, ""}, {"l2", 0, 0, 9000, 0, "read kernel"}, {"dram", 0, 0, 0, 0, ""}};
    const std::vector<viz::MemoryLevelFacts> partial = viz::memoryLevelFacts(preset, &session);
    EXPECT_EQ(partial[1].measured, "shared 19 cycles (9.5 ns) [5]");
    EXPECT_EQ(partial[1].measuredMethod, "");
    EXPECT_EQ(partial[2].measured, "L2 hit 9000 GB/s [5]");
    EXPECT_EQ(partial[3].measured, "not measured");
}
