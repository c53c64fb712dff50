// The session format: round trip, refusal of unknown versions, truncated and damaged streams, the
// metric sets and the derived quantities (against hand-computed values).
#include "session/metric_catalog.h"
#include "session/session_io.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope::session;

namespace {

// A session with one of every record. The values are arbitrary test data, not a measurement.
Session sampleSession()
{
    Session s;
    s.header.producer = "session_test";
    s.header.createdUtc = "2026-11-22T10:00:00Z";
    s.header.host = "test-host";
    DeviceRecord d;
    d.name = "Test GPU (fixture, not a measurement)";
    d.chip = "TEST";
    d.computeMajor = 9;
    d.computeMinor = 0;
    d.smCount = 4;
    d.coreClockKHz = 1000000;
    d.memoryClockKHz = 500000;
    d.memoryBusWidthBits = 256;
    d.totalMemoryBytes = 1ULL << 34;
    d.l2Bytes = 1 << 20;
    d.maxThreadsPerSm = 2048;
    d.driverVersion = 13000;
    d.driverRelease = "0.0";
    d.countersAllowed = false;
    d.countersMessage = "not allowed";
    s.devices.push_back(d);
    s.ceilings = CeilingsRecord{100.5, "copy", 2000.25, "fma", 128, 4096, "attributes", 0, 0, "", 0, ""};
    KernelRecord k;
    k.id = "vector_add";
    k.entry = "vector_add";
    k.title = "Vector add";
    k.ladder = "basics";
    k.ladderRung = 2;
    k.sourceName = "kernels/vector_add/vector_add.cu";
    k.ptxHash = fnv1a64Hex("ptx");
    k.grid = {4096, 1, 1};
    k.block = {256, 2, 1};
    k.dynamicSharedBytes = 512;
    k.args = {"n=i32:1048576", "a=f32[n]:random(1)"};
    k.launchSize = "gpu";
    k.cacheControl = "all";
    k.compute = "compute_80";
    s.kernels.push_back(k);
    s.ceilings->referenceSgemmGflops = 51000.5;
    s.ceilings->referenceSgemmN = 4096;
    s.ceilings->referenceSgemmMethod = "cublasSgemm";
    s.ceilings->measuredAtomicUpdatesPerSecond = 1.5e9;
    s.ceilings->measuredAtomicMethod = "red.global.add.u32";
    HierarchyRecord h;
    h.smClockMHz = 1755;
    h.levels.push_back({"l1", 33.5, 19.1, 30000, 16384, "chase"});
    h.levels.push_back({"dram", 700, 399, 4000, 1u << 28, "chase, cold"});
    s.hierarchy = h;
    s.activities.push_back({"vector_add", {30, 10, 20}, 16, 0, 512, 0, {4096, 1, 1}, {256, 2, 1}, 0, "cuda_events"});
    s.memcpys.push_back({"vector_add", "HtoD", 4194304, 1234});
    MetricsRecord m;
    m.kernel = "vector_add";
    m.passes = 3;
    m.values = {{metric::kDuration, 1500.0}, {metric::kDramRead, 8.0e6}};
    m.units = {{metric::kDuration, "nsecond"}};
    m.unavailable = {"made__up.sum"};
    s.metrics.push_back(m);
    s.occupancies.push_back({"vector_add", 0.75, 6, 16, "warps", 1.5});
    PredictionRecord p;
    p.kernel = "vector_add";
    p.preset = "sm_90";
    p.globalLoadRequests = 65536;
    p.globalLoadSectors = 262144;
    p.ffma = 7;
    p.theoreticalOccupancy = 1.0;
    p.simulatedBlocks = 256;
    p.totalBlocks = 4096;
    s.predictions.push_back(p);
    s.checks.push_back({"vector_add", "gold", true, "c: 1048576 elements bit for bit"});
    s.progress.push_back({"counters", "vector_add", 2, 5});
    s.logs.push_back({"info", "hello \"quoted\"\nnewline"});
    s.errors.push_back({"counters_not_permitted", "no counters", "", false});
    s.end = EndRecord{"ok", 1.25};
    return s;
}

SessionReadResult readText(const std::string& text)
{
    std::istringstream in(text);
    return readSession(in);
}

} // namespace

