#include "numerics/grad_scaler.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace warpscope::numerics {

GradScaler::GradScaler(const GradScalerOptions& options) : m_options(options), m_scale(options.initScale)
{
    if (!(options.growthFactor > 1.0))
        throw std::invalid_argument("the growth factor must be > 1.0, got " + std::to_string(options.growthFactor));
    if (!(options.backoffFactor < 1.0 && options.backoffFactor > 0.0))
        throw std::invalid_argument("the backoff factor must be in (0, 1), got " + std::to_string(options.backoffFactor));
    if (options.growthInterval < 1)
        throw std::invalid_argument("the growth interval must be at least 1, got " + std::to_string(options.growthInterval));
    if (!(options.initScale > 0.0f) || !std::isfinite(options.initScale))
        throw std::invalid_argument("the initial scale must be positive and finite");
}

float GradScaler::inverseScale() const
{
    // "FP32 division can be imprecise for certain compile options, so we carry out the reciprocal in
    // FP64" (GradScaler.unscale_).
    return static_cast<float>(1.0 / static_cast<double>(m_scale));
}

bool GradScaler::unscale(std::span<float> gradients) const
{
    const float inverse = inverseScale();
    bool foundInf = false;
    for (float& g : gradients) {
        foundInf = foundInf || !std::isfinite(g);
        g = inverse == 1.0f ? g : g * inverse;
    }
    return foundInf;
}

void GradScaler::update(bool foundInf)
{
    if (foundInf) {
        m_scale = static_cast<float>(static_cast<double>(m_scale) * m_options.backoffFactor);
        m_growthTracker = 0;
        return;
    }
    // A successful step: the tracker is incremented before it is compared with the interval.
    const int successful = m_growthTracker + 1;
    if (successful == m_options.growthInterval) {
        const float grown = static_cast<float>(static_cast<double>(m_scale) * m_options.growthFactor);
        if (std::isfinite(grown)) // "Do not grow the scale past fp32 bounds to inf."
            m_scale = grown;
        m_growthTracker = 0;
    } else {
        m_growthTracker = successful;
    }
}

} // namespace warpscope::numerics
