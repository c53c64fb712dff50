// The session stream: JSON Lines, one record per line. The first line is the header
//   {"format":"warpscope-session","version":1,"producer":...,"created":...,"host":...}
// and every later line is {"type":"device"|"ceilings"|"hierarchy"|"kernel"|"activity"|"memcpy"|"metrics"|
// "occupancy"|"prediction"|"check"|"progress"|"log"|"error"|"end", ...}. The probe writes it to
// stdout; saved as .wsprof it is the file. Field names are documented in profiling/README.md.
#pragma once

#include "session/session.h"

#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::session {

// Writes one line per call and flushes, so a reader on the other end of a pipe sees each record
// as soon as it is written.
class SessionWriter {
public:
    explicit SessionWriter(std::ostream& out) : m_out(out) {}

    void write(const SessionHeader& header);
    void write(const DeviceRecord& record);
    void write(const CeilingsRecord& record);
    void write(const KernelRecord& record);
    void write(const ActivityRecord& record);
    void write(const MemcpyRecord& record);
    void write(const MetricsRecord& record);
    void write(const OccupancyRecord& record);
    void write(const PredictionRecord& record);
    void write(const HierarchyRecord& record);
    void write(const CheckRecord& record);
    void write(const ProgressRecord& record);
    void write(const LogRecord& record);
    void write(const ErrorRecord& record);
    void write(const EndRecord& record);

    // Everything in `session`, header first, end last (when it has one).
    void writeAll(const Session& session);

private:
    void writeLine(const std::string& line);
    std::ostream& m_out;
};

// Reads a stream line by line, keeping what it could read. Problems never throw: each becomes one
// line in `problems` ("line 7: not JSON (…)"), and reading goes on, except for a missing or unknown
// header, which stops it.
class SessionStreamReader {
public:
    // Feeds one line (without its newline). Returns false once reading has stopped.
    bool feedLine(std::string_view line);
    // Call at the end of the stream: notes a missing end record (a truncated or interrupted stream).
    void finish();

    const Session& session() const { return m_session; }
    Session takeSession() { return std::move(m_session); }
    const std::vector<std::string>& problems() const { return m_problems; }
    bool headerSeen() const { return m_headerSeen; }
    bool stopped() const { return m_stopped; }
    bool complete() const { return m_session.end.has_value(); }
    int linesRead() const { return m_lineNumber; }

private:
    void readRecord(std::string_view line);
    Session m_session;
    std::vector<std::string> m_problems;
    int m_lineNumber = 0;
    bool m_headerSeen = false;
    bool m_stopped = false;
};

struct SessionReadResult {
    Session session;
    std::vector<std::string> problems; // empty: the stream was whole and well formed
    bool headerSeen = false;
    bool complete = false;             // the end record was read
};

SessionReadResult readSession(std::istream& in);
// Throws InputError when the file cannot be opened; content problems go to `problems`.
SessionReadResult readSessionFile(const std::string& path);

std::string formatSession(const Session& session); // the whole stream as text

} // namespace warpscope::session
