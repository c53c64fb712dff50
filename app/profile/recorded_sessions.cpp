#include "profile/recorded_sessions.h"

#include "profile/session_file.h"

#include <QDir>
#include <QDirIterator>
#include <QLocale>

#include <algorithm>
#include <cstdint>

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

std::uint64_t volume(const session::Dim3& d)
{
    return static_cast<std::uint64_t>(d[0]) * d[1] * d[2];
}

// " at the GPU size" when every kernel says it ran at one launch size; "" when they differ or older
// sessions do not say.
QString launchSizeText(const session::Session& session)
{
    const std::string& first = session.kernels.front().launchSize;
    for (const session::KernelRecord& k : session.kernels)
        if (k.launchSize != first)
            return {};
    if (first == "gpu")
        return QStringLiteral(" at the GPU size");
    if (first == "sim")
        return QStringLiteral(" at the simulator's size");
    if (first == "custom")
        return QStringLiteral(" at a custom size");
    return {};
}

} // namespace

QString recordedSessionsRoot()
{
    registerRecordedSessionResources();
    const QString override = qEnvironmentVariable("WARPSCOPE_RECORDED_DIR");
    return override.isEmpty() ? QStringLiteral(":/recorded") : override;
}

QString recordedSessionContents(const session::Session& session)
{
    if (session.kernels.empty())
        return QStringLiteral("no kernels");
    const QLocale locale(QLocale::English);
    if (session.kernels.size() == 1) {
        const session::KernelRecord& k = session.kernels.front();
        return QStringLiteral("%1, %2 blocks of %3 threads%4")
            .arg(QString::fromStdString(k.id), locale.toString(static_cast<qulonglong>(volume(k.grid))),
                 locale.toString(static_cast<qulonglong>(volume(k.block))), launchSizeText(session));
    }
    const std::string& ladder = session.kernels.front().ladder;
    bool oneLadder = !ladder.empty();
    for (const session::KernelRecord& k : session.kernels)
        oneLadder = oneLadder && k.ladder == ladder;
    const QString count = QStringLiteral("%1 kernels").arg(session.kernels.size());
    if (oneLadder)
        return QStringLiteral("the %1 ladder, %2%3").arg(QString::fromStdString(ladder), count, launchSizeText(session));
    return count + launchSizeText(session);
}

QStringList recordedSessionOrigin(const session::Session& session)
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
    return parts;
}

QString recordedSessionLabel(const session::Session& session, const QString& relativePath)
{
    QStringList parts = recordedSessionOrigin(session);
    parts.front() += QStringLiteral(": ") + recordedSessionContents(session);
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
        const QString relative = rootDir.relativeFilePath(path);
        sessions.append({path, recordedSessionLabel(loaded.session, relative),
                         recordedSessionOrigin(loaded.session).join(QStringLiteral(" \u00b7 ")),
                         recordedSessionContents(loaded.session) + QStringLiteral(" \u00b7 ") + relative});
    }
    return sessions;
}

QString noRecordedSessionsText() { return QStringLiteral("No recorded sessions in this build"); }

} // namespace warpscope::app
