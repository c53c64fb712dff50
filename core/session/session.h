// A profiling session: what warpscope-probe measured on a real GPU, as plain values. The probe
// streams it as JSON Lines (session_io.h); the stream is the file (.wsprof), so a saved session
// reopens with no GPU. Every record names the kernel it belongs to by `kernel` (the KernelRecord id).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {

inline constexpr const char* kFormatName = "warpscope-session";
inline constexpr int kFormatVersion = 1;

struct SessionHeader {
    std::string format = kFormatName;
    int version = kFormatVersion;
    std::string producer;   // "warpscope-probe 0.1.0"
    std::string createdUtc; // ISO 8601, "2026-11-22T10:04:05Z"
    std::string host;       // the machine's name, as the probe saw it
};

// The GPU as the driver reports it, plus the versions of everything between the kernel and it.
struct DeviceRecord {
    int ordinal = 0;
    std::string name;                  // "NVIDIA H100 80GB HBM3"
    std::string chip;                  // CUPTI's chip name, "GH100"
    int computeMajor = 0, computeMinor = 0;
    int smCount = 0;
    int coreClockKHz = 0;              // CU_DEVICE_ATTRIBUTE_CLOCK_RATE (peak)
    int memoryClockKHz = 0;            // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE (peak)
    int memoryBusWidthBits = 0;
    std::uint64_t totalMemoryBytes = 0;
    std::uint64_t l2Bytes = 0;
    int maxThreadsPerSm = 0, maxBlocksPerSm = 0, maxThreadsPerBlock = 0;
    int registersPerSm = 0, registersPerBlock = 0;
    std::uint64_t sharedPerSm = 0, sharedPerBlock = 0, sharedPerBlockOptin = 0, reservedSharedPerBlock = 0;
    int driverVersion = 0;             // cuDriverGetVersion: 13000 = CUDA 13.0
    std::string driverRelease;         // the kernel module's version, "580.95.05", when readable
    int toolkitVersion = 0;            // CUDA_VERSION the probe was built with
    std::string cuptiVersion;          // cuptiGetVersion
    bool countersAllowed = true;       // false: ERR_NVGPUCTRPERM, only Activity timings
    std::string countersMessage;       // why not, and how to allow it
};

// Ceilings for the roofline and the bandwidth panel: measured by the probe on this GPU, beside the
// values computed from the device's own attributes.
struct CeilingsRecord {
    double measuredDramGBps = 0;       // device-to-device copy: bytes read + written per second
    std::string measuredDramMethod;
    double measuredFp32Gflops = 0;     // dependent-chain FMA kernel, 2 FLOP per FMA
    std::string measuredFp32Method;
    double theoreticalDramGBps = 0;    // 2 x memory clock x bus width (DDR), from the attributes
    double theoreticalFp32Gflops = 0;  // SMs x FP32 lanes per SM x 2 x peak clock
    std::string theoreticalSource;
    // The matrix-multiply ladder's reference: cuBLAS SGEMM (FP32, no TF32) at the ladder's n, when
    // the session ran that ladder and libcublas could be loaded. 0 = not measured.
    double referenceSgemmGflops = 0;
    int referenceSgemmN = 0;
    std::string referenceSgemmMethod;  // or why it was not measured
    // Atomic updates of one 32-bit word per second, every thread of a full GPU adding 1 to it: how
    // fast same-address atomics serialise at L2. 0 = not measured (sessions before it).
    double measuredAtomicUpdatesPerSecond = 0;
    std::string measuredAtomicMethod;
};

using Dim3 = std::array<std::uint32_t, 3>;

