#include "training/collectives.h"

#include "util/input_error.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>

namespace warpscope::training {
namespace {

void checkGpus(int gpus)
{
    if (gpus < 2 || gpus > 4096)
        throw InputError("ring all-reduce: " + std::to_string(gpus) + " GPUs is out of range (allowed: 2..4096)");
}

int mod(int value, int n) { return ((value % n) + n) % n; }

void checkSteps(int gpus, int steps)
{
    if (steps < 0 || steps > 2 * (gpus - 1))
        throw InputError("ring all-reduce: step " + std::to_string(steps) + " is out of range for " + std::to_string(gpus) +
                         " GPUs (allowed: 0.." + std::to_string(2 * (gpus - 1)) + ")");
}

} // namespace

RingAllReduce ringAllReduce(int gpus, double bufferBytes, double linkBytesPerSecond, double stepLatencySeconds)
{
    checkGpus(gpus);
    if (!(bufferBytes > 0) || !std::isfinite(bufferBytes))
        throw InputError("ring all-reduce: the buffer size must be a positive number of bytes");
    if (!(linkBytesPerSecond > 0) || !std::isfinite(linkBytesPerSecond))
        throw InputError("ring all-reduce: the link bandwidth must be a positive number of bytes per second");
    if (!(stepLatencySeconds >= 0))
        throw InputError("ring all-reduce: the step latency must not be negative");
    RingAllReduce ring;
    ring.gpus = gpus;
    ring.bufferBytes = bufferBytes;
    ring.chunkBytes = bufferBytes / gpus;
    ring.steps = 2 * (gpus - 1);
    ring.bytesSentPerGpu = ring.steps * ring.chunkBytes;
    ring.seconds = ring.steps * (ring.chunkBytes / linkBytesPerSecond + stepLatencySeconds);
    return ring;
}

std::vector<RingTransfer> ringSchedule(int gpus)
{
    checkGpus(gpus);
    std::vector<RingTransfer> transfers;
    transfers.reserve(static_cast<std::size_t>(2 * (gpus - 1) * gpus));
    for (int k = 0; k < gpus - 1; ++k)
        for (int i = 0; i < gpus; ++i)
            transfers.push_back({k, RingPhase::ReduceScatter, i, mod(i + 1, gpus), mod(i - k, gpus)});
    for (int k = 0; k < gpus - 1; ++k)
        for (int i = 0; i < gpus; ++i)
            transfers.push_back({gpus - 1 + k, RingPhase::AllGather, i, mod(i + 1, gpus), mod(i + 1 - k, gpus)});
    return transfers;
}

std::vector<std::vector<double>> runRingAllReduce(std::vector<std::vector<double>> buffers)
{
    const int gpus = static_cast<int>(buffers.size());
    checkGpus(gpus);
    return runRingAllReduce(std::move(buffers), 2 * (gpus - 1));
}

std::vector<std::vector<double>> runRingAllReduce(std::vector<std::vector<double>> buffers, int steps)
{
    const int gpus = static_cast<int>(buffers.size());
    checkGpus(gpus);
    checkSteps(gpus, steps);
    const std::size_t length = buffers.front().size();
    for (const auto& buffer : buffers)
        if (buffer.size() != length)
            throw InputError("ring all-reduce: every GPU's buffer must have the same length");
    auto chunkBegin = [&](int chunk) { return length * static_cast<std::size_t>(chunk) / static_cast<std::size_t>(gpus); };

    const std::vector<RingTransfer> schedule = ringSchedule(gpus);
    const std::size_t end = static_cast<std::size_t>(steps) * static_cast<std::size_t>(gpus);
    for (std::size_t first = 0; first < end; first += static_cast<std::size_t>(gpus)) {
        // Every GPU sends at once: take the outgoing chunks before any receiver changes its buffer.
        std::vector<std::vector<double>> outgoing(static_cast<std::size_t>(gpus));
        for (int g = 0; g < gpus; ++g) {
            const RingTransfer& t = schedule[first + static_cast<std::size_t>(g)];
            outgoing[static_cast<std::size_t>(g)].assign(buffers[static_cast<std::size_t>(t.from)].begin() + static_cast<std::ptrdiff_t>(chunkBegin(t.chunk)),
                                                         buffers[static_cast<std::size_t>(t.from)].begin() + static_cast<std::ptrdiff_t>(chunkBegin(t.chunk + 1)));
        }
        for (int g = 0; g < gpus; ++g) {
            const RingTransfer& t = schedule[first + static_cast<std::size_t>(g)];
            std::vector<double>& target = buffers[static_cast<std::size_t>(t.to)];
            const std::vector<double>& data = outgoing[static_cast<std::size_t>(g)];
            for (std::size_t e = 0; e < data.size(); ++e) {
                double& slot = target[chunkBegin(t.chunk) + e];
                slot = t.phase == RingPhase::ReduceScatter ? slot + data[e] : data[e];
            }
        }
    }
    return buffers;
}

std::vector<std::vector<int>> ringContributions(int gpus, int steps)
{
    checkGpus(gpus);
    checkSteps(gpus, steps);
    std::vector<std::vector<int>> counts(static_cast<std::size_t>(gpus), std::vector<int>(static_cast<std::size_t>(gpus), 1));
    const std::vector<RingTransfer> schedule = ringSchedule(gpus);
    const std::size_t end = static_cast<std::size_t>(steps) * static_cast<std::size_t>(gpus);
    for (std::size_t first = 0; first < end; first += static_cast<std::size_t>(gpus)) {
        // All of a step's transfers happen at once: read every sender's count before any receiver changes.
        std::vector<int> sent(static_cast<std::size_t>(gpus));
        for (std::size_t g = 0; g < sent.size(); ++g) {
            const RingTransfer& t = schedule[first + g];
            sent[g] = counts[static_cast<std::size_t>(t.from)][static_cast<std::size_t>(t.chunk)];
        }
        for (std::size_t g = 0; g < sent.size(); ++g) {
            const RingTransfer& t = schedule[first + g];
            int& slot = counts[static_cast<std::size_t>(t.to)][static_cast<std::size_t>(t.chunk)];
            slot = t.phase == RingPhase::ReduceScatter ? slot + sent[g] : sent[g];
        }
    }
    return counts;
}

double pipelineBubbleFraction(int stages, int microbatches)
{
    if (stages < 1 || microbatches < 1)
        throw InputError("pipeline: stages and micro-batches must be at least 1");
    return static_cast<double>(stages - 1) / static_cast<double>(microbatches + stages - 1);
}

const std::vector<LinkFigure>& linkFigures()
{
    static const std::vector<LinkFigure> links = {
        {"nvlink4", "NVLink 4 (H100 SXM)", 450e9, "NVIDIA H100 Tensor Core GPU datasheet: NVLink 900 GB/s (both directions)"},
        {"nvlink3", "NVLink 3 (A100 SXM)", 300e9, "NVIDIA A100 Tensor Core GPU datasheet: NVLink 600 GB/s (both directions)"},
        {"pcie5", "PCIe 5.0 x16", 64e9, "NVIDIA H100 Tensor Core GPU datasheet: PCIe Gen5 128 GB/s (both directions)"},
        {"pcie4", "PCIe 4.0 x16", 32e9, "NVIDIA A100 Tensor Core GPU datasheet: PCIe Gen4 64 GB/s (both directions)"},
    };
    return links;
}

const LinkFigure* findLink(std::string_view key)
{
    for (const LinkFigure& link : linkFigures())
        if (link.key == key)
            return &link;
    return nullptr;
}

} // namespace warpscope::training
