#include "sim/work_estimate.h"

#include "util/parse.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

namespace warpscope::sim {

WorkEstimate estimateWork(const LaunchRequest& request)
{
    WorkEstimate estimate;
    estimate.blocks = static_cast<std::uint64_t>(request.grid.volume());
    estimate.sampledBlocks = std::min(estimate.blocks, kEstimateSampleBlocks);
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t threads =
        request.options.hostThreads <= 0 ? hardware : static_cast<std::uint64_t>(request.options.hostThreads);
    estimate.hostThreads = static_cast<int>(std::max<std::uint64_t>(1, std::min(threads, estimate.blocks)));

    LaunchRequest sample = request; // simulate() takes its request (and the buffers) by value
    sample.options.sampleBlocks = estimate.sampledBlocks < estimate.blocks ? estimate.sampledBlocks : 0;
    sample.options.timing = false;
    sample.options.hostThreads = 1;
    sample.options.trace = {};
    sample.options.recordBlock = -1;
    sample.options.printfBytes = 0;
    const SimResult result = simulate(std::move(sample));
    if (result.status != SimStatus::Completed) {
        estimate.finished = false;
        return estimate;
    }
    estimate.warpInstructions = result.stats.warpInstructions; // already scaled to the grid
    const double perBlock = result.simSeconds / static_cast<double>(std::max<std::uint64_t>(1, result.stats.blocksSimulated));
    estimate.seconds = perBlock * static_cast<double>(estimate.blocks) / estimate.hostThreads;
    return estimate;
}

std::string roughDuration(double seconds)
{
    struct Unit {
        double seconds;
        const char* name;
    };
    static constexpr Unit units[] = {{86400.0 * 365, "year"}, {86400.0, "day"}, {3600.0, "hour"}, {60.0, "minute"}, {1.0, "second"}};
    for (const Unit& unit : units) {
        if (seconds >= unit.seconds || unit.seconds == 1.0) {
            const double count = std::max(1.0, std::round(seconds / unit.seconds));
            if (count >= 1e6)
                return "more than a million " + std::string(unit.name) + "s";
            const auto whole = static_cast<std::int64_t>(count);
            return "about " + withThousands(whole) + " " + unit.name + (whole == 1 ? "" : "s");
        }
    }
    return {};
}

std::string workRefusal(const WorkEstimate& estimate, const SimOptions& options, double maxSeconds)
{
    if (!estimate.finished || estimate.sampledBlocks >= estimate.blocks)
        return {};
    const bool overBudget = estimate.warpInstructions > options.stepBudget;
    const bool overTime = estimate.seconds > maxSeconds;
    if (!overBudget && !overTime)
        return {};
    std::string why = "this launch of " + withThousands(static_cast<std::int64_t>(estimate.blocks)) +
                      " blocks would issue about " + withThousandsBig(static_cast<BigCount>(estimate.warpInstructions)) +
                      " warp-instructions (estimated from " + std::to_string(estimate.sampledBlocks) + " sampled blocks)";
    if (overBudget)
        why += ", more than the step budget of " + withThousands(static_cast<std::int64_t>(options.stepBudget)) +
               ", so it would stop unfinished after " + roughDuration(estimate.seconds *
                                                                      static_cast<double>(options.stepBudget) /
                                                                      static_cast<double>(estimate.warpInstructions));
    else
        why += ", and take " + roughDuration(estimate.seconds) + " to simulate on " + std::to_string(estimate.hostThreads) +
               (estimate.hostThreads == 1 ? " thread" : " threads");
    return why;
}

} // namespace warpscope::sim
