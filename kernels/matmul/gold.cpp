// Gold references for matmul.cu. nvcc contracts `acc += a * b` into fma.rn.f32 (one rounding per
// step), so the references accumulate with std::fma, k ascending from acc = 0: bit for bit.
#include "gold_functions.h"
#include "gold_support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

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

} // namespace warpscope::kernels::gold
