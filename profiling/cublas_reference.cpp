#include "cublas_reference.h"

#include "event_timer.h"

#include <cublas_v2.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace warpscope::probe {

namespace {

struct CublasApi {
    void* library = nullptr;
    std::string name;
    decltype(&::cublasCreate_v2) create = nullptr;
    decltype(&::cublasDestroy_v2) destroy = nullptr;
    decltype(&::cublasSetMathMode) setMathMode = nullptr;
    decltype(&::cublasSgemm_v2) sgemm = nullptr;
};

// The toolkit's own major version first, then any.
CublasApi loadCublas(std::string& why)
{
    CublasApi api;
    const std::string candidates[] = {"libcublas.so." + std::to_string(CUDA_VERSION / 1000), "libcublas.so",
#ifdef WARPSCOPE_CUDA_LIBRARY_DIR
                                      std::string(WARPSCOPE_CUDA_LIBRARY_DIR) + "/libcublas.so",
#endif
    };
    for (const std::string& candidate : candidates) {
        api.library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (api.library) {
            api.name = candidate;
            break;
        }
    }
    if (!api.library) {
        const char* error = dlerror();
        why = "libcublas could not be loaded (" + std::string(error ? error : "not found") +
              "): install the CUDA toolkit's cuBLAS or add its lib64 to LD_LIBRARY_PATH";
        return api;
    }
    api.create = reinterpret_cast<decltype(api.create)>(dlsym(api.library, "cublasCreate_v2"));
    api.destroy = reinterpret_cast<decltype(api.destroy)>(dlsym(api.library, "cublasDestroy_v2"));
    api.setMathMode = reinterpret_cast<decltype(api.setMathMode)>(dlsym(api.library, "cublasSetMathMode"));
    api.sgemm = reinterpret_cast<decltype(api.sgemm)>(dlsym(api.library, "cublasSgemm_v2"));
    if (!api.create || !api.destroy || !api.setMathMode || !api.sgemm) {
        why = api.name + " lacks cublasCreate_v2, cublasSetMathMode or cublasSgemm_v2";
        dlclose(api.library);
        api.library = nullptr;
    }
    return api;
}

} // namespace

SgemmReference measureCublasSgemm(const DriverApi& d, int n, const std::vector<float>& a, const std::vector<float>& b,
                                  int runs, const std::function<void()>& flushL2)
{
    SgemmReference out;
    const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    if (n <= 0 || a.size() < elements || b.size() < elements) {
        out.why = "the matrices do not hold n x n floats";
        return out;
    }
    const CublasApi api = loadCublas(out.why);
    if (!api.library)
        return out;
    struct Close {
        void* library;
        ~Close() { dlclose(library); }
    } close{api.library};

    cublasHandle_t handle = nullptr;
    if (api.create(&handle) != CUBLAS_STATUS_SUCCESS) {
        out.why = "cublasCreate failed";
        return out;
    }
    struct Destroy {
        const CublasApi& api;
        cublasHandle_t handle;
        ~Destroy() { api.destroy(handle); }
    } destroy{api, handle};
    if (api.setMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
        out.why = "cublasSetMathMode(CUBLAS_PEDANTIC_MATH) failed";
        return out;
    }
    const std::size_t bytes = elements * sizeof(float);
    CUdeviceptr da = 0, db = 0, dc = 0;
    WS_CU(d.cuMemAlloc(&da, bytes));
    WS_CU(d.cuMemAlloc(&db, bytes));
    WS_CU(d.cuMemAlloc(&dc, bytes));
    struct Free {
        const DriverApi& d;
        CUdeviceptr a, b, c;
        ~Free() { d.cuMemFree(a); d.cuMemFree(b); d.cuMemFree(c); }
    } release{d, da, db, dc};
    WS_CU(d.cuMemcpyHtoD(da, a.data(), bytes));
    WS_CU(d.cuMemcpyHtoD(db, b.data(), bytes));

    // Row-major C = A B is column-major C^T = B^T A^T: pass B first, no transposes.
    const float alpha = 1.0f, beta = 0.0f;
    const auto gemm = [&] {
        return api.sgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, reinterpret_cast<const float*>(db), n,
                         reinterpret_cast<const float*>(da), n, &beta, reinterpret_cast<float*>(dc), n);
    };
    if (gemm() != CUBLAS_STATUS_SUCCESS) {
        out.why = "cublasSgemm failed";
        return out;
    }
    // cuBLAS runs on the legacy default stream, as the events do.
    const float best = bestMilliseconds(d, runs, [&] { gemm(); }, flushL2);

    std::vector<float> c(elements);
    WS_CU(d.cuMemcpyDtoH(c.data(), dc, bytes));
    int checked = 0, wrong = 0;
    double worst = 0;
    for (int k = 0; k < 16; ++k) {
        const std::size_t row = static_cast<std::size_t>(k) * static_cast<std::size_t>(n - 1) / 15;
        const std::size_t col = static_cast<std::size_t>(15 - k) * static_cast<std::size_t>(n - 1) / 15;
        double exact = 0, magnitude = 0;
        for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
            exact += static_cast<double>(a[row * n + i]) * b[i * n + col];
            magnitude += std::abs(static_cast<double>(a[row * n + i]) * b[i * n + col]);
        }
        // FP32 sums of n products: within n x 2^-24 of the sum of magnitudes (a loose, safe bound).
        const double error = std::abs(c[row * n + col] - exact);
        worst = std::max(worst, magnitude > 0 ? error / magnitude : error);
        ++checked;
        if (error > static_cast<double>(n) * std::ldexp(1.0, -24) * std::max(1.0, magnitude))
            ++wrong;
    }
    out.measured = true;
    out.seconds = best * 1e-3;
    out.gflops = 2.0 * n * static_cast<double>(n) * n / out.seconds / 1e9;
    out.matches = wrong == 0;
    out.check = std::to_string(checked) + " elements of C against double-precision dot products: " +
                (wrong == 0 ? "all within n x 2^-24 of the sum of |products|" : std::to_string(wrong) + " outside that bound") +
                " (worst relative error " + std::to_string(worst) + ")";
    out.method = "cublasSgemm (" + api.name + ", CUBLAS_PEDANTIC_MATH: FP32, no TF32), n = " + std::to_string(n) +
                 ", 2 n^3 FLOP, best of " + std::to_string(runs) + " runs timed with CUDA events" +
                 (flushL2 ? ", L2 flushed before each" : "");
    return out;
}

} // namespace warpscope::probe