// One kernel the session ran: what it is and where its code came from.
struct KernelRecord {
    std::string id;                    // unique in the session: the demo id or the entry name
    std::string entry;                 // PTX entry name
    std::string title;                 // for people; empty for user files
    std::string ladder;                // demo ladder this kernel is a rung of ("" if none)
    int ladderRung = 0;                // its position (manifest order)
    std::string sourceName;            // "kernels/reduction/reduction.cu" or the user's path
    std::string ptxHash;               // FNV-1a 64 of the PTX text, 16 hex digits
    std::string sourceHash;            // of the CUDA source, when there is one
    Dim3 grid{1, 1, 1}, block{1, 1, 1};
    std::uint64_t dynamicSharedBytes = 0;
    std::vector<std::string> args;     // argument specs, as the simulator reads them
    std::string launchSize;            // "gpu" or "sim" (a demo's manifest size), "custom" (files, overrides); "" in older sessions
    std::string cacheControl;          // "all": L2 flushed before every timed run and replay pass; "none"; "" in older sessions
    std::string compute;               // virtual architecture of its PTX, "compute_80": NVRTC's for a .cu, the build's for a demo; "" for .ptx files, older sessions
};

// Whether `arch` is a virtual architecture a kernel record may name: "compute_" and a whole number
// from 75 (the oldest CUDA 13 compiles for) to 999, no sign, no leading zero, no suffix. Not the
// list this machine's NVRTC knows: a session compiled by a newer toolkit still opens here.
bool isRecordedComputeArch(std::string_view arch);
inline constexpr int kMinRecordedCompute = 75, kMaxRecordedCompute = 999;

// CUPTI Activity: one record per launch of the kernel; `durationsNs` has every timed run.
struct ActivityRecord {
    std::string kernel;
    std::vector<std::uint64_t> durationsNs;
    int registersPerThread = 0;
    std::uint64_t staticSharedBytes = 0, dynamicSharedBytes = 0, localBytesPerThread = 0;
    Dim3 grid{1, 1, 1}, block{1, 1, 1};
    std::uint64_t droppedRecords = 0;
    std::string timer;                 // "cupti_activity", or "cuda_events" when CUPTI was taken (under ncu); "" = cupti_activity
    std::uint64_t medianNs() const;
};

struct MemcpyRecord {
    std::string kernel;
    std::string direction;             // "HtoD", "DtoH", "DtoD"
    std::uint64_t bytes = 0;
    std::uint64_t durationNs = 0;
};

// Range Profiler: metric values for one kernel launch (kernel replay, auto range).
struct MetricsRecord {
    std::string kernel;
    int passes = 0;                    // replay passes the configuration needed
    std::string replay = "kernel";
    std::map<std::string, double> values;
    std::map<std::string, std::string> units;   // CUPTI's dimension unit per metric, when known
    std::vector<std::string> unavailable;        // requested but not supported on this chip
};

// Theoretical occupancy from core/occupancy with the device's own limits and the kernel's real
// register and shared-memory use (CUPTI does not report it).
struct OccupancyRecord {
    std::string kernel;
    double theoretical = 0;            // 0..1
    int activeBlocksPerSm = 0;
    int registersPerThread = 0;
    std::string limiter;               // occupancy::limiterKey of the binding factor
    double waves = 0;                  // blocks / (activeBlocksPerSm x SMs)
};

// The timing model's stall cycles (sim::StallCycles): warp cycles spent waiting before an issue, by
// what the warp waited for, summed over the blocks the model replayed. All 0: not recorded.
struct ModelStallCycles {
    std::uint64_t globalMemory = 0, sharedMemory = 0, execution = 0, loadStoreUnit = 0, barrier = 0, notSelected = 0;
    std::uint64_t total() const { return globalMemory + sharedMemory + execution + loadStoreUnit + barrier + notSelected; }
};

