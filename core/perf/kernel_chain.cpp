#include "perf/kernel_chain.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace warpscope::perf {

KernelChainPlan planKernelChain(const KernelChainInput& input)
{
    if (input.kernels < 1 || input.kernels > 1000)
        throw InputError("launch model: kernels " + std::to_string(input.kernels) + " is out of range (allowed: 1..1000)");
    const std::pair<double, const char*> times[] = {{input.kernelSeconds, "kernel time"},
                                                    {input.launchSeconds, "launch time"},
                                                    {input.perKernelGpuSeconds, "GPU time per launched kernel"},
                                                    {input.graphFixedSeconds, "graph launch time"},
                                                    {input.graphNodeSeconds, "time between graph nodes"}};
    for (const auto& [seconds, name] : times)
        if (!(seconds >= 0) || !std::isfinite(seconds))
            throw InputError(std::string("launch model: the ") + name + " must be finite and not negative");

    KernelChainPlan plan;
    const int n = input.kernels;
    const double k = input.kernelSeconds;
    double previousEnd = 0;
    for (int i = 0; i < n; ++i) {
        // The host enqueues launch i after launch i - 1; the GPU starts kernel i once both its launch
        // and kernel i - 1 are done, plus its per-kernel cost.
        const ChainBar launch{i, i * input.launchSeconds, (i + 1) * input.launchSeconds};
        plan.hostLaunches.push_back(launch);
        const double start = std::max(launch.end, previousEnd) + input.perKernelGpuSeconds;
        plan.streamKernels.push_back({i, start, start + k});
        previousEnd = start + k;
    }
    plan.streamSeconds = previousEnd;
    double start = input.graphFixedSeconds;
    for (int i = 0; i < n; ++i) {
        plan.graphKernels.push_back({i, start, start + k});
        start += k + input.graphNodeSeconds;
    }
    plan.graphSeconds = plan.graphKernels.back().end;
    plan.workSeconds = n * k;
    return plan;
}

} // namespace warpscope::perf
