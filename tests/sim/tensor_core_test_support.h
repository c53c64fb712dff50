// Helpers shared by the Tensor Core tests (tensor_core_test.cpp, tensor_core_precision_test.cpp,
// tensor_core_more_test.cpp, tensor_core_more_wmma_test.cpp): the PTX ISA's fragment figures for
// mma.m16n8k16 and mma.m16n8k8 with 16-bit multiplicands and the C/D layout every m16n8kK shares,
// written out from the figures rather than taken from the simulator; two halves packed into one
// 32-bit register; and f32 bit patterns.
#pragma once

#include <bit>
#include <cstdint>

namespace warpscope::tensor_core_test {

// Low half first, as a register holds two adjacent 16-bit elements.
inline std::uint32_t pack(std::uint16_t low, std::uint16_t high) { return static_cast<std::uint32_t>(low) | (static_cast<std::uint32_t>(high) << 16); }

struct Coord {
    int row, col;
};

// The ISA's figures, written out: groupID = lane >> 2, threadID_in_group = lane % 4.
// m16n8k16 A (a0..a7): row groupID for a0, a1, a4, a5, else groupID + 8; column
// threadID_in_group * 2 + (i & 1), plus 8 for a4..a7.
inline Coord a16816(int lane, int i)
{
    const int g = lane >> 2, t = lane % 4;
    const bool lowRow = i == 0 || i == 1 || i == 4 || i == 5;
    return {lowRow ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
}
// m16n8k16 B (b0..b3): row threadID_in_group * 2 + (i & 1), plus 8 for b2, b3; column groupID.
inline Coord b16816(int lane, int i) { return {(lane % 4) * 2 + (i & 1) + (i >= 2 ? 8 : 0), lane >> 2}; }
// m16n8k8 A (a0..a3): row groupID for a0, a1, else groupID + 8; column threadID_in_group * 2 + (i & 1).
inline Coord a1688(int lane, int i) { return {i < 2 ? lane >> 2 : (lane >> 2) + 8, (lane % 4) * 2 + (i & 1)}; }
// m16n8k8 B (b0, b1): row threadID_in_group * 2 + i; column groupID.
inline Coord b1688(int lane, int i) { return {(lane % 4) * 2 + i, lane >> 2}; }
// C and D of both shapes (c0..c3): row groupID for c0, c1, else groupID + 8; column
// threadID_in_group * 2 + (i & 1).
inline Coord c168(int lane, int i) { return {i < 2 ? lane >> 2 : (lane >> 2) + 8, (lane % 4) * 2 + (i & 1)}; }

inline std::uint32_t floatBits(float x) { return std::bit_cast<std::uint32_t>(x); }
inline float bitsFloat(std::uint32_t x) { return std::bit_cast<float>(x); }

} // namespace warpscope::tensor_core_test
