#include "device_info.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <regex>

namespace warpscope::probe {

int deviceCount(const DriverApi& driver)
{
    int count = 0;
    WS_CU(driver.cuDeviceGetCount(&count));
    return count;
}

session::DeviceRecord queryDevice(const DriverApi& driver, int ordinal)
{
    CUdevice device = 0;
    WS_CU(driver.cuDeviceGet(&device, ordinal));
    auto attribute = [&](CUdevice_attribute which) {
        int value = 0;
        WS_CU(driver.cuDeviceGetAttribute(&value, which, device));
        return value;
    };
    session::DeviceRecord d;
    d.ordinal = ordinal;
    char name[256] = {};
    WS_CU(driver.cuDeviceGetName(name, sizeof name, device));
    d.name = name;
    d.computeMajor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    d.computeMinor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    d.smCount = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    d.coreClockKHz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    d.memoryClockKHz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    d.memoryBusWidthBits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    std::size_t total = 0;
    WS_CU(driver.cuDeviceTotalMem(&total, device));
    d.totalMemoryBytes = total;
    d.l2Bytes = static_cast<std::uint64_t>(attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    d.maxThreadsPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    d.maxBlocksPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    d.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    d.registersPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    d.registersPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    d.sharedPerSm = static_cast<std::uint64_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
    d.sharedPerBlock = static_cast<std::uint64_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    d.sharedPerBlockOptin = static_cast<std::uint64_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
    d.reservedSharedPerBlock = static_cast<std::uint64_t>(attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK));
    WS_CU(driver.cuDriverGetVersion(&d.driverVersion));
    d.driverRelease = driverRelease();
    d.toolkitVersion = CUDA_VERSION;
    return d;
}

int fp32LanesPerSm(int major, int minor)
{
    if (major == 7) return 64;                  // Volta, Turing
    if (major == 8) return minor == 0 ? 64 : 128; // A100: 64; GA10x and Ada: 128
    if (major >= 9) return 128;                 // Hopper, Blackwell
    return 0;
}

session::CeilingsRecord theoreticalCeilings(const session::DeviceRecord& device)
{
    session::CeilingsRecord c;
    c.theoreticalDramGBps = 2.0 * device.memoryClockKHz * 1e3 * (device.memoryBusWidthBits / 8.0) / 1e9;
    c.theoreticalFp32Gflops = static_cast<double>(device.smCount) * fp32LanesPerSm(device.computeMajor, device.computeMinor) *
                              2.0 * device.coreClockKHz * 1e3 / 1e9;
    c.theoreticalSource = "from the driver's attributes: DRAM = 2 x memory clock x bus width; FP32 = SMs x " +
                          std::to_string(fp32LanesPerSm(device.computeMajor, device.computeMinor)) +
                          " lanes (CUDA C++ Programming Guide, arithmetic throughput) x 2 FLOP x peak clock";
    return c;
}

DevicePreset presetForDevice(const session::DeviceRecord& device)
{
    DevicePreset out;
    out.arch = "sm_" + std::to_string(device.computeMajor) + std::to_string(device.computeMinor);
    // The closest built-in preset not newer than the device (same major version when there is one).
    const gpu::GpuPreset* base = nullptr;
    for (const gpu::GpuPreset& preset : gpu::allPresets()) {
        const int version = preset.computeMajor * 10 + preset.computeMinor;
        if (version <= device.computeMajor * 10 + device.computeMinor)
            base = &preset;
    }
    if (base == nullptr)
        base = &gpu::allPresets().front();
    out.preset = *base;
    out.name = device.name;
    out.source = "the device's own attributes (cuDeviceGetAttribute); timing model parameters from the " +
                 std::string(base->name) + " preset";
    out.preset.arch = out.arch;
    out.preset.name = out.name;
    out.preset.source = out.source;
    out.preset.computeMajor = device.computeMajor;
    out.preset.computeMinor = device.computeMinor;
    out.preset.smCount = device.smCount;
    out.preset.maxThreadsPerBlock = device.maxThreadsPerBlock;
    out.preset.maxThreadsPerSm = device.maxThreadsPerSm;
    out.preset.maxBlocksPerSm = device.maxBlocksPerSm;
    out.preset.registersPerSm = device.registersPerSm;
    out.preset.registersPerBlock = device.registersPerBlock;
    out.preset.sharedPerSm = device.sharedPerSm;
    out.preset.sharedPerBlock = device.sharedPerBlock;
    out.preset.sharedPerBlockOptin = device.sharedPerBlockOptin;
    out.preset.reservedSharedPerBlock = device.reservedSharedPerBlock;
    out.preset.timing.coreClockMHz = device.coreClockKHz / 1000.0;
    out.preset.timing.l2Bytes = device.l2Bytes;
    return out;
}

std::string driverRelease()
{
    std::ifstream file("/proc/driver/nvidia/version");
    std::string line;
    if (!file || !std::getline(file, line))
        return {};
    static const std::regex version(R"((\d+\.\d+(\.\d+)?))");
    std::smatch match;
    return std::regex_search(line, match, version) ? match.str(1) : std::string();
}

} // namespace warpscope::probe
