// Sessions recorded on real GPUs (assets/recorded/<gpu>/*.wsprof), compiled into the program as
// :/recorded/<gpu>/<file>.wsprof; WARPSCOPE_RECORDED_DIR names a folder to list instead. Each is
// labelled with the GPU, driver, CUDA version and date its own records give.
#pragma once

#include "session/session.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace warpscope::app {

struct RecordedSession {
    QString path;      // a resource path or a file
    QString label;     // "NVIDIA H200: the copy ladder, 3 kernels · driver 580.159.04 · CUDA 13.0 · 2026-11-23 · h200/ladder-copy.wsprof"
    QString origin;    // what lists group by: "NVIDIA H200 · driver 580.159.04 · CUDA 13.0 · 2026-11-23"
    QString item;      // the rest: "the copy ladder, 3 kernels · h200/ladder-copy.wsprof"
};

// The folder listed: WARPSCOPE_RECORDED_DIR when set, else ":/recorded".
QString recordedSessionsRoot();
// Every *.wsprof under the root, sorted by path.
QList<RecordedSession> listRecordedSessions();
// The label for a session read from `relativePath` ("h200/ladder-copy.wsprof"): the GPU, what it holds,
// then the driver, CUDA version, date and file.
QString recordedSessionLabel(const session::Session& session, const QString& relativePath);
// Where a session was recorded: the GPU, its driver, the CUDA version and the date.
QStringList recordedSessionOrigin(const session::Session& session);
// What a session holds, in a few words: "vector_add, 1,048,576 blocks of 256 threads", "the copy
// ladder, 3 kernels", "19 kernels".
QString recordedSessionContents(const session::Session& session);
// What the menus and the no-GPU message say when there are none.
QString noRecordedSessionsText();

} // namespace warpscope::app
