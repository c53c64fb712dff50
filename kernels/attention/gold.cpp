// Gold references for attention.cu. Each repeats the kernel's float operations in the PTX's order:
// nvcc turns `dot += a * b` and `acc += a * b` into fma.rn.f32 from 0, `dot * scale_log2` and the
// rescale (__fmul_rn) into single-rounded multiplies, and `/` into div.rn.f32.
//
// exp2f compiles to ex2.approx.f32. The simulator gives it as 2^x computed in double and rounded once
// to float (core/sim/float_math.h), and so does ex2() here, so the comparison is bit for bit. A GPU's
// ex2 may differ by up to 2 ulp (PTX ISA), within the probe's float tolerance for these outputs.
#include "gold_functions.h"
#include "gold_support.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>

namespace warpscope::kernels::gold {

namespace {

constexpr std::int64_t kHeadDim = 16;
constexpr std::int64_t kTileKeys = 32;
constexpr int kWarp = 32;

float ex2(float x) { return static_cast<float>(std::exp2(static_cast<double>(x))); }

struct AttentionSetup {
    std::int64_t n = 0;
    std::int64_t heads = 0; // heads the launch covers: min(heads, the grid's head dimension)
};

AttentionSetup setup(const GoldContext& context, std::uint32_t gridHeads)
{
    AttentionSetup result;
    result.n = std::max<std::int64_t>(0, context.integer("n"));
    result.heads = std::min<std::int64_t>(std::max<std::int64_t>(0, context.integer("heads")), gridHeads);
    return result;
}

// The butterfly of __shfl_xor_sync over a warp: every lane ends with op over all 32 values, combined
// in the same pairs on every lane (op is commutative), so lane 0's value is the warp's.
template <class Op> float warpButterfly(std::array<float, kWarp> lanes, Op op)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        std::array<float, kWarp> next{};
        for (int lane = 0; lane < kWarp; ++lane)
            next[lane] = op(lanes[lane], lanes[lane ^ offset]);
        lanes = next;
    }
    return lanes[0];
}

// fmaxf as max.f32: the larger, and the other operand when one is NaN.
float maxF32(float a, float b) { return std::fmax(a, b); }

} // namespace

void attentionScores(GoldContext& context)
{
    const GoldLaunch& launch = context.launch();
    const AttentionSetup a = setup(context, launch.grid.z);
    const float scale = static_cast<float>(context.real("scale_log2"));
    const std::int64_t queries = std::min<std::int64_t>(a.n, std::int64_t{launch.grid.y} * launch.block.y);
    const std::int64_t keys = std::min<std::int64_t>(a.n, std::int64_t{launch.grid.x} * launch.block.x);
    const auto Q = context.input<float>("Q");
    const auto K = context.input<float>("K");
    auto S = context.expected<float>("S");
    support::requireElements(Q, a.heads * a.n * kHeadDim, "attention_scores", "Q");
    support::requireElements(K, a.heads * a.n * kHeadDim, "attention_scores", "K");
    support::requireElements(S, a.heads * a.n * a.n, "attention_scores", "S");
    for (std::int64_t h = 0; h < a.heads; ++h)
        for (std::int64_t i = 0; i < queries; ++i)
            for (std::int64_t j = 0; j < keys; ++j) {
                float dot = 0.0f;
                for (std::int64_t c = 0; c < kHeadDim; ++c)
                    dot = std::fma(Q[(h * a.n + i) * kHeadDim + c], K[(h * a.n + j) * kHeadDim + c], dot);
                S[(h * a.n + i) * a.n + j] = dot * scale;
            }
}

void attentionSoftmax(GoldContext& context)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != kWarp)
        support::unsupported("attention_softmax", "blockDim.x must be 32, one warp per row");
    const AttentionSetup a = setup(context, launch.grid.y);
    const std::int64_t rows = std::min<std::int64_t>(a.n, std::int64_t{launch.grid.x} * launch.block.y);
    const auto S = context.input<float>("S");
    auto P = context.expected<float>("P");
    support::requireElements(S, a.heads * a.n * a.n, "attention_softmax", "S");
    support::requireElements(P, a.heads * a.n * a.n, "attention_softmax", "P");
    for (std::int64_t h = 0; h < a.heads; ++h)
        for (std::int64_t i = 0; i < rows; ++i) {
            const std::int64_t row = (h * a.n + i) * a.n;
            std::array<float, kWarp> lanes{};
            for (int lane = 0; lane < kWarp; ++lane) {
                float m = -std::numeric_limits<float>::infinity();
                for (std::int64_t j = lane; j < a.n; j += kWarp)
                    m = maxF32(m, S[row + j]);
                lanes[lane] = m;
            }
            const float rowMax = warpButterfly(lanes, maxF32);
            for (int lane = 0; lane < kWarp; ++lane) {
                float sum = 0.0f;
                for (std::int64_t j = lane; j < a.n; j += kWarp)
                    sum += ex2(S[row + j] - rowMax);
                lanes[lane] = sum;
            }
            const float rowSum = warpButterfly(lanes, [](float x, float y) { return x + y; });
            for (std::int64_t j = 0; j < a.n; ++j)
                P[row + j] = ex2(S[row + j] - rowMax) / rowSum;
        }
}

