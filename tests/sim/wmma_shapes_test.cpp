// The m32n8k16 and m8n32k16 WMMA shapes (core/sim/README.md, "Tensor Cores"): the registers each
// fragment has per lane, typed in here from the PTX ISA's table ("Matrix Fragments for WMMA") and
// checked against both the parser and what NVRTC's mma.h emits; GEMMs compiled by NVRTC from mma.h
// for both shapes and every type family mma.h offers them in (.f16 with .f32 and .f16 accumulators,
// .bf16, .s8 with satf, .u8), row- and column-major, against CPU references on values whose sums are
// exact; their request counts by the README's rule; pointer and stride alignment; and a fragment of
// the wrong size as bad input.
//
// Sections: half-precision encoders; the ISA's register table; the mma.h GEMM kernels and their
// cases; tests (table, GEMMs, statistics, alignment, bad input).
#include "sim_test_support.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::testing_support;

namespace {

// IEEE 754 binary16 bits of a value it holds exactly, normal or zero (the test values are
// multiples of 1/4 below 2048).
std::uint16_t halfBits(double x)
{
    if (x == 0)
        return std::signbit(x) ? 0x8000 : 0;
    int exponent = 0;
    const double mantissa = std::frexp(std::fabs(x), &exponent); // |x| = mantissa * 2^exponent, mantissa in [0.5, 1)
    const double fraction = (2 * mantissa - 1) * 1024;
    EXPECT_EQ(fraction, std::floor(fraction)) << x << " is not a binary16 value";
    EXPECT_TRUE(exponent - 1 + 15 >= 1 && exponent - 1 + 15 <= 30) << x << " is not a normal binary16 value";
    return static_cast<std::uint16_t>((x < 0 ? 0x8000 : 0) | ((exponent - 1 + 15) << 10) | static_cast<int>(fraction));
}

// The value of binary16 bits (normal, subnormal or zero; the results here are finite).
double halfValue(std::uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    const double magnitude = exponent == 0 ? std::ldexp(fraction, -24) : std::ldexp(1024 + fraction, exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

// bfloat16 bits of a value it holds exactly: the high half of the binary32 encoding.
std::uint16_t bf16Bits(double x)
{
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(x));
    EXPECT_EQ(bits & 0xffffu, 0u) << x << " is not a bfloat16 value";
    return static_cast<std::uint16_t>(bits >> 16);
}

// The PTX ISA's registers per lane ("Matrix Fragments for WMMA"): .f16 A and B are "eight .f16x2
// registers" in every shape, an .f16 C or D four .f16x2, an .f32 C or D eight .f32; .bf16 A and B
// "four/two/eight .b32 registers" by shape; .s8/.u8 A and B "two/one/four .b32 registers", an .s32
// C or D eight.
struct IsaFragmentCount {
    const char* shape;
    const char* type; // the multiplicands'
    int a, b;
    int c;            // .f32 or .s32 accumulator
    int cF16;         // .f16 accumulator, 0 where the type has none
};

const IsaFragmentCount kIsaCounts[] = {
    {"m16n16k16", "f16", 8, 8, 8, 4}, {"m32n8k16", "f16", 8, 8, 8, 4}, {"m8n32k16", "f16", 8, 8, 8, 4},
    {"m16n16k16", "bf16", 4, 4, 8, 0}, {"m32n8k16", "bf16", 8, 2, 8, 0}, {"m8n32k16", "bf16", 2, 8, 8, 0},
    {"m16n16k16", "s8", 2, 2, 8, 0}, {"m32n8k16", "s8", 4, 1, 8, 0}, {"m8n32k16", "s8", 1, 4, 8, 0},
    {"m16n16k16", "u8", 2, 2, 8, 0}, {"m32n8k16", "u8", 4, 1, 8, 0}, {"m8n32k16", "u8", 1, 4, 8, 0},
};

const IsaFragmentCount& isaCount(const std::string& shape, const std::string& type)
{
    for (const IsaFragmentCount& row : kIsaCounts)
        if (shape == row.shape && type == row.type)
            return row;
    throw std::runtime_error("no ISA row for " + shape + " " + type);
}

// {%<prefix><first>, ...}: `count` registers.
std::string vectorOf(const std::string& prefix, int first, int count)
{
    std::string list;
    for (int i = 0; i < count; ++i)
        list += (i ? ", %" : "%") + prefix + std::to_string(first + i);
    return "{" + list + "}";
}

// A kernel that loads A, B and C of `shape` and `type`, multiplies and stores D, with the fragments
// given `a`, `b`, `c` registers; `f16Accumulator`: .f16 C and D in .b32 registers, else .f32 (.s32
// for the integer types).
std::string fragmentKernel(const std::string& shape, const std::string& type, bool f16Accumulator, int a, int b, int c)
{
    const bool integer = type == "s8" || type == "u8";
    const std::string accumulator = integer ? "s32" : f16Accumulator ? "f16" : "f32";
    const std::string cPrefix = integer || f16Accumulator ? "r" : "f";
    const std::string types = integer ? "s32." + type + "." + type + ".s32"
                            : type == "bf16" ? std::string("f32.bf16.bf16.f32")
                                             : accumulator + "." + accumulator;
    return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
           "\t.reg .b32 %r<64>;\n\t.reg .f32 %f<64>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [p];\n"
           "\twmma.load.a.sync.aligned.row." + shape + ".global." + type + " " + vectorOf("r", 1, a) + ", [%rd1];\n"
           "\twmma.load.b.sync.aligned.col." + shape + ".global." + type + " " + vectorOf("r", 11, b) + ", [%rd1];\n"
           "\twmma.load.c.sync.aligned.row." + shape + ".global." + accumulator + " " + vectorOf(cPrefix, 21, c) + ", [%rd1];\n"
           "\twmma.mma.sync.aligned.row.col." + shape + "." + types + " " + vectorOf(cPrefix, 31, c) + ", " + vectorOf("r", 1, a) +
           ", " + vectorOf("r", 11, b) + ", " + vectorOf(cPrefix, 21, c) + ";\n"
           "\twmma.store.d.sync.aligned.row." + shape + ".global." + accumulator + " [%rd1], " + vectorOf(cPrefix, 31, c) + ";\n"
           "\tret;\n}\n";
}

// The message parsing `ptx` throws, or "no error".
std::string parseError(const std::string& ptx)
{
    try {
        (void)ptx::parseModule(ptx);
    } catch (const ptx::PtxError& error) {
        return error.what();
    }
    return "no error";
}

// One mma.h GEMM: D = A B + C on one M x N tile, k = 48 in steps of 16, each matrix row- or
// column-major with a padded leading dimension. `scale`: the kernel doubles every element of the A
// and B fragments through fragment::x[] (element-wise, valid whatever the layout), so D = 4 A B + C.
// `satf`: mma_sync(..., satf = true), integer types only.
enum class Family { F16F32, F16F16, BF16, S8, U8 };

struct GemmCase {
    const char* kernel;
    int m, n;
    Family family;
    bool rowA, rowB, rowC;
    bool scale = false, satf = false;
};

const GemmCase kGemms[] = {
    {"f16_f32_32x8", 32, 8, Family::F16F32, true, false, true, true},
    {"f16_f32_8x32", 8, 32, Family::F16F32, true, false, true, true},
    {"f16_f16_32x8", 32, 8, Family::F16F16, false, true, false},
    {"f16_f16_8x32", 8, 32, Family::F16F16, false, true, false},
    {"bf16_32x8", 32, 8, Family::BF16, true, true, false},
    {"bf16_8x32", 8, 32, Family::BF16, false, false, true},
    {"s8_32x8", 32, 8, Family::S8, true, false, true, false, true},
    {"s8_8x32", 8, 32, Family::S8, false, true, false, false, true},
    {"u8_32x8", 32, 8, Family::U8, false, false, false},
    {"u8_8x32", 8, 32, Family::U8, true, true, true},
};

const char* multiplicandName(Family family)
{
    switch (family) {
    case Family::F16F32:
    case Family::F16F16: return "__half";
    case Family::BF16: return "__nv_bfloat16";
    case Family::S8: return "signed char";
    case Family::U8: return "unsigned char";
    }
    return "";
}

const char* accumulatorName(Family family)
{
    return family == Family::F16F16 ? "__half" : family == Family::S8 || family == Family::U8 ? "int" : "float";
}

std::string gemmSource()
{
    std::string source = R"(
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;
template <bool Row> struct Layout { typedef wmma::row_major type; };
template <> struct Layout<false> { typedef wmma::col_major type; };

template <int M, int N, typename T, typename Acc, bool RowA, bool RowB, bool RowC, bool Scale, bool Satf>
__device__ void gemm(const T* a, const T* b, Acc* c, int k, int lda, int ldb, int ldc)
{
    wmma::fragment<wmma::matrix_a, M, N, 16, T, typename Layout<RowA>::type> fa;
    wmma::fragment<wmma::matrix_b, M, N, 16, T, typename Layout<RowB>::type> fb;
    wmma::fragment<wmma::accumulator, M, N, 16, Acc> fc;
    const wmma::layout_t layoutC = RowC ? wmma::mem_row_major : wmma::mem_col_major;
    wmma::load_matrix_sync(fc, c, ldc, layoutC);
    for (int i = 0; i < k; i += 16) {
        wmma::load_matrix_sync(fa, RowA ? a + i : a + i * lda, lda);
        wmma::load_matrix_sync(fb, RowB ? b + i * ldb : b + i, ldb);
        if constexpr (Scale) {
            for (int t = 0; t < fa.num_elements; ++t) fa.x[t] = __hadd(fa.x[t], fa.x[t]);
            for (int t = 0; t < fb.num_elements; ++t) fb.x[t] = __hadd(fb.x[t], fb.x[t]);
        }
        if constexpr (Satf) wmma::mma_sync(fc, fa, fb, fc, true);
        else wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c, fc, ldc, layoutC);
}
)";
    auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    for (const GemmCase& g : kGemms) {
        const std::string t = multiplicandName(g.family), acc = accumulatorName(g.family);
        source += "extern \"C\" __global__ void " + std::string(g.kernel) + "(const " + t + "* a, const " + t + "* b, " + acc +
                  "* c, int k, int lda, int ldb, int ldc)\n{\n    gemm<" + std::to_string(g.m) + ", " + std::to_string(g.n) + ", " +
                  t + ", " + acc + ", " + flag(g.rowA) + ", " + flag(g.rowB) + ", " + flag(g.rowC) + ", " + flag(g.scale) + ", " +
                  flag(g.satf) + ">(a, b, c, k, lda, ldb, ldc);\n}\n";
    }
    return source;
}

// One NVRTC compile (compute_80: .bf16 needs it) for every case.
const ptx::Module& gemmModule()
{
    static const CompiledKernel compiled = compileKernel(gemmSource(), kGemms[0].kernel, "compute_80");
    return *compiled.module;
}

sim::ResolvedArg scalarArg(const char* name, int value)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.scalarBits = static_cast<std::uint32_t>(value);
    arg.integerValue = value;
    return arg;
}

