// Nsight Compute's CSV read into a session (core/session/ncu_import.h); units and numbers are in
// ncu_units.cpp.
#include "session/ncu_import.h"

#include "launch/launch_geometry.h"
#include "session/metric_catalog.h"
#include "util/input_error.h"
#include "util/utf8.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpscope::session {

std::string_view ncuLayoutName(NcuCsvLayout layout)
{
    return layout == NcuCsvLayout::Details ? "details (one row per metric)" : "raw (one row per launch)";
}

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Every column ncu's CSV pages put before (or, for rules, after) the metrics. In the raw page any
// other column is a metric; in the details page the metric is named in a field.
const std::set<std::string, std::less<>>& identityColumns()
{
    static const std::set<std::string, std::less<>> names = {
        "ID",           "Process ID",  "Process Name", "Host Name",   "Kernel Name",      "Kernel Time",
        "Context",      "Stream",      "Block Size",   "Grid Size",   "Device",           "CC",
        "Section Name", "Metric Name", "Metric Unit",  "Metric Value", "Rule Name",       "Rule Type",
        "Rule Description", "Estimated Speedup Type", "Estimated Speedup"};
    return names;
}

bool looksLikeMetricName(std::string_view name)
{
    if (name.find("__") == std::string_view::npos)
        return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
            return false;
    return true;
}

