// Volta's independent thread scheduling as the simulator models it (SimOptions::warpModel =
// WarpModel::IndependentThreads), and the spin watch both warp models share.
//
// Since Volta every thread has its own program counter (NVIDIA Tesla V100 GPU Architecture
// whitepaper, 2017, "Independent Thread Scheduling"; CUDA C++ Programming Guide, "Independent Thread
// Scheduling"): divergent paths of a warp may interleave, and a lane spinning on a flag that
// another lane of its warp sets lets that lane run. The model (its_scheduler.cpp):
//
// - A warp's lanes form groups. A group runs as the stack model runs a whole warp: one instruction
//   for all its active lanes, its divergent paths one after the other, rejoined at the branch's
//   post-dominator. A warp starts as one group, so code that never spins runs exactly as under the
//   stack model: the same instructions, in the same order, with the same counters.
// - Spin watch: when the running path takes a backward branch while lanes of the warp are elsewhere,
//   the simulator keeps the warp's registers. The same branch taken by the same lanes with the same
//   registers again means they cannot leave the loop by themselves (what they wait for must come
//   from memory another thread writes).
// - Splitting: under ITS the spinning lanes are then set aside as a group of their own, with their
//   copy of the stack, and the other lanes of their group run on from where they waited. (Not inside
//   a device-function call: there the group stays whole.)
// - Turns, the documented deterministic order: the running group keeps issuing until it ends, spins
//   with no lanes to hand over to, or waits at a convergence point; the next group is then the first
//   one that can run in the queue of set-aside groups (a group set aside joins the back of the queue).
//   A group that spins with nobody in the warp to run ends the warp's turn, so other warps run.
// - Convergence: before bar.warp.sync (__syncwarp), a .sync collective (shfl, vote, match, redux)
//   or a .aligned matrix instruction, a group whose member lanes (the union of its executing lanes'
//   member masks; the whole warp for the .aligned ones and for bar.sync) include lanes of other
//   groups waits until each of those groups waits at such an instruction too. Groups whose stacks
//   are then equal (the same pc at every level) merge into one and the instruction issues once; the
//   others issue theirs in turn. Groups that reach the same place at any time merge as well.
// - Livelock: a path that spins kSpinRepeatsForLivelock times with nothing changing, while every
//   other warp of the block has finished, waits at a barrier or spins too, is a warp_livelock
//   hazard and the block stops. Under the stack model this is the intra-warp spin lock: the stack
//   runs the spinning side and never the lane that would release it (watched from the block's
//   kStackModelWatchesAfter-th warp-instruction on, so that the default model pays nothing before).
//
// What it leaves out: groups switch only at the points above, not at every instruction as a GPU may,
// so a race between lanes of one warp gives the stack model's result; the race check (exec_memory.cpp)
// reports such races in both models, since any interleaving is allowed. A spin that counts its tries
// (registers change every time) is not seen as one.
#pragma once

#include <array>
#include <cstdint>

namespace warpscope::sim {

struct WarpState; // block_runner.h

// Identical iterations of a spin, with every other warp stuck too, before it is a livelock: enough
// that each other warp has had several turns (32 instructions each) since the spin began.
inline constexpr std::uint32_t kSpinRepeatsForLivelock = 64;
// Under the stack model spins matter only for the livelock report, so loops are watched only once a
// block has issued this many warp-instructions: the default model pays nothing for the watch in
// blocks shorter than that (most demo kernels' blocks), and the stepper reaches a livelock after a
// few thousand steps.
inline constexpr std::uint64_t kStackModelWatchesAfter = 1ull << 12;

// Each lane's next instruction: the pc of the topmost stack entry that holds the lane, in the
// running group or a set-aside one; -1 for a lane that exited or holds no thread.
std::array<std::int32_t, 32> lanePcs(const WarpState& warp);

} // namespace warpscope::sim
