// The test fixture sessions (tests/fixtures/sessions/*.wsprof), built record by record from values
// chosen here. They are not measurements: the device says so, and they never go in assets/recorded.
// The tests check the files against these builders, then compute every expected cell from the
// same values by hand. Regenerate the files with WARPSCOPE_REGENERATE_FIXTURES=1.
#pragma once

#include "session/session_io.h"
#include "session/metric_catalog.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fixtures {

using namespace warpscope::session;

inline const char* kDeviceName = "Synthetic test fixture (not a measurement)";
inline const char* kCountersMessage =
    "GPU performance counters are not permitted for this user (ERR_NVGPUCTRPERM). Allow them with the driver "
    "option NVreg_RestrictProfilingToAdminUsers=0 or run as an administrator.";

inline SessionHeader header()
{
    SessionHeader h;
    h.producer = "warpscope gui tests (fixture, not a measurement)";
    h.createdUtc = "2026-01-02T03:04:05Z";
    h.host = "fixture-host";
    return h;
}

inline DeviceRecord device(bool countersAllowed)
{
    DeviceRecord d;
    d.name = kDeviceName;
    d.chip = "FIXTURE";
    d.computeMajor = 9;
    d.computeMinor = 0;
    d.smCount = 132;
    d.coreClockKHz = 1980000;
    d.memoryClockKHz = 2619000;
    d.memoryBusWidthBits = 5120;
    d.totalMemoryBytes = 85899345920ULL;
    d.l2Bytes = 52428800;
    d.maxThreadsPerSm = 2048;
    d.maxBlocksPerSm = 32;
    d.maxThreadsPerBlock = 1024;
    d.registersPerSm = 65536;
    d.registersPerBlock = 65536;
    d.sharedPerSm = 233472;
    d.sharedPerBlock = 49152;
    d.sharedPerBlockOptin = 232448;
    d.reservedSharedPerBlock = 1024;
    d.driverVersion = 13000;
    d.driverRelease = "000.00 (fixture)";
    d.toolkitVersion = 13000;
    d.cuptiVersion = "fixture";
    d.countersAllowed = countersAllowed;
    if (!countersAllowed)
        d.countersMessage = kCountersMessage;
    return d;
}

inline CeilingsRecord ceilings()
{
    // 3,000 GB/s and 50,000 GFLOP/s measured; 3,352 GB/s and 66,908 GFLOP/s theoretical.
    return CeilingsRecord{3000.0, "fixture value, not a measurement", 50000.0, "fixture value, not a measurement",
                          3352.0, 66908.0, "fixture values", 0, 0, "", 0, ""};
}

inline KernelRecord kernel(const std::string& id, const std::string& title, int rung)
{
    KernelRecord k;
    k.id = id;
    k.entry = id;
    k.title = title;
    k.ladder = "fixture";
    k.ladderRung = rung;
    k.sourceName = "tests/fixtures/sessions (no source)";
    k.ptxHash = fnv1a64Hex(id);
    k.grid = {1024, 1, 1};
    k.block = {256, 1, 1};
    k.args = {"n=i32:262144", "in=f32[n]:random(1)", "out=f32[n]"};
    return k;
}

// Rung 1, "fixture_naive": 10 us; 12 MB of DRAM traffic; 4 MFLOP; 8 load sectors per request.
inline MetricsRecord naiveMetrics()
{
    using namespace metric;
    MetricsRecord m;
    m.kernel = "fixture_naive";
    m.passes = 7;
    m.values = {{kDuration, 10000.0},
                {kDramRead, 8.0e6},
                {kDramWrite, 4.0e6},
                {kFadd, 2.0e6},
                {kFmul, 0.0},
                {kFfma, 1.0e6},
                {kGlobalLoadSectors, 262144.0},
                {kGlobalLoadRequests, 32768.0},
                {kGlobalStoreSectors, 65536.0},
                {kGlobalStoreRequests, 16384.0},
                {kSharedLoadConflicts, 1000.0},
                {kSharedStoreConflicts, 24.0},
                {kBranchUniformPct, 87.5},
                {kWarpsActive, 62.5},
                {kL2HitRate, 50.0},
                {kL2Bytes, 24.0e6},
                {"smsp__warps_eligible.avg.per_cycle_active", 0.42}};
    m.units = {{kDuration, "nsecond"}, {"smsp__warps_eligible.avg.per_cycle_active", "warp"}};
    m.unavailable = {"l1tex__m_xbar2l1tex_read_bytes.sum"};
    return m;
}

