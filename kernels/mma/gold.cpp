// Gold reference for mma.cu.
#include "gold_functions.h"
#include "gold_support.h"
#include "numerics/half_rounding.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::kernels::gold {

// matmul_mma: one warp per 16 x 8 tile of C; every 8 along k, one mma.sync.m16n8k8 with FP16 inputs
// (cvt.rn.f16.f32) and an FP32 accumulator. The simulator forms the mma's 8 exact products of halves
// in double, adds them to the accumulator in k order and rounds once to FP32 (core/sim/README.md,
// "Tensor Cores"); so does this reference, bit for bit. On a GPU the order and width of the additions
// are not documented (see matmul_wmma's reference in matmul/gold.cpp), so gpu_tolerance allows 2 FP32
// ulps per mma at the partial sums' size, as matmul_wmma's does: at n = 4096, 512 mma steps x 2 x
// 2^-17 = 7.8e-3, taken as 8e-3.
void matmulMma(GoldContext& context)
{
    constexpr std::int64_t kRows = 16, kColumns = 8, kStep = 8;
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != 32 || launch.block.y != 1 || launch.block.z != 1)
        support::unsupported("matmul_mma", "the reference models blocks of one warp (32 threads) per 16 x 8 tile");
    const std::int64_t n = std::max<std::int64_t>(0, context.integer("n"));
    if (n % 16 != 0)
        support::unsupported("matmul_mma", "n must be a multiple of 16: the kernel has no edge case (n = " + std::to_string(n) + ")");
    const auto A = context.input<float>("A");
    const auto B = context.input<float>("B");
    auto C = context.expected<float>("C");
    support::requireElements(A, n * n, "matmul_mma", "A");
    support::requireElements(B, n * n, "matmul_mma", "B");
    support::requireElements(C, n * n, "matmul_mma", "C");
    const std::int64_t rows = std::min<std::int64_t>(n, std::int64_t{launch.grid.y} * kRows);
    const std::int64_t columns = std::min<std::int64_t>(n, std::int64_t{launch.grid.x} * kColumns);
    std::vector<float> halfA(A.size()), halfB(B.size());
    std::transform(A.begin(), A.end(), halfA.begin(), numerics::roundToFp16Fast);
    std::transform(B.begin(), B.end(), halfB.begin(), numerics::roundToFp16Fast);
    for (std::int64_t row = 0; row < rows; ++row)
        for (std::int64_t col = 0; col < columns; ++col) {
            float acc = 0.0f;
            for (std::int64_t k0 = 0; k0 < n; k0 += kStep) {
                double sum = acc;
                for (std::int64_t k = k0; k < k0 + kStep; ++k)
                    sum += static_cast<double>(halfA[static_cast<std::size_t>(row * n + k)]) * halfB[static_cast<std::size_t>(k * n + col)];
                acc = static_cast<float>(sum);
            }
            C[static_cast<std::size_t>(row * n + col)] = acc;
        }
}

} // namespace warpscope::kernels::gold
