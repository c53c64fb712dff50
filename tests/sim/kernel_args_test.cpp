// The argument-spec language of kernels/README.md: parsing, integer expressions, resolution (forward
// references, cycles, limits), buffer initialisers (iota, fill, SplitMix64 random and random_int,
// file), overrides and element formatting, and the f16 and bf16 types. Expected values are worked
// out from the README, not taken from the implementation.
//
// Sections: the reference generator itself; parseArgSpec; evaluateExpression; resolveArgs;
// initialisers; overrides; formatElement. The f16 and bf16 types are in kernel_args_half_test.cpp.
#include "sim_test_support.h"
#include "kernel_args_test_support.h"

#include "sim/kernel_args.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace warpscope;
using namespace warpscope::sim;

using namespace warpscope::sim::args_test;

// ---- the reference generator itself ------------------------------------------------------------

TEST(SplitMixReference, MatchesPublishedOutputsForSeedZero)
{
    ReferenceSplitMix64 random{0};
    EXPECT_EQ(random.next(), kSeed0First);
    EXPECT_EQ(random.next(), kSeed0Second);
    EXPECT_EQ(random.next(), kSeed0Third);
}

// ---- parseArgSpec -------------------------------------------------------------------------------

TEST(ArgSpecParse, Scalars)
{
    const ArgSpec n = parseArgSpec("n=i32:1048576");
    EXPECT_EQ(n.name, "n");
    EXPECT_EQ(n.type, ElementType::I32);
    EXPECT_FALSE(n.isBuffer);
    EXPECT_EQ(n.expression, "1048576");
    EXPECT_EQ(n.text, "n=i32:1048576");

    const ArgSpec alpha = parseArgSpec("alpha=f32:2.5");
    EXPECT_EQ(alpha.name, "alpha");
    EXPECT_EQ(alpha.type, ElementType::F32);
    EXPECT_FALSE(alpha.isBuffer);
    EXPECT_EQ(alpha.expression, "2.5");

    const ArgSpec m = parseArgSpec("m=i32:n/2");
    EXPECT_EQ(m.expression, "n/2");
    EXPECT_FALSE(m.isBuffer);

    EXPECT_EQ(parseArgSpec("_x9=u64:7").name, "_x9");
    EXPECT_EQ(parseArgSpec("d=f64:-0.25").type, ElementType::F64);
}

TEST(ArgSpecParse, EveryTypeName)
{
    const std::pair<const char*, ElementType> types[] = {
        {"i8", ElementType::I8},   {"u8", ElementType::U8},   {"i16", ElementType::I16}, {"u16", ElementType::U16},
        {"i32", ElementType::I32}, {"u32", ElementType::U32}, {"i64", ElementType::I64}, {"u64", ElementType::U64},
        {"f32", ElementType::F32}, {"f64", ElementType::F64}, {"f16", ElementType::F16}, {"bf16", ElementType::BF16},
    };
    const std::uint32_t sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 2, 2};
    int i = 0;
    for (const auto& [name, type] : types) {
        const ArgSpec spec = parseArgSpec(std::string("x=") + name + "[3]");
        EXPECT_EQ(spec.type, type) << name;
        EXPECT_STREQ(elementName(type), name);
        EXPECT_EQ(elementBytes(type), sizes[i++]) << name;
    }
    EXPECT_TRUE(isFloatElement(ElementType::F32));
    EXPECT_TRUE(isFloatElement(ElementType::F64));
    EXPECT_TRUE(isFloatElement(ElementType::F16));
    EXPECT_TRUE(isFloatElement(ElementType::BF16));
    EXPECT_FALSE(isFloatElement(ElementType::I32));
    EXPECT_FALSE(isSignedElement(ElementType::F16));
    EXPECT_TRUE(isSignedElement(ElementType::I8));
    EXPECT_FALSE(isSignedElement(ElementType::U64));
    EXPECT_FALSE(isSignedElement(ElementType::F32));
}

