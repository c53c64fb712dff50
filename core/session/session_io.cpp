#include "session/session_io.h"

#include "launch/launch_geometry.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <istream>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpscope::session {

// Keys in the order written, so the first line reads {"format":...,"version":...} and every record
// starts with its type.
using json = nlohmann::ordered_json;

// ---- Session helpers -------------------------------------------------------------------------

std::uint64_t ActivityRecord::medianNs() const
{
    if (durationsNs.empty())
        return 0;
    std::vector<std::uint64_t> sorted = durationsNs;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t mid = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

namespace {

template <typename Record>
const Record* findByKernel(const std::vector<Record>& records, const std::string& kernel)
{
    // The last record wins: a stream may repeat a kernel (a rerun in the same session).
    for (auto it = records.rbegin(); it != records.rend(); ++it)
        if (it->kernel == kernel)
            return &*it;
    return nullptr;
}

} // namespace

std::vector<std::string> Session::kernelIds() const
{
    std::vector<std::string> ids;
    auto add = [&](const std::string& id) {
        if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    };
    for (const auto& kernel : kernels) add(kernel.id);
    for (const auto& record : activities) add(record.kernel);
    for (const auto& record : metrics) add(record.kernel);
    for (const auto& record : occupancies) add(record.kernel);
    for (const auto& record : predictions) add(record.kernel);
    for (const auto& record : checks) add(record.kernel);
    return ids;
}

const KernelRecord* Session::findKernel(const std::string& id) const
{
    for (const KernelRecord& kernel : kernels)
        if (kernel.id == id)
            return &kernel;
    return nullptr;
}
const ActivityRecord* Session::activityFor(const std::string& kernel) const { return findByKernel(activities, kernel); }
const MetricsRecord* Session::metricsFor(const std::string& kernel) const { return findByKernel(metrics, kernel); }
const OccupancyRecord* Session::occupancyFor(const std::string& kernel) const { return findByKernel(occupancies, kernel); }
const PredictionRecord* Session::predictionFor(const std::string& kernel) const { return findByKernel(predictions, kernel); }
const CheckRecord* Session::checkFor(const std::string& kernel) const { return findByKernel(checks, kernel); }

const HierarchyLevel* HierarchyRecord::find(std::string_view level) const
{
    for (const HierarchyLevel& l : levels)
        if (l.level == level)
            return &l;
    return nullptr;
}

std::optional<double> Session::metric(const std::string& kernel, const std::string& name) const
{
    const MetricsRecord* record = metricsFor(kernel);
    if (record == nullptr)
        return std::nullopt;
    auto it = record->values.find(name);
    if (it == record->values.end())
        return std::nullopt;
    return it->second;
}

bool isRecordedComputeArch(std::string_view arch)
{
    constexpr std::string_view prefix = "compute_";
    if (!arch.starts_with(prefix))
        return false;
    const std::string_view digits = arch.substr(prefix.size());
    if (digits.empty() || digits.size() > 3 || digits.front() == '0' ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    int number = 0;
    for (char c : digits)
        number = number * 10 + (c - '0');
    return number >= kMinRecordedCompute && number <= kMaxRecordedCompute;
}

std::string fnv1a64Hex(std::string_view text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL; // FNV offset basis
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ULL; // FNV prime
    }
    static const char* digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i) {
        out[static_cast<std::size_t>(i)] = digits[hash & 0xF];
        hash >>= 4;
    }
    return out;
}

// ---- Writing ---------------------------------------------------------------------------------

