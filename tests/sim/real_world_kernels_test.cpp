// Kernels written the way people write them (issue 15): a layernorm and a softmax with expf and
// rsqrtf and warp shuffles over warpSize, __ffs, cooperative-groups partitions and __reduce_add_sync,
// each compiled by NVRTC and checked against a CPU reference; and grid.sync(), which without
// --cooperative the simulator refuses with one sentence. Tolerances follow from the bounds of the
// approximate instructions they compile to (core/sim/README.md).
#include "sim_test_support.h"

#include "ptx/ptx_error.h"
#include "util/input_error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

std::vector<float> randomFloats(std::size_t count, float low, float high, std::uint32_t seed)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> distribution(low, high);
    std::vector<float> values(count);
    for (float& value : values)
        value = distribution(random);
    return values;
}

// One warp per row, as LLM training code writes it: mean and variance by shuffles, rsqrtf.
const char* kLayerNorm = R"(
extern "C" __global__ void layernorm(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                                     const float* bias, int N, int C)
{
    int lane = threadIdx.x % warpSize;
    int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    if (row >= N) return;
    const float* x = inp + row * C;
    float sum = 0.0f;
    for (int i = lane; i < C; i += warpSize) sum += x[i];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffff, sum, offset);
    float m = sum / C;
    float var = 0.0f;
    for (int i = lane; i < C; i += warpSize) { float d = x[i] - m; var += d * d; }
    for (int offset = warpSize / 2; offset > 0; offset /= 2) var += __shfl_xor_sync(0xffffffff, var, offset);
    float s = rsqrtf(var / C + 1e-5f);
    for (int i = lane; i < C; i += warpSize) out[row * C + i] = s * (x[i] - m) * weight[i] + bias[i];
    if (lane == 0) { mean[row] = m; rstd[row] = s; }
}
)";

// A numerically safe softmax: the row's max, then expf of the differences, their sum, the quotient.
const char* kSoftmax = R"(
extern "C" __global__ void softmax(float* out, const float* inp, int N, int C)
{
    int lane = threadIdx.x % warpSize;
    int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    if (row >= N) return;
    const float* x = inp + row * C;
    float maxval = -__int_as_float(0x7f800000);
    for (int i = lane; i < C; i += warpSize) maxval = fmaxf(maxval, x[i]);
    for (int offset = warpSize / 2; offset > 0; offset /= 2) maxval = fmaxf(maxval, __shfl_xor_sync(0xffffffff, maxval, offset));
    float sum = 0.0f;
    for (int i = lane; i < C; i += warpSize) { float e = expf(x[i] - maxval); out[row * C + i] = e; sum += e; }
    for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffff, sum, offset);
    for (int i = lane; i < C; i += warpSize) out[row * C + i] = out[row * C + i] / sum;
}
)";

} // namespace

