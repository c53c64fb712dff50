#include "session/sgemm_reference.h"

#include "session/metric_catalog.h"
#include "session/session.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::session {

int matrixSizeArgument(const std::vector<std::string>& args)
{
    for (const std::string& arg : args) {
        const std::size_t equals = arg.find('=');
        if (equals == std::string::npos || std::string_view(arg).substr(0, equals) != "n")
            continue;
        // "n=i32:4096": the value follows the type; "n=4096": no type.
        std::string_view value = std::string_view(arg).substr(equals + 1);
        if (const std::size_t colon = value.rfind(':'); colon != std::string_view::npos)
            value = value.substr(colon + 1);
        if (value.empty() || value.size() > 9 || !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return 0;
        return std::stoi(std::string(value));
    }
    return 0;
}

bool mentionsSgemmReference(const Session& session)
{
    if (session.ceilings && (session.ceilings->referenceSgemmGflops > 0 || !session.ceilings->referenceSgemmMethod.empty()))
        return true;
    return std::any_of(session.kernels.begin(), session.kernels.end(),
                       [](const KernelRecord& k) { return k.ladder == kMatmulLadder; });
}

SgemmReference sgemmReference(const Session& session)
{
    SgemmReference reference;
    if (!session.ceilings) {
        reference.status = "not measured: the session has no ceilings record";
        return reference;
    }
    const CeilingsRecord& c = *session.ceilings;
    reference.method = c.referenceSgemmMethod;
    // The reader refuses negative and non-finite values and a rate without its n.
    if (c.referenceSgemmGflops > 0 && c.referenceSgemmN > 0) {
        reference.measured = true;
        reference.flopsPerSecond = c.referenceSgemmGflops * 1e9;
        reference.n = c.referenceSgemmN;
        reference.status = "cuBLAS SGEMM " + formatMetricValue(reference.flopsPerSecond, "FLOP/s") + " at n = " +
                           std::to_string(reference.n);
        return reference;
    }
    // The probe writes why ("not measured: libcublas..."); a session from before it measured cuBLAS says nothing.
    reference.status = c.referenceSgemmMethod.empty() ? std::string("not measured (the session holds no cuBLAS SGEMM reference)")
                                                      : c.referenceSgemmMethod;
    return reference;
}

std::vector<RungAgainstReference> matmulRungsAgainstReference(const Session& session)
{
    const SgemmReference reference = sgemmReference(session);
    std::vector<RungAgainstReference> rungs;
    for (const KernelRecord& k : session.kernels) {
        if (k.ladder != kMatmulLadder)
            continue;
        RungAgainstReference r;
        r.kernel = k.id;
        r.rung = k.ladderRung;
        r.n = matrixSizeArgument(k.args);
        const ActivityRecord* activity = session.activityFor(k.id);
        if (activity != nullptr && activity->medianNs() > 0)
            r.durationSeconds = static_cast<double>(activity->medianNs()) * 1e-9;
        const double n = r.n;
        if (r.n > 0 && !std::isnan(r.durationSeconds))
            r.flopsPerSecond = 2.0 * n * n * n / r.durationSeconds;
        if (!reference.measured)
            r.why = "no cuBLAS reference in this session";
        else if (r.n == 0)
            r.why = "its arguments name no n";
        else if (r.n != reference.n)
            r.why = "n = " + std::to_string(r.n) + ", cuBLAS was measured at n = " + std::to_string(reference.n);
        else if (std::isnan(r.durationSeconds))
            r.why = "not timed";
        else
            r.share = r.flopsPerSecond / reference.flopsPerSecond;
        rungs.push_back(std::move(r));
    }
    std::stable_sort(rungs.begin(), rungs.end(), [](const auto& a, const auto& b) { return a.rung < b.rung; });
    return rungs;
}

} // namespace warpscope::session