namespace {

json dim3(const Dim3& d) { return json::array({d[0], d[1], d[2]}); }

enum class DimKind { Grid, Block };

// A grid or block as CUDA allows it (launch::LaunchLimits): each component an integer from 1 to its
// axis limit, and a block of at most 1024 threads. Anything else is damage, never wrapped into range.
Dim3 readDim3(const json& j, const char* key, DimKind kind)
{
    Dim3 out{1, 1, 1};
    if (!j.contains(key))
        return out;
    const json& a = j.at(key);
    if (!a.is_array() || a.size() != 3)
        throw std::runtime_error(std::string("field '") + key + "' must be an array of 3 integers");
    using launch::LaunchLimits;
    const std::int64_t limits[2][3] = {
        {LaunchLimits::maxGridX, LaunchLimits::maxGridYZ, LaunchLimits::maxGridYZ},
        {LaunchLimits::maxBlockXY, LaunchLimits::maxBlockXY, LaunchLimits::maxBlockZ}};
    const std::int64_t* max = limits[kind == DimKind::Grid ? 0 : 1];
    static constexpr const char* axes[3] = {"x", "y", "z"};
    for (std::size_t i = 0; i < 3; ++i) {
        const json& v = a.at(i);
        // nlohmann reads every non-negative integer as unsigned; negatives, fractions and text are not.
        const bool inRange = v.is_number_unsigned() && v.get<std::uint64_t>() >= 1 &&
                             v.get<std::uint64_t>() <= static_cast<std::uint64_t>(max[i]);
        if (!inRange)
            throw std::runtime_error(std::string("field '") + key + "' " + axes[i] + " = " + v.dump() +
                                     " is outside CUDA's limits (allowed: integers 1.." + std::to_string(max[i]) + ")");
        out[i] = static_cast<std::uint32_t>(v.get<std::uint64_t>());
    }
    const std::uint64_t threads = std::uint64_t{out[0]} * out[1] * out[2];
    if (kind == DimKind::Block && threads > static_cast<std::uint64_t>(LaunchLimits::maxThreadsPerBlock))
        throw std::runtime_error(std::string("field '") + key + "' has " + std::to_string(threads) +
                                 " threads (allowed: at most 1024 per block)");
    return out;
}

} // namespace

void SessionWriter::writeLine(const std::string& line)
{
    m_out << line << '\n';
    m_out.flush();
}

void SessionWriter::write(const SessionHeader& h)
{
    writeLine(json{{"format", h.format}, {"version", h.version}, {"producer", h.producer},
              {"created", h.createdUtc}, {"host", h.host}}.dump());
}

void SessionWriter::write(const DeviceRecord& d)
{
    writeLine(json{{"type", "device"}, {"ordinal", d.ordinal}, {"name", d.name}, {"chip", d.chip},
              {"compute_capability", json::array({d.computeMajor, d.computeMinor})}, {"sm_count", d.smCount},
              {"core_clock_khz", d.coreClockKHz}, {"memory_clock_khz", d.memoryClockKHz},
              {"memory_bus_width_bits", d.memoryBusWidthBits}, {"total_memory_bytes", d.totalMemoryBytes},
              {"l2_bytes", d.l2Bytes}, {"max_threads_per_sm", d.maxThreadsPerSm}, {"max_blocks_per_sm", d.maxBlocksPerSm},
              {"max_threads_per_block", d.maxThreadsPerBlock}, {"registers_per_sm", d.registersPerSm},
              {"registers_per_block", d.registersPerBlock}, {"shared_per_sm", d.sharedPerSm},
              {"shared_per_block", d.sharedPerBlock}, {"shared_per_block_optin", d.sharedPerBlockOptin},
              {"reserved_shared_per_block", d.reservedSharedPerBlock}, {"driver_version", d.driverVersion},
              {"driver_release", d.driverRelease}, {"toolkit_version", d.toolkitVersion},
              {"cupti_version", d.cuptiVersion}, {"counters_allowed", d.countersAllowed},
              {"counters_message", d.countersMessage}}.dump());
}

void SessionWriter::write(const CeilingsRecord& c)
{
    writeLine(json{{"type", "ceilings"}, {"measured_dram_gbps", c.measuredDramGBps},
              {"measured_dram_method", c.measuredDramMethod}, {"measured_fp32_gflops", c.measuredFp32Gflops},
              {"measured_fp32_method", c.measuredFp32Method}, {"theoretical_dram_gbps", c.theoreticalDramGBps},
              {"theoretical_fp32_gflops", c.theoreticalFp32Gflops}, {"theoretical_source", c.theoreticalSource},
              {"reference_sgemm_gflops", c.referenceSgemmGflops}, {"reference_sgemm_n", c.referenceSgemmN},
              {"reference_sgemm_method", c.referenceSgemmMethod},
              {"measured_atomic_updates_per_second", c.measuredAtomicUpdatesPerSecond},
              {"measured_atomic_method", c.measuredAtomicMethod}}.dump());
}

