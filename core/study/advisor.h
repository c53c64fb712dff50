// The study advisor: mastery per topic from quiz results and card retention, and what to do next,
// each suggestion with its reason in words ("bank conflicts: 2 of 6 right").
//
// Rules, in order of priority (at most `limit` suggestions):
//   1. cards that are due: review them (spaced repetition works only on schedule);
//   2. a weak topic (at least 3 answers, under 70 % right over its last 10): if its lesson is unread,
//      read the lesson, else practise the question of that topic answered wrong most recently;
//   3. topics whose lesson was read but which have no answers yet: take their quiz (two at most);
//   4. the first lesson not read yet, in the lessons' order.
#pragma once

#include "study/cards.h"
#include "study/progress.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace warpscope::study {

struct TopicMastery {
    std::string topic;
    int answered = 0;         // over the last 10 answers of the topic
    int correct = 0;
    int cardReviews = 0;      // all reviews of the topic's cards
    int cardLapses = 0;       // of which graded Again
    int cardsDue = 0;
    bool lessonRead = false;
    double mastery = -1;      // 0..1; -1: nothing to judge yet
};

enum class SuggestionKind { Cards, Lesson, Quiz };

struct Suggestion {
    SuggestionKind kind = SuggestionKind::Lesson;
    std::string topic;
    std::string target;       // lesson id, question id, or "" for the due cards
    std::string reason;       // the evidence, briefly ("Occupancy: 1 of 4 right; its lesson is not read yet")
    std::string link;         // "warpscope:lesson?id=..." for lessons, else ""
    std::string step;         // the step in words, lessons by their titles: "Read “The memory hierarchy”"
    std::string why;          // why this step, from the evidence: what was seen and what the step does about it
};

// Lesson titles by id, as the lessons' files name them: the advisor names lessons by these (by the id
// where one is missing).
using LessonTitles = std::map<std::string, std::string, std::less<>>;

struct Advice {
    std::vector<TopicMastery> topics;    // every quiz topic, in the topic list's order
    std::vector<Suggestion> suggestions;
};

// `lessonOrder`: the lesson ids in the order the app lists them. `today`: a day number.
Advice advise(const Progress& progress, const std::vector<Card>& cards, const std::vector<std::string>& lessonOrder, std::int64_t today,
              std::size_t limit = 5, const LessonTitles& lessonTitles = {});

} // namespace warpscope::study
