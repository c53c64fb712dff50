// Deterministic synthetic data for the mixed-precision trainer: interleaved spiral arms in the
// plane, one class per arm (the classic "spiral" toy problem of Stanford's CS231n notes), split into
// a training and a held-out set. Everything comes from our own SplitMix64-based stream and uses only
// +, -, *, / and sqrt (sine and cosine are series written here), which IEEE 754 rounds the same
// everywhere: a seed gives the same points on every machine and standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpscope::numerics {

// A seeded stream of 64-bit values: SplitMix64 (Steele, Lea and Flood, OOPSLA 2014; constants as in
// Vigna's splitmix64.c). Named for its use here so that it cannot clash with other labs' generators.
class TrainingRandom {
public:
    explicit TrainingRandom(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();                  // the next 64 random bits
    float uniformFloat();                  // in [0, 1), 24 random bits
    double uniformDouble();                // in [0, 1), 53 random bits
    std::uint32_t below(std::uint32_t n);  // in [0, n), by rejection (unbiased); n >= 1
private:
    std::uint64_t m_state;
};

// A seed derived from `seed` for an independent purpose (`stream` 1, 2, ...): one SplitMix64 mix.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream);

struct LabelledSamples {
    int features = 0;            // values per sample
    std::vector<float> inputs;   // [sample][feature], row-major
    std::vector<int> labels;     // class of each sample, 0 .. classes-1
    std::size_t size() const { return labels.size(); }
};

struct SpiralOptions {
    int classes = 3;             // spiral arms, one class each (2 .. 16)
    int trainPerClass = 512;     // training samples per arm
    int testPerClass = 256;      // held-out samples per arm
    double turns = 0.75;         // how far each arm winds, in turns, from the centre to radius 1
    double angleNoise = 0.25;    // spread of the angle (radians, standard deviation) around the arm
    std::uint64_t seed = 20240605;
};

struct SpiralDataset {
    LabelledSamples train;       // interleaved by class: sample k has class k % classes
    LabelledSamples test;        // drawn from the same distribution with a different stream
};

// The spiral data for `options` (throws std::invalid_argument naming a field out of range).
SpiralDataset makeSpirals(const SpiralOptions& options);

// sin and cos of a double (|angle| < 10^6) from a range reduction and Taylor series (within a few ULP), the same on
// every IEEE machine unlike libm's, which may differ in the last place between libraries.
void portableSinCos(double angle, double& sine, double& cosine);

} // namespace warpscope::numerics