TEST(ArgSpecParse, BuffersAndEveryInitialiser)
{
    const ArgSpec c = parseArgSpec("c=f32[n]");
    EXPECT_TRUE(c.isBuffer);
    EXPECT_EQ(c.expression, "n");
    EXPECT_EQ(c.init.kind, ArgInit::Kind::Zeros);

    const ArgSpec z = parseArgSpec("z=u8[16]:zeros");
    EXPECT_TRUE(z.isBuffer);
    EXPECT_EQ(z.init.kind, ArgInit::Kind::Zeros);

    const ArgSpec a = parseArgSpec("a=f32[n*2]:random(1)");
    EXPECT_TRUE(a.isBuffer);
    EXPECT_EQ(a.expression, "n*2");
    EXPECT_EQ(a.init.kind, ArgInit::Kind::Random);
    EXPECT_EQ(a.init.seed, 1u);

    const ArgSpec io = parseArgSpec("idx=i32[cdiv(n,32)]:iota");
    EXPECT_EQ(io.expression, "cdiv(n,32)");
    EXPECT_EQ(io.init.kind, ArgInit::Kind::Iota);

    const ArgSpec f = parseArgSpec("h=u32[256]:fill(0)");
    EXPECT_EQ(f.init.kind, ArgInit::Kind::Fill);
    EXPECT_EQ(f.init.value, "0");
    EXPECT_EQ(parseArgSpec("g=f64[2]:fill(-1.5)").init.value, "-1.5");

    const ArgSpec r = parseArgSpec("count=i32[n]:random_int(-3,31,7)");
    EXPECT_EQ(r.init.kind, ArgInit::Kind::RandomInt);
    EXPECT_EQ(r.init.low, -3);
    EXPECT_EQ(r.init.high, 31);
    EXPECT_EQ(r.init.seed, 7u);

    const ArgSpec file = parseArgSpec("w=f32[8]:file(/tmp/weights.bin)");
    EXPECT_EQ(file.init.kind, ArgInit::Kind::File);
    EXPECT_EQ(file.init.path, "/tmp/weights.bin");
}

TEST(ArgSpecParse, MissingEquals)
{
    EXPECT_TRUE(contains(parseError("n:i32:4"), "n:i32:4"));
    parseError("ni32");
    parseError("");
}

TEST(ArgSpecParse, BadName)
{
    parseError("1n=i32:4");
    parseError("a-b=i32:4");
    parseError("=i32:4");
    parseError("a b=i32:4");
    parseError("x.y=f32[4]");
}

TEST(ArgSpecParse, UnknownType)
{
    EXPECT_TRUE(contains(parseError("x=int:3"), "int"));
    parseError("x=f8:1");
    EXPECT_TRUE(contains(parseError("x=half:1"), "(allowed: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)"));
    parseError("x=float[4]");
    parseError("x=:3");
    parseError("x=i32");     // neither ':VALUE' nor '[LENGTH]'
    parseError("x=i32:");    // empty value
    parseError("x=f32:abc"); // not a number
    parseError("x=f32:inf"); // not finite
}

// f32 values that round to infinity are refused as f16's are (3.4028235e38 is the largest f32;
// half-way to 2^128, 3.4028235677973366e38, rounds to even, which is infinity). The largest value
// that still rounds down to it is kept, bit for bit.
TEST(ArgSpecParse, F32PastItsRangeIsRejected)
{
    EXPECT_EQ(parseError("x=f32:1e39"),
              "argument 'x=f32:1e39': 1e+39 is out of range for f32 (it rounds to infinity; the largest f32 "
              "is 3.4028235e+38)");
    EXPECT_TRUE(contains(parseError("x=f32:-3.4028235677973366e38"), "is out of range for f32"));
    EXPECT_TRUE(contains(parseError("x=f32[4]:fill(5e38)"), "5e+38 is out of range for f32"));
    EXPECT_EQ(byName(resolve({"x=f32:3.4028235677973362e38"}), "x").scalarBits, 0x7f7fffffu);
    EXPECT_EQ(byName(resolve({"x=f32:-3.4028235e38"}), "x").scalarBits, 0xff7fffffu);
    EXPECT_EQ(byName(resolve({"x=f64:1e39"}), "x").scalarBits, std::bit_cast<std::uint64_t>(1e39));
}

TEST(ArgSpecParse, BadBufferLength)
{
    parseError("x=f32[4");
    parseError("x=f32[]");
    parseError("x=f32[4]iota");
}

TEST(ArgSpecParse, RandomOnIntegersIsRejected)
{
    parseError("x=i32[4]:random(1)");
    parseError("x=u8[4]:random(1)");
}

TEST(ArgSpecParse, RandomIntOnFloatsIsRejected)
{
    parseError("x=f32[4]:random_int(0,1,2)");
    parseError("x=f64[4]:random_int(0,1,2)");
}

