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
    std::vector<const sim::Hazard*> shuffles;
    for (const sim::Hazard& hazard : run.hazards)
        if (hazard.kind == sim::HazardKind::ShflInactiveSource)
            shuffles.push_back(&hazard);
    if (shuffles.empty())
        return;
    std::optional<ptx::SassListing> listing;
    std::string problem;
    try {
        ptx::SassOptions options;
        options.arch = arch;
        listing = ptx::compileSass(ptx, options);
    } catch (const std::exception& failed) {
        problem = std::string("no SASS: ") + failed.what();
    }
    for (const sim::Hazard* hazard : shuffles) {
        std::string& text = run.hazardSass[hazard->ptxLine];
        text = problem;
        for (const ptx::Function* function : run.module->reachableFrom(*run.function))
            for (std::size_t i = 0; listing && i < function->instructions.size(); ++i)
                if (function->instructions[i].ptxLine == hazard->ptxLine && function->instructions[i].op == ptx::Op::Shfl) {
                    const ptx::SassFunction* sass = listing->findFunction(function->name);
                    text = sass ? ptx::describeSassShuffles(*sass, *function, static_cast<std::int32_t>(i), arch)
                                : "no SASS function " + function->name + " for " + arch;
                }
    }
}

} // namespace warpscope::viz
