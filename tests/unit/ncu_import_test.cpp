// Nsight Compute CSV import (core/session/ncu_import.h) on hand-written fixtures in ncu's documented
// layouts (tests/fixtures/ncu): both layouts, thousands separators, ==PROF== lines, several launches,
// unknown metrics, the unit conversions against values worked by hand, and every malformed file
// refused with its file and line.
#include "session/metric_catalog.h"
#include "session/ncu_import.h"
#include "session/roofline.h"
#include "session/session_io.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::session;

namespace {

const std::string kFixtures = std::string(WARPSCOPE_FIXTURES_DIR) + "/ncu/";

double value(const Session& s, const std::string& kernel, const std::string& metric)
{
    const std::optional<double> v = s.metric(kernel, metric);
    EXPECT_TRUE(v.has_value()) << kernel << " " << metric;
    return v.value_or(std::nan(""));
}

std::string unitOf(const Session& s, const std::string& kernel, const std::string& metric)
{
    const MetricsRecord* m = s.metricsFor(kernel);
    if (m == nullptr || !m->units.count(metric))
        return "(none)";
    return m->units.at(metric);
}

bool contains(const std::vector<std::string>& list, const std::string& item)
{
    return std::find(list.begin(), list.end(), item) != list.end();
}

// The message a malformed text is refused with.
std::string refusal(const std::string& text, const std::string& name = "inline.csv")
{
    try {
        importNcuCsv(text, name, "2026-11-24T00:00:00Z");
    } catch (const InputError& error) {
        return error.what();
    }
    return "(accepted)";
}

const char* const kHeader = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
                            "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(const std::string& id, const std::string& kernel, const std::string& metric, const std::string& unit,
                const std::string& value)
{
    return "\"" + id + "\",\"1\",\"app\",\"host\",\"" + kernel + "\",\"1\",\"7\",\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"8.6\","
           "\"Command line profiler metrics\",\"" + metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

} // namespace

TEST(NcuImport, UnitsConvertToTheCatalogsUnits)
{
    struct Case {
        const char* unit;
        double in;
        double out;
        const char* unitOut;
        NcuDimension dimension;
    };
    // ncu's prefixes are decimal: 65,536 bytes of shared memory print as 65.54 Kbyte.
    const Case cases[] = {
        {"nsecond", 39872, 39872, "ns", NcuDimension::Time},
        {"usecond", 41.28, 41280, "ns", NcuDimension::Time},
        {"msecond", 1.25, 1250000, "ns", NcuDimension::Time},
        {"second", 0.002, 2000000, "ns", NcuDimension::Time},
        {"byte", 1024, 1024, "bytes", NcuDimension::Bytes},
        {"Kbyte", 65.54, 65540, "bytes", NcuDimension::Bytes},
        {"Mbyte", 8.39, 8390000, "bytes", NcuDimension::Bytes},
        {"Gbyte", 1.5, 1500000000, "bytes", NcuDimension::Bytes},
        {"byte/second", 4e9, 4e9, "bytes/s", NcuDimension::BytesPerSecond},
        {"Gbyte/second", 203.25, 203250000000, "bytes/s", NcuDimension::BytesPerSecond},
        {"Tbyte/second", 3.35, 3350000000000, "bytes/s", NcuDimension::BytesPerSecond},
        {"cycle/second", 1755000000, 1755000000, "Hz", NcuDimension::Frequency},
        {"cycle/nsecond", 2.62, 2620000000, "Hz", NcuDimension::Frequency},
        {"cycle/usecond", 1755, 1755000000, "Hz", NcuDimension::Frequency},
        {"Ghz", 1.76, 1760000000, "Hz", NcuDimension::Frequency},
        {"Mhz", 1755, 1755000000, "Hz", NcuDimension::Frequency},
        {"hz", 60, 60, "Hz", NcuDimension::Frequency},
        {"%", 87.5, 87.5, "%", NcuDimension::Percent},
        {"byte/cycle", 1504, 1504, "bytes/cycle", NcuDimension::BytesPerCycle},
        {"cycle", 8746, 8746, "cycle", NcuDimension::Other},
        {"Kcycle", 8.75, 8750, "cycle", NcuDimension::Other},
        {"inst", 655360, 655360, "inst", NcuDimension::Other},
        {"Minst", 2.5, 2500000, "inst", NcuDimension::Other},
        {"inst/cycle", 16896, 16896, "inst/cycle", NcuDimension::Other},
        {"register/thread", 16, 16, "register/thread", NcuDimension::Other},
        {"Kbyte/block", 1.02, 1020, "byte/block", NcuDimension::Other},
        {"", 3.5, 3.5, "", NcuDimension::None},
        {"frobs", 7, 7, "frobs", NcuDimension::Other},
    };
    for (const Case& c : cases) {
        const NcuQuantity q = convertNcuValue(c.in, c.unit);
        EXPECT_NEAR(q.value, c.out, std::abs(c.out) * 1e-12) << c.unit;
        EXPECT_EQ(q.unit, c.unitOut) << c.unit;
        EXPECT_EQ(q.dimension, c.dimension) << c.unit;
    }
}

