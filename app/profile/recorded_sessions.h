// Sessions recorded on real GPUs (assets/recorded/<gpu>/*.wsprof), compiled into the program as
// :/recorded/<gpu>/<file>.wsprof; WARPSCOPE_RECORDED_DIR names a folder to list instead. Each is
// labelled with the GPU, driver, CUDA version and date its own records give.
#pragma once

#include "session/session.h"

#include <QList>
#include <QString>

namespace warpscope::app {

struct RecordedSession {
    QString path;      // a resource path or a file
    QString label;     // "NVIDIA H100 80GB HBM3 · driver 580.95.05 · CUDA 13.0 · 2026-11-22 · h100/reduction.wsprof"
};

// The folder listed: WARPSCOPE_RECORDED_DIR when set, else ":/recorded".
QString recordedSessionsRoot();
// Every *.wsprof under the root, sorted by path.
QList<RecordedSession> listRecordedSessions();
// The label for a session read from `relativePath` ("h100/reduction.wsprof").
QString recordedSessionLabel(const session::Session& session, const QString& relativePath);
// What the menus and the no-GPU message say when there are none.
QString noRecordedSessionsText();

} // namespace warpscope::app