// Splits one CSV line. ncu quotes every field and never breaks one across lines, so a quote left
// open at the end of the line is damage, reported with the field's number.
std::vector<std::string> splitCsvLine(std::string_view line, const std::string& at)
{
    std::vector<std::string> fields;
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (true) {
        std::string field;
        std::size_t start = i;
        while (start < n && line[start] == ' ')
            ++start;
        if (start < n && line[start] == '"') {
            i = start + 1;
            bool closed = false;
            while (i < n) {
                if (line[i] == '"') {
                    if (i + 1 < n && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    closed = true;
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                throw InputError(at + ": field " + std::to_string(fields.size() + 1) +
                                 " opens a quote that is not closed on this line (ncu writes each field as \"...\" on one line)");
            while (i < n && line[i] == ' ')
                ++i;
            if (i < n && line[i] != ',')
                throw InputError(at + ": field " + std::to_string(fields.size() + 1) +
                                 " has text after its closing quote (fields are separated by commas; a quote inside a field is written \"\")");
        } else {
            std::size_t comma = line.find(',', i);
            if (comma == std::string_view::npos)
                comma = n;
            field = std::string(line.substr(i, comma - i));
            i = comma;
        }
        fields.push_back(std::move(field));
        if (i >= n)
            break;
        ++i; // the comma
        if (i == n) {
            fields.emplace_back();
            break;
        }
    }
    return fields;
}

// At most `limit` bytes of `text`, cut before a character rather than inside one.
std::string shown(std::string_view text, std::size_t limit = 60)
{
    if (text.size() <= limit)
        return std::string(text);
    return std::string(text.substr(0, utf8PrefixLength(text, limit))) + "...";
}

// "(256, 1, 1)": three integers within CUDA's limits, the same check the session reader makes.
Dim3 parseDim3(std::string_view rawText, const char* column, bool grid, const std::string& at)
{
    std::string_view text = trim(rawText);
    const std::string quoted = std::string(column) + " '" + shown(text) + "'";
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        throw InputError(at + ": " + quoted + " is not (x, y, z) with three integers, as ncu writes it");
    text = text.substr(1, text.size() - 2);
    // Components are separated by ", " (a comma with no space after it could only group thousands).
    const std::string_view separator = text.find(", ") != std::string_view::npos ? ", " : ",";
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t next = text.find(separator, start);
        parts.push_back(trim(text.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start)));
        if (next == std::string_view::npos)
            break;
        start = next + separator.size();
    }
    if (parts.size() != 3)
        throw InputError(at + ": " + quoted + " is not (x, y, z) with three integers, as ncu writes it");
    using launch::LaunchLimits;
    const std::int64_t limits[2][3] = {
        {LaunchLimits::maxGridX, LaunchLimits::maxGridYZ, LaunchLimits::maxGridYZ},
        {LaunchLimits::maxBlockXY, LaunchLimits::maxBlockXY, LaunchLimits::maxBlockZ}};
    const std::int64_t* max = limits[grid ? 0 : 1];
    static constexpr const char* axes[3] = {"x", "y", "z"};
    Dim3 out{1, 1, 1};
    for (std::size_t i = 0; i < 3; ++i) {
        const std::optional<double> value = parseNcuNumber(parts[i]);
        if (!value || *value != std::floor(*value) || *value < 1 || *value > static_cast<double>(max[i]))
            throw InputError(at + ": " + quoted + ": " + axes[i] + " = " + shown(parts[i], 24) +
                             " is outside CUDA's limits (allowed: integers 1.." + std::to_string(max[i]) + ")");
        out[i] = static_cast<std::uint32_t>(*value);
    }
    const std::uint64_t threads = std::uint64_t{out[0]} * out[1] * out[2];
    if (!grid && threads > static_cast<std::uint64_t>(LaunchLimits::maxThreadsPerBlock))
        throw InputError(at + ": " + quoted + " has " + std::to_string(threads) + " threads (allowed: at most 1024 per block)");
    return out;
}

std::string dimText(const std::optional<Dim3>& d)
{
    return d ? "(" + std::to_string((*d)[0]) + ", " + std::to_string((*d)[1]) + ", " + std::to_string((*d)[2]) + ")" : std::string();
}

// The unit dimension a catalog metric is stored in; Other for counts and ratios.
NcuDimension catalogDimension(std::string_view unit)
{
    if (unit == "ns") return NcuDimension::Time;
    if (unit == "bytes") return NcuDimension::Bytes;
    if (unit == "bytes/s") return NcuDimension::BytesPerSecond;
    if (unit == "Hz") return NcuDimension::Frequency;
    if (unit == "%") return NcuDimension::Percent;
    if (unit == "bytes/cycle") return NcuDimension::BytesPerCycle;
    return NcuDimension::Other;
}

std::string dimensionText(NcuDimension dimension)
{
    switch (dimension) {
    case NcuDimension::Time: return "a time (nsecond, usecond, msecond or second)";
    case NcuDimension::Bytes: return "a size in bytes (byte, Kbyte, Mbyte or Gbyte)";
    case NcuDimension::BytesPerSecond: return "a bandwidth (byte/second, Kbyte/second, Mbyte/second or Gbyte/second)";
    case NcuDimension::Frequency: return "a clock (cycle/second, cycle/nsecond, hz, Mhz or Ghz)";
    case NcuDimension::Percent: return "a percentage (%)";
    case NcuDimension::BytesPerCycle: return "bytes per cycle (byte/cycle)";
    case NcuDimension::None:
    case NcuDimension::Other: break;
    }
    return "a count (such as cycle, inst, sector or request)";
}

bool isPhysical(NcuDimension dimension) { return dimension != NcuDimension::None && dimension != NcuDimension::Other; }

// One profiled launch: one ncu ID.
struct Launch {
    std::string id;
    int line = 0;                               // where it was first read
    std::string kernelName, processName, processId, host, context, stream, device, cc;
    std::optional<Dim3> grid, block;
    std::map<std::string, double> values;
    std::map<std::string, std::string> units;
    std::vector<std::string> unavailable;       // "n/a"
    std::map<std::string, std::string> text;    // non-numeric values with no unit (a device's name)
};

struct Columns {
    int id = -1, processId = -1, processName = -1, host = -1, kernelName = -1, context = -1, stream = -1;
    int block = -1, grid = -1, device = -1, cc = -1, metricName = -1, metricUnit = -1, metricValue = -1;
    std::vector<std::pair<int, std::string>> metrics; // raw page: column and metric name
    std::vector<std::string> ignored;
    std::size_t count = 0;
};

class NcuCsvReader {
public:
    NcuCsvReader(std::string name, std::string createdUtc) : m_name(std::move(name)), m_createdUtc(std::move(createdUtc)) {}
    NcuImport read(std::string_view text);

private:
    std::string at(int line) const { return m_name + ": line " + std::to_string(line); }
    void readHeader(const std::vector<std::string>& fields, int line);
    void readUnits(const std::vector<std::string>& fields, int line);
    void readRow(const std::vector<std::string>& fields, int line);
    Launch& launchFor(const std::vector<std::string>& fields, int line);
    void addValue(Launch& launch, const std::string& metric, const std::string& unit, const std::string& text, int line,
                  const std::string& where);
    void readProgressLine(std::string_view line);
    Session buildSession() const;

    std::string m_name;
    std::string m_createdUtc;
    NcuCsvLayout m_layout = NcuCsvLayout::Details;
    Columns m_columns;
    int m_headerLine = 0;
    int m_unitsLine = 0;                        // raw page: 0 until the units row is read
    std::vector<std::string> m_rawUnits;
    std::vector<Launch> m_launches;
    std::map<std::string, std::size_t> m_launchById;
    std::vector<std::string> m_notes;
    std::vector<std::string> m_warnings;        // ncu's own ==WARNING== and ==ERROR== lines
    std::map<std::string, int> m_passes;        // by ID, from ncu's progress lines
};

std::string field(const std::vector<std::string>& fields, int column)
{
    return column < 0 ? std::string() : std::string(trim(fields[static_cast<std::size_t>(column)]));
}

void NcuCsvReader::readHeader(const std::vector<std::string>& fields, int line)
{
    m_headerLine = line;
    Columns& c = m_columns;
    c.count = fields.size();
    std::set<std::string> seen;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name(trim(fields[i]));
        if (!seen.insert(name).second)
            throw InputError(at(line) + ": the header names column '" + shown(name) + "' twice (a column is named once)");
        const int index = static_cast<int>(i);
        if (name == "ID") c.id = index;
        else if (name == "Process ID") c.processId = index;
        else if (name == "Process Name") c.processName = index;
        else if (name == "Host Name") c.host = index;
        else if (name == "Kernel Name") c.kernelName = index;
        else if (name == "Context") c.context = index;
        else if (name == "Stream") c.stream = index;
        else if (name == "Block Size") c.block = index;
        else if (name == "Grid Size") c.grid = index;
        else if (name == "Device") c.device = index;
        else if (name == "CC") c.cc = index;
        else if (name == "Metric Name") c.metricName = index;
        else if (name == "Metric Unit") c.metricUnit = index;
        else if (name == "Metric Value") c.metricValue = index;
        else if (identityColumns().count(name) == 0) {
            if (looksLikeMetricName(name))
                c.metrics.emplace_back(index, name);
            else
                c.ignored.push_back(name);
        }
    }
    const bool details = c.metricName >= 0 || c.metricUnit >= 0 || c.metricValue >= 0;
    m_layout = details ? NcuCsvLayout::Details : NcuCsvLayout::Raw;
    std::vector<std::string> missing;
    if (c.id < 0) missing.push_back("ID");
    if (c.kernelName < 0) missing.push_back("Kernel Name");
    if (details) {
        if (c.metricName < 0) missing.push_back("Metric Name");
        if (c.metricUnit < 0) missing.push_back("Metric Unit");
        if (c.metricValue < 0) missing.push_back("Metric Value");
    }
    if (!missing.empty()) {
        std::string list;
        for (const std::string& name : missing)
            list += (list.empty() ? "'" : ", '") + name + "'";
        throw InputError(at(line) + ": the header has no " + list + " column" + (missing.size() > 1 ? "s" : "") +
                         (details ? " (the details layout, one row per metric, needs ID, Kernel Name, Metric Name, Metric Unit and Metric Value)"
                                  : " (ncu's CSV header names ID and Kernel Name, then Metric Name, Metric Unit and Metric Value, or one column per metric in the raw page)"));
    }
    if (!details && c.metrics.empty())
        throw InputError(at(line) + ": the header names no metric: the details layout needs Metric Name, Metric Unit and Metric "
                                    "Value columns, the raw page one column per metric (such as dram__bytes_read.sum)");
    if (!details)
        c.ignored.clear(); // the raw page's other columns are listed below, once they are known to be unused
    if (c.block < 0 || c.grid < 0)
        m_notes.push_back("The CSV has no Block Size or Grid Size column (an older ncu): each launch's grid and block "
                          "are shown as 1 x 1 x 1.");
}