void SessionWriter::write(const KernelRecord& k)
{
    writeLine(json{{"type", "kernel"}, {"id", k.id}, {"entry", k.entry}, {"title", k.title}, {"ladder", k.ladder},
              {"ladder_rung", k.ladderRung}, {"source_name", k.sourceName}, {"ptx_fnv1a64", k.ptxHash},
              {"source_fnv1a64", k.sourceHash}, {"grid", dim3(k.grid)}, {"block", dim3(k.block)},
              {"dynamic_shared_bytes", k.dynamicSharedBytes}, {"args", k.args}, {"launch_size", k.launchSize},
              {"cache_control", k.cacheControl}, {"compute", k.compute}}.dump());
}

void SessionWriter::write(const ActivityRecord& a)
{
    writeLine(json{{"type", "activity"}, {"kernel", a.kernel}, {"durations_ns", a.durationsNs},
              {"registers_per_thread", a.registersPerThread}, {"static_shared_bytes", a.staticSharedBytes},
              {"dynamic_shared_bytes", a.dynamicSharedBytes}, {"local_bytes_per_thread", a.localBytesPerThread},
              {"grid", dim3(a.grid)}, {"block", dim3(a.block)}, {"dropped_records", a.droppedRecords},
              {"timer", a.timer}}.dump());
}

void SessionWriter::write(const MemcpyRecord& m)
{
    writeLine(json{{"type", "memcpy"}, {"kernel", m.kernel}, {"direction", m.direction}, {"bytes", m.bytes},
              {"duration_ns", m.durationNs}}.dump());
}

void SessionWriter::write(const MetricsRecord& m)
{
    writeLine(json{{"type", "metrics"}, {"kernel", m.kernel}, {"passes", m.passes}, {"replay", m.replay},
              {"values", m.values}, {"units", m.units}, {"unavailable", m.unavailable}}.dump());
}

void SessionWriter::write(const OccupancyRecord& o)
{
    writeLine(json{{"type", "occupancy"}, {"kernel", o.kernel}, {"theoretical", o.theoretical},
              {"active_blocks_per_sm", o.activeBlocksPerSm}, {"registers_per_thread", o.registersPerThread},
              {"limiter", o.limiter}, {"waves", o.waves}}.dump());
}

void SessionWriter::write(const PredictionRecord& p)
{
    json record{{"type", "prediction"}, {"kernel", p.kernel}, {"preset", p.preset},
              {"warp_instructions", p.warpInstructions}, {"thread_instructions", p.threadInstructions},
              {"global_load_requests", p.globalLoadRequests}, {"global_load_sectors", p.globalLoadSectors},
              {"global_store_requests", p.globalStoreRequests}, {"global_store_sectors", p.globalStoreSectors},
              {"shared_load_requests", p.sharedLoadRequests}, {"shared_store_requests", p.sharedStoreRequests},
              {"shared_load_wavefronts", p.sharedLoadWavefronts}, {"shared_store_wavefronts", p.sharedStoreWavefronts},
              {"shared_bank_conflicts", p.sharedBankConflicts}, {"branches_uniform", p.branchesUniform},
              {"branches_divergent", p.branchesDivergent}, {"fadd", p.fadd}, {"fmul", p.fmul}, {"ffma", p.ffma},
              {"theoretical_occupancy", p.theoreticalOccupancy}, {"simulated_blocks", p.simulatedBlocks},
              {"total_blocks", p.totalBlocks}};
    if (p.predictedNs > 0) { // only sessions with a predicted time carry the fields
        record["predicted_ns"] = p.predictedNs;
        record["time_method"] = p.timeMethod;
        record["time_blind_spots"] = p.timeBlindSpots;
    }
    if (p.modelStalls.total() > 0) { // only predictions the timing model ran for carry them
        const ModelStallCycles& m = p.modelStalls;
        record["model_stall_cycles"] = json{{"global_memory", m.globalMemory}, {"shared_memory", m.sharedMemory},
                                            {"execution", m.execution},        {"load_store_unit", m.loadStoreUnit},
                                            {"barrier", m.barrier},            {"not_selected", m.notSelected}};
    }
    writeLine(record.dump());
}

void SessionWriter::write(const HierarchyRecord& h)
{
    json levels = json::array();
    for (const HierarchyLevel& l : h.levels)
        levels.push_back(json{{"level", l.level}, {"latency_cycles", l.latencyCycles}, {"latency_ns", l.latencyNs},
                              {"bandwidth_gbps", l.bandwidthGBps}, {"footprint_bytes", l.footprintBytes},
                              {"method", l.method}});
    writeLine(json{{"type", "hierarchy"}, {"sm_clock_mhz", h.smClockMHz}, {"levels", levels}}.dump());
}

