// Device functions that are not inlined (issue 15): calls with parameters and return values,
// recursion, calls from divergent code, pointers into the caller's frame, printf through vprintf
// and assert through __assertfail, each compiled by NVRTC and checked against a CPU reference.
#include "sim_test_support.h"

#include "ptx/call_linking.h"
#include "sim/device_printf.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

sim::ResolvedArg intArg(const std::string& name, int value)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = sim::ElementType::I32;
    arg.scalarBits = static_cast<std::uint32_t>(value);
    arg.integerValue = value;
    return arg;
}

std::uint64_t fibonacci(int n) { return n < 2 ? static_cast<std::uint64_t>(n) : fibonacci(n - 1) + fibonacci(n - 2); }

} // namespace

// A __noinline__ function with parameters and a return value, called from both sides of a
// divergent branch, and one that takes a pointer to the caller's local array.
TEST(DeviceCalls, NoinlineFunctionsWithParametersAndReturnValues)
{
    const CompiledKernel kernel = compileKernel(R"(
__device__ __noinline__ float mix(float a, float b, int k) { return a * k + b; }
__device__ __noinline__ int sum(const int* values, int count)
{
    int total = 0;
    for (int i = 0; i < count; ++i) total += values[i];
    return total;
}
extern "C" __global__ void calls(const float* x, float* y, int* z)
{
    int i = threadIdx.x;
    float v = x[i];
    if (i % 3 == 0) v = mix(v, 1.0f, 2);
    else v = mix(v, -1.0f, i);
    y[i] = v;
    int local[8];
    for (int k = 0; k < 8; ++k) local[k] = i * k;
    z[i] = sum(local, (i % 8) + 1);
}
)", "calls");
    // The kernel carries a copy of each function (not inlined): three regions.
    ASSERT_EQ(kernel.function->regions.size(), 3u);
    EXPECT_FALSE(kernel.function->recursive);
    std::vector<float> x(48);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5f * static_cast<float>(i) - 3.0f;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {48, 1, 1},
                                                   {bufferArg("x", sim::ElementType::F32, x),
                                                    bufferArg("y", sim::ElementType::F32, std::vector<float>(48, 0)),
                                                    bufferArg("z", sim::ElementType::I32, std::vector<std::int32_t>(48, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<float> y = bufferValues<float>(result, "y");
    const std::vector<std::int32_t> z = bufferValues<std::int32_t>(result, "z");
    for (int i = 0; i < 48; ++i) {
        const float v = x[static_cast<std::size_t>(i)];
        const float expected = i % 3 == 0 ? v * 2 + 1.0f : v * static_cast<float>(i) - 1.0f;
        EXPECT_EQ(y[static_cast<std::size_t>(i)], expected) << i;
        int total = 0;
        for (int k = 0; k <= i % 8; ++k) total += i * k;
        EXPECT_EQ(z[static_cast<std::size_t>(i)], total) << i;
    }
}

// Recursion: each activation has its own frame and registers; lanes recurse to different depths.
TEST(DeviceCalls, RecursionToDifferentDepthsPerLane)
{
    const CompiledKernel kernel = compileKernel(R"(
__device__ unsigned long long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int depth(int n, int* trail) { trail[n] = n; return n == 0 ? 0 : 1 + depth(n - 1, trail); }
extern "C" __global__ void recurse(unsigned long long* out, int* depths)
{
    int i = threadIdx.x;
    out[i] = fib(i % 16);
    int trail[16];
    depths[i] = depth(i % 12, trail) * 100 + trail[0] + trail[i % 12];
}
)", "recurse");
    EXPECT_TRUE(kernel.function->recursive);
    EXPECT_GE(kernel.function->localBytes, ptx::kDeviceStackBytes);
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {40, 1, 1},
                                                   {bufferArg("out", sim::ElementType::U64, std::vector<std::uint64_t>(40, 0)),
                                                    bufferArg("depths", sim::ElementType::I32, std::vector<std::int32_t>(40, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty()) << result.hazards.front().message;
    const std::vector<std::uint64_t> out = bufferValues<std::uint64_t>(result, "out");
    const std::vector<std::int32_t> depths = bufferValues<std::int32_t>(result, "depths");
    for (int i = 0; i < 40; ++i) {
        EXPECT_EQ(out[static_cast<std::size_t>(i)], fibonacci(i % 16)) << i;
        EXPECT_EQ(depths[static_cast<std::size_t>(i)], (i % 12) * 100 + (i % 12)) << i;
    }
}

// Unbounded recursion runs out of stack: a hazard naming the call, and the threads stop.
TEST(DeviceCalls, StackOverflowIsAHazard)
{
    const CompiledKernel kernel = compileKernel(R"(
__device__ int forever(int n, volatile int* sink) { sink[0] = n; return forever(n + 1, sink) + forever(n + 2, sink); }
extern "C" __global__ void overflow(int* out) { out[threadIdx.x] = forever(0, out); }
)", "overflow");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(32, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    bool overflow = false;
    for (const sim::Hazard& hazard : result.hazards)
        overflow = overflow || hazard.message.find("stack overflow") != std::string::npos;
    EXPECT_TRUE(overflow);
}

// printf through vprintf: each thread's line, formatted as the CUDA runtime formats it.
TEST(DeviceCalls, PrintfPrintsEachThreadsLine)
{
    const CompiledKernel kernel = compileKernel(R"(
__device__ __noinline__ void report(int i, float v) { printf("[%d] %5.2f %s %c %x %lld%%\n", i, v, i % 2 ? "odd" : "even", 'A' + i, 255 + i, -1ll * i); }
extern "C" __global__ void hello(int n)
{
    if (threadIdx.x < n) report(threadIdx.x, threadIdx.x * 1.5f);
    if (threadIdx.x == 0) printf("block %d of %d, warpSize %d\n", blockIdx.x, gridDim.x, warpSize);
}
)", "hello");
    const sim::SimResult result = simulateWithArgs(kernel, {2, 1, 1}, {4, 1, 1}, {intArg("n", 3)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    std::vector<std::string> expected;
    for (int b = 0; b < 2; ++b) {
        for (int i = 0; i < 3; ++i) {
            char line[128];
            std::snprintf(line, sizeof line, "[%d] %5.2f %s %c %x %lld%%\n", i, i * 1.5f, i % 2 ? "odd" : "even", 'A' + i,
                          255 + i, -1ll * i);
            expected.push_back(line);
        }
        expected.push_back("block " + std::to_string(b) + " of 2, warpSize 32\n");
    }
    ASSERT_EQ(result.printfLines.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k)
        EXPECT_EQ(result.printfLines[k].text, expected[k]) << k;
    EXPECT_EQ(result.printfLines[1].thread.x, 1);
    EXPECT_EQ(result.printfLines[4].block.x, 1);
    EXPECT_EQ(result.printfDropped, 0u);
}

// assert: the failing threads print the GPU's message and stop; the others go on.
TEST(DeviceCalls, AssertStopsTheFailingThreads)
{
    const CompiledKernel kernel = compileKernel(R"(
// NVRTC defines assert() itself (a call of __assertfail).
extern "C" __global__ void checked(int* out)
{
    int i = threadIdx.x;
    assert(i != 5);
    out[i] = i + 1;
}
)", "checked");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {8, 1, 1},
                                                   {bufferArg("out", sim::ElementType::I32, std::vector<std::int32_t>(8, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(result.assertFailures, 1u);
    ASSERT_EQ(result.printfLines.size(), 1u);
    EXPECT_NE(result.printfLines[0].text.find("thread: [5,0,0] Assertion `i != 5` failed."), std::string::npos)
        << result.printfLines[0].text;
    const std::vector<std::int32_t> out = bufferValues<std::int32_t>(result, "out");
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(out[static_cast<std::size_t>(i)], i == 5 ? 0 : i + 1) << i;
}

// The formatter alone: alignment of packed arguments, widths from *, %%, %p, a null %s, a missing
// argument and a conversion printf does not know.
TEST(DeviceCalls, PrintfFormatterFollowsCudasArgumentLayout)
{
    // int at 0, double at 8 (aligned), long long at 16, int (the * width) at 24, int at 28, pointer at 32.
    std::vector<std::uint64_t> slots(6, 0);
    auto put = [&](std::size_t offset, std::uint64_t value, std::size_t bytes) {
        std::memcpy(reinterpret_cast<char*>(slots.data()) + offset, &value, bytes);
    };
    put(0, static_cast<std::uint32_t>(-7), 4);
    put(8, std::bit_cast<std::uint64_t>(2.5), 8);
    put(16, static_cast<std::uint64_t>(-123456789012LL), 8);
    put(24, 6, 4);
    put(28, 42, 4);
    put(32, 0, 8);
    const auto read = [&](std::size_t offset, std::size_t bytes) -> std::optional<std::uint64_t> {
        if (offset + bytes > 40) // the buffer ends after the pointer
            return std::nullopt;
        std::uint64_t value = 0;
        std::memcpy(&value, reinterpret_cast<const char*>(slots.data()) + offset, bytes);
        return value;
    };
    const sim::DevicePrintfResult printed = sim::formatDevicePrintf(
        "%d|%.1f|%lld|%*d|%s|100%%|%y|%d", read, [](std::uint64_t) { return std::string("never"); });
    EXPECT_EQ(printed.text, "-7|2.5|-123456789012|    42|(null)|100%|%y|<missing>");
    EXPECT_EQ(printed.arguments, 7);
    EXPECT_EQ(sim::formatDevicePrintf("%p %s", [](std::size_t, std::size_t) -> std::optional<std::uint64_t> { return 0x1234; },
                                      [](std::uint64_t address) { return "at " + std::to_string(address); })
                  .text,
              "0x1234 at 4660");
}
