// Lessons: Markdown files named NN-id.md, compiled into the program as Qt resources (:/lessons), or
// read from the folder named by WARPSCOPE_LESSONS_DIR so authors see edits without rebuilding.
// The title is the file's first "# " heading. See assets/lessons/README.md.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace warpscope::app {

struct Lesson {
    QString id;        // "occupancy"
    QString title;     // "Occupancy"
    QString markdown;  // the whole file
    QString path;      // where it was read from
};

class LessonLibrary {
public:
    // Loads every lesson; a file that breaks the format is skipped and its problem recorded.
    static LessonLibrary load();
    static LessonLibrary loadFrom(const QString& directory);

    const QList<Lesson>& lessons() const { return m_lessons; }
    const Lesson* find(const QString& id) const;
    QStringList ids() const;
    const QStringList& problems() const { return m_problems; } // one line each: file and what is wrong

private:
    QList<Lesson> m_lessons;
    QStringList m_problems;
};

} // namespace warpscope::app
