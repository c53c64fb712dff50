// The hierarchical roofline's numbers (core/session/roofline.h) for the hand-written fixture
// tests/fixtures/sessions/hierarchical_roofline.wsprof, against values worked out here by hand.
//
// The fixture's GPU: 100 SMs at 2,000 MHz, compute capability 9.0. Ceilings record: DRAM 2,000 GB/s
// measured, 2,500 GB/s peak; FP32 40,000 GFLOP/s measured, 51,200 GFLOP/s peak. The first three
// kernels carry the L1 and L2 peak metrics: l1tex__t_bytes.sum.peak_sustained = 12,800 bytes/cycle
// at 2.0 GHz; lts__t_bytes.sum.peak_sustained = 5,120 bytes/cycle at 1.5, 1.5 and 1.6 GHz.
#include "session/roofline.h"

#include "session/metric_catalog.h"
#include "session/session.h"
#include "session/session_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace warpscope::session;

namespace {

const std::string kFixture = std::string(WARPSCOPE_FIXTURES_DIR) + "/sessions/hierarchical_roofline.wsprof";

Session fixture()
{
    const SessionReadResult read = readSessionFile(kFixture);
    EXPECT_TRUE(read.problems.empty()) << (read.problems.empty() ? "" : read.problems.front());
    return read.session;
}

const KernelRoofline& find(const std::vector<KernelRoofline>& kernels, const std::string& id)
{
    for (const KernelRoofline& k : kernels)
        if (k.kernel == id)
            return k;
    ADD_FAILURE() << "no kernel " << id;
    static const KernelRoofline none;
    return none;
}

} // namespace

TEST(Roofline, RoofsPerLevel)
{
    const RooflineRoofs roofs = rooflineRoofs(fixture());
    EXPECT_DOUBLE_EQ(roofs.measuredFlopsPerSecond, 40000e9);
    EXPECT_DOUBLE_EQ(roofs.peakFlopsPerSecond, 51200e9);
    // L1: 12,800 bytes/cycle (100 SMs x 128) x 2.0e9 cycles/s = 25.6e12 B/s on every kernel that has it.
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::L1).peak.bytesPerSecond, 25.6e12);
    EXPECT_EQ(roofs.at(MemoryLevel::L1).measured.bytesPerSecond, 0.0);
    EXPECT_NE(roofs.at(MemoryLevel::L1).peak.source.find("median of 3 kernels"), std::string::npos);
    // L2: 5,120 x {1.5e9, 1.5e9, 1.6e9} = {7.68e12, 7.68e12, 8.192e12}; the median is 7.68e12 B/s.
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::L2).peak.bytesPerSecond, 7.68e12);
    EXPECT_TRUE(roofs.at(MemoryLevel::L2).missing.empty());
    // DRAM: the ceilings record, 2,000 GB/s measured (the reference for shares) and 2,500 GB/s peak.
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::Dram).measured.bytesPerSecond, 2000e9);
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::Dram).peak.bytesPerSecond, 2500e9);
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::Dram).reference(), 2000e9);
    EXPECT_DOUBLE_EQ(roofs.referenceFlopsPerSecond(), 40000e9);
}

TEST(Roofline, KernelThatReachesDram)
{
    const Session session = fixture();
    const RooflineRoofs roofs = rooflineRoofs(session);
    const std::vector<KernelRoofline> kernels = kernelRooflines(session);
    ASSERT_EQ(kernels.size(), 5u);
    const KernelRoofline& k = find(kernels, "k_dram");
    EXPECT_EQ(k.ladder, "fixture");
    EXPECT_EQ(k.rung, 1);
    // FLOP = fadd + fmul + 2 x ffma = 1e6 + 1e6 + 2 x 4e6 = 10e6, in 10,000 ns: 1e12 FLOP/s.
    EXPECT_DOUBLE_EQ(k.fp32Flops, 10e6);
    EXPECT_DOUBLE_EQ(k.durationSeconds, 1e-5);
    EXPECT_DOUBLE_EQ(k.flopsPerSecond, 1e12);
    // L1: 40e6 bytes -> 10e6 / 40e6 = 0.25 FLOP/B, 40e6 / 1e-5 = 4e12 B/s. Under the slope
    // (0.25 x 25.6e12 = 6.4e12 <= 40e12), so the share is 4e12 / 25.6e12 = 0.15625.
    EXPECT_TRUE(k.at(MemoryLevel::L1).plotted());
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L1).bytes, 40e6);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L1).intensity, 0.25);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L1).bytesPerSecond, 4e12);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L1, roofs), 0.15625);
    // L2: 20e6 bytes -> 0.5 FLOP/B, 2e12 B/s; 0.5 x 7.68e12 = 3.84e12 <= 40e12: 2e12 / 7.68e12 = 0.2604...
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L2).intensity, 0.5);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L2).bytesPerSecond, 2e12);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L2, roofs), 2e12 / 7.68e12);
    // DRAM: 4e6 read + 1e6 written = 5e6 bytes -> 2 FLOP/B, 5e11 B/s; 2 x 2e12 = 4e12 <= 40e12:
    // 5e11 / 2e12 = 0.25 of the measured DRAM roof.
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::Dram).bytes, 5e6);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::Dram).intensity, 2.0);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::Dram).bytesPerSecond, 5e11);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::Dram, roofs), 0.25);
}