void NcuCsvReader::readUnits(const std::vector<std::string>& fields, int line)
{
    if (!field(fields, m_columns.id).empty())
        throw InputError(at(line) + ": the raw page's second row must give the metrics' units, with an empty ID field "
                                    "(ncu --csv --page raw writes it under the header); this row has ID '" +
                         shown(field(fields, m_columns.id)) + "'");
    m_unitsLine = line;
    m_rawUnits.assign(fields.begin(), fields.end());
}

Launch& NcuCsvReader::launchFor(const std::vector<std::string>& fields, int line)
{
    const Columns& c = m_columns;
    const std::string id = field(fields, c.id);
    const std::optional<double> number = parseNcuNumber(id);
    if (!number || *number < 0 || *number != std::floor(*number) || *number > 1e15)
        throw InputError(at(line) + ": ID '" + shown(id) + "' is not a number (ncu numbers its profiled launches 0, 1, 2, ...)");
    const std::string key = std::to_string(static_cast<std::uint64_t>(*number));
    const std::string kernelName = field(fields, c.kernelName);
    if (kernelName.empty())
        throw InputError(at(line) + ": the Kernel Name field is empty (every row names the kernel it measured)");
    std::optional<Dim3> grid, block;
    if (c.grid >= 0)
        grid = parseDim3(field(fields, c.grid), "Grid Size", true, at(line));
    if (c.block >= 0)
        block = parseDim3(field(fields, c.block), "Block Size", false, at(line));

    if (auto it = m_launchById.find(key); it != m_launchById.end()) {
        Launch& launch = m_launches[it->second];
        if (m_layout == NcuCsvLayout::Raw)
            throw InputError(at(line) + ": ID " + key + " appears again (first on line " + std::to_string(launch.line) +
                             "); the raw page has one row per launch");
        auto differs = [&](const char* what, const std::string& before, const std::string& now) {
            throw InputError(at(line) + ": ID " + key + " has " + what + " '" + shown(now) + "' here but '" + shown(before) +
                             "' on line " + std::to_string(launch.line) + " (one ID is one launch)");
        };
        if (launch.kernelName != kernelName)
            differs("Kernel Name", launch.kernelName, kernelName);
        if (grid != launch.grid)
            differs("Grid Size", dimText(launch.grid), field(fields, c.grid));
        if (block != launch.block)
            differs("Block Size", dimText(launch.block), field(fields, c.block));
        return launch;
    }
    Launch launch;
    launch.id = key;
    launch.line = line;
    launch.kernelName = kernelName;
    launch.processName = field(fields, c.processName);
    launch.processId = field(fields, c.processId);
    launch.host = field(fields, c.host);
    launch.context = field(fields, c.context);
    launch.stream = field(fields, c.stream);
    launch.device = field(fields, c.device);
    launch.cc = field(fields, c.cc);
    launch.grid = grid;
    launch.block = block;
    if (!launch.device.empty()) {
        const std::optional<double> device = parseNcuNumber(launch.device);
        if (!device || *device < 0 || *device != std::floor(*device) || *device > 1e6)
            throw InputError(at(line) + ": Device '" + shown(launch.device) + "' is not a device number (0, 1, ...)");
    }
    if (!launch.cc.empty()) {
        const std::size_t dot = launch.cc.find('.');
        const auto major = parseNcuNumber(launch.cc.substr(0, dot));
        const auto minor = dot == std::string::npos ? std::optional<double>(0) : parseNcuNumber(launch.cc.substr(dot + 1));
        if (!major || !minor || *major < 1 || *major > 99 || *minor < 0 || *minor > 9 || *major != std::floor(*major) ||
            *minor != std::floor(*minor))
            throw InputError(at(line) + ": CC '" + shown(launch.cc) + "' is not a compute capability such as 9.0");
    }
    m_launchById.emplace(key, m_launches.size());
    m_launches.push_back(std::move(launch));
    return m_launches.back();
}