// Rung 2, "fixture_tiled": 5 us; 8 MB of DRAM traffic; 8 MFLOP; 4 load sectors per request.
inline MetricsRecord tiledMetrics()
{
    using namespace metric;
    MetricsRecord m;
    m.kernel = "fixture_tiled";
    m.passes = 7;
    m.values = {{kDuration, 5000.0},          {kDramRead, 4.0e6},           {kDramWrite, 4.0e6},
                {kFadd, 0.0},                 {kFmul, 0.0},                 {kFfma, 4.0e6},
                {kGlobalLoadSectors, 131072.0}, {kGlobalLoadRequests, 32768.0}, {kGlobalStoreSectors, 65536.0},
                {kGlobalStoreRequests, 16384.0}, {kSharedLoadConflicts, 0.0},  {kSharedStoreConflicts, 0.0},
                {kBranchUniformPct, 100.0},   {kWarpsActive, 80.0},         {kL2HitRate, 75.0},
                {kL2Bytes, 16.0e6}};
    return m;
}

inline PredictionRecord prediction(const std::string& kernel, std::uint64_t loadSectors, std::uint64_t conflicts,
                                   std::uint64_t uniform, std::uint64_t divergent, std::uint64_t fadd, std::uint64_t ffma)
{
    PredictionRecord p;
    p.kernel = kernel;
    p.preset = "sm_90";
    p.globalLoadRequests = 32768;
    p.globalLoadSectors = loadSectors;
    p.globalStoreRequests = 16384;
    p.globalStoreSectors = 65536;
    p.sharedBankConflicts = conflicts;
    p.branchesUniform = uniform;
    p.branchesDivergent = divergent;
    p.fadd = fadd;
    p.ffma = ffma;
    p.theoreticalOccupancy = 1.0;
    return p;
}

// The two-rung ladder with every record type, in the order the probe writes them.
inline std::string ladderStream()
{
    std::ostringstream out;
    SessionWriter w(out);
    w.write(header());
    w.write(device(true));
    w.write(ceilings());
    w.write(kernel("fixture_naive", "1. Naive (fixture)", 1));
    w.write(ProgressRecord{"timing", "fixture_naive", 1, 20});
    w.write(ProgressRecord{"counters", "fixture_naive", 8, 20});
    w.write(ActivityRecord{"fixture_naive", {10000, 12000, 11000}, 16, 0, 0, 0, {1024, 1, 1}, {256, 1, 1}, 0, ""});
    w.write(MemcpyRecord{"fixture_naive", "HtoD", 1048576, 40000});
    w.write(naiveMetrics());
    w.write(OccupancyRecord{"fixture_naive", 1.0, 8, 16, "warps", 0.97});
    w.write(prediction("fixture_naive", 262144, 1024, 7, 1, 2000000, 1000000));
    w.write(CheckRecord{"fixture_naive", "gold", true, "out: 262144 elements bit for bit"});
    w.write(kernel("fixture_tiled", "2. Tiled (fixture)", 2));
    w.write(ProgressRecord{"timing", "fixture_tiled", 9, 20});
    w.write(ProgressRecord{"counters", "fixture_tiled", 16, 20});
    w.write(ActivityRecord{"fixture_tiled", {5000, 5000}, 32, 4224, 0, 0, {1024, 1, 1}, {256, 1, 1}, 0, ""});
    w.write(tiledMetrics());
    w.write(OccupancyRecord{"fixture_tiled", 1.0, 8, 32, "warps", 0.97});
    w.write(prediction("fixture_tiled", 131072, 512, 10, 0, 0, 4000000));
    w.write(CheckRecord{"fixture_tiled", "gold", true, "out: 262144 elements bit for bit"});
    w.write(LogRecord{"info", "fixture log line"});
    w.write(ErrorRecord{"fixture_notice", "A non-fatal error record, present so that every record type is read.", "", false});
    w.write(EndRecord{"ok", 2.5});
    return out.str();
}

