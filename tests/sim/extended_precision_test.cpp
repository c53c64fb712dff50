// Extended-precision integer arithmetic (add.cc, addc, sub.cc, subc, mad.cc, madc and the thread's
// carry flag CC.CF) against values worked out by hand and against the host's own 128-bit
// arithmetic, and CUDA's double sin/cos/tan, whose Payne-Hanek reduction for large arguments is built
// from these instructions, against std::sin/cos/tan within the CUDA Programming Guide's bound; and
// atom/red.add.noftz on .f16, .f16x2, .bf16 and .bf16x2 (CUDA's atomicAdd on half types) against
// sums worked out by hand: ties to even, overflow to infinity, NaN, subnormals kept.
#include "sim_test_support.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

__extension__ using UInt128 = unsigned __int128;

using Limbs = std::array<std::uint32_t, 4>; // a 128-bit number, least significant 32 bits first

UInt128 toWide(const Limbs& limbs)
{
    UInt128 value = 0;
    for (int i = 3; i >= 0; --i)
        value = (value << 32) | limbs[static_cast<std::size_t>(i)];
    return value;
}

// One thread per pair of 128-bit inputs: a in %a0..%a3 and b in %b0..%b3 (32-bit limbs, least
// significant first; also as 64-bit halves %al, %ah, %bl, %bh); the body leaves the result in
// %d0..%d3, which start at zero. %p1 is set in even lanes.
std::vector<Limbs> runLimbs(const std::string& body, const std::vector<std::array<Limbs, 2>>& inputs)
{
    const std::string ptx = std::string(".version 8.0\n.target sm_90\n.address_size 64\n"
                                        ".visible .entry t(.param .u64 in, .param .u64 out)\n{\n"
                                        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
                                        "\t.reg .b32 %a<4>;\n\t.reg .b32 %b<4>;\n\t.reg .b32 %d<4>;\n"
                                        "\t.reg .b64 %al, %ah, %bl, %bh, %dl, %dh;\n"
                                        "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
                                        "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                                        "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 1;\n\tsetp.eq.u32 %p1, %r2, 0;\n"
                                        "\tmul.wide.u32 %rd3, %r1, 32;\n\tadd.s64 %rd3, %rd1, %rd3;\n"
                                        "\tld.global.v4.b32 {%a0, %a1, %a2, %a3}, [%rd3];\n"
                                        "\tld.global.v4.b32 {%b0, %b1, %b2, %b3}, [%rd3+16];\n"
                                        "\tmov.b64 %al, {%a0, %a1};\n\tmov.b64 %ah, {%a2, %a3};\n"
                                        "\tmov.b64 %bl, {%b0, %b1};\n\tmov.b64 %bh, {%b2, %b3};\n"
                                        "\tmov.u32 %d0, 0;\n\tmov.u32 %d1, 0;\n\tmov.u32 %d2, 0;\n\tmov.u32 %d3, 0;\n") +
                            body +
                            "\tmul.wide.u32 %rd4, %r1, 16;\n\tadd.s64 %rd4, %rd2, %rd4;\n"
                            "\tst.global.v4.b32 [%rd4], {%d0, %d1, %d2, %d3};\n\tret;\n}\n";
    const CompiledKernel kernel = parsePtxKernel(ptx, "t");
    EXPECT_TRUE(kernel.module->allUnsupported().empty()) << ptx::describeUnsupported(*kernel.module, *kernel.module->allUnsupported()[0]);
    std::vector<std::uint32_t> words;
    for (const auto& pair : inputs)
        for (const Limbs& number : pair)
            words.insert(words.end(), number.begin(), number.end());
    std::vector<std::uint32_t> out(inputs.size() * 4, 0xdeadbeefu);
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {static_cast<std::int64_t>(inputs.size()), 1, 1},
                                                   {bufferArg("in", sim::ElementType::U32, words),
                                                    bufferArg("out", sim::ElementType::U32, out)});
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<std::uint32_t> values = bufferValues<std::uint32_t>(result, "out");
    std::vector<Limbs> results(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        for (std::size_t limb = 0; limb < 4; ++limb)
            results[i][limb] = values[i * 4 + limb];
    return results;
}

// Random 128-bit pairs with long runs of ones and zeros, where carries ripple.
std::vector<std::array<Limbs, 2>> randomPairs(std::uint32_t seed, std::size_t count)
{
    std::mt19937 random(seed);
    const std::array<std::uint32_t, 4> specials{0u, 1u, 0xffffffffu, 0x80000000u};
    auto limb = [&]() { return random() % 3 == 0 ? specials[random() % 4] : static_cast<std::uint32_t>(random()); };
    std::vector<std::array<Limbs, 2>> pairs(count);
    for (auto& pair : pairs)
        for (Limbs& number : pair)
            for (std::uint32_t& value : number)
                value = limb();
    return pairs;
}

constexpr std::uint32_t kOnes = 0xffffffffu;

const char* const kAdd128 = "\tadd.cc.u32 %d0, %a0, %b0;\n\taddc.cc.u32 %d1, %a1, %b1;\n"
                            "\taddc.cc.u32 %d2, %a2, %b2;\n\taddc.u32 %d3, %a3, %b3;\n";
const char* const kSub128 = "\tsub.cc.u32 %d0, %a0, %b0;\n\tsubc.cc.u32 %d1, %a1, %b1;\n"
                            "\tsubc.cc.u32 %d2, %a2, %b2;\n\tsubc.u32 %d3, %a3, %b3;\n";

} // namespace

