// cuBLAS SGEMM as the matmul ladder's reference (core/session/sgemm_reference.h), for the hand-written
// fixture tests/fixtures/sessions/matmul_cublas_reference.wsprof, against values worked out here.
//
// The fixture: cuBLAS at n = 4096 in 4 ms, so 2 x 4096^3 = 137,438,953,472 FLOP / 0.004 s =
// 34,359.738368 GFLOP/s (the ceilings record's reference_sgemm_gflops). Three matmul rungs at n = 4096,
// five timed runs each, medians 50, 12.5 and 5 ms: 2,748.779069440, 10,995.11627776 and
// 27,487.7906944 GFLOP/s, so 4 / 50 = 8 %, 4 / 12.5 = 32 % and 4 / 5 = 80 % of cuBLAS.
#include "session/sgemm_reference.h"

#include "session/session.h"
#include "session/session_io.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope::session;

namespace {

const std::string kFixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/matmul_cublas_reference.wsprof";

Session fixture()
{
    const SessionReadResult read = readSessionFile(kFixture);
    EXPECT_TRUE(read.problems.empty()) << (read.problems.empty() ? "" : read.problems.front());
    return read.session;
}

SessionReadResult readText(const std::string& text)
{
    std::istringstream in(text);
    return readSession(in);
}

KernelRecord matmulRung(const std::string& id, int rung, const std::string& n)
{
    KernelRecord k;
    k.id = id;
    k.ladder = "matmul";
    k.ladderRung = rung;
    k.args = {"A=f32[n*n]:random(1)", "B=f32[n*n]:random(2)", "C=f32[n*n]"};
    if (!n.empty())
        k.args.push_back("n=i32:" + n);
    return k;
}

ActivityRecord timed(const std::string& kernel, std::vector<std::uint64_t> durationsNs)
{
    ActivityRecord a;
    a.kernel = kernel;
    a.durationsNs = std::move(durationsNs);
    return a;
}

} // namespace

TEST(SessionSgemmReference, TheFixturesRungsAsSharesOfCublas)
{
    const Session s = fixture();
    const SgemmReference reference = sgemmReference(s);
    ASSERT_TRUE(reference.measured);
    EXPECT_DOUBLE_EQ(reference.flopsPerSecond, 34359.738368e9);
    EXPECT_EQ(reference.n, 4096);
    EXPECT_EQ(reference.method, "fixture value, not a measurement: 2 n^3 FLOP in 4 ms");
    EXPECT_EQ(reference.status, "cuBLAS SGEMM 34.4 TFLOP/s at n = 4096");
    EXPECT_TRUE(mentionsSgemmReference(s));

    const std::vector<RungAgainstReference> rungs = matmulRungsAgainstReference(s);
    ASSERT_EQ(rungs.size(), 3u);
    const struct {
        const char* kernel;
        int rung;
        double seconds, flopsPerSecond, share;
    } expected[] = {{"matmul_naive", 1, 0.050, 2748.779069440e9, 0.08},
                    {"matmul_tiled", 2, 0.0125, 10995.11627776e9, 0.32},
                    {"matmul_prefetch", 7, 0.005, 27487.7906944e9, 0.80}};
    for (std::size_t i = 0; i < rungs.size(); ++i) {
        SCOPED_TRACE(expected[i].kernel);
        EXPECT_EQ(rungs[i].kernel, expected[i].kernel);
        EXPECT_EQ(rungs[i].rung, expected[i].rung);
        EXPECT_EQ(rungs[i].n, 4096);
        EXPECT_DOUBLE_EQ(rungs[i].durationSeconds, expected[i].seconds);
        EXPECT_DOUBLE_EQ(rungs[i].flopsPerSecond, expected[i].flopsPerSecond);
        EXPECT_DOUBLE_EQ(rungs[i].share, expected[i].share);
        EXPECT_EQ(rungs[i].why, "");
    }
}

// The recorded H200 sessions predate the reference: their ceilings record has no reference_sgemm_*
// fields. No number is invented; the rungs get no share.
TEST(SessionSgemmReference, ASessionWithoutOneSaysSo)
{
    Session s;
    s.kernels.push_back(matmulRung("matmul_naive", 1, "4096"));
    s.activities.push_back(timed("matmul_naive", {1000000}));
    SgemmReference reference = sgemmReference(s);
    EXPECT_FALSE(reference.measured);
    EXPECT_EQ(reference.status, "not measured: the session has no ceilings record");

    s.ceilings = CeilingsRecord{}; // as read from a session older than the reference
    reference = sgemmReference(s);
    EXPECT_FALSE(reference.measured);
    EXPECT_EQ(reference.flopsPerSecond, 0.0);
    EXPECT_EQ(reference.status, "not measured (the session holds no cuBLAS SGEMM reference)");
    std::vector<RungAgainstReference> rungs = matmulRungsAgainstReference(s);
    ASSERT_EQ(rungs.size(), 1u);
    EXPECT_DOUBLE_EQ(rungs[0].flopsPerSecond, 2.0 * 4096.0 * 4096.0 * 4096.0 / 1e-3); // its own rate is still known
    EXPECT_TRUE(std::isnan(rungs[0].share));
    EXPECT_EQ(rungs[0].why, "no cuBLAS reference in this session");

    // The probe says why it has none: that is the status, word for word.
    s.ceilings->referenceSgemmMethod = "not measured: libcublas.so.13 could not be loaded";
    EXPECT_EQ(sgemmReference(s).status, "not measured: libcublas.so.13 could not be loaded");

    // A session without matmul rungs or a reference does not mention cuBLAS at all.
    Session copies;
    copies.ceilings = CeilingsRecord{};
    KernelRecord copy;
    copy.id = "copy_coalesced";
    copy.ladder = "copy";
    copies.kernels.push_back(copy);
    EXPECT_FALSE(mentionsSgemmReference(copies));
    EXPECT_TRUE(matmulRungsAgainstReference(copies).empty());
}

