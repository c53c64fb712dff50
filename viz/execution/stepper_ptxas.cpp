#include "execution/stepper_ptxas.h"

#include "ptx/ptx_ir.h"
#include "ptx/sass.h"
#include "ptx/sass_shuffle.h"
#include "sim/hazards.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::viz {

// ptxas -v's report for the stepped kernel on the run's GPU (cached, about 0.1 s the first time), or
// why there is none: the registers the occupancy explorer and the timing model then use are ptxas's.
void stepperPtxasResources(StepperRun& run, const std::string& ptx, const std::string& kernel, const std::string& arch)
{
    try {
        ptx::SassOptions options;
        options.arch = arch;
        for (const ptx::PtxasResources& resources : ptx::ptxasResources(ptx, options))
            if (resources.function == kernel)
                run.ptxas = resources;
        if (!run.ptxas)
            run.ptxasProblem = "ptxas reported nothing for " + kernel;
    } catch (const std::exception& failed) {
        run.ptxasProblem = failed.what();
    }
}

// What a GPU runs where the simulator found a shuffle reading a lane that does not execute it: the
// SASS SHFL and the register it reads (ptxas and nvdisasm, cached; compiled only for such a hazard).
void stepperHazardSass(StepperRun& run, const std::string& ptx, const std::string& arch)
{
    if (!run.function || !run.module)
        return;
    std::vector<int> lines;
    for (const sim::Hazard& hazard : run.hazards)
        if (hazard.kind == sim::HazardKind::ShflInactiveSource)
            lines.push_back(hazard.ptxLine);
    if (lines.empty())
        return;
    ptx::SassOptions options;
    options.arch = arch;
    try {
        for (auto& [line, text] : ptx::describeSassShufflesAt(ptx, *run.module, *run.function, lines, options))
            run.hazardSass[line] = std::move(text);
    } catch (const std::exception& failed) {
        for (const int line : lines)
            run.hazardSass[line] = std::string("no SASS: ") + failed.what();
    }
}

} // namespace warpscope::viz