void NcuCsvReader::addValue(Launch& launch, const std::string& metric, const std::string& unit, const std::string& text,
                            int line, const std::string& where)
{
    if (text.empty())
        return; // not collected for this launch (the raw page leaves such cells empty)
    if (launch.values.count(metric) || launch.text.count(metric) ||
        std::find(launch.unavailable.begin(), launch.unavailable.end(), metric) != launch.unavailable.end())
        return; // the same metric in a second section: the first is kept
    if (lower(text) == "n/a") {
        launch.unavailable.push_back(metric);
        return;
    }
    const MetricInfo* info = findMetric(metric);
    const std::optional<double> number = parseNcuNumber(text);
    if (!number) {
        if (trim(unit).empty() && info == nullptr) {
            launch.text[metric] = text; // a name or a setting, such as device__attribute_display_name
            return;
        }
        throw InputError(at(line) + ": " + where + " '" + shown(text) + "' is not a number" +
                         (trim(unit).empty() ? std::string() : " (its unit is '" + std::string(trim(unit)) + "')") +
                         "; ncu writes numbers as 1,234,567 or 0.5");
    }
    const NcuQuantity quantity = convertNcuValue(*number, unit);
    if (info != nullptr) {
        const NcuDimension wanted = catalogDimension(info->unit);
        const bool fits = isPhysical(wanted) ? quantity.dimension == wanted : !isPhysical(quantity.dimension);
        if (!fits)
            throw InputError(at(line) + ": " + metric + " is given in '" + std::string(trim(unit)) + "', but it is " +
                             dimensionText(wanted) + (quantity.dimension == NcuDimension::None ? " and needs a unit" : ""));
    }
    launch.values[metric] = quantity.value;
    launch.units[metric] = quantity.unit;
}

