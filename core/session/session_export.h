// A session in the formats other tools read: the measured runs as a Chrome trace (the Trace Event
// Format's JSON, which https://ui.perfetto.dev opens), and the metrics as CSV (RFC 4180).
#pragma once

#include "session/session.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace warpscope::session {

struct SessionTraceCounts {
    std::uint64_t kernelRuns = 0;
    std::uint64_t copies = 0;
};

// One track per kernel with a slice per timed run (CUPTI Activity or CUDA events, as the session
// says), and one track of the host-device copies. The probe records how long each run took, not
// when it started: runs are drawn end to end in the order they ran, kernels one after another, and
// the file says so in its metadata.
SessionTraceCounts writeSessionPerfetto(std::ostream& out, const Session& session);

// One row per kernel and metric: kernel, metric (the catalog's plain name, or the ncu name when
// the catalog has none), ncu name, value (full precision), unit. Returns the rows written.
std::uint64_t writeMetricsCsv(std::ostream& out, const Session& session);

// `text` as one CSV field: quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string csvField(std::string_view text);
// A name from a session (which may come from someone else) as a CSV field that a spreadsheet shows
// as text: one starting with = + - @ or a tab is prefixed with ', so it is never read as a formula.
std::string csvTextField(std::string_view text);

} // namespace warpscope::session
