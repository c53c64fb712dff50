// The performance and training models against hand-worked numbers and the datasheets they cite.
#include "gpu/gpu_preset.h"
#include "perf/littles_law.h"
#include "perf/stream_overlap.h"
#include "study/cards.h"
#include "session/session.h"
#include "training/collectives.h"
#include "training/memory_budget.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

using namespace warpscope;

TEST(PeakRates, PresetsGiveTheDatasheetsFp32Figures)
{
    // NVIDIA datasheets: V100 SXM2 15.7, T4 8.1, A100 19.5, RTX 3090 35.6, RTX 4090 82.6, H100 SXM 67 TFLOP/s.
    const std::pair<const char*, double> published[] = {{"sm_70", 15.7}, {"sm_75", 8.1}, {"sm_80", 19.5},
                                                        {"sm_86", 35.6}, {"sm_89", 82.6}, {"sm_90", 67.0}};
    for (const auto& [arch, tflops] : published)
        EXPECT_NEAR(gpu::peakFp32FlopsPerSecond(*gpu::findPreset(arch)) / 1e12, tflops, tflops * 0.01) << arch;
    EXPECT_DOUBLE_EQ(gpu::peakDramBytesPerSecond(*gpu::findPreset("sm_90")), 3350e9);
    // Blackwell: NVIDIA's Blackwell datasheet, HGX B200: FP32 75 TFLOP/s, 7.7 TB/s; GeForce RTX 5090
    // specifications: 104.8 shader TFLOP/s, 1,792 GB/s. The B200's clock is derived from its 75 (NVIDIA
    // publishes none), so only the RTX 5090's product is an independent check.
    EXPECT_NEAR(gpu::peakFp32FlopsPerSecond(*gpu::findPreset("sm_100")) / 1e12, 75.0, 0.1);
    EXPECT_NEAR(gpu::peakFp32FlopsPerSecond(*gpu::findPreset("sm_120")) / 1e12, 104.8, 0.1);
    EXPECT_DOUBLE_EQ(gpu::peakDramBytesPerSecond(*gpu::findPreset("sm_100")), 7700e9);
    EXPECT_DOUBLE_EQ(gpu::peakDramBytesPerSecond(*gpu::findPreset("sm_120")), 1792e9);
    // The H200 against issue 31's figures: 132 SMs, 4.8 TB/s, 60 MiB of L2 as the device reports it.
    const gpu::GpuPreset h200 = *gpu::findPreset("H200");
    EXPECT_EQ(h200.smCount, 132);
    EXPECT_DOUBLE_EQ(gpu::peakDramBytesPerSecond(h200), 4800e9);
    EXPECT_EQ(h200.timing.l2Bytes, 62914560u);
    EXPECT_EQ(gpu::findPreset("B200")->timing.l2Bytes, 132644864u); // 126.50 MB in the B200's device query
}

TEST(LittlesLaw, H100NeedsAboutAMegabyteInFlight)
{
    // 3350e9 B/s x 700 cycles / 1.98e9 Hz = 1,184,343 bytes; / 132 SMs = 8,972 B; / 128 B = 70.1 loads; / 64 warps = 1.095.
    const perf::BytesInFlight f = perf::bytesInFlight(*gpu::findPreset("sm_90"));
    EXPECT_NEAR(f.bytesInFlight, 1184343.4, 1);
    EXPECT_NEAR(f.bytesInFlightPerSm, 8972.3, 0.1);
    EXPECT_NEAR(f.warpLoadsInFlightPerSm, 70.096, 0.001);
    EXPECT_NEAR(f.loadsPerWarp, 1.0953, 0.0001);
    EXPECT_THROW(perf::bytesInFlight(1e9, 1e-6, 1, 1, 0), InputError);
}

TEST(StreamOverlap, TwoEnginesPipelineAsTheClosedForm)
{
    perf::StreamOverlapInput in;
    in.hostToDeviceSeconds = 3;
    in.kernelSeconds = 3;
    in.deviceToHostSeconds = 3;
    in.chunks = 3;
    const perf::StreamTimeline t = perf::planStreams(in);
    EXPECT_DOUBLE_EQ(t.serialSeconds, 9);
    EXPECT_DOUBLE_EQ(t.overlappedSeconds, 5); // 9/3 + 2 x 3/3
    EXPECT_DOUBLE_EQ(t.speedup(), 9.0 / 5.0);
    EXPECT_EQ(t.stages.size(), 9u);
    for (double a : {1.0, 4.0}) // unequal stages too
        for (int n : {1, 2, 5, 8}) {
            in.hostToDeviceSeconds = a;
            in.kernelSeconds = 2;
            in.deviceToHostSeconds = 3;
            in.chunks = n;
            EXPECT_NEAR(perf::planStreams(in).overlappedSeconds, perf::pipelinedSeconds(a, 2, 3, n), 1e-12) << a << " " << n;
        }
}

