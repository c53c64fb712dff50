// The `warpscope:` link scheme that lessons use to set up the figures (assets/lessons/README.md):
//   warpscope:lesson?id=occupancy
//   warpscope:hierarchy?grid=4,2&block=96
//   warpscope:placement?arch=sm_90&grid=528&block=512&regs=32&static_smem=0&dynamic_smem=0
//   warpscope:occupancy?arch=sm_90&block=256&regs=64&static_smem=0&dynamic_smem=32K&carveout=-1&barriers=1
//   warpscope:formats?format=fp16&value=0.1&bits=0x3C00&saturate=1
//   warpscope:amp?modes=fp32,fp16,fp16-dynamic&steps=1000&growth=200&seed=1&scale=65536
//   warpscope:quant?dist=gaussian&format=int8&scheme=symmetric&granularity=tensor&calib=max&n=100000&seed=1
//   warpscope:sparsity?layer=1
//   warpscope:step?kernel=divergence_odd_even&block=0,0,0&warp=1&at=12&warp_model=stack
//   warpscope:memory?kernel=copy_strided&warp=0&at=9 (the step keys; the memory hierarchy in front)
// The Performance Models dock (streams, pipeline, memory-budget, allreduce) and recorded sessions:
//   warpscope:streams?h2d=4&kernel=6&d2h=4&chunks=4&engines=2
//       &chain=20&kernel_us=2&launch_us=2.7&gap_us=6.4&graph_us=15&node_us=0.58 (the CUDA-graph model below it)
//   warpscope:pipeline?stages=4&microbatches=8
//   warpscope:memory-budget?params=7e9&precision=mixed&optimizer=adam&zero=0&gpus=1&layers=32&hidden=4096
//       &heads=32&seq=4096&batch=1&recompute=0&kv_heads=8
//   warpscope:allreduce?gpus=4&bytes=1G&link=nvlink4&step=3
//   warpscope:profile?session=h200/ladder-matmul.wsprof&tab=roofline
// Parsing is strict: an unknown view or key, a repeated key, or a bad value is an InputError that
// names the link, the key and what is allowed. Qt-free.
#pragma once

#include "launch/launch_geometry.h"
#include "sim/simulator.h"
#include "training/memory_budget.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::app {

enum class LinkView {
    Lesson, Hierarchy, Placement, Occupancy, Formats, Amp, Quant, Sparsity, Step, Memory,
    Streams, Pipeline, MemoryBudget, AllReduce, Profile
};

