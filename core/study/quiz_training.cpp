// Questions on training at scale: memory per parameter, activations, multi-GPU communication and
// inference. Numbers come from the training models (core/training), cited there.
#include "study/quiz_bank.h"

#include "numerics/number_format.h"
#include "perf/data_parallel_traffic.h"
#include "perf/serving.h"
#include "gpu/gpu_preset.h"
#include "training/collectives.h"
#include "training/memory_budget.h"

#include <cmath>
#include <string>
#include <vector>

namespace warpscope::study::bank {
namespace {

using std::to_string;

std::string billions(double parameters) { return formatNumber(parameters / 1e9, 4) + " billion"; }

QuizItem budgetQuestion(QuizRng& rng, training::Precision precision, training::Optimizer optimizer, const std::string& recipe)
{
    const double parameters = rng.pick(std::vector<double>{1.3e9, 7e9, 13e9, 70e9, 350e6});
    const training::MemoryBudget budget = training::memoryBudget(parameters, precision, optimizer);
    const training::BytesPerParameter& per = budget.perParameter;
    QuizItem item;
    item.prompt = "A model of " + billions(parameters) + " parameters, " + recipe +
                  ". How many GB (10^9 bytes) do the model states take, without activations?";
    setNumber(item, budget.totalBytes() / 1e9, budget.totalBytes() / 1e9 * 0.01, "GB");
    item.explanation = "Per parameter: weights " + formatNumber(per.weights) + " + gradients " + formatNumber(per.gradients) + " + master weights " +
                       formatNumber(per.masterWeights) + " + optimizer states " + formatNumber(per.optimizerStates) + " = " +
                       formatNumber(per.total()) + " bytes; x " + billions(parameters) + " = " + formatNumber(budget.totalBytes() / 1e9, 4) + " GB.";
    item.source = "training::memoryBudget (Rajbhandari et al., ZeRO, 2020, section 3.1)";
    item.figureLink = "warpscope:memory-budget?params=" + linkNumber(parameters) + "&precision=" + std::string(training::precisionKey(precision)) +
                      "&optimizer=" + std::string(training::optimizerKey(optimizer)) + "&zero=0&gpus=1&layers=0";
    return item;
}

QuizItem mixedAdam(QuizRng& rng)
{
    return budgetQuestion(rng, training::Precision::Mixed16, training::Optimizer::Adam,
                          "trained with Adam in mixed precision (16-bit weights and gradients, FP32 master weights and moments)");
}

QuizItem fp32Adam(QuizRng& rng)
{
    return budgetQuestion(rng, training::Precision::Fp32, training::Optimizer::Adam, "trained with Adam in FP32");
}

QuizItem sgdMomentum(QuizRng& rng)
{
    return budgetQuestion(rng, training::Precision::Mixed16, training::Optimizer::SgdMomentum,
                          "trained with SGD with momentum in mixed precision (FP32 master weights and momentum)");
}

QuizItem inferenceWeights(QuizRng& rng)
{
    const bool int8 = rng.uniform(0, 1) == 1;
    return budgetQuestion(rng, int8 ? training::Precision::InferenceInt8 : training::Precision::Inference16, training::Optimizer::Sgd,
                          int8 ? "served for inference with INT8 weights" : "served for inference with FP16 weights");
}

QuizItem activations(QuizRng& rng)
{
    training::TransformerShape shape;
    shape.layers = 1;
    shape.hidden = rng.pick(std::vector<int>{2048, 4096, 5120});
    shape.heads = shape.hidden / 128;
    shape.sequence = rng.pick(std::vector<int>{1024, 2048, 4096});
    shape.microBatch = rng.pick(std::vector<int>{1, 2, 4});
    shape.recompute = rng.uniform(0, 3) == 0;
    const double bytes = training::activationBytesPerLayer(shape);
    QuizItem item;
    item.prompt = "One transformer layer, hidden size " + to_string(shape.hidden) + ", " + to_string(shape.heads) + " heads, sequence " +
                  to_string(shape.sequence) + ", micro-batch " + to_string(shape.microBatch) + ", 16-bit activations" +
                  (shape.recompute ? ", with full activation recomputation" : ", no recomputation") +
                  ". How many MB (10^6 bytes) of activations does it keep for the backward pass?";
    setNumber(item, bytes / 1e6, bytes / 1e6 * 0.01, "MB");
    item.explanation = shape.recompute ? "Only the layer's input is kept: 2 s b h = " + formatNumber(bytes / 1e6, 4) + " MB."
                                       : "s b h (34 + 5 a s / h) = " + formatNumber(bytes / 1e6, 4) +
                                             " MB; the 5 a s / h term is the attention scores, which grow with the square of the sequence.";
    item.source = "training::activationBytesPerLayer (Korthikanti et al., Reducing Activation Recomputation, 2023, eq. 1)";
    return item;
}

QuizItem lostUpdate(QuizRng& rng)
{
    const double weight = rng.pick(std::vector<double>{1, 2, 0.5, 10});
    const double update = rng.pick(std::vector<double>{1e-4, 3e-4, 1e-3, 5e-4});
    const double stored = numerics::roundTo(numerics::Format::FP16, weight + update);
    QuizItem item;
    item.prompt = "A weight of " + formatNumber(weight) + " kept in FP16 receives an update of " + formatNumber(update) +
                  ". What is the weight after the update, stored in FP16?";
    setNumber(item, stored, 1e-7, "");
    item.explanation = "FP16's gap at " + formatNumber(weight) + " is " + formatNumber(weight * std::ldexp(1.0, -10), 4) +
                       "; an update below half of it is lost. That is why mixed precision keeps FP32 master weights.";
    item.figureLink = "warpscope:formats?format=fp16&value=" + linkNumber(weight + update);
    item.source = "numerics::roundTo; Micikevicius et al., Mixed Precision Training, 2018";
    return item;
}

QuizItem ringBytes(QuizRng& rng)
{
    const int gpus = rng.pick(std::vector<int>{2, 4, 8, 16, 64});
    const double gigabytes = rng.pick(std::vector<double>{0.5, 1, 2, 14});
    const training::RingAllReduce ring = training::ringAllReduce(gpus, gigabytes * 1e9, 1e9);
    QuizItem item;
    item.prompt = "A ring all-reduce of a " + formatNumber(gigabytes) + " GB gradient buffer over " + to_string(gpus) +
                  " GPUs. Predict how many GB each GPU sends.";
    setNumber(item, ring.bytesSentPerGpu / 1e9, ring.bytesSentPerGpu / 1e9 * 0.01, "GB");
    item.explanation = "2 (N - 1) / N x size = 2 x " + to_string(gpus - 1) + " / " + to_string(gpus) + " x " + formatNumber(gigabytes) + " = " +
                       formatNumber(ring.bytesSentPerGpu / 1e9, 4) + " GB, in " + to_string(ring.steps) + " steps of one " +
                       formatNumber(ring.chunkBytes / 1e9, 4) + " GB chunk: almost 2x the buffer, whatever N.";
    item.source = "training::ringAllReduce (Patarasuk and Yuan 2009)";
    if (gpus <= 16) // the figure draws rings of up to 16 GPUs; it ends on the last step
        item.figureLink = "warpscope:allreduce?gpus=" + to_string(gpus) + "&bytes=" + to_string(static_cast<long long>(gigabytes * 1e9)) +
                          "&link=nvlink4&step=" + to_string(ring.steps);
    return item;
}

QuizItem ringTime(QuizRng& rng)
{
    const training::LinkFigure& link = rng.pick(training::linkFigures());
    const int gpus = rng.pick(std::vector<int>{4, 8});
    const double gigabytes = rng.pick(std::vector<double>{1, 2, 14});
    const training::RingAllReduce ring = training::ringAllReduce(gpus, gigabytes * 1e9, link.bytesPerSecondEachWay);
    QuizItem item;
    item.prompt = "A ring all-reduce of " + formatNumber(gigabytes) + " GB over " + to_string(gpus) + " GPUs linked by " + std::string(link.name) +
                  " (" + formatNumber(link.bytesPerSecondEachWay / 1e9) + " GB/s each way). Ignoring latency, how many ms does it take?";
    setNumber(item, ring.seconds * 1e3, ring.seconds * 1e3 * 0.01, "ms");
    item.explanation = formatNumber(ring.bytesSentPerGpu / 1e9, 4) + " GB sent per GPU / " + formatNumber(link.bytesPerSecondEachWay / 1e9) +
                       " GB/s = " + formatNumber(ring.seconds * 1e3, 4) + " ms.";
    item.source = "training::ringAllReduce; " + std::string(link.source);
    return item;
}

QuizItem ringSteps(QuizRng& rng)
{
    const int gpus = rng.uniform(2, 32);
    const training::RingAllReduce ring = training::ringAllReduce(gpus, 1e9, 1e9);
    QuizItem item;
    item.prompt = "How many communication steps does a ring all-reduce over " + to_string(gpus) + " GPUs take (reduce-scatter plus all-gather)?";
    setNumber(item, ring.steps, 0, "steps");
    item.explanation = "N - 1 steps of reduce-scatter and N - 1 of all-gather: 2 x " + to_string(gpus - 1) + " = " + to_string(ring.steps) +
                       ". Each step costs a latency, which is why NCCL switches to trees for small messages.";
    item.source = "training::ringSchedule";
    return item;
}

QuizItem bubble(QuizRng& rng)
{
    const int stages = rng.pick(std::vector<int>{2, 4, 8, 16});
    const int micro = rng.pick(std::vector<int>{1, 4, 8, 16, 32, 64});
    const double fraction = training::pipelineBubbleFraction(stages, micro);
    QuizItem item;
    item.prompt = "Pipeline parallelism with " + to_string(stages) + " stages and " + to_string(micro) +
                  " micro-batches per batch (GPipe schedule). Predict the bubble: the share of time each stage idles.";
    setNumber(item, fraction * 100, 0.05, "%");
    item.explanation = "(p - 1) / (m + p - 1) = " + to_string(stages - 1) + " / " + to_string(micro + stages - 1) + " = " + percent(fraction) +
                       ". More micro-batches shrink it.";
    item.source = "training::pipelineBubbleFraction (Narayanan et al., Megatron-LM, SC 2021)";
    item.figureLink = "warpscope:pipeline?stages=" + to_string(stages) + "&microbatches=" + to_string(micro);
    return item;
}

QuizItem ddp(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Why does PyTorch recommend DistributedDataParallel over DataParallel, even on one machine?";
    setChoices(item, rng,
               "DDP runs one process per GPU and all-reduces gradient buckets while the backward pass runs; DataParallel is one process "
               "that scatters inputs and gathers outputs on GPU 0 every step, limited by the Python GIL",
               {"DataParallel cannot use more than two GPUs", "DDP sends no gradients at all", "DataParallel does not support mixed precision"});
    item.explanation = "DDP overlaps NCCL all-reduce with backward computation and has no single-GPU bottleneck.";
    item.source = "PyTorch documentation: DistributedDataParallel; Li et al., PyTorch Distributed, VLDB 2020";
    return item;
}

QuizItem nccl(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does NCCL provide to a training framework?";
    setChoices(item, rng, "Collective operations between GPUs (all-reduce, all-gather, reduce-scatter, broadcast) over NVLink, PCIe and the network",
               {"A compiler from Python to CUDA", "The CUDA driver's memory allocator", "Automatic mixed precision"});
    item.explanation = "NCCL picks rings or trees over the topology it detects; DDP calls its all-reduce on gradient buckets.";
    item.source = "NVIDIA Collective Communications Library (NCCL) documentation";
    return item;
}

QuizItem tensorParallel(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does tensor (intra-layer) parallelism split across GPUs?";
    setChoices(item, rng, "The weight matrices of each layer: every GPU computes part of each matrix multiply, then they combine the partial results",
               {"The batch: every GPU holds a full model copy", "The layers: each GPU holds a consecutive group of them",
                "The optimizer states only"});
    item.explanation = "Data parallelism splits the batch, pipeline parallelism the layers, tensor parallelism each layer's matrices "
                       "(Megatron-LM's column and row splits need an all-reduce per layer, so it stays inside NVLink domains).";
    item.source = "Shoeybi et al., Megatron-LM, 2019";
    return item;
}

QuizItem fusion(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does layer fusion in an inference compiler such as TensorRT save?";
    setChoices(item, rng, "Memory traffic and launches: fused layers pass intermediate results in registers or shared memory instead of DRAM",
               {"FLOPs: fused layers compute less", "Weights: fusion removes parameters", "Accuracy: fusion rounds less"});
    item.explanation = "Element-wise layers after a convolution or GEMM are memory-bound; fusing them into it removes a DRAM round trip each.";
    item.source = "NVIDIA TensorRT Developer Guide: layer fusion";
    return item;
}

QuizItem ptqQat(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What separates quantization-aware training (QAT) from post-training quantization (PTQ)?";
    setChoices(item, rng, "QAT trains with fake quantization in the forward pass so the weights adapt to the grid; PTQ calibrates a trained model's "
               "ranges on sample data without training",
               {"PTQ needs the full training set, QAT needs none", "QAT works only for FP8", "They differ only in the number of bits"});
    item.explanation = "PTQ is cheap and often enough for INT8; QAT recovers accuracy where PTQ loses too much, such as INT4.";
    item.figureLink = "warpscope:quant?dist=mlp-weights&format=int4&scheme=symmetric&granularity=channel&calib=mse&layer=1";
    item.source = "Jacob et al., Quantization and Training of Neural Networks, CVPR 2018; TensorRT Developer Guide";
    return item;
}

QuizItem calibration(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "In INT8 post-training quantization, what does calibration choose?";
    setChoices(item, rng, "Each tensor's clip range (and so its scale), from the values seen on representative inputs",
               {"The learning rate", "Which layers to prune", "The number of bits"});
    item.explanation = "Max, percentile, MSE and entropy calibrators choose different clips; the quantization lab compares them on the same data.";
    item.figureLink = "warpscope:quant?dist=outliers&format=int8&scheme=symmetric&granularity=tensor&calib=percentile:99.99&n=100000&seed=1";
    item.source = "numerics calibrators; TensorRT Developer Guide: INT8 calibration";
    return item;
}

QuizItem fsdpBytes(QuizRng& rng)
{
    const double parameters = rng.pick(std::vector<double>{1.3e9, 7e9, 13e9, 70e9});
    const int gpus = rng.pick(std::vector<int>{4, 8, 16, 64});
    const bool fsdp = rng.uniform(0, 1) == 1;
    const perf::DataParallelTraffic traffic = perf::dataParallelTraffic(gpus, 2 * parameters, 2 * parameters);
    const double bytes = fsdp ? traffic.fsdpBytes() : traffic.ddpBytes();
    QuizItem item;
    item.prompt = "A model of " + billions(parameters) + " parameters trains on " + to_string(gpus) + " GPUs in a ring with 16-bit weights and " +
                  "gradients, " + (fsdp ? "fully sharded (FSDP, ZeRO stage 3)" : "with plain data parallelism (DDP)") +
                  ". How many GB (10^9 bytes) does each GPU send per step for it?";
    setNumber(item, bytes / 1e9, bytes / 1e9 * 0.01, "GB");
    const std::string share = to_string(gpus - 1) + "/" + to_string(gpus);
    item.explanation = fsdp ? "Two all-gathers of the parameters and one reduce-scatter of the gradients, each " + share + " x " +
                                  formatNumber(2 * parameters / 1e9, 4) + " GB: " + formatNumber(bytes / 1e9, 4) + " GB, 1.5 times DDP's all-reduce."
                            : "One ring all-reduce of the gradients: 2 x " + share + " x " + formatNumber(2 * parameters / 1e9, 4) +
                                  " GB = " + formatNumber(bytes / 1e9, 4) + " GB.";
    item.source = "perf::dataParallelTraffic (core/perf/data_parallel_traffic.h); Rajbhandari et al., ZeRO, SC 2020, section 7";
    item.figureLink = "warpscope:allreduce?gpus=8&bytes=14000000000&link=nvlink4&step=7";
    return item;
}

QuizItem kvCache(QuizRng& rng)
{
    // Shapes of published models (perf::servingModels) and one more GQA shape with 40 layers.
    const bool published = rng.uniform(0, 2) != 0;
    perf::KvCacheShape shape{40, 8, 128};
    std::string model = "40 layers, 8 key-value heads of dimension 128";
    if (published) {
        const perf::ServingModel& picked = rng.pick(perf::servingModels());
        shape = picked.cache;
        model = std::string(picked.name) + " (" + to_string(shape.layers) + " layers, " + to_string(shape.kvHeads) +
                " key-value heads of dimension " + to_string(shape.headDim) + ")";
    }
    const int tokens = rng.pick(std::vector<int>{1024, 2048, 4096, 8192});
    const int sequences = rng.pick(std::vector<int>{1, 4, 8, 32});
    const bool fp8 = rng.uniform(0, 1) == 1;
    const double bytes = perf::kvCacheBytes(shape, tokens, sequences, fp8 ? 1 : 2);
    QuizItem item;
    item.prompt = "A model with " + model + " serves " + to_string(sequences) + " sequence" + (sequences > 1 ? "s" : "") + " of " +
                  to_string(tokens) + " tokens, its KV cache in " + (fp8 ? "FP8" : "FP16") +
                  ". How many GB (10^9 bytes) does the KV cache take?";
    setNumber(item, bytes / 1e9, bytes / 1e9 * 0.01, "GB");
    item.explanation = "2 (K and V) x " + to_string(shape.layers) + " layers x " + to_string(shape.kvHeads) + " KV heads x " +
                       to_string(shape.headDim) + " x " + to_string(tokens) + " tokens x " + to_string(sequences) + " x " +
                       (fp8 ? "1 byte" : "2 bytes") + " = " + formatNumber(bytes / 1e9, 4) + " GB.";
    item.source = "perf::kvCacheBytes (core/perf/serving.h); shapes from the Llama 2 configuration files";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem gqaSaving(QuizRng& rng)
{
    const int queryHeads = rng.pick(std::vector<int>{32, 64});
    const int kvHeads = rng.pick(std::vector<int>{1, 4, 8, 16});
    const perf::KvCacheShape grouped{80, kvHeads, 128}, full{80, queryHeads, 128};
    const double ratio = perf::kvCacheBytesPerToken(full, 2) / perf::kvCacheBytesPerToken(grouped, 2);
    QuizItem item;
    item.prompt = "A model has " + to_string(queryHeads) + " query heads. With grouped-query attention it keeps " + to_string(kvHeads) +
                  " key-value head" + (kvHeads > 1 ? "s" : "") +
                  " per layer instead of one per query head. By what factor does that shrink its KV cache?";
    setNumber(item, ratio, 0, "");
    item.explanation = "The cache is proportional to the key-value heads: " + to_string(queryHeads) + " / " + to_string(kvHeads) + " = " +
                       formatNumber(ratio) + ". The query heads, and so the attention's FLOPs, stay the same.";
    item.source = "perf::kvCacheBytesPerToken; Ainslie et al., GQA, EMNLP 2023";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem decodeTime(QuizRng& rng)
{
    // Batch-1 decode reads every weight once per token: its time is at least the weights over the bandwidth.
    const double parameters = rng.pick(std::vector<double>{7e9, 13e9, 70e9});
    const bool fp8 = rng.uniform(0, 1) == 1;
    const gpu::GpuPreset preset = *gpu::findPreset(rng.pick(std::vector<std::string>{"sm_80", "sm_90"}));
    const double bytes = parameters * (fp8 ? 1 : 2), bandwidth = gpu::peakDramBytesPerSecond(preset);
    const double ms = bytes / bandwidth * 1e3;
    QuizItem item;
    item.prompt = "A model of " + billions(parameters) + " parameters in " + (fp8 ? "FP8" : "FP16") + " generates one token at batch 1 on " +
                  presetLabel(preset) + " (" + formatNumber(bandwidth / 1e9) +
                  " GB/s). At least how many ms does each token take, if every weight is read once per token?";
    setNumber(item, ms, ms * 0.01, "ms");
    item.explanation = formatNumber(bytes / 1e9, 4) + " GB / " + formatNumber(bandwidth / 1e9) + " GB/s = " + formatNumber(ms, 4) +
                       " ms: decode is memory-bound, so fewer bytes per weight, not more FLOPs, make it faster.";
    item.source = "gpu::peakDramBytesPerSecond (the preset's datasheet bandwidth); the serving lesson";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem decodeBound(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Why is generating tokens one at a time (decode) at batch 1 memory-bound on a GPU, while the prompt's prefill is compute-bound?";
    setChoices(item, rng, "Each decode step reads every weight for about 2 FLOP per parameter (about 1 FLOP per byte in FP16), far left of "
               "the ridge; prefill uses each weight read for every prompt token",
               {"Decode runs on the CPU", "Decode uses FP32 while prefill uses Tensor Cores",
                "The KV cache is stored in host memory and crosses PCIe every step"});
    item.explanation = "At 1 FLOP per byte against the H100 SXM's FP16 ridge of 295, the time of a decode step is the weights' bytes over the "
                       "bandwidth: 14 GB / 3,350 GB/s = 4.18 ms for a 7B model. Batching shares each weight read across sequences.";
    item.source = "the roofline lesson's ridge; NVIDIA H100 datasheet; Kaplan et al. 2020 (2 FLOP per parameter per token)";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

QuizItem batchingSteps(QuizRng& rng)
{
    std::vector<int> outputs;
    std::string list;
    for (int i = 0; i < 6; ++i) {
        outputs.push_back(100 * rng.uniform(1, 9));
        list += (i ? ", " : "") + to_string(outputs.back());
    }
    const bool continuous = rng.uniform(0, 1) == 1;
    const perf::BatchingResult result = continuous ? perf::continuousBatching(outputs, 3) : perf::staticBatching(outputs, 3);
    QuizItem item;
    item.prompt = "Six requests arrive in this order, wanting " + list + " output tokens, on a server with 3 sequence slots and " +
                  (continuous ? "continuous batching (a freed slot takes the next request after every step)"
                              : "static batching (a batch of 3 runs until its longest request ends)") +
                  ". One token per request per step: how many decode steps until the last request ends?";
    setNumber(item, static_cast<double>(result.steps), 0, "steps");
    item.explanation = std::string(continuous ? "Each request starts in the earliest-freed slot; " : "Two batches, each as long as its longest request; ") +
                       "the last ends at step " + to_string(result.steps) + ", with " + percent(result.utilisation(), 3) +
                       " of the slot-steps producing a token.";
    item.source = continuous ? "perf::continuousBatching (core/perf/serving.h); Yu et al., Orca, OSDI 2022"
                             : "perf::staticBatching (core/perf/serving.h)";
    item.lessonLink = "warpscope:lesson?id=serving";
    return item;
}

} // namespace

void addTrainingQuestions(std::vector<Question>& bank)
{
    using K = QuestionKind;
    const std::vector<Question> questions = {
        {"training-memory.mixed-adam", "training-memory", K::Numeric, "Model states with mixed-precision Adam", true, mixedAdam},
        {"training-memory.fp32-adam", "training-memory", K::Numeric, "Model states with FP32 Adam", true, fp32Adam},
        {"training-memory.sgd-momentum", "training-memory", K::Numeric, "Model states with SGD and momentum", true, sgdMomentum},
        {"training-memory.inference", "training-memory", K::Numeric, "Weights for inference", true, inferenceWeights},
        {"training-memory.activations", "training-memory", K::Numeric, "Activations of a transformer layer", true, activations},
        {"training-memory.lost-update", "training-memory", K::Predict, "A small update to an FP16 weight", true, lostUpdate},
        {"multi-gpu.ring-bytes", "multi-gpu", K::Predict, "Bytes a ring all-reduce sends", true, ringBytes},
        {"multi-gpu.ring-time", "multi-gpu", K::Numeric, "Time of a ring all-reduce", true, ringTime},
        {"multi-gpu.ring-steps", "multi-gpu", K::Numeric, "Steps of a ring all-reduce", true, ringSteps},
        {"multi-gpu.bubble", "multi-gpu", K::Predict, "The pipeline bubble", true, bubble},
        {"multi-gpu.ddp", "multi-gpu", K::Choice, "DDP against DataParallel", false, ddp},
        {"multi-gpu.nccl", "multi-gpu", K::Choice, "What NCCL does", false, nccl},
        {"multi-gpu.tensor-parallel", "multi-gpu", K::Choice, "Tensor parallelism", false, tensorParallel},
        {"multi-gpu.fsdp-bytes", "multi-gpu", K::Numeric, "Bytes per GPU under DDP and FSDP", true, fsdpBytes},
        {"inference.fusion", "inference", K::Choice, "Layer fusion", false, fusion},
        {"inference.ptq-qat", "inference", K::Choice, "PTQ against QAT", false, ptqQat},
        {"inference.calibration", "inference", K::Choice, "What calibration chooses", false, calibration},
        {"serving.kv-cache", "serving", K::Numeric, "Size of a KV cache", true, kvCache},
        {"serving.gqa", "serving", K::Numeric, "What grouped-query attention saves", true, gqaSaving},
        {"serving.decode-bound", "serving", K::Choice, "Why decode is memory-bound", false, decodeBound},
        {"serving.decode-time", "serving", K::Numeric, "The least time per generated token", true, decodeTime},
        {"serving.batching-steps", "serving", K::Numeric, "Static against continuous batching", true, batchingSteps},
    };
    bank.insert(bank.end(), questions.begin(), questions.end());
}

} // namespace warpscope::study::bank
