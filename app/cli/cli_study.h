// `warpscope study quiz|cards|advise`: practice questions graded by the engine, the flashcard deck,
// and the study advisor over a progress file. Qt-free; JSON with --json; bad input exits 2.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace warpscope::cli {

struct StudyQuizOptions {
    bool list = false;
    std::string topic;
    std::string id;
    std::string seed = "1";
    std::string answer;
    bool hasAnswer = false;
    bool json = false;
};

struct StudyCardsOptions {
    std::string topic;
    bool keyNumbers = false;
    bool json = false;
};

struct StudyAdviseOptions {
    std::string progress;
    std::string today;   // YYYY-MM-DD; default: today (UTC)
    std::string lessons; // comma-separated lesson ids in order; default: the shipped lessons
    bool json = false;
    // Filled by the program from its lesson files, not by flags: the lessons it ships, in order, and
    // their titles by id, so the advice names a lesson as its file does ("Read “Occupancy”").
    std::vector<std::string> shippedLessons;
    std::map<std::string, std::string, std::less<>> lessonTitles;
};

struct StudyOptions {
    StudyQuizOptions quiz;
    StudyCardsOptions cards;
    StudyAdviseOptions advise;
};

struct StudyCommands {
    CLI::App* study = nullptr;
    CLI::App* quiz = nullptr;
    CLI::App* cards = nullptr;
    CLI::App* advise = nullptr;
};

StudyCommands addStudyCommand(CLI::App& app, StudyOptions& options);

// Runs whichever study subcommand was parsed. Throws InputError for bad input.
int runStudy(const StudyCommands& commands, const StudyOptions& options, std::ostream& out, std::ostream& err);

// "2026-11-23" -> days since 1970-01-01. Throws InputError.
long long parseDay(const std::string& text, const std::string& what);

} // namespace warpscope::cli
