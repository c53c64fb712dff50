#include "memory/memory_model.h"

#include "session/metric_catalog.h"
#include "session/session.h"
#include "sim/memory_analysis.h"
#include "sim/timing_model.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace warpscope::viz {

namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0)
{
    char text[200];
    std::snprintf(text, sizeof text, pattern, a, b, c);
    return text;
}

std::string bytesText(double bytes)
{
    if (bytes >= 1024.0 * 1024.0 * 1024.0)
        return format("%.0f GB", bytes / (1024.0 * 1024.0 * 1024.0));
    if (bytes >= 1024.0 * 1024.0)
        return format("%.0f MB", bytes / (1024.0 * 1024.0));
    return format("%.0f KB", bytes / 1024.0);
}

std::string dimsText(const launch::Dim3& d)
{
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

std::string dimsText(const session::Dim3& d)
{
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// One measured level of the ladder: "shared 30 cycles (15 ns)", "L2 hit 260 cycles (130 ns), 11000 GB/s";
// "" when nothing of it was measured.
std::string measuredLevelText(const session::HierarchyLevel& level, const char* name)
{
    std::string text;
    if (level.latencyCycles > 0) {
        text = std::string(name) + format(" %.0f cycles", level.latencyCycles);
        if (level.latencyNs > 0)
            text += format(level.latencyNs >= 10 ? " (%.0f ns)" : " (%.1f ns)", level.latencyNs);
    } else if (level.latencyNs > 0) {
        text = std::string(name) + format(level.latencyNs >= 10 ? " %.0f ns" : " %.1f ns", level.latencyNs);
    }
    if (level.bandwidthGBps > 0) {
        // Whole numbers: the canvas wraps text at a decimal point.
        const std::string bandwidth = format("%.0f GB/s", level.bandwidthGBps);
        text += text.empty() ? std::string(name) + " " + bandwidth : ", " + bandwidth;
    }
    return text;
}

// The measured cells of one facts row from the ladder's levels named in `levels` ({"shared", "l1"}).
void addMeasured(MemoryLevelFacts& facts, const session::HierarchyRecord& ladder,
                 std::initializer_list<std::pair<const char*, const char*>> levels)
{
    std::string text, method;
    for (const auto& [key, name] : levels) {
        const session::HierarchyLevel* level = ladder.find(key);
        if (level == nullptr)
            continue;
        const std::string piece = measuredLevelText(*level, name);
        if (piece.empty())
            continue;
        text += (text.empty() ? "" : "; ") + piece;
        if (!level->method.empty())
            method += (method.empty() ? "" : "\n") + std::string(name) + ": " + level->method;
    }
    facts.measured = text.empty() ? "not measured" : text + " [5]";
    facts.measuredMethod = method;
}

} // namespace

bool hasMeasuredLadder(const session::Session* session) { return session != nullptr && session->hierarchy.has_value(); }

const std::vector<std::string>& memoryFactSources()
{
    static const std::vector<std::string> sources{
        "[1] CUDA C++ Programming Guide, \"Compute Capabilities\": registers per SM, shared memory per SM, "
        "32 banks of 32 bits, each bank one 32-bit word per clock",
        "[2] measured by pointer chasing on an A100, an RTX 4090 and an H800 (Hopper): Luo et al., \"Dissecting the "
        "NVIDIA Hopper Architecture through Microbenchmarking and Multiple Level Analysis\", arXiv:2501.12084 (2025), "
        "section 4, Tables 3 and 4",
        "[3] Jia et al., \"Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking\" (2018): a dependent "
        "FP32 instruction every 4 cycles",
        "[4] the preset: the GPU's whitepaper and datasheet (clock, DRAM bandwidth, L2 size, L1/shared pool)",
        "[5] the open profile session: measured on that GPU by warpscope-probe",
    };
    return sources;
}

std::vector<MemoryLevelFacts> memoryLevelFacts(const gpu::GpuPreset& preset, const session::Session* session)
{
    const gpu::TimingParameters& t = preset.timing;
    const int partitions = std::max(1, t.schedulersPerSm);
    const double smBytesPerCycle = 32.0 * 4.0; // 32 banks x 4 bytes [1]; the model's L1: l1SectorsPerCycle x 32
    const double chipTBps = smBytesPerCycle * preset.smCount * t.coreClockMHz * 1e6 / 1e12;
    const session::DeviceRecord* device = session && !session->devices.empty() ? &session->devices.front() : nullptr;

    std::vector<MemoryLevelFacts> facts;
    MemoryLevelFacts registers;
    registers.name = "Registers";
    registers.capacity = format("%.0f K x 32-bit per SM (%.0f KB), a quarter in each of the %.0f sub-partitions [1]",
                                preset.registersPerSm / 1024.0, preset.registersPerSm * 4.0 / 1024.0, partitions);
    registers.latency = format("operands are read at issue; a dependent result after %.0f cycles in the model, "
                               "about 4 measured [3]",
                               t.aluLatency);
    registers.bandwidth = "each scheduler issues one warp-instruction per cycle with its operands";
    facts.push_back(registers);

    MemoryLevelFacts l1;
    l1.name = "L1 / shared memory";
    l1.capacity = format("%.0f KB per SM, shared memory up to %.0f KB of it, the rest L1 [4][1]",
                         t.l1PoolBytes / 1024.0, preset.sharedPerSm / 1024.0);
    l1.latency = format("shared %.0f, L1 hit %.0f cycles in the model; about 29-31 and 32-33 measured [2]", t.sharedLatency,
                        t.l1HitLatency);
    l1.bandwidth = format("128 B per cycle per SM, 32 banks x 4 B [1]: %.1f TB/s for %.0f SMs at %.0f MHz", chipTBps,
                          preset.smCount, t.coreClockMHz);
    facts.push_back(l1);

    MemoryLevelFacts l2;
    l2.name = "L2";
    l2.capacity = bytesText(static_cast<double>(t.l2Bytes)) + " for the whole GPU [4]";
    if (device && device->l2Bytes > 0)
        l2.capacity += "; " + bytesText(static_cast<double>(device->l2Bytes)) + " on the " + device->name + " [5]";
    l2.latency = format("hit %.0f cycles in the model; about 210-260 measured in the SM's near partition, "
                        "355-415 in the far one [2]", t.l2HitLatency);
    l2.bandwidth = "not a limit in the model: only DRAM bandwidth is shared out";
    facts.push_back(l2);

    MemoryLevelFacts dram;
    dram.name = "DRAM (HBM)";
    dram.capacity = device && device->totalMemoryBytes > 0
                        ? bytesText(static_cast<double>(device->totalMemoryBytes)) + " on the " + device->name + " [5]"
                        : std::string("device memory: the preset does not record its size");
    dram.latency = format("%.0f cycles in the model; about 475-745 measured, depending on the GPU and the partition [2]", t.dramLatency);
    dram.bandwidth = format("%.0f GB/s peak [4], shared equally by the SMs in the model", t.dramBandwidthGBps);
    if (session && session->ceilings && session->ceilings->measuredDramGBps > 0)
        dram.bandwidth += format("; a device-to-device copy measured %.0f GB/s", session->ceilings->measuredDramGBps) +
                          (device ? " on the " + device->name : std::string()) + " [5]";
    facts.push_back(dram);

    if (hasMeasuredLadder(session)) {
        const session::HierarchyRecord& ladder = *session->hierarchy;
        facts[0].measured = "not part of the ladder";
        addMeasured(facts[1], ladder, {{"shared", "shared"}, {"l1", "L1 hit"}});
        addMeasured(facts[2], ladder, {{"l2", "L2 hit"}});
        addMeasured(facts[3], ladder, {{"dram", "DRAM"}, {"tlb_miss", "with a TLB miss"}});
    }
    return facts;
}

const char* sectorLevelName(SectorLevel level)
{
    switch (level) {
    case SectorLevel::L1: return "L1 hit";
    case SectorLevel::L2: return "L2";
    case SectorLevel::Dram: return "DRAM";
    case SectorLevel::Unknown: return "not timed";
    }
    return "not timed";
}

std::vector<SectorLevel> sectorLevels(const sim::RecordedAccess& access)
{
    if (access.space == ptx::Space::Shared || access.sectors == 0)
        return {};
    std::vector<SectorLevel> levels(access.sectors, SectorLevel::Unknown);
    if (!access.timed)
        return levels;
    for (std::uint32_t i = 0; i < access.sectors && i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        levels[i] = (access.dramMask & bit) ? SectorLevel::Dram : (access.l2Mask & bit) ? SectorLevel::L2 : SectorLevel::L1;
    }
    return levels;
}

MemoryFlow simulatedFlow(const sim::KernelStats& stats)
{
    MemoryFlow flow;
    const sim::GlobalMemoryStats& g = stats.global;
    flow.requestedBytes = static_cast<double>(g.bytesRequested);
    flow.l1Bytes = static_cast<double>(g.bytesMoved);
    const sim::TimingSummary& t = stats.timing;
    flow.timed = t.available;
    if (!t.available) {
        flow.l2Bytes = flow.l1Bytes; // without caches every sector goes on to L2
        return flow;
    }
    flow.l2Bytes = 32.0 * static_cast<double>(t.l1Misses + g.storeSectors + g.atomicSectors);
    flow.dramBytes = static_cast<double>(t.dramBytes);
    if (t.l1Hits + t.l1Misses > 0)
        flow.l1HitRate = static_cast<double>(t.l1Hits) / static_cast<double>(t.l1Hits + t.l1Misses);
    if (t.l2Hits + t.l2Misses > 0)
        flow.l2HitRate = static_cast<double>(t.l2Hits) / static_cast<double>(t.l2Hits + t.l2Misses);
    return flow;
}

MeasuredFlow measuredFlow(const session::Session& session, const std::string& kernelId, const launch::Dim3& grid,
                          const launch::Dim3& block, const std::vector<std::string>& argSpecs)
{
    MeasuredFlow measured;
    const std::string device = session.devices.empty() ? std::string("the GPU") : session.devices.front().name;
    const session::KernelRecord* kernel = session.findKernel(kernelId);
    if (!kernel) {
        measured.note = "The open session did not measure " + kernelId + ".";
        return measured;
    }
    auto same = [](const session::Dim3& a, const launch::Dim3& b) {
        return a[0] == b.x && a[1] == b.y && a[2] == b.z;
    };
    const bool sameLaunch = same(kernel->grid, grid) && same(kernel->block, block) && kernel->args == argSpecs;
    if (!sameLaunch) {
        measured.note = "The open session measured " + kernelId + " with grid " + dimsText(kernel->grid) + ", block " +
                        dimsText(kernel->block) + " and its own arguments; this run is grid " + dimsText(grid) +
                        ", block " + dimsText(block) + ", so their bytes are not compared.";
        return measured;
    }
    const auto l1 = session.metric(kernelId, "l1tex__t_bytes.sum");
    const auto l2 = session.metric(kernelId, session::metric::kL2Bytes);
    const auto read = session.metric(kernelId, session::metric::kDramRead);
    const auto write = session.metric(kernelId, session::metric::kDramWrite);
    if (!l2 || !read || !write) {
        measured.note = "The open session has no byte counters for " + kernelId +
                        " (lts__t_bytes.sum, dram__bytes_read.sum, dram__bytes_write.sum).";
        return measured;
    }
    MemoryFlow flow;
    flow.timed = true;
    flow.l1Known = l1.has_value();
    flow.l1Bytes = l1.value_or(0);
    flow.l2Bytes = *l2;
    flow.dramBytes = *read + *write;
    measured.note = "Measured on the " + device + " by warpscope-probe (CUPTI).";
    if (!l1)
        measured.note += " L1 bytes were not measured (l1tex__t_bytes.sum is in the full metric set).";
    // ncu's sector hit rates can pass 100 % (more hits than lookups counted in the same pass): shown
    // as 100 %, with the reported value in the note.
    for (auto [name, rate, level] : {std::tuple{session::metric::kL1HitRate, &flow.l1HitRate, "L1"},
                                     std::tuple{session::metric::kL2HitRate, &flow.l2HitRate, "L2"}}) {
        const auto percent = session.metric(kernelId, name);
        if (!percent)
            continue;
        *rate = std::clamp(*percent / 100.0, 0.0, 1.0);
        if (*percent > 100.0 || *percent < 0.0)
            measured.note += std::string(" ") + level + " hit rate: " + name + " reported " + format("%.1f", *percent) +
                             " %, shown as " + (*percent > 100.0 ? "100 %" : "0 %") +
                             " (not a share: ncu counts hits and lookups in separate replay passes, which a kernel too "
                             "small to fill the GPU spreads differently; NVIDIA Developer Forums, 'Weird Number for L2 "
                             "Cache Hitrate').";
    }
    measured.flow = flow;
    return measured;
}

double LatencyTimeline::issueSlotShare() const
{
    if (cycles == 0 || schedulers <= 0)
        return 0;
    return static_cast<double>(issued) / (static_cast<double>(schedulers) * static_cast<double>(cycles));
}

LatencyTimeline latencyTimeline(const sim::Trace& trace, std::uint16_t sm, int schedulers)
{
    LatencyTimeline timeline;
    timeline.sm = sm;
    timeline.schedulers = std::max(1, schedulers);
    timeline.truncated = trace.truncated;
    std::map<std::uint64_t, std::size_t> rowOf; // (block << 16 | warp) -> row
    for (const sim::TraceEvent& event : trace.events) {
        if (event.sm != sm || event.kind != sim::TraceEventKind::Issue)
            continue;
        const std::uint64_t key = (std::uint64_t{event.block} << 16) | event.warp;
        auto [found, added] = rowOf.emplace(key, timeline.rows.size());
        if (added)
            timeline.rows.push_back({event.block, event.warp, {}});
        TimelineRow* row = &timeline.rows[found->second];
        const std::uint64_t waited = std::min<std::uint64_t>(event.stallCycles, event.cycle);
        if (waited > 0) {
            const std::uint8_t reason = event.stallReason == 0 ? static_cast<std::uint8_t>(sim::StallReason::NotSelected)
                                                               : event.stallReason;
            row->spans.push_back({event.cycle - waited, event.cycle, reason});
            if (reason < 7)
                timeline.stallCycles[reason] += waited;
        }
        row->spans.push_back({event.cycle, event.cycle + 1, 0});
        timeline.issued += 1;
        timeline.cycles = std::max(timeline.cycles, event.cycle + 1);
    }
    std::sort(timeline.rows.begin(), timeline.rows.end(), [](const TimelineRow& a, const TimelineRow& b) {
        return a.block != b.block ? a.block < b.block : a.warp < b.warp;
    });
    return timeline;
}

std::vector<std::uint64_t> timelineBlocks(std::uint64_t linearBlock, std::uint64_t blockCount, int smCount,
                                          int residentBlocks)
{
    std::vector<std::uint64_t> blocks;
    const std::uint64_t sms = static_cast<std::uint64_t>(std::max(1, smCount));
    for (std::uint64_t b = linearBlock % sms; b < blockCount && blocks.size() < static_cast<std::size_t>(std::max(1, residentBlocks));
         b += sms)
        blocks.push_back(b);
    return blocks;
}

void requestTimelineTrace(sim::LaunchRequest& request)
{
    const int resident = sim::residentBlocksPerSm(request.preset, *request.function, request.block.volume(),
                                                  request.dynamicSharedBytes, request.options.registersPerThread);
    request.options.trace.blocks = timelineBlocks(static_cast<std::uint64_t>(request.options.recordBlock),
                                                  static_cast<std::uint64_t>(request.grid.volume()), request.preset.smCount,
                                                  resident);
    request.options.trace.maxEvents = kTimelineMaxEvents;
}

std::string laneMaskHex(std::uint32_t mask)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

int laneAtX(double x, double left, double cell, int cells)
{
    if (cell <= 0.0 || cells <= 0 || x < left || x >= left + cells * cell)
        return -1;
    return std::clamp(static_cast<int>(std::floor((x - left) / cell)), 0, cells - 1);
}

namespace {

// The phase size sim::analyzeSharedAccess uses: 32 lanes up to 4 bytes, 16 for 8, 8 for 16.
std::uint32_t lanesPerSharedPhase(std::uint32_t bytesPerLane)
{
    return bytesPerLane <= 4 ? 32 : bytesPerLane == 8 ? 16 : 8;
}

std::uint32_t wordsPerLane(std::uint32_t bytesPerLane)
{
    return std::max<std::uint32_t>(1, bytesPerLane / 4);
}

std::string hexAddress(std::uint64_t address)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

} // namespace

std::vector<SharedPhase> sharedBankGrid(const sim::RecordedAccess& access)
{
    const std::uint32_t perPhase = lanesPerSharedPhase(access.bytesPerLane);
    std::vector<SharedPhase> phases(32 / perPhase);
    std::uint32_t wavefronts = 0;
    const auto wordsOf = [](const SharedPhase& phase) {
        std::vector<std::uint64_t> words;
        for (const std::vector<BankWord>& bank : phase.banks)
            for (const BankWord& word : bank)
                words.push_back(word.word);
        std::sort(words.begin(), words.end());
        return words;
    };
    int lastWithLanes = -1; // the phase the simulator compares with: the last one that had lanes
    for (std::uint32_t p = 0; p < phases.size(); ++p) {
        SharedPhase& phase = phases[p];
        phase.firstLane = p * perPhase;
        phase.lastLane = phase.firstLane + perPhase - 1;
        phase.firstWavefront = wavefronts;
        for (std::uint32_t lane = phase.firstLane; lane <= phase.lastLane; ++lane) {
            if (!((access.laneMask >> lane) & 1u))
                continue;
            for (std::uint32_t w = 0; w < wordsPerLane(access.bytesPerLane); ++w) {
                const std::uint64_t word = access.addresses[lane] / 4 + w;
                std::vector<BankWord>& bank = phase.banks[word % 32];
                auto at = std::lower_bound(bank.begin(), bank.end(), word,
                                           [](const BankWord& a, std::uint64_t b) { return a.word < b; });
                if (at == bank.end() || at->word != word)
                    at = bank.insert(at, BankWord{word, 0});
                at->lanes |= 1u << lane;
            }
        }
        const std::vector<std::uint64_t> words = wordsOf(phase);
        if (words.empty())
            continue;
        if (access.bytesPerLane == 16 && p % 2 == 1 && lastWithLanes >= 0 &&
            words == wordsOf(phases[static_cast<std::size_t>(lastWithLanes)])) {
            phase.sharesPrevious = true;
            phase.firstWavefront = phases[static_cast<std::size_t>(lastWithLanes)].firstWavefront;
            lastWithLanes = static_cast<int>(p);
            continue;
        }
        lastWithLanes = static_cast<int>(p);
        for (const std::vector<BankWord>& bank : phase.banks)
            phase.wavefronts = std::max(phase.wavefronts, static_cast<std::uint32_t>(bank.size()));
        wavefronts += phase.wavefronts;
    }
    return phases;
}

SharedLaneInspection inspectSharedLane(const sim::RecordedAccess& access, std::uint32_t lane)
{
    SharedLaneInspection inspection;
    const std::vector<SharedPhase> phases = sharedBankGrid(access);
    for (const SharedPhase& phase : phases)
        inspection.wavefronts += phase.wavefronts;
    if (lane >= 32 || !((access.laneMask >> lane) & 1u) || access.space != ptx::Space::Shared)
        return inspection;
    inspection.active = true;
    inspection.address = access.addresses[lane];
    inspection.bytes = access.bytesPerLane;
    const SharedPhase& phase = phases[lane / lanesPerSharedPhase(access.bytesPerLane)];
    for (std::uint32_t w = 0; w < wordsPerLane(access.bytesPerLane); ++w) {
        const std::uint64_t word = access.addresses[lane] / 4 + w;
        const std::vector<BankWord>& bank = phase.banks[word % 32];
        for (std::size_t row = 0; row < bank.size(); ++row)
            if (bank[row].word == word)
                inspection.words.push_back({static_cast<std::uint32_t>(word % 32),
                                            phase.firstWavefront + static_cast<std::uint32_t>(row) + 1,
                                            std::popcount(bank[row].lanes) > 1});
    }
    return inspection;
}

std::string describeSharedLane(std::uint32_t lane, const SharedLaneInspection& inspection)
{
    std::string text = "lane " + std::to_string(lane);
    if (!inspection.active)
        return text + ": no access (inactive or guarded off)";
    text += " → byte " + std::to_string(inspection.address) + " (" + hexAddress(inspection.address) + ") → bank";
    if (inspection.words.size() > 1)
        text += "s";
    for (std::size_t i = 0; i < inspection.words.size(); ++i)
        text += (i ? ", " : " ") + std::to_string(inspection.words[i].bank);
    std::set<std::uint32_t> wavefronts;
    for (const SharedLaneWord& word : inspection.words)
        wavefronts.insert(word.wavefront);
    text += wavefronts.size() > 1 ? " → wavefronts" : " → wavefront";
    bool first = true;
    for (std::uint32_t wavefront : wavefronts) {
        text += (first ? " " : ", ") + std::to_string(wavefront);
        first = false;
    }
    text += " of " + std::to_string(inspection.wavefronts);
    if (std::any_of(inspection.words.begin(), inspection.words.end(), [](const SharedLaneWord& w) { return w.broadcast; }))
        text += " (a word shared with other lanes: broadcast)";
    return text;
}

GlobalLaneInspection inspectGlobalLane(const sim::RecordedAccess& access, std::uint32_t lane, std::uint32_t outOfBoundsLanes)
{
    GlobalLaneInspection inspection;
    std::vector<sim::LaneAccess> lanes;
    for (std::uint32_t l = 0; l < 32; ++l)
        if ((access.laneMask >> l) & 1u)
            lanes.push_back({access.addresses[l], l});
    std::uint64_t sectors[128];
    inspection.sectors = sim::collectSectors(lanes, std::max<std::uint32_t>(1, access.bytesPerLane), sectors, 128);
    std::vector<std::uint64_t> lines;
    for (std::uint32_t s = 0; s < inspection.sectors; ++s)
        if (lines.empty() || lines.back() != sectors[s] / 128 * 128)
            lines.push_back(sectors[s] / 128 * 128);
    inspection.lines = static_cast<std::uint32_t>(lines.size());
    if (lane >= 32 || !((access.laneMask >> lane) & 1u) || access.space != ptx::Space::Global)
        return inspection;
    inspection.active = true;
    inspection.outOfBounds = (outOfBoundsLanes >> lane) & 1u;
    inspection.address = access.addresses[lane];
    inspection.bytes = access.bytesPerLane;
    inspection.sector = inspection.address / 32 * 32;
    const std::uint64_t last = (inspection.address + std::max<std::uint32_t>(1, access.bytesPerLane) - 1) / 32 * 32;
    inspection.sectorSpan = static_cast<std::uint32_t>((last - inspection.sector) / 32 + 1);
    const auto* found = std::lower_bound(sectors, sectors + inspection.sectors, inspection.sector);
    inspection.sectorIndex = static_cast<std::uint32_t>(found - sectors);
    inspection.line = inspection.sector / 128 * 128;
    inspection.lineIndex = static_cast<std::uint32_t>(std::lower_bound(lines.begin(), lines.end(), inspection.line) - lines.begin());
    const std::vector<SectorLevel> levels = sectorLevels(access);
    if (inspection.sectorIndex < levels.size())
        inspection.level = levels[inspection.sectorIndex];
    return inspection;
}

std::string describeGlobalLane(std::uint32_t lane, const GlobalLaneInspection& inspection)
{
    std::string text = "lane " + std::to_string(lane);
    if (!inspection.active)
        return text + ": no access (inactive or guarded off)";
    text += " → " + hexAddress(inspection.address) + " → sector " + std::to_string(inspection.sectorIndex + 1);
    if (inspection.sectorSpan > 1)
        text += "-" + std::to_string(inspection.sectorIndex + inspection.sectorSpan);
    text += " of " + std::to_string(inspection.sectors) + " (" + hexAddress(inspection.sector);
    if (inspection.level != SectorLevel::Unknown)
        text += std::string(", ") + (inspection.level == SectorLevel::L1 ? "hit in L1" : inspection.level == SectorLevel::L2 ? "served by L2" : "from DRAM");
    text += ") → line " + std::to_string(inspection.lineIndex + 1) + " of " + std::to_string(inspection.lines) + " (" +
            hexAddress(inspection.line) + ")";
    if (inspection.outOfBounds)
        text += "; out of bounds: no allocation holds these bytes";
    return text;
}

std::uint32_t outOfBoundsLanes(const sim::BlockRecording& recording, std::size_t step)
{
    // Hazards are recorded in step order.
    auto at = std::lower_bound(recording.hazards.begin(), recording.hazards.end(), step,
                               [](const sim::RecordedHazard& h, std::size_t s) { return h.step < s; });
    std::uint32_t mask = 0;
    for (; at != recording.hazards.end() && at->step == step; ++at) {
        if (at->hazard.kind != sim::HazardKind::OutOfBoundsGlobal)
            continue;
        mask |= at->hazard.lanes;
        if (at->hazard.lane >= 0 && at->hazard.lane < 32)
            mask |= 1u << at->hazard.lane;
    }
    return mask;
}

double packetAnimationSeconds(std::size_t packets)
{
    return packets == 0 ? 0.0 : kPacketTripSeconds + static_cast<double>(packets - 1) * kPacketStaggerSeconds;
}

double packetProgress(double elapsed, std::size_t index)
{
    return std::clamp((elapsed - static_cast<double>(index) * kPacketStaggerSeconds) / kPacketTripSeconds, 0.0, 1.0);
}

} // namespace warpscope::viz
