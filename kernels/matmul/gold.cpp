// Gold references for matmul.cu. nvcc contracts `acc += a * b` into fma.rn.f32 (one rounding per
// step), so the references accumulate with std::fma, k ascending from acc = 0: bit for bit.
#include "gold_functions.h"
#include "gold_support.h"
#include "numerics/half_rounding.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::kernels::gold {

namespace {

constexpr std::int64_t kTile = 16;

struct MatmulSetup {
    std::int64_t n = 0;
    std::int64_t rows = 0;     // rows of C the grid covers
    std::int64_t columns = 0;  // columns of C the grid covers
};

MatmulSetup setup(GoldContext& context, std::string_view kernel)
{
    const GoldLaunch& launch = context.launch();
    MatmulSetup result;
    result.n = std::max<std::int64_t>(0, context.integer("n"));
    result.rows = std::min<std::int64_t>(result.n, std::int64_t{launch.grid.y} * launch.block.y);
    result.columns = std::min<std::int64_t>(result.n, std::int64_t{launch.grid.x} * launch.block.x);
    const std::int64_t elements = result.n * result.n;
    support::requireElements(context.input<float>("A"), elements, kernel, "A");
    support::requireElements(context.input<float>("B"), elements, kernel, "B");
    support::requireElements(context.expected<float>("C"), elements, kernel, "C");
    return result;
}

} // namespace

void matmulNaive(GoldContext& context)
{
    const MatmulSetup m = setup(context, "matmul_naive");
    const auto A = context.input<float>("A");
    const auto B = context.input<float>("B");
    auto C = context.expected<float>("C");
    for (std::int64_t row = 0; row < m.rows; ++row)
        for (std::int64_t col = 0; col < m.columns; ++col) {
            float acc = 0.0f;
            for (std::int64_t k = 0; k < m.n; ++k)
                acc = std::fma(A[row * m.n + k], B[k * m.n + col], acc);
            C[row * m.n + col] = acc;
        }
}

void matmulTiled(GoldContext& context)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != kTile || launch.block.y != kTile || launch.block.z != 1)
        support::unsupported("matmul_tiled", "the kernel is written for 16 x 16 blocks");
    const MatmulSetup m = setup(context, "matmul_tiled");
    const auto A = context.input<float>("A");
    const auto B = context.input<float>("B");
    auto C = context.expected<float>("C");
    // k runs over whole tiles; past the end of the matrix both operands are loaded as zero and the
    // fma still happens (it can only turn an accumulated -0 into +0).
    const std::int64_t paddedK = (m.n + kTile - 1) / kTile * kTile;
    for (std::int64_t row = 0; row < m.rows; ++row)
        for (std::int64_t col = 0; col < m.columns; ++col) {
            float acc = 0.0f;
            for (std::int64_t k = 0; k < paddedK; ++k) {
                const float a = k < m.n ? A[row * m.n + k] : 0.0f;
                const float b = k < m.n ? B[k * m.n + col] : 0.0f;
                acc = std::fma(a, b, acc);
            }
            C[row * m.n + col] = acc;
        }
}

namespace {

// The register-blocked rungs: a block of `threads` computes a tileRows x tileColumns tile of C,
// stepping along k `kStep` at a time with operands outside the matrix loaded as zero, so every
// element is the fma chain over k < n rounded up to kStep, from 0.0f, ascending (the extra fmas
// add 0 * 0: they can only turn an accumulated -0 into +0). The vectorised rungs read float4s of
// rows, which needs n % 4 == 0.
struct BlocktileShape {
    std::string_view kernel;
    GoldDims block;
    std::int64_t tileRows, tileColumns, kStep;
    bool vectorised;
};

void matmulBlocktile(GoldContext& context, const BlocktileShape& shape)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != shape.block.x || launch.block.y != shape.block.y || launch.block.z != shape.block.z)
        support::unsupported(shape.kernel, "the kernel is written for blocks of " + std::to_string(shape.block.x) +
                                               (shape.block.y > 1 ? " x " + std::to_string(shape.block.y) : "") + " threads");
    const std::int64_t n = std::max<std::int64_t>(0, context.integer("n"));
    if (shape.vectorised && n % 4 != 0)
        support::unsupported(shape.kernel, "n must be a multiple of 4 (rows are read as float4s), not " + std::to_string(n));
    const std::int64_t elements = n * n;
    const auto A = context.input<float>("A");
    const auto B = context.input<float>("B");
    auto C = context.expected<float>("C");
    support::requireElements(A, elements, shape.kernel, "A");
    support::requireElements(B, elements, shape.kernel, "B");
    support::requireElements(C, elements, shape.kernel, "C");
    const std::int64_t rows = std::min<std::int64_t>(n, launch.grid.y * shape.tileRows);
    const std::int64_t columns = std::min<std::int64_t>(n, launch.grid.x * shape.tileColumns);
    const std::int64_t paddedK = (n + shape.kStep - 1) / shape.kStep * shape.kStep;
    // A row of C at a time, k outside and columns inside: each element still sees its fmas in
    // ascending k, and B is read along its rows (the GPU sizes make the gold reference O(n^3)).
    std::vector<float> acc(static_cast<std::size_t>(columns));
    for (std::int64_t row = 0; row < rows; ++row) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::int64_t k = 0; k < n; ++k) {
            const float a = A[row * n + k];
            for (std::int64_t col = 0; col < columns; ++col)
                acc[col] = std::fma(a, B[k * n + col], acc[col]);
        }
        for (std::int64_t k = n; k < paddedK; ++k)
            for (float& value : acc)
                value = std::fma(0.0f, 0.0f, value);
        std::copy(acc.begin(), acc.end(), C.begin() + row * n);
    }
}

} // namespace