TEST(NcuImport, NumbersWithThousandsSeparators)
{
    EXPECT_EQ(parseNcuNumber("1,234,567"), 1234567.0);
    EXPECT_EQ(parseNcuNumber("1,234.5"), 1234.5);
    EXPECT_EQ(parseNcuNumber(" 0.5 "), 0.5);
    EXPECT_EQ(parseNcuNumber("-3e-2"), -0.03);
    EXPECT_EQ(parseNcuNumber("1.5E+3"), 1500.0);
    EXPECT_EQ(parseNcuNumber("999"), 999.0);
    EXPECT_EQ(parseNcuNumber(".25"), 0.25);
    for (const char* bad : {"", "lots", "12,34", "1,2345", ",123", "1,,234", "1.2.3", "inf", "nan", "1e", "0x10", "1 234", "-", "1,234,"})
        EXPECT_FALSE(parseNcuNumber(bad).has_value()) << bad;
}

TEST(NcuImport, DetailsLayoutGivesOneKernelAndMetricsRecordPerLaunch)
{
    const std::string path = kFixtures + "details_metrics.csv";
    const NcuImport imported = importNcuCsvFile(path);
    const Session& s = imported.session;
    EXPECT_EQ(imported.layout, NcuCsvLayout::Details);

    ASSERT_EQ(s.kernels.size(), 3u);
    ASSERT_EQ(s.metrics.size(), 3u);
    EXPECT_EQ(s.kernels[0].id, "#0 vectorAdd");
    EXPECT_EQ(s.kernels[1].id, "#1 scale<float>");
    EXPECT_EQ(s.kernels[2].id, "#2 vectorAdd"); // the same kernel launched again is its own launch
    EXPECT_EQ(s.kernels[1].entry, "void scale<float>(float *, float, int)");
    EXPECT_EQ(s.kernels[1].title, "void scale<float>(float *, float, int)");
    EXPECT_EQ(s.kernels[0].title, ""); // nothing more to say than the id
    EXPECT_EQ(s.kernels[0].grid, (Dim3{4096, 1, 1}));
    EXPECT_EQ(s.kernels[0].block, (Dim3{256, 1, 1}));
    EXPECT_EQ(s.kernels[1].grid, (Dim3{1024, 2, 1}));
    EXPECT_EQ(s.kernels[1].block, (Dim3{128, 1, 1}));
    EXPECT_NE(s.kernels[0].sourceName.find("details_metrics.csv, ncu ID 0, process vector_demo (4711), stream 7"),
              std::string::npos) << s.kernels[0].sourceName;
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(s.metrics[i].kernel, s.kernels[i].id);
    // Replay passes come from ncu's progress lines ("==PROF== Profiling "scale" - 1: ... - 12 passes").
    EXPECT_EQ(s.metrics[0].passes, 9);
    EXPECT_EQ(s.metrics[1].passes, 12);
    EXPECT_EQ(s.metrics[2].passes, 9);

    // Launch 0, each value converted by hand from the fixture's unit.
    const std::string k0 = "#0 vectorAdd";
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kDuration), 41280.0);            // 41.28 usecond
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kDramRead), 8390000.0);          // 8.39 Mbyte
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kDramWrite), 4190000.0);         // 4.19 Mbyte
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kSmClock), 1760000000.0);        // 1.76 Ghz
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kDramClock), 2620000000.0);      // 2.62 cycle/nsecond
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kWarpsActive), 87.5);            // %
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kGlobalLoadSectors), 262144.0);  // "262,144"
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kGlobalLoadRequests), 65536.0);  // "65,536"
    EXPECT_DOUBLE_EQ(value(s, k0, metric::kFadd), 1048576.0);              // "1,048,576"
    // Metrics Warpscope does not know, kept by their ncu name in base units.
    EXPECT_DOUBLE_EQ(value(s, k0, "lts__t_sectors_srcunit_tex_op_read.sum"), 1310720.0);
    EXPECT_EQ(unitOf(s, k0, "lts__t_sectors_srcunit_tex_op_read.sum"), "sector");
    EXPECT_DOUBLE_EQ(value(s, k0, "dram__bytes_read.sum.per_second"), 203250000000.0); // 203.25 Gbyte/second
    EXPECT_EQ(unitOf(s, k0, "dram__bytes_read.sum.per_second"), "bytes/s");
    EXPECT_DOUBLE_EQ(value(s, k0, "launch__registers_per_thread"), 16.0);
    EXPECT_EQ(unitOf(s, k0, "launch__registers_per_thread"), "register/thread");
    EXPECT_EQ(unitOf(s, k0, metric::kDuration), "ns");
    // "n/a" is listed as unavailable, not as a value.
    const MetricsRecord* m0 = s.metricsFor(k0);
    ASSERT_NE(m0, nullptr);
    EXPECT_TRUE(contains(m0->unavailable, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"));
    EXPECT_FALSE(s.metric(k0, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active").has_value());

    const std::string k1 = "#1 scale<float>";
    EXPECT_DOUBLE_EQ(value(s, k1, metric::kDuration), 1250000.0);   // 1.25 msecond
    EXPECT_DOUBLE_EQ(value(s, k1, metric::kDramRead), 65540.0);     // 65.54 Kbyte
    EXPECT_DOUBLE_EQ(value(s, k1, metric::kDramWrite), 1024.0);     // "1,024" byte
    EXPECT_DOUBLE_EQ(value(s, k1, metric::kSmClock), 1755000000.0); // "1,755" Mhz
    // The catalog's derived quantities work on the converted values: fadd + fmul + 2 ffma.
    const DerivedMetrics d1 = deriveMetrics(*s.metricsFor(k1));
    EXPECT_DOUBLE_EQ(d1.fp32Flops, 0 + 262144 + 2 * 262144.0);
    EXPECT_DOUBLE_EQ(d1.dramBytes, 65540 + 1024.0);
    EXPECT_DOUBLE_EQ(d1.durationSeconds, 1.25e-3);
    const DerivedMetrics d0 = deriveMetrics(*m0);
    EXPECT_DOUBLE_EQ(d0.globalLoadSectorsPerRequest, 4.0);
    EXPECT_DOUBLE_EQ(value(s, "#2 vectorAdd", metric::kDuration), 39872.0); // "39,872" nsecond

    // Known and unknown, each name once over all launches.
    EXPECT_TRUE(contains(imported.knownMetrics, metric::kDuration));
    EXPECT_TRUE(contains(imported.knownMetrics, metric::kFfma));
    EXPECT_EQ(imported.knownMetrics.size(), 11u);
    EXPECT_EQ(imported.unknownMetrics,
              (std::vector<std::string>{"dram__bytes_read.sum.per_second", "launch__registers_per_thread",
                                        "lts__t_sectors_srcunit_tex_op_read.sum",
                                        "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"}));

    // Where it came from: the header, the log and the device the CSV describes.
    EXPECT_NE(s.header.producer.find("Nsight Compute (ncu) CSV"), std::string::npos) << s.header.producer;
    EXPECT_EQ(s.header.host, "gpu-box");
    EXPECT_EQ(s.header.createdUtc.size(), 20u) << s.header.createdUtc;
    ASSERT_FALSE(s.logs.empty());
    EXPECT_NE(s.logs.front().message.find("Imported from " + path), std::string::npos) << s.logs.front().message;
    EXPECT_NE(s.logs.front().message.find("3 launches, 15 metrics: 11 in Warpscope's catalog, 4 kept by their ncu name"),
              std::string::npos) << s.logs.front().message;
    bool warned = false, skipped = false;
    for (const LogRecord& log : s.logs) {
        warned = warned || (log.level == "warning" && log.message.find("line 5: ==WARNING== Fixture warning line") != std::string::npos);
        skipped = skipped || log.message.find("Skipped 2 line(s) before the header") != std::string::npos;
    }
    EXPECT_TRUE(warned);
    EXPECT_TRUE(skipped);
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].computeMajor, 9);
    EXPECT_EQ(s.devices[0].computeMinor, 0);
    EXPECT_EQ(s.devices[0].name, "GPU 0 (the CSV does not name it)");
    ASSERT_TRUE(s.end.has_value());
    EXPECT_EQ(s.end->status, "ok");
}

TEST(NcuImport, ImportedSessionIsAWholeSessionStream)
{
    const NcuImport imported = importNcuCsvFile(kFixtures + "details_metrics.csv");
    std::istringstream stream(formatSession(imported.session));
    const SessionReadResult read = readSession(stream);
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    EXPECT_TRUE(read.complete);
    ASSERT_EQ(read.session.kernels.size(), 3u);
    EXPECT_EQ(read.session.kernels[1].grid, (Dim3{1024, 2, 1}));
    EXPECT_EQ(read.session.metrics[0].values, imported.session.metrics[0].values);
    EXPECT_EQ(read.session.metrics[0].units, imported.session.metrics[0].units);
    EXPECT_EQ(read.session.header.producer, imported.session.header.producer);
}

TEST(NcuImport, RawPageGivesOneKernelPerRowWithTheUnitsRow)
{
    const NcuImport imported = importNcuCsvFile(kFixtures + "raw_page.csv");
    const Session& s = imported.session;
    EXPECT_EQ(imported.layout, NcuCsvLayout::Raw);
    ASSERT_EQ(s.kernels.size(), 2u);
    const std::string naive = "#0 matmul_naive", tiled = "#1 matmul_tiled";
    EXPECT_EQ(s.kernels[0].id, naive);
    EXPECT_EQ(s.kernels[1].id, tiled);
    EXPECT_EQ(s.kernels[0].grid, (Dim3{32, 32, 1}));
    EXPECT_EQ(s.kernels[0].block, (Dim3{32, 32, 1}));

    EXPECT_DOUBLE_EQ(value(s, naive, metric::kDuration), 1234567.0);
    EXPECT_DOUBLE_EQ(value(s, tiled, metric::kDuration), 456789.0);
    EXPECT_DOUBLE_EQ(value(s, naive, metric::kDramRead), 12582912.0);
    EXPECT_DOUBLE_EQ(value(s, naive, metric::kFfma), 1073741824.0);
    EXPECT_DOUBLE_EQ(value(s, naive, metric::kDramBytesPeak), 1504.0);
    EXPECT_DOUBLE_EQ(value(s, naive, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"), 33550000.0); // 33.55 Mbyte
    EXPECT_DOUBLE_EQ(value(s, naive, "smsp__warps_issue_stalled_long_scoreboard"), 3456.0);
    // An empty cell is a metric not collected for that launch.
    EXPECT_FALSE(s.metric(tiled, "smsp__warps_issue_stalled_long_scoreboard").has_value());
    // Text with no unit is not a metric; the display name names the device.
    EXPECT_FALSE(s.metric(naive, "launch__func_cache_config").has_value());
    EXPECT_FALSE(contains(imported.unknownMetrics, "launch__func_cache_config"));
    EXPECT_TRUE(contains(imported.unknownMetrics, "launch__grid_size"));
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].name, "NVIDIA H200");
    EXPECT_EQ(s.devices[0].smCount, 132);
    EXPECT_EQ(s.devices[0].l2Bytes, 62914560u);
    EXPECT_EQ(s.devices[0].computeMajor, 9);
    EXPECT_EQ(s.header.host, "gpu-box");
    EXPECT_EQ(s.metrics[0].passes, 0); // an exported report has no progress lines: not recorded
    EXPECT_NE(s.logs.front().message.find("Replay passes are not recorded"), std::string::npos) << s.logs.front().message;

    // The roofline works from the imported values. DRAM intensity of the naive launch:
    // 2 x 1,073,741,824 FLOP / (12,582,912 + 4,194,304) bytes = 128 FLOP/byte.
    const std::vector<KernelRoofline> rooflines = kernelRooflines(s);
    ASSERT_EQ(rooflines.size(), 2u);
    EXPECT_DOUBLE_EQ(rooflines[0].at(MemoryLevel::Dram).intensity, 128.0);
    EXPECT_DOUBLE_EQ(rooflines[0].durationSeconds, 1234567e-9);
    EXPECT_TRUE(rooflines[0].at(MemoryLevel::Dram).plotted());
    // L2: 2^31 FLOP over 536,870,912 bytes = 4 FLOP/byte.
    EXPECT_DOUBLE_EQ(rooflines[0].at(MemoryLevel::L2).intensity, 4.0);
    const RooflineRoofs roofs = rooflineRoofs(s);
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::Dram).peak.bytesPerSecond, 1504.0 * 2619000000.0);
    EXPECT_DOUBLE_EQ(roofs.peakFlopsPerSecond, 2.0 * 16896.0 * 1755000000.0);
}