TEST(SessionSgemmReference, RungsThatCannotBeComparedSayWhy)
{
    Session s;
    s.ceilings = CeilingsRecord{};
    s.ceilings->referenceSgemmGflops = 50000.0;
    s.ceilings->referenceSgemmN = 4096;
    s.kernels.push_back(matmulRung("other_n", 2, "1024"));
    s.kernels.push_back(matmulRung("untimed", 3, "4096"));
    s.kernels.push_back(matmulRung("no_n", 4, ""));
    s.kernels.push_back(matmulRung("even_runs", 1, "4096"));
    s.activities.push_back(timed("other_n", {1000}));
    s.activities.push_back(timed("no_n", {1000}));
    // Four runs: the median is the mean of the middle two, (10 + 30) / 2 = 20 ms.
    s.activities.push_back(timed("even_runs", {40000000, 10000000, 30000000, 5000000}));
    const std::vector<RungAgainstReference> rungs = matmulRungsAgainstReference(s);
    ASSERT_EQ(rungs.size(), 4u); // in rung order
    EXPECT_EQ(rungs[0].kernel, "even_runs");
    EXPECT_DOUBLE_EQ(rungs[0].durationSeconds, 0.020);
    // 137,438,953,472 FLOP / 0.02 s = 6,871.9476736 GFLOP/s, of 50,000: 13.7438953472 %.
    EXPECT_DOUBLE_EQ(rungs[0].share, 0.137438953472);
    EXPECT_EQ(rungs[1].why, "n = 1024, cuBLAS was measured at n = 4096");
    EXPECT_TRUE(std::isnan(rungs[1].share));
    EXPECT_EQ(rungs[2].why, "not timed");
    EXPECT_TRUE(std::isnan(rungs[2].flopsPerSecond));
    EXPECT_EQ(rungs[3].why, "its arguments name no n");
    EXPECT_EQ(rungs[3].n, 0);
}

TEST(SessionSgemmReference, MatrixSizeArgument)
{
    EXPECT_EQ(matrixSizeArgument({"A=f32[n*n]:random(1)", "n=i32:4096"}), 4096);
    EXPECT_EQ(matrixSizeArgument({"n=128"}), 128);
    EXPECT_EQ(matrixSizeArgument({"nn=i32:5", "A=f32[n*n]"}), 0);
    EXPECT_EQ(matrixSizeArgument({"n=i32:-4"}), 0);
    EXPECT_EQ(matrixSizeArgument({"n=i32:"}), 0);
    EXPECT_EQ(matrixSizeArgument({"n=i32:99999999999"}), 0);
    EXPECT_EQ(matrixSizeArgument({}), 0);
}

// Missing fields read as "not measured" (older sessions); damaged ones skip the ceilings record with
// its line named, as any damaged record is.
TEST(SessionSgemmReference, DamagedReferenceFieldsSkipTheCeilingsRecordWithTheirLine)
{
    const std::string header = "{\"format\":\"warpscope-session\",\"version\":1}\n";
    SessionReadResult read = readText(header + "{\"type\":\"ceilings\",\"measured_dram_gbps\":100}\n{\"type\":\"end\",\"status\":\"ok\"}\n");
    EXPECT_TRUE(read.problems.empty());
    ASSERT_TRUE(read.session.ceilings);
    EXPECT_EQ(read.session.ceilings->referenceSgemmGflops, 0.0);
    EXPECT_EQ(read.session.ceilings->referenceSgemmN, 0);

    const std::pair<std::string, std::string> damaged[] = {
        {"\"reference_sgemm_gflops\":-5,\"reference_sgemm_n\":4096",
         "line 2: 'ceilings' record: field 'reference_sgemm_gflops' = -5 is not a rate (allowed: a positive number, or 0 "
         "when not measured), skipped"},
        {"\"reference_sgemm_gflops\":51000",
         "line 2: 'ceilings' record: field 'reference_sgemm_n' = 0 is not the n of the measured rate (allowed: a positive "
         "matrix size), skipped"},
        {"\"reference_sgemm_gflops\":51000,\"reference_sgemm_n\":-4096",
         "line 2: 'ceilings' record: field 'reference_sgemm_n' = -4096 is not the n of the measured rate (allowed: a "
         "positive matrix size), skipped"},
        {"\"reference_sgemm_gflops\":\"fast\",\"reference_sgemm_n\":4096",
         "line 2: 'ceilings' record: field 'reference_sgemm_gflops' has the wrong type (string), skipped"},
        {"\"reference_sgemm_gflops\":51000,\"reference_sgemm_n\":4096.5",
         "line 2: 'ceilings' record: field 'reference_sgemm_n' = 4096.5 is not an integer in range (allowed: "
         "-2147483648..2147483647), skipped"},
    };
    for (const auto& [fields, problem] : damaged) {
        SCOPED_TRACE(fields);
        read = readText(header + "{\"type\":\"ceilings\",\"measured_dram_gbps\":100," + fields + "}\n{\"type\":\"end\",\"status\":\"ok\"}\n");
        ASSERT_EQ(read.problems.size(), 1u);
        EXPECT_EQ(read.problems[0], problem);
        EXPECT_FALSE(read.session.ceilings);
        EXPECT_TRUE(read.complete); // the records after it are still read
    }
}
