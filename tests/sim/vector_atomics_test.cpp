// Vector atomics (PTX ISA, "atom" and "red" with .v2/.v4, sm_90): CUDA's atomicAdd on float2 and
// float4 and the hand-written half forms, against sums worked out by hand; each element is its own
// atomic and returns its own old value. Which forms decode, which are refused as valid PTX the
// simulator does not run, and which are not PTX at all.
#include "sim_test_support.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

std::size_t unsupportedIn(const std::string& instruction)
{
    const std::string ptx = ".version 8.1\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                            "\t.reg .b16 %h<8>;\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<4>;\n\t" +
                            instruction + "\n\tret;\n}\n";
    return ptx::parseModule(ptx).allUnsupported().size();
}

} // namespace

// atomicAdd(float2*) and atomicAdd(float4*) at compute_90 compile to atom.global.add.v2.f32 and
// .v4.f32. 256 threads over 4 slots, 64 additions each: (1, 2) sums to (64, 128) and
// (0.5, -1, 3, 0.25) to (32, -64, 192, 16), all exact in f32. Each element is atomic on its own, so
// a slot's 64 threads see the old values 0, 1, ..., 63 additions in some order, per element.
TEST(VectorAtomics, CudaAtomicAddOnFloat2AndFloat4)
{
    const CompiledKernel kernel = compileKernel(R"(
extern "C" __global__ void add(float2* pairs, float4* quads, float2* oldPairs, float4* oldQuads)
{
    const int slot = threadIdx.x % 4;
    oldPairs[threadIdx.x] = atomicAdd(pairs + slot, make_float2(1.0f, 2.0f));
    oldQuads[threadIdx.x] = atomicAdd(quads + slot, make_float4(0.5f, -1.0f, 3.0f, 0.25f));
}
)", "add", "compute_90");
    ASSERT_TRUE(kernel.module->unsupportedFor(*kernel.function).empty())
        << ptx::describeUnsupported(*kernel.module, *kernel.module->allUnsupported()[0]);
    bool vectorAtom = false;
    for (const ptx::Instruction& in : kernel.function->instructions)
        vectorAtom = vectorAtom || (in.op == ptx::Op::Atom && in.vectorWidth == 4 && in.type == ptx::Type::F32);
    EXPECT_TRUE(vectorAtom) << "NVRTC no longer emits atom.global.add.v4.f32 here";
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {256, 1, 1},
                                                   {bufferArg("pairs", sim::ElementType::F32, std::vector<float>(8, 0.0f)),
                                                    bufferArg("quads", sim::ElementType::F32, std::vector<float>(16, 0.0f)),
                                                    bufferArg("oldPairs", sim::ElementType::F32, std::vector<float>(512, -7.0f)),
                                                    bufferArg("oldQuads", sim::ElementType::F32, std::vector<float>(1024, -7.0f))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    // Per element of a slot: the sum, and the 64 old values divided by the step are 0..63 in some order.
    const auto check = [&](const std::string& sums, const std::string& olds, const std::vector<float>& step,
                           const std::vector<float>& sum) {
        const std::size_t width = step.size();
        const std::vector<float> totals = bufferValues<float>(result, sums), old = bufferValues<float>(result, olds);
        for (std::size_t slot = 0; slot < 4; ++slot)
            for (std::size_t e = 0; e < width; ++e) {
                EXPECT_EQ(totals[slot * width + e], sum[e]) << sums << " slot " << slot << " element " << e;
                std::vector<float> seen;
                for (std::size_t t = slot; t < 256; t += 4)
                    seen.push_back(old[t * width + e] / step[e]);
                std::sort(seen.begin(), seen.end());
                for (std::size_t k = 0; k < 64; ++k)
                    EXPECT_EQ(seen[k], static_cast<float>(k)) << olds << " slot " << slot << " element " << e;
            }
    };
    check("pairs", "oldPairs", {1.0f, 2.0f}, {64.0f, 128.0f});
    check("quads", "oldQuads", {0.5f, -1.0f, 3.0f, 0.25f}, {32.0f, -64.0f, 192.0f, 16.0f});
}

// The 16-bit forms with .noftz, element by element, rounding to nearest even: one thread, f16
// {1, 1 + 2^-10} + {2^-11, 2^-11} = {1, 1 + 2^-9} (two ties, to even), bf16x2 pairs added half by
// half, and red.v2.f32, which returns nothing. Old values come back in the destination vector.
TEST(VectorAtomics, HalfFormsAddElementByElement)
{
    const std::string ptx = ".version 8.1\n.target sm_90\n.address_size 64\n"
                            ".visible .entry t(.param .u64 h, .param .u64 b, .param .u64 f, .param .u64 old)\n{\n"
                            "\t.reg .b16 %h<8>;\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n"
                            "\tld.param.u64 %rd1, [h];\n\tld.param.u64 %rd2, [b];\n\tld.param.u64 %rd3, [f];\n"
                            "\tld.param.u64 %rd4, [old];\n"
                            "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                            "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
                            "\tmov.b16 %h3, 0x1000;\n"
                            "\tatom.global.add.noftz.v2.f16 {%h1, %h2}, [%rd1], {%h3, %h3};\n"
                            "\tmov.b32 %r3, 0x3b803b80;\n\tmov.b32 %r4, 0x3f803f80;\n"
                            "\tatom.global.v2.bf16x2.add.noftz {%r1, %r2}, [%rd2], {%r3, %r4};\n"
                            "\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f2, 0fC0000000;\n"
                            "\tred.global.add.v2.f32 [%rd3], {%f1, %f2};\n"
                            "\tst.global.v2.b16 [%rd4], {%h1, %h2};\n\tst.global.b32 [%rd4+4], %r1;\n\tst.global.b32 [%rd4+8], %r2;\n"
                            "\tret;\n}\n";
    const CompiledKernel kernel = parsePtxKernel(ptx, "t");
    ASSERT_TRUE(kernel.module->allUnsupported().empty())
        << ptx::describeUnsupported(*kernel.module, *kernel.module->allUnsupported()[0]);
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {1, 1, 1},
                         {bufferArg("h", sim::ElementType::U16, std::vector<std::uint16_t>{0x3c00, 0x3c01}),
                          bufferArg("b", sim::ElementType::U32, std::vector<std::uint32_t>{0x3f813f80, 0x40003f80}),
                          bufferArg("f", sim::ElementType::F32, std::vector<float>{10.0f, 10.0f}),
                          bufferArg("old", sim::ElementType::U16, std::vector<std::uint16_t>(6, 0xdead))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    EXPECT_EQ(bufferValues<std::uint16_t>(result, "h"), (std::vector<std::uint16_t>{0x3c00, 0x3c02}));
    // bf16x2 element 0: (1, 1 + 2^-7) + (2^-8, 2^-8) = (1, 1 + 2^-6), two ties to even; element 1:
    // (1, 2) + (1, 1) = (2, 3).
    EXPECT_EQ(bufferValues<std::uint32_t>(result, "b"), (std::vector<std::uint32_t>{0x3f823f80, 0x40404000}));
    EXPECT_EQ(bufferValues<float>(result, "f"), (std::vector<float>{11.0f, 8.0f}));
    EXPECT_EQ(bufferValues<std::uint16_t>(result, "old"),
              (std::vector<std::uint16_t>{0x3c00, 0x3c01, 0x3f80, 0x3f81, 0x3f80, 0x4000}));
}

// A vector atomic's address must be aligned to the whole vector: a .v4.f32 at a multiple of 8 that
// is not a multiple of 16 is a misaligned access (the GPU raises an error).
TEST(VectorAtomics, MisalignedVectorIsAHazard)
{
    const std::string ptx = ".version 8.1\n.target sm_90\n.address_size 64\n.visible .entry t(.param .u64 f)\n{\n"
                            "\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n"
                            "\tld.param.u64 %rd1, [f];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.f32 %f1, 0f3F800000;\n"
                            "\tred.global.add.v4.f32 [%rd1+8], {%f1, %f1, %f1, %f1};\n\tret;\n}\n";
    const CompiledKernel kernel = parsePtxKernel(ptx, "t");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {1, 1, 1},
                                                   {bufferArg("f", sim::ElementType::F32, std::vector<float>(8, 0.0f))});
    ASSERT_FALSE(result.hazards.empty());
    EXPECT_EQ(result.hazards[0].kind, sim::HazardKind::MisalignedAccess);
    EXPECT_NE(result.hazards[0].message.find("16-byte access"), std::string::npos) << result.hazards[0].message;
}

// The ISA's vector forms: .add on .global, .v2/.v4 of .f32, or .noftz with the 16-bit types. The
// ISA's other vector forms (.min/.max on the 16-bit types, .v8) and anything outside the ISA
// (shared or generic addresses, integers, other operations, .f16 without .noftz) are refused as
// constructs the simulator does not run; a scalar where the vector goes is not PTX.
TEST(VectorAtomics, OnlyTheIsaFormsDecode)
{
    for (const char* valid : {"atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                              "atom.global.relaxed.gpu.add.v4.f32 {%f1, %f2, _, %f4}, [%rd1], {%f3, %f4, %f5, %f6};",
                              "red.global.add.v4.f32 [%rd1], {%f3, %f4, %f5, %f6};",
                              "atom.global.add.noftz.v4.f16 {%h1, %h2, %h3, %h4}, [%rd1], {%h5, %h6, %h7, %h1};",
                              "red.global.add.noftz.v2.bf16 [%rd1], {%h5, %h6};",
                              "atom.global.add.noftz.v2.f16x2 {%r1, %r2}, [%rd1], {%r3, %r4};"})
        EXPECT_EQ(unsupportedIn(valid), 0u) << valid;
    for (const char* invalid : {"atom.shared.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                                "atom.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                                "atom.global.max.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                                "atom.global.add.v2.u32 {%r1, %r2}, [%rd1], {%r3, %r4};",
                                "atom.global.add.v2.f16 {%h1, %h2}, [%rd1], {%h3, %h4};",
                                "atom.global.max.noftz.v2.f16 {%h1, %h2}, [%rd1], {%h3, %h4};",
                                "atom.global.add.v8.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                                "atom.global.add.v2.v4.f32 {%f1, %f2}, [%rd1], {%f3, %f4};"})
        EXPECT_EQ(unsupportedIn(invalid), 1u) << invalid;
    for (const char* malformed : {"atom.global.add.v2.f32 %f1, [%rd1], {%f3, %f4};",
                                  "atom.global.add.v4.f32 {%f1, %f2}, [%rd1], {%f3, %f4};",
                                  "red.global.add.v2.f32 [%rd1], {%f3, _};",
                                  "atom.global.add.v2.f32 {%f1, 5}, [%rd1], {%f3, %f4};"})
        EXPECT_THROW(unsupportedIn(malformed), ptx::PtxError) << malformed;
}