void attentionPv(GoldContext& context)
{
    const GoldLaunch& launch = context.launch();
    const AttentionSetup a = setup(context, launch.grid.y);
    const std::int64_t rows = std::min<std::int64_t>(a.n, std::int64_t{launch.grid.x} * launch.block.y);
    const std::int64_t columns = std::min<std::int64_t>(kHeadDim, launch.block.x);
    const auto P = context.input<float>("P");
    const auto V = context.input<float>("V");
    auto O = context.expected<float>("O");
    support::requireElements(P, a.heads * a.n * a.n, "attention_pv", "P");
    support::requireElements(V, a.heads * a.n * kHeadDim, "attention_pv", "V");
    support::requireElements(O, a.heads * a.n * kHeadDim, "attention_pv", "O");
    for (std::int64_t h = 0; h < a.heads; ++h)
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t c = 0; c < columns; ++c) {
                float acc = 0.0f;
                for (std::int64_t j = 0; j < a.n; ++j)
                    acc = std::fma(P[(h * a.n + i) * a.n + j], V[(h * a.n + j) * kHeadDim + c], acc);
                O[(h * a.n + i) * kHeadDim + c] = acc;
            }
}

void attentionFused(GoldContext& context)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.x != kTileKeys || launch.block.y != 1 || launch.block.z != 1)
        support::unsupported("attention_fused", "the block must be 32 threads, one per query row of a tile");
    const AttentionSetup a = setup(context, launch.grid.y);
    if (a.n % kTileKeys != 0)
        support::unsupported("attention_fused", "n must be a multiple of 32 (the kernel reads whole tiles)");
    const std::int64_t rows = std::min<std::int64_t>(a.n, std::int64_t{launch.grid.x} * kTileKeys);
    const float scale = static_cast<float>(context.real("scale_log2"));
    const auto Q = context.input<float>("Q");
    const auto K = context.input<float>("K");
    const auto V = context.input<float>("V");
    auto O = context.expected<float>("O");
    for (const auto& [buffer, name] : {std::pair{Q, "Q"}, std::pair{K, "K"}, std::pair{V, "V"}})
        support::requireElements(buffer, a.heads * a.n * kHeadDim, "attention_fused", name);
    support::requireElements(O, a.heads * a.n * kHeadDim, "attention_fused", "O");
    const float infinity = std::numeric_limits<float>::infinity();
    for (std::int64_t h = 0; h < a.heads; ++h)
        for (std::int64_t i = 0; i < rows; ++i) {
            const float* q = &Q[(h * a.n + i) * kHeadDim];
            std::array<float, kHeadDim> o{};
            float m = -infinity, l = 0.0f;
            for (std::int64_t tile = 0; tile < a.n; tile += kTileKeys) {
                std::array<float, kTileKeys> s{};
                float tileMax = -infinity;
                for (std::int64_t j = 0; j < kTileKeys; ++j) {
                    const float* k = &K[(h * a.n + tile + j) * kHeadDim];
                    float dot = 0.0f;
                    for (std::int64_t c = 0; c < kHeadDim; ++c)
                        dot = std::fma(q[c], k[c], dot);
                    s[j] = dot * scale;
                    tileMax = maxF32(tileMax, s[j]);
                }
                const float mNew = maxF32(m, tileMax);
                const float rescale = ex2(m - mNew);
                l = l * rescale;
                for (float& value : o)
                    value = value * rescale;
                for (std::int64_t j = 0; j < kTileKeys; ++j) {
                    const float p = ex2(s[j] - mNew);
                    l = l + p;
                    const float* v = &V[(h * a.n + tile + j) * kHeadDim];
                    for (std::int64_t c = 0; c < kHeadDim; ++c)
                        o[c] = std::fma(p, v[c], o[c]);
                }
                m = mNew;
            }
            for (std::int64_t c = 0; c < kHeadDim; ++c)
                O[(h * a.n + i) * kHeadDim + c] = o[c] / l;
        }
}

} // namespace warpscope::kernels::gold
