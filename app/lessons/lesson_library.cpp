#include "lessons/lesson_library.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

// The lessons are a resource of a static library: register them explicitly (outside any
// namespace, as Q_INIT_RESOURCE requires).
static void registerLessonResources()
{
    Q_INIT_RESOURCE(lessons);
}

namespace warpscope::app {

LessonLibrary LessonLibrary::load()
{
    registerLessonResources();
    const QString override = qEnvironmentVariable("WARPSCOPE_LESSONS_DIR");
    return loadFrom(override.isEmpty() ? QStringLiteral(":/lessons") : override);
}

LessonLibrary LessonLibrary::loadFrom(const QString& directory)
{
    LessonLibrary library;
    const QDir dir(directory);
    if (!dir.exists()) {
        library.m_problems << QStringLiteral("%1: lesson folder not found").arg(directory);
        return library;
    }
    static const QRegularExpression name(QStringLiteral("^(\\d+)-([a-z0-9][a-z0-9-]*)\\.md$"));
    const QStringList files = dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        if (file.compare(QStringLiteral("README.md"), Qt::CaseInsensitive) == 0)
            continue;
        const QString path = dir.filePath(file);
        const auto match = name.match(file);
        if (!match.hasMatch()) {
            library.m_problems << QStringLiteral("%1: file name must be NN-id.md (digits, a dash, lower-case id)").arg(path);
            continue;
        }
        QFile handle(path);
        if (!handle.open(QIODevice::ReadOnly | QIODevice::Text)) {
            library.m_problems << QStringLiteral("%1: cannot read (%2)").arg(path, handle.errorString());
            continue;
        }
        const QString markdown = QString::fromUtf8(handle.readAll());
        static const QRegularExpression heading(QStringLiteral("^# +(.+)$"), QRegularExpression::MultilineOption);
        const auto title = heading.match(markdown);
        // A heading of only blanks ("#  \t") is no title either: the list would show an empty entry.
        if (!title.hasMatch() || title.captured(1).trimmed().isEmpty()) {
            library.m_problems << QStringLiteral("%1: no title (the first line starting with '# ')").arg(path);
            continue;
        }
        const QString id = match.captured(2);
        if (library.find(id)) {
            library.m_problems << QStringLiteral("%1: lesson id '%2' is used twice").arg(path, id);
            continue;
        }
        library.m_lessons.append({id, title.captured(1).trimmed(), markdown, path});
    }
    if (library.m_lessons.isEmpty() && library.m_problems.isEmpty())
        library.m_problems << QStringLiteral("%1: no lessons (files named NN-id.md)").arg(directory);
    return library;
}

const Lesson* LessonLibrary::find(const QString& id) const
{
    for (const Lesson& lesson : m_lessons)
        if (lesson.id == id)
            return &lesson;
    return nullptr;
}

QStringList LessonLibrary::ids() const
{
    QStringList list;
    for (const Lesson& lesson : m_lessons)
        list << lesson.id;
    return list;
}

} // namespace warpscope::app