// A matrix of rows x cols stored row- or column-major with leading dimension ld, its padding
// holding `padding`.
struct Stored {
    int rows, cols, ld;
    bool rowMajor;
    std::size_t at(int r, int c) const { return static_cast<std::size_t>(rowMajor ? r * ld + c : c * ld + r); }
    std::size_t size() const { return static_cast<std::size_t>((rowMajor ? rows : cols) * ld); }
};

// The leading dimension of a stored matrix: its row (or column) length rounded up to 16 elements,
// plus 16 of padding (a multiple of 16 elements keeps every row 16-byte aligned for CUDA's ldm rule).
Stored stored(int rows, int cols, bool rowMajor)
{
    const int length = rowMajor ? cols : rows;
    return {rows, cols, (length + 15) / 16 * 16 + 16, rowMajor};
}

constexpr int kDepth = 48; // k: three mma steps

} // namespace

// The ISA's table: each shape and type parses with exactly its registers, and one fewer or one more
// in any fragment is bad input naming the count (nine registers, one past the longest fragment,
// are refused while parsing the vector).
TEST(WmmaShapes, FragmentRegisterCountsFollowTheIsaTable)
{
    auto expectRefused = [](const std::string& ptx, int given, int needed, const char* fragment) {
        const std::string message = parseError(ptx);
        const std::string expected = given > 8 ? "a vector operand has at most eight registers"
                                               : "needs a vector of " + std::to_string(needed) + " registers for its " + fragment + " fragment";
        EXPECT_NE(message.find(expected), std::string::npos) << "given " << given << ": " << message;
    };
    for (const IsaFragmentCount& row : kIsaCounts)
        for (bool f16Accumulator : {false, true}) {
            if (f16Accumulator && row.cF16 == 0)
                continue;
            const int c = f16Accumulator ? row.cF16 : row.c;
            SCOPED_TRACE(std::string(row.shape) + " " + row.type + (f16Accumulator ? " f16 C" : ""));
            EXPECT_EQ(parseError(fragmentKernel(row.shape, row.type, f16Accumulator, row.a, row.b, c)), "no error");
            for (int delta : {-1, 1}) {
                if (row.a + delta > 0)
                    expectRefused(fragmentKernel(row.shape, row.type, f16Accumulator, row.a + delta, row.b, c), row.a + delta, row.a, "A");
                if (row.b + delta > 0)
                    expectRefused(fragmentKernel(row.shape, row.type, f16Accumulator, row.a, row.b + delta, c), row.b + delta, row.b, "B");
                expectRefused(fragmentKernel(row.shape, row.type, f16Accumulator, row.a, row.b, c + delta), c + delta, c, "C");
            }
        }
}

