// Tensor Core instructions, second part continued (issue 15), from tensor_core_more_test.cpp: wmma
// tf32 and integer GEMMs compiled by NVRTC from mma.h against CPU references; stmatrix; .satfinite
// with NaN on an f32 D; wmma pointer and stride alignment; bad input; cvt to tf32 and mma.h's
// __float_to_tf32 on hand-worked bit patterns; and the forms still left out.
//
// Sections: wmma from mma.h (tf32, s8/u8); stmatrix; .satfinite on f32; wmma alignment; bad input;
// cvt to tf32; forms left out.
#include "sim_test_support.h"
#include "tensor_core_test_support.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;
using namespace warpscope::tensor_core_test;

// The tf32 WMMA of mma.h at compute_80 (wmma.load.a/b .tf32 without a state space, four registers
// each; wmma.mma .m16n16k8.f32.tf32.tf32.f32; wmma.store.d .f32): one warp per 16 x 16 tile, K in
// steps of 8, against a CPU GEMM on the inputs truncated to tf32. The fragments go unconverted
// (mma.h's __float_to_tf32 compiles to cvt.rna.tf32.f32, not modelled yet): the truncation is the
// Tensor Core's own.
TEST(TensorCoresMore, WmmaTf32GemmFromMmaHMatchesACpuGemm)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_tf32(const float* a, const float* b, float* c, int m, int n, int k)
{
    const int tileRow = blockIdx.y * 16, tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.25f);
    for (int i = 0; i < k; i += 8) {
        wmma::load_matrix_sync(fa, a + tileRow * k + i, k);
        wmma::load_matrix_sync(fb, b + tileCol * k + i, k);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tileRow * n + tileCol, fc, n, wmma::mem_row_major);
}
)", "wmma_tf32", "compute_80");
    const int m = 32, n = 32, k = 24;
    std::mt19937 random(82);
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)); // B column-major
    for (float& x : a) x = real(random);
    for (float& x : b) x = real(random);
    auto scalar = [](const char* name, int v) {
        sim::ResolvedArg arg;
        arg.name = name;
        arg.scalarBits = static_cast<std::uint32_t>(v);
        arg.integerValue = v;
        return arg;
    };
    const sim::SimResult result = simulateWithArgs(
        kernel, {n / 16, m / 16, 1}, {32, 1, 1},
        {bufferArg("a", sim::ElementType::F32, a), bufferArg("b", sim::ElementType::F32, b),
         bufferArg("c", sim::ElementType::F32, std::vector<float>(static_cast<std::size_t>(m * n), -1.0f)),
         scalar("m", m), scalar("n", n), scalar("k", k)});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    auto tf32 = [](float x) { return static_cast<double>(bitsFloat(floatBits(x) & ~0x1fffu)); };
    const std::vector<float> c = bufferValues<float>(result, "c");
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double expected = 0.25, magnitude = 0.25;
            for (int i = 0; i < k; ++i) {
                const double product = tf32(a[static_cast<std::size_t>(r * k + i)]) * tf32(b[static_cast<std::size_t>(col * k + i)]);
                expected += product;
                magnitude += std::fabs(product);
            }
            // one rounding to f32 per step of 8 along k
            EXPECT_NEAR(c[static_cast<std::size_t>(r * n + col)], expected, (k / 8) * 6e-8 * magnitude) << r << "," << col;
            // and far from the untruncated product where the inputs' low bits matter: checked below
        }
    // The truncation is visible: an exact f32 GEMM differs from the result somewhere by more than
    // the f32 rounding allows.
    double largestGap = 0;
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double exact = 0.25;
            for (int i = 0; i < k; ++i)
                exact += static_cast<double>(a[static_cast<std::size_t>(r * k + i)]) * b[static_cast<std::size_t>(col * k + i)];
            largestGap = std::max(largestGap, std::fabs(c[static_cast<std::size_t>(r * n + col)] - exact));
        }
    EXPECT_GT(largestGap, 1e-4);
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(4 * k / 8));
    EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaLoad).warpExecutions, static_cast<std::uint64_t>(2 * 4 * k / 8));
}

