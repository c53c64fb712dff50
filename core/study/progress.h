// What a learner has done: lessons read, quiz answers, and each flashcard's schedule. Stored as JSON
// ("warpscope-progress", version 1). The window keeps it in the user's data folder and writes it
// atomically; reading refuses a damaged or unknown file with a message that says where.
#pragma once

#include "study/srs.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::study {

inline constexpr std::string_view kProgressFormat = "warpscope-progress";
inline constexpr int kProgressVersion = 1;

struct LessonVisit {
    std::string lesson;
    std::int64_t at = 0; // seconds since 1970-01-01 UTC
    bool operator==(const LessonVisit&) const = default;
};

struct QuizAnswer {
    std::string question; // question id
    std::string topic;
    std::uint64_t seed = 1;
    bool correct = false;
    std::int64_t at = 0;
    bool operator==(const QuizAnswer&) const = default;
};

struct Progress {
    std::vector<LessonVisit> lessons;       // first visit of each lesson
    std::vector<QuizAnswer> answers;        // every checked answer, oldest first
    std::map<std::string, CardSchedule> cards; // by card id

    bool hasRead(std::string_view lesson) const;
    void markRead(std::string_view lesson, std::int64_t at); // keeps the first visit
    bool operator==(const Progress&) const = default;
};

// The file's text. Deterministic: the same progress gives the same bytes.
std::string writeProgress(const Progress& progress);

// Parses a progress file. Throws InputError naming `origin` and what is wrong: not JSON, another
// format, a newer version, or a field of the wrong type or out of range.
Progress readProgress(std::string_view text, std::string_view origin);

// Merges `incoming` into `base` (an import): lessons and answers are united (duplicates dropped),
// and for each card the schedule with more reviews wins.
Progress mergeProgress(const Progress& base, const Progress& incoming);

// Day number (days since 1970-01-01 UTC) of a time in seconds.
inline std::int64_t dayOf(std::int64_t seconds) { return seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400); }

} // namespace warpscope::study
