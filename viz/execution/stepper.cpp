#include "execution/stepper.h"

#include "launch/launch_geometry.h"
#include "numerics/number_format.h"
#include "sim/hazards.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <tuple>

namespace warpscope::viz {

namespace {

std::string formatted(const char* format, double a, double b = 0)
{
    char text[160];
    std::snprintf(text, sizeof text, format, a, b);
    return text;
}

} // namespace

std::map<int, LineHeatValue> lineHeat(const std::vector<sim::LineStats>& lines, HeatMetric metric)
{
    std::map<int, LineHeatValue> heat;
    for (const sim::LineStats& line : lines) {
        const sim::InstructionCounters& c = line.counters;
        switch (metric) {
        case HeatMetric::SectorsPerRequest:
            if (c.globalRequests > 0 && c.bytesMoved > 0) {
                const double used = static_cast<double>(c.bytesRequested) / static_cast<double>(c.bytesMoved);
                const double perRequest = static_cast<double>(c.globalSectors) / static_cast<double>(c.globalRequests);
                heat[line.line] = {std::clamp(1.0 - used, 0.0, 1.0),
                                   formatted("%.1f sectors per request; %.0f%% of the bytes moved were used", perRequest,
                                             100.0 * used)};
            }
            break;
        case HeatMetric::BankConflicts:
            if (c.sharedRequests > 0) {
                const double perRequest = static_cast<double>(c.sharedWavefronts) / static_cast<double>(c.sharedRequests);
                // 32 wavefronts for one request is the worst a 4-byte access can do.
                heat[line.line] = {std::clamp((perRequest - 1.0) / 31.0, 0.0, 1.0),
                                   formatted("%.1f wavefronts per shared request (1 is conflict-free); %.0f bank conflicts",
                                             perRequest, static_cast<double>(c.sharedBankConflicts))};
            }
            break;
        case HeatMetric::Divergence: {
            const std::uint64_t branches = c.branchesUniform + c.branchesDivergent;
            if (branches > 0) {
                const double divergent = static_cast<double>(c.branchesDivergent) / static_cast<double>(branches);
                heat[line.line] = {divergent, formatted("%.0f%% of this line's branches diverged (%.0f divergent)",
                                                        100.0 * divergent, static_cast<double>(c.branchesDivergent))};
            }
            break;
        }
        }
    }
    return heat;
}

namespace {

// One 16-bit value as FP16 or BF16, with as many digits as tell it apart from its neighbours
// (FP16: 11 significant bits, 5 digits; BF16: 8 bits, 4 digits).
std::string halfText(std::uint32_t bits16, numerics::Format format)
{
    char text[24];
    std::snprintf(text, sizeof text, format == numerics::Format::BF16 ? "%.4g" : "%.5g", numerics::decode(format, bits16));
    return text;
}

} // namespace

std::string formatRegisterValue(std::uint64_t raw, ptx::Type type, RegisterFormat format)
{
    const int bits = std::max(1, ptx::typeBits(type));
    const std::uint64_t masked = bits >= 64 ? raw : raw & ((1ull << bits) - 1);
    char text[48];
    if (format == RegisterFormat::Short) {
        if (!ptx::isFloat(type) || ptx::isHalf(type) || (bits != 32 && bits != 64))
            return formatRegisterValue(raw, type, RegisterFormat::Typed);
        double value = 0;
        if (bits == 32) {
            const auto word = static_cast<std::uint32_t>(masked);
            float single;
            std::memcpy(&single, &word, sizeof single);
            value = single;
        } else {
            std::memcpy(&value, &masked, sizeof value);
        }
        std::snprintf(text, sizeof text, "%.4g", value);
        return text;
    }
    // One letter, so a predicate's lane columns stay as narrow as its values (the row's tooltip says T is true).
    if (format == RegisterFormat::Typed && type == ptx::Type::Pred)
        return masked ? "T" : "F";
    const bool typedHalf = format == RegisterFormat::Typed && ptx::isHalf(type);
    if ((format == RegisterFormat::Half || format == RegisterFormat::BFloat16 || typedHalf) && (bits == 16 || bits == 32)) {
        const bool brain = format == RegisterFormat::BFloat16 ||
                           (typedHalf && (type == ptx::Type::BF16 || type == ptx::Type::BF16x2));
        const numerics::Format half = brain ? numerics::Format::BF16 : numerics::Format::FP16;
        const std::string low = halfText(static_cast<std::uint32_t>(masked & 0xFFFFu), half);
        return bits == 16 ? low : low + " " + halfText(static_cast<std::uint32_t>(masked >> 16), half);
    }
    const bool asFloat = format == RegisterFormat::Float || (format == RegisterFormat::Typed && ptx::isFloat(type));
    const bool halfElsewhere = format == RegisterFormat::Half || format == RegisterFormat::BFloat16; // not 16 or 32 bits
    if (format == RegisterFormat::Hex || halfElsewhere || (asFloat && bits != 32 && bits != 64)) {
        std::snprintf(text, sizeof text, "0x%0*llx", std::max(1, bits / 4), static_cast<unsigned long long>(masked));
        return text;
    }
    if (asFloat) {
        // The shortest decimal that reads back as the same float (0.1f is "0.1", not "0.100000001"):
        // exact, and as narrow as the value allows, so more lanes fit beside each other.
        char* end = text;
        if (bits == 32) {
            const auto word = static_cast<std::uint32_t>(masked);
            float value;
            std::memcpy(&value, &word, sizeof value);
            end = std::to_chars(text, text + sizeof text, value).ptr;
        } else {
            double value;
            std::memcpy(&value, &masked, sizeof value);
            end = std::to_chars(text, text + sizeof text, value).ptr;
        }
        return std::string(text, end);
    }
    const bool asSigned = format == RegisterFormat::Int || ptx::isSigned(type);
    if (asSigned && bits < 64 && ((masked >> (bits - 1)) & 1u))
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(masked | ~((1ull << bits) - 1)));
    else if (asSigned)
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(masked));
    else
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(masked));
    return text;
}

