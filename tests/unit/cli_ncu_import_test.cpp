// `warpscope session import-ncu FILE.csv [--out FILE.wsprof]`, run as a user would on the fixtures in
// tests/fixtures/ncu: the summary, the session written to --out and read back by the session reader,
// exit 2 with one line naming the file and line for a malformed CSV, and an --out that never
// replaces the CSV or an earlier file with nothing.
#include "cli_runner.h"
#include "session/metric_catalog.h"
#include "session/ncu_import.h"
#include "session/session_io.h"

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

using warpscope::testing_support::lineCount;
using warpscope::testing_support::runWarpscope;
namespace session = warpscope::session;

namespace {

const std::string kFixtures = std::string(WARPSCOPE_FIXTURES_DIR) + "/ncu/";

std::string tempPath(const std::string& name)
{
    return testing::TempDir() + "/cli_ncu_" + std::to_string(getpid()) + "_" + name;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

} // namespace

TEST(CliNcuImport, PrintsASummaryOfKernelsAndMetrics)
{
    const std::string csv = kFixtures + "details_metrics.csv";
    const auto result = runWarpscope("session import-ncu " + csv);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_TRUE(result.err.empty()) << result.err;
    EXPECT_NE(result.out.find("imported 3 launches from " + csv +
                              " (Nsight Compute CSV, details (one row per metric)): 15 metrics, 11 in Warpscope's "
                              "catalog, 4 kept by their ncu name"),
              std::string::npos)
        << result.out;
    // Each launch is a kernel, shown as `session show` shows one, with the catalog's plain names.
    EXPECT_NE(result.out.find("kernel #0 vectorAdd  grid 4096,1,1  block 256,1,1"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("kernel #1 scale<float> - void scale<float>(float *, float, int)  grid 1024,2,1  block 128,1,1"),
              std::string::npos) << result.out;
    EXPECT_NE(result.out.find("kernel #2 vectorAdd"), std::string::npos) << result.out;
    // Replay passes from ncu's progress lines.
    EXPECT_NE(result.out.find("metrics (9 replay passes):"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("metrics (12 replay passes):"), std::string::npos) << result.out;
    // 41.28 usecond = 41,280 ns, printed as the catalog's duration.
    EXPECT_NE(result.out.find("Kernel duration               41.3 us"), std::string::npos) << result.out;
    // 8.39 Mbyte = 8,390,000 bytes.
    EXPECT_NE(result.out.find("DRAM bytes read               8.39 MB"), std::string::npos) << result.out;
    // Unknown metrics by their ncu name, listed once and under their kernel.
    EXPECT_NE(result.out.find("kept by their ncu name (not in Warpscope's catalog):\n  dram__bytes_read.sum.per_second\n"),
              std::string::npos) << result.out;
    EXPECT_NE(result.out.find("lts__t_sectors_srcunit_tex_op_read.sum"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("not available on this GPU"), std::string::npos) << result.out; // the n/a value
}

TEST(CliNcuImport, OutWritesASessionTheReaderReadsBack)
{
    const std::string csv = kFixtures + "raw_page.csv";
    const std::string out = tempPath("raw.wsprof");
    std::remove(out.c_str());
    auto result = runWarpscope("session import-ncu " + csv + " --out " + out);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("wrote " + out), std::string::npos) << result.out;
    EXPECT_EQ(lineCount(result.out), 2) << result.out;

    const session::SessionReadResult read = session::readSessionFile(out);
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    EXPECT_TRUE(read.complete);
    const session::NcuImport expected = session::importNcuCsvFile(csv);
    ASSERT_EQ(read.session.kernels.size(), 2u);
    ASSERT_EQ(read.session.metrics.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(read.session.kernels[i].id, expected.session.kernels[i].id);
        EXPECT_EQ(read.session.kernels[i].grid, expected.session.kernels[i].grid);
        EXPECT_EQ(read.session.metrics[i].values, expected.session.metrics[i].values);
    }
    EXPECT_DOUBLE_EQ(read.session.metric("#0 matmul_naive", session::metric::kDuration).value_or(0), 1234567.0);
    ASSERT_EQ(read.session.devices.size(), 1u);
    EXPECT_EQ(read.session.devices[0].name, "NVIDIA H200");
    EXPECT_NE(read.session.header.producer.find("Nsight Compute (ncu) CSV, raw (one row per launch)"), std::string::npos);

    // The written file opens in `session show` as any session does.
    result = runWarpscope("session show " + out);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("kernel #1 matmul_tiled"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("metrics (replay passes not recorded):"), std::string::npos) << result.out; // an exported report
    std::remove(out.c_str());
}

TEST(CliNcuImport, MalformedCsvExitsTwoWithTheFileAndLine)
{
    struct Case {
        const char* file;
        const char* line;
    };
    for (const Case& c : {Case{"unterminated_quote.csv", "line 3"}, Case{"non_numeric_value.csv", "line 4"},
                          Case{"grid_outside_limits.csv", "line 2"}, Case{"missing_column.csv", "line 2"},
                          Case{"no_rows.csv", "line 3"}, Case{"empty.csv", "line 1"}}) {
        const std::string path = kFixtures + "malformed/" + c.file;
        const auto result = runWarpscope("session import-ncu " + path);
        EXPECT_EQ(result.exitCode, 2) << c.file << ": " << result.err;
        EXPECT_EQ(result.err.rfind("warpscope session import-ncu: " + path + ": " + c.line + ": ", 0), 0u) << result.err;
        EXPECT_EQ(lineCount(result.err), 1) << result.err;
        EXPECT_TRUE(result.out.empty()) << result.out;
    }
    const auto missing = runWarpscope("session import-ncu /nonexistent/results.csv");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("/nonexistent/results.csv: cannot open"), std::string::npos) << missing.err;
}

TEST(CliNcuImport, OutNeverReplacesTheCsvOrAnEarlierFileWithNothing)
{
    // A malformed CSV leaves an earlier session where it was.
    const std::string earlier = tempPath("earlier.wsprof");
    writeFile(earlier, "earlier contents\n");
    auto result = runWarpscope("session import-ncu " + kFixtures + "malformed/bad_id.csv --out " + earlier);
    EXPECT_EQ(result.exitCode, 2) << result.err;
    EXPECT_EQ(readFile(earlier), "earlier contents\n");

    // --out naming the CSV itself is refused before anything is written.
    const std::string csv = tempPath("results.csv");
    writeFile(csv, readFile(kFixtures + "details_metrics.csv"));
    result = runWarpscope("session import-ncu " + csv + " --out " + csv);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("is the CSV being imported"), std::string::npos) << result.err;
    EXPECT_EQ(readFile(csv), readFile(kFixtures + "details_metrics.csv"));

    // A folder that does not exist.
    result = runWarpscope("session import-ncu " + csv + " --out /nonexistent/folder/s.wsprof");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("warpscope session import-ncu: --out: cannot write '/nonexistent/folder/s.wsprof'"),
              std::string::npos) << result.err;
    std::remove(earlier.c_str());
    std::remove(csv.c_str());
}