TEST(SessionFormat, FirstLineNamesFormatAndVersion)
{
    const std::string text = formatSession(sampleSession());
    const std::string first = text.substr(0, text.find('\n'));
    EXPECT_EQ(first.rfind("{", 0), 0u);
    EXPECT_NE(first.find("\"format\":\"warpscope-session\""), std::string::npos);
    EXPECT_NE(first.find("\"version\":1"), std::string::npos);
}

TEST(SessionFormat, RoundTripKeepsEveryRecord)
{
    const Session original = sampleSession();
    const std::string text = formatSession(original);
    const SessionReadResult read = readText(text);
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    EXPECT_TRUE(read.complete);
    // Writing what was read gives the same bytes: every field survived.
    EXPECT_EQ(formatSession(read.session), text);

    const Session& s = read.session;
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].name, "Test GPU (fixture, not a measurement)");
    EXPECT_EQ(s.devices[0].computeMajor, 9);
    EXPECT_FALSE(s.devices[0].countersAllowed);
    ASSERT_TRUE(s.ceilings);
    EXPECT_DOUBLE_EQ(s.ceilings->measuredFp32Gflops, 2000.25);
    ASSERT_NE(s.findKernel("vector_add"), nullptr);
    EXPECT_EQ((s.findKernel("vector_add")->block), (Dim3{256, 2, 1}));
    EXPECT_EQ(s.activityFor("vector_add")->medianNs(), 20u);
    EXPECT_EQ(s.metricsFor("vector_add")->passes, 3);
    EXPECT_EQ(s.metric("vector_add", metric::kDramRead), 8.0e6);
    EXPECT_FALSE(s.metric("vector_add", metric::kDramWrite).has_value());
    EXPECT_EQ(s.predictionFor("vector_add")->globalLoadSectors, 262144u);
    EXPECT_EQ(s.predictionFor("vector_add")->simulatedBlocks, 256u);
    EXPECT_EQ(s.predictionFor("vector_add")->totalBlocks, 4096u);
    EXPECT_EQ(s.findKernel("vector_add")->launchSize, "gpu");
    EXPECT_EQ(s.findKernel("vector_add")->cacheControl, "all");
    EXPECT_EQ(s.findKernel("vector_add")->compute, "compute_80");
    EXPECT_NE(text.find("\"cache_control\":\"all\",\"compute\":\"compute_80\"}"), std::string::npos) << text;
    EXPECT_EQ(s.activityFor("vector_add")->timer, "cuda_events");
    EXPECT_EQ(s.ceilings->referenceSgemmN, 4096);
    EXPECT_DOUBLE_EQ(s.ceilings->measuredAtomicUpdatesPerSecond, 1.5e9);
    EXPECT_EQ(s.ceilings->measuredAtomicMethod, "red.global.add.u32");
    ASSERT_TRUE(s.hierarchy);
    ASSERT_NE(s.hierarchy->find("dram"), nullptr);
    EXPECT_DOUBLE_EQ(s.hierarchy->find("dram")->latencyNs, 399);
    EXPECT_EQ(s.hierarchy->find("tlb_miss"), nullptr);
    EXPECT_TRUE(s.checkFor("vector_add")->matches);
    EXPECT_EQ(s.logs[0].message, "hello \"quoted\"\nnewline");
    EXPECT_EQ(s.end->status, "ok");
}