TEST(StreamOverlap, OneCopyEngineQueuesTheDownloadsBehindTheUploads)
{
    // Uploads [0,1] [1,2] [2,3]; kernels [1,2] [2,3] [3,4]; downloads on the same engine from 3: [3,4] [4,5] [5,6].
    perf::StreamOverlapInput in;
    in.hostToDeviceSeconds = 3;
    in.kernelSeconds = 3;
    in.deviceToHostSeconds = 3;
    in.chunks = 3;
    in.copyEngines = 1;
    const perf::StreamTimeline t = perf::planStreams(in);
    EXPECT_DOUBLE_EQ(t.overlappedSeconds, 6);
    EXPECT_DOUBLE_EQ(t.stages[6].start, 3);
    EXPECT_EQ(t.stages[6].engine, 0);
    in.chunks = 0;
    EXPECT_THROW(perf::planStreams(in), InputError);
    in.chunks = 2;
    in.copyEngines = 3;
    EXPECT_THROW(perf::planStreams(in), InputError);
}

TEST(MemoryBudget, SixteenBytesPerParameterForAdamEitherWay)
{
    using namespace training;
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::Mixed16, Optimizer::Adam).total(), 16);
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::Fp32, Optimizer::Adam).total(), 16);
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::Mixed16, Optimizer::SgdMomentum).total(), 12);
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::Fp32, Optimizer::Sgd).total(), 8);
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::Inference16, Optimizer::Adam).total(), 2);
    EXPECT_DOUBLE_EQ(bytesPerParameter(Precision::InferenceInt8, Optimizer::Adam).total(), 1);
    const MemoryBudget b = memoryBudget(7e9, Precision::Mixed16, Optimizer::Adam);
    EXPECT_DOUBLE_EQ(b.totalBytes(), 112e9);
    EXPECT_DOUBLE_EQ(b.masterBytes, 28e9);
    EXPECT_THROW(memoryBudget(0, Precision::Fp32, Optimizer::Adam), InputError);
}

TEST(MemoryBudget, ActivationsPerLayerFromKorthikanti)
{
    // s = 2048, b = 1, h = 4096, a = 32: 2048 x 4096 x (34 + 5 x 32 x 2048 / 4096) = 8,388,608 x 114 = 956,301,312 bytes.
    training::TransformerShape shape{1, 4096, 32, 2048, 1, false};
    EXPECT_DOUBLE_EQ(training::activationBytesPerLayer(shape), 956301312.0);
    shape.recompute = true;
    EXPECT_DOUBLE_EQ(training::activationBytesPerLayer(shape), 2.0 * 2048 * 4096);
    shape.layers = 32;
    shape.recompute = false;
    EXPECT_DOUBLE_EQ(training::memoryBudget(7e9, training::Precision::Mixed16, training::Optimizer::Adam, shape).activationBytes, 32 * 956301312.0);
    EXPECT_DOUBLE_EQ(training::memoryBudget(7e9, training::Precision::Inference16, training::Optimizer::Adam, shape).activationBytes, 0);
}

TEST(RingAllReduce, BytesStepsAndTime)
{
    const training::RingAllReduce ring = training::ringAllReduce(4, 1e9, 100e9);
    EXPECT_DOUBLE_EQ(ring.bytesSentPerGpu, 1.5e9); // 2 x 3/4
    EXPECT_EQ(ring.steps, 6);
    EXPECT_DOUBLE_EQ(ring.chunkBytes, 0.25e9);
    EXPECT_DOUBLE_EQ(ring.seconds, 0.015);
    EXPECT_THROW(training::ringAllReduce(1, 1e9, 1e9), InputError);
    EXPECT_EQ(training::ringSchedule(4).size(), 24u);
}

TEST(RingAllReduce, TheScheduleLeavesEveryGpuWithTheSum)
{
    for (int gpus : {2, 3, 4, 7}) {
        for (std::size_t length : {std::size_t{7}, std::size_t{12}, std::size_t{1}}) {
            std::vector<std::vector<double>> buffers(static_cast<std::size_t>(gpus), std::vector<double>(length));
            std::vector<double> sum(length, 0);
            for (int g = 0; g < gpus; ++g)
                for (std::size_t e = 0; e < length; ++e) {
                    buffers[static_cast<std::size_t>(g)][e] = (g + 1) * 100.0 + static_cast<double>(e);
                    sum[e] += buffers[static_cast<std::size_t>(g)][e];
                }
            const auto result = training::runRingAllReduce(buffers);
            for (int g = 0; g < gpus; ++g)
                EXPECT_EQ(result[static_cast<std::size_t>(g)], sum) << gpus << " GPUs, length " << length << ", GPU " << g;
        }
    }
}