// What mma.h emits for the new shapes has the ISA's register counts too (NVRTC against the table,
// so the table above is the one real programs meet), and every construct of it is supported.
TEST(WmmaShapes, MmaHFragmentsHaveTheIsaRegisterCounts)
{
    const ptx::Module& module = gemmModule();
    for (const GemmCase& g : kGemms) {
        SCOPED_TRACE(g.kernel);
        const ptx::Function* function = module.findFunction(g.kernel);
        ASSERT_NE(function, nullptr);
        EXPECT_TRUE(module.unsupportedFor(*function).empty());
        const std::string shape = g.m == 32 ? "m32n8k16" : "m8n32k16";
        const std::string type = g.family == Family::BF16 ? "bf16" : g.family == Family::S8 ? "s8" : g.family == Family::U8 ? "u8" : "f16";
        const IsaFragmentCount& isa = isaCount(shape, type);
        const int c = g.family == Family::F16F16 ? isa.cF16 : isa.c;
        int seen = 0;
        for (const ptx::Instruction& in : function->instructions) {
            if (in.op == ptx::Op::WmmaLoad) {
                const int expected = in.fragment == ptx::MatrixFragment::A ? isa.a : in.fragment == ptx::MatrixFragment::B ? isa.b : c;
                EXPECT_EQ(in.operands[0].vectorCount, expected);
                ++seen;
            } else if (in.op == ptx::Op::WmmaMma) {
                EXPECT_EQ(in.operands[0].vectorCount, c);
                EXPECT_EQ(in.operands[1].vectorCount, isa.a);
                EXPECT_EQ(in.operands[2].vectorCount, isa.b);
                EXPECT_EQ(in.operands[3].vectorCount, c);
                EXPECT_EQ(in.shapeM, g.m);
                EXPECT_EQ(in.shapeN, g.n);
                EXPECT_EQ(in.shapeK, 16);
                ++seen;
            } else if (in.op == ptx::Op::WmmaStore) {
                EXPECT_EQ(in.operands[1].vectorCount, c);
                ++seen;
            }
        }
        EXPECT_GE(seen, 5); // load a, b, c, mma, store
    }
}