TEST(SessionFormat, DamagedSampleAndHierarchyRecordsAreSkippedWithTheirLine)
{
    const std::string text =
        "{\"format\":\"warpscope-session\",\"version\":1}\n"
        "{\"type\":\"prediction\",\"kernel\":\"k\",\"simulated_blocks\":9,\"total_blocks\":4}\n"
        "{\"type\":\"hierarchy\",\"levels\":[{\"level\":\"l2\",\"latency_cycles\":-1}]}\n"
        "{\"type\":\"hierarchy\",\"levels\":[{\"latency_cycles\":3}]}\n"
        "{\"type\":\"end\",\"status\":\"ok\"}\n";
    const SessionReadResult read = readText(text);
    ASSERT_EQ(read.problems.size(), 3u);
    EXPECT_NE(read.problems[0].find("line 2: 'prediction' record: 'simulated_blocks' 9 exceeds 'total_blocks' 4"),
              std::string::npos) << read.problems[0];
    EXPECT_NE(read.problems[1].find("line 3: 'hierarchy' record: level 'l2' has a negative value"), std::string::npos)
        << read.problems[1];
    EXPECT_NE(read.problems[2].find("line 4"), std::string::npos) << read.problems[2];
    EXPECT_TRUE(read.session.predictions.empty());
    EXPECT_FALSE(read.session.hierarchy);
}

TEST(SessionFormat, GridsAndBlocksOutsideCudasLimitsAreSkippedWithTheirLine)
{
    // CUDA C++ Programming Guide, compute capabilities table: gridDim.x <= 2^31 - 1, y and z <= 65535;
    // blockDim x and y <= 1024, z <= 64, at most 1024 threads. A value outside is damage, never wrapped.
    const std::string text =
        "{\"format\":\"warpscope-session\",\"version\":1}\n"
        "{\"type\":\"kernel\",\"id\":\"a\",\"grid\":[-1,0,99999999999999],\"block\":[32,1,1]}\n"
        "{\"type\":\"kernel\",\"id\":\"b\",\"grid\":[2147483648,1,1],\"block\":[32,1,1]}\n"
        "{\"type\":\"kernel\",\"id\":\"c\",\"grid\":[1,65536,1],\"block\":[32,1,1]}\n"
        "{\"type\":\"kernel\",\"id\":\"d\",\"grid\":[1,1,1],\"block\":[64,1,65]}\n"
        "{\"type\":\"kernel\",\"id\":\"e\",\"grid\":[1,1,1],\"block\":[1024,2,1]}\n"
        "{\"type\":\"kernel\",\"id\":\"f\",\"grid\":[1.5,1,1],\"block\":[32,1,1]}\n"
        "{\"type\":\"activity\",\"kernel\":\"g\",\"grid\":[1,1,1],\"block\":[0,1,1]}\n"
        "{\"type\":\"kernel\",\"id\":\"ok\",\"grid\":[2147483647,65535,65535],\"block\":[1024,1,1]}\n"
        "{\"type\":\"end\",\"status\":\"ok\"}\n";
    const SessionReadResult read = readText(text);
    ASSERT_EQ(read.problems.size(), 7u);
    EXPECT_NE(read.problems[0].find("line 2: 'kernel' record: field 'grid' x = -1 is outside CUDA's limits "
                                    "(allowed: integers 1..2147483647)"), std::string::npos) << read.problems[0];
    EXPECT_NE(read.problems[1].find("line 3: 'kernel' record: field 'grid' x = 2147483648"), std::string::npos) << read.problems[1];
    EXPECT_NE(read.problems[2].find("line 4: 'kernel' record: field 'grid' y = 65536 is outside CUDA's limits "
                                    "(allowed: integers 1..65535)"), std::string::npos) << read.problems[2];
    EXPECT_NE(read.problems[3].find("line 5: 'kernel' record: field 'block' z = 65 is outside CUDA's limits "
                                    "(allowed: integers 1..64)"), std::string::npos) << read.problems[3];
    EXPECT_NE(read.problems[4].find("line 6: 'kernel' record: field 'block' has 2048 threads (allowed: at most 1024 per block)"),
              std::string::npos) << read.problems[4];
    EXPECT_NE(read.problems[5].find("line 7: 'kernel' record: field 'grid' x = 1.5"), std::string::npos) << read.problems[5];
    EXPECT_NE(read.problems[6].find("line 8: 'activity' record: field 'block' x = 0"), std::string::npos) << read.problems[6];
    ASSERT_EQ(read.session.kernels.size(), 1u);
    EXPECT_EQ(read.session.kernels[0].id, "ok");
    EXPECT_EQ(read.session.kernels[0].grid, (Dim3{2147483647u, 65535u, 65535u}));
    EXPECT_TRUE(read.session.activities.empty());
}

