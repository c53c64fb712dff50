// `warpscope session show FILE.wsprof [--json]`: prints a saved profiling session (no GPU needed).
// Also the text summary `warpscope profile` prints. `warpscope session import-ncu FILE.csv [--out
// FILE.wsprof]`: reads Nsight Compute's CSV (core/session/ncu_import.h) as a session. Qt-free.
#pragma once

#include "cli/cli_session_validate.h"
#include "session/session_io.h"

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace warpscope::cli {

struct SessionShowOptions {
    std::string file;
    bool json = false;
};

struct SessionImportNcuOptions {
    std::string file;
    std::string out; // empty: print a summary instead of writing the session
};

struct SessionExportOptions {
    std::string file;
    std::string perfetto; // Chrome trace JSON of the measured runs
    std::string csv;      // the metrics, one row per kernel and metric
};

struct SessionOptions {
    SessionShowOptions show;
    SessionImportNcuOptions importNcu;
    SessionExportOptions exportTo;
    SessionValidateOptions validate;
    CLI::App* showCommand = nullptr;
    CLI::App* validateCommand = nullptr;
    CLI::App* importNcuCommand = nullptr;
    CLI::App* exportCommand = nullptr;
};

CLI::App* addSessionCommand(CLI::App& app, SessionOptions& options);
// Runs the subcommand that was parsed.
int runSession(const SessionOptions& options, std::ostream& out, std::ostream& err);

// Exit 0 when the file read cleanly, 1 when it was damaged or truncated (what could be read is
// printed, the problems go to err), 2 when it is not a session or has an unknown version.
int runSessionShow(const SessionShowOptions& options, std::ostream& out, std::ostream& err);
// Exit 0 with a summary (kernels, metrics known to Warpscope and kept by their ncu name) or the
// session written atomically to --out; 2 for a malformed CSV (one line naming the file and line) or
// an --out that cannot be created; 1 when writing --out fails midway (the earlier file is kept).
int runSessionImportNcu(const SessionImportNcuOptions& options, std::ostream& out, std::ostream& err);
// Writes the files asked for, each atomically: exit 0, 1 when the session was damaged (what could be
// read is exported) or a write failed, 2 when it is not a session or no output was named.
int runSessionExport(const SessionExportOptions& options, std::ostream& out, std::ostream& err);

// The human summary of a session: device, ceilings (with cuBLAS SGEMM, the matmul ladder's reference,
// where the session has matmul rungs or a reference), roofline roofs, the matmul rungs' shares of
// cuBLAS, and per kernel the check, timing,
// occupancy, predicted vs measured (the window's rows, verdicts and notes: core/session/
// prediction_comparison.h; for a sampled prediction, from how many blocks and that its counts are exact
// only when every block does the same work), its roofline points per level, and the metrics with
// plain names.
void printSessionSummary(const session::Session& session, std::ostream& out);
// The session as one JSON document: {"header":..,"complete":..,"problems":[..],"records":[..],
// "roofline":{"roofs":{"fp32","l1","l2","dram"},"kernels":[{"kernel","fp32_flops","duration_s",
// "achieved_flops_per_second","l1":{"bytes","intensity","bytes_per_second","share_of_roof",..},..}]},
// "sgemm_reference":{"measured","flops_per_second","n","method","status","rungs":[{"kernel","rung","n",
// "duration_s","flops_per_second","share_of_reference","why"}]},"predicted_vs_measured":[{"kernel",
// "simulated_blocks","total_blocks","sampled","sample_note","sample_detail","rows":[{"key","title",
// "predicted","measured","predicted_text","measured_text","difference","agreement","note","detail"}]}]}.
void printSessionJson(const session::SessionReadResult& read, std::ostream& out);

} // namespace warpscope::cli
