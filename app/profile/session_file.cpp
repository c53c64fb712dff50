#include "profile/session_file.h"

#include "session/session_export.h"
#include "session/session_io.h"

#include <QFile>
#include <QSaveFile>

#include <sstream>
#include <string_view>

namespace warpscope::app {

LoadedSession parseSessionBytes(const QByteArray& bytes, const QString& name)
{
    LoadedSession loaded;
    loaded.opened = true;
    loaded.raw = bytes;
    session::SessionStreamReader reader;
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype newline = bytes.indexOf('\n', start);
        if (newline < 0)
            newline = bytes.size();
        if (!reader.feedLine(std::string_view(bytes.constData() + start, static_cast<std::size_t>(newline - start))))
            break;
        start = newline + 1;
    }
    reader.finish();
    for (const std::string& problem : reader.problems())
        loaded.problems << QStringLiteral("%1: %2").arg(name, QString::fromStdString(problem));
    loaded.headerSeen = reader.headerSeen();
    loaded.complete = reader.complete();
    loaded.session = reader.takeSession();
    return loaded;
}

LoadedSession loadSessionFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        LoadedSession failed;
        failed.problems << QStringLiteral("%1: cannot open (%2)").arg(path, file.errorString());
        return failed;
    }
    return parseSessionBytes(file.readAll(), path);
}

std::optional<QString> saveSessionBytes(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("Cannot write %1 (%2)").arg(path, file.errorString());
    file.write(bytes);
    if (!file.commit())
        return QStringLiteral("Cannot write %1 (%2)").arg(path, file.errorString());
    return std::nullopt;
}

std::optional<QString> exportSession(const QString& path, const session::Session& session)
{
    const bool trace = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    if (!trace && !path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return QStringLiteral("Cannot export to %1: the name must end in .json (a Perfetto trace) or .csv (the metrics)").arg(path);
    std::ostringstream text;
    if (trace)
        session::writeSessionPerfetto(text, session);
    else
        session::writeMetricsCsv(text, session);
    return saveSessionBytes(path, QByteArray::fromStdString(text.str()));
}

} // namespace warpscope::app