void SessionWriter::write(const CheckRecord& c)
{
    writeLine(json{{"type", "check"}, {"kernel", c.kernel}, {"reference", c.reference}, {"matches", c.matches},
              {"detail", c.detail}}.dump());
}

void SessionWriter::write(const ProgressRecord& p)
{
    writeLine(json{{"type", "progress"}, {"stage", p.stage}, {"kernel", p.kernel}, {"done", p.done},
              {"total", p.total}}.dump());
}

void SessionWriter::write(const LogRecord& l)
{
    writeLine(json{{"type", "log"}, {"level", l.level}, {"message", l.message}}.dump());
}

void SessionWriter::write(const ErrorRecord& e)
{
    writeLine(json{{"type", "error"}, {"code", e.code}, {"message", e.message}, {"kernel", e.kernel},
              {"fatal", e.fatal}}.dump());
}

void SessionWriter::write(const EndRecord& e)
{
    writeLine(json{{"type", "end"}, {"status", e.status}, {"wall_seconds", e.wallSeconds}}.dump());
}

void SessionWriter::writeAll(const Session& s)
{
    write(s.header);
    for (const auto& r : s.devices) write(r);
    if (s.ceilings) write(*s.ceilings);
    if (s.hierarchy) write(*s.hierarchy);
    for (const auto& r : s.kernels) write(r);
    for (const auto& r : s.activities) write(r);
    for (const auto& r : s.memcpys) write(r);
    for (const auto& r : s.metrics) write(r);
    for (const auto& r : s.occupancies) write(r);
    for (const auto& r : s.predictions) write(r);
    for (const auto& r : s.checks) write(r);
    for (const auto& r : s.progress) write(r);
    for (const auto& r : s.logs) write(r);
    for (const auto& r : s.errors) write(r);
    if (s.end) write(*s.end);
}

std::string formatSession(const Session& session)
{
    std::ostringstream out;
    SessionWriter(out).writeAll(session);
    return out.str();
}

// ---- Reading ---------------------------------------------------------------------------------

namespace {

// Whether `v` is an integer that T holds. nlohmann's get<int>() would wrap 99999999999 and cast 1e300
// (undefined behaviour) instead of refusing them.
template <typename T>
bool integerFits(const json& v)
{
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (!v.is_number_integer())
        return false;
    const std::int64_t value = v.get<std::int64_t>();
    if (value < 0)
        return std::is_signed_v<T> && value >= static_cast<std::int64_t>(std::numeric_limits<T>::min());
    return static_cast<std::uint64_t>(value) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
}

// Integer fields (and the elements of integer lists) hold integers in their type's range.
template <typename T>
void checkIntegers(const json& v, const char* key)
{
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (v.is_number() && !integerFits<T>(v))
            throw std::runtime_error(std::string("field '") + key + "' = " + v.dump() + " is not an integer in range (allowed: " +
                                     std::to_string(std::numeric_limits<T>::min()) + ".." +
                                     std::to_string(std::numeric_limits<T>::max()) + ")");
    } else if constexpr (requires { typename T::value_type; }) {
        if constexpr (std::is_same_v<T, std::vector<typename T::value_type>>)
            if (v.is_array())
                for (const json& element : v)
                    checkIntegers<typename T::value_type>(element, key);
    }
}

template <typename T>
T field(const json& j, const char* key, T fallback = T{})
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    checkIntegers<T>(*it, key);
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw std::runtime_error(std::string("field '") + key + "' has the wrong type (" + it->type_name() + ")");
    }
}

