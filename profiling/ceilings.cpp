#include "ceilings.h"

#include "ceiling_kernels.h"
#include "event_timer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace warpscope::probe {

namespace {

// Same-address atomics: every thread of a full GPU adds 1 to one word, 16 times. The word's L2 slice
// applies the updates one after another, so updates per second is the rate the timing model's
// l2AtomicCyclesPerUpdate stands for. The counter is checked afterwards: a count other than
// launches x threads x 16 means the updates were not all made, and nothing is recorded.
void measureAtomicContention(const DriverApi& d, unsigned blocks, unsigned threadsPerBlock, session::CeilingsRecord& ceilings)
{
    const std::string ptx = atomicContentionPtx();
    CUmodule module = nullptr;
    WS_CU(d.cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr));
    CUfunction function = nullptr;
    WS_CU(d.cuModuleGetFunction(&function, module, kAtomicContentionEntry));
    CUdeviceptr counter = 0;
    WS_CU(d.cuMemAlloc(&counter, sizeof(std::uint32_t)));
    WS_CU(d.cuMemsetD8(counter, 0, sizeof(std::uint32_t)));
    std::uint32_t iterations = 16;
    void* params[] = {&counter, &iterations};
    const int repeats = 5;
    int launches = 0;
    const float ms = bestMilliseconds(d, repeats, [&] {
        WS_CU(d.cuLaunchKernel(function, blocks, 1, 1, threadsPerBlock, 1, 1, 0, nullptr, params, nullptr));
        ++launches;
    });
    std::uint32_t total = 0;
    WS_CU(d.cuMemcpyDtoH(&total, counter, sizeof total));
    d.cuMemFree(counter);
    d.cuModuleUnload(module);
    const std::uint64_t updates = static_cast<std::uint64_t>(blocks) * threadsPerBlock * iterations;
    if (ms <= 0 || static_cast<std::uint64_t>(total) != (updates * static_cast<std::uint64_t>(launches)) % (std::uint64_t{1} << 32)) {
        ceilings.measuredAtomicMethod = "not measured: the counter held " + std::to_string(total) + ", not " +
                                        std::to_string(launches) + " launches x " + std::to_string(updates) + " updates";
        return;
    }
    ceilings.measuredAtomicUpdatesPerSecond = static_cast<double>(updates) / (ms * 1e-3);
    ceilings.measuredAtomicMethod = "red.global.add.u32 of 1 to one word by every thread of " + std::to_string(blocks) +
                                    " blocks of " + std::to_string(threadsPerBlock) + ", " + std::to_string(iterations) +
                                    " times each, best of " + std::to_string(repeats) + " runs timed with CUDA events";
}

} // namespace

void measureCeilings(const DriverApi& d, const session::DeviceRecord& device, session::CeilingsRecord& ceilings)
{
    // Copy bandwidth: two buffers far larger than L2 (at least 16x), at most 1 GiB or 1/8 of memory.
    std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, device.totalMemoryBytes / 8);
    bytes = std::max<std::size_t>(bytes, std::min<std::size_t>(device.l2Bytes * 16, device.totalMemoryBytes / 4));
    bytes &= ~std::size_t{0xFFFF};
    CUdeviceptr source = 0, target = 0;
    WS_CU(d.cuMemAlloc(&source, bytes));
    WS_CU(d.cuMemAlloc(&target, bytes));
    WS_CU(d.cuMemsetD8(source, 1, bytes));
    const int copyRepeats = 10;
    const float copyMs = bestMilliseconds(d, copyRepeats, [&] { WS_CU(d.cuMemcpyDtoD(target, source, bytes)); });
    d.cuMemFree(source);
    d.cuMemFree(target);
    ceilings.measuredDramGBps = 2.0 * static_cast<double>(bytes) / (copyMs * 1e-3) / 1e9;
    ceilings.measuredDramMethod = "cuMemcpyDtoD of " + std::to_string(bytes >> 20) + " MiB, bytes read + written, best of " +
                                  std::to_string(copyRepeats) + " runs timed with CUDA events";

    // FP32: every SM full of warps (2,048 threads per SM as 8 blocks of 256), 8 independent chains.
    const std::string ptx = fmaPeakPtx();
    CUmodule module = nullptr;
    WS_CU(d.cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr));
    CUfunction function = nullptr;
    WS_CU(d.cuModuleGetFunction(&function, module, kFmaPeakEntry));
    const unsigned threadsPerBlock = 256;
    const unsigned blocks = static_cast<unsigned>(device.smCount) *
                            static_cast<unsigned>(std::max(1, device.maxThreadsPerSm / static_cast<int>(threadsPerBlock)));
    const std::uint64_t threads = static_cast<std::uint64_t>(blocks) * threadsPerBlock;
    CUdeviceptr out = 0;
    WS_CU(d.cuMemAlloc(&out, threads * sizeof(float)));
    std::uint32_t iterations = 2048;
    void* params[] = {&out, &iterations};
    const int fmaRepeats = 5;
    const float fmaMs = bestMilliseconds(d, fmaRepeats, [&] {
        WS_CU(d.cuLaunchKernel(function, blocks, 1, 1, threadsPerBlock, 1, 1, 0, nullptr, params, nullptr));
    });
    d.cuMemFree(out);
    d.cuModuleUnload(module);
    ceilings.measuredFp32Gflops = static_cast<double>(fmaPeakFlops(threads, iterations)) / (fmaMs * 1e-3) / 1e9;
    ceilings.measuredFp32Method = "FFMA kernel, " + std::to_string(blocks) + " blocks of " + std::to_string(threadsPerBlock) +
                                  " threads, " + std::to_string(kFmaChains) + " independent chains, " +
                                  std::to_string(iterations) + " iterations, 2 FLOP per FMA, best of " +
                                  std::to_string(fmaRepeats) + " runs timed with CUDA events";
    measureAtomicContention(d, blocks, threadsPerBlock, ceilings);
}

} // namespace warpscope::probe
