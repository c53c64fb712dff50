// Tensor Core instructions (issue 15): mma.sync's fragments checked element by element against the
// PTX ISA's figures ("Matrix Fragments for mma.m16n8k16 with floating point type", "... mma.m16n8k8"),
// the indices worked out here from the figures, not taken from the simulator; ldmatrix against its
// description; WMMA GEMMs compiled by NVRTC from mma.h against CPU references; and the forms left
// out still noted as unsupported.
//
// Sections: a one-mma kernel that packs fragments by the figures (the figures themselves are in
// tensor_core_test_support.h); f16 mma (figures, CPU GEMM); ldmatrix; f16 wmma from mma.h (row- and
// column-major, shared memory, half accumulators); forms left out and bad input. bf16 and
// f16-accumulator mma.sync, .satfinite, f64 WMMA and the hazards of fragment accesses are in
// tensor_core_precision_test.cpp.
#include "sim_test_support.h"
#include "tensor_core_test_support.h"

#include "ptx/ptx_error.h"
#include "sim/float_math.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;
using namespace warpscope::tensor_core_test;

namespace {

using sim::HalfFormat;

std::uint16_t half(double value) { return sim::halfFromDouble(value, HalfFormat::F16, sim::RoundingDirection::NearestEven); }
double value(std::uint16_t bits) { return sim::halfToDouble(bits, HalfFormat::F16); }

// One mma.sync per warp: each lane loads its fragment registers from a, b, c (laid out by lane) and
// stores its D registers to d.
std::string mmaKernel(int k)
{
    const bool k16 = k == 16;
    const std::string aRegs = k16 ? "{%r10, %r11, %r12, %r13}" : "{%r10, %r11}";
    const std::string bRegs = k16 ? "{%r14, %r15}" : "{%r14}";
    return std::string(".version 8.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry mma(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n{\n"
                       "\t.reg .b32 %r<32>;\n\t.reg .f32 %f<16>;\n\t.reg .b64 %rd<16>;\n"
                       "\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [b];\n\tld.param.u64 %rd3, [c];\n\tld.param.u64 %rd4, [d];\n"
                       "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                       "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
                       "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd5, %r1, 16;\n") +
           (k16 ? "\tadd.s64 %rd6, %rd1, %rd5;\n\tld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%rd6];\n"
                  "\tmul.wide.u32 %rd7, %r1, 8;\n\tadd.s64 %rd8, %rd2, %rd7;\n\tld.global.v2.b32 {%r14, %r15}, [%rd8];\n"
                : "\tmul.wide.u32 %rd7, %r1, 8;\n\tadd.s64 %rd6, %rd1, %rd7;\n\tld.global.v2.b32 {%r10, %r11}, [%rd6];\n"
                  "\tmul.wide.u32 %rd9, %r1, 4;\n\tadd.s64 %rd8, %rd2, %rd9;\n\tld.global.b32 %r14, [%rd8];\n") +
           "\tadd.s64 %rd10, %rd3, %rd5;\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd10];\n"
           "\tmma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, " + aRegs +
           ", " + bRegs + ", {%f1, %f2, %f3, %f4};\n"
           "\tadd.s64 %rd11, %rd4, %rd5;\n\tst.global.v4.f32 [%rd11], {%f5, %f6, %f7, %f8};\n\tret;\n}\n";
}

// Runs mmaKernel on A (16 x k), B (k x 8), C (16 x 8), row-major doubles; returns D (16 x 8) read
// back through the ISA's C/D layout.
std::vector<float> runMma(int k, const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c,
                          sim::SimResult* resultOut = nullptr)
{
    const CompiledKernel kernel = parsePtxKernel(mmaKernel(k), "mma");
    const int aRegisters = k / 4, bRegisters = k / 8;
    std::vector<std::uint32_t> aWords(32 * static_cast<std::size_t>(aRegisters)), bWords(32 * static_cast<std::size_t>(bRegisters));
    std::vector<float> cValues(32 * 4);
    for (int lane = 0; lane < 32; ++lane) {
        for (int r = 0; r < aRegisters; ++r) {
            std::array<std::uint16_t, 2> halves{};
            for (int h = 0; h < 2; ++h) {
                const Coord at = k == 16 ? a16816(lane, 2 * r + h) : a1688(lane, 2 * r + h);
                halves[static_cast<std::size_t>(h)] = half(a[static_cast<std::size_t>(at.row * k + at.col)]);
            }
            aWords[static_cast<std::size_t>(lane * aRegisters + r)] = pack(halves[0], halves[1]);
        }
        for (int r = 0; r < bRegisters; ++r) {
            std::array<std::uint16_t, 2> halves{};
            for (int h = 0; h < 2; ++h) {
                const Coord at = k == 16 ? b16816(lane, 2 * r + h) : b1688(lane, 2 * r + h);
                halves[static_cast<std::size_t>(h)] = half(b[static_cast<std::size_t>(at.row * 8 + at.col)]);
            }
            bWords[static_cast<std::size_t>(lane * bRegisters + r)] = pack(halves[0], halves[1]);
        }
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            cValues[static_cast<std::size_t>(lane * 4 + i)] = static_cast<float>(c[static_cast<std::size_t>(at.row * 8 + at.col)]);
        }
    }
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U32, aWords), bufferArg("b", sim::ElementType::U32, bWords),
                                                    bufferArg("c", sim::ElementType::F32, cValues),
                                                    bufferArg("d", sim::ElementType::F32, std::vector<float>(32 * 4, -1.0f))});
    EXPECT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    const std::vector<float> laneValues = bufferValues<float>(result, "d");
    std::vector<float> d(16 * 8, std::nanf(""));
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const Coord at = c168(lane, i);
            d[static_cast<std::size_t>(at.row * 8 + at.col)] = laneValues[static_cast<std::size_t>(lane * 4 + i)];
        }
    if (resultOut)
        *resultOut = result;
    return d;
}

} // namespace