// The 8-bit integer WMMA of mma.h at compute_75: .s8 A row-major and B column-major with a loaded
// .s32 accumulator and mma_sync(..., satf = true) (wmma.mma ...s32.s8.s8.s32.satfinite), and .u8 A
// column-major, B row-major, stored column-major; exact against CPU GEMMs, and the .satfinite kernel
// clamps an accumulator pushed past 2^31 - 1.
TEST(TensorCoresMore, WmmaIntegerGemmsFromMmaHMatchCpuGemms)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_s8(const signed char* a, const signed char* b, int* c, int k)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < k; i += 16) {
        wmma::load_matrix_sync(fa, a + i, k);
        wmma::load_matrix_sync(fb, b + i, k);
        wmma::mma_sync(fc, fa, fb, fc, true);
    }
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
)", "wmma_s8");
    const int k = 48;
    std::mt19937 random(83);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> a(static_cast<std::size_t>(16 * k)), b(static_cast<std::size_t>(k * 16));
    for (std::uint8_t& x : a) x = static_cast<std::uint8_t>(byte(random));
    for (std::uint8_t& x : b) x = static_cast<std::uint8_t>(byte(random));
    std::vector<std::int32_t> c(256);
    for (int i = 0; i < 256; ++i)
        c[static_cast<std::size_t>(i)] = i * 1000 - 128000;
    c[5] = std::numeric_limits<std::int32_t>::max() - 1; // D[0][5] clamps unless its products sum to < 2
    sim::ResolvedArg kArg;
    kArg.name = "k";
    kArg.scalarBits = k;
    kArg.integerValue = k;
    // .s8: A row-major 16 x k, B column-major k x 16 (column n at b + n * k).
    {
        const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                       {bufferArg("a", sim::ElementType::U8, a), bufferArg("b", sim::ElementType::U8, b),
                                                        bufferArg("c", sim::ElementType::I32, c), kArg});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << hazard.message;
        const std::vector<std::int32_t> d = bufferValues<std::int32_t>(result, "c");
        for (int r = 0; r < 16; ++r)
            for (int col = 0; col < 16; ++col) {
                long long expected = c[static_cast<std::size_t>(r * 16 + col)];
                for (int i = 0; i < k; ++i)
                    expected += static_cast<long long>(static_cast<std::int8_t>(a[static_cast<std::size_t>(r * k + i)])) *
                                static_cast<std::int8_t>(b[static_cast<std::size_t>(col * k + i)]);
                // .satfinite after each of the k / 16 steps; only D[0][5] comes near the bounds
                if (r == 0 && col == 5) {
                    long long clamped = c[5];
                    for (int step = 0; step < k / 16; ++step) {
                        for (int i = step * 16; i < step * 16 + 16; ++i)
                            clamped += static_cast<long long>(static_cast<std::int8_t>(a[static_cast<std::size_t>(i)])) *
                                       static_cast<std::int8_t>(b[static_cast<std::size_t>(5 * k + i)]);
                        clamped = std::clamp<long long>(clamped, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
                    }
                    expected = clamped;
                }
                EXPECT_EQ(d[static_cast<std::size_t>(r * 16 + col)], expected) << "s8 at " << r << "," << col;
            }
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(k / 16));
    }
    // .u8: A column-major 16 x k (element (r, i) at a[i * 16 + r]), B row-major k x 16, D column-major.
    const CompiledKernel u8 = compileKernel(R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_u8(const unsigned char* a, const unsigned char* b, int* c, int k)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 7);
    for (int i = 0; i < k; i += 16) {
        wmma::load_matrix_sync(fa, a + i * 16, 16);
        wmma::load_matrix_sync(fb, b + i * 16, 16);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
}
)", "wmma_u8");
    const sim::SimResult result = simulateWithArgs(u8, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U8, a), bufferArg("b", sim::ElementType::U8, b),
                                                    bufferArg("c", sim::ElementType::I32, std::vector<std::int32_t>(256, -1)), kArg});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<std::int32_t> d = bufferValues<std::int32_t>(result, "c");
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
            long long expected = 7;
            for (int i = 0; i < k; ++i)
                expected += static_cast<long long>(a[static_cast<std::size_t>(i * 16 + r)]) * b[static_cast<std::size_t>(i * 16 + col)];
            EXPECT_EQ(d[static_cast<std::size_t>(col * 16 + r)], expected) << "u8 at " << r << "," << col;
        }
    // Each row-major A register packs four adjacent bytes: one 4-byte access per lane per register.
    EXPECT_EQ(countersOf(result, *u8.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(k / 16));
}

