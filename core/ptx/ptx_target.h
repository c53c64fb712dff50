// The PTX ISA's rules for a module's `.target`: which targets exist, the least `.version` each needs,
// and which GPUs may run PTX written for it (PTX ISA 9.0, ".target" and "PTX module directives";
// the CUDA Programming Guide, "Compute Capability": architecture- and family-specific features).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace warpscope::ptx {

enum class TargetKind {
    Portable,       // sm_90: runs on compute capability 9.0 and every later one
    FamilySpecific, // sm_100f: runs on the same major version from its minor on (10.0, 10.3)
    ArchSpecific,   // sm_90a: runs only on compute capability 9.0
};

struct PtxTarget {
    int major = 0;                           // 10 for sm_100, 12 for sm_120
    int minor = 0;                           // 0 for sm_100, 3 for sm_103
    TargetKind kind = TargetKind::Portable;
    std::string name;                        // "sm_100a"
    int leastVersionTimesTen = 0;            // 86: needs .version 8.6 or later
};

// "sm_100a" -> {10, 0, ArchSpecific, 86}; nullopt for a name the PTX ISA does not define ("sm_91").
std::optional<PtxTarget> parseTarget(std::string_view name);

// "sm_50, ..., sm_121f" for messages.
std::string knownTargetList();

// Throws InputError when `target` is no PTX ISA target, or when `.version version` is older than the
// target needs ("PTX .target sm_100 needs .version 8.6 or later (PTX ISA); the module has .version 8.5").
// An empty version (no .version directive) is not checked.
void requireTargetVersion(std::string_view target, std::string_view version);

// Whether PTX for `target` may run on a GPU of compute capability major.minor.
bool targetRunsOn(const PtxTarget& target, int major, int minor);

} // namespace warpscope::ptx
