#include "sim/trace_io.h"

#include "util/atomic_file.h"
#include "util/input_error.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace warpscope::sim {

namespace {

constexpr std::size_t kEventBytes = 40;
constexpr std::size_t kMemoryBytes = 32 * 8 + 8;

template <class T> void put(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

template <class T> T get(const char*& in)
{
    T value;
    std::memcpy(&value, in, sizeof(T));
    in += sizeof(T);
    return value;
}

std::string headerValue(const std::string& json, const std::string& key)
{
    const std::string needle = "\"" + key + "\":";
    const auto at = json.find(needle);
    if (at == std::string::npos)
        return {};
    auto start = at + needle.size();
    if (start < json.size() && json[start] == '"') {
        const auto end = json.find('"', start + 1);
        return json.substr(start + 1, end - start - 1);
    }
    auto end = json.find_first_of(",}", start);
    return json.substr(start, end - start);
}

} // namespace

void writeTrace(const std::string& path, const Trace& trace, const ptx::Function& function, const std::string& kernelName)
{
    std::string body;
    body.reserve(trace.events.size() * kEventBytes + trace.memory.size() * kMemoryBytes);
    for (const TraceEvent& event : trace.events) {
        put(body, event.cycle);
        put(body, event.block);
        put(body, event.warp);
        put(body, event.sm);
        put(body, event.pc);
        put(body, event.activeMask);
        put(body, event.executedMask);
        put(body, event.memory);
        put(body, event.stallCycles);
        put(body, static_cast<std::uint8_t>(event.kind));
        put(body, event.conflictDegree);
        put(body, event.stallReason);
        put(body, event.reserved);
    }
    for (const TraceMemoryAccess& access : trace.memory) {
        for (std::uint64_t address : access.addresses)
            put(body, address);
        put(body, access.sectors);
        put(body, access.wavefronts);
        put(body, access.bytesPerLane);
        put(body, access.space);
        put(body, access.isStore);
    }
    // Beside the target, renamed over it when complete: a failed write keeps the earlier trace.
    AtomicFileWriter writer(path);
    if (!writer.open())
        throw std::runtime_error("cannot write the trace to '" + path + "': " + writer.error());
    std::ostream& file = writer.stream();
    file << "warpscope-trace " << trace.version << "\n";
    file << "{\"kernel\":\"" << kernelName << "\",\"entry\":\"" << function.name << "\",\"events\":" << trace.events.size()
         << ",\"memory_records\":" << trace.memory.size() << ",\"event_bytes\":" << kEventBytes
         << ",\"memory_record_bytes\":" << kMemoryBytes << ",\"truncated\":" << (trace.truncated ? "true" : "false") << "}\n";
    file.write(body.data(), static_cast<std::streamsize>(body.size()));
    if (!writer.commit())
        throw std::runtime_error("writing the trace to '" + path + "' failed: " + writer.error() +
                                 " (the earlier file, if any, is unchanged)");
}

TraceFile readTrace(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("cannot read the trace '" + path + "'");
    std::string first, header;
    std::getline(file, first);
    if (!first.starts_with("warpscope-trace "))
        throw InputError("'" + path + "' is not a warpscope trace (it does not start with 'warpscope-trace')");
    const std::string version = first.substr(16);
    if (version != std::to_string(kTraceFormatVersion))
        throw InputError("'" + path + "' is a version " + version + " trace; this build reads version " +
                         std::to_string(kTraceFormatVersion));
    std::getline(file, header);
    TraceFile result;
    result.kernel = headerValue(header, "kernel");
    result.entry = headerValue(header, "entry");
    auto count = [&](const char* key) -> std::uint64_t {
        const std::string text = headerValue(header, key);
        std::uint64_t value = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
            throw InputError("'" + path + "': the header's \"" + std::string(key) + "\" is not a count");
        return value;
    };
    const std::uint64_t events = count("events");
    const std::uint64_t memory = count("memory_records");
    result.trace.truncated = headerValue(header, "truncated") == "true";
    std::stringstream rest;
    rest << file.rdbuf();
    const std::string body = rest.str();
    if (events > body.size() / kEventBytes || memory > (body.size() - events * kEventBytes) / kMemoryBytes)
        throw InputError("'" + path + "' is cut short: it should hold " + std::to_string(events) + " events and " +
                         std::to_string(memory) + " memory records");
    const char* in = body.data();
    for (std::uint64_t i = 0; i < events; ++i) {
        TraceEvent event;
        event.cycle = get<std::uint64_t>(in);
        event.block = get<std::uint32_t>(in);
        event.warp = get<std::uint16_t>(in);
        event.sm = get<std::uint16_t>(in);
        event.pc = get<std::int32_t>(in);
        event.activeMask = get<std::uint32_t>(in);
        event.executedMask = get<std::uint32_t>(in);
        event.memory = get<std::int32_t>(in);
        event.stallCycles = get<std::uint32_t>(in);
        const auto kind = get<std::uint8_t>(in);
        if (kind > static_cast<std::uint8_t>(TraceEventKind::Exit))
            throw InputError("'" + path + "': event " + std::to_string(i) + " has an unknown kind " + std::to_string(kind));
        event.kind = static_cast<TraceEventKind>(kind);
        event.conflictDegree = get<std::uint8_t>(in);
        event.stallReason = get<std::uint8_t>(in);
        event.reserved = get<std::uint8_t>(in);
        if (event.memory < -1 || event.memory >= static_cast<std::int64_t>(memory))
            throw InputError("'" + path + "': event " + std::to_string(i) + " refers to a missing memory record");
        result.trace.events.push_back(event);
    }
    for (std::uint64_t i = 0; i < memory; ++i) {
        TraceMemoryAccess access;
        for (std::uint64_t& address : access.addresses)
            address = get<std::uint64_t>(in);
        access.sectors = get<std::uint16_t>(in);
        access.wavefronts = get<std::uint16_t>(in);
        access.bytesPerLane = get<std::uint16_t>(in);
        access.space = get<std::uint8_t>(in);
        access.isStore = get<std::uint8_t>(in);
        result.trace.memory.push_back(access);
    }
    return result;
}

} // namespace warpscope::sim