// The virtual architecture a kernel's PTX was compiled for: "compute_" and a whole number from 75 (the
// oldest CUDA 13 compiles for) to 999, or empty (a .ptx file, an older session). Anything else is
// damage: the record is skipped and its line named, one line whatever the value holds.
TEST(SessionFormat, ComputeOutsideTheVirtualArchitecturesIsSkippedWithItsLine)
{
    const std::string text =
        "{\"format\":\"warpscope-session\",\"version\":1}\n"
        "{\"type\":\"kernel\",\"id\":\"a\",\"compute\":\"sm_80\"}\n"
        "{\"type\":\"kernel\",\"id\":\"b\",\"compute\":\"compute_52\"}\n"
        "{\"type\":\"kernel\",\"id\":\"c\",\"compute\":\"compute_1000\"}\n"
        "{\"type\":\"kernel\",\"id\":\"d\",\"compute\":\"compute_90a\"}\n"
        "{\"type\":\"kernel\",\"id\":\"e\",\"compute\":\"compute_080\"}\n"
        "{\"type\":\"kernel\",\"id\":\"f\",\"compute\":80}\n"
        "{\"type\":\"kernel\",\"id\":\"g\",\"compute\":\"compute_8\\n0 <b>x</b> and a great deal more text after it\"}\n"
        "{\"type\":\"kernel\",\"id\":\"h\",\"compute\":\"compute_\"}\n"
        "{\"type\":\"kernel\",\"id\":\"new\",\"compute\":\"compute_120\"}\n"
        "{\"type\":\"kernel\",\"id\":\"oldest\",\"compute\":\"compute_75\"}\n"
        "{\"type\":\"kernel\",\"id\":\"older_session\"}\n"
        "{\"type\":\"end\",\"status\":\"ok\"}\n";
    const SessionReadResult read = readText(text);
    const std::string allowed = " is not a virtual architecture (allowed: compute_75 .. compute_999, or empty), skipped";
    const std::vector<std::string> expected = {
        "line 2: 'kernel' record: field 'compute' = \"sm_80\"" + allowed,
        "line 3: 'kernel' record: field 'compute' = \"compute_52\"" + allowed,
        "line 4: 'kernel' record: field 'compute' = \"compute_1000\"" + allowed,
        "line 5: 'kernel' record: field 'compute' = \"compute_90a\"" + allowed,
        "line 6: 'kernel' record: field 'compute' = \"compute_080\"" + allowed,
        "line 7: 'kernel' record: field 'compute' has the wrong type (number), skipped",
        "line 8: 'kernel' record: field 'compute' = \"compute_8\\n0 <b>x</b> and a great deal mo\u2026\"" + allowed,
        "line 9: 'kernel' record: field 'compute' = \"compute_\"" + allowed,
    };
    EXPECT_EQ(read.problems, expected);
    for (const std::string& problem : read.problems)
        EXPECT_EQ(problem.find('\n'), std::string::npos) << problem;
    ASSERT_EQ(read.session.kernels.size(), 3u);
    EXPECT_EQ(read.session.kernels[0].compute, "compute_120");
    EXPECT_EQ(read.session.kernels[1].compute, "compute_75");
    EXPECT_EQ(read.session.kernels[2].compute, "");
    EXPECT_TRUE(read.complete);

    EXPECT_TRUE(isRecordedComputeArch("compute_75"));
    EXPECT_TRUE(isRecordedComputeArch("compute_999"));
    EXPECT_FALSE(isRecordedComputeArch("compute_74"));
    EXPECT_FALSE(isRecordedComputeArch("compute_-80"));
    EXPECT_FALSE(isRecordedComputeArch("compute_+80"));
    EXPECT_FALSE(isRecordedComputeArch(" compute_80"));
    EXPECT_FALSE(isRecordedComputeArch(""));
}