// stmatrix (sm_90), the inverse of ldmatrix: lane L's register i holds row L / 4, columns 2 (L % 4)
// and one more of matrix i (low half first); .trans stores them at the transposed positions. Each
// lane's register i is M_i[r][c] | M_i[r][c + 1] << 16 with M_i[r][c] = 64 i + 8 r + c, so the
// plain store writes tile[64 i + 8 r + c] = 64 i + 8 r + c and the transposed one
// tile[64 i + 8 r + c] = 64 i + 8 c + r; .x2 fills the first two matrices only (the rest is not
// read). Lane L gives the address of row L % 8 of matrix L / 8.
TEST(TensorCoresMore, StmatrixStoresRowsAndTransposes)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry stm(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b16 %rs<4>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b16 plain[256];
	.shared .align 16 .b16 trans[256];
	.shared .align 16 .b16 pair[256];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	shr.u32 %r2, %r1, 2;
	and.b32 %r3, %r1, 3;
	shl.b32 %r3, %r3, 1;
	mad.lo.u32 %r4, %r2, 8, %r3;
	add.u32 %r5, %r4, 1;
	shl.b32 %r5, %r5, 16;
	or.b32 %r10, %r4, %r5;
	add.u32 %r11, %r10, 0x00400040;
	add.u32 %r12, %r10, 0x00800080;
	add.u32 %r13, %r10, 0x00c000c0;
	mul.lo.u32 %r6, %r1, 16;
	mov.u32 %r7, plain;
	add.u32 %r8, %r7, %r6;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r8], {%r10, %r11, %r12, %r13};
	mov.u32 %r7, trans;
	add.u32 %r8, %r7, %r6;
	stmatrix.sync.aligned.x4.trans.m8n8.shared::cta.b16 [%r8], {%r10, %r11, %r12, %r13};
	mov.u32 %r7, pair;
	add.u32 %r8, %r7, %r6;
	stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r8], {%r10, %r11};
	bar.sync 0;
	mov.u32 %r20, 0;
COPY:
	mad.lo.u32 %r21, %r20, 32, %r1;
	shl.b32 %r22, %r21, 1;
	mov.u32 %r23, plain;
	add.u32 %r24, %r23, %r22;
	ld.shared.u16 %rs1, [%r24];
	mov.u32 %r23, trans;
	add.u32 %r24, %r23, %r22;
	ld.shared.u16 %rs2, [%r24];
	mov.u32 %r23, pair;
	add.u32 %r24, %r23, %r22;
	mov.u16 %rs3, 0;
	setp.lt.u32 %p2, %r20, 4;
	@%p2 ld.shared.u16 %rs3, [%r24];
	mul.wide.u32 %rd2, %r21, 6;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u16 [%rd3], %rs1;
	st.global.u16 [%rd3+2], %rs2;
	st.global.u16 [%rd3+4], %rs3;
	add.u32 %r20, %r20, 1;
	setp.lt.u32 %p1, %r20, 8;
	@%p1 bra COPY;
	ret;
}
)", "stm");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("out", sim::ElementType::U16, std::vector<std::uint16_t>(256 * 3, 0xffff))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    for (const sim::Hazard& hazard : result.hazards)
        ADD_FAILURE() << hazard.message;
    const std::vector<std::uint16_t> out = bufferValues<std::uint16_t>(result, "out");
    for (int i = 0; i < 4; ++i)
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                const int at = 64 * i + 8 * r + c;
                EXPECT_EQ(out[static_cast<std::size_t>(3 * at)], at) << "matrix " << i << " at " << r << "," << c;
                EXPECT_EQ(out[static_cast<std::size_t>(3 * at + 1)], 64 * i + 8 * c + r) << ".trans matrix " << i << " at " << r << "," << c;
                if (i < 2) { // .x2 writes matrices 0 and 1
                    EXPECT_EQ(out[static_cast<std::size_t>(3 * at + 2)], at) << ".x2 matrix " << i << " at " << r << "," << c;
                }
            }
    // Counted as matrix stores to shared memory: one request per matrix, conflict-free.
    const sim::InstructionCounters counters = countersOf(result, *kernel.function, ptx::Op::WmmaStore);
    EXPECT_EQ(counters.warpExecutions, 3u);
    EXPECT_EQ(counters.sharedRequests, 10u);
    EXPECT_EQ(counters.sharedBankConflicts, 0u);
    EXPECT_EQ(result.stats.shared.storeRequests, 10u);
}