DeviceRecord readDevice(const json& j)
{
    DeviceRecord d;
    d.ordinal = field<int>(j, "ordinal");
    d.name = field<std::string>(j, "name");
    d.chip = field<std::string>(j, "chip");
    if (auto cc = field<std::vector<int>>(j, "compute_capability"); cc.size() == 2) {
        d.computeMajor = cc[0];
        d.computeMinor = cc[1];
    }
    d.smCount = field<int>(j, "sm_count");
    d.coreClockKHz = field<int>(j, "core_clock_khz");
    d.memoryClockKHz = field<int>(j, "memory_clock_khz");
    d.memoryBusWidthBits = field<int>(j, "memory_bus_width_bits");
    d.totalMemoryBytes = field<std::uint64_t>(j, "total_memory_bytes");
    d.l2Bytes = field<std::uint64_t>(j, "l2_bytes");
    d.maxThreadsPerSm = field<int>(j, "max_threads_per_sm");
    d.maxBlocksPerSm = field<int>(j, "max_blocks_per_sm");
    d.maxThreadsPerBlock = field<int>(j, "max_threads_per_block");
    d.registersPerSm = field<int>(j, "registers_per_sm");
    d.registersPerBlock = field<int>(j, "registers_per_block");
    d.sharedPerSm = field<std::uint64_t>(j, "shared_per_sm");
    d.sharedPerBlock = field<std::uint64_t>(j, "shared_per_block");
    d.sharedPerBlockOptin = field<std::uint64_t>(j, "shared_per_block_optin");
    d.reservedSharedPerBlock = field<std::uint64_t>(j, "reserved_shared_per_block");
    d.driverVersion = field<int>(j, "driver_version");
    d.driverRelease = field<std::string>(j, "driver_release");
    d.toolkitVersion = field<int>(j, "toolkit_version");
    d.cuptiVersion = field<std::string>(j, "cupti_version");
    d.countersAllowed = field<bool>(j, "counters_allowed", true);
    d.countersMessage = field<std::string>(j, "counters_message");
    return d;
}

CeilingsRecord readCeilings(const json& j)
{
    CeilingsRecord c;
    c.measuredDramGBps = field<double>(j, "measured_dram_gbps");
    c.measuredDramMethod = field<std::string>(j, "measured_dram_method");
    c.measuredFp32Gflops = field<double>(j, "measured_fp32_gflops");
    c.measuredFp32Method = field<std::string>(j, "measured_fp32_method");
    c.theoreticalDramGBps = field<double>(j, "theoretical_dram_gbps");
    c.theoreticalFp32Gflops = field<double>(j, "theoretical_fp32_gflops");
    c.theoreticalSource = field<std::string>(j, "theoretical_source");
    c.referenceSgemmGflops = field<double>(j, "reference_sgemm_gflops");
    c.referenceSgemmN = field<int>(j, "reference_sgemm_n");
    c.referenceSgemmMethod = field<std::string>(j, "reference_sgemm_method");
    c.measuredAtomicUpdatesPerSecond = field<double>(j, "measured_atomic_updates_per_second");
    c.measuredAtomicMethod = field<std::string>(j, "measured_atomic_method");
    if (!std::isfinite(c.measuredAtomicUpdatesPerSecond) || c.measuredAtomicUpdatesPerSecond < 0)
        throw std::runtime_error("field 'measured_atomic_updates_per_second' = " +
                                 j.at("measured_atomic_updates_per_second").dump() +
                                 " is not a rate (allowed: a positive number, or 0 when not measured)");
    // Missing is 0, not measured (older sessions). A rate that no measurement gives, or one without
    // the n it was measured at, would be read as a rung's reference: the record is damaged.
    if (!std::isfinite(c.referenceSgemmGflops) || c.referenceSgemmGflops < 0)
        throw std::runtime_error("field 'reference_sgemm_gflops' = " + j.at("reference_sgemm_gflops").dump() +
                                 " is not a rate (allowed: a positive number, or 0 when not measured)");
    if (c.referenceSgemmN < 0 || (c.referenceSgemmGflops > 0 && c.referenceSgemmN == 0))
        throw std::runtime_error("field 'reference_sgemm_n' = " + std::to_string(c.referenceSgemmN) +
                                 " is not the n of the measured rate (allowed: a positive matrix size)");
    return c;
}

KernelRecord readKernel(const json& j)
{
    KernelRecord k;
    k.id = field<std::string>(j, "id");
    if (k.id.empty())
        throw std::runtime_error("field 'id' is missing or empty");
    k.entry = field<std::string>(j, "entry");
    k.title = field<std::string>(j, "title");
    k.ladder = field<std::string>(j, "ladder");
    k.ladderRung = field<int>(j, "ladder_rung");
    k.sourceName = field<std::string>(j, "source_name");
    k.ptxHash = field<std::string>(j, "ptx_fnv1a64");
    k.sourceHash = field<std::string>(j, "source_fnv1a64");
    k.grid = readDim3(j, "grid", DimKind::Grid);
    k.block = readDim3(j, "block", DimKind::Block);
    k.dynamicSharedBytes = field<std::uint64_t>(j, "dynamic_shared_bytes");
    k.args = field<std::vector<std::string>>(j, "args");
    k.launchSize = field<std::string>(j, "launch_size");
    k.cacheControl = field<std::string>(j, "cache_control");
    k.compute = field<std::string>(j, "compute");
    if (!k.compute.empty() && !isRecordedComputeArch(k.compute))
        // Quoted as JSON (control characters escaped) and cut at 40 characters, so the line stays one line.
        throw std::runtime_error("field 'compute' = " +
                                 json(k.compute.size() > 40 ? k.compute.substr(0, 40) + "…" : k.compute)
                                     .dump(-1, ' ', false, json::error_handler_t::replace) +
                                 " is not a virtual architecture (allowed: compute_" + std::to_string(kMinRecordedCompute) +
                                 " .. compute_" + std::to_string(kMaxRecordedCompute) + ", or empty)");
    return k;
}