TEST(Roofline, L2ResidentKernelStillPlotsAtL1AndL2)
{
    const Session session = fixture();
    const RooflineRoofs roofs = rooflineRoofs(session);
    const KernelRoofline k = find(kernelRooflines(session), "k_l2_resident"); // a copy: the vector is a temporary
    // FLOP = 2 x 8e6 = 16e6 in 4,000 ns: 4e12 FLOP/s.
    EXPECT_DOUBLE_EQ(k.flopsPerSecond, 4e12);
    // L1: 8e6 bytes -> 2 FLOP/B. Past the ridge (2 x 25.6e12 = 51.2e12 > 40e12), so the share is
    // FLOP/s over the FP32 roof: 4e12 / 40e12 = 0.1.
    EXPECT_TRUE(k.at(MemoryLevel::L1).plotted());
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L1).intensity, 2.0);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L1, roofs), 0.1);
    // L2: 4e6 bytes -> 4 FLOP/B, 1e12 B/s; 4 x 7.68e12 = 30.72e12 <= 40e12: 1e12 / 7.68e12.
    EXPECT_TRUE(k.at(MemoryLevel::L2).plotted());
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::L2).intensity, 4.0);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L2, roofs), 1e12 / 7.68e12);
    // DRAM: 0 bytes: no point (intensity unbounded) and no share.
    EXPECT_FALSE(k.at(MemoryLevel::Dram).plotted());
    EXPECT_EQ(k.at(MemoryLevel::Dram).gap, RooflineGap::ZeroBytes);
    EXPECT_EQ(gapCode(k.at(MemoryLevel::Dram).gap), "zero_bytes");
    EXPECT_EQ(gapSummary(k.at(MemoryLevel::Dram).gap, MemoryLevel::Dram), "no DRAM bytes");
    EXPECT_TRUE(std::isinf(k.at(MemoryLevel::Dram).intensity));
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::Dram).bytesPerSecond, 0.0);
    EXPECT_TRUE(std::isnan(shareOfRoof(k, MemoryLevel::Dram, roofs)));
    EXPECT_TRUE(k.plottedAnywhere());
}

TEST(Roofline, CopyHasNoPointButItsBandwidthShare)
{
    const Session session = fixture();
    const RooflineRoofs roofs = rooflineRoofs(session);
    const KernelRoofline k = find(kernelRooflines(session), "k_copy"); // a copy: the vector is a temporary
    EXPECT_DOUBLE_EQ(k.fp32Flops, 0.0);
    EXPECT_FALSE(k.plottedAnywhere());
    for (MemoryLevel level : kMemoryLevels) {
        EXPECT_EQ(k.at(level).gap, RooflineGap::ZeroFlops) << levelName(level);
        EXPECT_DOUBLE_EQ(k.at(level).intensity, 0.0) << levelName(level);
    }
    // 8e6 bytes in 2,000 ns = 4e12 B/s at L1 and L2; 2e6 bytes = 1e12 B/s at DRAM. With intensity 0
    // the share is the bandwidth share: 4e12 / 25.6e12, 4e12 / 7.68e12, 1e12 / 2e12.
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L1, roofs), 4e12 / 25.6e12);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::L2, roofs), 4e12 / 7.68e12);
    EXPECT_DOUBLE_EQ(shareOfRoof(k, MemoryLevel::Dram, roofs), 0.5);
    EXPECT_EQ(gapCode(RooflineGap::ZeroFlops), "zero_flop");
}