// Every case against a CPU GEMM. Floating point: A holds integers in [-3, 3], B multiples of 1/2 in
// [-2, 2], C multiples of 1/4 in [-8, 8]: every product and sum is exact in binary16 (below 2048 in
// steps of 1/4), bfloat16 inputs and binary32, so D is the exact result and compared for equality.
// Integers: random bytes and accumulators; the satf cases start two accumulators next to the s32
// bounds and clamp after each 16-wide step, as mma_sync(..., satf = true) does per instruction.
// Padding between rows holds values that would show if read (NaN, 100), and C's padding must come
// back untouched.
TEST(WmmaShapes, MmaHGemmsMatchCpuReferences)
{
    const ptx::Module& module = gemmModule();
    std::mt19937 random(3208);
    for (const GemmCase& g : kGemms) {
        SCOPED_TRACE(g.kernel);
        const int m = g.m, n = g.n, k = kDepth;
        const Stored sa = stored(m, k, g.rowA), sb = stored(k, n, g.rowB), sc = stored(m, n, g.rowC);
        const bool integer = g.family == Family::S8 || g.family == Family::U8;
        // The values, row-major and unpadded, for the reference.
        std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
        std::uniform_int_distribution<int> small(-3, 3), half(-4, 4), quarter(-32, 32), byte(0, 255);
        std::uniform_int_distribution<int> accumulator(-1000000000, 1000000000);
        for (double& x : a) x = integer ? (g.family == Family::S8 ? byte(random) - 128 : byte(random)) : small(random);
        for (double& x : b) x = integer ? (g.family == Family::S8 ? byte(random) - 128 : byte(random)) : half(random) / 2.0;
        for (double& x : c) x = integer ? accumulator(random) : quarter(random) / 4.0;
        if (g.satf) { // D[0][5] passes the top in the first step, D[1][2] the bottom
            c[5] = std::numeric_limits<std::int32_t>::max() - 3;
            c[static_cast<std::size_t>(n + 2)] = std::numeric_limits<std::int32_t>::min() + 3;
            for (int i = 0; i < 16; ++i) {
                a[static_cast<std::size_t>(i)] = 100;         // row 0
                a[static_cast<std::size_t>(k + i)] = 100;     // row 1
                b[static_cast<std::size_t>(i * n + 5)] = 100; // column 5
                b[static_cast<std::size_t>(i * n + 2)] = -100; // column 2
            }
        }
        // Stored, with their padding.
        auto multiplicands = [&](const std::vector<double>& values, const Stored& s, int cols) {
            if (integer) {
                std::vector<std::uint8_t> bytes(s.size(), 100);
                for (int r = 0; r < s.rows; ++r)
                    for (int col = 0; col < s.cols; ++col)
                        bytes[s.at(r, col)] = static_cast<std::uint8_t>(static_cast<int>(values[static_cast<std::size_t>(r * cols + col)]) & 0xff);
                return bufferArg("", sim::ElementType::U8, bytes);
            }
            std::vector<std::uint16_t> bits(s.size(), g.family == Family::BF16 ? 0x7fc0 : 0x7e00); // NaN
            for (int r = 0; r < s.rows; ++r)
                for (int col = 0; col < s.cols; ++col) {
                    const double x = values[static_cast<std::size_t>(r * cols + col)];
                    bits[s.at(r, col)] = g.family == Family::BF16 ? bf16Bits(x) : halfBits(x);
                }
            return bufferArg("", sim::ElementType::U16, bits);
        };
        sim::ResolvedArg argA = multiplicands(a, sa, k), argB = multiplicands(b, sb, n), argC;
        argA.name = "a";
        argB.name = "b";
        const std::uint32_t cPadding = 0x5a5a5a5au;
        if (g.family == Family::F16F16) {
            std::vector<std::uint16_t> bits(sc.size(), static_cast<std::uint16_t>(cPadding));
            for (int r = 0; r < m; ++r)
                for (int col = 0; col < n; ++col)
                    bits[sc.at(r, col)] = halfBits(c[static_cast<std::size_t>(r * n + col)]);
            argC = bufferArg("c", sim::ElementType::U16, bits);
        } else {
            std::vector<std::uint32_t> bits(sc.size(), cPadding);
            for (int r = 0; r < m; ++r)
                for (int col = 0; col < n; ++col) {
                    const double x = c[static_cast<std::size_t>(r * n + col)];
                    bits[sc.at(r, col)] = integer ? static_cast<std::uint32_t>(static_cast<std::int32_t>(x))
                                                  : std::bit_cast<std::uint32_t>(static_cast<float>(x));
                }
            argC = bufferArg("c", sim::ElementType::U32, bits);
        }
        CompiledKernel kernel;
        kernel.function = module.findFunction(g.kernel);
        ASSERT_NE(kernel.function, nullptr);
        sim::LaunchRequest request;
        request.module = &module;
        request.function = kernel.function;
        request.grid = {1, 1, 1};
        request.block = {32, 1, 1};
        request.args = {argA, argB, argC, scalarArg("k", k), scalarArg("lda", sa.ld), scalarArg("ldb", sb.ld), scalarArg("ldc", sc.ld)};
        request.preset = *gpu::findPreset("sm_90");
        const sim::SimResult result = sim::simulate(request);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        for (const sim::Hazard& hazard : result.hazards)
            ADD_FAILURE() << hazard.message;

        const double factor = g.scale ? 4 : 1;
        std::vector<double> expected(static_cast<std::size_t>(m * n));
        for (int r = 0; r < m; ++r)
            for (int col = 0; col < n; ++col) {
                double sum = c[static_cast<std::size_t>(r * n + col)];
                for (int step = 0; step < k / 16; ++step) {
                    for (int i = step * 16; i < step * 16 + 16; ++i)
                        sum += factor * a[static_cast<std::size_t>(r * k + i)] * b[static_cast<std::size_t>(i * n + col)];
                    if (g.satf)
                        sum = std::clamp<double>(sum, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
                }
                expected[static_cast<std::size_t>(r * n + col)] = sum;
            }
        if (g.satf) { // the clamp after the first step shows: without it D[0][5] would be larger
            double unclamped = c[5];
            for (int i = 0; i < k; ++i)
                unclamped += a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i * n + 5)];
            EXPECT_LT(expected[5], unclamped);
        }
        std::vector<double> got(static_cast<std::size_t>(m * n));
        if (g.family == Family::F16F16) {
            const std::vector<std::uint16_t> d = bufferValues<std::uint16_t>(result, "c");
            for (int r = 0; r < m; ++r)
                for (int col = 0; col < n; ++col)
                    got[static_cast<std::size_t>(r * n + col)] = halfValue(d[sc.at(r, col)]);
            for (std::size_t i = 0; i < d.size(); ++i)
                if (sc.rowMajor ? static_cast<int>(i) % sc.ld >= n : static_cast<int>(i) % sc.ld >= m) {
                    EXPECT_EQ(d[i], static_cast<std::uint16_t>(cPadding)) << "padding at " << i;
                }
        } else {
            const std::vector<std::uint32_t> d = bufferValues<std::uint32_t>(result, "c");
            for (int r = 0; r < m; ++r)
                for (int col = 0; col < n; ++col) {
                    const std::uint32_t bits = d[sc.at(r, col)];
                    got[static_cast<std::size_t>(r * n + col)] =
                        integer ? static_cast<double>(static_cast<std::int32_t>(bits)) : static_cast<double>(std::bit_cast<float>(bits));
                }
            for (std::size_t i = 0; i < d.size(); ++i)
                if (sc.rowMajor ? static_cast<int>(i) % sc.ld >= n : static_cast<int>(i) % sc.ld >= m) {
                    EXPECT_EQ(d[i], cPadding) << "padding at " << i;
                }
        }
        int wrong = 0;
        for (int r = 0; r < m; ++r)
            for (int col = 0; col < n; ++col) {
                const std::size_t i = static_cast<std::size_t>(r * n + col);
                if (got[i] != expected[i] && ++wrong <= 8)
                    ADD_FAILURE() << "D[" << r << "][" << col << "] = " << got[i] << ", expected " << expected[i];
            }
        EXPECT_EQ(wrong, 0);
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaMma).warpExecutions, static_cast<std::uint64_t>(k / 16));
        EXPECT_EQ(countersOf(result, *kernel.function, ptx::Op::WmmaLoad).warpExecutions, static_cast<std::uint64_t>(1 + 2 * k / 16));
    }
}