std::string requireKernel(const json& j)
{
    std::string kernel = field<std::string>(j, "kernel");
    if (kernel.empty())
        throw std::runtime_error("field 'kernel' is missing or empty");
    return kernel;
}

ActivityRecord readActivity(const json& j)
{
    ActivityRecord a;
    a.kernel = requireKernel(j);
    a.durationsNs = field<std::vector<std::uint64_t>>(j, "durations_ns");
    a.registersPerThread = field<int>(j, "registers_per_thread");
    a.staticSharedBytes = field<std::uint64_t>(j, "static_shared_bytes");
    a.dynamicSharedBytes = field<std::uint64_t>(j, "dynamic_shared_bytes");
    a.localBytesPerThread = field<std::uint64_t>(j, "local_bytes_per_thread");
    a.grid = readDim3(j, "grid", DimKind::Grid);
    a.block = readDim3(j, "block", DimKind::Block);
    a.droppedRecords = field<std::uint64_t>(j, "dropped_records");
    a.timer = field<std::string>(j, "timer");
    return a;
}

MemcpyRecord readMemcpy(const json& j)
{
    MemcpyRecord m;
    m.kernel = field<std::string>(j, "kernel");
    m.direction = field<std::string>(j, "direction");
    m.bytes = field<std::uint64_t>(j, "bytes");
    m.durationNs = field<std::uint64_t>(j, "duration_ns");
    return m;
}

MetricsRecord readMetrics(const json& j)
{
    MetricsRecord m;
    m.kernel = requireKernel(j);
    m.passes = field<int>(j, "passes");
    m.replay = field<std::string>(j, "replay", "kernel");
    m.values = field<std::map<std::string, double>>(j, "values");
    m.units = field<std::map<std::string, std::string>>(j, "units");
    m.unavailable = field<std::vector<std::string>>(j, "unavailable");
    return m;
}

OccupancyRecord readOccupancy(const json& j)
{
    OccupancyRecord o;
    o.kernel = requireKernel(j);
    o.theoretical = field<double>(j, "theoretical");
    o.activeBlocksPerSm = field<int>(j, "active_blocks_per_sm");
    o.registersPerThread = field<int>(j, "registers_per_thread");
    o.limiter = field<std::string>(j, "limiter");
    o.waves = field<double>(j, "waves");
    return o;
}

