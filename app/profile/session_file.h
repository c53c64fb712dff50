// Opening and saving .wsprof files in the window. The stream is the file: a session is kept as the
// bytes it was read from, and saving writes those bytes back unchanged.
#pragma once

#include "session/session.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace warpscope::app {

struct LoadedSession {
    session::Session session;
    QStringList problems;     // the reader's, each prefixed with the file's path
    QByteArray raw;           // the bytes read
    bool opened = false;      // false: the file could not be read at all
    bool headerSeen = false;  // false: not a warpscope session (nothing was kept)
    bool complete = false;    // the end record was read
};

// Reads `bytes` as a session stream; `name` prefixes each problem.
LoadedSession parseSessionBytes(const QByteArray& bytes, const QString& name);
// Reads a file or a Qt resource (":/recorded/..."). Never throws: what went wrong is in `problems`.
LoadedSession loadSessionFile(const QString& path);
// Writes `bytes` to `path` (atomically); the error message, or nullopt.
std::optional<QString> saveSessionBytes(const QString& path, const QByteArray& bytes);
// Writes `session` for other tools, by the path's suffix: .json, a Chrome trace of the measured
// runs (ui.perfetto.dev); .csv, the metrics (core/session/session_export.h). Atomically; the error
// message (also for another suffix), or nullopt.
std::optional<QString> exportSession(const QString& path, const session::Session& session);

} // namespace warpscope::app
