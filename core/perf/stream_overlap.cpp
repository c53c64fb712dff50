#include "perf/stream_overlap.h"

#include "util/input_error.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace warpscope::perf {

StreamTimeline planStreams(const StreamOverlapInput& input)
{
    for (double seconds : {input.hostToDeviceSeconds, input.kernelSeconds, input.deviceToHostSeconds})
        if (!(seconds >= 0) || !std::isfinite(seconds))
            throw InputError("stream model: times must be finite and not negative");
    if (input.chunks < 1 || input.chunks > 1024)
        throw InputError("stream model: chunks " + std::to_string(input.chunks) + " is out of range (allowed: 1..1024)");
    if (input.copyEngines != 1 && input.copyEngines != 2)
        throw InputError("stream model: copy engines " + std::to_string(input.copyEngines) +
                         " is not allowed (allowed: 1 or 2)");

    const int n = input.chunks;
    const double a = input.hostToDeviceSeconds / n;
    const double c = input.kernelSeconds / n;
    const double d = input.deviceToHostSeconds / n;
    const int uploadEngine = 0;
    const int downloadEngine = input.copyEngines == 2 ? 1 : 0;
    constexpr int kComputeEngine = 2;

    std::array<double, 3> engineFree{0, 0, 0};
    std::vector<double> uploaded(n), computed(n);
    StreamTimeline timeline;
    timeline.serialSeconds = input.hostToDeviceSeconds + input.kernelSeconds + input.deviceToHostSeconds;
    auto run = [&](int chunk, StreamStageKind kind, int engine, double ready, double duration) {
        const double start = std::max(engineFree[engine], ready);
        engineFree[engine] = start + duration;
        timeline.stages.push_back({chunk, kind, engine, start, start + duration});
        return start + duration;
    };
    // Breadth-first issue: an engine serves its queue in issue order, so a later stage never
    // overtakes an earlier one on the same engine.
    for (int i = 0; i < n; ++i)
        uploaded[i] = run(i, StreamStageKind::HostToDevice, uploadEngine, 0, a);
    for (int i = 0; i < n; ++i)
        computed[i] = run(i, StreamStageKind::Kernel, kComputeEngine, uploaded[i], c);
    for (int i = 0; i < n; ++i)
        run(i, StreamStageKind::DeviceToHost, downloadEngine, computed[i], d);
    for (const StreamStage& stage : timeline.stages)
        timeline.overlappedSeconds = std::max(timeline.overlappedSeconds, stage.end);
    return timeline;
}

double pipelinedSeconds(double hostToDevice, double kernel, double deviceToHost, int chunks)
{
    const double n = chunks;
    return (hostToDevice + kernel + deviceToHost) / n + (n - 1) * std::max({hostToDevice, kernel, deviceToHost}) / n;
}

} // namespace warpscope::perf