std::string bufferAddressText(std::uint64_t value, const std::vector<BufferPlace>& buffers)
{
    for (const BufferPlace& buffer : buffers)
        if (value >= buffer.base && value - buffer.base <= buffer.bytes) {
            const std::uint64_t offset = value - buffer.base;
            const std::uint64_t element = std::max<std::uint32_t>(1, buffer.elementBytes);
            return offset % element == 0 ? buffer.name + "[" + std::to_string(offset / element) + "]"
                                         : buffer.name + "+" + std::to_string(offset);
        }
    return {};
}

void sortHazardsByPlace(std::vector<sim::Hazard>& hazards, launch::Dim3 grid)
{
    std::stable_sort(hazards.begin(), hazards.end(), [&](const sim::Hazard& a, const sim::Hazard& b) {
        return std::tuple(launch::linearIndex(a.block, grid), a.warp, a.pc) <
               std::tuple(launch::linearIndex(b.block, grid), b.warp, b.pc);
    });
}

HazardRow hazardRow(const sim::Hazard& hazard)
{
    HazardRow row;
    row.kind = sim::hazardKindName(hazard.kind);
    const launch::Dim3& b = hazard.block;
    row.block = b.y == 0 && b.z == 0 ? std::to_string(b.x)
                                     : std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z);
    row.warp = std::to_string(hazard.warp);
    // "lanes 8-31" without its word: the column says it.
    const std::string lanes = sim::describeLanes(hazard.lanes != 0 ? hazard.lanes : 1u << (hazard.lane & 31));
    row.lanes = lanes.substr(lanes.find(' ') + 1);
    if (hazard.source.line > 0 && !hazard.sourceFile.empty())
        row.line = std::filesystem::path(hazard.sourceFile).filename().string() + ":" + std::to_string(hazard.source.line);
    else if (hazard.source.line > 0)
        row.line = "line " + std::to_string(hazard.source.line);
    else
        row.line = "PTX " + std::to_string(hazard.ptxLine);
    return row;
}

Stepper::Stepper(StepperRun run)
    : m_run(std::move(run)), m_replay(m_run.recording, m_run.function ? m_run.function->registers.size() : 0),
      m_usesCarryFlag(m_run.function && sim::usesCarryFlag(*m_run.function))
{
    sortHazardsByPlace(m_run.hazards, m_run.grid);
}

void Stepper::follow(std::int32_t warp)
{
    m_followed = std::clamp(warp, -1, warpCount() - 1);
}

std::int32_t Stepper::selectedWarp() const
{
    if (m_followed >= 0)
        return m_followed;
    const sim::RecordedStep* step = current();
    return step ? static_cast<std::int32_t>(step->warp) : 0;
}

void Stepper::seek(std::size_t position)
{
    m_replay.seek(std::min(position, size()));
}

bool Stepper::step(sim::StepUnit unit, bool forward)
{
    const auto target = sim::findStep(recording(), *m_run.function, position(), unit, forward, m_followed);
    if (!target || *target == position())
        return false;
    m_replay.seek(*target);
    return true;
}

