// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so that warpscope-probe
// starts on a machine without an NVIDIA driver and says so (exit code 3) instead of failing in the
// dynamic loader. Each entry point is typed from cuda.h; its symbol name is the versioned one cuda.h
// maps it to (cuMemAlloc -> cuMemAlloc_v2), so a driver older than the toolkit is named precisely.
#pragma once

#include <cuda.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace warpscope::probe {

#define WARPSCOPE_DRIVER_FUNCTIONS(X) \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) \
    X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxSynchronize) \
    X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncGetAttribute) X(cuFuncSetAttribute) \
    X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemsetD8) X(cuLaunchKernel) \
    X(cuLaunchCooperativeKernel) \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy)

struct DriverApi {
#define WARPSCOPE_DECLARE(name) decltype(&::name) name = nullptr;
    WARPSCOPE_DRIVER_FUNCTIONS(WARPSCOPE_DECLARE)
#undef WARPSCOPE_DECLARE
};

// Why the driver could not be used: `code` is the session error code ("no_driver",
// "driver_too_old", "no_device", "unsupported_device").
class DriverUnavailable : public std::runtime_error {
public:
    DriverUnavailable(std::string code, const std::string& message) : std::runtime_error(message), code(std::move(code)) {}
    std::string code;
};

// A driver call that failed: the function, CUDA's error name and its description.
class DriverError : public std::runtime_error {
public:
    DriverError(CUresult result, const std::string& message) : std::runtime_error(message), result(result) {}
    CUresult result;
};

// Loads libcuda.so.1 and every entry point, then cuInit(0). Throws DriverUnavailable.
const DriverApi& loadDriver();

// Throws DriverError("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)") unless CUDA_SUCCESS.
void check(CUresult result, const char* call);

} // namespace warpscope::probe

#define WS_CU(call) ::warpscope::probe::check(call, #call)