// Spot values of the figures, worked by hand for lane 5 (groupID 1, threadID_in_group 1), so the
// helpers above are checked too.
TEST(TensorCores, FigureHelpersMatchHandWorkedLane5)
{
    EXPECT_EQ(a16816(5, 0).row, 1);  EXPECT_EQ(a16816(5, 0).col, 2);
    EXPECT_EQ(a16816(5, 3).row, 9);  EXPECT_EQ(a16816(5, 3).col, 3);
    EXPECT_EQ(a16816(5, 5).row, 1);  EXPECT_EQ(a16816(5, 5).col, 11);
    EXPECT_EQ(a16816(5, 6).row, 9);  EXPECT_EQ(a16816(5, 6).col, 10);
    EXPECT_EQ(b16816(5, 1).row, 3);  EXPECT_EQ(b16816(5, 1).col, 1);
    EXPECT_EQ(b16816(5, 2).row, 10); EXPECT_EQ(b16816(5, 2).col, 1);
    EXPECT_EQ(c168(5, 2).row, 9);    EXPECT_EQ(c168(5, 2).col, 2);
    EXPECT_EQ(a1688(5, 2).row, 9);   EXPECT_EQ(a1688(5, 2).col, 2);
    EXPECT_EQ(b1688(5, 1).row, 3);   EXPECT_EQ(b1688(5, 1).col, 1);
}

// A selects: with B = [I; 0] the product is A's first eight columns, with B = [0; I] its last
// eight, so every element of A lands in a known place of D; with A = [I 0] D is B's first rows.
TEST(TensorCores, MmaM16n8k16FragmentsFollowTheIsaFigures)
{
    std::vector<double> a(16 * 16), b(16 * 8, 0), c(16 * 8, 0);
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col)
            a[static_cast<std::size_t>(r * 16 + col)] = r * 16 + col; // integers to 255: exact halves
    for (int upper = 0; upper < 2; ++upper) {
        std::fill(b.begin(), b.end(), 0.0);
        for (int n = 0; n < 8; ++n)
            b[static_cast<std::size_t>((n + 8 * upper) * 8 + n)] = 1;
        const std::vector<float> d = runMma(16, a, b, c);
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n)
                EXPECT_EQ(d[static_cast<std::size_t>(r * 8 + n)], static_cast<float>(r * 16 + n + 8 * upper)) << r << "," << n;
    }
    // B through A = [I 0] (16 x 16 with ones on the diagonal), C adds 1000.
    std::fill(a.begin(), a.end(), 0.0);
    for (int r = 0; r < 16; ++r)
        a[static_cast<std::size_t>(r * 16 + r)] = 1;
    for (int kk = 0; kk < 16; ++kk)
        for (int n = 0; n < 8; ++n)
            b[static_cast<std::size_t>(kk * 8 + n)] = kk * 8 + n;
    std::fill(c.begin(), c.end(), 1000.0);
    const std::vector<float> d = runMma(16, a, b, c);
    for (int r = 0; r < 16; ++r)
        for (int n = 0; n < 8; ++n)
            EXPECT_EQ(d[static_cast<std::size_t>(r * 8 + n)], static_cast<float>(1000 + r * 8 + n)) << r << "," << n;
}

