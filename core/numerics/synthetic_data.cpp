#include "numerics/synthetic_data.h"

#include <stdexcept>
#include <string>

namespace warpscope::numerics {

std::uint64_t TrainingRandom::next()
{
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float TrainingRandom::uniformFloat() { return static_cast<float>(next() >> 40) * 0x1p-24f; }

double TrainingRandom::uniformDouble() { return static_cast<double>(next() >> 11) * 0x1p-53; }

std::uint32_t TrainingRandom::below(std::uint32_t n)
{
    // Reject the top partial copy of [0, n) in 2^32 so every value is equally likely.
    const std::uint32_t limit = static_cast<std::uint32_t>((std::uint64_t{1} << 32) - ((std::uint64_t{1} << 32) % n));
    for (;;) {
        const std::uint32_t value = static_cast<std::uint32_t>(next() >> 32);
        if (limit == 0 || value < limit)
            return value % n;
    }
}

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream)
{
    TrainingRandom random(seed ^ (stream * 0xD1B54A32D192ED03ull));
    return random.next();
}

void portableSinCos(double angle, double& sine, double& cosine)
{
    // angle = k * pi/2 + r with |r| <= pi/4. pi/2 is split as fdlibm's __ieee754_rem_pio2 does: the
    // high part has 33 significant bits, so k * halfPiHigh is exact for |k| < 2^20.
    constexpr double halfPiHigh = 1.57079632673412561417e+00; // pi/2 to 33 bits
    constexpr double halfPiLow = 6.07710050650619224932e-11;  // pi/2 - halfPiHigh
    const double quotient = angle * 0.63661977236758134308;   // 2/pi
    const double k = static_cast<double>(static_cast<long long>(quotient + (quotient >= 0 ? 0.5 : -0.5)));
    const double r = (angle - k * halfPiHigh) - k * halfPiLow;
    const double r2 = r * r;
    // Taylor series to r^17 / r^16: the first omitted terms are below 1e-19 for |r| <= pi/4.
    double s = 0, c = 0, termS = r, termC = 1;
    for (int n = 1; n <= 17; n += 2) {
        s += termS;
        c += termC;
        termS *= -r2 / static_cast<double>((n + 1) * (n + 2));
        termC *= -r2 / static_cast<double>(n * (n + 1));
    }
    switch (static_cast<long long>(k) & 3) {
    case 0: sine = s; cosine = c; break;
    case 1: sine = c; cosine = -s; break;
    case 2: sine = -s; cosine = -c; break;
    default: sine = -c; cosine = s; break;
    }
}

namespace {

// A standard normal draw from the Irwin-Hall sum of 12 uniforms (mean 6, variance 1), using only
// additions: accurate enough for jitter, and identical everywhere.
double approximateNormal(TrainingRandom& random)
{
    double sum = 0;
    for (int i = 0; i < 12; ++i)
        sum += random.uniformDouble();
    return sum - 6.0;
}

LabelledSamples spiralSamples(const SpiralOptions& options, int perClass, std::uint64_t seed)
{
    constexpr double twoPi = 6.283185307179586;
    TrainingRandom random(seed);
    LabelledSamples samples;
    samples.features = 2;
    const std::size_t count = static_cast<std::size_t>(perClass) * static_cast<std::size_t>(options.classes);
    samples.inputs.reserve(count * 2);
    samples.labels.reserve(count);
    for (int i = 0; i < perClass; ++i) {
        for (int arm = 0; arm < options.classes; ++arm) {
            const double radius = random.uniformDouble();
            const double angle = twoPi * arm / options.classes + twoPi * options.turns * radius
                               + options.angleNoise * approximateNormal(random);
            double sine = 0, cosine = 0;
            portableSinCos(angle, sine, cosine);
            samples.inputs.push_back(static_cast<float>(radius * cosine));
            samples.inputs.push_back(static_cast<float>(radius * sine));
            samples.labels.push_back(arm);
        }
    }
    return samples;
}

} // namespace

SpiralDataset makeSpirals(const SpiralOptions& options)
{
    if (options.classes < 2 || options.classes > 16)
        throw std::invalid_argument("spiral classes must be 2 to 16, got " + std::to_string(options.classes));
    if (options.trainPerClass < 1 || options.testPerClass < 1)
        throw std::invalid_argument("spiral samples per class must be at least 1");
    if (!(options.turns >= 0 && options.turns <= 8) || !(options.angleNoise >= 0 && options.angleNoise <= 4))
        throw std::invalid_argument("spiral turns must be 0 to 8 and angle noise 0 to 4 radians");
    return {spiralSamples(options, options.trainPerClass, deriveSeed(options.seed, 1)),
            spiralSamples(options, options.testPerClass, deriveSeed(options.seed, 2))};
}

} // namespace warpscope::numerics
