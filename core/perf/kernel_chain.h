// Launch overhead, as a model: a chain of `kernels` dependent short kernels, each launched from the
// host one by one into a stream, against the same chain captured into a CUDA graph and launched with
// one cudaGraphLaunch. One by one, the host spends launchSeconds enqueuing each kernel, and the GPU
// starts a kernel perKernelGpuSeconds after both its launch and the previous kernel are done. As a
// graph, the first kernel starts graphFixedSeconds after the launch and each further one
// graphNodeSeconds after the previous one ends:
//     one by one (GPU-bound):  launch + kernels x (perKernelGpu + kernel)
//     graph:                   graphFixed + kernels x kernel + (kernels - 1) x graphNode
// The defaults are one published measurement (a chain of empty kernels on an RTX 5070 Ti Laptop GPU
// under WSL2, CUDA 13.3: github.com/ahrefs/ocannl issue 488), not a property of every GPU; every
// figure is the user's input.
#pragma once

#include <vector>

namespace warpscope::perf {

struct KernelChainInput {
    int kernels = 20;                    // 1..1000
    double kernelSeconds = 2e-6;         // each kernel's own work on the GPU
    double launchSeconds = 2.7e-6;       // host time to enqueue one launch (measured: 2.62-2.81 us)
    double perKernelGpuSeconds = 6.4e-6; // one by one: GPU time per launched kernel beyond its work (measured: about 6.4 us)
    double graphFixedSeconds = 15e-6;    // graph: from cudaGraphLaunch to the first kernel (measured: about 15 us)
    double graphNodeSeconds = 0.58e-6;   // graph: between one node's end and the next one's start (measured: about 0.58 us)
};

struct ChainBar {
    int kernel = 0;
    double start = 0, end = 0; // seconds from the first launch call
};

struct KernelChainPlan {
    std::vector<ChainBar> hostLaunches;  // one by one: each launch call on the host
    std::vector<ChainBar> streamKernels; // one by one: each kernel on the GPU
    std::vector<ChainBar> graphKernels;  // as a graph: each kernel on the GPU
    double streamSeconds = 0;            // one by one: when the last kernel ends
    double graphSeconds = 0;             // as a graph: when the last kernel ends
    double workSeconds = 0;              // kernels x kernelSeconds: the GPU's useful time
    double speedup() const { return graphSeconds > 0 ? streamSeconds / graphSeconds : 0; }
};

// Throws InputError for kernels outside 1..1000 or a time that is negative or not finite.
KernelChainPlan planKernelChain(const KernelChainInput& input);

} // namespace warpscope::perf