// Random products against a CPU GEMM: integer-valued halves exactly, others within FP32 rounding.
TEST(TensorCores, MmaMatchesACpuGemm)
{
    std::mt19937 random(15);
    for (int k : {16, 8})
        for (bool integers : {true, false}) {
            std::uniform_int_distribution<int> small(-8, 8);
            std::uniform_real_distribution<double> real(-1.0, 1.0);
            std::vector<double> a(static_cast<std::size_t>(16 * k)), b(static_cast<std::size_t>(k * 8)), c(16 * 8);
            auto fill = [&](std::vector<double>& m, bool isHalf) {
                for (double& x : m)
                    x = integers ? small(random) : isHalf ? value(half(real(random))) : static_cast<float>(real(random));
            };
            fill(a, true);
            fill(b, true);
            fill(c, false);
            sim::SimResult result;
            const std::vector<float> d = runMma(k, a, b, c, &result);
            for (int r = 0; r < 16; ++r)
                for (int n = 0; n < 8; ++n) {
                    double expected = c[static_cast<std::size_t>(r * 8 + n)];
                    for (int i = 0; i < k; ++i)
                        expected += a[static_cast<std::size_t>(r * k + i)] * b[static_cast<std::size_t>(i * 8 + n)];
                    const float got = d[static_cast<std::size_t>(r * 8 + n)];
                    if (integers)
                        EXPECT_EQ(got, static_cast<float>(expected)) << "k " << k << " at " << r << "," << n;
                    else
                        EXPECT_NEAR(got, expected, 1e-6 * (1 + std::fabs(expected))) << "k " << k << " at " << r << "," << n;
                }
            // Counted as the other instructions are: one warp, one issue.
            const CompiledKernel kernel = parsePtxKernel(mmaKernel(k), "mma");
            EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mma).warpExecutions, 1u);
            EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::Mma).threadExecutions, 32u);
        }
}

// ldmatrix.x4 and .x4.trans from four 8 x 8 matrices in shared memory, M_i[r][c] = 64 i + 8 r + c:
// lane L's register i holds row L / 4, columns 2 (L % 4) and one more of M_i (low half first), or
// of M_i transposed.
TEST(TensorCores, LdmatrixDeliversRowsAndTransposes)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry ldm(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b16 %rs<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b16 tile[256];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r7, tile;
	mul.lo.u32 %r3, %r1, 8;
	mov.u32 %r4, 0;
FILL:
	add.u32 %r5, %r3, %r4;
	mul.lo.u32 %r6, %r5, 2;
	add.u32 %r8, %r7, %r6;
	cvt.u16.u32 %rs1, %r5;
	st.shared.u16 [%r8], %rs1;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p1, %r4, 8;
	@%p1 bra FILL;
	bar.sync 0;
	mul.lo.u32 %r9, %r1, 16;
	add.u32 %r10, %r7, %r9;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r11, %r12, %r13, %r14}, [%r10];
	ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r15, %r16, %r17, %r18}, [%r10];
	ldmatrix.sync.aligned.x2.m8n8.shared::cta.b16 {%r19, %r20}, [%r10];
	mul.wide.u32 %rd2, %r1, 48;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.b32 [%rd3], {%r11, %r12, %r13, %r14};
	st.global.v4.b32 [%rd3+16], {%r15, %r16, %r17, %r18};
	st.global.v2.b32 [%rd3+32], {%r19, %r20};
	ret;
}
)", "ldm");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::U32, std::vector<std::uint32_t>(32 * 12, 0))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(result, "out");
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        for (std::uint32_t i = 0; i < 4; ++i) {
            const std::uint32_t row = lane / 4, col = 2 * (lane % 4);
            const std::uint32_t plain = pack(static_cast<std::uint16_t>(64 * i + 8 * row + col),
                                             static_cast<std::uint16_t>(64 * i + 8 * row + col + 1));
            const std::uint32_t transposed = pack(static_cast<std::uint16_t>(64 * i + 8 * col + row),
                                                  static_cast<std::uint16_t>(64 * i + 8 * (col + 1) + row));
            EXPECT_EQ(out[lane * 12 + i], plain) << "lane " << lane << " matrix " << i;
            EXPECT_EQ(out[lane * 12 + 4 + i], transposed) << "lane " << lane << " matrix " << i << " .trans";
            if (i < 2) {
                EXPECT_EQ(out[lane * 12 + 8 + i], plain) << "lane " << lane << " matrix " << i << " .x2";
            }
        }
    // Each matrix is one shared request of eight 16-byte rows: conflict-free, one wavefront each.
    const sim::InstructionCounters counters = countersOf(result, *kernel.function, ptx::Op::Ldmatrix);
    EXPECT_EQ(counters.warpExecutions, 3u);
    EXPECT_EQ(counters.sharedRequests, 10u);
    EXPECT_EQ(counters.sharedBankConflicts, 0u);
}