// Requests by the README's rule ("Memory and statistics"): one warp-wide request per fragment
// register, 32 bits per lane when the elements it packs lie next to each other in memory, else one
// request per element. The register counts are the ISA's; which elements a register packs is the
// layout README describes (a register packs neighbours along k: A's row, B's column). So:
// - s8 m32n8k16, A row-major (4 registers of 4 neighbours), B column-major (1 of 4), C and D
//   row-major .s32 (8): per step 4 + 1 requests of 4 bytes a lane, plus 8 for C and 8 for D;
// - u8 m32n8k16, A column-major: its 4 registers' bytes lie a column apart, 16 one-byte requests a
//   step, B column-major 1;
// - f16 m8n32k16 with .f32 C: A row-major and B column-major are 8 registers of 2 neighbours each
//   (A's repeated ones too: the rule counts registers), C and D 8.
TEST(WmmaShapes, RequestsFollowTheRegisterRule)
{
    const ptx::Module& module = gemmModule();
    struct Expected {
        const char* kernel;
        std::uint64_t loadRequests, loadBytes, storeRequests;
    };
    const int steps = kDepth / 16;
    const Expected cases[] = {
        {"s8_32x8", static_cast<std::uint64_t>(steps * (4 + 1) + 8), static_cast<std::uint64_t>((steps * (4 + 1) + 8) * 32 * 4), 8},
        {"u8_32x8", static_cast<std::uint64_t>(steps * (16 + 1) + 8),
         static_cast<std::uint64_t>(steps * (16 * 32 * 1 + 1 * 32 * 4) + 8 * 32 * 4), 8},
        {"f16_f32_8x32", static_cast<std::uint64_t>(steps * (8 + 8) + 8), static_cast<std::uint64_t>((steps * (8 + 8) + 8) * 32 * 4), 8},
    };
    for (const Expected& e : cases) {
        SCOPED_TRACE(e.kernel);
        const GemmCase* g = nullptr;
        for (const GemmCase& candidate : kGemms)
            if (std::string(candidate.kernel) == e.kernel)
                g = &candidate;
        ASSERT_NE(g, nullptr);
        const Stored sa = stored(g->m, kDepth, g->rowA), sb = stored(kDepth, g->n, g->rowB), sc = stored(g->m, g->n, g->rowC);
        const bool halves = g->family == Family::F16F32;
        auto zeros = [&](const char* name, const Stored& s) {
            return halves ? bufferArg(name, sim::ElementType::U16, std::vector<std::uint16_t>(s.size(), 0))
                          : bufferArg(name, sim::ElementType::U8, std::vector<std::uint8_t>(s.size(), 0));
        };
        CompiledKernel kernel;
        kernel.function = module.findFunction(e.kernel);
        sim::LaunchRequest request;
        request.module = &module;
        request.function = kernel.function;
        request.grid = {1, 1, 1};
        request.block = {32, 1, 1};
        request.args = {zeros("a", sa), zeros("b", sb), bufferArg("c", sim::ElementType::U32, std::vector<std::uint32_t>(sc.size(), 0)),
                        scalarArg("k", kDepth), scalarArg("lda", sa.ld), scalarArg("ldb", sb.ld), scalarArg("ldc", sc.ld)};
        request.preset = *gpu::findPreset("sm_90");
        const sim::SimResult result = sim::simulate(request);
        ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
        EXPECT_TRUE(result.hazards.empty());
        const sim::InstructionCounters loads = countersOf(result, *kernel.function, ptx::Op::WmmaLoad);
        const sim::InstructionCounters stores = countersOf(result, *kernel.function, ptx::Op::WmmaStore);
        EXPECT_EQ(loads.globalRequests, e.loadRequests);
        EXPECT_EQ(loads.bytesRequested, e.loadBytes);
        EXPECT_EQ(stores.globalRequests, e.storeRequests);
        EXPECT_EQ(stores.bytesRequested, e.storeRequests * 32 * 4);
    }
}