// The ladder cut 30 characters into the second kernel's metrics line: the probe died mid-write.
inline std::string truncatedStream()
{
    const std::string full = ladderStream();
    std::size_t start = 0;
    while (start < full.size()) {
        const std::size_t end = full.find('\n', start);
        const std::string line = full.substr(start, end - start);
        if (line.find("\"type\":\"metrics\"") != std::string::npos && line.find("\"fixture_tiled\"") != std::string::npos)
            return full.substr(0, start + 30);
        start = end + 1;
    }
    return {}; // the ladder has no metrics line for fixture_tiled: the fixture test fails loudly

}

// One kernel on a machine where counters are not permitted: Activity timings, no metrics record.
inline std::string countersNotPermittedStream()
{
    std::ostringstream out;
    SessionWriter w(out);
    w.write(header());
    w.write(device(false));
    w.write(ceilings());
    w.write(ErrorRecord{"counters_not_permitted", kCountersMessage, "", false});
    w.write(kernel("fixture_naive", "1. Naive (fixture)", 1));
    w.write(ProgressRecord{"timing", "fixture_naive", 3, 3});
    w.write(ActivityRecord{"fixture_naive", {10000, 12000, 11000}, 16, 0, 0, 0, {1024, 1, 1}, {256, 1, 1}, 0, ""});
    w.write(OccupancyRecord{"fixture_naive", 1.0, 8, 16, "warps", 0.97});
    w.write(prediction("fixture_naive", 262144, 1024, 7, 1, 2000000, 1000000));
    w.write(CheckRecord{"fixture_naive", "gold", true, "out: 262144 elements bit for bit"});
    w.write(EndRecord{"ok", 0.5});
    return out.str();
}