// What the simulator predicted for the same launch (whole grid), for "predicted vs measured".
struct PredictionRecord {
    std::string kernel;
    std::string preset;                // the preset the simulator ran as, "sm_90"
    std::uint64_t warpInstructions = 0, threadInstructions = 0;
    std::uint64_t globalLoadRequests = 0, globalLoadSectors = 0;
    std::uint64_t globalStoreRequests = 0, globalStoreSectors = 0;
    std::uint64_t sharedLoadWavefronts = 0, sharedStoreWavefronts = 0;
    std::uint64_t sharedLoadRequests = 0, sharedStoreRequests = 0;
    std::uint64_t sharedBankConflicts = 0;
    std::uint64_t branchesUniform = 0, branchesDivergent = 0;
    std::uint64_t fadd = 0, fmul = 0, ffma = 0; // thread-level FP32 operations
    double theoreticalOccupancy = 0;   // with the simulator's register assumption
    // Blocks the simulator ran and the grid's blocks. When fewer were run (a sample: the first, the
    // last and evenly spread ones), every count above is the sample's scaled by total / simulated:
    // exact for kernels whose blocks all do the same work. 0 in older sessions: the whole grid.
    std::uint64_t simulatedBlocks = 0, totalBlocks = 0;
    // The timing model's duration of the whole launch on this device (core/sim/kernel_time.h), how it
    // was obtained ("every block simulated", "scaled from 256 of 4,096 blocks: ...") and what the
    // model leaves out that matters for this kernel ("global atomics", "L2-resident working set").
    // 0: not predicted (older sessions).
    double predictedNs = 0;
    std::string timeMethod;
    std::vector<std::string> timeBlindSpots;
    // Where the model's warps waited (shares compare with ncu's warp states: session/stall_comparison.h).
    ModelStallCycles modelStalls;
};

// The memory ladder measured on this GPU: pointer-chase latency per level (one thread, clock64
// around a dependent chain longer than the level below, median of several runs) and bandwidth per
// level. 0 = not measured; `method` says how each value was taken.
struct HierarchyLevel {
    std::string level;                 // "shared", "l1", "l2", "dram", "tlb_miss"
    double latencyCycles = 0;
    double latencyNs = 0;
    double bandwidthGBps = 0;
    std::uint64_t footprintBytes = 0;  // the chain's (or the bandwidth kernel's) working set
    std::string method;
};

struct HierarchyRecord {
    double smClockMHz = 0;             // the clock the cycle counts were converted with
    std::vector<HierarchyLevel> levels;
    const HierarchyLevel* find(std::string_view level) const;
};

// The GPU's outputs compared with the gold reference or the simulator.
struct CheckRecord {
    std::string kernel;
    std::string reference;             // "gold" or "simulator"
    bool matches = false;
    std::string detail;
};

struct ProgressRecord {
    std::string stage;                 // "timing", "counters", "ceilings", ...
    std::string kernel;
    int done = 0, total = 0;           // replay passes (or steps) done out of total, whole session
};

struct LogRecord {
    std::string level;                 // "info" or "warning"
    std::string message;
};

struct ErrorRecord {
    std::string code;                  // "no_driver", "no_device", "counters_not_permitted", ...
    std::string message;
    std::string kernel;                // empty for session-wide errors
    bool fatal = false;
};

struct EndRecord {
    std::string status;                // "ok", "error", "cancelled"
    double wallSeconds = 0;
};

struct Session {
    SessionHeader header;
    std::vector<DeviceRecord> devices; // the device profiled is devices.front()
    std::optional<CeilingsRecord> ceilings;
    std::optional<HierarchyRecord> hierarchy;
    std::vector<KernelRecord> kernels;
    std::vector<ActivityRecord> activities;
    std::vector<MemcpyRecord> memcpys;
    std::vector<MetricsRecord> metrics;
    std::vector<OccupancyRecord> occupancies;
    std::vector<PredictionRecord> predictions;
    std::vector<CheckRecord> checks;
    std::vector<ProgressRecord> progress;
    std::vector<LogRecord> logs;
    std::vector<ErrorRecord> errors;
    std::optional<EndRecord> end;

    // The kernels the session names, in stream order: its kernel records, then any id only other
    // records name (a damaged stream).
    std::vector<std::string> kernelIds() const;
    const KernelRecord* findKernel(const std::string& id) const;
    const ActivityRecord* activityFor(const std::string& kernel) const;
    const MetricsRecord* metricsFor(const std::string& kernel) const;
    const OccupancyRecord* occupancyFor(const std::string& kernel) const;
    const PredictionRecord* predictionFor(const std::string& kernel) const;
    const CheckRecord* checkFor(const std::string& kernel) const;
    // A metric's value for a kernel, if measured.
    std::optional<double> metric(const std::string& kernel, const std::string& name) const;
};

// FNV-1a, 64 bits, as 16 lower-case hex digits: the session's content hash for PTX and sources.
std::string fnv1a64Hex(std::string_view text);

} // namespace warpscope::session
