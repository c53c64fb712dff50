#include "models/pipeline_schedule.h"

#include "util/input_error.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace warpscope::viz {

int PipelineSchedule::busyUnits() const
{
    int busy = 0;
    for (const PipelineOp& op : ops)
        busy += op.end - op.start;
    return busy;
}

int PipelineSchedule::idleUnits() const { return stages * makespan - busyUnits(); }

double PipelineSchedule::idleShare() const
{
    return stages > 0 && makespan > 0 ? static_cast<double>(idleUnits()) / (static_cast<double>(stages) * makespan) : 0.0;
}

PipelineSchedule gpipeSchedule(int stages, int microbatches)
{
    if (stages < 1 || stages > kPipelineMaxStages)
        throw InputError("pipeline: stages " + std::to_string(stages) + " is out of range (allowed: 1.." +
                         std::to_string(kPipelineMaxStages) + ")");
    if (microbatches < 1 || microbatches > kPipelineMaxMicrobatches)
        throw InputError("pipeline: micro-batches " + std::to_string(microbatches) + " is out of range (allowed: 1.." +
                         std::to_string(kPipelineMaxMicrobatches) + ")");
    const auto P = static_cast<std::size_t>(stages), M = static_cast<std::size_t>(microbatches);
    // forwardEnd[s][i], backwardEnd[s][i]: when micro-batch i + 1's pass ends on stage s.
    std::vector<std::vector<int>> forwardEnd(P, std::vector<int>(M, 0)), backwardEnd(P, std::vector<int>(M, 0));
    std::vector<int> stageFree(P, 0);
    std::vector<std::vector<PipelineOp>> perStage(P);
    auto run = [&](std::size_t s, std::size_t i, bool backward, int ready) {
        const int start = std::max(stageFree[s], ready);
        const int end = start + (backward ? kPipelineBackwardUnits : kPipelineForwardUnits);
        stageFree[s] = end;
        perStage[s].push_back({static_cast<int>(s), static_cast<int>(i) + 1, backward, start, end});
        return end;
    };
    // Forward passes flow down the stages: stage s needs stage s-1's activations.
    for (std::size_t s = 0; s < P; ++s)
        for (std::size_t i = 0; i < M; ++i)
            forwardEnd[s][i] = run(s, i, false, s == 0 ? 0 : forwardEnd[s - 1][i]);
    // Backward passes flow up, last micro-batch first: stage s needs stage s+1's gradients (the last
    // stage its own forward, which its order already puts before).
    for (std::size_t s = P; s-- > 0;)
        for (std::size_t i = M; i-- > 0;)
            backwardEnd[s][i] = run(s, i, true, s + 1 == P ? forwardEnd[s][i] : backwardEnd[s + 1][i]);

    PipelineSchedule schedule;
    schedule.stages = stages;
    schedule.microbatches = microbatches;
    for (int free : stageFree)
        schedule.makespan = std::max(schedule.makespan, free);
    for (std::size_t s = 0; s < P; ++s) {
        int cursor = 0;
        for (const PipelineOp& op : perStage[s]) {
            if (op.start > cursor)
                schedule.idle.push_back({static_cast<int>(s), cursor, op.start});
            cursor = op.end;
            schedule.ops.push_back(op);
        }
        if (cursor < schedule.makespan)
            schedule.idle.push_back({static_cast<int>(s), cursor, schedule.makespan});
    }
    return schedule;
}

} // namespace warpscope::viz