void NcuCsvReader::readRow(const std::vector<std::string>& fields, int line)
{
    Launch& launch = launchFor(fields, line);
    const Columns& c = m_columns;
    if (m_layout == NcuCsvLayout::Details) {
        const std::string metric = field(fields, c.metricName);
        if (metric.empty())
            throw InputError(at(line) + ": the Metric Name field is empty (each row of the details layout names one metric)");
        addValue(launch, metric, field(fields, c.metricUnit), field(fields, c.metricValue), line, "the value of " + metric);
        return;
    }
    for (const auto& [column, metric] : c.metrics)
        addValue(launch, metric, m_rawUnits[static_cast<std::size_t>(column)], field(fields, column), line,
                 "column " + metric + ":");
}

// ncu's progress line for a launch, `==PROF== Profiling "vectorAdd" - 0: 0%....50%....100% - 9 passes`,
// holds the one thing the CSV does not: how many replay passes the launch took. Other lines, and
// progress lines in another shape, are left alone.
void NcuCsvReader::readProgressLine(std::string_view line)
{
    constexpr std::string_view prefix = "==PROF== Profiling \"";
    if (!line.starts_with(prefix))
        return;
    const std::size_t nameEnd = line.find("\" - ", prefix.size());
    if (nameEnd == std::string_view::npos)
        return;
    const std::size_t idStart = nameEnd + 4;
    const std::size_t colon = line.find(':', idStart);
    const std::size_t last = line.rfind(" - ");
    if (colon == std::string_view::npos || last == std::string_view::npos || last < colon)
        return;
    const std::optional<double> id = parseNcuNumber(line.substr(idStart, colon - idStart));
    std::string_view count = line.substr(last + 3);
    const std::size_t space = count.find(' ');
    if (!id || space == std::string_view::npos || !count.substr(space + 1).starts_with("pass"))
        return;
    const std::optional<double> passes = parseNcuNumber(count.substr(0, space));
    if (!passes || *passes < 1 || *passes > 1e6 || *passes != std::floor(*passes) || *id < 0 || *id != std::floor(*id))
        return;
    m_passes[std::to_string(static_cast<std::uint64_t>(*id))] = static_cast<int>(*passes);
}

// The function's name from ncu's Kernel Name: "void scale<float>(float *, int)" -> "scale<float>".
std::string shortKernelName(const std::string& name)
{
    std::string cut;
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char ch = name[i];
        if (ch == '<') ++depth;
        else if (ch == '>' && depth > 0) --depth;
        else if (ch == '(' && depth == 0) {
            if (name.compare(i, 21, "(anonymous namespace)") == 0) {
                cut += name.substr(i, 21);
                i += 20;
                continue;
            }
            break;
        }
        cut += ch;
    }
    const std::string_view trimmed = trim(cut);
    // The last word outside template brackets drops a return type ("void ").
    std::size_t begin = 0;
    depth = 0;
    for (std::size_t i = 0; i < trimmed.size(); ++i) {
        if (trimmed[i] == '<') ++depth;
        else if (trimmed[i] == '>' && depth > 0) --depth;
        else if (trimmed[i] == ' ' && depth == 0) begin = i + 1;
    }
    const std::string result(trimmed.substr(begin));
    return result.empty() ? name : result;
}