struct ViewLink {
    LinkView view = LinkView::Hierarchy;
    std::string lessonId;                       // lesson only
    std::optional<std::string> arch;            // canonical "sm_90"
    std::optional<launch::Dim3> grid;
    std::optional<launch::Dim3> block;
    std::optional<int> registers;
    std::optional<std::size_t> staticShared;
    std::optional<std::size_t> dynamicShared;
    std::optional<int> carveout;
    std::optional<int> barriers;
    std::optional<std::string> numberFormat;   // formats: numerics' key, "fp16"
    std::optional<std::string> valueText;      // formats: the compared value as written ("0.1")
    std::optional<double> value;               //   and as read (the nearest double)
    std::optional<std::uint32_t> bits;         // formats: the explored pattern (needs numberFormat)
    std::optional<bool> saturate;              // formats: overflow saturates (__NV_SATFINITE)
    // The precision lab (amp, quant, sparsity); every value checked on its own.
    std::vector<std::string> ampModes;          // amp: numerics' mode keys in link order; empty when not given
    std::optional<int> steps;                   // amp: optimizer steps per mode
    std::optional<int> growthInterval;          // amp: FP16 dynamic's growth_interval
    std::optional<double> staticScale;          // amp: FP16 static's loss scale
    std::optional<std::uint64_t> seed;          // amp, quant: the seed
    std::optional<std::string> quantSource;     // quant: gaussian, laplace, uniform, outliers, mlp-weights, mlp-activations
    std::optional<std::string> quantFormat;     // quant: int8, int4, fp8e4m3, fp8e5m2
    std::optional<std::string> quantScheme;     // quant: symmetric, asymmetric
    std::optional<std::string> quantGranularity; // quant: tensor, channel, group:G
    std::optional<std::string> quantCalibrator; // quant: max, percentile:P, mse, entropy
    std::optional<std::size_t> count;           // quant: n, the synthetic values
    std::optional<std::size_t> rows;            // quant: the synthetic values as rows x (n / rows)
    std::optional<int> layer;                   // quant: 0..2 (MLP sources); sparsity: 1..2
    // The stepper (execution view). The block and warp are checked against the launch by the window.
    std::string kernel;                         // step: a demo kernel id
    std::optional<launch::Dim3> blockIndex;     // step: blockIdx of the recorded block ("block=")
    std::optional<int> warp;                    // step: the followed warp, 0..31
    std::optional<std::uint64_t> at;            // step: before the warp's instruction number N
    std::optional<sim::WarpModel> warpModel;    // step: warp_model=stack|its; the window runs stack without it
    // The Performance Models dock. Values are checked on their own (and against each other when the
    // link gives both); what depends on the figure's current state is the window's to check.
    std::optional<double> hostToDeviceMs;       // streams: h2d, the whole transfer
    std::optional<double> kernelMs;             // streams: kernel
    std::optional<double> deviceToHostMs;       // streams: d2h
    std::optional<int> chunks;                  // streams: chunks (= streams)
    std::optional<int> copyEngines;             // streams: engines, 1 or 2
    std::optional<int> chainKernels;            // streams: chain, the graph model's kernels, 1..1000
    std::optional<double> chainKernelUs;        // streams: kernel_us, each kernel's own work
    std::optional<double> launchUs;             // streams: launch_us, host time per launch call
    std::optional<double> gapUs;                // streams: gap_us, GPU time per launched kernel beyond its work
    std::optional<double> graphUs;              // streams: graph_us, from cudaGraphLaunch to the first kernel
    std::optional<double> nodeUs;               // streams: node_us, between one graph node and the next
    std::optional<int> stages;                  // pipeline: P
    std::optional<int> microbatches;            // pipeline: M
    std::optional<double> parameters;           // memory-budget: params
    std::optional<training::Precision> precision; // memory-budget
    std::optional<training::Optimizer> optimizer; // memory-budget
    std::optional<int> zeroStage;               // memory-budget: zero, 0..3
    std::optional<int> gpus;                    // memory-budget: data-parallel degree; allreduce: ring size
    std::optional<int> layers;                  // memory-budget: the transformer's shape
    std::optional<int> hidden;
    std::optional<int> heads;
    std::optional<int> sequence;                // memory-budget: seq
    std::optional<int> microBatch;              // memory-budget: batch
    std::optional<bool> recompute;
    std::optional<int> kvHeads;                 // memory-budget: kv_heads, 0 (one per head) or a divisor of heads
    std::optional<double> bufferBytes;          // allreduce: bytes
    std::optional<std::string> interconnect;    // allreduce: link, a key of training::linkFigures()
    std::optional<int> ringStep;                // allreduce: step, 0..2(N-1)
    std::optional<std::string> session;         // profile: a recorded session's path under the recorded root
    std::optional<std::string> profileTab;      // profile: metrics, bandwidth, roofline, prediction, session
};

inline constexpr int kLinkMaxAmpSteps = 100000;              // as `warpscope numerics amp --steps`
inline constexpr std::size_t kLinkMinQuantValues = 16;       // quant n
inline constexpr std::size_t kLinkMaxQuantValues = 10000000;
inline constexpr double kLinkMaxStreamMs = 1e6;               // streams h2d, kernel, d2h
inline constexpr int kLinkMaxStreamChunks = 64;
inline constexpr int kLinkMaxChainKernels = 1000;              // streams chain (perf::planKernelChain's limit)
inline constexpr double kLinkMaxChainUs = 1e6;                 // streams kernel_us, launch_us, gap_us, graph_us, node_us
inline constexpr int kLinkMaxPipelineStages = 16;
inline constexpr int kLinkMaxMicrobatches = 64;
inline constexpr double kLinkMaxParameters = 1e13;            // memory-budget params
inline constexpr int kLinkMaxDataParallel = 4096;             // memory-budget gpus
inline constexpr int kLinkMinRingGpus = 2;                    // allreduce gpus
inline constexpr int kLinkMaxRingGpus = 16;
inline constexpr double kLinkMaxAllReduceBytes = 1099511627776.0; // allreduce bytes: 1 TiB = 1024G

// The profile view's tabs a profile link may name, in the view's order.
inline constexpr std::string_view kLinkProfileTabs[] = {"metrics", "bandwidth", "roofline", "prediction", "session"};

ViewLink parseViewLink(std::string_view url);

} // namespace warpscope::app