// Sessions written before the field existed (the recorded H200 sessions, the fixtures) have no
// 'compute': they read as "" with no problem, and write it back as "".
TEST(SessionFormat, KernelRecordsWithoutComputeReadAsEmpty)
{
    const SessionReadResult read = readText(
        "{\"format\":\"warpscope-session\",\"version\":1}\n"
        "{\"type\":\"kernel\",\"id\":\"k\",\"launch_size\":\"gpu\",\"cache_control\":\"all\"}\n"
        "{\"type\":\"end\",\"status\":\"ok\"}\n");
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    ASSERT_EQ(read.session.kernels.size(), 1u);
    EXPECT_EQ(read.session.kernels[0].compute, "");
    EXPECT_NE(formatSession(read.session).find("\"compute\":\"\""), std::string::npos);
}

TEST(SessionFormat, UnknownVersionIsRefusedAndSaysSo)
{
    const SessionReadResult read = readText("{\"format\":\"warpscope-session\",\"version\":2}\n{\"type\":\"end\",\"status\":\"ok\"}\n");
    ASSERT_EQ(read.problems.size(), 1u);
    EXPECT_NE(read.problems[0].find("version 2"), std::string::npos) << read.problems[0];
    EXPECT_NE(read.problems[0].find("reads version 1"), std::string::npos) << read.problems[0];
    EXPECT_FALSE(read.headerSeen);
    EXPECT_FALSE(read.complete);
}

// Found by fuzz_session_read's target: a header whose fields had another type threw out of the reader
// (nlohmann's type_error), and a version past int was wrapped (4294967297 read as version 1).
TEST(SessionFormat, HeaderFieldsOfAnotherTypeAreProblemsNotExceptions)
{
    SessionReadResult read;
    ASSERT_NO_THROW(read = readText("{\"format\":1,\"version\":1}\n"));
    ASSERT_EQ(read.problems.size(), 1u);
    EXPECT_NE(read.problems[0].find("not a warpscope session"), std::string::npos) << read.problems[0];
    EXPECT_FALSE(read.headerSeen);

    read = readText("{\"format\":\"warpscope-session\",\"version\":4294967297}\n{\"type\":\"end\",\"status\":\"ok\"}\n");
    ASSERT_EQ(read.problems.size(), 1u);
    EXPECT_NE(read.problems[0].find("version 4294967297 is not one this build reads"), std::string::npos) << read.problems[0];
    EXPECT_FALSE(read.headerSeen);

    ASSERT_NO_THROW(read = readText("{\"format\":\"warpscope-session\",\"version\":1,\"producer\":5,\"created\":\"2026-11-24\","
                                    "\"host\":[\"x\"]}\n{\"type\":\"end\",\"status\":\"ok\"}\n"));
    EXPECT_TRUE(read.headerSeen);
    EXPECT_TRUE(read.complete); // the records after a damaged description are still read
    ASSERT_EQ(read.problems.size(), 2u);
    EXPECT_EQ(read.problems[0], "line 1: session header: field 'producer' has the wrong type (number), ignored");
    EXPECT_EQ(read.problems[1], "line 1: session header: field 'host' has the wrong type (array), ignored");
    EXPECT_EQ(read.session.header.producer, "");
    EXPECT_EQ(read.session.header.createdUtc, "2026-11-24");
    EXPECT_EQ(read.session.header.host, "");
}