TEST(ArgSpecParse, LowAboveHighIsRejected)
{
    parseError("x=i32[4]:random_int(5,1,0)");
    EXPECT_NO_THROW(parseArgSpec("x=i32[4]:random_int(5,5,0)"));
}

TEST(ArgSpecParse, ValuesOutOfRangeForTheType)
{
    parseError("x=u8[4]:fill(256)");
    EXPECT_NO_THROW(parseArgSpec("x=u8[4]:fill(255)"));
    parseError("x=u32[4]:fill(-1)");
    parseError("x=i8[4]:fill(-129)");
    EXPECT_NO_THROW(parseArgSpec("x=i8[4]:fill(-128)"));
    parseError("x=u8[4]:random_int(0,256,1)");
    parseError("x=i16[4]:random_int(-32769,0,1)");
    parseError("x=i32[4]:fill(2.5)"); // not an integer
    parseError("x=f32[4]:fill(1e999)");
}

TEST(ArgSpecParse, BadInitialiser)
{
    EXPECT_TRUE(contains(parseError("x=f32[4]:gaussian(1)"), "gaussian"));
    parseError("x=f32[4]:iota(3)");
    parseError("x=f32[4]:zeros(1)");
    parseError("x=f32[4]:fill()");
    parseError("x=f32[4]:fill(1,2)");
    parseError("x=f32[4]:random");
    parseError("x=f32[4]:random(-1)");
    parseError("x=f32[4]:random(1");
    parseError("x=i32[4]:random_int(0,1)");
    parseError("x=i32[4]:random_int(0,1,2,3)");
    parseError("x=f32[4]:file()");
    parseError("x=f32[4]:file");
    parseError("x=f32[4]:");
}

// ---- evaluateExpression -------------------------------------------------------------------------

TEST(ArgExpression, PrecedenceAndAssociativity)
{
    EXPECT_EQ(evaluateExpression("2+3*4", {}, "t"), 14);
    EXPECT_EQ(evaluateExpression("2*3+4", {}, "t"), 10);
    EXPECT_EQ(evaluateExpression("(2+3)*4", {}, "t"), 20);
    EXPECT_EQ(evaluateExpression("10-4-3", {}, "t"), 3);
    EXPECT_EQ(evaluateExpression("100/10/5", {}, "t"), 2);
    EXPECT_EQ(evaluateExpression("17%5*2", {}, "t"), 4);
    EXPECT_EQ(evaluateExpression("2+17%5", {}, "t"), 4);
    EXPECT_EQ(evaluateExpression("((7))", {}, "t"), 7);
    EXPECT_EQ(evaluateExpression("  1 +  2 * ( 3 - 1 ) ", {}, "t"), 5);
}

TEST(ArgExpression, CSemanticsForDivisionAndRemainder)
{
    EXPECT_EQ(evaluateExpression("7/2", {}, "t"), 3);
    EXPECT_EQ(evaluateExpression("-7/2", {}, "t"), -3);
    EXPECT_EQ(evaluateExpression("-7%3", {}, "t"), -1);
    EXPECT_EQ(evaluateExpression("7%-3", {}, "t"), 1);
}

TEST(ArgExpression, UnaryMinus)
{
    EXPECT_EQ(evaluateExpression("-5", {}, "t"), -5);
    EXPECT_EQ(evaluateExpression("-(3+4)", {}, "t"), -7);
    EXPECT_EQ(evaluateExpression("--3", {}, "t"), 3);
    EXPECT_EQ(evaluateExpression("2*-3", {}, "t"), -6);
    EXPECT_EQ(evaluateExpression("4--1", {}, "t"), 5);
}

TEST(ArgExpression, Functions)
{
    EXPECT_EQ(evaluateExpression("cdiv(10,3)", {}, "t"), 4);
    EXPECT_EQ(evaluateExpression("cdiv(9,3)", {}, "t"), 3);
    EXPECT_EQ(evaluateExpression("cdiv(0,5)", {}, "t"), 0);
    EXPECT_EQ(evaluateExpression("cdiv(1,256)", {}, "t"), 1);
    EXPECT_EQ(evaluateExpression("min(3,-2)", {}, "t"), -2);
    EXPECT_EQ(evaluateExpression("max(3,-2)", {}, "t"), 3);
    EXPECT_EQ(evaluateExpression("max(min(10, 4), cdiv(20, 3))", {}, "t"), 7);
    EXPECT_EQ(evaluateExpression("cdiv(2+3, 2)*2", {}, "t"), 6);
}

