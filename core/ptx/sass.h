// SASS, the machine code a GPU really runs: ptxas compiles the PTX for one GPU (sm_75, sm_90, ...)
// with line information, nvdisasm prints the cubin's instructions with their source lines, and
// ptxas -v reports the registers, spills, local and static shared memory of each kernel. No GPU is
// needed. Results are cached like NVRTC's (compile_cache.h). Qt-free.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::ptx {

// A tool the SASS needs is not installed; what() says where it was looked for and how to get it.
class SassToolMissing : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// ptxas or nvdisasm ran and failed; what() is the tool's own messages (ptxas's name the PTX line).
class SassToolFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct SassLocation {
    std::string file; // as the PTX's .file named it (nvdisasm reads it from the cubin's line table)
    int line = 0;
};

struct SassInstruction {
    std::uint32_t offset = 0;  // byte offset in the function (nvdisasm's /*0120*/)
    std::string predicate;     // "@P0", "@!P1" or empty
    std::string opcode;        // with its modifiers: "LDS.128", "IMAD.WIDE.U32", "BRA"
    std::string operands;      // "R4, [R20+0x10]"; empty for EXIT
    std::string label;         // a branch target that starts here (".L_x_0"), else empty
    // Where it came from: the line nvdisasm names first (the innermost, inside an inlined function),
    // then each line it was inlined at, out to the kernel's own. Empty when the cubin has no line.
    std::vector<SassLocation> lines;

    // "@P0 BRA `(.L_x_0)": predicate, opcode and operands as nvdisasm prints them.
    std::string text() const;
    // The line the kernel's own code is at (the last of `lines`), or nullptr.
    const SassLocation* outermostLine() const { return lines.empty() ? nullptr : &lines.back(); }
};

// The line a learner wrote: the innermost of the instruction's lines that is not in a toolkit header
// (source_files.h), as the PTX parser gives each PTX instruction; the outermost when all are; nullptr
// when it has none.
const SassLocation* learnerLine(const SassInstruction& instruction);

struct SassFunction {
    std::string name;
    bool entry = false; // a __global__ kernel (nvdisasm's STO_CUDA_ENTRY)
    std::vector<SassInstruction> instructions;
};

// What ptxas -v reports for one function. -1 where ptxas said nothing (device functions have no
// register line of their own).
struct PtxasResources {
    std::string function;
    bool entry = false;
    int registers = -1;                // per thread
    int barriers = 0;                  // named barriers used
    std::uint64_t stackFrameBytes = 0; // per thread, in local memory
    std::uint64_t spillStoreBytes = 0; // registers stored to local memory (per thread, static count)
    std::uint64_t spillLoadBytes = 0;  // and loaded back
    std::uint64_t localBytes = 0;      // "lmem" where ptxas reports it
    std::uint64_t staticSharedBytes = 0;
    std::uint64_t constantBytes = 0;   // cmem[0]: the kernel's parameters and what the driver puts there
};

struct SassOptions {
    std::string arch = "sm_75";      // the GPU ptxas compiles for: sm_75, sm_80, sm_86, sm_89, sm_90, ...
    std::string ptxName = "kernel.ptx"; // how ptxas's messages name the PTX
    bool useCache = true;
};

struct SassListing {
    std::string arch;
    std::vector<SassFunction> functions;      // in the order nvdisasm prints them
    std::vector<PtxasResources> resources;    // in the order ptxas reports them
    std::string ptxasLog;                     // ptxas -v's messages, verbatim
    bool fromCache = false;

    const SassFunction* findFunction(std::string_view name) const;
    const PtxasResources* findResources(std::string_view name) const;
};

// "ptxas: 32 registers, 2048 B static shared, 0 B stack frame, 0 B spill stores, 0 B spill loads
// (local memory), 1 barrier": spills named as the local-memory traffic they are.
std::string describeResources(const PtxasResources& resources);

// The short form for a status line: "10 registers, no spills" or "24 registers, 36 B spill stores and
// 32 B spill loads per thread (local-memory traffic)".
std::string describeRegistersAndSpills(const PtxasResources& resources);
// Its second half: "no spills", or the spill stores and loads per thread (local-memory traffic).
std::string describeSpills(const PtxasResources& resources);

// ptxas -lineinfo -v then nvdisasm -gi -c. Throws InputError for an arch that is not sm_<digits>,
// SassToolMissing when ptxas or nvdisasm is not installed, SassToolFailed when one of them fails
// (ptxas rejects the PTX: its messages, with the PTX named options.ptxName).
SassListing compileSass(std::string_view ptx, const SassOptions& options);

// ptxas -v alone (nvdisasm not needed): the resources of every function. Same exceptions.
std::vector<PtxasResources> ptxasResources(std::string_view ptx, const SassOptions& options);

// The parsers, for nvdisasm -g/-gi -c's text and ptxas -v's messages.
std::vector<SassFunction> parseNvdisasm(std::string_view text);
std::vector<PtxasResources> parsePtxasVerbose(std::string_view log);

enum class SassSpace : std::uint8_t { Shared, Global, Local, Generic, Constant };

struct SassMemoryAccess {
    SassSpace space = SassSpace::Generic;
    bool load = false;
    bool store = false; // both for atomics
    int widthBits = 32; // per thread: 8, 16, 32, 64 or 128
};

// What memory the instruction touches and how wide, from its opcode (LDS.128: a shared load of 128
// bits per thread); nullopt for instructions that touch none.
std::optional<SassMemoryAccess> sassMemoryAccess(const SassInstruction& instruction);

// What the SASS of one source line holds, for the stepper's heat column: its instructions, and its
// memory instructions (shared, global, local, generic; not LDC's constant-bank reads of parameters)
// by width in bits (8 .. 128).
struct SassLineCounts {
    int instructions = 0;
    int memoryInstructions = 0;
    std::map<int, int> memoryByWidth;
};
// Keyed by each instruction's learnerLine; instructions with no line are not counted.
std::map<int, SassLineCounts> sassCountsByLine(const SassFunction& function);

// The PTX lines of each source line of one function: (file name, line) -> PTX lines, ascending.
// A PTX instruction counts at its line as the parser records it (the learner's innermost). File names are
// compared lexically normalised ("/tmp//k.cu" is "/tmp/k.cu", as nvdisasm prints it).
using PtxLinesBySource = std::map<std::pair<std::string, int>, std::vector<std::int32_t>>;
PtxLinesBySource ptxLinesBySource(const Module& module, const Function& function);

// The PTX lines of a SASS instruction's source line (its learnerLine); empty when it has none.
std::vector<std::int32_t> ptxLinesOf(const PtxLinesBySource& index, const SassInstruction& instruction);

// Ascending line numbers as runs: {3, 4, 5, 9} -> "3-5,9".
std::string lineRanges(const std::vector<std::int32_t>& lines);

} // namespace warpscope::ptx
