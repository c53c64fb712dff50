// The memory ladder's kernels and pointer chains, generated here (no CUDA calls) so that the unit
// tests run them on the simulator and check what they compute without a GPU.
//
// Latency is measured as in Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking" (2018), and Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
// Architecture" (2024): one thread follows a chain of dependent loads (each address is the value
// the previous load returned), so no two loads overlap; %clock64 and %globaltimer are read around
// the chase and divided by its length. Bandwidth kernels read a working set that fits the level
// (or, for DRAM, is far larger than L2) many times with 16-byte vector loads from every SM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::probe {

// Global memory chase: (u64 chain, u32 warm, u32 steps, u64 out). Starting at byte offset 0 of
// `chain`, it follows `warm` links untimed (to fill the caches), then `steps` timed links, and
// writes out[0] = cycles, out[1] = nanoseconds (%globaltimer), out[2] = the offset it ended at.
// Each 8-byte node holds the byte offset of the next. The .ca entry caches in L1; the .cg entry
// bypasses L1 and starts at L2.
inline constexpr const char* kChaseCaEntry = "warpscope_chase_ca";
inline constexpr const char* kChaseCgEntry = "warpscope_chase_cg";
// Shared memory chase: (u64 chain, u32 nodes, u32 warm, u32 steps, u64 out). Copies `nodes` u32
// byte offsets from `chain` into dynamic shared memory, then chases them as above.
inline constexpr const char* kChaseSharedEntry = "warpscope_chase_shared";
// Global read bandwidth: (u64 data, u64 vectors, u32 repeats, u64 out). Every thread of the grid
// reads 16-byte vectors i = thread, thread + threads, ... < vectors, `repeats` times over, and
// writes the sum of all it read to out[thread]. The .ca entry keeps the data in L1 when each block
// reads the same small set (L1 bandwidth); .cg bypasses L1 (L2 and DRAM bandwidth).
inline constexpr const char* kReadCaEntry = "warpscope_read_ca";
inline constexpr const char* kReadCgEntry = "warpscope_read_cg";
// Per-block read of a small set through L1: (u64 data, u32 vectors, u32 repeats, u64 out); each
// block's threads read vectors tid, tid + ntid, ... < vectors of the same `data`, `repeats` times.
inline constexpr const char* kReadL1Entry = "warpscope_read_l1";
// Shared memory bandwidth: (u32 repeats, u64 out). Each block fills 16 KB of shared memory with
// its thread indices as floats, then each thread reads 16-byte vectors tid, tid + ntid, ...
// (modulo 1,024 vectors) `repeats` x 1,024 / ntid times, and writes its sum to out[global thread].
inline constexpr const char* kReadSharedEntry = "warpscope_read_shared";
inline constexpr std::uint32_t kSharedReadBytes = 16 * 1024;

// The whole module (PTX 7.0, sm_70), every entry above.
std::string memoryLadderPtx();

// One node of a pointer chain: at byte `offset`, the value `next` (the next node's byte offset).
struct ChainNode {
    std::uint64_t offset = 0;
    std::uint64_t next = 0;
};

// `footprint / stride` nodes `stride` bytes apart, linked in one cycle in a pseudo-random order
// (seeded: the same seed gives the same chain), starting and ending at offset 0, so that every node
// is visited once per lap and a fixed-stride prefetcher cannot guess the next address. With
// `pageBytes` > 0 the lap visits the pages in order and the nodes of each page in random order
// (a page's translation is then reused by all its nodes). Throws std::invalid_argument for a
// stride of 0 or not a multiple of 4, or a footprint smaller than two strides.
std::vector<ChainNode> pointerChain(std::uint64_t footprint, std::uint64_t stride, std::uint32_t seed,
                                    std::uint64_t pageBytes = 0);

// The offset reached after following `links` links from offset 0 (what the chase writes to out[2]).
std::uint64_t walkChain(const std::vector<ChainNode>& chain, std::uint64_t links);

} // namespace warpscope::probe
