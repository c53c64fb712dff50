#include "device_info.h"

#include "device_preset.h"

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
    // One mapping for the probe and the session reader (device_preset.h): the H200 gets the H200 SXM
    // preset and every device its own DRAM bandwidth, not the base preset's datasheet figure.
    const session::SessionPreset chosen = presetFromRecord(device);
    DevicePreset out;
    out.preset = chosen.preset;
    out.arch = std::string(chosen.preset.arch);
    out.name = std::string(chosen.preset.name);
    out.source = std::string(chosen.preset.source);
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