// The WMMA GEMM of mma.h at compute_75 (wmma.load.a/b .global.f16 with a stride, wmma.mma
// .row.row.f32.f32, wmma.store.d .global.f32): one warp per 16 x 16 tile of C = A B, row-major.
TEST(TensorCores, WmmaGemmFromMmaHMatchesACpuGemm)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_gemm(const half* a, const half* b, float* c, int m, int n, int k)
{
    const int tileRow = blockIdx.y * 16, tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int i = 0; i < k; i += 16) {
        wmma::load_matrix_sync(fa, a + tileRow * k + i, k);
        wmma::load_matrix_sync(fb, b + i * n + tileCol, n);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tileRow * n + tileCol, fc, n, wmma::mem_row_major);
}
)", "wmma_gemm");
    const int m = 32, n = 48, k = 64;
    std::mt19937 random(16);
    for (bool integers : {true, false}) {
        std::uniform_int_distribution<int> small(-6, 6);
        std::uniform_real_distribution<double> real(-1.0, 1.0);
        std::vector<std::uint16_t> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
        for (std::uint16_t& h : a) h = half(integers ? small(random) : real(random));
        for (std::uint16_t& h : b) h = half(integers ? small(random) : real(random));
        auto scalar = [](const char* name, int v) {
            sim::ResolvedArg arg;
            arg.name = name;
            arg.scalarBits = static_cast<std::uint32_t>(v);
            arg.integerValue = v;
            return arg;
        };
        const sim::SimResult result = simulateWithArgs(
            kernel, {n / 16, m / 16, 1}, {32, 1, 1},
            {bufferArg("a", sim::ElementType::U16, a), bufferArg("b", sim::ElementType::U16, b),
             bufferArg("c", sim::ElementType::F32, std::vector<float>(static_cast<std::size_t>(m * n), -1.0f)),
             scalar("m", m), scalar("n", n), scalar("k", k)});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        EXPECT_TRUE(result.hazards.empty());
        const std::vector<float> c = bufferValues<float>(result, "c");
        for (int r = 0; r < m; ++r)
            for (int col = 0; col < n; ++col) {
                double expected = 0;
                for (int i = 0; i < k; ++i)
                    expected += value(a[static_cast<std::size_t>(r * k + i)]) * value(b[static_cast<std::size_t>(i * n + col)]);
                const float got = c[static_cast<std::size_t>(r * n + col)];
                if (integers)
                    EXPECT_EQ(got, static_cast<float>(expected)) << r << "," << col;
                else // one rounding to f32 per 16-wide step of k
                    EXPECT_NEAR(got, expected, 4 * 6e-8 * (k / 16) * (1 + std::fabs(expected))) << r << "," << col;
            }
        // Counted as the rest: each of the 6 warps issues k / 16 wmma.mma and loads A and B each step
        // from global memory, 32-bit per lane per fragment register.
        const sim::InstructionCounters mma = countersOf(result, *kernel.function, ptx::Op::WmmaMma);
        EXPECT_EQ(mma.warpExecutions, static_cast<std::uint64_t>(6 * k / 16));
        const sim::InstructionCounters loads = countersOf(result, *kernel.function, ptx::Op::WmmaLoad, ptx::Space::Global);
        EXPECT_EQ(loads.warpExecutions, static_cast<std::uint64_t>(2 * 6 * k / 16));
        EXPECT_EQ(loads.bytesRequested, static_cast<std::uint64_t>(2 * 6 * (k / 16) * 32 * 8 * 4));
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaStore).globalRequests, 6u * 8u);
        EXPECT_GT(result.stats.global.loadRequests, 0u);
    }
}

