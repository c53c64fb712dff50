#include "cli/cli_study.h"

#include "cli/exit_codes.h"
#include "study/advisor.h"
#include "study/cards.h"
#include "study/progress.h"
#include "study/quiz.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <sstream>

namespace warpscope::cli {

using nlohmann::json;

StudyCommands addStudyCommand(CLI::App& app, StudyOptions& options)
{
    StudyCommands commands;
    commands.study = app.add_subcommand("study", "Practise: quizzes the engine grades, flashcards, and the study advisor");
    commands.study->require_subcommand(1);

    StudyQuizOptions& q = options.quiz;
    commands.quiz = commands.study->add_subcommand(
        "quiz", "List the questions, ask one (its parameters drawn from --seed), or check an answer with --answer");
    commands.quiz->add_flag("--list", q.list, "list the questions (with --topic, only that topic's)");
    commands.quiz->add_option("--topic", q.topic, "a topic key: 'warpscope study quiz --list' shows them");
    commands.quiz->add_option("id", q.id, "the question id, such as occupancy.percent");
    commands.quiz->add_option("--seed", q.seed, "draws the question's parameters (0 .. 2^63-1; the same seed asks the same question)")
        ->capture_default_str();
    commands.quiz->add_option("--answer", q.answer,
                              "check this answer: a letter or number for multiple choice; a number for the others (1,024, 3e-8, 75%, 0x7F, 3/10, 32K for bytes)");
    commands.quiz->add_flag("--json", q.json, "print JSON");

    StudyCardsOptions& c = options.cards;
    commands.cards = commands.study->add_subcommand("cards", "Print the flashcard deck with each card's source");
    commands.cards->add_option("--topic", c.topic, "only this topic's cards");
    commands.cards->add_flag("--key-numbers", c.keyNumbers, "only the key numbers");
    commands.cards->add_flag("--json", c.json, "print JSON");

    StudyAdviseOptions& a = options.advise;
    commands.advise = commands.study->add_subcommand("advise", "Mastery per topic and what to study next, from a progress file");
    commands.advise->add_option("--progress", a.progress, "a progress file (the window's File > Export Progress)")->required();
    commands.advise->add_option("--today", a.today, "the date to advise for, YYYY-MM-DD (default: today, UTC)");
    commands.advise->add_option("--lessons", a.lessons, "lesson ids in order, comma-separated (default: the built-in lessons)");
    commands.advise->add_flag("--json", a.json, "print JSON");
    return commands;
}

long long parseDay(const std::string& text, const std::string& what)
{
    int year = 0, month = 0, day = 0;
    char dash1 = 0, dash2 = 0;
    std::istringstream in(text);
    in >> year >> dash1 >> month >> dash2 >> day;
    const bool shaped = text.size() == 10 && !in.fail() && in.peek() == EOF && dash1 == '-' && dash2 == '-';
    using namespace std::chrono;
    const year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)}, std::chrono::day{static_cast<unsigned>(day)}};
    if (!shaped || !date.ok() || year < 1970 || year > 2999)
        throw InputError(what + ": '" + text + "' is not a date (allowed: YYYY-MM-DD from 1970-01-01 to 2999-12-31)");
    return sys_days(date).time_since_epoch().count();
}

