// Where a learner's progress lives: a JSON file in the user's data folder (QStandardPaths
// AppDataLocation/progress.json), written atomically with QSaveFile so that killing the app at any
// moment leaves either the old file or the new one, never a mix. A damaged file is kept aside as a
// backup and the learner is told, in one sentence, what was wrong and where the backup is.
#pragma once

#include "study/progress.h"

#include <QObject>
#include <QString>

#include <optional>

namespace warpscope::app {

class ProgressStore : public QObject {
    Q_OBJECT
public:
    // `path` empty: kept in memory only, never written (screenshots and tests of other views).
    explicit ProgressStore(QString path, QObject* parent = nullptr);

    static QString defaultPath(); // the user's data folder: AppDataLocation/progress.json
    const QString& path() const { return m_path; }
    const study::Progress& progress() const { return m_progress; }

    // Reads the file. A missing file is a fresh start; a damaged one is renamed to
    // progress.json.damaged-YYYYMMDD-HHMMSS and the returned message says so.
    std::optional<QString> load();

    // Writes the file atomically; returns the error when it could not be written (what was on disk
    // stays as it was).
    std::optional<QString> save();

    // Changes, each saved at once. They return the save error, if any.
    std::optional<QString> markLessonRead(const QString& lesson);
    std::optional<QString> recordAnswer(const study::QuizAnswer& answer);
    std::optional<QString> recordReview(const QString& cardId, const study::CardSchedule& schedule);

    std::optional<QString> exportTo(const QString& file) const;   // the same JSON, atomically
    std::optional<QString> importFrom(const QString& file);       // merged into the current progress

    static std::int64_t now();   // seconds since 1970 (UTC)
    static std::int64_t today(); // day number

signals:
    void changed();

private:
    QString m_path;
    study::Progress m_progress;
};

// Writes `text` to `file` through QSaveFile; the error in words, or nullopt.
std::optional<QString> writeFileAtomically(const QString& file, const QByteArray& text);

} // namespace warpscope::app
