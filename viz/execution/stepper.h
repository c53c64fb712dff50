// The stepper's state, apart from any drawing: one recorded block (sim/block_recording.h), the
// position in it, the warp being followed, and the moves the view's buttons and keys make. Qt-free
// and unit-tested; the execution panel and its scene only read it.
//
// Position p means "before the block's p-th warp-instruction". Following a warp, the current
// instruction is that warp's first at or after p; following all warps, it is instruction p itself.
#pragma once

#include "gpu/gpu_preset.h"
#include "launch/launch_geometry.h"
#include "ptx/ptx_ir.h"
#include "ptx/sass.h"
#include "sim/block_recording.h"
#include "sim/hazards.h"
#include "sim/sim_stats.h"
#include "memory/memory_model.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::viz {

// What one run of the stepper holds: the kernel, its launch and what the simulator recorded.
// A buffer argument where the simulator placed it, so the register table can name the pointers into it.
struct BufferPlace {
    std::string name;
    std::uint64_t base = 0, bytes = 0;
    std::uint32_t elementBytes = 1; // its declared element's size (4 for f32[n])
};

struct StepperRun {
    std::shared_ptr<const ptx::Module> module;    // keeps `function` alive
    const ptx::Function* function = nullptr;
    std::string kernelName;
    std::string sourceName;                       // "divergence.cu" or the playground's name
    std::string sourceText;                       // empty when only PTX is known
    std::string ptxText;
    launch::Dim3 grid, block, blockIndex;
    std::shared_ptr<const sim::BlockRecording> recording;
    std::vector<sim::LineStats> lines;            // the whole launch's counters per source line
    std::vector<sim::Hazard> hazards;             // the whole launch's
    std::vector<BufferPlace> buffers;             // the buffer arguments' device addresses
    double simSeconds = 0;                        // how long the launch took to simulate
    std::string statusMessage;                    // empty when the launch completed
    // For the memory view: the GPU the launch ran as, its arguments, the whole launch's statistics
    // (with the timing model's cache figures) and the latency-hiding timeline of the first blocks
    // on the recorded block's SM.
    gpu::GpuPreset preset;
    int registersPerThread = 32;                  // for resident blocks: ptxas's, the explorer's what-if, or 32 without ptxas
    std::optional<ptx::PtxasResources> ptxas;     // ptxas -v for the preset's GPU; nullopt without ptxas (ptxasProblem says why)
    std::string ptxasProblem;
    // Shuffles that read lanes not executing them: per hazard PTX line, the SASS SHFL and the register it
    // reads there (ptx::describeSassShuffles), or why the SASS is not at hand.
    std::map<std::int32_t, std::string> hazardSass;
    std::uint64_t dynamicSharedBytes = 0;
    std::vector<std::string> argSpecs;
    sim::KernelStats stats;
    LatencyTimeline timeline;
};

// The per-line heat the source view shows, from the whole launch's counters.
enum class HeatMetric : std::uint8_t { SectorsPerRequest, BankConflicts, Divergence };
struct LineHeatValue {
    double value = 0;    // 0..1 for the colour
    std::string text;    // "8.0 sectors per request (4.0 is ideal for 4-byte lanes)"
};
std::map<int, LineHeatValue> lineHeat(const std::vector<sim::LineStats>& lines, HeatMetric metric);

// How the register table shows a lane's value: by the register's PTX type, or forced. Half and
// BFloat16 read a 16-bit register as one value and a 32-bit one as two, low half first: what
// cvt.rn.f16.f32 leaves in a .b16 register, and the packed pairs of f16x2 arithmetic and of wmma/mma
// fragments.
// Short is Typed with floats to 4 significant digits, so more lanes fit side by side (the exact
// value is on hover).
enum class RegisterFormat : std::uint8_t { Typed, Hex, Int, Float, Half, BFloat16, Short };
// "0x0000002a", "-3", "1.5", "T", "0.5 -1.25" (a pair, low half first): the low `type`'s bits of
// a 64-bit lane slot.
std::string formatRegisterValue(std::uint64_t raw, ptx::Type type, RegisterFormat format);
// A 64-bit value that points into a buffer, or just past its end, as the element it points at
// ("in[32]", as the kernel's source and the lessons write it), or the byte offset where it falls
// inside an element ("in+130"): what the kernel's pointer arithmetic made, in 6 characters instead
// of the 15 of the address; empty when it points into none.
std::string bufferAddressText(std::uint64_t value, const std::vector<BufferPlace>& buffers);