// stmatrix by part of a warp is a warp_sync_mismatch named after stmatrix, and stores nothing.
TEST(TensorCoresMore, StmatrixUnderDivergenceIsAHazard)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry stm()
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.shared .align 16 .b16 tile[64];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	mov.u32 %r2, tile;
	mul.lo.u32 %r3, %r1, 16;
	add.u32 %r4, %r2, %r3;
	@%p1 stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r4], {%r1};
	ret;
}
)", "stm");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1}, {});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 1u);
    EXPECT_EQ(result.hazards[0].kind, sim::HazardKind::WarpSyncMismatch);
    EXPECT_NE(result.hazards[0].message.find("'stmatrix'"), std::string::npos) << result.hazards[0].message;
}

// .satfinite on an .f32 D (the .f16-multiplicand wmma.mma of PTX ISA 6.0-6.4): +-infinity becomes
// +-FLT_MAX; NaN stays NaN (the ISA's .satfinite for conversions keeps NaN; it no longer defines the
// floating-point wmma form). C[0][0] = +inf, C[0][1] = -inf, C[0][2] = NaN, C[0][3] = 2.5; A and B
// are zero, so D = C. Without .satfinite the infinities stay.
TEST(TensorCoresMore, WmmaSatfiniteF32KeepsNanAndClampsInfinities)
{
    for (bool satfinite : {true, false}) {
        const std::string ptx = std::string(R"(.version 6.0
.target sm_70
.address_size 64
.visible .entry wm(.param .u64 a, .param .u64 c, .param .u64 d)
{
	.reg .b32 %r<40>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [c];
	ld.param.u64 %rd3, [d];
	wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
	wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%rd1];
	wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd2];
	wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32)") +
                                (satfinite ? ".satfinite" : "") + R"( {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};
	wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd3], {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18};
	ret;
}
)";
        const CompiledKernel kernel = parsePtxKernel(ptx, "wm");
        std::vector<float> c(256, 0.0f);
        c[0] = std::numeric_limits<float>::infinity();
        c[1] = -std::numeric_limits<float>::infinity();
        c[2] = std::numeric_limits<float>::quiet_NaN();
        c[3] = 2.5f;
        const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                       {bufferArg("a", sim::ElementType::U16, std::vector<std::uint16_t>(256, 0)),
                                                        bufferArg("c", sim::ElementType::F32, c),
                                                        bufferArg("d", sim::ElementType::F32, std::vector<float>(256, -1.0f))});
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << hazard.message;
        const std::vector<float> d = bufferValues<float>(result, "d");
        const float largest = std::numeric_limits<float>::max();
        EXPECT_EQ(d[0], satfinite ? largest : std::numeric_limits<float>::infinity());
        EXPECT_EQ(d[1], satfinite ? -largest : -std::numeric_limits<float>::infinity());
        EXPECT_TRUE(std::isnan(d[2])) << d[2];
        EXPECT_EQ(d[3], 2.5f);
        EXPECT_EQ(d[4], 0.0f);
    }
}

// CUDA requires wmma's pointer 256-bit (32-byte) aligned and ldm a multiple of 16 bytes: a 16 x 16
// .f16 load from a + 16 bytes (each element access still aligned), and an .f32 store with a stride
// of 10 elements (40 bytes), are misaligned_access hazards; the same load from a with a stride of 24
// halves (48 bytes) and a store with a stride of 12 floats (48 bytes) are not.
TEST(TensorCoresMore, WmmaPointerAndStrideAlignmentAreChecked)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry al(.param .u64 a, .param .u64 d)
{
	.reg .b32 %r<40>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [d];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	add.s64 %rd3, %rd1, 16;
	wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd3];
	mov.u32 %r30, 24;
	wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%rd1], %r30;
	mov.f32 %f1, 0f3F800000;
	mov.u32 %r31, 10;
	wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1}, %r31;
	mov.u32 %r32, 12;
	wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1}, %r32;
	ret;
}
)", "al");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U16, std::vector<std::uint16_t>(1024, 0x3c00)),
                                                    bufferArg("d", sim::ElementType::F32, std::vector<float>(512, 0.0f))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 2u);
    const sim::Hazard* pointer = nullptr;
    const sim::Hazard* stride = nullptr;
    for (const sim::Hazard& hazard : result.hazards) {
        EXPECT_EQ(hazard.kind, sim::HazardKind::MisalignedAccess) << hazard.message;
        (hazard.ptxLine == 14 ? pointer : stride) = &hazard;
    }
    ASSERT_TRUE(pointer && stride);
    EXPECT_EQ(pointer->lane, 0);
    EXPECT_EQ(pointer->message,
              "wmma.load at a matrix pointer 16 bytes past a multiple of 32 (a 32-byte fragment's rows must start aligned "
              "to it: PTX ISA, \"Matrix Storage for WMMA\"; CUDA asks for a 256-bit aligned pointer; the GPU raises a "
              "misaligned-address error)");
    EXPECT_EQ(stride->ptxLine, 19);
    EXPECT_EQ(stride->message,
              "wmma.store with a stride of 10 elements (40 bytes), not a multiple of 16 bytes: its rows start misaligned "
              "(PTX ISA, \"Matrix Storage for WMMA\"; CUDA's ldm rule)");
}

