#include "session/timing_validation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <numeric>
#include <utility>

namespace warpscope::session {
namespace {

std::vector<double> ranks(const std::vector<double>& values)
{
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> rank(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            rank[order[k]] = mean;
        i = j + 1;
    }
    return rank;
}

// The rungs in order of `time`, fastest first (ties keep rung order).
std::vector<std::string> orderBy(std::vector<const TimingSample*> rungs, double (*time)(const TimingSample&))
{
    std::stable_sort(rungs.begin(), rungs.end(), [&](const TimingSample* a, const TimingSample* b) { return time(*a) < time(*b); });
    std::vector<std::string> names;
    for (const TimingSample* rung : rungs)
        names.push_back(rung->kernel);
    return names;
}

// Every pair whose measured runs do not overlap is in the same order on both sides.
bool sameOrder(const std::vector<const TimingSample*>& rungs)
{
    for (const TimingSample* a : rungs)
        for (const TimingSample* b : rungs) {
            const bool measuredFaster = a->measuredMaxNs < b->measuredMinNs;
            if (measuredFaster && !(a->predictedNs < b->predictedNs))
                return false;
        }
    return true;
}

} // namespace

bool TimingSample::predicted() const { return std::isfinite(predictedNs) && predictedNs > 0 && measuredNs > 0; }

bool TimingValidation::laddersEqual() const
{
    return std::all_of(ladders.begin(), ladders.end(), [](const LadderOrder& l) { return l.equal; });
}

double spearmanRankCorrelation(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.size() < 2)
        return std::nan("");
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = static_cast<double>(a.size());
    const double meanA = std::accumulate(ra.begin(), ra.end(), 0.0) / n;
    const double meanB = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double covariance = 0, varianceA = 0, varianceB = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        covariance += (ra[i] - meanA) * (rb[i] - meanB);
        varianceA += (ra[i] - meanA) * (ra[i] - meanA);
        varianceB += (rb[i] - meanB) * (rb[i] - meanB);
    }
    if (varianceA == 0 || varianceB == 0)
        return std::nan("");
    return covariance / std::sqrt(varianceA * varianceB);
}

TimingValidation summarizeTiming(std::vector<TimingSample> samples)
{
    TimingValidation v;
    v.samples = std::move(samples);
    std::vector<double> ratios, predicted, measured;
    double errors = 0;
    for (const TimingSample& s : v.samples) {
        if (!s.predicted())
            continue;
        const double r = s.ratio();
        ratios.push_back(r);
        predicted.push_back(s.predictedNs);
        measured.push_back(s.measuredNs);
        errors += std::fabs(r - 1.0);
        v.ratiosWithin2x += r >= 0.5 && r <= 2.0 ? 1 : 0;
    }
    v.compared = static_cast<int>(ratios.size());
    if (!ratios.empty()) {
        v.meanAbsoluteError = errors / static_cast<double>(ratios.size());
        std::vector<double> sorted = ratios;
        std::sort(sorted.begin(), sorted.end());
        v.minRatio = sorted.front();
        v.maxRatio = sorted.back();
        const std::size_t mid = sorted.size() / 2;
        v.medianRatio = sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }
    v.spearman = spearmanRankCorrelation(predicted, measured);

    std::map<std::pair<std::string, std::string>, std::vector<const TimingSample*>> ladders;
    std::vector<std::pair<std::string, std::string>> firstSeen;
    for (const TimingSample& s : v.samples) {
        if (s.ladder.empty() || !s.predicted())
            continue;
        auto key = std::make_pair(s.session, s.ladder);
        if (!ladders.count(key))
            firstSeen.push_back(key);
        ladders[key].push_back(&s);
    }
    for (const auto& key : firstSeen) {
        const std::vector<const TimingSample*>& rungs = ladders[key];
        if (rungs.size() < 2)
            continue;
        LadderOrder order;
        order.session = key.first;
        order.ladder = key.second;
        order.measured = orderBy(rungs, [](const TimingSample& s) { return s.measuredNs; });
        order.predicted = orderBy(rungs, [](const TimingSample& s) { return s.predictedNs; });
        order.equal = sameOrder(rungs);
        v.ladders.push_back(std::move(order));
    }
    return v;
}

} // namespace warpscope::session