// PTX ISA, addc: "d = a + b + CC.CF", the carry out of each limb going into the next.
TEST(ExtendedPrecision, AddWithCarryChainsA128BitSum)
{
    const std::vector<std::array<Limbs, 2>> cases = {
        {Limbs{kOnes, kOnes, kOnes, kOnes}, Limbs{1, 0, 0, 0}},         // ripples through every limb, out of the top
        {Limbs{kOnes, 0, kOnes, 0}, Limbs{1, 0, 1, 0}},                 // two separate carries
        {Limbs{0x80000000u, 0x80000000u, 0, 0}, Limbs{0x80000000u, 0x80000000u, 0, 0}},
        {Limbs{kOnes, kOnes, 0, 0}, Limbs{kOnes, kOnes, 0, 0}},         // carry and a sum of ones: ...fffe + 1
        {Limbs{5, 6, 7, 8}, Limbs{1, 2, 3, 4}},                         // no carry at all
    };
    const std::vector<Limbs> expected = {
        Limbs{0, 0, 0, 0}, Limbs{0, 1, 0, 1}, Limbs{0, 1, 1, 0}, Limbs{0xfffffffeu, kOnes, 1, 0}, Limbs{6, 8, 10, 12},
    };
    EXPECT_EQ(runLimbs(kAdd128, cases), expected);

    const auto pairs = randomPairs(7, 256);
    const std::vector<Limbs> sums = runLimbs(kAdd128, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        EXPECT_EQ(toWide(sums[i]), toWide(pairs[i][0]) + toWide(pairs[i][1])) << "pair " << i;
}

// PTX ISA, subc: "d = a - (b + CC.CF)", CC.CF the borrow out of the limb below.
TEST(ExtendedPrecision, SubtractWithBorrowChainsA128BitDifference)
{
    const std::vector<std::array<Limbs, 2>> cases = {
        {Limbs{0, 0, 0, 1}, Limbs{1, 0, 0, 0}},       // 2^96 - 1: borrows through three limbs
        {Limbs{0, 0, 0, 0}, Limbs{1, 0, 0, 0}},       // 0 - 1 wraps to all ones
        {Limbs{5, 7, 9, 11}, Limbs{5, 7, 9, 11}},     // equal: no borrow anywhere
        {Limbs{0, 5, 0, 5}, Limbs{1, 4, 1, 4}},       // borrows absorbed by the next limb each time
    };
    const std::vector<Limbs> expected = {
        Limbs{kOnes, kOnes, kOnes, 0}, Limbs{kOnes, kOnes, kOnes, kOnes}, Limbs{0, 0, 0, 0}, Limbs{kOnes, 0, kOnes, 0},
    };
    EXPECT_EQ(runLimbs(kSub128, cases), expected);

    const auto pairs = randomPairs(8, 256);
    const std::vector<Limbs> differences = runLimbs(kSub128, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        EXPECT_EQ(toWide(differences[i]), toWide(pairs[i][0]) - toWide(pairs[i][1])) << "pair " << i;
}

// The PTX ISA's own example for madc: a 64 x 64 -> 128-bit product from 32-bit limbs,
// [d3, d2, d1, d0] = [a1, a0] * [b1, b0].
TEST(ExtendedPrecision, MadWithCarryMultipliesTwo64BitNumbers)
{
    const char* body = "\tmul.lo.u32 %d0, %a0, %b0;\n\tmul.hi.u32 %d1, %a0, %b0;\n"
                       "\tmad.lo.cc.u32 %d1, %a1, %b0, %d1;\n\tmadc.hi.u32 %d2, %a1, %b0, 0;\n"
                       "\tmad.lo.cc.u32 %d1, %a0, %b1, %d1;\n\tmadc.hi.cc.u32 %d2, %a0, %b1, %d2;\n"
                       "\taddc.u32 %d3, 0, 0;\n"
                       "\tmad.lo.cc.u32 %d2, %a1, %b1, %d2;\n\tmadc.hi.u32 %d3, %a1, %b1, %d3;\n";
    // (2^64 - 1)^2 = 2^128 - 2^65 + 1 = 0xfffffffffffffffe_0000000000000001; 2^32 * 2^32 = 2^64.
    const std::vector<std::array<Limbs, 2>> cases = {
        {Limbs{kOnes, kOnes, 0, 0}, Limbs{kOnes, kOnes, 0, 0}},
        {Limbs{0, 1, 0, 0}, Limbs{0, 1, 0, 0}},
        {Limbs{3, 0, 0, 0}, Limbs{5, 0, 0, 0}},
    };
    const std::vector<Limbs> expected = {Limbs{1, 0, 0xfffffffeu, kOnes}, Limbs{0, 0, 1, 0}, Limbs{15, 0, 0, 0}};
    EXPECT_EQ(runLimbs(body, cases), expected);

    auto pairs = randomPairs(9, 256);
    for (auto& pair : pairs)
        for (Limbs& number : pair)
            number[2] = number[3] = 0; // 64-bit factors
    const std::vector<Limbs> products = runLimbs(body, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        EXPECT_EQ(toWide(products[i]), toWide(pairs[i][0]) * toWide(pairs[i][1])) << "pair " << i;
}

// The .u64 forms: 128-bit sums, differences and a * b + c from 64-bit halves.
TEST(ExtendedPrecision, SixtyFourBitLimbs)
{
    const char* add = "\tadd.cc.u64 %dl, %al, %bl;\n\taddc.u64 %dh, %ah, %bh;\n"
                      "\tmov.b64 {%d0, %d1}, %dl;\n\tmov.b64 {%d2, %d3}, %dh;\n";
    const char* sub = "\tsub.cc.u64 %dl, %al, %bl;\n\tsubc.u64 %dh, %ah, %bh;\n"
                      "\tmov.b64 {%d0, %d1}, %dl;\n\tmov.b64 {%d2, %d3}, %dh;\n";
    // a_low * b_low + b_high as a 128-bit number.
    const char* mad = "\tmad.lo.cc.u64 %dl, %al, %bl, %bh;\n\tmadc.hi.u64 %dh, %al, %bl, 0;\n"
                      "\tmov.b64 {%d0, %d1}, %dl;\n\tmov.b64 {%d2, %d3}, %dh;\n";
    const std::vector<std::array<Limbs, 2>> cases = {
        {Limbs{kOnes, kOnes, 0, 0}, Limbs{1, 0, 0, 0}},
        {Limbs{0, 0, 1, 0}, Limbs{1, 0, 0, 0}},
        {Limbs{kOnes, kOnes, 0, 0}, Limbs{kOnes, kOnes, kOnes, kOnes}},
    };
    // (2^64 - 1) + 1 = 2^64; 2^64 - 1 = 0xffffffffffffffff; (2^64 - 1) + (2^128 - 1) wraps to 2^64 - 2.
    EXPECT_EQ(runLimbs(add, cases), (std::vector<Limbs>{Limbs{0, 0, 1, 0}, Limbs{1, 0, 1, 0}, Limbs{0xfffffffeu, kOnes, 0, 0}}));
    // 2^64 - 1 - 1; 2^64 - 1; (2^64 - 1) - (2^128 - 1) wraps to 2^64.
    EXPECT_EQ(runLimbs(sub, cases), (std::vector<Limbs>{Limbs{0xfffffffeu, kOnes, 0, 0}, Limbs{kOnes, kOnes, 0, 0}, Limbs{0, 0, 1, 0}}));
    // (2^64 - 1) * 1 + 0; 0 * 1 + 0; (2^64 - 1)^2 + (2^64 - 1) = 2^128 - 2^64.
    EXPECT_EQ(runLimbs(mad, cases), (std::vector<Limbs>{Limbs{kOnes, kOnes, 0, 0}, Limbs{0, 0, 0, 0}, Limbs{0, 0, kOnes, kOnes}}));

    const auto pairs = randomPairs(10, 256);
    const std::vector<Limbs> sums = runLimbs(add, pairs), differences = runLimbs(sub, pairs), mads = runLimbs(mad, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const UInt128 a = toWide(pairs[i][0]), b = toWide(pairs[i][1]);
        const UInt128 aLow = static_cast<std::uint64_t>(a), bLow = static_cast<std::uint64_t>(b);
        EXPECT_EQ(toWide(sums[i]), a + b) << "pair " << i;
        EXPECT_EQ(toWide(differences[i]), a - b) << "pair " << i;
        EXPECT_EQ(toWide(mads[i]), aLow * bLow + (b >> 64)) << "pair " << i;
    }
}

// The signed types carry as their bit patterns do: -1 + 1 = 0 with a carry out, 1 - 2 borrows,
// -1 - (-2) does not; madc.hi.s32 takes the high half of the signed product.
TEST(ExtendedPrecision, SignedTypesCarryOnTheirBitPatterns)
{
    const std::vector<std::array<Limbs, 2>> one = {{Limbs{}, Limbs{}}};
    // add.cc.s32 -1 + 1 = 0, carry 1; addc.s32 0 + 0 + 1 = 1.
    EXPECT_EQ(runLimbs("\tadd.cc.s32 %d0, -1, 1;\n\taddc.s32 %d1, 0, 0;\n", one), (std::vector<Limbs>{Limbs{0, 1, 0, 0}}));
    // sub.cc.s32 1 - 2 = -1, borrow 1 (0xffffffff); subc.s32 10 - 3 - 1 = 6.
    EXPECT_EQ(runLimbs("\tsub.cc.s32 %d0, 1, 2;\n\tsubc.s32 %d1, 10, 3;\n", one), (std::vector<Limbs>{Limbs{kOnes, 6, 0, 0}}));
    // sub.cc.s32 -1 - (-2) = 1 (0xffffffff - 0xfffffffe), no borrow; subc.s32 10 - 3 - 0 = 7.
    EXPECT_EQ(runLimbs("\tsub.cc.s32 %d0, -1, -2;\n\tsubc.s32 %d1, 10, 3;\n", one), (std::vector<Limbs>{Limbs{1, 7, 0, 0}}));
    // -2 * 3 = -6: high half 0xffffffff. mad.hi.cc.s32 adds 1: 0 with carry 1; madc.hi.cc.s32 adds
    // 1 and that carry: 0xffffffff + 1 + 1 = 1, carry 1; addc.u32 0 + 0 + 1 = 1.
    EXPECT_EQ(runLimbs("\tmad.hi.cc.s32 %d0, -2, 3, 1;\n\tmadc.hi.cc.s32 %d1, -2, 3, 1;\n\taddc.u32 %d2, 0, 0;\n", one),
              (std::vector<Limbs>{Limbs{0, 1, 1, 0}}));
    // The .lo half of -2 * 3 is 0xfffffffa; + 6 = 0 with carry 1; madc.lo.s32 -2 * 3 + 5 + 1 = 0.
    EXPECT_EQ(runLimbs("\tmad.lo.cc.s32 %d0, -2, 3, 6;\n\tmadc.lo.s32 %d1, -2, 3, 5;\n", one),
              (std::vector<Limbs>{Limbs{0, 0, 0, 0}}));
    // .s64: -1 + 1 carries; mad.hi.s64 -1 * 1 = -1 (high half all ones) + 1 = 0, carry 1.
    EXPECT_EQ(runLimbs("\tadd.cc.s64 %dl, -1, 1;\n\taddc.u32 %d2, 0, 0;\n\tmad.hi.cc.s64 %dh, -1, 1, 1;\n"
                       "\taddc.u32 %d3, 0, 0;\n\tmov.b64 {%d0, %d1}, %dl;\n", one),
              (std::vector<Limbs>{Limbs{0, 0, 1, 1}}));
}

// CC.CF belongs to the thread and keeps its value until the next .cc: instructions without .cc,
// comparisons, branches and memory accesses in between leave it alone; a .cc that carries nothing
// clears it.
TEST(ExtendedPrecision, TheCarryFlagPersistsUntilTheNextCc)
{
    const std::vector<std::array<Limbs, 2>> one = {{Limbs{3, 0, 0, 0}, Limbs{4, 0, 0, 0}}};
    const char* body = "\tadd.cc.u32 %r3, -1, 1;\n"          // CF = 1
                       "\tadd.u32 %r4, -1, 1;\n"             // no .cc: CF stays
                       "\tmad.lo.u32 %r4, %a0, %b0, 7;\n"
                       "\tsetp.gt.u32 %p2, %a0, %b0;\n"
                       "\t@%p2 bra SKIP;\n"
                       "\tld.global.u32 %r5, [%rd3];\n"
                       "\tsub.u32 %r4, 0, 1;\n"
                       "SKIP:\n"
                       "\taddc.u32 %d0, 0, 0;\n"              // 1
                       "\taddc.cc.u32 %d1, 1, 2;\n"           // 1 + 2 + 1 = 4, CF = 0
                       "\taddc.u32 %d2, 0, 0;\n"              // 0
                       "\tsub.cc.u32 %r3, 0, 1;\n"            // borrow: CF = 1
                       "\taddc.u32 %d3, 0, 0;\n";             // 1
    EXPECT_EQ(runLimbs(body, one), (std::vector<Limbs>{Limbs{1, 4, 0, 1}}));
}

// Each lane has its own flag, and lanes whose guard is false neither compute nor change theirs.
TEST(ExtendedPrecision, EachLaneHasItsOwnCarry)
{
    // Lane i adds 0xffffffff + (i % 3 == 0): the carry is set in every third lane.
    std::vector<std::array<Limbs, 2>> inputs(32);
    for (std::size_t lane = 0; lane < inputs.size(); ++lane)
        inputs[lane] = {Limbs{kOnes, 0, 0, 0}, Limbs{lane % 3 == 0 ? 1u : 0u, 0, 0, 0}};
    const std::vector<Limbs> own = runLimbs("\tadd.cc.u32 %d0, %a0, %b0;\n\taddc.u32 %d1, 0, 0;\n", inputs);
    for (std::size_t lane = 0; lane < inputs.size(); ++lane) {
        EXPECT_EQ(own[lane][0], lane % 3 == 0 ? 0u : kOnes) << "lane " << lane;
        EXPECT_EQ(own[lane][1], lane % 3 == 0 ? 1u : 0u) << "lane " << lane;
    }
    // Every lane sets CF; the even lanes (%p1) clear it again and write %d0; the odd lanes skip both.
    const std::vector<Limbs> guarded = runLimbs("\tadd.cc.u32 %r3, -1, 1;\n\t@%p1 add.cc.u32 %d0, 5, 6;\n"
                                                "\taddc.u32 %d1, 0, 0;\n", inputs);
    for (std::size_t lane = 0; lane < inputs.size(); ++lane) {
        EXPECT_EQ(guarded[lane][0], lane % 2 == 0 ? 11u : 0u) << "lane " << lane;
        EXPECT_EQ(guarded[lane][1], lane % 2 == 0 ? 0u : 1u) << "lane " << lane;
    }
}

// The forms the PTX ISA defines decode; the ones it does not (other types, .sat, .wide, a madc
// without .hi or .lo, .cc on other instructions) are noted as unsupported rather than guessed at.
TEST(ExtendedPrecision, OnlyTheIsaFormsDecode)
{
    auto unsupportedIn = [](const std::string& instruction) {
        const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                                "\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<4>;\n\t" +
                                instruction + "\n\tret;\n}\n";
        const ptx::Module module = ptx::parseModule(ptx);
        return module.allUnsupported().size();
    };
    for (const char* valid : {"add.cc.u32 %r1, %r2, %r3;", "add.cc.s32 %r1, %r2, %r3;", "add.cc.u64 %rd1, %rd2, %rd3;",
                              "add.cc.s64 %rd1, %rd2, %rd3;", "addc.u32 %r1, %r2, %r3;", "addc.cc.s64 %rd1, %rd2, %rd3;",
                              "sub.cc.u32 %r1, %r2, %r3;", "subc.cc.u64 %rd1, %rd2, %rd3;", "subc.s32 %r1, %r2, %r3;",
                              "mad.lo.cc.u32 %r1, %r2, %r3, %r1;", "mad.hi.cc.s64 %rd1, %rd2, %rd3, %rd1;",
                              "madc.lo.u64 %rd1, %rd2, %rd3, %rd1;", "madc.hi.cc.u32 %r1, %r2, %r3, 0;"})
        EXPECT_EQ(unsupportedIn(valid), 0u) << valid;
    for (const char* invalid : {"add.cc.u16 %h1, %h2, %h3;", "addc.s16 %h1, %h2, %h3;", "add.cc.sat.s32 %r1, %r2, %r3;",
                                "add.cc.f32 %f1, %f2, %f3;", "sub.cc.b32 %r1, %r2, %r3;", "mad.wide.cc.u32 %rd1, %r2, %r3, %rd1;",
                                "madc.u32 %r1, %r2, %r3, %r1;", "mad.cc.u32 %r1, %r2, %r3, %r1;", "mul.lo.cc.u32 %r1, %r2, %r3;",
                                "add.cc.cc.u32 %r1, %r2, %r3;"})
        EXPECT_EQ(unsupportedIn(invalid), 1u) << invalid;
}

// ---- CUDA's double-precision sin, cos, tan -------------------------------------------------------

namespace {

// Distance in units in the last place between two doubles of the same sign (or both zero), by
// their ordered bit patterns; NaNs are equal to each other.
std::uint64_t ulpDistance(double x, double y)
{
    if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) && std::isnan(y) ? 0 : std::numeric_limits<std::uint64_t>::max();
    auto ordered = [](double value) {
        const std::int64_t bits = std::bit_cast<std::int64_t>(value);
        return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
    };
    const std::int64_t a = ordered(x), b = ordered(y);
    return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                 : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
}

} // namespace

// CUDA's sin, cos and tan reduce |x| >= 2^31 with a Payne-Hanek reduction
// (__internal_trig_reduction_slowpathd) whose 128-bit products and sums are mad.lo.cc, madc.hi,
// add.cc, addc, sub.cc and subc. The CUDA C++ Programming Guide ("Mathematical Functions", the
// double-precision table) bounds sin(x), cos(x) and tan(x) at 2 ulp over the full range: the
// simulator's results must be within 2 ulp of the correctly rounded values below (worked out with
// 2300-bit arithmetic, mpmath), and within 3 ulp of glibc's std::sin, cos and tan (1 ulp of their
// own) on hundreds of other inputs. glibc is not used near a multiple of pi/2 at a huge magnitude:
// on Kahan and McDonald's hard case, 6381956970095103 * 2^797, its cos is 8 ulp and its tan 14 ulp
// from the correctly rounded value, which CUDA's reduction gets exactly.
TEST(ExtendedPrecision, CudaDoubleTrigonometryMatchesTheHostLibrary)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void trig(const double* x, double* s, double* c, double* t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[i] = sin(x[i]);
        c[i] = cos(x[i]);
        t[i] = tan(x[i]);
    }
}
)", "trig");
    ASSERT_TRUE(kernel.module->unsupportedFor(*kernel.function).empty()); // what `compile --check` lists

    struct Reference {
        double x, sin, cos, tan; // correctly rounded
    };
    const std::vector<Reference> references = {
        {4e6, -0x1.faf3b3a27faf1p-1, 0x1.1ee0f022432c4p-3, -0x1.c462a5918b048p+2},
        {1e10, -0x1.f334c7896a4e3p-2, 0x1.bf098901c931ap-1, -0x1.1de000f443f50p-1},
        {1e22, -0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1, -0x1.a0f79c1b6b257p+0},
        {1e300, -0x1.a2c16b010e385p-1, -0x1.2699022adc4c1p-1, 0x1.6be411f37ac77p+0},
        {0x1.fffffffffffffp+1023, 0x1.452fc98b34e97p-8, -0x1.fffe62ecfab75p-1, -0x1.4530cfe729484p-8},
        {6381956970095103.0 * 0x1p797, 0x1.0000000000000p+0, -0x1.14ae72e6ba22fp-61, -0x1.d9ba9a7975636p+60},
    };
    std::vector<double> inputs;
    for (const Reference& reference : references)
        inputs.push_back(reference.x);
    const std::size_t checkedAgainstStd = inputs.size(); // the inputs from here on are compared with std::
    for (double x : {0.0, -0.0, 1e-300, 5e-324, 0.5, 1.0, -1.0, 3.0, 1.5707963267948966, 3.141592653589793,
                     6.283185307179586, 100.0, 1e5, 1e6, 0x1p31, -0x1p31, 12345678.9, 1e15, 1e16, -1e22, 1e100, 1e200,
                     -0x1.fffffffffffffp+1023, 0x1.921fb54442d18p+0 * 1024, 0x1.921fb54442d18p+20 * 3})
        inputs.push_back(x);
    std::mt19937_64 random(2024);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-30, 1023);
    for (int i = 0; i < 200; ++i)
        inputs.push_back(unit(random) * 8.0); // the fast path's polynomial range
    for (int i = 0; i < 500; ++i)
        inputs.push_back(std::ldexp(unit(random), exponent(random))); // every binade, most on the slow path
    for (int k = 1; k <= 100; ++k)
        inputs.push_back(std::nextafter(k * 1.5707963267948966 * 12345.0, 0.0));
    const std::size_t n = inputs.size();

    sim::ResolvedArg count;
    count.name = "n";
    count.scalarBits = n;
    count.integerValue = static_cast<std::int64_t>(n);
    const std::vector<double> zeros(n, 0.0);
    const sim::SimResult result = simulateWithArgs(
        kernel, {static_cast<std::int64_t>((n + 127) / 128), 1, 1}, {128, 1, 1},
        {bufferArg("x", sim::ElementType::F64, inputs), bufferArg("s", sim::ElementType::F64, zeros),
         bufferArg("c", sim::ElementType::F64, zeros), bufferArg("t", sim::ElementType::F64, zeros), count});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;

    // The slow path ran: its carry instructions executed.
    std::uint64_t carryExecutions = 0;
    for (std::size_t i = 0; i < kernel.function->instructions.size(); ++i) {
        const ptx::Instruction& instruction = kernel.function->instructions[i];
        if (instruction.carryIn || instruction.carryOut)
            carryExecutions += result.stats.perInstruction[i].threadExecutions;
    }
    EXPECT_GT(carryExecutions, 1000u);

    const std::vector<double> s = bufferValues<double>(result, "s"), c = bufferValues<double>(result, "c"),
                              t = bufferValues<double>(result, "t");
    for (std::size_t i = 0; i < references.size(); ++i) {
        const Reference& reference = references[i];
        EXPECT_LE(ulpDistance(s[i], reference.sin), 2u) << std::hexfloat << "sin(" << reference.x << ") = " << s[i];
        EXPECT_LE(ulpDistance(c[i], reference.cos), 2u) << std::hexfloat << "cos(" << reference.x << ") = " << c[i];
        EXPECT_LE(ulpDistance(t[i], reference.tan), 2u) << std::hexfloat << "tan(" << reference.x << ") = " << t[i];
    }
    std::uint64_t worst = 0;
    for (std::size_t i = checkedAgainstStd; i < n; ++i) {
        const double x = inputs[i];
        for (auto [got, expected, name] : {std::tuple{s[i], std::sin(x), "sin"}, std::tuple{c[i], std::cos(x), "cos"},
                                           std::tuple{t[i], std::tan(x), "tan"}}) {
            const std::uint64_t distance = ulpDistance(got, expected);
            worst = std::max(worst, distance);
            EXPECT_LE(distance, 3u) << name << "(" << std::hexfloat << x << ") = " << got << ", std: " << expected;
        }
    }
    // Exact cases: sin(+-0) = +-0 with its sign, cos(0) = 1.
    EXPECT_EQ(std::bit_cast<std::uint64_t>(s[checkedAgainstStd]), 0u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(s[checkedAgainstStd + 1]), std::bit_cast<std::uint64_t>(-0.0));
    EXPECT_EQ(c[checkedAgainstStd], 1.0);
    RecordProperty("worst_ulp", static_cast<int>(worst));
}