void matmul1dBlocktile(GoldContext& context)
{
    matmulBlocktile(context, {"matmul_1d_blocktile", {64, 8, 1}, 64, 64, 8, false});
}

void matmul2dBlocktile(GoldContext& context)
{
    matmulBlocktile(context, {"matmul_2d_blocktile", {16, 16, 1}, 128, 128, 8, false});
}

void matmulVectorized(GoldContext& context)
{
    matmulBlocktile(context, {"matmul_vectorized", {16, 16, 1}, 128, 128, 8, true});
}

void matmulWarptile(GoldContext& context)
{
    matmulBlocktile(context, {"matmul_warptile", {256, 1, 1}, 128, 128, 8, true});
}

void matmulPrefetch(GoldContext& context)
{
    matmulBlocktile(context, {"matmul_prefetch", {256, 1, 1}, 128, 128, 8, true});
}

// matmul_wmma: blocks of 128 threads own a 32 x 32 tile of C, each warp a 16 x 16 quarter, and
// every step along k rounds a 16-wide slice of A and B to FP16 (cvt.rn.f16.f32) and issues one
// wmma.mma m16n16k16 with an FP32 accumulator. The simulator forms each step's 16 exact products of
// halves in double, adds them to the accumulator in k order and rounds once to FP32 (core/sim/README.md,
// "Tensor Cores"); so does this reference, bit for bit. A GPU adds in an order and width NVIDIA does
// not document (measurements on V100, T4 and A100 found truncation inside a step: Fasi, Higham,
// Mikaitis and Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ Comput. Sci. 7:e330,
// 2021; Khattak and Mikaitis, arXiv:2512.07004, model H100's), so the manifest's
// gpu_tolerance allows 2 FP32 ulps per step at the partial sums' size: at n = 4096, 256 steps x 2 x
// 2^-17 (FP32's ulp from 64 to 128: partial sums of up to 4,096 products of values in [-1, 1) have
// a standard deviation of at most 21 and stay below 128) = 3.9e-3, taken as 4e-3. A wrong fragment layout or conversion misses by whole units.
void matmulWmma(GoldContext& context)
{
    constexpr std::int64_t kBlockTile = 32, kStep = 16;
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != 128 || launch.block.y != 1 || launch.block.z != 1)
        support::unsupported("matmul_wmma", "the reference models blocks of 128 threads (4 warps of 16 x 16 tiles)");
    const MatmulSetup m = setup(context, "matmul_wmma");
    if (m.n % kBlockTile != 0)
        support::unsupported("matmul_wmma", "n must be a multiple of 32: the kernel stores whole 16 x 16 tiles and has no edge case (n = " +
                                                std::to_string(m.n) + ")");
    const std::int64_t rows = std::min<std::int64_t>(m.n, std::int64_t{launch.grid.y} * kBlockTile);
    const std::int64_t columns = std::min<std::int64_t>(m.n, std::int64_t{launch.grid.x} * kBlockTile);
    const auto A = context.input<float>("A");
    const auto B = context.input<float>("B");
    auto C = context.expected<float>("C");
    std::vector<float> halfA(A.size()), halfB(B.size());
    std::transform(A.begin(), A.end(), halfA.begin(), numerics::roundToFp16Fast);
    std::transform(B.begin(), B.end(), halfB.begin(), numerics::roundToFp16Fast);
    for (std::int64_t row = 0; row < rows; ++row)
        for (std::int64_t col = 0; col < columns; ++col) {
            float acc = 0.0f;
            for (std::int64_t k0 = 0; k0 < m.n; k0 += kStep) {
                double sum = acc;
                for (std::int64_t k = k0; k < k0 + kStep; ++k)
                    sum += static_cast<double>(halfA[static_cast<std::size_t>(row * m.n + k)]) *
                           halfB[static_cast<std::size_t>(k * m.n + col)];
                acc = static_cast<float>(sum);
            }
            C[static_cast<std::size_t>(row * m.n + col)] = acc;
        }
}

} // namespace warpscope::kernels::gold
