#include "study/progress_store.h"

#include "util/input_error.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace warpscope::app {

std::optional<QString> writeFileAtomically(const QString& file, const QByteArray& text)
{
    const QFileInfo info(file);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("cannot create the folder %1").arg(info.absolutePath());
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(file, out.errorString());
    if (out.write(text) != text.size()) {
        const QString error = out.errorString();
        out.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(file, error);
    }
    if (!out.commit())
        return QStringLiteral("cannot save %1: %2").arg(file, out.errorString());
    return std::nullopt;
}

ProgressStore::ProgressStore(QString path, QObject* parent) : QObject(parent), m_path(std::move(path)) {}

QString ProgressStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/progress.json");
}

std::int64_t ProgressStore::now() { return QDateTime::currentSecsSinceEpoch(); }

std::int64_t ProgressStore::today() { return study::dayOf(now()); }

std::optional<QString> ProgressStore::load()
{
    if (m_path.isEmpty())
        return std::nullopt;
    QFile file(m_path);
    if (!file.exists()) {
        m_progress = {};
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("Your study progress could not be read (%1): %2.").arg(m_path, file.errorString());
    const QByteArray text = file.readAll();
    file.close();
    try {
        m_progress = study::readProgress(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), m_path.toStdString());
        emit changed();
        return std::nullopt;
    } catch (const InputError& error) {
        const QString backup = m_path + QStringLiteral(".damaged-") + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        const bool kept = QFile::rename(m_path, backup);
        m_progress = {};
        emit changed();
        return QStringLiteral("Your study progress file was damaged (%1). %2 Starting with empty progress.")
            .arg(QString::fromStdString(error.what()),
                 kept ? QStringLiteral("It was kept as %1.").arg(backup) : QStringLiteral("It could not be moved aside and was left as it is."));
    }
}

std::optional<QString> ProgressStore::save()
{
    if (m_path.isEmpty())
        return std::nullopt;
    return writeFileAtomically(m_path, QByteArray::fromStdString(study::writeProgress(m_progress)));
}

std::optional<QString> ProgressStore::markLessonRead(const QString& lesson)
{
    if (m_progress.hasRead(lesson.toStdString()))
        return std::nullopt;
    m_progress.markRead(lesson.toStdString(), now());
    emit changed();
    return save();
}

std::optional<QString> ProgressStore::recordAnswer(const study::QuizAnswer& answer)
{
    m_progress.answers.push_back(answer);
    emit changed();
    return save();
}

std::optional<QString> ProgressStore::recordReview(const QString& cardId, const study::CardSchedule& schedule)
{
    m_progress.cards[cardId.toStdString()] = schedule;
    emit changed();
    return save();
}

std::optional<QString> ProgressStore::exportTo(const QString& file) const
{
    return writeFileAtomically(file, QByteArray::fromStdString(study::writeProgress(m_progress)));
}

std::optional<QString> ProgressStore::importFrom(const QString& fileName)
{
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("Cannot read %1: %2").arg(fileName, file.errorString());
    const QByteArray text = file.readAll();
    try {
        const study::Progress incoming =
            study::readProgress(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), fileName.toStdString());
        m_progress = study::mergeProgress(m_progress, incoming);
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    emit changed();
    return save();
}

} // namespace warpscope::app
