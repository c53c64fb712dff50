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

    int maxWarpsPerSm() const { return maxThreadsPerSm / warpSize; }
};

// All built-in presets, oldest architecture first.
std::span<const GpuPreset> allPresets();

// The preset for "sm_90" (also accepts "90" and "9.0"); nullopt when unknown.
std::optional<GpuPreset> findPreset(std::string_view arch);

// "sm_70, sm_75, sm_80, sm_86, sm_89, sm_90" for error messages.
std::string knownArchList();

} // namespace warpscope::gpu
