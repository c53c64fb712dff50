// Floating point the host's operators do not give directly:
// - results rounded in a chosen IEEE 754 direction, for PTX's .rz .rm .rp (and .rn) modifiers on
//   add, sub, mul, fma, div, rcp, sqrt and conversions: computed in the host's own rounding modes
//   (fesetround), which round exactly as IEEE 754 says, so every result is the correctly rounded one;
// - the approximate instructions (ex2, lg2, rsqrt, sin, cos, tanh .approx): the simulator returns
//   the exact function rounded to the nearest float, which is within every bound the PTX ISA
//   publishes for them (approximationBounds(), core/sim/README.md). The GPU's hardware
//   approximations can differ from it by up to those bounds.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <vector>

namespace warpscope::sim {

enum class RoundingDirection : std::uint8_t { NearestEven, TowardZero, Down, Up };

// .rn (or none) -> NearestEven, .rz -> TowardZero, .rm -> Down, .rp -> Up. The integer roundings
// (.rni ...) are not directions of a float result and give NearestEven.
RoundingDirection roundingDirection(ptx::Rounding rounding);

enum class FloatOp : std::uint8_t { Add, Sub, Mul, Fma, Div, Rcp, Sqrt };

// op(a, b[, c]) rounded once in `direction` (Rcp and Sqrt read a; Fma is a * b + c with one rounding).
float roundedF32(FloatOp op, float a, float b, float c, RoundingDirection direction);
double roundedF64(FloatOp op, double a, double b, double c, RoundingDirection direction);

// Conversions rounded in `direction` (cvt.rz.f32.f64, cvt.rm.f32.s32, ...).
float roundedF32(double value, RoundingDirection direction);
float roundedF32(std::int64_t value, RoundingDirection direction);
float roundedF32(std::uint64_t value, RoundingDirection direction);
double roundedF64(std::int64_t value, RoundingDirection direction);
double roundedF64(std::uint64_t value, RoundingDirection direction);

// Half precision: IEEE binary16 (.f16: 1 sign, 5 exponent, 10 fraction bits) and bfloat16 (.bf16:
// 1, 8, 7), as 16-bit patterns.
enum class HalfFormat : std::uint8_t { F16, BF16 };
inline constexpr std::uint16_t kCanonicalNanHalf = 0x7fff; // the GPU's NaN result in either format

double halfToDouble(std::uint16_t bits, HalfFormat format); // exact (a NaN stays a NaN)
// `value` rounded once to the format in `direction`: overflow gives infinity where the direction
// rounds away from zero (else the largest finite value), or the largest finite value always with
// satfinite; a NaN gives kCanonicalNanHalf.
std::uint16_t halfFromDouble(double value, HalfFormat format, RoundingDirection direction, bool satfinite = false);
bool isHalfSubnormal(std::uint16_t bits, HalfFormat format);
bool isHalfNan(std::uint16_t bits, HalfFormat format);
// a + b rounded to odd in double: exact when it fits, else its last bit set, so that one more
// rounding to any format of 51 bits or fewer is the correctly rounded sum (no double rounding).
double sumRoundedToOdd(double a, double b);

// The approximate instructions. ftz flushes subnormal inputs and results to sign-preserving zero.
// A NaN result is the GPU's canonical NaN (0x7fffffff).
float approximateEx2(float x, bool ftz);    // ex2.approx{.ftz}.f32: 2^x
float approximateLg2(float x, bool ftz);    // lg2.approx{.ftz}.f32: log2(x)
float approximateRsqrt(float x, bool ftz);  // rsqrt.approx{.ftz}.f32: 1/sqrt(x)
double approximateRsqrt(double x);          // rsqrt.approx.f64
float approximateSin(float x, bool ftz);    // sin.approx{.ftz}.f32
float approximateCos(float x, bool ftz);    // cos.approx{.ftz}.f32
float approximateTanh(float x);             // tanh.approx.f32 (subnormals pass through)
// ex2.approx.f16 / ex2.approx.ftz.bf16 and tanh.approx.{f16,bf16} on one half; ftz as for f32.
std::uint16_t approximateEx2(std::uint16_t x, HalfFormat format, bool ftz);
std::uint16_t approximateTanh(std::uint16_t x, HalfFormat format);

inline constexpr std::uint32_t kCanonicalNanF32 = 0x7fffffffu; // what the GPU returns for a NaN result

// The error bound the PTX ISA (9.1, "Floating Point Instructions") gives for an approximate
// instruction, and where it holds.
struct ApproximationBound {
    enum class Kind : std::uint8_t { Ulp, Relative, Absolute };
    const char* instruction; // "ex2.approx.f32"
    Kind kind;
    double bound;            // ulps, or the error as a fraction (2^-22.9 ...)
    double low, high;        // the input range it is guaranteed over (inclusive; +-inf for all)
    const char* isaText;     // the ISA's words
};
// Every approximate instruction the simulator runs, with its bound (several rows for one
// instruction when the ISA gives different bounds over different ranges).
const std::vector<ApproximationBound>& approximationBounds();

} // namespace warpscope::sim