// A fragment of the wrong size for the new types is bad input: .tf32 m16n8k8 A has four registers,
// .s8 m16n8k32 B two.
TEST(TensorCoresMore, WrongTf32AndIntegerFragmentSizesAreBadInput)
{
    auto message = [](const std::string& instruction) {
        const std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                                "\t.reg .b32 %r<16>;\n\t.reg .f32 %f<16>;\n\t" + instruction + "\n\tret;\n}\n";
        try {
            (void)ptx::parseModule(ptx);
        } catch (const ptx::PtxError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6}, "
                      "{%f5, %f6, %f7, %f8};")
                  .find("needs a vector of 4 registers for its A fragment"),
              std::string::npos);
    EXPECT_NE(message("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9}, "
                      "{%r10, %r11, %r12, %r13};")
                  .find("needs a vector of 2 registers for its B fragment"),
              std::string::npos);
}

// cvt to tf32 on hand-worked bit patterns. tf32 keeps f32's sign, exponent and top 10 mantissa
// bits (the simulator's register layout: the low 13 bits zero), so its ulp at 1 is 2^-10 = 0x2000
// and 0x1000 is half of it. .rna rounds ties away from zero, .rn to the even neighbour, .rz drops
// the bits; .satfinite keeps a carry out of the largest binade (and infinity) at 0x7F7FE000; .relu
// makes negatives +0 and NaN the canonical 0x7FFFFFFF.
TEST(TensorCoresMore, CvtToTf32RoundsAsNamed)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .f32 %f<2>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f1, [%rd4];
	cvt.rna.tf32.f32 %r2, %f1;
	cvt.rn.tf32.f32 %r3, %f1;
	cvt.rz.tf32.f32 %r4, %f1;
	cvt.rna.satfinite.tf32.f32 %r5, %f1;
	cvt.rn.relu.tf32.f32 %r6, %f1;
	mul.wide.u32 %rd5, %r1, 20;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r2;
	st.global.u32 [%rd6+4], %r3;
	st.global.u32 [%rd6+8], %r4;
	st.global.u32 [%rd6+12], %r5;
	st.global.u32 [%rd6+16], %r6;
	ret;
}
)", "k");
    struct Case {
        std::uint32_t in, rna, rn, rz, rnaSatfinite, rnRelu;
    };
    const std::vector<Case> cases = {
        {0x3F801000u, 0x3F802000u, 0x3F800000u, 0x3F800000u, 0x3F802000u, 0x3F800000u}, // 1 + 2^-11: a tie, even below
        {0x3F803000u, 0x3F804000u, 0x3F804000u, 0x3F802000u, 0x3F804000u, 0x3F804000u}, // a tie, odd below
        {0xBF801000u, 0xBF802000u, 0xBF800000u, 0xBF800000u, 0xBF802000u, 0x00000000u}, // negative tie
        {0x3F800FFFu, 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u}, // just below the tie
        {0x3F801001u, 0x3F802000u, 0x3F802000u, 0x3F800000u, 0x3F802000u, 0x3F802000u}, // just above
        {0x7F7FFFFFu, 0x7F800000u, 0x7F800000u, 0x7F7FE000u, 0x7F7FE000u, 0x7F800000u}, // f32's largest
        {0xFF800000u, 0xFF800000u, 0xFF800000u, 0xFF800000u, 0xFF7FE000u, 0x00000000u}, // -infinity
        {0x7FC00001u, 0x7FC00000u, 0x7FC00000u, 0x7FC00000u, 0x7FC00000u, 0x7FFFFFFFu}, // NaN
        {0x00001000u, 0x00002000u, 0x00000000u, 0x00000000u, 0x00002000u, 0x00000000u}, // a subnormal tie
    };
    std::vector<std::uint32_t> in;
    for (const Case& c : cases)
        in.push_back(c.in);
    const sim::SimResult result =
        simulateWithArgs(kernel, {1, 1, 1}, {static_cast<std::uint32_t>(cases.size()), 1, 1},
                         {bufferArg("in", sim::ElementType::U32, in),
                          bufferArg("out", sim::ElementType::U32, std::vector<std::uint32_t>(cases.size() * 5, 0xDEADBEEFu))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<std::uint32_t> out = bufferValues<std::uint32_t>(result, "out");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(out[i * 5 + 0], cases[i].rna);
        EXPECT_EQ(out[i * 5 + 1], cases[i].rn);
        EXPECT_EQ(out[i * 5 + 2], cases[i].rz);
        EXPECT_EQ(out[i * 5 + 3], cases[i].rnaSatfinite);
        EXPECT_EQ(out[i * 5 + 4], cases[i].rnRelu);
    }
}

