#include "study/cards.h"

#include "gpu/gpu_preset.h"
#include "numerics/grad_scaler.h"
#include "numerics/number_format.h"
#include "session/session.h"
#include "study/quiz.h"
#include "training/collectives.h"
#include "training/memory_budget.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace warpscope::study {
namespace {

using numerics::Format;
using std::to_string;

std::string number(double value, int significant = 4) { return formatNumber(value, significant); }

// The short codes core/gpu/gpu_preset.cpp cites its numbers with ("[PG] CC 9.0; [OCC]; [DEV]"), in
// full: a learner reading a card has not read that file's legend.
std::string expandCitations(std::string source)
{
    const std::pair<std::string_view, std::string_view> codes[] = {
        {"[PG] CC ", "CUDA C++ Programming Guide, Technical Specifications per Compute Capability, compute capability "},
        {"[PG]", "CUDA C++ Programming Guide, Technical Specifications per Compute Capability"},
        {"[PG-A]", "CUDA C++ Programming Guide, arithmetic instruction throughput (128 FP32 results per clock per SM)"},
        {"[OCC]", "the CUDA toolkit's cuda_occupancy.h (blocks per SM per architecture)"},
        {"[DEV]", "CUDA Runtime API, cudaDeviceProp.reservedSharedMemPerBlock (1 KB per block from sm_80)"},
    };
    for (const auto& [code, text] : codes)
        for (std::size_t at = source.find(code); at != std::string::npos; at = source.find(code, at + text.size()))
            source.replace(at, code.size(), text);
    return source;
}

std::vector<Card> buildDeck()
{
    const gpu::GpuPreset h100 = *gpu::findPreset("sm_90");
    const gpu::GpuPreset a100 = *gpu::findPreset("sm_80");
    const gpu::GpuPreset b200 = *gpu::findPreset("sm_100");
    const gpu::GpuPreset rtx5090 = *gpu::findPreset("sm_120");
    const gpu::TimingParameters& t = h100.timing;
    const std::string latencySource = std::string(t.source);
    std::vector<Card> cards;
    auto add = [&](Card card) { cards.push_back(std::move(card)); };

    // Key numbers: GPUs (presets, datasheets).
    for (const gpu::GpuPreset& p : {a100, h100, b200, rtx5090}) {
        // The Blackwell presets' clocks and L2 are partly derived or device-reported: their cards cite that.
        const bool blackwell = p.computeMajor >= 10;
        const std::string arch(p.arch);
        add({"gpu." + arch + ".sms", "hierarchy", "How many SMs does the " + std::string(p.name) + " have?", to_string(p.smCount) + " SMs",
             "GPU preset " + arch + ": " + std::string(p.source), "", true});
        add({"gpu." + arch + ".fp32", "roofline", "Peak FP32 (non-Tensor-Core) rate of the " + std::string(p.name) + "?",
             number(gpu::peakFp32FlopsPerSecond(p) / 1e12, 3) + " TFLOP/s = " + to_string(p.smCount) + " SMs x " +
                 to_string(p.timing.fp32LanesPerSm) + " lanes x 2 x " + number(p.timing.coreClockMHz) + " MHz",
             blackwell ? "gpu::peakFp32FlopsPerSecond; " + std::string(p.timing.source) : "gpu::peakFp32FlopsPerSecond; the GPU's whitepaper",
             "An FMA counts as two FLOPs.", true});
        add({"gpu." + arch + ".bandwidth", "roofline", "Peak DRAM bandwidth of the " + std::string(p.name) + "?",
             number(p.timing.dramBandwidthGBps) + " GB/s; ridge point " +
                 number(gpu::peakFp32FlopsPerSecond(p) / gpu::peakDramBytesPerSecond(p), 3) + " FP32 FLOP/byte",
             std::string(p.timing.source), "", true});
        add({"gpu." + arch + ".l2", "coalescing", "L2 cache size of the " + std::string(p.name) + "?",
             number(static_cast<double>(p.timing.l2Bytes) / (1024.0 * 1024.0)) + " MB", std::string(p.timing.source), "", true});
        add({"gpu." + arch + ".smem", "occupancy", "Shared memory per SM on " + std::string(p.name) + ", and the most one block may use?",
             number(static_cast<double>(p.sharedPerSm) / 1024.0) + " KB per SM; " + number(static_cast<double>(p.sharedPerBlockOptin) / 1024.0) +
                 " KB per block with opt-in (48 KB without)",
             std::string(p.source), "", true});
    }
    add({"gpu.h200", "coalescing", "HBM capacity and bandwidth of the H200?", "141 GB of HBM3e at 4.8 TB/s",
         "NVIDIA H200 Tensor Core GPU datasheet", "H200 = H100's SM with more, faster HBM.", true});
    add({"gpu.b200", "blackwell", "HBM capacity and bandwidth of the B200?",
         "180 GB of HBM3e at " + number(b200.timing.dramBandwidthGBps / 1000, 2) + " TB/s per GPU (HGX B200)",
         "NVIDIA Blackwell datasheet, Individual Blackwell GPU Specifications (HGX B200); the sm_100 preset", "", true});
    add({"blackwell.unpublished", "blackwell", "Which B200 numbers has NVIDIA not published?",
         "Its SM count (" + to_string(b200.smCount) + "), clock and L2 size (" +
             number(static_cast<double>(b200.timing.l2Bytes) / (1024.0 * 1024.0)) +
             " MB): a B200's own device query gives them; the preset derives the clock from the 75 TFLOP/s FP32",
         "github.com/pytorch/ao pull request 4002 (a device query); NVIDIA Blackwell datasheet; core/gpu/gpu_preset.cpp", "", true});
    add({"tensor-cores.fp16-peaks", "tensor-cores", "Dense FP16 Tensor Core peak of the A100, H100 SXM and B200?",
         "312, 989 and 2,250 TFLOP/s; each narrower input (FP8, FP4) doubles it",
         "NVIDIA A100 and H100 datasheets (SXM); NVIDIA Blackwell datasheet, HGX B200 (given with sparsity, halved)", "", true});

    // Key numbers: latencies (published microbenchmarks; replaced by measurements when a session has them).
    add({"latency.shared", "latency", "Latency of a shared-memory load (Volta to Hopper)?", "about " + to_string(t.sharedLatency) + " cycles",
         latencySource, "On chip, yet ~30 cycles, not the ~5 some sheets give.", true});
    add({"latency.l1", "latency", "Latency of a global load that hits L1?", "about " + to_string(t.l1HitLatency) + " cycles", latencySource, "", true});
    add({"latency.l2", "latency", "Latency of a global load that hits L2 (Hopper)?", "about 220-" + to_string(t.l2HitLatency) + " cycles",
         latencySource, "", true});
    add({"latency.dram", "latency", "Latency of a global load from DRAM (Hopper)?", "about 600-850 cycles (the model uses " + to_string(t.dramLatency) + ")",
         latencySource, "", true});
    add({"latency.alu", "latency", "Cycles before a dependent FP32 instruction may issue?", "about " + to_string(t.aluLatency) + " cycles", latencySource,
         "", true});

    // Key numbers: formats.
    add({"format.fp16.max", "formats", "Largest finite FP16 value?", number(numerics::maxFinite(Format::FP16), 6) + "; from 65520 up it rounds to inf",
         "numerics::maxFinite; warpscope numerics convert --format fp16 65520", "", true});
    add({"format.fp16.min", "formats", "Smallest positive FP16 values?",
         "normal " + number(numerics::minNormal(Format::FP16), 4) + " (2^-14), subnormal " + number(numerics::minSubnormal(Format::FP16), 4) +
             " (2^-24); only magnitudes <= 2^-25 round to 0",
         "numerics::minNormal, numerics::minSubnormal", "", true});
    add({"format.bf16.max", "formats", "Largest finite BF16 value?", number(numerics::maxFinite(Format::BF16), 4) + " (0x7F7F); 3.4e38 rounds to inf",
         "numerics::maxFinite; warpscope numerics convert --format bf16 3.4e38", "BF16 = FP32's exponent, 7 mantissa bits.", true});
    add({"format.e4m3.max", "formats", "Largest FP8 E4M3 value, and what is above it?",
         number(numerics::maxFinite(Format::FP8E4M3)) + "; values above 464 become NaN (no infinity)", "numerics::maxFinite (OCP OFP8 1.0)",
         "E4M3 for weights and activations: precision.", true});
    add({"format.e5m2.max", "formats", "Largest FP8 E5M2 value and smallest subnormal?",
         number(numerics::maxFinite(Format::FP8E5M2)) + " and " + number(numerics::minSubnormal(Format::FP8E5M2), 4) + " (2^-16)",
         "numerics::maxFinite, numerics::minSubnormal (OCP OFP8 1.0)", "E5M2 for gradients: range.", true});
    add({"format.tf32", "tensor-cores", "What is TF32?", "FP32's 8-bit exponent with a 10-bit mantissa: Tensor Cores read the top 10 mantissa bits of FP32 inputs",
         "numerics::formatInfo; NVIDIA A100 whitepaper", "TF32 = FP32 range, FP16 precision.", true});

    // Key numbers: training.
    const training::BytesPerParameter mixed = training::bytesPerParameter(training::Precision::Mixed16, training::Optimizer::Adam);
    add({"training.bytes-mixed-adam", "training-memory", "Bytes per parameter for mixed-precision Adam (model states)?",
         number(mixed.total()) + ": 2 weights + 2 gradients + 4 master + 4 + 4 Adam moments", "training::bytesPerParameter (ZeRO, section 3.1)",
         "2 + 2 + 12 = 16.", true});
    add({"training.7b", "training-memory", "Model states of a 7B model with mixed-precision Adam?",
         number(training::memoryBudget(7e9, training::Precision::Mixed16, training::Optimizer::Adam).totalBytes() / 1e9) + " GB, before activations",
         "training::memoryBudget", "", true});
    add({"training.ring", "multi-gpu", "Bytes each GPU sends in a ring all-reduce of S bytes over N GPUs?", "2 (N - 1) / N x S: under 2 S whatever N",
         "training::ringAllReduce (Patarasuk and Yuan 2009)", "Reduce-scatter, then all-gather: each moves (N-1)/N of S.", true});
    add({"training.bubble", "multi-gpu", "Pipeline bubble with p stages and m micro-batches?", "(p - 1) / (m + p - 1)",
         "training::pipelineBubbleFraction (Megatron-LM, SC 2021)", "", true});
    const training::LinkFigure* nvlink = training::findLink("nvlink4");
    add({"training.nvlink4", "multi-gpu", "NVLink bandwidth of an H100 SXM?", number(nvlink->bytesPerSecondEachWay / 1e9) + " GB/s each way (900 GB/s total)",
         std::string(nvlink->source), "", true});
    const numerics::GradScalerOptions scaler;
    add({"amp.scaler-defaults", "mixed-precision", "PyTorch GradScaler's defaults?",
         "init_scale " + number(scaler.initScale) + " (2^16), growth x2 every " + to_string(scaler.growthInterval) + " clean steps, backoff x0.5 on inf",
         "numerics::GradScalerOptions; torch/amp/grad_scaler.py", "", true});

    // Concepts.
    add({"concept.warp", "hierarchy", "What is a warp?", "32 consecutive threads of a block that issue together (one instruction, an active mask)",
         "CUDA C++ Programming Guide, SIMT Architecture", "Warp = the weave's 32 threads.", false});
    add({"concept.idle-lanes", "occupancy", "Does a 100-thread block use 100 thread slots?", "No: 4 warps, and the last warp's 28 idle lanes still take its slot",
         "launch::LaunchShape::idleLanesPerBlock", "Round threads up to 32.", false});
    add({"concept.occupancy", "occupancy", "What is theoretical occupancy?", "Resident warps per SM / the SM's maximum, limited by warps, registers, shared memory, blocks",
         "occupancy::computeOccupancy (cuda_occupancy.h)", "", false});
    add({"concept.sector", "coalescing", "The unit of global memory traffic?", "The 32-byte sector; a coalesced warp of floats needs 4",
         "sim::analyzeGlobalAccess", "32 lanes x 4 B = 4 sectors.", false});
    add({"concept.banks", "shared-memory", "How are shared-memory banks laid out?", "32 banks of 4 bytes: bank = (byte address / 4) mod 32",
         "CUDA C++ Programming Guide, Shared Memory", "Stride 32 = 32-way conflict; pad to 33.", false});
    add({"concept.broadcast", "shared-memory", "Lanes reading the same shared word: conflict?", "No: one word is broadcast; only distinct words in one bank serialise",
         "sim::analyzeSharedAccess", "", false});
    add({"concept.syncwarp", "divergence", "What is __syncwarp for?", "Lanes of a warp meet and their shared-memory accesses are ordered; needed since Volta's independent thread scheduling",
         "CUDA C++ Programming Guide", "", false});
    add({"concept.reconvergence", "divergence", "Where do diverged lanes rejoin (pre-Volta)?", "At the branch's immediate post-dominator, from a reconvergence stack",
         "Tesla V100 whitepaper; the stepper's stack", "", false});
    add({"concept.littles-law", "latency", "Little's law for memory?", "bytes in flight = bandwidth x latency", "perf::bytesInFlight", "", false});
    add({"concept.roofline", "roofline", "The roofline bound?", "min(peak FLOP/s, intensity x bandwidth), intensity = FLOPs / DRAM bytes",
         "Williams, Waterman and Patterson 2009", "Left of the ridge: memory; right: compute.", false});
    add({"concept.bf16-scaling", "mixed-precision", "Why does BF16 need no loss scaling?", "Its 8-bit exponent gives FP32's range, so small gradients do not underflow",
         "numerics::formatInfo", "Range is the exponent; precision is the mantissa.", false});
    add({"concept.master-weights", "mixed-precision", "Why keep FP32 master weights?", "Updates smaller than half an FP16 gap are lost (1 + 1e-4 stays 1 in FP16)",
         "numerics::roundTo", "", false});
    add({"concept.symmetric-int8", "quantization", "Scale of symmetric INT8?", "clip / 127, codes -127..127", "numerics::quantParams", "", false});
    add({"concept.two-four", "sparsity", "2:4 sparsity: what is stored?", "2 of every 4 weights plus a 2-bit index each: 9/16 of dense FP16; TF32 uses 1:2",
         "numerics::fp16Storage; cuSPARSELt documentation", "", false});
    add({"concept.streams", "streams", "What does copy/compute overlap need?", "Pinned host memory, non-default streams, and chunks: total ~ (a+c+d)/n + (n-1) max(a,c,d)/n",
         "perf::planStreams", "", false});
    add({"concept.ddp", "multi-gpu", "DDP in one sentence?", "One process per GPU, each with a model copy; gradient buckets are all-reduced (NCCL) during backward",
         "PyTorch DistributedDataParallel documentation", "", false});
    add({"concept.fusion", "inference", "What does layer fusion save?", "DRAM round trips and kernel launches between layers", "TensorRT Developer Guide", "", false});
    // The second curriculum's key numbers, each where its lesson works it out.
    add({"serving.kv-per-token", "serving", "KV cache per token of Llama 2 7B in FP16?",
         "2 (keys and values) x 32 layers x 32 KV heads x 128 x 2 B = 524,288 B, 2.15 GB per 4096-token sequence",
         "perf::kvCacheBytes; Meta's Llama-2-7b-hf configuration", "Keys and values, every layer, every head, every token.", true});
    add({"serving.gqa", "serving", "How much smaller is Llama 2 70B's KV cache with grouped-query attention?",
         "8x: its 64 query heads share 8 key-value heads", "Touvron et al. 2023, arXiv:2307.09288, Table 1; perf::kvCacheBytes", "", true});
    add({"fusion.score-bytes", "fusion", "Global-memory bytes an unfused FP32 attention head spends on its n x n scores?",
         "16 n^2: S written and read back, P written and read back, 4 B each; a fused kernel keeps them on chip",
         "the Kernel fusion and FlashAttention lesson; warpscope sim attention_scores, attention_softmax, attention_pv", "", true});
    add({"microscaling.e2m1-max", "microscaling", "Largest value of FP4 E2M1?", "6 = 2^(3 - 1) x 1.5; it holds only 0, 0.5, 1, 1.5, 2, 3, 4 and 6",
         "OCP Microscaling Formats (MX) Specification v1.0", "", true});
    add({"microscaling.bits", "microscaling", "Bits per element of MXFP4 and NVFP4?",
         "4.25 (an 8-bit E8M0 scale per 32 elements) and 4.5 (an 8-bit E4M3 scale per 16)",
         "OCP Microscaling Formats (MX) Specification v1.0; NVIDIA Technical Blog, Introducing NVFP4 for Efficient and Accurate Low-Precision Inference, 2025", "", true});
    add({"multi-gpu.fsdp-traffic", "multi-gpu", "Bytes each GPU moves per step, FSDP against DDP?",
         "1.5x: two all-gathers of the parameters and a reduce-scatter of the gradients, against one all-reduce",
         "perf::dataParallelTraffic; Rajbhandari et al., ZeRO, SC 2020, section 7", "", true});
    add({"cuda-graphs.overhead", "cuda-graphs", "Launch overhead one by one, against a CUDA graph (one measurement)?",
         "about 2.7 us of host time per launch call and 6.4 us of GPU time per kernel; a graph: 15 us once, then 0.58 us between nodes",
         "perf::KernelChainInput defaults (core/perf/kernel_chain.h), measured in github.com/ahrefs/ocannl issue 488", "", true});
    add({"fsdp.states-per-gpu", "fsdp", "Model states per GPU with mixed-precision Adam under ZeRO-3 over N GPUs?",
         "16 bytes x parameters / N: weights, gradients, master weights and moments all partitioned",
         "training::memoryBudget; Rajbhandari et al., ZeRO, SC 2020, section 5", "", true});
    add({"serving.decode-intensity", "serving", "FLOP per byte of FP16 decode at batch B?",
         "B: 2 FLOP per weight per sequence over 2 bytes per weight; the H100 SXM's FP16 Tensor Core ridge is 295",
         "the serving lesson; Kaplan et al. 2020 (2 FLOP per parameter per token); NVIDIA H100 datasheet", "", true});
    add({"microscaling.nvfp4-scale", "microscaling", "How does NVFP4 scale a block?",
         "One FP8 E4M3 scale per 16 E2M1 values, about amax / 6, under one FP32 scale per tensor",
         "NVIDIA Technical Blog, Introducing NVFP4 for Efficient and Accurate Low-Precision Inference, 2025", "", true});
    for (Card& card : cards)
        card.source = expandCitations(std::move(card.source));
    return cards;
}

} // namespace

const std::vector<Card>& deck()
{
    static const std::vector<Card> cards = buildDeck();
    return cards;
}

std::vector<Card> deckWithMeasurements(const session::HierarchyRecord& ladder, std::string_view gpuName)
{
    std::vector<Card> cards = deck();
    const std::pair<std::string_view, std::string_view> map[] = {
        {"shared", "latency.shared"}, {"l1", "latency.l1"}, {"l2", "latency.l2"}, {"dram", "latency.dram"}};
    for (const auto& [level, id] : map) {
        const session::HierarchyLevel* measured = ladder.find(level);
        if (!measured || measured->latencyCycles <= 0)
            continue;
        for (Card& card : cards)
            if (card.id == id) {
                card.back = number(measured->latencyCycles, 3) + " cycles (" + number(measured->latencyNs, 3) + " ns), measured on your " +
                            std::string(gpuName);
                card.source = "the memory ladder in your session (" + measured->method + ")";
                card.measured = true;
            }
    }
    return cards;
}

const Card* findCard(const std::vector<Card>& cards, std::string_view id)
{
    for (const Card& card : cards)
        if (card.id == id)
            return &card;
    return nullptr;
}

} // namespace warpscope::study