TEST(ArgExpression, Names)
{
    const Scalars scalars{{"n", 1000}, {"stride", 2}, {"tile_w", 32}};
    EXPECT_EQ(evaluateExpression("n*stride", scalars, "t"), 2000);
    EXPECT_EQ(evaluateExpression("cdiv(n,256)*16", scalars, "t"), 64);
    EXPECT_EQ(evaluateExpression("cdiv(n, tile_w) * tile_w - n", scalars, "t"), 24);
    // Names are whole identifiers: "nn" is not "n".
    expressionError("nn", scalars);
}

TEST(ArgExpression, Errors)
{
    const std::string divide = expressionError("1/0");
    EXPECT_TRUE(contains(divide, "grid")) << divide; // names what it was evaluating
    EXPECT_TRUE(contains(divide, "1/0")) << divide;
    expressionError("5%0");
    expressionError("5/(3-3)");
    expressionError("cdiv(1,0)");
    expressionError("9223372036854775807+1");
    expressionError("-9223372036854775807-2");
    expressionError("4611686018427387904*2");
    expressionError("(-9223372036854775807-1)/-1");
    expressionError("9223372036854775808"); // does not fit
    const std::string unknown = expressionError("m+1", Scalars{{"n", 1}});
    EXPECT_TRUE(contains(unknown, "'m'")) << unknown;
    expressionError("");
    expressionError("1+");
    expressionError("(1");
    expressionError("1 2");
    expressionError("min(1)");
    expressionError("3 $ 4");
}

TEST(ArgExpression, LargestValuesStillWork)
{
    EXPECT_EQ(evaluateExpression("9223372036854775807", {}, "t"), INT64_MAX);
    EXPECT_EQ(evaluateExpression("-9223372036854775807-1", {}, "t"), INT64_MIN);
    EXPECT_EQ(evaluateExpression("4611686018427387903*2+1", {}, "t"), INT64_MAX);
    expressionError("4611686018427387904*2-1"); // the product overflows before the subtraction
}

// ---- resolveArgs --------------------------------------------------------------------------------

TEST(ArgResolve, ForwardReferenceToALaterScalar)
{
    const auto args = resolve({"a=f32[n*2]", "n=i32:4"});
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].name, "a"); // list order is kept
    EXPECT_EQ(args[1].name, "n");
    EXPECT_TRUE(args[0].isBuffer);
    EXPECT_EQ(args[0].type, ElementType::F32);
    EXPECT_EQ(args[0].count, 8u);
    ASSERT_EQ(args[0].bytes.size(), 32u);
    for (std::uint8_t byte : args[0].bytes)
        EXPECT_EQ(byte, 0u);
    EXPECT_FALSE(args[1].isBuffer);
    EXPECT_EQ(args[1].integerValue, 4);
    EXPECT_EQ(args[1].scalarBits, 4u);
}

TEST(ArgResolve, ChainsOfScalarsInAnyOrder)
{
    // m = 10/2 = 5, k = max(5,3) = 5, b has m+k = 10 elements.
    const auto args = resolve({"b=u8[m+k]", "m=i32:n/2", "k=i32:max(m,3)", "n=i32:10"});
    EXPECT_EQ(byName(args, "m").integerValue, 5);
    EXPECT_EQ(byName(args, "k").integerValue, 5);
    EXPECT_EQ(byName(args, "n").integerValue, 10);
    EXPECT_EQ(byName(args, "b").count, 10u);
    EXPECT_EQ(byName(args, "b").bytes.size(), 10u);
}

TEST(ArgResolve, ScalarBitsPerType)
{
    const auto args = resolve({"alpha=f32:2.5", "d=f64:-0.5", "x=i32:-1", "y=i8:-128", "z=u32:4294967295",
                               "w=i64:-2", "e=i16:3*-4", "u=u16:65535"});
    EXPECT_EQ(byName(args, "alpha").scalarBits, 0x40200000u);
    EXPECT_DOUBLE_EQ(byName(args, "alpha").realValue, 2.5);
    EXPECT_EQ(byName(args, "d").scalarBits, 0xBFE0000000000000ull);
    EXPECT_DOUBLE_EQ(byName(args, "d").realValue, -0.5);
    EXPECT_EQ(byName(args, "x").scalarBits, 0xFFFFFFFFull);
    EXPECT_EQ(byName(args, "x").integerValue, -1);
    EXPECT_EQ(byName(args, "y").scalarBits, 0x80u);
    EXPECT_EQ(byName(args, "y").integerValue, -128);
    EXPECT_EQ(byName(args, "z").scalarBits, 0xFFFFFFFFull);
    EXPECT_EQ(byName(args, "z").integerValue, 4294967295);
    EXPECT_EQ(byName(args, "w").scalarBits, 0xFFFFFFFFFFFFFFFEull);
    EXPECT_EQ(byName(args, "e").scalarBits, 0xFFF4u);
    EXPECT_EQ(byName(args, "e").integerValue, -12);
    EXPECT_EQ(byName(args, "u").scalarBits, 0xFFFFu);
}