// Found by fuzz_session_read: integer fields took any number, so 1e300 was cast to int (undefined
// behaviour, reported by UBSan), 99999999999 SMs were shown as 1,215,752,191 and -5 bytes of memory as
// 18446744073709551611. Like a grid outside CUDA's limits, such a record is skipped and its line named.
TEST(SessionFormat, IntegersOutsideTheirFieldsTypeAreSkippedWithTheirLine)
{
    const SessionReadResult read = readText(
        "{\"format\":\"warpscope-session\",\"version\":1}\n"
        "{\"type\":\"device\",\"ordinal\":1e300}\n"
        "{\"type\":\"device\",\"ordinal\":0,\"sm_count\":99999999999}\n"
        "{\"type\":\"device\",\"ordinal\":0,\"total_memory_bytes\":-5}\n"
        "{\"type\":\"device\",\"ordinal\":0,\"compute_capability\":[9,2.5]}\n"
        "{\"type\":\"activity\",\"kernel\":\"k\",\"durations_ns\":[5,-1]}\n"
        "{\"type\":\"device\",\"ordinal\":1,\"sm_count\":132,\"total_memory_bytes\":18446744073709551615}\n"
        "{\"type\":\"end\",\"status\":\"ok\"}\n");
    const std::vector<std::string> expected = {
        "line 2: 'device' record: field 'ordinal' = 1e+300 is not an integer in range (allowed: -2147483648..2147483647), skipped",
        "line 3: 'device' record: field 'sm_count' = 99999999999 is not an integer in range (allowed: -2147483648..2147483647), skipped",
        "line 4: 'device' record: field 'total_memory_bytes' = -5 is not an integer in range (allowed: 0..18446744073709551615), skipped",
        "line 5: 'device' record: field 'compute_capability' = 2.5 is not an integer in range (allowed: -2147483648..2147483647), skipped",
        "line 6: 'activity' record: field 'durations_ns' = -1 is not an integer in range (allowed: 0..18446744073709551615), skipped",
    };
    EXPECT_EQ(read.problems, expected);
    ASSERT_EQ(read.session.devices.size(), 1u);
    EXPECT_EQ(read.session.devices[0].ordinal, 1);
    EXPECT_EQ(read.session.devices[0].smCount, 132);
    EXPECT_EQ(read.session.devices[0].totalMemoryBytes, 18446744073709551615ull); // the largest that fits is kept
    EXPECT_TRUE(read.session.activities.empty());
    EXPECT_TRUE(read.complete);
}

TEST(SessionFormat, OtherFilesAreNotSessions)
{
    EXPECT_NE(readText("hello\n").problems.at(0).find("not a warpscope session"), std::string::npos);
    EXPECT_NE(readText("{\"format\":\"other\",\"version\":1}\n").problems.at(0).find("not a warpscope session"),
              std::string::npos);
    EXPECT_NE(readText("").problems.at(0).find("no session header"), std::string::npos);
}

TEST(SessionFormat, TruncatedStreamKeepsWhatWasRead)
{
    const std::string text = formatSession(sampleSession());
    // Cut in the middle of the metrics line: the records before it survive, the cut line and the
    // missing end are reported.
    const std::size_t cut = text.find("\"type\":\"metrics\"") + 20;
    const SessionReadResult read = readText(text.substr(0, cut));
    EXPECT_FALSE(read.complete);
    EXPECT_EQ(read.session.kernels.size(), 1u);
    EXPECT_EQ(read.session.activities.size(), 1u);
    EXPECT_TRUE(read.session.metrics.empty());
    ASSERT_EQ(read.problems.size(), 2u);
    EXPECT_NE(read.problems[0].find("not JSON"), std::string::npos) << read.problems[0];
    EXPECT_NE(read.problems[1].find("truncated"), std::string::npos) << read.problems[1];
}

