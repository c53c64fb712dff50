// Cooperative launches (cudaLaunchCooperativeKernel) and their grid-wide barriers.
//
// What grid.sync() is. Cooperative groups' grid.sync() (cooperative_groups/details/sync.h, CUDA 13)
// is ordinary PTX on one word of the grid workspace, whose address the driver passes in
// %envreg1:%envreg2 (high and low halves; details/driver_abi.h: struct grid_workspace
// { unsigned wsSize; unsigned barrier; }). Every thread waits at bar.sync 0; thread 0 of each block
// adds to the barrier word with atom.add.release.gpu (block 0 adds 0x80000000 - (blocks - 1), the
// others 1, so the last arrival flips bit 31); thread 0 then polls the word with ld.acquire.gpu
// until its bit 31 differs from the value the add returned; every thread waits at bar.sync 0 again.
// grid.is_valid() only asks whether the workspace address is non-zero.
//
// How the simulator runs it. A cooperative launch (SimOptions::cooperative) gets an 8-byte workspace
// in global memory, allocated after the arguments and module variables (their addresses are the
// same as without it), holding wsSize = 8 and a barrier word of 0. Every block of the grid is
// resident at once: one BlockRunner per block, all on one host thread. Blocks take turns in block
// order; a block runs until it completes or waits at a grid barrier, which is when its polling
// thread found the barrier closed (bit 31 unchanged since the block's own arrival) and every other
// warp of the block waits at bar.sync or has exited. The next block then runs. A waiting block's
// next turn polls again: the barrier has opened once every block has arrived, and the block runs on.
// One thread and a fixed order make results, counters and the number of polls the same on every
// run: a block polls while its other warps are still on their way to bar.sync, then once more
// when its next turn finds the barrier open (the last block to arrive finds it open at once); a
// GPU polls a number of times that depends on timing.
//
// A round of turns in which no block arrives anywhere, completes, or finds a barrier open can never
// end: some block finished, or waits at another barrier, without arriving at the one the others
// wait at. The launch stops with SimStatus::GridBarrierDeadlock and a sentence naming the blocks
// (on a GPU it hangs).
//
// Not modelled: the timing model replays each SM's blocks from what they issued, without the time a
// block spends waiting for the others at a grid barrier. Blocks that spin on a flag another block
// sets (without grid.sync()) run one at a time, as in any launch, and stop at the block budget.
#pragma once

#include "sim/simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {

struct LaunchRun;

// The workspace cooperative_groups/details/driver_abi.h reads: wsSize, then the barrier word.
inline constexpr std::uint64_t kGridWorkspaceBytes = 8;
inline constexpr std::uint64_t kGridBarrierWordOffset = 4;
std::vector<std::uint8_t> initialGridWorkspace(); // wsSize = 8, barrier = 0

// How many blocks a cooperative launch of this request may have: blocks per SM from the occupancy
// calculator (cuda_occupancy.h, with SimOptions::registersPerThread) times the preset's SMs.
struct CooperativeCapacity {
    int blocksPerSm = 0;
    int sms = 0;
    std::uint64_t blocks = 0;  // blocksPerSm x sms
    std::string limitedBy;     // what binds blocks per SM, with its arithmetic
};
CooperativeCapacity cooperativeCapacity(const LaunchRequest& request);

// Throws InputError, one line with the numbers, when the grid has more blocks than can be resident
// at once (the driver refuses such a launch with cudaErrorCooperativeLaunchTooLarge).
void requireCooperativeFits(const LaunchRequest& request);

// Runs every block of a cooperative launch to the end (see above); `run` has one runner per block.
void runCooperativeGrid(LaunchRun& run);

} // namespace warpscope::sim
