// A PTX harness for instruction tests: each thread loads four 32-bit inputs, runs a body of PTX and
// stores one result. Shared by the instruction tests.
#pragma once

#include "sim_test_support.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::testing_support {

// One thread per group of four 32-bit inputs: %r10..%r13 (also as floats %f10..%f13 and, paired,
// as doubles %fd10/%fd11 from %r10:%r11 and %r12:%r13); the body leaves the result in %r3 (or in
// %rd3 for 64-bit results). %r1 is the thread index.
inline std::string harness(const std::string& body, bool wide)
{
    return std::string(".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry t(.param .u64 in, .param .u64 out)\n{\n"
                       "\t.reg .pred %p<8>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<32>;\n\t.reg .f32 %f<32>;\n"
                       "\t.reg .b64 %rd<32>;\n\t.reg .f64 %fd<32>;\n"
                       "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
                       "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                       "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd4, %r1, 16;\n\tadd.s64 %rd4, %rd1, %rd4;\n"
                       "\tld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%rd4];\n"
                       "\tmov.b32 %f10, %r10;\n\tmov.b32 %f11, %r11;\n\tmov.b32 %f12, %r12;\n\tmov.b32 %f13, %r13;\n"
                       "\tmov.b64 %fd10, {%r10, %r11};\n\tmov.b64 %fd11, {%r12, %r13};\n"
                       "\tmov.u32 %r3, 0;\n\tmov.u64 %rd3, 0;\n") +
           body +
           (wide ? "\tmul.wide.u32 %rd5, %r1, 8;\n\tadd.s64 %rd5, %rd2, %rd5;\n\tst.global.b64 [%rd5], %rd3;\n"
                 : "\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd5, %rd2, %rd5;\n\tst.global.b32 [%rd5], %r3;\n") +
           "\tret;\n}\n";
}

struct Inputs {
    std::uint32_t a = 0, b = 0, c = 0, d = 0;
};

inline std::vector<std::uint64_t> runHarness(const std::string& body, const std::vector<Inputs>& inputs, bool wide,
                                      sim::SimResult* resultOut = nullptr)
{
    const CompiledKernel kernel = parsePtxKernel(harness(body, wide), "t");
    std::vector<std::uint32_t> words;
    for (const Inputs& in : inputs)
        words.insert(words.end(), {in.a, in.b, in.c, in.d});
    std::vector<sim::ResolvedArg> args{bufferArg("in", sim::ElementType::U32, words)};
    if (wide)
        args.push_back(bufferArg("out", sim::ElementType::U64, std::vector<std::uint64_t>(inputs.size(), 0xdeadbeefu)));
    else
        args.push_back(bufferArg("out", sim::ElementType::U32, std::vector<std::uint32_t>(inputs.size(), 0xdeadbeefu)));
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {static_cast<std::int64_t>(inputs.size()), 1, 1}, std::move(args));
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    std::vector<std::uint64_t> out;
    if (wide) {
        out = bufferValues<std::uint64_t>(result, "out");
    } else {
        for (std::uint32_t value : bufferValues<std::uint32_t>(result, "out"))
            out.push_back(value);
    }
    if (resultOut)
        *resultOut = result;
    return out;
}

// The 32-bit result of `body` for each input.
inline std::vector<std::uint32_t> run32(const std::string& body, const std::vector<Inputs>& inputs)
{
    std::vector<std::uint32_t> out;
    for (std::uint64_t value : runHarness(body, inputs, false))
        out.push_back(static_cast<std::uint32_t>(value));
    return out;
}

} // namespace warpscope::testing_support
