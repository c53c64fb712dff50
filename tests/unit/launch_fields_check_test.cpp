// The stepper's launch fields checked as typed (core/sim/launch_fields_check.h), against hand-worked
// cases: what each field evaluates to, and the one line each mistake reads, in the wording every
// view uses (util/input_wording.h) and, for plain numbers, exactly the launch bar's.
#include "launch/launch_geometry.h"
#include "sim/kernel_args.h"
#include "sim/launch_fields_check.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {
namespace {

constexpr std::uint64_t kCap = 64ull << 20; // 64 MB per buffer, as the simulator allows

std::vector<ArgSpec> copyKernel() // a demo kernel's own arguments: out, in, n
{
    return {parseArgSpec("out=f32[n]"), parseArgSpec("in=f32[n]:iota"), parseArgSpec("n=i32:1024")};
}

LaunchFieldsCheck playground(const std::string& args, const std::string& grid, const std::string& block,
                             const std::string& index = "0")
{
    return checkLaunchFields({args, grid, block, index}, nullptr, "playground.cu", kCap);
}

LaunchFieldsCheck demo(const std::string& args, const std::string& grid, const std::string& block,
                       const std::string& index = "0")
{
    const std::vector<ArgSpec> own = copyKernel();
    return checkLaunchFields({args, grid, block, index}, &own, "copy", kCap);
}

std::string launchBarError(const std::string& text, bool block)
{
    try {
        block ? launch::parseBlockDim(text, "block") : launch::parseGridDim(text, "grid");
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

TEST(LaunchFieldsCheck, EvaluatesTheLaunchTheFieldsDescribe)
{
    // n = 256: cdiv(256, 128) = 2 blocks of 128; block index 1 of 2.
    const LaunchFieldsCheck check = playground("x=f32[n]:iota n=i32:256", "cdiv(n,128)", "128", "1");
    EXPECT_TRUE(check.ok()) << check.argsError << check.gridError << check.blockError << check.blockIndexError;
    EXPECT_EQ(check.grid, (launch::Dim3{2, 1, 1}));
    EXPECT_EQ(check.block, (launch::Dim3{128, 1, 1}));
    EXPECT_EQ(check.blockIndex, (launch::Dim3{1, 0, 0}));
    // Scalars may name each other in any order; 2-D shapes with calls that hold commas.
    const LaunchFieldsCheck shaped = playground("m=i32:n/2 n=i32:64", "cdiv(n,16),max(m,3)", "16,2");
    EXPECT_TRUE(shaped.ok()) << shaped.gridError;
    EXPECT_EQ(shaped.grid, (launch::Dim3{4, 32, 1}));
    EXPECT_EQ(shaped.block, (launch::Dim3{16, 2, 1}));
    // A demo's own n, overridden by the typed one: n = 4096 -> 16 blocks of 256.
    const LaunchFieldsCheck overridden = demo("n=i32:4096", "cdiv(n,256)", "256", "15");
    EXPECT_TRUE(overridden.ok()) << overridden.argsError;
    EXPECT_EQ(overridden.grid, (launch::Dim3{16, 1, 1}));
}

TEST(LaunchFieldsCheck, PlainNumbersReadAsTheLaunchBarReadsThem)
{
    for (const std::string text : {"2000", "-5", "0", "32,64", "1,2,3,4", "+7,2"}) {
        const LaunchFieldsCheck check = demo("", "4", text);
        EXPECT_EQ(check.blockError, launchBarError(text, true)) << text;
    }
    // A word that is not a number is not an integer in both; this field also takes expressions.
    for (const std::string text : {"x", "2.5", "4,x"}) {
        const std::string bar = launchBarError(text, true);
        const std::string ours = demo("", "4", text).blockError;
        EXPECT_EQ(ours.substr(0, bar.size() - 1), bar.substr(0, bar.size() - 1)) << ours;
    }
    EXPECT_EQ(demo("", "4", "x").blockError, "block: 'x' is not an integer (allowed: 1..1024, or an integer expression over n)");
    EXPECT_EQ(playground("", "4", "4,x").blockError, "block.y: 'x' is not an integer (allowed: 1..1024, or an integer expression such as 4*32)");
    EXPECT_EQ(demo("", "2000", "2000").blockError, "block: 2000 is out of range (allowed: 1..1024)");
    EXPECT_EQ(demo("", "-5", "1").gridError, "grid: -5 is out of range (allowed: 1..2147483647)");
    EXPECT_EQ(demo("", "100000,70000", "1").gridError, launchBarError("100000,70000", false));
    EXPECT_EQ(demo("", "100000,70000", "1").gridError, "grid.y: 70000 is out of range (allowed: 1..65535)");
    // Every prefix of 2000 is checked on its own: 200 is a block, 2000 is not.
    EXPECT_TRUE(demo("", "4", "200").blockError.empty());
}

TEST(LaunchFieldsCheck, ExpressionsOutOfRangeSayWhatTheyGave)
{
    // n = 4096 threads in one block: 4096 > 1024.
    EXPECT_EQ(playground("n=i32:4096", "1", "n").blockError, "block: n = 4096 is out of range (allowed: 1..1024)");
    // cdiv(0, 128) = 0 blocks.
    EXPECT_EQ(playground("n=i32:0", "cdiv(n,128)", "128").gridError,
              "grid: cdiv(n,128) = 0 is out of range (allowed: 1..2147483647)");
    // 64 x 32 = 2048 threads.
    EXPECT_EQ(playground("n=i32:64", "1", "n,32").blockError,
              "block: n,32 = 64,32 has 2048 threads (allowed: at most 1024 threads per block)");
    EXPECT_EQ(playground("n=i32:65", "1", "1,1,n").blockError, "block.z: n = 65 is out of range (allowed: 1..64)");
}

TEST(LaunchFieldsCheck, UnknownNamesListWhatMayBeNamed)
{
    EXPECT_EQ(playground("n=i32:256", "cdiv(k,128)", "128").gridError,
              "grid: 'k' is not an integer scalar argument (allowed: integers and the integer argument n; "
              "+ - * / % ( ) cdiv(a,b) min(a,b) max(a,b))");
    // A float scalar or a buffer is not an integer to compute with.
    EXPECT_EQ(playground("x=f32[n] n=i32:8 a=f32:2.5", "a*2", "32").gridError,
              "grid: 'a' is not an integer scalar argument (allowed: integers and the integer argument n; "
              "+ - * / % ( ) cdiv(a,b) min(a,b) max(a,b))");
    // Inside an argument's own value.
    EXPECT_EQ(playground("m=i32:k*2", "1", "1").argsError,
              "argument 'm=i32:k*2': 'k' is not an integer scalar argument (allowed: integers and the integer "
              "argument m; + - * / % ( ) cdiv(a,b) min(a,b) max(a,b))");
}

TEST(LaunchFieldsCheck, BadArgumentListsAreOneLine)
{
    EXPECT_EQ(demo("n", "1", "1").argsError,
              "args: 'n' is not an argument spec (allowed: NAME=TYPE:VALUE or NAME=TYPE[LENGTH][:INIT], separated by spaces)");
    EXPECT_EQ(demo("k=i32:4", "1", "1").argsError, "args: 'k' is not an argument of copy (allowed: out, in, n)");
    EXPECT_EQ(demo("n=i32:4 n=i32:8", "1", "1").argsError,
              "args: 'n=i32:8' sets 'n' a second time (allowed: each argument once)");
    EXPECT_EQ(playground("n=q32:4", "1", "1").argsError,
              "argument 'n=q32:4': unknown type 'q32' (allowed: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)");
    EXPECT_EQ(playground("n=i8:300", "1", "1").argsError, "argument 'n=i8:300': 300 does not fit in i8 (-128 to 127)");
    EXPECT_EQ(playground("n=i32:n+1", "1", "1").argsError, "argument 'n=i32:n+1': its value depends on itself");
    // A buffer's length without making it: 2^24 floats is 64 MB, one more is past the cap.
    EXPECT_TRUE(playground("x=f32[16777216]", "1", "1").argsError.empty());
    EXPECT_EQ(playground("x=f32[n] n=i32:16777217", "1", "1").argsError,
              "argument 'x=f32[n]' length: n = 16777217 is out of range (allowed: 0..16,777,216 elements, 64 MB per buffer)");
    EXPECT_EQ(playground("x=f32[n-300] n=i32:256", "1", "1").argsError,
              "argument 'x=f32[n-300]' length: n-300 = -44 is out of range (allowed: 0..16,777,216 elements, 64 MB per buffer)");
}

TEST(LaunchFieldsCheck, WhileTheArgumentsAreWrongTheFormIsStillChecked)
{
    // The grid cannot be evaluated (n's value is bad), but its form and names can.
    const LaunchFieldsCheck check = playground("n=i32:x", "cdiv(n,128)", "128");
    EXPECT_FALSE(check.argsError.empty());
    EXPECT_TRUE(check.gridError.empty()) << check.gridError;
    EXPECT_FALSE(check.grid);
    EXPECT_EQ(check.block, (launch::Dim3{128, 1, 1}));
    EXPECT_EQ(playground("n=i32:x", "cdiv(n,", "128").gridError,
              "grid: expression 'cdiv(n,' ends too early (allowed: integers, integer scalar names, + - * / %, parentheses, "
              "cdiv(a,b), min(a,b), max(a,b))");
    EXPECT_EQ(playground("n=i32:x", "cdiv(q,2)", "128").gridError,
              "grid: 'q' is not an integer scalar argument (allowed: integers and the integer argument n; "
              "+ - * / % ( ) cdiv(a,b) min(a,b) max(a,b))");
    // Nothing is refused for its value in this mode: n/(n-n) has the right form.
    EXPECT_TRUE(playground("n=i32:x", "n/(n-n)", "128").gridError.empty());
    EXPECT_EQ(playground("n=i32:8", "n/(n-n)", "128").gridError,
              "grid: expression 'n/(n-n)' divides by zero (allowed: integers, integer scalar names, + - * / %, parentheses, "
              "cdiv(a,b), min(a,b), max(a,b))");
}

TEST(LaunchFieldsCheck, TheBlockIndexIsHeldToTheGrid)
{
    EXPECT_EQ(demo("n=i32:4096", "cdiv(n,256)", "256", "16").blockIndexError,
              "block index x: 16 is out of range (allowed: 0..15)");
    EXPECT_EQ(demo("", "4,2", "256", "1, 1").blockIndex, (launch::Dim3{1, 1, 0}));
    EXPECT_EQ(demo("", "4,2", "256", "1,2").blockIndexError, "block index y: 2 is out of range (allowed: 0..1)");
    EXPECT_EQ(demo("", "4", "256", "").blockIndex, (launch::Dim3{0, 0, 0}));
    // Against the largest grid while the grid is wrong.
    EXPECT_TRUE(demo("", "0", "256", "5").blockIndexError.empty());
    EXPECT_EQ(demo("", "0", "256", "b").blockIndexError,
              "block index x: 'b' is not an integer (allowed: 0..2147483646)");
}

} // namespace
} // namespace warpscope::sim