TEST(Roofline, OlderSessionWithoutL1BytesAndAKernelWithoutCounters)
{
    const Session session = fixture();
    const RooflineRoofs roofs = rooflineRoofs(session);
    const std::vector<KernelRoofline> kernels = kernelRooflines(session);
    const KernelRoofline& old = find(kernels, "k_old_session");
    // 5e6 FLOP in 5,000 ns = 1e12 FLOP/s; no l1tex__t_bytes.sum: no L1 point, the others plot.
    EXPECT_EQ(old.at(MemoryLevel::L1).gap, RooflineGap::BytesNotMeasured);
    EXPECT_TRUE(std::isnan(old.at(MemoryLevel::L1).bytes));
    EXPECT_TRUE(std::isnan(shareOfRoof(old, MemoryLevel::L1, roofs)));
    EXPECT_DOUBLE_EQ(old.at(MemoryLevel::L2).intensity, 0.5);  // 5e6 / 10e6
    EXPECT_DOUBLE_EQ(old.at(MemoryLevel::Dram).intensity, 1.0); // 5e6 / (4e6 + 1e6)
    EXPECT_DOUBLE_EQ(shareOfRoof(old, MemoryLevel::Dram, roofs), 0.5); // 1e12 B/s of 2e12
    const KernelRoofline& none = find(kernels, "k_no_metrics");
    for (MemoryLevel level : kMemoryLevels)
        EXPECT_EQ(none.at(level).gap, RooflineGap::NoMetrics);
    EXPECT_TRUE(std::isnan(none.flopsPerSecond));
    EXPECT_EQ(gapCode(RooflineGap::NoMetrics), "no_metrics");
}

TEST(Roofline, RoofsWithoutThePeakMetrics)
{
    Session s;
    DeviceRecord device;
    device.computeMajor = 9;
    device.smCount = 100;
    device.coreClockKHz = 2000000;
    s.devices.push_back(device);
    MetricsRecord m;
    m.kernel = "k";
    m.values = {{metric::kFfmaPeak, 12800.0}, {metric::kSmClock, 2.0e9}, {metric::kDramBytesPeak, 1000.0}, {metric::kDramClock, 2.5e9}};
    s.metrics.push_back(m);
    const RooflineRoofs roofs = rooflineRoofs(s);
    // L1 from the device: 100 SMs x 128 bytes/cycle x 2.0e9 Hz = 25.6e12 B/s.
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::L1).peak.bytesPerSecond, 25.6e12);
    EXPECT_NE(roofs.at(MemoryLevel::L1).peak.source.find("100 SMs x 128 bytes/cycle x 2000 MHz"), std::string::npos)
        << roofs.at(MemoryLevel::L1).peak.source;
    // No L2 peak metric: no L2 roof, and a line saying so.
    EXPECT_EQ(roofs.at(MemoryLevel::L2).reference(), 0.0);
    EXPECT_NE(roofs.at(MemoryLevel::L2).missing.find("lts__t_bytes.sum.peak_sustained"), std::string::npos);
    // No ceilings record: FP32 peak = 2 x 12,800 x 2.0e9 = 51.2e12; DRAM peak = 1,000 x 2.5e9 = 2.5e12.
    EXPECT_DOUBLE_EQ(roofs.peakFlopsPerSecond, 51.2e12);
    EXPECT_EQ(roofs.measuredFlopsPerSecond, 0.0);
    EXPECT_DOUBLE_EQ(roofs.at(MemoryLevel::Dram).peak.bytesPerSecond, 2.5e12);
    EXPECT_TRUE(roofs.at(MemoryLevel::Dram).missing.empty());

    // Before compute capability 7.0, L1 and shared memory were separate: no L1 roof from the device.
    s.devices.front().computeMajor = 6;
    EXPECT_FALSE(rooflineRoofs(s).at(MemoryLevel::L1).missing.empty());

    // The probe's memory ladder measured L1 and L2 bandwidth: solid roofs, the reference for shares.
    HierarchyRecord hierarchy;
    hierarchy.levels = {{"l1", 33, 17, 20000.0, 16384, "fixture"}, {"l2", 270, 140, 6000.0, 1 << 20, "fixture"}};
    s.hierarchy = hierarchy;
    const RooflineRoofs measured = rooflineRoofs(s);
    EXPECT_DOUBLE_EQ(measured.at(MemoryLevel::L1).measured.bytesPerSecond, 20000e9);
    EXPECT_DOUBLE_EQ(measured.at(MemoryLevel::L2).reference(), 6000e9);
    EXPECT_TRUE(measured.at(MemoryLevel::L1).missing.empty());
    EXPECT_TRUE(measured.at(MemoryLevel::L2).missing.empty());
}

