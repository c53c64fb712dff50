// The timing model: how many cycles a kernel might take, and when each warp instruction issues, so
// the viz can animate latency hiding. It is a model, not a measurement, and says so wherever its
// numbers appear. Its parameters are the preset's TimingParameters.
//
// How it works. The functional simulator records, per warp, the instructions it issued (and, for
// global memory, the sectors touched). Blocks go to SMs round-robin (block b on SM b mod SMs, each
// SM taking its blocks in order, as many resident at once as occupancy allows). Each SM is then
// replayed on its own:
// - each warp issues its records in the order ptxas's SASS would (timing_schedule.h): loads hoisted
//   ahead of the arithmetic between them, as far as the registers ptxas allocated allow;
// - warps are spread over the SM's schedulers (4); each scheduler issues at most one instruction
//   per cycle, greedy-then-oldest: it keeps issuing from the same warp while that warp is ready,
//   else picks the oldest ready warp;
// - an instruction is ready when the registers it reads have been produced: results arrive after a
//   per-class latency (ALU, SFU, shared memory plus one cycle per extra wavefront, global memory by
//   where its sectors hit: L1, L2 or DRAM); cp.async.wait_group N (wait_all) is ready when the
//   copies of every committed group but the newest N (of every group) have landed, each copy
//   timed as a load of its sectors (a warp-level model of the per-thread groups; a wait on an
//   mbarrier that cp.async.mbarrier.arrive tracks does not wait for the copies);
// - the SM's load/store unit accepts one memory instruction at a time and is busy one cycle per 4
//   sectors (global) or per wavefront (shared), so bank conflicts and uncoalesced accesses cost
//   throughput, not just latency;
// - DRAM bandwidth is shared equally by the SMs: sectors that miss L2 queue for it;
// - L1 (per SM, what the shared-memory carveout leaves of the pool) and L2 (an equal slice per SM)
//   are 4- and 16-way set-associative sector caches with round-robin replacement; stores go
//   through to L2 without allocating in L1;
// - a bar.sync holds a warp until every unfinished warp of its block has arrived.
// The kernel's cycle count is the slowest SM's. Stall cycles are attributed, per issued
// instruction, to what the warp waited for: a global-memory result, a shared-memory result, an
// arithmetic result, the load/store unit, a barrier, or another warp being picked.
#pragma once

#include "gpu/gpu_preset.h"
#include "ptx/ptx_ir.h"
#include "sim/timing_liveness.h"
#include "sim/timing_schedule.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace warpscope::sim {

struct IssueRecord {
    std::int32_t pc = 0;
    std::uint16_t cost = 0;         // global: sectors; shared: wavefronts
    std::uint16_t sectorCount = 0;  // global: sectors listed in the pool
    std::uint32_t sectorOffset = 0; // into the SM's sector pool
};

struct BlockLog {
    std::uint64_t linearBlock = 0;
    std::vector<std::vector<IssueRecord>> warps;
};

enum class StallReason : std::uint8_t {
    None, GlobalMemory, SharedMemory, Execution, LoadStoreUnit, Barrier, NotSelected,
};
const char* stallReasonName(StallReason reason); // "global_memory"

struct StallCycles {
    std::uint64_t globalMemory = 0, sharedMemory = 0, execution = 0, loadStoreUnit = 0, barrier = 0,
                  notSelected = 0;
    void add(const StallCycles& other);
};

struct SmTiming {
    std::uint64_t cycles = 0;
    std::uint64_t issued = 0;
    std::uint64_t l1Hits = 0, l1Misses = 0, l2Hits = 0, l2Misses = 0; // sectors of global loads
    std::uint64_t dramBytes = 0;
    StallCycles stalls;
};

// Per traced block: for each warp, the cycle and stall of each issued instruction, in order.
struct IssueTiming {
    std::uint64_t cycle = 0;
    std::uint32_t stallCycles = 0;
    StallReason reason = StallReason::None;
    // A global access: where the model's caches served its sectors. Loads hit in L1, hit in L2 or
    // come from DRAM; stores and atomics go to L2 (they do not allocate in L1), atomics from DRAM on
    // an L2 miss. Bit i of a mask is the access's sector i in ascending address order (as
    // analyzeGlobalAccess lists them; the first 64).
    std::uint16_t l1Sectors = 0, l2Sectors = 0, dramSectors = 0;
    std::uint64_t l2Mask = 0, dramMask = 0;
};

class SmTimingModel {
public:
    // registersPerThread: ptxas's count, which bounds the loads each warp's schedule keeps in flight (0: no bound).
    SmTimingModel(const ptx::Function& function, const gpu::TimingParameters& parameters, int residentBlocks,
                  int smCount, std::uint64_t sharedBytesPerBlock, int registersPerThread = 0);
    ~SmTimingModel();

    // Replays one SM's blocks (in order). For blocks listed in `traced`, `traceTimes` receives the
    // issue timing of every record (indexed like BlockLog::warps).
    using TraceTimes = std::vector<std::pair<std::uint64_t, std::vector<std::vector<IssueTiming>>>>;
    SmTiming replay(const std::vector<BlockLog>& blocks, const std::vector<std::uint64_t>& sectorPool,
                    const std::vector<std::uint64_t>& traced, TraceTimes* traceTimes) const;

    int residentBlocks() const { return m_residentBlocks; }
    std::uint64_t l1Bytes() const { return m_l1Bytes; }

private:
    class Replay; // one SM's replay, step by step (timing_model.cpp)
    std::vector<std::uint32_t> issueOrder(const std::vector<IssueRecord>& records, std::vector<timing::ScheduledRun>& runs) const;

    const timing::RunSchedule& scheduleFor(const std::vector<std::int32_t>& pcs) const;
    mutable std::mutex m_scheduleMutex;                               // replays of several SMs share the schedules
    mutable std::unordered_map<std::string, std::unique_ptr<timing::RunSchedule>> m_schedules; // by the run's pcs
    const ptx::Function& m_function;
    std::vector<timing::StaticInfo> m_info; // each instruction's class and registers, worked out once per launch
    std::vector<std::uint8_t> m_registerWidths; // per PTX register: 32-bit registers it takes
    std::unique_ptr<timing::Liveness> m_liveness; // with a register budget: what each run leaves live
    int m_registersPerThread = 0;
    gpu::TimingParameters m_parameters;
    int m_residentBlocks = 1;
    int m_smCount = 1;
    std::uint64_t m_l1Bytes = 0;
    std::uint64_t m_l2Bytes = 0;
    double m_dramBytesPerCycle = 1;
    double m_l2SectorsPerCycle = 0; // 0: L2 bandwidth not modelled
    double m_l2PartialSectorsPerCycle = 0; // partly written store sectors merged per cycle, this SM's share
};

// Blocks one SM can hold for this kernel: the occupancy calculator with the function's shared
// memory and `registersPerThread` (PTX does not fix register allocation; ptxas does).
int residentBlocksPerSm(const gpu::GpuPreset& preset, const ptx::Function& function, std::int64_t threadsPerBlock,
                        std::uint64_t dynamicSharedBytes, int registersPerThread);

} // namespace warpscope::sim