TEST(RealWorldKernels, LayerNormWithRsqrtfMatchesTheCpu)
{
    const int rows = 6, columns = 100;
    const CompiledKernel kernel = compileKernel(kLayerNorm, "layernorm");
    const std::vector<float> input = randomFloats(rows * columns, -3.0f, 5.0f, 11);
    const std::vector<float> weight = randomFloats(columns, 0.5f, 1.5f, 12);
    const std::vector<float> bias = randomFloats(columns, -0.5f, 0.5f, 13);
    auto i32 = [](const std::string& name, int value) {
        sim::ResolvedArg arg;
        arg.name = name;
        arg.type = sim::ElementType::I32;
        arg.scalarBits = static_cast<std::uint32_t>(value);
        arg.integerValue = value;
        return arg;
    };
    const sim::SimResult result = simulateWithArgs(
        kernel, {2, 1, 1}, {128, 1, 1},
        {bufferArg("out", sim::ElementType::F32, std::vector<float>(rows * columns, 0)),
         bufferArg("mean", sim::ElementType::F32, std::vector<float>(rows, 0)),
         bufferArg("rstd", sim::ElementType::F32, std::vector<float>(rows, 0)), bufferArg("inp", sim::ElementType::F32, input),
         bufferArg("weight", sim::ElementType::F32, weight), bufferArg("bias", sim::ElementType::F32, bias), i32("N", rows),
         i32("C", columns)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<float> out = bufferValues<float>(result, "out");
    const std::vector<float> rstd = bufferValues<float>(result, "rstd");
    for (int r = 0; r < rows; ++r) {
        double mean = 0, var = 0;
        for (int c = 0; c < columns; ++c) mean += input[static_cast<std::size_t>(r * columns + c)];
        mean /= columns;
        for (int c = 0; c < columns; ++c) {
            const double d = input[static_cast<std::size_t>(r * columns + c)] - mean;
            var += d * d;
        }
        const double s = 1 / std::sqrt(var / columns + 1e-5);
        // rsqrt.approx.f32 is within 2^-22.9 relative; float sums over 100 values add a few ulps.
        EXPECT_NEAR(rstd[static_cast<std::size_t>(r)], s, 2e-6 * s) << "row " << r;
        for (int c = 0; c < columns; ++c) {
            const std::size_t i = static_cast<std::size_t>(r * columns + c);
            const double expected = s * (input[i] - mean) * weight[static_cast<std::size_t>(c)] + bias[static_cast<std::size_t>(c)];
            EXPECT_NEAR(out[i], expected, 2e-5) << "row " << r << " column " << c;
        }
    }
}

TEST(RealWorldKernels, SoftmaxWithExpfMatchesTheCpu)
{
    const int rows = 5, columns = 77;
    const CompiledKernel kernel = compileKernel(kSoftmax, "softmax");
    const std::vector<float> input = randomFloats(rows * columns, -20.0f, 20.0f, 21);
    sim::ResolvedArg n, c;
    n.name = "N"; n.type = sim::ElementType::I32; n.scalarBits = rows; n.integerValue = rows;
    c.name = "C"; c.type = sim::ElementType::I32; c.scalarBits = columns; c.integerValue = columns;
    const sim::SimResult result =
        simulateWithArgs(kernel, {3, 1, 1}, {64, 1, 1},
                         {bufferArg("out", sim::ElementType::F32, std::vector<float>(rows * columns, 0)),
                          bufferArg("inp", sim::ElementType::F32, input), n, c});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    const std::vector<float> out = bufferValues<float>(result, "out");
    for (int r = 0; r < rows; ++r) {
        double maxval = -INFINITY, sum = 0, total = 0;
        for (int k = 0; k < columns; ++k) maxval = std::max<double>(maxval, input[static_cast<std::size_t>(r * columns + k)]);
        for (int k = 0; k < columns; ++k) sum += std::exp(input[static_cast<std::size_t>(r * columns + k)] - maxval);
        for (int k = 0; k < columns; ++k) {
            const std::size_t i = static_cast<std::size_t>(r * columns + k);
            const double expected = std::exp(input[i] - maxval) / sum;
            // expf is within 2 ulp; the float sum of 77 terms and the division add a few more.
            EXPECT_NEAR(out[i], expected, 1e-6 * expected + 1e-9) << "row " << r << " column " << k;
            total += out[i];
        }
        EXPECT_NEAR(total, 1.0, 1e-5);
    }
}

// Cooperative groups' coalesced_threads and labeled_partition compile to activemask, match.any.sync,
// brev + bfind.shiftamt (the leader) and popc: each thread's rank and group size, by hand.
TEST(RealWorldKernels, CooperativeGroupsPartitionsAndFfs)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void groups(const int* label, unsigned* rank, unsigned* size, unsigned* leader, unsigned* odd)
{
    int i = threadIdx.x;
    cg::coalesced_group all = cg::coalesced_threads();
    cg::coalesced_group same = cg::labeled_partition(all, label[i]);
    rank[i] = same.thread_rank();
    size[i] = same.size();
    leader[i] = __ffs(__match_any_sync(__activemask(), label[i])) - 1;
    if (i & 1) {
        cg::coalesced_group odds = cg::coalesced_threads();
        odd[i] = odds.thread_rank() * 100 + odds.size();
    }
}
)", "groups");
    std::vector<int> labels(32);
    for (int i = 0; i < 32; ++i)
        labels[static_cast<std::size_t>(i)] = (i * 7) % 5;
    const sim::SimResult result = simulateWithArgs(
        kernel, {1, 1, 1}, {32, 1, 1},
        {bufferArg("label", sim::ElementType::I32, labels), bufferArg("rank", sim::ElementType::U32, std::vector<std::uint32_t>(32, 0)),
         bufferArg("size", sim::ElementType::U32, std::vector<std::uint32_t>(32, 0)),
         bufferArg("leader", sim::ElementType::U32, std::vector<std::uint32_t>(32, 0)),
         bufferArg("odd", sim::ElementType::U32, std::vector<std::uint32_t>(32, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::uint32_t> rank = bufferValues<std::uint32_t>(result, "rank");
    const std::vector<std::uint32_t> size = bufferValues<std::uint32_t>(result, "size");
    const std::vector<std::uint32_t> leader = bufferValues<std::uint32_t>(result, "leader");
    const std::vector<std::uint32_t> odd = bufferValues<std::uint32_t>(result, "odd");
    for (int i = 0; i < 32; ++i) {
        std::uint32_t before = 0, count = 0, first = 99;
        for (int j = 0; j < 32; ++j)
            if (labels[static_cast<std::size_t>(j)] == labels[static_cast<std::size_t>(i)]) {
                before += j < i;
                ++count;
                first = std::min<std::uint32_t>(first, static_cast<std::uint32_t>(j));
            }
        EXPECT_EQ(rank[static_cast<std::size_t>(i)], before) << i;
        EXPECT_EQ(size[static_cast<std::size_t>(i)], count) << i;
        EXPECT_EQ(leader[static_cast<std::size_t>(i)], first) << i;
        EXPECT_EQ(odd[static_cast<std::size_t>(i)], (i & 1) ? static_cast<std::uint32_t>(i / 2) * 100 + 16 : 0u) << i;
    }
}

// At compute_80, __reduce_add_sync and __reduce_max_sync are redux.sync; a block sum built on them.
TEST(RealWorldKernels, WarpReduceIntrinsicsAtComputeEighty)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void block_sum(const unsigned* x, unsigned* sums, int* maxima)
{
    __shared__ unsigned partial[32];
    unsigned v = x[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned warpSum = __reduce_add_sync(0xffffffff, v);
    int warpMax = __reduce_max_sync(0xffffffff, (int)v - 1000);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = warpSum;
    __syncthreads();
    if (threadIdx.x < warpSize) {
        unsigned s = threadIdx.x < blockDim.x / warpSize ? partial[threadIdx.x] : 0;
        s = __reduce_add_sync(0xffffffff, s);
        if (threadIdx.x == 0) sums[blockIdx.x] = s;
    }
    if (threadIdx.x == 0) maxima[blockIdx.x] = warpMax;
}
)", "block_sum", "compute_80");
    std::vector<std::uint32_t> in(4 * 256);
    for (std::size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<std::uint32_t>((i * 2654435761u) % 1999);
    const sim::SimResult result = simulateWithArgs(kernel, {4, 1, 1}, {256, 1, 1},
                                                   {bufferArg("x", sim::ElementType::U32, in),
                                                    bufferArg("sums", sim::ElementType::U32, std::vector<std::uint32_t>(4, 0)),
                                                    bufferArg("maxima", sim::ElementType::I32, std::vector<std::int32_t>(4, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::uint32_t> sums = bufferValues<std::uint32_t>(result, "sums");
    const std::vector<std::int32_t> maxima = bufferValues<std::int32_t>(result, "maxima");
    for (int b = 0; b < 4; ++b) {
        std::uint32_t sum = 0;
        std::int32_t warpMax = INT32_MIN;
        for (int t = 0; t < 256; ++t)
            sum += in[static_cast<std::size_t>(b * 256 + t)];
        for (int t = 0; t < 32; ++t)
            warpMax = std::max(warpMax, static_cast<std::int32_t>(in[static_cast<std::size_t>(b * 256 + t)]) - 1000);
        EXPECT_EQ(sums[static_cast<std::size_t>(b)], sum) << b;
        EXPECT_EQ(maxima[static_cast<std::size_t>(b)], warpMax) << b;
    }
}

// grid.sync() reads the grid workspace of a cooperative launch: without one the kernel is refused
// with one sentence that says so and names --cooperative (an InputError: exit code 2, the launch
// lacks the flag; cooperative_launch_test.cpp runs it with one); a kernel in the same file that
// only asks for its grid rank runs.
TEST(RealWorldKernels, GridSyncNeedsACooperativeLaunch)
{
    const std::string source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gridSum(const float* in, float* partial, float* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) partial[blockIdx.x] = 0.0f;
    grid.sync();
    if (i < n) atomicAdd(&partial[blockIdx.x], in[i]);
    grid.sync();
    if (grid.thread_rank() == 0) { float s = 0; for (int b = 0; b < gridDim.x; ++b) s += partial[b]; *out = s; }
}
extern "C" __global__ void gridRank(unsigned long long* rank)
{
    rank[cg::this_grid().thread_rank()] = cg::this_grid().thread_rank();
}
)";
    const CompiledKernel sync = compileKernel(source, "gridSum");
    sim::ResolvedArg n;
    n.name = "n";
    n.type = sim::ElementType::I32;
    n.scalarBits = 64;
    n.integerValue = 64;
    try {
        simulateWithArgs(sync, {2, 1, 1}, {32, 1, 1},
                         {bufferArg("in", sim::ElementType::F32, std::vector<float>(64, 1.0f)),
                          bufferArg("partial", sim::ElementType::F32, std::vector<float>(2, 0)),
                          bufferArg("out", sim::ElementType::F32, std::vector<float>(1, 0)), n});
        FAIL() << "a kernel that calls grid.sync() ran without a cooperative launch";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_NE(message.find("(test.cu:"), std::string::npos) << message;
        EXPECT_NE(message.find("kernel gridSum synchronises the whole grid"), std::string::npos) << message;
        EXPECT_NE(message.find("simulate it as one with --cooperative"), std::string::npos) << message;
        EXPECT_NE(message.find("needs a cooperative launch (cudaLaunchCooperativeKernel)"), std::string::npos) << message;
        EXPECT_NE(message.find("every block of the grid must be resident on the GPU at once"), std::string::npos) << message;
        EXPECT_EQ(message.find("more:"), std::string::npos) << message; // the traps grid.sync() carries are not listed
    }
    const CompiledKernel rank = compileKernel(source, "gridRank");
    const sim::SimResult ranked = simulateWithArgs(
        rank, {2, 1, 1}, {32, 1, 1}, {bufferArg("rank", sim::ElementType::U64, std::vector<std::uint64_t>(64, 0))});
    ASSERT_EQ(ranked.status, sim::SimStatus::Completed) << ranked.statusMessage;
    const std::vector<std::uint64_t> ranks = bufferValues<std::uint64_t>(ranked, "rank");
    for (std::uint64_t i = 0; i < 64; ++i)
        EXPECT_EQ(ranks[i], i);
}

// The library includes an nvcc kernel starts with, which NVRTC alone cannot open: Warpscope's own
// <stdio.h>, <cstdio>, <math.h>, <cmath>, <stdint.h> and <cstdint> (core/ptx/nvrtc_std_headers.h).
// Each C header and its C++ form, in a kernel that uses what it is for; values worked by hand.
TEST(RealWorldKernels, PrintfAfterStdioHeaders)
{
    const char* const kernels[][2] = {
        {"#include <stdio.h>\n", "printf"},
        {"#include <cstdio>\n", "std::printf"},
    };
    for (const auto& [include, call] : kernels) {
        SCOPED_TRACE(include);
        const CompiledKernel kernel = compileKernel(std::string(include) + R"(
extern "C" __global__ void squares() { int i = threadIdx.x; )" + call + R"(("thread %d squared %d\n", i, i * i); }
)", "squares");
        const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {3, 1, 1}, {});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        ASSERT_EQ(result.printfLines.size(), 3u);
        EXPECT_EQ(result.printfLines[0].text, "thread 0 squared 0\n");
        EXPECT_EQ(result.printfLines[1].text, "thread 1 squared 1\n");
        EXPECT_EQ(result.printfLines[2].text, "thread 2 squared 4\n");
    }
}

TEST(RealWorldKernels, MathFunctionsAfterMathHeaders)
{
    // x = {2.25, 1, -3.5, -7}: sqrt(2.25) = 1.5 and |-3.5| = 3.5 exactly; e^1 within expf's 2 ulp of
    // 2.7182817 (e rounded to float); -7 < INFINITY; M_PI rounded to float is 3.14159274.
    const char* const kernels[][2] = {
        {"#include <math.h>\n", "sqrtf(x[0]), expf(x[1]), fabsf(x[2]), (float)abs((int)x[3])"},
        {"#include <cmath>\n", "std::sqrt(x[0]), std::exp(x[1]), std::fabs(x[2]), (float)std::abs((int)x[3])"},
    };
    for (const auto& [include, calls] : kernels) {
        SCOPED_TRACE(include);
        const std::string source = std::string(include) + R"(
extern "C" __global__ void maths(const float* x, float* out)
{
    const float values[] = {)" + calls + R"(};
    for (int i = 0; i < 4; ++i) out[i] = values[i];
    out[4] = x[3] < INFINITY ? 1.0f : 0.0f;
    out[5] = (float)M_PI;
}
)";
        const CompiledKernel kernel = compileKernel(source, "maths");
        const sim::SimResult result =
            simulateWithArgs(kernel, {1, 1, 1}, {1, 1, 1},
                             {bufferArg("x", sim::ElementType::F32, std::vector<float>{2.25f, 1.0f, -3.5f, -7.0f}),
                              bufferArg("out", sim::ElementType::F32, std::vector<float>(6, 0.0f))});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        const std::vector<float> out = bufferValues<float>(result, "out");
        EXPECT_EQ(out[0], 1.5f);
        EXPECT_NEAR(out[1], 2.7182817f, 2 * 2.4e-7f); // 2 ulp at e (one ulp in [2, 4) is 2^-22)
        EXPECT_EQ(out[2], 3.5f);
        EXPECT_EQ(out[3], 7.0f);
        EXPECT_EQ(out[4], 1.0f);
        EXPECT_EQ(out[5], 3.14159274f);
        // std::sqrt of a float is the float overload, as with nvcc: no double square root.
        ptx::CompileOptions options;
        const std::string ptx = ptx::compileCuda(source, "maths.cu", options).ptx;
        EXPECT_NE(ptx.find("sqrt.rn.f32"), std::string::npos);
        EXPECT_EQ(ptx.find(".f64"), std::string::npos);
    }
}

TEST(RealWorldKernels, FixedWidthIntegersAfterStdintHeaders)
{
    // a = 3, b = 5, c = -7: 3 * 2^32 + 5 = 12884901893 needs 64 bits; -7 / 2 truncates to -3.
    const char* const kernels[][2] = {
        {"#include <stdint.h>\n", ""},
        {"#include <cstdint>\n", "std::"},
    };
    for (const auto& [include, prefix] : kernels) {
        SCOPED_TRACE(include);
        const std::string p = prefix;
        const CompiledKernel kernel = compileKernel(std::string(include) + R"(
static_assert(sizeof()" + p + R"(int32_t) == 4 && sizeof()" + p + R"(uint64_t) == 8, "fixed widths");
extern "C" __global__ void widths(const )" + p + R"(int32_t* in, )" + p + R"(uint64_t* wide, )" + p + R"(int32_t* narrow)
{
    wide[0] = ()" + p + R"(uint64_t)in[0] * 4294967296ull + ()" + p + R"(uint64_t)in[1];
    wide[1] = UINT64_MAX;
    narrow[0] = in[2] / 2;
    narrow[1] = INT32_MAX;
    narrow[2] = INT32_MIN;
}
)", "widths");
        const sim::SimResult result = simulateWithArgs(
            kernel, {1, 1, 1}, {1, 1, 1},
            {bufferArg("in", sim::ElementType::I32, std::vector<std::int32_t>{3, 5, -7}),
             bufferArg("wide", sim::ElementType::U64, std::vector<std::uint64_t>(2, 0)),
             bufferArg("narrow", sim::ElementType::I32, std::vector<std::int32_t>(3, 0))});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        const std::vector<std::uint64_t> wide = bufferValues<std::uint64_t>(result, "wide");
        EXPECT_EQ(wide[0], 12884901893ull);
        EXPECT_EQ(wide[1], 18446744073709551615ull);
        const std::vector<std::int32_t> narrow = bufferValues<std::int32_t>(result, "narrow");
        EXPECT_EQ(narrow[0], -3);
        EXPECT_EQ(narrow[1], 2147483647);
        EXPECT_EQ(narrow[2], -2147483647 - 1);
    }
}