namespace {

std::uint64_t parseSeed(const std::string& text)
{
    return static_cast<std::uint64_t>(parseInteger(text, "--seed", 0, INT64_MAX));
}

json itemJson(const study::QuizItem& item)
{
    json j = {{"id", item.id},           {"topic", item.topic},     {"kind", study::questionKindKey(item.kind)},
              {"seed", item.seed},       {"prompt", item.prompt},   {"lesson_link", item.lessonLink},
              {"figure_link", item.figureLink}, {"source", item.source}};
    if (item.kind == study::QuestionKind::Choice)
        j["choices"] = item.choices;
    else
        j["unit"] = item.unit;
    return j;
}

void printItem(const study::QuizItem& item, std::ostream& out)
{
    out << item.prompt << "\n";
    for (std::size_t i = 0; i < item.choices.size(); ++i)
        out << "  " << static_cast<char>('a' + i) << ") " << item.choices[i] << "\n";
    if (item.kind != study::QuestionKind::Choice && !item.unit.empty())
        out << "  (answer in " << item.unit << ")\n";
    out << "Answer with: warpscope study quiz " << item.id << " --seed " << item.seed << " --answer VALUE\n";
}

int runQuiz(const StudyQuizOptions& q, std::ostream& out)
{
    if (!q.topic.empty() && !study::findTopic(q.topic))
        throw InputError("--topic: unknown topic '" + q.topic + "' (allowed: " + study::topicKeys() + ")");
    if (q.list || q.id.empty()) {
        if (!q.list)
            throw InputError("give a question id or --list (see 'warpscope study quiz --list')");
        if (!q.id.empty())
            throw InputError("--list takes no question id (give one or the other)");
        json list = json::array();
        for (const study::Question& question : study::questionBank()) {
            if (!q.topic.empty() && question.topic != q.topic)
                continue;
            if (q.json)
                list.push_back({{"id", question.id}, {"topic", question.topic}, {"kind", study::questionKindKey(question.kind)},
                                {"title", question.title}, {"randomized", question.randomized}});
            else
                out << question.id << "  [" << question.topic << ", " << study::questionKindKey(question.kind) << "]  " << question.title << "\n";
        }
        if (q.json)
            out << json{{"questions", list}}.dump(2) << "\n";
        return toInt(ExitCode::Ok);
    }
    const std::uint64_t seed = parseSeed(q.seed);
    const study::QuizItem item = study::askQuestion(q.id, seed);
    if (!q.topic.empty() && item.topic != q.topic)
        throw InputError("question '" + q.id + "' belongs to topic '" + item.topic + "', not '" + q.topic + "'");
    if (!q.hasAnswer) {
        if (q.json)
            out << itemJson(item).dump(2) << "\n";
        else
            printItem(item, out);
        return toInt(ExitCode::Ok);
    }
    const study::AnswerResult result = study::checkAnswer(item, q.answer);
    if (q.json) {
        json j = itemJson(item);
        j["answer"] = result.given;
        j["correct"] = result.correct;
        j["expected"] = result.expected;
        j["explanation"] = result.explanation;
        if (item.kind != study::QuestionKind::Choice) {
            j["expected_value"] = item.expected;
            j["tolerance"] = item.tolerance;
        }
        out << j.dump(2) << "\n";
    } else {
        out << (result.correct ? "Correct." : "Not quite.") << " Expected: " << result.expected << "\n" << result.explanation << "\n";
        if (!item.figureLink.empty())
            out << "See it: " << item.figureLink << "\n";
        if (!item.lessonLink.empty())
            out << "Lesson: " << item.lessonLink << "\n";
    }
    return toInt(ExitCode::Ok);
}

int runCards(const StudyCardsOptions& c, std::ostream& out)
{
    if (!c.topic.empty() && !study::findTopic(c.topic))
        throw InputError("--topic: unknown topic '" + c.topic + "' (allowed: " + study::topicKeys() + ")");
    json list = json::array();
    for (const study::Card& card : study::deck()) {
        if ((!c.topic.empty() && card.topic != c.topic) || (c.keyNumbers && !card.keyNumber))
            continue;
        if (c.json) {
            list.push_back({{"id", card.id}, {"topic", card.topic}, {"front", card.front}, {"back", card.back}, {"source", card.source},
                            {"hook", card.hook}, {"key_number", card.keyNumber}});
        } else {
            out << card.front << "\n  " << card.back << "\n  source: " << card.source << "\n";
            if (!card.hook.empty())
                out << "  hook: " << card.hook << "\n";
        }
    }
    if (c.json)
        out << json{{"cards", list}}.dump(2) << "\n";
    return toInt(ExitCode::Ok);
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError("--progress: cannot read '" + path + "' (no such file, or no permission)");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string kindName(study::SuggestionKind kind)
{
    switch (kind) {
    case study::SuggestionKind::Cards: return "cards";
    case study::SuggestionKind::Lesson: return "lesson";
    case study::SuggestionKind::Quiz: return "quiz";
    }
    return "?";
}

int runAdvise(const StudyAdviseOptions& a, std::ostream& out)
{
    const study::Progress progress = study::readProgress(readFile(a.progress), a.progress);
    long long today = 0;
    if (a.today.empty())
        today = std::chrono::duration_cast<std::chrono::days>(std::chrono::system_clock::now().time_since_epoch()).count();
    else
        today = parseDay(a.today, "--today");
    std::vector<std::string> lessons;
    if (a.lessons.empty()) {
        lessons = a.shippedLessons;
    } else {
        std::stringstream in(a.lessons);
        for (std::string id; std::getline(in, id, ',');) {
            if (id.empty())
                throw InputError("--lessons: an empty lesson id in '" + a.lessons + "' (allowed: ids separated by single commas)");
            lessons.push_back(id);
        }
    }
    const study::Advice advice = study::advise(progress, study::deck(), lessons, today, 5, a.lessonTitles);
    if (a.json) {
        json topics = json::array();
        for (const study::TopicMastery& m : advice.topics)
            topics.push_back({{"topic", m.topic}, {"answered", m.answered}, {"correct", m.correct}, {"card_reviews", m.cardReviews},
                              {"card_lapses", m.cardLapses}, {"cards_due", m.cardsDue}, {"lesson_read", m.lessonRead},
                              {"mastery", m.mastery < 0 ? json(nullptr) : json(m.mastery)}});
        json suggestions = json::array();
        for (const study::Suggestion& s : advice.suggestions)
            suggestions.push_back({{"kind", kindName(s.kind)}, {"topic", s.topic}, {"target", s.target}, {"step", s.step}, {"why", s.why},
                                   {"reason", s.reason}, {"link", s.link}});
        out << json{{"topics", topics}, {"suggestions", suggestions}}.dump(2) << "\n";
        return toInt(ExitCode::Ok);
    }
    out << "Next:\n";
    // The step as the window's advisor words it (lessons by their titles), then why, then where to go.
    for (const study::Suggestion& s : advice.suggestions) {
        out << "  " << s.step << "\n    " << s.why << "\n";
        if (!s.link.empty())
            out << "    " << s.link << "\n";
    }
    out << "Mastery:\n";
    for (const study::TopicMastery& m : advice.topics) {
        if (m.mastery < 0)
            continue;
        // Only the evidence there is: a topic known from its cards alone says nothing of "0 of 0" answers.
        std::vector<std::string> evidence;
        if (m.answered > 0)
            evidence.push_back(std::to_string(m.correct) + " of " + std::to_string(m.answered) + " right");
        if (m.cardReviews > 0)
            evidence.push_back(std::to_string(m.cardReviews - m.cardLapses) + " of " + std::to_string(m.cardReviews) + " card reviews recalled");
        out << "  " << m.topic << ": " << static_cast<int>(std::lround(m.mastery * 100)) << " % (";
        for (std::size_t i = 0; i < evidence.size(); ++i)
            out << (i > 0 ? ", " : "") << evidence[i];
        out << ")\n";
    }
    return toInt(ExitCode::Ok);
}

} // namespace

int runStudy(const StudyCommands& commands, const StudyOptions& options, std::ostream& out, std::ostream&)
{
    if (commands.quiz->parsed()) {
        StudyQuizOptions quiz = options.quiz;
        quiz.hasAnswer = commands.quiz->count("--answer") > 0;
        return runQuiz(quiz, out);
    }
    if (commands.cards->parsed())
        return runCards(options.cards, out);
    return runAdvise(options.advise, out);
}

} // namespace warpscope::cli
