#include "perf/data_parallel_traffic.h"

#include "util/input_error.h"

#include <cmath>
#include <string>

namespace warpscope::perf {

DataParallelTraffic dataParallelTraffic(int gpus, double parameterBytes, double gradientBytes)
{
    if (gpus < 2 || gpus > 4096)
        throw InputError("data-parallel traffic: gpus " + std::to_string(gpus) + " is out of range (allowed: 2..4096)");
    for (double bytes : {parameterBytes, gradientBytes})
        if (!(bytes > 0) || !std::isfinite(bytes))
            throw InputError("data-parallel traffic: the parameter and gradient bytes must be positive");
    const double share = static_cast<double>(gpus - 1) / gpus; // what one GPU sends of a gathered or scattered buffer
    DataParallelTraffic traffic;
    traffic.gpus = gpus;
    traffic.allReduceBytes = 2 * share * gradientBytes;
    traffic.allGatherForwardBytes = share * parameterBytes;
    traffic.allGatherBackwardBytes = share * parameterBytes;
    traffic.reduceScatterBytes = share * gradientBytes;
    return traffic;
}

} // namespace warpscope::perf
