// Gold references for reduction.cu. Each block's partial sum is a fixed tree of float additions, so
// the references rebuild the block's shared-memory array (or the warp's registers) and apply the
// additions in exactly the kernel's order: the results match bit for bit.
#include "gold_functions.h"
#include "gold_support.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace warpscope::kernels::gold {

namespace {

constexpr std::uint32_t kWarpSize = 32;

// One element per thread: sdata[tid] = in[i] (or 0 past the end), i = block * B + tid.
// Index arithmetic is 32-bit unsigned, as in the kernels.
std::vector<float> loadOnePerThread(std::span<const float> in, std::uint32_t n, std::uint32_t block,
                                    std::uint32_t threads)
{
    std::vector<float> values(threads);
    for (std::uint32_t tid = 0; tid < threads; ++tid) {
        const std::uint32_t i = block * threads + tid;
        values[tid] = (i < n) ? in[i] : 0.0f;
    }
    return values;
}

// Two elements per thread, added while loading: in[i] + in[i + B], i = block * 2B + tid.
std::vector<float> loadTwoPerThread(std::span<const float> in, std::uint32_t n, std::uint32_t block,
                                    std::uint32_t threads)
{
    std::vector<float> values(threads);
    for (std::uint32_t tid = 0; tid < threads; ++tid) {
        const std::uint32_t i = block * (threads * 2) + tid;
        float sum = (i < n) ? in[i] : 0.0f;
        if (i + threads < n)
            sum += in[i + threads];
        values[tid] = sum;
    }
    return values;
}

// Interleaved addressing (rungs 1 and 2 pair the same elements): in step s, every element whose
// index is a multiple of 2s adds the element s places above it.
void interleavedTree(std::vector<float>& sdata)
{
    const std::size_t threads = sdata.size();
    for (std::size_t s = 1; s < threads; s *= 2)
        for (std::size_t tid = 0; tid + s < threads; tid += 2 * s)
            sdata[tid] += sdata[tid + s];
}

// Sequential addressing: s from B/2 down while s > stopAfter, element tid < s adds element tid + s.
void sequentialTree(std::vector<float>& sdata, std::size_t stopAfter)
{
    for (std::size_t s = sdata.size() / 2; s > stopAfter; s >>= 1)
        for (std::size_t tid = 0; tid < s; ++tid)
            sdata[tid] += sdata[tid + s];
}

// The unrolled last warp of reduce_unroll_last_warp: each of the 32 lanes keeps a running value x,
// adds sdata[lane + s] (read before any lane writes, thanks to __syncwarp), then stores x.
float unrolledLastWarp(std::vector<float>& sdata)
{
    std::array<float, kWarpSize> x{};
    for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
        x[lane] = sdata[lane];
    for (std::uint32_t s : {32u, 16u, 8u, 4u, 2u}) {
        for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
            x[lane] += sdata[lane + s];
        for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
            sdata[lane] = x[lane];
    }
    return x[0] + sdata[1];
}

// sum += __shfl_down_sync(~0u, sum, offset) for offset 16, 8, 4, 2, 1. A lane whose source lane
// (lane + offset) is past the warp receives its own value, as shfl.down does.
float warpShuffleDown(std::array<float, kWarpSize> lanes)
{
    for (std::uint32_t offset = 16; offset > 0; offset /= 2) {
        std::array<float, kWarpSize> next{};
        for (std::uint32_t lane = 0; lane < kWarpSize; ++lane) {
            const std::uint32_t source = lane + offset < kWarpSize ? lane + offset : lane;
            next[lane] = lanes[lane] + lanes[source];
        }
        lanes = next;
    }
    return lanes[0];
}

// The block reduction of rungs 6 and 7: each warp sums its threads' values with shuffles, lane 0
// of each warp stores the warp's sum, and warp 0 reduces those the same way (lanes without a warp
// contribute 0).
float blockShuffleSum(const std::vector<float>& values)
{
    const std::size_t warps = values.size() / kWarpSize;
    std::array<float, kWarpSize> warpSums{};
    for (std::size_t warp = 0; warp < warps; ++warp) {
        std::array<float, kWarpSize> lanes{};
        for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
            lanes[lane] = values[warp * kWarpSize + lane];
        warpSums[warp] = warpShuffleDown(lanes);
    }
    std::array<float, kWarpSize> lanes{};
    for (std::uint32_t lane = 0; lane < kWarpSize; ++lane)
        lanes[lane] = lane < warps ? warpSums[lane] : 0.0f;
    return warpShuffleDown(lanes);
}

// Runs `partialSum(block)` for every block of the grid and stores it in out[block].
template <class PartialSum>
void reduceBlocks(GoldContext& context, std::string_view kernel, PartialSum partialSum)
{
    const std::uint32_t blocks = context.launch().grid.x;
    auto out = context.expected<float>("out");
    support::requireElements(out, blocks, kernel, "out");
    for (std::uint32_t block = 0; block < blocks; ++block)
        out[block] = partialSum(block);
}

struct ReductionSetup {
    std::span<const float> in;
    std::uint32_t n = 0;
    std::uint32_t threads = 0;
};

// Reads the input and block size and checks what every reduction kernel assumes: a 1-D block,
// and an input buffer that holds n elements.
ReductionSetup setup(GoldContext& context, std::string_view kernel)
{
    const GoldLaunch& launch = context.launch();
    if (launch.block.y != 1 || launch.block.z != 1)
        support::unsupported(kernel, "the block must be one-dimensional");
    ReductionSetup result;
    result.in = context.input<float>("in");
    result.n = static_cast<std::uint32_t>(context.integer("n"));
    result.threads = launch.block.x;
    support::requireElements(result.in, result.n, kernel, "in");
    return result;
}

// The shuffle rungs reduce whole warps and keep at most 32 warp sums.
void requireWholeWarps(const ReductionSetup& r, std::string_view kernel)
{
    if (r.threads == 0 || r.threads % kWarpSize != 0 || r.threads > kWarpSize * kWarpSize)
        support::unsupported(kernel, "blockDim.x must be a multiple of 32, at most 1024");
}

} // namespace

