// Lessons: Markdown files named NN-id.md, compiled into the program as Qt resources (:/lessons), or
// read from the folder named by WARPSCOPE_LESSONS_DIR so authors see edits without rebuilding.
// The title is the file's first "# " heading. A line holding only {{figure: warpscope:...}} declares
// the figure the window sets up: under the title, the lesson's home figure; under a "## " heading,
// that section's. See assets/lessons/README.md.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace warpscope::app {

struct LessonSection {
    QString title;     // the "## " heading's text, as written
    QString figure;    // its {{figure: ...}} link, or empty: the figure before it stays
};

struct Lesson {
    QString id;        // "occupancy"
    QString title;     // "Occupancy"
    QString markdown;  // the whole file
    QString path;      // where it was read from
    QString homeFigure;              // the link under the title, or empty
    QList<LessonSection> sections;   // every "## " heading, in order
};

// The figure a reader has reached: the figure of the last section at or before `section` that declares
// one, else the lesson's home figure. `section` -1 is the lesson's top.
QString figureAtSection(const Lesson& lesson, int section);

// The Markdown the panel shows: figure lines dropped under the title, and turned into a link a reader
// can click to set the section's figure up again under a section.
QString renderedLessonMarkdown(const QString& markdown);

class LessonLibrary {
public:
    // Loads every lesson; a file that breaks the format is skipped and its problem recorded. A bad
    // figure line is a problem too (file, line and why), and the lesson loads without that figure.
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
