// `warpscope study`: every question of the bank, through the real binary, for several seeds: the
// engine's expected answer is accepted, a wrong one is not, a malformed one exits 2. And every link a
// question offers parses as a warpscope: link naming a lesson that exists.
#include "cli_runner.h"

#include "links/view_link.h"
#include "study/quiz.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

using namespace warpscope;
using testing_support::runWarpscope;
using nlohmann::json;

namespace {

std::string exactText(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

json runJson(const std::string& arguments)
{
    const auto result = runWarpscope(arguments);
    EXPECT_EQ(result.exitCode, 0) << arguments << "\n" << result.err;
    return json::parse(result.out, nullptr, false);
}

} // namespace

TEST(CliStudy, ListsAtLeastSixtyQuestionsAndFiltersByTopic)
{
    const json all = runJson("study quiz --list --json");
    ASSERT_TRUE(all.contains("questions"));
    EXPECT_GE(all["questions"].size(), 60u);
    EXPECT_EQ(all["questions"].size(), study::questionBank().size());
    const json topic = runJson("study quiz --list --topic shared-memory --json");
    EXPECT_GE(topic["questions"].size(), 2u);
    for (const json& q : topic["questions"])
        EXPECT_EQ(q["topic"], "shared-memory");
    const auto plain = runWarpscope("study quiz --list");
    EXPECT_EQ(testing_support::lineCount(plain.out), static_cast<int>(study::questionBank().size()));
}

TEST(CliStudy, EveryQuestionAcceptsTheEngineAnswerAndRejectsAWrongOne)
{
    for (const study::Question& question : study::questionBank()) {
        for (int seed : {1, 9}) {
            const std::string base = "study quiz " + std::string(question.id) + " --seed " + std::to_string(seed) + " --json";
            // A first answer shows what was expected (and whether it was right).
            const json probe = runJson(base + " --answer " + (question.kind == study::QuestionKind::Choice ? "a" : "0"));
            ASSERT_TRUE(probe.contains("correct")) << base;
            ASSERT_TRUE(probe.contains("expected")) << base;
            ASSERT_TRUE(probe.contains("explanation")) << base;
            std::string right, wrong;
            if (question.kind == study::QuestionKind::Choice) {
                const std::string expected = probe["expected"];
                right = expected.substr(0, 1);
                wrong = right == "a" ? "b" : "a";
            } else {
                const double value = probe["expected_value"], tolerance = probe["tolerance"];
                right = "'" + exactText(value) + "'";
                wrong = "'" + exactText(value + 2 * tolerance + std::max(std::fabs(value) * 0.5, 1e-3)) + "'";
            }
            EXPECT_TRUE(runJson(base + " --answer " + right)["correct"].get<bool>()) << base << " --answer " << right;
            EXPECT_FALSE(runJson(base + " --answer " + wrong)["correct"].get<bool>()) << base << " --answer " << wrong;
        }
    }
}

TEST(CliStudy, BadInputExitsTwoWithOneLine)
{
    for (const char* arguments : {"study quiz occupancy.percent --answer banana", "study quiz no.such --answer 1",
                                  "study quiz --list --topic nothing", "study quiz occupancy.percent --seed -1",
                                  "study quiz divergence.syncwarp --answer z", "study quiz", "study advise --progress /nonexistent/p.json",
                                  "study advise --progress " WARPSCOPE_FIXTURES_DIR "/progress/fresh.json --today 2026-13-01"}) {
        const auto result = runWarpscope(arguments);
        EXPECT_EQ(result.exitCode, 2) << arguments << "\n" << result.out << result.err;
        EXPECT_EQ(testing_support::lineCount(result.err), 1) << arguments << "\n" << result.err;
    }
}

TEST(CliStudy, AskingPrintsThePromptAndHowToAnswer)
{
    const auto result = runWarpscope("study quiz divergence.syncwarp --seed 3");
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_NE(result.out.find("__syncwarp"), std::string::npos);
    EXPECT_NE(result.out.find("  a) "), std::string::npos);
    EXPECT_NE(result.out.find("--answer VALUE"), std::string::npos);
}

TEST(CliStudy, AdviseReadsAProgressFile)
{
    const json advice = runJson("study advise --progress " WARPSCOPE_FIXTURES_DIR "/progress/weak_bank_conflicts.json --today 2026-11-23 --json");
    ASSERT_GE(advice["suggestions"].size(), 2u);
    EXPECT_EQ(advice["suggestions"][0]["kind"], "cards");
    EXPECT_EQ(advice["suggestions"][1]["reason"], "Shared memory and bank conflicts: 2 of 6 right; try shared-memory.stride again with a new seed");
    const auto text = runWarpscope("study advise --progress " WARPSCOPE_FIXTURES_DIR "/progress/weak_bank_conflicts.json --today 2026-11-23");
    EXPECT_NE(text.out.find("shared-memory: 43 %"), std::string::npos) << text.out;
    // A topic known only from its cards names no answers it never had.
    EXPECT_NE(text.out.find("latency: 100 % (1 of 1 card reviews recalled)"), std::string::npos) << text.out;
}

TEST(CliStudy, AdviceNamesLessonsByTheirFilesTitles)
{
    // The title is the lesson file's first "# " heading, read here from the file itself.
    std::ifstream file(WARPSCOPE_LESSONS_DIR "/03-precision.md");
    std::string title;
    std::getline(file, title);
    ASSERT_TRUE(title.starts_with("# ")) << title;
    title = title.substr(2);
    const auto text = runWarpscope("study advise --progress " WARPSCOPE_FIXTURES_DIR "/progress/weak_bank_conflicts.json --today 2026-11-23");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  Read \u201c" + title + "\u201d\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("    warpscope:lesson?id=precision\n"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("lesson precision:"), std::string::npos) << "the advice names the lesson by its id: " << text.out;

    const json advice = runJson("study advise --progress " WARPSCOPE_FIXTURES_DIR "/progress/fresh.json --today 2026-11-23 --json");
    ASSERT_FALSE(advice["suggestions"].empty());
    const json& first = advice["suggestions"][0];
    EXPECT_EQ(first["target"], "hierarchy") << "a fresh learner starts at the first shipped lesson";
    EXPECT_TRUE(first["step"].get<std::string>().starts_with("Read \u201c")) << first.dump();
    EXPECT_FALSE(first["why"].get<std::string>().empty());
}

TEST(CliStudy, CardsCarryTheirSources)
{
    const json cards = runJson("study cards --key-numbers --json");
    ASSERT_GE(cards["cards"].size(), 15u);
    for (const json& card : cards["cards"]) {
        EXPECT_TRUE(card["key_number"].get<bool>());
        EXPECT_FALSE(card["source"].get<std::string>().empty());
    }
}

TEST(StudyLinks, EveryQuestionLinkParsesAndNamesAnExistingLesson)
{
    std::set<std::string> lessons;
    for (const auto& entry : std::filesystem::directory_iterator(WARPSCOPE_LESSONS_DIR)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 6 && std::isdigit(static_cast<unsigned char>(name[0])) && name.ends_with(".md"))
            lessons.insert(name.substr(3, name.size() - 6));
    }
    ASSERT_FALSE(lessons.empty());
    for (const study::Topic& topic : study::topics())
        EXPECT_TRUE(lessons.count(std::string(topic.lesson))) << "topic " << topic.key << " names lesson '" << topic.lesson << "'";
    for (const study::Question& question : study::questionBank())
        for (std::uint64_t seed = 0; seed < 6; ++seed) {
            const study::QuizItem item = study::askQuestion(question.id, seed);
            for (const std::string& link : {item.figureLink, item.lessonLink}) {
                if (link.empty())
                    continue;
                try {
                    const app::ViewLink parsed = app::parseViewLink(link);
                    if (parsed.view == app::LinkView::Lesson)
                        EXPECT_TRUE(lessons.count(parsed.lessonId)) << link;
                } catch (const std::exception& error) {
                    ADD_FAILURE() << question.id << " seed " << seed << ": " << link << ": " << error.what();
                }
            }
        }
}
