// The GPU as the driver reports it: the session's device record, the ceilings computed from its
// attributes, and a GpuPreset built from its own limits for core/occupancy.
#pragma once

#include "driver_api.h"
#include "gpu/gpu_preset.h"
#include "session/session.h"

#include <string>
#include <vector>

namespace warpscope::probe {

session::DeviceRecord queryDevice(const DriverApi& driver, int ordinal);
int deviceCount(const DriverApi& driver);

// FP32 lanes per SM for a compute capability (CUDA C++ Programming Guide, "Arithmetic
// Instructions" throughput table); 0 when unknown.
int fp32LanesPerSm(int major, int minor);

// 2 x memory clock x bus width (double data rate), and SMs x FP32 lanes x 2 FLOP x clock.
session::CeilingsRecord theoreticalCeilings(const session::DeviceRecord& device);

// A preset with the device's own limits: probe::presetFromRecord (device_preset.h) without measured
// ceilings, i.e. session::sessionPreset of the record (an H200 gets the H200 SXM preset, DRAM
// bandwidth from 2 x memory clock x bus width). The probe itself calls presetFromRecord with the
// ceilings it measured. Owns the strings its views point at.
struct DevicePreset {
    std::string arch, name, source;
    gpu::GpuPreset preset;
};
DevicePreset presetForDevice(const session::DeviceRecord& device);

// The kernel module's version ("580.95.05") from /proc/driver/nvidia/version, or "".
std::string driverRelease();

} // namespace warpscope::probe
