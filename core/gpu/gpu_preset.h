// GPU presets: the per-architecture limits that occupancy, placement and (later) the simulator use.
// Every number is data in gpu_preset.cpp with the source it comes from. A live GPU's own properties
// (reported by warpscope-probe) override a preset.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace warpscope::gpu {

// Parameters of the simulator's timing model (a model: see core/sim/timing_model.h). Every value is
// data the user may change; `source` says where the defaults come from.
struct TimingParameters {
    int schedulersPerSm = 4;          // warp schedulers, each issuing one instruction per cycle
    int aluLatency = 4;               // cycles until a dependent FP32/INT32 instruction may issue
    int sfuLatency = 20;              // division, reciprocal, square root sequences
    int sharedLatency = 30;           // shared-memory load, conflict-free
    int l1HitLatency = 38;            // global load hitting L1
    int l2HitLatency = 260;           // global load hitting L2
    int dramLatency = 700;            // global load from DRAM
    int l1SectorsPerCycle = 4;        // L1 throughput: 128 bytes per cycle per SM
    double coreClockMHz = 0;          // boost clock
    double dramBandwidthGBps = 0;     // peak DRAM bandwidth of the whole GPU
    std::size_t l1PoolBytes = 0;      // per SM: L1 data cache + shared memory share this pool
    std::size_t l2Bytes = 0;          // whole GPU
    int fp32LanesPerSm = 0;           // FP32 FMA units per SM: one fused multiply-add each per cycle
    double launchOverheadNs = 0;      // a launch's fixed cost beyond its cycles: start and drain
    int blockLaunchCycles = 0;        // from a block slot freeing (or the launch) to the new block's first issue
    double l2BytesPerCycle = 0;       // L2 bandwidth of the whole GPU, shared equally by the SMs (0: unlimited)
    double l2PartialSectorsPerCycle = 0; // sectors a store writes only part of, merged per cycle at L2, whole GPU (0: as full ones)
    double l2AtomicCyclesPerUpdate = 0;  // cycles the L2 spends on one atomic update of one address; same-address updates queue (0: free)
    std::string_view source;
};

struct GpuPreset {
    std::string_view arch;                  // "sm_90"
    std::string_view name;                  // "H100 SXM"
    int computeMajor = 0;                   // compute capability, major
    int computeMinor = 0;                   // compute capability, minor
    int smCount = 0;                        // streaming multiprocessors on the chip
    int warpSize = 32;                      // threads per warp
    int maxThreadsPerBlock = 1024;          // launch limit
    int maxThreadsPerSm = 0;                // resident threads per SM (= max warps x 32)
    int maxBlocksPerSm = 0;                 // resident blocks per SM
    int registersPerSm = 65536;             // 32-bit registers per SM
    int registersPerBlock = 65536;          // 32-bit registers one block may use
    int maxRegistersPerThread = 255;        // as the ISA allows
    std::size_t sharedPerSm = 0;            // bytes, largest carveout
    std::size_t sharedPerBlock = 48 * 1024; // bytes without opt-in (static shared is capped here)
    std::size_t sharedPerBlockOptin = 0;    // bytes with cudaFuncAttributeMaxDynamicSharedMemorySize
    std::size_t reservedSharedPerBlock = 0; // bytes the driver reserves per block (sm_80+)
    std::string_view source;                // where these numbers come from
    TimingParameters timing;                // the timing model's parameters for this GPU

    int maxWarpsPerSm() const { return maxThreadsPerSm / warpSize; }
};

// Peak FP32 rate in FLOP/s: SMs x FP32 lanes x 2 (an FMA is two operations) x boost clock. This is
// the figure the GPU's datasheet quotes (H100 SXM: 132 x 128 x 2 x 1980 MHz = 66.9 TFLOP/s).
double peakFp32FlopsPerSecond(const GpuPreset& preset);

// Peak DRAM bandwidth in bytes per second (the datasheet's figure).
double peakDramBytesPerSecond(const GpuPreset& preset);

// All built-in presets, oldest architecture first.
std::span<const GpuPreset> allPresets();

// Other GPUs of an architecture allPresets() lists (H200 SXM, sm_90): found by name only.
std::span<const GpuPreset> variantPresets();

// The preset for "sm_90" (also accepts "90" and "9.0"), or for a GPU's name ("H200", "b200", "rtx 5090";
// case and spaces ignored, a prefix of at least 4 characters); nullopt when unknown.
std::optional<GpuPreset> findPreset(std::string_view arch);

// "sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120" for error messages.
std::string knownArchList();

} // namespace warpscope::gpu
