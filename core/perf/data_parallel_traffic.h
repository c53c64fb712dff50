// What each GPU sends per training step under plain data parallelism (DDP: one ring all-reduce of
// the gradients) and under fully sharded data parallelism (FSDP, ZeRO stage 3: an all-gather of the
// parameters before the forward pass, another before the backward pass, and a reduce-scatter of the
// gradients). On a ring of N GPUs an all-gather or a reduce-scatter of a buffer sends (N - 1) / N of
// it from each GPU, half an all-reduce's 2 (N - 1) / N (Patarasuk and Yuan, JPDC 2009; ZeRO's
// communication analysis, Rajbhandari et al., SC 2020, section 7).
#pragma once

namespace warpscope::perf {

struct DataParallelTraffic {
    int gpus = 0;
    double allReduceBytes = 0;         // DDP: the gradients' all-reduce, per GPU
    double allGatherForwardBytes = 0;  // FSDP: the parameters, gathered before the forward pass
    double allGatherBackwardBytes = 0; // FSDP: gathered again before the backward pass
    double reduceScatterBytes = 0;     // FSDP: the gradients, each GPU keeping its summed shard
    double ddpBytes() const { return allReduceBytes; }
    double fsdpBytes() const { return allGatherForwardBytes + allGatherBackwardBytes + reduceScatterBytes; }
};

// Throws InputError for gpus outside 2..4096 or sizes that are not positive and finite.
DataParallelTraffic dataParallelTraffic(int gpus, double parameterBytes, double gradientBytes);

} // namespace warpscope::perf