// Column-major A through shared memory, column-major B, half accumulators loaded from memory and
// stored column-major: wmma.load.a.col.shared, wmma.load.b.col, wmma.load.c.row.f16,
// wmma.mma.col.col.f16.f16 and wmma.store.d.col.f16.
TEST(TensorCores, WmmaColumnMajorSharedAndHalfAccumulators)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_mixed(const half* a, const half* b, half* c, int k)
{
    __shared__ __align__(32) half tileA[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fc;
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < k; i += 16) {
        for (int j = threadIdx.x; j < 256; j += 32)
            tileA[j] = a[i * 16 + j];
        __syncwarp();
        wmma::load_matrix_sync(fa, tileA, 16);
        wmma::load_matrix_sync(fb, b + i, k);
        wmma::mma_sync(fc, fa, fb, fc);
        __syncwarp();
    }
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
}
)", "wmma_mixed");
    const int k = 32;
    std::mt19937 random(17);
    std::uniform_int_distribution<int> small(-3, 3);
    std::vector<std::uint16_t> a(16 * k), b(static_cast<std::size_t>(k * 16)), c(256);
    for (std::uint16_t& h : a) h = half(small(random));
    for (std::uint16_t& h : b) h = half(small(random));
    for (std::uint16_t& h : c) h = half(small(random) * 10);
    sim::ResolvedArg count;
    count.name = "k";
    count.scalarBits = k;
    count.integerValue = k;
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U16, a), bufferArg("b", sim::ElementType::U16, b),
                                                    bufferArg("c", sim::ElementType::U16, c), count});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    EXPECT_TRUE(result.hazards.empty());
    const std::vector<std::uint16_t> out = bufferValues<std::uint16_t>(result, "c");
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
            double expected = value(c[static_cast<std::size_t>(r * 16 + col)]); // C was read row-major
            for (int i = 0; i < k; ++i) // A column-major 16 x k, B column-major k x 16
                expected += value(a[static_cast<std::size_t>(i * 16 + r)]) * value(b[static_cast<std::size_t>(col * k + i)]);
            EXPECT_EQ(value(out[static_cast<std::size_t>(col * 16 + r)]), expected) << r << "," << col; // D column-major
        }
    EXPECT_GT(countersOf(result, *kernel.function, ptx::Op::WmmaLoad).sharedRequests, 0u); // A, from tileA
}

// Valid Tensor Core PTX left out (sub-byte types such as wmma's m8n8k32 .s4, movmatrix) stays
// a note: a kernel using it is refused with "not supported by the simulator yet", the others run.
TEST(TensorCores, FormsLeftOutAreNotedAsUnsupported)
{
    const std::string ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry int4()
{
	.reg .b32 %r<16>;
	.reg .f32 %f<16>;
	mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};
	ret;
}
.visible .entry int4wmma(.param .u64 p)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r1}, [%rd1], 32;
	ret;
}
.visible .entry fine()
{
	ret;
}
)";
    const ptx::Module module = ptx::parseModule(ptx);
    ASSERT_EQ(module.unsupportedFor(*module.findFunction("int4")).size(), 1u);
    EXPECT_EQ(module.unsupportedFor(*module.findFunction("int4"))[0]->construct, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
    ASSERT_EQ(module.unsupportedFor(*module.findFunction("int4wmma")).size(), 1u);
    EXPECT_EQ(ptx::describeUnsupported(module, *module.unsupportedFor(*module.findFunction("int4wmma"))[0]),
              "PTX line 16 in kernel int4wmma: 'wmma.load.a.sync.aligned.row.m8n8k32.global.s4' is not supported by the "
              "simulator yet");
    EXPECT_TRUE(module.unsupportedFor(*module.findFunction("fine")).empty());
}

// A fragment with the wrong number of registers is not valid PTX: bad input, not a note.
TEST(TensorCores, WrongFragmentSizesAreBadInput)
{
    const std::string ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<16>;
	.reg .f32 %f<16>;
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6}, {%f5, %f6, %f7, %f8};
	ret;
}
)";
    try {
        (void)ptx::parseModule(ptx);
        ADD_FAILURE() << "expected a PtxError";
    } catch (const ptx::PtxError& error) {
        EXPECT_NE(std::string(error.what()).find("needs a vector of 4 registers for its A fragment"), std::string::npos) << error.what();
    }
}