PredictionRecord readPrediction(const json& j)
{
    PredictionRecord p;
    p.kernel = requireKernel(j);
    p.preset = field<std::string>(j, "preset");
    p.warpInstructions = field<std::uint64_t>(j, "warp_instructions");
    p.threadInstructions = field<std::uint64_t>(j, "thread_instructions");
    p.globalLoadRequests = field<std::uint64_t>(j, "global_load_requests");
    p.globalLoadSectors = field<std::uint64_t>(j, "global_load_sectors");
    p.globalStoreRequests = field<std::uint64_t>(j, "global_store_requests");
    p.globalStoreSectors = field<std::uint64_t>(j, "global_store_sectors");
    p.sharedLoadRequests = field<std::uint64_t>(j, "shared_load_requests");
    p.sharedStoreRequests = field<std::uint64_t>(j, "shared_store_requests");
    p.sharedLoadWavefronts = field<std::uint64_t>(j, "shared_load_wavefronts");
    p.sharedStoreWavefronts = field<std::uint64_t>(j, "shared_store_wavefronts");
    p.sharedBankConflicts = field<std::uint64_t>(j, "shared_bank_conflicts");
    p.branchesUniform = field<std::uint64_t>(j, "branches_uniform");
    p.branchesDivergent = field<std::uint64_t>(j, "branches_divergent");
    p.fadd = field<std::uint64_t>(j, "fadd");
    p.fmul = field<std::uint64_t>(j, "fmul");
    p.ffma = field<std::uint64_t>(j, "ffma");
    p.theoreticalOccupancy = field<double>(j, "theoretical_occupancy");
    p.simulatedBlocks = field<std::uint64_t>(j, "simulated_blocks");
    p.totalBlocks = field<std::uint64_t>(j, "total_blocks");
    p.predictedNs = field<double>(j, "predicted_ns");
    if (!std::isfinite(p.predictedNs) || p.predictedNs < 0)
        throw std::runtime_error("'predicted_ns' must be a duration in nanoseconds, 0 or more");
    p.timeMethod = field<std::string>(j, "time_method");
    p.timeBlindSpots = field<std::vector<std::string>>(j, "time_blind_spots");
    if (auto stalls = j.find("model_stall_cycles"); stalls != j.end() && !stalls->is_null()) {
        const json& m = *stalls;
        if (!m.is_object())
            throw std::runtime_error("'model_stall_cycles' must be an object of cycle counts by reason");
        p.modelStalls.globalMemory = field<std::uint64_t>(m, "global_memory");
        p.modelStalls.sharedMemory = field<std::uint64_t>(m, "shared_memory");
        p.modelStalls.execution = field<std::uint64_t>(m, "execution");
        p.modelStalls.loadStoreUnit = field<std::uint64_t>(m, "load_store_unit");
        p.modelStalls.barrier = field<std::uint64_t>(m, "barrier");
        p.modelStalls.notSelected = field<std::uint64_t>(m, "not_selected");
    }
    if (p.totalBlocks > 0 && p.simulatedBlocks > p.totalBlocks)
        throw std::runtime_error("'simulated_blocks' " + std::to_string(p.simulatedBlocks) + " exceeds 'total_blocks' " +
                                 std::to_string(p.totalBlocks));
    return p;
}

HierarchyRecord readHierarchy(const json& j)
{
    HierarchyRecord h;
    h.smClockMHz = field<double>(j, "sm_clock_mhz");
    const json levels = field<json>(j, "levels", json::array());
    if (!levels.is_array())
        throw std::runtime_error("field 'levels' must be an array");
    for (const json& l : levels) {
        if (!l.is_object())
            throw std::runtime_error("every entry of 'levels' must be an object");
        HierarchyLevel level;
        level.level = field<std::string>(l, "level");
        if (level.level.empty())
            throw std::runtime_error("a level needs a name ('level')");
        level.latencyCycles = field<double>(l, "latency_cycles");
        level.latencyNs = field<double>(l, "latency_ns");
        level.bandwidthGBps = field<double>(l, "bandwidth_gbps");
        level.footprintBytes = field<std::uint64_t>(l, "footprint_bytes");
        level.method = field<std::string>(l, "method");
        if (level.latencyCycles < 0 || level.latencyNs < 0 || level.bandwidthGBps < 0)
            throw std::runtime_error("level '" + level.level + "' has a negative value");
        h.levels.push_back(std::move(level));
    }
    return h;
}

CheckRecord readCheck(const json& j)
{
    CheckRecord c;
    c.kernel = requireKernel(j);
    c.reference = field<std::string>(j, "reference");
    c.matches = field<bool>(j, "matches");
    c.detail = field<std::string>(j, "detail");
    return c;
}

} // namespace

bool SessionStreamReader::feedLine(std::string_view line)
{
    if (m_stopped)
        return false;
    ++m_lineNumber;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return true; // blank lines are allowed anywhere
    if (!m_headerSeen) {
        json header;
        try {
            header = json::parse(line);
        } catch (const json::exception&) {
            m_problems.push_back("line " + std::to_string(m_lineNumber) + ": not a warpscope session (the first line is not JSON)");
            m_stopped = true;
            return false;
        }
        // Compared as JSON values: a "format" or "version" of another type (or a version past int) is
        // not this format, never an exception or a wrapped number.
        if (!header.is_object() || !header.contains("format") || header.at("format") != kFormatName) {
            m_problems.push_back("line " + std::to_string(m_lineNumber) +
                                 ": not a warpscope session (the first line must name the format \"" + kFormatName + "\")");
            m_stopped = true;
            return false;
        }
        const json version = header.value("version", json());
        if (!version.is_number_integer() || version != kFormatVersion) {
            m_problems.push_back("line " + std::to_string(m_lineNumber) + ": session format version " + version.dump() +
                                 " is not one this build reads (it reads version " + std::to_string(kFormatVersion) +
                                 "); open it with a newer Warpscope");
            m_stopped = true;
            return false;
        }
        m_headerSeen = true;
        m_session.header.version = kFormatVersion;
        // A damaged description is named and left empty; the records after it are still read.
        for (auto [key, value] : {std::pair{"producer", &m_session.header.producer},
                                  std::pair{"created", &m_session.header.createdUtc}, std::pair{"host", &m_session.header.host}}) {
            try {
                *value = field<std::string>(header, key);
            } catch (const std::exception& error) {
                m_problems.push_back("line " + std::to_string(m_lineNumber) + ": session header: " + error.what() + ", ignored");
            }
        }
        return true;
    }
    readRecord(line);
    return true;
}

