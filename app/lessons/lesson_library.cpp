#include "lessons/lesson_library.h"

#include "links/view_link.h"
#include "util/input_error.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <algorithm>

// The lessons are a resource of a static library: register them explicitly (outside any
// namespace, as Q_INIT_RESOURCE requires).
static void registerLessonResources()
{
    Q_INIT_RESOURCE(lessons);
}

namespace warpscope::app {

namespace {

// "{{figure: warpscope:VIEW?...}}" alone on its line (blanks around it allowed).
const QRegularExpression& figureLine()
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*\\{\\{figure:\\s*(\\S*)\\s*\\}\\}\\s*$"));
    return pattern;
}

bool isFence(const QString& line)
{
    const QString trimmed = line.trimmed();
    return trimmed.startsWith(QLatin1String("```")) || trimmed.startsWith(QLatin1String("~~~"));
}

// The home figure and the sections of one lesson; each bad figure line adds a problem.
void readFigures(Lesson& lesson, QStringList& problems)
{
    const QStringList lines = lesson.markdown.split(QLatin1Char('\n'));
    bool inCode = false;
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (isFence(line)) {
            inCode = !inCode;
            continue;
        }
        if (inCode)
            continue;
        if (line.startsWith(QLatin1String("## "))) {
            lesson.sections.append({line.mid(3).trimmed(), QString()});
            continue;
        }
        const auto match = figureLine().match(line);
        if (!match.hasMatch())
            continue;
        const QString where = QStringLiteral("%1:%2").arg(lesson.path).arg(i + 1);
        const QString link = match.captured(1);
        try {
            const ViewLink parsed = parseViewLink(link.toStdString());
            if (parsed.view == LinkView::Lesson)
                throw InputError("a figure is a view, not another lesson (allowed: every view of the link scheme but 'lesson')");
        } catch (const InputError& error) {
            problems << QStringLiteral("%1: figure '%2': %3").arg(where, link, QString::fromStdString(error.what()));
            continue;
        }
        QString& slot = lesson.sections.isEmpty() ? lesson.homeFigure : lesson.sections.last().figure;
        if (!slot.isEmpty()) {
            problems << QStringLiteral("%1: a second figure %2 (one under the title, one per '## ' section)")
                            .arg(where, lesson.sections.isEmpty() ? QStringLiteral("under the title")
                                                                  : QStringLiteral("in section '%1'").arg(lesson.sections.last().title));
            continue;
        }
        slot = link;
    }
}

} // namespace

QString figureAtSection(const Lesson& lesson, int section)
{
    for (int i = std::min<int>(section, lesson.sections.size() - 1); i >= 0; --i)
        if (!lesson.sections[i].figure.isEmpty())
            return lesson.sections[i].figure;
    return lesson.homeFigure;
}

QString renderedLessonMarkdown(const QString& markdown)
{
    QStringList lines = markdown.split(QLatin1Char('\n'));
    QStringList shown;
    shown.reserve(lines.size());
    bool inCode = false, inSection = false;
    for (const QString& line : lines) {
        if (isFence(line))
            inCode = !inCode;
        if (!inCode && line.startsWith(QLatin1String("## ")))
            inSection = true;
        const auto match = inCode ? QRegularExpressionMatch() : figureLine().match(line);
        if (!match.hasMatch()) {
            shown << line;
            continue;
        }
        if (inSection)
            shown << QStringLiteral("*[Set up this section's figure](%1)*").arg(match.captured(1));
    }
    return shown.join(QLatin1Char('\n'));
}

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
        Lesson lesson{id, title.captured(1).trimmed(), markdown, path, {}, {}};
        readFigures(lesson, library.m_problems);
        library.m_lessons.append(lesson);
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
