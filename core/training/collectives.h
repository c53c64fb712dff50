// Multi-GPU training arithmetic.
//
// Ring all-reduce (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations", JPDC 2009; the algorithm NCCL uses for large messages): N GPUs in a ring, the
// buffer cut into N chunks. Reduce-scatter: in each of N-1 steps every GPU sends one chunk to the
// next GPU, which adds it to its own; afterwards GPU i holds the full sum of chunk (i+1) mod N.
// All-gather: N-1 more steps pass the finished chunks around. Every GPU sends 2 (N-1) / N times the
// buffer, whatever N, so the time is about 2 (N-1)/N x size / link bandwidth (+ a latency per step).
//
// Pipeline parallelism (GPipe, Huang et al. 2019; Narayanan et al., "Efficient Large-Scale Language
// Model Training on GPU Clusters Using Megatron-LM", SC 2021, section 2.2): with p stages and m
// micro-batches per batch, the idle share of each stage (the bubble) is (p-1) / (m+p-1).
#pragma once

#include <string_view>
#include <vector>

namespace warpscope::training {

enum class RingPhase { ReduceScatter, AllGather };

struct RingTransfer {
    int step = 0;    // 0 .. 2(N-1)-1 over both phases
    RingPhase phase = RingPhase::ReduceScatter;
    int from = 0, to = 0;
    int chunk = 0;   // 0 .. N-1
};

struct RingAllReduce {
    int gpus = 0;
    double bufferBytes = 0;
    double chunkBytes = 0;        // buffer / N
    int steps = 0;                // 2 (N-1)
    double bytesSentPerGpu = 0;   // 2 (N-1)/N x buffer
    double seconds = 0;           // steps x (chunk / bandwidth + step latency)
};

// Throws InputError for gpus < 2 or > 4096, a buffer that is not positive, or a bandwidth that is not
// positive. `linkBytesPerSecond` is one direction of one GPU's link to its neighbour.
RingAllReduce ringAllReduce(int gpus, double bufferBytes, double linkBytesPerSecond, double stepLatencySeconds = 0);

// Every transfer of the algorithm, step by step (N transfers per step, one per GPU).
std::vector<RingTransfer> ringSchedule(int gpus);

// Runs the schedule on real numbers: `buffers[g]` is GPU g's buffer (equal lengths, divisible or
// not by N: chunks are split as evenly as possible). Returns every GPU's buffer afterwards; each
// should be the element-wise sum.
std::vector<std::vector<double>> runRingAllReduce(std::vector<std::vector<double>> buffers);
// The same, stopped after the first `steps` steps (0 .. 2(N-1)): the buffers part way through.
std::vector<std::vector<double>> runRingAllReduce(std::vector<std::vector<double>> buffers, int steps);

// How many GPUs' contributions each chunk holds after the first `steps` steps (0 .. 2(N-1)),
// replaying ringSchedule: result[g][c] for GPU g and chunk c; 1 everywhere before the first step,
// N everywhere after the last. A reduce-scatter transfer adds the sender's count to the receiver's
// (in a ring the two sets never overlap); an all-gather transfer overwrites it. Throws InputError for
// gpus outside 2..4096 or steps outside 0..2(N-1).
std::vector<std::vector<int>> ringContributions(int gpus, int steps);

// (p-1) / (m+p-1). Throws InputError when stages or microbatches is below 1.
double pipelineBubbleFraction(int stages, int microbatches);

struct LinkFigure {
    std::string_view key;        // "nvlink4"
    std::string_view name;       // "NVLink 4 (H100 SXM)"
    double bytesPerSecondEachWay = 0;
    std::string_view source;
};

// Published interconnect figures, per GPU and per direction.
const std::vector<LinkFigure>& linkFigures();
const LinkFigure* findLink(std::string_view key);

} // namespace warpscope::training