void SessionStreamReader::readRecord(std::string_view line)
{
    const std::string where = "line " + std::to_string(m_lineNumber);
    json j;
    try {
        j = json::parse(line);
    } catch (const json::exception&) {
        std::string shown(line.substr(0, 40));
        m_problems.push_back(where + ": not JSON, skipped (\"" + shown + (line.size() > 40 ? "…" : "") + "\")");
        return;
    }
    if (!j.is_object() || !j.contains("type") || !j.at("type").is_string()) {
        m_problems.push_back(where + ": a record needs a string field 'type', skipped");
        return;
    }
    const std::string type = j.at("type").get<std::string>();
    if (m_session.end) {
        m_problems.push_back(where + ": '" + type + "' record after the end record, skipped");
        return;
    }
    try {
        if (type == "device") m_session.devices.push_back(readDevice(j));
        else if (type == "ceilings") m_session.ceilings = readCeilings(j);
        else if (type == "hierarchy") m_session.hierarchy = readHierarchy(j);
        else if (type == "kernel") m_session.kernels.push_back(readKernel(j));
        else if (type == "activity") m_session.activities.push_back(readActivity(j));
        else if (type == "memcpy") m_session.memcpys.push_back(readMemcpy(j));
        else if (type == "metrics") m_session.metrics.push_back(readMetrics(j));
        else if (type == "occupancy") m_session.occupancies.push_back(readOccupancy(j));
        else if (type == "prediction") m_session.predictions.push_back(readPrediction(j));
        else if (type == "check") m_session.checks.push_back(readCheck(j));
        else if (type == "progress")
            m_session.progress.push_back({field<std::string>(j, "stage"), field<std::string>(j, "kernel"),
                                          field<int>(j, "done"), field<int>(j, "total")});
        else if (type == "log") m_session.logs.push_back({field<std::string>(j, "level"), field<std::string>(j, "message")});
        else if (type == "error")
            m_session.errors.push_back({field<std::string>(j, "code"), field<std::string>(j, "message"),
                                        field<std::string>(j, "kernel"), field<bool>(j, "fatal")});
        else if (type == "end") m_session.end = EndRecord{field<std::string>(j, "status"), field<double>(j, "wall_seconds")};
        else m_problems.push_back(where + ": unknown record type '" + type + "', skipped");
    } catch (const std::exception& error) {
        m_problems.push_back(where + ": '" + type + "' record: " + error.what() + ", skipped");
    }
}

void SessionStreamReader::finish()
{
    if (m_stopped)
        return;
    if (!m_headerSeen) {
        m_problems.push_back("empty: no session header");
        m_stopped = true;
        return;
    }
    if (!m_session.end)
        m_problems.push_back("truncated after line " + std::to_string(m_lineNumber) +
                             ": no end record (the probe stopped early or the file was cut); showing what was read");
    m_stopped = true;
}

SessionReadResult readSession(std::istream& in)
{
    SessionStreamReader reader;
    std::string line;
    while (std::getline(in, line))
        if (!reader.feedLine(line))
            break;
    reader.finish();
    SessionReadResult result;
    result.problems = reader.problems();
    result.headerSeen = reader.headerSeen();
    result.complete = reader.complete();
    result.session = reader.takeSession();
    return result;
}

SessionReadResult readSessionFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError("cannot open session file '" + path + "'");
    SessionReadResult result = readSession(in);
    for (std::string& problem : result.problems)
        problem = path + ": " + problem;
    return result;
}

} // namespace warpscope::session
