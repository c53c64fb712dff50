#include "activity_collector.h"

#include "cupti_check.h"

#include <cupti_activity.h>
#include <cupti_version.h>

#include <cstdlib>
#include <mutex>
#include <utility>

namespace warpscope::probe {

namespace {

constexpr std::size_t kBufferBytes = 8u << 20;
constexpr std::size_t kAlignment = 8; // CUPTI requires 8-byte aligned activity buffers

std::mutex g_mutex;
ActivityHarvest g_collected;
bool g_started = false;

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0; // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    std::lock_guard lock(g_mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            KernelActivity k;
            k.name = kernel->name ? kernel->name : "";
            k.startNs = kernel->start;
            k.endNs = kernel->end;
            k.registersPerThread = kernel->registersPerThread;
            k.staticShared = kernel->staticSharedMemory;
            k.dynamicShared = kernel->dynamicSharedMemory;
            k.localPerThread = kernel->localMemoryPerThread;
            k.grid[0] = kernel->gridX; k.grid[1] = kernel->gridY; k.grid[2] = kernel->gridZ;
            k.block[0] = kernel->blockX; k.block[1] = kernel->blockY; k.block[2] = kernel->blockZ;
            g_collected.kernels.push_back(std::move(k));
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            g_collected.memcpys.push_back({copy->copyKind, copy->bytes, copy->start, copy->end});
        }
    }
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
        g_collected.dropped += dropped;
    std::free(buffer);
}

} // namespace

bool startActivity()
{
    const CUptiResult registered = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (registered == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        return false;
    WS_CUPTI(registered);
    WS_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    WS_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
    g_started = true;
    return true;
}

ActivityHarvest harvestActivity()
{
    if (!g_started)
        return {};
    WS_CUPTI(cuptiActivityFlushAll(1)); // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: include incomplete buffers
    std::lock_guard lock(g_mutex);
    ActivityHarvest out = std::move(g_collected);
    g_collected = {};
    return out;
}

void stopActivity()
{
    if (!g_started)
        return;
    g_started = false;
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityFlushAll(1);
}

std::string cuptiVersionText()
{
    std::uint32_t version = 0;
    if (cuptiGetVersion(&version) != CUPTI_SUCCESS)
        return {};
    return "API " + std::to_string(version);
}

} // namespace warpscope::probe