TEST(SessionFormat, GarbageLinesAreSkippedWithTheirLineNumber)
{
    std::string text = formatSession(sampleSession());
    const std::size_t afterHeader = text.find('\n') + 1;
    text.insert(afterHeader, "garbage here\n[1,2]\n{\"type\":\"wat\"}\n{\"type\":\"kernel\",\"id\":\"\"}\n"
                             "{\"type\":\"activity\",\"kernel\":\"x\",\"registers_per_thread\":\"many\"}\n\n");
    const SessionReadResult read = readText(text);
    EXPECT_TRUE(read.complete);
    EXPECT_EQ(read.session.kernels.size(), 1u);
    EXPECT_EQ(read.session.activities.size(), 1u);
    ASSERT_EQ(read.problems.size(), 5u);
    EXPECT_EQ(read.problems[0].rfind("line 2: not JSON", 0), 0u) << read.problems[0];
    EXPECT_EQ(read.problems[1].rfind("line 3: a record needs", 0), 0u) << read.problems[1];
    EXPECT_EQ(read.problems[2].rfind("line 4: unknown record type 'wat'", 0), 0u) << read.problems[2];
    EXPECT_NE(read.problems[3].find("'id' is missing"), std::string::npos) << read.problems[3];
    EXPECT_NE(read.problems[4].find("'registers_per_thread' has the wrong type"), std::string::npos) << read.problems[4];
}

TEST(SessionFormat, StreamReaderTakesLinesAsTheyArrive)
{
    const std::string text = formatSession(sampleSession());
    SessionStreamReader reader;
    std::istringstream in(text);
    std::string line;
    int progressSeen = 0;
    while (std::getline(in, line)) {
        reader.feedLine(line);
        progressSeen = static_cast<int>(reader.session().progress.size());
    }
    EXPECT_EQ(progressSeen, 1);
    reader.finish();
    EXPECT_TRUE(reader.problems().empty());
    EXPECT_TRUE(reader.complete());
}

TEST(SessionFormat, MissingFileIsInputError)
{
    EXPECT_THROW(readSessionFile("/nonexistent/x.wsprof"), warpscope::InputError);
}

TEST(SessionFormat, Fnv1a64MatchesPublishedVectors)
{
    // Test vectors from the FNV reference (Fowler, Noll, Vo; isthe.com/chongo/tech/comp/fnv).
    EXPECT_EQ(fnv1a64Hex(""), "cbf29ce484222325");
    EXPECT_EQ(fnv1a64Hex("a"), "af63dc4c8601ec8c");
    EXPECT_EQ(fnv1a64Hex("foobar"), "85944171f73967e8");
}

TEST(MetricCatalog, HeadlineHasTheIssuesMetricsAndRooflineInputs)
{
    const std::vector<std::string> headline = resolveMetricSet("headline");
    for (const char* name : {metric::kDuration, metric::kWarpsActive, metric::kDramRead, metric::kDramWrite,
                             metric::kDramThroughputPct, metric::kGlobalLoadSectors, metric::kGlobalLoadRequests,
                             metric::kGlobalStoreSectors, metric::kGlobalStoreRequests, metric::kSharedLoadConflicts,
                             metric::kSharedStoreConflicts, metric::kSharedLoadWavefronts, metric::kBranchUniformPct,
                             metric::kFadd, metric::kFmul, metric::kFfma, metric::kL1HitRate, metric::kL2HitRate,
                             metric::kSmThroughputPct, metric::kSmClock, metric::kDramClock, metric::kDramBytesPeak,
                             metric::kFfmaPeak})
        EXPECT_NE(std::find(headline.begin(), headline.end(), name), headline.end()) << name;
    EXPECT_GT(resolveMetricSet("full").size(), headline.size());
    for (const MetricInfo& info : metricCatalog()) {
        EXPECT_FALSE(info.title.empty()) << info.name;
        EXPECT_FALSE(info.explanation.empty()) << info.name;
        EXPECT_FALSE(info.unit.empty()) << info.name;
    }
}

TEST(MetricCatalog, ListsAreParsedAndBadNamesRefused)
{
    EXPECT_EQ(resolveMetricSet("dram__bytes_read.sum, gpu__time_duration.sum,dram__bytes_read.sum"),
              (std::vector<std::string>{"dram__bytes_read.sum", "gpu__time_duration.sum"}));
    EXPECT_THROW(resolveMetricSet("a,,b"), warpscope::InputError);
    EXPECT_THROW(resolveMetricSet(""), warpscope::InputError);
    EXPECT_THROW(resolveMetricSet("dram bytes"), warpscope::InputError);
}