TEST(ArgResolve, IntegerScalarsSkipFloatsAndBuffers)
{
    const auto scalars = integerScalars(resolve({"alpha=f32:2.5", "n=i32:7", "buf=f32[n]", "k=u8:3"}));
    ASSERT_EQ(scalars.size(), 2u);
    EXPECT_EQ(scalars.at("n"), 7);
    EXPECT_EQ(scalars.at("k"), 3);
}

TEST(ArgResolve, CyclesAreRejected)
{
    resolveError({"a=i32:b", "b=i32:a"});
    resolveError({"a=i32:a+1"});
    resolveError({"x=f32[a]", "a=i32:b*2", "b=i32:c", "c=i32:a-1"});
}

TEST(ArgResolve, DuplicateNamesAreRejected)
{
    EXPECT_TRUE(contains(resolveError({"n=i32:1", "x=f32[4]", "n=i32:2"}), "'n'"));
    resolveError({"x=f32[4]", "x=i32:4"});
}

TEST(ArgResolve, NegativeLengthsAreRejected)
{
    resolveError({"n=i32:-1", "x=f32[n]"});
    resolveError({"x=f32[2-3]"});
    const auto empty = resolve({"x=f32[0]"});
    EXPECT_EQ(empty[0].count, 0u);
    EXPECT_TRUE(empty[0].bytes.empty());
}

TEST(ArgResolve, ExpressionErrorsNameTheArgument)
{
    // The message's prefix is built for the evaluation and must outlive it (it once dangled and
    // printed garbage): the scalar's and the buffer length's errors both name their argument.
    const std::string scalar = resolveError({"n=i32:1/0"});
    EXPECT_EQ(scalar.rfind("argument 'n=i32:1/0': expression '1/0' ", 0), 0u) << scalar;
    const std::string length = resolveError({"x=f32[5%0]"});
    EXPECT_EQ(length.rfind("argument 'x=f32[5%0]' length: expression '5%0' ", 0), 0u) << length;
}

TEST(ArgResolve, NamesMustBeIntegerScalars)
{
    resolveError({"alpha=f32:2", "x=f32[alpha]"});
    resolveError({"buf=f32[4]", "x=f32[buf]"});
    resolveError({"x=f32[m]"});
    resolveError({"n=i32:m"});
}

TEST(ArgResolve, ScalarsMustFitTheirType)
{
    resolveError({"x=u8:300"});
    resolveError({"x=i16:32768"});
    resolveError({"x=u32:-1"});
    resolveError({"x=i8:-129"});
    resolveError({"n=i32:3000000000"});
    resolveError({"n=i32:2147483647+1"});
    EXPECT_EQ(resolve({"n=i32:2147483647"})[0].integerValue, 2147483647);
    EXPECT_EQ(resolve({"n=i32:-2147483648"})[0].scalarBits, 0x80000000u);
    // The value used by a length must fit too.
    resolveError({"x=f32[n]", "n=u8:m", "m=i32:256"});
}

TEST(ArgResolve, BufferSizeCap)
{
    EXPECT_NO_THROW(resolve({"x=f32[4]"}, 16));
    resolveError({"x=f32[4]"}, 15);
    EXPECT_NO_THROW(resolve({"x=f64[3]"}, 24));
    resolveError({"x=f64[3]"}, 23);
    EXPECT_NO_THROW(resolve({"x=u8[n]", "n=i32:1000"}, 1000));
    resolveError({"x=u8[n]", "n=i32:1001"}, 1000);
    // The cap is per buffer, not a total.
    EXPECT_NO_THROW(resolve({"x=u8[10]", "y=u8[10]"}, 10));
    // A huge length is refused without trying to allocate it.
    resolveError({"x=f64[4611686018427387904]"}, 1ull << 30);
}