// One sentence on why a hazard of this kind is a bug on a real GPU.
const char* hazardWhy(sim::HazardKind kind);

// The launch's hazards in the order the list shows them and F6 visits them: by block (linear index
// in `grid`), then warp, then instruction.
void sortHazardsByPlace(std::vector<sim::Hazard>& hazards, launch::Dim3 grid);
// One hazard as a row of the stepper's list: what, where and which lanes.
struct HazardRow {
    std::string kind;    // "out_of_bounds_global"
    std::string block;   // "3" in a 1-D grid, else "3,1,0"
    std::string warp;    // "7"
    std::string lanes;   // "8-31", "3, 5, 9-12", "1"
    std::string line;    // "hazards.cu:10", else "PTX 43"
};
HazardRow hazardRow(const sim::Hazard& hazard);

class Stepper {
public:
    explicit Stepper(StepperRun run);

    const StepperRun& run() const { return m_run; }
    const sim::BlockRecording& recording() const { return *m_run.recording; }
    const sim::BlockReplay& replay() const { return m_replay; }
    std::size_t size() const { return m_replay.size(); }
    std::size_t position() const { return m_replay.position(); }
    std::int32_t warpCount() const { return m_run.recording->warpCount; }
    // Whether the kernel writes or reads CC.CF (the register table then has a carry row).
    bool usesCarryFlag() const { return m_usesCarryFlag; }

    // -1 follows every warp in issue order; else the steps move along that warp's instructions.
    void follow(std::int32_t warp);
    std::int32_t followed() const { return m_followed; }
    // The warp whose state the panels show: the followed one, or the current instruction's.
    std::int32_t selectedWarp() const;

    void seek(std::size_t position);
    // One move; false (and no change) when there is nothing further that way.
    bool step(sim::StepUnit unit, bool forward);

    // The instruction about to run at this position, if any (see the header comment).
    const sim::RecordedStep* current() const;
    std::optional<std::size_t> currentIndex() const;
    const ptx::Instruction* currentInstruction() const;
    // The source line of the current instruction (0 when none or unknown).
    int currentLine() const;
    // Registers the selected warp's last executed instruction wrote (highlighted as changed).
    std::vector<std::int32_t> lastWrittenRegisters() const;
    // The hazard the current instruction raises, if any.
    const sim::RecordedHazard* currentHazard() const;
    // F6 / Shift+F6: the next (previous) hazard of this block in issue order, in whichever warp
    // raised it; following a warp, the stepper then follows that one. False when there is none.
    bool stepToHazard(bool forward);
    // When the block has no hazard further that way: the launch hazard (an index into
    // run().hazards) in another block to go to, the first in a later block or (back) the last in an
    // earlier one; nullopt when there is none.
    std::optional<std::size_t> hazardInAnotherBlock(bool forward) const;
    // Where a launch hazard of the recorded block stands in the recording: the first hazard of its
    // kind at its instruction in its warp, else the first at that instruction in that warp.
    const sim::RecordedHazard* recordedHazard(const sim::Hazard& hazard) const;
    // Stands on a recorded hazard's step, following its warp unless all warps are followed.
    void goTo(const sim::RecordedHazard& hazard);
    // The printf lines the block's threads printed before this position: recording().printfs[0, n).
    std::size_t printfLinesSoFar() const { return recording().printfsBefore(position()); }
    // The step the selected warp executed last (before this position), if any: its printf lines
    // are the ones just printed.
    std::optional<std::size_t> lastStepOfSelectedWarp() const;
    // For a shared-memory race: the other thread's earlier access to the same word, of the kind the
    // hazard names (its write, or its read), found in the recording: the latest before this step.
    struct ConflictingAccess {
        std::size_t position = 0; // its step
        std::int32_t warp = 0, lane = 0;
        std::uint64_t address = 0;
        bool isStore = false;
    };
    std::optional<ConflictingAccess> conflictingAccess() const;

private:
    StepperRun m_run;
    sim::BlockReplay m_replay;
    bool m_usesCarryFlag = false;
    std::int32_t m_followed = 0;
};

} // namespace warpscope::viz