// wmma::__float_to_tf32 (mma.h) is cvt.rna.tf32.f32 at compute_80: what NVRTC emits runs, and its
// results are the .rna roundings worked out above.
TEST(TensorCoresMore, FloatToTf32FromMmaHRunsAsCvtRna)
{
    const CompiledKernel kernel = compileKernel(R"(
#include <mma.h>
extern "C" __global__ void to_tf32(const float* in, float* out)
{
    out[threadIdx.x] = nvcuda::wmma::__float_to_tf32(in[threadIdx.x]);
}
)", "to_tf32", "compute_80");
    bool emitted = false;
    for (const ptx::Instruction& instruction : kernel.function->instructions)
        emitted = emitted || (instruction.op == ptx::Op::Cvt && instruction.type == ptx::Type::TF32 &&
                              instruction.rounding == ptx::Rounding::Rna);
    EXPECT_TRUE(emitted);
    const std::vector<float> in = {bitsFloat(0x3F801000u), bitsFloat(0xBF803000u), bitsFloat(0x3F800FFFu), 0.1f};
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {4, 1, 1},
                                                   {bufferArg("in", sim::ElementType::F32, in),
                                                    bufferArg("out", sim::ElementType::F32, std::vector<float>(4, -1.0f))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    const std::vector<float> out = bufferValues<float>(result, "out");
    EXPECT_EQ(floatBits(out[0]), 0x3F802000u);
    EXPECT_EQ(floatBits(out[1]), 0xBF804000u);
    EXPECT_EQ(floatBits(out[2]), 0x3F800000u);
    // 0.1f = 0x3DCCCCCD: its low 13 bits, 0x0CCD, are below half an ulp (0x1000), so .rna drops
    // them: 0x3DCCC000.
    EXPECT_EQ(floatBits(out[3]), 0x3DCCC000u);
}

// What stays out is still a note, and a kernel using it exits with "not supported by the simulator
// yet": wgmma, sparse mma.sp, 4-bit integers, f64 mma.sync, .satfinite on a tf32 mma, mixed A and B
// types on an integer wmma, and stmatrix's .b8 m16n8 form.
TEST(TensorCoresMore, FormsLeftOutAreStillNotedAsUnsupported)
{
    const std::vector<std::string> forms = {
        "wgmma.fence.sync.aligned;",
        "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3, %r4}, {%f5, %f6, %f7, %f8}, %r5, 0x0;",
        "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%fd1, %fd2, %fd3, %fd4}, {%fd5, %fd6, %fd7, %fd8}, {%fd9, %fd10}, {%fd1, %fd2, %fd3, %fd4};",
        "mma.sync.aligned.m16n8k8.row.col.satfinite.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
        "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",
        "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%r1], {%r2};",
    };
    for (const std::string& form : forms) {
        const std::string ptx = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                                "\t.reg .b32 %r<16>;\n\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<16>;\n\t" + form + "\n\tret;\n}\n";
        const ptx::Module module = ptx::parseModule(ptx);
        const auto notes = module.unsupportedFor(*module.findFunction("k"));
        ASSERT_EQ(notes.size(), 1u) << form;
        const std::string described = ptx::describeUnsupported(module, *notes[0]);
        EXPECT_NE(described.find("is not supported by the simulator yet"), std::string::npos) << described;
        EXPECT_EQ(form.substr(0, form.find(' ')).find(notes[0]->construct), 0u) << notes[0]->construct;
    }
}