std::string nowUtc()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// What the device attributes in a raw page say about the GPU (CUdevice_attribute names, lower case).
DeviceRecord deviceFor(const Launch& launch)
{
    DeviceRecord d;
    if (!launch.device.empty())
        d.ordinal = static_cast<int>(*parseNcuNumber(launch.device));
    if (!launch.cc.empty()) {
        const std::size_t dot = launch.cc.find('.');
        d.computeMajor = static_cast<int>(*parseNcuNumber(launch.cc.substr(0, dot)));
        d.computeMinor = dot == std::string::npos ? 0 : static_cast<int>(*parseNcuNumber(launch.cc.substr(dot + 1)));
    }
    auto attribute = [&](const char* name) -> std::optional<double> {
        auto it = launch.values.find(std::string("device__attribute_") + name);
        if (it == launch.values.end() || it->second < 0 || it->second > 1e18)
            return std::nullopt;
        return it->second;
    };
    auto whole = [&](const char* name, auto& out) {
        if (const auto value = attribute(name))
            out = static_cast<std::remove_reference_t<decltype(out)>>(*value);
    };
    if (auto it = launch.text.find("device__attribute_display_name"); it != launch.text.end())
        d.name = it->second;
    whole("compute_capability_major", d.computeMajor);
    whole("compute_capability_minor", d.computeMinor);
    whole("multiprocessor_count", d.smCount);
    whole("global_memory_bus_width", d.memoryBusWidthBits);
    whole("l2_cache_size", d.l2Bytes);
    whole("max_threads_per_multiprocessor", d.maxThreadsPerSm);
    whole("max_blocks_per_multiprocessor", d.maxBlocksPerSm);
    whole("max_threads_per_block", d.maxThreadsPerBlock);
    whole("max_registers_per_multiprocessor", d.registersPerSm);
    whole("max_registers_per_block", d.registersPerBlock);
    whole("max_shared_memory_per_multiprocessor", d.sharedPerSm);
    whole("max_shared_memory_per_block", d.sharedPerBlock);
    whole("max_shared_memory_per_block_optin", d.sharedPerBlockOptin);
    whole("reserved_shared_memory_per_block", d.reservedSharedPerBlock);
    // Clocks: CUDA gives kHz; a unit ncu printed has been converted to Hz.
    for (auto [name, out] : {std::pair{"clock_rate", &d.coreClockKHz}, std::pair{"memory_clock_rate", &d.memoryClockKHz}}) {
        auto it = launch.values.find(std::string("device__attribute_") + name);
        if (it == launch.values.end() || !(it->second > 0) || it->second > 1e13)
            continue;
        const bool hertz = launch.units.count(it->first) && launch.units.at(it->first) == "Hz";
        *out = static_cast<int>(std::llround(hertz ? it->second / 1e3 : it->second));
    }
    if (d.name.empty())
        d.name = "GPU " + std::to_string(d.ordinal) + " (the CSV does not name it)";
    return d;
}

