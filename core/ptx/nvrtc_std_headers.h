// The C and C++ library headers a kernel written for nvcc usually starts with (<stdio.h>, <cmath>,
// <cstdint>, ...), written for NVRTC, which has no C or C++ library: compileCuda hands them to
// nvrtcCreateProgram as in-memory headers, so no file is looked up at run time (the build tree, an
// install and the tests see the same text) and they take precedence over every include folder.
// Each holds only what device code can use; the functions themselves (printf, sqrtf, expf, ...) are
// built into NVRTC and need no declaration.
#pragma once

#include <array>
#include <string_view>

namespace warpscope::ptx {

struct NvrtcStdHeader {
    std::string_view name; // as #include <name> spells it
    std::string_view text;
};

inline constexpr std::array<NvrtcStdHeader, 6> kNvrtcStdHeaders = {{
    {"stdio.h", R"header(// <stdio.h> for NVRTC, from Warpscope: device code's one stdio function, printf, is built
// into NVRTC; files and streams do not exist on the device.
#ifndef WARPSCOPE_NVRTC_STDIO_H
#define WARPSCOPE_NVRTC_STDIO_H
#endif
)header"},
    {"cstdio", R"header(// <cstdio> for NVRTC, from Warpscope: printf (built into NVRTC) as std::printf too.
#ifndef WARPSCOPE_NVRTC_CSTDIO
#define WARPSCOPE_NVRTC_CSTDIO
#include <stdio.h>
namespace std {
using ::printf;
using ::size_t;
}
#endif
)header"},
    {"math.h", R"header(// <math.h> for NVRTC, from Warpscope: the functions (sqrtf, expf, fabsf, their double forms and
// the C++ float overloads) are built into NVRTC; this adds the macros glibc's <math.h> gives nvcc's
// host compiler. INFINITY and NAN are constant expressions, as there.
#ifndef WARPSCOPE_NVRTC_MATH_H
#define WARPSCOPE_NVRTC_MATH_H
#ifndef INFINITY // libcu++'s <cuda/std/cmath> defines its own under NVRTC
#define INFINITY (__builtin_bit_cast(float, 0x7f800000u))
#endif
#ifndef NAN
#define NAN (__builtin_bit_cast(float, 0x7fc00000u))
#endif
#define HUGE_VALF (__builtin_bit_cast(float, 0x7f800000u))
#define HUGE_VAL (__builtin_bit_cast(double, 0x7ff0000000000000ull))
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
#endif
)header"},
    {"cmath", R"header(// <cmath> for NVRTC, from Warpscope: NVRTC's built-in math functions as std:: names too
// (std::sqrt(float) is the float overload, as with nvcc), and <math.h>'s macros.
#ifndef WARPSCOPE_NVRTC_CMATH
#define WARPSCOPE_NVRTC_CMATH
#include <math.h>
namespace std {
using ::abs; using ::fabs; using ::fmod; using ::remainder; using ::remquo; using ::fma; using ::fmax;
using ::fmin; using ::fdim; using ::nan;
using ::exp; using ::exp2; using ::expm1; using ::log; using ::log10; using ::log2; using ::log1p;
using ::pow; using ::sqrt; using ::cbrt; using ::hypot;
using ::sin; using ::cos; using ::tan; using ::asin; using ::acos; using ::atan; using ::atan2;
using ::sinh; using ::cosh; using ::tanh; using ::asinh; using ::acosh; using ::atanh;
using ::erf; using ::erfc; using ::tgamma; using ::lgamma;
using ::ceil; using ::floor; using ::trunc; using ::round; using ::lround; using ::llround;
using ::nearbyint; using ::rint; using ::lrint; using ::llrint;
using ::frexp; using ::ldexp; using ::modf; using ::scalbn; using ::scalbln; using ::ilogb; using ::logb;
using ::nextafter; using ::copysign;
using ::isfinite; using ::isinf; using ::isnan; using ::signbit;
}
#endif
)header"},
    {"stdint.h", R"header(// <stdint.h> for NVRTC, from Warpscope: the fixed-width types and their limits from libcu++'s
// NVRTC version, which the toolkit's own headers (cuda/barrier, cuda_pipeline.h) also use, so the
// two agree (int64_t is long long there, where glibc's is long).
#ifndef WARPSCOPE_NVRTC_STDINT_H
#define WARPSCOPE_NVRTC_STDINT_H
#include <cuda/std/cstdint>
#endif
)header"},
    {"cstdint", R"header(// <cstdint> for NVRTC, from Warpscope: <stdint.h>'s types as std:: names too.
#ifndef WARPSCOPE_NVRTC_CSTDINT
#define WARPSCOPE_NVRTC_CSTDINT
#include <stdint.h>
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
#endif
)header"},
}};

} // namespace warpscope::ptx