TEST(Roofline, RoofAtIsTheLowerCeiling)
{
    EXPECT_DOUBLE_EQ(roofAt(0.5, 2e12, 40e12), 1e12);  // under the slope
    EXPECT_DOUBLE_EQ(roofAt(100, 2e12, 40e12), 40e12); // past the ridge at 20
    EXPECT_DOUBLE_EQ(roofAt(100, 2e12, 0), 200e12);    // no compute roof
    EXPECT_DOUBLE_EQ(roofAt(100, 0, 40e12), 40e12);    // no bandwidth roof
    EXPECT_EQ(levelName(MemoryLevel::Dram), "DRAM");
    EXPECT_EQ(levelKey(MemoryLevel::L2), "l2");
}

TEST(MetricCatalog, HeadlineHasTheHierarchicalRooflineInputs)
{
    const std::vector<std::string> headline = resolveMetricSet("headline");
    for (const char* name : {metric::kL1Bytes, metric::kL1BytesPeak, metric::kL1Clock, metric::kL2Bytes, metric::kL2BytesPeak,
                             metric::kL2Clock, metric::kDramRead, metric::kDramWrite})
        EXPECT_NE(std::find(headline.begin(), headline.end(), name), headline.end()) << name;
}

// Warm caches (issue 27, section 8): a DRAM point with fewer bytes than the kernel's compulsory
// traffic, on the recorded H200 sessions, worked by hand from their kernel, prediction and metrics
// records.
namespace {

const std::string kRecorded = std::string(WARPSCOPE_FIXTURES_DIR) + "/../../assets/recorded/h200/";

std::vector<KernelRoofline> recorded(const std::string& file)
{
    const SessionReadResult read = readSessionFile(kRecorded + file);
    EXPECT_TRUE(read.problems.empty()) << (read.problems.empty() ? "" : read.problems.front());
    return kernelRooflines(read.session);
}

} // namespace

TEST(RooflineWarmCaches, DemoSessionsVectorAddWasServedByL2)
{
    const std::vector<KernelRoofline> kernels = recorded("demo-kernels.wsprof");
    // vector_add, n = 1,048,576: a and b read, c written, 4 bytes each: 3 x 4 x 1,048,576 = 12,582,912 B,
    // the same as the simulator's sectors (262,144 loaded + 131,072 stored) x 32 B.
    const KernelRoofline& add = find(kernels, "vector_add");
    EXPECT_DOUBLE_EQ(add.compulsoryBytes, 12582912.0);
    // DRAM moved 256 B read + 19,968 B written = 20,224 B: 1,048,576 FLOP / 20,224 B = 51.85 FLOP/B.
    EXPECT_DOUBLE_EQ(add.at(MemoryLevel::Dram).bytes, 20224.0);
    EXPECT_NEAR(add.at(MemoryLevel::Dram).intensity, 51.848, 1e-3);
    EXPECT_TRUE(add.warmCaches());
    // Cold, it would sit at 1 FLOP per 12 bytes.
    EXPECT_DOUBLE_EQ(add.coldIntensity(), 1.0 / 12.0);
    EXPECT_EQ(warmCachesExplanation(add),
              "DRAM moved 20,224 B, less than the 12,582,912 B its buffers hold, each read or written at least once: "
              "warm caches served the rest (data an earlier run left in L2, or writes still in L2 when the kernel "
              "ended). With cold caches it would sit at 0.0833 FLOP/B, not 51.8.");

    // stencil_1d, n = 262,144: in and out, 2 x 4 x 262,144 = 2,097,152 B (under the sectors' 67,582 x 32 =
    // 2,162,624 B, the halo read twice); DRAM 57,600 B. Cold: 1,835,008 FLOP / 2,097,152 B = 0.875 FLOP/B.
    const KernelRoofline& stencil = find(kernels, "stencil_1d");
    EXPECT_DOUBLE_EQ(stencil.compulsoryBytes, 2097152.0);
    EXPECT_TRUE(stencil.warmCaches());
    EXPECT_DOUBLE_EQ(stencil.coldIntensity(), 0.875);

    // A copy has compulsory bytes (in + out, 2 x 4 MiB) but no point (0 FLOP): nothing to mark.
    const KernelRoofline& copy = find(kernels, "copy_coalesced");
    EXPECT_DOUBLE_EQ(copy.compulsoryBytes, 8388608.0);
    EXPECT_FALSE(copy.warmCaches());
    EXPECT_EQ(warmCachesExplanation(copy), "");
    // matmul_tiled at n = 128 moved no DRAM bytes at all: no DRAM point, so nothing is marked either.
    const KernelRoofline& tiled = find(kernels, "matmul_tiled");
    EXPECT_DOUBLE_EQ(tiled.compulsoryBytes, 3.0 * 4 * 128 * 128);
    EXPECT_FALSE(tiled.warmCaches());
}

