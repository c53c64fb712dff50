#include "profile/recorded_sessions.h"

#include "profile/session_file.h"

#include <QDir>
#include <QDirIterator>

#include <algorithm>

// The recorded sessions are a resource of a static library: register them explicitly (outside any
// namespace, as Q_INIT_RESOURCE requires). A build without any has no resource to register.
static void registerRecordedSessionResources()
{
#ifdef WARPSCOPE_HAS_RECORDED_SESSIONS
    Q_INIT_RESOURCE(recorded);
#endif
}

namespace warpscope::app {
namespace {

QString cudaText(int version)
{
    return QStringLiteral("%1.%2").arg(version / 1000).arg((version % 1000) / 10);
}

} // namespace

QString recordedSessionsRoot()
{
    registerRecordedSessionResources();
    const QString override = qEnvironmentVariable("WARPSCOPE_RECORDED_DIR");
    return override.isEmpty() ? QStringLiteral(":/recorded") : override;
}

QString recordedSessionLabel(const session::Session& session, const QString& relativePath)
{
    QStringList parts;
    if (session.devices.empty()) {
        parts << QStringLiteral("unknown GPU (no device record)");
    } else {
        const session::DeviceRecord& device = session.devices.front();
        parts << QString::fromStdString(device.name);
        if (!device.driverRelease.empty())
            parts << QStringLiteral("driver %1").arg(QString::fromStdString(device.driverRelease));
        else if (device.driverVersion > 0)
            parts << QStringLiteral("driver for CUDA %1").arg(cudaText(device.driverVersion));
        if (device.toolkitVersion > 0)
            parts << QStringLiteral("CUDA %1").arg(cudaText(device.toolkitVersion));
    }
    const QString created = QString::fromStdString(session.header.createdUtc);
    parts << (created.isEmpty() ? QStringLiteral("date unknown") : created.left(10));
    parts << relativePath;
    return parts.join(QStringLiteral(" \u00b7 "));
}

QList<RecordedSession> listRecordedSessions()
{
    const QString root = recordedSessionsRoot();
    QList<RecordedSession> sessions;
    QDirIterator it(root, {QStringLiteral("*.wsprof")}, QDir::Files, QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext())
        paths << it.next();
    std::sort(paths.begin(), paths.end());
    const QDir rootDir(root);
    for (const QString& path : paths) {
        const LoadedSession loaded = loadSessionFile(path);
        if (!loaded.headerSeen)
            continue; // not a session: nothing to label or open
        sessions.append({path, recordedSessionLabel(loaded.session, rootDir.relativeFilePath(path))});
    }
    return sessions;
}

QString noRecordedSessionsText() { return QStringLiteral("No recorded sessions in this build"); }

} // namespace warpscope::app
