// Theoretical occupancy, computed by the CUDA toolkit's own host-only calculator
// (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor) from a GpuPreset, with every limiter
// and the numbers behind it, and an explanation in words of what binds and what would lift it.
#pragma once

#include "gpu/gpu_preset.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::occupancy {

struct OccupancyInput {
    int threadsPerBlock = 256;            // blockDim.x * blockDim.y * blockDim.z
    int registersPerThread = 32;          // as ptxas reports (-Xptxas -v)
    std::size_t staticSharedBytes = 0;    // __shared__ arrays (at most 48 KB)
    std::size_t dynamicSharedBytes = 0;   // the launch's third <<<>>> argument
    int carveoutPercent = -1;             // cudaFuncAttributePreferredSharedMemoryCarveout; -1 = default
    int barriersPerBlock = 1;             // block barriers the kernel uses (cuda_occupancy.h default 1)
    bool operator==(const OccupancyInput&) const = default;
};

enum class Limiter { Warps, Registers, SharedMemory, Blocks, Barriers };

std::string_view limiterKey(Limiter limiter);   // "warps", "registers", "shared_memory", ...
std::string_view limiterTitle(Limiter limiter); // "Warps per SM", ...

struct LimiterDetail {
    Limiter limiter = Limiter::Warps;
    int blockLimit = 0;     // blocks per SM this factor alone allows (INT_MAX: no limit)
    bool binding = false;   // this factor equals the final block count
    std::string reasoning;  // the arithmetic behind blockLimit, one sentence
};

// One change to the input that, on its own, raises the occupancy cuda_occupancy.h computes.
enum class SuggestionKind { BlockSize, Registers, SharedMemory, Carveout, Barriers, BlockSizeAndRegisters };

struct OccupancySuggestion {
    SuggestionKind kind = SuggestionKind::BlockSize;
    OccupancyInput input;         // the input with the change that reaches `activeWarpsPerSm`
    int activeWarpsPerSm = 0;     // with that change (more than the current input's)
    double occupancy = 0.0;       // activeWarpsPerSm / max warps
    std::string text;             // "use 128 or 256 threads per block (100 %, 64 of 64 warps)"
};

struct OccupancyResult {
    std::string arch;                          // preset arch, "sm_90"
    std::string gpuName;                       // "H100 SXM"
    OccupancyInput input;
    int activeBlocksPerSm = 0;
    int activeWarpsPerSm = 0;
    int activeThreadsPerSm = 0;
    int maxWarpsPerSm = 0;
    double occupancy = 0.0;                    // activeWarps / maxWarps, 0..1
    int warpsPerBlock = 0;                     // ceil(threads / 32)
    int registersPerWarp = 0;                  // allocated, rounded to the 256-register unit
    int registersPerBlock = 0;                 // allocated
    int warpsPerSubPartitionByRegisters = 0;   // 0 when registers do not limit (never 0 regs here)
    std::size_t sharedPerBlock = 0;            // allocated: static + dynamic + reserved, rounded
    std::size_t sharedPerSm = 0;               // SM shared capacity at the effective carveout
    std::size_t sharedGranularity = 0;         // allocation unit, bytes
    bool needsOptin = false;                   // static + dynamic > 48 KB
    std::vector<LimiterDetail> limits;         // warps, registers, shared_memory, blocks, barriers
    std::vector<Limiter> binding;              // the factors that set activeBlocksPerSm
    int idleLanesPerBlock = 0;                 // lanes of the last warp with no thread: they still take a warp slot
    std::vector<OccupancySuggestion> suggestions; // single changes that raise occupancy, the best first; when
                                               // none does, at most one BlockSizeAndRegisters change
    std::string explanation;                   // what binds and what would lift it, in words
    bool launchable() const { return activeBlocksPerSm > 0; }
};

// Validates the input against the preset (InputError with the field and allowed range) and computes.
OccupancyResult computeOccupancy(const gpu::GpuPreset& preset, const OccupancyInput& input);

// The same without the explanation text: for sweeps, thousands of calls.
int activeBlocksPerSm(const gpu::GpuPreset& preset, const OccupancyInput& input);

// "cuda_occupancy.h, compute capability up to 12.1": which calculator computes, for About dialogs.
std::string calculatorDescription();

// Checks an input against the preset's limits; throws InputError naming the field.
void validateInput(const gpu::GpuPreset& preset, const OccupancyInput& input);

} // namespace warpscope::occupancy
