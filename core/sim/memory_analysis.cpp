#include "sim/memory_analysis.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace warpscope::sim {

namespace {

constexpr int kSectorShift = 5; // 32-byte sectors
constexpr int kLineShift = 7;   // 128-byte lines
constexpr std::uint64_t kSectorBytes = 32;
constexpr std::uint32_t kBanks = 32;

// Distinct blocks of `granule` bytes covered by the lanes' byte ranges.
template <int Shift>
std::uint32_t distinctBlocks(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane,
                             std::uint64_t* out, std::uint32_t capacity)
{
    constexpr std::uint64_t granule = std::uint64_t{1} << Shift;
    // Fast path (the common case): lanes in ascending address order. Blocks then arrive sorted and
    // are counted on the fly.
    std::uint64_t previous = 0;
    bool any = false, sorted = true;
    std::uint32_t distinct = 0;
    for (const LaneAccess& access : accesses) {
        const std::uint64_t first = access.address >> Shift;
        const std::uint64_t last = (access.address + bytesPerLane - 1) >> Shift;
        if (any && first < previous) {
            sorted = false;
            break;
        }
        for (std::uint64_t block = any && first == previous ? first + 1 : first; block <= last; ++block) {
            if (out && distinct < capacity)
                out[distinct] = block * granule;
            ++distinct;
        }
        previous = std::max(previous, last);
        any = true;
    }
    if (sorted)
        return distinct;
    // A lane of up to 16 bytes touches at most two granules.
    std::array<std::uint64_t, 32 * 2> blocks{};
    std::size_t count = 0;
    for (const LaneAccess& access : accesses) {
        const std::uint64_t first = access.address >> Shift;
        const std::uint64_t last = (access.address + bytesPerLane - 1) >> Shift;
        for (std::uint64_t block = first; block <= last && count < blocks.size(); ++block)
            blocks[count++] = block;
    }
    std::sort(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(count));
    distinct = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0 && blocks[i] == blocks[i - 1])
            continue;
        if (out && distinct < capacity)
            out[distinct] = blocks[i] * granule;
        ++distinct;
    }
    return distinct;
}

} // namespace

std::uint32_t collectSectors(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane,
                             std::uint64_t* sectorsOut, std::uint32_t capacity)
{
    return distinctBlocks<kSectorShift>(accesses, bytesPerLane, sectorsOut, capacity);
}

GlobalAccessCost analyzeGlobalAccess(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane,
                                     std::uint64_t* sectorsOut, std::uint32_t capacity)
{
    GlobalAccessCost cost;
    if (accesses.empty())
        return cost;
    cost.requests = 1;
    // Fast path: lanes in ascending order, counted in one pass for both granules.
    bool sorted = true;
    std::uint64_t lastSector = 0, lastLine = 0;
    std::uint32_t sectors = 0, lines = 0;
    bool any = false;
    for (const LaneAccess& access : accesses) {
        const std::uint64_t firstSector = access.address >> kSectorShift;
        const std::uint64_t endSector = (access.address + bytesPerLane - 1) >> kSectorShift;
        if (any && firstSector < lastSector) {
            sorted = false;
            break;
        }
        const std::uint64_t newSector = any && firstSector == lastSector ? firstSector + 1 : firstSector;
        if (sectorsOut != nullptr)
            for (std::uint64_t sector = newSector; sector <= endSector; ++sector)
                if (sectors + (sector - newSector) < capacity)
                    sectorsOut[sectors + (sector - newSector)] = sector << kSectorShift;
        sectors += static_cast<std::uint32_t>(endSector + 1 - newSector);
        const std::uint64_t firstLine = access.address >> kLineShift;
        const std::uint64_t endLine = (access.address + bytesPerLane - 1) >> kLineShift;
        lines += static_cast<std::uint32_t>(endLine - firstLine + 1) - (any && firstLine == lastLine ? 1u : 0u);
        lastSector = std::max(lastSector, endSector);
        lastLine = std::max(lastLine, endLine);
        any = true;
    }
    if (sorted) {
        cost.sectors = sectors;
        cost.lines = lines;
    } else {
        cost.sectors = distinctBlocks<kSectorShift>(accesses, bytesPerLane, sectorsOut, capacity);
        cost.lines = distinctBlocks<kLineShift>(accesses, bytesPerLane, nullptr, 0);
    }
    cost.bytesRequested = static_cast<std::uint64_t>(accesses.size()) * bytesPerLane;
    cost.bytesMoved = static_cast<std::uint64_t>(cost.sectors) * kSectorBytes;
    return cost;
}

SharedAccessCost analyzeSharedAccess(std::span<const LaneAccess> accesses, std::uint32_t bytesPerLane)
{
    SharedAccessCost cost;
    if (accesses.empty())
        return cost;
    // Lanes per phase: 32 for up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes.
    const std::uint32_t lanesPerPhase = bytesPerLane <= 4 ? 32 : bytesPerLane == 8 ? 16 : 8;
    const std::uint32_t phaseCount = 32 / lanesPerPhase;
    const std::uint32_t wordsPerLane = std::max<std::uint32_t>(1, bytesPerLane / 4);
    std::array<std::uint64_t, 64> previous{};
    std::size_t previousCount = 0;
    for (std::uint32_t phase = 0; phase < phaseCount; ++phase) {
        // Distinct words per bank in this phase.
        std::array<std::uint64_t, 64> words{};
        std::size_t wordCount = 0;
        for (const LaneAccess& access : accesses) {
            if (access.lane / lanesPerPhase != phase)
                continue;
            for (std::uint32_t w = 0; w < wordsPerLane; ++w)
                if (wordCount < words.size())
                    words[wordCount++] = access.address / 4 + w;
        }
        if (wordCount == 0)
            continue;
        std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount));
        wordCount = static_cast<std::size_t>(std::unique(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount)) -
                                             words.begin());
        // 16 bytes per lane: the second quarter-warp of a half-warp that reads exactly the words the
        // first read is served by the same wavefronts. Fitted to an H200 (assets/recorded/h200/
        // ladder-matmul.wsprof): matmul_tiled's LDS.128, whose lanes 0-15 read one row's 16 bytes and
        // lanes 16-31 the next row's, cost 2 wavefronts, not 4. Whether quarter-warps of different
        // half-warps share them too was not measured; this model says no.
        const bool sameAsBefore = bytesPerLane == 16 && phase % 2 == 1 && wordCount == previousCount &&
                                  std::equal(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount), previous.begin());
        std::copy(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount), previous.begin());
        previousCount = wordCount;
        if (sameAsBefore)
            continue;
        std::array<std::uint32_t, kBanks> perBank{};
        std::uint32_t degree = 0;
        for (std::size_t i = 0; i < wordCount; ++i) { // distinct words: lanes sharing one are a broadcast
            const std::uint32_t bank = static_cast<std::uint32_t>(words[i] % kBanks);
            degree = std::max(degree, ++perBank[bank]);
        }
        cost.phases += 1;
        cost.wavefronts += degree;
        cost.conflictDegree = std::max(cost.conflictDegree, degree);
    }
    cost.bankConflicts = cost.wavefronts - cost.phases;
    return cost;
}

} // namespace warpscope::sim