// Alignment by the fragment's size in bytes, the ISA's registers times 4: an m32n8k16 .bf16 B is
// two registers, 8 bytes, so its pointer must be 8-byte aligned (min(32, 8)): 4 bytes past is a
// hazard, 8 bytes past is not. An m8n32k16 .s8 A is one register, 4 bytes: a column-major stride of
// 18 bytes is not a multiple of min(16, 4) = 4 (each element access, a byte, is aligned), 20 is.
TEST(WmmaShapes, PointerAndStrideAlignmentUseTheFragmentSize)
{
    const CompiledKernel kernel = parsePtxKernel(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry al(.param .u64 a)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	cvta.to.global.u64 %rd1, %rd1;
	add.s64 %rd2, %rd1, 4;
	wmma.load.b.sync.aligned.col.m32n8k16.global.bf16 {%r1, %r2}, [%rd2];
	add.s64 %rd3, %rd1, 8;
	wmma.load.b.sync.aligned.col.m32n8k16.global.bf16 {%r3, %r4}, [%rd3];
	mov.u32 %r30, 18;
	wmma.load.a.sync.aligned.col.m8n32k16.global.s8 {%r5}, [%rd1], %r30;
	mov.u32 %r31, 20;
	wmma.load.a.sync.aligned.col.m8n32k16.global.s8 {%r6}, [%rd1], %r31;
	ret;
}
)", "al");
    const sim::SimResult result = simulateWithArgs(kernel, {1, 1, 1}, {32, 1, 1},
                                                   {bufferArg("a", sim::ElementType::U16, std::vector<std::uint16_t>(1024, 0x3f80))});
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_EQ(result.hazards.size(), 2u);
    for (const sim::Hazard& hazard : result.hazards)
        EXPECT_EQ(hazard.kind, sim::HazardKind::MisalignedAccess) << hazard.message;
    const sim::Hazard& pointer = result.hazards[0].ptxLine == 11 ? result.hazards[0] : result.hazards[1];
    const sim::Hazard& stride = result.hazards[0].ptxLine == 11 ? result.hazards[1] : result.hazards[0];
    EXPECT_EQ(pointer.ptxLine, 11);
    EXPECT_EQ(pointer.message,
              "wmma.load at a matrix pointer 4 bytes past a multiple of 8 (a 8-byte fragment's rows must start aligned "
              "to it: PTX ISA, \"Matrix Storage for WMMA\"; CUDA asks for a 256-bit aligned pointer; the GPU raises a "
              "misaligned-address error)");
    EXPECT_EQ(stride.ptxLine, 15);
    EXPECT_EQ(stride.message,
              "wmma.load with a stride of 18 elements (18 bytes), not a multiple of 4 bytes: its rows start misaligned "
              "(PTX ISA, \"Matrix Storage for WMMA\"; CUDA's ldm rule)");
}