TEST(MetricCatalog, DerivedQuantitiesByHand)
{
    MetricsRecord m;
    m.values = {
        {metric::kDuration, 2000.0},             // 2 us
        {metric::kDramRead, 3.0e6},
        {metric::kDramWrite, 1.0e6},             // 4 MB in 2 us = 2e12 B/s
        {metric::kFadd, 1.0e6},
        {metric::kFmul, 1.0e6},
        {metric::kFfma, 4.0e6},                  // 1 + 1 + 8 = 10 MFLOP
        {metric::kFfmaPeak, 16896.0},            // 132 SMs x 128 lanes
        {metric::kSmClock, 1.98e9},
        {metric::kDramBytesPeak, 1024.0},
        {metric::kDramClock, 2.6e9},
        {metric::kGlobalLoadRequests, 100.0},
        {metric::kGlobalLoadSectors, 800.0},
        {metric::kSharedLoadConflicts, 31.0},
        {metric::kSharedStoreConflicts, 1.0},
    };
    const DerivedMetrics d = deriveMetrics(m);
    EXPECT_DOUBLE_EQ(d.durationSeconds, 2e-6);
    EXPECT_DOUBLE_EQ(d.dramBytes, 4e6);
    EXPECT_DOUBLE_EQ(d.fp32Flops, 10e6);
    EXPECT_DOUBLE_EQ(d.arithmeticIntensity, 2.5);
    EXPECT_DOUBLE_EQ(d.achievedFlopsPerSecond, 5e12);
    EXPECT_DOUBLE_EQ(d.achievedDramBytesPerSecond, 2e12); // from bytes / duration: no per_second metric
    EXPECT_DOUBLE_EQ(d.peakFp32FlopsPerSecond, 2.0 * 16896.0 * 1.98e9); // 66.9 TFLOP/s, H100 SXM's FP32 peak
    EXPECT_DOUBLE_EQ(d.peakDramBytesPerSecond, 1024.0 * 2.6e9);
    EXPECT_DOUBLE_EQ(d.globalLoadSectorsPerRequest, 8.0);
    EXPECT_TRUE(std::isnan(d.globalStoreSectorsPerRequest));
    EXPECT_DOUBLE_EQ(d.sharedBankConflicts, 32.0);
}

// A prediction's time (the timing model's, with how and its blind spots) survives the stream; a
// prediction without one writes none of the three fields, as older sessions have them.
TEST(SessionFormat, PredictedTimeRoundTrips)
{
    Session s;
    KernelRecord k;
    k.id = "copy";
    s.kernels.push_back(k);
    PredictionRecord p;
    p.kernel = "copy";
    p.preset = "sm_90";
    p.predictedNs = 3570.5;
    p.timeMethod = "scaled from 256 of 4,096 blocks";
    p.timeBlindSpots = {"L2-resident working set"};
    s.predictions.push_back(p);
    std::istringstream in(formatSession(s));
    const SessionReadResult read = readSession(in);
    ASSERT_EQ(read.session.predictions.size(), 1u);
    EXPECT_DOUBLE_EQ(read.session.predictions[0].predictedNs, 3570.5);
    EXPECT_EQ(read.session.predictions[0].timeMethod, "scaled from 256 of 4,096 blocks");
    EXPECT_EQ(read.session.predictions[0].timeBlindSpots, std::vector<std::string>{"L2-resident working set"});

    s.predictions[0].predictedNs = 0;
    EXPECT_EQ(formatSession(s).find("predicted_ns"), std::string::npos);
    std::istringstream negative(R"({"format":"warpscope-session","version":1}
{"type":"prediction","kernel":"copy","preset":"sm_90","predicted_ns":-1}
)");
    const SessionReadResult bad = readSession(negative);
    EXPECT_FALSE(bad.problems.empty());
}