TEST(RooflineWarmCaches, GpuSizeMatmulSitsRightOfTheRidgeOnlyBecauseOfL2)
{
    // matmul_tiled at n = 1,024: A, B and C are 3 x 4 x 1,048,576 = 12,582,912 B; DRAM moved 2,048 +
    // 876,032 = 878,080 B, so 2 x 1,073,741,824 FLOP / 878,080 B = 2,445.7 FLOP/B, right of the ridge.
    // Cold: 2,147,483,648 / 12,582,912 = 170.67 FLOP/B.
    const KernelRoofline& k = find(recorded("gpu-size-matmul_tiled.wsprof"), "matmul_tiled");
    EXPECT_DOUBLE_EQ(k.compulsoryBytes, 12582912.0);
    EXPECT_NEAR(k.at(MemoryLevel::Dram).intensity, 2445.658, 1e-3);
    EXPECT_TRUE(k.warmCaches());
    EXPECT_NEAR(k.coldIntensity(), 170.667, 1e-3);
}

TEST(RooflineWarmCaches, GpuSizeVectorAddIsCold)
{
    // n = 2^28: 3 x 4 x 268,435,456 = 3,221,225,472 B compulsory; DRAM moved 2,147,509,248 + 1,083,936,256
    // = 3,231,445,504 B, a little more: not marked.
    const KernelRoofline& k = find(recorded("gpu-size-vector_add.wsprof"), "vector_add");
    EXPECT_DOUBLE_EQ(k.compulsoryBytes, 3221225472.0);
    EXPECT_DOUBLE_EQ(k.at(MemoryLevel::Dram).bytes, 3231445504.0);
    EXPECT_FALSE(k.warmCaches());
}

TEST(RooflineWarmCaches, CompulsoryBytesFromTheArgumentsAndTheSectors)
{
    // A strided copy reading every 32nd float: the input buffer is n x stride x 4 = 131,072 B and the
    // output 4,096 B, but the simulator saw 1,024 + 128 sectors, 36,864 B: the cap.
    KernelRecord kernel;
    kernel.args = {"in=f32[n*stride]:random(1)", "out=f32[n]", "n=i32:1024", "stride=i32:32"};
    EXPECT_DOUBLE_EQ(compulsoryBytes(kernel, nullptr), 131072.0 + 4096.0);
    PredictionRecord prediction;
    prediction.globalLoadSectors = 1024;
    prediction.globalStoreSectors = 128;
    EXPECT_DOUBLE_EQ(compulsoryBytes(kernel, &prediction), 36864.0);
    // Lengths in other element types and with cdiv: u8[n] + u32[cdiv(n,256)] = 1,000 + 4 x 4 B.
    kernel.args = {"data=u8[n]", "bins=u32[cdiv(n,256)]", "n=i32:1000"};
    EXPECT_DOUBLE_EQ(compulsoryBytes(kernel, nullptr), 1016.0);
    // No buffer, or a length that names no scalar: unknown.
    kernel.args = {"n=i32:4"};
    EXPECT_TRUE(std::isnan(compulsoryBytes(kernel, nullptr)));
    kernel.args = {"a=f32[m]", "n=i32:4"};
    EXPECT_TRUE(std::isnan(compulsoryBytes(kernel, nullptr)));
}
