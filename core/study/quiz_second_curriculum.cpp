// Questions for the second curriculum (issue 30): CUDA graphs, FSDP, serving, fusion, Tensor Cores,
// block-scaled formats and the Blackwell GPUs. Each draws its parameters from the seed and computes
// its answer with the engine (perf::planKernelChain, perf::dataParallelTraffic, training::memoryBudget,
// perf::kvCacheBytes, numerics::roundTo, occupancy::computeOccupancy, perf::bytesInFlight, the GPU
// presets) or, where the lesson works a formula, with that formula in the open.
#include "study/quiz_bank.h"

#include "gpu/gpu_preset.h"
#include "numerics/number_format.h"
#include "occupancy/occupancy.h"
#include "perf/data_parallel_traffic.h"
#include "perf/kernel_chain.h"
#include "perf/littles_law.h"
#include "perf/serving.h"
#include "training/memory_budget.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::study::bank {
namespace {

using std::to_string;

std::string plural(long long count, const std::string& one, const std::string& many)
{
    return formatNumber(static_cast<double>(count)) + " " + (count == 1 ? one : many);
}

// --- CUDA graphs (the streams lesson's section) ------------------------------------------------

perf::KernelChainInput drawChain(QuizRng& rng)
{
    perf::KernelChainInput input; // the measured defaults: 2.7 us a launch call, 6.4 us a kernel, 15 us + 0.58 us a node
    input.kernels = rng.pick(std::vector<int>{10, 20, 50, 100, 200});
    input.kernelSeconds = rng.pick(std::vector<int>{1, 2, 5, 10, 20}) * 1e-6;
    return input;
}

const char* kChainSource = "perf::planKernelChain (core/perf/kernel_chain.h); overheads measured in github.com/ahrefs/ocannl issue 488";
const char* kChainFacts = "Launched one by one, each launch call takes the host 2.7 us and the GPU starts a kernel 6.4 us after both its "
                          "launch and the kernel before are done; as a CUDA graph, the first kernel starts 15 us after cudaGraphLaunch and "
                          "each next one 0.58 us after the one before ends.";

QuizItem graphSpeedup(QuizRng& rng)
{
    const perf::KernelChainInput input = drawChain(rng);
    const perf::KernelChainPlan plan = perf::planKernelChain(input);
    QuizItem item;
    item.prompt = "A chain of " + to_string(input.kernels) + " dependent kernels of " + formatNumber(input.kernelSeconds * 1e6) + " us each. " +
                  kChainFacts + " How many times sooner does the chain end as a graph?";
    setNumber(item, plan.speedup(), plan.speedup() * 0.01, "");
    item.explanation = "One by one: " + formatNumber(plan.streamSeconds * 1e6, 5) + " us; as a graph: " + formatNumber(plan.graphSeconds * 1e6, 5) +
                       " us; " + formatNumber(plan.speedup(), 4) +
                       " times. The shorter the kernels, the more of the time is launch overhead, and the more a graph saves.";
    item.source = kChainSource;
    item.lessonLink = "warpscope:lesson?id=streams";
    return item;
}

QuizItem graphSavedPerKernel(QuizRng& rng)
{
    const perf::KernelChainInput input = drawChain(rng);
    const perf::KernelChainPlan plan = perf::planKernelChain(input);
    const double saved = (plan.streamSeconds - plan.graphSeconds) / input.kernels * 1e6;
    QuizItem item;
    item.prompt = "A chain of " + to_string(input.kernels) + " dependent kernels of " + formatNumber(input.kernelSeconds * 1e6) + " us each. " +
                  kChainFacts + " How many us does the graph save per kernel, on average?";
    setNumber(item, saved, std::fabs(saved) * 0.01, "us");
    item.explanation = "(" + formatNumber(plan.streamSeconds * 1e6, 5) + " - " + formatNumber(plan.graphSeconds * 1e6, 5) + ") / " +
                       to_string(input.kernels) + " = " + formatNumber(saved, 4) +
                       " us: about the 6.4 us gap less the 0.58 us between nodes, minus the graph's 15 us start spread over the chain. "
                       "A graph does not make any kernel's own work shorter.";
    item.source = kChainSource;
    item.lessonLink = "warpscope:lesson?id=streams";
    return item;
}

QuizItem graphBreakEven(QuizRng& rng)
{
    perf::KernelChainInput input;
    input.kernelSeconds = rng.pick(std::vector<int>{1, 5, 20}) * 1e-6;
    input.graphFixedSeconds = rng.pick(std::vector<int>{10, 15, 30, 60, 120}) * 1e-6;
    int kernels = 1;
    for (; kernels < 1000; ++kernels) {
        input.kernels = kernels;
        const perf::KernelChainPlan plan = perf::planKernelChain(input);
        if (plan.graphSeconds < plan.streamSeconds)
            break;
    }
    QuizItem item;
    item.prompt = "Kernels of " + formatNumber(input.kernelSeconds * 1e6) + " us each, in a dependent chain. One by one, each launch call takes "
                  "the host 2.7 us and the GPU starts a kernel 6.4 us after its launch and the kernel before are done. As a graph, the first "
                  "kernel starts " + formatNumber(input.graphFixedSeconds * 1e6) +
                  " us after cudaGraphLaunch and each next one 0.58 us after the one before. From how many kernels on does the graph "
                  "finish first?";
    setNumber(item, kernels, 0, "kernels");
    item.explanation = "One by one the chain ends at 2.7 + n (6.4 + k) us, as a graph at " + formatNumber(input.graphFixedSeconds * 1e6) +
                       " + n k + (n - 1) 0.58 us: the graph wins once 5.82 n > " + formatNumber(input.graphFixedSeconds * 1e6 - 2.7 - 0.58, 4) +
                       ", at n = " + to_string(kernels) + ". The kernels' own time k cancels out.";
    item.source = kChainSource;
    item.lessonLink = "warpscope:lesson?id=streams";
    return item;
}

QuizItem graphRemoves(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Capturing a chain of short kernels into a CUDA graph and launching it with cudaGraphLaunch removes what?";
    setChoices(item, rng, "The host's launch call per kernel and most of the GPU's gap between dependent kernels",
               {"The kernels' own run time, since a graph runs them at once", "The copies between host and device",
                "The need for the kernels to be dependent: a graph always runs them in parallel"});
    item.explanation = "A graph is instantiated once; each launch then submits the whole chain in one call, so the per-kernel host call and "
                       "most of the per-kernel start-up gap go. Each kernel's own work, and the order its dependencies impose, stay.";
    item.source = "CUDA C++ Programming Guide, \"CUDA Graphs\"; perf::planKernelChain";
    item.lessonLink = "warpscope:lesson?id=streams";
    return item;
}

QuizItem graphHostTime(QuizRng& rng)
{
    perf::KernelChainInput input = drawChain(rng);
    input.kernelSeconds = 50e-6; // long kernels: the host finishes launching long before the GPU
    const perf::KernelChainPlan plan = perf::planKernelChain(input);
    const double hostUs = plan.hostLaunches.empty() ? 0 : plan.hostLaunches.back().end * 1e6;
    QuizItem item;
    item.prompt = "The host launches " + to_string(input.kernels) + " kernels one by one; each launch call takes it 2.7 us. After how many us "
                  "is the host done launching (a graph would take one call)?";
    setNumber(item, hostUs, hostUs * 0.01, "us");
    item.explanation = to_string(input.kernels) + " x 2.7 = " + formatNumber(hostUs, 5) +
                       " us of CPU time per chain, spent again on every iteration; with a graph it is one cudaGraphLaunch.";
    item.source = kChainSource;
    item.lessonLink = "warpscope:lesson?id=streams";
    return item;
}

// --- FSDP (the multi-GPU lesson's section) ----------------------------------------------------

QuizItem fsdpAllGather(QuizRng& rng)
{
    const int gpus = rng.pick(std::vector<int>{2, 4, 8, 16, 64});
    const double parameters = rng.pick(std::vector<double>{1e9, 7e9, 13e9, 70e9});
    const perf::DataParallelTraffic t = perf::dataParallelTraffic(gpus, 2 * parameters, 2 * parameters);
    const double gb = t.allGatherForwardBytes / 1e9;
    QuizItem item;
    item.prompt = "FSDP (ZeRO stage 3) over " + to_string(gpus) + " GPUs on a ring, a model of " + formatNumber(parameters / 1e9) +
                  " billion 16-bit parameters. Before the forward pass each GPU all-gathers the parameters. How many GB (10^9 bytes) "
                  "does each GPU send for that one all-gather?";
    setNumber(item, gb, gb * 0.01, "GB");
    item.explanation = "An all-gather on a ring sends (N - 1) / N of the buffer from each GPU: " + to_string(gpus - 1) + " / " + to_string(gpus) +
                       " x " + formatNumber(2 * parameters / 1e9) + " GB = " + formatNumber(gb, 4) + " GB.";
    item.source = "perf::dataParallelTraffic (core/perf/data_parallel_traffic.h); Rajbhandari et al., ZeRO, SC 2020, section 7";
    item.lessonLink = "warpscope:lesson?id=multi-gpu";
    item.figureLink = "warpscope:allreduce?gpus=" + to_string(std::min(gpus, 8)) + "&bytes=1G&link=nvlink4&step=0";
    return item;
}

QuizItem fsdpRatio(QuizRng& rng)
{
    const int gpus = rng.pick(std::vector<int>{4, 8, 32});
    const bool fp32Gradients = rng.uniform(0, 1) == 1;
    const double parameters = 7e9;
    const perf::DataParallelTraffic t = perf::dataParallelTraffic(gpus, 2 * parameters, (fp32Gradients ? 4 : 2) * parameters);
    const double ratio = t.fsdpBytes() / t.ddpBytes();
    QuizItem item;
    item.prompt = "Over " + to_string(gpus) + " GPUs, a model keeps 16-bit parameters and " + (fp32Gradients ? "32-bit" : "16-bit") +
                  " gradients. Per step, DDP all-reduces the gradients; FSDP all-gathers the parameters twice and reduce-scatters the "
                  "gradients. How many times DDP's bytes does each GPU send under FSDP?";
    setNumber(item, ratio, ratio * 0.001, "");
    item.explanation = "Per GPU, with a = (N - 1) / N: DDP sends 2 a G, FSDP 2 a P + a G, P and G the parameter and gradient bytes: (2 P + G) / (2 G) = " +
                       formatNumber(ratio, 4) + (fp32Gradients ? ". With 32-bit gradients G = 2 P, so FSDP sends no more than DDP." : ": 1.5 when P = G.");
    item.source = "perf::dataParallelTraffic; Rajbhandari et al., ZeRO, SC 2020, section 7";
    item.lessonLink = "warpscope:lesson?id=multi-gpu";
    return item;
}

QuizItem fsdpStatesPerGpu(QuizRng& rng)
{
    const int gpus = rng.pick(std::vector<int>{8, 16, 64, 256});
    const double parameters = rng.pick(std::vector<double>{7e9, 13e9, 70e9});
    const training::MemoryBudget budget =
        training::memoryBudget(parameters, training::Precision::Mixed16, training::Optimizer::Adam, {}, {3, gpus});
    const double gb = budget.modelStateBytes() / 1e9;
    QuizItem item;
    item.prompt = "Mixed-precision Adam keeps 16 bytes per parameter. A " + formatNumber(parameters / 1e9) + "-billion-parameter model is "
                  "trained with FSDP (ZeRO stage 3) over " + to_string(gpus) + " GPUs. How many GB (10^9 bytes) of model states does each GPU keep?";
    setNumber(item, gb, gb * 0.01, "GB");
    item.explanation = "Stage 3 partitions weights, gradients and optimizer states alike: 16 x " + formatNumber(parameters / 1e9) + "e9 / " +
                       to_string(gpus) + " = " + formatNumber(gb, 4) + " GB, against " + formatNumber(16 * parameters / 1e9) +
                       " GB on every GPU without it. Activations are not partitioned.";
    item.source = "training::memoryBudget with ZeRO stage 3 (core/training/memory_budget.h); Rajbhandari et al., ZeRO, SC 2020";
    item.lessonLink = "warpscope:lesson?id=multi-gpu";
    item.figureLink = "warpscope:memory-budget?params=" + linkNumber(parameters) + "&precision=mixed&optimizer=adam&zero=3&gpus=" + to_string(gpus) +
                      "&layers=0&hidden=4096&heads=32&seq=4096&batch=1&recompute=0";
    return item;
}

QuizItem fsdpOrder(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does FSDP (ZeRO stage 3) communicate in one training step?";
    setChoices(item, rng, "All-gather the parameters before the forward pass and again before the backward pass, then reduce-scatter the gradients",
               {"One all-reduce of the gradients after the backward pass, as DDP does",
                "Broadcast the parameters from GPU 0 before each step and gather the gradients to it after",
                "Nothing: each GPU trains on its own shard of the model and the shards are averaged at the end"});
    item.explanation = "Each GPU keeps only its shard of the parameters, so it must gather a layer's full weights to compute it, forward and "
                       "backward; each GPU then needs only the summed gradients of its own shard, which a reduce-scatter gives.";
    item.source = "Rajbhandari et al., ZeRO, SC 2020; PyTorch FSDP documentation; perf::dataParallelTraffic";
    item.lessonLink = "warpscope:lesson?id=multi-gpu";
    return item;
}

// --- Serving -----------------------------------------------------------------------------------

const perf::ServingModel& drawModel(QuizRng& rng) { return rng.pick(perf::servingModels()); }

std::string shapeText(const perf::ServingModel& model)
{
    return std::string(model.name) + " (" + to_string(model.cache.layers) + " layers, " + to_string(model.cache.kvHeads) +
           " key-value heads of dimension " + to_string(model.cache.headDim) + ")";
}

QuizItem kvPerToken(QuizRng& rng)
{
    const perf::ServingModel& model = drawModel(rng);
    const bool fp8 = rng.uniform(0, 1) == 1;
    const double bytes = perf::kvCacheBytesPerToken(model.cache, fp8 ? 1 : 2);
    QuizItem item;
    item.prompt = "How many KB (10^3 bytes) of KV cache does each token add for " + shapeText(model) + ", cached in " + (fp8 ? "FP8" : "FP16") + "?";
    setNumber(item, bytes / 1e3, bytes / 1e3 * 0.01, "KB");
    item.explanation = "2 (K and V) x " + to_string(model.cache.layers) + " x " + to_string(model.cache.kvHeads) + " x " +
                       to_string(model.cache.headDim) + " x " + (fp8 ? "1" : "2") + " bytes = " + formatNumber(bytes) + " bytes.";
    item.source = std::string("perf::kvCacheBytesPerToken; ") + std::string(model.source);
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

struct ServingGpu {
    const char* name;
    double bytes;
    const char* source;
};

// Capacities as the datasheets give them, read as 2^30-byte GB (the training-memory lesson shows why).
const std::vector<ServingGpu>& servingGpus()
{
    static const std::vector<ServingGpu> gpus = {
        {"H100 SXM (80 GB)", 80.0 * 1073741824.0, "NVIDIA H100 datasheet"},
        {"H200 (141 GB)", 141.0 * 1073741824.0, "NVIDIA H200 datasheet"},
        {"B200 (180 GB)", 180.0 * 1073741824.0, "NVIDIA Blackwell datasheet, HGX B200"},
    };
    return gpus;
}

QuizItem maxSequences(QuizRng& rng)
{
    // Llama 2 70B in FP8 (70 GB of weights) or 7B in FP16 (14 GB): what is left holds the cache.
    const perf::ServingModel& model = drawModel(rng);
    const bool big = model.cache.layers == 80;
    const double weights = big ? 70e9 : 14e9;
    const ServingGpu& gpu = rng.pick(servingGpus());
    const int tokens = rng.pick(std::vector<int>{2048, 4096});
    const double perSequence = perf::kvCacheBytes(model.cache, tokens, 1, 2);
    const double left = gpu.bytes - weights;
    const double sequences = left > 0 ? std::floor(left / perSequence) : 0;
    QuizItem item;
    item.prompt = std::string(model.name) + " with " + (big ? "FP8 weights (70 GB)" : "FP16 weights (14 GB)") + " is served on one " + gpu.name +
                  ", its datasheet GB read as 2^30 bytes. Its KV cache is FP16. Leaving nothing else aside, how many sequences of " +
                  to_string(tokens) + " tokens fit?";
    setNumber(item, sequences, 0, "sequences");
    item.explanation = "Free: " + formatNumber(gpu.bytes / 1e9, 5) + " - " + formatNumber(weights / 1e9) + " = " + formatNumber(left / 1e9, 5) +
                       " GB; each sequence: " + formatNumber(perSequence / 1e9, 4) + " GB (" + shapeText(model) + "); floor(" +
                       formatNumber(left / perSequence, 4) + ") = " + formatNumber(sequences) +
                       ". Activations, the allocator and fragmentation take some of it in practice.";
    item.source = std::string("perf::kvCacheBytes; ") + gpu.source + "; " + std::string(model.source);
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem longestContext(QuizRng& rng)
{
    const perf::ServingModel& model = drawModel(rng);
    const bool big = model.cache.layers == 80;
    const double weights = big ? 70e9 : 14e9;
    const ServingGpu& gpu = rng.pick(servingGpus());
    const bool fp8 = rng.uniform(0, 1) == 1;
    const double perToken = perf::kvCacheBytesPerToken(model.cache, fp8 ? 1 : 2);
    const double tokens = std::floor((gpu.bytes - weights) / perToken);
    QuizItem item;
    item.prompt = std::string(model.name) + " with " + (big ? "FP8 weights (70 GB)" : "FP16 weights (14 GB)") + " serves one sequence on a " +
                  gpu.name + ", its datasheet GB read as 2^30 bytes, with an " + (fp8 ? "FP8" : "FP16") +
                  " KV cache. How many tokens of context fit in the memory the weights leave, counting only the cache?";
    setNumber(item, tokens, 0, "tokens");
    item.explanation = "(" + formatNumber(gpu.bytes / 1e9, 5) + " - " + formatNumber(weights / 1e9) + ") GB / " + formatNumber(perToken) +
                       " bytes per token = " + formatNumber(tokens) + " tokens, far beyond the " + formatNumber(model.contextTokens) +
                       " it was trained for: one sequence rarely fills a GPU; many do.";
    item.source = std::string("perf::kvCacheBytesPerToken; ") + gpu.source + "; " + std::string(model.source);
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem pagedWaste(QuizRng& rng)
{
    const perf::ServingModel& model = drawModel(rng);
    const int blockTokens = rng.pick(std::vector<int>{16, 32});
    const int tokens = rng.uniform(100, 4000);
    const int blocks = (tokens + blockTokens - 1) / blockTokens;
    const double waste = (static_cast<double>(blocks) * blockTokens - tokens) * perf::kvCacheBytesPerToken(model.cache, 2);
    QuizItem item;
    item.prompt = "A paged KV cache (as vLLM's PagedAttention) allocates " + std::string(model.name) + "'s FP16 cache in blocks of " +
                  to_string(blockTokens) + " tokens. A sequence holds " + to_string(tokens) +
                  " tokens. How many KB (10^3 bytes) of its last block are allocated but unused?";
    setNumber(item, waste / 1e3, std::max(waste / 1e3 * 0.01, 1e-9), "KB");
    item.explanation = "ceil(" + to_string(tokens) + " / " + to_string(blockTokens) + ") = " + to_string(blocks) + " blocks hold " +
                       to_string(blocks * blockTokens) + " tokens: " + to_string(blocks * blockTokens - tokens) + " unused x " +
                       formatNumber(perf::kvCacheBytesPerToken(model.cache, 2)) + " bytes = " + formatNumber(waste / 1e3, 5) +
                       " KB. At most one block per sequence is wasted, where reserving the whole context would waste the rest of it.";
    item.source = std::string("perf::kvCacheBytesPerToken; Kwon et al., PagedAttention, SOSP 2023; ") + std::string(model.source);
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem decodeIntensity(QuizRng& rng)
{
    // Decode at batch B reads each weight once and uses it for B tokens: 2 B FLOP per weight.
    const int batch = rng.pick(std::vector<int>{1, 8, 32, 64, 256});
    const bool fp8 = rng.uniform(0, 1) == 1;
    const double intensity = 2.0 * batch / (fp8 ? 1 : 2);
    QuizItem item;
    item.prompt = "Decoding one token for each of " + plural(batch, "sequence", "sequences") + " reads every weight once (" +
                  (fp8 ? "FP8, 1 byte" : "FP16, 2 bytes") + ") and does 2 FLOP per weight per sequence. Ignoring the KV cache, how many "
                  "FLOP per byte of weights is that?";
    setNumber(item, intensity, 0, "FLOP/byte");
    item.explanation = "2 x " + to_string(batch) + " / " + (fp8 ? "1" : "2") + " = " + formatNumber(intensity) +
                       " FLOP per byte. The H100 SXM's FP16 Tensor Core ridge is 295 (the roofline lesson): decode stays memory-bound until "
                       "the batch is in the hundreds, which is why batching raises throughput almost for free.";
    item.source = "the serving and roofline lessons; Kaplan et al. 2020 (2 FLOP per parameter per token)";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

// --- Fusion and FlashAttention -----------------------------------------------------------------

QuizItem scoreMatrixMemory(QuizRng& rng)
{
    const int n = rng.pick(std::vector<int>{2048, 4096, 8192, 32768});
    const int heads = rng.pick(std::vector<int>{8, 32});
    const int batch = rng.pick(std::vector<int>{1, 4});
    const double bytes = 2.0 * n * static_cast<double>(n) * heads * batch;
    QuizItem item;
    item.prompt = "Unfused attention materialises the n x n score matrix in FP16 for every head. With n = " + to_string(n) + " tokens, " +
                  to_string(heads) + " heads and a batch of " + to_string(batch) + ", how many GB (10^9 bytes) does one layer's score matrix take?";
    setNumber(item, bytes / 1e9, bytes / 1e9 * 0.01, "GB");
    item.explanation = to_string(n) + "^2 x 2 bytes x " + to_string(heads) + " x " + to_string(batch) + " = " + formatNumber(bytes / 1e9, 4) +
                       " GB. It grows with n^2; a fused kernel keeps one tile of it on chip at a time and never stores it.";
    item.source = "the flash-attention lesson; Dao et al., FlashAttention, NeurIPS 2022";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    return item;
}

QuizItem elementwiseFusion(QuizRng& rng)
{
    const int ops = rng.pick(std::vector<int>{2, 3, 4, 6});
    const double elements = rng.pick(std::vector<double>{1e6, 16e6, 64e6});
    const double unfused = ops * 2.0 * 4.0 * elements, fused = 2.0 * 4.0 * elements;
    QuizItem item;
    item.prompt = std::to_string(ops) + " elementwise operations (bias, activation, scale, ...) run on " + formatNumber(elements / 1e6) +
                  " million FP32 values. As separate kernels each reads and writes the whole tensor; fused, one kernel reads it once and "
                  "writes it once. How many MB (10^6 bytes) of DRAM traffic does fusion save?";
    setNumber(item, (unfused - fused) / 1e6, (unfused - fused) / 1e6 * 0.01, "MB");
    item.explanation = "Unfused: " + std::to_string(ops) + " x 2 x 4 bytes x " + formatNumber(elements) + " = " + formatNumber(unfused / 1e6) +
                       " MB; fused: " + formatNumber(fused / 1e6) + " MB; saved " + formatNumber((unfused - fused) / 1e6) +
                       " MB. Memory-bound kernels run in time proportional to their bytes, so the chain gets about " + std::to_string(ops) +
                       " times faster.";
    item.source = "the flash-attention lesson (kernel fusion); the roofline lesson (memory-bound time = bytes / bandwidth)";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    return item;
}

QuizItem flashKvReads(QuizRng& rng)
{
    // FlashAttention's outer loop over query tiles of Br rows reads all of K and V once per tile.
    const int n = rng.pick(std::vector<int>{1024, 4096, 16384});
    const int tile = rng.pick(std::vector<int>{64, 128});
    const int d = 128;
    const double tiles = static_cast<double>((n + tile - 1) / tile);
    const double bytes = tiles * 2.0 * n * d * 2.0; // K and V, FP16
    QuizItem item;
    item.prompt = "A fused attention kernel processes the queries in tiles of " + to_string(tile) + " rows; for each tile it streams all of K and "
                  "V (n = " + to_string(n) + " tokens, head dimension 128, FP16) through shared memory. How many MB (10^6 bytes) of K and V does "
                  "one head read from memory, counting every re-read?";
    setNumber(item, bytes / 1e6, bytes / 1e6 * 0.01, "MB");
    item.explanation = to_string(n) + " / " + to_string(tile) + " = " + formatNumber(tiles) + " tiles, each reading 2 x " + to_string(n) +
                       " x 128 x 2 bytes = " + formatNumber(2.0 * n * d * 2.0 / 1e6) + " MB: " + formatNumber(bytes / 1e6, 5) +
                       " MB. Larger tiles mean fewer re-reads, bounded by the shared memory a tile needs; the n x n scores are never stored.";
    item.source = "Dao et al., FlashAttention, NeurIPS 2022, Algorithm 1 and its IO analysis; kernels/attention (attention_fused)";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    return item;
}

QuizItem flashTileShared(QuizRng& rng)
{
    // A fused attention tile keeps a Q tile of Br rows and a K and a V tile of Bc rows, d wide, in FP16.
    const int br = rng.pick(std::vector<int>{64, 128});
    const int bc = rng.pick(std::vector<int>{32, 64, 128});
    const int d = rng.pick(std::vector<int>{64, 128});
    const double bytes = (br + 2.0 * bc) * d * 2.0;
    const gpu::GpuPreset preset = *gpu::findPreset(rng.uniform(0, 1) == 1 ? "sm_90" : "sm_120");
    QuizItem item;
    item.prompt = "A fused attention kernel keeps a " + to_string(br) + "-row tile of Q and " + to_string(bc) + "-row tiles of K and V, head "
                  "dimension " + to_string(d) + ", in FP16 shared memory. How many KB (1,024 bytes) is that per block? (" + presetLabel(preset) +
                  " allows a block " + formatNumber(preset.sharedPerBlockOptin / 1024.0) + " KB with the opt-in.)";
    setNumber(item, bytes / 1024, bytes / 1024 * 0.001, "KB");
    item.explanation = "(" + to_string(br) + " + 2 x " + to_string(bc) + ") x " + to_string(d) + " x 2 bytes = " + formatNumber(bytes) + " B = " +
                       formatNumber(bytes / 1024) + " KB" +
                       (bytes > preset.sharedPerBlockOptin ? ": more than the block may have, so the tiles must shrink."
                                                           : ": it fits; above 48 KB it needs the opt-in, and a larger tile leaves room for fewer blocks.");
    item.source = "Dao et al., FlashAttention (tiles of Q, K and V in shared memory); the preset's opt-in limit (CUDA Programming Guide)";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    return item;
}

// --- Tensor Cores ------------------------------------------------------------------------------

struct TensorPeak {
    const char* gpu;
    const char* arch;        // the preset whose bandwidth the ridge uses
    double fp16Dense;        // TFLOP/s, dense, FP32 accumulate
    const char* source;
};

const std::vector<TensorPeak>& tensorPeaks()
{
    static const std::vector<TensorPeak> peaks = {
        {"A100 40 GB", "sm_80", 312, "NVIDIA A100 datasheet: 312 TFLOP/s dense FP16"},
        {"H100 SXM", "sm_90", 989, "NVIDIA H100 datasheet (SXM): 1,979 with sparsity, 989 dense"},
        {"H200", "H200", 989, "NVIDIA H200 datasheet: the H100's Tensor Core figures"},
        {"B200", "sm_100", 2250, "NVIDIA Blackwell datasheet, HGX B200: 4.5 PFLOP/s with sparsity, 2,250 dense"},
    };
    return peaks;
}

QuizItem tensorRidge(QuizRng& rng)
{
    const TensorPeak& peak = rng.pick(tensorPeaks());
    const gpu::GpuPreset preset = *gpu::findPreset(peak.arch);
    const double bandwidth = gpu::peakDramBytesPerSecond(preset);
    const double ridge = peak.fp16Dense * 1e12 / bandwidth;
    QuizItem item;
    item.prompt = "The " + std::string(peak.gpu) + " multiplies FP16 on its Tensor Cores at " + formatNumber(peak.fp16Dense) +
                  " TFLOP/s (dense) and reads DRAM at " + formatNumber(bandwidth / 1e9) +
                  " GB/s. At how many FLOP per DRAM byte does a Tensor Core kernel become compute-bound?";
    setNumber(item, ridge, ridge * 0.01, "FLOP/byte");
    item.explanation = formatNumber(peak.fp16Dense) + "e12 / " + formatNumber(bandwidth / 1e9) + "e9 = " + formatNumber(ridge, 4) +
                       " FLOP per byte: Tensor Cores raise the flat roof, not the slanted one.";
    item.source = std::string(peak.source) + "; gpu::peakDramBytesPerSecond (the " + std::string(preset.name) + " preset)";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    return item;
}

QuizItem mmaCount(QuizRng& rng)
{
    const int m = 16 * rng.pick(std::vector<int>{4, 8, 16, 64});
    const int n = 8 * rng.pick(std::vector<int>{8, 16, 32, 128});
    const int k = 16 * rng.pick(std::vector<int>{4, 16, 64});
    const double count = static_cast<double>(m / 16) * (n / 8) * (k / 16);
    QuizItem item;
    item.prompt = "C = A B with A " + to_string(m) + " x " + to_string(k) + " and B " + to_string(k) + " x " + to_string(n) +
                  " in FP16, computed only with mma.sync.m16n8k16 (each multiplies a 16 x 16 tile of A by a 16 x 8 tile of B). How many "
                  "mma.sync instructions does the whole product take (warp-instructions)?";
    setNumber(item, count, 0, "mma");
    item.explanation = "(" + to_string(m) + " / 16) x (" + to_string(n) + " / 8) x (" + to_string(k) + " / 16) = " + formatNumber(count) +
                       ": each output tile of 16 x 8 needs K / 16 of them, and each does 16 x 8 x 16 = 2,048 multiply-adds.";
    item.source = "NVIDIA PTX ISA, mma.sync shapes (m16n8k16); the tensor-cores lesson";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    item.figureLink = "warpscope:step?kernel=matmul_wmma&block=0&warp=0&at=20";
    return item;
}

QuizItem gemmTimeAtPeak(QuizRng& rng)
{
    const TensorPeak& peak = rng.pick(tensorPeaks());
    const int size = rng.pick(std::vector<int>{4096, 8192, 16384});
    const double flops = 2.0 * size * static_cast<double>(size) * size;
    const double us = flops / (peak.fp16Dense * 1e12) * 1e6;
    QuizItem item;
    item.prompt = "A square FP16 matrix multiply of size " + to_string(size) + " runs on the " + std::string(peak.gpu) + " (" +
                  formatNumber(peak.fp16Dense) + " dense FP16 TFLOP/s). At the peak, how many us would it take?";
    setNumber(item, us, us * 0.01, "us");
    item.explanation = "2 n^3 = " + formatNumber(flops / 1e12, 5) + "e12 FLOP / " + formatNumber(peak.fp16Dense) + "e12 FLOP/s = " +
                       formatNumber(us, 5) + " us. Real kernels reach 70 to 90 % of it at these sizes; small shapes far less.";
    item.source = peak.source;
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    return item;
}

// --- Block-scaled formats ---------------------------------------------------------------------

QuizItem nvfp4Scale(QuizRng& rng)
{
    // NVFP4: a 16-element block's scale is its largest magnitude over E2M1's 6, stored in FP8 E4M3.
    const double amax = rng.pick(std::vector<double>{0.7, 1.9, 3.3, 10, 13.7, 50, 200});
    const double scale = numerics::roundTo(numerics::Format::FP8E4M3, amax / 6.0, numerics::Overflow::Saturate);
    QuizItem item;
    item.prompt = "An NVFP4 block of 16 values has largest magnitude " + formatNumber(amax) +
                  ". Its scale is that over E2M1's largest value, 6, stored in FP8 E4M3. What scale is stored?";
    setNumber(item, scale, scale * 1e-9, "");
    item.explanation = formatNumber(amax) + " / 6 = " + formatNumber(amax / 6.0) + ", rounded to E4M3 (3 mantissa bits) = " + formatNumber(scale) +
                       ". Unlike MX's power-of-two E8M0, an E4M3 scale can sit close to amax / 6, so the block's largest value lands near 6.";
    item.source = "numerics::roundTo(FP8E4M3); NVIDIA, Introducing NVFP4 (2025)";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    item.figureLink = "warpscope:formats?format=fp8e4m3&value=" + linkNumber(amax / 6.0);
    return item;
}

// E2M1's values (OCP MX v1.0): 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives.
double roundE2M1(double x)
{
    constexpr std::array<double, 8> grid{0, 0.5, 1, 1.5, 2, 3, 4, 6};
    const double a = std::min(std::fabs(x), 6.0);
    double best = 0;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const double d = std::fabs(a - grid[i]), bestD = std::fabs(a - best);
        // ties to the even code: codes 0, 2, 4, 6 are 0, 1, 2, 4 (an even mantissa bit)
        if (d < bestD || (d == bestD && i % 2 == 0))
            best = grid[i];
    }
    return std::copysign(best, x);
}

QuizItem e2m1Stored(QuizRng& rng)
{
    const int k = rng.uniform(-2, 1);
    const double scale = std::exp2(k);
    const double value = rng.pick(std::vector<double>{0.3, 0.8, 1.2, 1.3, 2.6, 3.4, 4.9, 5.5, 7.2}) * scale;
    const double stored = roundE2M1(value / scale) * scale;
    QuizItem item;
    item.prompt = "An MXFP4 block's scale is 2^" + to_string(k) + ". What value is stored for " + formatNumber(value) +
                  " (E2M1 holds 0, 0.5, 1, 1.5, 2, 3, 4 and 6; round to nearest, ties to even, clamp at 6)?";
    setNumber(item, stored, std::fabs(stored) * 1e-12, "");
    item.explanation = formatNumber(value) + " / 2^" + to_string(k) + " = " + formatNumber(value / scale) + " rounds to " +
                       formatNumber(roundE2M1(value / scale)) + ", times the scale = " + formatNumber(stored) + ".";
    item.source = "OCP Microscaling Formats (MX) Specification v1.0 (2023): E2M1 and the block's scale";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

QuizItem blockScaledWeights(QuizRng& rng)
{
    struct Encoding { const char* name; double bits; };
    const Encoding encoding = rng.pick(std::vector<Encoding>{{"FP16", 16}, {"FP8", 8}, {"MXFP8", 8.25}, {"MXFP6", 6.25}, {"MXFP4", 4.25}, {"NVFP4", 4.5}});
    const double parameters = rng.pick(std::vector<double>{7e9, 70e9, 405e9});
    const double gb = parameters * encoding.bits / 8 / 1e9;
    QuizItem item;
    item.prompt = "How many GB (10^9 bytes) do the weights of a " + formatNumber(parameters / 1e9) + "-billion-parameter model take in " +
                  encoding.name + " (" + formatNumber(encoding.bits) + " bits per element, scales included)?";
    setNumber(item, gb, gb * 0.01, "GB");
    item.explanation = formatNumber(parameters / 1e9) + "e9 x " + formatNumber(encoding.bits) + " / 8 = " + formatNumber(gb, 4) + " GB.";
    item.source = "OCP MX Specification v1.0 (8-bit scale per 32); NVIDIA, Introducing NVFP4 (8-bit scale per 16); the microscaling lesson";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

QuizItem scaleBytes(QuizRng& rng)
{
    const bool nvfp4 = rng.uniform(0, 1) == 1;
    const double elements = rng.pick(std::vector<double>{4096.0 * 4096, 8192.0 * 8192, 8192.0 * 28672});
    const int block = nvfp4 ? 16 : 32;
    const double bytes = elements / block; // one 8-bit scale per block
    QuizItem item;
    item.prompt = "A weight matrix of " + formatNumber(elements) + " elements is stored in " + (nvfp4 ? "NVFP4" : "MXFP4") +
                  ": 4-bit elements, one 8-bit scale per block of " + to_string(block) + ". How many MB (10^6 bytes) do the scales take?";
    setNumber(item, bytes / 1e6, bytes / 1e6 * 0.001, "MB");
    item.explanation = formatNumber(elements) + " / " + to_string(block) + " = " + formatNumber(bytes) + " scales of one byte = " +
                       formatNumber(bytes / 1e6, 5) + " MB, against " + formatNumber(elements / 2 / 1e6, 5) + " MB of elements: 8 / " + to_string(block) +
                       " = " + formatNumber(8.0 / block) + " extra bits per element." + (nvfp4 ? " NVFP4's per-tensor FP32 scale adds 4 bytes in all." : "");
    item.source = "OCP MX Specification v1.0 (E8M0 per 32); NVIDIA, Introducing NVFP4 (E4M3 per 16), 2025";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

QuizItem fp4Native(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Which GPUs' Tensor Cores multiply FP4 (E2M1) inputs natively?";
    setChoices(item, rng, "Blackwell: the B200 and the RTX 5090", {"Hopper: the H100 and H200", "Ampere: the A100", "Every GPU since Volta"});
    item.explanation = "FP8 arrived with Hopper (and Ada); FP4 and FP6 with Blackwell's fifth-generation Tensor Cores. Older GPUs can store "
                       "FP4 weights but must convert them to a wider format to multiply.";
    item.source = "NVIDIA Blackwell architecture technical brief and datasheet; NVIDIA H100 datasheet (no FP4); the tensor-cores lesson";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

// --- Blackwell: the B200 and RTX 5090 presets ---------------------------------------------------

gpu::GpuPreset drawBlackwell(QuizRng& rng) { return *gpu::findPreset(rng.uniform(0, 1) == 1 ? "sm_100" : "sm_120"); }

QuizItem blackwellOccupancy(QuizRng& rng)
{
    const gpu::GpuPreset preset = drawBlackwell(rng);
    occupancy::OccupancyInput input;
    input.threadsPerBlock = rng.pick(std::vector<int>{96, 128, 256, 384, 512, 768, 1024});
    input.registersPerThread = rng.pick(std::vector<int>{32, 40, 64, 72});
    input.dynamicSharedBytes = rng.pick(std::vector<int>{0, 16, 32, 48}) * 1024;
    const occupancy::OccupancyResult r = occupancy::computeOccupancy(preset, input);
    QuizItem item;
    item.prompt = "On " + presetLabel(preset) + ", " + to_string(input.threadsPerBlock) + "-thread blocks use " +
                  to_string(input.registersPerThread) + " registers per thread and " + formatNumber(input.dynamicSharedBytes / 1024.0) +
                  " KB of dynamic shared memory. Predict the theoretical occupancy.";
    setNumber(item, r.occupancy * 100, 0.05, "%");
    item.explanation = r.explanation;
    item.source = "occupancy::computeOccupancy (cuda_occupancy.h, compute capability " + to_string(preset.computeMajor) + "." +
                  to_string(preset.computeMinor) + ")";
    item.lessonLink = "warpscope:lesson?id=occupancy";
    item.figureLink = "warpscope:occupancy?arch=" + std::string(preset.arch) + "&block=" + to_string(input.threadsPerBlock) +
                      "&regs=" + to_string(input.registersPerThread) + "&static_smem=0&dynamic_smem=" + to_string(input.dynamicSharedBytes) +
                      "&carveout=-1&barriers=1";
    return item;
}

QuizItem blackwellWaves(QuizRng& rng)
{
    const gpu::GpuPreset preset = drawBlackwell(rng);
    occupancy::OccupancyInput input;
    input.threadsPerBlock = rng.pick(std::vector<int>{128, 256, 512});
    input.registersPerThread = rng.pick(std::vector<int>{32, 64});
    const occupancy::OccupancyResult r = occupancy::computeOccupancy(preset, input);
    const int slots = r.activeBlocksPerSm * preset.smCount;
    const int blocks = rng.uniform(1, 6) * slots / 2 + rng.uniform(1, 50);
    const int waves = (blocks + slots - 1) / slots;
    QuizItem item;
    item.prompt = "A grid of " + formatNumber(blocks) + " blocks of " + to_string(input.threadsPerBlock) + " threads (" +
                  to_string(input.registersPerThread) + " registers each) runs on " + presetLabel(preset) + ", " + to_string(preset.smCount) +
                  " SMs. In how many waves do the blocks run?";
    setNumber(item, waves, 0, "waves");
    item.explanation = to_string(r.activeBlocksPerSm) + " blocks per SM x " + to_string(preset.smCount) + " SMs = " + formatNumber(slots) +
                       " at once; ceil(" + formatNumber(blocks) + " / " + formatNumber(slots) + ") = " + to_string(waves) + ".";
    item.source = "occupancy::computeOccupancy; the preset's SM count (" + std::string(preset.name) + ")";
    item.lessonLink = "warpscope:lesson?id=occupancy";
    item.figureLink = "warpscope:placement?arch=" + std::string(preset.arch) + "&grid=" + to_string(blocks) + "&block=" +
                      to_string(input.threadsPerBlock) + "&regs=" + to_string(input.registersPerThread) + "&static_smem=0&dynamic_smem=0";
    return item;
}

QuizItem blackwellRidge(QuizRng& rng)
{
    const gpu::GpuPreset preset = drawBlackwell(rng);
    const double flops = gpu::peakFp32FlopsPerSecond(preset), bytes = gpu::peakDramBytesPerSecond(preset);
    QuizItem item;
    item.prompt = presetLabel(preset) + ": " + to_string(preset.smCount) + " SMs x " + to_string(preset.timing.fp32LanesPerSm) + " FP32 lanes x 2 x " +
                  formatNumber(preset.timing.coreClockMHz) + " MHz against " + formatNumber(bytes / 1e9) +
                  " GB/s. Where is its FP32 ridge, in FLOP per byte?";
    setNumber(item, flops / bytes, flops / bytes * 0.01, "FLOP/byte");
    item.explanation = formatNumber(flops / 1e12, 4) + " TFLOP/s / " + formatNumber(bytes / 1e9) + " GB/s = " + formatNumber(flops / bytes, 4) +
                       (preset.computeMajor == 10 ? ". The B200's bandwidth grew far more than its FP32 rate: the lowest ridge of the presets."
                                                  : ". GDDR7 on a consumer card: far right, as the RTX 4090's.");
    item.source = std::string("gpu::peakFp32FlopsPerSecond and peakDramBytesPerSecond; ") +
                  (preset.computeMajor == 10 ? "NVIDIA Blackwell datasheet (HGX B200); SMs from a device query (pytorch/ao PR 4002)"
                                             : "NVIDIA RTX Blackwell GPU Architecture whitepaper");
    item.lessonLink = "warpscope:lesson?id=roofline";
    return item;
}

QuizItem blackwellLoadsPerWarp(QuizRng& rng)
{
    const gpu::GpuPreset preset = drawBlackwell(rng);
    const perf::BytesInFlight f = perf::bytesInFlight(preset);
    QuizItem item;
    item.prompt = "Little's law on " + presetLabel(preset) + ": " + formatNumber(gpu::peakDramBytesPerSecond(preset) / 1e9) + " GB/s, 700 cycles of "
                  "DRAM latency (the model's) at " + formatNumber(preset.timing.coreClockMHz) + " MHz, " + to_string(preset.smCount) + " SMs of " +
                  to_string(preset.maxWarpsPerSm()) + " warps. How many 128-byte loads must each warp keep in flight to saturate DRAM?";
    setNumber(item, f.loadsPerWarp, f.loadsPerWarp * 0.01, "loads");
    item.explanation = formatNumber(f.bytesInFlight / 1024, 4) + " KiB in flight / " + to_string(preset.smCount) + " SMs / 128 B = " +
                       formatNumber(f.warpLoadsInFlightPerSm, 4) + " loads per SM, / " + to_string(preset.maxWarpsPerSm()) + " warps = " +
                       formatNumber(f.loadsPerWarp, 3) + ". NVIDIA publishes no Blackwell latency; the 700 cycles are a model.";
    item.source = "perf::bytesInFlight (core/perf/littles_law.h) on the preset";
    item.lessonLink = "warpscope:lesson?id=latency";
    return item;
}

QuizItem blackwellUnpublished(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Which of these B200 numbers has NVIDIA not published, so that Warpscope's preset takes it from a B200's own device report?";
    setChoices(item, rng, "Its number of SMs (148)",
               {"Its memory (180 GB of HBM3e)", "Its memory bandwidth (7.7 TB/s)", "Its dense FP8 Tensor Core rate (4.5 PFLOP/s)"});
    item.explanation = "NVIDIA's datasheets give memory, bandwidth and throughput per precision, but no SM count, clock or L2 size: a device "
                       "query reports 148 SMs and 126.5 MB of L2, and the preset derives the clock from the datasheet's 75 TFLOP/s FP32.";
    item.source = "NVIDIA Blackwell datasheet (HGX B200); github.com/pytorch/ao pull request 4002 (a B200's device query); core/gpu/gpu_preset.cpp";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    return item;
}

} // namespace

void addSecondCurriculumQuestions(std::vector<Question>& bank)
{
    using K = QuestionKind;
    const std::vector<Question> questions = {
        {"cuda-graphs.speedup", "cuda-graphs", K::Numeric, "How much sooner a chain ends as a graph", true, graphSpeedup},
        {"cuda-graphs.saved-per-kernel", "cuda-graphs", K::Numeric, "What a graph saves per kernel", true, graphSavedPerKernel},
        {"cuda-graphs.break-even", "cuda-graphs", K::Numeric, "From how many kernels a graph wins", true, graphBreakEven},
        {"cuda-graphs.what-it-removes", "cuda-graphs", K::Choice, "What a graph removes", false, graphRemoves},
        {"cuda-graphs.host-time", "cuda-graphs", K::Numeric, "The host's time launching one by one", true, graphHostTime},
        {"fsdp.all-gather", "fsdp", K::Numeric, "Bytes of FSDP's parameter all-gather", true, fsdpAllGather},
        {"fsdp.against-ddp", "fsdp", K::Numeric, "FSDP's bytes against DDP's", true, fsdpRatio},
        {"fsdp.states-per-gpu", "fsdp", K::Numeric, "Model states per GPU under ZeRO-3", true, fsdpStatesPerGpu},
        {"fsdp.what-it-sends", "fsdp", K::Choice, "What FSDP communicates", false, fsdpOrder},
        {"serving.kv-per-token", "serving", K::Numeric, "KV cache per token", true, kvPerToken},
        {"serving.max-sequences", "serving", K::Numeric, "Sequences that fit beside the weights", true, maxSequences},
        {"serving.paged-waste", "serving", K::Numeric, "What a paged KV cache wastes", true, pagedWaste},
        {"serving.longest-context", "serving", K::Numeric, "The longest context that fits", true, longestContext},
        {"serving.decode-intensity", "serving", K::Numeric, "FLOP per byte of batched decode", true, decodeIntensity},
        {"fusion.score-memory", "fusion", K::Numeric, "The memory of a materialised score matrix", true, scoreMatrixMemory},
        {"fusion.elementwise", "fusion", K::Numeric, "What fusing elementwise kernels saves", true, elementwiseFusion},
        {"fusion.kv-rereads", "fusion", K::Numeric, "K and V bytes a fused kernel reads", true, flashKvReads},
        {"fusion.tile-shared", "fusion", K::Numeric, "Shared memory of a fused attention tile", true, flashTileShared},
        {"tensor-cores.ridge", "tensor-cores", K::Numeric, "The Tensor Core ridge", true, tensorRidge},
        {"tensor-cores.mma-count", "tensor-cores", K::Numeric, "mma.sync instructions of a product", true, mmaCount},
        {"tensor-cores.time-at-peak", "tensor-cores", K::Numeric, "A matrix multiply at the peak", true, gemmTimeAtPeak},
        {"microscaling.nvfp4-scale", "microscaling", K::Numeric, "An NVFP4 block's E4M3 scale", true, nvfp4Scale},
        {"microscaling.e2m1-stored", "microscaling", K::Predict, "A value stored in MXFP4", true, e2m1Stored},
        {"microscaling.weights", "microscaling", K::Numeric, "Weights in a block-scaled format", true, blockScaledWeights},
        {"microscaling.scale-bytes", "microscaling", K::Numeric, "The bytes of a tensor's block scales", true, scaleBytes},
        {"microscaling.native-fp4", "microscaling", K::Choice, "Which GPUs multiply FP4", false, fp4Native},
        {"blackwell.occupancy", "blackwell", K::Numeric, "Occupancy on sm_100 and sm_120", true, blackwellOccupancy},
        {"blackwell.waves", "blackwell", K::Numeric, "Waves on a Blackwell GPU", true, blackwellWaves},
        {"blackwell.ridge", "blackwell", K::Numeric, "The FP32 ridge of a Blackwell GPU", true, blackwellRidge},
        {"blackwell.loads-per-warp", "blackwell", K::Numeric, "Loads in flight per warp on Blackwell", true, blackwellLoadsPerWarp},
        {"blackwell.unpublished", "blackwell", K::Choice, "What NVIDIA has not published", false, blackwellUnpublished},
    };
    bank.insert(bank.end(), questions.begin(), questions.end());
}

} // namespace warpscope::study::bank