// ---- initialisers -------------------------------------------------------------------------------

TEST(ArgInitialisers, Iota)
{
    const auto args = resolve({"i=i32[5]:iota", "f=f32[4]:iota", "d=f64[3]:iota", "b=u8[258]:iota", "s=i16[3]:iota"});
    for (int k = 0; k < 5; ++k)
        EXPECT_EQ(element<std::int32_t>(byName(args, "i"), k), k);
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(element<float>(byName(args, "f"), k), static_cast<float>(k));
    EXPECT_EQ(element<double>(byName(args, "d"), 2), 2.0);
    const ResolvedArg& b = byName(args, "b");
    EXPECT_EQ(element<std::uint8_t>(b, 255), 255u);
    EXPECT_EQ(element<std::uint8_t>(b, 256), 0u); // converted to u8: 256 wraps to 0
    EXPECT_EQ(element<std::uint8_t>(b, 257), 1u);
    EXPECT_EQ(element<std::int16_t>(byName(args, "s"), 2), 2);
}

TEST(ArgInitialisers, Fill)
{
    const auto args = resolve({"s=i16[3]:fill(-2)", "f=f32[2]:fill(0.1)", "d=f64[2]:fill(0.1)",
                               "u=u64[2]:fill(9223372036854775807)", "b=u8[3]:fill(255)", "z=u32[3]:zeros"});
    const ResolvedArg& s = byName(args, "s");
    ASSERT_EQ(s.bytes.size(), 6u);
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(s.bytes[2 * k], 0xFEu); // little-endian 0xFFFE
        EXPECT_EQ(s.bytes[2 * k + 1], 0xFFu);
    }
    EXPECT_EQ(std::bit_cast<std::uint32_t>(element<float>(byName(args, "f"), 1)), 0x3DCCCCCDu); // 0.1f
    EXPECT_EQ(std::bit_cast<std::uint64_t>(element<double>(byName(args, "d"), 1)), 0x3FB999999999999Aull); // 0.1
    EXPECT_EQ(element<std::uint64_t>(byName(args, "u"), 1), 0x7FFFFFFFFFFFFFFFull);
    for (std::uint8_t byte : byName(args, "b").bytes)
        EXPECT_EQ(byte, 0xFFu);
    const ResolvedArg& z = byName(args, "z");
    EXPECT_EQ(z.bytes, std::vector<std::uint8_t>(12, 0));
}

