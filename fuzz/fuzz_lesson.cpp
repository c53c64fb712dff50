// libFuzzer target: loading a lesson (app/lessons/lesson_library) as the window does. Lessons may come
// from someone else (WARPSCOPE_LESSONS_DIR): the input is written as a lesson file, loaded (title,
// id, problems), turned into a document as the lesson panel does (GitHub Markdown, raw HTML shown as
// text), and every `warpscope:` link in it is followed as a click would (QUrl, then parseViewLink).
#include "lessons/lesson_library.h"
#include "links/view_link.h"
#include "util/input_error.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QString>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>
#include <QUrl>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace warpscope;

namespace {

QTemporaryDir* lessonFolder = nullptr;

void followLinks(const QTextDocument& document)
{
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QString href = it.fragment().charFormat().anchorHref();
            if (!href.startsWith(QStringLiteral("warpscope:")))
                continue;
            try {
                (void)app::parseViewLink(QUrl(href).toString().toStdString());
            } catch (const InputError&) {
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    // The document needs fonts, so a QGuiApplication; no display.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static QGuiApplication application(*argc, *argv);
    lessonFolder = new QTemporaryDir(QDir::tempPath() + QStringLiteral("/warpscope-fuzz-lesson-XXXXXX"));
    if (!lessonFolder->isValid())
        std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    {
        QFile file(lessonFolder->filePath(QStringLiteral("01-fuzz.md")));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size)) != static_cast<qint64>(size))
            std::abort();
    }
    const app::LessonLibrary library = app::LessonLibrary::loadFrom(lessonFolder->path());
    if (library.lessons().size() + library.problems().size() != 1)
        __builtin_trap(); // one file: one lesson or one problem
    for (const app::Lesson& lesson : library.lessons()) {
        if (lesson.id != QStringLiteral("fuzz") || lesson.title.isEmpty())
            __builtin_trap();
        QTextDocument document;
        document.setMarkdown(lesson.markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                                              QTextDocument::MarkdownNoHTML));
        followLinks(document);
    }
    return 0;
}
