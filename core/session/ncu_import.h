// Nsight Compute's CSV as a Warpscope session, so a user's own ncu results open in the metrics
// table, the bandwidth view and the roofline. Two layouts, told apart by the header:
//   details: `ncu --csv --metrics A,B app` (and --page details): one row per metric, with the columns
//            ID, Kernel Name, Block Size "(x, y, z)", Grid Size, Metric Name, Metric Unit, Metric Value
//            (and Process ID, Host Name, Context, Stream, Device, CC, Section Name, ...);
//   raw:     `ncu --import X.ncu-rep --csv --page raw`: one row per launch, one column per metric, and
//            under the header a row with each metric's unit.
// Lines that start with "==" (==PROF==, ==WARNING==) and application output before the header are
// skipped; numbers may carry thousands separators ("1,234,567"). Values are converted from ncu's
// scaled units (Kbyte, usecond, cycle/nsecond, Ghz) to the units the metric catalog uses (bytes, ns,
// Hz, bytes/s, %). Qt-free: the command line and the window share it.
#pragma once

#include "session/session.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {

enum class NcuCsvLayout { Details, Raw };
std::string_view ncuLayoutName(NcuCsvLayout layout); // "details (one row per metric)", "raw (one row per launch)"

// What a value's unit measures, once converted.
enum class NcuDimension {
    None,           // no unit
    Time,           // ns
    Bytes,          // bytes
    BytesPerSecond, // bytes/s
    Frequency,      // Hz
    Percent,        // %
    BytesPerCycle,  // bytes/cycle
    Other,          // a count or ratio (cycle, inst, sector, register/thread, ...): prefixes removed
};

struct NcuQuantity {
    double value = 0;
    std::string unit;  // Warpscope's spelling: "ns", "bytes", "bytes/s", "Hz", "%", "bytes/cycle", or ncu's base unit
    NcuDimension dimension = NcuDimension::None;
};

// `value` in ncu's `unit` ("Kbyte", "usecond", "cycle/nsecond", "Gbyte/second", "Ghz", "%", "inst")
// in Warpscope's units. ncu's prefixes are decimal (1 Kbyte = 1000 bytes). A unit it does not
// recognise is kept as it is, with the value unchanged.
NcuQuantity convertNcuValue(double value, std::string_view unit);

// A number as ncu prints it: "1,234,567", "0.5", "1,234.5", "-3e-2" (thousands groups of three, a
// point for decimals; no inf or nan). nullopt for anything else.
std::optional<double> parseNcuNumber(std::string_view text);

struct NcuImport {
    Session session;                         // one kernel and one metrics record per profiled launch
    NcuCsvLayout layout = NcuCsvLayout::Details;
    std::vector<std::string> knownMetrics;   // distinct names in Warpscope's catalog, sorted
    std::vector<std::string> unknownMetrics; // the others, kept and shown by their ncu name, sorted
    std::vector<std::string> notes;          // what was skipped and why (also the session's log records)
};

// Reads ncu's CSV. `name` names the text in messages (the file's path). Throws InputError for a
// malformed file, naming it and the line: no header, a missing column, a row with the wrong number
// of fields, an unterminated quote, a non-numeric ID or value where a number must be, a unit that
// contradicts the catalog's, a grid or block outside CUDA's limits, a header with no launches under
// it. `createdUtc` is the session's creation time (empty: now).
NcuImport importNcuCsv(std::string_view text, const std::string& name, const std::string& createdUtc = {});
// The same for a file; InputError when it cannot be read.
NcuImport importNcuCsvFile(const std::string& path);

} // namespace warpscope::session