TEST(NcuImport, OlderCsvWithoutGridAndBlockColumnsIsReadAndSaysSo)
{
    const NcuImport imported = importNcuCsvFile(kFixtures + "legacy_kernel_time.csv");
    const Session& s = imported.session;
    ASSERT_EQ(s.kernels.size(), 1u);
    EXPECT_EQ(s.kernels[0].id, "#0 stencil_1d");
    EXPECT_EQ(s.kernels[0].grid, (Dim3{1, 1, 1}));
    EXPECT_DOUBLE_EQ(value(s, "#0 stencil_1d", metric::kDuration), 12500.0);    // 12.5 usecond
    EXPECT_DOUBLE_EQ(value(s, "#0 stencil_1d", metric::kDramRead), 524290.0);   // 524.29 Kbyte
    EXPECT_TRUE(s.devices.empty()); // no Device or CC column: nothing to say about the GPU
    bool noted = false;
    for (const std::string& note : imported.notes)
        noted = noted || note.find("no Block Size or Grid Size column") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(NcuImport, MalformedFilesAreRefusedWithTheirFileAndLine)
{
    struct Case {
        const char* file;
        const char* where;  // file and line, as the message starts
        const char* reason;
    };
    const Case cases[] = {
        {"missing_column.csv", "missing_column.csv: line 2: ", "the header has no 'Metric Value' column"},
        {"unterminated_quote.csv", "unterminated_quote.csv: line 3: ", "field 15 opens a quote that is not closed"},
        {"non_numeric_value.csv", "non_numeric_value.csv: line 4: ", "'lots' is not a number (its unit is 'byte')"},
        {"grid_outside_limits.csv", "grid_outside_limits.csv: line 2: ",
         "Grid Size '(-1, 0, 99999999999999)': x = -1 is outside CUDA's limits (allowed: integers 1..2147483647)"},
        {"block_too_large.csv", "block_too_large.csv: line 3: ", "has 2048 threads (allowed: at most 1024 per block)"},
        {"no_rows.csv", "no_rows.csv: line 3: ", "no rows: the header is not followed by any profiled launch"},
        {"field_count.csv", "field_count.csv: line 3: ", "14 fields where the header (line 1) names 15 columns"},
        {"bad_id.csv", "bad_id.csv: line 2: ", "ID 'first' is not a number"},
        {"wrong_unit.csv", "wrong_unit.csv: line 3: ", "gpu__time_duration.sum is given in 'byte', but it is a time"},
        {"raw_without_units.csv", "raw_without_units.csv: line 2: ", "second row must give the metrics' units"},
        {"not_ncu.csv", "not_ncu.csv: line 2: ", "no Nsight Compute CSV header"},
        {"empty.csv", "empty.csv: line 1: ", "the file is empty"},
    };
    for (const Case& c : cases) {
        const std::string path = kFixtures + "malformed/" + c.file;
        std::string message = "(accepted)";
        try {
            importNcuCsvFile(path);
        } catch (const InputError& error) {
            message = error.what();
        }
        EXPECT_EQ(message.rfind(kFixtures + "malformed/" + c.where, 0), 0u) << c.file << ": " << message;
        EXPECT_NE(message.find(c.reason), std::string::npos) << c.file << ": " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message; // one line
    }
    EXPECT_NE(refusal("").find("inline.csv: line 1: the file is empty"), std::string::npos);
}

TEST(NcuImport, MoreDamageIsRefusedWithTheLine)
{
    const std::string ok = row("0", "k", "dram__bytes_read.sum", "byte", "1,024");
    // A launch whose ID names two kernels.
    EXPECT_NE(refusal(std::string(kHeader) + ok + row("0", "other", "dram__bytes_write.sum", "byte", "1")).find(
                  "inline.csv: line 3: ID 0 has Kernel Name 'other' here but 'k' on line 2"),
              std::string::npos);
    // A percentage given without a unit, and a duration in percent.
    EXPECT_NE(refusal(std::string(kHeader) + row("0", "k", metric::kWarpsActive, "", "50")).find(
                  "line 2: sm__warps_active.avg.pct_of_peak_sustained_active is given in '', but it is a percentage (%) and needs a unit"),
              std::string::npos);
    EXPECT_NE(refusal(std::string(kHeader) + row("0", "k", metric::kDuration, "%", "50")).find("line 2: gpu__time_duration.sum is given in '%'"),
              std::string::npos);
    // A count in bytes.
    EXPECT_NE(refusal(std::string(kHeader) + row("0", "k", metric::kGlobalLoadSectors, "byte", "5")).find("but it is a count"),
              std::string::npos);
    // A catalog metric whose value is text, even without a unit.
    EXPECT_NE(refusal(std::string(kHeader) + row("0", "k", metric::kFadd, "", "many")).find("line 2: the value of "),
              std::string::npos);
    // Garbage after a closing quote, an empty metric name, a bad CC, binary data.
    EXPECT_NE(refusal(std::string(kHeader) + "\"0\"x,\"1\"\n").find("line 2: field 1 has text after its closing quote"), std::string::npos);
    EXPECT_NE(refusal(std::string(kHeader) + row("0", "k", "", "byte", "1")).find("line 2: the Metric Name field is empty"),
              std::string::npos);
    std::string badCc = ok;
    badCc.replace(badCc.find("\"8.6\""), 5, "\"nine\"");
    EXPECT_NE(refusal(std::string(kHeader) + badCc).find("line 2: CC 'nine' is not a compute capability"), std::string::npos);
    EXPECT_NE(refusal(std::string("PK\x03\x04\0\0", 6) + "report").find("line 1: binary data, not CSV"), std::string::npos);
    // The raw page: one row per launch, so a repeated ID is damage.
    const std::string raw = "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n\"0\",\"k\",\"1\"\n\"0\",\"k\",\"2\"\n";
    EXPECT_NE(refusal(raw).find("line 4: ID 0 appears again (first on line 3)"), std::string::npos);
    // A header that names no metric at all.
    EXPECT_NE(refusal("\"ID\",\"Kernel Name\",\"Stream\"\n\"0\",\"k\",\"7\"\n").find("line 1: the header names no metric"),
              std::string::npos);
}

TEST(NcuImport, ProgressLinesInOtherShapesAreIgnored)
{
    const std::string text = std::string("==PROF== Profiling \"k\": 0%....50%....100% - 10 passes\n"
                                         "==PROF== Profiling \"k\" - x: 0%....100% - 3 passes\n"
                                         "==PROF== Profiling \"k\" - 4: 0%....100% - many passes\n"
                                         "==PROF== Profiling \"k\" - 5: 0%....50%....100% - 1 pass\n") +
                             kHeader + row("4", "k", metric::kDuration, "nsecond", "1") + row("5", "k", metric::kDuration, "nsecond", "2");
    const NcuImport imported = importNcuCsv(text, "progress.csv", "2026-11-24T00:00:00Z");
    ASSERT_EQ(imported.session.metrics.size(), 2u);
    EXPECT_EQ(imported.session.metrics[0].passes, 0);
    EXPECT_EQ(imported.session.metrics[1].passes, 1);
}

TEST(NcuImport, QuotesCrLfAndSectionDuplicatesAreRead)
{
    // A quote inside a kernel name is written "" ; Windows line ends; the same metric in two
    // sections keeps the first value.
    std::string text = std::string(kHeader) + row("3", "k<\"\"x\"\">", metric::kDuration, "nsecond", "1,000") +
                       row("3", "k<\"\"x\"\">", metric::kDuration, "nsecond", "2,000");
    std::string crlf;
    for (char c : text)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const NcuImport imported = importNcuCsv(crlf, "crlf.csv", "2026-11-24T00:00:00Z");
    ASSERT_EQ(imported.session.kernels.size(), 1u);
    EXPECT_EQ(imported.session.kernels[0].entry, "k<\"x\">");
    EXPECT_EQ(imported.session.header.createdUtc, "2026-11-24T00:00:00Z");
    EXPECT_DOUBLE_EQ(value(imported.session, imported.session.kernels[0].id, metric::kDuration), 1000.0);
    EXPECT_EQ(imported.session.metrics[0].passes, 0);
    EXPECT_EQ(imported.session.devices.at(0).computeMajor, 8);
    EXPECT_EQ(imported.session.devices.at(0).computeMinor, 6);
}