// What a newer probe records beside the counters, on two kernels that differ in each: the launch
// size, the cache control, the kernel timer, a prediction from a sample of the grid's blocks, the
// clocks during measurement, branch counts, and the memory ladder (a hierarchy record). Values
// chosen here; the ladder converts cycles at 2,000 MHz, so 30 cycles are 15 ns.
inline std::string probeDetailsStream()
{
    using namespace metric;
    std::ostringstream out;
    SessionWriter w(out);
    w.write(header());
    w.write(device(true));
    w.write(ceilings());
    HierarchyRecord ladder;
    ladder.smClockMHz = 2000;
    ladder.levels = {{"shared", 30, 15.0, 0, 4096, "fixture: pointer chase in shared memory"},
                     {"l1", 34, 17.0, 0, 16384, "fixture: pointer chase in 16 KiB"},
                     {"l2", 260, 130.0, 11000, 8u << 20, "fixture: pointer chase in 8 MiB"},
                     {"dram", 700, 350.0, 4000, 1ull << 30, "fixture: pointer chase in 1 GiB"},
                     {"tlb_miss", 1100, 550.0, 0, 1ull << 33, "fixture: pointer chase with a 2 MiB stride"}};
    w.write(ladder);

    // 1. No branches on either side; the simulator ran 64 of the 4,096 blocks; ptxas-style merged
    // shared loads (3,072 wavefronts measured for 4,096 predicted, no conflicts); timed with CUDA
    // events, caches flushed, the demo's GPU size, compute_75 PTX.
    KernelRecord branchless = kernel("fixture_branchless", "1. Branchless (fixture)", 1);
    branchless.grid = {4096, 1, 1};
    branchless.launchSize = "gpu";
    branchless.cacheControl = "all";
    branchless.compute = "compute_75";
    w.write(branchless);
    auto activity = [](const std::string& id, std::vector<std::uint64_t> durations, Dim3 grid, const std::string& timer) {
        ActivityRecord a;
        a.kernel = id;
        a.durationsNs = std::move(durations);
        a.registersPerThread = 24;
        a.grid = grid;
        a.block = {256, 1, 1};
        a.timer = timer;
        return a;
    };
    w.write(activity("fixture_branchless", {20000, 21000, 20500}, {4096, 1, 1}, "cuda_events"));
    MetricsRecord branchlessMetrics;
    branchlessMetrics.kernel = "fixture_branchless";
    branchlessMetrics.passes = 9;
    branchlessMetrics.values = {{kDuration, 20000.0},         {kDramRead, 4.0e6},          {kDramWrite, 4.0e6},
                                {kFadd, 1.0e6},               {kFmul, 0.0},                {kFfma, 0.0},
                                {kGlobalLoadSectors, 131072.0}, {kGlobalLoadRequests, 32768.0},
                                {kGlobalStoreSectors, 131072.0}, {kGlobalStoreRequests, 32768.0},
                                {kSharedLoadWavefronts, 3072.0}, {kSharedStoreWavefronts, 1024.0},
                                {kSharedLoadConflicts, 0.0},   {kSharedStoreConflicts, 0.0},
                                {kBranchUniformPct, 0.0},      {kWarpsActive, 75.0},
                                {kSmClock, 1.90e9},            {kDramClock, 2.60e9}};
    w.write(branchlessMetrics);
    w.write(OccupancyRecord{"fixture_branchless", 1.0, 8, 24, "warps", 4096.0 / (8 * 132)});
    PredictionRecord branchlessPrediction = prediction("fixture_branchless", 131072, 0, 0, 0, 1000000, 0);
    branchlessPrediction.globalStoreSectors = 131072;
    branchlessPrediction.globalStoreRequests = 32768;
    branchlessPrediction.sharedLoadRequests = 4096;
    branchlessPrediction.sharedLoadWavefronts = 4096;
    branchlessPrediction.sharedStoreRequests = 1024;
    branchlessPrediction.sharedStoreWavefronts = 1024;
    branchlessPrediction.simulatedBlocks = 64;
    branchlessPrediction.totalBlocks = 4096;
    w.write(branchlessPrediction);
    w.write(CheckRecord{"fixture_branchless", "gold", true, "out: 1048576 elements bit for bit"});

    // 2. 32 PTX branches, none left in the SASS (smsp__sass_branch_targets.sum = 0); the whole grid
    // simulated; timed with CUPTI Activity, caches not flushed, the simulator's size, compute_90 PTX.
    KernelRecord predicated = kernel("fixture_predicated", "2. Predicated (fixture)", 2);
    predicated.grid = {64, 1, 1};
    predicated.launchSize = "sim";
    predicated.cacheControl = "none";
    predicated.compute = "compute_90";
    w.write(predicated);
    w.write(activity("fixture_predicated", {3000, 3000, 3000}, {64, 1, 1}, "cupti_activity"));
    MetricsRecord predicatedMetrics;
    predicatedMetrics.kernel = "fixture_predicated";
    predicatedMetrics.passes = 9;
    predicatedMetrics.values = {{kDuration, 3000.0},           {kDramRead, 65536.0},         {kDramWrite, 65536.0},
                                {kFadd, 16384.0},              {kFmul, 0.0},                 {kFfma, 0.0},
                                {kGlobalLoadSectors, 2048.0},  {kGlobalLoadRequests, 512.0}, {kGlobalStoreSectors, 2048.0},
                                {kGlobalStoreRequests, 512.0}, {kSharedLoadConflicts, 0.0},  {kSharedStoreConflicts, 0.0},
                                {kBranchUniformPct, 0.0},      {"smsp__sass_branch_targets.sum", 0.0},
                                {kWarpsActive, 20.0},          {kSmClock, 1.98e9},           {kDramClock, 2.62e9}};
    w.write(predicatedMetrics);
    w.write(OccupancyRecord{"fixture_predicated", 1.0, 8, 16, "warps", 64.0 / (8 * 132)});
    PredictionRecord predicatedPrediction = prediction("fixture_predicated", 2048, 0, 30, 2, 16384, 0);
    predicatedPrediction.globalLoadRequests = 512;
    predicatedPrediction.globalStoreRequests = 512;
    predicatedPrediction.globalStoreSectors = 2048;
    predicatedPrediction.simulatedBlocks = 64;
    predicatedPrediction.totalBlocks = 64;
    w.write(predicatedPrediction);
    w.write(CheckRecord{"fixture_predicated", "gold", true, "out: 16384 elements bit for bit"});
    w.write(EndRecord{"ok", 1.5});
    return out.str();
}

} // namespace fixtures