TEST(Pipeline, BubbleFraction)
{
    EXPECT_DOUBLE_EQ(training::pipelineBubbleFraction(4, 8), 3.0 / 11.0);
    EXPECT_DOUBLE_EQ(training::pipelineBubbleFraction(1, 8), 0);
    EXPECT_DOUBLE_EQ(training::pipelineBubbleFraction(8, 1), 7.0 / 8.0);
    EXPECT_THROW(training::pipelineBubbleFraction(0, 1), InputError);
}

TEST(Cards, EveryCardHasASourceAndUniqueIdAndMeasurementsReplaceLatencies)
{
    const auto& cards = study::deck();
    EXPECT_GE(cards.size(), 30u);
    std::set<std::string> ids;
    int keyNumbers = 0;
    for (const study::Card& card : cards) {
        EXPECT_TRUE(ids.insert(card.id).second) << card.id;
        EXPECT_FALSE(card.front.empty());
        EXPECT_FALSE(card.back.empty());
        EXPECT_FALSE(card.source.empty()) << card.id;
        keyNumbers += card.keyNumber ? 1 : 0;
    }
    EXPECT_GE(keyNumbers, 15);
    // The shared-memory latency is the timing model's ~30 cycles, not the folklore ~5.
    EXPECT_NE(study::findCard(cards, "latency.shared")->back.find("30 cycles"), std::string::npos);
    EXPECT_NE(study::findCard(cards, "format.bf16.max")->back.find("3.39e+38"), std::string::npos);

    session::HierarchyRecord ladder;
    ladder.levels.push_back({"shared", 29.5, 15.0, 0, 0, "pointer chase"});
    const auto measured = study::deckWithMeasurements(ladder, "NVIDIA H200");
    const study::Card* shared = study::findCard(measured, "latency.shared");
    EXPECT_TRUE(shared->measured);
    EXPECT_EQ(shared->back, "29.5 cycles (15 ns), measured on your NVIDIA H200");
    EXPECT_FALSE(study::findCard(measured, "latency.l2")->measured);
}

// The Blackwell cards quote the presets and say where an unpublished number comes from.
TEST(Cards, BlackwellCardsQuoteThePresets)
{
    const auto& cards = study::deck();
    // 148 SMs, 126.5 MiB of L2 (132,644,864 B) and the derived 1,980 MHz: a B200's device query and the
    // datasheet's 75 TFLOP/s; 7,700 GB/s: the datasheet (HGX B200).
    EXPECT_EQ(study::findCard(cards, "gpu.sm_100.sms")->back, "148 SMs");
    EXPECT_EQ(study::findCard(cards, "gpu.sm_100.l2")->back, "126.5 MB");
    EXPECT_NE(study::findCard(cards, "gpu.sm_100.sms")->source.find("NVIDIA has not published the count"), std::string::npos);
    EXPECT_NE(study::findCard(cards, "gpu.sm_100.fp32")->back.find("148 SMs x 128 lanes x 2 x 1,980 MHz"), std::string::npos);
    EXPECT_NE(study::findCard(cards, "gpu.sm_100.fp32")->source.find("computed from the 75 TFLOPS"), std::string::npos);
    EXPECT_EQ(study::findCard(cards, "gpu.b200")->back, "180 GB of HBM3e at 7.7 TB/s per GPU (HGX B200)");
    EXPECT_EQ(study::findCard(cards, "gpu.sm_120.smem")->back, "100 KB per SM; 99 KB per block with opt-in (48 KB without)");
    EXPECT_EQ(study::findCard(cards, "gpu.sm_120.sms")->back, "170 SMs");
}

// Flashcard sources spell out the codes the GPU presets cite ([PG], [OCC], [DEV]; issue 27, section 9).
TEST(Cards, SourceCodesAreSpelledOut)
{
    const std::regex code(R"(\[[A-Z]{2,5}\])");
    for (const study::Card& card : study::deck())
        EXPECT_FALSE(std::regex_search(card.source, code)) << card.id << ": " << card.source;
    // The H100 preset's "[PG] CC 9.0; [OCC]; [DEV]; SMs: ..." (core/gpu/gpu_preset.cpp), in full.
    const std::string source = study::findCard(study::deck(), "gpu.sm_90.sms")->source;
    EXPECT_EQ(source.rfind("GPU preset sm_90: CUDA C++ Programming Guide, Technical Specifications per Compute Capability, "
                           "compute capability 9.0; the CUDA toolkit's cuda_occupancy.h (blocks per SM per architecture); "
                           "CUDA Runtime API, cudaDeviceProp.reservedSharedMemPerBlock (1 KB per block from sm_80); SMs: ",
                           0),
              0u)
        << source;
}
