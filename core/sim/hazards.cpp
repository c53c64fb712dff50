#include "sim/hazards.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>

namespace warpscope::sim {

const char* hazardKindName(HazardKind kind)
{
    switch (kind) {
    case HazardKind::OutOfBoundsGlobal: return "out_of_bounds_global";
    case HazardKind::OutOfBoundsShared: return "out_of_bounds_shared";
    case HazardKind::OutOfBoundsLocal: return "out_of_bounds_local";
    case HazardKind::SharedRace: return "shared_race";
    case HazardKind::BarrierDivergence: return "barrier_divergence";
    case HazardKind::UninitializedSharedRead: return "uninitialized_shared_read";
    case HazardKind::WarpSyncMismatch: return "warp_sync_mismatch";
    case HazardKind::ShflInactiveSource: return "shfl_inactive_source";
    case HazardKind::DivisionByZero: return "division_by_zero";
    case HazardKind::MisalignedAccess: return "misaligned_access";
    case HazardKind::AsyncCopyInFlight: return "async_copy_in_flight";
    case HazardKind::MbarrierMisuse: return "mbarrier_misuse";
    case HazardKind::MbarrierDeadlock: return "mbarrier_deadlock";
    case HazardKind::WarpLivelock: return "warp_livelock";
    }
    return "unknown";
}

std::string describeHazard(const Hazard& hazard)
{
    std::string line = std::string(hazardKindName(hazard.kind)) + " at PTX line " + std::to_string(hazard.ptxLine);
    if (!hazard.sourceFile.empty())
        line += " (" + std::filesystem::path(hazard.sourceFile).filename().string() + ":" +
                std::to_string(hazard.source.line) + ")";
    line += ", block " + launch::formatDim3(hazard.block) + " thread " + launch::formatDim3(hazard.thread) + " (warp " +
            std::to_string(hazard.warp) + " lane " + std::to_string(hazard.lane) + "): " + hazard.message;
    if (hazard.occurrences > 1) {
        std::string count = std::to_string(hazard.occurrences);
        for (std::ptrdiff_t at = static_cast<std::ptrdiff_t>(count.size()) - 3; at > 0; at -= 3)
            count.insert(static_cast<std::size_t>(at), ",");
        line += " [" + count + " times]";
    }
    if (const std::string gpu = hazardOnTheGpu(hazard.kind); !gpu.empty())
        line += ". " + gpu;
    return line;
}

std::string hazardOnTheGpu(HazardKind kind)
{
    if (kind != HazardKind::ShflInactiveSource)
        return {};
    // The SASS SHFL reads a register in the source lane whatever that lane did: what it holds there is
    // up to ptxas (NVIDIA's reduce7 gave an H200 the right sums, and the simulator 4 times them).
    return "On a GPU the value depends on ptxas's register allocation, not on the PTX: a GPU may well give the "
           "intended result, so a test that passes on one GPU proves nothing";
}

std::string describeLanes(std::uint32_t mask)
{
    std::string text;
    int count = 0;
    for (int lane = 0; lane < 32;) {
        if (!((mask >> lane) & 1u)) {
            ++lane;
            continue;
        }
        int last = lane;
        while (last + 1 < 32 && ((mask >> (last + 1)) & 1u))
            ++last;
        text += (text.empty() ? "" : ", ") + std::to_string(lane) + (last > lane ? "-" + std::to_string(last) : "");
        count += last - lane + 1;
        lane = last + 1;
    }
    if (count == 0)
        return "no lane";
    return (count == 1 ? "lane " : "lanes ") + text;
}

void OutOfBoundsLanes::add(std::uint32_t lane, std::uint64_t address, std::uint32_t bytes)
{
    if (m_accesses == 0 || address < m_lowestAddress || (address == m_lowestAddress && lane < m_lowestLane)) {
        m_lowestLane = lane;
        m_lowestAddress = address;
        m_lowestBytes = bytes;
    }
    m_lanes |= 1u << (lane & 31u);
    ++m_accesses;
}

void HazardLog::report(Hazard hazard)
{
    std::lock_guard lock(m_mutex);
    const std::pair<int, int> key{static_cast<int>(hazard.kind), hazard.pc};
    auto found = m_hazards.find(key);
    if (found != m_hazards.end()) {
        // The one in the first block (then the first warp) is kept, whichever host thread ran it
        // first, so the report and the stepper's way to it do not change from run to run.
        Hazard& kept = found->second;
        const auto place = [](const Hazard& h) { return std::tuple(h.block.z, h.block.y, h.block.x, h.warp); };
        const std::uint64_t occurrences = kept.occurrences + hazard.occurrences;
        if (place(hazard) < place(kept))
            kept = std::move(hazard);
        kept.occurrences = occurrences;
        return;
    }
    if (m_hazards.size() >= m_maxDistinct)
        return;
    m_hazards.emplace(key, std::move(hazard));
}

std::vector<Hazard> HazardLog::hazards() const
{
    std::lock_guard lock(m_mutex);
    std::vector<Hazard> result;
    for (const auto& [key, hazard] : m_hazards)
        result.push_back(hazard);
    return result;
}

bool HazardLog::empty() const
{
    std::lock_guard lock(m_mutex);
    return m_hazards.empty();
}

} // namespace warpscope::sim
