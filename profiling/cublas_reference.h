// cuBLAS SGEMM as the matrix-multiply ladder's reference rung: libcublas is loaded at run time (the
// probe only; nothing else links it), so the probe still starts where cuBLAS is not installed and
// says so. Pedantic math mode: FP32 inputs and FP32 arithmetic, no TF32 Tensor Core shortcut, so
// it does the same arithmetic the ladder's kernels do.
#pragma once

#include "driver_api.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::probe {

struct SgemmReference {
    bool measured = false;
    std::string why;                 // when not measured: what was missing
    double gflops = 0;               // 2 n^3 FLOP over the best run
    double seconds = 0;
    std::string method;
    std::string check;               // what was compared and how it came out
    bool matches = false;
};

// Times C = A x B for row-major n x n FP32 matrices `a` and `b` (n x n each), best of `runs`
// after one warm-up, and checks 16 elements of C against double-precision dot products.
// `flushL2` (may be empty) runs before every timed run.
SgemmReference measureCublasSgemm(const DriverApi& d, int n, const std::vector<float>& a, const std::vector<float>& b,
                                  int runs, const std::function<void()>& flushL2);

} // namespace warpscope::probe