// Infinities and NaN give NaN (C's sin(inf) is a domain error); the kernel still completes.
TEST(ExtendedPrecision, CudaDoubleTrigonometryOfNonFiniteIsNaN)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void trig(const double* x, double* s, double* c)
{
    s[threadIdx.x] = sin(x[threadIdx.x]);
    c[threadIdx.x] = cos(x[threadIdx.x]);
}
)", "trig");
    const std::vector<double> inputs = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::quiet_NaN()};
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {3, 1, 1},
                                                   {bufferArg("x", sim::ElementType::F64, inputs),
                                                    bufferArg("s", sim::ElementType::F64, std::vector<double>(3, 0.0)),
                                                    bufferArg("c", sim::ElementType::F64, std::vector<double>(3, 0.0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (double value : bufferValues<double>(result, "s"))
        EXPECT_TRUE(std::isnan(value));
    for (double value : bufferValues<double>(result, "c"))
        EXPECT_TRUE(std::isnan(value));
}

// ---- atom/red.add.noftz on half precision ---------------------------------------------------------

namespace {

// One thread per element: memory[i] starts at initial[i]; thread i runs
// `atom.global.add.noftz.TYPE old, [memory + i], addend[i]` (or the red form, which returns nothing)
// and stores what the atom returned. 16-bit types in .b16 registers, the pairs in .b32 ones.
struct HalfAtomicRun {
    std::vector<std::uint32_t> memory, old;
};

HalfAtomicRun runHalfAtomic(const std::string& type, bool reduction, const std::vector<std::uint32_t>& initial,
                            const std::vector<std::uint32_t>& addends)
{
    const bool pair = type.ends_with("x2");
    const std::string reg = pair ? "%r" : "%rs", width = pair ? "4" : "2", bits = pair ? "b32" : "b16";
    const std::string operation = reduction ? "\tred.global.add.noftz." + type + " [%rd5], " + reg + "1;\n"
                                            : "\tatom.global.add.noftz." + type + " " + reg + "2, [%rd5], " + reg + "1;\n";
    const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry t(.param .u64 memory, .param .u64 addend, .param .u64 old)\n{\n"
                            "\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<12>;\n"
                            "\tld.param.u64 %rd1, [memory];\n\tld.param.u64 %rd2, [addend];\n\tld.param.u64 %rd3, [old];\n"
                            "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n"
                            "\tmov.u32 %r3, %tid.x;\n\tmul.wide.u32 %rd4, %r3, " + width + ";\n"
                            "\tadd.s64 %rd5, %rd1, %rd4;\n\tadd.s64 %rd6, %rd2, %rd4;\n\tadd.s64 %rd7, %rd3, %rd4;\n"
                            "\tld.global." + bits + " " + reg + "1, [%rd6];\n\tmov." + bits + " " + reg + "2, 0;\n" + operation +
                            "\tst.global." + bits + " [%rd7], " + reg + "2;\n\tret;\n}\n";
    const CompiledKernel kernel = parsePtxKernel(ptx, "t");
    EXPECT_TRUE(kernel.module->allUnsupported().empty()) << type;
    auto buffer = [&](const std::string& name, const std::vector<std::uint32_t>& values) {
        if (pair)
            return bufferArg(name, sim::ElementType::U32, values);
        std::vector<std::uint16_t> halves(values.begin(), values.end());
        return bufferArg(name, sim::ElementType::U16, halves);
    };
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {static_cast<std::int64_t>(initial.size()), 1, 1},
                         {buffer("memory", initial), buffer("addend", addends),
                          buffer("old", std::vector<std::uint32_t>(initial.size(), 0xdeadu))});
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    HalfAtomicRun run;
    if (pair) {
        run.memory = bufferValues<std::uint32_t>(result, "memory");
        run.old = bufferValues<std::uint32_t>(result, "old");
    } else {
        for (std::uint16_t value : bufferValues<std::uint16_t>(result, "memory"))
            run.memory.push_back(value);
        for (std::uint16_t value : bufferValues<std::uint16_t>(result, "old"))
            run.old.push_back(value);
    }
    return run;
}

struct HalfSum {
    std::uint32_t a, b, sum; // bit patterns
    const char* why;
};

void checkHalfSums(const std::string& type, const std::vector<HalfSum>& sums)
{
    std::vector<std::uint32_t> initial, addends;
    for (const HalfSum& s : sums) {
        initial.push_back(s.a);
        addends.push_back(s.b);
    }
    for (bool reduction : {false, true}) {
        const HalfAtomicRun run = runHalfAtomic(type, reduction, initial, addends);
        for (std::size_t i = 0; i < sums.size(); ++i) {
            EXPECT_EQ(run.memory[i], sums[i].sum) << (reduction ? "red." : "atom.") << type << ": " << sums[i].why;
            if (!reduction)
                EXPECT_EQ(run.old[i], sums[i].a) << "atom." << type << " returns the old value: " << sums[i].why;
        }
    }
}

} // namespace

// PTX ISA, atom and red: .add.noftz on .f16 rounds to nearest even and keeps subnormal inputs and
// results. Bit patterns worked out by hand (binary16: sign, 5 exponent bits biased by 15, 10
// fraction bits).
TEST(HalfAtomics, F16AddRoundsToNearestEvenWithoutFlushing)
{
    checkHalfSums("f16", {
        {0x3c00, 0x4000, 0x4200, "1 + 2 = 3"},
        {0x3c00, 0x1000, 0x3c00, "1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even, 1"},
        {0x3c01, 0x1000, 0x3c02, "(1 + 2^-10) + 2^-11 is a tie: to even, 1 + 2^-9"},
        {0x3c00, 0x1200, 0x3c01, "1 + 1.5 * 2^-11 is past the tie: up"},
        {0x3c00, 0xbc00, 0x0000, "1 + -1 = +0"},
        {0x8000, 0x8000, 0x8000, "-0 + -0 = -0"},
        {0x0001, 0x0001, 0x0002, "2^-24 + 2^-24: subnormals kept (.noftz)"},
        {0x0200, 0x0200, 0x0400, "2^-15 + 2^-15 = 2^-14, the smallest normal"},
        {0x7bff, 0x4800, 0x7bff, "65504 + 8 = 65512 rounds back to 65504"},
        {0x7bff, 0x4c00, 0x7c00, "65504 + 16 = 65520, the tie with 2^16: to even, infinity"},
        {0x7bff, 0x7bff, 0x7c00, "65504 + 65504 overflows to infinity"},
        {0xfbff, 0xfbff, 0xfc00, "-65504 + -65504 overflows to -infinity"},
        {0x7c00, 0x3c00, 0x7c00, "inf + 1 = inf"},
        {0x7c00, 0xfc00, 0x7fff, "inf + -inf is NaN, the canonical 0x7fff"},
        {0x7e00, 0x3c00, 0x7fff, "NaN + 1 is the canonical NaN"},
    });
}

// bfloat16: sign, 8 exponent bits biased by 127, 7 fraction bits.
TEST(HalfAtomics, Bf16AddRoundsToNearestEvenWithoutFlushing)
{
    checkHalfSums("bf16", {
        {0x3f80, 0x4000, 0x4040, "1 + 2 = 3"},
        {0x3f80, 0x3b80, 0x3f80, "1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even, 1"},
        {0x3f81, 0x3b80, 0x3f82, "(1 + 2^-7) + 2^-8 is a tie: to even, 1 + 2^-6"},
        {0x0001, 0x0001, 0x0002, "2^-133 + 2^-133: subnormals kept (.noftz)"},
        {0x7f7f, 0x7a80, 0x7f7f, "the largest finite + 2^118 (a quarter ulp) stays"},
        {0x7f7f, 0x7b00, 0x7f80, "the largest finite + 2^119 (half an ulp) ties to even: infinity"},
        {0x7f7f, 0x7f7f, 0x7f80, "the largest finite doubled overflows to infinity"},
        {0x7f80, 0xff80, 0x7fff, "inf + -inf is the canonical NaN"},
        {0x7fc0, 0x3f80, 0x7fff, "NaN + 1 is the canonical NaN"},
    });
}

// The pairs add element by element, the low half (element 0) and the high half independently.
TEST(HalfAtomics, PairsAddEachHalfOnItsOwn)
{
    checkHalfSums("f16x2", {
        {0x7bff3c00, 0x7bff4000, 0x7c004200, "(1, 65504) + (2, 65504) = (3, inf)"},
        {0x00013c00, 0x00011000, 0x00023c00, "(1, 2^-24) + (2^-11, 2^-24) = (1, 2^-23)"},
        {0x7e00bc00, 0x3c003c00, 0x7fff0000, "(-1, NaN) + (1, 1) = (+0, NaN)"},
    });
    checkHalfSums("bf16x2", {
        {0x7f7f3f80, 0x7f7f4000, 0x7f804040, "(1, max) + (2, max) = (3, inf)"},
        {0x3f813f80, 0x3b803b80, 0x3f823f80, "two ties, to even: (1, 1 + 2^-6)"},
    });
}

// Many threads adding 1.0 to one .f16: exact up to 2048, where the spacing becomes 2 and
// 2048 + 1 ties back to 2048 (to even), whatever the order; every thread gets a distinct old value
// below 2048 or 2048 itself.
TEST(HalfAtomics, ContendedF16SumStopsAt2048)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <cuda_fp16.h>
extern "C" __global__ void count(__half* total, __half* old)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    old[i] = atomicAdd(total, __float2half(1.0f));
}
)", "count");
    ASSERT_TRUE(kernel.module->unsupportedFor(*kernel.function).empty());
    const int threads = 4096;
    const sim::SimResult result = simulateWithArgs(kernel, {threads / 256, 1, 1}, {256, 1, 1},
                                                   {bufferArg("total", sim::ElementType::U16, std::vector<std::uint16_t>{0}),
                                                    bufferArg("old", sim::ElementType::U16, std::vector<std::uint16_t>(threads, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_EQ(bufferValues<std::uint16_t>(result, "total")[0], 0x6800u); // 2048
    std::vector<int> seen(2049, 0);
    for (std::uint16_t bits : bufferValues<std::uint16_t>(result, "old")) {
        // Integers 0..2048 as binary16: exact, so the value is the count of earlier additions.
        const int exponent = bits >> 10, fraction = bits & 0x3ff;
        const double value = exponent == 0 ? fraction * 0x1p-24 : std::ldexp(1024 + fraction, exponent - 25);
        ASSERT_TRUE(value >= 0 && value <= 2048 && value == std::floor(value)) << std::hex << bits;
        seen[static_cast<std::size_t>(value)] += 1;
    }
    for (int value = 0; value < 2048; ++value)
        EXPECT_EQ(seen[static_cast<std::size_t>(value)], 1) << value;
    EXPECT_EQ(seen[2048], threads - 2048);
}

// What atomicAdd(__half2*), atomicAdd(__half*) (compute_75 on) and atomicAdd(__nv_bfloat162*),
// atomicAdd(__nv_bfloat16*) (compute_90; a compare-and-swap loop before) compile to, in global and
// shared memory, against sums worked out by hand: 256 threads over 4 slots, 64 additions each.
TEST(HalfAtomics, CudaAtomicAddOnHalfTypes)
{
    const char* source = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void add(__half2* h2, __half* h, __nv_bfloat162* b2, __nv_bfloat16* b, __half2* shared2)
{
    __shared__ __half2 slots[4];
    const int slot = threadIdx.x % 4;
    if (threadIdx.x < 4)
        slots[threadIdx.x] = __floats2half2_rn(0.0f, 0.0f);
    __syncthreads();
    atomicAdd(h2 + slot, __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(h + slot, __float2half(0.25f));
    atomicAdd(b2 + slot, __floats2bfloat162_rn(2.0f, -1.0f));
    atomicAdd(b + slot, __float2bfloat16(0.125f));
    atomicAdd(slots + slot, __floats2half2_rn(-1.0f, 4.0f));
    __syncthreads();
    if (threadIdx.x < 4)
        shared2[threadIdx.x] = slots[threadIdx.x];
}
)";
    for (const char* arch : {"compute_75", "compute_80", "compute_90"}) {
        const CompiledKernel kernel = compileKernel(source, "add", arch);
        ASSERT_TRUE(kernel.module->unsupportedFor(*kernel.function).empty()) << arch;
        const std::vector<std::uint32_t> zeros32(4, 0);
        const std::vector<std::uint16_t> zeros16(4, 0);
        const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {256, 1, 1},
                                                       {bufferArg("h2", sim::ElementType::U32, zeros32),
                                                        bufferArg("h", sim::ElementType::U16, zeros16),
                                                        bufferArg("b2", sim::ElementType::U32, zeros32),
                                                        bufferArg("b", sim::ElementType::U16, zeros16),
                                                        bufferArg("shared2", sim::ElementType::U32, zeros32)});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << arch << ": " << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << arch << ": " << hazard.message;
        // 64 x (1, 0.5) = (64, 32): f16 0x5400, 0x5000. 64 x 0.25 = 16: 0x4c00.
        // 64 x (2, -1) = (128, -64): bf16 0x4300, 0xc280. 64 x 0.125 = 8: 0x4100.
        // 64 x (-1, 4) = (-64, 256): f16 0xd400, 0x5c00.
        for (int slot = 0; slot < 4; ++slot) {
            EXPECT_EQ(bufferValues<std::uint32_t>(result, "h2")[slot], 0x50005400u) << arch;
            EXPECT_EQ(bufferValues<std::uint16_t>(result, "h")[slot], 0x4c00u) << arch;
            EXPECT_EQ(bufferValues<std::uint32_t>(result, "b2")[slot], 0xc2804300u) << arch;
            EXPECT_EQ(bufferValues<std::uint16_t>(result, "b")[slot], 0x4100u) << arch;
            EXPECT_EQ(bufferValues<std::uint32_t>(result, "shared2")[slot], 0x5c00d400u) << arch;
        }
    }
}

// .noftz belongs to the half types' add; the half types take no other atomic operation here.
TEST(HalfAtomics, OnlyTheIsaFormsDecode)
{
    auto unsupportedIn = [](const std::string& instruction) {
        const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                                "\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t" +
                                instruction + "\n\tret;\n}\n";
        return ptx::parseModule(ptx).allUnsupported().size();
    };
    for (const char* valid : {"atom.global.add.noftz.f16 %h1, [%rd1], %h2;", "atom.shared.add.noftz.f16x2 %r1, [%rd1], %r2;",
                              "atom.add.noftz.bf16 %h1, [%rd1], %h2;", "atom.global.relaxed.gpu.add.noftz.bf16x2 %r1, [%rd1], %r2;",
                              "red.global.add.noftz.f16 [%rd1], %h2;", "red.shared.add.noftz.bf16x2 [%rd1], %r2;"})
        EXPECT_EQ(unsupportedIn(valid), 0u) << valid;
    for (const char* invalid : {"atom.global.add.f16 %h1, [%rd1], %h2;", "atom.global.add.noftz.f32 %r1, [%rd1], %r2;",
                                "atom.global.max.noftz.f16 %h1, [%rd1], %h2;", "atom.global.exch.f16 %h1, [%rd1], %h2;",
                                "red.global.add.f16x2 [%rd1], %r2;", "atom.global.add.noftz.noftz.f16 %h1, [%rd1], %h2;"})
        EXPECT_EQ(unsupportedIn(invalid), 1u) << invalid;
}
