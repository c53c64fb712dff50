#include "session/session_export.h"

#include "session/metric_catalog.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <vector>

namespace warpscope::session {

namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }
std::string number(double value) { return nlohmann::json(value).dump(); }

} // namespace

SessionTraceCounts writeSessionPerfetto(std::ostream& out, const Session& session)
{
    SessionTraceCounts counts;
    std::vector<std::string> events;
    const std::string device = session.devices.empty() ? std::string("GPU") : session.devices.front().name;
    const auto meta = [&](int pid, int tid, const char* what, const std::string& name) {
        events.push_back("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + (tid > 0 ? ",\"tid\":" + std::to_string(tid) : "") +
                         ",\"name\":\"" + what + "\",\"args\":{\"name\":" + quoted(name) + "}}");
    };
    meta(1, 0, "process_name", device + " (measured durations, drawn end to end)");
    meta(2, 0, "process_name", "copies between host and " + device);
    double at = 0; // microseconds
    int tid = 0;
    for (const ActivityRecord& activity : session.activities) {
        ++tid;
        const std::string timer = activity.timer.empty() ? "cupti_activity" : activity.timer;
        meta(1, tid, "thread_name", activity.kernel);
        for (std::size_t run = 0; run < activity.durationsNs.size(); ++run) {
            const double micros = static_cast<double>(activity.durationsNs[run]) / 1000.0;
            events.push_back("{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"name\":" + quoted(activity.kernel) +
                             ",\"cat\":\"kernel\",\"ts\":" + number(at) + ",\"dur\":" + number(micros) +
                             ",\"args\":{\"run\":" + std::to_string(run + 1) + ",\"duration ns\":" +
                             std::to_string(activity.durationsNs[run]) + ",\"timer\":" + quoted(timer) + ",\"grid\":[" +
                             std::to_string(activity.grid[0]) + "," + std::to_string(activity.grid[1]) + "," +
                             std::to_string(activity.grid[2]) + "],\"block\":[" + std::to_string(activity.block[0]) + "," +
                             std::to_string(activity.block[1]) + "," + std::to_string(activity.block[2]) +
                             "],\"registers per thread\":" + std::to_string(activity.registersPerThread) + "}}");
            at += micros;
            ++counts.kernelRuns;
        }
    }
    double copyAt = 0;
    for (const MemcpyRecord& copy : session.memcpys) {
        const double micros = static_cast<double>(copy.durationNs) / 1000.0;
        events.push_back("{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"name\":" + quoted(copy.direction) + ",\"cat\":\"copy\",\"ts\":" +
                         number(copyAt) + ",\"dur\":" + number(micros) + ",\"args\":{\"kernel\":" + quoted(copy.kernel) +
                         ",\"bytes\":" + std::to_string(copy.bytes) + ",\"duration ns\":" + std::to_string(copy.durationNs) +
                         "}}");
        copyAt += micros;
        ++counts.copies;
    }
    if (!session.memcpys.empty())
        meta(2, 1, "thread_name", "copies");
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    for (std::size_t i = 0; i < events.size(); ++i)
        out << events[i] << (i + 1 < events.size() ? ",\n" : "\n");
    out << "],\"metadata\":{\"producer\":" << quoted(session.header.producer) << ",\"created\":" << quoted(session.header.createdUtc)
        << ",\"host\":" << quoted(session.header.host) << ",\"device\":" << quoted(device)
        << ",\"note\":\"durations as measured; the session records how long each run took, not when it started, so "
           "runs are drawn end to end in the order they ran\"}}\n";
    return counts;
}

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string field = "\"";
    for (const char c : text) {
        if (c == '"')
            field += '"';
        field += c;
    }
    return field + '"';
}

std::string csvTextField(std::string_view text)
{
    if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos)
        return csvField("'" + std::string(text));
    return csvField(text);
}

std::uint64_t writeMetricsCsv(std::ostream& out, const Session& session)
{
    out << "kernel,metric,ncu_name,value,unit\r\n";
    std::uint64_t rows = 0;
    for (const MetricsRecord& record : session.metrics) {
        for (const auto& [name, value] : record.values) {
            const MetricInfo* info = findMetric(name);
            std::string unit = info ? std::string(info->unit) : std::string();
            if (const auto it = record.units.find(name); unit.empty() && it != record.units.end())
                unit = it->second;
            std::ostringstream text;
            text.precision(17);
            if (!std::isnan(value)) // a value ncu or CUPTI did not give stays an empty field
                text << value;
            out << csvTextField(record.kernel) << ',' << csvTextField(info ? std::string(info->title) : name) << ','
                << csvTextField(name) << ',' << text.str() << ',' << csvTextField(unit) << "\r\n";
            ++rows;
        }
    }
    return rows;
}

} // namespace warpscope::session