void reduceInterleavedDivergent(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_interleaved_divergent");
    if (!support::isPowerOfTwo(r.threads))
        support::unsupported("reduce_interleaved_divergent", "blockDim.x must be a power of two");
    reduceBlocks(context, "reduce_interleaved_divergent", [&](std::uint32_t block) {
        std::vector<float> sdata = loadOnePerThread(r.in, r.n, block, r.threads);
        interleavedTree(sdata);
        return sdata[0];
    });
}

void reduceInterleavedBankConflicts(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_interleaved_bank_conflicts");
    if (!support::isPowerOfTwo(r.threads))
        support::unsupported("reduce_interleaved_bank_conflicts", "blockDim.x must be a power of two");
    reduceBlocks(context, "reduce_interleaved_bank_conflicts", [&](std::uint32_t block) {
        std::vector<float> sdata = loadOnePerThread(r.in, r.n, block, r.threads);
        interleavedTree(sdata);
        return sdata[0];
    });
}

void reduceSequential(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_sequential");
    reduceBlocks(context, "reduce_sequential", [&](std::uint32_t block) {
        std::vector<float> sdata = loadOnePerThread(r.in, r.n, block, r.threads);
        sequentialTree(sdata, 0);
        return sdata[0];
    });
}

void reduceFirstAddDuringLoad(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_first_add_during_load");
    reduceBlocks(context, "reduce_first_add_during_load", [&](std::uint32_t block) {
        std::vector<float> sdata = loadTwoPerThread(r.in, r.n, block, r.threads);
        sequentialTree(sdata, 0);
        return sdata[0];
    });
}

void reduceUnrollLastWarp(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_unroll_last_warp");
    if (r.threads < 2 * kWarpSize)
        support::unsupported("reduce_unroll_last_warp", "blockDim.x must be at least 64");
    reduceBlocks(context, "reduce_unroll_last_warp", [&](std::uint32_t block) {
        std::vector<float> sdata = loadTwoPerThread(r.in, r.n, block, r.threads);
        sequentialTree(sdata, kWarpSize);
        return unrolledLastWarp(sdata);
    });
}

void reduceWarpShuffle(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_warp_shuffle");
    requireWholeWarps(r, "reduce_warp_shuffle");
    reduceBlocks(context, "reduce_warp_shuffle", [&](std::uint32_t block) {
        return blockShuffleSum(loadTwoPerThread(r.in, r.n, block, r.threads));
    });
}

void reduceVec4GridStride(GoldContext& context)
{
    const ReductionSetup r = setup(context, "reduce_vec4_grid_stride");
    requireWholeWarps(r, "reduce_vec4_grid_stride");
    reduceBlocks(context, "reduce_vec4_grid_stride", [&](std::uint32_t block) {
        // Thread tid starts at float4 number block * B + tid and strides by the grid's thread count,
        // adding (x + y) + (z + w) of each float4 to a sum that starts at 0; then, if that index
        // still falls among the last n % 4 floats, the float there.
        const std::uint64_t vectors = r.n / 4;
        const std::uint64_t stride = std::uint64_t{context.launch().grid.x} * r.threads;
        std::vector<float> sums(r.threads);
        for (std::uint32_t tid = 0; tid < r.threads; ++tid) {
            const std::uint64_t first = std::uint64_t{block} * r.threads + tid;
            float sum = 0.0f;
            for (std::uint64_t i = first; i < vectors; i += stride)
                sum += (r.in[4 * i] + r.in[4 * i + 1]) + (r.in[4 * i + 2] + r.in[4 * i + 3]);
            if (vectors * 4 + first < r.n)
                sum += r.in[vectors * 4 + first];
            sums[tid] = sum;
        }
        return blockShuffleSum(sums);
    });
}

} // namespace warpscope::kernels::gold
