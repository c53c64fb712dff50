// Helpers the instruction semantics share (exec_alu.cpp, exec_float.cpp): lane loops, register
// values as typed numbers, flush-to-zero and saturation. Internal to core/sim.
#pragma once

#include "ptx/ptx_ir.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace warpscope::sim::lanes {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

// A `type` value extended to the 64-bit lane slot: sign-extended for .s types, zero-extended otherwise.
inline std::uint64_t extend(std::uint64_t value, ptx::Type type)
{
    const int bits = ptx::typeBits(type);
    if (bits >= 64)
        return value;
    if (bits == 1)
        return value & 1u;
    const int shift = 64 - bits;
    if (ptx::isSigned(type))
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(value << shift) >> shift);
    return value & (~std::uint64_t{0} >> shift);
}

inline std::int64_t asSigned(std::uint64_t value, ptx::Type type)
{
    const int bits = ptx::typeBits(type);
    const int shift = 64 - bits;
    return static_cast<std::int64_t>(value << shift) >> shift;
}

inline std::uint64_t asUnsigned(std::uint64_t value, ptx::Type type)
{
    const int bits = ptx::typeBits(type);
    return bits >= 64 ? value : value & (~std::uint64_t{0} >> (64 - bits));
}

inline float flushF32(float value, bool ftz)
{
    return ftz && std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

inline float toF32(std::uint64_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits)); }
inline double toF64(std::uint64_t bits) { return std::bit_cast<double>(bits); }
inline std::uint64_t fromF32(float value) { return std::bit_cast<std::uint32_t>(value); }
inline std::uint64_t fromF64(double value) { return std::bit_cast<std::uint64_t>(value); }

// fn(lane) for every lane set in mask, in lane order.
template <class Fn> inline void forLanes(std::uint32_t mask, Fn&& fn)
{
    if (mask == 0xffffffffu) {
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            fn(lane);
        return;
    }
    while (mask != 0) {
        const std::uint32_t lane = static_cast<std::uint32_t>(std::countr_zero(mask));
        mask &= mask - 1;
        fn(lane);
    }
}

// .sat on a float: clamped to [0, 1], NaN to +0.
template <class T> T saturateFloat(T value) { return std::isnan(value) ? T(0) : std::fmin(std::fmax(value, T(0)), T(1)); }

} // namespace warpscope::sim::lanes
