// The PTX of the ceiling kernels (FP32 throughput and contended atomics), generated here so that the
// unit tests can run them on the simulator (their results and counts) and assemble them with ptxas,
// without a GPU.
#pragma once

#include <cstdint>
#include <string>

namespace warpscope::probe {

inline constexpr const char* kFmaPeakEntry = "warpscope_fma_peak";
inline constexpr int kFmaChains = 8;        // independent FMA chains per thread (hides FMA latency)
inline constexpr int kFmaUnroll = 16;       // FMAs per chain per loop iteration

// warpscope_fma_peak(float* out, u32 iterations): each thread runs kFmaChains chains of
// a = a * 0.999999 + 0.000001, kFmaChains x kFmaUnroll FMAs per iteration, and stores the sum of
// its chains to out[global thread index] so that nothing is dead code.
std::string fmaPeakPtx();

// FLOPs of one launch: threads x iterations x chains x unroll x 2.
std::uint64_t fmaPeakFlops(std::uint64_t threads, std::uint32_t iterations);

inline constexpr const char* kAtomicContentionEntry = "warpscope_atomic_contention";

// warpscope_atomic_contention(u32* counter, u32 iterations): every thread adds 1 to the one word
// counter[0] `iterations` times (red.global.add.u32), so every update of the launch queues at the
// L2 slice that owns that word: threads x iterations updates, what the timing model's
// l2AtomicCyclesPerUpdate prices.
std::string atomicContentionPtx();

} // namespace warpscope::probe