TEST(ArgInitialisers, RandomIsSplitMix64ForSeedZero)
{
    // The README: value = (x >> 11) * 2^-53 * 2 - 1 for each SplitMix64 output x, rounded to the type.
    const double first = static_cast<double>(kSeed0First >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    EXPECT_NEAR(first, 0.7666, 1e-3); // 0xE2.../2^64 ~ 0.8833
    const auto one = resolve({"x=f32[1]:random(0)"});
    ASSERT_EQ(one[0].bytes.size(), 4u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(element<float>(one[0], 0)),
              std::bit_cast<std::uint32_t>(static_cast<float>(first)));

    const auto f = resolve({"x=f32[3]:random(0)"});
    EXPECT_EQ(element<float>(f[0], 0), static_cast<float>(unitFromDraw(kSeed0First)));
    EXPECT_EQ(element<float>(f[0], 1), static_cast<float>(unitFromDraw(kSeed0Second)));
    EXPECT_EQ(element<float>(f[0], 2), static_cast<float>(unitFromDraw(kSeed0Third)));

    const auto d = resolve({"x=f64[3]:random(0)"});
    EXPECT_EQ(element<double>(d[0], 0), unitFromDraw(kSeed0First));
    EXPECT_EQ(element<double>(d[0], 1), unitFromDraw(kSeed0Second));
    EXPECT_EQ(element<double>(d[0], 2), unitFromDraw(kSeed0Third));
}

TEST(ArgInitialisers, RandomIsUniformInMinusOneToOneAndDeterministic)
{
    const auto args = resolve({"a=f32[10000]:random(12345)", "b=f32[10000]:random(12345)", "c=f32[10000]:random(12346)"});
    const ResolvedArg& a = byName(args, "a");
    ReferenceSplitMix64 reference{12345};
    double sum = 0;
    int negative = 0;
    for (int k = 0; k < 10000; ++k) {
        const float value = element<float>(a, k);
        ASSERT_EQ(value, static_cast<float>(unitFromDraw(reference.next()))) << "element " << k;
        EXPECT_GE(value, -1.0f);
        EXPECT_LE(value, 1.0f); // rounding to f32 may reach 1.0 from just below
        sum += value;
        negative += value < 0;
    }
    EXPECT_NEAR(sum / 10000, 0.0, 0.05);
    EXPECT_GT(negative, 4500);
    EXPECT_LT(negative, 5500);
    EXPECT_EQ(byName(args, "b").bytes, a.bytes);
    EXPECT_NE(byName(args, "c").bytes, a.bytes);
}

TEST(ArgInitialisers, RandomIntIsLowPlusDrawModuloSpan)
{
    // Full u32 range: x % 2^32, the low 32 bits of each output.
    const auto full = resolve({"x=u32[3]:random_int(0,4294967295,0)"});
    EXPECT_EQ(element<std::uint32_t>(full[0], 0), 0x7B1DCDAFu);
    EXPECT_EQ(element<std::uint32_t>(full[0], 1), 0xA1B965F4u);
    EXPECT_EQ(element<std::uint32_t>(full[0], 2), 0x8009454Fu);

    const auto digits = resolve({"x=u8[3]:random_int(0,9,0)"});
    EXPECT_EQ(element<std::uint8_t>(digits[0], 0), kSeed0First % 10);
    EXPECT_EQ(element<std::uint8_t>(digits[0], 1), kSeed0Second % 10);
    EXPECT_EQ(element<std::uint8_t>(digits[0], 2), kSeed0Third % 10);

    // The whole i64 range: span 2^64, so the value is LO + x = x - 2^63 (mod 2^64).
    const auto wide = resolve({"x=i64[1]:random_int(-9223372036854775808,9223372036854775807,0)"});
    EXPECT_EQ(static_cast<std::uint64_t>(element<std::int64_t>(wide[0], 0)), 0x6220A8397B1DCDAFull);

    // A constant range.
    const auto constant = resolve({"x=i16[4]:random_int(-7,-7,3)"});
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(element<std::int16_t>(constant[0], k), -7);
}

TEST(ArgInitialisers, RandomIntStaysInRangeAndCoversIt)
{
    const auto args = resolve({"x=i32[2000]:random_int(-5,5,42)"});
    ReferenceSplitMix64 reference{42};
    bool seen[11] = {};
    for (int k = 0; k < 2000; ++k) {
        const std::int32_t value = element<std::int32_t>(args[0], k);
        ASSERT_GE(value, -5);
        ASSERT_LE(value, 5);
        ASSERT_EQ(value, -5 + static_cast<std::int32_t>(reference.next() % 11)) << "element " << k;
        seen[value + 5] = true;
    }
    for (int v = 0; v < 11; ++v)
        EXPECT_TRUE(seen[v]) << "value " << v - 5 << " never drawn";
}

TEST(ArgInitialisers, FileOfTheRightSize)
{
    const std::string path = tempPath("twelve.bin");
    {
        std::ofstream out(path, std::ios::binary);
        for (int k = 1; k <= 12; ++k)
            out.put(static_cast<char>(k));
        // One float: 1.0f = 0x3F800000, little-endian.
    }
    const auto bytes = resolve({"x=u8[12]:file(" + path + ")"});
    ASSERT_EQ(bytes[0].bytes.size(), 12u);
    for (int k = 0; k < 12; ++k)
        EXPECT_EQ(bytes[0].bytes[k], k + 1);
    const auto words = resolve({"x=i32[n]:file(" + path + ")", "n=i32:3"});
    EXPECT_EQ(element<std::int32_t>(words[0], 0), 0x04030201);
    EXPECT_EQ(element<std::int32_t>(words[0], 2), 0x0C0B0A09);

    const std::string wrong = resolveError({"x=f32[4]:file(" + path + ")"});
    EXPECT_TRUE(contains(wrong, "12")) << wrong;
    EXPECT_TRUE(contains(wrong, "16")) << wrong;
    resolveError({"x=u8[13]:file(" + path + ")"});
    resolveError({"x=u8[11]:file(" + path + ")"});
    std::remove(path.c_str());
    resolveError({"x=u8[12]:file(" + path + ")"}); // gone
}

// ---- overrides ----------------------------------------------------------------------------------

TEST(ArgOverrides, ReplaceByNameKeepingOrder)
{
    std::vector<ArgSpec> specs;
    for (const char* text : {"a=f32[n]:random(1)", "b=f32[n]", "n=i32:1024"})
        specs.push_back(parseArgSpec(text));
    const auto result = applyOverrides(specs, {parseArgSpec("n=i32:8"), parseArgSpec("a=f32[n]:iota")});
    ASSERT_EQ(result.size(), 3u);
    EXPECT_EQ(result[0].name, "a");
    EXPECT_EQ(result[1].name, "b");
    EXPECT_EQ(result[2].name, "n");
    EXPECT_EQ(result[2].expression, "8");
    EXPECT_EQ(result[2].text, "n=i32:8");
    EXPECT_EQ(result[0].init.kind, ArgInit::Kind::Iota);
    EXPECT_EQ(result[1].text, "b=f32[n]");
    // Sizes that use the overridden scalar follow it.
    const auto resolved = resolveArgs(result, 1ull << 20);
    EXPECT_EQ(resolved[0].count, 8u);
    EXPECT_EQ(resolved[1].count, 8u);
    EXPECT_EQ(element<float>(resolved[0], 7), 7.0f);
    // No overrides: unchanged.
    EXPECT_EQ(applyOverrides(specs, {}).size(), 3u);
    EXPECT_EQ(applyOverrides(specs, {})[2].expression, "1024");
}

TEST(ArgOverrides, UnknownNameListsTheKernelsArguments)
{
    std::vector<ArgSpec> specs;
    for (const char* text : {"a=f32[n]:random(1)", "b=f32[n]", "n=i32:1024"})
        specs.push_back(parseArgSpec(text));
    try {
        applyOverrides(specs, {parseArgSpec("m=i32:1")});
        FAIL() << "an unknown name was accepted";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_TRUE(contains(message, "'m'")) << message;
        EXPECT_TRUE(contains(message, "a, b, n")) << message;
    }
}

// ---- formatElement ------------------------------------------------------------------------------

TEST(ArgFormat, Integers)
{
    ResolvedArg arg;
    arg.isBuffer = true;
    const std::vector<std::uint8_t> bytes{0xFF, 0x7F, 0x80, 0x00};
    arg.type = ElementType::I8;
    EXPECT_EQ(formatElement(arg, bytes, 0), "-1");
    EXPECT_EQ(formatElement(arg, bytes, 1), "127");
    EXPECT_EQ(formatElement(arg, bytes, 2), "-128");
    EXPECT_EQ(formatElement(arg, bytes, 3), "0");
    arg.type = ElementType::U8;
    EXPECT_EQ(formatElement(arg, bytes, 0), "255");
    EXPECT_EQ(formatElement(arg, bytes, 1), "127");
    EXPECT_EQ(formatElement(arg, bytes, 2), "128");
    arg.type = ElementType::I16;
    EXPECT_EQ(formatElement(arg, bytes, 0), "32767");  // 0x7FFF
    EXPECT_EQ(formatElement(arg, bytes, 1), "128");    // 0x0080
    arg.type = ElementType::I32;
    const std::vector<std::uint8_t> minusThree{0xFD, 0xFF, 0xFF, 0xFF};
    EXPECT_EQ(formatElement(arg, minusThree, 0), "-3");
    arg.type = ElementType::U32;
    EXPECT_EQ(formatElement(arg, minusThree, 0), "4294967293");
}

TEST(ArgFormat, Floats)
{
    ResolvedArg arg;
    arg.isBuffer = true;
    arg.type = ElementType::F32;
    const float values[] = {2.5f, -3.0f, 0.5f, 0.0f, 0.1f, 1.0f / 3.0f, 3.4028235e38f, 1e-45f};
    std::vector<std::uint8_t> bytes(sizeof(values));
    std::memcpy(bytes.data(), values, sizeof(values));
    EXPECT_EQ(formatElement(arg, bytes, 0), "2.5");
    EXPECT_EQ(formatElement(arg, bytes, 1), "-3");
    EXPECT_EQ(formatElement(arg, bytes, 2), "0.5");
    EXPECT_EQ(formatElement(arg, bytes, 3), "0");
    // The text reads back as the same float.
    for (std::size_t k = 4; k < std::size(values); ++k)
        EXPECT_EQ(std::strtof(formatElement(arg, bytes, k).c_str(), nullptr), values[k]) << formatElement(arg, bytes, k);
}