Session NcuCsvReader::buildSession() const
{
    Session s;
    s.header.producer = "Nsight Compute (ncu) CSV, " + std::string(ncuLayoutName(m_layout)) + ", imported by Warpscope";
    s.header.createdUtc = m_createdUtc.empty() ? nowUtc() : m_createdUtc;
    s.header.host = m_launches.front().host;
    const Launch& first = m_launches.front();
    const bool deviceKnown = !first.device.empty() || !first.cc.empty() ||
                             first.text.count("device__attribute_display_name") ||
                             first.values.count("device__attribute_compute_capability_major");
    if (deviceKnown) {
        s.devices.push_back(deviceFor(first));
        for (const Launch& launch : m_launches) {
            const DeviceRecord d = deviceFor(launch);
            bool listed = false;
            for (const DeviceRecord& existing : s.devices)
                listed = listed || existing.ordinal == d.ordinal;
            if (!listed)
                s.devices.push_back(d);
        }
    }
    for (const Launch& launch : m_launches) {
        KernelRecord k;
        const std::string name = shortKernelName(launch.kernelName);
        k.id = "#" + launch.id + " " + name;
        k.entry = launch.kernelName;
        k.title = launch.kernelName == name ? std::string() : launch.kernelName;
        k.sourceName = m_name + ", ncu ID " + launch.id +
                       (launch.processName.empty() ? std::string() : ", process " + launch.processName) +
                       (launch.processId.empty() ? std::string() : " (" + launch.processId + ")") +
                       (launch.stream.empty() ? std::string() : ", stream " + launch.stream);
        k.grid = launch.grid.value_or(Dim3{1, 1, 1});
        k.block = launch.block.value_or(Dim3{1, 1, 1});
        k.launchSize = "the application's own launch, as ncu profiled it";
        k.cacheControl = "ncu's --cache-control, which the CSV does not record (its default, all, flushes the caches "
                         "before every replay pass)";
        s.kernels.push_back(std::move(k));

        MetricsRecord m;
        m.kernel = s.kernels.back().id;
        auto passes = m_passes.find(launch.id);
        m.passes = passes == m_passes.end() ? 0 : passes->second; // 0: not recorded (the raw page has no progress lines)
        m.replay = "ncu";
        m.values = launch.values;
        m.units = launch.units;
        m.unavailable = launch.unavailable;
        s.metrics.push_back(std::move(m));
    }
    return s;
}