std::optional<std::size_t> Stepper::currentIndex() const
{
    const std::size_t at = position();
    if (m_followed < 0)
        return at < recording().steps.size() ? std::optional<std::size_t>(at) : std::nullopt;
    const auto& mine = recording().stepsOfWarp[static_cast<std::size_t>(m_followed)];
    const auto next = std::lower_bound(mine.begin(), mine.end(), at);
    if (next == mine.end())
        return std::nullopt;
    return *next;
}

const sim::RecordedStep* Stepper::current() const
{
    const auto index = currentIndex();
    return index ? &recording().steps[*index] : nullptr;
}

const ptx::Instruction* Stepper::currentInstruction() const
{
    const sim::RecordedStep* step = current();
    if (!step || step->pc < 0 || static_cast<std::size_t>(step->pc) >= m_run.function->instructions.size())
        return nullptr;
    return &m_run.function->instructions[static_cast<std::size_t>(step->pc)];
}

int Stepper::currentLine() const
{
    const ptx::Instruction* instruction = currentInstruction();
    return instruction ? instruction->source.line : 0;
}

std::optional<std::size_t> Stepper::lastStepOfSelectedWarp() const
{
    const std::int32_t warp = selectedWarp();
    if (warp < 0 || warp >= warpCount())
        return std::nullopt;
    const auto& mine = recording().stepsOfWarp[static_cast<std::size_t>(warp)];
    const auto after = std::lower_bound(mine.begin(), mine.end(), position());
    if (after == mine.begin())
        return std::nullopt;
    return *(after - 1);
}

std::vector<std::int32_t> Stepper::lastWrittenRegisters() const
{
    std::vector<std::int32_t> written;
    const std::optional<std::size_t> lastStep = lastStepOfSelectedWarp();
    if (!lastStep)
        return written;
    const sim::RecordedStep& last = recording().steps[*lastStep];
    for (std::uint32_t i = 0; i < last.writeCount; ++i)
        written.push_back(recording().writes[last.writeOffset + i].reg);
    return written;
}

const sim::RecordedHazard* Stepper::currentHazard() const
{
    const sim::RecordedStep* step = current();
    if (!step || step->hazard < 0)
        return nullptr;
    return &recording().hazards[static_cast<std::size_t>(step->hazard)];
}

bool Stepper::stepToHazard(bool forward)
{
    if (step(sim::StepUnit::Hazard, forward))
        return true;
    if (m_followed < 0)
        return false; // following every warp, step() saw them all
    // Another warp's, in issue order from the followed warp's current instruction.
    const std::vector<sim::RecordedHazard>& hazards = recording().hazards;
    const std::optional<std::size_t> at = currentIndex();
    const sim::RecordedHazard* target = nullptr;
    if (forward) {
        if (!at)
            return false;
        const auto next = std::upper_bound(hazards.begin(), hazards.end(), *at,
                                           [](std::size_t s, const sim::RecordedHazard& h) { return s < h.step; });
        target = next == hazards.end() ? nullptr : &*next;
    } else {
        const std::size_t before = at.value_or(size());
        const auto first = std::lower_bound(hazards.begin(), hazards.end(), before,
                                            [](const sim::RecordedHazard& h, std::size_t s) { return h.step < s; });
        target = first == hazards.begin() ? nullptr : &*(first - 1);
    }
    if (!target)
        return false;
    goTo(*target);
    return true;
}

std::optional<std::size_t> Stepper::hazardInAnotherBlock(bool forward) const
{
    const auto here = static_cast<std::int64_t>(recording().linearBlock);
    const std::vector<sim::Hazard>& hazards = m_run.hazards; // sorted by place
    if (forward) {
        for (std::size_t i = 0; i < hazards.size(); ++i)
            if (launch::linearIndex(hazards[i].block, m_run.grid) > here)
                return i;
    } else {
        for (std::size_t i = hazards.size(); i-- > 0;)
            if (launch::linearIndex(hazards[i].block, m_run.grid) < here)
                return i;
    }
    return std::nullopt;
}

const sim::RecordedHazard* Stepper::recordedHazard(const sim::Hazard& hazard) const
{
    const sim::RecordedHazard* sameInstruction = nullptr;
    for (const sim::RecordedHazard& recorded : recording().hazards) {
        if (recorded.hazard.warp != hazard.warp || recorded.hazard.pc != hazard.pc)
            continue;
        if (recorded.hazard.kind == hazard.kind)
            return &recorded;
        if (!sameInstruction)
            sameInstruction = &recorded;
    }
    return sameInstruction;
}

