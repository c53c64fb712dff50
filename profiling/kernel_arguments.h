// Device buffers for one kernel's arguments, and the parameter array cuLaunchKernel takes.
#pragma once

#include "driver_api.h"
#include "sim/kernel_args.h"

#include <cstdint>
#include <vector>

namespace warpscope::probe {

class KernelArguments {
public:
    // Allocates a buffer per buffer argument (at least 4 bytes) and uploads the arguments.
    KernelArguments(const DriverApi& d, const std::vector<sim::ResolvedArg>& args);
    ~KernelArguments();
    KernelArguments(const KernelArguments&) = delete;
    KernelArguments& operator=(const KernelArguments&) = delete;

    // Copies the arguments as resolved into the device buffers again (fresh inputs for a run).
    void upload();
    // The arguments with every buffer as it is on the device now.
    std::vector<sim::ResolvedArg> download() const;
    void** params() { return m_params.data(); }

private:
    const DriverApi& m_driver;
    std::vector<sim::ResolvedArg> m_args;
    std::vector<CUdeviceptr> m_pointers;
    std::vector<std::uint64_t> m_scalars; // little-endian: the low bytes are the value
    std::vector<void*> m_params;
};

} // namespace warpscope::probe