NcuImport NcuCsvReader::read(std::string_view text)
{
    if (text.substr(0, 4096).find('\0') != std::string_view::npos)
        throw InputError(m_name + ": line 1: binary data, not CSV (an .ncu-rep report is exported with "
                                  "ncu --import X.ncu-rep --csv --page raw > X.csv)");
    int line = 0;
    int preamble = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view content = text.substr(start, end - start);
        start = end + 1;
        ++line;
        if (!content.empty() && content.back() == '\r')
            content.remove_suffix(1);
        if (const std::size_t bad = firstInvalidUtf8(content); bad != std::string_view::npos) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(content[bad])));
            throw InputError(at(line) + ": byte " + hex + " at column " + std::to_string(bad + 1) +
                             " is not UTF-8 (the import reads the CSV as UTF-8 text; convert the file, e.g. "
                             "iconv -f latin1 -t utf-8 for a Latin-1 one)");
        }
        const std::string_view trimmed = trim(content);
        if (trimmed.empty())
            continue;
        if (trimmed.starts_with("==")) {
            readProgressLine(trimmed);
            if (trimmed.starts_with("==WARNING==") || trimmed.starts_with("==ERROR=="))
                m_warnings.push_back("ncu, line " + std::to_string(line) + ": " + shown(trimmed, 300));
            continue;
        }
        if (m_headerLine == 0) {
            // Application output may come before ncu's report; the header is the line that starts with ID.
            if (!trimmed.starts_with("\"ID\"") && !trimmed.starts_with("ID,")) {
                ++preamble;
                continue;
            }
            readHeader(splitCsvLine(content, at(line)), line);
            continue;
        }
        std::vector<std::string> fields = splitCsvLine(content, at(line));
        if (fields.size() != m_columns.count)
            throw InputError(at(line) + ": " + std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s") +
                             " where the header (line " + std::to_string(m_headerLine) + ") names " +
                             std::to_string(m_columns.count) + " columns; every row has one field per column");
        if (m_layout == NcuCsvLayout::Raw && m_unitsLine == 0) {
            readUnits(fields, line);
            continue;
        }
        readRow(fields, line);
    }
    if (line == 0)
        throw InputError(m_name + ": line 1: the file is empty (export ncu's results with ncu --csv --metrics ... or "
                                  "ncu --import X.ncu-rep --csv --page raw)");
    if (m_headerLine == 0)
        throw InputError(m_name + ": line " + std::to_string(line) +
                         ": no Nsight Compute CSV header in the file's " + std::to_string(line) +
                         " line(s) (the header is the line that starts with \"ID\" and names \"Kernel Name\"; export "
                         "with ncu --csv --metrics ... or ncu --import X.ncu-rep --csv --page raw)");
    if (m_launches.empty())
        throw InputError(at(m_unitsLine > 0 ? m_unitsLine : m_headerLine) + ": no rows: the " +
                         (m_unitsLine > 0 ? "units row" : "header") + " is not followed by any profiled launch");

    NcuImport result;
    result.layout = m_layout;
    std::set<std::string> known, unknown;
    std::size_t textValues = 0, unavailable = 0;
    std::set<std::string> textNames;
    for (const Launch& launch : m_launches) {
        auto count = [&](const std::string& name) { (findMetric(name) ? known : unknown).insert(name); };
        for (const auto& [name, value] : launch.values)
            count(name);
        for (const std::string& name : launch.unavailable)
            count(name);
        unavailable += launch.unavailable.size();
        textValues += launch.text.size();
        for (const auto& [name, value] : launch.text)
            textNames.insert(name);
    }
    result.knownMetrics.assign(known.begin(), known.end());
    result.unknownMetrics.assign(unknown.begin(), unknown.end());

    std::vector<std::string> notes;
    notes.push_back("Imported from " + m_name + ": Nsight Compute CSV, " + std::string(ncuLayoutName(m_layout)) + "; " +
                    std::to_string(m_launches.size()) + " launch" + (m_launches.size() == 1 ? "" : "es") + ", " +
                    std::to_string(known.size() + unknown.size()) + " metrics: " + std::to_string(known.size()) +
                    " in Warpscope's catalog, " + std::to_string(unknown.size()) +
                    " kept by their ncu name." +
                    (m_passes.empty() ? " Replay passes are not recorded (ncu prints them only in its progress lines)." : ""));
    if (preamble > 0)
        notes.push_back("Skipped " + std::to_string(preamble) + " line(s) before the header (the application's own output).");
    notes.insert(notes.end(), m_notes.begin(), m_notes.end());
    if (unavailable > 0)
        notes.push_back(std::to_string(unavailable) + " value(s) were n/a in the CSV: listed as unavailable.");
    if (textValues > 0) {
        std::string names;
        int listed = 0;
        for (const std::string& name : textNames)
            if (listed++ < 5)
                names += (names.empty() ? "" : ", ") + name;
        notes.push_back(std::to_string(textValues) + " text value(s) with no unit are not metrics and were set aside (" + names +
                        (textNames.size() > 5 ? ", ..." : "") + ")" +
                        (textNames.count("device__attribute_display_name") ? "; the device's name comes from one." : "."));
    }
    if (!m_columns.ignored.empty()) {
        std::string names;
        for (const std::string& name : m_columns.ignored)
            names += (names.empty() ? "" : ", ") + shown(name, 40);
        notes.push_back("Columns not read: " + names + ".");
    }

    result.session = buildSession();
    for (const std::string& note : notes)
        result.session.logs.push_back({"info", note});
    const std::size_t warningLimit = 20;
    for (std::size_t i = 0; i < m_warnings.size() && i < warningLimit; ++i)
        result.session.logs.push_back({"warning", m_warnings[i]});
    if (m_warnings.size() > warningLimit)
        result.session.logs.push_back({"warning", std::to_string(m_warnings.size() - warningLimit) + " more ncu warning line(s) not kept."});
    result.session.end = EndRecord{"ok", 0};
    notes.insert(notes.end(), m_warnings.begin(), m_warnings.begin() + static_cast<std::ptrdiff_t>(std::min(m_warnings.size(), warningLimit)));
    result.notes = std::move(notes);
    return result;
}

} // namespace

NcuImport importNcuCsv(std::string_view text, const std::string& name, const std::string& createdUtc)
{
    return NcuCsvReader(name, createdUtc).read(text);
}

NcuImport importNcuCsvFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    constexpr std::streamoff kLimit = std::streamoff{1} << 30;
    if (size > kLimit)
        throw InputError(path + ": " + std::to_string(size) + " bytes is more than the 1 GiB an ncu CSV import reads");
    in.seekg(0, std::ios::beg);
    std::string text;
    if (size > 0)
        text.resize(static_cast<std::size_t>(size));
    if (size > 0 && !in.read(text.data(), size))
        throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
    return importNcuCsv(text, path);
}

} // namespace warpscope::session
