// The Study dock as a learner uses it: quiz answers graded and saved (malformed ones explained beside
// the field and not recorded), predict-then-reveal opening the figure, flashcards revealed and graded
// on SM-2's schedule, the advisor on a fixture, search jumping to the place, every link a question
// offers opening in the window, a damaged progress file kept aside with a message, and progress that
// survives a process killed while saving.
#include "occupancy/occupancy_panel.h"
#include "study/advisor_panel.h"
#include "study/flashcard_panel.h"
#include "study/progress.h"
#include "study/progress_store.h"
#include "study/quiz.h"
#include "study/quiz_panel.h"
#include "study/search_dialog.h"
#include "study/study_dock.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <set>

using namespace warpscope;
using warpscope::app::MainWindow;

namespace {

study::Progress readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + path.toStdString());
    const QByteArray text = file.readAll();
    return study::readProgress(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), path.toStdString());
}

} // namespace

class StudyTest : public QObject {
    Q_OBJECT
private slots:
    void quizAnswersAreGradedAndSaved()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("progress.json"));
        MainWindow window({.restoreSettings = false, .progressFile = file});
        app::QuizPanel* quiz = window.studyDock()->quiz();
        quiz->showQuestion(QStringLiteral("shared-memory.stride"), 3);
        const study::QuizItem item = *quiz->item();
        // Malformed: said beside the field, nothing recorded.
        const auto error = quiz->submit(QStringLiteral("lots"));
        QVERIFY(error.has_value());
        QVERIFY(quiz->fieldError().contains(QStringLiteral("is not a number")));
        QVERIFY(!QFile::exists(file));
        // Wrong, then right.
        QVERIFY(!quiz->submit(QString::number(item.expected + 1)).has_value());
        QCOMPARE(quiz->lastCorrect(), std::optional<bool>(false));
        QVERIFY(quiz->resultText().contains(QString::fromStdString(item.expectedText)));
        QVERIFY(!quiz->submit(QString::number(item.expected)).has_value());
        QCOMPARE(quiz->lastCorrect(), std::optional<bool>(true));
        const study::Progress saved = readFile(file);
        QCOMPARE(saved.answers.size(), std::size_t{2});
        QCOMPARE(saved.answers[0].correct, false);
        QCOMPARE(saved.answers[1].correct, true);
        QCOMPARE(saved.answers[1].question, std::string("shared-memory.stride"));
        QCOMPARE(saved.answers[1].seed, std::uint64_t{3});
    }

    void predictThenRevealOpensTheFigure()
    {
        MainWindow window({.restoreSettings = false});
        app::QuizPanel* quiz = window.studyDock()->quiz();
        quiz->showQuestion(QStringLiteral("occupancy.percent"), 11);
        const study::QuizItem item = *quiz->item();
        const QRegularExpressionMatch match =
            QRegularExpression(QStringLiteral("uses (\\d+) registers per thread, no shared memory, and (\\d+)-thread blocks"))
                .match(QString::fromStdString(item.prompt));
        QVERIFY2(match.hasMatch(), item.prompt.c_str());
        QVERIFY(!quiz->submit(QStringLiteral("50")).has_value());
        // The reveal: the explorer now shows the launch the question asked about.
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, match.captured(1).toInt());
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, match.captured(2).toInt());
        QVERIFY(window.occupancyPanel()->result().has_value());
        QCOMPARE(window.occupancyPanel()->result()->occupancy * 100, item.expected);
    }

    void choicesAreAnsweredByLetter()
    {
        MainWindow window({.restoreSettings = false});
        app::QuizPanel* quiz = window.studyDock()->quiz();
        quiz->showQuestion(QStringLiteral("divergence.syncwarp"), 2);
        const int correct = quiz->item()->correctChoice;
        QVERIFY(!quiz->submit(QString(QChar('a' + correct))).has_value());
        QCOMPARE(quiz->lastCorrect(), std::optional<bool>(true));
        QVERIFY(quiz->submit(QStringLiteral("z")).has_value());
    }

    void flashcardsFollowTheSchedule()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("progress.json"));
        MainWindow window({.restoreSettings = false, .progressFile = file});
        app::FlashcardPanel* cards = window.studyDock()->flashcards();
        cards->restart();
        const QString first = cards->currentCardId();
        QVERIFY(!first.isEmpty());
        cards->grade(study::Grade::Good); // not revealed yet: ignored
        QCOMPARE(cards->currentCardId(), first);
        cards->reveal();
        QVERIFY(cards->revealed());
        const int queued = cards->queued();
        cards->grade(study::Grade::Good);
        QCOMPARE(cards->queued(), queued - 1);
        study::Progress saved = readFile(file);
        QCOMPARE(saved.cards.at(first.toStdString()).intervalDays, 1);
        QCOMPARE(saved.cards.at(first.toStdString()).dueDay, app::ProgressStore::today() + 1);
        // Again: the card comes back at the end of this session.
        const QString second = cards->currentCardId();
        cards->reveal();
        cards->grade(study::Grade::Again);
        QCOMPARE(cards->queued(), queued - 1);
        saved = readFile(file);
        QCOMPARE(saved.cards.at(second.toStdString()).lapses, 1);
        // A new session: the Good card is not due today, so it is not in the queue.
        cards->restart();
        for (int i = 0; i < cards->queued(); ++i) {
            QVERIFY(cards->currentCardId() != first);
            cards->reveal();
            cards->grade(study::Grade::Easy);
        }
    }

    void advisorShowsTheFixturesSuggestions()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("progress.json"));
        QVERIFY(QFile::copy(QStringLiteral(WARPSCOPE_FIXTURES_DIR "/progress/unread_weak_topic.json"), file));
        MainWindow window({.restoreSettings = false, .progressFile = file});
        app::AdvisorPanel* advisor = window.studyDock()->advisor();
        advisor->refresh();
        QVERIFY(!advisor->advice().suggestions.empty());
        QCOMPARE(advisor->advice().suggestions[0].target, std::string("memory"));
        // Lessons by their titles (assets/lessons/06-memory.md's and 02-occupancy.md's), each step
        // with why on the line under it.
        QVERIFY2(advisor->suggestionText(0).startsWith(QStringLiteral("Read \u201cThe memory hierarchy\u201d\n1 of your last 4 answers")),
                 qPrintable(advisor->suggestionText(0)));
        QVERIFY2(advisor->suggestionText(1).startsWith(QStringLiteral("Read \u201cOccupancy\u201d\nThe next lesson in order")),
                 qPrintable(advisor->suggestionText(1)));
        QVERIFY(!advisor->suggestionText(0).contains(QStringLiteral("'memory'")));
        advisor->activate(0);
        QCOMPARE(window.currentLessonId(), QStringLiteral("memory"));
    }

    void searchJumpsToLessonsCardsAndQuestions()
    {
        MainWindow window({.restoreSettings = false});
        app::SearchDialog dialog(window.studySearchEntries());
        dialog.setQuery(QStringLiteral("bank"));
        QVERIFY(dialog.resultCount() >= 3);
        std::set<app::SearchEntry::Kind> kinds;
        for (int i = 0; i < dialog.resultCount(); ++i)
            kinds.insert(dialog.result(i)->kind);
        QCOMPARE(kinds.size(), std::size_t{3}); // a lesson, a card and a question mention banks
        dialog.setQuery(QStringLiteral("pipeline bubble"));
        QVERIFY(dialog.resultCount() >= 1);
        const app::SearchEntry entry = *dialog.result(0);
        window.openSearchResult(entry);
        if (entry.kind == app::SearchEntry::Kind::Question)
            QCOMPARE(QString::fromStdString(window.studyDock()->quiz()->item()->id), entry.key);
        dialog.setQuery(QStringLiteral("zzzz-nothing"));
        QCOMPARE(dialog.resultCount(), 0);
    }

    void everyLinkAQuestionOffersOpens()
    {
        MainWindow window({.restoreSettings = false});
        std::set<std::string> links;
        for (const study::Question& question : study::questionBank())
            for (std::uint64_t seed = 0; seed < 3; ++seed) {
                const study::QuizItem item = study::askQuestion(question.id, seed);
                for (const std::string& link : {item.figureLink, item.lessonLink})
                    if (!link.empty())
                        links.insert(link);
            }
        QVERIFY(links.size() > 40);
        for (const std::string& link : links) {
            const auto error = window.openLink(QUrl(QString::fromStdString(link)));
            QVERIFY2(!error.has_value(), (link + ": " + (error ? error->toStdString() : std::string())).c_str());
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window.precisionLabBusy(), 120000);
    }

    void aDamagedProgressFileIsKeptAsideWithAMessage()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("progress.json"));
        {
            QFile damaged(file);
            QVERIFY(damaged.open(QIODevice::WriteOnly));
            damaged.write("{\"format\":\"warpscope-progress\",\"version\":1,\"lessons\":[{\"lesson\":");
        }
        MainWindow window({.restoreSettings = false, .progressFile = file});
        QVERIFY(window.lastMessage().contains(QStringLiteral("damaged")));
        QVERIFY(window.lastMessage().contains(QStringLiteral(".damaged-")));
        QVERIFY(!QFile::exists(file));
        const QStringList backups = QDir(dir.path()).entryList({QStringLiteral("progress.json.damaged-*")});
        QCOMPARE(backups.size(), 1);
        QVERIFY(window.progressStore()->progress().answers.empty());
    }

    void aFailedSaveSaysSo()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("not-a-folder")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        app::ProgressStore store(dir.filePath(QStringLiteral("not-a-folder/progress.json")));
        const auto error = store.recordAnswer({"reduction.steps", "reduction", 1, true, 1795392000});
        QVERIFY(error.has_value());
        QVERIFY(error->contains(QStringLiteral("cannot")));
    }

    void progressSurvivesAKilledProcess()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("progress.json"));
        std::size_t before = 0;
        for (int round = 0; round < 8; ++round) {
            QProcess writer;
            writer.start(QStringLiteral(WARPSCOPE_PROGRESS_WRITER), {file});
            QVERIFY(writer.waitForStarted());
            QVERIFY(writer.waitForReadyRead(10000));
            QTest::qWait(static_cast<int>(QRandomGenerator::global()->bounded(30, 250)));
            writer.kill(); // SIGKILL, mid-write most of the time
            QVERIFY(writer.waitForFinished());
            const study::Progress progress = readFile(file); // throws if the file is torn
            QVERIFY2(progress.answers.size() >= before, "answers were lost");
            before = progress.answers.size();
            QVERIFY(QDir(dir.path()).entryList({QStringLiteral("*.damaged-*")}).isEmpty());
        }
        QVERIFY(before > 8);
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    StudyTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "study_test.moc"
