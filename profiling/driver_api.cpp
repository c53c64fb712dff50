#include "driver_api.h"

#include <dlfcn.h>

namespace warpscope::probe {

namespace {

#define WARPSCOPE_STRINGIZE_EXPANDED(name) WARPSCOPE_STRINGIZE(name)
#define WARPSCOPE_STRINGIZE(name) #name

DriverApi g_driver;
bool g_loaded = false;

} // namespace

const DriverApi& loadDriver()
{
    if (g_loaded)
        return g_driver;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) {
        const char* why = dlerror();
        throw DriverUnavailable("no_driver", std::string("no NVIDIA driver: libcuda.so.1 could not be loaded (") +
                                                 (why ? why : "not found") +
                                                 "); live profiling needs an NVIDIA GPU with its driver installed");
    }
    // Each symbol by the name cuda.h maps the function to (cuMemAlloc -> "cuMemAlloc_v2").
#define WARPSCOPE_LOAD(name)                                                                                          \
    g_driver.name = reinterpret_cast<decltype(g_driver.name)>(dlsym(library, WARPSCOPE_STRINGIZE_EXPANDED(name)));   \
    if (g_driver.name == nullptr)                                                                                     \
        throw DriverUnavailable("driver_too_old", std::string("the NVIDIA driver lacks ") +                          \
                                                      WARPSCOPE_STRINGIZE_EXPANDED(name) +                           \
                                                      ": it is older than CUDA " + std::to_string(CUDA_VERSION / 1000) + \
                                                      "." + std::to_string(CUDA_VERSION % 1000 / 10) +              \
                                                      ", which the probe was built with; update the driver");
    WARPSCOPE_DRIVER_FUNCTIONS(WARPSCOPE_LOAD)
#undef WARPSCOPE_LOAD
    const CUresult init = g_driver.cuInit(0);
    if (init == CUDA_ERROR_NO_DEVICE)
        throw DriverUnavailable("no_device", "the NVIDIA driver is installed but reports no GPU (CUDA_ERROR_NO_DEVICE)");
    if (init != CUDA_SUCCESS) {
        const char* name = nullptr;
        g_driver.cuGetErrorName(init, &name);
        const bool tooOld = init == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH || init == CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER;
        throw DriverUnavailable(tooOld ? "driver_too_old" : "no_device",
                                std::string("cuInit failed: ") + (name ? name : "unknown error") +
                                    (tooOld ? " (the driver does not match the CUDA version the probe was built with)" : ""));
    }
    int version = 0;
    g_driver.cuDriverGetVersion(&version);
    if (version < CUDA_VERSION)
        throw DriverUnavailable("driver_too_old", "the NVIDIA driver supports CUDA " + std::to_string(version / 1000) + "." +
                                                      std::to_string(version % 1000 / 10) + ", older than CUDA " +
                                                      std::to_string(CUDA_VERSION / 1000) + "." +
                                                      std::to_string(CUDA_VERSION % 1000 / 10) +
                                                      " the probe was built with; update the driver");
    g_loaded = true;
    return g_driver;
}

void check(CUresult result, const char* call)
{
    if (result == CUDA_SUCCESS)
        return;
    const char* name = nullptr;
    const char* text = nullptr;
    if (g_driver.cuGetErrorName) g_driver.cuGetErrorName(result, &name);
    if (g_driver.cuGetErrorString) g_driver.cuGetErrorString(result, &text);
    std::string function(call);
    function = function.substr(0, function.find('('));
    function = function.substr(function.find_last_of(".>") == std::string::npos ? 0 : function.find_last_of(".>") + 1);
    throw DriverError(result, function + ": " + (name ? name : "CUDA error " + std::to_string(result)) +
                                  (text ? std::string(" (") + text + ")" : std::string()));
}

} // namespace warpscope::probe
