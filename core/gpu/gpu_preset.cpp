#include "gpu/gpu_preset.h"

#include <array>
#include <string>

namespace warpscope::gpu {
namespace {

// Sources, cited per preset below:
//  [PG]   CUDA C++ Programming Guide, "Compute Capabilities", table "Technical Specifications per
//         Compute Capability": threads/SM, blocks/SM, shared memory per SM and per block (opt-in),
//         registers per SM/block/thread, 48 KB static shared per block.
//  [OCC]  CUDA toolkit /usr/local/cuda/include/cuda_occupancy.h: blocks per SM per architecture
//         (cudaOccMaxBlocksPerMultiprocessor) and the per-block shared reservation used from sm_80.
//  [DEV]  cudaDeviceProp.reservedSharedMemPerBlock = 1024 on sm_80 and later (CUDA Runtime API).
//  SM counts: NVIDIA Tesla V100 whitepaper (80 SMs), Turing whitepaper / T4 datasheet (40 SMs),
//  A100 whitepaper (108 SMs), GA102 whitepaper (RTX 3090: 82 SMs), Ada whitepaper (RTX 4090: 128 SMs),
//  H100 whitepaper (H100 SXM5: 132 SMs), NVIDIA RTX Blackwell GPU Architecture whitepaper (RTX 5090: 170
//  SMs). NVIDIA has published no SM count for the B200: its 148 are what the device reports (a device
//  query in github.com/pytorch/ao pull request 4002, 2026; Chips and Cheese, "Nvidia's B200: Keeping the
//  CUDA Juggernaut Rolling", 2025: 74 of 80 SMs on each of two dies).
//  [PG-A] the Programming Guide's arithmetic-instruction throughput table: 128 FP32 multiply-adds per
//         clock per SM on compute capability 8.6, 8.9, 9.0, 10.0 and 12.0.
constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;

// Timing-model defaults. Latencies in cycles are the Hopper figures of published microbenchmarks
// (Luo et al., "Dissecting the NVIDIA Hopper Architecture through Microbenchmarking and Multiple
// Level Analysis", arXiv:2501.12084, 2025; Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of
// Bandwidth", 2023): shared ~30, L1 hit ~38, L2 hit ~220-260, DRAM ~600-850; one dependent FP32
// instruction every 4 cycles (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018, and later). They are used for every preset until measured per
// architecture. Clocks, DRAM bandwidth, L2 size and the L1/shared pool come from each GPU's
// whitepaper or datasheet. FP32 lanes per SM: 64 on Volta (V100 whitepaper), Turing (Turing
// whitepaper) and GA100 (A100 whitepaper); 128 on GA102 (GA102 whitepaper), Ada (Ada whitepaper) and
// Hopper (H100 whitepaper).
constexpr const char* kTimingSource =
    "latencies: Hopper microbenchmarks (Luo et al. 2025, arXiv:2501.12084; Chips and Cheese 2023), "
    "used for all presets; clock, bandwidth, L2 and L1 pool: the GPU's whitepaper/datasheet; L2 bandwidth "
    "5,120 B/clock: A100 whitepaper; launch overhead 400 ns, block start 600 cycles and partly written sectors "
    "merged at L2 at 32 per clock: fitted to the recorded H200 sessions (assets/recorded/h200); atomic updates "
    "of one address one per clock at L2: an assumption (same-address atomics serialise: Nsight documentation; Maucher et al., PLOS 2025) until "
    "the probe's contended-atomic microbenchmark has measured the GPU (a session's ceilings record)";

// L2 bandwidth: 5,120 bytes per clock for the whole GPU (NVIDIA A100 Tensor Core GPU Architecture
// whitepaper, 2020: "L2 cache read bandwidth"), used for every preset until measured per GPU.
constexpr double kL2BytesPerCycle = 5120;
// Fitted to the recorded H200 sessions (assets/recorded/h200/demo-kernels.wsprof; `warpscope session
// validate-timing`): the launch's fixed cost (start and drain, 400 ns) and a block's start on an SM
// (600 cycles) that minimise the mean absolute error of the 19 demo-size kernels, the GPU-size
// sessions held out. Used for every preset until measured per GPU.
constexpr double kLaunchOverheadNs = 400;
constexpr int kBlockLaunchCycles = 600;
// Fitted to the recorded H200 transpose_naive sessions (assets/recorded/h200, demo-kernels.wsprof at
// n = 512 and gpu-size-transpose_naive.wsprof at n = 8,192): a store that writes only part of a
// sector is merged into it at L2, and the GPU merged about 30 and 32 such sector writes per clock,
// L2-resident and DRAM-bound alike, where full sectors move at 160 per clock (kL2BytesPerCycle / 32).
constexpr double kL2PartialSectorsPerCycle = 32;
// Atomic updates of one address are applied one after another at the L2 slice that owns it: the CUDA
// documentation says same-address atomics of a warp are serialised (Nsight Visual Studio Edition,
// "Memory Statistics - Atomics"), and the PLOS 2025 microbenchmarks (Maucher et al., "Are Your GPU
// Atomics Secretly Contending?") measure that contention. One update per address per clock is a model
// assumption, not a measurement: no recorded session holds a contended global-atomic kernel to fit it to.
// The probe now times one (profiling/ceilings.cpp); a session that holds that rate replaces this one
// (session::sessionPreset).
constexpr double kL2AtomicCyclesPerUpdate = 1;

constexpr TimingParameters timing(double clockMHz, double bandwidthGBps, std::size_t l1Pool, std::size_t l2,
                                  int fp32Lanes)
{
    TimingParameters parameters;
    parameters.fp32LanesPerSm = fp32Lanes;
    parameters.coreClockMHz = clockMHz;
    parameters.dramBandwidthGBps = bandwidthGBps;
    parameters.l1PoolBytes = l1Pool;
    parameters.l2Bytes = l2;
    parameters.l2BytesPerCycle = kL2BytesPerCycle;
    parameters.l2PartialSectorsPerCycle = kL2PartialSectorsPerCycle;
    parameters.l2AtomicCyclesPerUpdate = kL2AtomicCyclesPerUpdate;
    parameters.launchOverheadNs = kLaunchOverheadNs;
    parameters.blockLaunchCycles = kBlockLaunchCycles;
    parameters.source = kTimingSource;
    return parameters;
}

// Blackwell: NVIDIA publishes no latencies; the model keeps the Hopper measurements above (a model
// until Blackwell's are measured) and says so.
constexpr TimingParameters blackwellTiming(double clockMHz, double bandwidthGBps, std::size_t l1Pool,
                                           std::size_t l2, int fp32Lanes, const char* source)
{
    TimingParameters parameters = timing(clockMHz, bandwidthGBps, l1Pool, l2, fp32Lanes);
    parameters.source = source;
    return parameters;
}

// B200 (an HGX B200 GPU). NVIDIA's Blackwell datasheet, "Individual Blackwell GPU Specifications", HGX
// B200: FP32 75 TFLOPS, 180 GB of HBM3e at 7.7 TB/s (the device's own 7,680-bit bus at 3,996 MHz gives
// 7,680 / 8 x 3,996e6 x 2 = 7.67 TB/s: pytorch/ao pull request 4002). NVIDIA publishes no clock: 1,980
// MHz is the one at which 148 SMs x 128 lanes x 2 give the 75 TFLOPS. L1/shared pool 256 KB per SM, as
// on H100 (Chips and Cheese 2025; shared memory up to 228 KB of it, as cuda_occupancy.h's steps and the
// device query say). L2: NVIDIA publishes none; 126.5 MiB (132,644,864 bytes) as the device reports it.
constexpr const char* kB200TimingSource =
    "latencies: Hopper microbenchmarks (Luo et al. 2025, arXiv:2501.12084), a model: NVIDIA publishes no Blackwell "
    "latencies; FP32 peak 75 TFLOPS and 7.7 TB/s: NVIDIA Blackwell datasheet (HGX B200); clock 1,980 MHz: computed "
    "from the 75 TFLOPS (NVIDIA publishes none); L2 126.5 MiB: as the device reports it (pytorch/ao pull request "
    "4002; not published by NVIDIA); L1 pool 256 KB: Chips and Cheese 2025; L2 bandwidth, launch overhead and block "
    "start as for every preset";
// RTX 5090: NVIDIA RTX Blackwell GPU Architecture whitepaper (2025) and the GeForce RTX 5090 specifications:
// 2,407 MHz boost, 32 GB GDDR7 at 28 Gbps on 512 bits = 1,792 GB/s, 96 MB L2, 128 KB L1/shared per SM.
constexpr const char* kRtx5090TimingSource =
    "latencies: Hopper microbenchmarks (Luo et al. 2025, arXiv:2501.12084), a model: NVIDIA publishes no Blackwell "
    "latencies; clock 2,407 MHz, 1,792 GB/s, L2 96 MB, L1 pool 128 KB: NVIDIA RTX Blackwell GPU Architecture "
    "whitepaper (2025); L2 bandwidth, launch overhead and block start as for every preset";

constexpr std::array<GpuPreset, 8> kPresets{{
    {"sm_70", "V100", 7, 0, 80, 32, 1024, 2048, 32, 65536, 65536, 255,
     96 * KiB, 48 * KiB, 96 * KiB, 0,
     "[PG] CC 7.0; [OCC]; SMs: NVIDIA Tesla V100 GPU Architecture whitepaper (2017)",
     timing(1530, 900, 128 * KiB, 6 * MiB, 64)},
    {"sm_75", "T4", 7, 5, 40, 32, 1024, 1024, 16, 65536, 65536, 255,
     64 * KiB, 48 * KiB, 64 * KiB, 0,
     "[PG] CC 7.5; [OCC]; SMs: NVIDIA Turing GPU Architecture whitepaper, Tesla T4 (40 SMs)",
     timing(1590, 320, 96 * KiB, 4 * MiB, 64)},
    {"sm_80", "A100", 8, 0, 108, 32, 1024, 2048, 32, 65536, 65536, 255,
     164 * KiB, 48 * KiB, 163 * KiB, 1 * KiB,
     "[PG] CC 8.0; [OCC]; [DEV]; SMs: NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)",
     timing(1410, 1555, 192 * KiB, 40 * MiB, 64)},
    {"sm_86", "RTX 3090", 8, 6, 82, 32, 1024, 1536, 16, 65536, 65536, 255,
     100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB,
     "[PG] CC 8.6; [OCC]; [DEV]; SMs: NVIDIA Ampere GA102 GPU Architecture whitepaper (RTX 3090)",
     timing(1695, 936, 128 * KiB, 6 * MiB, 128)},
    {"sm_89", "RTX 4090", 8, 9, 128, 32, 1024, 1536, 24, 65536, 65536, 255,
     100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB,
     "[PG] CC 8.9; [OCC]; [DEV]; SMs: NVIDIA Ada GPU Architecture whitepaper (RTX 4090)",
     timing(2520, 1008, 128 * KiB, 72 * MiB, 128)},
    {"sm_90", "H100 SXM", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536, 255,
     228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB,
     "[PG] CC 9.0; [OCC]; [DEV]; SMs: NVIDIA H100 Tensor Core GPU Architecture whitepaper (SXM5)",
     timing(1980, 3350, 256 * KiB, 50 * MiB, 128)},
    // Blocks per SM and the shared-memory steps (up to 228 KB; 100 KB on 12.x) are cuda_occupancy.h's
    // (cudaOccMaxBlocksPerMultiprocessor, cudaOccAlignUpShmemSizeVoltaPlus); threads per SM and the
    // opt-in limit (the SM's shared memory less the 1 KB reservation) the Programming Guide's.
    {"sm_100", "B200", 10, 0, 148, 32, 1024, 2048, 32, 65536, 65536, 255,
     228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB,
     "[PG] CC 10.0; [OCC]; [DEV]; [PG-A]; SMs: 148 as the device reports (NVIDIA has not published the count; "
     "pytorch/ao pull request 4002; Chips and Cheese 2025)",
     blackwellTiming(1980, 7700, 256 * KiB, 126 * MiB + 512 * KiB, 128, kB200TimingSource)},
    {"sm_120", "RTX 5090", 12, 0, 170, 32, 1024, 1536, 24, 65536, 65536, 255,
     100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB,
     "[PG] CC 12.0; [OCC]; [DEV]; [PG-A]; SMs: NVIDIA RTX Blackwell GPU Architecture whitepaper (RTX 5090)",
     blackwellTiming(2407, 1792, 128 * KiB, 96 * MiB, 128, kRtx5090TimingSource)},
}};

// Other GPUs of an architecture listed above: found by name ("H200"), never chosen for an arch.
// H200 SXM: the GH100 chip of the H100 SXM with HBM3e. 132 SMs, 1,980 MHz boost clock, 141 GB and
// 4.8 TB/s: NVIDIA H200 Tensor Core GPU datasheet (2024); the recorded H200 sessions'
// device record agrees (sm_count 132, core_clock_khz 1,980,000, memory clock 3,201 MHz x 6,016-bit
// bus x 2 = 4,814 GB/s). L2: 60 MiB (62,914,560 bytes) as the device reports it
// (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE in assets/recorded/h200/). Limits per SM as sm_90 [PG].
constexpr std::array<GpuPreset, 1> kVariantPresets{{
    {"sm_90", "H200 SXM", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536, 255,
     228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB,
     "[PG] CC 9.0; [OCC]; [DEV]; SMs, clock, memory: NVIDIA H200 Tensor Core GPU datasheet (2024); L2: the "
     "device's CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE (62,914,560 bytes, assets/recorded/h200)",
     timing(1980, 4800, 256 * KiB, 60 * MiB, 128)},
}};

// "H200 SXM" -> "h200sxm": names compare without case and spaces.
std::string nameKey(std::string_view name)
{
    std::string key;
    for (char c : name)
        if (c != ' ' && c != '-' && c != '_')
            key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return key;
}

} // namespace

std::span<const GpuPreset> allPresets() { return kPresets; }

std::span<const GpuPreset> variantPresets() { return kVariantPresets; }

double peakFp32FlopsPerSecond(const GpuPreset& preset)
{
    return static_cast<double>(preset.smCount) * preset.timing.fp32LanesPerSm * 2.0 * preset.timing.coreClockMHz * 1e6;
}

double peakDramBytesPerSecond(const GpuPreset& preset) { return preset.timing.dramBandwidthGBps * 1e9; }

std::optional<GpuPreset> findPreset(std::string_view arch)
{
    for (const GpuPreset& preset : kPresets) {
        const std::string_view digits = preset.arch.substr(3); // "90"
        const std::string dotted = std::to_string(preset.computeMajor) + "." +
                                   std::to_string(preset.computeMinor);
        if (arch == preset.arch || arch == digits || arch == dotted)
            return preset;
    }
    // A GPU's name: "H200", "h200 sxm", "H100".
    const std::string key = nameKey(arch);
    for (std::span<const GpuPreset> list : {std::span<const GpuPreset>(kPresets), std::span<const GpuPreset>(kVariantPresets)})
        for (const GpuPreset& preset : list) {
            const std::string name = nameKey(preset.name);
            if (!key.empty() && (key == name || (name.starts_with(key) && key.size() >= 4)))
                return preset;
        }
    return std::nullopt;
}

std::string knownArchList()
{
    std::string list;
    for (const GpuPreset& preset : kPresets) {
        if (!list.empty())
            list += ", ";
        list += preset.arch;
    }
    return list;
}

} // namespace warpscope::gpu