void Stepper::goTo(const sim::RecordedHazard& hazard)
{
    if (m_followed >= 0)
        follow(hazard.hazard.warp);
    seek(hazard.step);
}

std::optional<Stepper::ConflictingAccess> Stepper::conflictingAccess() const
{
    const sim::RecordedHazard* hazard = currentHazard();
    const std::optional<std::size_t> index = currentIndex();
    if (!hazard || !index || hazard->hazard.kind != sim::HazardKind::SharedRace || hazard->hazard.otherThread < 0)
        return std::nullopt;
    const auto otherWarp = static_cast<std::uint32_t>(hazard->hazard.otherThread / 32);
    const auto otherLane = static_cast<std::int32_t>(hazard->hazard.otherThread % 32);
    const std::uint64_t word = hazard->hazard.address / 4;
    const sim::BlockRecording& rec = recording();
    for (std::size_t s = *index; s-- > 0;) {
        const sim::RecordedStep& step = rec.steps[s];
        if (step.warp != otherWarp || step.access < 0)
            continue;
        const sim::RecordedAccess& access = rec.accesses[static_cast<std::size_t>(step.access)];
        if (access.space != ptx::Space::Shared || !((access.laneMask >> otherLane) & 1u))
            continue;
        if ((access.isStore || access.isAtomic) != hazard->hazard.otherWrote) // the write, or the read, it names
            continue;
        const std::uint64_t address = access.addresses[static_cast<std::size_t>(otherLane)];
        if (address / 4 <= word && word <= (address + std::max<std::uint32_t>(access.bytesPerLane, 1) - 1) / 4)
            return ConflictingAccess{s, static_cast<std::int32_t>(otherWarp), otherLane, address,
                                     access.isStore || access.isAtomic};
    }
    return std::nullopt;
}

const char* hazardWhy(sim::HazardKind kind)
{
    switch (kind) {
    case sim::HazardKind::OutOfBoundsGlobal:
        return "No allocation holds this address: on a GPU the access reads or overwrites other data, or the launch "
               "ends with an illegal-address error.";
    case sim::HazardKind::OutOfBoundsShared:
        return "The offset is past the block's shared memory: on a GPU the launch ends with an error, or the access "
               "touches memory the block does not own.";
    case sim::HazardKind::OutOfBoundsLocal:
        return "The offset is past the thread's local memory: the access touches memory the thread does not own.";
    case sim::HazardKind::SharedRace:
        return "Nothing orders the two accesses: on a GPU either may happen first, so the value read (or kept) can "
               "change from run to run. A barrier between them fixes the order.";
    case sim::HazardKind::BarrierDivergence:
        return "A barrier must be reached by every thread of the block: if some skip it, the others may wait forever "
               "or go on early, and the result is undefined.";
    case sim::HazardKind::UninitializedSharedRead:
        return "Shared memory starts with whatever was there before: the value read is not defined.";
    case sim::HazardKind::WarpSyncMismatch:
        return "The member mask leaves out a lane that runs this instruction: CUDA leaves the result undefined.";
    case sim::HazardKind::WarpLivelock:
        return "Lanes spin waiting for lanes of their own warp that never get to run: under the reconvergence stack "
               "(before Volta) the warp hangs; since Volta, independent thread scheduling gives the other lanes "
               "their turn (Warps: ITS).";
    case sim::HazardKind::ShflInactiveSource:
        return "The source lane is not taking part: CUDA leaves the value read undefined.";
    case sim::HazardKind::DivisionByZero:
        return "Integer division by zero has no defined result on a GPU: no trap, just an unspecified value.";
    case sim::HazardKind::MisalignedAccess:
        return "GPUs require accesses aligned to their size: a misaligned one ends the launch with an error.";
    case sim::HazardKind::AsyncCopyInFlight:
        return "A cp.async lands in shared memory at some time before the wait for its group (or its mbarrier): "
               "until then a read may see the old bytes or the new ones, and a write may be overwritten.";
    case sim::HazardKind::MbarrierMisuse:
        return "An mbarrier must be initialised (mbarrier.init, cuda::barrier's init) before any thread arrives "
               "on it or waits for it, with an expected count from 1 to 2^20 - 1; otherwise its behaviour is undefined.";
    case sim::HazardKind::MbarrierDeadlock:
        return "The phase the threads wait for needs arrivals that never come: on a GPU the block waits forever "
               "and the launch never finishes.";
    }
    return "";
}

} // namespace warpscope::viz
