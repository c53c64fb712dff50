// CUPTI Activity collection: kernel launches (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) and memory
// copies, with the dropped-record count checked after every buffer. Needs no hardware counters,
// so it is what remains when counter access is not permitted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::probe {

struct KernelActivity {
    std::string name;          // the entry name as launched (mangled for C++ kernels)
    std::uint64_t startNs = 0, endNs = 0;
    int registersPerThread = 0;
    std::int32_t staticShared = 0, dynamicShared = 0;
    std::uint32_t localPerThread = 0;
    std::int32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
};

struct MemcpyActivity {
    std::uint8_t kind = 0;     // CUpti_ActivityMemcpyKind
    std::uint64_t bytes = 0;
    std::uint64_t startNs = 0, endNs = 0;
};

struct ActivityHarvest {
    std::vector<KernelActivity> kernels;
    std::vector<MemcpyActivity> memcpys;
    std::uint64_t dropped = 0;
};

// Registers the buffer callbacks and enables the two kinds. Returns false, changing nothing, when
// another tool already subscribed to CUPTI (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: the
// probe runs under ncu or nsys); throws CuptiError naming any other failing call.
bool startActivity();
// Flushes CUPTI's buffers and returns (and forgets) everything collected since the last harvest;
// empty when startActivity() did not start collection.
ActivityHarvest harvestActivity();
void stopActivity();

std::string cuptiVersionText();

} // namespace warpscope::probe