// Bad input says what the fragment needs, with the PTX line: an m32n8k16 .bf16 A given the four
// registers of m16n16k16's, an m8n32k16 .f16 A given the 2 registers its 4 halves would fill (the
// ISA wants eight .f16x2 in every shape), an integer wmma.mma with m32n8k16's B on m8n32k16.
TEST(WmmaShapes, WrongRegisterCountsAreBadInputNamingTheCount)
{
    auto kernel = [](const std::string& line) {
        return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
               "\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [p];\n\t" + line + "\n\tret;\n}\n";
    };
    EXPECT_EQ(parseError(kernel("wmma.load.a.sync.aligned.row.m32n8k16.global.bf16 {%r1, %r2, %r3, %r4}, [%rd1];")),
              "PTX line 9: 'wmma.load.a.sync.aligned.row.m32n8k16.global.bf16' needs a vector of 8 registers for its A fragment");
    EXPECT_EQ(parseError(kernel("wmma.load.a.sync.aligned.col.m8n32k16.f16 {%r1, %r2}, [%rd1], 16;")),
              "PTX line 9: 'wmma.load.a.sync.aligned.col.m8n32k16.f16' needs a vector of 8 registers for its A fragment");
    EXPECT_EQ(parseError(kernel("wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32 " + vectorOf("r", 1, 8) + ", {%r9}, {%r10}, " +
                                vectorOf("r", 11, 8) + ";")),
              "PTX line 9: 'wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32' needs a vector of 4 registers for its B fragment");
    // A shape/type pair the ISA does not define stays a note, not a crash: tf32 comes only in m16n16k8.
    const ptx::Module module = ptx::parseModule(kernel("wmma.load.a.sync.aligned.row.m32n8k16.global.tf32 {%r1, %r2, %r3, %r4}, [%rd1];"));
    EXPECT_EQ(module.unsupportedFor(*module.findFunction("k")).size(), 1u);
}
